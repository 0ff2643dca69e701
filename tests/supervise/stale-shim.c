/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Preloaded into scmp-run by test-supervise.sh: the first
 * SECCOMP_IOCTL_NOTIF_ID_VALID answers the notification itself (EPERM) and
 * then fails with ENOENT, as the check does when the caller left the call
 * between the supervisor's receiving of the notification and its check (a
 * signal interrupted it; restarted, it is notified again). Deterministic
 * where that race is not. */
#include <linux/seccomp.h>
#include <sys/ioctl.h>

#include "real-ioctl.h"

static int failed;

int ioctl(int fd, unsigned long request, ...)
{
	void *arg;

	SHIM_IOCTL_ARG(request, &arg);
	if (request == SECCOMP_IOCTL_NOTIF_ID_VALID && !failed) {
		struct seccomp_notif_resp resp = { .id = *(__u64 *)arg, .error = -EPERM };

		failed = 1;
		real_ioctl(fd, SECCOMP_IOCTL_NOTIF_SEND, &resp);
		errno = ENOENT;
		return -1;
	}
	return real_ioctl(fd, request, arg);
}
