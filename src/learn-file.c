/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The file --learn writes: checked and opened before the command runs,
 * merged at the end with what other runs wrote into it meanwhile, and put
 * in place by a rename (scmp-run(1), WRITING A PROFILE FOR A PROGRAM).
 */
#include "learn-file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "oci.h"
#include "profile.h"

#define PROG		 "scmp-run"
#define LEARN_LOCK_WAIT	 10  /* seconds: struct lock_wait, in all */
#define LEARN_OPEN_MAX	 100 /* files opened: learn_lock_current() */
#define LEARN_LINK_TRIES 100 /* names taken already: learn_link() */

/* The directory of path, as a path (its slash kept: "/" for "/f"), or
 * NULL without memory. Freed by the caller. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? strndup(path, (size_t)(slash - path) + 1) : strdup(".");
}

/* path.XXXXXX, as mkostemp(3) takes it, or NULL without memory */
static char *learn_tmp_template(const char *path)
{
	char *tmp;

	return asprintf(&tmp, "%s.XXXXXX", path) < 0 ? NULL : tmp;
}

/* fd's link in /proc, which names the open file itself (proc(5)) */
static void proc_fd_path(char buf[static 32], int fd)
{
	snprintf(buf, 32, "/proc/self/fd/%d", fd);
}

/* Whether the file open at fd can be given a name at the end through its
 * /proc link (learn_link()): a /proc mounted here, whose link leads to it. */
static bool proc_fd_reaches(int fd)
{
	char link[32];
	struct stat open_st, link_st;

	proc_fd_path(link, fd);
	return fstat(fd, &open_st) == 0 && stat(link, &link_st) == 0 &&
	       open_st.st_dev == link_st.st_dev && open_st.st_ino == link_st.st_ino;
}

/* The unnamed file, beside path: its descriptor or -errno (-EOPNOTSUPP
 * when /proc cannot name it at the end). */
static int learn_open_unnamed(const char *path)
{
	char *dir = dir_of(path);
	int fd;

	if (!dir)
		return -ENOMEM;
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0)
		fd = -errno;
	free(dir);
	if (fd >= 0 && !proc_fd_reaches(fd)) {
		close(fd);
		return -EOPNOTSUPP;
	}
	return fd;
}

/* The named file path.XXXXXX: its descriptor (its name in *ret_tmp) or
 * -errno. */
static int learn_open_named(const char *path, char **ret_tmp)
{
	char *tmp = learn_tmp_template(path);
	int fd;

	if (!tmp)
		return -ENOMEM;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		fd = -errno;
		free(tmp);
		return fd;
	}
	*ret_tmp = tmp;
	return fd;
}

/*
 * The file the learned profile is written into, beside path, made before
 * the command runs: a place that cannot take it is said then. It has no
 * name (O_TMPFILE, open(2)), so that a supervisor killed during the run
 * leaves nothing behind; the end gives it one for the rename only
 * (learn_link()), and *ret_tmp is left NULL. Where it cannot be made
 * (a file system without unnamed files: EOPNOTSUPP, EISDIR from a kernel
 * without O_TMPFILE, EINVAL; a security module that refuses them) or /proc
 * cannot name it, it is path.XXXXXX from the start (mkostemp(3)), in
 * *ret_tmp, and what refuses that one is said (scmp-run(1) WRITING A
 * PROFILE FOR A PROGRAM). Returns the descriptor or -errno with the error
 * in d.
 */
static int learn_open(const char *path, char **ret_tmp, struct diag *d)
{
	int fd = learn_open_unnamed(path);

	*ret_tmp = NULL;
	if (fd < 0 && fd != -ENOMEM)
		fd = learn_open_named(path, ret_tmp);
	if (fd < 0)
		diag_error(d, NULL, "--learn: cannot write '%s': %s", path, strerror(-fd));
	return fd;
}

/* path.XXXXXX, its tail drawn at random as mkostemp(3) draws it, in
 * *ret (the caller frees it). Returns 0 or -errno. */
