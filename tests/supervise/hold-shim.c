/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Preloaded into scmp-run by test-supervise.sh: each notification the
 * supervisor takes (SECCOMP_IOCTL_NOTIF_RECV) is held for a second before
 * it is answered, and the moment it is taken is marked by creating the
 * file $HOLD_SHIM_MARK. The caller's signals then come while the
 * supervisor has the call, deterministically where the real window is a
 * few microseconds. */
#include <fcntl.h>
#include <linux/seccomp.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "real-ioctl.h"

int ioctl(int fd, unsigned long request, ...)
{
	const char *mark = getenv("HOLD_SHIM_MARK");
	struct timespec hold = { 1, 0 };
	void *arg;
	int r, mfd;

	SHIM_IOCTL_ARG(request, &arg);
	r = real_ioctl(fd, request, arg);
	if (request != SECCOMP_IOCTL_NOTIF_RECV || r < 0 || !mark)
		return r;
	mfd = open(mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (mfd >= 0)
		close(mfd);
	nanosleep(&hold, NULL);
	return r;
}
