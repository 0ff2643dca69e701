/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fallback timer for bench/launch/run when hyperfine is missing: runs a
 * command RUNS times (after WARMUP untimed runs) with fork/execvp/waitpid
 * and prints "mean_ms median_ms min_ms" of the wall time. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* fd 9, when open, holds a seccomp program for bwrap: rewound per run. */
#define FILTER_FD 9

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One run; returns the wall time in ms, or a negative value on failure. */
static double run_once(char **argv)
{
	double start;
	pid_t pid;
	int st;

	if (fcntl(FILTER_FD, F_GETFD) >= 0 && lseek(FILTER_FD, 0, SEEK_SET) < 0)
		return -1;
	start = now_ms();
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
			/* fd 3 must stay free: under minimal.ini the loader
			 * may read libraries only there. */
			if (null > STDERR_FILENO)
				close(null);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return -1;
	return now_ms() - start;
}

int main(int argc, char **argv)
{
	long runs, warmup;
	double *t, sum = 0;

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
	qsort(t, (size_t)runs, sizeof(*t), cmp_double);
	printf("%.4f %.4f %.4f\n", sum / (double)runs, t[runs / 2], t[0]);
	free(t);
	return 0;
}
