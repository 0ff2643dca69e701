/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The pipeline, in one place: find a profile, load it, build its policy,
 * generate the program. Every caller that turns a profile into a program
 * (the modes of main.c, the benchmark, the fuzzer, the tests) goes through it.
 */
#pragma once

#include <stddef.h>

#include "bpf.h"
#include "diag.h"
#include "oci.h"
#include "profile.h"
#include "policy.h"

/* What a profile compiles to. Every member is NULL until compiled. */
struct compiled {
	struct profile *profile;  /* owned; NULL when compiled from a ruleset */
	const struct ruleset *rs; /* the rules compiled: profile->rs, or the caller's */
	struct policy *policy;	  /* owned; borrows rs */
	struct bpf_prog *prog;	  /* owned */
};

/*
 * Load the profile that -p VALUE means (scmp-run(1) PROFILE LOOKUP): "-" is
 * standard input, a VALUE with a '/' a path, anything else a NAME looked up
 * in opts' search path (opts->source is ignored; the other members say
 * where includes by NAME are looked up and whether files must be trusted).
 * A file whose name ends in ".json" is an OCI/Docker profile (oci_load(),
 * with oci; NULL means no capabilities and the running kernel), found and
 * checked like any other (profile_locate()); any other is INI. Load it for
 * the ABI that "native" stands for, build its policy and generate the
 * program. Every problem goes to d with its location: a profile that is
 * not found is an error with a hint naming the directories searched.
 * Returns 0, or -ENOENT (not found), -EINVAL (rejected), -E2BIG (program
 * too long) or -ENOMEM; on failure *ret holds nothing. A pass that adds an
 * error to d fails even if every step returned success.
 */
int compile_profile(const char *value, const struct profile_opts *opts, const struct arch *native,
		    const struct oci_options *oci, struct diag *d, struct compiled *ret);

/* The same for a file given by path: no search-path lookup. */
int compile_file(const char *path, const struct arch *native, const struct oci_options *oci,
		 struct diag *d, struct compiled *ret);

/*
 * Build and generate a ruleset made by the caller (tests, benchmarks): rs is
 * borrowed and must outlive *ret; ret->profile is NULL. Returns as
 * compile_profile(), and on failure *ret holds nothing.
 */
int compile_ruleset(const struct ruleset *rs, const struct arch *native, struct diag *d,
		    struct compiled *ret);

/*
 * Build c's policy and program again from c->rs, after the caller changed
 * the facts in its [hardening] (a test acting as an older kernel). Returns
 * as compile_profile(); on failure c->policy and c->prog are NULL and c
 * must still be freed.
 */
int compile_rebuild(struct compiled *c, const struct arch *native, struct diag *d);

/* Free what c owns and clear it (a cleared struct may be freed again). */
void compiled_free(struct compiled *c);
