/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The code of one decision of the argument tree: a word of the arguments
 * in A, its values cut into ranges with a target each, sent on in the
 * fewest instructions (chains, bit tests, bit tables, a search of blocks).
 */
#include "bpf-gen.h"

#include <stdlib.h>

/* Instructions a chain testing "x in the ranges of t" needs. */
static size_t chain_cost(const struct word_range *r, size_t n, struct target t, uint32_t lo,
			 uint32_t hi)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		if (target_eq(r[i].t, t))
			c += r[i].lo == r[i].hi ? 1 : (r[i].lo > lo) + (r[i].hi < hi);
	return c;
}

/* "x in the ranges of yes", ascending: below a range means in none after
 * it (no); above the last one means no. [lo, hi] is what x can be. */
static struct target chain(struct gen *g, const struct word_range *r, size_t n, struct target yes,
			   struct target no, uint32_t lo, uint32_t hi)
{
	struct target next = no;

	for (size_t i = n; i-- > 0;) {
		struct target t;

		if (!target_eq(r[i].t, yes))
			continue;
		if (r[i].lo == r[i].hi) {
			next = gen_jump(g, BPF_JEQ, r[i].lo, yes, next);
			continue;
		}
		t = r[i].hi >= hi ? yes : gen_jump(g, BPF_JGT, r[i].hi, next, yes);
		next = r[i].lo <= lo ? t : gen_jump(g, BPF_JGE, r[i].lo, t, no);
	}
	return next;
}

static bool two_targets(const struct word_range *r, size_t n, struct target a, struct target b)
{
	for (size_t i = 0; i < n; i++)
		if (!target_eq(r[i].t, a) && !target_eq(r[i].t, b))
			return false;
	return true;
}

/*
 * A bit table: "x in the ranges of yes" as windows of 32 values, each with
 * a 32-bit mask (bit i: value w + i), tested with
 *
 *	sub #w; [jgt #top -> no;] tax; ld #mask; rsh x; jset #1 -> yes, no
 *
 * or, when the windows follow each other from w0 on (shared), with one
 * shift count for all of them and the word loaded again for the search:
 *
 *	sub #w0; [jgt #end -> no;] and #31; tax; ld word; "jge w" ...;
 *	ld #mask; rsh x; jset #1 -> yes, no
 *
 * X is always below 32 at the shift. A window whose ranges are fewer
 * instructions as a chain is a chain. The windows are found with "jge w"
 * from the highest one down. The code changes A and X, so both targets
 * must be returns.
 */
#define WIN_MAX 64 /* windows of one bit table */

struct window {
	uint32_t w, top, mask; /* values [w, w + top]; bit i of mask: w + i is yes */
	size_t first, end;     /* its yes ranges, clipped: yr[first..end) */
	bool bits;	       /* a bit test, not a chain */
};

enum table_mode {
	T_GREEDY,  /* a window starts at its first yes value */
	T_ALIGNED, /* ... or 32 values after the one before, when it can */
	T_SHARED,  /* windows every 32 values from the first: one shift count */
	T_MODES
};

struct table {
	struct window win[WIN_MAX];
	size_t n_win;
	enum table_mode mode;
	uint32_t end; /* T_SHARED: the last yes value */
	struct word_range *yr;
	size_t n_yr;
};

/* The tail "rsh x; jset #1 -> yes, no" shared by the bit tests of the
 * program, or none yet (NULL). */
static const size_t *bit_tail(const struct gen *g, struct target yes, struct target no)
{
	for (size_t i = 0; i < g->n_tails; i++)
		if (g->tails[i].yes == yes.ret && g->tails[i].no == no.ret)
			return &g->tails[i].label;
	return NULL;
}

/* The shared tail "rsh x; jset #1 -> yes, no", emitted on first use. */
static struct target shift_tail(struct gen *g, struct target yes, struct target no)
{
	const size_t *l = bit_tail(g, yes, no);
	struct target t;

