/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The argument code of one syscall number: its ordered rules become one
 * decision tree over the 32-bit words of the arguments, so that no word is
 * tested twice on a path and values with the same remaining rules share code.
 */
#include "bpf-gen.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define VARS_MAX   1024	      /* distinct (argument, half, mask) words of one syscall */
#define TREE_VARS  64	      /* words a tree can decide (bits of a uint64_t) */
#define CRULES_MAX 4096	      /* rules after the 64-bit tests are split into words */
#define NODES_MAX  4096	      /* decision nodes of one syscall before the plain list is used */
#define FULL	   UINT32_MAX /* the mask of a whole word */

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

/* "word var has a value in iv[0..n)" (intervals in the context's pool). */
struct atom {
	unsigned var;
	unsigned id; /* atoms with the same word and set have the same id */
	size_t iv, n;
};

/* A rule as a conjunction of atoms. A rule of the policy becomes several
 * consecutive rules of one outcome when a test is a disjunction over words. */
struct crule {
	size_t atom, n_atoms;
	uint64_t vars; /* bit per var of its atoms */
	uint32_t ret;
};

/* What A holds: the word of (arg, hi) ANDed with mask, or nothing known. */
struct astate {
	bool valid;
	uint8_t arg;
	bool hi;
	uint32_t mask;
};

/* The rules still to decide at a node: indices into ctx.rules, in order;
 * done has a bit per word already decided on the path; fall is the outcome
 * when none of them matches. */
struct resid {
	uint32_t *idx;
	size_t n;
	uint64_t done;
	uint32_t fall;
};

struct memo {
	struct resid r;
	struct astate st;
	uint64_t hash;
	struct target t;
};

struct actx {
	struct gen *g;
	struct var *vars; /* grown as needed: zeroing VARS_MAX per syscall costs */
	size_t n_vars, cap_vars;
	struct interval *pool;
	size_t n_pool, cap_pool;
	struct atom *atoms;
	size_t n_atoms, cap_atoms;
	struct crule *rules;
	size_t n_rules, cap_rules;
	struct atom *uniq; /* one atom per id */
	size_t n_uniq, cap_uniq;
	struct memo *memo;
	size_t n_memo, cap_memo;
	size_t nodes;
	bool wide; /* over TREE_VARS words: only the plain list */
	int err;
};

static bool grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 16;
	void *np;

	if (need <= *cap)
		return true;
	while (c < need)
		c *= 2;
	np = reallocarray(*p, c, size);
	if (!np)
		return false;
	*p = np;
	*cap = c;
	return true;
}

#define GROW(ctx, arr, n, cap, need)                                             \
	(grow((void **)&(ctx)->arr, &(ctx)->cap, (need), sizeof(*(ctx)->arr)) || \
	 ((ctx)->err = -ENOMEM, false))

/* ---- from tests to atoms ---- */

static int var_index(struct actx *ctx, uint8_t arg, bool hi, uint32_t mask)
{
	for (size_t i = 0; i < ctx->n_vars; i++)
		if (ctx->vars[i].arg == arg && ctx->vars[i].hi == hi && ctx->vars[i].mask == mask)
			return (int)i;
	if (ctx->n_vars == TREE_VARS)
		ctx->wide = true; /* more words than a tree tracks: the plain list */
	if (ctx->n_vars == VARS_MAX) {
		ctx->err = -E2BIG;
		return -1;
	}
	if (!GROW(ctx, vars, n_vars, cap_vars, ctx->n_vars + 1))
		return -1;
	ctx->vars[ctx->n_vars] = (struct var){ arg, hi, mask };
	return (int)ctx->n_vars++;
}

/* An atom on (arg, hi, mask) with the intervals of s (copied); *ret_full /
 * *ret_empty when s is everything or nothing of [0, mask]. */
static int make_atom(struct actx *ctx, uint8_t arg, bool hi, uint32_t mask, const struct ivset *s,
		     struct atom *ret)
{
	int v = var_index(ctx, arg, hi, mask);

	if (v < 0 || !GROW(ctx, pool, n_pool, cap_pool, ctx->n_pool + s->n + 1))
		return -1;
	for (size_t i = 0; i < ctx->n_uniq; i++) {
		const struct atom *u = &ctx->uniq[i];

		if (u->var == (unsigned)v && u->n == s->n &&
		    !memcmp(&ctx->pool[u->iv], s->iv, s->n * sizeof(*s->iv))) {
			*ret = *u;
			return 0;
		}
	}
	if (!GROW(ctx, uniq, n_uniq, cap_uniq, ctx->n_uniq + 1))
		return -1;
	*ret = (struct atom){ (unsigned)v, (unsigned)ctx->n_uniq, ctx->n_pool, s->n };
	ctx->uniq[ctx->n_uniq++] = *ret;
	for (size_t i = 0; i < s->n; i++)
		ctx->pool[ctx->n_pool++] = s->iv[i];
	return 0;
}

/* One way a test can hold: up to two atoms, all of which must hold. */
struct alt {
	struct atom a[2];
	size_t n;
};

