/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The Landlock steps of run mode alone, timed in this process: preparing the
 * ruleset of a profile (landlock_prepare: open the paths, add the rules) and
 * entering it (landlock_enforce, in a forked child). Prints min and median
 * microseconds of each; the minimum is what a loaded machine cannot inflate. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compile.h"
#include "landlock.h"

#define RUNS 2000

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void report(const char *what, double *t, size_t n)
{
	qsort(t, n, sizeof(*t), cmp_double);
	printf("%s\t%.2f\t%.2f\n", what, t[0], t[n / 2]);
}

int main(int argc, char **argv)
{
	static double prep[RUNS], enforce[RUNS];
	struct compiled c;
	struct diag d;
	int abi = landlock_abi_probe(), pfd[2];

	if (argc != 2) {
		fprintf(stderr, "usage: landlock-cost PROFILE\n");
		return 2;
	}
	diag_init(&d);
	if (compile_file(argv[1], arch_native(), NULL, &d, &c) < 0) {
		diag_print(&d, "landlock-cost", stderr);
		return 1;
	}
	for (size_t i = 0; i < RUNS; i++) {
		struct landlock_plan plan;
		double t0 = now_us(), t;
		pid_t pid;

		if (landlock_prepare(&c.profile->landlock, abi, &d, &plan) < 0) {
			diag_print(&d, "landlock-cost", stderr);
			return 1;
		}
		prep[i] = now_us() - t0;
		if (pipe(pfd) < 0)
			return 1;
		pid = fork();
		if (pid == 0) {
			prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
			t0 = now_us();
			if (landlock_enforce(&plan, &d) < 0)
				_exit(1);
			t = now_us() - t0;
			_exit(write(pfd[1], &t, sizeof(t)) == sizeof(t) ? 0 : 1);
		}
		landlock_plan_close(&plan);
		close(pfd[1]);
		if (pid < 0 || read(pfd[0], &enforce[i], sizeof(enforce[i])) != sizeof(enforce[i]))
			return 1;
		close(pfd[0]);
		waitpid(pid, NULL, 0);
	}
	report("prepare", prep, RUNS);
	report("enforce", enforce, RUNS);
	compiled_free(&c);
	diag_clear(&d);
	return 0;
}
