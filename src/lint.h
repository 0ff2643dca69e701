/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The lint of --check (scmp-run.ini(5) LINT): located warnings about rules
 * that are valid but risky or useless, each with a stable ID that a
 * "; lint: allow ID" comment at its line silences.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "compile.h"
#include "diag.h"
#include "rlimits.h"

/* What run mode would refuse about [credentials] on this machine
 * (scmp-run(1), Run mode): the first of these, in the order run mode checks
 * them. (Whether this caller may switch at all is left out: --check of a
 * service's profile runs unprivileged, the service as root.) */
enum lint_cred {
	LINT_CRED_OK,
	LINT_CRED_USER_RANGE,  /* a user id of digits only, too large for an id */
	LINT_CRED_NO_USER,     /* a user name not in the user database */
	LINT_CRED_NO_PRIMARY,  /* a user id without a passwd entry, and no group */
	LINT_CRED_GROUP_RANGE, /* a group id of digits only, too large for an id */
	LINT_CRED_NO_GROUP,    /* a group name not in the group database */
	LINT_CRED_SUPP_ALONE,  /* supplementary-groups without user or group */
};

/* What the lint knows about the process that would run the profile. */
struct lint_env {
	bool caller_root;     /* uid or euid 0 */
	uid_t caller_uid;     /* the real uid */
	uint64_t caller_caps; /* the caller's permitted set: bit N is capability N */
	/* Whether the command would run with uid 0: the [credentials] user
	 * (or the caller when there is none); target_known false when the
	 * user cannot be resolved here. */
	bool target_known;
	bool target_root;
	enum lint_cred cred;
	const char *cred_name;	 /* the user or group at fault (the profile's) */
	struct src_loc cred_loc; /* where it was written */
	/* The ABI run mode would use: this machine's, or --target-arch's. */
	const struct arch *arch;
	/* A [limits] key this process cannot set (rlimits_check()). */
	bool limit_bad;
	enum rlimits_key limit_key;
	rlim_t limit_max;
	bool limit_nr_open; /* limit_max is fs.nr_open */
};

/*
 * Fill *ret for the profile p as this process sees it: uids, permitted
 * capabilities, and the target user looked up in the user database.
 * Never fails: what cannot be found out is left unknown (no warning then).
 */
void lint_env_probe(const struct profile *p, struct lint_env *ret);

/*
 * Check the compiled profile c (c->profile set) in the environment env and
 * add each warning that no "; lint: allow ID" comment silences to d as a
 * warning at its location, ending in "[ID]", followed by a hint that says
 * what to do. What run mode refuses whatever the command (a filter that
 * stops the command's execve(), the notify action, no-new-privs = no
 * without CAP_SYS_ADMIN kept) is added as an error,
 * which no comment silences. Returns the number of warnings silenced (>= 0)
 * or -ENOMEM.
 */
int lint_check(const struct compiled *c, const struct lint_env *env, struct diag *d);
