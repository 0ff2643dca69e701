/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The --list-* modes: the tables and profiles a profile author picks from,
 * one name a line, for people and for shell completion. */
#pragma once

#include <stdio.h>

#include "arch.h"
#include "diag.h"

/* "NAME<TAB>NUMBER" for every syscall of ABI a. Returns 0 or -EIO. */
int listing_syscalls(const struct arch *a, FILE *f);

/* "native", then every architecture token. Returns 0 or -EIO. */
int listing_arches(FILE *f);

/*
 * Without group: "NAME DESCRIPTION" for every group, @known last. With a
 * group (which must exist, see groups_lookup()): its members; for @known
 * every syscall name of the table, each once. Returns 0, -ENOENT for an
 * unknown group, or -EIO.
 */
int listing_groups(const char *group, FILE *f);

/* The profile names in the search path (profile_names_list()). Returns 0,
 * -ENOMEM with an error in d, or -EIO. */
int listing_profiles(const char *search_path, const char *installed_dir, FILE *f, struct diag *d);
