/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Structural validation of seccomp programs: the checks of the kernel's bpf_check_classic() and
 * seccomp_check_filter(), and the table of the opcodes seccomp accepts.
 */
#include "bpf-check.h"

#include <errno.h>
#include <inttypes.h>
#include <linux/seccomp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The exact opcodes seccomp_check_filter() lets through (a subset of chk_code_allowed()). */
static const bool seccomp_codes[256] = {
	[BPF_LD | BPF_W | BPF_ABS] = true,
	[BPF_LD | BPF_W | BPF_LEN] = true,
	[BPF_LDX | BPF_W | BPF_LEN] = true,
	[BPF_RET | BPF_K] = true,
	[BPF_RET | BPF_A] = true,
	[BPF_ALU | BPF_ADD | BPF_K] = true,
	[BPF_ALU | BPF_ADD | BPF_X] = true,
	[BPF_ALU | BPF_SUB | BPF_K] = true,
	[BPF_ALU | BPF_SUB | BPF_X] = true,
	[BPF_ALU | BPF_MUL | BPF_K] = true,
	[BPF_ALU | BPF_MUL | BPF_X] = true,
	[BPF_ALU | BPF_DIV | BPF_K] = true,
	[BPF_ALU | BPF_DIV | BPF_X] = true,
	[BPF_ALU | BPF_AND | BPF_K] = true,
	[BPF_ALU | BPF_AND | BPF_X] = true,
	[BPF_ALU | BPF_OR | BPF_K] = true,
	[BPF_ALU | BPF_OR | BPF_X] = true,
	[BPF_ALU | BPF_XOR | BPF_K] = true,
	[BPF_ALU | BPF_XOR | BPF_X] = true,
	[BPF_ALU | BPF_LSH | BPF_K] = true,
	[BPF_ALU | BPF_LSH | BPF_X] = true,
	[BPF_ALU | BPF_RSH | BPF_K] = true,
	[BPF_ALU | BPF_RSH | BPF_X] = true,
	[BPF_ALU | BPF_NEG] = true,
	[BPF_LD | BPF_IMM] = true,
	[BPF_LDX | BPF_IMM] = true,
	[BPF_MISC | BPF_TAX] = true,
	[BPF_MISC | BPF_TXA] = true,
	[BPF_LD | BPF_MEM] = true,
	[BPF_LDX | BPF_MEM] = true,
	[BPF_ST] = true,
	[BPF_STX] = true,
	[BPF_JMP | BPF_JA] = true,
	[BPF_JMP | BPF_JEQ | BPF_K] = true,
	[BPF_JMP | BPF_JEQ | BPF_X] = true,
	[BPF_JMP | BPF_JGE | BPF_K] = true,
	[BPF_JMP | BPF_JGE | BPF_X] = true,
	[BPF_JMP | BPF_JGT | BPF_K] = true,
	[BPF_JMP | BPF_JGT | BPF_X] = true,
	[BPF_JMP | BPF_JSET | BPF_K] = true,
	[BPF_JMP | BPF_JSET | BPF_X] = true,
};

bool bpf_code_allowed(uint16_t code)
{
	return code < sizeof(seccomp_codes) && seccomp_codes[code];
}

static bool bpf_is_cond_jump(uint16_t code)
{
	return BPF_CLASS(code) == BPF_JMP && BPF_OP(code) != BPF_JA;
}

