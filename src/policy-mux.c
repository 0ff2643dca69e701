/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Multiplexers (scmp-run.ini(5) MEANING OF A PROFILE): the rules a call
 * reached through socketcall or ipc gets, where the sub-call's arguments
 * are hidden behind a pointer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "policy-build.h"

#define COVER_STEPS_MAX 100000 /* work on one coverage question before answering "no" */

/* The interval set rule r tests slot on, or NULL when r leaves slot free. */
static const struct rcmp *slot_test(const struct rrule *r, unsigned slot)
{
	for (size_t i = 0; i < r->n_cmps; i++)
		if (r->cmps[i].arg == slot)
			return &r->cmps[i];
	return NULL;
}

static bool slot_has(const struct rcmp *c, uint64_t key)
{
	if (!c)
		return true;
	for (size_t i = 0; i < c->n_ivs; i++)
		if (key >= c->ivs[i].lo && key <= c->ivs[i].hi)
			return true;
	return false;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Do the rules in[0..n) (interval tests only) match every value of the slots
 * from slot on? The values of a slot fall into segments between the bounds
 * of the rules' sets; each segment is covered if the rules containing it
 * cover the remaining slots. *steps bounds the work: past it, "no".
 */
static bool boxes_cover(const struct rrule *const *in, size_t n, unsigned slot,
			const uint64_t max[SYSCALL_ARGS_MAX], size_t *steps)
{
	const struct rrule **sub = NULL;
	uint64_t *bounds = NULL;
	size_t n_bounds = 0, cap = 2;
	bool covered = false;

	while (slot < SYSCALL_ARGS_MAX && !max[slot])
		slot++;
	for (size_t i = 0; i < n; i++) { /* a rule free on every remaining slot */
		bool free_rest = true;

		for (unsigned s = slot; s < SYSCALL_ARGS_MAX && free_rest; s++)
			free_rest = !max[s] || !slot_test(in[i], s);
		if (free_rest)
			return true;
	}
	if (!n || slot >= SYSCALL_ARGS_MAX || ++*steps > COVER_STEPS_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		const struct rcmp *c = slot_test(in[i], slot);

		cap += c ? 2 * c->n_ivs : 0;
	}
	bounds = malloc(cap * sizeof(*bounds));
	sub = malloc((n + 1) * sizeof(*sub));
	if (!bounds || !sub)
		goto out;
	bounds[n_bounds++] = 0;
	for (size_t i = 0; i < n; i++) {
		const struct rcmp *c = slot_test(in[i], slot);

		for (size_t j = 0; c && j < c->n_ivs; j++) {
			bounds[n_bounds++] = c->ivs[j].lo;
			if (c->ivs[j].hi < max[slot])
				bounds[n_bounds++] = c->ivs[j].hi + 1;
		}
	}
	qsort(bounds, n_bounds, sizeof(*bounds), cmp_u64);
	covered = true;
	for (size_t i = 0; i < n_bounds && covered; i++) {
		size_t m = 0;

		if (i && bounds[i] == bounds[i - 1])
			continue;
		for (size_t j = 0; j < n; j++)
			if (slot_has(slot_test(in[j], slot), bounds[i]))
				sub[m++] = in[j];
		covered = boxes_cover(sub, m, slot + 1, max, steps);
	}
out:
	free(bounds);
	free(sub);
	return covered;
}

/* Do the rules of s match a call whatever its arguments are? Exact for
 * interval tests; a rule with a mask test is left out (so the answer can
 * only be a fail-closed "no"). */
static bool rsys_covers(const struct rsys *s)
{
	uint64_t max[SYSCALL_ARGS_MAX] = { 0 };
	const struct rrule **boxes = calloc(s->n_rules + 1, sizeof(*boxes));
	size_t n = 0, steps = 0;
	bool covered;

	if (!boxes)
		return false;
	for (size_t i = 0; i < s->n_rules; i++) {
		const struct rrule *r = &s->rules[i];
		bool intervals = true;

		for (size_t j = 0; j < r->n_cmps; j++)
			intervals &= r->cmps[j].kind == RCMP_IN;
		if (!intervals)
			continue;
		boxes[n++] = r;
		for (size_t j = 0; j < r->n_cmps; j++)
			max[r->cmps[j].arg] = width_max(r->cmps[j].width);
	}
	covered = boxes_cover(boxes, n, 0, max, &steps);
	free(boxes);
	return covered;
}

/* The candidate that wins between two (scmp-run.ini(5) MEANING OF A PROFILE):
 * the stricter action; between equals, the one written first. */
static const struct rrule *winner(const struct rrule *a, const struct rrule *b)
{
	int ra = action_ret_rank(a->ret), rb = action_ret_rank(b->ret);

	if (ra != rb)
		return ra > rb ? a : b;
	return a->src->seq <= b->src->seq ? a : b;
}

/* What the hidden arguments of one sub-call can produce. */
struct hidden {
	struct rrule first; /* the strictest rule that can match, the first written among equals */
	bool any;	    /* the sub-call has rules at all */
	bool covers;	    /* its rules match whatever the hidden arguments are */
};

/* first and covers from rules in decision order (s->rules[0] first). */
static void hidden_from(const struct rsys *s, struct hidden *ret)
{
	if (!s->n_rules)
		return;
	ret->first = ret->any ? *winner(&ret->first, &s->rules[0]) : s->rules[0];
	ret->first.cmps = NULL;
	ret->first.n_cmps = 0;
	ret->any = true;
	ret->covers |= !s->rules[s->n_rules - 1].n_cmps || rsys_covers(s);
}

/*
 * The rules of sub-call name on this ABI: which one can match first, and
 * whether they match every argument value. Where the ABI has the sub-call
 * as a syscall of its own, its rules are already typed and in decision
 * order (conditions that can never be true dropped). Where it has not
 * (i386 reaches accept only through socketcall), the conditions are typed
 * here with the syscall's prototype in this ABI's registers; one that
 * cannot be typed counts as able to match, but not as covering anything.
 */
static int hidden_outcomes(const struct rule_list *rules, struct abi_build *b, const char *name,
			   struct hidden *ret)
{
	const struct arch *a = b->abi->arch;
	struct rsys typed = { .name = name };
	struct diag scratch; /* the conditions are reported where they are typed for real */
	size_t cap = 0, n_all;
	uint32_t nr;
	int r = 0;

	*ret = (struct hidden){ 0 };
	if (syscalls_lookup_name(a, name, &nr) == 0) {
		const struct rsys *s = policy_rsys_building(b, nr);

		if (s)
			hidden_from(s, ret);
		return 0;
	}
	diag_init(&scratch);
	for (size_t i = 0; i < rules->n && r >= 0; i++) {
		const struct rule *rule = rules->v[i];
		struct resolve_ctx ctx = {
			.arch = a, .rule = rule, .d = &scratch, .by_proto = true
		};
		struct rrule rr = { .src = rule }, *slot;

		if (strcmp(rule->syscall, name))
			continue;
		if (action_ret(&rule->action, a, &rr.ret) < 0)
			continue; /* reported where the rule is resolved */
		r = policy_resolve_conj(&ctx, &rr.cmps, &rr.n_cmps);
		if (r == RESOLVED_NEVER || r == -ENOMEM)
			continue;
		if (r < 0) { /* untyped: can match, covers nothing */
			ret->first = ret->any ? *winner(&ret->first, &rr) : rr;
			ret->any = true;
			r = 0;
			continue;
		}
		slot = array_grow(&typed.rules, &typed.n_rules, &cap, sizeof(*slot));
		if (!slot) {
			rcmps_free(rr.cmps, rr.n_cmps);
			r = -ENOMEM;
			continue;
		}
		*slot = rr;
	}
	n_all = typed.n_rules;
	if (r >= 0) {
		if (typed.n_rules > 1)
			qsort(typed.rules, typed.n_rules, sizeof(*typed.rules), policy_cmp_rrule);
		for (size_t i = 0; i < typed.n_rules; i++)
			if (!typed.rules[i].n_cmps) /* nothing after it can match first */
				typed.n_rules = i + 1;
		hidden_from(&typed, ret);
	}
	for (size_t i = 0; i < n_all; i++)
		rcmps_free(typed.rules[i].cmps, typed.rules[i].n_cmps);
	free(typed.rules);
	diag_clear(&scratch);
	return r < 0 ? r : 0;
}

/* A copy of tests[0..n) followed by "call == value" on the multiplexer's
 * call argument; NULL on ENOMEM. */
static struct rcmp *with_call_test(const struct rcmp *tests, size_t n, enum mux_kind kind,
				   uint32_t call)
{
	struct rcmp *out = calloc(n + 1, sizeof(*out));

	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		out[i] = tests[i];
		out[i].ivs = NULL;
		if (tests[i].n_ivs) {
			out[i].ivs = malloc(tests[i].n_ivs * sizeof(*out[i].ivs));
			if (!out[i].ivs) {
				rcmps_free(out, i);
				return NULL;
			}
			memcpy(out[i].ivs, tests[i].ivs, tests[i].n_ivs * sizeof(*out[i].ivs));
		}
	}
	out[n] = (struct rcmp){ .arg = 0,
				.width = 32,
				.kind = RCMP_MASK_EQ,
				.mask = arch_mux_call_mask(kind),
				.value = call };
	return out;
}