	if (l)
		return T_LBL(*l);
	t = gen_jump(g, BPF_JSET, 1, yes, no);
	t = gen_before(g, BPF_ALU | BPF_RSH | BPF_X, 0, t);
	if (g->n_tails < BIT_TAILS_MAX)
		g->tails[g->n_tails++] = (__typeof__(g->tails[0])){ yes.ret, no.ret, t.label };
	return t;
}

/* One bit test: "ld #mask", then the shared tail (X holds the count). */
static struct target bit_test(struct gen *g, uint32_t mask, struct target yes, struct target no)
{
	return gen_before(g, BPF_LD | BPF_IMM, mask, shift_tail(g, yes, no));
}

/* The domain of shared window k: from its start to the one of the next
 * (a gap between them is sent to no first), the last one to tb->end. */
static uint32_t shared_top(const struct table *tb, size_t k)
{
	return k + 1 < tb->n_win || tb->end - tb->win[k].w > 31 ? 31 : tb->end - tb->win[k].w;
}

static size_t shared_cost(const struct var *v, struct table *tb, struct target yes, uint32_t lo,
			  uint32_t hi)
{
	uint32_t w0 = tb->win[0].w;
	size_t cost = (w0 != 0) + 3 + (v->mask != WORD_FULL) + tb->n_win - 1;

	tb->end = tb->yr[tb->n_yr - 1].hi;
	cost += lo < w0 || hi > tb->end; /* the "jgt" */
	for (size_t k = 0; k < tb->n_win; k++) {
		struct window *wk = &tb->win[k];
		size_t cc = chain_cost(tb->yr + wk->first, wk->end - wk->first, yes, wk->w,
				       wk->w + shared_top(tb, k));

		if (k + 1 < tb->n_win && tb->win[k + 1].w - wk->w > 32)
			cost++; /* "jge" of the gap above */
		wk->bits = cc > 2;
		cost += wk->bits ? 2 : cc;
	}
	return cost;
}

static struct target shared_emit(struct gen *g, const struct var *v, const struct table *tb,
				 struct target yes, struct target no, uint32_t lo, uint32_t hi)
{
	struct target code[WIN_MAX], t;
	uint32_t w0 = tb->win[0].w;

	for (size_t k = tb->n_win; k-- > 0;) {
		const struct window *wk = &tb->win[k];

		if (!wk->bits) {
			code[k] = chain(g, tb->yr + wk->first, wk->end - wk->first, yes, no, wk->w,
					wk->w + shared_top(tb, k));
			continue;
		}
		code[k] = bit_test(g, wk->mask, yes, no);
	}
	t = code[0];
	for (size_t k = 1; k < tb->n_win; k++) {
		if (tb->win[k].w - tb->win[k - 1].w > 32)
			t = gen_jump(g, BPF_JGE, tb->win[k - 1].w + 32, no, t);
		t = gen_jump(g, BPF_JGE, tb->win[k].w, code[k], t);
	}
	if (v->mask != WORD_FULL)
		t = gen_before(g, BPF_ALU | BPF_AND | BPF_K, v->mask, t);
	t = gen_load(g, v->arg, v->hi, t);
	t = gen_before(g, BPF_MISC | BPF_TAX, 0, t);
	t = gen_before(g, BPF_ALU | BPF_AND | BPF_K, 31, t);
	if (lo < w0 || hi > tb->end) /* below w0 wraps around */
		t = gen_jump(g, BPF_JGT, tb->end - w0, no, t);
	if (w0)
		t = gen_before(g, BPF_ALU | BPF_SUB | BPF_K, w0, t);
	return t;
}

/* Plan the bit table of "x in the ranges of yes" for x in [lo, hi] into tb
 * (tb->yr has room for n + WIN_MAX ranges): a window starts at the first
 * yes value it holds, or (aligned) 32 values after the one before it when
 * that value is in it, so the one before needs no "jgt". Returns its
 * instructions, or SIZE_MAX when it needs over WIN_MAX windows. */
static size_t table_plan(const struct var *v, const struct word_range *r, size_t n,
			 struct target yes, uint32_t lo, uint32_t hi, enum table_mode mode,
			 struct table *tb)
{
	size_t cost;

