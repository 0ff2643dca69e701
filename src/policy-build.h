/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The resolver's private interface, shared by policy-build.c (names, types,
 * candidates in decision order), policy-builtins.c (the built-in rules) and
 * policy-mux.c (the multiplexers' sub-calls). No other module includes it.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy.h"

/* What resolving one rule's condition on one ABI needs. */
struct resolve_ctx {
	const struct arch *arch;
	const struct rule *rule;
	struct diag *d;
	bool multi_abi;	   /* name the ABI in messages */
	bool by_proto;	   /* a sub-call the ABI reaches only through a multiplexer */
	struct cond_at at; /* what is resolved, if its condition spans lines */
};

enum resolved {
	RESOLVED_OK,
	RESOLVED_NEVER, /* the condition can never be true */
};

/* The rules a policy is built from: the ruleset's, then the built-in ones. */
struct rule_list {
	const struct rule **v;
	size_t n;
};

/* One ABI's policy while it is built. Every number with rules is a known
 * one (rules resolve names through the table), so abi->sys has at most
 * n_known slots. */
struct abi_build {
	struct abi_policy *abi;
	struct arena *lists; /* the policy's: where rsys.rules[] live */
	size_t *where;	     /* per known index: its slot in abi->sys, or SIZE_MAX */
	size_t *cap_rules;   /* per slot of abi->sys: the capacity of its rules[] */
	size_t cap_sys;	     /* the capacity of abi->sys */
};

/*
 * Resolve ctx->rule's conjunction for ctx->arch: one interval test per
 * argument (ranges of one argument intersected), mask tests kept, tests
 * that are always true dropped. Returns < 0 on error (reported to ctx->d;
 * *ret is NULL), else enum resolved with the tests in *ret (owned by the
 * caller, NULL when the rule is unconditional).
 */
int policy_resolve_conj(const struct resolve_ctx *ctx, struct rcmp **ret, size_t *ret_n);

/* qsort() order of candidates: the strictest action first, then the one
 * written first (scmp-run.ini(5) MEANING OF A PROFILE). */
int policy_cmp_rrule(const void *a, const void *b);

/* The list of a known number nr, created empty on first use. NULL for a
 * number the table lacks or on ENOMEM; *ret_err says which (-EINVAL,
 * -ENOMEM). */
struct rsys *policy_rsys_of(struct abi_build *b, uint32_t nr, const char *name, int *ret_err);

/* The list of nr while the ABI is built, or NULL if it has none. */
struct rsys *policy_rsys_building(const struct abi_build *b, uint32_t nr);

/*
 * The multiplexer of kind on b's ABI (policy-mux.c): put its sub-calls'
 * rules in front of its own, for the result scmp-run.ini(5) MEANING OF A
 * PROFILE states. Every other number's list must be final (sorted, cut
 * after its first unconditional rule). With d, warns where a rule on the
 * multiplexer and a sub-call's rule tie (one action kind, other data; the
 * profile's n_written rules only). Returns 0 or -ENOMEM.
 */
int policy_add_mux_rules(const struct rule_list *rules, struct abi_build *b, enum mux_kind kind,
			 size_t n_written, struct diag *d);

/* The warning for b, written after a with a's action kind and other data,
 * where one call of name can match both: the rule written first wins. */
void policy_tie_warning(const char *name, const struct rule *a, const struct rule *b,
			struct diag *d);

/*
 * The built-in rules of rs into p->builtins (policy-builtins.c):
 * tty-injection (unless [hardening] says allow) and clone3 (when a rule
 * puts a condition on clone and none names clone3 itself: its flags are
 * behind a pointer, and libc falls back to clone), then the rules of the
 * [hardening] presets, for the ABIs of the filter (abis[0..n_abis)). Their
 * conditions live in p->lists. Returns 0, -EINVAL (reported to d) or
 * -ENOMEM.
 */
int policy_add_builtins(const struct ruleset *rs, struct policy *p, const struct arch *const *abis,
			size_t n_abis, struct diag *d);
