/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of the profile search path: the directory order, the lookup of
 * -p NAME and the list of --list-profiles walk the same directories. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/profile-path.h"
#include "tests/profiles/xasprintf.h"
#include "tests/tap.h"

static char tmpdir[] = "/tmp/test-profile-path-XXXXXX";

static void touch(const char *rel)
{
	char *p = xasprintf("%s/%s", tmpdir, rel);
	int fd = open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);

	if (fd < 0)
		abort();
	close(fd);
	free(p);
}

/* The directories the iterator yields, joined with '|'. */
static char *walk(const char *search_path, const char *installed)
{
	struct profile_dirs it;
	const char *d;
	char *s = strdup("");

	profile_dirs_init(&it, search_path, installed);
	while (s && (d = profile_dirs_next(&it))) {
		char *t = xasprintf("%s%s%s", s, *s ? "|" : "", d);

		free(s);
		s = t;
	}
	return s;
}

static void test_order(void)
{
	char *s, *long_entry, *sp, *want;

	s = walk("/a::/b:", "/inst");
	tap_ok(!strcmp(s, "/a|/b|" PROFILE_SYSCONF_DIR "|/inst"),
	       "search path entries, empty ones skipped, then sysconf and installed ('%s')", s);
	free(s);
	s = walk(NULL, NULL);
	tap_ok(!strcmp(s, PROFILE_SYSCONF_DIR), "no search path, no installed dir ('%s')", s);
	free(s);
	s = walk(":", "");
	tap_ok(!strcmp(s, PROFILE_SYSCONF_DIR), "only empty entries, empty installed dir ('%s')",
	       s);
	free(s);
	s = walk(".:rel/dir:/a:..:./b", NULL);
	tap_ok(!strcmp(s, "/a|" PROFILE_SYSCONF_DIR),
	       "relative entries are skipped: never the current directory ('%s')", s);
	free(s);

	long_entry = malloc(PATH_MAX + 1);
	if (!long_entry)
		abort();
	memset(long_entry, 'x', PATH_MAX);
	long_entry[0] = '/';
	long_entry[PATH_MAX] = '\0';
	sp = xasprintf("/a:%s:/b", long_entry);
	s = walk(sp, NULL);
	long_entry[PROFILE_DIRS_SHOWN] = '\0';
	want = xasprintf("/a|%s...|/b|" PROFILE_SYSCONF_DIR, long_entry);
	tap_ok(!strcmp(s, want), "an entry of PATH_MAX bytes comes cut short, not skipped");
	free(want);
	free(s);
	free(sp);
	free(long_entry);
}

static void test_list(void)
{
	char *a = xasprintf("%s/a", tmpdir), *b = xasprintf("%s/b", tmpdir);
	char *sp = xasprintf("%s::%s:%s/missing", b, a, tmpdir), **names, *p;
	size_t n;
	int r;

	mkdir(a, 0755);
	mkdir(b, 0755);
	touch("a/zeta.ini");
	touch("a/alpha.ini");
	touch("b/alpha.ini");
	touch("b/plain");
	touch("b/.ini");
	touch("b/mid.ini.bak");

	r = profile_names_list(sp, NULL, &names, &n);
	tap_ok(r == 0 && n >= 2, "list: returns the names");
	/* sysconf may add names of this machine: look at ours only */
	{
		size_t alpha = 0, zeta = 0, other = 0;

		for (size_t i = 0; r == 0 && i < n; i++) {
			alpha += !strcmp(names[i], "alpha");
			zeta += !strcmp(names[i], "zeta");
			other += !strcmp(names[i], "plain") || !strcmp(names[i], "") ||
				 !strcmp(names[i], "mid.ini.bak") || !strcmp(names[i], "mid");
			if (i && strcmp(names[i - 1], names[i]) >= 0)
				other++;
		}
		tap_ok(alpha == 1 && zeta == 1, "list: NAME.ini files, each name once");
		tap_ok(other == 0, "list: sorted, no other files, no empty name");
	}
	profile_names_free(names, n);

	/* The name the list shows is the one -p NAME finds first. */
	p = profile_find("alpha", sp, NULL);
	tap_ok(p && !strncmp(p, b, strlen(b)), "find: the first directory of the list wins");
	free(p);

	/* An entry too long to open may name a directory with the first
	 * match: the lookup ends there, the list passes over it. */
	{
		char *pad = malloc(PATH_MAX + 1), *lsp;
		size_t n_long = 0;

		if (!pad)
			abort();
		memset(pad, '/', PATH_MAX);
		pad[PATH_MAX] = '\0';
		lsp = xasprintf("%s%s:%s", pad, a, sp);
		errno = 0;
		p = profile_find("alpha", lsp, NULL);
		tap_ok(!p && errno == ENAMETOOLONG,
		       "find: an entry of PATH_MAX bytes ends the lookup (ENAMETOOLONG)");
		free(p);
		r = profile_names_list(lsp, NULL, &names, &n_long);
		tap_ok(r == 0 && n_long == n, "list: ... and is passed over (%zu names, want %zu)",
		       n_long, n);
		profile_names_free(names, n_long);
		free(lsp);
		free(pad);
	}

	/* A directory of the name is passed over (scmp-run(1) PROFILE LOOKUP):
	 * the lookup goes on with NAME.ini, then the next directory. */
	p = xasprintf("%s/zeta", b);
	mkdir(p, 0755);
	free(p);
	p = profile_find("zeta", sp, NULL);
	tap_ok(p && !strcmp(p + strlen(a), "/zeta.ini") && !strncmp(p, a, strlen(a)),
	       "find: a directory NAME is passed over for a later NAME.ini ('%s')", p ? p : "");
	free(p);

	r = profile_names_list(NULL, a, &names, &n);
	tap_ok(r == 0, "list: the installed directory is read");
	{
		bool zeta = false;

		for (size_t i = 0; r == 0 && i < n; i++)
			zeta |= !strcmp(names[i], "zeta");
		tap_ok(zeta, "list: names of the installed directory");
	}
	profile_names_free(names, n);
	free(sp);
	free(a);
	free(b);
}

