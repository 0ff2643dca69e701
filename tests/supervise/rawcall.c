/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Makes the system calls its arguments name, as numbers: "NR[,ARG]...",
 * each in any form strtoull() reads (0x40000027 is x32's getpid). For the
 * live tests, which need calls of an exact number, ABI and argument that
 * no ordinary program makes. Prints what each returned, a line a call.
 * A suffix ":COUNT" makes the call COUNT times, ":COUNT:STEP" with the
 * number STEP higher each time: many calls without a command line as
 * long. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		unsigned long long v[7] = { 0 }, count = 1, step = 0;
		char *p = argv[i];
		long r;

		for (int k = 0; k < 7 && *p && *p != ':'; k++) {
			v[k] = strtoull(p, &p, 0);
			if (*p == ',')
				p++;
		}
		if (*p == ':')
			count = strtoull(p + 1, &p, 0);
		if (*p == ':')
			step = strtoull(p + 1, &p, 0);
		for (unsigned long long n = 0; n < count; n++, v[0] += step) {
			r = syscall((long)v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
			printf("%s: %ld %s\n", argv[i], r, r < 0 ? strerror(errno) : "");
		}
	}
	return 0;
}
