/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Differential test against the running kernel: random programs (fixed seed) are validated,
 * loaded in forked children and run on real syscalls; the outcome must match sim_run().
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/audit.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bpf.h"
#include "sim.h"
#include "tests/tap.h"

#if defined(__x86_64__)
#define TEST_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define TEST_ARCH AUDIT_ARCH_AARCH64
#else
#define TEST_ARCH 0 /* unknown here: the test skips */
#endif

#ifndef SYS_SECCOMP
#define SYS_SECCOMP 1 /* si_code of a seccomp SIGSYS (asm-generic/siginfo.h) */
#endif

#define N(a)		(sizeof(a) / sizeof((a)[0]))
#define ST(c, k)	BPF_STMT(c, k)
#define JMP(c, k, t, f) BPF_JUMP(c, k, t, f)

#define TEST_NR	 __NR_getppid /* rarely used; the programs act on it only */
#define PROGRAMS 2000
#define CALLS	 6
#define BODY_MAX 40
#define PROG_MAX 80
#define POOL	 8

/* What one child saw. Shared with the child through an anonymous shared mapping. */
struct observed {
	int load_errno; /* -1 until seccomp() returned */
	int cur;	/* the call in progress */
	int done;	/* calls that returned */
	long ret[CALLS];
	int err[CALLS];
	int trap[CALLS]; /* si_errno of a SIGSYS, -1 if none */
};

/* The signal handler needs to find the shared page: set once before any fork. */
static struct observed *shared_obs;

static void on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	if (si->si_code == SYS_SECCOMP && shared_obs->cur >= 0 && shared_obs->cur < CALLS)
		shared_obs->trap[shared_obs->cur] = si->si_errno;
}

struct rng {
	uint64_t s;
};

static uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t rng_below(struct rng *r, uint32_t n)
{
	return (uint32_t)(rng_next(r) % n);
}

struct gen {
	struct sock_filter insns[PROG_MAX];
	size_t len;
	uint32_t pool[POOL];
	uint64_t args[CALLS][6];
};

static uint32_t gen_const(struct rng *r, const struct gen *g)
{
	switch (rng_below(r, 4)) {
	case 0:
		return rng_below(r, 16);
	case 1:
		return (uint32_t)rng_next(r);
	default:
		return g->pool[rng_below(r, POOL)];
	}
}

/* A forward jump target from pc: mostly inside the body, else one of the exits. */
static size_t gen_target(struct rng *r, size_t pc, size_t body_end, const size_t *exits,
			 size_t nexits)
{
	if (pc + 1 < body_end && rng_below(r, 10) < 6)
		return pc + 1 + rng_below(r, (uint32_t)(body_end - pc - 1));
	return exits[rng_below(r, (uint32_t)nexits)];
}

