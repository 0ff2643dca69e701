/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The resolver: a ruleset becomes a policy. Per ABI of the filter, names
 * become numbers, conditions become typed tests on the argument's width
 * (scmp-run.ini(5) ARGUMENT WIDTHS AND SIGNEDNESS), the built-in rules
 * (policy-builtins.c) join the profile's, each number's candidates are put
 * in decision order and multiplexer sub-calls get their rules (policy-mux.c).
 */
#include "policy.h"
#include "policy-build.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "array.h"
#include "consts.h"
#include "suggest.h"

/* ---- syscalls named by number ---- */

/*
 * The number of a rule's syscall on ABI a (scmp-run.ini(5) SYSCALL NAMES):
 * a name through the table, "ABI/NUMBER" on that ABI only, a bare number
 * on the filter's one ABI (a bare number in a filter for several ABIs is
 * refused before). Returns 0, or -ENOENT if the syscall is not on a.
 */
static int syscall_nr(const struct arch *a, const char *syscall, uint32_t *ret_nr)
{
	const struct arch *by;
	const char *err;
	int r = syscalls_parse_numbered(syscall, &by, ret_nr, &err);

	if (r == -ENOENT)
		return syscalls_lookup_name(a, syscall, ret_nr);
	if (r < 0 || (by && by != a))
		return -ENOENT;
	return 0;
}

/*
 * syscall_nr() on abi, whose table is table (syscalls_table()), with the
 * table's name for the number in *ret_name (NULL if the table has none)
 * and, when it is found without a search, its position in abi->known in
 * *ret_k (else SIZE_MAX).
 */
static int rule_number(const struct abi_policy *abi, const struct sct_table *table,
		       const struct rule *rule, uint32_t *ret_nr, const char **ret_name,
		       size_t *ret_k)
{
	const struct arch *by;
	const char *err;
	const struct syscall *sc;
	int r = rule->name_key ? -ENOENT
			       : syscalls_parse_numbered(rule->syscall, &by, ret_nr, &err);

	*ret_k = SIZE_MAX;
	*ret_name = NULL;
	if (r != -ENOENT) {
		if (r < 0 || (by && by != abi->arch))
			return -ENOENT;
		*ret_name = syscalls_lookup_nr(abi->arch, *ret_nr);
		return 0;
	}
	sc = rule->name_key ? syscalls_table_lookup_id(table, (int)rule->name_key - 1)
			    : syscalls_lookup(abi->arch, rule->syscall);
	if (!sc)
		return -ENOENT;
	*ret_nr = sc->nr;
	*ret_name = syscall_name(sc);
	/* the table itself, unless numbers were merged into it */
	if (!abi->known_owned)
		*ret_k = (size_t)(sc - abi->known);
	return 0;
}

/* Written by number: "x86_64/471" or "471". */
static bool is_numbered(const char *syscall)
{
	const struct arch *by;
	const char *err;
	uint32_t nr;

	return syscalls_parse_numbered(syscall, &by, &nr, &err) != -ENOENT;
}

/* ---- resolving conditions for one ABI ---- */

/* A value as written: sign and magnitude, before it meets a width. */
struct wvalue {
	bool neg;
	uint64_t mag;
};

/* An error at the rule's location, naming the ABI when there are several,
 * and the line and column of what it is about when the condition spans
 * several lines (the key's line alone would leave a reader to search). */
__attribute__((format(printf, 2, 3))) static void rerr(const struct resolve_ctx *ctx,
						       const char *fmt, ...)
{
	char *text = NULL, where[48] = "";
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	if (ctx->at.line && ctx->at.col)
		snprintf(where, sizeof(where), " (at line %u, column %u)", (unsigned)ctx->at.line,
			 (unsigned)ctx->at.col);
	else if (ctx->at.line)
		snprintf(where, sizeof(where), " (at line %u)", (unsigned)ctx->at.line);
	diag_error(ctx->d, &ctx->rule->loc, "%s%s%s%s", ctx->multi_abi ? ctx->arch->name : "",
		   ctx->multi_abi ? ": " : "", text ? text : "out of memory", where);
	free(text);
}

/* ctx, or a copy of it in *buf that locates at when at is known: each
 * comparison and term of a condition of several lines has its own line. */
static const struct resolve_ctx *ctx_at(const struct resolve_ctx *ctx, struct cond_at at,
					struct resolve_ctx *buf)
{
	if (!at.line)
		return ctx;
	*buf = *ctx;
	buf->at = at;
	return buf;
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
	const struct resolve_ctx *outer = ctx;
	struct resolve_ctx here;

