/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The resolver: a ruleset becomes a policy. Per ABI of the filter, names
 * become numbers, conditions become typed tests on the argument's width
 * (scmp-run.ini(5) ARGUMENT WIDTHS AND SIGNEDNESS), multiplexer sub-calls get
 * their rules, and each number's candidates are put in decision order.
 */
#include "policy.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "array.h"
#include "consts.h"

/* ---- resolving conditions for one ABI ---- */

/* A value as written: sign and magnitude, before it meets a width. */
struct wvalue {
	bool neg;
	uint64_t mag;
};

struct resolve_ctx {
	const struct arch *arch;
	const struct rule *rule;
	struct diag *d;
	bool multi_abi; /* name the ABI in messages */
};

/* An error at the rule's location, naming the ABI when there are several. */
__attribute__((format(printf, 2, 3))) static void rerr(const struct resolve_ctx *ctx,
						       const char *fmt, ...)
{
	char *text = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	diag_error(ctx->d, &ctx->rule->loc, "%s%s%s", ctx->multi_abi ? ctx->arch->name : "",
		   ctx->multi_abi ? ": " : "", text ? text : "out of memory");
	free(text);
}

/* Check that v fits a width (and, for ordered comparisons, the signedness),
 * and return its bit pattern on that width. */
static int fit(const struct resolve_ctx *ctx, struct wvalue v, unsigned width, bool is_signed,
	       bool ordered, const char *what, uint64_t *ret)
{
	uint64_t max_pos = width_max(width);
	uint64_t max_neg = width_sign(width);

	if (ordered)
		max_pos = is_signed ? max_neg - 1 : max_pos;
	if (ordered && !is_signed && v.neg && v.mag) {
		rerr(ctx, "negative value -%llu compared with unsigned '%s'",
		     (unsigned long long)v.mag, what);
		return -ERANGE;
	}
	if (v.neg ? v.mag > max_neg : v.mag > max_pos) {
		rerr(ctx, "value %s%llu does not fit '%s' (%u-bit%s)", v.neg ? "-" : "",
		     (unsigned long long)v.mag, what, width,
		     ordered ? (is_signed ? ", signed" : ", unsigned") : "");
		return -ERANGE;
	}
	*ret = (v.neg ? (uint64_t)0 - v.mag : v.mag) & width_max(width);
	return 0;
}

/* Evaluate "term | term ..." for the argument's width. */
static int eval_value(const struct resolve_ctx *ctx, const struct value *val, unsigned width,
		      bool is_signed, bool ordered, const char *what, uint64_t *ret)
{
	*ret = 0;
	for (size_t i = 0; i < val->n_terms; i++) {
		const struct term *t = &val->terms[i];
		struct wvalue w = { .neg = t->neg, .mag = t->lit };
		uint64_t bits;

		if (t->name) {
			int64_t c;

			if (consts_lookup(ctx->arch, t->name, &c) < 0) {
				rerr(ctx, "unknown constant '%s'", t->name);
				return -ENOENT;
			}
			w.neg = c < 0;
			w.mag = c < 0 ? (uint64_t)0 - (uint64_t)c : (uint64_t)c;
		}
		/* An OR of several terms is a bit pattern, never an ordered number. */
		if (fit(ctx, w, width, is_signed, ordered && val->n_terms == 1, what, &bits) < 0)
			return -ERANGE;
		*ret |= bits;
	}
	return 0;
}

/* The slot, width and signedness of the argument a comparison names. */
static int resolve_arg(const struct resolve_ctx *ctx, const struct cmp *c,
		       const struct syscall_arg args[SYSCALL_ARGS_MAX], bool known,
		       uint8_t *ret_slot, enum arg_class *ret_cls, const char **ret_what)
{
	int slot = c->arg;

	if (slot < 0) {
		for (int i = 0; i < SYSCALL_ARGS_MAX; i++)
			if (args[i].name && !strcmp(args[i].name, c->param))
				slot = i;
		if (slot < 0) {
			if (!known)
				rerr(ctx, "no prototype is known for '%s': use arg0..arg5",
				     ctx->rule->syscall);
			else
				rerr(ctx, "'%s' has no parameter '%s'", ctx->rule->syscall,
				     c->param);
			return -ENOENT;
		}
	}
	if (slot >= SYSCALL_ARGS_MAX) {
		rerr(ctx, "argument index %d out of range 0..5", slot);
		return -ERANGE;
	}
	*ret_slot = (uint8_t)slot;
	*ret_cls = args[slot].cls;
	*ret_what = args[slot].name ? args[slot].name : "argN";
	switch (args[slot].cls) {
	case ARG_NONE:
		rerr(ctx, "'%s' has no argument %d", ctx->rule->syscall, slot);
		return -ERANGE;
	case ARG_PAIR:
	case ARG_PAD:
		rerr(ctx, "'%s' of '%s' is passed in two registers on %s and cannot be compared",
		     *ret_what, ctx->rule->syscall, ctx->arch->name);
		return -EINVAL;
	default:
		return 0;
	}
}

