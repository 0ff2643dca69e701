/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The --list-* modes: the tables and profiles a profile author picks from,
 * one name a line, for people and for shell completion. */
#pragma once

#include <stdio.h>

#include "arch.h"
#include "diag.h"
#include "profile.h"

/* "NAME<TAB>NUMBER" for every syscall of ABI a. Returns 0 or -EIO. */
int listing_syscalls(const struct arch *a, FILE *f);

/* "native", then every architecture token. Returns 0 or -EIO. */
int listing_arches(FILE *f);

/*
 * Without group: "NAME DESCRIPTION" for every built-in group, @known, then
 * the user groups of p (may be NULL) with where each is defined. With a
 * group: its members as written; for @known every syscall name of the
 * table, each once. Returns 0, -ENOENT for an unknown group (the error and
 * a did-you-mean hint in d), or -EIO.
 */
int listing_groups(const char *group, const struct profile *p, FILE *f, struct diag *d);

/* The syscalls of ABI a in no built-in group but @known (nested groups
 * counted), one name a line, in number order. Returns 0 or -EIO. */
int listing_unlisted(const struct arch *a, FILE *f);

/* The profile names in the search path (profile_names_list()). Returns 0,
 * -ENOMEM with an error in d, or -EIO. */
int listing_profiles(const char *search_path, const char *installed_dir, FILE *f, struct diag *d);
