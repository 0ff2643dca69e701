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

#include "path-walk.h"

void profile_dirs_init(struct profile_dirs *it, const char *search_path, const char *installed_dir)
{
	it->rest = search_path ? search_path : "";
	it->fixed[0] = PROFILE_SYSCONF_DIR;
	it->fixed[1] = installed_dir;
	it->next_fixed = 0;
	it->dir[0] = '\0';
	it->too_long = false;
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
		if (n && entry[0] == '/') {
			it->too_long = n >= sizeof(it->dir);
			if (it->too_long)
				n = PROFILE_DIRS_SHOWN;
			memcpy(it->dir, entry, n);
			strcpy(it->dir + n, it->too_long ? "..." : "");
			return it->dir;
		}
	}
	it->too_long = false;
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
 * NULL otherwise, errno ENOENT (neither is there, or a link there leads
 * nowhere), ENOMEM, or why a name there could not be examined.
 */
static char *try_dir(int dfd, const char *dir, const char *name, struct stat *ret_st)
{
	static const char *const suffixes[] = { "", ".ini" };
	int err = ENOENT;

	for (size_t i = 0; i < 2; i++) {
		struct stat st;
		char *p;

		if (asprintf(&p, "%s/%s%s", dir, name, suffixes[i]) < 0) {
			errno = ENOMEM;
			return NULL;
		}
		/* the part after "dir/": looked up below dfd, not by the path */
		if (fstatat(dfd, p + strlen(dir) + 1, &st, 0) == 0) {
			if (!S_ISDIR(st.st_mode)) {
				if (ret_st)
					*ret_st = st;
				return p;
			}
		} else if (errno != ENOENT && errno != ENOTDIR) {
			err = errno; /* a name there, which cannot be examined */
		}
		free(p);
		if (err != ENOENT)
			break;
	}
	errno = err;
	return NULL;
}

bool profile_is_path(const char *s)
{
	return strchr(s, '/') != NULL;
}

/* The link open at lfd (O_PATH | O_NOFOLLOW), the links-th on the way,
 * read into rest (PATH_MAX bytes) before what *cursor has left of it, and
 * *cursor reset to the start: what is walked next. 0 or a negative errno. */
static int follow_link(int lfd, char *rest, char **cursor, unsigned links)
{
	char target[PATH_MAX];
	ssize_t n = readlinkat(lfd, "", target, sizeof(target));

	if (n < 0)
		return -errno;
	if (links > PATH_WALK_LINKS_MAX || n == (ssize_t)sizeof(target))
		return -ELOOP;
	return path_walk_follow(rest, PATH_MAX, cursor, target, (size_t)n);
}

/*
 * Open the absolute directory dir (O_PATH) one component at a time from
 * "/", calling visit with every directory on the way just before an entry
 * of it is looked up, with dir as the searched directory it leads to: whoever
 * may write a directory on the way could put another directory below it
 * (scmp-run(1) TRUST). A symbolic link is read and its target walked in
 * its place, through directories visited the same way. The descriptor, or
 * a negative errno: why dir cannot be opened, or what visit returned, which
 * is then also in *ret_stop.
 */
static int walk_open(const char *dir, profile_visit_fn visit, void *ctx, int *ret_stop)
{
	char rest[PATH_MAX], at[PATH_MAX] = "/", name[NAME_MAX + 1];
	char *cursor = rest;
	unsigned links = 0;
	int fd, r = 0;

	if (snprintf(rest, sizeof(rest), "%s", dir) >= (int)sizeof(rest))
		return -ENAMETOOLONG;
	fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (r == 0 && (r = path_walk_next(&cursor, name)) > 0) {
		struct stat st;
		int next;

		r = visit ? visit(at, fd, dir, ctx) : 0;
		if (r < 0) {
			*ret_stop = r;
			break;
		}
		next = openat(fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 || fstat(next, &st) < 0) {
			r = -errno;
			if (next >= 0)
				close(next);
			break;
		}
		if (S_ISDIR(st.st_mode)) {
			close(fd);
			fd = next;
			/* at names the directory visit checks next; one whose
			 * name does not fit cannot be told from its parent,
			 * which visit may have recorded as checked already:
			 * the lookup ends there */
			r = path_walk_step(at, sizeof(at), name);
			continue;
		}
		r = S_ISLNK(st.st_mode) ? follow_link(next, rest, &cursor, ++links) : -ENOTDIR;
		close(next);
		if (r == 0 && rest[0] == '/') { /* an absolute target: from "/" again */
			close(fd);
			fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
			r = fd < 0 ? -errno : 0;
			strcpy(at, "/");
		}
	}
	if (r < 0) {
		if (fd >= 0)
			close(fd);
		return r;
	}
	return fd;
}

/* dir exists (or may) but cannot be searched, or a file of it examined,
 * for the reason err: the first match cannot be ruled out there, so the
 * lookup ends (scmp-run(1) PROFILE LOOKUP). visit, if any, is told with
 * -err for a descriptor. NULL, errno what visit returned or err. */
static char *unsearchable(const char *dir, int err, profile_visit_fn visit, void *ctx)
{
	int r = visit ? visit(dir, -err, NULL, ctx) : -err;

	errno = r < 0 ? -r : err;
	return NULL;
}

char *profile_find_visit(const char *name, const char *search_path, const char *installed_dir,
			 profile_visit_fn visit, void *ctx, struct stat *ret_st)
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
		/* The environment is the caller's: an entry that cannot be
		 * opened may still name the first match (scmp-run(1)
		 * ENVIRONMENT), so it ends the lookup like an unsearchable
		 * directory, never passed over. */
		if (it.too_long)
			return unsearchable(dir, ENAMETOOLONG, visit, ctx);
		/* One descriptor for the visitor's check (scmp-run(1) TRUST)
		 * and for the lookup: a directory missing now is not looked
		 * in, and one put in its place after the check is not the one
		 * searched. O_PATH: searching needs no read permission. */
		int stop = 0, dfd = walk_open(dir, visit, ctx, &stop);

		if (stop < 0 || dfd == -ENOMEM) {
			errno = stop < 0 ? -stop : ENOMEM;
			return NULL;
		}
		if (dfd == -ENOENT || dfd == -ENOTDIR)
			continue; /* no directory there: no file can come from it */
		if (dfd < 0)
			return unsearchable(dir, -dfd, visit, ctx);
		r = visit ? visit(dir, dfd, NULL, ctx) : 0;
		if (r < 0) {
			close(dfd);
			errno = -r;
			return NULL;
		}
		p = try_dir(dfd, dir, name, ret_st);
		err = errno;
		close(dfd);
		if (p || err == ENOMEM) {
			errno = err;
			return p;
		}
		if (err != ENOENT)
			return unsearchable(dir, err, visit, ctx);
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
		if (!it.too_long)
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