	tb->n_win = tb->n_yr = 0;
	tb->mode = mode;
	for (size_t i = 0; i < n; i++) {
		uint64_t a = r[i].lo, b = r[i].hi;

		if (!target_eq(r[i].t, yes))
			continue;
		while (a <= b) {
			struct window *cur = tb->n_win ? &tb->win[tb->n_win - 1] : NULL;
			uint64_t e;

			if (!cur || a > (uint64_t)cur->w + 31) {
				uint64_t w = a;

				if (tb->n_win == WIN_MAX)
					return SIZE_MAX;
				if (mode == T_ALIGNED && cur && a <= (uint64_t)cur->w + 63)
					w = (uint64_t)cur->w + 32;
				if (mode == T_SHARED && cur)
					w = tb->win[0].w + ((a - tb->win[0].w) & ~(uint64_t)31);
				cur = &tb->win[tb->n_win++];
				*cur = (struct window){ .w = (uint32_t)w, .first = tb->n_yr };
			}
			e = b < (uint64_t)cur->w + 31 ? b : (uint64_t)cur->w + 31;
			tb->yr[tb->n_yr++] = (struct word_range){ (uint32_t)a, (uint32_t)e, yes };
			cur->end = tb->n_yr;
			cur->top = (uint32_t)(e - cur->w);
			cur->mask |= (e - a == 31 ? WORD_FULL : ((1u << (e - a + 1)) - 1))
				     << (a - cur->w);
			a = e + 1;
		}
	}
	if (!tb->n_win)
		return SIZE_MAX;
	if (mode == T_SHARED)
		return shared_cost(v, tb, yes, lo, hi);
	cost = tb->n_win - 1; /* the "jge w" of every window but the first */
	for (size_t k = 0; k < tb->n_win; k++) {
		struct window *wk = &tb->win[k];
		uint32_t dlo = k ? wk->w : lo;
		uint32_t dhi = k + 1 < tb->n_win ? tb->win[k + 1].w - 1 : hi;
		size_t cc = chain_cost(tb->yr + wk->first, wk->end - wk->first, yes, dlo, dhi);
		size_t bc = 3 + (wk->w != 0) + (dlo < wk->w || dhi - wk->w > wk->top);

		wk->bits = bc < cc;
		cost += wk->bits ? bc : cc;
	}
	return cost;
}

/* Emit the bit table tb planned for x in [lo, hi]. */
static struct target table_emit(struct gen *g, const struct var *v, const struct table *tb,
				struct target yes, struct target no, uint32_t lo, uint32_t hi)
{
	struct target code[WIN_MAX], t;

	if (!tb->n_win) /* no window: no value is yes */
		return no;
	if (tb->mode == T_SHARED)
		return shared_emit(g, v, tb, yes, no, lo, hi);

	for (size_t k = tb->n_win; k-- > 0;) {
		const struct window *wk = &tb->win[k];
		uint32_t dlo = k ? wk->w : lo;
		uint32_t dhi = k + 1 < tb->n_win ? tb->win[k + 1].w - 1 : hi;

		if (!wk->bits) {
			code[k] = chain(g, tb->yr + wk->first, wk->end - wk->first, yes, no, dlo,
					dhi);
			continue;
		}
		t = bit_test(g, wk->mask, yes, no);
		t = gen_before(g, BPF_MISC | BPF_TAX, 0, t);
		/* below w (it wraps around) or above the highest bit: no */
		if (dlo < wk->w || dhi - wk->w > wk->top)
			t = gen_jump(g, BPF_JGT, wk->top, no, t);
		if (wk->w)
			t = gen_before(g, BPF_ALU | BPF_SUB | BPF_K, wk->w, t);
		code[k] = t;
	}
	t = code[0];
	for (size_t k = 1; k < tb->n_win; k++)
		t = gen_jump(g, BPF_JGE, tb->win[k].w, code[k], t);
	return t;
}