__attribute__((format(printf, 3, 4))) static int bpf_fail(char *err, size_t err_size,
							  const char *fmt, ...)
{
	va_list ap;

	if (err && err_size > 0) {
		va_start(ap, fmt);
		vsnprintf(err, err_size, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* One instruction on its own, in the order bpf_check_classic() then seccomp_check_filter()
 * look at it. */
static int bpf_check_insn(const struct sock_filter *in, size_t pc, size_t len, char *err,
			  size_t err_size)
{
	uint16_t code = in->code;

	if (!bpf_code_allowed(code))
		return bpf_fail(err, err_size,
				"instruction %zu: opcode 0x%04x not allowed in seccomp", pc, code);
	switch (code) {
	case BPF_ALU | BPF_DIV | BPF_K:
		if (in->k == 0)
			return bpf_fail(err, err_size, "instruction %zu: division by constant zero",
					pc);
		break;
	case BPF_ALU | BPF_LSH | BPF_K:
	case BPF_ALU | BPF_RSH | BPF_K:
		if (in->k >= 32)
			return bpf_fail(err, err_size,
					"instruction %zu: shift by %" PRIu32 " >= 32", pc, in->k);
		break;
	case BPF_LD | BPF_MEM:
	case BPF_LDX | BPF_MEM:
	case BPF_ST:
	case BPF_STX:
		if (in->k >= BPF_MEMWORDS)
			return bpf_fail(err, err_size,
					"instruction %zu: scratch cell M[%" PRIu32 "] out of range",
					pc, in->k);
		break;
	case BPF_JMP | BPF_JA:
		if (in->k >= len - pc - 1)
			return bpf_fail(err, err_size,
					"instruction %zu: jump offset %" PRIu32
					" past the end (length %zu)",
					pc, in->k, len);
		break;
	case BPF_LD | BPF_W | BPF_ABS:
		if (in->k >= sizeof(struct seccomp_data) || (in->k & 3))
			return bpf_fail(err, err_size,
					"instruction %zu: load of seccomp_data offset %" PRIu32
					" is %s",
					pc, in->k, in->k & 3 ? "unaligned" : "out of bounds");
		break;
	default:
		if (bpf_is_cond_jump(code) && (pc + 1 + in->jt >= len || pc + 1 + in->jf >= len))
			return bpf_fail(err, err_size,
					"instruction %zu: jump target %zu past the end "
					"(length %zu)",
					pc, pc + 1 + (in->jt > in->jf ? in->jt : in->jf), len);
		break;
	}
	return 0;
}

/*
 * Every read of a scratch cell M[k] comes after a write of it on every path
 * to it. Its own function, called only for programs that read one: its
 * 8 KB frame would otherwise add two pages of stack to every launch.
 */
static __attribute__((noinline)) int check_load_and_stores(const struct sock_filter *insns,
							   size_t len, char *err, size_t err_size)
{
	/* Scratch cells written on every path to each instruction. */
	uint16_t masks[BPF_PROG_MAX], valid = 0;

	/* Jumps only go forward, so one pass in order is a complete data-flow analysis. */
	memset(masks, 0xff, len * sizeof(masks[0]));
	for (size_t pc = 0; pc < len; pc++) {
		const struct sock_filter *in = &insns[pc];

		valid &= masks[pc];
		switch (in->code) {
		case BPF_ST:
		case BPF_STX:
			valid |= 1u << in->k;
			break;
		case BPF_LD | BPF_MEM:
		case BPF_LDX | BPF_MEM:
			if (!(valid & (1u << in->k)))
				return bpf_fail(err, err_size,
						"instruction %zu: reads M[%" PRIu32
						"] before it is written on every path",
						pc, in->k);
			break;
		case BPF_JMP | BPF_JA:
			masks[pc + 1 + in->k] &= valid;
			valid = 0xffff;
			break;
		default:
			if (bpf_is_cond_jump(in->code)) {
				masks[pc + 1 + in->jt] &= valid;
				masks[pc + 1 + in->jf] &= valid;
				valid = 0xffff;
			}
			break;
		}
	}
	return 0;
}

int bpf_validate(const struct sock_filter *insns, size_t len, char *err, size_t err_size)
{
	bool reads_scratch = false;
	int r;

	if (err && err_size > 0)
		err[0] = '\0';
	if (!insns || len == 0 || len > BPF_PROG_MAX)
		return bpf_fail(err, err_size, "program length %zu not in 1..%u", len,
				BPF_PROG_MAX);
	for (size_t pc = 0; pc < len; pc++) {
		r = bpf_check_insn(&insns[pc], pc, len, err, err_size);
		if (r < 0)
			return r;
		reads_scratch |= insns[pc].code == (BPF_LD | BPF_MEM) ||
				 insns[pc].code == (BPF_LDX | BPF_MEM);
	}
	/* The kernel requires it; with forward in-range jumps no path can then fall off the end. */
	if (insns[len - 1].code != (BPF_RET | BPF_K) && insns[len - 1].code != (BPF_RET | BPF_A))
		return bpf_fail(err, err_size, "instruction %zu: last instruction is not a return",
				len - 1);
	return reads_scratch ? check_load_and_stores(insns, len, err, err_size) : 0;
}
