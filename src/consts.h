/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Named constants for conditions (errno, AF_*, O_*, CLONE_*, ...), with the
 * value each one has on each ABI; generated from data/constants.txt.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "arch.h"

/* Value of a constant on ABI a, as a 64-bit two's complement bit pattern
 * (AT_FDCWD is 0xffffffffffffff9c). Names are case-sensitive.
 * Returns 0, or -ENOENT if the name is unknown on a. */
int consts_lookup(const struct arch *a, const char *name, int64_t *ret);

/* Value of an errno name ("EACCES") on a; -ENOENT if not an errno name. */
int consts_errno(const struct arch *a, const char *name, int *ret);

/* Name of an errno value on a (first name in the table); NULL if none. */
const char *consts_errno_name(const struct arch *a, int value);

/* The number of constant names, and name i of them (sorted, unique; NULL
 * for i past the end), for --list and completion. Static storage. */
size_t consts_count(void);
const char *consts_name(size_t i);

/* The table's own copy of a constant name (static storage); NULL if the
 * name is not in the table. */
const char *consts_static_name(const char *name);

/* The constant name closest to word (did-you-mean, suggest.h); NULL if none
 * is close. Static storage. */
const char *consts_suggest(const char *word);