static int resolve_cmp(const struct resolve_ctx *ctx, const struct cmp *c,
		       const struct syscall_arg args[SYSCALL_ARGS_MAX], bool known,
		       struct rcmp *out)
{
	enum arg_class cls;
	const char *what;
	struct ivset set = { 0 };
	uint64_t max, sign;
	bool ordered = c->op >= CMP_LT && c->op <= CMP_GE;
	int r;

	memset(out, 0, sizeof(*out));
	r = resolve_arg(ctx, c, args, known, &out->arg, &cls, &what);
	if (r < 0)
		return r;
	out->width = (uint8_t)syscalls_arg_width(ctx->arch, cls);
	out->is_signed = syscalls_arg_signed(cls);
	max = width_max(out->width);
	sign = out->is_signed ? width_sign(out->width) : 0;

	if (cls == ARG_PTR) {
		uint64_t v;

		if ((c->op != CMP_EQ && c->op != CMP_NE) ||
		    eval_value(ctx, &c->values[0], out->width, false, false, what, &v) < 0 || v) {
			rerr(ctx,
			     "'%s' of '%s' is a pointer: only '== 0' and '!= 0' can be compared "
			     "(seccomp cannot see the data it points to)",
			     what, ctx->rule->syscall);
			return -EINVAL;
		}
	}

	if (c->op == CMP_MASKED_EQ || c->op == CMP_MASKED_NE) {
		out->kind = c->op == CMP_MASKED_EQ ? RCMP_MASK_EQ : RCMP_MASK_NE;
		if (eval_value(ctx, &c->mask, out->width, out->is_signed, false, what, &out->mask) <
			    0 ||
		    eval_value(ctx, &c->values[0], out->width, out->is_signed, false, what,
			       &out->value) < 0)
			return -ERANGE;
		return 0;
	}

	out->kind = RCMP_IN;
	for (size_t i = 0; i < c->n_values; i++) {
		uint64_t v;

		if (eval_value(ctx, &c->values[i], out->width, out->is_signed, ordered, what, &v) <
		    0) {
			free(set.iv);
			return -ERANGE;
		}
		v ^= sign; /* to key space */
		switch (c->op) {
		case CMP_EQ:
		case CMP_NE:
		case CMP_IN:
		case CMP_NOT_IN:
			r = ivset_add(&set, v, v);
			break;
		case CMP_LT:
			r = v ? ivset_add(&set, 0, v - 1) : 0;
			break;
		case CMP_LE:
			r = ivset_add(&set, 0, v);
			break;
		case CMP_GT:
			r = v < max ? ivset_add(&set, v + 1, max) : 0;
			break;
		case CMP_GE:
			r = ivset_add(&set, v, max);
			break;
		default:
			r = -EINVAL;
		}
		if (r < 0) {
			free(set.iv);
			return r;
		}
	}
	r = ivset_normalize(&set);
	if (r >= 0 && (c->op == CMP_NE || c->op == CMP_NOT_IN))
		r = ivset_complement(&set, max);
	out->ivs = set.iv;
	out->n_ivs = set.n;
	return r;
}

enum resolved {
	RESOLVED_OK,
	RESOLVED_NEVER, /* the condition can never be true */
};

/*
 * Resolve a conjunction for one ABI: one RCMP_IN per argument (ranges of
 * one argument intersected), mask tests kept, tests that are always true
 * dropped. Returns < 0 on error (reported), else enum resolved.
 */
