/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Helper of the crun test: the two terminal ioctls of the built-in rule
 * tty-injection (scmp-run.ini(5) BUILT-IN RULES) on standard input, each
 * reported as "NAME: ok" or "NAME: MESSAGE" for its errno. Linked
 * statically: the container's root holds nothing else.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

static void try(const char *name, unsigned long cmd, void *arg)
{
	if (ioctl(0, cmd, arg) < 0)
		printf("%s: %s\n", name, strerror(errno));
	else
		printf("%s: ok\n", name);
}

int main(void)
{
	char c = '\n', sub = 0;

	try("TIOCSTI", TIOCSTI, &c);
	try("TIOCLINUX", TIOCLINUX, &sub);
	return 0;
}
