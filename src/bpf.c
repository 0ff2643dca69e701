/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Code generation: a policy becomes one classic-BPF program. Per ABI, the
 * number space is cut into ranges of equal outcome and searched with a
 * weighted binary tree; argument tests sit only under the numbers that have
 * conditions, so unconditionally allowed numbers stay cacheable.
 */
#include "bpf-gen.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define JUMP_MAX 255u /* jt/jf are 8 bits */

/*
 * need[l]: the scratch cells that some path from instruction l reads
 * before it writes them. The kernel checks that every read of a cell
 * follows a write of it on every path, and its check goes on from a
 * return into the instruction after it as if the return fell through
 * (an instruction that only jumps reach gets the state of the return
 * before it too). The returns are shared, so one that code without the
 * cells jumps to may come right before the middle of a size-first bit
 * table (scmp-run.ini(5) PROGRAM SIZE); emit_ret() then puts stores of
 * the cells between the two, which no call ever executes.
 */
static void set_need(struct gen *g, size_t l)
{
	const struct sock_filter *in = &g->buf[l];
	uint16_t cell = in->k < 16 ? (uint16_t)(1u << in->k) : 0;

	switch (BPF_CLASS(in->code)) {
	case BPF_RET:
		g->need[l] = 0;
		return;
	case BPF_JMP:
		g->need[l] = in->code == (BPF_JMP | BPF_JA)
				     ? g->need[l - in->k - 1]
				     : g->need[l - in->jt - 1] | g->need[l - in->jf - 1];
		return;
	case BPF_ST:
	case BPF_STX:
		g->need[l] = l ? g->need[l - 1] & (uint16_t)~cell : 0;
		return;
	default: /* l is 0 only for a return: every program ends with one */
		g->need[l] = l ? g->need[l - 1] : 0;
		if (in->code == (BPF_LD | BPF_MEM) || in->code == (BPF_LDX | BPF_MEM))
			g->need[l] |= cell;
	}
}

static bool grow_buf(struct gen *g)
{
	size_t cap = g->cap ? g->cap * 2 : 256;
	struct sock_filter *b = reallocarray(g->buf, cap, sizeof(*b));
	uint16_t *need;

	if (!b)
		return false;
	g->buf = b;
	if (g->tracks_need) {
		need = reallocarray(g->need, cap, sizeof(*need));
		if (!need)
			return false;
		g->need = need;
	}
	g->cap = cap;
	return true;
}

static size_t emit(struct gen *g, uint16_t code, uint32_t k, uint8_t jt, uint8_t jf)
{
	if (g->n == g->cap && !grow_buf(g)) {
		g->err = -ENOMEM;
		return g->n ? g->n - 1 : 0;
	}
	g->buf[g->n] = (struct sock_filter){ .code = code, .jt = jt, .jf = jf, .k = k };
	if (g->tracks_need)
		set_need(g, g->n);
	return g->n++;
}

static size_t emit_ret(struct gen *g, uint32_t ret)
{
	size_t l, i;

	/* dead stores for the kernel's check (see set_need()) */
	for (unsigned cell = 0; g->tracks_need && g->n && cell < 16; cell++)
		if (g->need[g->n - 1] >> cell & 1)
			emit(g, BPF_ST, cell, 0, 0);
	l = emit(g, BPF_RET | BPF_K, ret, 0, 0);
	for (i = 0; i < g->n_rets; i++)
		if (g->rets[i].ret == ret)
			break;
	if (i == g->n_rets && g->n_rets < RET_CACHE)
		g->n_rets++;
	if (i < g->n_rets) {
		g->rets[i].ret = ret;
		g->rets[i].label = l;
	}
	return l;
}

/* A label for t that a jump emitted within the next two instructions can
 * reach: reuse a return that is close enough, else emit a new one. */
static size_t reach(struct gen *g, struct target t)
{
	if (!t.is_ret)
		return t.label;
	for (size_t i = 0; i < g->n_rets; i++)
		if (g->rets[i].ret == t.ret && g->n + 2 - g->rets[i].label - 1 <= JUMP_MAX)
			return g->rets[i].label;
	return emit_ret(g, t.ret);
}