static int resolve_conj(const struct resolve_ctx *ctx, struct rcmp **ret, size_t *ret_n)
{
	const struct conj *cj = &ctx->rule->conj;
	struct syscall_arg args[SYSCALL_ARGS_MAX];
	struct rcmp *out;
	size_t n = 0;
	bool known, never = false;
	int r;

	*ret = NULL;
	*ret_n = 0;
	if (!cj->n_cmps)
		return RESOLVED_OK;
	r = syscalls_args(ctx->arch, ctx->rule->syscall, args, &known);
	if (r < 0)
		return r;
	out = calloc(cj->n_cmps, sizeof(*out));
	if (!out)
		return -ENOMEM;
	for (size_t i = 0; i < cj->n_cmps; i++) {
		struct rcmp c;
		size_t j;

		r = resolve_cmp(ctx, &cj->cmps[i], args, known, &c);
		if (r < 0) {
			free(c.ivs);
			goto fail;
		}
		if (c.kind != RCMP_IN) {
			uint64_t wmax = width_max(c.width);
			bool impossible = (c.value & ~c.mask & wmax) != 0;

			if (impossible && c.kind == RCMP_MASK_EQ)
				never = true;
			if (!impossible && (c.mask & wmax) == 0 && c.value == 0 &&
			    c.kind == RCMP_MASK_NE)
				never = true;
			if (impossible || (c.mask & wmax) == 0) /* decided without the argument */
				continue;
			out[n++] = c;
			continue;
		}
		for (j = 0; j < n; j++)
			if (out[j].kind == RCMP_IN && out[j].arg == c.arg)
				break;
		if (j < n) {
			struct ivset a = { out[j].ivs, out[j].n_ivs }, b = { c.ivs, c.n_ivs };

			r = ivset_intersect(&a, &b);
			free(c.ivs);
			out[j].ivs = a.iv;
			out[j].n_ivs = a.n;
			if (r < 0)
				goto fail;
		} else {
			out[n++] = c;
		}
	}
	/* Drop tests that every value passes; an empty set never matches. */
	for (size_t i = 0; i < n;) {
		uint64_t max = width_max(out[i].width);

		if (out[i].kind == RCMP_IN && out[i].n_ivs == 0)
			never = true;
		if (out[i].kind == RCMP_IN && out[i].n_ivs == 1 && out[i].ivs[0].lo == 0 &&
		    out[i].ivs[0].hi == max) {
			free(out[i].ivs);
			out[i] = out[--n];
			continue;
		}
		i++;
	}
	if (never) {
		rcmps_free(out, n);
		return RESOLVED_NEVER;
	}
	if (!n) {
		free(out);
		out = NULL;
	}
	*ret = out;
	*ret_n = n;
	return RESOLVED_OK;
fail:
	rcmps_free(out, n);
	return r;
}

/* ---- building the policy ---- */

/* What building learnt about each rule of the ruleset. */
struct rule_mark {
	bool failed; /* reported once; not tried on further ABIs */
	bool found;  /* some ABI of the filter has the syscall */
};

/* One ABI's policy while it is built. Every number with rules is a known
 * one (rules resolve names through the table), so abi->sys has at most
 * n_known slots. */
struct abi_build {
	struct abi_policy *abi;
	size_t *where;	   /* per known index: its slot in abi->sys, or SIZE_MAX */
	size_t *cap_rules; /* per slot of abi->sys: the capacity of its rules[] */
	size_t cap_sys;	   /* the capacity of abi->sys */
};

/* Add rr to the rules of nr, whose list is created on first use; where[]
 * finds the list of a known number, so n rules cost O(n log n), not
 * O(n * syscalls). Returns 0, -ENOMEM, or -EINVAL for a number the table
 * lacks (never dropped silently). */
static int add_rrule(struct abi_build *b, uint32_t nr, const char *name, const struct rrule *rr)
{
	struct abi_policy *abi = b->abi;
	const struct syscall *sc = policy_known(abi, nr);
	size_t k = sc ? (size_t)(sc - abi->known) : SIZE_MAX, slot;
	struct rsys *s;
	struct rrule *r;

	if (k == SIZE_MAX)
		return -EINVAL;
	if (b->where[k] == SIZE_MAX) {
		s = array_grow(&abi->sys, &abi->n_sys, &b->cap_sys, sizeof(*s));
		if (!s)
			return -ENOMEM;
		s->nr = nr;
		s->name = name;
		b->where[k] = abi->n_sys - 1;
		b->cap_rules[abi->n_sys - 1] = 0;
	}
	slot = b->where[k];
	s = &abi->sys[slot];
	r = array_grow(&s->rules, &s->n_rules, &b->cap_rules[slot], sizeof(*r));
	if (!r)
		return -ENOMEM;
	*r = *rr;
	return 0;
}

