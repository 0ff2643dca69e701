/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Syscall groups: systemd's built-in "@name" sets (same names, same
 * members) and @known (every name of the table).
 */
#pragma once

#include <stddef.h>
#include <string.h>

struct group {
	const char *name;	 /* "@basic-io" */
	const char *description; /* one line */
	/* Syscall names and "@group" references, each ended by a NUL, the
	 * list by an empty name ("read\0write\0"); NULL for @known. */
	const char *members;
};

/* The member after m in its group's list; "" after the last. Walk a list
 * with: for (const char *m = g->members; *m; m = groups_next(m)). */
static inline const char *groups_next(const char *m)
{
	return m + strlen(m) + 1;
}

/* Every built-in group except @known, sorted by name. */
const struct group *groups_list(size_t *ret_n);

struct suggest;

/* Offer the name of every built-in group, @known included, to s: the
 * candidates of a did-you-mean for an unknown group. */
void groups_suggest(struct suggest *s);

/* A built-in group by name ("@default"); NULL if unknown. @known is
 * returned with members == NULL: its members are every name of the table. */
const struct group *groups_lookup(const char *name);