/* Make t the instruction that runs next after the one emitted next. */
static size_t goto_target(struct gen *g, struct target t)
{
	size_t l;

	if (t.is_ret) {
		for (size_t i = 0; i < g->n_rets; i++)
			if (g->rets[i].ret == t.ret && g->rets[i].label + 1 == g->n)
				return g->rets[i].label;
		return emit_ret(g, t.ret);
	}
	if (t.label + 1 == g->n)
		return t.label;
	l = emit(g, BPF_JMP | BPF_JA, 0, 0, 0);
	if (g->err)
		return l;
	g->buf[l].k = (uint32_t)(l - t.label - 1);
	if (g->tracks_need)
		set_need(g, l);
	return l;
}

/* A conditional jump; long distances go through "ja" trampolines. */
struct target gen_jump(struct gen *g, uint16_t op, uint32_t k, struct target tt, struct target tf)
{
	size_t lt, lf, j;

	if (tt.is_ret == tf.is_ret && (tt.is_ret ? tt.ret == tf.ret : tt.label == tf.label))
		return tt;
	lt = reach(g, tt);
	lf = reach(g, tf);
	for (;;) {
		j = g->n;
		if (j - lt - 1 > JUMP_MAX) {
			lt = goto_target(g, T_LBL(lt));
			continue;
		}
		if (j - lf - 1 > JUMP_MAX) {
			lf = goto_target(g, T_LBL(lf));
			continue;
		}
		break;
	}
	return T_LBL(
		emit(g, BPF_JMP | op | BPF_K, k, (uint8_t)(j - lt - 1), (uint8_t)(j - lf - 1)));
}

/* A non-jump instruction followed by t. */
struct target gen_before(struct gen *g, uint16_t code, uint32_t k, struct target t)
{
	goto_target(g, t);
	return T_LBL(emit(g, code, k, 0, 0));
}

struct target gen_load(struct gen *g, unsigned arg, bool hi, struct target t)
{
	uint32_t off = (uint32_t)(offsetof(struct seccomp_data, args) + 8 * arg +
				  (hi != g->big_endian ? 4 : 0));

	return gen_before(g, BPF_LD | BPF_W | BPF_ABS, off, t);
}

void gen_mark_set(const struct gen *g, struct gen_mark *m)
{
	m->n = g->n;
	m->n_rets = g->n_rets;
	memcpy(m->rets, g->rets, sizeof(m->rets));
}

void gen_mark_reset(struct gen *g, const struct gen_mark *m)
{
	size_t u = 0;

	for (size_t i = 0; i < g->n_tails; i++)
		if (g->tails[i].label < m->n)
			g->tails[u++] = g->tails[i];
	g->n_tails = u;
	u = 0;
	for (size_t i = 0; i < g->n_mems; i++)
		if (g->mems[i].label < m->n)
			g->mems[u++] = g->mems[i];
	g->n_mems = u;
	g->n = m->n;
	g->n_rets = m->n_rets;
	memcpy(g->rets, m->rets, sizeof(m->rets));
}

/* The rules of s that can change the outcome, and what happens when none
 * of them matches. Returns how many of s->rules to test. */
static size_t block_plan(const struct rsys *s, uint32_t default_ret, uint32_t *ret_fall)
{
	size_t n = s->n_rules;
	uint32_t fall = default_ret;

	if (n && s->rules[n - 1].n_cmps == 0)
		fall = s->rules[--n].ret;
	while (n && s->rules[n - 1].ret == fall)
		n--;
	*ret_fall = fall;
	return n;
}

/* ---- number dispatch ---- */

struct range {
	uint32_t lo, hi;
	const struct rsys *block; /* conditional outcome, or NULL */
	uint32_t ret;		  /* constant outcome when block is NULL */
	uint64_t weight;
};

struct contrib {
	const struct rsys *sys;
	size_t size;
};

/* Ranges r[i..j) of the dispatch decided by one chain of "jeq" on the
 * numbers of the ranges whose outcome is not bg's (single numbers each),
 * or one range (bg NULL, j == i + 1). */
struct block {
	size_t i, j;
	const struct range *bg;
};

#define CHAIN_MAX      3 /* "jeq" of one chain: it adds to the depth of bg's numbers */
#define CHAIN_MAX_SIZE 8 /* ... of a size-first program, where depth matters less */

struct dispatch {
	struct gen *g;
	const struct abi_policy *abi;
	struct range *r;
	size_t n;
	struct block *b;
	size_t n_b;
	uint64_t *prefix; /* prefix[k] = sum of weights of the ranges of b[0..k) */
	struct contrib *contrib;
	size_t n_contrib;
};

