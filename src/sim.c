/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Classic-BPF interpreter for seccomp programs, with the semantics the kernel gives them after
 * bpf_check_classic() and seccomp_check_filter(), and the always-allow cache emulation.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "sim.h"

#include "arch.h"
#include "bpf-check.h"

/* A 32-bit load from seccomp_data: aligned and in bounds, as seccomp_check_filter() demands. */
static int sim_load(const struct seccomp_data *sd, uint32_t k, uint32_t *ret)
{
	if (k >= sizeof(*sd) || (k & 3))
		return -EINVAL;
	memcpy(ret, (const unsigned char *)sd + k, sizeof(*ret));
	return 0;
}

/* A conditional jump; returns -1 if op is not one of the four the kernel accepts. */
static int sim_cond(uint16_t op, uint32_t a, uint32_t v)
{
	switch (op) {
	case BPF_JEQ:
		return a == v;
	case BPF_JGT:
		return a > v;
	case BPF_JGE:
		return a >= v;
	case BPF_JSET:
		return (a & v) != 0;
	default:
		return -1;
	}
}

/*
 * One ALU instruction, its opcode one bpf_code_allowed() accepts. The classic division by a
 * zero X makes the whole program return 0 (bpf_convert_filter() emits that check), reported as
 * *ret_exit; a zero K divisor and a constant shift >= 32 are refused at load time. A shift by X
 * uses X & 31, like the kernel's eBPF interpreter and the x86 and arm64 JITs.
 */
