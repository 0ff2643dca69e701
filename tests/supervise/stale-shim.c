/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Preloaded into scmp-run by test-supervise.sh: the first
 * SECCOMP_IOCTL_NOTIF_ID_VALID answers the notification itself (EPERM) and
 * then fails with ENOENT, as the check does when the caller left the call
 * between the supervisor's receiving of the notification and its check (a
 * signal interrupted it; restarted, it is notified again). Deterministic
 * where that race is not. */
#include <dlfcn.h>
#include <errno.h>
#include <linux/seccomp.h>
#include <stdarg.h>
#include <string.h>
#include <sys/ioctl.h>

static int failed;

int ioctl(int fd, unsigned long request, ...)
{
	int (*real)(int, unsigned long, ...);
	void *sym = dlsym(RTLD_NEXT, "ioctl");
	void *arg;
	va_list ap;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!sym) {
		errno = ENOSYS;
		return -1;
	}
	memcpy(&real, &sym, sizeof(real)); /* POSIX allows it; ISO C has no cast for it */
	if (request == SECCOMP_IOCTL_NOTIF_ID_VALID && !failed) {
		struct seccomp_notif_resp resp = { .id = *(__u64 *)arg, .error = -EPERM };

		failed = 1;
		real(fd, SECCOMP_IOCTL_NOTIF_SEND, &resp);
		errno = ENOENT;
		return -1;
	}
	return real(fd, request, arg);
}