static bool same_outcome(const struct range *a, const struct range *b)
{
	return !a->block && !b->block && a->ret == b->ret;
}

static inline int add_range(struct range **r, size_t *n, size_t *cap, struct range x)
{
	if (*n && same_outcome(&(*r)[*n - 1], &x) && (*r)[*n - 1].hi + 1 == x.lo) {
		(*r)[*n - 1].hi = x.hi;
		(*r)[*n - 1].weight += x.weight - 1;
		return 0;
	}
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		struct range *nr = reallocarray(*r, c, sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		*r = nr;
		*cap = c;
	}
	(*r)[(*n)++] = x;
	return 0;
}

/* Cut [lo, hi] into ranges of one outcome each. */
static int build_ranges(struct dispatch *dp, uint32_t lo, uint32_t hi)
{
	const struct abi_policy *abi = dp->abi;
	size_t cap = 0, si = 0;
	uint32_t next = lo;
	bool covered = false;

	for (size_t k = 0; k < abi->n_known && !covered; k++) {
		uint32_t nr = abi->known[k].nr, fall;
		struct range x = { .lo = nr, .hi = nr, .ret = abi->default_ret };

		if (nr < lo || nr > hi)
			continue;
		if (nr > next &&
		    add_range(&dp->r, &dp->n, &cap,
			      (struct range){ next, nr - 1, NULL, abi->unknown_ret, 1 }) < 0)
			return -ENOMEM;
		while (si < abi->n_sys && abi->sys[si].nr < nr)
			si++;
		x.weight = 1 + (abi->prio_known ? abi->prio_known[k] : 0);
		if (si < abi->n_sys && abi->sys[si].nr == nr) {
			if (block_plan(&abi->sys[si], abi->default_ret, &fall))
				x.block = &abi->sys[si];
			else
				x.ret = fall;
		}
		if (add_range(&dp->r, &dp->n, &cap, x) < 0)
			return -ENOMEM;
		covered = nr == hi;
		next = nr + 1;
	}
	if (!covered && add_range(&dp->r, &dp->n, &cap,
				  (struct range){ next, hi, NULL, abi->unknown_ret, 1 }) < 0)
		return -ENOMEM;
	return 0;
}

/*
 * The ranges r[i..j) seen so far from j down, as a possible chain: the
 * constant outcomes with how many ranges have each, and the outcome of
 * the wider ranges (each must be the background: a chain singles out
 * only single numbers).
 */
struct chain_scan {
	const struct range *out[2 * CHAIN_MAX_SIZE + 1];
	size_t count[2 * CHAIN_MAX_SIZE + 1], n_out, len;
	size_t max;		  /* "jeq" a chain may have */
	const struct range *wide; /* the outcome of the wider ranges, or NULL */
	const struct range *bg;	  /* the background of the fewest "jeq" */
	size_t jeqs;		  /* ... and their number */
};

/* An empty sc. out[] and count[] are read below n_out only, so they are
 * left as they are: a scan starts at every range. */
static void chain_start(struct chain_scan *sc, size_t max)
{
	sc->n_out = sc->len = sc->jeqs = 0;
	sc->max = max;
	sc->wide = sc->bg = NULL;
}

/* Add r (the range before the ones seen) to sc. Returns false if no chain
 * can hold it and the ranges after it: nor can any longer run. */
static bool chain_add(struct chain_scan *sc, const struct range *r)
{
	size_t k = 0, best = 0;

	if (r->lo != r->hi) {
		if (r->block || (sc->wide && !same_outcome(sc->wide, r)))
			return false;
		sc->wide = r;
	}
	sc->len++;
	if (!r->block) {
		while (k < sc->n_out && !same_outcome(sc->out[k], r))
			k++;
		if (k == sc->n_out) {
			sc->out[sc->n_out] = r;
			sc->count[sc->n_out++] = 0;
		}
		sc->count[k]++;
	}
	sc->bg = NULL;
	for (k = 0; k < sc->n_out; k++)
		if ((!sc->wide || same_outcome(sc->wide, sc->out[k])) && sc->count[k] > best) {
			best = sc->count[k];
			sc->bg = sc->out[k];
		}
	sc->jeqs = sc->len - best;
	return !sc->wide || sc->jeqs <= sc->max;
}

