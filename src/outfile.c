/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Opening a file named on the command line for writing (outfile.h): the
 * rules are scmp-run(1) TRUST, "Files written".
 */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OUT_FLAGS (O_WRONLY | O_CLOEXEC)

/* Whether a user other than root and the caller may change the entries of
 * the directory open at dfd: it is another user's, or its group or others
 * may write it. Judged on the descriptor the file is then opened under,
 * so the directory cannot be swapped after the check. */
static bool dir_shared(int dfd)
{
	struct stat st;

	if (fstat(dfd, &st) < 0)
		return true;
	return (st.st_uid != 0 && st.st_uid != geteuid()) || (st.st_mode & (S_IWGRP | S_IWOTH));
}

/* What an existing entry of a shared directory must be: not a link (it
 * could point anywhere), and a FIFO or a regular file of the caller's with
 * no other name (a hard link of a file of the caller's elsewhere would be
 * truncated). */
static int shared_entry_ok(const struct stat *st)
{
	if (S_ISLNK(st->st_mode))
		return -EMLINK;
	if (st->st_uid != geteuid())
		return -EPERM;
	if (S_ISFIFO(st->st_mode) || (S_ISREG(st->st_mode) && st->st_nlink == 1))
		return 0;
	return -EPERM;
}

/* In a shared directory: name is created anew (refused if someone makes it
 * first), or is an entry shared_entry_ok() accepts, opened without
 * following a link and still the entry looked at. */
static int open_shared(int dfd, const char *name)
{
	struct stat before, after;
	int fd, r;

	if (fstatat(dfd, name, &before, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT)
			return -errno;
		fd = openat(dfd, name, OUT_FLAGS | O_CREAT | O_EXCL | O_NOFOLLOW, 0666);
		return fd >= 0 ? fd : -errno;
	}
	r = shared_entry_ok(&before);
	if (r < 0)
		return r;
	/* a FIFO put in a file's place would wait for a reader: not wait */
	fd = openat(dfd, name, OUT_FLAGS | O_NOFOLLOW | (S_ISREG(before.st_mode) ? O_NONBLOCK : 0));
	if (fd < 0)
		return errno == ELOOP ? -EMLINK : -errno;
	if (fstat(fd, &after) < 0)
		r = -errno;
	else if (after.st_dev != before.st_dev || after.st_ino != before.st_ino)
		r = -EAGAIN;
	else if (S_ISREG(after.st_mode) && ftruncate(fd, 0) < 0)
		r = -errno;
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}

int outfile_open(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	char *dir = slash ? strndup(path, (size_t)(slash - path) + 1) : strdup(".");
	int dfd, fd;

	if (!dir)
		return -ENOMEM;
	dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (dfd < 0)
		return -errno;
	if (!*name)
		fd = -EISDIR;
	else if (dir_shared(dfd))
		fd = open_shared(dfd, name);
	else if ((fd = openat(dfd, name, OUT_FLAGS | O_CREAT | O_TRUNC, 0666)) < 0)
		fd = -errno;
	close(dfd);
	return fd;
}
