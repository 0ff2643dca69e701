/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Test helper: print the number of syscall NAME on ABI ARCH from our tables,
 * or -1 if the ABI lacks it (what scmp_sys_resolver prints for a name). */
#include <stdio.h>

#include "arch.h"
#include "syscalls.h"

int main(int argc, char **argv)
{
	const struct arch *a;
	uint32_t nr;

	if (argc != 3) {
		fprintf(stderr, "usage: %s ARCH NAME\n", argv[0]);
		return 2;
	}
	a = arch_lookup(argv[1]);
	if (!a) {
		fprintf(stderr, "%s: unknown arch '%s'\n", argv[0], argv[1]);
		return 2;
	}
	if (syscalls_lookup_name(a, argv[2], &nr) < 0)
		printf("-1\n");
	else
		printf("%u\n", nr);
	return 0;
}