/*
 * The size-first bit table (g->size_first, see bpf.c): windows of 32
 * values every 32 from the first yes value w0, tested by one routine that
 * every table of as many windows and the same targets shares. A table
 * passes the masks of its windows but the last in M[0..n-2], the last one
 * in X, and x - w0 in A:
 *
 *	ldx #mask0; stx M[0]; ...; ldx #mask(n-1); [sub #w0;] ja routine
 *
 * 2n + 1 or 2n + 2 instructions for n windows, against about 4n + 2 for
 * the tables above; the routine (mem_routine()) executes 6 to about n + 6.
 */
#define MEM_WIN_MAX 8  /* windows of a size-first table: M[0..6] and X */
#define MEM_SCRATCH 15 /* the memory word the routine swaps A and X through */

struct mem_table {
	uint32_t w0, mask[MEM_WIN_MAX];
	unsigned n;
};

/* Plan the size-first table of "x in the ranges of yes" into mt. Returns
 * its instructions without the routine (shared, so paid once), or
 * SIZE_MAX when its values span over MEM_WIN_MAX windows. */
static size_t mem_plan(const struct word_range *r, size_t n, struct target yes,
		       struct mem_table *mt)
{
	*mt = (struct mem_table){ .n = 0 };
	for (size_t i = 0; i < n; i++) {
		if (!target_eq(r[i].t, yes))
			continue;
		if (!mt->n)
			mt->w0 = r[i].lo;
		for (uint64_t x = r[i].lo; x <= r[i].hi; x++) {
			uint64_t k = x - mt->w0;

			if (k >= 32 * MEM_WIN_MAX)
				return SIZE_MAX;
			mt->mask[k / 32] |= 1u << (k % 32);
			mt->n = (unsigned)(k / 32 + 1);
		}
	}
	return mt->n ? 2 * mt->n + (mt->w0 != 0) + 1 : SIZE_MAX;
}

/*
 * The routine of size-first tables of n windows: A = x - w0 (a value below
 * w0 wrapped around), M[j] the mask of window j < n - 1, X the last mask.
 *
 *	jgt #(32n - 1) -> no; jge #32(n-1) -> W(n-1); ...; jge #32 -> W1
 *	W0:  tax; ld M[0]; ja tail
 *	Wj:  sub #32j; tax; ld M[j]; ja tail
 *	Wn-1: [sub #32(n-1);] st M[15]; txa; ldx M[15]	(swap A and X)
 *	tail: rsh x; jset #1 -> yes, no
 *
 * Every path into Wj comes from a table that stored M[j] (the kernel
 * checks that), and X is below 32 at the shift.
 */
static struct target mem_routine(struct gen *g, unsigned n, struct target yes, struct target no)
{
	struct target w[MEM_WIN_MAX], tail, t;

	for (size_t i = 0; i < g->n_mems; i++)
		if (g->mems[i].n == n && g->mems[i].yes == yes.ret && g->mems[i].no == no.ret)
			return T_LBL(g->mems[i].label);
	tail = shift_tail(g, yes, no);
	t = gen_before(g, BPF_LDX | BPF_MEM, MEM_SCRATCH, tail);
	t = gen_before(g, BPF_MISC | BPF_TXA, 0, t);
	t = gen_before(g, BPF_ST, MEM_SCRATCH, t);
	if (n > 1)
		t = gen_before(g, BPF_ALU | BPF_SUB | BPF_K, 32 * (n - 1), t);
	w[n - 1] = t;
	for (unsigned j = n - 1; j-- > 0;) {
		t = gen_before(g, BPF_LD | BPF_MEM, j, tail);
		t = gen_before(g, BPF_MISC | BPF_TAX, 0, t);
		if (j)
			t = gen_before(g, BPF_ALU | BPF_SUB | BPF_K, 32 * j, t);
		w[j] = t;
	}
	t = w[0];
	for (unsigned j = 1; j < n; j++)
		t = gen_jump(g, BPF_JGE, 32 * j, w[j], t);
	t = gen_jump(g, BPF_JGT, 32 * n - 1, no, t);
	if (g->n_mems < MEM_TAILS_MAX)
		g->mems[g->n_mems++] = (__typeof__(g->mems[0])){ n, yes.ret, no.ret, t.label };
	return t;
}

