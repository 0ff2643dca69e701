/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Code generation: a policy becomes one classic-BPF program. Per ABI, the
 * number space is cut into ranges of equal outcome and searched with a
 * weighted binary tree; argument tests sit only under the numbers that have
 * conditions, so unconditionally allowed numbers stay cacheable.
 */
#include "bpf.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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

#define JUMP_MAX  255u /* jt/jf are 8 bits */
#define RET_CACHE 64   /* distinct return values remembered for reuse */

struct gen {
	struct sock_filter *buf;
	size_t n, cap;
	struct {
		uint32_t ret;
		size_t label;
	} rets[RET_CACHE];
	size_t n_rets;
	bool big_endian;
	int err;
};

static size_t emit(struct gen *g, uint16_t code, uint32_t k, uint8_t jt, uint8_t jf)
{
	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 256;
		struct sock_filter *b = reallocarray(g->buf, cap, sizeof(*b));

		if (!b) {
			g->err = -ENOMEM;
			return g->n ? g->n - 1 : 0;
		}
		g->buf = b;
		g->cap = cap;
	}
	g->buf[g->n] = (struct sock_filter){ .code = code, .jt = jt, .jf = jf, .k = k };
	return g->n++;
}

static size_t emit_ret(struct gen *g, uint32_t ret)
{
	size_t l = emit(g, BPF_RET | BPF_K, ret, 0, 0);
	size_t i;

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
	g->buf[l].k = (uint32_t)(l - t.label - 1);
	return l;
}

/* A conditional jump; long distances go through "ja" trampolines. */
static struct target jump(struct gen *g, uint16_t op, uint32_t k, struct target tt,
			  struct target tf)
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
static struct target before(struct gen *g, uint16_t code, uint32_t k, struct target t)
{
	goto_target(g, t);
	return T_LBL(emit(g, code, k, 0, 0));
}

static uint32_t arg_offset(const struct gen *g, unsigned arg, bool hi)
{
	return (uint32_t)(offsetof(struct seccomp_data, args) + 8 * arg +
			  (hi != g->big_endian ? 4 : 0));
}

static struct target load(struct gen *g, unsigned arg, bool hi, uint32_t xor, struct target t)
{
	if (xor)
		t = before(g, BPF_ALU | BPF_XOR | BPF_K, xor, t);
	return before(g, BPF_LD | BPF_W | BPF_ABS, arg_offset(g, arg, hi), t);
}

/* ---- 32-bit tests: the low half of the register ---- */

/* Is the key in A within ivs? Sorted ascending: below an interval means
 * below every later one too, so that exit goes straight to "below"; past
 * the last interval the chain goes on at "above". */
static struct target ivs32(struct gen *g, const struct interval *iv, size_t n, uint64_t max,
			   struct target yes, struct target below, struct target above)
{
	struct target next = above;

	for (size_t i = n; i-- > 0;) {
		uint32_t lo = (uint32_t)iv[i].lo, hi = (uint32_t)iv[i].hi;
		struct target t;

		if (lo == hi) {
			next = jump(g, BPF_JEQ, lo, yes, next);
			continue;
		}
		t = hi == max ? yes : jump(g, BPF_JGT, hi, next, yes);
		next = lo == 0 ? t : jump(g, BPF_JGE, lo, t, below);
	}
	return next;
}

/* ---- 64-bit tests: both halves ---- */

/* key > k ? yes : no, loading both halves as needed. */
static struct target gt64(struct gen *g, unsigned arg, uint32_t xor, uint64_t k, struct target yes,
			  struct target no)
{
	uint32_t khi = (uint32_t)(k >> 32), klo = (uint32_t)k;
	struct target lo, t;

	lo = klo == UINT32_MAX ? no : load(g, arg, false, 0, jump(g, BPF_JGT, klo, yes, no));
	/* not above khi: equal to it, certainly so when khi is 0 */
	t = khi ? jump(g, BPF_JEQ, khi, lo, no) : lo;
	t = jump(g, BPF_JGT, khi, yes, t);
	return load(g, arg, true, xor, t);
}

/*
 * Is the 64-bit key in iv[0..n)? Intervals that lie within one high word
 * are tested as a group: one test of the high word, then the low words
 * with the 32-bit chain. Consecutive groups share the load of the high
 * word. Sorted ascending, so "below this interval" means "in none after".
 */
