/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Structural validation of seccomp programs (the checks of the kernel's bpf_check_classic() and
 * seccomp_check_filter()) and a one-line-per-instruction disassembler.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/seccomp.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "action.h"
#include "bpf.h"

#define BPF_CHECK_MEMWORDS 16 /* BPF_MEMWORDS */

/* The exact opcodes seccomp_check_filter() lets through (a subset of chk_code_allowed()). */
static bool bpf_code_allowed(uint16_t code)
{
	switch (code) {
	case BPF_LD | BPF_W | BPF_ABS:
	case BPF_LD | BPF_W | BPF_LEN:
	case BPF_LDX | BPF_W | BPF_LEN:
	case BPF_RET | BPF_K:
	case BPF_RET | BPF_A:
	case BPF_ALU | BPF_ADD | BPF_K:
	case BPF_ALU | BPF_ADD | BPF_X:
	case BPF_ALU | BPF_SUB | BPF_K:
	case BPF_ALU | BPF_SUB | BPF_X:
	case BPF_ALU | BPF_MUL | BPF_K:
	case BPF_ALU | BPF_MUL | BPF_X:
	case BPF_ALU | BPF_DIV | BPF_K:
	case BPF_ALU | BPF_DIV | BPF_X:
	case BPF_ALU | BPF_AND | BPF_K:
	case BPF_ALU | BPF_AND | BPF_X:
	case BPF_ALU | BPF_OR | BPF_K:
	case BPF_ALU | BPF_OR | BPF_X:
	case BPF_ALU | BPF_XOR | BPF_K:
	case BPF_ALU | BPF_XOR | BPF_X:
	case BPF_ALU | BPF_LSH | BPF_K:
	case BPF_ALU | BPF_LSH | BPF_X:
	case BPF_ALU | BPF_RSH | BPF_K:
	case BPF_ALU | BPF_RSH | BPF_X:
	case BPF_ALU | BPF_NEG:
	case BPF_LD | BPF_IMM:
	case BPF_LDX | BPF_IMM:
	case BPF_MISC | BPF_TAX:
	case BPF_MISC | BPF_TXA:
	case BPF_LD | BPF_MEM:
	case BPF_LDX | BPF_MEM:
	case BPF_ST:
	case BPF_STX:
	case BPF_JMP | BPF_JA:
	case BPF_JMP | BPF_JEQ | BPF_K:
	case BPF_JMP | BPF_JEQ | BPF_X:
	case BPF_JMP | BPF_JGE | BPF_K:
	case BPF_JMP | BPF_JGE | BPF_X:
	case BPF_JMP | BPF_JGT | BPF_K:
	case BPF_JMP | BPF_JGT | BPF_X:
	case BPF_JMP | BPF_JSET | BPF_K:
	case BPF_JMP | BPF_JSET | BPF_X:
		return true;
	default:
		return false;
	}
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
		if (in->k >= BPF_CHECK_MEMWORDS)
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

int bpf_validate(const struct sock_filter *insns, size_t len, char *err, size_t err_size)
{
	/* Scratch cells written on every path to each instruction (check_load_and_stores()). */
	uint16_t masks[BPF_PROG_MAX], valid = 0;
	size_t pc;
	int r;

	if (err && err_size > 0)
		err[0] = '\0';
	if (!insns || len == 0 || len > BPF_PROG_MAX)
		return bpf_fail(err, err_size, "program length %zu not in 1..%u", len,
				BPF_PROG_MAX);
	for (pc = 0; pc < len; pc++) {
		r = bpf_check_insn(&insns[pc], pc, len, err, err_size);
		if (r < 0)
			return r;
	}
	/* The kernel requires it; with forward in-range jumps no path can then fall off the end. */
	if (insns[len - 1].code != (BPF_RET | BPF_K) && insns[len - 1].code != (BPF_RET | BPF_A))
		return bpf_fail(err, err_size, "instruction %zu: last instruction is not a return",
				len - 1);

	/* Jumps only go forward, so one pass in order is a complete data-flow analysis. */
	memset(masks, 0xff, len * sizeof(masks[0]));
	for (pc = 0; pc < len; pc++) {
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

/* The name of a 32-bit word of seccomp_data, in host byte order for the 64-bit fields. */
static void bpf_format_field(uint32_t k, char *buf, size_t size)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const char *half = (k & 4) ? "hi" : "lo";
#else
	const char *half = (k & 4) ? "lo" : "hi";
#endif

	if (k == 0)
		snprintf(buf, size, "nr");
	else if (k == 4)
		snprintf(buf, size, "arch");
	else if (k == 8 || k == 12)
		snprintf(buf, size, "ip %s", half);
	else if (k >= 16 && k < sizeof(struct seccomp_data) && !(k & 3))
		snprintf(buf, size, "arg%" PRIu32 " %s", (k - 16) / 8, half);
	else
		snprintf(buf, size, "invalid offset");
}

static const char *bpf_alu_name(uint16_t op)
{
	switch (op) {
	case BPF_ADD:
		return "add";
	case BPF_SUB:
		return "sub";
	case BPF_MUL:
		return "mul";
	case BPF_DIV:
		return "div";
	case BPF_AND:
		return "and";
	case BPF_OR:
		return "or";
	case BPF_XOR:
		return "xor";
	case BPF_LSH:
		return "lsh";
	case BPF_RSH:
		return "rsh";
	default:
		return NULL;
	}
}

static const char *bpf_jmp_name(uint16_t op)
{
	switch (op) {
	case BPF_JEQ:
		return "jeq";
	case BPF_JGT:
		return "jgt";
	case BPF_JGE:
		return "jge";
	case BPF_JSET:
		return "jset";
	default:
		return NULL;
	}
}

/* Mnemonic, operand, and the trailing part (jump targets or a comment) of one instruction. */
static void bpf_format_insn(const struct sock_filter *in, size_t pc, char *op, size_t op_size,
			    char *arg, size_t arg_size, char *tail, size_t tail_size)
{
	uint16_t code = in->code;
	char buf[48];

	arg[0] = tail[0] = '\0';
	if (!bpf_code_allowed(code)) {
		snprintf(op, op_size, ".insn");
		snprintf(arg, arg_size, "0x%04x", code);
		snprintf(tail, tail_size, "jt %u jf %u k 0x%08" PRIx32 " ; invalid", in->jt, in->jf,
			 in->k);
		return;
	}
	switch (code) {
	case BPF_LD | BPF_W | BPF_ABS:
		snprintf(op, op_size, "ld");
		snprintf(arg, arg_size, "[%" PRIu32 "]", in->k);
		bpf_format_field(in->k, buf, sizeof(buf));
		snprintf(tail, tail_size, "; %s", buf);
		return;
	case BPF_LD | BPF_W | BPF_LEN:
	case BPF_LDX | BPF_W | BPF_LEN:
		snprintf(op, op_size, "%s", code == (BPF_LD | BPF_W | BPF_LEN) ? "ld" : "ldx");
		snprintf(arg, arg_size, "#len");
		snprintf(tail, tail_size, "; %zu", sizeof(struct seccomp_data));
		return;
	case BPF_LD | BPF_IMM:
	case BPF_LDX | BPF_IMM:
		snprintf(op, op_size, "%s", code == (BPF_LD | BPF_IMM) ? "ld" : "ldx");
		snprintf(arg, arg_size, "#0x%" PRIx32, in->k);
		return;
	case BPF_LD | BPF_MEM:
	case BPF_LDX | BPF_MEM:
		snprintf(op, op_size, "%s", code == (BPF_LD | BPF_MEM) ? "ld" : "ldx");
		snprintf(arg, arg_size, "M[%" PRIu32 "]", in->k);
		return;
	case BPF_ST:
	case BPF_STX:
		snprintf(op, op_size, "%s", code == BPF_ST ? "st" : "stx");
		snprintf(arg, arg_size, "M[%" PRIu32 "]", in->k);
		return;
	case BPF_MISC | BPF_TAX:
		snprintf(op, op_size, "tax");
		return;
	case BPF_MISC | BPF_TXA:
		snprintf(op, op_size, "txa");
		return;
	case BPF_ALU | BPF_NEG:
		snprintf(op, op_size, "neg");
		return;
	case BPF_RET | BPF_A:
		snprintf(op, op_size, "ret");
		snprintf(arg, arg_size, "a");
		return;
	case BPF_RET | BPF_K:
		snprintf(op, op_size, "ret");
		snprintf(arg, arg_size, "#0x%08" PRIx32, in->k);
		action_format_ret(in->k, NULL, buf, (unsigned)sizeof(buf));
		snprintf(tail, tail_size, "; %s", buf);
		return;
	case BPF_JMP | BPF_JA:
		snprintf(op, op_size, "ja");
		snprintf(arg, arg_size, "%04zu", pc + 1 + (size_t)in->k);
		return;
	default:
		break;
	}
	if (BPF_SRC(code) == BPF_X)
		snprintf(arg, arg_size, "x");
	else
		snprintf(arg, arg_size, "#0x%" PRIx32, in->k);
	if (BPF_CLASS(code) == BPF_ALU) {
		snprintf(op, op_size, "%s", bpf_alu_name(BPF_OP(code)));
		return;
	}
	snprintf(op, op_size, "%s", bpf_jmp_name(BPF_OP(code)));
	snprintf(tail, tail_size, "jt %04zu jf %04zu", pc + 1 + in->jt, pc + 1 + in->jf);
}

void bpf_disasm(const struct sock_filter *insns, size_t len, FILE *f)
{
	char op[16], arg[32], tail[64], line[160];
	size_t pc, n;

	for (pc = 0; pc < len; pc++) {
		bpf_format_insn(&insns[pc], pc, op, sizeof(op), arg, sizeof(arg), tail,
				sizeof(tail));
		snprintf(line, sizeof(line), "%04zu: %-8s%-16s%s", pc, op, arg, tail);
		n = strlen(line);
		while (n > 0 && line[n - 1] == ' ')
			line[--n] = '\0';
		fprintf(f, "%s\n", line);
	}
}