/* Append a synthesised rule (its tests are moved into list). */
static int push_mux_rule(struct rrule **list, size_t *n, size_t *cap, const struct rrule *rr)
{
	struct rrule *slot = array_grow(list, n, cap, sizeof(*slot));

	if (!slot) {
		rcmps_free(rr->cmps, rr->n_cmps);
		return -ENOMEM;
	}
	*slot = *rr;
	return 0;
}

/*
 * Do the rule own on the multiplexer and first, a sub-call's candidate, tie
 * on the sub-call's number call: one action kind, other data, and a call
 * that matches both (own's tests on the call argument pass call itself;
 * first's arguments are hidden, so some call can match it)? Only rules of
 * the profile: a built-in rule losing a tie is the profile overriding it.
 */
static bool ties(const struct rrule *own, const struct rrule *first, uint32_t call,
		 size_t n_written)
{
	if (own->src->action.kind != first->src->action.kind || own->ret == first->ret ||
	    own->src->seq >= n_written || first->src->seq >= n_written)
		return false;
	for (size_t i = 0; i < own->n_cmps; i++)
		if (own->cmps[i].arg == 0 && !rcmp_match(&own->cmps[i], call))
			return false;
	return true;
}

/*
 * Multiplexer sub-calls (scmp-run.ini(5) MEANING OF A PROFILE): a rule on
 * "socket" covers socketcall(SYS_SOCKET, args) too, but there socket's
 * arguments sit behind a pointer the filter cannot read (for ipc, every
 * sub-call argument counts as hidden). The result there is the strictest
 * one any hidden values could produce: with R the sub-call's rules, S the
 * first of them that can match (strictest action, written first among
 * equals) and M the rules on the multiplexer itself (judged on its visible
 * arguments):
 *   - a rule M_i matches: the winner of M_i and S (the default cannot occur);
 *   - none matches: S, or the default when it is stricter than S and R does
 *     not match every argument value (the default counts as written after
 *     every rule).
 * As first-match rules on the multiplexer's number, before M's own: per
 * sub-call with rules, "M_i && call == k -> winner(M_i, S)" for each M_i in
 * order, then "call == k -> S" unless the default is the answer.
 */