struct alts {
	struct alt *v;
	size_t n, cap;
	bool always; /* some alternative has no atom: the test always holds */
};

static bool is_full(const struct ivset *s, uint64_t max)
{
	return s->n == 1 && s->iv[0].lo == 0 && s->iv[0].hi == max;
}

/* Add the alternative "w1 in s1 [&& w2 in s2]"; sets that are everything
 * are left out, one that is nothing drops the alternative. */
static int add_alt(struct actx *ctx, struct alts *out, uint8_t arg, bool hi1, uint32_t m1,
		   const struct ivset *s1, bool hi2, uint32_t m2, const struct ivset *s2)
{
	struct alt a = { .n = 0 };

	if (!s1->n || (s2 && !s2->n))
		return 0;
	if (!is_full(s1, m1) && make_atom(ctx, arg, hi1, m1, s1, &a.a[a.n++]) < 0)
		return -1;
	if (s2 && !is_full(s2, m2) && make_atom(ctx, arg, hi2, m2, s2, &a.a[a.n++]) < 0)
		return -1;
	if (!a.n)
		out->always = true;
	if (!grow((void **)&out->v, &out->cap, out->n + 1, sizeof(*out->v))) {
		ctx->err = -ENOMEM;
		return -1;
	}
	out->v[out->n++] = a;
	return 0;
}

/* The raw register values whose key lies in c's intervals: a signed key
 * has its sign bit flipped, so a key interval across the sign bit is two
 * raw intervals (scmp-run.ini(5) ARGUMENT WIDTHS). */
static int raw_set(const struct rcmp *c, struct ivset *out)
{
	uint64_t sign = c->is_signed ? width_sign(c->width) : 0, max = width_max(c->width);
	int r = 0;

	for (size_t i = 0; i < c->n_ivs && r >= 0; i++) {
		uint64_t lo = c->ivs[i].lo, hi = c->ivs[i].hi;

		if (sign && lo < sign && hi >= sign) {
			r = ivset_add(out, lo ^ sign, max);
			if (r >= 0)
				r = ivset_add(out, 0, hi ^ sign);
		} else {
			r = ivset_add(out, lo ^ sign, hi ^ sign);
		}
	}
	return r < 0 ? r : ivset_normalize(out);
}

static bool same_ivs(const struct ivset *a, const struct ivset *b)
{
	return a->n == b->n && !memcmp(a->iv, b->iv, a->n * sizeof(*a->iv));
}

/* The low words [lo, hi] of high word h belong to a set. */
struct part {
	uint32_t hi;
	struct ivset lo;
};

/* Add [lo, hi] of high word h: to whole if it is all of h, else to the
 * parts (in ascending order of h). */
static int piece(struct part **parts, size_t *n, size_t *cap, struct ivset *whole, uint32_t h,
		 uint32_t lo, uint32_t hi)
{
	if (lo == 0 && hi == FULL)
		return ivset_add(whole, h, h);
	if (!*n || (*parts)[*n - 1].hi != h) {
		if (!grow((void **)parts, cap, *n + 1, sizeof(**parts)))
			return -ENOMEM;
		(*parts)[(*n)++] = (struct part){ .hi = h };
	}
	return ivset_add(&(*parts)[*n - 1].lo, lo, hi);
}

/* A 64-bit set as alternatives over the high and the low word: the high
 * words the set covers whole, then per set of low words, the high words
 * that hold exactly that part. */
static int split64(struct actx *ctx, uint8_t arg, const struct ivset *raw, struct alts *out)
{
	struct part *parts = NULL;
	size_t n_parts = 0, cap_parts = 0;
	struct ivset whole = { 0 };
	int r = 0;

	for (size_t i = 0; i < raw->n && r >= 0; i++) {
		uint64_t a = raw->iv[i].lo, b = raw->iv[i].hi;
		uint32_t ha = (uint32_t)(a >> 32), hb = (uint32_t)(b >> 32);

		if (ha == hb) {
			r = piece(&parts, &n_parts, &cap_parts, &whole, ha, (uint32_t)a,
				  (uint32_t)b);
			continue;
		}
		r = piece(&parts, &n_parts, &cap_parts, &whole, ha, (uint32_t)a, FULL);
		if (r >= 0 && hb > ha + 1ull)
			r = ivset_add(&whole, ha + 1ull, hb - 1ull);
		if (r >= 0)
			r = piece(&parts, &n_parts, &cap_parts, &whole, hb, 0, (uint32_t)b);
	}
	if (r >= 0)
		r = ivset_normalize(&whole);
	for (size_t i = 0; i < n_parts && r >= 0; i++)
		r = ivset_normalize(&parts[i].lo);
	if (r >= 0 && whole.n)
		r = add_alt(ctx, out, arg, true, FULL, &whole, false, 0, NULL);
	for (size_t i = 0; i < n_parts && r >= 0; i++) {
		struct ivset his = { 0 };

		if (!parts[i].lo.n)
			continue; /* taken into an earlier group */
		for (size_t j = i; j < n_parts && r >= 0; j++) {
			if (j > i && !same_ivs(&parts[i].lo, &parts[j].lo))
				continue;
			r = ivset_add(&his, parts[j].hi, parts[j].hi);
			if (j > i)
				ivset_free(&parts[j].lo);
		}
		if (r >= 0)
			r = ivset_normalize(&his);
		if (r >= 0)
			r = add_alt(ctx, out, arg, true, FULL, &his, false, FULL, &parts[i].lo);
		ivset_free(&his);
	}
	for (size_t i = 0; i < n_parts; i++)
		ivset_free(&parts[i].lo);
	free(parts);
	ivset_free(&whole);
	if (r < 0 && !ctx->err)
		ctx->err = r;
	return r < 0 ? -1 : 0;
}