/*
 * Cut the ranges into blocks for the fewest instructions: the tree over
 * the blocks takes one "jge" fewer than there are blocks, a chain one
 * "jeq" per number it singles out. So a number cut out of a run of one
 * outcome costs one "jeq" instead of two bounds. Of two cuttings of the
 * same length the one with fewer "jeq" in chains wins (shallower). Fills
 * dp->b and dp->prefix.
 */
static int plan_blocks(struct dispatch *dp)
{
	size_t max = dp->g->size_first ? CHAIN_MAX_SIZE : CHAIN_MAX, n = dp->n, span = 2 * max + 1;
	size_t *cost = calloc(n + 1, sizeof(*cost)), *from = calloc(n + 1, sizeof(*from));
	size_t *jeqs = calloc(n + 1, sizeof(*jeqs));
	const struct range **bgs = calloc(n + 1, sizeof(*bgs));
	int r = -ENOMEM;

	dp->b = calloc(n + 1, sizeof(*dp->b));
	dp->prefix = calloc(n + 2, sizeof(*dp->prefix));
	if (!cost || !from || !jeqs || !bgs || !dp->b || !dp->prefix)
		goto out;
	for (size_t j = 1; j <= n; j++) {
		struct chain_scan sc;

		chain_start(&sc, max);
		cost[j] = SIZE_MAX;
		for (size_t i = j - 1; i + span >= j; i--) {
			size_t c = 0, total;

			if (!chain_add(&sc, &dp->r[i]))
				break;
			if (j - i > 1)
				c = sc.bg && sc.jeqs <= max ? sc.jeqs : SIZE_MAX;
			if (c != SIZE_MAX) {
				total = cost[i] + 1 + c;
				if (total < cost[j] ||
				    (total == cost[j] && jeqs[i] + c < jeqs[j])) {
					cost[j] = total;
					jeqs[j] = jeqs[i] + c;
					from[j] = i;
					bgs[j] = j - i > 1 ? sc.bg : NULL;
				}
			}
			if (i == 0)
				break;
		}
	}
	/* the blocks, from the last one back */
	for (size_t j = n; j > 0; j = from[j])
		dp->n_b++;
	for (size_t j = n, k = dp->n_b; j > 0; j = from[j]) {
		struct block *b = &dp->b[--k];

		*b = (struct block){ from[j], j, bgs[j] };
	}
	for (size_t k = 0; k < dp->n_b; k++) {
		uint64_t w = 0;

		for (size_t i = dp->b[k].i; i < dp->b[k].j; i++)
			w += dp->r[i].weight;
		dp->prefix[k + 1] = dp->prefix[k] + w;
	}
	r = 0;
out:
	free(cost);
	free(from);
	free(jeqs);
	free(bgs);
	return r;
}

static struct target leaf(struct dispatch *dp, const struct range *r)
{
	size_t before_n = dp->g->n;
	struct target t;

	uint32_t fall;
	size_t n;

	if (!r->block)
		return T_RET(r->ret);
	n = block_plan(r->block, dp->abi->default_ret, &fall);
	t = bpf_args_block(dp->g, r->block, n, fall);
	dp->contrib[dp->n_contrib++] = (struct contrib){ r->block, dp->g->n - before_n };
	return t;
}

/* Block b: its one range, or its chain of "jeq" (in ascending order) that
 * leaves the other numbers to bg's outcome. */
static struct target block_code(struct dispatch *dp, const struct block *b)
{
	struct target next;

	if (!b->bg)
		return leaf(dp, &dp->r[b->i]);
	next = T_RET(b->bg->ret);
	for (size_t k = b->j; k-- > b->i;)
		if (!same_outcome(b->bg, &dp->r[k]))
			next = gen_jump(dp->g, BPF_JEQ, dp->r[k].lo, leaf(dp, &dp->r[k]), next);
	return next;
}

/* The blocks b[i..j) as a weight-balanced tree of "jge". */
static struct target tree(struct dispatch *dp, size_t i, size_t j)
{
	size_t m, lo, hi;
	uint64_t half;
	struct target right, left;

	if (j - i == 1)
		return block_code(dp, &dp->b[i]);
	/* Weight-balanced split: the first m whose prefix reaches half. */
	half = dp->prefix[i] + (dp->prefix[j] - dp->prefix[i] + 1) / 2;
	lo = i + 1;
	hi = j - 1;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (dp->prefix[mid] < half)
			lo = mid + 1;
		else
			hi = mid;
	}
	m = lo;
	if (m > i + 1 && dp->prefix[m] >= half && half - dp->prefix[m - 1] < dp->prefix[m] - half)
		m--;
	right = tree(dp, m, j);
	left = tree(dp, i, m);
	return gen_jump(dp->g, BPF_JGE, dp->r[dp->b[m].i].lo, right, left);
}

