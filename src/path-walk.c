/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Resolving a path by hand: the string steps of a walk, shared by the
 * profile lookup and [landlock].
 */
#include "path-walk.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

int path_walk_next(char **rest, char *name)
{
	while (**rest) {
		size_t n = strcspn(*rest, "/");
		const char *c = *rest;

		*rest += n + (c[n] == '/');
		if (n == 0 || (n == 1 && c[0] == '.'))
			continue;
		if (n > NAME_MAX)
			return -ENAMETOOLONG; /* never a shorter name in its place */
		memcpy(name, c, n);
		name[n] = '\0';
		return 1;
	}
	return 0;
}

int path_walk_follow(char *rest, size_t size, char **cursor, const char *target, size_t n)
{
	size_t n_rest = strlen(*cursor);

	memmove(rest, *cursor, n_rest + 1);
	*cursor = rest;
	if (n + 1 + n_rest >= size)
		return -ENAMETOOLONG;
	memmove(rest + n + 1, rest, n_rest + 1);
	memcpy(rest, target, n);
	rest[n] = '/';
	return 0;
}

int path_walk_step(char *at, size_t size, const char *name)
{
	size_t n = strlen(at);
	char *slash;

	if (strcmp(name, "..")) {
		if (n + (n > 1) + strlen(name) >= size)
			return -ENAMETOOLONG;
		strcpy(at + n, n > 1 ? "/" : "");
		strcat(at, name);
		return 0;
	}
	slash = strrchr(at, '/');
	slash[slash == at] = '\0'; /* the parent of "/" is "/" */
	return 0;
}
