/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The disassembler: one line per instruction of a classic-BPF seccomp program, with the field a
 * load reads and the action a return stands for.
 */
#include <inttypes.h>
#include <linux/seccomp.h>
#include <stdint.h>
#include <string.h>

#include "action.h"
#include "bpf-check.h"
#include "bpf.h"

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
