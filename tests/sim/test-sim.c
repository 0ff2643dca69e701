/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of the cBPF simulator (every accepted opcode, refusals, counts), the always-allow
 * cache emulation, bpf_validate() (each bad case names its index) and bpf_disasm().
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/audit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf.h"
#include "sim.h"
#include "tests/tap.h"

#define N(a)		  (sizeof(a) / sizeof((a)[0]))
#define PROG(...)	  ((const struct sock_filter[]){ __VA_ARGS__ })
#define RUN(sd, res, ...) sim_run(PROG(__VA_ARGS__), N(PROG(__VA_ARGS__)), sd, res)
#define ST(c, k)	  BPF_STMT(c, k)
#define JMP(c, k, t, f)	  BPF_JUMP(c, k, t, f)
#define RET_A		  ST(BPF_RET | BPF_A, 0)

static const struct seccomp_data test_sd = {
	.nr = 39,
	.arch = AUDIT_ARCH_X86_64,
	.instruction_pointer = 0x1122334455667788ull,
	.args = { 0x0000000a0000000bull, 0xffffffff00000001ull, 0x100000000ull, 3, 4,
		  0xdeadbeefcafef00dull },
};

/* The 32-bit word of seccomp_data at offset k, as the host lays it out. */
static uint32_t word_at(const struct seccomp_data *sd, uint32_t k)
{
	uint32_t w;

	memcpy(&w, (const unsigned char *)sd + k, sizeof(w));
	return w;
}

static void test_loads(void)
{
	struct sim_result res;
	uint32_t k;
	int r;

	for (k = 0; k < sizeof(struct seccomp_data); k += 4) {
		r = RUN(&test_sd, &res, ST(BPF_LD | BPF_W | BPF_ABS, k), RET_A);
		tap_ok(r == 0 && res.ret == word_at(&test_sd, k) && res.executed == 2 &&
			       res.touched_args == (k >= 8),
		       "ld [%u] = 0x%08" PRIx32 ", touched_args %d", k, res.ret, res.touched_args);
	}
	/* The low half of arg0 is at 16 on little-endian hosts. */
	tap_is(word_at(&test_sd, 16), __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? 0xbu : 0xau,
	       "args are host-order u64");
	r = RUN(&test_sd, &res, ST(BPF_LD | BPF_W | BPF_ABS, 2), RET_A);
	tap_is(r, -EINVAL, "unaligned ld [2] refused");
	r = RUN(&test_sd, &res, ST(BPF_LD | BPF_W | BPF_ABS, 64), RET_A);
	tap_is(r, -EINVAL, "ld [64] past seccomp_data refused");
	r = RUN(&test_sd, &res, ST(BPF_LD | BPF_H | BPF_ABS, 0), RET_A);
	tap_is(r, -EINVAL, "ld half-word refused");
	r = RUN(&test_sd, &res, ST(BPF_LD | BPF_B | BPF_ABS, 0), RET_A);
	tap_is(r, -EINVAL, "ld byte refused");
	r = RUN(&test_sd, &res, ST(BPF_LD | BPF_W | BPF_IND, 0), RET_A);
	tap_is(r, -EINVAL, "ld indirect refused");
	r = RUN(&test_sd, &res, ST(BPF_LDX | BPF_B | BPF_MSH, 0), RET_A);
	tap_is(r, -EINVAL, "ldx msh refused");

	r = RUN(&test_sd, &res, ST(BPF_LD | BPF_W | BPF_LEN, 0), RET_A);
	tap_ok(r == 0 && res.ret == 64 && !res.touched_args, "ld #len = 64");
	r = RUN(&test_sd, &res, ST(BPF_LDX | BPF_W | BPF_LEN, 0), ST(BPF_MISC | BPF_TXA, 0), RET_A);
	tap_ok(r == 0 && res.ret == 64 && res.executed == 3, "ldx #len = 64");
	r = RUN(&test_sd, &res, ST(BPF_LD | BPF_IMM, 0xabcdef01), RET_A);
	tap_ok(r == 0 && res.ret == 0xabcdef01, "ld #imm");
	r = RUN(&test_sd, &res, ST(BPF_LDX | BPF_IMM, 77), ST(BPF_MISC | BPF_TXA, 0), RET_A);
	tap_ok(r == 0 && res.ret == 77, "ldx #imm, txa");
	r = RUN(&test_sd, &res, ST(BPF_LD | BPF_IMM, 78), ST(BPF_MISC | BPF_TAX, 0),
		ST(BPF_LD | BPF_IMM, 0), ST(BPF_MISC | BPF_TXA, 0), RET_A);
	tap_ok(r == 0 && res.ret == 78 && res.executed == 5, "tax");
	r = RUN(&test_sd, &res, RET_A);
	tap_ok(r == 0 && res.ret == 0 && res.executed == 1, "A starts at 0");
	r = RUN(&test_sd, &res, ST(BPF_LD | BPF_IMM, 5), ST(BPF_MISC | BPF_TXA, 0), RET_A);
	tap_ok(r == 0 && res.ret == 0, "X starts at 0");
	/* touched_args sticks once an argument has been read. */
	r = RUN(&test_sd, &res, ST(BPF_LD | BPF_W | BPF_ABS, 24), ST(BPF_LD | BPF_W | BPF_ABS, 0),
		RET_A);
	tap_ok(r == 0 && res.touched_args && res.ret == 39, "touched_args survives a later ld [0]");
}

