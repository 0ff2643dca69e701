/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Paired launch timer for bench/launch/ratio: runs command A and command B
 * alternately (A B, then B A, ...) so that both meet the same machine load,
 * and prints the median wall time of each, the median of the per-pair wall
 * ratios B/A, and the mean CPU time (user + system, from wait4; the kernel
 * accounts it in ticks, so only a mean over many runs says something).
 * Usage: paired RUNS WARMUP A-ARGS... -- B-ARGS... */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../timing.h"

/* One run of argv: wall and CPU milliseconds; exits on failure. */
static void run_once(char **argv, double *wall, double *cpu)
{
	if (run_timed(argv, false, wall, cpu) < 0) {
		fprintf(stderr, "paired: '%s' failed\n", argv[0]);
		exit(1);
	}
	*wall /= 1e3;
	*cpu /= 1e3;
}

int main(int argc, char **argv)
{
	double *wa, *wb, *rw, sum_ca = 0, sum_cb = 0;
	char **a, **b;
	int runs, warmup, sep = 0;

	for (int i = 3; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			sep = i;
			break;
		}
	if (argc < 6 || !sep || sep == 3 || sep == argc - 1) {
		fprintf(stderr, "usage: paired RUNS WARMUP A-ARGS... -- B-ARGS...\n");
		return 2;
	}
	runs = atoi(argv[1]);
	warmup = atoi(argv[2]);
	if (runs < 1 || warmup < 0) {
		fprintf(stderr, "paired: RUNS must be >= 1 and WARMUP >= 0\n");
		return 2;
	}
	argv[sep] = NULL;
	a = argv + 3;
	b = argv + sep + 1;
	wa = calloc((size_t)runs, sizeof(double));
	wb = calloc((size_t)runs, sizeof(double));
	rw = calloc((size_t)runs, sizeof(double));
	if (!wa || !wb || !rw)
		return 2;
	for (int i = 0; i < warmup; i++) {
		double w, c;

		run_once(a, &w, &c);
		run_once(b, &w, &c);
	}
	for (int i = 0; i < runs; i++) {
		double ca, cb;

		if (i % 2) {
			run_once(b, &wb[i], &cb);
			run_once(a, &wa[i], &ca);
		} else {
			run_once(a, &wa[i], &ca);
			run_once(b, &wb[i], &cb);
		}
		rw[i] = wb[i] / wa[i];
		sum_ca += ca;
		sum_cb += cb;
	}
	/* "A-wall B-wall pair-ratio A-cpu B-cpu": ms, medians of wall time and
	 * of the per-pair ratios, means of CPU time */
	printf("%.4f %.4f %.4f %.4f %.4f\n", median(wa, (size_t)runs), median(wb, (size_t)runs),
	       median(rw, (size_t)runs), sum_ca / runs, sum_cb / runs);
	return 0;
}
