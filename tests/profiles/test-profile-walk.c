/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * -p NAME where the walk to a search directory fails for a reason no
 * profile can cause: "/" cannot be opened, a link on the way cannot be
 * read, a directory on the way cannot be examined. Each ends the lookup
 * with a message that names the directory (scmp-run(1) PROFILE LOOKUP);
 * none goes on to the next directory, which has a profile of that name.
 * This program replaces open(), readlinkat() and fstat() to fail them.
 */
#include <errno.h>
#include <fcntl.h>
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

static char tmpdir[] = "/tmp/test-profile-walk-XXXXXX";
static int fail_open_root, fail_readlinkat, fail_fstat; /* the errno to fail with */

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (flags & (O_CREAT | __O_TMPFILE)) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (fail_open_root && !strcmp(path, "/")) {
		errno = fail_open_root;
		return -1;
	}
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

ssize_t readlinkat(int dfd, const char *path, char *buf, size_t size)
{
	if (fail_readlinkat) {
		errno = fail_readlinkat;
		return -1;
	}
	return syscall(SYS_readlinkat, dfd, path, buf, size);
}

int fstat(int fd, struct stat *st)
{
	if (fail_fstat) {
		errno = fail_fstat;
		return -1;
	}
	return (int)syscall(SYS_newfstatat, fd, "", st, AT_EMPTY_PATH);
}

/* -p named with search_path, the trust check on: refused, with an error
 * that has want in it. */
static void refused(const char *what, const char *search_path, const char *want)
{
	struct profile *p;
	bool said = false;
	struct diag d;
	int r;

	p = load_named(search_path, &d, &r);
	fail_open_root = fail_readlinkat = fail_fstat = 0;
	tap_ok(r < 0 && !p, "%s: the lookup fails", what);
	for (size_t i = 0; i < d.n_msgs; i++)
		said |= d.msgs[i].severity == DIAG_ERROR && d.msgs[i].text &&
			strstr(d.msgs[i].text, want);
	tap_ok(said, "%s: the error says '%s'", what, want);
	if (!said)
		for (size_t i = 0; i < d.n_msgs; i++)
			tap_diag("got: %s", d.msgs[i].text ? d.msgs[i].text : "?");
	profile_free(p);
	diag_clear(&d);
}

int main(void)
{
	char *lib, *link, *f, *cmd, *sp, *want;

	if (!mkdtemp(tmpdir) || chmod(tmpdir, 0755) < 0)
		abort();
	lib = xasprintf("%s/lib", tmpdir);
	link = xasprintf("%s/link", tmpdir);
	f = xasprintf("%s/named.ini", lib);
	if (mkdir(lib, 0755) < 0 || symlink(lib, link) < 0)
		abort();
	write_file(f, "[profile]\ndescription = lib\n[filter]\ndefault-action = allow\n");
	sp = xasprintf("%s:%s", link, lib);

	fail_open_root = EMFILE;
	want = xasprintf("cannot look in directory '%s' for 'named': Too many open files", link);
	refused("\"/\" cannot be opened", sp, want);
	free(want);

	fail_readlinkat = EIO;
	want = xasprintf("cannot look in directory '%s' for 'named': Input/output error", link);
	refused("a link on the way cannot be read", sp, want);
	free(want);

	fail_fstat = EOVERFLOW;
	refused("a directory on the way cannot be examined", sp,
		"cannot look in directory '/' for 'named': Value too large");

	cmd = xasprintf("rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		tap_diag("could not remove %s", tmpdir);
	free(cmd);
	free(sp);
	free(f);
	free(link);
	free(lib);
	return tap_done();
}