/* "word & m == v" (eq) or "!=" over [0, m] as a set. */
static int mask_set(uint32_t m, uint32_t v, bool eq, struct ivset *out)
{
	int r = 0;

	if (eq)
		return (v & ~m) ? 0 : ivset_add(out, v, v);
	if (v & ~m)
		return ivset_add(out, 0, m);
	if (v > 0)
		r = ivset_add(out, 0, v - 1ull);
	if (r >= 0 && v < m)
		r = ivset_add(out, v + 1ull, m);
	return r;
}

/* The ways test c can hold, into out. */
static int cmp_alts(struct actx *ctx, const struct rcmp *c, struct alts *out)
{
	uint64_t wmax = width_max(c->width);
	uint32_t mlo = (uint32_t)(c->mask & wmax), mhi = (uint32_t)((c->mask & wmax) >> 32);
	uint32_t vlo = (uint32_t)c->value, vhi = (uint32_t)(c->value >> 32);
	struct ivset a = { 0 }, b = { 0 };
	int r = 0;

	if (c->kind == RCMP_IN) {
		r = raw_set(c, &a);
		if (r >= 0 && c->width == 64)
			r = split64(ctx, c->arg, &a, out) < 0 ? -1 : 0;
		else if (r >= 0)
			r = add_alt(ctx, out, c->arg, false, (uint32_t)wmax, &a, false, 0, NULL);
	} else if (c->kind == RCMP_MASK_EQ) {
		/* the masked value must hold on both words */
		r = mask_set(mlo, vlo, true, &a);
		if (r >= 0)
			r = mask_set(mhi, vhi, true, &b);
		if (r >= 0)
			r = add_alt(ctx, out, c->arg, false, mlo, &a, true, mhi, &b);
	} else {
		/* differs on one word or on the other */
		r = mask_set(mlo, vlo, false, &a);
		if (r >= 0)
			r = add_alt(ctx, out, c->arg, false, mlo, &a, false, 0, NULL);
		if (r >= 0 && c->width == 64)
			r = mask_set(mhi, vhi, false, &b);
		if (r >= 0 && c->width == 64)
			r = add_alt(ctx, out, c->arg, true, mhi, &b, false, 0, NULL);
	}
	ivset_free(&a);
	ivset_free(&b);
	if (r < 0 && !ctx->err)
		ctx->err = r == -1 ? -ENOMEM : r;
	return r < 0 || ctx->err ? -1 : 0;
}

/* The rules for rule rr: one per combination of its tests' alternatives. */
static int expand(struct actx *ctx, const struct rrule *rr, const struct alts *alts, size_t k,
		  struct atom *stack, size_t depth)
{
	struct crule *cr;

	if (k == rr->n_cmps) {
		if (!GROW(ctx, rules, n_rules, cap_rules, ctx->n_rules + 1) ||
		    !GROW(ctx, atoms, n_atoms, cap_atoms, ctx->n_atoms + depth + 1))
			return -1;
		if (ctx->n_rules == CRULES_MAX) {
			ctx->err = -E2BIG;
			return -1;
		}
		cr = &ctx->rules[ctx->n_rules++];
		*cr = (struct crule){ .atom = ctx->n_atoms, .ret = rr->ret };
		/* in order of id, each once: rules compare by their ids */
		for (size_t i = 0; i < depth; i++) {
			struct atom *a = &ctx->atoms[cr->atom], x = stack[i];
			size_t j = cr->n_atoms;

			while (j > 0 && a[j - 1].id > x.id)
				j--;
			if (j > 0 && a[j - 1].id == x.id)
				continue;
			memmove(&a[j + 1], &a[j], (cr->n_atoms - j) * sizeof(*a));
			a[j] = x;
			cr->n_atoms++;
			cr->vars |= x.var < TREE_VARS ? 1ull << x.var : 0;
		}
		ctx->n_atoms += cr->n_atoms;
		return 0;
	}
	if (alts[k].always) /* one alternative always holds: the test is no test */
		return expand(ctx, rr, alts, k + 1, stack, depth);
	for (size_t i = 0; i < alts[k].n; i++) {
		for (size_t j = 0; j < alts[k].v[i].n; j++)
			stack[depth + j] = alts[k].v[i].a[j];
		if (expand(ctx, rr, alts, k + 1, stack, depth + alts[k].v[i].n) < 0)
			return -1;
	}
	return 0;
}