static void test_memory(void)
{
	struct sim_result res;
	int r;

	r = RUN(&test_sd, &res, ST(BPF_LD | BPF_IMM, 11), ST(BPF_ST, 3), ST(BPF_LD | BPF_IMM, 0),
		ST(BPF_LD | BPF_MEM, 3), RET_A);
	tap_ok(r == 0 && res.ret == 11, "st / ld M[3]");
	r = RUN(&test_sd, &res, ST(BPF_LDX | BPF_IMM, 12), ST(BPF_STX, 15),
		ST(BPF_LDX | BPF_IMM, 0), ST(BPF_LDX | BPF_MEM, 15), ST(BPF_MISC | BPF_TXA, 0),
		RET_A);
	tap_ok(r == 0 && res.ret == 12, "stx / ldx M[15]");
	r = RUN(&test_sd, &res, ST(BPF_LD | BPF_MEM, 0), RET_A);
	tap_is(r, -EINVAL, "ld M[0] never written refused");
	r = RUN(&test_sd, &res, ST(BPF_LDX | BPF_MEM, 4), RET_A);
	tap_is(r, -EINVAL, "ldx M[4] never written refused");
	r = RUN(&test_sd, &res, ST(BPF_ST, 16), RET_A);
	tap_is(r, -EINVAL, "st M[16] refused");
	r = RUN(&test_sd, &res, ST(BPF_STX, 16), RET_A);
	tap_is(r, -EINVAL, "stx M[16] refused");
}

struct alu_case {
	uint16_t op;
	uint32_t a, b, want;
};

