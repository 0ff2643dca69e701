/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Preloaded into scmp-run by test-learn.sh: open() with O_TMPFILE fails
 * with EOPNOTSUPP, as on a file system without unnamed files (NFS, older
 * kernels' file systems), which a test cannot mount, or with the errno
 * number in TMPFILE_ERRNO (a security module's EACCES). Every other open()
 * is made as openat(2) would make it. */
/* open64 is open's alias: one definition for both entry points */
#undef _FILE_OFFSET_BITS
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static int shim_open(const char *path, int flags, va_list ap)
{
	mode_t mode = 0;

	/* the mode is there only when a file may be made (open(2)) */
	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE)
		mode = va_arg(ap, mode_t);
	if ((flags & O_TMPFILE) == O_TMPFILE) {
		const char *e = getenv("TMPFILE_ERRNO");

		errno = e ? atoi(e) : EOPNOTSUPP;
		return -1;
	}
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	int r;

	va_start(ap, flags);
	r = shim_open(path, flags, ap);
	va_end(ap);
	return r;
}

int open64(const char *path, int flags, ...) __attribute__((alias("open")));