static int cmp_rrule(const void *a, const void *b)
{
	const struct rrule *x = a, *y = b;
	int rx = action_rank(x->src->action.kind), ry = action_rank(y->src->action.kind);

	if (rx != ry)
		return ry - rx;
	return (x->src->seq > y->src->seq) - (x->src->seq < y->src->seq);
}

/* Put abi->sys in number order: where[] maps the (sorted) known numbers
 * to their slots, so this is one pass, no sort. */
static int sort_sys(struct abi_policy *abi, const size_t *where)
{
	struct rsys *sorted = calloc(abi->n_sys + 1, sizeof(*sorted));
	size_t n = 0;

	if (!sorted)
		return -ENOMEM;
	for (size_t k = 0; k < abi->n_known; k++)
		if (where[k] != SIZE_MAX)
			sorted[n++] = abi->sys[where[k]];
	free(abi->sys);
	abi->sys = sorted;
	return 0;
}

/* Could some argument values satisfy both tests? */
static bool rcmp_overlap(const struct rcmp *a, const struct rcmp *b)
{
	if (a->arg != b->arg || a->width != b->width || a->is_signed != b->is_signed)
		return true;
	if (a->kind == RCMP_MASK_EQ && b->kind == RCMP_MASK_EQ && a->mask == b->mask)
		return a->value == b->value;
	if (a->kind != RCMP_IN || b->kind != RCMP_IN)
		return true;
	for (size_t i = 0, j = 0; i < a->n_ivs && j < b->n_ivs;) {
		if (a->ivs[i].hi < b->ivs[j].lo)
			i++;
		else if (b->ivs[j].hi < a->ivs[i].lo)
			j++;
		else
			return true;
	}
	return false;
}

/* Could one call match both rules? (Conservative: true when unsure.) */
static bool rrule_overlap(const struct rrule *a, const struct rrule *b)
{
	for (size_t i = 0; i < a->n_cmps; i++)
		for (size_t j = 0; j < b->n_cmps; j++)
			if (!rcmp_overlap(&a->cmps[i], &b->cmps[j]))
				return false;
	return true;
}

#define TIE_PAIRS_MAX 100000 /* pairs compared per syscall before assuming a tie */

struct tagged_iv {
	struct interval iv;
	size_t rule;
};

static int cmp_tagged(const void *a, const void *b)
{
	const struct tagged_iv *x = a, *y = b;

	return x->iv.lo < y->iv.lo ? -1 : x->iv.lo > y->iv.lo;
}

/*
 * Rules [from, to) of s all test one argument with a single interval set
 * (the common "cmd == X" shape): do two with different data overlap?
 * Sort all intervals and sweep; O(n log n) where pairs would be O(n^2).
 * Returns the later rule of an overlapping pair, s->n_rules if none, or
 * -1 if the shape does not fit.
 */
static ssize_t single_arg_tie(const struct rsys *s, size_t from, size_t to)
{
	const struct rcmp *c0;
	struct tagged_iv *all;
	size_t n = 0, best = 0;
	ssize_t ret = (ssize_t)s->n_rules;

	if (s->rules[from].n_cmps != 1)
		return -1;
	c0 = &s->rules[from].cmps[0];
	for (size_t i = from; i < to; i++) {
		const struct rrule *r = &s->rules[i];

		if (r->n_cmps != 1 || r->cmps[0].kind != RCMP_IN || r->cmps[0].arg != c0->arg ||
		    r->cmps[0].width != c0->width || r->cmps[0].is_signed != c0->is_signed)
			return -1;
		n += r->cmps[0].n_ivs;
	}
	all = calloc(n + 1, sizeof(*all));
	if (!all)
		return -1;
	n = 0;
	for (size_t i = from; i < to; i++)
		for (size_t k = 0; k < s->rules[i].cmps[0].n_ivs; k++)
			all[n++] = (struct tagged_iv){ s->rules[i].cmps[0].ivs[k], i };
	qsort(all, n, sizeof(*all), cmp_tagged);
	/* Overlapping intervals of rules with one datum decide alike; with
	 * different data, the later one only counts where the earlier misses. */
	for (size_t k = 1; k < n && ret == (ssize_t)s->n_rules; k++) {
		if (all[k].iv.lo <= all[best].iv.hi &&
		    s->rules[all[k].rule].ret != s->rules[all[best].rule].ret)
			ret = (ssize_t)(all[k].rule > all[best].rule ? all[k].rule
								     : all[best].rule);
		if (all[k].iv.hi > all[best].iv.hi)
			best = k;
	}
	free(all);
	return ret;
}

