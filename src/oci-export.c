/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --export-oci: a compiled policy as runtime-spec linux.seccomp JSON whose
 * libseccomp compilation decides like the policy (scmp-run.ini(5), OCI AND
 * DOCKER PROFILES). Per syscall the candidate rules are split into disjoint
 * regions (so libseccomp's rule order cannot matter), and each region is
 * written as masked equalities, at most one per argument (runc turns two
 * conditions on one argument into an OR).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "action.h"
#include "array.h"
#include "bpf-check.h"
#include "ivset.h"
#include "memstream.h"
#include "oci-int.h"
#include "syscalls.h"

#define EXPORT_CTX_MAX	   64	      /* tests along one path of the region tree */
#define EXPORT_LEAVES_MAX  4096	      /* regions of one syscall */
#define EXPORT_CUBES_MAX   4096	      /* alternatives of one region */
#define EXPORT_ENTRIES_MAX 65536      /* entries of the whole file */
#define EXPORT_VISITS_MAX  (1u << 20) /* region tree nodes looked at per syscall */

struct cubes {
	struct oci_cube *c;
	size_t n, cap;
};

/* One name's entries on one ABI, as canonical text, to compare ABIs. */
struct xname {
	const char *name;
	char *text; /* NULL until the first ABI that has the name */
	const struct arch *first;
	const struct rsys *sys; /* its rules on that ABI */
	size_t insns;		/* libseccomp's instructions for it at most */
};

struct exporter {
	const struct policy *p;
	const struct ruleset *rs; /* what p was built from */
	struct diag *d;
	struct oci_entry *entries;
	size_t n_entries, cap_entries;
	/* entries by what they decide (add_names_entry()): i + 1 per entry i,
	 * open addressing, at most half full */
	size_t *index;
	size_t cap_index;
	/* the syscall being split */
	const struct abi_policy *abi;
	const struct rsys *sys;
	struct rcmp ctx[EXPORT_CTX_MAX];
	bool owned[EXPORT_CTX_MAX];
	size_t n_ctx;
	size_t leaves;
	size_t visits;
	/* per rule (SIZE_MAX: off): the region of rule `target` alone, less
	 * the rules before it with another action */
	size_t target;
	/* this syscall's entries on this ABI (indices into a scratch list) */
	struct oci_entry *scratch;
	size_t n_scratch, cap_scratch;
	size_t insns; /* what libseccomp may compile the output to (check_size()) */
	/* the multiplexer's sub-call rules take part (check_mux_forms()) */
	bool with_mux;
	/* the rules whose action was refused, each said once */
	const struct rule **reported;
	size_t n_reported, cap_reported;
};

static void cubes_free(struct cubes *c)
{
	free(c->c);
	*c = (struct cubes){ 0 };
}

static int cubes_add(struct cubes *c, uint64_t mask, uint64_t value)
{
	struct oci_cube *g;

	for (size_t i = 0; i < c->n; i++)
		if (c->c[i].mask == mask && c->c[i].value == value && c->c[i].op == OCI_CUBE_MASKED)
			return 0;
	if (c->n >= EXPORT_CUBES_MAX)
		return -E2BIG;
	g = array_grow(&c->c, &c->n, &c->cap, sizeof(*g));
	if (!g)
		return -ENOMEM;
	*g = (struct oci_cube){ .mask = mask, .value = value };
	return 0;
}

/* The aligned blocks that make up [lo, hi] within w bits. */
static int interval_cubes(struct cubes *out, uint64_t lo, uint64_t hi, unsigned w, uint64_t flip)
{
	uint64_t wmax = width_max(w);

	for (;;) {
		unsigned k = 0;
		uint64_t size_m1;
		int r;

		/* largest k: lo aligned to 2^k and lo + 2^k - 1 <= hi */
		while (k < w) {
			uint64_t next = (k + 1 >= 64) ? UINT64_MAX : (1ull << (k + 1)) - 1;

			if ((lo & next) || next > hi - lo)
				break;
			k++;
		}
		size_m1 = k >= 64 ? UINT64_MAX : (1ull << k) - 1;
		r = cubes_add(out, wmax & ~size_m1, (lo ^ flip) & wmax & ~size_m1);
		if (r < 0)
			return r;
		if (hi - lo == size_m1)
			return 0;
		lo += size_m1 + 1;
	}
}

/* The cubes of one resolved test. */
static int rcmp_cubes(const struct rcmp *c, struct cubes *out)
{
	uint64_t wmax = width_max(c->width);
	int r = 0;

	switch (c->kind) {
	case RCMP_IN:
		for (size_t i = 0; i < c->n_ivs && r >= 0; i++)
			r = interval_cubes(out, c->ivs[i].lo, c->ivs[i].hi, c->width,
					   c->is_signed ? width_sign(c->width) : 0);
		return r;
	case RCMP_MASK_EQ:
		if (c->value & ~c->mask & wmax)
			return 0;
		return cubes_add(out, c->mask & wmax, c->value & c->mask & wmax);
	case RCMP_MASK_NE:
		/* some bit under the mask differs from the value */
		for (unsigned b = 0; b < c->width && r >= 0; b++) {
			uint64_t bit = 1ull << b;

			if (c->mask & bit)
				r = cubes_add(out, bit, ~c->value & bit);
		}
		return r;
	}
	return -EINVAL;
}

/* a := a AND b */
static int cubes_and(struct cubes *a, const struct cubes *b)
{
	struct cubes out = { 0 };
	int r = 0;

	for (size_t i = 0; i < a->n && r >= 0; i++)
		for (size_t j = 0; j < b->n && r >= 0; j++) {
			const struct oci_cube *x = &a->c[i], *y = &b->c[j];

			if ((x->value ^ y->value) & x->mask & y->mask)
				continue;
			r = cubes_add(&out, x->mask | y->mask, x->value | y->value);
		}
	cubes_free(a);
	*a = out;
	return r;
}

/* ---- deciding tests in a region ---- */

/*
 * A masked test whose mask keeps the top bits of the argument's width down
 * to some bit is a test of an aligned block of values: what interval_cubes()
 * writes, and so what an exported JSON holds when read back (scmp-run.ini(5),
 * --export-oci). As intervals in t's key space it ORs and negates without
 * multiplying out bit by bit (rcmp_cubes() of a MASK_NE is a cube per bit of
 * the mask): into iv (room for 2), and a test *tmp of kind RCMP_IN that uses
 * iv is returned. Any other test is returned as it is.
 */
static const struct rcmp *as_block(const struct rcmp *t, struct interval iv[2], struct rcmp *tmp)
{
	uint64_t wmax = width_max(t->width), mask = t->mask & wmax, low = wmax & ~mask;
	struct interval blk;

	if (t->kind == RCMP_IN || !mask || (low & (low + 1)) || (t->value & ~mask))
		return t;
	blk.lo = t->value ^ (t->is_signed ? width_sign(t->width) : 0);
	blk.hi = blk.lo | low;
	*tmp = *t;
	tmp->kind = RCMP_IN;
	tmp->ivs = iv;
	if (t->kind == RCMP_MASK_EQ) {
		iv[0] = blk;
		tmp->n_ivs = 1;
	} else {
		tmp->n_ivs = ivset_complement_into(&blk, 1, wmax, iv);
	}
	return tmp;
}

/* The values the region (tests ctx[0..n)) allows on t's argument, in t's
 * key space; false if it says nothing usable about it. */
static bool region_set(const struct rcmp *ctx, size_t n, const struct rcmp *t, struct ivset *ret)
{
	uint64_t wmax = width_max(t->width);
	bool any = false;

	*ret = (struct ivset){ 0 };
	for (size_t i = 0; i < n; i++) {
		const struct rcmp *c = &ctx[i];
		struct interval point, blk[2];
		struct rcmp tmp;
		struct ivset b;

		if (c->arg != t->arg || c->width != t->width)
			continue;
		if (c->kind == RCMP_MASK_EQ && (c->mask & wmax) == wmax) {
			/* every bit compared: one value, or none if it has bits
			 * outside the mask */
			point.lo = point.hi = c->value ^ (t->is_signed ? width_sign(t->width) : 0);
			b = (struct ivset){ &point, (c->value & ~wmax) ? 0 : 1 };
		} else {
			c = as_block(c, blk, &tmp);
			if (c->kind != RCMP_IN || c->is_signed != t->is_signed)
				continue;
			b = (struct ivset){ c->ivs, c->n_ivs };
		}
		if (!any) {
			if (ivset_add(ret, 0, wmax) < 0)
				return false;
			any = true;
		}
		if (ivset_intersect(ret, &b) < 0) {
			ivset_free(ret);
			return false;
		}
	}
	return any;
}

/*
 * Whether "(arg & t->mask) == t->value" holds where "(arg & c->mask) ==
 * c->value" does (one argument, one width), masks of any shape: 0 where
 * they want a bit both test set differently (or t wants a bit its mask
 * clears), 1 where c tests every bit t does, -1 otherwise. Entries an
 * export wrote outside another rule's masks are then known to lie outside
 * them when read back (scmp-run.ini(5), --export-oci), instead of being
 * split against them bit by bit.
 */
static int masked_within(const struct rcmp *c, const struct rcmp *t)
{
	uint64_t wmax = width_max(t->width);

	if ((t->value & ~t->mask & wmax) || ((c->value ^ t->value) & c->mask & t->mask & wmax))
		return 0; /* t holds nowhere, or not where c does */
	return (t->mask & ~c->mask & wmax) ? -1 : 1;
}

/* The reverse of as_block(): a set test of one aligned block as the masked
 * test it came from, into *tmp; any other test as it is. */
static const struct rcmp *as_mask(const struct rcmp *c, struct rcmp *tmp)
{
	uint64_t wmax = width_max(c->width), low;

	if (c->kind != RCMP_IN || c->n_ivs != 1)
		return c;
	low = c->ivs[0].hi - c->ivs[0].lo;
	if ((low & (low + 1)) || (c->ivs[0].lo & low) || low > wmax)
		return c;
	*tmp = *c;
	tmp->kind = RCMP_MASK_EQ;
	tmp->mask = wmax & ~low;
	tmp->value = (c->ivs[0].lo ^ (c->is_signed ? width_sign(c->width) : 0)) & tmp->mask;
	return tmp;
}

int oci_region_decide(const struct rcmp *ctx, size_t n, const struct rcmp *t)
{
	struct interval blk[2];
	struct rcmp tmp;
	struct ivset s;
	int res = -1;

	for (size_t i = 0; i < n; i++) {
		struct rcmp cmask;
		const struct rcmp *c = as_mask(&ctx[i], &cmask);

		if (c->kind == RCMP_IN || t->kind == RCMP_IN || c->arg != t->arg ||
		    c->width != t->width)
			continue;
		if (c->kind == RCMP_MASK_EQ && c->mask != t->mask) {
			int v = masked_within(c, t);

			if (v >= 0)
				return t->kind == RCMP_MASK_EQ ? v : !v;
			continue;
		}
		if (c->mask != t->mask)
			continue;
		if (c->kind == t->kind && c->value == t->value)
			return 1;
		if (c->kind != t->kind && c->value == t->value)
			return 0;
		if (c->kind == RCMP_MASK_EQ && c->value != t->value)
			return t->kind == RCMP_MASK_NE;
	}
	t = as_block(t, blk, &tmp);
	if (!region_set(ctx, n, t, &s))
		return -1;
	if (!s.n) {
		res = 0; /* an empty region: nothing to decide */
	} else if (t->kind == RCMP_IN) {
		bool all = true, none = true;

		for (size_t i = 0; i < s.n; i++) {
			struct ivset one = { 0 };
			struct ivset b = { t->ivs, t->n_ivs };

			if (ivset_add(&one, s.iv[i].lo, s.iv[i].hi) < 0 ||
			    ivset_intersect(&one, &b) < 0) {
				ivset_free(&one);
				ivset_free(&s);
				return -1;
			}
			none &= one.n == 0;
			all &= one.n == 1 && one.iv[0].lo == s.iv[i].lo &&
			       one.iv[0].hi == s.iv[i].hi;
			ivset_free(&one);
		}
		res = all ? 1 : none ? 0 : -1;
	} else if (s.n == 1 && s.iv[0].lo == s.iv[0].hi) {
		uint64_t v = s.iv[0].lo ^ (t->is_signed ? width_sign(t->width) : 0);

		res = rcmp_match(t, v);
	}
	ivset_free(&s);
	return res;
}

/* ---- the region tree ---- */

/* The values of set test c as raw argument values (the sign bit not
 * flipped), intersected into *set, or put there if *fresh. */
static int raw_intersect(struct ivset *set, bool fresh, const struct rcmp *c)
{
	uint64_t sign = c->is_signed ? width_sign(c->width) : 0, wmax = width_max(c->width);
	struct ivset b = { 0 };
	int r = 0;

	for (size_t i = 0; i < c->n_ivs && r >= 0; i++) {
		uint64_t lo = c->ivs[i].lo, hi = c->ivs[i].hi;

		if (sign && lo < sign && hi >= sign) { /* keys across the sign flip */
			r = ivset_add(&b, lo ^ sign, wmax);
			lo = sign;
		}
		if (r >= 0)
			r = ivset_add(&b, lo ^ sign, hi ^ sign);
	}
	if (r >= 0)
		r = ivset_normalize(&b);
	if (r >= 0 && fresh) {
		*set = b;
		return 0;
	}
	if (r >= 0)
		r = ivset_intersect(set, &b);
	ivset_free(&b);
	return r;
}

/*
 * Whether argument a is a pointer whose set (raw values, width bits) is
 * every value but 0, and no other test of the context is on a: then one
 * "> 0" (SCMP_CMP_GT) says it, where masked blocks would compare the
 * pointer with values other than 0, which no profile may, so that the
 * JSON would not read back (scmp-run.ini(5), --export-oci). Not
 * SCMP_CMP_NE: libseccomp 2.5 builds a wrong program, laxer than the JSON,
 * for two entries of one action that test "!= 0" after an entry of
 * another action that tests "== 0" of the same argument.
 */
static bool nonzero_pointer(const struct exporter *x, int a, unsigned width,
			    const struct ivset *set, const bool in_set[])
{
	struct syscall_arg args[SYSCALL_ARGS_MAX];
	bool known;

	if (set->n != 1 || set->iv[0].lo != 1 || set->iv[0].hi != width_max(width) ||
	    syscalls_args(x->abi->arch, x->sys->name, args, &known) < 0 || args[a].cls != ARG_PTR)
		return false;
	for (size_t i = 0; i < x->n_ctx; i++)
		if (!in_set[i] && x->ctx[i].arg == a)
			return false;
	return true;
}

/*
 * The set tests of each argument in the context, intersected first and
 * then made cubes, into per[] and used[]: cubes of each set ANDed one by
 * one would multiply out (the negations of the blocks one masked entry
 * each that an export read back holds).
 */
static int leaf_sets(const struct exporter *x, struct cubes per[SYSCALL_ARGS_MAX],
		     bool used[SYSCALL_ARGS_MAX], bool in_set[])
{
	struct ivset set[SYSCALL_ARGS_MAX] = { 0 };
	unsigned width[SYSCALL_ARGS_MAX] = { 0 };
	int r = 0;

	for (size_t i = 0; i < x->n_ctx && r >= 0; i++) {
		const struct rcmp *c = &x->ctx[i];

		if (c->kind != RCMP_IN || (width[c->arg] && width[c->arg] != c->width))
			continue;
		r = raw_intersect(&set[c->arg], !width[c->arg], c);
		width[c->arg] = c->width;
		in_set[i] = true;
	}
	for (int a = 0; a < SYSCALL_ARGS_MAX && r >= 0; a++) {
		if (!width[a])
			continue;
		used[a] = true;
		if (nonzero_pointer(x, a, width[a], &set[a], in_set)) {
			r = cubes_add(&per[a], width_max(width[a]), 0);
			if (r >= 0)
				per[a].c[0].op = OCI_CUBE_GT;
			continue;
		}
		for (size_t k = 0; k < set[a].n && r >= 0; k++)
			r = interval_cubes(&per[a], set[a].iv[k].lo, set[a].iv[k].hi, width[a], 0);
	}
	for (int a = 0; a < SYSCALL_ARGS_MAX; a++)
		ivset_free(&set[a]);
	return r;
}

static int leaf(struct exporter *x, uint32_t ret)
{
	struct cubes per[SYSCALL_ARGS_MAX] = { 0 };
	bool used[SYSCALL_ARGS_MAX] = { false }, in_set[EXPORT_CTX_MAX] = { false };
	size_t total = 1;
	int r = 0;

	if (ret == x->abi->default_ret)
		return 0; /* runc drops such entries; the default decides there */
	if (x->target != SIZE_MAX && ret != x->sys->rules[x->target].ret)
		return 0; /* an earlier rule's region: written with that rule */
	r = leaf_sets(x, per, used, in_set);
	for (size_t i = 0; i < x->n_ctx && r >= 0; i++) {
		const struct rcmp *c = &x->ctx[i];
		struct cubes one = { 0 };

		if (in_set[i])
			continue;
		r = rcmp_cubes(c, &one);
		if (r >= 0 && !used[c->arg]) {
			per[c->arg] = one;
			used[c->arg] = true;
			continue;
		}
		if (r >= 0)
			r = cubes_and(&per[c->arg], &one);
		cubes_free(&one);
	}
	for (int a = 0; a < SYSCALL_ARGS_MAX && r >= 0; a++) {
		if (!used[a])
			continue;
		total *= per[a].n;
		if (total > EXPORT_CUBES_MAX)
			r = -E2BIG;
	}
	/* every combination of one cube per argument is an entry */
	for (size_t k = 0; r >= 0 && k < total; k++) {
		struct oci_entry e = { .ret = ret };
		struct oci_entry *g;
		size_t rest = k;

		for (int a = 0; a < SYSCALL_ARGS_MAX; a++) {
			if (!used[a])
				continue;
			e.arg[a] = per[a].c[rest % per[a].n];
			rest /= per[a].n;
		}
		g = array_grow(&x->scratch, &x->n_scratch, &x->cap_scratch, sizeof(*g));
		if (!g) {
			r = -ENOMEM;
			break;
		}
		*g = e;
	}
	for (int a = 0; a < SYSCALL_ARGS_MAX; a++)
		cubes_free(&per[a]);
	return r;
}

/* Push test t, or its negation, onto the context; a block (as_block())
 * goes as a set, so that the negations of many blocks intersect. */
static int push(struct exporter *x, const struct rcmp *t, bool negate)
{
	struct interval blk[2];
	struct rcmp tmp, c;

	if (x->n_ctx >= EXPORT_CTX_MAX)
		return -E2BIG;
	t = as_block(t, blk, &tmp);
	c = *t;
	x->owned[x->n_ctx] = false;
	if (t->kind == RCMP_IN && (negate || t == &tmp)) {
		struct ivset s = { 0 };
		int r = 0;

		for (size_t i = 0; i < t->n_ivs && r >= 0; i++)
			r = ivset_add(&s, t->ivs[i].lo, t->ivs[i].hi);
		if (r >= 0)
			r = ivset_normalize(&s);
		if (r >= 0 && negate)
			r = ivset_complement(&s, width_max(t->width));
		if (r < 0) {
			ivset_free(&s);
			return r;
		}
		c.ivs = s.iv;
		c.n_ivs = s.n;
		x->owned[x->n_ctx] = true;
	} else if (negate) {
		c.kind = t->kind == RCMP_MASK_EQ ? RCMP_MASK_NE : RCMP_MASK_EQ;
	}
	x->ctx[x->n_ctx++] = c;
	return 0;
}

static void pop(struct exporter *x)
{
	x->n_ctx--;
	if (x->owned[x->n_ctx])
		free(x->ctx[x->n_ctx].ivs);
}

/* Per rule, the rules before the target with its action are left out:
 * entries of one action OR together under libseccomp (scmp-run.ini(5),
 * --export-oci), so they may overlap the target's. */
static bool skipped(const struct exporter *x, size_t i)
{
	return x->target != SIZE_MAX && i < x->target &&
	       x->sys->rules[i].ret == x->sys->rules[x->target].ret;
}

/* The first rule from `from` on that can match in the context: its index,
 * and in *ret_open a test it leaves undecided (NULL: it matches everywhere).
 * s->n_rules if none can: the default decides. */
static size_t first_rule(const struct exporter *x, size_t from, const struct rcmp **ret_open)
{
	const struct rsys *s = x->sys;

	for (size_t i = from; i < s->n_rules; i++) {
		const struct rrule *rr = &s->rules[i];
		bool never = false;

		*ret_open = NULL;
		if ((rr->via_mux && !x->with_mux) || skipped(x, i))
			continue;
		if (x->target != SIZE_MAX && i > x->target)
			break;
		for (size_t k = 0; k < rr->n_cmps && !never; k++) {
			int v = oci_region_decide(x->ctx, x->n_ctx, &rr->cmps[k]);

			never = v == 0;
			if (v < 0 && !*ret_open)
				*ret_open = &rr->cmps[k];
		}
		if (!never)
			return i;
	}
	*ret_open = NULL;
	return s->n_rules;
}

/*
 * The one decision of every input of the context, from rule `from` on:
 * >= 0 the SECCOMP_RET value, -1 if inputs decide differently, < -1 a
 * negative errno - 1. Lets split() write a region whose parts all decide
 * alike as one region, not as the product of every test on the way.
 */
static int64_t uniform(struct exporter *x, size_t from)
{
	const struct rcmp *open;
	size_t i = first_rule(x, from, &open);
	int64_t res[2];

	if (i == x->sys->n_rules)
		return x->abi->default_ret;
	if (!open)
		return x->sys->rules[i].ret;
	if (++x->visits > EXPORT_VISITS_MAX)
		return -1 - E2BIG;
	for (int neg = 0; neg < 2; neg++) {
		int r = push(x, open, neg);

		if (r < 0)
			return -1 + r;
		res[neg] = uniform(x, i);
		pop(x);
		if (res[neg] < -1)
			return res[neg];
		if (res[neg] == -1)
			return -1;
	}
	return res[0] == res[1] ? res[0] : -1;
}

/* The decision over the context: the first rule (in decision order) that
 * holds everywhere decides; a rule that holds somewhere splits it, unless
 * both parts decide alike. */
static int split(struct exporter *x, size_t from)
{
	const struct rcmp *open;
	size_t i = first_rule(x, from, &open);
	int64_t same;
	int r;

	if (i == x->sys->n_rules)
		return 0; /* nothing matches: the default */
	same = open ? uniform(x, i) : (int64_t)x->sys->rules[i].ret;
	if (same < -1)
		return (int)(same + 1);
	if (same >= 0) {
		if (++x->leaves > EXPORT_LEAVES_MAX)
			return -E2BIG;
		return leaf(x, (uint32_t)same);
	}
	for (int neg = 0; neg < 2; neg++) {
		r = push(x, open, neg);
		if (r < 0)
			return r;
		r = split(x, i);
		pop(x);
		if (r < 0)
			return r;
	}
	return 0;
}

/* ---- output ---- */

static const char *oci_action_name(uint32_t ret)
{
	switch (ret & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_KILL_PROCESS:
		return "SCMP_ACT_KILL_PROCESS";
	case SECCOMP_RET_KILL_THREAD:
		return "SCMP_ACT_KILL_THREAD";
	case SECCOMP_RET_TRAP:
		return "SCMP_ACT_TRAP";
	case SECCOMP_RET_ERRNO:
		return "SCMP_ACT_ERRNO";
	case SECCOMP_RET_USER_NOTIF:
		return "SCMP_ACT_NOTIFY";
	case SECCOMP_RET_TRACE:
		return "SCMP_ACT_TRACE";
	case SECCOMP_RET_LOG:
		return "SCMP_ACT_LOG";
	default:
		return "SCMP_ACT_ALLOW";
	}
}

static bool ret_has_data(uint32_t ret)
{
	uint32_t full = ret & SECCOMP_RET_ACTION_FULL;

	return full == SECCOMP_RET_ERRNO || full == SECCOMP_RET_TRACE;
}

/* An entry's action and arguments as text: equal text, equal entry. */
static char *entry_key(const struct oci_entry *e, uint64_t cmp_max)
{
	char *text = NULL;
	FILE *f = memstream_open(&text);

	if (!f)
		return NULL;
	fprintf(f, "\"action\": \"%s\"", oci_action_name(e->ret));
	if (ret_has_data(e->ret))
		fprintf(f, ", \"errnoRet\": %u", e->ret & SECCOMP_RET_DATA);
	int first = 1;

	for (int a = 0; a < SYSCALL_ARGS_MAX; a++) {
		const struct oci_cube *c = &e->arg[a];

		if (!c->mask)
			continue;
		fputs(first ? ",\n      \"args\": [\n" : ",\n", f);
		first = 0;
		if (c->op == OCI_CUBE_GT)
			fprintf(f,
				"        { \"index\": %d, \"value\": %" PRIu64
				", \"op\": \"SCMP_CMP_GT\" }",
				a, c->value);
		else if ((c->mask & cmp_max) == cmp_max)
			fprintf(f,
				"        { \"index\": %d, \"value\": %" PRIu64
				", \"op\": \"SCMP_CMP_EQ\" }",
				a, c->value);
		else
			fprintf(f,
				"        { \"index\": %d, \"value\": %" PRIu64
				", \"valueTwo\": %" PRIu64 ", \"op\": \"SCMP_CMP_MASKED_EQ\" }",
				a, c->mask, c->value);
	}
	if (!first)
		fputs("\n      ]", f);
	return memstream_close(f, &text) < 0 ? NULL : text;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

static int cmp_ent(const void *a, const void *b)
{
	const struct oci_entry *x = a, *y = b;
	int c = cmp_u64(x->ret, y->ret);

	for (int i = 0; i < SYSCALL_ARGS_MAX && !c; i++) {
		c = cmp_u64(x->arg[i].mask, y->arg[i].mask);
		if (!c)
			c = cmp_u64(x->arg[i].value, y->arg[i].value);
		if (!c)
			c = cmp_u64(x->arg[i].op, y->arg[i].op);
	}
	return c;
}

/* Not an errno libseccomp refuses; else false, with the error at loc. */
static bool errno_exportable(uint32_t ret, const struct src_loc *loc, struct diag *d)
{
	uint32_t data = ret & SECCOMP_RET_DATA;

	if ((ret & SECCOMP_RET_ACTION_FULL) != SECCOMP_RET_ERRNO || data <= OCI_ERRNO_MAX)
		return true;
	diag_error(d, loc,
		   "--export-oci: errno %u: libseccomp takes at most %u, so a runtime would "
		   "refuse the profile",
		   data, OCI_ERRNO_MAX);
	return false;
}

/* Not a trap with data, which SCMP_ACT_TRAP cannot carry (a runtime would
 * deliver SIGSYS with si_errno 0); else false, with the error at loc. */
static bool trap_exportable(uint32_t ret, const struct src_loc *loc, struct diag *d)
{
	uint32_t data = ret & SECCOMP_RET_DATA;

	if ((ret & SECCOMP_RET_ACTION_FULL) != SECCOMP_RET_TRAP || !data)
		return true;
	diag_error(d, loc, "--export-oci: trap(%u) has no OCI form: SCMP_ACT_TRAP carries no data",
		   data);
	return false;
}

/* Whether a rule at the place of rule was reported already: a rule applies
 * on every ABI that has its name, and one key makes a rule per name; its
 * error is said once. Records it otherwise (on ENOMEM it is said again,
 * which is harmless). */
static bool reported_before(struct exporter *x, const struct rule *rule)
{
	const struct rule **slot;

	for (size_t i = 0; i < x->n_reported; i++) {
		const struct src_loc *a = &x->reported[i]->loc, *b = &rule->loc;

		if (a->line == b->line && a->col == b->col &&
		    (a->file == b->file || (a->file && b->file && !strcmp(a->file, b->file))))
			return true;
	}
	slot = array_grow(&x->reported, &x->n_reported, &x->cap_reported, sizeof(*slot));
	if (slot)
		*slot = rule;
	return false;
}

/*
 * An action a runtime takes and runs as written: trap without data, an
 * errno libseccomp accepts, no notify. notify needs a seccomp agent that
 * listenerPath names, which the profile cannot name: without one runc
 * refuses to start the container and crun fails the call with ENOSYS
 * (scmp-run.ini(5), --export-oci). Else false, with the error at the rule.
 */
static bool rule_exportable(struct exporter *x, const struct rrule *r)
{
	uint32_t full = r->ret & SECCOMP_RET_ACTION_FULL, data = r->ret & SECCOMP_RET_DATA;

	if (full == SECCOMP_RET_TRAP && data) {
		if (!reported_before(x, r->src))
			trap_exportable(r->ret, &r->src->loc, x->d);
		return false;
	}
	if (full == SECCOMP_RET_USER_NOTIF) {
		if (!reported_before(x, r->src))
			diag_error(x->d, &r->src->loc,
				   "--export-oci: notify needs a seccomp agent named by "
				   "listenerPath, which the exported JSON cannot name: runc "
				   "would refuse to start the container, crun would fail the "
				   "call with ENOSYS");
		return false;
	}
	if (full == SECCOMP_RET_ERRNO && data > OCI_ERRNO_MAX) {
		if (!reported_before(x, r->src))
			errno_exportable(r->ret, &r->src->loc, x->d);
		return false;
	}
	return true;
}

/* Whether a rule of s compares a 64-bit argument. */
static bool tests_wide_arg(const struct rsys *s)
{
	for (size_t j = 0; j < s->n_rules; j++)
		for (size_t k = 0; k < s->rules[j].n_cmps; k++)
			if (s->rules[j].cmps[k].width == 64)
				return true;
	return false;
}

/* A note at each rule of s on name, but those it has through a
 * multiplexer (located at the sub-call's rule, noted there). */
static void note_rules(struct exporter *x, const struct rsys *s, const char *name)
{
	for (size_t i = 0; i < s->n_rules; i++)
		if (!s->rules[i].via_mux)
			diag_note(x->d, &s->rules[i].src->loc, "this rule of '%s'", name);
}

/* Errors for the rules of a syscall whose entries cannot be written. */
static void rules_error(struct exporter *x, const struct abi_policy *abi, const struct rsys *s,
			const char *why)
{
	diag_error(x->d, NULL, "--export-oci: '%s' on %s cannot be written for libseccomp: %s",
		   s->name, abi->arch->name, why);
	note_rules(x, s, s->name);
}

/* The error for a name whose rules on one ABI of the filter write entries,
 * and which has none on another ABI: at the architectures key, which
 * lists both, with the rules as notes. */
static void abi_only_error(struct exporter *x, const struct xname *xn, const struct arch *other)
{
	diag_error(x->d, &x->rs->attrs.arches_loc,
		   "--export-oci: '%s' has rules on %s but none on %s: JSON entries apply to "
		   "every ABI alike",
		   xn->name, xn->first->name, other->name);
	note_rules(x, xn->sys, xn->name);
}

/* A hash of what cmp_ent() compares. */
static size_t entry_hash(const struct oci_entry *e)
{
	uint64_t h = e->ret * 0x9e3779b97f4a7c15ull;

	for (int i = 0; i < SYSCALL_ARGS_MAX; i++) {
		h = (h ^ e->arg[i].mask) * 0x100000001b3ull;
		h = (h ^ e->arg[i].value) * 0x100000001b3ull;
		h = (h ^ (uint64_t)e->arg[i].op) * 0x100000001b3ull;
	}
	return (size_t)(h ^ (h >> 29));
}

/* The slot of x->index that holds the entry deciding like e, or the empty
 * one where it would go. */
static size_t *index_slot(const struct exporter *x, const struct oci_entry *e)
{
	size_t m = x->cap_index - 1;

	for (size_t h = entry_hash(e) & m;; h = (h + 1) & m)
		if (!x->index[h] || !cmp_ent(&x->entries[x->index[h] - 1], e))
			return &x->index[h];
}

/* x->index with room for one entry more. 0, or -ENOMEM. */
static int index_reserve(struct exporter *x)
{
	size_t cap = x->cap_index ? x->cap_index : 64;
	size_t *old = x->index;

	if (2 * (x->n_entries + 1) <= x->cap_index)
		return 0;
	while (2 * (x->n_entries + 1) > cap)
		cap *= 2;
	x->index = calloc(cap, sizeof(*x->index));
	if (!x->index) {
		x->index = old;
		return -ENOMEM;
	}
	x->cap_index = cap;
	for (size_t i = 0; i < x->n_entries; i++)
		*index_slot(x, &x->entries[i]) = i + 1;
	free(old);
	return 0;
}

/* Add name to the output entry that decides like e, made if there is
 * none. The index finds it: a file has up to EXPORT_ENTRIES_MAX. */
static int add_names_entry(struct exporter *x, const struct oci_entry *e, const char *name)
{
	struct oci_entry *have;
	const char **slot;
	size_t *at;

	if (index_reserve(x) < 0)
		return -ENOMEM;
	at = index_slot(x, e);
	if (*at) {
		have = &x->entries[*at - 1];
	} else {
		if (x->n_entries >= EXPORT_ENTRIES_MAX)
			return -E2BIG;
		have = array_grow(&x->entries, &x->n_entries, &x->cap_entries, sizeof(*have));
		if (!have)
			return -ENOMEM;
		*have = (struct oci_entry){ .ret = e->ret };
		memcpy(have->arg, e->arg, sizeof(have->arg));
		*at = x->n_entries;
	}
	for (size_t k = 0; k < have->n_names; k++)
		if (!strcmp(have->names[k], name))
			return 0;
	slot = array_grow(&have->names, &have->n_names, &have->cap_names, sizeof(*slot));
	if (!slot)
		return -ENOMEM;
	*slot = name;
	return 0;
}

/* Whether cube a holds every value cube b holds. */
static bool cube_covers(const struct oci_cube *a, const struct oci_cube *b)
{
	if (!a->mask)
		return true;	  /* no test */
	if (b->op == OCI_CUBE_GT) /* only "> 0" is written: a test holds it */
		return a->op == OCI_CUBE_GT;
	if (a->op == OCI_CUBE_GT) /* b holds no 0: a value with a bit set */
		return (b->value & b->mask) != 0;
	return !(a->mask & ~b->mask) && (b->value & a->mask) == a->value;
}

/* Whether entry a matches every call entry b matches, with b's action. */
static bool entry_covers(const struct oci_entry *a, const struct oci_entry *b)
{
	if (a->ret != b->ret)
		return false;
	for (int i = 0; i < SYSCALL_ARGS_MAX; i++)
		if (!cube_covers(&a->arg[i], &b->arg[i]))
			return false;
	return true;
}

/* Sort x->scratch and drop the entries another one of the same action
 * covers: under libseccomp they OR together, so those add nothing. */
static void scratch_tidy(struct exporter *x)
{
	size_t n = 0;

	if (x->n_scratch > 1)
		qsort(x->scratch, x->n_scratch, sizeof(*x->scratch), cmp_ent);
	for (size_t i = 0; i < x->n_scratch; i++) {
		bool dup = false;

		for (size_t j = 0; j < x->n_scratch && !dup; j++)
			dup = j != i && entry_covers(&x->scratch[j], &x->scratch[i]) &&
			      (j < i || !entry_covers(&x->scratch[i], &x->scratch[j]));
		if (!dup)
			x->scratch[n++] = x->scratch[i];
	}
	x->n_scratch = n;
}

static void scratch_reset(struct exporter *x)
{
	free(x->scratch);
	x->scratch = NULL;
	x->n_scratch = x->cap_scratch = 0;
	x->leaves = 0;
	x->visits = 0;
}

/* Disjoint regions: each input lies in at most one entry. */
static int split_regions(struct exporter *x)
{
	int r;

	x->target = SIZE_MAX;
	r = split(x, 0);
	while (x->n_ctx)
		pop(x);
	return r;
}

/* Per rule: the rule's own region, less those of the rules before it with
 * other actions. Entries of different actions stay disjoint, and those of
 * one action overlap freely, where split_regions() would multiply the
 * rules of one action out against each other. */
static int split_rules(struct exporter *x)
{
	const struct rsys *s = x->sys;
	int r = 0;

	for (size_t i = 0; i < s->n_rules && r >= 0; i++) {
		const struct rrule *rr = &s->rules[i];

		if (rr->via_mux || rr->ret == x->abi->default_ret)
			continue;
		x->target = i;
		for (size_t k = 0; k < rr->n_cmps && r >= 0; k++)
			r = push(x, &rr->cmps[k], false);
		if (r >= 0)
			r = split(x, 0);
		while (x->n_ctx)
			pop(x);
	}
	x->target = SIZE_MAX;
	return r;
}

/* The entries of one syscall on one ABI, into x->scratch (sorted): the
 * smaller of the two ways to write them, per rule on a tie. Read back,
 * each entry is a rule, whose own region is that entry again: so the
 * export of an export writes the same entries (scmp-run.ini(5),
 * --export-oci), where disjoint regions would cut overlapping entries of
 * one action apart. */
static int split_sys(struct exporter *x, const struct abi_policy *abi, const struct rsys *s)
{
	struct oci_entry *regions;
	size_t n_regions, cap_regions;
	int r, q;

	x->abi = abi;
	x->sys = s;
	x->n_ctx = 0;
	scratch_reset(x);
	r = split_regions(x);
	if (r < 0 && r != -E2BIG)
		return r;
	scratch_tidy(x);
	if (r >= 0 && x->n_scratch <= 1)
		return r; /* nothing to save */
	regions = x->scratch;
	n_regions = x->n_scratch;
	cap_regions = x->cap_scratch;
	x->scratch = NULL;
	scratch_reset(x);
	q = split_rules(x);
	if (q < 0 && q != -E2BIG) {
		free(regions);
		return q;
	}
	scratch_tidy(x);
	if (q < 0 || (r >= 0 && n_regions < x->n_scratch)) {
		free(x->scratch);
		x->scratch = regions;
		x->n_scratch = n_regions;
		x->cap_scratch = cap_regions;
		return r;
	}
	free(regions);
	return q;
}

static char *scratch_text(const struct exporter *x)
{
	char *text = NULL;
	FILE *f = memstream_open(&text);

	bool lost = false;

	if (!f)
		return NULL;
	for (size_t i = 0; i < x->n_scratch && !lost; i++) {
		char *k = entry_key(&x->scratch[i], UINT64_MAX);

		lost = !k;
		if (k)
			fprintf(f, "%s\n", k);
		free(k);
	}
	if (memstream_close(f, &text) < 0 || lost) {
		free(text);
		return NULL;
	}
	return text;
}

static const char *scmp_arch_name(const struct arch *a)
{
	static const char *const names[ARCH_COUNT] = {
		[ARCH_X86_64] = "SCMP_ARCH_X86_64",
		[ARCH_X86] = "SCMP_ARCH_X86",
		[ARCH_X32] = "SCMP_ARCH_X32",
		[ARCH_AARCH64] = "SCMP_ARCH_AARCH64",
		[ARCH_ARM] = "SCMP_ARCH_ARM",
		[ARCH_RISCV64] = "SCMP_ARCH_RISCV64",
		[ARCH_PPC64LE] = "SCMP_ARCH_PPC64LE",
		[ARCH_PPC64] = "SCMP_ARCH_PPC64",
		[ARCH_PPC] = "SCMP_ARCH_PPC",
		[ARCH_S390X] = "SCMP_ARCH_S390X",
		[ARCH_S390] = "SCMP_ARCH_S390",
		[ARCH_MIPS] = "SCMP_ARCH_MIPS",
		[ARCH_MIPSEL] = "SCMP_ARCH_MIPSEL",
		[ARCH_MIPS64] = "SCMP_ARCH_MIPS64",
		[ARCH_MIPSEL64] = "SCMP_ARCH_MIPSEL64",
		[ARCH_MIPS64N32] = "SCMP_ARCH_MIPS64N32",
		[ARCH_MIPSEL64N32] = "SCMP_ARCH_MIPSEL64N32",
		[ARCH_LOONGARCH64] = "SCMP_ARCH_LOONGARCH64",
	};

	return names[a->id];
}

/* Errors for the rules of name xn that libseccomp would write onto a's
 * multiplexer otherwise than the compiled program decides it. */
static void mux_error(struct exporter *x, const struct xname *xn, const struct arch *a,
		      const char *why)
{
	diag_error(x->d, NULL, "--export-oci: '%s' cannot be written for libseccomp with %s: %s",
		   xn->name, a->name, why);
	note_rules(x, xn->sys, xn->name);
}

/* What to change for a multiplexer error on a, at the architectures key:
 * drop a, or what instead says (NULL: nothing else helps). */
static void mux_hint(struct exporter *x, const struct arch *a, const char *instead)
{
	diag_hint(x->d, &x->rs->attrs.arches_loc,
		  "remove %s from the architectures (from archMap's subArchitectures in a JSON "
		  "profile)%s%s",
		  a->name, instead ? ", or " : "", instead ? instead : "");
}

/* What the output holds for one name. */
struct name_sum {
	size_t n;     /* entries */
	bool args;    /* one of them compares arguments */
	bool mixed;   /* they have more than one action */
	uint32_t ret; /* the action of the first */
};

static void name_summary(const struct exporter *x, const char *name, struct name_sum *ret)
{
	*ret = (struct name_sum){ 0 };
	for (size_t j = 0; j < x->n_entries; j++) {
		const struct oci_entry *e = &x->entries[j];

		for (size_t k = 0; k < e->n_names; k++) {
			if (strcmp(e->names[k], name))
				continue;
			ret->mixed |= ret->n && e->ret != ret->ret;
			if (!ret->n++)
				ret->ret = e->ret;
			for (int g = 0; g < SYSCALL_ARGS_MAX; g++)
				ret->args |= e->arg[g].mask != 0;
		}
	}
}

/*
 * On an ABI with socketcall or ipc, libseccomp adds every entry of a
 * sub-call to the multiplexer as well, its first comparison replaced by
 * the sub-call's number (scmp-run.ini(5), --export-oci). Where the
 * multiplexer has no entry, that decides like the program only for one
 * unconditional entry of a socketcall sub-call: conditions would be
 * applied to the multiplexer's own registers (the pointer), entries of
 * other actions collapse into one rule that libseccomp refuses, and ipc's
 * first argument is compared whole where the kernel reads its low 16 bits.
 * Where it has one entry without conditions, that entry decides every call
 * of it: libseccomp 2.5.4 drops a conditional rule added to a syscall that
 * has an unconditional one, and an unconditional rule replaces the
 * conditional ones before it; but sub-call entries of two actions read
 * before it clash, and are refused. check_mux_forms() then compares the
 * outcome with the program's.
 */
static void check_mux(struct exporter *x, const struct xname *names, size_t n_names)
{
	for (size_t j = 0; j < n_names; j++) {
		const struct xname *xn = &names[j];

		for (size_t i = 0; i < x->p->n_abis; i++) {
			const struct arch *a = x->p->abis[i].arch;
			struct name_sum sub, own;
			char why[160], instead[96];
			enum mux_kind k;
			const char *mux;

			if (!arch_mux_subcall(a, xn->name, &k))
				continue;
			mux = arch_mux_name(a, k);
			name_summary(x, xn->name, &sub);
			name_summary(x, mux, &own);
			if (own.n && (own.n > 1 || own.args)) {
				snprintf(why, sizeof(why),
					 "libseccomp adds its entries to those of '%s', which "
					 "compare arguments",
					 mux);
				snprintf(instead, sizeof(instead),
					 "give '%s' one rule without conditions", mux);
			} else if (own.n && sub.mixed) {
				snprintf(why, sizeof(why),
					 "its entries have several actions, which libseccomp "
					 "refuses on %s unless the entry of '%s' comes first",
					 mux, mux);
				snprintf(instead, sizeof(instead), "give '%s' rules of one action",
					 xn->name);
			} else if (!own.n && k == MUX_IPC && sub.n) {
				mux_error(x, xn, a,
					  "libseccomp compares ipc's call number whole, the kernel "
					  "its low 16 bits: the ipc form would escape the rules");
				break;
			} else if (!own.n && (sub.n > 1 || sub.args)) {
				mux_error(x, xn, a,
					  "libseccomp drops its conditions on the socketcall form, "
					  "or refuses rules of other actions there");
				break;
			} else {
				continue;
			}
			mux_error(x, xn, a, why);
			mux_hint(x, a, instead);
			break;
		}
	}
}

/* What the program decides for the calls of multiplexer ms of kind k on
 * abi that select sub-call `call`, from all its rules, those made for the
 * sub-calls (scmp-run.ini(5) Multiplexed calls) included: the SECCOMP_RET
 * value when one action holds whatever the arguments, else -1 (also when
 * out of memory: the caller refuses then). */
static int64_t mux_form(struct exporter *x, const struct abi_policy *abi, const struct rsys *ms,
			enum mux_kind k, uint32_t call)
{
	struct rcmp t = { .arg = 0,
			  .width = 32,
			  .kind = RCMP_MASK_EQ,
			  .mask = arch_mux_call_mask(k),
			  .value = call };
	int64_t res;

	x->abi = abi;
	x->sys = ms;
	x->target = SIZE_MAX;
	x->visits = 0;
	x->with_mux = true;
	res = push(x, &t, false) < 0 ? -1 : uniform(x, 0);
	while (x->n_ctx)
		pop(x);
	x->with_mux = false;
	return res < 0 ? -1 : res;
}

/* The error for sub-call sub of multiplexer mux that libseccomp decides
 * otherwise than the program, naming the rules the program applies there
 * (those of ms, its rules, NULL if it has none). */
static void mux_form_error(struct exporter *x, const struct abi_policy *abi, const char *mux,
			   const struct rsys *ms, const struct mux_subcall *sub, const char *how,
			   bool own)
{
	char instead[128];

	diag_error(x->d, NULL,
		   "--export-oci: '%s' cannot be written for libseccomp with %s: libseccomp gives "
		   "its %s form %s, and the profile decides it otherwise (see scmp-run.ini(5), "
		   "Multiplexed calls)",
		   sub->name, abi->arch->name, mux, how);
	for (size_t i = 0; ms && i < ms->n_rules; i++) {
		const struct rrule *r = &ms->rules[i];
		bool said = false;

		if (!r->via_mux || r->cmps[r->n_cmps - 1].value != sub->call)
			continue;
		for (size_t j = 0; j < i && !said; j++)
			said = ms->rules[j].src == r->src;
		if (!said)
			diag_note(x->d, &r->src->loc, "this rule of '%s'", r->src->syscall);
	}
	snprintf(instead, sizeof(instead), "make the rules of '%s' no stricter than that of '%s'",
		 sub->name, mux);
	mux_hint(x, abi->arch, own ? instead : NULL);
}

/* Whether p filters the ABI id. */
static bool has_abi(const struct policy *p, enum arch_id id)
{
	for (size_t i = 0; i < p->n_abis; i++)
		if (p->abis[i].arch->id == id)
			return true;
	return false;
}

/*
 * libseccomp 2.5.4 puts x32's numbers in x86_64's part of the program, and
 * with x86 beside them, where every entry without arguments names a call
 * x86_64 does not have (socketcall, ipc: x86's multiplexers), it leaves the
 * syscall number unloaded there: each test compares the architecture
 * instead, and every call of x86_64 and x32 gets the defaultAction. Found
 * by tests/oci/test-libseccomp.c on random profiles; an entry without
 * arguments on a call x86_64 has restores the load. An error at the
 * architectures key, naming the rules of such a call, with that as the
 * hint (scmp-run.ini(5), --export-oci).
 */
static void check_number_load(struct exporter *x)
{
	const struct arch *x86_64 = arch_get(ARCH_X86_64);
	const struct oci_entry *lone = NULL;
	bool plain_real = false, real = false;

	if (!has_abi(x->p, ARCH_X86_64) || !has_abi(x->p, ARCH_X32) || !has_abi(x->p, ARCH_X86))
		return;
	for (size_t i = 0; i < x->n_entries; i++) {
		const struct oci_entry *e = &x->entries[i];
		bool plain = true;

		for (int a = 0; a < SYSCALL_ARGS_MAX; a++)
			plain &= !e->arg[a].mask;
		for (size_t k = 0; k < e->n_names; k++) {
			uint32_t nr;
			bool has = syscalls_lookup_name(x86_64, e->names[k], &nr) == 0;

			real |= has;
			plain_real |= has && plain;
			if (!has && plain && !lone)
				lone = e;
		}
	}
	if (!lone || plain_real || !real)
		return;
	diag_error(x->d, &x->rs->attrs.arches_loc,
		   "--export-oci: libseccomp 2.5 would compile this JSON without loading the "
		   "syscall number for x86_64 and x32: its only entries without arguments name "
		   "calls x86_64 lacks ('%s'), and every call of x86_64 and x32 would get the "
		   "defaultAction",
		   lone->names[0]);
	/* its rules, on the first ABI that has the call */
	for (size_t i = 0; i < x->p->n_abis; i++) {
		const struct rsys *s = NULL;
		uint32_t nr;

		if (syscalls_lookup_name(x->p->abis[i].arch, lone->names[0], &nr) == 0)
			s = policy_rsys(&x->p->abis[i], nr);
		if (s) {
			note_rules(x, s, s->name);
			break;
		}
	}
	diag_hint(x->d, &x->rs->attrs.arches_loc,
		  "remove x32 from the architectures, or give a call x86_64 has a rule without "
		  "a condition");
}

/*
 * The calls of each multiplexer, per sub-call, as libseccomp decides them
 * from the entries check_mux() lets through: the multiplexer's own entry
 * where it has one, else the sub-call's one unconditional entry, else the
 * defaultAction. The program must decide them alike: its rules for the
 * hidden arguments (scmp-run.ini(5) Multiplexed calls) can give the
 * multiplexer's form of a sub-call a stricter action than the
 * multiplexer's own rule, and a sub-call the ABI has no syscall for (recv
 * on i386) has no entry to carry its rules.
 */
static void check_mux_forms(struct exporter *x)
{
	for (size_t i = 0; i < x->p->n_abis; i++) {
		const struct abi_policy *abi = &x->p->abis[i];

		for (int k = 0; k < MUX_COUNT; k++) {
			const char *mux = arch_mux_name(abi->arch, (enum mux_kind)k);
			const struct mux_subcall *subs;
			const struct rsys *ms;
			struct name_sum own;
			size_t n_subs;
			uint32_t nr;

			if (!mux || syscalls_lookup_name(abi->arch, mux, &nr) < 0)
				continue;
			ms = policy_rsys(abi, nr);
			name_summary(x, mux, &own);
			subs = arch_mux_subcalls((enum mux_kind)k, &n_subs);
			for (size_t m = 0; m < n_subs; m++) {
				struct name_sum sub;
				uint32_t want = abi->default_ret;
				const char *how = "the defaultAction";
				char own_how[64];
				int64_t got;

				name_summary(x, subs[m].name, &sub);
				if (own.n) {
					want = own.ret;
					snprintf(own_how, sizeof(own_how),
						 "the action of the entry of '%s'", mux);
					how = own_how;
				} else if (sub.n) {
					want = sub.ret;
					how = "the action of its own entry";
				}
				got = ms ? mux_form(x, abi, ms, (enum mux_kind)k, subs[m].call)
					 : (int64_t)abi->default_ret;
				if (got != (int64_t)want)
					mux_form_error(x, abi, mux, ms, &subs[m], how, own.n > 0);
			}
		}
	}
}

/* Whether entry e names socketcall or ipc on an ABI of the filter. */
static bool names_mux(const struct exporter *x, const struct oci_entry *e)
{
	for (size_t i = 0; i < x->p->n_abis; i++)
		for (int k = 0; k < MUX_COUNT; k++) {
			const char *mux = arch_mux_name(x->p->abis[i].arch, (enum mux_kind)k);

			for (size_t n = 0; mux && n < e->n_names; n++)
				if (!strcmp(e->names[n], mux))
					return true;
		}
	return false;
}

/*
 * The multiplexers' entries before every other, the order kept otherwise.
 * check_mux_forms() made the profile decide each sub-call's multiplexed
 * form by the multiplexer's entry; read back, the first entry written wins
 * a tie of precedence (scmp-run.ini(5), Multiplexed calls), and a
 * sub-call's entry of the same precedence but other data (errno(EACCES)
 * beside errno(EPERM)) would win it there. A name that shares the
 * multiplexer's entry, one without conditions, has no other entry of
 * another action (split_sys()), so moving it changes nothing for it.
 */
static void mux_entries_first(struct exporter *x)
{
	size_t front = 0;

	for (size_t i = 0; i < x->n_entries; i++) {
		struct oci_entry e = x->entries[i];

		if (!names_mux(x, &e))
			continue;
		memmove(&x->entries[front + 1], &x->entries[front],
			(i - front) * sizeof(*x->entries));
		x->entries[front++] = e;
	}
}

/* Refuse JSON libseccomp would compile to more than a runtime can load,
 * naming the rules of the syscalls that cost most; the count into
 * x->insns. 0, or -ENOMEM. */
static int check_size(struct exporter *x, struct xname *names, size_t n_names)
{
	size_t total = 0;

	for (size_t j = 0; j < n_names; j++) {
		names[j].insns = *names[j].text ? oci_lsc_name_insns(x->p, x->entries, x->n_entries,
								     names[j].name)
						: 0;
		if (names[j].insns == SIZE_MAX)
			return -ENOMEM;
		total += names[j].insns;
	}
	total = oci_lsc_program_insns(x->p, x->entries, x->n_entries, total);
	x->insns = total;
	if (total <= OCI_EXPORT_INSNS_MAX)
		return 0;
	diag_error(x->d, NULL,
		   "--export-oci: libseccomp may compile the JSON to %zu instructions, more than "
		   "the %u a runtime can load",
		   total, OCI_EXPORT_INSNS_MAX);
	for (int shown = 0; shown < 3; shown++) {
		struct xname *top = NULL;

		for (size_t j = 0; j < n_names; j++)
			if (names[j].insns && (!top || names[j].insns > top->insns))
				top = &names[j];
		if (!top)
			break;
		for (size_t i = 0; i < top->sys->n_rules; i++)
			if (!top->sys->rules[i].via_mux)
				diag_note(
					x->d, &top->sys->rules[i].src->loc,
					"this rule of '%s' (%zu instructions with its other rules)",
					top->name, top->insns);
		top->insns = 0;
	}
	return 0;
}

/* A warning for each name written, stricter than the defaultAction, that
 * libseccomp 2.5 does not know on an ABI of the filter, at that rule: a
 * runtime linked with it skips the entries, and gives the calls the
 * defaultAction. (A skipped allow under a stricter default only denies.) */
static void warn_unknown_names(struct exporter *x, const struct xname *names, size_t n_names)
{
	const struct policy *p = x->p;
	uint32_t def = p->abis[0].default_ret;

	for (size_t j = 0; j < n_names; j++) {
		const struct rsys *s = names[j].sys;
		const struct rrule *at = NULL;
		const struct arch *on = NULL;

		for (size_t i = 0; i < p->n_abis && !on; i++)
			if (oci_libseccomp_unknown(p->abis[i].arch, names[j].name))
				on = p->abis[i].arch;
		for (size_t i = 0; on && i < s->n_rules && !at; i++)
			if (!s->rules[i].via_mux &&
			    action_ret_rank(s->rules[i].ret) > action_ret_rank(def))
				at = &s->rules[i];
		if (at)
			diag_warning(x->d, &at->src->loc,
				     "--export-oci: libseccomp 2.5 (2.5.4 in Debian 12) does not "
				     "know '%s' on %s: runc and crun linked with it skip its "
				     "entries, and give its calls the defaultAction",
				     names[j].name, on->name);
	}
}

/*
 * libseccomp gives the numbers it does not know the defaultAction: where
 * the unknown-syscall-action is stricter, the JSON would let through what
 * the profile refuses, so that is an error, located at the line to change
 * (the key when written; one not written follows default-action,
 * scmp-run.ini(5) UNKNOWN SYSCALLS). Setting it to the default action says
 * the weaker meaning is wanted (scmp-run.ini(5), --export-oci).
 */
static bool unknown_exportable(const struct exporter *x)
{
	const struct policy *p = x->p;
	const struct filter_attrs *at = &x->rs->attrs;
	const struct src_loc *loc = at->has_unknown_action ? &at->unknown_loc : &at->default_loc;
	char u[64], def[64];

	if (action_ret_rank(p->abis[0].unknown_ret) <= action_ret_rank(p->abis[0].default_ret))
		return true;
	diag_error(x->d, loc,
		   "--export-oci: unknown-syscall-action %s%s is stricter than the default action "
		   "%s, and has no OCI form: libseccomp would give numbers it does not know %s",
		   action_format_ret(p->abis[0].unknown_ret, p->abis[0].arch, u, sizeof(u)),
		   at->has_unknown_action ? "" : " (its default)",
		   action_format_ret(p->abis[0].default_ret, p->abis[0].arch, def, sizeof(def)),
		   def);
	diag_hint(x->d, loc,
		  "to export it anyway, giving them %s, set unknown-syscall-action = %s (in a "
		  "profile that includes this one, to keep run mode as it is)",
		  def, def);
	return false;
}

/* At the line to change: the key when written; an unknown-syscall-action
 * not written follows default-action (scmp-run.ini(5) UNKNOWN SYSCALLS). */
static void warnings(struct exporter *x)
{
	const struct policy *p = x->p;
	const struct ruleset *rs = x->rs;
	const struct filter_attrs *at = &rs->attrs;

	if (p->abis[0].unknown_ret != p->abis[0].default_ret)
		diag_warning(
			x->d, at->has_unknown_action ? &at->unknown_loc : &at->default_loc,
			"--export-oci: unknown-syscall-action has no OCI form: libseccomp gives "
			"numbers it does not know the defaultAction");
	if (rs->n_prios)
		diag_warning(x->d, &rs->prios[0].loc,
			     "--export-oci: priorities have no OCI form: left out");
	if ((p->bad_arch_ret & SECCOMP_RET_ACTION_FULL) != SECCOMP_RET_KILL_THREAD)
		diag_warning(x->d, &at->bad_arch_loc,
			     "--export-oci: bad-arch-action has no OCI form: runtimes kill the "
			     "thread (libseccomp's SCMP_ACT_KILL)");
}

/* The "flags" list, always: runc and crun read a JSON without one as
 * SECCOMP_FILTER_FLAG_SPEC_ALLOW, which would turn off the speculative store
 * bypass mitigation that the program of run mode keeps unless spec-allow =
 * yes (scmp-run.ini(5), --export-oci). "flags": [] means no flag to both. */
static void write_flags(const struct filter_attrs *at, FILE *f)
{
	const char *sep = " ";

	fputs("  \"flags\": [", f);
	if (at->tsync) {
		fprintf(f, "%s\"SECCOMP_FILTER_FLAG_TSYNC\"", sep);
		sep = ", ";
	}
	if (at->log) {
		fprintf(f, "%s\"SECCOMP_FILTER_FLAG_LOG\"", sep);
		sep = ", ";
	}
	if (at->spec_allow)
		fprintf(f, "%s\"SECCOMP_FILTER_FLAG_SPEC_ALLOW\"", sep);
	fputs(" ],\n", f);
}

/* The JSON of x into f. 0, or -ENOMEM when an entry's text could not be
 * made (nothing is written cut short silently). */
static int write_json(const struct exporter *x, FILE *f)
{
	const struct policy *p = x->p;
	const struct filter_attrs *at = &x->rs->attrs;
	uint32_t def = p->abis[0].default_ret;

	fprintf(f, "{\n  \"defaultAction\": \"%s\",\n", oci_action_name(def));
	if (ret_has_data(def))
		fprintf(f, "  \"defaultErrnoRet\": %u,\n", def & SECCOMP_RET_DATA);
	fputs("  \"architectures\": [", f);
	for (size_t i = 0; i < p->n_abis; i++)
		fprintf(f, "%s\"%s\"", i ? ", " : " ", scmp_arch_name(p->abis[i].arch));
	fputs(" ],\n", f);
	write_flags(at, f);
	fputs("  \"syscalls\": [", f);
	for (size_t i = 0; i < x->n_entries; i++) {
		const struct oci_entry *e = &x->entries[i];
		char *k = entry_key(e, UINT64_MAX);
		size_t col = 15;

		if (!k)
			return -ENOMEM;
		fprintf(f, "%s\n    {\n      \"names\": [", i ? "," : "");
		for (size_t n = 0; n < e->n_names; n++) {
			if (n)
				fputc(',', f);
			if (col > 80) {
				fputs("\n       ", f);
				col = 7;
			}
			fprintf(f, " \"%s\"", e->names[n]);
			col += strlen(e->names[n]) + 4;
		}
		fprintf(f, " ],\n      %s\n    }", k);
		free(k);
	}
	fputs("\n  ]\n}\n", f);
	return 0;
}

/* oci_export(), writing to f unless it is NULL, and the instructions
 * check_size() counted into *ret_insns (0 if it was not reached). */
static int export_run(const struct policy *p, const struct ruleset *rs, const struct arch *native,
		      struct diag *d, FILE *f, size_t *ret_insns)
{
	struct exporter x = { .p = p, .rs = rs, .d = d, .target = SIZE_MAX };
	struct xname *names = NULL;
	size_t n_names = 0, cap_names = 0, errs = d->n_errors;
	int r = 0;

	if (!p->n_abis || p->abis[0].arch != native) {
		diag_error(d, &rs->attrs.arches_loc,
			   "--export-oci: the filter does not cover %s, the native ABI: a runtime "
			   "always adds it, so the exported filter would decide otherwise there",
			   native->name);
		return -EINVAL;
	}
	for (size_t i = 1; i < p->n_abis; i++)
		if (p->abis[i].default_ret != p->abis[0].default_ret) {
			diag_error(
				d, &rs->attrs.default_loc,
				"--export-oci: the default action means another value on %s than "
				"on %s (errno numbers differ): one defaultAction cannot say both",
				p->abis[i].arch->name, p->abis[0].arch->name);
			return -EINVAL;
		}
	if (!errno_exportable(p->abis[0].default_ret, &rs->attrs.default_loc, d) ||
	    !trap_exportable(p->abis[0].default_ret, &rs->attrs.default_loc, d))
		return -EINVAL;
	/* runc refuses it as defaultAction; under crun every call of the
	 * runtime after the filter is installed would wait for an agent */
	if ((p->abis[0].default_ret & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_USER_NOTIF) {
		diag_error(d, &rs->attrs.default_loc,
			   "--export-oci: notify as the default action: runc refuses "
			   "SCMP_ACT_NOTIFY as defaultAction, and crun does not start the "
			   "container under it");
		return -EINVAL;
	}
	if (!unknown_exportable(&x))
		return -EINVAL;
	for (size_t i = 0; i < p->n_abis && r >= 0; i++) {
		const struct abi_policy *abi = &p->abis[i];

		for (size_t k = 0; k < abi->n_sys && r >= 0; k++) {
			const struct rsys *s = &abi->sys[k];
			struct xname *xn = NULL;
			char *text;
			bool direct = false;

			for (size_t j = 0; j < s->n_rules; j++)
				direct |= !s->rules[j].via_mux;
			if (!direct)
				continue;
			/* a number the profile named (scmp-run.ini(5) SYSCALL NAMES) */
			if (!syscalls_lookup_nr(abi->arch, s->nr)) {
				rules_error(&x, abi, s,
					    "OCI names syscalls, and the table has no name for "
					    "this number");
				continue;
			}
			for (size_t j = 0; j < n_names && !xn; j++)
				if (!strcmp(names[j].name, s->name))
					xn = &names[j];
			r = split_sys(&x, abi, s);
			if (r == -E2BIG) {
				rules_error(&x, abi, s, "its rules split into too many entries");
				r = 0;
				continue;
			}
			if (r < 0)
				break;
			for (size_t j = 0; j < s->n_rules; j++)
				rule_exportable(&x, &s->rules[j]);
			if (abi->arch->id == ARCH_X32 && tests_wide_arg(s))
				rules_error(&x, abi, s,
					    "libseccomp compares the low 32 bits of x32's "
					    "arguments, and a rule tests a 64-bit one");
			if (abi->arch->bits == 64 && oci_lsc_loops(x.scratch, x.n_scratch))
				rules_error(&x, abi, s,
					    "libseccomp 2.5 never finishes compiling its entries: "
					    "two test a pointer's '!= 0' (written '> 0') and then "
					    "an argument on values that differ above bit 31");
			text = scratch_text(&x);
			if (!text) {
				r = -ENOMEM;
				break;
			}
			if (xn) {
				/* one entry list for every ABI: JSON has no per-ABI entries */
				if (strcmp(xn->text, text))
					rules_error(
						&x, abi, s,
						"it decides otherwise than on the first ABI; JSON "
						"entries apply to every ABI alike");
				free(text);
				continue;
			}
			xn = array_grow(&names, &n_names, &cap_names, sizeof(*names));
			if (!xn) {
				free(text);
				r = -ENOMEM;
				break;
			}
			*xn = (struct xname){
				.name = s->name, .text = text, .first = abi->arch, .sys = s
			};
			for (size_t j = 0; j < x.n_scratch && r >= 0; j++)
				r = add_names_entry(&x, &x.scratch[j], s->name);
		}
	}
	/* a name with rules on one ABI only must decide by default on the others */
	for (size_t j = 0; j < n_names && r >= 0; j++)
		for (size_t i = 0; i < p->n_abis; i++) {
			uint32_t nr;

			if (syscalls_lookup_name(p->abis[i].arch, names[j].name, &nr) < 0 ||
			    policy_rsys(&p->abis[i], nr))
				continue;
			if (*names[j].text)
				abi_only_error(&x, &names[j], p->abis[i].arch);
		}
	if (r >= 0 && d->n_errors == errs)
		check_mux(&x, names, n_names);
	if (r >= 0 && d->n_errors == errs) {
		check_mux_forms(&x);
		mux_entries_first(&x);
		check_number_load(&x);
	}
	if (r >= 0 && d->n_errors == errs)
		r = check_size(&x, names, n_names);
	if (r >= 0 && d->n_errors == errs) {
		warnings(&x);
		warn_unknown_names(&x, names, n_names);
		r = f ? write_json(&x, f) : 0;
	}
	if (r >= 0 && d->n_errors > errs)
		r = -EINVAL;
	for (size_t j = 0; j < n_names; j++)
		free(names[j].text);
	free(names);
	for (size_t i = 0; i < x.n_entries; i++)
		free(x.entries[i].names);
	free(x.entries);
	free(x.index);
	free(x.scratch);
	free(x.reported);
	if (ret_insns)
		*ret_insns = x.insns;
	return r;
}

int oci_export(const struct policy *p, const struct ruleset *rs, const struct arch *native,
	       struct diag *d, FILE *f)
{
	return export_run(p, rs, native, d, f, NULL);
}

int oci_export_insns(const struct policy *p, const struct ruleset *rs, const struct arch *native,
		     struct diag *d, size_t *ret)
{
	return export_run(p, rs, native, d, NULL, ret);
}