static void test_alu(void)
{
	static const struct alu_case cases[] = {
		{ BPF_ADD, 0xfffffff0, 0x20, 0x10 },	{ BPF_SUB, 1, 2, 0xffffffff },
		{ BPF_MUL, 0x10000, 0x10001, 0x10000 }, { BPF_DIV, 100, 7, 14 },
		{ BPF_DIV, 0xffffffff, 2, 0x7fffffff }, { BPF_AND, 0xf0f0, 0xff00, 0xf000 },
		{ BPF_OR, 0xf0f0, 0x0f00, 0xfff0 },	{ BPF_XOR, 0xffff, 0x0ff0, 0xf00f },
		{ BPF_LSH, 1, 31, 0x80000000 },		{ BPF_LSH, 0x12345678, 4, 0x23456780 },
		{ BPF_RSH, 0x80000000, 31, 1 },		{ BPF_RSH, 0x12345678, 0, 0x12345678 },
	};
	struct sim_result res;
	size_t i;
	int r;

	for (i = 0; i < N(cases); i++) {
		const struct alu_case *c = &cases[i];

		r = RUN(&test_sd, &res, ST(BPF_LD | BPF_IMM, c->a),
			ST(BPF_ALU | c->op | BPF_K, c->b), RET_A);
		tap_ok(r == 0 && res.ret == c->want && res.executed == 3,
		       "alu op 0x%02x K: 0x%" PRIx32 ", 0x%" PRIx32 " -> 0x%" PRIx32, c->op, c->a,
		       c->b, res.ret);
		r = RUN(&test_sd, &res, ST(BPF_LD | BPF_IMM, c->a), ST(BPF_LDX | BPF_IMM, c->b),
			ST(BPF_ALU | c->op | BPF_X, 0), RET_A);
		tap_ok(r == 0 && res.ret == c->want && res.executed == 4,
		       "alu op 0x%02x X: 0x%" PRIx32 ", 0x%" PRIx32 " -> 0x%" PRIx32, c->op, c->a,
		       c->b, res.ret);
	}
	r = RUN(&test_sd, &res, ST(BPF_LD | BPF_IMM, 5), ST(BPF_ALU | BPF_NEG, 0), RET_A);
	tap_ok(r == 0 && res.ret == 0xfffffffb, "neg");

	/* Division by X == 0 ends the program with 0 (kill-thread), the return not executed. */
	r = RUN(&test_sd, &res, ST(BPF_LD | BPF_IMM, 5), ST(BPF_ALU | BPF_DIV | BPF_X, 0),
		ST(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
	tap_ok(r == 0 && res.ret == 0 && res.executed == 2, "div by X = 0 returns 0");
	r = RUN(&test_sd, &res, ST(BPF_ALU | BPF_DIV | BPF_K, 0), RET_A);
	tap_is(r, -EINVAL, "div by K = 0 refused");
	/* A shift by X uses the low 5 bits of X. */
	r = RUN(&test_sd, &res, ST(BPF_LD | BPF_IMM, 6), ST(BPF_LDX | BPF_IMM, 33),
		ST(BPF_ALU | BPF_LSH | BPF_X, 0), RET_A);
	tap_ok(r == 0 && res.ret == 12, "lsh by X = 33 shifts by 1");
	r = RUN(&test_sd, &res, ST(BPF_LD | BPF_IMM, 6), ST(BPF_LDX | BPF_IMM, 32),
		ST(BPF_ALU | BPF_RSH | BPF_X, 0), RET_A);
	tap_ok(r == 0 && res.ret == 6, "rsh by X = 32 shifts by 0");
	r = RUN(&test_sd, &res, ST(BPF_ALU | BPF_LSH | BPF_K, 32), RET_A);
	tap_is(r, -EINVAL, "lsh by K = 32 refused");
	r = RUN(&test_sd, &res, ST(BPF_ALU | BPF_RSH | BPF_K, 40), RET_A);
	tap_is(r, -EINVAL, "rsh by K = 40 refused");
	r = RUN(&test_sd, &res, ST(BPF_ALU | BPF_MOD | BPF_K, 3), RET_A);
	tap_is(r, -EINVAL, "mod K refused (not in seccomp's list)");
	r = RUN(&test_sd, &res, ST(BPF_ALU | BPF_MOD | BPF_X, 0), RET_A);
	tap_is(r, -EINVAL, "mod X refused");
	r = RUN(&test_sd, &res, ST(BPF_ALU | BPF_NEG | BPF_X, 0), RET_A);
	tap_is(r, -EINVAL, "neg with the X bit refused");
	r = RUN(&test_sd, &res, ST(BPF_ALU | 0xc0 | BPF_K, 1), RET_A);
	tap_is(r, -EINVAL, "unknown alu op 0xc0 refused");
}

struct jmp_case {
	uint16_t op;
	uint32_t a, b;
	bool taken;
};

static void test_jumps(void)
{
	static const struct jmp_case cases[] = {
		{ BPF_JEQ, 5, 5, true },	  { BPF_JEQ, 5, 6, false },
		{ BPF_JGT, 6, 5, true },	  { BPF_JGT, 5, 5, false },
		{ BPF_JGT, 0x80000000, 1, true }, { BPF_JGE, 5, 5, true },
		{ BPF_JGE, 4, 5, false },	  { BPF_JSET, 6, 2, true },
		{ BPF_JSET, 6, 9, false },
	};
	struct sim_result res;
	size_t i;
	int r;

	for (i = 0; i < N(cases); i++) {
		const struct jmp_case *c = &cases[i];
		uint32_t want = c->taken ? 1 : 2;

		r = RUN(&test_sd, &res, ST(BPF_LD | BPF_IMM, c->a),
			JMP(BPF_JMP | c->op | BPF_K, c->b, 0, 1), ST(BPF_RET | BPF_K, 1),
			ST(BPF_RET | BPF_K, 2));
		tap_ok(r == 0 && res.ret == want && res.executed == 3,
		       "jmp op 0x%02x K: 0x%" PRIx32 " vs 0x%" PRIx32 " -> %" PRIu32, c->op, c->a,
		       c->b, res.ret);
		r = RUN(&test_sd, &res, ST(BPF_LD | BPF_IMM, c->a), ST(BPF_LDX | BPF_IMM, c->b),
			JMP(BPF_JMP | c->op | BPF_X, 0, 0, 1), ST(BPF_RET | BPF_K, 1),
			ST(BPF_RET | BPF_K, 2));
		tap_ok(r == 0 && res.ret == want && res.executed == 4,
		       "jmp op 0x%02x X: 0x%" PRIx32 " vs 0x%" PRIx32 " -> %" PRIu32, c->op, c->a,
		       c->b, res.ret);
	}
	r = RUN(&test_sd, &res, ST(BPF_JMP | BPF_JA, 2), ST(BPF_RET | BPF_K, 1),
		ST(BPF_RET | BPF_K, 2), ST(BPF_RET | BPF_K, 3));
	tap_ok(r == 0 && res.ret == 3 && res.executed == 2, "ja skips two");
	r = RUN(&test_sd, &res, ST(BPF_JMP | BPF_JA, 1), ST(BPF_RET | BPF_K, 1));
	tap_is(r, -EINVAL, "ja past the end refused");
	r = RUN(&test_sd, &res, JMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0), ST(BPF_RET | BPF_K, 1));
	tap_is(r, -EINVAL, "jt past the end refused");
	r = RUN(&test_sd, &res, JMP(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 1), ST(BPF_RET | BPF_K, 1));
	tap_is(r, -EINVAL, "jf past the end refused (even if not taken)");
	r = RUN(&test_sd, &res, JMP(BPF_JMP | 0xe0 | BPF_K, 1, 0, 0), ST(BPF_RET | BPF_K, 1));
	tap_is(r, -EINVAL, "unknown jump op refused");
}

static void test_misc(void)
{
	struct sock_filter big[BPF_PROG_MAX + 1];
	struct sim_result res;
	size_t i;
	int r;

	r = RUN(&test_sd, &res, ST(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 13));
	tap_ok(r == 0 && res.ret == (SECCOMP_RET_ERRNO | 13) && res.executed == 1, "ret #k");
	r = RUN(&test_sd, &res, ST(BPF_RET | BPF_X, 0));
	tap_is(r, -EINVAL, "ret x refused");
	r = RUN(&test_sd, &res, ST(BPF_LD | BPF_IMM, 1), ST(BPF_MISC | BPF_TAX, 0));
	tap_is(r, -EINVAL, "falling off the end refused");
	r = sim_run(PROG(RET_A), 0, &test_sd, &res);
	tap_is(r, -EINVAL, "empty program refused");
	for (i = 0; i < N(big); i++)
		big[i] = (struct sock_filter)ST(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	r = sim_run(big, BPF_PROG_MAX, &test_sd, &res);
	tap_ok(r == 0 && res.ret == SECCOMP_RET_ALLOW, "4096 instructions accepted");
	r = sim_run(big, BPF_PROG_MAX + 1, &test_sd, &res);
	tap_is(r, -EINVAL, "4097 instructions refused");

	/* A small real filter: count instructions on each path. */
	{
		static const struct sock_filter f[] = {
			ST(BPF_LD | BPF_W | BPF_ABS, 4),
			JMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
			ST(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
			ST(BPF_LD | BPF_W | BPF_ABS, 0),
			JMP(BPF_JMP | BPF_JEQ | BPF_K, 39, 0, 3),
			ST(BPF_LD | BPF_W | BPF_ABS, 16),
			JMP(BPF_JMP | BPF_JEQ | BPF_K, 0xb, 1, 0),
			ST(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 1),
			ST(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct seccomp_data sd = test_sd;

		r = sim_run(f, N(f), &sd, &res);
		tap_ok(r == 0 && res.ret == SECCOMP_RET_ALLOW && res.executed == 7 &&
			       res.touched_args,
		       "filter: nr 39 with arg0 0xb allowed after 7 instructions");
		sd.nr = 40;
		r = sim_run(f, N(f), &sd, &res);
		tap_ok(r == 0 && res.ret == SECCOMP_RET_ALLOW && res.executed == 5 &&
			       !res.touched_args,
		       "filter: nr 40 allowed after 5 instructions, no argument read");
		sd.arch = AUDIT_ARCH_I386;
		r = sim_run(f, N(f), &sd, &res);
		tap_ok(r == 0 && res.ret == SECCOMP_RET_KILL_PROCESS && res.executed == 3,
		       "filter: i386 killed after 3 instructions");
	}
}

/* Pure nr/arch tree: x86_64, nr < 0x40000000; 39 allowed, 0..100 allowed, above errno. */
static const struct sock_filter tree[] = {
	ST(BPF_LD | BPF_W | BPF_ABS, 4),
	JMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 8),
	ST(BPF_LD | BPF_W | BPF_ABS, 0),
	JMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 6, 0),
	JMP(BPF_JMP | BPF_JEQ | BPF_K, 39, 4, 0),
	ST(BPF_ALU | BPF_AND | BPF_K, 0xffff),
	JMP(BPF_JMP | BPF_JGT | BPF_K, 100, 1, 0),
	ST(BPF_JMP | BPF_JA, 1),
	ST(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 1),
	ST(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	ST(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
};

static void test_const_allow(void)
{
	static const uint32_t arches[] = { AUDIT_ARCH_X86_64, AUDIT_ARCH_I386 };
	static const struct sock_filter argfirst[] = {
		ST(BPF_LD | BPF_W | BPF_ABS, 16),	  ST(BPF_LD | BPF_W | BPF_ABS, 0),
		JMP(BPF_JMP | BPF_JEQ | BPF_K, 39, 0, 1), ST(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		ST(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	static const struct sock_filter argafter[] = {
		ST(BPF_LD | BPF_W | BPF_ABS, 0),	JMP(BPF_JMP | BPF_JEQ | BPF_K, 39, 1, 0),
		ST(BPF_RET | BPF_K, SECCOMP_RET_ALLOW), ST(BPF_LD | BPF_W | BPF_ABS, 16),
		ST(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	static const struct sock_filter allow[] = {
		ST(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	static const struct sock_filter retA[] = {
		ST(BPF_LD | BPF_IMM, SECCOMP_RET_ALLOW),
		RET_A,
	};
	static const struct sock_filter jmpx[] = {
		ST(BPF_LD | BPF_W | BPF_ABS, 0),
		JMP(BPF_JMP | BPF_JEQ | BPF_X, 0, 0, 1),
		ST(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		ST(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct seccomp_data sd = { 0 };
	struct sim_result res;
	unsigned mismatches = 0, allowed = 0;
	size_t i;
	uint32_t nr;

	tap_ok(sim_is_const_allow(tree, N(tree), AUDIT_ARCH_X86_64, 39), "tree: 39 const allow");
	tap_ok(sim_is_const_allow(tree, N(tree), AUDIT_ARCH_X86_64, 100), "tree: 100 const allow");
	tap_ok(!sim_is_const_allow(tree, N(tree), AUDIT_ARCH_X86_64, 101), "tree: 101 not (errno)");
	tap_ok(!sim_is_const_allow(tree, N(tree), AUDIT_ARCH_X86_64, 0x40000001),
	       "tree: x32 number not (kill)");
	tap_ok(!sim_is_const_allow(tree, N(tree), AUDIT_ARCH_I386, 39), "tree: i386 not (kill)");
	/* Over the whole tree the cache agrees with running it. */
	for (i = 0; i < N(arches); i++) {
		for (nr = 0; nr < 600; nr++) {
			bool c = sim_is_const_allow(tree, N(tree), arches[i], nr);

			sd.arch = arches[i];
			sd.nr = (int)nr;
			if (sim_run(tree, N(tree), &sd, &res) < 0 ||
			    c != (res.ret == SECCOMP_RET_ALLOW && !res.touched_args))
				mismatches++;
			allowed += c;
		}
	}
	tap_ok(mismatches == 0 && allowed == 101,
	       "tree: cache == simulation on 1200 inputs "
	       "(%u allowed, %u mismatches)",
	       allowed, mismatches);
	tap_ok(!sim_is_const_allow(argfirst, N(argfirst), AUDIT_ARCH_X86_64, 39),
	       "argument load before the decision: not const");
	tap_ok(!sim_is_const_allow(argfirst, N(argfirst), AUDIT_ARCH_X86_64, 40),
	       "argument load before the decision: not const for other numbers either");
	tap_ok(!sim_is_const_allow(argafter, N(argafter), AUDIT_ARCH_X86_64, 39),
	       "argument load under 39: 39 not const");
	tap_ok(sim_is_const_allow(argafter, N(argafter), AUDIT_ARCH_X86_64, 40),
	       "argument load under 39: 40 const");
	tap_ok(!sim_is_const_allow(retA, N(retA), AUDIT_ARCH_X86_64, 1),
	       "ld #imm / ret a: not const");
	tap_ok(!sim_is_const_allow(jmpx, N(jmpx), AUDIT_ARCH_X86_64, 1), "jeq x: not const");
	/* The kernel's bitmaps are indexed from 0 up to the table's size: an
	 * x32 number (bit 30) or a negative one has no entry, whatever the
	 * program does; i386, the compat ABI, has a bitmap of its own. */
	tap_ok(sim_is_const_allow(allow, N(allow), AUDIT_ARCH_X86_64, 39) &&
		       sim_is_const_allow(allow, N(allow), AUDIT_ARCH_I386, 39),
	       "allow-all: x86_64 and i386 numbers cached");
	tap_ok(!sim_is_const_allow(allow, N(allow), AUDIT_ARCH_X86_64, 0x40000000u | 39),
	       "allow-all: x32 number not cached");
	tap_ok(!sim_is_const_allow(allow, N(allow), AUDIT_ARCH_X86_64, UINT32_MAX),
	       "allow-all: -1 not cached");
}

/* Each bad program and the index its error must name. */
struct bad_case {
	const char *what;
	struct sock_filter insns[6];
	size_t len, index;
};

#define ALLOW ST(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

static const struct bad_case bad_cases[] = {
	{ "opcode ld half", { ALLOW, ST(BPF_LD | BPF_H | BPF_ABS, 0), ALLOW }, 3, 1 },
	{ "opcode mod", { ST(BPF_ALU | BPF_MOD | BPF_K, 2), ALLOW }, 2, 0 },
	{ "opcode ret x", { ALLOW, ALLOW, ST(BPF_RET | BPF_X, 0) }, 3, 2 },
	{ "opcode 0xffff", { ALLOW, { 0xffff, 0, 0, 0 }, ALLOW }, 3, 1 },
	{ "div by 0", { ST(BPF_LD | BPF_IMM, 1), ST(BPF_ALU | BPF_DIV | BPF_K, 0), RET_A }, 3, 1 },
	{ "lsh 32", { ST(BPF_ALU | BPF_LSH | BPF_K, 32), RET_A }, 2, 0 },
	{ "rsh 33", { ALLOW, ST(BPF_ALU | BPF_RSH | BPF_K, 33), RET_A }, 3, 1 },
	{ "st M[16]", { ST(BPF_ST, 16), RET_A }, 2, 0 },
	{ "ldx M[20]", { ST(BPF_LDX | BPF_MEM, 20), RET_A }, 2, 0 },
	{ "ja past end", { ALLOW, ST(BPF_JMP | BPF_JA, 1), ALLOW }, 3, 1 },
	{ "jt past end", { JMP(BPF_JMP | BPF_JGT | BPF_K, 0, 2, 0), ALLOW, ALLOW }, 3, 0 },
	{ "jf past end", { ALLOW, JMP(BPF_JMP | BPF_JSET | BPF_X, 0, 0, 1), ALLOW }, 3, 1 },
	{ "ld [2]", { ST(BPF_LD | BPF_W | BPF_ABS, 2), RET_A }, 2, 0 },
	{ "ld [64]", { ALLOW, ALLOW, ST(BPF_LD | BPF_W | BPF_ABS, 64), RET_A }, 4, 2 },
	{ "ld [SKF_AD_OFF]", { ST(BPF_LD | BPF_W | BPF_ABS, (uint32_t)SKF_AD_OFF), RET_A }, 2, 0 },
	{ "last not ret", { ALLOW, ST(BPF_LD | BPF_IMM, 0) }, 2, 1 },
	{ "M[0] unwritten", { ST(BPF_LD | BPF_MEM, 0), RET_A }, 2, 0 },
	{ "M[1] written on one path",
	  { JMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1), ST(BPF_ST, 1), ST(BPF_LDX | BPF_MEM, 1),
	    RET_A },
	  4,
	  2 },
	{ "M[2] written, jumped over",
	  { ST(BPF_JMP | BPF_JA, 1), ST(BPF_ST, 2), ST(BPF_LD | BPF_MEM, 2), RET_A },
	  4,
	  2 },
};

/* Good programs, some of them at the edge of what the kernel accepts. */
struct good_case {
	const char *what;
	struct sock_filter insns[6];
	size_t len;
};

static const struct good_case good_cases[] = {
	{ "single ret", { ALLOW }, 1 },
	{ "ret a", { RET_A }, 1 },
	{ "M written on both paths",
	  { JMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 2), ST(BPF_ST, 1), ST(BPF_JMP | BPF_JA, 1),
	    ST(BPF_STX, 1), ST(BPF_LD | BPF_MEM, 1), RET_A },
	  6 },
	{ "unreachable read of unwritten M",
	  { ST(BPF_JMP | BPF_JA, 1), ST(BPF_LD | BPF_MEM, 5), RET_A },
	  3 },
	{ "ld [60], shifts 31, div 1",
	  { ST(BPF_LD | BPF_W | BPF_ABS, 60), ST(BPF_ALU | BPF_LSH | BPF_K, 31),
	    ST(BPF_ALU | BPF_RSH | BPF_K, 31), ST(BPF_ALU | BPF_DIV | BPF_K, 1), RET_A },
	  5 },
	{ "dead code after ret", { ALLOW, ST(BPF_ALU | BPF_NEG, 0), ALLOW }, 3 },
};

static void test_validate(void)
{
	struct sock_filter big[BPF_PROG_MAX + 1];
	char err[160], want[32];
	size_t i;
	int r;

	for (i = 0; i < N(good_cases); i++) {
		r = bpf_validate(good_cases[i].insns, good_cases[i].len, err, sizeof(err));
		tap_ok(r == 0, "validate accepts: %s%s%s", good_cases[i].what, r ? ": " : "",
		       r ? err : "");
	}
	r = bpf_validate(tree, N(tree), err, sizeof(err));
	tap_is(r, 0, "validate accepts the nr/arch tree");
	for (i = 0; i < N(bad_cases); i++) {
		const struct bad_case *c = &bad_cases[i];

		snprintf(want, sizeof(want), "instruction %zu:", c->index);
		r = bpf_validate(c->insns, c->len, err, sizeof(err));
		tap_ok(r == -EINVAL && strncmp(err, want, strlen(want)) == 0,
		       "validate rejects %s: '%s'", c->what, err);
	}
	r = bpf_validate(bad_cases[0].insns, 0, err, sizeof(err));
	tap_ok(r == -EINVAL && strstr(err, "length 0"), "validate rejects length 0: '%s'", err);
	for (i = 0; i < N(big); i++)
		big[i] = (struct sock_filter)ALLOW;
	r = bpf_validate(big, BPF_PROG_MAX, err, sizeof(err));
	tap_is(r, 0, "validate accepts 4096 instructions");
	r = bpf_validate(big, BPF_PROG_MAX + 1, err, sizeof(err));
	tap_ok(r == -EINVAL && strstr(err, "4097"), "validate rejects 4097: '%s'", err);
	r = bpf_validate(bad_cases[0].insns, bad_cases[0].len, NULL, 0);
	tap_is(r, -EINVAL, "validate works without an error buffer");
}

static void test_disasm(void)
{
	static const struct sock_filter f[] = {
		ST(BPF_LD | BPF_W | BPF_ABS, 4),
		JMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		ST(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		ST(BPF_LD | BPF_W | BPF_ABS, 0),
		JMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 9, 0),
		ST(BPF_LD | BPF_W | BPF_ABS, 16),
		ST(BPF_LD | BPF_W | BPF_ABS, 20),
		ST(BPF_LD | BPF_W | BPF_ABS, 12),
		ST(BPF_ALU | BPF_AND | BPF_K, 0xfff),
		ST(BPF_ST, 3),
		ST(BPF_LDX | BPF_MEM, 3),
		JMP(BPF_JMP | BPF_JSET | BPF_X, 0, 0, 1),
		ST(BPF_JMP | BPF_JA, 4),
		ST(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 13),
		ST(BPF_RET | BPF_K, SECCOMP_RET_TRAP | 7),
		ST(BPF_RET | BPF_K, SECCOMP_RET_TRACE | 1),
		ST(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		ST(BPF_RET | BPF_K, SECCOMP_RET_LOG),
		ST(BPF_RET | BPF_K, SECCOMP_RET_KILL_THREAD),
		ST(BPF_LDX | BPF_W | BPF_LEN, 0),
		ST(BPF_MISC | BPF_TXA, 0),
		ST(BPF_ALU | BPF_NEG, 0),
		ST(BPF_ALU | BPF_SUB | BPF_X, 0),
		ST(BPF_LD | BPF_IMM, 0x10),
		ST(BPF_RET | BPF_K, 0x12340000),
		ST(BPF_LD | BPF_H | BPF_ABS, 2),
		ST(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		RET_A,
	};
	static const char want[] =
		"0000: ld      [4]             ; arch\n"
		"0001: jeq     #0xc000003e     jt 0003 jf 0002\n"
		"0002: ret     #0x80000000     ; kill-process\n"
		"0003: ld      [0]             ; nr\n"
		"0004: jge     #0x40000000     jt 0014 jf 0005\n"
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		"0005: ld      [16]            ; arg0 lo\n"
		"0006: ld      [20]            ; arg0 hi\n"
		"0007: ld      [12]            ; ip hi\n"
#else
		"0005: ld      [16]            ; arg0 hi\n"
		"0006: ld      [20]            ; arg0 lo\n"
		"0007: ld      [12]            ; ip lo\n"
#endif
		"0008: and     #0xfff\n"
		"0009: st      M[3]\n"
		"0010: ldx     M[3]\n"
		"0011: jset    x               jt 0012 jf 0013\n"
		"0012: ja      0017\n"
		"0013: ret     #0x0005000d     ; errno(13)\n"
		"0014: ret     #0x00030007     ; trap(7)\n"
		"0015: ret     #0x7ff00001     ; trace(1)\n"
		"0016: ret     #0x7fc00000     ; notify\n"
		"0017: ret     #0x7ffc0000     ; log\n"
		"0018: ret     #0x00000000     ; kill-thread\n"
		"0019: ldx     #len            ; 64\n"
		"0020: txa\n"
		"0021: neg\n"
		"0022: sub     x\n"
		"0023: ld      #0x10\n"
		"0024: ret     #0x12340000     ; unknown action, kill-process\n"
		"0025: .insn   0x0028          jt 0 jf 0 k 0x00000002 ; invalid\n"
		"0026: ret     #0x7fff0000     ; allow\n"
		"0027: ret     a\n";
	char *buf = NULL;
	size_t size = 0;
	FILE *f_out = open_memstream(&buf, &size);

	if (!f_out) {
		tap_ok(false, "open_memstream: %s", strerror(errno));
		return;
	}
	bpf_disasm(f, N(f), f_out);
	fclose(f_out);
	if (!tap_ok(strcmp(buf, want) == 0, "disassembly matches"))
		printf("# got:\n%s", buf);
	free(buf);
}

int main(void)
{
	test_loads();
	test_memory();
	test_alu();
	test_jumps();
	test_misc();
	test_const_allow();
	test_validate();
	test_disasm();
	return tap_done();
}