static void tie_warning(const struct rsys *s, const struct rrule *b, struct diag *d)
{
	const struct rrule *a = NULL;
	char ba[64], bb[64];

	/* name the first rule with the same action and other data */
	for (size_t i = 0; i < s->n_rules && !a; i++)
		if (s->rules[i].src->action.kind == b->src->action.kind &&
		    s->rules[i].ret != b->ret)
			a = &s->rules[i];
	if (!a)
		return;
	diag_warning(d, &b->src->loc,
		     "'%s' rules with %s here and %s at %s:%u: where both match, the one written "
		     "first wins",
		     s->name, action_format(&b->src->action, bb, sizeof(bb)),
		     action_format(&a->src->action, ba, sizeof(ba)), a->src->loc.file,
		     a->src->loc.line);
}

/* scmp-run.ini(5) MEANING OF A PROFILE: rules with one action but different data (errno(EACCES) and
 * errno(EPERM)) that can match the same call: the first written wins; say
 * so once per syscall. s->rules is sorted by action, then written order. */
static void warn_ties(const struct rsys *s, struct diag *d)
{
	for (size_t from = 0, to; from < s->n_rules; from = to) {
		size_t pairs = 0;
		ssize_t hit;

		for (to = from + 1; to < s->n_rules; to++)
			if (s->rules[to].src->action.kind != s->rules[from].src->action.kind)
				break;
		hit = single_arg_tie(s, from, to);
		if (hit >= 0) {
			if ((size_t)hit < s->n_rules) {
				tie_warning(s, &s->rules[hit], d);
				return;
			}
			continue;
		}
		for (size_t i = from; i < to; i++)
			for (size_t j = i + 1; j < to; j++) {
				const struct rrule *a = &s->rules[i], *b = &s->rules[j];

				if (a->ret == b->ret)
					continue;
				if (++pairs < TIE_PAIRS_MAX && !rrule_overlap(a, b))
					continue;
				tie_warning(s, b, d);
				return;
			}
	}
}

/* Order candidates, drop what can never be reached, warn about ties. */
static void finish_rsys(struct rsys *s, struct diag *d, bool warn)
{
	size_t keep = s->n_rules;

	if (s->n_rules > 1)
		qsort(s->rules, s->n_rules, sizeof(*s->rules), cmp_rrule);
	if (warn)
		warn_ties(s, d);
	for (size_t i = 0; i < s->n_rules; i++)
		if (!s->rules[i].n_cmps) {
			keep = i + 1;
			break;
		}
	for (size_t i = keep; i < s->n_rules; i++)
		rcmps_free(s->rules[i].cmps, s->rules[i].n_cmps);
	s->n_rules = keep;
}

/*
 * Multiplexer sub-calls (scmp-run.ini(5) "Multiplexed calls: socketcall and
 * ipc"): the real arguments sit behind a pointer,
 * so a rule on "socket" becomes a rule on socketcall with "call == SYS_SOCKET"
 * and its own condition decided fail-closed: a conditional rule applies
 * unconditionally when its action is stricter than the default or when an
 * unconditional rule on the same sub-call exists (then applying it can only
 * make the outcome stricter); otherwise it is dropped, which leaves the
 * stricter default in place.
 */
