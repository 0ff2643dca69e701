/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Preloaded into scmp-run by test-supervise.sh: each notification the
 * supervisor takes (SECCOMP_IOCTL_NOTIF_RECV) is held for a second before
 * it is answered, and the moment it is taken is marked by creating the
 * file $HOLD_SHIM_MARK. The caller's signals then come while the
 * supervisor has the call, deterministically where the real window is a
 * few microseconds. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

int ioctl(int fd, unsigned long request, ...)
{
	int (*real)(int, unsigned long, ...);
	void *sym = dlsym(RTLD_NEXT, "ioctl");
	const char *mark = getenv("HOLD_SHIM_MARK");
	struct timespec hold = { 1, 0 };
	void *arg;
	va_list ap;
	int r, mfd;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!sym) {
		errno = ENOSYS;
		return -1;
	}
	memcpy(&real, &sym, sizeof(real)); /* POSIX allows it; ISO C has no cast for it */
	r = real(fd, request, arg);
	if (request != SECCOMP_IOCTL_NOTIF_RECV || r < 0 || !mark)
		return r;
	mfd = open(mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (mfd >= 0)
		close(mfd);
	nanosleep(&hold, NULL);
	return r;
}