static struct target mem_emit(struct gen *g, const struct mem_table *mt, struct target yes,
			      struct target no)
{
	struct target t = mem_routine(g, mt->n, yes, no);

	if (mt->w0)
		t = gen_before(g, BPF_ALU | BPF_SUB | BPF_K, mt->w0, t);
	t = gen_before(g, BPF_LDX | BPF_IMM, mt->mask[mt->n - 1], t);
	for (unsigned j = mt->n - 1; j-- > 0;) {
		t = gen_before(g, BPF_STX, j, t);
		t = gen_before(g, BPF_LDX | BPF_IMM, mt->mask[j], t);
	}
	return t;
}

/* A bit table's plan with room for its yes ranges (n + WIN_MAX); NULL on
 * ENOMEM (then no table is tried: a chain is as correct). On the heap: its
 * windows make it 3.5 KB, a page of stack on every launch. */
static struct table *table_new(size_t n)
{
	struct table *tb = calloc(1, sizeof(*tb));

	if (tb && !(tb->yr = calloc(n + WIN_MAX, sizeof(*tb->yr)))) {
		free(tb);
		tb = NULL;
	}
	return tb;
}

static void table_free(struct table *tb)
{
	if (tb)
		free(tb->yr);
	free(tb);
}

/* "x in the ranges of one of two targets": a chain, or a bit table when
 * both targets are returns and the table is shorter. */
static struct target two_way(struct gen *g, const struct var *v, const struct word_range *r,
			     size_t n, struct target a, struct target b, uint32_t lo, uint32_t hi)
{
	size_t ca = chain_cost(r, n, a, lo, hi), cb = chain_cost(r, n, b, lo, hi);
	struct target yes = cb <= ca ? b : a, no = cb <= ca ? a : b;
	size_t best = cb <= ca ? cb : ca, pick = 2 * T_MODES;
	struct table *tb = NULL;

	if (a.is_ret && b.is_ret && best > 5)
		tb = table_new(n);
	/* the same order of preference as the chains: b first */
	for (size_t i = 0; tb && i < 2 * T_MODES; i++) {
		size_t c = table_plan(v, r, n, i < T_MODES ? b : a, lo, hi, i % T_MODES, tb);

		if (c < best) {
			best = c;
			pick = i;
		}
	}
	if (g->size_first && a.is_ret && b.is_ret) {
		struct mem_table mt[2];
		size_t mb = mem_plan(r, n, b, &mt[0]), ma = mem_plan(r, n, a, &mt[1]);
		bool on_a = ma < mb;

		if ((on_a ? ma : mb) < best) {
			table_free(tb);
			return mem_emit(g, &mt[on_a], on_a ? a : b, on_a ? b : a);
		}
	}
	if (pick < 2 * T_MODES) { /* only with a table */
		yes = pick < T_MODES ? b : a;
		no = pick < T_MODES ? a : b;
		table_plan(v, r, n, yes, lo, hi, pick % T_MODES, tb);
		if (tb->n_win) {
			struct target t = table_emit(g, v, tb, yes, no, lo, hi);

			table_free(tb);
			return t;
		}
	}
	table_free(tb);
	return chain(g, r, n, yes, no, lo, hi);
}

/*
 * A search over ranges of more than two targets is cut into blocks with a
 * "jge" between neighbours; a block is one range, or a chain around one
 * target (its background) that tests the block's other ranges in order:
 * one "jeq" for a single value, a "jge" and a "jgt" for a range (less at
 * the block's ends). A single value between two ranges of one target
 * costs one "jeq" there, against two bounds in a tree.
 */
#define SEARCH_BLOCKS_MAX 64 /* ranges of a search cut into blocks; more: halved */
#define SEARCH_CHAIN_MAX  4  /* ranges one chain tests (it adds to the depth) */

/* Instructions of r[i..j) as a chain around target bg; *ret_tests: the
 * ranges it tests. */
