/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* For the preloaded ioctl() shims of test-supervise.sh: the variadic
 * argument of an ioctl() call, and the C library's ioctl() behind them. */
#pragma once

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#define SHIM_IOCTL_ARG(request, ret_arg)          \
	do {                                      \
		va_list ap_;                      \
		va_start(ap_, request);           \
		*(ret_arg) = va_arg(ap_, void *); \
		va_end(ap_);                      \
	} while (0)

/* The next ioctl() after the shim's own; -1 with ENOSYS if there is none. */
static inline int real_ioctl(int fd, unsigned long request, void *arg)
{
	int (*real)(int, unsigned long, ...);
	void *sym = dlsym(RTLD_NEXT, "ioctl");

	if (!sym) {
		errno = ENOSYS;
		return -1;
	}
	memcpy(&real, &sym, sizeof(real)); /* POSIX allows it; ISO C has no cast for it */
	return real(fd, request, arg);
}
