/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fallback timer for bench/launch/run when hyperfine is missing: runs a
 * command RUNS times (after WARMUP untimed runs) with fork/execvp/wait4
 * and prints "mean_ms median_ms min_ms" of the wall time. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../timing.h"

/* fd 9, when open, holds a seccomp program for bwrap: rewound per run. */
#define FILTER_FD 9

/* One run; returns the wall time in ms, or a negative value on failure. */
static double run_once(char **argv)
{
	double wall, cpu;

	if (fcntl(FILTER_FD, F_GETFD) >= 0 && lseek(FILTER_FD, 0, SEEK_SET) < 0)
		return -1;
	if (run_timed(argv, true, &wall, &cpu) < 0)
		return -1;
	return wall / 1e3;
}

int main(int argc, char **argv)
{
	long runs, warmup;
	double *t, sum = 0, med;

	if (argc < 4 || (runs = strtol(argv[1], NULL, 10)) < 1 ||
	    (warmup = strtol(argv[2], NULL, 10)) < 0) {
		fprintf(stderr, "usage: timeloop RUNS WARMUP COMMAND [ARG...]\n");
		return 2;
	}
	t = calloc((size_t)runs, sizeof(*t));
	if (!t)
		return 1;
	for (long i = 0; i < warmup + runs; i++) {
		double ms = run_once(argv + 3);

		if (ms < 0) {
			fprintf(stderr, "timeloop: '%s' failed\n", argv[3]);
			free(t);
			return 1;
		}
		if (i >= warmup)
			t[i - warmup] = ms;
	}
	for (long i = 0; i < runs; i++)
		sum += t[i];
	med = median(t, (size_t)runs); /* sorts t */
	printf("%.4f %.4f %.4f\n", sum / (double)runs, med, t[0]);
	free(t);
	return 0;
}