static size_t chain_multi_cost(const struct word_range *r, size_t i, size_t j, struct target bg,
			       size_t *ret_tests)
{
	size_t c = 0, tests = 0;

	for (size_t k = i; k < j; k++) {
		if (target_eq(r[k].t, bg))
			continue;
		tests++;
		c += r[k].lo == r[k].hi ? 1 : (r[k].lo > r[i].lo) + (r[k].hi < r[j - 1].hi);
	}
	*ret_tests = tests;
	return c;
}

/* The cheapest background for r[i..j), a block of three or more targets
 * (two go to two_cost()), as one chain, into *ret_bg, and its cost;
 * SIZE_MAX if no chain there tests at most SEARCH_CHAIN_MAX ranges. */
static size_t block_cost(const struct word_range *r, size_t i, size_t j, struct target *ret_bg,
			 size_t *ret_tests)
{
	size_t best = SIZE_MAX;

	*ret_tests = SIZE_MAX;
	/* the background is among the first SEARCH_CHAIN_MAX + 1 ranges;
	 * each target once */
	for (size_t k = i; k < j && k <= i + SEARCH_CHAIN_MAX; k++) {
		size_t tests, c;
		bool dup = false;

		for (size_t q = i; q < k && !dup; q++)
			dup = target_eq(r[q].t, r[k].t);
		if (dup)
			continue;
		c = chain_multi_cost(r, i, j, r[k].t, &tests);
		if (tests > SEARCH_CHAIN_MAX)
			continue;
		if (c < best || (c == best && tests < *ret_tests)) {
			best = c;
			*ret_bg = r[k].t;
			*ret_tests = tests;
		}
	}
	return best;
}

/* r[i..j) as a chain around bg, ascending: below a range means in none
 * after it (bg). */
static struct target chain_multi(struct gen *g, const struct word_range *r, size_t i, size_t j,
				 struct target bg)
{
	struct target next = bg;

	for (size_t k = j; k-- > i;) {
		struct target t;

		if (target_eq(r[k].t, bg))
			continue;
		if (r[k].lo == r[k].hi) {
			next = gen_jump(g, BPF_JEQ, r[k].lo, r[k].t, next);
			continue;
		}
		t = r[k].hi >= r[j - 1].hi ? r[k].t : gen_jump(g, BPF_JGT, r[k].hi, next, r[k].t);
		next = r[k].lo <= r[i].lo ? t : gen_jump(g, BPF_JGE, r[k].lo, t, bg);
	}
	return next;
}

struct sblock {
	size_t i, j;
	struct target bg;
	bool two; /* two targets: two_way() */
};

/* Blocks b[bi..bj) of r as a tree of "jge", split in the middle. */
static struct target block_tree(struct gen *g, const struct var *v, const struct word_range *r,
				const struct sblock *b, size_t bi, size_t bj)
{
	size_t m = bi + (bj - bi) / 2;
	struct target above, below;

	if (bj - bi == 1) {
		const struct sblock *x = &b[bi];

		if (x->j - x->i == 1)
			return r[x->i].t;
		if (x->two)
			return two_way(g, v, r + x->i, x->j - x->i, r[x->i].t, r[x->i + 1].t,
				       r[x->i].lo, r[x->j - 1].hi);
		return chain_multi(g, r, x->i, x->j, x->bg);
	}
	below = block_tree(g, v, r, b, bi, m);
	above = block_tree(g, v, r, b, m, bj);
	return gen_jump(g, BPF_JGE, r[b[m].i].lo, above, below);
}

/* The ranges r[i..j) seen so far from j down while they have at most two
 * targets: per target the ranges it has and what a chain testing them
 * costs away from the ends (a single value 1, a range 2), and in all. */
struct two_scan {
	struct target t[2];
	size_t n_t, own_cost[2], own_n[2], all_cost, all_n;
	bool over; /* a third target was seen */
};

