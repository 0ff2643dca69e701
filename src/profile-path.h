/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The profile search path: the directories where -p NAME is looked up and
 * that --list-profiles lists, in one order (scmp-run(1) ENVIRONMENT, FILES).
 */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct stat;

/* The bytes of a search path entry too long to open that messages show. */
#define PROFILE_DIRS_SHOWN 64

#define PROFILE_SYSCONF_DIR "/etc/scmp-run/profiles"

/* An iterator over the search path; no allocation, nothing to free. */
struct profile_dirs {
	const char *rest;     /* unread part of the colon-separated search path */
	const char *fixed[2]; /* PROFILE_SYSCONF_DIR, then the installed directory */
	unsigned next_fixed;  /* index into fixed[] once rest is used up */
	char dir[PATH_MAX];   /* the current entry, NUL-terminated */
	bool too_long;	      /* dir is the start of an entry of PATH_MAX bytes or more */
};

/*
 * Start at the first directory: each absolute entry of search_path
 * (colon-separated, may be NULL; empty and relative entries are skipped, so
 * the result never depends on the current directory), then
 * PROFILE_SYSCONF_DIR, then installed_dir (skipped if NULL or empty).
 * The strings are borrowed for the life of the iterator.
 */
void profile_dirs_init(struct profile_dirs *it, const char *search_path, const char *installed_dir);

/* The next directory, valid until the next call; NULL after the last one.
 * An entry of PATH_MAX bytes or more cannot be opened, yet may name a
 * directory (through repeated slashes or links) that holds a profile: it
 * comes as its first bytes and "...", with it->too_long set. */
const char *profile_dirs_next(struct profile_dirs *it);

/* True if a -p argument or an include names a file by path: it contains a
 * '/' (scmp-run(1) PROFILE LOOKUP). Anything else is a NAME. */
bool profile_is_path(const char *s);

/*
 * What profile_find_visit() calls with each directory it opens, at dfd: dir
 * is a directory of the search path and below NULL, or dir is a directory
 * on the way to the one of the search path named below. A negative dfd is
 * why dir cannot be searched (the search ends). Returns 0 to go on, or a
 * negative errno to stop the search there.
 */
typedef int (*profile_visit_fn)(const char *dir, int dfd, const char *below, void *ctx);

/*
 * Find a profile by NAME (no '/'; scmp-run(1) PROFILE LOOKUP): NAME, then
 * NAME.ini, in each directory of the search path, in the order of
 * profile_dirs_next(); never in the current directory. Each directory is
 * opened once, one component at a time from "/", symbolic links read and
 * walked the same way: visit (may be NULL) is called with every directory
 * just before an entry of it is looked up, on the way and at the end, up
 * to the directory that has the profile, and each lookup goes through the
 * descriptor visited, so a directory that does not exist when it is opened
 * is never looked in, and none put in the place of one visited is. *ret_st
 * (may be NULL) is the file found, as seen in that directory: a caller
 * that opens the returned path can tell whether it got that file. A
 * directory that cannot be searched for another reason than its absence,
 * or where NAME cannot be examined, ends the search: visit is called with
 * dir, below NULL and the negative errno in place of the descriptor.
 * Returns a malloc'ed path, or NULL with errno ENOENT (not found, or a
 * name with '/'), ENOMEM, what visit returned, or (without visit) why a
 * directory could not be searched.
 */
char *profile_find_visit(const char *name, const char *search_path, const char *installed_dir,
			 profile_visit_fn visit, void *ctx, struct stat *ret_st);

/* profile_find_visit() without a visitor, except that a name with '/' is a
 * path and comes back as a copy. */
char *profile_find(const char *name, const char *search_path, const char *installed_dir);

/*
 * The names of the profiles in the search path (the files NAME.ini, with a
 * non-empty NAME), sorted, each once. *ret_names is a malloc'ed array of
 * malloc'ed strings (free both, or use profile_names_free()); NULL when
 * *ret_n is 0. Directories that cannot be read, and entries too long to
 * open, are skipped. Returns 0 or
 * -ENOMEM (nothing is returned then).
 */
int profile_names_list(const char *search_path, const char *installed_dir, char ***ret_names,
		       size_t *ret_n);
void profile_names_free(char **names, size_t n);
