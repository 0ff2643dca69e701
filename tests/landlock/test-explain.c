/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --explain-path: the deciding line of each right an access needs, by
 * what the path is (directory, regular file, other file, missing), nested
 * paths, '.' and '?' paths, denials, and the printed form.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "landlock.h"
#include "tap.h"

#define DIR   LANDLOCK_KIND_DIR
#define REG   LANDLOCK_KIND_REG
#define OTHER LANDLOCK_KIND_OTHER
#define NONE  LANDLOCK_KIND_MISSING
#define R     LANDLOCK_ACCESS_READ
#define W     LANDLOCK_ACCESS_WRITE
#define X     LANDLOCK_ACCESS_EXEC

static struct landlock_config c;

static void line(unsigned n, const char *key, const char *value)
{
	struct src_loc loc = { .file = "t.ini", .line = n };
	struct diag d;

	diag_init(&d);
	if (landlock_parse_key_diag(&c, key, value, &loc, &d) < 0)
		diag_print(&d, "test", stdout);
	diag_clear(&d);
}

static unsigned line_of(const struct landlock_need *n)
{
	return n->rule ? n->rule->loc.line : 0;
}

/* The verdict for path and the line deciding each right it needs (0: no
 * rule grants it; l2 for the second right of a write that creates). */
static void expect(const char *path, enum landlock_kind k, enum landlock_access a, int want,
		   unsigned l1, unsigned l2)
{
	struct landlock_explanation e;
	int r = landlock_explain(&c, "/home/u/proj", path, k, a, &e);
	unsigned g1 = line_of(&e.needs[0]), g2 = e.n_needs > 1 ? line_of(&e.needs[1]) : 0;

	if (!tap_ok(r == want && g1 == l1 && g2 == l2, "%s (kind %d) %s -> %d by lines %u %u", path,
		    k, landlock_access_name(a), want, l1, l2))
		tap_diag("got %d by lines %u %u", r, g1, g2);
}

static char *printed(const char *cwd, const char *path, enum landlock_kind k,
		     enum landlock_access a, int *ret)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	*ret = landlock_explain_print(&c, cwd, path, k, a, f);
	fclose(f);
	return out;
}

/* A stream that takes *cookie bytes and then fails every write. */
static ssize_t short_write(void *cookie, const char *buf, size_t size)
{
	size_t *left = cookie;

	(void)buf;
	if (*left < size)
		return -1;
	*left -= size;
	return (ssize_t)size;
}

/* Printing fails with -EIO wherever the stream stops taking bytes. */
static bool fails_when_cut(const char *path, enum landlock_kind k, enum landlock_access a,
			   size_t len)
{
	for (size_t cut = 0; cut < len; cut++) {
		size_t left = cut;
		FILE *f = fopencookie(&left, "w", (cookie_io_functions_t){ .write = short_write });
		int r;

		setvbuf(f, NULL, _IONBF, 0);
		r = landlock_explain_print(&c, "/home/u/proj", path, k, a, f);
		fclose(f);
		if (r != -EIO) {
			tap_diag("cut at %zu: %d", cut, r);
			return false;
		}
	}
	return true;
}

/* The printed line for path, with the verdict want; -EIO when the stream
 * fails anywhere in it. */
static void expect_printed(const char *path, enum landlock_kind k, enum landlock_access a, int want,
			   const char *text)
{
	int r;
	char *out = printed("/home/u/proj", path, k, a, &r);

	if (!tap_ok(r == want && !strcmp(out, text), "printed: %s", text))
		tap_diag("got %d: %s", r, out);
	tap_ok(fails_when_cut(path, k, a, strlen(text)), "... -EIO when writing fails");
	free(out);
}