static struct target ivs64(struct gen *g, unsigned arg, uint32_t xor, const struct interval *iv,
			   size_t n, struct target yes, struct target no)
{
	struct target next = no, next_hi = no; /* next_hi: A holds the high word */
	bool next_is_group = false;

	for (size_t i = n; i > 0;) {
		uint64_t hi_word = iv[i - 1].hi >> 32;
		size_t j = i;

		while (j > 0 && iv[j - 1].lo >> 32 == hi_word && iv[j - 1].hi >> 32 == hi_word)
			j--;
		if (j < i) {
			struct interval *low = calloc(i - j, sizeof(*low));
			struct target t;

			if (!low) {
				g->err = -ENOMEM;
				return no;
			}
			for (size_t k = j; k < i; k++)
				low[k - j] = (struct interval){ iv[k].lo & UINT32_MAX,
								iv[k].hi & UINT32_MAX };
			/* above the group's last interval, a later interval may
			 * still start in this high word */
			t = load(g, arg, false, 0, ivs32(g, low, i - j, UINT32_MAX, yes, no, next));
			free(low);

			next_hi = jump(g, BPF_JEQ, (uint32_t)hi_word, t,
				       next_is_group ? next_hi : next);
			next = load(g, arg, true, xor, next_hi);
			next_is_group = true;
			i = j;
			continue;
		}
		i--;
		struct target t =
			iv[i].hi == UINT64_MAX ? yes : gt64(g, arg, xor, iv[i].hi, next, yes);

		next = iv[i].lo == 0 ? t : gt64(g, arg, xor, iv[i].lo - 1, t, no);
		next_is_group = false;
	}
	return next;
}

/*
 * A test that needs only the low word of its argument: A is loaded once,
 * maybe changed by one ALU op (the sign flip of signed keys, a mask, the
 * 16-bit truncation), then only jumps. Such tests leave A in that state on
 * every exit, so the next test of the same state needs no load.
 */
struct low_state {
	uint8_t arg;
	uint16_t op; /* 0, BPF_XOR or BPF_AND */
	uint32_t k;
};

/* The intervals to test, and whether yes/no trade places: a set or its
 * complement, whichever has fewer intervals. A signed 32-bit test of
 * single values only compares the raw values: no sign flip is needed for
 * equality (*ret_raw). *ret_free is the caller's. */
static const struct interval *test_set(const struct rcmp *c, size_t *ret_n, bool *ret_swap,
				       bool *ret_raw, struct interval **ret_free)
{
	uint64_t max = width_max(c->width);
	const struct interval *iv = c->ivs;
	bool points = true;

	*ret_free = NULL;
	*ret_n = c->n_ivs;
	*ret_swap = false;
	*ret_raw = false;
	if (ivset_complement_size(c->ivs, c->n_ivs, max) < c->n_ivs) {
		struct ivset comp = { calloc(c->n_ivs + 1, sizeof(*c->ivs)), c->n_ivs };

		if (comp.iv) {
			if (c->n_ivs)
				memcpy(comp.iv, c->ivs, c->n_ivs * sizeof(*c->ivs));
			if (ivset_complement(&comp, max) == 0) {
				*ret_swap = true;
				*ret_free = comp.iv;
				iv = comp.iv;
				*ret_n = comp.n;
			} else {
				ivset_free(&comp);
			}
		}
	}
	for (size_t i = 0; i < *ret_n; i++)
		points &= iv[i].lo == iv[i].hi;
	if (!points || !c->is_signed || c->width != 32)
		return iv;
	if (!*ret_free) {
		*ret_free = calloc(*ret_n + 1, sizeof(**ret_free));
		if (!*ret_free)
			return iv;
		if (*ret_n)
			memcpy(*ret_free, iv, *ret_n * sizeof(*iv));
	}
	for (size_t i = 0; i < *ret_n; i++)
		(*ret_free)[i].lo = (*ret_free)[i].hi = iv[i].lo ^ 0x80000000u;
	*ret_raw = true;
	return *ret_free;
}

