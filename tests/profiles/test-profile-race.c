/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * scmp-run(1) TRUST against a search directory that changes while -p NAME
 * is looked up: one that appears right after it was found missing, or is
 * replaced right after it was checked, must not give the profile. This
 * program replaces stat(), lstat(), open() and openat() to play the other
 * user.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tests/profiles/named.h"
#include "tests/profiles/xasprintf.h"
#include "tests/tap.h"

static char tmpdir[] = "/tmp/test-profile-race-XXXXXX";
static char *appear_dir;   /* set: made, with a planted link, when first found missing */
static char *swap_file;	   /* set: its directory is replaced before it is first looked at */
static char *planted_file; /* what the planted links point to */

/* dir, made writable by everyone, with a link named.ini to the planted file */
static void plant(const char *dir)
{
	char *link = xasprintf("%s/named.ini", dir);

	if (mkdir(dir, 0777) < 0 || chmod(dir, 0777) < 0 || symlink(planted_file, link) < 0)
		abort();
	free(link);
}

/* The other user makes appear_dir as soon as the loader found it missing. */
static void maybe_appear(const char *path, int r)
{
	if (appear_dir && r < 0 && errno == ENOENT && !strcmp(path, appear_dir)) {
		plant(appear_dir);
		appear_dir = NULL;
		errno = ENOENT;
	}
}

/* The other user replaces the directory of swap_file before it is looked at. */
static void maybe_swap(const char *path)
{
	char *dir, *old;

	if (!swap_file || strcmp(path, swap_file))
		return;
	dir = strndup(swap_file, (size_t)(strrchr(swap_file, '/') - swap_file));
	old = xasprintf("%s-old", dir);
	if (!dir || rename(dir, old) < 0)
		abort();
	plant(dir);
	swap_file = NULL;
	free(old);
	free(dir);
}

int stat(const char *path, struct stat *st)
{
	int r = (int)syscall(SYS_newfstatat, AT_FDCWD, path, st, 0);

	maybe_appear(path, r);
	return r;
}

int lstat(const char *path, struct stat *st)
{
	maybe_swap(path);
	return (int)syscall(SYS_newfstatat, AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;
	int r;

	if (flags & (O_CREAT | __O_TMPFILE)) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	r = (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
	maybe_appear(path, r);
	return r;
}

/* The walk to a search directory opens it one component at a time. */
int openat(int dfd, const char *name, int flags, ...)
{
	char link[64], dir[PATH_MAX], *path;
	mode_t mode = 0;
	va_list ap;
	ssize_t n;
	int r;

	if (flags & (O_CREAT | __O_TMPFILE)) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	r = (int)syscall(SYS_openat, dfd, name, flags, mode);
	if (r >= 0 || errno != ENOENT || dfd == AT_FDCWD || name[0] == '/')
		return r;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", dfd);
	n = readlink(link, dir, sizeof(dir) - 1);
	if (n < 0)
		abort();
	dir[n] = '\0';
	path = xasprintf("%s/%s", dir, name);
	maybe_appear(path, r);
	free(path);
	errno = ENOENT;
	return r;
}

static bool is_planted(const struct profile *p)
{
	return p && p->description && !strcmp(p->description, "planted");
}

static void test_appears(void)
{
	char *late = xasprintf("%s/late", tmpdir), *real = xasprintf("%s/real", tmpdir);
	char *sp = xasprintf("%s:%s", late, real), *f = xasprintf("%s/named.ini", real);
	struct profile *p;
	struct diag d;
	int r;

	if (mkdir(real, 0755) < 0)
		abort();
	write_file(f, "[profile]\ndescription = real\n[filter]\ndefault-action = allow\n");
	appear_dir = late;
	p = load_named(sp, &d, &r);
	tap_ok(!appear_dir, "appears: the directory was made after it was found missing");
	tap_ok(!is_planted(p), "appears: a directory missing when checked is not looked in");
	tap_ok(r == 0 && p && p->description && !strcmp(p->description, "real"),
	       "appears: the profile of the next directory");
	profile_free(p);
	diag_clear(&d);
	free(f);
	free(sp);
	free(real);
	free(late);
}

static void test_replaced(void)
{
	char *dir = xasprintf("%s/swapped", tmpdir), *f = xasprintf("%s/named.ini", dir);
	struct profile *p;
	struct diag d;
	bool said = false;
	int r;

	if (mkdir(dir, 0755) < 0)
		abort();
	write_file(f, "[profile]\ndescription = real\n[filter]\ndefault-action = allow\n");
	swap_file = f;
	p = load_named(dir, &d, &r);
	tap_ok(!swap_file, "replaced: the directory was replaced after it was checked");
	tap_ok(!is_planted(p) && r < 0 && !p,
	       "replaced: the file of the directory put in its place is refused");
	for (size_t i = 0; i < d.n_msgs; i++)
		said |= d.msgs[i].severity == DIAG_ERROR && d.msgs[i].text &&
			strstr(d.msgs[i].text, "replaced");
	tap_ok(said, "replaced: the error says so");
	profile_free(p);
	diag_clear(&d);
	free(f);
	free(dir);
}

int main(void)
{
	char *cmd;

	if (!mkdtemp(tmpdir) || chmod(tmpdir, 0755) < 0)
		abort();
	planted_file = xasprintf("%s/planted.ini", tmpdir);
	write_file(planted_file,
		   "[profile]\ndescription = planted\n[filter]\ndefault-action = allow\n");
	test_appears();
	test_replaced();
	cmd = xasprintf("rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		tap_diag("could not remove %s", tmpdir);
	free(cmd);
	free(planted_file);
	return tap_done();
}
