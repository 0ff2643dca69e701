/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The floor for any launcher that execs its command: a program that does
 * nothing but execv() its arguments. bench/launch/run times it. */
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	execv(argv[1], argv + 1);
	return 127;
}
