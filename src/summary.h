/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --check: the summary of a compiled profile (its actions, attributes, rule
 * counts, program size per ABI, the always-allow cache coverage and the
 * caller state run mode leaves). */
#pragma once

#include <stdio.h>

#include "compile.h"

/* Print the summary of c, compiled from a profile (c->profile is set), to f,
 * with what run mode does with the caller's state (the warnings of --check
 * are the lint's, lint.h). Returns 0, -EIO if writing failed, or -ENOMEM
 * (an error in d). */
int summary_print(const struct compiled *c, FILE *f, struct diag *d);

/* The defaults of scmp-run(1) that hold besides the caller state, one line
 * each to f (--check, and -v's notes): every built-in rule the profile got
 * or switched off, and what the trust check looked at. */
void summary_defaults(const struct compiled *c, FILE *f);

/*
 * The confinement beyond seccomp, after the summary: [landlock] on the
 * Landlock ABI abi (landlock_abi_probe()'s answer; < 0: unknown), each line
 * starting with "landlock: ", and [limits], each starting with "limit: ".
 * What depends on the kernel (mode = require with a right it lacks) goes to
 * d as warnings: the kernel of a later run may differ. Returns 0 or -EIO.
 */
int summary_print_confine(const struct compiled *c, int abi, struct diag *d, FILE *f);
