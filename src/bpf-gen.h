/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to the BPF generator (bpf.c, bpf-args.c): the backwards emitter
 * with its jump targets, and the argument code of one syscall number.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf.h"

/*
 * The program is emitted backwards: every jump goes forward in BPF, so when
 * a jump is emitted its targets already exist. A label is the index of an
 * instruction in emission order; the final program is the reverse.
 */
struct target {
	bool is_ret;
	uint32_t ret;
	size_t label;
};

#define T_RET(x) ((struct target){ .is_ret = true, .ret = (x) })
#define T_LBL(l) ((struct target){ .label = (l) })

#define RET_CACHE     64 /* distinct return values remembered for reuse */
#define BIT_TAILS_MAX 16 /* shared bit-test tails remembered (bpf-args.c) */
#define MEM_TAILS_MAX 16 /* size-first window routines remembered (bpf-args.c) */

struct gen {
	struct sock_filter *buf;
	size_t n, cap;
	struct {
		uint32_t ret;
		size_t label;
	} rets[RET_CACHE];
	size_t n_rets;
	/* "rsh x; jset #1 -> yes, no" of the bit tables, one per (yes, no) */
	struct {
		uint32_t yes, no;
		size_t label;
	} tails[BIT_TAILS_MAX];
	size_t n_tails;
	/* size-first: the routine testing a bit of n windows of masks in
	 * memory, one per (n, yes, no) */
	struct {
		unsigned n;
		uint32_t yes, no;
		size_t label;
	} mems[MEM_TAILS_MAX];
	size_t n_mems;
	bool size_first; /* fewest instructions over fewest executed (bpf.c) */
	bool big_endian;
	int err; /* the first error; emitting goes on harmlessly after it */
};

/* True if a and b lead to the same instruction or return. */
static inline bool target_eq(struct target a, struct target b)
{
	return a.is_ret == b.is_ret && (a.is_ret ? a.ret == b.ret : a.label == b.label);
}

/* A conditional jump "op k" to tt or tf (tt if both are the same); long
 * distances go through "ja" trampolines. Returns the jump. */
struct target gen_jump(struct gen *g, uint16_t op, uint32_t k, struct target tt, struct target tf);

/* A non-jump instruction followed by t. Returns the instruction. */
struct target gen_before(struct gen *g, uint16_t code, uint32_t k, struct target t);

/* A load of one 32-bit half of argument arg (hi: the upper half, in the
 * ABI's byte order) followed by t. */
struct target gen_load(struct gen *g, unsigned arg, bool hi, struct target t);

/*
 * The argument code of syscall s: its rules (after the ones that cannot
 * change the outcome are dropped, see bpf_block_plan()) as one decision
 * tree over the argument words; fall is the outcome when no rule matches.
 * A holds anything on entry. Returns the entry; errors go to g->err.
 */
struct target bpf_args_block(struct gen *g, const struct rsys *s, size_t n_rules, uint32_t fall);
