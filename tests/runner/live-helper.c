/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Target program for the live command-line tests: makes one chosen call
 * (from a second thread, under a SIGSYS handler, through the i386 entry
 * point, or TIOCSTI on its terminal) and reports what happened on stdout,
 * unbuffered. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* i386 getpid (arch/x86/entry/syscalls/syscall_32.tbl) */
#define I386_NR_GETPID 20

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void say(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0 && write(STDOUT_FILENO, buf, (size_t)n) < 0)
		_exit(3);
}

/* Only async-signal-safe work in the handler: format with snprintf into a
 * local buffer (no locale, no allocation for these conversions) and write. */
static void on_sigsys(int sig, siginfo_t *si, void *uc)
{
	char buf[128];
	int n;

	(void)sig;
	(void)uc;
	n = snprintf(buf, sizeof(buf), "sigsys code=%d syscall=%d data=%d arch=%#x\n", si->si_code,
		     si->si_syscall, si->si_errno, si->si_arch);
	if (n > 0 && write(STDOUT_FILENO, buf, (size_t)n) < 0)
		_exit(3);
	_exit(0);
}

static void catch_sigsys(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	if (sigaction(SIGSYS, &sa, NULL) < 0) {
		perror("live-helper: sigaction");
		exit(2);
	}
}

static void report(const char *what, long r, int err)
{
	say("%s=%ld errno=%d\n", what, r < 0 ? -1L : r, r < 0 ? err : 0);
}

static void *thread_main(void *arg)
{
	long r;

	(void)arg;
	errno = 0;
	r = syscall(SYS_getppid);
	say("thread: getppid returned, errno=%d\n", r < 0 ? errno : 0);
	return NULL;
}

/* kill-thread ends only the second thread (the kernel does do_exit() for
 * it while others live); kill-process ends them all with SIGSYS. */
static int mode_threads(void)
{
	pthread_t t;
	int r;

	say("main: start\n");
	r = pthread_create(&t, NULL, thread_main, NULL);
	if (r) {
		say("main: pthread_create failed: %d\n", r);
		return 2;
	}
	r = pthread_join(t, NULL);
	say("main: joined (%d)\n", r);
	return 0;
}

static long int80(long nr)
{
	long ret;

	/* The compat entry point from 64-bit code: the kernel sees
	 * AUDIT_ARCH_I386 and the i386 syscall number in eax. */
	__asm__ volatile("int $0x80" : "=a"(ret) : "a"(nr) : "memory", "r8", "r9", "r10", "r11");
	return (int)ret;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	long r;

	if (!strcmp(mode, "threads"))
		return mode_threads();
	if (!strcmp(mode, "getppid")) {
		errno = 0;
		r = syscall(SYS_getppid);
		say("getppid=%ld errno=%d pid=%ld\n", r < 0 ? -1L : r, r < 0 ? errno : 0,
		    (long)getpid());
		return 0;
	}
	if (!strcmp(mode, "trap")) {
		catch_sigsys();
		errno = 0;
		r = syscall(SYS_getppid);
		say("no signal: ");
		report("getppid", r, errno);
		return 1;
	}
	if (!strcmp(mode, "int80")) {
		catch_sigsys();
		r = int80(I386_NR_GETPID);
		if (r < 0)
			say("int80 getpid: errno=%ld\n", -r);
		else
			say("int80 getpid: %s\n", r == getpid() ? "own pid" : "wrong pid");
		return 0;
	}
	if (!strcmp(mode, "tiocsti")) {
		/* type one character into the terminal on stdin: the escape
		 * scmp-run.ini(5) BUILT-IN RULES closes */
		static const char c = '\n';

		errno = 0;
		r = ioctl(STDIN_FILENO, TIOCSTI, &c);
		say("tiocsti: %s\n", r == 0	       ? "typed"
				     : errno == EPERM  ? "EPERM"
				     : errno == EIO    ? "EIO"
				     : errno == ENOTTY ? "ENOTTY"
						       : "other error");
		return 0;
	}
	fprintf(stderr, "usage: live-helper threads|getppid|trap|int80|tiocsti\n");
	return 2;
}
