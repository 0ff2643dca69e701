/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The rules as written: what a profile says (filter attributes, rules on
 * syscall names with unresolved conditions, priorities), each with its
 * source location. policy_build() (policy.h) resolves a ruleset per ABI.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "action.h"
#include "arena.h"
#include "cond.h"
#include "diag.h"

#define RULESET_PRIORITY_MAX 255u
#define ARCH_NATIVE_BIT	     (1u << 31) /* in ruleset attrs.arches: "native" */

struct filter_attrs {
	struct action default_action;
	bool has_default_action; /* required: policy_build() fails without it */
	struct action bad_arch_action;
	struct action unknown_action;
	bool has_unknown_action; /* else unknown numbers get default_action */
	/* where each action was written last; file NULL when it was not */
	struct src_loc default_loc, unknown_loc, bad_arch_loc;
	uint32_t arches;	   /* bits (1u << enum arch_id), ARCH_NATIVE_BIT; 0 = native */
	struct src_loc arches_loc; /* where architectures was written last */
	bool no_new_privs;
	struct src_loc nnp_loc; /* where no-new-privs was written last */
	bool tsync;
	bool log;
	bool spec_allow;
};

/* One rule as written: one syscall name, one action, one conjunction. */
struct rule {
	const char *syscall; /* in the ruleset's arena, or the syscall table's name */
	unsigned name_key;   /* syscalls_name_id(syscall) + 1 when a table has the name,
			      * found when the rule was added; 0: a number, a name no
			      * table has, or not looked up (rules built by hand) */
	bool optional;	     /* written as "name?" */
	struct action action;
	struct conj conj; /* n_cmps == 0: unconditional; in the ruleset's arena and
			   * possibly shared with other rules: read-only */
	struct src_loc loc;
	unsigned seq;	   /* order written in the profile (ties, stable output) */
	bool via_group;	   /* named through a group only, never by itself */
	const char *group; /* via_group: the group written in the key ("@system-service"),
			    * interned in the ruleset; else NULL */
};

#define HARDENING_AF_MAX 64 /* address families one restrict-address-families names */

/* [hardening] (scmp-run.ini(5) HARDENING): switches that add or remove
 * built-in rules, and presets that expand into rules located at their key.
 * Each key records where it was written (loc.line 0: not written). */
struct hardening {
	bool tty_injection_allow; /* tty-injection = allow: no tty-injection rule */
	struct src_loc tty_injection_loc;
	bool mdwe; /* memory-deny-write-execute = yes */
	struct src_loc mdwe_loc;
	bool lock_personality;
	struct src_loc lock_personality_loc;
	uint32_t ns_denied; /* restrict-namespaces: CLONE_NEW* flags prohibited */
	struct src_loc ns_loc;
	bool af_restrict;			/* restrict-address-families is written */
	bool af_deny_listed;			/* "~list": af_names are the denied families */
	const char *af_names[HARDENING_AF_MAX]; /* static names from the constant table */
	size_t n_af;
	struct src_loc af_loc;
	bool realtime; /* restrict-realtime = yes */
	struct src_loc realtime_loc;
	bool suid_sgid; /* restrict-suid-sgid = yes */
	struct src_loc suid_sgid_loc;
	/* Facts of the launching process the presets depend on, set by
	 * hardening_probe() (hardening.h) before policy_build(); zero for a
	 * ruleset built by hand: personality 0, MDWE by rules. */
	uint32_t launch_personality; /* personality(0xffffffff) of the launcher */
	bool mdwe_kernel;	     /* PR_SET_MDWE is available: no rules for mdwe */
};

struct priority {
	char *syscall;
	unsigned prio;
	bool via_group; /* a member of the group the [priority] key names */
	struct src_loc loc;
};

struct ruleset {
	struct filter_attrs attrs;
	struct hardening hardening;
	/* [landlock] restricts TCP ports (bind-tcp or connect-tcp, mode not
	 * off): the bind-tcp line, else the connect-tcp line, where the rule
	 * that refuses MPTCP sockets is located (scmp-run.ini(5) LANDLOCK,
	 * Network); line 0: no such rule. */
	struct src_loc landlock_tcp_loc;
	struct rule *rules; /* in written order (rule.seq is the index) */
	size_t n_rules, cap_rules;
	struct priority *prios;
	size_t n_prios, cap_prios;
	char **files; /* interned source file names that locs point at */
	size_t n_files, cap_files;
	struct arena arena; /* what the rules point at: names, conditions */
};

/* A new, empty ruleset; NULL on ENOMEM. Attributes start as: no default
 * action, bad-arch kill-process, native only, no_new_privs on, all flags
 * off. Free with ruleset_free(). */
struct ruleset *ruleset_new(void);

/* Free rs with its rules, priorities and interned file names; NULL is a no-op. */
void ruleset_free(struct ruleset *rs);

/* A copy of file that lives as long as rs (for src_loc.file, and any other
 * name a rule points at, such as rule.group). NULL on ENOMEM. */
const char *ruleset_intern_file(struct ruleset *rs, const char *file);

/* Add a rule; conj may be NULL (unconditional) and is deep-copied. Names
 * are checked by policy_build(), not here. Returns 0 or -ENOMEM. */
int ruleset_add(struct ruleset *rs, const char *syscall, bool optional, const struct action *act,
		const struct conj *conj, const struct src_loc *loc);

/* Add r as written by the caller (syscall, name_key, optional, action,
 * conj, loc; seq is set here). With name_key the rule names the table's
 * own string, else a copy of syscall; conj is copied unless shared: then
 * it already lives in rs->arena (cond_parse_in()), the rule points at it,
 * and several rules may share one. Returns 0 or -ENOMEM. */
int ruleset_add_rule(struct ruleset *rs, const struct rule *r, bool shared);

/* Room for more rules, allocated at once (ruleset_add_rule() would grow
 * the array step by step). 0 or -ENOMEM. */
int ruleset_reserve(struct ruleset *rs, size_t more);

/* Where rs first uses the notify action (which hands a call to a
 * supervisor): the default action's line, the unknown-syscall action's,
 * a rule's, or fallback (never NULL) for an action written nowhere (the
 * bad-arch action, a default set in code). NULL if rs never notifies. */
const struct src_loc *ruleset_notify_at(const struct ruleset *rs, const struct src_loc *fallback);

/* Set the dispatch priority hint of a syscall (0..RULESET_PRIORITY_MAX),
 * via_group if the key written names a group. The last one written wins.
 * Returns 0, -ERANGE or -ENOMEM. */
int ruleset_set_priority(struct ruleset *rs, const char *syscall, unsigned prio, bool via_group,
			 const struct src_loc *loc);
