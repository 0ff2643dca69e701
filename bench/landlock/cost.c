/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The Landlock steps of run mode alone, timed in this process: preparing the
 * ruleset of a profile (landlock_prepare: open the paths, add the rules,
 * close the paths), entering it (landlock_enforce, in a forked child), and
 * the system calls of the paths one kind at a time. Prints min and median
 * microseconds of each; the minimum is what a loaded machine cannot inflate. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compile.h"
#include "../timing.h"
#include "landlock-uapi.h"
#include "landlock.h"

#define RUNS  2000
#define PATHS 64 /* the paths timed one kind at a time: the first 64 */

static void report(const char *what, double *t, size_t n)
{
	double med = median(t, n); /* sorts t */

	printf("%s\t%.2f\t%.2f\n", what, t[0], med);
}

/* Enter the domain of plan in a child; the time it took, or < 0. */
static double enforce_in_child(struct landlock_plan *plan, struct diag *d)
{
	int pfd[2];
	double t = -1;
	pid_t pid;

	if (pipe(pfd) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		double t0;

		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		t0 = now_us();
		if (landlock_enforce(plan, d) < 0)
			_exit(1);
		t = now_us() - t0;
		_exit(write(pfd[1], &t, sizeof(t)) == sizeof(t) ? 0 : 1);
	}
	close(pfd[1]);
	if (pid < 0 || read(pfd[0], &t, sizeof(t)) != sizeof(t))
		t = -1;
	close(pfd[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return t;
}

/* Close fds[0..n) with one close_range() per run of consecutive numbers. */
static void close_runs(const int *fds, size_t n)
{
	size_t first = 0;

	for (size_t i = 1; i <= n; i++) {
		if (i < n && fds[i] == fds[i - 1] + 1)
			continue;
		close_range((unsigned)fds[first], (unsigned)fds[i - 1], 0);
		first = i;
	}
}

/*
 * The paths' system calls, one kind at a time over the n existing paths of
 * c: getppid (a bare call, for scale), open (O_PATH), landlock_add_rule,
 * close one by one, close_range once per run.
 */
static int time_calls(const struct landlock_config *c, int abi)
{
	static double t[5][RUNS];
	struct landlock_rights rights;
	const char *path[PATHS];
	uint64_t access[PATHS];
	struct diag d;
	struct stat st;
	int fd[PATHS], r;
	size_t n = 0;
	char name[64];

	diag_init(&d);
	r = landlock_rights_build(c, abi, &d, &rights);
	diag_clear(&d);
	if (r < 0 || !rights.fs)
		return 0;
	for (size_t i = 0; i < c->n_paths && n < PATHS; i++) {
		int f = open(c->paths[i].path, O_PATH | O_CLOEXEC);

		if (f < 0)
			continue;
		/* every handled right on a directory, the file rights on a file */
		access[n] = fstat(f, &st) == 0 && S_ISDIR(st.st_mode)
				    ? rights.fs
				    : rights.fs & LANDLOCK_ACCESS_FS_FILE;
		close(f);
		path[n++] = c->paths[i].path;
	}
	if (!n)
		return 0;
	for (size_t k = 0; k < RUNS; k++) {
		struct landlock_ruleset_attr ra = { .handled_access_fs = rights.fs };
		int rs = (int)syscall(SYS_landlock_create_ruleset, &ra,
				      sizeof(ra.handled_access_fs), 0);
		double t0;

		if (rs < 0)
			return -1;
		t0 = now_us();
		for (size_t i = 0; i < n; i++)
			syscall(SYS_getppid);
		t[0][k] = now_us() - t0;
		t0 = now_us();
		for (size_t i = 0; i < n; i++)
			fd[i] = open(path[i], O_PATH | O_CLOEXEC);
		t[1][k] = now_us() - t0;
		t0 = now_us();
		for (size_t i = 0; i < n; i++) {
			struct landlock_path_beneath_attr pa = { .allowed_access = access[i],
								 .parent_fd = fd[i] };

			syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH, &pa, 0);
		}
		t[2][k] = now_us() - t0;
		t0 = now_us();
		for (size_t i = 0; i < n; i++)
			close(fd[i]);
		t[3][k] = now_us() - t0;
		for (size_t i = 0; i < n; i++)
			fd[i] = open(path[i], O_PATH | O_CLOEXEC);
		t0 = now_us();
		close_runs(fd, n);
		t[4][k] = now_us() - t0;
		close(rs);
	}
	snprintf(name, sizeof(name), "getppid_x%zu", n);
	report(name, t[0], RUNS);
	snprintf(name, sizeof(name), "open_x%zu", n);
	report(name, t[1], RUNS);
	snprintf(name, sizeof(name), "add_rule_x%zu", n);
	report(name, t[2], RUNS);
	snprintf(name, sizeof(name), "close_x%zu", n);
	report(name, t[3], RUNS);
	snprintf(name, sizeof(name), "close_range_of_%zu", n);
	report(name, t[4], RUNS);
	return 0;
}

int main(int argc, char **argv)
{
	static double prep[RUNS], enforce[RUNS];
	struct compiled c;
	struct diag d;
	int abi = landlock_abi_probe();

	if (argc != 2) {
		fprintf(stderr, "usage: landlock-cost PROFILE\n");
		return 2;
	}
	diag_init(&d);
	if (compile_file(argv[1], arch_native(), NULL, &d, &c) < 0) {
		diag_print(&d, "landlock-cost", stderr);
		return 1;
	}
	/* prepare alone first: no fork in between to leave copy-on-write
	 * faults behind */
	for (size_t i = 0; i < RUNS; i++) {
		struct landlock_plan plan;
		double t0 = now_us();

		if (landlock_prepare(&c.profile->landlock, abi, &d, &plan) < 0) {
			diag_print(&d, "landlock-cost", stderr);
			return 1;
		}
		prep[i] = now_us() - t0;
		landlock_plan_close(&plan);
	}
	for (size_t i = 0; i < RUNS; i++) {
		struct landlock_plan plan;

		if (landlock_prepare(&c.profile->landlock, abi, &d, &plan) < 0)
			return 1;
		enforce[i] = enforce_in_child(&plan, &d);
		landlock_plan_close(&plan);
		if (enforce[i] < 0)
			return 1;
	}
	report("prepare", prep, RUNS);
	report("enforce", enforce, RUNS);
	if (time_calls(&c.profile->landlock, abi) < 0)
		return 1;
	compiled_free(&c);
	diag_clear(&d);
	return 0;
}