int policy_add_mux_rules(const struct rule_list *rules, struct abi_build *b, enum mux_kind kind,
			 size_t n_written, struct diag *d)
{
	struct abi_policy *abi = b->abi;
	const struct arch *a = abi->arch;
	const struct mux_subcall *subs;
	struct rrule *list = NULL, *own_rules = NULL, *joined;
	size_t n = 0, cap = 0, n_subs, n_own = 0;
	struct rsys *mux;
	uint32_t mux_nr;
	bool warned = false; /* once per multiplexer, as per syscall */
	int r = 0;

	if (!arch_mux_name(a, kind) || syscalls_lookup_name(a, arch_mux_name(a, kind), &mux_nr) < 0)
		return 0;
	mux = policy_rsys_building(b, mux_nr);
	if (mux) {
		own_rules = mux->rules;
		n_own = mux->n_rules;
	}
	subs = arch_mux_subcalls(kind, &n_subs);
	for (size_t k = 0; k < n_subs && r >= 0; k++) {
		struct hidden h;
		const struct rrule *first = &h.first;

		r = hidden_outcomes(rules, b, subs[k].name, &h);
		if (r < 0 || !h.any)
			continue;
		for (size_t i = 0; i < n_own && r >= 0; i++) {
			const struct rrule *w = winner(&own_rules[i], first);
			struct rrule rr = { .src = w->src, .ret = w->ret, .via_mux = true };

			if (d && !warned && ties(&own_rules[i], first, subs[k].call, n_written)) {
				const struct rrule *l = w == first ? &own_rules[i] : first;

				policy_tie_warning(arch_mux_name(a, kind), w->src, l->src, d);
				warned = true;
			}

			rr.cmps = with_call_test(own_rules[i].cmps, own_rules[i].n_cmps, kind,
						 subs[k].call);
			rr.n_cmps = own_rules[i].n_cmps + 1;
			r = rr.cmps ? push_mux_rule(&list, &n, &cap, &rr) : -ENOMEM;
		}
		if (r < 0 ||
		    (!h.covers && action_ret_rank(first->ret) < action_ret_rank(abi->default_ret)))
			continue; /* none of M matches: the default */
		{
			struct rrule rr = { .src = first->src, .ret = first->ret, .via_mux = true };

			rr.cmps = with_call_test(NULL, 0, kind, subs[k].call);
			rr.n_cmps = 1;
			r = rr.cmps ? push_mux_rule(&list, &n, &cap, &rr) : -ENOMEM;
		}
	}
	if (r < 0 || !n)
		goto out;
	if (!mux) {
		mux = policy_rsys_of(b, mux_nr, arch_mux_name(a, kind), &r);
		if (!mux)
			goto out;
	}
	/* the sub-call rules first, then the multiplexer's own, in the arena
	 * of the lists (the list is complete: nothing adds to it later) */
	joined = arena_calloc(b->lists, n + n_own, sizeof(*joined));
	if (!joined) {
		r = -ENOMEM;
		goto out;
	}
	memcpy(joined, list, n * sizeof(*joined));
	if (n_own)
		memcpy(joined + n, own_rules, n_own * sizeof(*joined));
	free(list);
	mux->rules = joined;
	mux->n_rules = n + n_own;
	b->cap_rules[mux - abi->sys] = n + n_own;
	return 0;
out:
	for (size_t i = 0; i < n; i++)
		rcmps_free(list[i].cmps, list[i].n_cmps);
	free(list);
	return r;
}
