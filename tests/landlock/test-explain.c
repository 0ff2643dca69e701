/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --explain-path: the deciding line for read, write and exec, nested paths,
 * '.' and '?' paths, denials, and the printed form.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "landlock.h"
#include "tap.h"

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

/* The verdict for path; line 0 when no rule decided. */
static void expect(const char *path, enum landlock_access a, int want, unsigned want_line)
{
	const struct landlock_path_rule *pr;
	int r = landlock_explain(&c, "/home/u/proj", path, a, &pr);
	unsigned got_line = pr ? pr->loc.line : 0;

	if (!tap_ok(r == want && got_line == want_line, "%s %s -> %d by line %u", path,
		    landlock_access_name(a), want, want_line))
		tap_diag("got %d by line %u", r, got_line);
}

static char *printed(const char *cwd, const char *path, enum landlock_access a, int *ret)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	*ret = landlock_explain_print(&c, cwd, path, a, f);
	fclose(f);
	return out;
}

int main(void)
{
	enum landlock_access a;
	const struct landlock_path_rule *pr;
	char *out;
	int r;

	landlock_config_init(&c);
	expect("/etc/passwd", LANDLOCK_ACCESS_WRITE, LANDLOCK_UNRESTRICTED, 0);
	out = printed(NULL, "/etc/passwd", LANDLOCK_ACCESS_WRITE, &r);
	tap_ok(r == LANDLOCK_UNRESTRICTED &&
		       !strcmp(out, "/etc/passwd: write allowed (paths are not restricted: no "
				    "path key in [landlock])\n"),
	       "without a path key, paths are not restricted: %s", out);
	free(out);

	line(3, "read-exec", "/usr /bin");
	line(4, "read", "/usr/share /etc");
	line(5, "write", ". /tmp /var/cache/app?");
	line(6, "devices", "/dev/null");
	line(7, "read", "/usr/share/doc");
	line(8, "read", "/opt/tool?");
	line(9, "write", "/usr/share/doc/pkg");
	line(10, "read", "/");

	/* nested: the nearest listed ancestor that grants the access decides */
	expect("/usr/bin/ls", LANDLOCK_ACCESS_EXEC, LANDLOCK_ALLOWED, 3);
	expect("/usr/bin/ls", LANDLOCK_ACCESS_READ, LANDLOCK_ALLOWED, 3);
	expect("/usr/share/zoneinfo/UTC", LANDLOCK_ACCESS_READ, LANDLOCK_ALLOWED, 4);
	expect("/usr/share/zoneinfo/UTC", LANDLOCK_ACCESS_EXEC, LANDLOCK_ALLOWED, 3);
	expect("/usr/share/doc/x/README", LANDLOCK_ACCESS_READ, LANDLOCK_ALLOWED, 7);
	expect("/usr/share/doc/pkg/README", LANDLOCK_ACCESS_WRITE, LANDLOCK_ALLOWED, 9);
	expect("/usr/share/doc/pkg/README", LANDLOCK_ACCESS_READ, LANDLOCK_ALLOWED, 9);
	expect("/usr/share/doc/other", LANDLOCK_ACCESS_WRITE, LANDLOCK_DENIED, 0);
	expect("/usr", LANDLOCK_ACCESS_READ, LANDLOCK_ALLOWED, 3);
	/* a path that only shares a prefix with a rule is not beneath it */
	expect("/usr/sharex/a", LANDLOCK_ACCESS_READ, LANDLOCK_ALLOWED, 3);
	expect("/etcetera/x", LANDLOCK_ACCESS_READ, LANDLOCK_ALLOWED, 10);
	expect("/etcetera/x", LANDLOCK_ACCESS_EXEC, LANDLOCK_DENIED, 0);
	/* '/' covers everything for read only */
	expect("/srv/data", LANDLOCK_ACCESS_READ, LANDLOCK_ALLOWED, 10);
	expect("/srv/data", LANDLOCK_ACCESS_WRITE, LANDLOCK_DENIED, 0);
	expect("/etc/shadow", LANDLOCK_ACCESS_WRITE, LANDLOCK_DENIED, 0);
	/* devices grants read and write, not exec */
	expect("/dev/null", LANDLOCK_ACCESS_WRITE, LANDLOCK_ALLOWED, 6);
	expect("/dev/null", LANDLOCK_ACCESS_EXEC, LANDLOCK_DENIED, 0);
	expect("/dev/zero", LANDLOCK_ACCESS_WRITE, LANDLOCK_DENIED, 0);
	/* '.' is the working directory, a relative path is relative to it */
	expect("/home/u/proj/out.txt", LANDLOCK_ACCESS_WRITE, LANDLOCK_ALLOWED, 5);
	expect("out/a.txt", LANDLOCK_ACCESS_WRITE, LANDLOCK_ALLOWED, 5);
	expect("/home/u/projshop", LANDLOCK_ACCESS_WRITE, LANDLOCK_DENIED, 0);
	expect("/home/u", LANDLOCK_ACCESS_WRITE, LANDLOCK_DENIED, 0);
	/* '?' paths decide like any other */
	expect("/var/cache/app/db", LANDLOCK_ACCESS_WRITE, LANDLOCK_ALLOWED, 5);
	expect("/opt/tool/bin/t", LANDLOCK_ACCESS_READ, LANDLOCK_ALLOWED, 8);
	expect("/opt/tool/bin/t", LANDLOCK_ACCESS_EXEC, LANDLOCK_DENIED, 0);
	/* written with extra '/' and '.' components */
	expect("//tmp/./x//", LANDLOCK_ACCESS_WRITE, LANDLOCK_ALLOWED, 5);
	expect("/tmp", LANDLOCK_ACCESS_WRITE, LANDLOCK_ALLOWED, 5);

	tap_is(landlock_explain(&c, NULL, "rel/x", LANDLOCK_ACCESS_READ, &pr), -EINVAL,
	       "a relative path without a working directory cannot be explained");
	tap_is(landlock_explain(&c, "/", "/usr/../etc", LANDLOCK_ACCESS_READ, &pr), -EINVAL,
	       "a path with '..' cannot be explained");
	tap_is(landlock_explain(&c, NULL, "/home/u/proj/x", LANDLOCK_ACCESS_WRITE, &pr),
	       LANDLOCK_DENIED, "without a working directory '.' matches nothing");

	out = printed("/home/u/proj", "/usr/bin/ls", LANDLOCK_ACCESS_EXEC, &r);
	tap_ok(r == LANDLOCK_ALLOWED && !strcmp(out, "/usr/bin/ls: exec allowed by t.ini:3\n"),
	       "printed: allowed by FILE:LINE: %s", out);
	free(out);
	out = printed("/home/u/proj", "/etc/shadow", LANDLOCK_ACCESS_WRITE, &r);
	tap_ok(r == LANDLOCK_DENIED &&
		       !strcmp(out, "/etc/shadow: write denied (no rule covers it)\n"),
	       "printed: denied: %s", out);
	free(out);
	out = printed("/home/u/proj", "/opt/tool/x", LANDLOCK_ACCESS_READ, &r);
	tap_ok(r == LANDLOCK_ALLOWED &&
		       !strcmp(out, "/opt/tool/x: read allowed by t.ini:8 (an optional path: if it "
				    "exists at launch)\n"),
	       "printed: an optional path says so: %s", out);
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
	out = printed(NULL, "/srv/esc/\033]0;t\a", LANDLOCK_ACCESS_READ, &r);
	tap_ok(r == LANDLOCK_ALLOWED && !strcmp(out, "/srv/esc/\\x1b]0;t\\x07: read allowed by "
						     "e\\x1b[31mX.ini:12\n"),
	       "printed: the path and the file name are escaped: %s", out);
	free(out);
	out = printed(NULL, "/srv/x\033", LANDLOCK_ACCESS_WRITE, &r);
	tap_ok(r == LANDLOCK_DENIED &&
		       !strcmp(out, "/srv/x\\x1b: write denied (no rule covers it)\n"),
	       "printed: a denied path is escaped: %s", out);
	free(out);
	out = printed(NULL, "x", LANDLOCK_ACCESS_READ, &r);
	tap_ok(r == -EINVAL && !*out, "printed: nothing for a path that cannot be explained");
	free(out);

	line(11, "mode", "off");
	out = printed(NULL, "/etc/shadow", LANDLOCK_ACCESS_WRITE, &r);
	tap_ok(r == LANDLOCK_UNRESTRICTED &&
		       !strcmp(out, "/etc/shadow: write allowed (paths are not restricted: "
				    "[landlock] mode = off)\n"),
	       "mode off: not restricted: %s", out);
	free(out);

	tap_ok(landlock_access_parse("exec", &a) == 0 && a == LANDLOCK_ACCESS_EXEC &&
		       landlock_access_parse("write", &a) == 0 && a == LANDLOCK_ACCESS_WRITE &&
		       landlock_access_parse("read", &a) == 0 && a == LANDLOCK_ACCESS_READ,
	       "access names parse");
	tap_is(landlock_access_parse("execute", &a), -EINVAL, "an unknown access is refused");
	landlock_config_clear(&c);
	return tap_done();
}