static bool low_state(const struct rcmp *c, struct low_state *ret)
{
	uint32_t mlo = (uint32_t)c->mask;

	*ret = (struct low_state){ .arg = c->arg };
	if (c->kind != RCMP_IN) {
		if (c->width == 64 && c->mask >> 32)
			return false;
		if (mlo != UINT32_MAX)
			*ret = (struct low_state){ c->arg, BPF_AND, mlo };
		return true;
	}
	if (c->width == 16) { /* the kernel truncates the register to 16 bits */
		*ret = (struct low_state){ c->arg, BPF_AND, 0xffff };
	} else if (c->width == 32 && c->is_signed) {
		struct interval *tmp;
		size_t n;
		bool swap, raw;

		test_set(c, &n, &swap, &raw, &tmp);
		free(tmp);
		if (!raw)
			*ret = (struct low_state){ c->arg, BPF_XOR, 0x80000000u };
	}
	return c->width <= 32;
}

static bool same_state(const struct low_state *a, const struct low_state *b)
{
	return a->arg == b->arg && a->op == b->op && a->k == b->k;
}

/* Code for one test; with loaded, A already holds its low state. */
static struct target emit_cmp(struct gen *g, const struct rcmp *c, struct target yes,
			      struct target no, bool loaded)
{
	struct low_state st;
	struct interval *comp;
	const struct interval *iv;
	size_t n;
	bool swap, raw;
	struct target t;

	if (c->kind != RCMP_IN) {
		struct target eq = c->kind == RCMP_MASK_EQ ? yes : no;
		struct target ne = c->kind == RCMP_MASK_EQ ? no : yes;
		uint32_t mhi = (uint32_t)(c->mask >> 32), mlo = (uint32_t)c->mask;

		if (low_state(c, &st)) {
			t = jump(g, BPF_JEQ, (uint32_t)c->value, eq, ne);
			goto setup;
		}
		t = eq;
		if (mlo) {
			t = jump(g, BPF_JEQ, (uint32_t)c->value, t, ne);
			if (mlo != UINT32_MAX)
				t = before(g, BPF_ALU | BPF_AND | BPF_K, mlo, t);
			t = load(g, c->arg, false, 0, t);
		}
		t = jump(g, BPF_JEQ, (uint32_t)(c->value >> 32), t, ne);
		if (mhi != UINT32_MAX)
			t = before(g, BPF_ALU | BPF_AND | BPF_K, mhi, t);
		return load(g, c->arg, true, 0, t);
	}

	iv = test_set(c, &n, &swap, &raw, &comp);
	if (!low_state(c, &st)) {
		t = ivs64(g, c->arg, c->is_signed ? 0x80000000u : 0, iv, n, swap ? no : yes,
			  swap ? yes : no);
		free(comp);
		return t;
	}
	t = ivs32(g, iv, n, width_max(c->width), swap ? no : yes, swap ? yes : no, swap ? yes : no);
	free(comp);
setup:
	if (loaded)
		return t;
	if (st.op)
		t = before(g, BPF_ALU | st.op | BPF_K, st.k, t);
	return load(g, c->arg, false, 0, t);
}

/* ---- per-syscall blocks ---- */

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

/* One test of a block: a rule, or a run of rules merged into one. */
struct unit {
	const struct rcmp *cmps;
	size_t n_cmps;
	uint32_t ret;
	struct rcmp merged; /* owns its intervals when the unit merges rules */
};

/* Rules with one result and one interval-set test of the same argument
 * decide as one test of the union: "if x == 1 allow; if x == 2 allow" is
 * "if x in {1, 2} allow". */
static bool mergeable(const struct rrule *a, const struct rrule *b)
{
	const struct rcmp *x = a->cmps, *y = b->cmps;

	return a->ret == b->ret && a->n_cmps == 1 && b->n_cmps == 1 && x->kind == RCMP_IN &&
	       y->kind == RCMP_IN && x->arg == y->arg && x->width == y->width &&
	       x->is_signed == y->is_signed;
}

/* The union of the tests of rules r[0..k), into u. */
static int merge_rules(const struct rrule *r, size_t k, struct unit *u)
{
	struct ivset set = { 0 };
	int ret = 0;

	for (size_t i = 0; i < k && ret >= 0; i++)
		for (size_t j = 0; j < r[i].cmps[0].n_ivs && ret >= 0; j++)
			ret = ivset_add(&set, r[i].cmps[0].ivs[j].lo, r[i].cmps[0].ivs[j].hi);
	if (ret >= 0)
		ret = ivset_normalize(&set);
	if (ret < 0) {
		ivset_free(&set);
		return ret;
	}
	u->merged = r[0].cmps[0];
	u->merged.ivs = set.iv;
	u->merged.n_ivs = set.n;
	u->cmps = &u->merged;
	u->n_cmps = 1;
	u->ret = r[0].ret;
	return 0;
}

