/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The profile search path: one iterator over its directories, shared by the
 * lookup of -p NAME and by --list-profiles.
 */
#include "profile-path.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void profile_dirs_init(struct profile_dirs *it, const char *search_path, const char *installed_dir)
{
	it->rest = search_path ? search_path : "";
	it->fixed[0] = PROFILE_SYSCONF_DIR;
	it->fixed[1] = installed_dir;
	it->next_fixed = 0;
	it->dir[0] = '\0';
}

const char *profile_dirs_next(struct profile_dirs *it)
{
	while (*it->rest) {
		size_t n = strcspn(it->rest, ":");
		const char *entry = it->rest;

		it->rest += n;
		if (*it->rest == ':')
			it->rest++;
		/* A relative entry would make the lookup depend on the current
		 * directory, where anyone may have planted a file. */
		if (n && entry[0] == '/' && n < sizeof(it->dir)) {
			memcpy(it->dir, entry, n);
			it->dir[n] = '\0';
			return it->dir;
		}
	}
	while (it->next_fixed < 2) {
		const char *d = it->fixed[it->next_fixed++];

		if (d && *d)
			return d;
	}
	return NULL;
}

/*
 * dir/name or dir/name.ini if one exists (anything but a directory) in the
 * directory open at dfd, that is dir; *ret_st (may be NULL) is that file.
 * NULL otherwise (errno set).
 */
static char *try_dir(int dfd, const char *dir, const char *name, struct stat *ret_st)
{
	static const char *const suffixes[] = { "", ".ini" };

	for (size_t i = 0; i < 2; i++) {
		struct stat st;
		char *p;

		if (asprintf(&p, "%s/%s%s", dir, name, suffixes[i]) < 0) {
			errno = ENOMEM;
			return NULL;
		}
		/* the part after "dir/": looked up below dfd, not by the path */
		if (fstatat(dfd, p + strlen(dir) + 1, &st, 0) == 0 && !S_ISDIR(st.st_mode)) {
			if (ret_st)
				*ret_st = st;
			return p;
		}
		free(p);
	}
	errno = ENOENT;
	return NULL;
}

bool profile_is_path(const char *s)
{
	return strchr(s, '/') != NULL;
}

char *profile_find_visit(const char *name, const char *search_path, const char *installed_dir,
			 int (*visit)(const char *dir, int dfd, void *ctx), void *ctx,
			 struct stat *ret_st)
{
	struct profile_dirs it;
	const char *dir;
	char *p;
	int r, err;

	if (!name || !*name || profile_is_path(name)) {
		errno = ENOENT;
		return NULL;
	}
	profile_dirs_init(&it, search_path, installed_dir);
	while ((dir = profile_dirs_next(&it))) {
		/* One descriptor for the visitor's check (scmp-run(1) TRUST)
		 * and for the lookup: a directory missing now is not looked
		 * in, and one put in its place after the check is not the one
		 * searched. O_PATH: searching needs no read permission. */
		int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);

		if (dfd < 0) {
			if (errno == ENOMEM)
				return NULL;
			continue; /* no directory there: no file can come from it */
		}
		r = visit ? visit(dir, dfd, ctx) : 0;
		if (r < 0) {
			close(dfd);
			errno = -r;
			return NULL;
		}
		p = try_dir(dfd, dir, name, ret_st);
		err = errno;
		close(dfd);
		errno = err;
		if (p || err == ENOMEM)
			return p;
	}
	errno = ENOENT;
	return NULL;
}

char *profile_find(const char *name, const char *search_path, const char *installed_dir)
{
	char *p;

	if (name && profile_is_path(name)) {
		p = strdup(name);
		if (!p)
			errno = ENOMEM;
		return p;
	}
	return profile_find_visit(name, search_path, installed_dir, NULL, NULL, NULL);
}

struct names {
	char **v;
	size_t n;
};

static bool names_has(const struct names *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], name))
			return true;
	return false;
}

/* Add the NAME of every NAME.ini in dir. Returns 0 or -ENOMEM. */
static int names_add_dir(struct names *l, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int r = 0;

	if (!d)
		return 0;
	while (r == 0 && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char *name, **grown;

		if (len < 5 || strcmp(e->d_name + len - 4, ".ini"))
			continue;
		name = strndup(e->d_name, len - 4);
		if (!name) {
			r = -ENOMEM;
			break;
		}
		if (names_has(l, name)) {
			free(name);
			continue;
		}
		grown = reallocarray(l->v, l->n + 1, sizeof(*l->v));
		if (!grown) {
			free(name);
			r = -ENOMEM;
			break;
		}
		l->v = grown;
		l->v[l->n++] = name;
	}
	closedir(d);
	return r;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int profile_names_list(const char *search_path, const char *installed_dir, char ***ret_names,
		       size_t *ret_n)
{
	struct names l = { 0 };
	struct profile_dirs it;
	const char *dir;
	int r = 0;

	profile_dirs_init(&it, search_path, installed_dir);
	while (r == 0 && (dir = profile_dirs_next(&it)))
		r = names_add_dir(&l, dir);
	if (r < 0) {
		profile_names_free(l.v, l.n);
		*ret_names = NULL;
		*ret_n = 0;
		return r;
	}
	if (l.n)
		qsort(l.v, l.n, sizeof(*l.v), cmp_str);
	*ret_names = l.v;
	*ret_n = l.n;
	return 0;
}

void profile_names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