static void gen_body_insn(struct rng *r, struct gen *g, size_t pc, size_t body_end,
			  const size_t *exits, size_t nexits, unsigned *written)
{
	static const uint16_t alu[] = { BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_AND,
					BPF_OR,	 BPF_XOR, BPF_LSH, BPF_RSH };
	static const uint16_t jmp[] = { BPF_JEQ, BPF_JGT, BPF_JGE, BPF_JSET };
	struct sock_filter *in = &g->insns[pc];
	uint32_t c = rng_below(r, 100), k;
	uint16_t op, src;
	size_t t, f;

	if (c < 14) {
		/* Any word but the instruction pointer, which the test cannot know. */
		k = rng_below(r, 14);
		k = k < 2 ? k * 4 : 16 + (k - 2) * 4;
		*in = (struct sock_filter)ST(BPF_LD | BPF_W | BPF_ABS, k);
	} else if (c < 17) {
		*in = (struct sock_filter)ST((c & 1 ? BPF_LD : BPF_LDX) | BPF_W | BPF_LEN, 0);
	} else if (c < 24) {
		*in = (struct sock_filter)ST((c & 1 ? BPF_LD : BPF_LDX) | BPF_IMM, gen_const(r, g));
	} else if (c < 31) {
		/* Mostly a cell stored earlier in program order, which may still miss a path. */
		k = rng_below(r, 4);
		while (*written && !(*written & (1u << k)) && rng_below(r, 8))
			k = rng_below(r, 4);
		*in = (struct sock_filter)ST((c & 1 ? BPF_LD : BPF_LDX) | BPF_MEM, k);
	} else if (c < 38) {
		k = rng_below(r, 4);
		*written |= 1u << k;
		*in = (struct sock_filter)ST(c & 1 ? BPF_ST : BPF_STX, k);
	} else if (c < 66) {
		op = alu[rng_below(r, N(alu))];
		src = c < 56 ? BPF_K : BPF_X;
		k = gen_const(r, g);
		if (op == BPF_DIV && src == BPF_K && k == 0)
			k = 3;
		if ((op == BPF_LSH || op == BPF_RSH) && src == BPF_K)
			k &= 31;
		/* Division by a zero X ends the program; keep it, but rare. */
		if (op == BPF_DIV && src == BPF_X && rng_below(r, 4))
			op = BPF_XOR;
		*in = (struct sock_filter)ST(BPF_ALU | op | src, src == BPF_K ? k : 0);
	} else if (c < 68) {
		*in = (struct sock_filter)ST(BPF_ALU | BPF_NEG, 0);
	} else if (c < 73) {
		*in = (struct sock_filter)ST(BPF_MISC | (c & 1 ? BPF_TAX : BPF_TXA), 0);
	} else if (c < 76) {
		t = gen_target(r, pc, body_end, exits, nexits);
		*in = (struct sock_filter)ST(BPF_JMP | BPF_JA, (uint32_t)(t - pc - 1));
	} else if (c < 97) {
		op = jmp[rng_below(r, N(jmp))];
		src = rng_below(r, 3) ? BPF_K : BPF_X;
		t = gen_target(r, pc, body_end, exits, nexits);
		f = gen_target(r, pc, body_end, exits, nexits);
		k = src == BPF_K ? gen_const(r, g) : 0;
		*in = (struct sock_filter)JMP(BPF_JMP | op | src, k, (uint8_t)(t - pc - 1),
					      (uint8_t)(f - pc - 1));
	} else if (c < 99) {
		k = SECCOMP_RET_ERRNO | rng_below(r, 200);
		*in = (struct sock_filter)ST(BPF_RET | BPF_K, k);
	} else {
		*in = (struct sock_filter)ST(BPF_RET | BPF_A, 0);
	}
}

/* Break a valid-looking program in one of the ways the kernel refuses. */
static void gen_break(struct rng *r, struct gen *g, size_t body_start, size_t body_end)
{
	size_t pc = body_start + rng_below(r, (uint32_t)(body_end - body_start));
	struct sock_filter *in = &g->insns[pc];

	switch (rng_below(r, 10)) {
	case 0:
		*in = (struct sock_filter)ST(BPF_ALU | BPF_DIV | BPF_K, 0);
		break;
	case 1:
		*in = (struct sock_filter)ST(BPF_ALU | BPF_LSH | BPF_K, 32 + rng_below(r, 8));
		break;
	case 2:
		*in = (struct sock_filter)ST(BPF_ST, 16);
		break;
	case 3:
		*in = (struct sock_filter)ST(BPF_LD | BPF_W | BPF_ABS, 1 + rng_below(r, 3));
		break;
	case 4:
		*in = (struct sock_filter)ST(BPF_LD | BPF_W | BPF_ABS, 64);
		break;
	case 5:
		*in = (struct sock_filter)ST(BPF_ALU | BPF_MOD | BPF_K, 3);
		break;
	case 6:
		*in = (struct sock_filter)ST(BPF_LD | BPF_B | BPF_ABS, 0);
		break;
	case 7:
		*in = (struct sock_filter)ST(BPF_JMP | BPF_JA, (uint32_t)(g->len - pc - 1));
		break;
	case 8:
		*in = (struct sock_filter)JMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0,
					      (uint8_t)(g->len - pc - 1));
		break;
	default:
		g->insns[g->len - 1] = (struct sock_filter)ST(BPF_MISC | BPF_TAX, 0);
		break;
	}
}