/* The dispatch of one ABI over numbers [lo, hi]; A holds the number. */
static struct target dispatch(struct gen *g, const struct abi_policy *abi, uint32_t lo, uint32_t hi,
			      struct dispatch *dp)
{
	struct target t = T_RET(abi->unknown_ret);

	*dp = (struct dispatch){ .g = g, .abi = abi };
	dp->contrib = calloc(abi->n_sys + 1, sizeof(*dp->contrib));
	if (!dp->contrib || build_ranges(dp, lo, hi) < 0 || plan_blocks(dp) < 0) {
		g->err = -ENOMEM;
		return t;
	}
	return dp->n_b ? tree(dp, 0, dp->n_b) : t;
}

static void dispatch_free(struct dispatch *dp)
{
	free(dp->r);
	free(dp->b);
	free(dp->prefix);
	free(dp->contrib);
}

static int cmp_contrib(const void *a, const void *b)
{
	const struct contrib *x = a, *y = b;

	return (x->size < y->size) - (x->size > y->size);
}

static int abi_alone_len(const struct policy *p, size_t i, size_t *ret_len);

/* The error for a program of total instructions; per ABI its length alone
 * (after sharing, see finish()) and its largest argument blocks (before). */
static void report_size(const struct policy *p, struct dispatch *dps, const size_t *abi_size,
			size_t total, struct diag *d)
{
	diag_error(d, NULL, "the filter needs %zu instructions; the kernel accepts at most %u",
		   total, BPF_PROG_MAX);
	for (size_t i = 0; i < p->n_abis; i++) {
		struct dispatch *dp = &dps[i];

		size_t args = 0, alone = total, saved;

		for (size_t k = 0; k < dp->n_contrib; k++)
			args += dp->contrib[k].size;
		if (p->n_abis > 1 && abi_size[i] && abi_alone_len(p, i, &alone) < 0)
			alone = abi_size[i];
		/* what sharing saved came out of the argument tests */
		saved = abi_size[i] > alone ? abi_size[i] - alone : 0;
		args = args > saved ? args - saved : 0;
		if (abi_size[i]) /* x32 is counted with x86_64, which shares its block */
			diag_note(d, NULL, "%s: %zu instructions, %zu of them for argument tests",
				  p->abis[i].arch->name, alone, args);
		qsort(dp->contrib, dp->n_contrib, sizeof(*dp->contrib), cmp_contrib);
		for (size_t k = 0; k < dp->n_contrib && k < 5; k++) {
			const struct rsys *s = dp->contrib[k].sys;

			diag_note(d, &s->rules[0].src->loc,
				  "%s: '%s' takes %zu instructions for %zu rules",
				  p->abis[i].arch->name, s->name, dp->contrib[k].size, s->n_rules);
		}
	}
	diag_hint(d, NULL,
		  "merge conditions into ranges or sets ('fd >= 3 && fd <= 9', "
		  "'x in { ... }'), or list fewer architectures");
}

/*
 * Emit the whole program for p into g (backwards, see struct gen): the
 * check of the ABI, then one number dispatch per AUDIT_ARCH value. dps[i]
 * and abi_size[i] (the instructions of ABI i's block) are filled per
 * p->abis[i]; errors are left in g->err.
 */
