/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Preloaded into scmp-run by test-supervise.sh, which runs it as root in a
 * pid namespace of its own. The first SIGKILL the supervisor sends, by
 * kill() or by pidfd_send_signal(), is preceded by what a command can do
 * between the supervisor's check that the caller still waits and its
 * signal: the caller's group ends, its parent reaps it, and another
 * process (a child of the shim) takes its pid. The signal is then sent as
 * asked, and what became of that other process is written to
 * $REUSE_SHIM_MARK: "alive", "killed" (the signal reached it), or
 * "not-taken" when it did not get the pid (the test is then void).
 * Deterministic where the real window is a few microseconds.
 *
 * With $REUSE_SHIM_NO_FD set instead, pidfd_open() fails with EMFILE, as
 * in a supervisor without a free descriptor. */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int acted;

static void *next_fn(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

static int real_kill(pid_t pid, int sig)
{
	int (*fn)(pid_t, int);
	void *sym = next_fn("kill");

	memcpy(&fn, &sym, sizeof(fn)); /* POSIX allows it; ISO C has no cast for it */
	return fn(pid, sig);
}

static int real_pidfd_send_signal(int fd, int sig, siginfo_t *info, unsigned flags)
{
	int (*fn)(int, int, siginfo_t *, unsigned);
	void *sym = next_fn("pidfd_send_signal");

	memcpy(&fn, &sym, sizeof(fn));
	return fn(fd, sig, info, flags);
}

/* The pid a pidfd names, from its fdinfo; -1 if none. */
static pid_t pidfd_pid(int fd)
{
	char path[64], line[128];
	pid_t pid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Pid:", 4))
			pid = (pid_t)strtol(line + 4, NULL, 10);
	fclose(f);
	return pid;
}

/* After the caller's group was sent SIGKILL: once its parent has reaped
 * it, a child of ours takes its pid (ns_last_pid of this namespace) and
 * waits for signals. */
static pid_t take_pid(pid_t pid)
{
	struct timespec ms = { 0, 1000000 };
	sigset_t none;
	pid_t other;
	FILE *f;

	for (int i = 0; i < 10000 && real_kill(pid, 0) == 0; i++)
		nanosleep(&ms, NULL);
	f = fopen("/proc/sys/kernel/ns_last_pid", "we");
	if (!f)
		return -1;
	fprintf(f, "%d", (int)pid - 1);
	if (fclose(f) != 0)
		return -1;
	other = fork();
	if (other == 0) {
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		for (;;)
			pause();
	}
	return other;
}

/* What the supervisor's signal did to the process that took the pid. */
static void mark(pid_t pid, pid_t other)
{
	const char *file = getenv("REUSE_SHIM_MARK");
	const char *what = "not-taken";
	int st = 0;
	FILE *f;

	if (other > 0) {
		real_kill(other, SIGTERM);
		waitpid(other, &st, 0);
		if (other == pid)
			what = WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL ? "killed" : "alive";
	}
	f = fopen(file, "we");
	if (f) {
		fprintf(f, "%s\n", what);
		fclose(f);
	}
}

int kill(pid_t pid, int sig)
{
	pid_t other;
	int r;

	if (sig != SIGKILL || acted || !getenv("REUSE_SHIM_MARK"))
		return real_kill(pid, sig);
	acted = 1;
	real_kill(pid, SIGKILL);
	other = take_pid(pid);
	r = real_kill(pid, sig);
	mark(pid, other);
	return r;
}

int pidfd_send_signal(int fd, int sig, siginfo_t *info, unsigned flags)
{
	pid_t pid, other;
	int r, err;

	if (sig != SIGKILL || acted || !getenv("REUSE_SHIM_MARK"))
		return real_pidfd_send_signal(fd, sig, info, flags);
	acted = 1;
	pid = pidfd_pid(fd);
	real_pidfd_send_signal(fd, SIGKILL, NULL, 0);
	other = take_pid(pid);
	r = real_pidfd_send_signal(fd, sig, info, flags);
	err = errno;
	mark(pid, other);
	errno = err;
	return r;
}

int pidfd_open(pid_t pid, unsigned flags)
{
	int (*fn)(pid_t, unsigned);
	void *sym = next_fn("pidfd_open");

	if (getenv("REUSE_SHIM_NO_FD")) {
		errno = EMFILE;
		return -1;
	}
	memcpy(&fn, &sym, sizeof(fn));
	return fn(pid, flags);
}
