/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Preloaded into scmp-run by test-supervise.sh: stands for a library that
 * ends the process with a status in the middle of run mode's setup, which
 * no input can make scmp-run itself do. Run mode sets no_new_privs right
 * before the filter; this prctl() exits there instead. */
#include <stdarg.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int prctl(int option, ...)
{
	unsigned long a[4];
	va_list ap;

	va_start(ap, option);
	for (int i = 0; i < 4; i++)
		a[i] = va_arg(ap, unsigned long);
	va_end(ap);
	if (option == PR_SET_NO_NEW_PRIVS)
		_exit(7);
	return (int)syscall(SYS_prctl, option, a[0], a[1], a[2], a[3]);
}