static int learn_tmp_name(const char *path, char **ret)
{
	static const char chars[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char draw[6];
	ssize_t n = getrandom(draw, sizeof(draw), 0);
	char *tmp, *tail;

	if (n != (ssize_t)sizeof(draw))
		return n < 0 ? -errno : -EIO;
	tmp = learn_tmp_template(path);
	if (!tmp)
		return -ENOMEM;
	tail = tmp + strlen(tmp) - sizeof(draw);
	for (size_t i = 0; i < sizeof(draw); i++)
		tail[i] = chars[draw[i] % (sizeof(chars) - 1)];
	*ret = tmp;
	return 0;
}

/*
 * A name beside path for the unnamed file fd, given at the end for the
 * rename: linkat(2) of its /proc link, followed (AT_EMPTY_PATH would need
 * CAP_DAC_READ_SEARCH). linkat() neither replaces nor follows what holds
 * the name already (EEXIST): that file is left alone and another name is
 * drawn. The name in *ret_tmp; returns 0 or -errno.
 */
static int learn_link(int fd, const char *path, char **ret_tmp)
{
	char link[32], *tmp = NULL;
	int r = -EEXIST;

	proc_fd_path(link, fd);
	for (unsigned tries = 0; r == -EEXIST && tries < LEARN_LINK_TRIES; tries++) {
		r = learn_tmp_name(path, &tmp);
		if (r < 0)
			return r;
		if (linkat(AT_FDCWD, link, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) == 0) {
			*ret_tmp = tmp;
			return 0;
		}
		r = -errno;
		free(tmp);
	}
	return r;
}
/* --learn -p BASE: the base's real path, which the learned profile
 * includes; refused before the command runs if no include line can name
 * it. */
static int learn_base(struct learn_file *lf, const char *base, struct diag *d)
{
	const char *why;

	if (!base)
		return 0;
	if (!strcmp(base, PROFILE_STDIN_NAME) || oci_is_json(base)) {
		diag_error(d, NULL,
			   "--learn: the learned profile includes its base, and %s cannot be "
			   "included: write the base to an INI file%s",
			   base, oci_is_json(base) ? " (--import-oci)" : "");
		return -EINVAL;
	}
	lf->base = realpath(base, NULL);
	if (!lf->base) {
		int err = errno;

		diag_error(d, NULL, "--learn: cannot resolve the base '%s': %s", base,
			   strerror(err));
		return -err;
	}
	why = learn_include_unfit(lf->base);
	if (why) {
		diag_error(d, NULL, "--learn: the base '%s' cannot be named by an include line: %s",
			   lf->base, why);
		return -EINVAL;
	}
	return 0;
}

/* Whether only root may replace path, whose owner is uid: another user's
 * file in a sticky directory of a third (rename(2)). */
static bool sticky_other(const char *path, uid_t uid)
{
	char *dir = dir_of(path);
	struct stat st;
	bool r;

	if (geteuid() == 0 || uid == geteuid())
		r = false;
	else /* unknown (out of memory, no stat): the rename will say */
		r = dir && stat(dir, &st) == 0 && (st.st_mode & S_ISVTX) && st.st_uid != geteuid();
	free(dir);
	return r;
}

/* What the last step of --learn (a rename() over FILE) needs, checked
 * before the command runs: FILE, if it exists, is a regular file (opened
 * without blocking: a FIFO would wait for a writer), and is not another
 * user's in a sticky directory of a third, which only root may replace.
 * Not a symbolic link either: the rename would replace the link, not the
 * file read (whose owner the sticky check would see instead of the
 * link's), and leave that file as it was. Returns FILE open for reading
 * (its mode in *ret_mode), -ENOENT if it does not exist, or -errno with
 * the error in d. */
static int learn_old_open(const char *path, mode_t *ret_mode, struct diag *d)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
	struct stat st;
	int r = 0;

	if (fd < 0) {
		r = -errno;
		/* O_NOFOLLOW says ELOOP for a link as the last component */
		if (r == -ELOOP && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
			r = -EMLINK;
	} else if (fstat(fd, &st) < 0)
		r = -errno;
	else if (!S_ISREG(st.st_mode))
		r = -EINVAL;
	else if (sticky_other(path, st.st_uid))
		r = -EPERM;
	if (r == 0) {
		*ret_mode = st.st_mode;
		return fd;
	}
	if (fd >= 0)
		close(fd);
	if (r == -EINVAL)
		diag_error(d, NULL, "--learn: '%s' is not a regular file", path);
	else if (r == -EMLINK)
		diag_error(d, NULL,
			   "--learn: '%s' is a symbolic link: the learned file would replace "
			   "the link, not its target; name the file itself",
			   path);
	else if (r == -EPERM)
		diag_error(d, NULL,
			   "--learn: '%s' cannot be replaced: it is another user's, in a sticky "
			   "directory",
			   path);
	else if (r != -ENOENT)
		diag_error(d, NULL, "--learn: cannot read '%s': %s", path, strerror(-r));
	return r;
}

int learn_file_start(struct learn_file *lf, const char *path, const char *base,
		     struct learn_header *h, struct diag *d)
{
	int r, fd;
	mode_t umask_was, old_mode = 0777;
	FILE *old;

	*lf = (struct learn_file){ .path = path, .fd = -1, .h = h };
	r = learn_base(lf, base, d);
	if (r < 0)
		return r;
	h->base = lf->base;
	lf->learn = learn_new();
	if (!lf->learn) {
		diag_error(d, NULL, "out of memory");
		return -ENOMEM;
	}
	fd = learn_old_open(path, &old_mode, d);
	if (fd < 0 && fd != -ENOENT)
		return fd;
	/* The file is written as a new one is (0644 less the umask), and
	 * never more open than the one it replaces: the header holds the
	 * command line, which a caller may have kept from others. umask()
	 * only reads by setting: nothing else runs yet. */
	umask_was = umask(0);
	umask(umask_was);
	lf->mode = 0644 & ~umask_was & old_mode;
	if (fd >= 0) {
		old = fdopen(fd, "re");
		if (!old) {
			r = -errno;
			close(fd);
			diag_error(d, NULL, "--learn: reading '%s' failed: %s", path, strerror(-r));
			return r;
		}
		r = learn_load(lf->learn, old, path, h, d);
		fclose(old);
		if (r < 0)
			return r;
	}
	r = learn_open(path, &lf->tmp, d);
	if (r < 0)
		return r;
	lf->fd = r;
	return 0;
}

/* The wait for FILE's lock at the end of a run, in all: one budget for
 * every file it opens (the writer waited for replaces FILE, and another
 * may have locked the new one), said once when spent. */
struct lock_wait {
	unsigned ticks; /* 10 ms each */
	unsigned opens; /* files opened */
	bool said_time, said_nolock;
};

/*
 * Wait for the lock on fd, a while only: a run that writes FILE holds it
 * as long as that takes, but anyone who may read FILE can take it and keep
 * it. Returns 0 when it is ours, -EWOULDBLOCK when w's time is out, or
 * -errno (a file system without locks: there is nothing to wait for).
 */
static int learn_lock_wait(int fd, struct lock_wait *w)
{
	const struct timespec pause = { 0, 10 * 1000 * 1000 };

	for (;;) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK)
			return -errno;
		if (!w->ticks)
			return -EWOULDBLOCK;
		w->ticks--;
		nanosleep(&pause, NULL);
	}
}