static void emit_program(struct gen *g, const struct policy *p, struct dispatch *dps,
			 size_t *abi_size)
{
	struct target entry[ARCH_COUNT], next;
	bool done[ARCH_COUNT] = { false };

	/* One block per AUDIT_ARCH value, emitted last-first. */
	for (size_t i = p->n_abis; i-- > 0;) {
		const struct arch *a = p->abis[i].arch;
		size_t start = g->n;
		struct target t;

		if (done[i])
			continue;
		if (a->id == ARCH_X86_64 || a->id == ARCH_X32) {
			/* x86_64 and x32 share AUDIT_ARCH_X86_64: x32 numbers carry
			 * the x32 bit; -1 (a tracer's skipped call) is a normal number. */
			const struct abi_policy *x64 = policy_abi_for(p, a->audit_arch, 0);
			const struct abi_policy *x32 =
				policy_abi_for(p, a->audit_arch, ARCH_X32_SYSCALL_BIT);
			struct target t64 = T_RET(p->bad_arch_ret), t32 = T_RET(p->bad_arch_ret);

			for (size_t k = 0; k < p->n_abis; k++) {
				if (&p->abis[k] == x64) {
					t64 = dispatch(g, x64, 0, UINT32_MAX, &dps[k]);
					done[k] = true;
				}
				if (&p->abis[k] == x32) {
					t32 = dispatch(g, x32, ARCH_X32_SYSCALL_BIT, UINT32_MAX,
						       &dps[k]);
					done[k] = true;
				}
			}
			t = gen_jump(g, BPF_JEQ, UINT32_MAX, x64 ? t64 : t32, t32);
			t = gen_jump(g, BPF_JSET, ARCH_X32_SYSCALL_BIT, t, t64);
		} else {
			t = dispatch(g, &p->abis[i], 0, UINT32_MAX, &dps[i]);
			done[i] = true;
		}
		entry[i] = gen_before(g, BPF_LD | BPF_W | BPF_ABS,
				      offsetof(struct seccomp_data, nr), t);
		abi_size[i] = g->n - start;
	}
	next = T_RET(p->bad_arch_ret);
	for (size_t i = p->n_abis; i-- > 0;)
		if (abi_size[i]) /* x32 has no block of its own: it shares x86_64's */
			next = gen_jump(g, BPF_JEQ, p->abis[i].arch->audit_arch, entry[i], next);
	gen_before(g, BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch), next);
}

/* ---- sharing identical code ---- */

/* live[i]: some call runs instruction i of fwd[0..n) (program order). */
static void mark_live(const struct sock_filter *fwd, size_t n, bool *live)
{
	live[0] = n > 0;
	for (size_t i = 0; i < n; i++) {
		const struct sock_filter *in = &fwd[i];

		if (!live[i] || BPF_CLASS(in->code) == BPF_RET)
			continue;
		if (in->code == (BPF_JMP | BPF_JA)) {
			live[i + 1 + in->k] = true;
		} else if (BPF_CLASS(in->code) == BPF_JMP) {
			live[i + 1 + in->jt] = true;
			live[i + 1 + in->jf] = true;
		} else {
			live[i + 1] = true;
		}
	}
}

/*
 * Emit the program fwd[0..n) (program order) again into g, with every
 * instruction that does what a later one does (the same operation, whose
 * targets do the same) left out and its users sent to the later one. The
 * later copy stays, so every jump still goes forward; a user that cannot
 * fall into it any more gets a "ja". Returns the entry.
 */
static struct target share_emit(struct gen *g, const struct sock_filter *fwd, size_t n)
{
	size_t cap = 1, *id = calloc(n + 1, sizeof(*id)), *slot, n_ids = 0;
	struct target *out = NULL;
	struct {
		uint16_t code;
		uint32_t k;
		size_t a, b, at;
	} *keys = NULL;
	struct target t = T_RET(0);
	/* only code that tracks need[] has dead stores (emit_ret()) */
	bool *live = g->tracks_need ? calloc(n + 1, sizeof(*live)) : NULL;