static int add_mux_rules(const struct ruleset *rs, struct abi_build *b, enum mux_kind kind)
{
	struct abi_policy *abi = b->abi;
	const struct arch *a = abi->arch;
	const struct mux_subcall *subs;
	int def_rank = action_ret_rank(abi->default_ret);
	uint32_t mux_nr;
	size_t n_subs;
	int err;

	if (!a->mux_name[kind] || syscalls_lookup_name(a, a->mux_name[kind], &mux_nr) < 0)
		return 0;
	subs = arch_mux_subcalls(kind, &n_subs);
	for (size_t k = 0; k < n_subs; k++) {
		bool has_uncond = false;

		for (size_t i = 0; i < rs->n_rules; i++)
			if (!strcmp(rs->rules[i].syscall, subs[k].name) &&
			    !rs->rules[i].conj.n_cmps)
				has_uncond = true;
		for (size_t i = 0; i < rs->n_rules; i++) {
			const struct rule *r = &rs->rules[i];
			struct rrule rr = { .src = r, .via_mux = true, .n_cmps = 1 };
			uint32_t mask = arch_mux_call_mask(kind);

			if (strcmp(r->syscall, subs[k].name))
				continue;
			if (action_ret(&r->action, a, &rr.ret) < 0)
				return -ENOENT;
			if (r->conj.n_cmps && !has_uncond &&
			    action_rank(r->action.kind) <= def_rank)
				continue;
			rr.cmps = calloc(1, sizeof(*rr.cmps));
			if (!rr.cmps)
				return -ENOMEM;
			*rr.cmps = (struct rcmp){
				.arg = 0,
				.width = 32,
				.kind = RCMP_MASK_EQ,
				.mask = mask,
				.value = subs[k].call,
			};
			err = add_rrule(b, mux_nr, a->mux_name[kind], &rr);
			if (err < 0) {
				free(rr.cmps);
				return err;
			}
		}
	}
	return 0;
}

static int build_abi_rules(const struct ruleset *rs, struct abi_build *b, bool multi, bool warn,
			   struct diag *d, struct rule_mark *marks)
{
	struct abi_policy *abi = b->abi;
	const struct arch *a = abi->arch;
	int r;

	if (action_ret(&rs->attrs.default_action, a, &abi->default_ret) < 0 ||
	    action_ret(rs->attrs.has_unknown_action ? &rs->attrs.unknown_action
						    : &rs->attrs.default_action,
		       a, &abi->unknown_ret) < 0) {
		diag_error(d, NULL,
			   "errno name of the default or unknown-syscall action unknown on %s",
			   a->name);
		return -EINVAL;
	}
	for (size_t i = 0; i < rs->n_rules; i++) {
		const struct rule *rule = &rs->rules[i];
		struct resolve_ctx ctx = { .arch = a, .rule = rule, .d = d, .multi_abi = multi };
		struct rrule rr = { .src = rule };
		uint32_t nr;

		if (marks[i].failed || syscalls_lookup_name(a, rule->syscall, &nr) < 0)
			continue;
		marks[i].found = true;
		if (action_ret(&rule->action, a, &rr.ret) < 0) {
			rerr(&ctx, "errno name '%s' unknown", rule->action.errno_name);
			marks[i].failed = true;
			continue;
		}
		r = resolve_conj(&ctx, &rr.cmps, &rr.n_cmps);
		if (r < 0) {
			marks[i].failed = true;
			if (r == -ENOMEM)
				return r;
			continue;
		}
		if (r == RESOLVED_NEVER) {
			if (warn)
				diag_warning(d, &rule->loc,
					     "this condition of '%s' can never be true",
					     rule->syscall);
			continue;
		}
		r = add_rrule(b, nr, rule->syscall, &rr);
		if (r < 0) {
			rcmps_free(rr.cmps, rr.n_cmps);
			return r;
		}
	}
	for (int k = 0; k < MUX_COUNT; k++) {
		r = add_mux_rules(rs, b, (enum mux_kind)k);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < abi->n_sys; i++)
		finish_rsys(&abi->sys[i], d, warn);
	r = sort_sys(abi, b->where);
	if (r < 0)
		return r;

	/* Priorities: hints for the dispatch tree, per known number. */
	if (rs->n_prios) {
		abi->prio_known = calloc(abi->n_known ? abi->n_known : 1, sizeof(unsigned));
		if (!abi->prio_known)
			return -ENOMEM;
		for (size_t i = 0; i < rs->n_prios; i++) { /* the last one written wins */
			const struct syscall *sc;
			uint32_t nr;

			if (syscalls_lookup_name(a, rs->prios[i].syscall, &nr) < 0)
				continue;
			sc = policy_known(abi, nr);
			if (sc)
				abi->prio_known[sc - abi->known] = rs->prios[i].prio;
		}
	}
	return 0;
}