/* FILE open and locked, or without the lock when the time is out or the
 * file system has none (each said once); the file locked must be the
 * one FILE names once the lock is ours: the writer we waited for has
 * replaced the one we opened. A FILE replaced more often than any number
 * of runs at once would is given up on. Returns as learn_merge_current(). */
static int learn_lock_current(const char *path, struct lock_wait *w, mode_t *ret_mode,
			      struct diag *d)
{
	struct stat locked, now;
	int fd, r;

	for (;;) {
		fd = learn_old_open(path, ret_mode, d);
		if (fd < 0)
			return fd;
		r = learn_lock_wait(fd, w);
		if (r == -EWOULDBLOCK && !w->said_time) {
			diag_warning(d, NULL,
				     "--learn: '%s' stayed locked for %d seconds: written "
				     "without waiting longer",
				     path, LEARN_LOCK_WAIT);
			w->said_time = true;
		} else if (r < 0 && r != -EWOULDBLOCK && !w->said_nolock) {
			/* a file system without flock() (ENOLCK: an NFS mount
			 * without its lock service): written as without one,
			 * but what scmp-run(1) promises of runs at once is
			 * not kept, so not in silence */
			diag_warning(d, NULL,
				     "--learn: '%s' cannot be locked (flock: %s): written without "
				     "the lock, and runs into it at once may lose what the other "
				     "learned",
				     path, strerror(-r));
			w->said_nolock = true;
		}
		if (fstat(fd, &locked) == 0 && lstat(path, &now) == 0 &&
		    locked.st_dev == now.st_dev && locked.st_ino == now.st_ino)
			return fd;
		close(fd);
		if (++w->opens >= LEARN_OPEN_MAX) {
			diag_error(d, NULL,
				   "--learn: '%s' was replaced %d times while this run waited "
				   "to write it: not written",
				   path, LEARN_OPEN_MAX);
			return -EAGAIN;
		}
	}
}

