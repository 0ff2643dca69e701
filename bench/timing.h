/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the small timing programs of bench/ share: a monotonic clock, a
 * comparison for qsort(), the median, and one timed run of a command with its CPU time
 * (header only: each program is also built alone with `cc FILE.c`). */
#ifndef SCMP_RUN_BENCH_TIMING_H
#define SCMP_RUN_BENCH_TIMING_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static inline double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0..n-1], n >= 1, which it sorts: for an even n the mean
 * of the two middle values (v[n / 2] alone is the upper one, too high). */
static inline double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Run argv once (fork, execvp, wait4), its standard streams on /dev/null
 * when quiet. Wall and CPU (user + system) microseconds in *ret_wall and
 * *ret_cpu. Returns 0 when it exited with 0, else -1. */
static inline int run_timed(char **argv, bool quiet, double *ret_wall, double *ret_cpu)
{
	struct rusage ru;
	double start = now_us();
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = quiet ? open("/dev/null", O_RDWR) : -1;

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
	while (wait4(pid, &st, 0, &ru) < 0)
		if (errno != EINTR)
			return -1;
	*ret_wall = now_us() - start;
	*ret_cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 +
		   (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

#endif