static void test_nested(void)
{
	line(3, "read-exec", "/usr /bin");
	line(4, "read", "/usr/share /etc");
	line(5, "write", ". /tmp /var/cache/app?");
	line(6, "devices", "/dev/null");
	line(7, "read", "/usr/share/doc");
	line(8, "read", "/opt/tool?");
	line(9, "write", "/usr/share/doc/pkg");
	line(10, "read", "/");

	/* nested: the nearest listed ancestor that grants the right decides */
	expect("/usr/bin/ls", REG, X, LANDLOCK_ALLOWED, 3, 0);
	expect("/usr/bin/ls", REG, R, LANDLOCK_ALLOWED, 3, 0);
	expect("/usr/share/zoneinfo/UTC", REG, R, LANDLOCK_ALLOWED, 4, 0);
	expect("/usr/share/zoneinfo/UTC", REG, X, LANDLOCK_ALLOWED, 3, 0);
	expect("/usr/share/doc/x/README", REG, R, LANDLOCK_ALLOWED, 7, 0);
	expect("/usr/share/doc/pkg/README", REG, W, LANDLOCK_ALLOWED, 9, 0);
	expect("/usr/share/doc/pkg/README", REG, R, LANDLOCK_ALLOWED, 9, 0);
	expect("/usr/share/doc/other", REG, W, LANDLOCK_DENIED, 0, 0);
	expect("/usr", DIR, R, LANDLOCK_ALLOWED, 3, 0);
	/* a path that only shares a prefix with a rule is not beneath it */
	expect("/usr/sharex/a", REG, R, LANDLOCK_ALLOWED, 3, 0);
	expect("/etcetera/x", REG, R, LANDLOCK_ALLOWED, 10, 0);
	expect("/etcetera/x", REG, X, LANDLOCK_DENIED, 0, 0);
	/* '/' covers everything for read only */
	expect("/srv/data", DIR, R, LANDLOCK_ALLOWED, 10, 0);
	expect("/srv/data", DIR, W, LANDLOCK_DENIED, 0, 0);
	expect("/etc/shadow", REG, W, LANDLOCK_DENIED, 0, 0);
	/* devices grants read and write, not exec */
	expect("/dev/null", OTHER, W, LANDLOCK_ALLOWED, 6, 0);
	expect("/dev/null", OTHER, X, LANDLOCK_DENIED, 0, 0);
	expect("/dev/zero", OTHER, W, LANDLOCK_DENIED, 0, 0);
	/* '.' is the working directory, a relative path is relative to it */
	expect("/home/u/proj/out.txt", REG, W, LANDLOCK_ALLOWED, 5, 0);
	expect("/home/u/proj/out.txt", NONE, W, LANDLOCK_ALLOWED, 5, 5);
	expect("out/a.txt", NONE, W, LANDLOCK_ALLOWED, 5, 5);
	expect("/home/u/projshop", REG, W, LANDLOCK_DENIED, 0, 0);
	expect("/home/u", DIR, W, LANDLOCK_DENIED, 0, 0);
	/* '?' paths decide like any other */
	expect("/var/cache/app/db", REG, W, LANDLOCK_ALLOWED, 5, 0);
	expect("/opt/tool/bin/t", REG, R, LANDLOCK_ALLOWED, 8, 0);
	expect("/opt/tool/bin/t", REG, X, LANDLOCK_DENIED, 0, 0);
	/* written with extra '/' and '.' components */
	expect("//tmp/./x//", NONE, W, LANDLOCK_ALLOWED, 5, 5);
	expect("/tmp", DIR, W, LANDLOCK_ALLOWED, 5, 5);
	/* creating is decided on the directory: a rule on the missing path
	 * itself (an optional one that was skipped) does not count */
	expect("/var/cache/app", NONE, W, LANDLOCK_DENIED, 0, 0);
}

static void test_errors(void)
{
	struct landlock_explanation e;

	tap_is(landlock_explain(&c, NULL, "rel/x", REG, R, &e), -EINVAL,
	       "a relative path without a working directory cannot be explained");
	tap_is(landlock_explain(&c, "/", "/usr/../etc", DIR, R, &e), -EINVAL,
	       "a path with '..' cannot be explained");
	tap_is(landlock_explain(&c, NULL, "/home/u/proj/x", REG, W, &e), LANDLOCK_DENIED,
	       "without a working directory '.' matches nothing");
}

static void test_printed(void)
{
	char *out;
	int r;

	expect_printed("/usr/bin/ls", REG, X, LANDLOCK_ALLOWED,
		       "/usr/bin/ls: exec allowed by t.ini:3\n");
	expect_printed("/etc/shadow", REG, W, LANDLOCK_DENIED,
		       "/etc/shadow: write denied (no rule grants write-file)\n");
	expect_printed("/opt/tool/x", REG, R, LANDLOCK_ALLOWED,
		       "/opt/tool/x: read allowed by t.ini:8 (an optional path: if it exists at "
		       "launch)\n");
	out = printed(NULL, "x", REG, R, &r);
	tap_ok(r == -EINVAL && !*out, "printed: nothing for a path that cannot be explained");
	free(out);

	/* scmp-run(1) DIAGNOSTICS: the path (an argument) and the file name (an
	 * include line) are escaped; a raw ESC would reach the terminal */
	{
		struct src_loc loc = { .file = "e\033[31mX.ini", .line = 12 };
		struct diag d;

		diag_init(&d);
		landlock_parse_key_diag(&c, "read", "/srv/esc", &loc, &d);
		tap_is((int)d.n_msgs, 0, "a rule from a file with ESC in its name");
		diag_clear(&d);
	}
	expect_printed("/srv/esc/\033]0;t\a", REG, R, LANDLOCK_ALLOWED,
		       "/srv/esc/\\x1b]0;t\\x07: read allowed by e\\x1b[31mX.ini:12\n");
	expect_printed("/srv/x\033", REG, W, LANDLOCK_DENIED,
		       "/srv/x\\x1b: write denied (no rule grants write-file)\n");

	line(11, "mode", "off");
	expect_printed("/etc/shadow", REG, W, LANDLOCK_UNRESTRICTED,
		       "/etc/shadow: write allowed (paths are not restricted: [landlock] mode = "
		       "off)\n");
}

/*
 * The rights follow what the path is; each may come from another rule:
 * read-dir to list a directory, make-reg to create a file, truncate for
 * O_TRUNC on a regular file. devices grants none of the three.
 */
