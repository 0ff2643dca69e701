/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The resolved policy: per ABI and syscall number, the typed, ordered
 * candidate rules of a ruleset (built by policy_build()). It is what the BPF
 * and PFC back-ends print, and policy_decide() is its reference semantics.
 */
#pragma once

#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch.h"
#include "arena.h"
#include "diag.h"
#include "ivset.h"
#include "ruleset.h"
#include "syscalls.h"

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
};

struct abi_policy {
	const struct arch *arch;
	uint32_t default_ret;
	uint32_t unknown_ret;
	struct rsys *sys; /* numbers that have rules, sorted by nr */
	size_t n_sys;
	const struct syscall *known; /* the table: numbers not listed are unknown */
	size_t n_known;
	/* the table plus the numbers the profile names that it lacks
	 * (SYSCALL_NO_NAME), when there are any: known points here (owned) */
	struct syscall *known_owned;
	unsigned *prio_known; /* priority of each known number (same index), may be NULL */
};

struct policy {
	struct abi_policy *abis; /* in the order the program checks them */
	size_t n_abis;
	uint32_t bad_arch_ret;
	/* The built-in rules this profile got (scmp-run.ini(5) BUILT-IN RULES),
	 * located at "built-in:NAME", written after every rule of the ruleset. */
	struct rule *builtins;
	size_t n_builtins;
	/* The rules[] of every rsys: hundreds of lists, most of one rule,
	 * built at every launch (allocated one by one, they were a malloc
	 * each), and the conditions of the built-in rules; freed with the
	 * policy. */
	struct arena lists;
};

/*
 * Resolve rs for its ABIs (native = the ABI "native" stands for); the
 * resolver lives in policy-build.c. Every problem is reported to d with its
 * location; on any error returns -EINVAL (-ENOMEM when out of memory) and
 * *ret is NULL. Warnings (ties between different data of one action) are
 * added to d as well. The policy points into rs (rrule.src, rsys.name):
 * rs must outlive it. Free with policy_free().
 */
int policy_build(const struct ruleset *rs, const struct arch *native, struct diag *d,
		 struct policy **ret);

/* Does some ABI of p have the syscall name, by itself or as a sub-call of
 * a multiplexer it has (accept through socketcall on x86)? Rules on it
 * apply there (scmp-run.ini(5) MULTIPLEXERS). */
bool policy_reaches(const struct policy *p, const char *name);

/* Free p and everything it owns; NULL is a no-op. */
void policy_free(struct policy *p);

/* The action for numbers the table does not name (scmp-run.ini(5) [filter]
 * unknown-syscall-action): the one written, else errno(ENOSYS) when the
 * default action denies (policy_action_denies()), else the default action. */
void policy_unknown_action(const struct filter_attrs *attrs, struct action *ret);

/* Whether an action denies the call: every action except allow and log
 * (trace and notify hand the call to another program, which may refuse it). */
bool policy_action_denies(enum action_kind kind);

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

/* The NAME of a built-in rule, located at "built-in:NAME" (scmp-run.ini(5)
 * BUILT-IN RULES), or NULL for any other rule, a [hardening] preset's
 * (located at its key) included. */
const char *policy_builtin_name(const struct rule *r);

/* The reference semantics (scmp-run.ini(5) MEANING OF A PROFILE, ARCHITECTURES,
 * UNKNOWN SYSCALLS), straight from the policy (no BPF): how the filter
 * decides the call sd. Fills *ret; never fails. */
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

/* Free n tests and their intervals, then the array; NULL is a no-op. */
void rcmps_free(struct rcmp *cmps, size_t n);

/* The rules of a number on an ABI; NULL if it has none. */
const struct rsys *policy_rsys(const struct abi_policy *abi, uint32_t nr);

/* The table entry of a number on an ABI; NULL if the number is unknown there. */
const struct syscall *policy_known(const struct abi_policy *abi, uint32_t nr);

/* The ABI of p that handles (audit arch, nr); NULL means bad arch. */
const struct abi_policy *policy_abi_for(const struct policy *p, uint32_t audit_arch, uint32_t nr);
