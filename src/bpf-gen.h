/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to the BPF generator (bpf.c, bpf-args.c, bpf-decide.c): the
 * backwards emitter with its jump targets, the argument code of one syscall
 * number, and one decision of it.
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
#define BIT_TAILS_MAX 16 /* shared bit-test tails remembered (bpf-decide.c) */
#define MEM_TAILS_MAX 16 /* size-first window routines remembered (bpf-decide.c) */

struct gen {
	struct sock_filter *buf;
	uint16_t *need; /* per instruction: the cells it may read unwritten (bpf.c) */
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
	/* need[] is kept: only size-first code uses scratch memory, which the
	 * kernel's check of reads before writes is about (bpf.c set_need()) */
	bool tracks_need;
	bool big_endian;
	int err; /* the first error; emitting goes on harmlessly after it */
	/* err is -E2BIG from the argument code of this syscall: where the
	 * message points (bpf_generate()) */
	const struct rsys *too_complex;
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

/* What was emitted up to a point: instructions and remembered returns. */
struct gen_mark {
	size_t n, n_rets;
	__typeof__(((struct gen *)0)->rets[0]) rets[RET_CACHE];
};

/* Remember in m how far g has emitted. */
void gen_mark_set(const struct gen *g, struct gen_mark *m);

/* Forget what g emitted since m was set (to try another way instead). */
void gen_mark_reset(struct gen *g, const struct gen_mark *m);

/* ---- the argument words and one decision (bpf-decide.c) ---- */

#define WORD_FULL UINT32_MAX /* the mask of a whole word */

/*
 * A word: one 32-bit half of an argument register, ANDed with mask. Its
 * values lie in [0, mask]. Every test of the policy (scmp-run.ini(5)
 * ARGUMENT WIDTHS) is a set of values of such words: a 16-bit test looks at
 * the low word masked with 0xffff, "x & M == v" at the word masked with M,
 * a signed test at the raw word with its set cut at the sign bit, and a
 * 64-bit test at the high word, then the low word.
 */
struct var {
	uint8_t arg;
	bool hi;
	uint32_t mask;
};

/* What A holds: the word of (arg, hi) ANDed with mask, or nothing known. */
struct astate {
	bool valid;
	uint8_t arg;
	bool hi;
	uint32_t mask;
};

/* The values [lo, hi] of a word, sent to t. */
struct word_range {
	uint32_t lo, hi;
	struct target t;
};

/* Whether word v is decided with "jset mask" on the word as it is: the
 * pieces are 0 and the rest (r[0..n), ascending), or the mask has one bit
 * (0 and mask are the only values it leaves). */
bool bpf_decide_jset(const struct var *v, const struct word_range *r, size_t n);

/* What A holds after the load and mask that deciding v needs, from *st.
 * *ret_load and *ret_and say which instructions that takes. */
struct astate bpf_decide_state(const struct var *v, bool jset, const struct astate *st,
			       bool *ret_load, bool *ret_and);

/* The code that puts word v in A (from state *st) and sends it to the
 * targets of r[0..n), ascending and covering [0, v->mask] (n may be 1:
 * then only A is set up). Returns the entry; errors go to g->err. */
struct target bpf_decide(struct gen *g, const struct var *v, bool jset, const struct word_range *r,
			 size_t n, const struct astate *st);

/*
 * The argument code of syscall s: its rules (after the ones that cannot
 * change the outcome are dropped, see bpf_block_plan()) as one decision
 * tree over the argument words; fall is the outcome when no rule matches.
 * A holds anything on entry. Returns the entry; errors go to g->err.
 */
struct target bpf_args_block(struct gen *g, const struct rsys *s, size_t n_rules, uint32_t fall);
