/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The argument code of one syscall number: its ordered rules become one
 * decision tree over the 32-bit words of the arguments, so that no word is
 * tested twice on a path and values with the same remaining rules share code.
 * The code of each decision is bpf-decide.c's.
 */
#include "bpf-gen.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define VARS_MAX   1024 /* distinct (argument, half, mask) words of one syscall */
#define TREE_VARS  64	/* words a tree can decide (bits of a uint64_t) */
#define CRULES_MAX 4096 /* rules after the 64-bit tests are split into words */
#define NODES_MAX  4096 /* decision nodes of one syscall before the plain list is used */

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
	if (lo == 0 && hi == WORD_FULL)
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
		r = piece(&parts, &n_parts, &cap_parts, &whole, ha, (uint32_t)a, WORD_FULL);
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
		r = add_alt(ctx, out, arg, true, WORD_FULL, &whole, false, 0, NULL);
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
			r = add_alt(ctx, out, arg, true, WORD_FULL, &his, false, WORD_FULL,
				    &parts[i].lo);
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

/* ---- the tree ---- */

/* The values of one word cut into ranges on which the same rules remain:
 * range i is [cuts[i], cuts[i + 1] - 1] and leaves kids[kid_of[i]]. */
struct parts {
	uint32_t *cuts;
	size_t n_cuts;
	struct resid *kids;
	size_t *kid_of, n_kids;
	struct word_range *ranges; /* merged neighbours, target label = kid index */
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
			p->ranges[p->n_ranges++] = (struct word_range){ p->cuts[c], hi, T_LBL(j) };
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
		score = (long)count[v] * 4 + (in_a ? 2 : 0) + (x->mask == WORD_FULL) +
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
	/* children first (backwards), entered with what bpf_decide() leaves in A */
	jset = bpf_decide_jset(var, p.ranges, p.n_ranges);
	after = bpf_decide_state(var, jset, st, &load, &and);
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
	t = bpf_decide(ctx->g, var, jset, p.ranges, u, st);
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
			struct word_range *rg = calloc(2 * a->n + 1, sizeof(*rg));
			struct astate none = { false };
			size_t n = 0;
			uint64_t at = 0;

			if (!rg) {
				ctx->err = -ENOMEM;
				return next;
			}
			for (size_t j = 0; j < a->n; j++) {
				if (iv[j].lo > at)
					rg[n++] =
						(struct word_range){ (uint32_t)at,
								     (uint32_t)iv[j].lo - 1, next };
				rg[n++] = (struct word_range){ (uint32_t)iv[j].lo,
							       (uint32_t)iv[j].hi, t };
				at = iv[j].hi + 1;
			}
			if (at <= v->mask)
				rg[n++] = (struct word_range){ (uint32_t)at, v->mask, next };
			t = bpf_decide(g, v, bpf_decide_jset(v, rg, n), rg, n, &none);
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
	struct gen_mark m;
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
	if (root.n == 1 && ctx.rules[root.idx[0]].n_atoms == 1) {
		/* one test (most conditional syscalls): the tree would decide
		 * its word alike, after a partition of its values */
		t = list(&ctx, &root);
		goto out;
	}
	if (!(used_vars(&ctx, &root) & (used_vars(&ctx, &root) - 1))) {
		/* one word: its tree tests each of its values once */
		t = tree(&ctx, &root);
		goto out;
	}
	/* The shorter of the rules one by one and the tree (a tree repeats
	 * the tests of a later rule under every outcome of an earlier one);
	 * a tie goes to the tree: it runs fewer instructions. */
	gen_mark_set(g, &m);
	t = list(&ctx, &root);
	if (ctx.err)
		goto out;
	n_list = g->n - m.n;
	gen_mark_reset(g, &m);
	t = tree(&ctx, &root);
	if (ctx.err == -E2BIG || (!ctx.err && g->n - m.n > n_list)) {
		gen_mark_reset(g, &m);
		ctx.err = 0;
		t = list(&ctx, &root);
	}
out:
	if (ctx.err && !g->err) {
		g->err = ctx.err;
		g->too_complex = s;
	}
	free(root.idx);
	actx_free(&ctx);
	return t;
}