static int add_rule(struct actx *ctx, const struct rrule *rr)
{
	struct alts *alts = calloc(rr->n_cmps + 1, sizeof(*alts));
	struct atom *stack = calloc(2 * rr->n_cmps + 1, sizeof(*stack));
	int r = alts && stack ? 0 : -1;

	if (r < 0)
		ctx->err = -ENOMEM;
	for (size_t k = 0; k < rr->n_cmps && r >= 0; k++)
		r = cmp_alts(ctx, &rr->cmps[k], &alts[k]);
	if (r >= 0)
		r = expand(ctx, rr, alts, 0, stack, 0);
	for (size_t k = 0; alts && k < rr->n_cmps; k++)
		free(alts[k].v);
	free(alts);
	free(stack);
	return r;
}

/* ---- residual rule lists ---- */

static const struct interval *atom_ivs(const struct actx *ctx, const struct atom *a)
{
	return &ctx->pool[a->iv];
}

static bool atom_has(const struct actx *ctx, const struct atom *a, uint32_t x)
{
	const struct interval *iv = atom_ivs(ctx, a);
	size_t lo = 0, hi = a->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (iv[mid].hi < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < a->n && iv[lo].lo <= x;
}

/* Is every atom of rule a also an atom of b with a superset? Then b never
 * matches after a: a matches first. */
static bool covers(const struct actx *ctx, const struct crule *a, const struct crule *b,
		   uint64_t done)
{
	for (size_t i = 0; i < a->n_atoms; i++) {
		const struct atom *x = &ctx->atoms[a->atom + i];
		bool found = false;

		if (done >> x->var & 1)
			continue;
		for (size_t j = 0; j < b->n_atoms && !found; j++) {
			const struct atom *y = &ctx->atoms[b->atom + j];
			const struct interval *yi = atom_ivs(ctx, y);

			if (y->var != x->var)
				continue;
			found = true;
			for (size_t k = 0; k < y->n && found; k++) {
				const struct interval *xi = atom_ivs(ctx, x);
				size_t m = 0;

				while (m < x->n && xi[m].hi < yi[k].lo)
					m++;
				found = m < x->n && xi[m].lo <= yi[k].lo && xi[m].hi >= yi[k].hi;
			}
		}
		if (!found)
			return false;
	}
	return true;
}

/* Do rules a and b test the same open atoms? */
static bool same_open(const struct actx *ctx, const struct crule *a, uint64_t done_a,
		      const struct crule *b, uint64_t done_b)
{
	size_t i = 0, j = 0;

	for (;;) {
		while (i < a->n_atoms && done_a >> ctx->atoms[a->atom + i].var & 1)
			i++;
		while (j < b->n_atoms && done_b >> ctx->atoms[b->atom + j].var & 1)
			j++;
		if (i == a->n_atoms || j == b->n_atoms)
			return i == a->n_atoms && j == b->n_atoms;
		if (ctx->atoms[a->atom + i++].id != ctx->atoms[b->atom + j++].id)
			return false;
	}
}

/* Cut r to what can change the outcome: nothing after a rule whose words
 * are all decided (it matches: its outcome becomes the fall-through), no
 * rule at the end with the fall-through's outcome. */
static void trim(const struct actx *ctx, struct resid *r)
{
	for (size_t k = 0; k < r->n; k++)
		if (!(ctx->rules[r->idx[k]].vars & ~r->done)) {
			r->fall = ctx->rules[r->idx[k]].ret;
			r->n = k;
			break;
		}
	while (r->n && ctx->rules[r->idx[r->n - 1]].ret == r->fall)
		r->n--;
	if (r->n <= 64) { /* a rule that tests what an earlier one tests never decides */
		size_t u = 0;

		for (size_t k = 0; k < r->n; k++) {
			bool dup = false;

			for (size_t i = 0; i < u && !dup; i++)
				dup = same_open(ctx, &ctx->rules[r->idx[i]], r->done,
						&ctx->rules[r->idx[k]], r->done);
			if (!dup)
				r->idx[u++] = r->idx[k];
		}
		r->n = u;
		while (r->n && ctx->rules[r->idx[r->n - 1]].ret == r->fall)
			r->n--;
	}
}

static uint64_t used_vars(const struct actx *ctx, const struct resid *r)
{
	uint64_t v = 0;

	for (size_t k = 0; k < r->n; k++)
		v |= ctx->rules[r->idx[k]].vars;
	return v;
}

/* The same decision problem: the same outcomes and open atoms, in order. */
static bool same_resid(const struct actx *ctx, const struct resid *a, const struct resid *b)
{
	if (a->n != b->n || a->fall != b->fall)
		return false;
	for (size_t k = 0; k < a->n; k++) {
		const struct crule *x = &ctx->rules[a->idx[k]], *y = &ctx->rules[b->idx[k]];

		if (x->ret != y->ret || !same_open(ctx, x, a->done, y, b->done))
			return false;
	}
	return true;
}

static uint64_t resid_hash(const struct actx *ctx, const struct resid *r)
{
	uint64_t h = 1469598103934665603ull ^ r->fall;

	for (size_t k = 0; k < r->n; k++) {
		const struct crule *cr = &ctx->rules[r->idx[k]];

		h = (h ^ cr->ret) * 1099511628211ull;
		for (size_t i = 0; i < cr->n_atoms; i++)
			if (!(r->done >> ctx->atoms[cr->atom + i].var & 1))
				h = (h ^ (ctx->atoms[cr->atom + i].id + 1)) * 1099511628211ull;
	}
	return h;
}

static bool same_state(const struct astate *a, const struct astate *b)
{
	return a->valid == b->valid &&
	       (!a->valid || (a->arg == b->arg && a->hi == b->hi && a->mask == b->mask));
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* ---- code for one decision ---- */

struct range {
	uint32_t lo, hi;
	struct target t;
};

/* Instructions a chain testing "x in the ranges of t" needs. */
static size_t chain_cost(const struct range *r, size_t n, struct target t, uint32_t lo, uint32_t hi)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		if (target_eq(r[i].t, t))
			c += r[i].lo == r[i].hi ? 1 : (r[i].lo > lo) + (r[i].hi < hi);
	return c;
}

/* "x in the ranges of yes", ascending: below a range means in none after
 * it (no); above the last one means no. [lo, hi] is what x can be. */
static struct target chain(struct gen *g, const struct range *r, size_t n, struct target yes,
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

static bool two_targets(const struct range *r, size_t n, struct target a, struct target b)
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
	struct range *yr;
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
	size_t cost = (w0 != 0) + 3 + (v->mask != FULL) + tb->n_win - 1;

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
	if (v->mask != FULL)
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
static size_t table_plan(const struct var *v, const struct range *r, size_t n, struct target yes,
			 uint32_t lo, uint32_t hi, enum table_mode mode, struct table *tb)
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
			tb->yr[tb->n_yr++] = (struct range){ (uint32_t)a, (uint32_t)e, yes };
			cur->end = tb->n_yr;
			cur->top = (uint32_t)(e - cur->w);
			cur->mask |= (e - a == 31 ? FULL : ((1u << (e - a + 1)) - 1))
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
static size_t mem_plan(const struct range *r, size_t n, struct target yes, struct mem_table *mt)
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
static struct target two_way(struct gen *g, const struct var *v, const struct range *r, size_t n,
			     struct target a, struct target b, uint32_t lo, uint32_t hi)
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

/* Forget what was emitted since a mark: instructions and remembered returns. */
struct mark {
	size_t n, n_rets;
	__typeof__(((struct gen *)0)->rets[0]) rets[RET_CACHE];
};

static void mark_set(const struct gen *g, struct mark *m)
{
	m->n = g->n;
	m->n_rets = g->n_rets;
	memcpy(m->rets, g->rets, sizeof(m->rets));
}

static void mark_reset(struct gen *g, const struct mark *m)
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
static size_t chain_multi_cost(const struct range *r, size_t i, size_t j, struct target bg,
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
static size_t block_cost(const struct range *r, size_t i, size_t j, struct target *ret_bg,
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
static struct target chain_multi(struct gen *g, const struct range *r, size_t i, size_t j,
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
static struct target block_tree(struct gen *g, const struct var *v, const struct range *r,
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
static bool two_add(struct two_scan *ts, const struct range *r, size_t i)
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
static size_t two_cost(const struct two_scan *ts, const struct range *r, size_t i, size_t j,
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
static struct target search_blocks(struct gen *g, const struct var *v, const struct range *r,
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
static struct target search_halves(struct gen *g, const struct var *v, const struct range *r,
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
static bool islands(const struct range *r, size_t n)
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
static struct target search(struct gen *g, const struct var *v, const struct range *r, size_t n,
			    uint32_t lo, uint32_t hi)
{
	struct target t;
	struct mark m;
	size_t n_blocks;

	if (n == 1 || n > SEARCH_BLOCKS_MAX || two_targets(r, n, r[0].t, r[1].t) || !islands(r, n))
		return search_halves(g, v, r, n, lo, hi);
	mark_set(g, &m);
	search_blocks(g, v, r, n);
	n_blocks = g->n - m.n;
	mark_reset(g, &m);
	t = search_halves(g, v, r, n, lo, hi);
	if (g->n - m.n <= n_blocks)
		return t;
	mark_reset(g, &m);
	return search_blocks(g, v, r, n);
}

static bool single_bit(uint32_t m)
{
	return m && !(m & (m - 1));
}

/* Whether word v is decided with "jset mask" on the word as it is: the
 * pieces are 0 and the rest, or the mask has one bit (0 and mask are the
 * only values it leaves). */
static bool by_jset(const struct var *v, const struct range *r, size_t n)
{
	return v->mask != FULL && n >= 2 && ((n == 2 && r[0].hi == 0) || single_bit(v->mask));
}

/* What A holds after the load and mask that deciding v needs, from *st.
 * *ret_load and *ret_and say which instructions that takes. */
static struct astate state_for(const struct var *v, bool jset, const struct astate *st,
			       bool *ret_load, bool *ret_and)
{
	/* A & mask is word & mask when A holds the word under a wider mask */
	bool holds = st->valid && st->arg == v->arg && st->hi == v->hi &&
		     (st->mask & v->mask) == v->mask;

	*ret_load = !holds;
	*ret_and = false;
	if (jset)
		return holds ? *st : (struct astate){ true, v->arg, v->hi, FULL };
	*ret_and = v->mask != FULL && !(holds && st->mask == v->mask);
	return (struct astate){ true, v->arg, v->hi, v->mask };
}

/* The code that puts word v in A (from state *st) and sends it to the
 * targets of r[0..n) (n may be 1: then only A is set up). */
static struct target decide(struct gen *g, const struct var *v, bool jset, const struct range *r,
			    size_t n, const struct astate *st)
{
	bool load, and;
	struct target t;

	state_for(v, jset, st, &load, &and);
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

/* ---- the tree ---- */

/* The values of one word cut into ranges on which the same rules remain:
 * range i is [cuts[i], cuts[i + 1] - 1] and leaves kids[kid_of[i]]. */
struct parts {
	uint32_t *cuts;
	size_t n_cuts;
	struct resid *kids;
	size_t *kid_of, n_kids;
	struct range *ranges; /* merged neighbours, target label = kid index */
	size_t n_ranges;
};

static void parts_free(struct parts *p)
{
	for (size_t j = 0; p->kids && j < p->n_kids; j++)
		free(p->kids[j].idx);
	free(p->kids);
	free(p->kid_of);
	free(p->ranges);
	free(p->cuts);
}

static int partition(struct actx *ctx, const struct resid *r, unsigned v, struct parts *p)
{
	const struct var *var = &ctx->vars[v];
	size_t cap_cuts = 0;
	uint32_t *all = NULL;

	*p = (struct parts){ 0 };
	/* the starts of the pieces: 0 and every interval's ends */
	if (!grow((void **)&p->cuts, &cap_cuts, 1, sizeof(*p->cuts)))
		goto nomem;
	p->cuts[p->n_cuts++] = 0;
	for (size_t k = 0; k < r->n; k++) {
		const struct crule *cr = &ctx->rules[r->idx[k]];

		for (size_t i = 0; i < cr->n_atoms; i++) {
			const struct atom *a = &ctx->atoms[cr->atom + i];
			const struct interval *iv = atom_ivs(ctx, a);

			if (a->var != v)
				continue;
			if (!grow((void **)&p->cuts, &cap_cuts, p->n_cuts + 2 * a->n,
				  sizeof(*p->cuts)))
				goto nomem;
			for (size_t j = 0; j < a->n; j++) {
				p->cuts[p->n_cuts++] = (uint32_t)iv[j].lo;
				if (iv[j].hi < var->mask)
					p->cuts[p->n_cuts++] = (uint32_t)iv[j].hi + 1;
			}
		}
	}
	qsort(p->cuts, p->n_cuts, sizeof(*p->cuts), cmp_u32);
	{
		size_t u = 0;

		for (size_t i = 0; i < p->n_cuts; i++)
			if (!u || p->cuts[u - 1] != p->cuts[i])
				p->cuts[u++] = p->cuts[i];
		p->n_cuts = u;
	}
	p->kids = calloc(p->n_cuts, sizeof(*p->kids));
	p->kid_of = calloc(p->n_cuts, sizeof(*p->kid_of));
	p->ranges = calloc(p->n_cuts, sizeof(*p->ranges));
	all = calloc(r->n + 1, sizeof(*all));
	if (!p->kids || !p->kid_of || !p->ranges || !all)
		goto nomem;
	for (size_t c = 0; c < p->n_cuts; c++) {
		struct resid k = { all, 0, r->done | 1ull << v, r->fall };
		uint32_t hi = c + 1 < p->n_cuts ? p->cuts[c + 1] - 1 : var->mask;
		size_t j;

		for (size_t q = 0; q < r->n; q++) {
			const struct crule *cr = &ctx->rules[r->idx[q]];
			bool in = true;

			for (size_t i = 0; i < cr->n_atoms && in; i++) {
				const struct atom *a = &ctx->atoms[cr->atom + i];

				if (a->var == v)
					in = atom_has(ctx, a, p->cuts[c]);
			}
			if (in)
				all[k.n++] = r->idx[q];
		}
		trim(ctx, &k);
		for (j = 0; j < p->n_kids; j++)
			if (same_resid(ctx, &p->kids[j], &k))
				break;
		if (j == p->n_kids) {
			p->kids[j] = k;
			p->kids[j].idx = calloc(k.n + 1, sizeof(*k.idx));
			if (!p->kids[j].idx)
				goto nomem;
			memcpy(p->kids[j].idx, k.idx, k.n * sizeof(*k.idx));
			p->n_kids++;
		}
		p->kid_of[c] = j;
		if (p->n_ranges && j == p->ranges[p->n_ranges - 1].t.label)
			p->ranges[p->n_ranges - 1].hi = hi;
		else
			p->ranges[p->n_ranges++] = (struct range){ p->cuts[c], hi, T_LBL(j) };
	}
	free(all);
	return 0;
nomem:
	free(all);
	ctx->err = -ENOMEM;
	return -1;
}

/* The word to decide next: the one most rules test; then one A already
 * holds; then the wider mask (a raw test before a masked one keeps the
 * word in A). The one word the first rule still tests counts as two more
 * rules: the values that match it end in that rule's return, and no test
 * of a later rule is repeated under them (mmap's "prot & 4 == 0" before
 * the words of "prot == 5 && flags & 0x20 == 0"). */
static int choose(const struct actx *ctx, const struct resid *r, const struct astate *st)
{
	unsigned count[TREE_VARS] = { 0 };
	int best = -1;
	long best_score = -1;
	uint64_t first = r->n ? ctx->rules[r->idx[0]].vars & ~r->done : 0;

	for (size_t k = 0; k < r->n; k++) {
		uint64_t vars = ctx->rules[r->idx[k]].vars & ~r->done;

		for (unsigned v = 0; v < ctx->n_vars; v++)
			count[v] += vars >> v & 1;
	}
	for (unsigned v = 0; v < ctx->n_vars; v++) {
		const struct var *x = &ctx->vars[v];
		bool in_a = st->valid && st->arg == x->arg && st->hi == x->hi &&
			    (st->mask & x->mask) == x->mask;
		long score;

		if (!count[v])
			continue;
		score = (long)count[v] * 4 + (in_a ? 2 : 0) + (x->mask == FULL) +
			(first == 1ull << v ? 8 : 0);
		if (score > best_score) {
			best_score = score;
			best = (int)v;
		}
	}
	return best;
}

static struct target node(struct actx *ctx, struct resid *r, const struct astate *st);

/* Decide word v for the rules of r: one child per distinct remainder. */
static struct target split(struct actx *ctx, const struct resid *r, unsigned v,
			   const struct astate *st)
{
	const struct var *var = &ctx->vars[v];
	struct target t = T_RET(r->fall), *kt = NULL;
	struct astate after;
	bool jset, load, and;
	struct parts p;
	size_t u = 0;

	if (partition(ctx, r, v, &p) < 0)
		goto out;
	if (p.n_kids == 1) {
		t = node(ctx, &p.kids[0], st);
		goto out;
	}
	/* children first (backwards), entered with what decide() leaves in A */
	jset = by_jset(var, p.ranges, p.n_ranges);
	after = state_for(var, jset, st, &load, &and);
	kt = calloc(p.n_kids, sizeof(*kt));
	if (!kt) {
		ctx->err = -ENOMEM;
		goto out;
	}
	for (size_t j = p.n_kids; j-- > 0;)
		kt[j] = node(ctx, &p.kids[j], &after);
	/* pieces whose children came out the same join */
	for (size_t i = 0; i < p.n_ranges; i++) {
		struct target ti = kt[p.ranges[i].t.label];

		if (u && target_eq(p.ranges[u - 1].t, ti)) {
			p.ranges[u - 1].hi = p.ranges[i].hi;
			continue;
		}
		p.ranges[u] = p.ranges[i];
		p.ranges[u++].t = ti;
	}
	t = decide(ctx->g, var, jset, p.ranges, u, st);
out:
	free(kt);
	parts_free(&p);
	return t;
}

/* st, or nothing when no open word of r is the word A holds: then what A
 * holds cannot matter, and nodes that differ only there are one. */
static const struct astate *useful_state(const struct actx *ctx, const struct resid *r,
					 const struct astate *st, struct astate *buf)
{
	uint64_t open = used_vars(ctx, r) & ~r->done;

	for (unsigned v = 0; st->valid && v < ctx->n_vars; v++)
		if ((open >> v & 1) && ctx->vars[v].arg == st->arg && ctx->vars[v].hi == st->hi)
			return st;
	*buf = (struct astate){ false };
	return buf;
}

static struct target node(struct actx *ctx, struct resid *r, const struct astate *st)
{
	struct astate eff;
	struct memo *m;
	uint64_t h;
	struct target t;
	int v;

	trim(ctx, r);
	if (!r->n || ctx->err)
		return T_RET(r->fall);
	st = useful_state(ctx, r, st, &eff);
	h = resid_hash(ctx, r);
	for (size_t i = 0; i < ctx->n_memo; i++) {
		m = &ctx->memo[i];
		if (m->hash == h && same_state(&m->st, st) && same_resid(ctx, &m->r, r))
			return m->t;
	}
	if (++ctx->nodes > NODES_MAX) {
		ctx->err = -E2BIG;
		return T_RET(r->fall);
	}
	v = choose(ctx, r, st);
	if (v < 0) /* cannot be: trim() cut every rule without an open word */
		return T_RET(r->fall);
	t = split(ctx, r, (unsigned)v, st);
	if (ctx->err || !GROW(ctx, memo, n_memo, cap_memo, ctx->n_memo + 1))
		return t;
	m = &ctx->memo[ctx->n_memo];
	*m = (struct memo){ *r, *st, h, t };
	m->r.idx = calloc(r->n + 1, sizeof(*r->idx));
	if (!m->r.idx) {
		ctx->err = -ENOMEM;
		return t;
	}
	memcpy(m->r.idx, r->idx, r->n * sizeof(*r->idx));
	ctx->n_memo++;
	return t;
}

/* ---- the plain list: when the tree grows too large ---- */

/* Rule after rule, each word tested from a fresh load. Correct for any
 * rules; used when the tree would take more than NODES_MAX decisions. */
static struct target list(struct actx *ctx, const struct resid *r)
{
	struct gen *g = ctx->g;
	struct target next = T_RET(r->fall);

	for (size_t k = r->n; k-- > 0;) {
		const struct crule *cr = &ctx->rules[r->idx[k]];
		struct target t = T_RET(cr->ret);

		for (size_t i = cr->n_atoms; i-- > 0;) {
			const struct atom *a = &ctx->atoms[cr->atom + i];
			const struct var *v = &ctx->vars[a->var];
			const struct interval *iv = atom_ivs(ctx, a);
			struct range *rg = calloc(2 * a->n + 1, sizeof(*rg));
			struct astate none = { false };
			size_t n = 0;
			uint64_t at = 0;

			if (!rg) {
				ctx->err = -ENOMEM;
				return next;
			}
			for (size_t j = 0; j < a->n; j++) {
				if (iv[j].lo > at)
					rg[n++] = (struct range){ (uint32_t)at,
								  (uint32_t)iv[j].lo - 1, next };
				rg[n++] =
					(struct range){ (uint32_t)iv[j].lo, (uint32_t)iv[j].hi, t };
				at = iv[j].hi + 1;
			}
			if (at <= v->mask)
				rg[n++] = (struct range){ (uint32_t)at, v->mask, next };
			t = decide(g, v, by_jset(v, rg, n), rg, n, &none);
			free(rg);
		}
		next = t;
	}
	return next;
}

/* Drop the rules an earlier rule covers: they never decide. */
static void drop_covered(const struct actx *ctx, struct resid *r)
{
	size_t u = 0;

	if (r->n > 512) /* quadratic: not worth it for huge lists */
		return;
	for (size_t k = 0; k < r->n; k++) {
		bool dead = false;

		for (size_t i = 0; i < u && !dead; i++)
			dead = covers(ctx, &ctx->rules[r->idx[i]], &ctx->rules[r->idx[k]], r->done);
		if (!dead)
			r->idx[u++] = r->idx[k];
	}
	r->n = u;
}

static void actx_free(struct actx *ctx)
{
	free(ctx->vars);
	free(ctx->uniq);
	for (size_t i = 0; i < ctx->n_memo; i++)
		free(ctx->memo[i].r.idx);
	free(ctx->memo);
	free(ctx->pool);
	free(ctx->atoms);
	free(ctx->rules);
}

static struct target tree(struct actx *ctx, struct resid *root)
{
	struct astate none = { false };

	for (size_t i = 0; i < ctx->n_memo; i++)
		free(ctx->memo[i].r.idx);
	ctx->n_memo = 0;
	ctx->nodes = 0;
	return node(ctx, root, &none);
}

struct target bpf_args_block(struct gen *g, const struct rsys *s, size_t n_rules, uint32_t fall)
{
	struct actx ctx = { .g = g };
	struct resid root = { .fall = fall };
	struct target t = T_RET(fall);
	struct mark m;
	size_t n_list;

	for (size_t i = 0; i < n_rules && !ctx.err; i++)
		add_rule(&ctx, &s->rules[i]);
	root.idx = calloc(ctx.n_rules + 1, sizeof(*root.idx));
	if (!root.idx && !ctx.err)
		ctx.err = -ENOMEM;
	if (ctx.err)
		goto out;
	for (size_t i = 0; i < ctx.n_rules; i++)
		root.idx[root.n++] = (uint32_t)i;
	if (ctx.wide) {
		/* trim() and the tree need a bit per word */
		t = list(&ctx, &root);
		goto out;
	}
	trim(&ctx, &root);
	drop_covered(&ctx, &root);
	if (!(used_vars(&ctx, &root) & (used_vars(&ctx, &root) - 1))) {
		/* one word: its tree tests each of its values once */
		t = tree(&ctx, &root);
		goto out;
	}
	/* The shorter of the rules one by one and the tree (a tree repeats
	 * the tests of a later rule under every outcome of an earlier one);
	 * a tie goes to the tree: it runs fewer instructions. */
	mark_set(g, &m);
	t = list(&ctx, &root);
	if (ctx.err)
		goto out;
	n_list = g->n - m.n;
	mark_reset(g, &m);
	t = tree(&ctx, &root);
	if (ctx.err == -E2BIG || (!ctx.err && g->n - m.n > n_list)) {
		mark_reset(g, &m);
		ctx.err = 0;
		t = list(&ctx, &root);
	}
out:
	if (ctx.err && !g->err)
		g->err = ctx.err;
	free(root.idx);
	actx_free(&ctx);
	return t;
}