/* profile_find_visit(): the directories looked in, joined with '|'. */
static int collect(const char *dir, int dfd, const char *below, void *ctx)
{
	char **s = ctx;

	if (below)
		return 0;
	char *t = xasprintf("%s%s%s", *s, **s ? "|" : "", dir);

	free(*s);
	*s = t;
	return 0;
}

/* A visitor that stops the search at the first directory. */
static int refuse(const char *dir, int dfd, const char *below, void *ctx)
{
	(*(int *)ctx)++;
	return -EACCES;
}

static void test_visit(void)
{
	char *a = xasprintf("%s/va", tmpdir), *b = xasprintf("%s/vb", tmpdir);
	char *sp = xasprintf("%s:%s", a, b), *seen = strdup(""), *p, *want;
	char old_cwd[PATH_MAX];

	mkdir(a, 0755);
	mkdir(b, 0755);
	touch("vb/found.ini");
	touch("here");
	p = profile_find_visit("found", sp, NULL, collect, &seen, NULL);
	want = xasprintf("%s|%s", a, b);
	tap_ok(p && seen && !strcmp(seen, want),
	       "visit: every directory looked in, up to the one that has it ('%s')", seen);
	free(p);
	free(want);
	{
		int calls = 0;

		errno = 0;
		p = profile_find_visit("found", sp, NULL, refuse, &calls, NULL);
		tap_ok(!p && errno == EACCES && calls == 1,
		       "visit: a visitor's error stops the search before the directory is looked in");
		free(p);
	}
	errno = 0;
	tap_ok(!profile_find_visit("x/found", sp, NULL, NULL, NULL, NULL) && errno == ENOENT,
	       "visit: a name with '/' is no NAME");
	/* A file in the current directory is never found by NAME. */
	if (getcwd(old_cwd, sizeof(old_cwd)) && chdir(tmpdir) == 0) {
		errno = 0;
		p = profile_find("here", ".", NULL);
		tap_ok(!p && errno == ENOENT, "find: not in the current directory, even with '.'");
		free(p);
		if (chdir(old_cwd) < 0)
			abort();
	} else {
		tap_skip("cannot change directory");
	}
	tap_ok(profile_is_path("./x") && profile_is_path("/x") && !profile_is_path("x.ini"),
	       "a path has a '/'; 'x.ini' alone is a NAME for -p");
	free(seen);
	free(sp);
	free(a);
	free(b);
}

/* The directories visited on the way (below set), joined with '|'. */
static int collect_above(const char *dir, int dfd, const char *below, void *ctx)
{
	char **s = ctx;
	char *t;

	if (!below)
		return 0;
	t = xasprintf("%s%s%s", *s, **s ? "|" : "", dir);
	free(*s);
	*s = t;
	return 0;
}

/* The directories from "/" down to dir, joined with '|' as collect_above()
 * joins them: "/", "/tmp", ... up to the parent of dir. */
static char *on_the_way(const char *dir)
{
	char *s = strdup("/");
	const char *slash = dir;

	while ((slash = strchr(slash + 1, '/'))) {
		char *t = xasprintf("%s|%.*s", s, (int)(slash - dir), dir);

		free(s);
		s = t;
	}
	return s;
}