static int build_abi(const struct ruleset *rs, struct abi_policy *abi, bool multi, bool warn,
		     struct diag *d, struct rule_mark *marks)
{
	struct abi_build b = { .abi = abi };
	int r;

	abi->known = syscalls_list(abi->arch, &abi->n_known);
	b.where = malloc((abi->n_known + 1) * sizeof(*b.where));
	b.cap_rules = calloc(abi->n_known + 1, sizeof(*b.cap_rules));
	if (!b.where || !b.cap_rules) {
		r = -ENOMEM;
		goto out;
	}
	memset(b.where, 0xff, (abi->n_known + 1) * sizeof(*b.where)); /* SIZE_MAX: no slot yet */
	r = build_abi_rules(rs, &b, multi, warn, d, marks);
out:
	free(b.where);
	free(b.cap_rules);
	return r;
}

/* The ABIs of the filter in program order: the one "native" names first. */
static int collect_abis(const struct ruleset *rs, const struct arch *native, struct diag *d,
			const struct arch **out, size_t *ret_n)
{
	uint32_t bits = rs->attrs.arches ? rs->attrs.arches : ARCH_NATIVE_BIT;
	size_t n = 0;

	if (bits & ARCH_NATIVE_BIT)
		bits = (bits & ~ARCH_NATIVE_BIT) | (1u << native->id);
	if (bits & (1u << native->id))
		out[n++] = native;
	for (int id = 0; id < ARCH_COUNT; id++)
		if ((bits & (1u << id)) && (enum arch_id)id != native->id)
			out[n++] = arch_get((enum arch_id)id);
	for (size_t i = 1; i < n; i++)
		if (!arch_compatible(out[0], out[i])) {
			diag_error(d, NULL,
				   "architectures '%s' and '%s' cannot occur in one process: "
				   "one filter cannot cover both",
				   out[0]->name, out[i]->name);
			return -EINVAL;
		}
	*ret_n = n;
	return 0;
}

int policy_build(const struct ruleset *rs, const struct arch *native, struct diag *d,
		 struct policy **ret)
{
	const struct arch *arches[ARCH_COUNT];
	struct policy *p = NULL;
	struct rule_mark *marks = NULL;
	size_t n_abis, errors_before = d->n_errors;
	int r;

	*ret = NULL;
	r = collect_abis(rs, native, d, arches, &n_abis);
	if (r < 0)
		return r;
	if (!rs->attrs.has_default_action) {
		diag_error(d, NULL, "no default-action: set one in [filter]");
		return -EINVAL;
	}
	for (size_t i = 0; i < rs->n_prios; i++)
		if (!syscalls_known(rs->prios[i].syscall))
			diag_error(d, &rs->prios[i].loc, "unknown syscall '%s'",
				   rs->prios[i].syscall);

	p = calloc(1, sizeof(*p));
	marks = calloc(rs->n_rules + 1, sizeof(*marks));
	if (p)
		p->abis = calloc(n_abis, sizeof(*p->abis));
	if (!p || !marks || !p->abis) {
		r = -ENOMEM;
		goto fail;
	}
	if (action_ret(&rs->attrs.bad_arch_action, arches[0], &p->bad_arch_ret) < 0) {
		diag_error(d, NULL, "errno name of the bad-arch action unknown on %s",
			   arches[0]->name);
		r = -EINVAL;
		goto fail;
	}
	for (size_t i = 0; i < n_abis; i++) {
		p->abis[i].arch = arches[i];
		p->n_abis++;
		r = build_abi(rs, &p->abis[i], n_abis > 1, i == 0, d, marks);
		if (r < 0)
			goto fail;
	}
	/* A name no ABI of the filter has must exist somewhere (scmp-run.ini(5)
	 * SYSCALL NAMES). */
	for (size_t i = 0; i < rs->n_rules; i++)
		if (!marks[i].found && !rs->rules[i].optional &&
		    !syscalls_known(rs->rules[i].syscall))
			diag_error(d, &rs->rules[i].loc, "unknown syscall '%s'",
				   rs->rules[i].syscall);
	if (d->n_errors > errors_before) {
		r = -EINVAL;
		goto fail;
	}
	free(marks);
	*ret = p;
	return 0;
fail:
	free(marks);
	policy_free(p);
	return r;
}