static void test_kinds(void)
{
	landlock_config_clear(&c);
	line(1, "devices", "/srv/ll/d /dev/null");
	line(2, "read", "/etc");
	line(3, "write", "/srv/w");
	line(4, "devices", "/srv/w/dev");
	line(5, "read-exec", "/usr");

	expect("/srv/ll/d", DIR, R, LANDLOCK_DENIED, 0, 0);
	expect("/srv/ll/d/f", REG, R, LANDLOCK_ALLOWED, 1, 0);
	expect("/srv/ll/d/new", NONE, W, LANDLOCK_DENIED, 0, 1);
	expect("/srv/ll/d", DIR, W, LANDLOCK_DENIED, 0, 1);
	expect("/srv/w/dev/new", NONE, W, LANDLOCK_ALLOWED, 3, 4);
	expect("/etc", DIR, R, LANDLOCK_ALLOWED, 2, 0);

	expect_printed("/srv/ll/d", DIR, R, LANDLOCK_DENIED,
		       "/srv/ll/d: read denied (no rule grants read-dir)\n");
	expect_printed("/srv/ll/d/f", REG, R, LANDLOCK_ALLOWED,
		       "/srv/ll/d/f: read allowed by t.ini:1\n");
	expect_printed("/srv/ll/d/f", REG, X, LANDLOCK_DENIED,
		       "/srv/ll/d/f: exec denied (no rule grants execute)\n");
	expect_printed("/srv/ll/d/new", NONE, W, LANDLOCK_DENIED,
		       "/srv/ll/d/new: write denied (creating it: no rule grants make-reg on its "
		       "directory)\n");
	expect_printed("/srv/ll/d/f", REG, W, LANDLOCK_ALLOWED,
		       "/srv/ll/d/f: write allowed by t.ini:1; truncating it denied (no rule "
		       "grants truncate)\n");
	expect_printed("/dev/null", OTHER, W, LANDLOCK_ALLOWED,
		       "/dev/null: write allowed by t.ini:1\n");
	expect_printed("/srv/ll/d", DIR, W, LANDLOCK_DENIED,
		       "/srv/ll/d: write denied (creating a file in it: no rule grants "
		       "make-reg)\n");
	expect_printed("/srv/w/dev/new", NONE, W, LANDLOCK_ALLOWED,
		       "/srv/w/dev/new: write allowed (creating it: make-reg on its directory by "
		       "t.ini:3, write-file by t.ini:4)\n");
	expect_printed("/srv/w/dev", DIR, W, LANDLOCK_ALLOWED,
		       "/srv/w/dev: write allowed (creating a file in it: make-reg by t.ini:3, "
		       "write-file by t.ini:4)\n");
	expect_printed("/srv/w/x", REG, W, LANDLOCK_ALLOWED,
		       "/srv/w/x: write allowed by t.ini:3; truncating it allowed by t.ini:3\n");
	expect_printed("/srv/w/new", NONE, W, LANDLOCK_ALLOWED,
		       "/srv/w/new: write allowed by t.ini:3 (creating it: make-reg and "
		       "write-file on its directory)\n");
	expect_printed("/srv/w", DIR, W, LANDLOCK_ALLOWED,
		       "/srv/w: write allowed by t.ini:3 (creating a file in it: make-reg and "
		       "write-file)\n");
	expect_printed("/srv/other/new", NONE, W, LANDLOCK_DENIED,
		       "/srv/other/new: write denied (creating it: no rule covers its "
		       "directory)\n");
	expect_printed("/etc/x", NONE, W, LANDLOCK_DENIED,
		       "/etc/x: write denied (creating it: no rule grants make-reg or write-file "
		       "on its directory)\n");
	expect_printed("/srv/nothing", REG, R, LANDLOCK_DENIED,
		       "/srv/nothing: read denied (no rule covers it)\n");
	/* reading a missing path: what reading it would need once it is a file */
	expect_printed("/etc/none", NONE, R, LANDLOCK_ALLOWED,
		       "/etc/none: read allowed by t.ini:2\n");
}

int main(void)
{
	enum landlock_access a;

	landlock_config_init(&c);
	expect("/etc/passwd", REG, W, LANDLOCK_UNRESTRICTED, 0, 0);
	expect_printed("/etc/passwd", REG, W, LANDLOCK_UNRESTRICTED,
		       "/etc/passwd: write allowed (paths are not restricted: no path key in "
		       "[landlock])\n");

	test_nested();
	test_errors();
	test_printed();
	test_kinds();

	tap_ok(landlock_access_parse("exec", &a) == 0 && a == LANDLOCK_ACCESS_EXEC &&
		       landlock_access_parse("write", &a) == 0 && a == LANDLOCK_ACCESS_WRITE &&
		       landlock_access_parse("read", &a) == 0 && a == LANDLOCK_ACCESS_READ,
	       "access names parse");
	tap_is(landlock_access_parse("execute", &a), -EINVAL, "an unknown access is refused");
	landlock_config_clear(&c);
	return tap_done();
}
