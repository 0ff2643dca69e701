/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The rule engine. A ruleset is what a profile says (attributes, rules on
 * syscall names with unresolved conditions, priorities); rules_build()
 * resolves it for every ABI of the filter into a policy: per syscall number,
 * the typed, ordered candidate rules. The policy is what the BPF and PFC
 * back-ends print, and policy_decide() is its reference semantics.
 */
#pragma once

#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "action.h"
#include "arch.h"
#include "cond.h"
#include "diag.h"
#include "ivset.h"
#include "syscalls.h"

#define RULES_PRIORITY_MAX 255u
#define ARCH_NATIVE_BIT	   (1u << 31) /* in ruleset attrs.arches: "native" */

struct filter_attrs {
	struct action default_action;
	bool has_default_action; /* required: rules_build() fails without it */
	struct action bad_arch_action;
	struct action unknown_action;
	bool has_unknown_action; /* else unknown numbers get default_action */
	uint32_t arches;	 /* bits (1u << enum arch_id), ARCH_NATIVE_BIT; 0 = native */
	bool no_new_privs;
	bool tsync;
	bool log;
	bool spec_allow;
};

/* One rule as written: one syscall name, one action, one conjunction. */
struct rule {
	char *syscall; /* owned */
	bool optional; /* written as "name?" */
	struct action action;
	struct conj conj; /* n_cmps == 0: unconditional */
	struct src_loc loc;
	unsigned seq; /* order written in the profile (ties, stable output) */
};

struct priority {
	char *syscall;
	unsigned prio;
	struct src_loc loc;
};

struct ruleset {
	struct filter_attrs attrs;
	struct rule *rules;
	size_t n_rules;
	struct priority *prios;
	size_t n_prios;
	char **files; /* interned source file names that locs point at */
	size_t n_files;
};

/* Attributes start as: no default action, bad-arch kill-process, native
 * only, no_new_privs on, all flags off. */
struct ruleset *ruleset_new(void);
void ruleset_free(struct ruleset *rs);

/* A copy of file that lives as long as rs (for src_loc.file). NULL on ENOMEM. */
const char *ruleset_intern_file(struct ruleset *rs, const char *file);

/* Add a rule; conj may be NULL (unconditional) and is deep-copied. Names
 * are checked by rules_build(), not here. Returns 0 or -ENOMEM. */
int ruleset_add(struct ruleset *rs, const char *syscall, bool optional, const struct action *act,
		const struct conj *conj, const struct src_loc *loc);

/* Set the dispatch priority hint of a syscall (0..RULES_PRIORITY_MAX). The
 * last one written wins. Returns 0, -ERANGE or -ENOMEM. */
int ruleset_set_priority(struct ruleset *rs, const char *syscall, unsigned prio,
			 const struct src_loc *loc);

/* ---- the resolved policy ---- */

/* A test of one argument on one ABI, in the argument's own domain. Values
 * are "keys": for signed classes the sign bit of the argument's width is
 * flipped so that unsigned order is the signed order; widths of 32 bits
 * look at the low half of the register only. */
enum rcmp_kind {
	RCMP_IN,      /* key(arg) lies in one of ivs[] (sorted, disjoint, not adjacent) */
	RCMP_MASK_EQ, /* (arg & mask) == value, on the argument's width */
	RCMP_MASK_NE,
};

struct rcmp {
	uint8_t arg;	/* slot 0..5 */
	uint8_t width;	/* 16, 32 or 64: the low bits of the register compared */
	bool is_signed; /* keys have the sign bit flipped */
	enum rcmp_kind kind;
	struct interval *ivs;
	size_t n_ivs;
	uint64_t mask, value;
};

/* One candidate rule for one syscall number on one ABI. */
struct rrule {
	const struct rule *src; /* the rule as written (loc, seq, action) */
	uint32_t ret;		/* SECCOMP_RET_* value on this ABI */
	struct rcmp *cmps;	/* ANDed; n_cmps == 0: always matches */
	size_t n_cmps;
	bool via_mux; /* synthesised for a multiplexer sub-call */
};

/* The rules of one syscall number: in decision order (most restrictive
 * first, then written first); nothing after the first unconditional rule. */
struct rsys {
	uint32_t nr;
	const char *name;
	struct rrule *rules;
	size_t n_rules;
	unsigned prio;
};

struct abi_policy {
	const struct arch *arch;
	uint32_t default_ret;
	uint32_t unknown_ret;
	struct rsys *sys; /* numbers that have rules, sorted by nr */
	size_t n_sys;
	const struct syscall *known; /* the table: numbers not listed are unknown */
	size_t n_known;
	unsigned *prio_known; /* priority of each known number (same index), may be NULL */
};

struct policy {
	struct abi_policy *abis; /* in the order the program checks them */
	size_t n_abis;
	uint32_t bad_arch_ret;
	struct filter_attrs attrs;
	const struct ruleset *rs; /* borrowed */
};

/*
 * Resolve rs for its ABIs (native = the ABI "native" stands for). Every
 * problem is reported to d with its location; on any error returns -EINVAL
 * and *ret is NULL. Warnings (ties between different data of one action)
 * are added to d as well. The policy borrows rs.
 */
int rules_build(const struct ruleset *rs, const struct arch *native, struct diag *d,
		struct policy **ret);
void policy_free(struct policy *p);

enum decision_why {
	DECIDE_RULE,	 /* a rule matched */
	DECIDE_DEFAULT,	 /* no rule matched: default-action */
	DECIDE_UNKNOWN,	 /* the number is not in the table: unknown-syscall-action */
	DECIDE_BAD_ARCH, /* the ABI is not in the filter */
};

struct decision {
	uint32_t ret;
	enum decision_why why;
	const struct rrule *rule;     /* DECIDE_RULE only */
	const struct abi_policy *abi; /* NULL for DECIDE_BAD_ARCH */
};

/* The reference semantics of SPEC 2.6, straight from the policy (no BPF). */
void policy_decide(const struct policy *p, const struct seccomp_data *sd, struct decision *ret);

/* The largest value of a width (16, 32 or 64 bits). */
static inline uint64_t width_max(unsigned width)
{
	return width >= 64 ? UINT64_MAX : (1ull << width) - 1;
}

/* The sign bit of a width. */
static inline uint64_t width_sign(unsigned width)
{
	return 1ull << (width - 1);
}

/* True if an argument register value passes the test. */
bool rcmp_match(const struct rcmp *c, uint64_t arg);

/* The rules of a number on an ABI; NULL if it has none. */
const struct rsys *policy_rsys(const struct abi_policy *abi, uint32_t nr);

/* The ABI of p that handles (audit arch, nr); NULL means bad arch. */
const struct abi_policy *policy_abi_for(const struct policy *p, uint32_t audit_arch, uint32_t nr);