/*
 * Prologue: act on TEST_NR only. Body: random. Exits: masked errno, errno and trap from A,
 * constant returns (errno, allow, trace without a tracer: ENOSYS, errno above MAX_ERRNO).
 */
static void gen_prog(struct rng *r, struct gen *g, bool broken)
{
	size_t body, body_end, exits[8], nexits = 0, pc, i, j;
	struct sock_filter *p = g->insns;
	unsigned written = 0;

	for (i = 0; i < POOL; i++) {
		uint32_t v = (uint32_t)rng_next(r);

		g->pool[i] = v >> (rng_below(r, 4) * 8);
	}
	body = 4 + rng_below(r, BODY_MAX - 4);
	body_end = 3 + body;
	pc = body_end;
	exits[nexits++] = pc;
	p[pc++] = (struct sock_filter)ST(BPF_ALU | BPF_AND | BPF_K, 0xfff);
	p[pc++] = (struct sock_filter)ST(BPF_ALU | BPF_OR | BPF_K, SECCOMP_RET_ERRNO);
	p[pc++] = (struct sock_filter)ST(BPF_RET | BPF_A, 0);
	exits[nexits++] = pc;
	p[pc++] = (struct sock_filter)ST(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | rng_below(r, 4096));
	exits[nexits++] = pc;
	p[pc++] = (struct sock_filter)ST(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	exits[nexits++] = pc;
	p[pc++] = (struct sock_filter)ST(BPF_ALU | BPF_AND | BPF_K, 0xffff);
	p[pc++] = (struct sock_filter)ST(BPF_ALU | BPF_OR | BPF_K, SECCOMP_RET_TRAP);
	p[pc++] = (struct sock_filter)ST(BPF_RET | BPF_A, 0);
	exits[nexits++] = pc;
	p[pc++] = (struct sock_filter)ST(BPF_RET | BPF_K, SECCOMP_RET_TRACE | 5);
	exits[nexits++] = pc;
	p[pc++] = (struct sock_filter)ST(BPF_ALU | BPF_OR | BPF_K, SECCOMP_RET_ERRNO);
	p[pc++] = (struct sock_filter)ST(BPF_RET | BPF_A, 0);
	exits[nexits++] = pc;
	p[pc++] = (struct sock_filter)ST(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 0xffff);
	g->len = pc;

	p[0] = (struct sock_filter)ST(BPF_LD | BPF_W | BPF_ABS, 0);
	p[1] = (struct sock_filter)JMP(BPF_JMP | BPF_JEQ | BPF_K, TEST_NR, 1, 0);
	p[2] = (struct sock_filter)ST(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	pc = 3;
	/* Half the programs store every cell first, so that their reads are all valid. */
	if (rng_below(r, 2)) {
		for (i = 0; i < 4; i++, pc++)
			p[pc] = (struct sock_filter)ST(rng_below(r, 2) ? BPF_ST : BPF_STX,
						       (uint32_t)i);
		written = 0xf;
	}
	for (; pc < body_end; pc++)
		gen_body_insn(r, g, pc, body_end, exits, nexits, &written);
	if (broken)
		gen_break(r, g, 3, body_end);

	/* Arguments: halves from the program's constants, small numbers or anything. */
	for (i = 0; i < CALLS; i++) {
		for (j = 0; j < 6; j++) {
			uint32_t lo = gen_const(r, g), hi = rng_below(r, 2) ? 0 : gen_const(r, g);

			g->args[i][j] = (uint64_t)hi << 32 | lo;
		}
	}
}

/* Fork, load, make the calls. Returns 0 and fills *o and *ret_sig (0 or the killing signal). */
static int kernel_run(const struct gen *g, struct observed *o, int *ret_sig)
{
	struct sock_fprog fprog = { .len = (unsigned short)g->len,
				    .filter = (struct sock_filter *)g->insns };
	struct sigaction sa = { 0 };
	int status, i;
	pid_t pid;

	memset(o, 0, sizeof(*o));
	o->load_errno = -1;
	o->cur = -1;
	for (i = 0; i < CALLS; i++)
		o->trap[i] = -1;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		/* No core dump for the kill actions. */
		prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
		sa.sa_sigaction = on_sigsys;
		sa.sa_flags = SA_SIGINFO;
		sigaction(SIGSYS, &sa, NULL);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
			_exit(2);
		if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) < 0) {
			o->load_errno = errno;
			_exit(0);
		}
		o->load_errno = 0;
		for (i = 0; i < CALLS; i++) {
			o->cur = i;
			errno = 0;
			o->ret[i] = syscall(TEST_NR, g->args[i][0], g->args[i][1], g->args[i][2],
					    g->args[i][3], g->args[i][4], g->args[i][5]);
			o->err[i] = errno;
			o->done = i + 1;
		}
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	*ret_sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
		return -EIO;
	return 0;
}

