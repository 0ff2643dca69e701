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
			int j = (int)((c + k) % n);
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