static int sim_alu(uint16_t code, uint32_t k, uint32_t x, uint32_t *a, bool *ret_exit)
{
	bool is_x = BPF_SRC(code) == BPF_X;
	uint32_t v = is_x ? x : k;

	if (code == (BPF_ALU | BPF_NEG)) {
		*a = -*a;
		return 0;
	}
	switch (BPF_OP(code)) {
	case BPF_ADD:
		*a += v;
		break;
	case BPF_SUB:
		*a -= v;
		break;
	case BPF_MUL:
		*a *= v;
		break;
	case BPF_DIV:
		if (v == 0) {
			if (!is_x)
				return -EINVAL;
			*ret_exit = true;
			return 0;
		}
		*a /= v;
		break;
	case BPF_AND:
		*a &= v;
		break;
	case BPF_OR:
		*a |= v;
		break;
	case BPF_XOR:
		*a ^= v;
		break;
	case BPF_LSH:
		if (!is_x && k >= 32)
			return -EINVAL;
		*a <<= v & 31;
		break;
	case BPF_RSH:
		if (!is_x && k >= 32)
			return -EINVAL;
		*a >>= v & 31;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

int sim_run(const struct sock_filter *insns, size_t len, const struct seccomp_data *sd,
	    struct sim_result *ret)
{
	uint32_t a = 0, x = 0, mem[BPF_MEMWORDS] = { 0 };
	uint16_t memvalid = 0;
	size_t pc = 0;
	int r;

	*ret = (struct sim_result){ 0 };
	/* bpf_check_basics_ok() and the "last instruction must be a RET" rule. */
	if (!insns || len == 0 || len > BPF_MAXINSNS)
		return -EINVAL;
	if (insns[len - 1].code != (BPF_RET | BPF_K) && insns[len - 1].code != (BPF_RET | BPF_A))
		return -EINVAL;

	/* Jumps only go forward, so every iteration advances pc: at most len steps. */
	while (pc < len) {
		const struct sock_filter *in = &insns[pc];
		uint32_t k = in->k;
		bool quit = false;
		size_t next = pc + 1;

		ret->executed++;
		/* seccomp_check_filter(): one opcode table for the validator and here */
		if (!bpf_code_allowed(in->code))
			return -EINVAL;
		switch (in->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			if (sim_load(sd, k, &a) < 0)
				return -EINVAL;
			if (k != offsetof(struct seccomp_data, nr) &&
			    k != offsetof(struct seccomp_data, arch))
				ret->touched_args = true;
			break;
		case BPF_LD | BPF_W | BPF_LEN:
			a = sizeof(*sd);
			break;
		case BPF_LDX | BPF_W | BPF_LEN:
			x = sizeof(*sd);
			break;
		case BPF_LD | BPF_IMM:
			a = k;
			break;
		case BPF_LDX | BPF_IMM:
			x = k;
			break;
		case BPF_LD | BPF_MEM:
		case BPF_LDX | BPF_MEM:
			/* Reading an unwritten cell: check_load_and_stores() refuses it. */
			if (k >= BPF_MEMWORDS || !(memvalid & (1u << k)))
				return -EINVAL;
			if (BPF_CLASS(in->code) == BPF_LD)
				a = mem[k];
			else
				x = mem[k];
			break;
		case BPF_ST:
		case BPF_STX:
			if (k >= BPF_MEMWORDS)
				return -EINVAL;
			mem[k] = in->code == BPF_ST ? a : x;
			memvalid |= 1u << k;
			break;
		case BPF_MISC | BPF_TAX:
			x = a;
			break;
		case BPF_MISC | BPF_TXA:
			a = x;
			break;
		case BPF_RET | BPF_K:
			ret->ret = k;
			return 0;
		case BPF_RET | BPF_A:
			ret->ret = a;
			return 0;
		case BPF_JMP | BPF_JA:
			/* bpf_check_classic(): k >= flen - pc - 1 is refused. */
			if (k >= len - pc - 1)
				return -EINVAL;
			next = pc + 1 + k;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
		case BPF_JMP | BPF_JEQ | BPF_X:
		case BPF_JMP | BPF_JGE | BPF_K:
		case BPF_JMP | BPF_JGE | BPF_X:
		case BPF_JMP | BPF_JGT | BPF_K:
		case BPF_JMP | BPF_JGT | BPF_X:
		case BPF_JMP | BPF_JSET | BPF_K:
		case BPF_JMP | BPF_JSET | BPF_X:
			/* Both targets must be in range, whichever is taken. */
			if (pc + 1 + in->jt >= len || pc + 1 + in->jf >= len)
				return -EINVAL;
			r = sim_cond(BPF_OP(in->code), a, BPF_SRC(in->code) == BPF_X ? x : k);
			next = pc + 1 + (r ? in->jt : in->jf);
			break;
		default: /* the allowed opcodes left are the ALU ones */
			if (sim_alu(in->code, k, x, &a, &quit) < 0)
				return -EINVAL;
			if (quit) {
				ret->ret = 0;
				return 0;
			}
			break;
		}
		pc = next;
	}
	/* Unreachable with the last instruction a RET, kept for safety. */
	return -EINVAL;
}

bool sim_is_const_allow(const struct sock_filter *insns, size_t len, uint32_t arch, uint32_t nr)
{
	uint32_t reg = 0;
	size_t pc;
	int r;

	/*
	 * The kernel keeps one bitmap per ABI (native, compat), indexed by the number from 0 to
	 * its table's size, and finds no entry for any other number: none for a negative one,
	 * none for x32's, whose numbers carry ARCH_X32_SYSCALL_BIT, far above any table. So no
	 * x32 call is ever served from the cache (scmp-run(1) --check).
	 */
	if (nr >= ARCH_X32_SYSCALL_BIT)
		return false;
	/*
	 * The kernel's loop, including its trust in a verified program: jumps add to pc and the
	 * loop goes on. The kernel's uprobe/uretprobe exception is not part of the program and
	 * is not emulated here.
	 */
	for (pc = 0; pc < len; pc++) {
		const struct sock_filter *in = &insns[pc];

		switch (in->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			if (in->k == offsetof(struct seccomp_data, nr))
				reg = nr;
			else if (in->k == offsetof(struct seccomp_data, arch))
				reg = arch;
			else
				return false;
			break;
		case BPF_RET | BPF_K:
			return in->k == SECCOMP_RET_ALLOW;
		case BPF_JMP | BPF_JA:
			pc += in->k;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
		case BPF_JMP | BPF_JGE | BPF_K:
		case BPF_JMP | BPF_JGT | BPF_K:
		case BPF_JMP | BPF_JSET | BPF_K:
			r = sim_cond(BPF_OP(in->code), reg, in->k);
			pc += r ? in->jt : in->jf;
			break;
		case BPF_ALU | BPF_AND | BPF_K:
			reg &= in->k;
			break;
		default:
			return false;
		}
	}
	/* Ran off the end: the kernel warns and says "not const". */
	return false;
}