/*
 * Compare call i of the child with what the program's return value means to the kernel
 * (kernel/seccomp.c __seccomp_filter()). Returns true if it matches; *ret_killed set if the
 * predicted action kills.
 */
static bool check_call(uint32_t ret, const struct observed *o, int i, int sig, long ppid,
		       bool *ret_killed, char *why, size_t why_size)
{
	uint32_t data = ret & SECCOMP_RET_DATA;

	*ret_killed = false;
	switch (ret & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_ALLOW:
	case SECCOMP_RET_LOG:
		snprintf(why, why_size, "allow: want ppid %ld, got %ld", ppid, o->ret[i]);
		return o->done > i && o->ret[i] == ppid && o->trap[i] < 0;
	case SECCOMP_RET_ERRNO:
		/* The errno is capped at MAX_ERRNO; errno(0) returns 0 without running. */
		if (data > 4095)
			data = 4095;
		snprintf(why, why_size, "errno(%u): got ret %ld errno %d", data, o->ret[i],
			 o->err[i]);
		if (data == 0)
			return o->done > i && o->ret[i] == 0;
		return o->done > i && o->ret[i] == -1 && o->err[i] == (int)data;
	case SECCOMP_RET_TRACE:
	case SECCOMP_RET_USER_NOTIF:
		snprintf(why, why_size, "trace/notify without a tracer: got ret %ld errno %d",
			 o->ret[i], o->err[i]);
		return o->done > i && o->ret[i] == -1 && o->err[i] == ENOSYS;
	case SECCOMP_RET_TRAP:
		snprintf(why, why_size, "trap(%u): got trap %d", data, o->trap[i]);
		return o->done > i && o->trap[i] == (int)data;
	default:
		*ret_killed = true;
		snprintf(why, why_size, "kill (0x%08x): got signal %d at call %d (done %d)", ret,
			 sig, o->cur, o->done);
		return sig == SIGSYS && o->cur == i && o->done == i;
	}
}

/* Load one program in a child; returns the errno of seccomp(), 0 if it loaded. */
static int kernel_load(const struct sock_filter *insns, size_t len, struct observed *o)
{
	struct gen g = { .len = len };
	int sig = 0;

	memcpy(g.insns, insns, len * sizeof(*insns));
	if (kernel_run(&g, o, &sig) < 0 || sig != 0)
		return -1;
	return o->load_errno;
}