	*ret = 0;
	for (size_t i = 0; i < val->n_terms; i++) {
		const struct term *t = &val->terms[i];
		struct wvalue w = { .neg = t->neg, .mag = t->lit };
		uint64_t bits;

		ctx = ctx_at(outer, t->at, &here);

		if (t->name) {
			int64_t c;

			if (consts_lookup(ctx->arch, t->name, &c) < 0) {
				rerr(ctx, "unknown constant '%s'", t->name);
				if (consts_suggest(t->name))
					diag_hint(ctx->d, &ctx->rule->loc, "did you mean '%s'?",
						  consts_suggest(t->name));
				return -ENOENT;
			}
			w.neg = c < 0;
			w.mag = c < 0 ? (uint64_t)0 - (uint64_t)c : (uint64_t)c;
		}
		/* In an ordered comparison every term is a number of the
		 * argument's range, as a single value is (an OR of such
		 * numbers stays in it): "pid > 0xffffffff|0" must not turn
		 * into "pid > -1" */
		if (fit(ctx, w, width, is_signed, ordered, what, &bits) < 0)
			return -ERANGE;
		*ret |= bits;
	}
	return 0;
}

/* "fd, ubuf (or buf), size (or len)": the names of a syscall's parameters
 * on one ABI, each once (a register pair has one name), into buf; one the
 * kernel calls argN at another position as the position that names it
 * (prctl's "arg1 (the kernel's arg2)"). */
static const char *param_names(const struct syscall_arg args[SYSCALL_ARGS_MAX], char *buf,
			       size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < SYSCALL_ARGS_MAX && len < size; i++) {
		if (!args[i].name || (i > 0 && args[i - 1].name == args[i].name))
			continue;
		if (syscalls_arg_misnumbered(&args[i], i) >= 0)
			len += (size_t)snprintf(buf + len, size - len, "%sarg%d (the kernel's %s)",
						len ? ", " : "", i, args[i].name);
		else
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "",
						args[i].name);
		for (const char *a = args[i].aliases; a && *a && len < size;) {
			size_t n = strcspn(a, "|");

			len += (size_t)snprintf(buf + len, size - len, " (or %.*s)", (int)n, a);
			a += n + (a[n] == '|');
		}
	}
	return buf[0] ? buf : "none";
}

/* "did you mean 'flags'?" for an unknown parameter name: the closest of
 * the syscall's parameter names and their other spellings. */
static void suggest_param(const struct resolve_ctx *ctx,
			  const struct syscall_arg args[SYSCALL_ARGS_MAX], const char *param)
{
	char best[SUGGEST_NAME_MAX + 1], cand[SUGGEST_NAME_MAX + 1];
	struct suggest sg;

	suggest_init(&sg, param);
	for (int i = 0; i < SYSCALL_ARGS_MAX; i++) {
		const char *a = args[i].aliases;

		/* "arg2" would name another argument than prctl's arg2 */
		if (args[i].name && syscalls_arg_misnumbered(&args[i], i) < 0)
			suggest_offer(&sg, args[i].name);
		/* the aliases are one '|'-separated string: offer a copy of each,
		 * and keep the winner in best (cand is overwritten) */
		while (a && *a) {
			size_t n = strcspn(a, "|");

			if (n <= SUGGEST_NAME_MAX) {
				memcpy(cand, a, n);
				cand[n] = '\0';
				suggest_offer(&sg, cand);
				if (suggest_result(&sg) == cand) {
					memcpy(best, cand, n + 1);
					sg.best = best;
				}
			}
			a += n + (a[n] == '|');
		}
	}
	if (suggest_result(&sg))
		diag_hint(ctx->d, &ctx->rule->loc, "did you mean '%s'?", suggest_result(&sg));
}