/* a|b, in a buffer that lives until the next call */
static const char *xjoin(const char *a, const char *b)
{
	static char *last;

	free(last);
	last = xasprintf("%s|%s", a, b);
	return last;
}

/* The directories visited on the way to dir, a search path of one
 * directory, in a buffer that lives until the next call ("" if the
 * profile was not found there). */
static const char *above_of(const char *dir)
{
	static char *above;
	char *p;

	free(above);
	above = strdup("");
	p = profile_find_visit("found", dir, NULL, collect_above, &above, NULL);
	if (!p)
		*above = '\0';
	free(p);
	return above;
}

static void test_walk(void)
{
	char *vb = xasprintf("%s/vb", tmpdir), *want = on_the_way(vb), *dir, *tail;
	const char *above;

	above = above_of(vb);
	tap_ok(!strcmp(above, want), "walk: every directory on the way is visited, from '/'");

	/* a link: the directories it lies in, then those of its target */
	dir = xasprintf("%s/abs", tmpdir);
	if (symlink(vb, dir) < 0)
		abort();
	above = above_of(dir);
	tap_ok(!strcmp(above, xjoin(want, want)),
	       "walk: an absolute link's target is walked from '/' ('%s')", above);
	free(dir);

	dir = xasprintf("%s/rel", tmpdir);
	tail = xasprintf("%s|%s/va|%s", tmpdir, tmpdir, tmpdir);
	if (symlink("va/../vb", dir) < 0)
		abort();
	above = above_of(dir);
	tap_ok(!strcmp(above, xjoin(want, tail)),
	       "walk: a relative link is walked from its directory, '..' too ('%s')", above);
	free(tail);
	free(dir);

	dir = xasprintf("%s/loop", tmpdir);
	if (symlink(dir, dir) < 0)
		abort();
	tap_ok(!*above_of(dir), "walk: a link to itself is no directory to search");
	free(dir);

	/* a name of NAME_MAX bytes holds the profile; one byte more is
	 * another name, which no directory can have */
	dir = xasprintf("%s/%0*d", tmpdir, NAME_MAX, 0);
	if (mkdir(dir, 0755) < 0)
		abort();
	tail = xasprintf("%0*d/found.ini", NAME_MAX, 0);
	touch(tail);
	tap_ok(*above_of(dir), "walk: a directory named with NAME_MAX bytes is searched");
	free(tail);
	tail = xasprintf("%s0", dir);
	tap_ok(!*above_of(tail), "walk: a name longer than NAME_MAX is not cut to one that exists");
	free(tail);
	free(dir);

	/* a link whose target, with what follows it, is longer than a path
	 * can be: skipped whole, though the kernel resolves it to a directory
	 * that has the profile, and not cut to another */
	dir = xasprintf("%s/long", tmpdir);
	tail = malloc(PATH_MAX - 64);
	if (!tail)
		abort();
	for (size_t i = 0; i + 1 < PATH_MAX - 64; i += 2) /* "././...": the directory itself */
		memcpy(tail + i, "./", 2);
	tail[PATH_MAX - 64 - 1] = '\0';
	if (symlink(tail, dir) < 0)
		abort();
	free(tail);
	tail = xasprintf("%s/%0*d", tmpdir, 100, 0);
	if (mkdir(tail, 0755) < 0)
		abort();
	free(tail);
	tail = xasprintf("%0*d/found.ini", 100, 0);
	touch(tail);
	free(tail);
	tail = xasprintf("%s/%0*d", dir, 100, 0);
	if (access(tail, F_OK) < 0)
		abort(); /* the kernel finds it */
	tap_ok(!*above_of(tail), "walk: a link too long to walk with the rest gives no directory");
	free(tail);
	free(dir);

	dir = xasprintf("%s/here/sub", tmpdir);
	tap_ok(!*above_of(dir), "walk: a file on the way is no directory to search");
	free(dir);
	free(want);
	free(vb);
}

static void test_find(void)
{
	errno = 0;
	tap_ok(!profile_find("", NULL, NULL) && errno == ENOENT, "find: the empty name is ENOENT");
	errno = 0;
	tap_ok(!profile_find(NULL, NULL, NULL) && errno == ENOENT, "find: NULL is ENOENT");
}

int main(void)
{
	char *cmd;

	if (!mkdtemp(tmpdir))
		abort();
	test_order();
	test_list();
	test_visit();
	test_walk();
	test_find();
	cmd = xasprintf("rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		tap_diag("could not remove %s", tmpdir);
	free(cmd);
	return tap_done();
}
