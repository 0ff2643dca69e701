/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Target program for the live command-line tests: makes one chosen call
 * (from a second thread, under a SIGSYS handler, through the i386 entry
 * point, TIOCSTI on its terminal, an io_uring socket, an openat that
 * truncates, clone3 with CLONE_NEWUSER) and reports what happened on stdout, unbuffered. */
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <linux/sched.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
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

static const char *err_name(int err)
{
	const char *n = strerrorname_np(err);

	return n ? n : "unknown errno";
}

/* One IORING_OP_SOCKET (Linux 5.19) for AF_NETLINK through a new ring: the
 * socket the filter's socket() rules never see. Prints where it stopped:
 * "io_uring_setup: ERRNO", "uring socket: ERRNO" or "uring socket: netlink". */
static int mode_uring_socket(void)
{
	struct io_uring_params p = { 0 };
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqe;
	unsigned char *sq, *cq;
	unsigned *tail, *head;
	int fd, dom = 0;
	socklen_t len = sizeof(dom);

	fd = (int)syscall(SYS_io_uring_setup, 4, &p);
	if (fd < 0) {
		say("io_uring_setup: %s\n", err_name(errno));
		return 0;
	}
	sq = mmap(NULL, p.sq_off.array + p.sq_entries * sizeof(unsigned), PROT_READ | PROT_WRITE,
		  MAP_SHARED, fd, IORING_OFF_SQ_RING);
	cq = mmap(NULL, p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe),
		  PROT_READ | PROT_WRITE, MAP_SHARED, fd, IORING_OFF_CQ_RING);
	sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE,
		    MAP_SHARED, fd, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED) {
		say("mmap: %s\n", err_name(errno));
		return 2;
	}
	memset(&sqes[0], 0, sizeof(sqes[0]));
	sqes[0].opcode = IORING_OP_SOCKET;
	sqes[0].fd = AF_NETLINK;
	sqes[0].off = SOCK_RAW;
	sqes[0].len = 0; /* NETLINK_ROUTE */
	sqes[0].user_data = 1;
	tail = (unsigned *)(sq + p.sq_off.tail);
	((unsigned *)(sq + p.sq_off.array))[*tail & *(unsigned *)(sq + p.sq_off.ring_mask)] = 0;
	__atomic_store_n(tail, *tail + 1, __ATOMIC_RELEASE);
	if (syscall(SYS_io_uring_enter, fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0) {
		say("io_uring_enter: %s\n", err_name(errno));
		return 0;
	}
	head = (unsigned *)(cq + p.cq_off.head);
	cqe = &((struct io_uring_cqe
			 *)(cq + p.cq_off.cqes))[*head & *(unsigned *)(cq + p.cq_off.ring_mask)];
	if (__atomic_load_n((unsigned *)(cq + p.cq_off.tail), __ATOMIC_ACQUIRE) == *head) {
		say("uring socket: no completion\n");
		return 2;
	}
	if (cqe->res < 0) {
		say("uring socket: %s\n", err_name(-cqe->res));
		return 0;
	}
	if (getsockopt(cqe->res, SOL_SOCKET, SO_DOMAIN, &dom, &len) != 0 || dom != AF_NETLINK) {
		say("uring socket: not netlink\n");
		return 2;
	}
	say("uring socket: netlink\n");
	return 0;
}

/* openat(FILE, O_RDONLY|O_TRUNC): what a "read-only" rule on the access
 * mode alone lets through; prints the result, the size is for the caller */
static int mode_open_trunc(const char *path)
{
	int fd = openat(AT_FDCWD, path, O_RDONLY | O_TRUNC);

	say("open-trunc: %s\n", fd >= 0 ? "opened" : err_name(errno));
	return 0;
}

/* clone3(CLONE_NEWUSER), raw: a rule on clone's flags cannot see clone3's,
 * which are in memory (scmp-run.ini(5) BUILT-IN RULES). Prints "clone3:
 * new user namespace" or "clone3: ERRNO". */
static int mode_clone3_newuser(void)
{
	struct clone_args args = { .flags = CLONE_NEWUSER, .exit_signal = SIGCHLD };
	long pid = syscall(SYS_clone3, &args, sizeof(args));

	if (pid == 0)
		_exit(0);
	if (pid < 0) {
		say("clone3: %s\n", err_name(errno));
		return 0;
	}
	waitpid((pid_t)pid, NULL, 0);
	say("clone3: new user namespace\n");
	return 0;
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
	if (!strcmp(mode, "uring-socket"))
		return mode_uring_socket();
	if (!strcmp(mode, "open-trunc") && argc > 2)
		return mode_open_trunc(argv[2]);
	if (!strcmp(mode, "clone3-newuser"))
		return mode_clone3_newuser();
	fprintf(stderr, "usage: live-helper threads|getppid|trap|int80|tiocsti|uring-socket|"
			"open-trunc FILE|clone3-newuser\n");
	return 2;
}