/* The slot, width and signedness of the argument a comparison names. */
static int resolve_arg(const struct resolve_ctx *ctx, const struct cmp *c,
		       const struct syscall_arg args[SYSCALL_ARGS_MAX], bool known,
		       uint8_t *ret_slot, enum arg_class *ret_cls, const char **ret_what)
{
	int slot = c->arg;
	char names[256];

	if (slot < 0) {
		for (int i = 0; i < SYSCALL_ARGS_MAX && slot < 0; i++)
			if (syscalls_arg_named(&args[i], c->param))
				slot = i;
		if (slot < 0) {
			if (!known)
				rerr(ctx, "no prototype is known for '%s': use arg0..arg5",
				     ctx->rule->syscall);
			else
				rerr(ctx, "'%s' has no parameter '%s': its parameters are %s",
				     ctx->rule->syscall, c->param,
				     param_names(args, names, sizeof(names)));
			if (known)
				suggest_param(ctx, args, c->param);
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

/*
 * out->ivs and out->n_ivs: the union of the n intervals of iv (any order,
 * reordered here), complemented over [0, max] when complement, sorted and
 * merged as ivset_normalize() and ivset_complement() leave a set. iv is
 * malloc()ed with room for 2n + 1 intervals (the complement is written
 * after the n); it becomes out->ivs, or is freed for an empty set.
 */
static void set_of(struct interval *iv, size_t n, bool complement, uint64_t max, struct rcmp *out)
{
	size_t m;

	/* insertion sort by lo: the lists are short, often sorted already */
	for (size_t i = 1; i < n; i++) {
		struct interval x = iv[i];
		size_t j = i;

		for (; j > 0 && iv[j - 1].lo > x.lo; j--)
			iv[j] = iv[j - 1];
		iv[j] = x;
	}
	m = ivset_merge_sorted(iv, n, iv);
	if (complement) {
		m = ivset_complement_into(iv, m, max, iv + n);
		memmove(iv, iv + n, m * sizeof(*iv));
	}
	out->ivs = m ? iv : NULL;
	out->n_ivs = m;
	if (!m)
		free(iv);
}

/* The intervals, in key space, that the values of set comparison c (==,
 * !=, in, not in, <, <=, >, >=) stand for, into iv; their count in
 * *ret_n. 0 or -ERANGE (a value out of range, reported). */
static int intervals_of(const struct resolve_ctx *ctx, const struct cmp *c, const struct rcmp *out,
			const char *what, struct interval *iv, size_t *ret_n)
{
	uint64_t max = width_max(out->width);
	uint64_t sign = out->is_signed ? width_sign(out->width) : 0;
	bool ordered = c->op >= CMP_LT && c->op <= CMP_GE;
	size_t n = 0;

	for (size_t i = 0; i < c->n_values; i++) {
		uint64_t v;

		if (eval_value(ctx, &c->values[i], out->width, out->is_signed, ordered, what, &v) <
		    0)
			return -ERANGE;
		v ^= sign; /* to key space */
		switch (c->op) {
		case CMP_EQ:
		case CMP_NE:
		case CMP_IN:
		case CMP_NOT_IN:
			iv[n++] = (struct interval){ v, v };
			break;
		case CMP_LT:
			if (v)
				iv[n++] = (struct interval){ 0, v - 1 };
			break;
		case CMP_LE:
			iv[n++] = (struct interval){ 0, v };
			break;
		case CMP_GT:
			if (v < max)
				iv[n++] = (struct interval){ v + 1, max };
			break;
		case CMP_GE:
			iv[n++] = (struct interval){ v, max };
			break;
		default:
			return -EINVAL;
		}
	}
	*ret_n = n;
	return 0;
}

/* The sets live on the heap, not in this frame: a frame with room for the
 * largest set (COND_SET_MAX values, three times) was 12 KB, three pages of
 * stack every launch touched for sets of a value or two. */
static int resolve_cmp(const struct resolve_ctx *ctx, const struct cmp *c,
		       const struct syscall_arg args[SYSCALL_ARGS_MAX], bool known,
		       struct rcmp *out)
{
	struct resolve_ctx here;
	struct interval *iv;
	enum arg_class cls;
	const char *what;
	size_t n = 0;
	int r;

	ctx = ctx_at(ctx, c->at, &here);
	memset(out, 0, sizeof(*out));
	r = resolve_arg(ctx, c, args, known, &out->arg, &cls, &what);
	if (r < 0)
		return r;
	out->width = (uint8_t)syscalls_arg_width(ctx->arch, cls);
	out->is_signed = syscalls_arg_signed(cls);

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
	if (c->n_values > COND_SET_MAX) { /* cond_parse() never makes one */
		rerr(ctx, "more than %d values in one set", COND_SET_MAX);
		return -EINVAL;
	}
	iv = malloc((2 * c->n_values + 1) * sizeof(*iv));
	if (!iv)
		return -ENOMEM;
	r = intervals_of(ctx, c, out, what, iv, &n);
	if (r < 0) {
		free(iv);
		return r;
	}
	set_of(iv, n, c->op == CMP_NE || c->op == CMP_NOT_IN, width_max(out->width), out);
	return 0;
}

#define SATISFY_VALUES_MAX 4096 /* values of a set tried against the masks of its argument */

/*
 * Can one value of the argument in slot pass every test of tests[0..n) on
 * it? Masks that contradict each other cannot, nor a set of at most
 * SATISFY_VALUES_MAX values none of which passes the masks; with a larger
 * set the answer is "yes" (the rule is kept: a test that fails at run time
 * costs nothing, and where a rule only counts as possible, on a
 * multiplexer, keeping it can only make the outcome stricter).
 */
static bool slot_satisfiable(const struct rcmp *tests, size_t n, uint8_t slot)
{
	const struct rcmp *set = NULL;
	uint64_t eq_mask = 0, eq_value = 0, count = 0;

	for (size_t i = 0; i < n; i++) {
		const struct rcmp *c = &tests[i];

		if (c->arg != slot)
			continue;
		if (c->kind == RCMP_IN) {
			set = c;
		} else if (c->kind == RCMP_MASK_EQ) {
			if ((c->value ^ eq_value) & c->mask & eq_mask)
				return false;
			eq_mask |= c->mask;
			eq_value |= c->value & c->mask;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (tests[i].arg == slot && tests[i].kind == RCMP_MASK_NE &&
		    !(tests[i].mask & ~eq_mask) && (eq_value & tests[i].mask) == tests[i].value)
			return false;
	if (!set)
		return true;
	for (size_t k = 0; k < set->n_ivs; k++) {
		count += set->ivs[k].hi - set->ivs[k].lo;
		if (count >= SATISFY_VALUES_MAX || ++count >= SATISFY_VALUES_MAX)
			return true;
	}
	for (size_t k = 0; k < set->n_ivs; k++)
		for (uint64_t key = set->ivs[k].lo;; key++) {
			uint64_t v = set->is_signed ? key ^ width_sign(set->width) : key;
			bool pass = true;

			for (size_t i = 0; i < n && pass; i++)
				pass = tests[i].arg != slot || rcmp_match(&tests[i], v);
			if (pass)
				return true;
			if (key == set->ivs[k].hi)
				break;
		}
	return false;
}

int policy_resolve_conj(const struct resolve_ctx *ctx, struct rcmp **ret, size_t *ret_n)
{
	const struct conj *cj = &ctx->rule->conj;
	struct syscall_arg args[SYSCALL_ARGS_MAX];
	const char *name;
	struct rcmp *out;
	size_t n = 0;
	bool known, never = false;
	uint32_t nr;
	int r;

	*ret = NULL;
	*ret_n = 0;
	if (!cj->n_cmps)
		return RESOLVED_OK;
	/* by number: the prototype of the table's name for it, if any */
	name = ctx->rule->syscall;
	if (is_numbered(name))
		name = syscall_nr(ctx->arch, name, &nr) == 0 ? syscalls_lookup_nr(ctx->arch, nr)
							     : NULL;
	if (!name) {
		memset(args, 0, sizeof(args)); /* ARG_UNKNOWN: arg0..arg5 only */
		known = false;
	} else {
		r = ctx->by_proto ? syscalls_proto_args(ctx->arch, name, args, &known)
				  : syscalls_args(ctx->arch, name, args, &known);
		if (r < 0)
			return r;
	}
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
	for (size_t i = 0; i < n && !never; i++)
		never = !slot_satisfiable(out, n, out[i].arg);
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

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Add to nrs (room for one per rule and priority) the number of syscall
 * when it is named by number for abi and the table lacks it. */
static void collect_number(const struct abi_policy *abi, const char *syscall, uint32_t *nrs,
			   size_t *n)
{
	uint32_t nr;

	if (is_numbered(syscall) && syscall_nr(abi->arch, syscall, &nr) == 0 &&
	    !syscalls_find_nr(abi->known, abi->n_known, nr))
		nrs[(*n)++] = nr;
}

/* abi->known: the table, plus the numbers the rules name that the table
 * lacks (scmp-run.ini(5) SYSCALL NAMES: such a number is known, so the
 * default action applies to it, not the unknown-syscall action). A
 * [priority] line names none: it never changes which action a call gets. */
static int known_numbers(const struct rule_list *rules, struct abi_policy *abi)
{
	uint32_t *nrs;
	size_t n = 0, u = 0, t = 0;
	struct syscall *merged;

	abi->known = syscalls_list(abi->arch, &abi->n_known);
	nrs = calloc(rules->n + 1, sizeof(*nrs));
	if (!nrs)
		return -ENOMEM;
	for (size_t i = 0; i < rules->n; i++)
		if (!rules->v[i]->name_key) /* a name of the table is no number */
			collect_number(abi, rules->v[i]->syscall, nrs, &n);
	if (!n) {
		free(nrs);
		return 0;
	}
	qsort(nrs, n, sizeof(*nrs), cmp_u32);
	for (size_t i = 1; i < n; i++)
		if (nrs[i] != nrs[u])
			nrs[++u] = nrs[i];
	n = u + 1;
	merged = calloc(abi->n_known + n, sizeof(*merged));
	if (!merged) {
		free(nrs);
		return -ENOMEM;
	}
	for (size_t i = 0, k = 0; i < n || k < abi->n_known;) {
		if (k < abi->n_known && (i == n || abi->known[k].nr < nrs[i]))
			merged[t++] = abi->known[k++];
		else
			merged[t++] =
				(struct syscall){ .name_at = SYSCALL_NO_NAME, .nr = nrs[i++] };
	}
	free(nrs);
	abi->known = abi->known_owned = merged;
	abi->n_known = t;
	return 0;
}

/* What building learnt about each rule of the rule list. */
struct rule_mark {
	bool failed; /* reported once; not tried on further ABIs */
	bool found;  /* some ABI of the filter has the syscall */
};

/* The list of the known number at position k, made on first use. */
static struct rsys *rsys_at(struct abi_build *b, size_t k, uint32_t nr, const char *name,
			    int *ret_err)
{
	struct abi_policy *abi = b->abi;
	struct rsys *s;

	if (b->where[k] == SIZE_MAX) {
		*ret_err = -ENOMEM;
		s = array_grow(&abi->sys, &abi->n_sys, &b->cap_sys, sizeof(*s));
		if (!s)
			return NULL;
		s->nr = nr;
		s->name = name;
		b->where[k] = abi->n_sys - 1;
		b->cap_rules[abi->n_sys - 1] = 0;
	}
	return &abi->sys[b->where[k]];
}

/* where[] finds the list of a known number, so n rules cost O(n log n), not
 * O(n * syscalls). A number the table lacks is never dropped silently:
 * callers fail. */
struct rsys *policy_rsys_of(struct abi_build *b, uint32_t nr, const char *name, int *ret_err)
{
	const struct syscall *sc = policy_known(b->abi, nr);

	*ret_err = -EINVAL;
	return sc ? rsys_at(b, (size_t)(sc - b->abi->known), nr, name, ret_err) : NULL;
}

/* abi->sys is not sorted yet: where[] finds the list. */
struct rsys *policy_rsys_building(const struct abi_build *b, uint32_t nr)
{
	const struct syscall *sc = policy_known(b->abi, nr);
	size_t k = sc ? (size_t)(sc - b->abi->known) : SIZE_MAX;

	return k != SIZE_MAX && b->where[k] != SIZE_MAX ? &b->abi->sys[b->where[k]] : NULL;
}

/* Most syscalls get one rule: room for one first (a profile names hundreds
 * of syscalls, and their memory is touched at every launch). A full list
 * moves to twice the room in the arena; its old room stays there unused.
 * The slot is the caller's to fill whole: the room is not zeroed (a list
 * holds at most two slots per rule, so its size cannot overflow). */
static struct rrule *rrule_slot(struct abi_build *b, struct rsys *s)
{
	size_t *cap = &b->cap_rules[s - b->abi->sys];

	if (s->n_rules == *cap) {
		size_t c = *cap ? *cap * 2 : 1;
		struct rrule *grown = arena_alloc(b->lists, c * sizeof(*grown));

		if (!grown)
			return NULL;
		if (s->n_rules)
			memcpy(grown, s->rules, s->n_rules * sizeof(*grown));
		s->rules = grown;
		*cap = c;
	}
	return &s->rules[s->n_rules++];
}

/* Add rr to the rules of nr, whose position in b->abi->known is k
 * (SIZE_MAX: not known yet). Returns 0, -ENOMEM, or -EINVAL for a number
 * the table lacks. */
static int add_rrule(struct abi_build *b, uint32_t nr, const char *name, size_t k,
		     const struct rrule *rr)
{
	struct rsys *s;
	struct rrule *r;
	int err;

	if (k != SIZE_MAX)
		s = rsys_at(b, k, nr, name, &err);
	else
		s = policy_rsys_of(b, nr, name, &err);
	if (!s)
		return err;
	r = rrule_slot(b, s);
	if (!r)
		return -ENOMEM;
	*r = *rr;
	return 0;
}

int policy_cmp_rrule(const void *a, const void *b)
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
	struct rsys *sorted = malloc((abi->n_sys + 1) * sizeof(*sorted)); /* n_sys written */
	size_t n = 0;

	if (!sorted)
		return -ENOMEM;
	for (size_t k = 0; k < abi->n_known; k++)
		if (where[k] != SIZE_MAX)
			sorted[n++] = abi->sys[where[k]];
	free(abi->sys);
	abi->sys = sorted;
	abi->n_sys = n;
	return 0;
}

/* Drop the lists of numbers that only built-in rules with the default's
 * result have: they decide like the default (a built-in rule that matches
 * where the default applies anyway adds nothing to the program). */
static void drop_idle_builtins(struct abi_build *b, size_t n_written)
{
	struct abi_policy *abi = b->abi;

	for (size_t k = 0; k < abi->n_known; k++) {
		struct rsys *s = b->where[k] != SIZE_MAX ? &abi->sys[b->where[k]] : NULL;
		bool idle = s != NULL;

		for (size_t i = 0; s && i < s->n_rules && idle; i++)
			idle = s->rules[i].src->seq >= n_written &&
			       s->rules[i].ret == abi->default_ret;
		if (!idle)
			continue;
		for (size_t i = 0; i < s->n_rules; i++)
			rcmps_free(s->rules[i].cmps, s->rules[i].n_cmps);
		*s = (struct rsys){ 0 }; /* its list stays in the arena */
		b->where[k] = SIZE_MAX;
	}
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
/* pairs of one result passed over per syscall: a bound on the time for
 * any number of rules (a JSON entry may name one syscall 100,000 times);
 * past it the search ends without a warning, which only informs */
#define TIE_VISITS_MAX (100 * TIE_PAIRS_MAX)

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
 * Returns the later rule of an overlapping pair (the earlier one in
 * *ret_other), s->n_rules if none, or -1 if the shape does not fit.
 */
static ssize_t single_arg_tie(const struct rsys *s, size_t from, size_t to, size_t *ret_other)
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
		    s->rules[all[k].rule].ret != s->rules[all[best].rule].ret) {
			bool k_later = all[k].rule > all[best].rule;

			ret = (ssize_t)(k_later ? all[k].rule : all[best].rule);
			*ret_other = k_later ? all[best].rule : all[k].rule;
		}
		if (all[k].iv.hi > all[best].iv.hi)
			best = k;
	}
	free(all);
	return ret;
}

void policy_tie_warning(const char *name, const struct rule *a, const struct rule *b,
			struct diag *d)
{
	char ba[64], bb[64];

	diag_warning(d, &b->loc,
		     "'%s' rules with %s here and %s at %s:%u: where both match, the one written "
		     "first wins",
		     name, action_format(&b->action, bb, sizeof(bb)),
		     action_format(&a->action, ba, sizeof(ba)), a->loc.file, a->loc.line);
}

static void tie_warning(const struct rsys *s, const struct rrule *a, const struct rrule *b,
			struct diag *d)
{
	policy_tie_warning(s->name, a->src, b->src, d);
}

/* scmp-run.ini(5) MEANING OF A PROFILE: rules with one action but different data (errno(EACCES) and
 * errno(EPERM)) that can match the same call: the first written wins; say
 * so once per syscall. s->rules is sorted by action, then written order. */
static void warn_ties(const struct rsys *s, size_t n_written, struct diag *d)
{
	size_t visits = 0;

	for (size_t from = 0, to, end; from < s->n_rules; from = to) {
		size_t pairs = 0, other = 0;
		ssize_t hit;

		for (to = from + 1; to < s->n_rules; to++)
			if (s->rules[to].src->action.kind != s->rules[from].src->action.kind)
				break;
		/* A built-in rule (written last in its group) losing a tie is the
		 * profile overriding it on purpose (scmp-run.ini(5) BUILT-IN RULES). */
		for (end = to; end > from && s->rules[end - 1].src->seq >= n_written; end--)
			;
		hit = end > from ? single_arg_tie(s, from, end, &other) : (ssize_t)s->n_rules;
		if (hit >= 0) {
			if ((size_t)hit < s->n_rules) {
				tie_warning(s, &s->rules[other], &s->rules[hit], d);
				return;
			}
			continue;
		}
		for (size_t i = from; i < end; i++)
			for (size_t j = i + 1; j < end; j++) {
				const struct rrule *a = &s->rules[i], *b = &s->rules[j];

				if (a->ret == b->ret) {
					if (++visits < TIE_VISITS_MAX)
						continue;
					return;
				}
				if (++pairs < TIE_PAIRS_MAX && !rrule_overlap(a, b))
					continue;
				tie_warning(s, a, b, d);
				return;
			}
	}
}

/* Order candidates, drop what can never be reached, warn about ties between
 * the n_written rules of the profile. */
static void finish_rsys(struct rsys *s, size_t n_written, struct diag *d, bool warn)
{
	size_t keep = s->n_rules;

	if (s->n_rules < 2) /* most syscalls: nothing to order, nor to tie */
		return;
	qsort(s->rules, s->n_rules, sizeof(*s->rules), policy_cmp_rrule);
	if (warn)
		warn_ties(s, n_written, d);
	for (size_t i = 0; i < s->n_rules; i++)
		if (!s->rules[i].n_cmps) {
			keep = i + 1;
			break;
		}
	for (size_t i = keep; i < s->n_rules; i++)
		rcmps_free(s->rules[i].cmps, s->rules[i].n_cmps);
	s->n_rules = keep;
}

/* ---- building the policy ---- */

/* Do a and b resolve alike on every ABI? (An errno name is resolved per
 * ABI, so the name must be the same string, as the rules of one key have.) */
static bool same_action(const struct action *a, const struct action *b)
{
	return a->kind == b->kind && a->data == b->data && a->errno_name == b->errno_name;
}

/*
 * Whether the ABI being built (after the n_earlier ABIs of earlier) says the
 * warnings about name: the first ABI of the filter that has it does, so
 * that a syscall of the second ABI alone (x86's mmap2 or socketcall next to
 * x86_64) is warned about too, and one of both ABIs once.
 */
static bool warns_for(const struct arch *const *earlier, size_t n_earlier, const char *name)
{
	uint32_t nr;

	for (size_t i = 0; i < n_earlier; i++)
		if (syscalls_lookup_name(earlier[i], name, &nr) == 0)
			return false;
	return true;
}

static int build_abi_rules(const struct ruleset *rs, const struct rule_list *rules,
			   struct abi_build *b, bool multi, const struct arch *const *earlier,
			   size_t n_earlier, struct diag *d, struct rule_mark *marks)
{
	struct abi_policy *abi = b->abi;
	const struct arch *a = abi->arch;
	const struct sct_table *table = syscalls_table(a);
	const struct rule *last = NULL; /* the last rule whose action resolved, */
	uint32_t last_ret = 0;		/* ... to this */
	struct action unknown;
	int r;

	policy_unknown_action(&rs->attrs, &unknown);
	if (action_ret(&rs->attrs.default_action, a, &abi->default_ret) < 0 ||
	    action_ret(&unknown, a, &abi->unknown_ret) < 0) {
		diag_error(d, NULL,
			   "errno name of the default or unknown-syscall action unknown on %s",
			   a->name);
		return -EINVAL;
	}
	for (size_t i = 0; i < rules->n; i++) {
		const struct rule *rule = rules->v[i];
		struct resolve_ctx ctx = { .arch = a, .rule = rule, .d = d, .multi_abi = multi };
		struct rrule rr = { .src = rule };
		const char *name;
		uint32_t nr;
		size_t k;

		if (marks[i].failed || rule_number(abi, table, rule, &nr, &name, &k) < 0)
			continue;
		marks[i].found = true;
		/* the rules of one key come together, with one action */
		if (last && same_action(&last->action, &rule->action)) {
			rr.ret = last_ret;
		} else if (action_ret(&rule->action, a, &rr.ret) < 0) {
			rerr(&ctx, "errno name '%s' unknown", rule->action.errno_name);
			marks[i].failed = true;
			continue;
		}
		last = rule;
		last_ret = rr.ret;
		r = policy_resolve_conj(&ctx, &rr.cmps, &rr.n_cmps);
		if (r < 0) {
			marks[i].failed = true;
			if (r == -ENOMEM)
				return r;
			continue;
		}
		if (r == RESOLVED_NEVER) {
			if (warns_for(earlier, n_earlier, rule->syscall))
				diag_warning(d, &rule->loc,
					     "this condition of '%s' can never be true",
					     rule->syscall);
			continue;
		}
		r = add_rrule(b, nr, name ? name : rule->syscall, k, &rr);
		if (r < 0) {
			rcmps_free(rr.cmps, rr.n_cmps);
			return r;
		}
	}
	for (size_t i = 0; i < abi->n_sys; i++)
		finish_rsys(&abi->sys[i], rs->n_rules, d,
			    warns_for(earlier, n_earlier, abi->sys[i].name));
	for (int k = 0; k < MUX_COUNT; k++) {
		const char *mux = arch_mux_name(a, (enum mux_kind)k);
		bool warn = mux && warns_for(earlier, n_earlier, mux);

		r = policy_add_mux_rules(rules, b, (enum mux_kind)k, rs->n_rules, warn ? d : NULL);
		if (r < 0)
			return r;
	}
	drop_idle_builtins(b, rs->n_rules);
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

			if (syscall_nr(a, rs->prios[i].syscall, &nr) < 0)
				continue;
			sc = policy_known(abi, nr);
			if (sc)
				abi->prio_known[sc - abi->known] = rs->prios[i].prio;
		}
	}
	return 0;
}

static int build_abi(const struct ruleset *rs, const struct rule_list *rules,
		     struct abi_policy *abi, struct arena *lists, bool multi,
		     const struct arch *const *earlier, size_t n_earlier, struct diag *d,
		     struct rule_mark *marks)
{
	struct abi_build b = { .abi = abi, .lists = lists };
	int r;

	r = known_numbers(rules, abi);
	if (r < 0)
		return r;
	b.where = malloc((abi->n_known + 1) * sizeof(*b.where));
	b.cap_rules = calloc(abi->n_known + 1, sizeof(*b.cap_rules));
	if (!b.where || !b.cap_rules) {
		r = -ENOMEM;
		goto out;
	}
	memset(b.where, 0xff, (abi->n_known + 1) * sizeof(*b.where)); /* SIZE_MAX: no slot yet */
	/* a list per rule and known number at most, and the multiplexers':
	 * allocated at once */
	r = array_reserve(&abi->sys, 0, &b.cap_sys, sizeof(*abi->sys),
			  (rules->n < abi->n_known ? rules->n : abi->n_known) + MUX_COUNT);
	if (r < 0)
		goto out;
	r = build_abi_rules(rs, rules, &b, multi, earlier, n_earlier, d, marks);
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

/*
 * A syscall named by number that is an error (true, reported): a bare
 * number in a filter for several ABIs, or a number its ABI never sees
 * (scmp-run.ini(5) SYSCALL NAMES). x86_64 and x32 share one AUDIT_ARCH
 * value, and the filter sends a number to x32 by its bit 0x40000000, -1
 * excepted (arch_of_call()): a rule on an x86_64 number with that bit, or
 * on an x32 number without it, would never decide a call, and a denial
 * written so would stop nothing.
 */
static bool numbered_error(const char *syscall, const struct src_loc *loc, size_t n_abis,
			   const struct arch *const *arches, struct diag *d)
{
	const struct arch *by, *seen;
	const char *err;
	uint32_t nr;

	if (syscalls_parse_numbered(syscall, &by, &nr, &err) < 0)
		return false;
	if (!by && n_abis > 1) {
		diag_error(d, loc,
			   "syscall number %s in a filter for several ABIs: write ABI/NUMBER, "
			   "e.g. '%s/%s'",
			   syscall, arches[0]->name, syscall);
		return true;
	}
	if (!by)
		by = arches[0];
	seen = arch_of_call(by->audit_arch, nr);
	if (seen == by)
		return false;
	diag_error(d, loc,
		   "syscall number %s is never a call of the %s ABI: a call with this number "
		   "is %s's (x32's numbers have bit 0x40000000 set, and -1 is x86_64's)",
		   syscall, by->name, seen ? seen->name : "another ABI");
	/* x32 without its bit: x32's call was meant, with the bit */
	if (by->id == ARCH_X32 && nr != UINT32_MAX)
		diag_hint(d, loc, "write 'x32/%" PRIu32 "', as --list-syscalls prints it",
			  nr | ARCH_X32_SYSCALL_BIT);
	else if (seen)
		diag_hint(d, loc, "write '%s/%" PRIu32 "'", seen->name, nr);
	return true;
}

bool policy_reaches(const struct policy *p, const char *name)
{
	uint32_t nr;

	for (size_t a = 0; a < p->n_abis; a++)
		if (syscalls_lookup_name(p->abis[a].arch, name, &nr) == 0)
			return true;
	for (size_t a = 0; a < p->n_abis; a++)
		if (arch_mux_subcall(p->abis[a].arch, name, NULL))
			return true;
	return false;
}

/* A condition on a syscall that no ABI of the filter has (mmap2 in an
 * x86_64 filter) would never be checked: a typo must not pass silently. */
static void no_abi_error(const struct policy *p, const struct rule *rule, struct diag *d)
{
	char abis[128] = "";
	size_t len = 0;

	for (size_t i = 0; i < p->n_abis && len < sizeof(abis); i++)
		len += (size_t)snprintf(abis + len, sizeof(abis) - len, "%s%s", i ? " " : "",
					p->abis[i].arch->name);
	diag_error(d, &rule->loc,
		   "condition on '%s', which no ABI of the filter has (%s): it would never be "
		   "checked",
		   rule->syscall, abis);
	diag_hint(d, &rule->loc, "write '%s?' if the rule is meant for other architectures",
		  rule->syscall);
}

int policy_build(const struct ruleset *rs, const struct arch *native, struct diag *d,
		 struct policy **ret)
{
	const struct arch *arches[ARCH_COUNT];
	struct policy *p = NULL;
	struct rule_mark *marks = NULL;
	struct rule_list rules = { 0 };
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
	for (size_t i = 0; i < rs->n_prios; i++) {
		if (!syscalls_known(rs->prios[i].syscall) && !is_numbered(rs->prios[i].syscall))
			diag_error(d, &rs->prios[i].loc, "unknown syscall '%s'",
				   rs->prios[i].syscall);
		numbered_error(rs->prios[i].syscall, &rs->prios[i].loc, n_abis, arches, d);
	}

	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	r = policy_add_builtins(rs, p, arches, n_abis, d);
	if (r < 0)
		goto fail;
	/* the rules as written, then the built-in ones */
	rules.v = calloc(rs->n_rules + p->n_builtins + 1, sizeof(*rules.v));
	marks = calloc(rs->n_rules + p->n_builtins + 1, sizeof(*marks));
	p->abis = calloc(n_abis, sizeof(*p->abis));
	if (!rules.v || !marks || !p->abis) {
		r = -ENOMEM;
		goto fail;
	}
	for (size_t i = 0; i < rs->n_rules; i++) {
		const struct rule *rule = &rs->rules[i], *prev = i ? rule - 1 : NULL;

		/* the "||" alternatives of one key: said once */
		if (prev && prev->loc.file == rule->loc.file && prev->loc.line == rule->loc.line &&
		    !strcmp(prev->syscall, rule->syscall))
			marks[rules.n].failed = marks[rules.n - 1].failed;
		else
			marks[rules.n].failed =
				!rule->name_key &&
				numbered_error(rule->syscall, &rule->loc, n_abis, arches, d);
		rules.v[rules.n++] = rule;
	}
	for (size_t i = 0; i < p->n_builtins; i++)
		rules.v[rules.n++] = &p->builtins[i];
	if (action_ret(&rs->attrs.bad_arch_action, arches[0], &p->bad_arch_ret) < 0) {
		diag_error(d, NULL, "errno name of the bad-arch action unknown on %s",
			   arches[0]->name);
		r = -EINVAL;
		goto fail;
	}
	for (size_t i = 0; i < n_abis; i++) {
		p->abis[i].arch = arches[i];
		p->n_abis++;
		r = build_abi(rs, &rules, &p->abis[i], &p->lists, n_abis > 1, arches, i, d, marks);
		if (r < 0)
			goto fail;
	}
	/* A name no ABI of the filter has must exist somewhere, and a condition
	 * on it would never be checked (scmp-run.ini(5) SYSCALL NAMES). */
	for (size_t i = 0; i < rules.n; i++) {
		const struct rule *rule = rules.v[i];
		const struct rule *prev = i ? rules.v[i - 1] : NULL;

		if (marks[i].found || rule->optional || is_numbered(rule->syscall))
			continue;
		/* the "||" alternatives of one key: said once */
		if (prev && !marks[i - 1].found && prev->loc.file == rule->loc.file &&
		    prev->loc.line == rule->loc.line && !strcmp(prev->syscall, rule->syscall))
			continue;
		if (!syscalls_known(rule->syscall))
			diag_error(d, &rule->loc, "unknown syscall '%s'", rule->syscall);
		else if (rule->conj.n_cmps && !policy_reaches(p, rule->syscall))
			no_abi_error(p, rule, d);
	}
	if (d->n_errors > errors_before) {
		r = -EINVAL;
		goto fail;
	}
	free(marks);
	free(rules.v);
	*ret = p;
	return 0;
fail:
	free(marks);
	free(rules.v);
	policy_free(p);
	return r;
}