	while (cap < 2 * n)
		cap *= 2;
	slot = calloc(cap, sizeof(*slot));
	keys = calloc(n, sizeof(*keys));
	out = calloc(n, sizeof(*out));
	if (!id || !slot || !keys || !out || (g->tracks_need && !live)) {
		g->err = -ENOMEM;
		goto out;
	}
	if (live)
		mark_live(fwd, n, live);
	/* id[i]: what instruction i does, numbered from 1; ids of one meaning
	 * are equal. A "ja" means what its target means. Code no call runs
	 * (the stores of emit_ret()) has none: it is left out, and this
	 * layout gets the stores it needs. */
	for (size_t i = n; i-- > 0;) {
		const struct sock_filter *in = &fwd[i];
		size_t a = 0, b = 0, h;

		if (live && !live[i])
			continue;
		if (in->code == (BPF_JMP | BPF_JA)) {
			id[i] = id[i + 1 + in->k];
			continue;
		}
		if (BPF_CLASS(in->code) == BPF_JMP) {
			a = id[i + 1 + in->jt];
			b = id[i + 1 + in->jf];
		} else if (BPF_CLASS(in->code) != BPF_RET) {
			a = id[i + 1];
		}
		h = ((in->code * 0x9e3779b1u) ^ in->k ^ a * 0x85ebca6bu ^ b * 0xc2b2ae35u) &
		    (cap - 1);
		for (;; h = (h + 1) & (cap - 1)) {
			size_t j = slot[h];

			if (!j) {
				keys[n_ids] = (__typeof__(keys[0])){ in->code, in->k, a, b, i };
				slot[h] = ++n_ids;
				id[i] = n_ids;
				break;
			}
			if (keys[j - 1].code == in->code && keys[j - 1].k == in->k &&
			    keys[j - 1].a == a && keys[j - 1].b == b) {
				id[i] = j;
				break;
			}
		}
	}
	/* emit each meaning once, at its last place, backwards */
	for (size_t i = n; i-- > 0;) {
		const struct sock_filter *in = &fwd[i];
		size_t j = id[i];

		if ((live && !live[i]) || in->code == (BPF_JMP | BPF_JA) || keys[j - 1].at != i)
			continue;
		if (BPF_CLASS(in->code) == BPF_RET)
			out[j - 1] = T_RET(in->k); /* the generator returns only BPF_K */
		else if (BPF_CLASS(in->code) == BPF_JMP)
			out[j - 1] =
				gen_jump(g, BPF_OP(in->code), in->k, out[id[i + 1 + in->jt] - 1],
					 out[id[i + 1 + in->jf] - 1]);
		else
			out[j - 1] = gen_before(g, in->code, in->k, out[id[i + 1] - 1]);
	}
	t = out[id[0] - 1];
	if (t.is_ret || t.label + 1 != g->n) /* the entry must come first */
		t = T_LBL(goto_target(g, t));
out:
	free(id);
	free(slot);
	free(keys);
	free(out);
	free(live);
	return t;
}

static void reverse(struct sock_filter *b, size_t n)
{
	for (size_t i = 0; i < n / 2; i++) {
		struct sock_filter tmp = b[i];

		b[i] = b[n - 1 - i];
		b[n - 1 - i] = tmp;
	}
}

/* Turn g's program (emitted backwards) into program order, with identical
 * code shared when that makes it shorter (share_emit()). Running out of
 * memory there fails g too: the program would be another one, longer,
 * and an export would not be the same bytes every time. */
static void finish(struct gen *g)
{
	struct gen s = { .big_endian = g->big_endian, .tracks_need = g->tracks_need };

	free(g->need); /* nothing is emitted into g any more */
	g->need = NULL;
	reverse(g->buf, g->n);
	if (g->err || !g->n)
		return;
	/* share_emit() re-emits returns of a constant and jumps on K only */
	for (size_t i = 0; i < g->n; i++)
		if (g->buf[i].code == (BPF_RET | BPF_A) ||
		    (BPF_CLASS(g->buf[i].code) == BPF_JMP && BPF_SRC(g->buf[i].code) == BPF_X))
			return;
	share_emit(&s, g->buf, g->n);
	free(s.need);
	g->err = s.err;
	if (!s.err && s.n < g->n) {
		reverse(s.buf, s.n);
		free(g->buf);
		g->buf = s.buf;
		g->n = s.n;
		g->cap = s.cap;
		return;
	}
	free(s.buf);
}

/*
 * A program that nears the kernel's limit is emitted again size-first
 * (scmp-run.ini(5), PROGRAM SIZE): longer "jeq" chains in the number
 * dispatch and bit tables whose masks go to one shared routine through
 * memory, for a few more instructions executed. The shorter one is kept.
 */
#define SIZE_FIRST_AT (BPF_PROG_MAX * 3 / 4)

static void dispatches_free(struct dispatch *dps, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dispatch_free(&dps[i]);
}

/* The program of g (built speed-first) again size-first, into g, dps and
 * abi_size if that is shorter; out of memory fails g (see finish()). */
static void rebuild_size_first(struct gen *g, const struct policy *p, struct dispatch *dps,
			       size_t *abi_size)
{
	struct gen s = { .big_endian = g->big_endian, .size_first = true, .tracks_need = true };
	struct dispatch s_dps[ARCH_COUNT] = { 0 };
	size_t s_size[ARCH_COUNT] = { 0 };

	emit_program(&s, p, s_dps, s_size);
	finish(&s);
	if (s.err || s.n >= g->n) {
		g->err = s.err;
		dispatches_free(s_dps, p->n_abis);
		free(s.buf);
		return;
	}
	dispatches_free(dps, p->n_abis);
	free(g->buf);
	*g = s;
	memcpy(dps, s_dps, sizeof(s_dps));
	memcpy(abi_size, s_size, sizeof(s_size));
}

