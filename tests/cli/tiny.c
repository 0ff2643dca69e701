/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The tiny program of profiles/minimal.ini: reads stdin, writes it to stdout,
 * a line to stderr and, with an argument, the input again to fd 3. */
#include <unistd.h>

int main(int argc, char **argv)
{
	char buf[256];
	ssize_t n = read(0, buf, sizeof(buf));

	(void)argv;
	if (n < 0)
		return 3;
	if (write(1, buf, (size_t)n) != n || write(2, "tiny\n", 5) != 5)
		return 4;
	if (argc > 1 && write(3, buf, (size_t)n) != n)
		return 5;
	return 0;
}