/* Add r[i] to ts; false once the ranges have over two targets. */
static bool two_add(struct two_scan *ts, const struct word_range *r, size_t i)
{
	size_t w = r[i].lo == r[i].hi ? 1 : 2, q = 0;

	while (!ts->over && q < ts->n_t && !target_eq(ts->t[q], r[i].t))
		q++;
	if (ts->over || q == 2) {
		ts->over = true;
		return false;
	}
	if (q == ts->n_t)
		ts->t[ts->n_t++] = r[i].t;
	ts->own_cost[q] += w;
	ts->own_n[q]++;
	ts->all_cost += w;
	ts->all_n++;
	return true;
}

/* r[i..j) (two targets at most) as one block: a range, or the cheaper
 * chain around one of its targets (no limit on its tests), as
 * block_cost(). */
static size_t two_cost(const struct two_scan *ts, const struct word_range *r, size_t i, size_t j,
		       struct target *ret_bg, size_t *ret_tests)
{
	size_t best = SIZE_MAX;

	*ret_tests = SIZE_MAX;
	if (j - i == 1) {
		*ret_bg = r[i].t;
		*ret_tests = 0;
		return 0;
	}
	/* r[i]'s target first, as block_cost() tries them */
	for (size_t k = 0; k < 2; k++) {
		size_t q = target_eq(ts->t[0], r[i].t) ? k : 1 - k;
		size_t c = ts->all_cost - ts->own_cost[q], tests = ts->all_n - ts->own_n[q];

		/* a range at an end of the block needs only one bound */
		c -= r[i].lo != r[i].hi && !target_eq(r[i].t, ts->t[q]);
		c -= r[j - 1].lo != r[j - 1].hi && !target_eq(r[j - 1].t, ts->t[q]);
		if (c < best || (c == best && tests < *ret_tests)) {
			best = c;
			*ret_bg = ts->t[q];
			*ret_tests = tests;
		}
	}
	return best;
}

/* r[0..n) (n <= SEARCH_BLOCKS_MAX) cut into the blocks of the fewest
 * instructions (then the fewest ranges tested in chains), as a tree. */
static struct target search_blocks(struct gen *g, const struct var *v, const struct word_range *r,
				   size_t n)
{
	size_t cost[SEARCH_BLOCKS_MAX + 1], tests[SEARCH_BLOCKS_MAX + 1];
	size_t from[SEARCH_BLOCKS_MAX + 1], nb = 0;
	struct target bgs[SEARCH_BLOCKS_MAX + 1];
	struct sblock b[SEARCH_BLOCKS_MAX];

	cost[0] = tests[0] = 0;
	for (size_t j = 1; j <= n; j++) {
		struct two_scan ts = { .n_t = 0 };

		cost[j] = SIZE_MAX;
		for (size_t i = j; i-- > 0;) {
			struct target bg;
			size_t t = 0, c;

			if (two_add(&ts, r, i))
				c = two_cost(&ts, r, i, j, &bg, &t);
			else if (j - i > 2 * SEARCH_CHAIN_MAX + 1)
				break; /* over two targets and past the chain limit */
			else
				c = block_cost(r, i, j, &bg, &t);
			if (c == SIZE_MAX)
				continue;
			c += cost[i] + 1;
			if (c < cost[j] || (c == cost[j] && tests[i] + t < tests[j])) {
				cost[j] = c;
				tests[j] = tests[i] + t;
				from[j] = i;
				bgs[j] = bg;
			}
		}
	}
	for (size_t j = n; j > 0; j = from[j])
		nb++;
	for (size_t j = n, k = nb; j > 0; j = from[j]) {
		struct sblock *x = &b[--k];

		*x = (struct sblock){ from[j], j, bgs[j], false };
		/* neighbours differ: the first two ranges have both targets */
		x->two = j - from[j] > 1 &&
			 two_targets(r + from[j], j - from[j], r[from[j]].t, r[from[j] + 1].t);
	}
	return block_tree(g, v, r, b, 0, nb);
}

/* Send x in [lo, hi] to the target of its range by halving: a "jge" in
 * the middle, two-target parts to two_way(). */