/* Emit and finish the program for p into g, dps and abi_size (see
 * emit_program()), size-first when the program nears the limit. */
static void build(struct gen *g, const struct policy *p, struct dispatch *dps, size_t *abi_size)
{
	emit_program(g, p, dps, abi_size);
	finish(g);
	if (!g->err && g->n > SIZE_FIRST_AT)
		rebuild_size_first(g, p, dps, abi_size);
}

/* The length of the program for p->abis[i] alone (a copy of p that lists
 * only that ABI), into *ret_len. Returns 0 or -ENOMEM. */
static int abi_alone_len(const struct policy *p, size_t i, size_t *ret_len)
{
	struct policy one = { .abis = &p->abis[i], .n_abis = 1, .bad_arch_ret = p->bad_arch_ret };
	struct gen g = { .big_endian = p->abis[i].arch->big_endian };
	struct dispatch dps[ARCH_COUNT] = { 0 };
	size_t abi_size[ARCH_COUNT] = { 0 };

	build(&g, &one, dps, abi_size);
	dispatch_free(&dps[0]);
	free(g.buf);
	*ret_len = g.n;
	return g.err;
}

/* The length of the program for each ABI alone, into prog->abi_len[i].
 * Returns 0 or -ENOMEM. */
static int measure_abis(const struct policy *p, struct bpf_prog *prog)
{
	if (p->n_abis == 1) {
		prog->abi_len[0] = prog->len;
		return 0;
	}
	for (size_t i = 0; i < p->n_abis; i++) {
		int r = abi_alone_len(p, i, &prog->abi_len[i]);

		if (r < 0)
			return r;
	}
	return 0;
}

/* The syscall whose argument code could not be built, at its first rule
 * (a rule built by hand may have no place: then the message has none). */
static void report_too_complex(const struct rsys *s, struct diag *d)
{
	const struct src_loc *loc = s->n_rules && s->rules[0].src ? &s->rules[0].src->loc : NULL;

	diag_error(d, loc,
		   "the argument rules of '%s' are too complex to compile: over 1024 "
		   "different masks, or over 4096 combinations of alternatives",
		   s->name ? s->name : "?");
}

int bpf_generate(const struct policy *p, struct diag *d, struct bpf_prog **ret)
{
	struct gen g = { .big_endian = p->n_abis && p->abis[0].arch->big_endian };
	struct dispatch dps[ARCH_COUNT] = { 0 };
	size_t abi_size[ARCH_COUNT] = { 0 };
	struct bpf_prog *prog = NULL;
	char err[128];
	int r;

	*ret = NULL;
	build(&g, p, dps, abi_size);
	if (g.err == -E2BIG)
		report_too_complex(g.too_complex, d);
	if (g.err) {
		r = g.err;
		goto out;
	}
	if (g.n > BPF_PROG_MAX) {
		report_size(p, dps, abi_size, g.n, d);
		r = -E2BIG;
		goto out;
	}

	prog = calloc(1, sizeof(*prog));
	if (!prog) {
		r = -ENOMEM;
		goto out;
	}
	prog->len = g.n;
	prog->size_first = g.size_first;
	prog->insns = g.buf;
	g.buf = NULL;
	r = bpf_validate(prog->insns, prog->len, err, sizeof(err));
	if (r < 0) {
		diag_error(d, NULL, "internal error: generated program is invalid: %s", err);
		goto out;
	}
	r = measure_abis(p, prog);
	if (r < 0)
		goto out;
	*ret = prog;
	prog = NULL;
out:
	dispatches_free(dps, p->n_abis);
	free(g.buf);
	bpf_prog_free(prog);
	return r;
}

void bpf_prog_free(struct bpf_prog *prog)
{
	if (!prog)
		return;
	free(prog->insns);
	free(prog);
}

void bpf_abi_data(const struct arch *a, const struct seccomp_data *in, struct seccomp_data *out)
{
	bool host_big = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

	*out = *in;
	if (a->big_endian == host_big)
		return;
	out->instruction_pointer = in->instruction_pointer << 32 | in->instruction_pointer >> 32;
	for (int i = 0; i < 6; i++)
		out->args[i] = in->args[i] << 32 | in->args[i] >> 32;
}