static struct target emit_block(struct gen *g, const struct rsys *s, uint32_t default_ret)
{
	uint32_t fall;
	size_t n = block_plan(s, default_ret, &fall), n_units = 0;
	struct unit *units = calloc(n + 1, sizeof(*units));
	struct target next = T_RET(fall);

	if (!units) {
		g->err = -ENOMEM;
		return next;
	}
	for (size_t i = 0, k; i < n; i = k) {
		struct unit *u = &units[n_units++];

		for (k = i + 1; k < n && mergeable(&s->rules[i], &s->rules[k]); k++)
			;
		if (k - i > 1 && merge_rules(&s->rules[i], k - i, u) == 0)
			continue;
		k = i + 1;
		*u = (struct unit){ .cmps = s->rules[i].cmps,
				    .n_cmps = s->rules[i].n_cmps,
				    .ret = s->rules[i].ret };
	}
	for (size_t i = n_units; i-- > 0;) {
		const struct unit *u = &units[i], *prev = i ? &units[i - 1] : NULL;
		struct target t = T_RET(u->ret);
		struct low_state a, b;
		/* Test i is entered only when test i - 1 failed: if that was one
		 * low-word test of the same state, A is already loaded. */
		bool loaded = prev && prev->n_cmps == 1 && u->n_cmps &&
			      low_state(&prev->cmps[0], &a) && low_state(&u->cmps[0], &b) &&
			      same_state(&a, &b);

		for (size_t j = u->n_cmps; j-- > 0;)
			t = emit_cmp(g, &u->cmps[j], t, next, j == 0 && loaded);
		next = t;
	}
	for (size_t i = 0; i < n_units; i++)
		free(units[i].merged.ivs);
	free(units);
	return next;
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

struct dispatch {
	struct gen *g;
	const struct abi_policy *abi;
	struct range *r;
	size_t n;
	uint64_t *prefix; /* prefix[i] = sum of weights of r[0..i) */
	struct contrib *contrib;
	size_t n_contrib;
};

static bool same_outcome(const struct range *a, const struct range *b)
{
	return !a->block && !b->block && a->ret == b->ret;
}

static int add_range(struct range **r, size_t *n, size_t *cap, struct range x)
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
	dp->prefix = calloc(dp->n + 1, sizeof(*dp->prefix));
	if (!dp->prefix)
		return -ENOMEM;
	for (size_t i = 0; i < dp->n; i++)
		dp->prefix[i + 1] = dp->prefix[i] + dp->r[i].weight;
	return 0;
}

static struct target leaf(struct dispatch *dp, const struct range *r)
{
	size_t before_n = dp->g->n;
	struct target t;

	if (!r->block)
		return T_RET(r->ret);
	t = emit_block(dp->g, r->block, dp->abi->default_ret);
	dp->contrib[dp->n_contrib++] = (struct contrib){ r->block, dp->g->n - before_n };
	return t;
}

/* If r[i..j) is one constant outcome with at most 3 single numbers cut out
 * of it, a chain of "jeq" is shorter than a tree and no slower. */
static bool try_jeq_chain(struct dispatch *dp, size_t i, size_t j, struct target *ret)
{
	const struct range *bg = !dp->r[i].block ? &dp->r[i] : &dp->r[j - 1];
	size_t singles = 0;
	struct target next;

	if (bg->block)
		return false;
	for (size_t k = i; k < j; k++) {
		if (same_outcome(bg, &dp->r[k]))
			continue;
		if (dp->r[k].lo != dp->r[k].hi || ++singles > 3)
			return false;
	}
	next = T_RET(bg->ret);
	for (size_t k = j; k-- > i;)
		if (!same_outcome(bg, &dp->r[k]))
			next = jump(dp->g, BPF_JEQ, dp->r[k].lo, leaf(dp, &dp->r[k]), next);
	*ret = next;
	return true;
}

static struct target tree(struct dispatch *dp, size_t i, size_t j)
{
	size_t m, lo, hi;
	uint64_t half;
	struct target right, left;