static struct target search_halves(struct gen *g, const struct var *v, const struct word_range *r,
				   size_t n, uint32_t lo, uint32_t hi)
{
	struct target a = r[0].t, b = r[n - 1].t, above, below;
	size_t m;

	for (size_t i = 1; i < n && target_eq(b, a); i++)
		b = r[i].t;
	if (n == 1)
		return a;
	if (two_targets(r, n, a, b))
		return two_way(g, v, r, n, a, b, lo, hi);
	m = n / 2;
	/* Two calls that emit code: in a fixed order, never as two arguments of
	 * one call, whose order of evaluation C leaves to the compiler (the
	 * program would differ between gcc and clang). */
	below = search_halves(g, v, r, m, lo, r[m].lo - 1);
	above = search_halves(g, v, r + m, n - m, r[m].lo, hi);
	return gen_jump(g, BPF_JGE, r[m].lo, above, below);
}

/* Is some range of r a single value between two of one target? Only
 * then can a chain be shorter than the bounds of the halves. */
static bool islands(const struct word_range *r, size_t n)
{
	for (size_t k = 1; k + 1 < n; k++)
		if (r[k].lo == r[k].hi && target_eq(r[k - 1].t, r[k + 1].t))
			return true;
	return false;
}

/* Send x in [lo, hi] to the target of its range; r covers [lo, hi] in
 * order, neighbours with different targets. Over more than two targets,
 * the shorter of the blocks and the halves (a bit table of two-way
 * parts can make halves shorter); a tie goes to the halves. */
static struct target search(struct gen *g, const struct var *v, const struct word_range *r,
			    size_t n, uint32_t lo, uint32_t hi)
{
	struct target t;
	struct gen_mark m;
	size_t n_blocks;

	if (n == 1 || n > SEARCH_BLOCKS_MAX || two_targets(r, n, r[0].t, r[1].t) || !islands(r, n))
		return search_halves(g, v, r, n, lo, hi);
	gen_mark_set(g, &m);
	search_blocks(g, v, r, n);
	n_blocks = g->n - m.n;
	gen_mark_reset(g, &m);
	t = search_halves(g, v, r, n, lo, hi);
	if (g->n - m.n <= n_blocks)
		return t;
	gen_mark_reset(g, &m);
	return search_blocks(g, v, r, n);
}

static bool single_bit(uint32_t m)
{
	return m && !(m & (m - 1));
}

bool bpf_decide_jset(const struct var *v, const struct word_range *r, size_t n)
{
	return v->mask != WORD_FULL && n >= 2 && ((n == 2 && r[0].hi == 0) || single_bit(v->mask));
}

struct astate bpf_decide_state(const struct var *v, bool jset, const struct astate *st,
			       bool *ret_load, bool *ret_and)
{
	/* A & mask is word & mask when A holds the word under a wider mask */
	bool holds = st->valid && st->arg == v->arg && st->hi == v->hi &&
		     (st->mask & v->mask) == v->mask;

	*ret_load = !holds;
	*ret_and = false;
	if (jset)
		return holds ? *st : (struct astate){ true, v->arg, v->hi, WORD_FULL };
	*ret_and = v->mask != WORD_FULL && !(holds && st->mask == v->mask);
	return (struct astate){ true, v->arg, v->hi, v->mask };
}

struct target bpf_decide(struct gen *g, const struct var *v, bool jset, const struct word_range *r,
			 size_t n, const struct astate *st)
{
	bool load, and;
	struct target t;

	bpf_decide_state(v, jset, st, &load, &and);
	if (n == 1 && r[0].t.is_ret)
		return r[0].t;
	if (n == 1)
		t = r[0].t;
	else if (jset)
		t = gen_jump(g, BPF_JMP | BPF_JSET, v->mask, r[n - 1].t, r[0].t);
	else
		t = search(g, v, r, n, 0, v->mask);
	if (and)
		t = gen_before(g, BPF_ALU | BPF_AND | BPF_K, v->mask, t);
	if (load)
		t = gen_load(g, v->arg, v->hi, t);
	return t;
}