/* Prefix body with the TEST_NR check, run it on one call in the kernel and in sim_run(). */
static void check_semantics(const char *what, const struct sock_filter *body, size_t len,
			    uint64_t arg0, struct observed *o)
{
	struct seccomp_data sd = { .nr = TEST_NR, .arch = TEST_ARCH };
	struct gen g = { .len = len + 3 };
	struct sim_result res;
	char why[160] = "";
	bool killed, ok;
	int sig = 0, i;

	g.insns[0] = (struct sock_filter)ST(BPF_LD | BPF_W | BPF_ABS, 0);
	g.insns[1] = (struct sock_filter)JMP(BPF_JMP | BPF_JEQ | BPF_K, TEST_NR, 1, 0);
	g.insns[2] = (struct sock_filter)ST(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	memcpy(g.insns + 3, body, len * sizeof(*body));
	for (i = 0; i < CALLS; i++)
		g.args[i][0] = arg0;
	sd.args[0] = arg0;
	ok = sim_run(g.insns, g.len, &sd, &res) == 0 && kernel_run(&g, o, &sig) == 0 &&
	     o->load_errno == 0 &&
	     check_call(res.ret, o, 0, sig, getpid(), &killed, why, sizeof(why));
	tap_ok(ok, "kernel semantics, %s: sim 0x%08x; %s", what, res.ret, why);
}

static void test_semantics(struct observed *o)
{
	static const struct sock_filter div0[] = {
		ST(BPF_LD | BPF_IMM, SECCOMP_RET_ERRNO | 5),
		ST(BPF_ALU | BPF_DIV | BPF_X, 0),
		ST(BPF_RET | BPF_A, 0),
	};
	static const struct sock_filter rsh33[] = {
		ST(BPF_LD | BPF_IMM, 0x000a0004),
		ST(BPF_LDX | BPF_IMM, 33),
		ST(BPF_ALU | BPF_RSH | BPF_X, 0),
		ST(BPF_RET | BPF_A, 0),
	};
	static const struct sock_filter lsh32[] = {
		ST(BPF_LD | BPF_IMM, SECCOMP_RET_ERRNO | 7),
		ST(BPF_LDX | BPF_IMM, 32),
		ST(BPF_ALU | BPF_LSH | BPF_X, 0),
		ST(BPF_RET | BPF_A, 0),
	};
	static const struct sock_filter len[] = {
		ST(BPF_LD | BPF_W | BPF_LEN, 0),
		ST(BPF_ALU | BPF_OR | BPF_K, SECCOMP_RET_ERRNO),
		ST(BPF_RET | BPF_A, 0),
	};
	static const struct sock_filter xzero[] = {
		ST(BPF_MISC | BPF_TXA, 0),
		ST(BPF_ALU | BPF_ADD | BPF_K, SECCOMP_RET_ERRNO | 9),
		ST(BPF_RET | BPF_A, 0),
	};
	static const struct sock_filter cap[] = {
		ST(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 5000),
	};
	static const struct sock_filter half[] = {
		ST(BPF_LD | BPF_W | BPF_ABS, 20),
		ST(BPF_ALU | BPF_AND | BPF_K, 0xfff),
		ST(BPF_ALU | BPF_OR | BPF_K, SECCOMP_RET_ERRNO),
		ST(BPF_RET | BPF_A, 0),
	};
	static const struct sock_filter arch[] = {
		ST(BPF_LD | BPF_W | BPF_ABS, 4),
		JMP(BPF_JMP | BPF_JEQ | BPF_K, TEST_ARCH, 0, 1),
		ST(BPF_RET | BPF_K, SECCOMP_RET_TRAP | 1),
		ST(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 2),
	};

	check_semantics("div by X = 0 returns 0 (kill)", div0, N(div0), 0, o);
	check_semantics("rsh by X = 33 shifts by 1", rsh33, N(rsh33), 0, o);
	check_semantics("lsh by X = 32 shifts by 0", lsh32, N(lsh32), 0, o);
	check_semantics("ld #len is 64", len, N(len), 0, o);
	check_semantics("X starts at 0", xzero, N(xzero), 0, o);
	check_semantics("errno capped at 4095", cap, N(cap), 0, o);
	check_semantics("ld [20] is a half of arg0", half, N(half), 0x0000012300000456ull, o);
	check_semantics("ld [4] is the arch", arch, N(arch), 0, o);
}

static void test_fixed(struct observed *o)
{
	/* Programs bpf_validate() rejects: the kernel must say EINVAL too. */
	static const struct {
		const char *what;
		struct sock_filter insns[6];
		size_t len;
	} bad[] = {
		{ "mod", { ST(BPF_ALU | BPF_MOD | BPF_K, 2), ST(BPF_RET | BPF_A, 0) }, 2 },
		{ "ld half", { ST(BPF_LD | BPF_H | BPF_ABS, 0), ST(BPF_RET | BPF_A, 0) }, 2 },
		{ "ld [2]", { ST(BPF_LD | BPF_W | BPF_ABS, 2), ST(BPF_RET | BPF_A, 0) }, 2 },
		{ "ld [64]", { ST(BPF_LD | BPF_W | BPF_ABS, 64), ST(BPF_RET | BPF_A, 0) }, 2 },
		{ "div 0", { ST(BPF_ALU | BPF_DIV | BPF_K, 0), ST(BPF_RET | BPF_A, 0) }, 2 },
		{ "lsh 32", { ST(BPF_ALU | BPF_LSH | BPF_K, 32), ST(BPF_RET | BPF_A, 0) }, 2 },
		{ "M[0] unwritten", { ST(BPF_LD | BPF_MEM, 0), ST(BPF_RET | BPF_A, 0) }, 2 },
		{ "M[1] on one path",
		  { JMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1), ST(BPF_STX, 1),
		    ST(BPF_LD | BPF_MEM, 1), ST(BPF_RET | BPF_A, 0) },
		  4 },
		/* every path that runs the read writes M[0] first, but the check
		 * goes on from the return before it (bpf.c, emit_ret()) */
		{ "M[0] behind a return",
		  { JMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 2, 0), ST(BPF_ST, 0), ST(BPF_JMP | BPF_JA, 1),
		    ST(BPF_RET | BPF_K, SECCOMP_RET_ALLOW), ST(BPF_LD | BPF_MEM, 0),
		    ST(BPF_RET | BPF_A, 0) },
		  6 },
		{ "ja past end", { ST(BPF_JMP | BPF_JA, 1), ST(BPF_RET | BPF_A, 0) }, 2 },
		{ "jf past end",
		  { JMP(BPF_JMP | BPF_JGE | BPF_X, 0, 0, 1), ST(BPF_RET | BPF_A, 0) },
		  2 },
		{ "last not ret", { ST(BPF_RET | BPF_A, 0), ST(BPF_MISC | BPF_TAX, 0) }, 2 },
		{ "ret x", { ST(BPF_RET | BPF_X, 0) }, 1 },
	};
	/* Edge programs both must accept. */
	static const struct {
		const char *what;
		struct sock_filter insns[7];
		size_t len;
	} good[] = {
		/* the same with a store no call runs after the return */
		{ "M[0] behind a return and a store",
		  { JMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 2, 0), ST(BPF_ST, 0), ST(BPF_JMP | BPF_JA, 2),
		    ST(BPF_RET | BPF_K, SECCOMP_RET_ALLOW), ST(BPF_ST, 0), ST(BPF_LD | BPF_MEM, 0),
		    ST(BPF_RET | BPF_A, 0) },
		  7 },
		{ "unreachable read of unwritten M",
		  { ST(BPF_JMP | BPF_JA, 1), ST(BPF_LD | BPF_MEM, 5),
		    ST(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) },
		  3 },
		{ "ld [60], lsh 31",
		  { ST(BPF_LD | BPF_W | BPF_ABS, 60), ST(BPF_ALU | BPF_LSH | BPF_K, 31),
		    ST(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) },
		  3 },
		{ "ld [8] (instruction pointer)",
		  { ST(BPF_LD | BPF_W | BPF_ABS, 8), ST(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) },
		  2 },
	};
	char err[160];
	size_t i;
	int r, k;

	for (i = 0; i < N(bad); i++) {
		r = bpf_validate(bad[i].insns, bad[i].len, err, sizeof(err));
		k = kernel_load(bad[i].insns, bad[i].len, o);
		tap_ok(r == -EINVAL && k == EINVAL, "bad %s: validate %d, kernel errno %d ('%s')",
		       bad[i].what, r, k, err);
	}
	for (i = 0; i < N(good); i++) {
		r = bpf_validate(good[i].insns, good[i].len, err, sizeof(err));
		k = kernel_load(good[i].insns, good[i].len, o);
		tap_ok(r == 0 && k == 0, "good %s: validate %d, kernel errno %d", good[i].what, r,
		       k);
	}
}

