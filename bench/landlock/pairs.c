/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Timer for bench/landlock/run: runs two or more commands in turn, one run of
 * each per cycle (the order rotates every cycle), so that a slow phase of a
 * shared machine hits every command alike; prints one line per run:
 * "cycle command wall_us cpu_us" (cpu: user + system time from wait4). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../timing.h"

#define COMMANDS_MAX 8

/* The command run k-th in cycle c of n commands. The order rotates every
 * cycle, forward for n cycles, then backward for n: with a rotation alone,
 * of three commands one runs before the next in two cycles of three, and
 * whatever a run leaves behind (a warmer cache, writeback) would favour
 * the later one; over 2n cycles each runs before each other as often as
 * after it, right before it as often too, and in every place alike. */
static int cycle_order(long c, int k, int n)
{
	int first = (int)(c % n);

	return (c / n) % 2 ? (first - k + n) % n : (first + k) % n;
}

int main(int argc, char **argv)
{
	char **cmd[COMMANDS_MAX];
	long cycles, warmup;
	int n = 0;

	if (argc < 5 || (cycles = strtol(argv[1], NULL, 10)) < 1 ||
	    (warmup = strtol(argv[2], NULL, 10)) < 0 || strcmp(argv[3], "--")) {
		fprintf(stderr, "usage: pairs CYCLES WARMUP -- COMMAND... [-- COMMAND...]...\n");
		return 2;
	}
	/* split argv at each "--" into the commands */
	for (int i = 3; i < argc; i++) {
		if (strcmp(argv[i], "--"))
			continue;
		argv[i] = NULL;
		if (i + 1 >= argc || !strcmp(argv[i + 1], "--") || n == COMMANDS_MAX) {
			fprintf(stderr, "pairs: an empty command, or more than %d\n", COMMANDS_MAX);
			return 2;
		}
		cmd[n++] = argv + i + 1;
	}
	for (long c = 0; c < warmup + cycles; c++) {
		for (int k = 0; k < n; k++) {
			int j = cycle_order(c, k, n);
			double wall, cpu;

			if (run_timed(cmd[j], true, &wall, &cpu) < 0) {
				fprintf(stderr, "pairs: '%s' (command %d) failed\n", cmd[j][0], j);
				return 1;
			}
			if (c >= warmup)
				printf("%ld\t%d\t%.1f\t%.0f\n", c - warmup, j, wall, cpu);
		}
	}
	return fflush(stdout) == 0 ? 0 : 1;
}
