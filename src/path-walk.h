/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Resolving a path by hand, one component at a time, a symbolic link's
 * target put in front of what is left: the string steps shared by the
 * profile lookup (profile-path.c) and [landlock] (landlock.c).
 */
#pragma once

#include <stddef.h>

/* Symbolic links followed in one path, as many as the kernel follows in
 * one lookup (path_resolution(7)); one more is ELOOP. */
#define PATH_WALK_LINKS_MAX 40

/*
 * The next component of *rest (skipping empty ones and "."), copied to
 * name (NAME_MAX + 1 bytes), *rest moved past it: 1, 0 at the end, or
 * -ENAMETOOLONG for a component longer than NAME_MAX.
 */
int path_walk_next(char **rest, char *name);

/*
 * A link's target (n bytes) put in front of what *cursor has left of rest
 * (size bytes), and *cursor reset to the start of rest: what is walked
 * next. 0, or -ENAMETOOLONG when that does not fit (rest is then what
 * *cursor had left).
 */
int path_walk_follow(char *rest, size_t size, char **cursor, const char *target, size_t n);

/*
 * at (size bytes), an absolute path, one component down (name) or up
 * (".."; the parent of "/" is "/"). 0, or -ENAMETOOLONG with at unchanged.
 */
int path_walk_step(char *at, size_t size, const char *name);