static void test_random(struct observed *o)
{
	struct seccomp_data sd = { .nr = TEST_NR, .arch = TEST_ARCH };
	unsigned valid = 0, invalid = 0, agree = 0, calls = 0, calls_ok = 0, kills = 0;
	unsigned traps = 0, errnos = 0, allows = 0, enosys = 0, div0 = 0;
	struct rng r = { 0x5eccu };
	long ppid = getpid();
	struct gen g;
	char err[160], why[160];
	int p, i, sig, k, v;

	for (p = 0; p < PROGRAMS; p++) {
		gen_prog(&r, &g, p % 5 == 4);
		v = bpf_validate(g.insns, g.len, err, sizeof(err));
		if (kernel_run(&g, o, &sig) < 0) {
			tap_ok(false, "program %d: child failed", p);
			continue;
		}
		k = o->load_errno;
		if ((v == 0) == (k == 0) && (v == 0 || k == EINVAL)) {
			agree++;
		} else {
			tap_ok(false, "program %d: validate %d ('%s'), kernel errno %d", p, v, err,
			       k);
			bpf_disasm(g.insns, g.len, stdout);
		}
		if (v < 0 || k != 0) {
			invalid++;
			continue;
		}
		valid++;
		for (i = 0; i < CALLS; i++) {
			struct sim_result res;
			bool killed, ok;

			memcpy(sd.args, g.args[i], sizeof(sd.args));
			calls++;
			if (sim_run(g.insns, g.len, &sd, &res) < 0) {
				tap_ok(false, "program %d call %d: sim refused a loaded program", p,
				       i);
				break;
			}
			ok = check_call(res.ret, o, i, sig, ppid, &killed, why, sizeof(why));
			calls_ok += ok;
			if (!ok) {
				tap_ok(false, "program %d call %d: sim 0x%08x, kernel: %s", p, i,
				       res.ret, why);
				bpf_disasm(g.insns, g.len, stdout);
			}
			switch (res.ret & SECCOMP_RET_ACTION_FULL) {
			case SECCOMP_RET_ALLOW:
				allows++;
				break;
			case SECCOMP_RET_ERRNO:
				errnos++;
				break;
			case SECCOMP_RET_TRAP:
				traps++;
				break;
			case SECCOMP_RET_TRACE:
				enosys++;
				break;
			default:
				kills++;
				div0 += res.ret == 0;
				break;
			}
			if (killed || !ok)
				break;
		}
	}
	tap_diag("%u programs: %u loaded, %u refused; %u calls: %u allow, %u errno, %u trap, "
		 "%u trace, %u kill (%u of them return 0)",
		 PROGRAMS, valid, invalid, calls, allows, errnos, traps, enosys, kills, div0);
	tap_ok(agree == PROGRAMS, "validate and kernel agree on %u of %u programs", agree,
	       PROGRAMS);
	tap_ok(calls_ok == calls && calls > 0, "sim and kernel agree on %u of %u calls", calls_ok,
	       calls);
	tap_ok(valid > PROGRAMS / 2 && invalid > PROGRAMS / 10 && allows > 0 && errnos > 0 &&
		       traps > 0 && enosys > 0 && kills > 0,
	       "every kind of outcome was exercised");
}

int main(void)
{
	static const struct sock_filter allow[] = { ST(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	struct timespec t0, t1;
	int k;

	if (TEST_ARCH == 0) {
		tap_skip("no AUDIT_ARCH known for this build architecture");
		return tap_done();
	}
	shared_obs = mmap(NULL, sizeof(*shared_obs), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared_obs == MAP_FAILED) {
		tap_ok(false, "mmap: %s", strerror(errno));
		return tap_done();
	}
	k = kernel_load(allow, N(allow), shared_obs);
	if (k != 0) {
		tap_skip("seccomp(SECCOMP_SET_MODE_FILTER) unavailable here (errno %d)", k);
		return tap_done();
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	test_fixed(shared_obs);
	test_semantics(shared_obs);
	test_random(shared_obs);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	tap_diag("%.2f s", (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	return tap_done();
}