	if (j - i == 1)
		return leaf(dp, &dp->r[i]);
	if (try_jeq_chain(dp, i, j, &right))
		return right;
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
	return jump(dp->g, BPF_JGE, dp->r[m].lo, right, left);
}

/* The dispatch of one ABI over numbers [lo, hi]; A holds the number. */
static struct target dispatch(struct gen *g, const struct abi_policy *abi, uint32_t lo, uint32_t hi,
			      struct dispatch *dp)
{
	struct target t = T_RET(abi->unknown_ret);

	*dp = (struct dispatch){ .g = g, .abi = abi };
	dp->contrib = calloc(abi->n_sys + 1, sizeof(*dp->contrib));
	if (!dp->contrib || build_ranges(dp, lo, hi) < 0) {
		g->err = -ENOMEM;
		return t;
	}
	return dp->n ? tree(dp, 0, dp->n) : t;
}

static void dispatch_free(struct dispatch *dp)
{
	free(dp->r);
	free(dp->prefix);
	free(dp->contrib);
}

static int cmp_contrib(const void *a, const void *b)
{
	const struct contrib *x = a, *y = b;

	return (x->size < y->size) - (x->size > y->size);
}

static void report_size(const struct policy *p, struct dispatch *dps, const size_t *abi_size,
			size_t total, struct diag *d)
{
	diag_error(d, NULL, "the filter needs %zu instructions; the kernel accepts at most %u",
		   total, BPF_PROG_MAX);
	for (size_t i = 0; i < p->n_abis; i++) {
		struct dispatch *dp = &dps[i];

		size_t args = 0;

		for (size_t k = 0; k < dp->n_contrib; k++)
			args += dp->contrib[k].size;
		if (abi_size[i]) /* x32 is counted with x86_64, which shares its block */
			diag_note(d, NULL, "%s: %zu instructions, %zu of them for argument tests",
				  p->abis[i].arch->name, abi_size[i], args);
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
			t = jump(g, BPF_JEQ, UINT32_MAX, x64 ? t64 : t32, t32);
			t = jump(g, BPF_JSET, ARCH_X32_SYSCALL_BIT, t, t64);
		} else {
			t = dispatch(g, &p->abis[i], 0, UINT32_MAX, &dps[i]);
			done[i] = true;
		}
		entry[i] =
			before(g, BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr), t);
		abi_size[i] = g->n - start;
	}
	next = T_RET(p->bad_arch_ret);
	for (size_t i = p->n_abis; i-- > 0;)
		if (abi_size[i]) /* x32 has no block of its own: it shares x86_64's */
			next = jump(g, BPF_JEQ, p->abis[i].arch->audit_arch, entry[i], next);
	before(g, BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch), next);
}

/* The length of the program for p->abis[i] alone (a copy of p that lists
 * only that ABI), into prog->abi_len[i]. Returns 0 or -ENOMEM. */
static int measure_abis(const struct policy *p, struct bpf_prog *prog)
{
	if (p->n_abis == 1) {
		prog->abi_len[0] = prog->len;
		return 0;
	}
	for (size_t i = 0; i < p->n_abis; i++) {
		struct policy one = { .abis = &p->abis[i],
				      .n_abis = 1,
				      .bad_arch_ret = p->bad_arch_ret };
		struct gen g = { .big_endian = p->abis[i].arch->big_endian };
		struct dispatch dps[ARCH_COUNT] = { 0 };
		size_t abi_size[ARCH_COUNT] = { 0 };

		emit_program(&g, &one, dps, abi_size);
		dispatch_free(&dps[0]);
		free(g.buf);
		if (g.err)
			return g.err;
		prog->abi_len[i] = g.n;
	}
	return 0;
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
	emit_program(&g, p, dps, abi_size);
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
	prog->insns = g.buf;
	g.buf = NULL;
	/* Reverse into program order; jump offsets are relative and stay. */
	for (size_t i = 0; i < prog->len / 2; i++) {
		struct sock_filter tmp = prog->insns[i];

		prog->insns[i] = prog->insns[prog->len - 1 - i];
		prog->insns[prog->len - 1 - i] = tmp;
	}
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
	for (size_t i = 0; i < p->n_abis; i++)
		dispatch_free(&dps[i]);
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
