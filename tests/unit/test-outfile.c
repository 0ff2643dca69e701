/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of outfile_open(): in a directory only the caller writes, a
 * file is created or truncated and a link followed; in one others may
 * write, no link is followed, no file with another link or of another user
 * is written, and an entry replaced between the look and the open is
 * refused. A failed fstat() or strdup() fails closed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "src/outfile.h"
#include "tests/tap.h"

static const char *swap_from, *swap_to; /* set: the next look is followed by a rename */

/* outfile_open() looks with fstatat(): this one can replace the entry
 * right after the look, as another user of a shared directory could. */
int fstatat(int dfd, const char *name, struct stat *st, int flags)
{
	int r = (int)syscall(SYS_newfstatat, dfd, name, st, flags);

	if (swap_from) {
		if (rename(swap_from, swap_to) < 0)
			perror("rename");
		swap_from = NULL;
	}
	return r;
}

static int fstat_calls, fstat_fail_at; /* > 0: that call from now fails with EIO */

/* outfile_open() judges the directory, then the opened file, with fstat() */
int fstat(int fd, struct stat *st)
{
	if (fstat_fail_at && ++fstat_calls == fstat_fail_at) {
		errno = EIO;
		return -1;
	}
	return (int)syscall(SYS_fstat, fd, st);
}

/* A sanitizer owns strdup() and strndup(): no failing them there
 * (TAP_SANITIZED). */
static bool fail_dup;

#ifndef TAP_SANITIZED
extern char *__strdup(const char *s);
extern char *__strndup(const char *s, size_t n);

char *strdup(const char *s)
{
	if (fail_dup) {
		errno = ENOMEM;
		return NULL;
	}
	return __strdup(s);
}

char *strndup(const char *s, size_t n)
{
	if (fail_dup) {
		errno = ENOMEM;
		return NULL;
	}
	return __strndup(s, n);
}
#endif

static char dir[64], paths[2][128], *path;

/* dir/name, in path; two in a row may be used together */
static const char *at(const char *name)
{
	static unsigned next;

	path = paths[next++ % 2];
	snprintf(path, sizeof(paths[0]), "%s/%s", dir, name);
	return path;
}

static void put(const char *name, const char *text)
{
	FILE *f = fopen(at(name), "w");

	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(name);
		exit(99);
	}
}

static bool holds(const char *name, const char *text)
{
	char buf[64] = "";
	FILE *f = fopen(at(name), "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = 0;
	return !strcmp(buf, text);
}

/* outfile_open(dir/name): its return value, the descriptor closed */
static int try_open(const char *name)
{
	int fd = outfile_open(at(name));

	if (fd >= 0) {
		if (write(fd, "new", 3) != 3)
			return -EIO;
		close(fd);
		return 0;
	}
	return fd;
}

static void private_dir(void)
{
	put("old", "old text");
	tap_is(try_open("old"), 0, "own directory: an existing file opens");
	tap_ok(holds("old", "new"), "... truncated");
	tap_is(try_open("created"), 0, "own directory: a new file is created");
	put("target", "target text");
	if (symlink("target", at("link")) < 0)
		perror("symlink");
	tap_is(try_open("link"), 0, "own directory: a link is followed");
	tap_ok(holds("target", "new"), "... to its target");
	tap_is(try_open(""), -EISDIR, "a name ending in '/': EISDIR");
	tap_is(outfile_open("/nonexistent-dir/x"), -ENOENT, "no such directory: ENOENT");
}

/* outfile_open(dir/name) with the nth fstat() from now failing */
static int open_failing_fstat(const char *name, int nth)
{
	int r;

	fstat_calls = 0;
	fstat_fail_at = nth;
	r = try_open(name);
	fstat_fail_at = 0;
	return r;
}

/* The own directory, whose mode cannot be read: judged shared. */
static void private_dir_unknown(void)
{
	put("target", "target text");
	tap_is(open_failing_fstat("link", 1), -EMLINK,
	       "own directory, fstat() failing: judged shared, the link is refused");
	tap_ok(holds("target", "target text"), "... its target untouched");
}

/* A file of the caller's in a shared directory, opened but not checked */
static void shared_file_unknown(void)
{
	put("old", "old text");
	tap_is(open_failing_fstat("old", 2), -EIO,
	       "shared directory, fstat() of the opened file failing: its errno");
	tap_ok(holds("old", "old text"), "... not truncated");
}

static void no_memory(void)
{
#ifdef TAP_SANITIZED
	tap_skip("failing strdup() under a sanitizer");
	tap_skip("failing strndup() under a sanitizer");
	return;
#endif
	fail_dup = true;
	tap_is(outfile_open("bare-name"), -ENOMEM, "a name without a directory, no memory: ENOMEM");
	tap_is(outfile_open(at("created")), -ENOMEM, "a path, no memory: ENOMEM");
	fail_dup = false;
}

static void shared_dir(void)
{
	if (chmod(dir, 0777) < 0)
		perror("chmod");
	unlink(at("created"));
	tap_is(try_open("created"), 0, "shared directory: a new file is created");
	tap_ok(holds("created", "new"), "... and written");
	put("old", "old text");
	tap_is(try_open("old"), 0, "shared directory: the caller's own file opens");
	tap_ok(holds("old", "new"), "... truncated");
	put("target", "target text");
	tap_is(try_open("link"), -EMLINK, "shared directory: a link is refused");
	tap_ok(holds("target", "target text"), "... its target untouched");
	if (link(at("target"), at("hard")) < 0)
		perror("link");
	tap_is(try_open("hard"), -EPERM, "shared directory: a file with two links is refused");
	tap_ok(holds("target", "target text"), "... untouched");
	if (mkdir(at("sub"), 0700) < 0)
		perror("mkdir");
	tap_is(try_open("sub"), -EPERM, "shared directory: a directory is refused");
	if (geteuid() == 0) {
		put("theirs", "their text");
		if (chown(at("theirs"), 65534, 65534) < 0)
			perror("chown");
		tap_is(try_open("theirs"), -EPERM,
		       "shared directory: another user's file is refused");
		tap_ok(holds("theirs", "their text"), "... untouched");
	} else {
		tap_skip("another user's file: needs root to make one");
		tap_skip("another user's file: untouched");
	}
}

static void shared_fifo_and_swap(void)
{
	const char *from;
	int reader;

	if (mkfifo(at("fifo"), 0600) < 0)
		perror("mkfifo");
	reader = open(path, O_RDONLY | O_NONBLOCK);
	tap_is(try_open("fifo"), 0, "shared directory: the caller's FIFO opens");
	close(reader);
	put("old", "old text");
	put("swap", "swap text");
	from = at("swap");
	swap_from = from;
	swap_to = at("old");
	tap_is(outfile_open(swap_to), -EAGAIN,
	       "shared directory: an entry replaced meanwhile: EAGAIN");
	tap_ok(holds("old", "swap text"), "... and the file now there is untouched");
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/outfile.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 99;
	}
	private_dir();
	private_dir_unknown();
	shared_dir();
	shared_file_unknown();
	shared_fifo_and_swap();
	no_memory();
	if (tap_fork() == 0) {
		execlp("rm", "rm", "-rf", dir, (char *)NULL);
		_exit(127);
	}
	tap_ok(tap_wait(-1) == 0, "the test directory is removed");
	return tap_done();
}