/*
 * FILE as it is when this run writes it, locked, its records added to this
 * run's: another --learn into it may have written it since this one
 * started, and what that one learned is kept (scmp-run(1) WRITING A
 * PROFILE FOR A PROGRAM). Returns the descriptor that holds the lock until
 * the rename, -ENOENT when there is no FILE, or -errno (said in d).
 */
static int learn_merge_current(struct learn_file *lf, struct lock_wait *w, mode_t *ret_mode,
			       struct diag *d)
{
	const char *path = lf->path;
	FILE *f;
	int fd, r;

	fd = learn_lock_current(path, w, ret_mode, d);
	if (fd < 0)
		return fd;
	/* a stream of its own, so that closing it keeps the lock: dup()
	 * fails with EMFILE under a low RLIMIT_NOFILE, which is no lack of
	 * memory */
	r = dup(fd);
	f = r >= 0 ? fdopen(r, "re") : NULL;
	if (!f) {
		int err = errno;

		if (r >= 0)
			close(r);
		close(fd);
		diag_error(d, NULL, "--learn: reading '%s' again failed: %s", path, strerror(err));
		return -err;
	}
	r = learn_load(lf->learn, f, path, lf->h, d);
	fclose(f);
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}

/* The learned profile into the file written (lf->fd), from its start. */
static int learn_write_tmp(const struct learn_file *lf, mode_t mode)
{
	int fd = lf->fd, copy = -1, r = 0;
	FILE *f = NULL;

	if (ftruncate(fd, 0) < 0 || lseek(fd, 0, SEEK_SET) < 0 || (copy = dup(fd)) < 0 ||
	    !(f = fdopen(copy, "w")))
		r = -errno;
	if (r == 0)
		r = learn_write(lf->learn, lf->h, f);
	if (f && fclose(f) != 0 && r == 0)
		r = -errno;
	if (!f && copy >= 0)
		close(copy);
	if (r == 0 && fchmod(fd, mode) < 0)
		r = -errno;
	/* on disk before the rename puts it in FILE's place: a crash between
	 * the two must not leave an empty FILE, which the next run refuses,
	 * where the last learned one was */
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	return r;
}

/* tmp onto path: over the file locked (over), or where there was none,
 * and then never over one another run has written since (-EEXIST). */
static int learn_replace(const char *tmp, const char *path, bool over)
{
	if (!over) {
		if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
			return 0;
		if (errno != EINVAL && errno != ENOSYS)
			return -errno;
		/* a file system that cannot: the last run to end wins */
	}
	return rename(tmp, path) < 0 ? -errno : 0;
}

int learn_file_finish(struct learn_file *lf, int err, struct diag *d)
{
	struct lock_wait w = { .ticks = LEARN_LOCK_WAIT * 100 };
	bool said = false;
	int r = err;

	for (unsigned tries = 0; r == 0; tries++) {
		mode_t mode = 0777;
		int lock = learn_merge_current(lf, &w, &mode, d);
		bool again = false;

		if (lock < 0 && lock != -ENOENT) {
			r = lock;
			said = true;
			break;
		}
		r = learn_write_tmp(lf, lf->mode & mode);
		if (r == 0 && !lf->tmp)
			r = learn_link(lf->fd, lf->path, &lf->tmp);
		if (r == 0) {
			r = learn_replace(lf->tmp, lf->path, lock >= 0);
			/* another run wrote the first FILE: add it (not a
			 * name learn_link() found taken, every time) */
			again = r == -EEXIST;
		}
		if (lock >= 0)
			close(lock);
		if (!again || tries >= 100)
			break;
		r = 0;
	}
	if (r == 0) { /* renamed: nothing left to remove */
		free(lf->tmp);
		lf->tmp = NULL;
	}
	if (r == -E2BIG && !said)
		diag_error(d, NULL,
			   "--learn: the command made more than %d distinct calls (counting the "
			   "decisive arguments): '%s' is not written",
			   LEARN_RECORDS_MAX, lf->path);
	else if (r < 0 && !said)
		diag_error(d, NULL, "--learn: writing '%s' failed: %s", lf->path, strerror(-r));
	else if (r == 0)
		fprintf(stderr, PROG ": learned %zu distinct calls into %s\n",
			learn_count(lf->learn), lf->path);
	return r;
}

void learn_file_clear(struct learn_file *lf)
{
	if (lf->fd >= 0)
		close(lf->fd);
	if (lf->tmp)
		unlink(lf->tmp);
	free(lf->tmp);
	free(lf->base);
	learn_free(lf->learn);
	*lf = (struct learn_file){ .fd = -1 };
}
