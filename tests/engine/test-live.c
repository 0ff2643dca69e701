/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Generated programs loaded into the real kernel: in forked children, real
 * syscalls (also i386 "int $0x80" and x32 numbers from x86_64 code) must get
 * exactly the action the simulator predicts.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine-util.h"
#include "syscalls.h"
#include "sim.h"
#include "tap.h"

/* Outcome of one call as the parent sees it. */
enum seen {
	SEEN_RAN,   /* the call ran (allowed or logged) */
	SEEN_ERRNO, /* failed with our errno (value in data) */
	SEEN_TRAP,  /* SIGSYS delivered to a handler */
	SEEN_KILL,  /* the process died of SIGSYS */
};

struct call {
	int abi; /* 0 x86_64, 1 i386 via int $0x80 */
	long nr;
	unsigned long args[6];
};

static volatile sig_atomic_t trapped;

static void on_sigsys(int sig)
{
	(void)sig;
	trapped = 1;
}

#if defined(__x86_64__)
static long int80(long nr, const unsigned long *a)
{
	long ret;

	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(nr), "b"(a[0]), "c"(a[1]), "d"(a[2]), "S"(a[3]), "D"(a[4])
			 : "r8", "r9", "r10", "r11", "memory");
	return ret;
}
#endif

/* errno values of our rules are >= 1000: nothing the kernel returns. */
#define OUR_ERRNO 1000

static long do_call(const struct call *c)
{
#if defined(__x86_64__)
	if (c->abi == 1)
		return int80(c->nr, c->args);
#endif
	return syscall(c->nr, c->args[0], c->args[1], c->args[2], c->args[3], c->args[4],
		       c->args[5]);
}

/* The exit_group syscall itself: a sanitizer's _exit() would make calls
 * (sigaltstack, mmap) that the filter under test may deny. */
__attribute__((noreturn)) static void child_exit(int status)
{
	syscall(SYS_exit_group, status);
	__builtin_unreachable();
}

/*
 * The child's side of child_status(): load prog, make the call, report
 * through the exit code. Not instrumented by AddressSanitizer, which calls
 * sigaltstack() before every call of a function that does not return (to
 * unpoison the stacks), here after the filter is in place: a filter whose
 * default denies would have the sanitizer's check fail and the child exit
 * with 1, read as a trap.
 */
__attribute__((noreturn, no_sanitize("address"))) static void run_child(const struct sock_fprog *fp,
									const struct call *c)
{
	struct sigaction sa = { .sa_handler = on_sigsys };
	long r;

	sigaction(SIGSYS, &sa, NULL);
	prctl(PR_SET_DUMPABLE, 0);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, fp))
		child_exit(2);
	r = do_call(c);
	if (trapped)
		child_exit(1);
	if (c->abi == 1 ? (r < 0 && -r >= OUR_ERRNO) : (r == -1 && errno >= OUR_ERRNO))
		child_exit(10 + (int)((c->abi == 1 ? -r : errno) - OUR_ERRNO));
	child_exit(0);
}

/* In a child: load prog, make the call, report through the exit code:
 * 0 ran, 1 trap, 2 load failed, 10 + (errno - OUR_ERRNO) our errno. */
static int child_status(const struct bpf_prog *prog, const struct call *c)
{
	struct sock_fprog fp = { .len = (unsigned short)prog->len, .filter = prog->insns };
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (pid == 0)
		run_child(&fp, c);
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	if (WIFSIGNALED(st))
		return WTERMSIG(st) == SIGSYS ? 3 : 4;
	return WEXITSTATUS(st);
}

/* What the simulator says the child will report. */
static int predicted_status(const struct tcase *cp, const struct call *c)
{
	struct seccomp_data sd = { .nr = (int)c->nr };
	struct sim_result res;
	uint32_t action;

	sd.arch = c->abi == 1 ? AUDIT_ARCH_I386 : AUDIT_ARCH_X86_64;
	for (int i = 0; i < 6; i++)
		sd.args[i] = c->abi == 1 ? (uint32_t)c->args[i] : c->args[i];
	if (sim_run(cp->out.prog->insns, cp->out.prog->len, &sd, &res) < 0)
		return -1;
	action = res.ret & SECCOMP_RET_ACTION_FULL;
	switch (action) {
	case SECCOMP_RET_ALLOW:
	case SECCOMP_RET_LOG:
		return 0;
	case SECCOMP_RET_TRAP:
		return 1;
	case SECCOMP_RET_ERRNO:
		return (res.ret & SECCOMP_RET_DATA) >= OUR_ERRNO
			       ? 10 + (int)((res.ret & SECCOMP_RET_DATA) - OUR_ERRNO)
			       : 0;
	case SECCOMP_RET_KILL_PROCESS:
	case SECCOMP_RET_KILL_THREAD:
		return 3;
	default:
		return -1;
	}
}

static struct tcase build(const char *const *lines)
{
	struct tcase c = { .rs = ruleset_new() };
	const char *err;
	unsigned n = 0;

	for (; *lines; lines += 3, n++) {
		if (!strcmp(lines[0], "default")) {
			action_parse(lines[1], arch_native(), &c.rs->attrs.default_action, &err);
			c.rs->attrs.has_default_action = true;
		} else if (!strcmp(lines[0], "unknown")) {
			action_parse(lines[1], arch_native(), &c.rs->attrs.unknown_action, &err);
			c.rs->attrs.has_unknown_action = true;
		} else if (!strcmp(lines[0], "badarch")) {
			action_parse(lines[1], arch_native(), &c.rs->attrs.bad_arch_action, &err);
		} else if (!strcmp(lines[0], "arches")) {
			c.rs->attrs.arches = (uint32_t)strtoul(lines[1], NULL, 0);
		} else {
			util_add_rule(c.rs, lines[0], lines[1], lines[2], n + 1);
		}
	}
	if (util_compile(&c) < 0) {
		for (size_t i = 0; i < c.d.n_msgs; i++)
			tap_diag("compile: %s", c.d.msgs[i].text);
		util_compiled_free(&c);
	}
	return c;
}

/* Whether "int $0x80" reaches the kernel's i386 entry at all: some kernels
 * (ia32_emulation=0) and hypervisors do not deliver it, the process then
 * dies of SIGSEGV before any filter is consulted. */
static bool int80_works(void)
{
	static int works = -1;
	pid_t pid;
	int st;

	if (works >= 0)
		return works;
	pid = fork();
	if (pid == 0)
		child_exit(int80(20 /* i386 getpid */, (const unsigned long[6]){ 0 }) == getpid()
				   ? 0
				   : 1);
	works = pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
	return works;
}

static void expect(const struct tcase *c, const struct call *call, int want, const char *what)
{
	int got, pred;

	if (call->abi == 1 && !int80_works()) {
		tap_skip("%s: int $0x80 does not reach this kernel's i386 entry", what);
		return;
	}
	got = child_status(c->out.prog, call);
	pred = predicted_status(c, call);

	tap_ok(got == want && pred == want, "%s (kernel %d, simulator %d, expected %d)", what, got,
	       pred, want);
}

#define A(...) ((const char *const[]){ __VA_ARGS__, NULL })

#define HIGH_BIT (1ul << 32) /* a bit the kernel drops from a 32-bit argument */
#define WIDTH_FD 1000	     /* a descriptor number the width tests own */

/* The inode of this process's user namespace. */
static ino_t user_ns(void)
{
	struct stat st;

	return stat("/proc/self/ns/user", &st) == 0 ? st.st_ino : 0;
}

/*
 * Without any filter, in a child: does the kernel act on the low 32 bits
 * only (data/kernel-widths.txt)? clone(2) with bit 32 set still creates a
 * new user namespace, mmap(2) and writev(2) still use the descriptor.
 * Returns 0 when it does.
 */
static int kernel_narrows(int which)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		ino_t before = user_ns();
		struct iovec iov = { .iov_base = (void *)"x", .iov_len = 1 };
		long r;

		switch (which) {
		case 0:
			r = syscall(SYS_clone, (unsigned long)CLONE_NEWUSER | SIGCHLD | HIGH_BIT, 0,
				    0, 0, 0);
			if (r == 0) /* the new process: in a user namespace of its own? */
				child_exit(user_ns() != before ? 0 : 1);
			if (r < 0)
				child_exit(2);
			child_exit(waitpid((pid_t)r, &st, 0) == r && WIFEXITED(st) ? WEXITSTATUS(st)
										   : 3);
		case 1:
			r = syscall(SYS_mmap, 0, 4096, PROT_READ, MAP_PRIVATE, WIDTH_FD | HIGH_BIT,
				    0);
			child_exit(r == -1 ? 1 : 0);
		default:
			r = syscall(SYS_writev, WIDTH_FD | HIGH_BIT, &iov, 1 | HIGH_BIT);
			child_exit(r == 1 ? 0 : 1);
		}
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/*
 * A size-first program (scmp-run.ini(5) PROGRAM SIZE) in the kernel: the
 * kernel accepts its use of memory (it checks that every word is stored
 * before it is read on every path) and decides as the simulator on calls
 * near the values of its bit tables. The calls get an invalid descriptor.
 * The default allows, so that a sanitizer's own calls in the child pass.
 */
static void size_first_live(void)
{
	static const char *const first[] = { "lseek", "fcntl",	   "ioctl",	"fchown",
					     "dup3",  "fadvise64", "fallocate", "sync_file_range",
					     NULL };
	static const int64_t delta[] = { 0, 0, 1, -1, 2, 32, 64, -50 };
	struct tcase c = { .rs = ruleset_new() };
	struct rng r = { 0x11fe5 };
	unsigned line = 0, calls = 0, bad = 0, seen = 0;
	bool mem = false;
	size_t n;

	action_parse("allow", arch_native(), &c.rs->attrs.default_action, &(const char *){ 0 });
	c.rs->attrs.has_default_action = true;
	n = util_add_clusters(c.rs, &r, 250, (const char *const[]){ "errno(1002)", "errno(1001)" },
			      first, &line, NULL);
	if (n != 250 || util_compile(&c) < 0) {
		tap_ok(false, "size-first: 250 syscalls of clustered values compile");
		util_compiled_free(&c);
		return;
	}
	for (size_t i = 0; i < c.out.prog->len; i++)
		mem |= BPF_CLASS(c.out.prog->insns[i].code) == BPF_STX;
	tap_ok(mem, "size-first program of %zu instructions passes masks in memory",
	       c.out.prog->len);
	for (int k = 0; k < 400; k++) {
		/* 20 rules for each name of first, in order */
		const struct rule *ru = &c.rs->rules[pick(&r, 8 * 20)];
		struct call call = { .args = { 9999 } };
		uint32_t nr = 0;
		int got, pred;

		syscalls_lookup_name(arch_native(), ru->syscall, &nr);
		call.nr = nr;
		call.args[1] = ru->conj.cmps[0].values[0].terms[0].lit +
			       (uint64_t)delta[pick(&r, sizeof(delta) / sizeof(delta[0]))];
		got = child_status(c.out.prog, &call);
		pred = predicted_status(&c, &call);
		calls++;
		seen |= 1u << (pred & 15);
		if (got != pred && ++bad <= 5)
			tap_diag("%s arg1 %#lx: kernel %d, simulator %d", ru->syscall, call.args[1],
				 got, pred);
	}
	tap_ok(bad == 0 && seen == ((1u << 0) | (1u << 11) | (1u << 12)),
	       "size-first: kernel and simulator agree on %u calls (%u differ; outcomes seen %#x)",
	       calls, bad, seen);
	util_compiled_free(&c);
}

int main(void)
{
#if !defined(__x86_64__)
	tap_skip("live tests are written for x86_64 hosts");
	return tap_done();
#else
	struct tcase c;
	unsigned long random_calls = 0, random_bad = 0;

	/* Every action the kernel can show us, on the native ABI. */
	c = build(A("default", "allow", "", "errno(1001)", "getppid", "", "trap", "getpgid",
		    "pid == 7", "kill-process", "getsid", "pid == 9", "kill-thread", "getsid",
		    "pid == 8", "log", "getpriority", "", "errno(1002)", "umask",
		    "mask & 0700 == 0700"));
	if (!c.out.prog)
		return tap_done();
	expect(&c, &(struct call){ .abi = 0, .nr = SYS_getppid }, 11, "errno rule gives its errno");
	expect(&c, &(struct call){ .abi = 0, .nr = SYS_getpid }, 0, "default allow runs the call");
	expect(&c, &(struct call){ .abi = 0, .nr = SYS_getpgid, .args = { 7 } }, 1,
	       "trap delivers SIGSYS");
	expect(&c, &(struct call){ .abi = 0, .nr = SYS_getpgid, .args = { 6 } }, 0,
	       "trap rule's condition false");
	expect(&c, &(struct call){ .abi = 0, .nr = SYS_getsid, .args = { 9 } }, 3,
	       "kill-process kills");
	expect(&c, &(struct call){ .abi = 0, .nr = SYS_getsid, .args = { 8 } }, 3,
	       "kill-thread kills a 1-thread process");
	expect(&c, &(struct call){ .abi = 0, .nr = SYS_getpriority, .args = { 0, 0 } }, 0,
	       "log lets the call run");
	expect(&c, &(struct call){ .abi = 0, .nr = SYS_umask, .args = { 0777 } }, 12,
	       "masked compare matches");
	expect(&c, &(struct call){ .abi = 0, .nr = SYS_umask, .args = { 0x1000001ff } }, 12,
	       "32-bit argument: upper half ignored");
	expect(&c, &(struct call){ .abi = 0, .nr = SYS_umask, .args = { 0077 } }, 0,
	       "masked compare does not match");
	util_compiled_free(&c);

	/* Bad arch, x32 numbers and -1 on a native-only filter. */
	c = build(A("default", "allow", "", "badarch", "errno(1003)", "", "unknown", "errno(1004)",
		    "", "errno(1005)", "getppid", ""));
	if (!c.out.prog)
		return tap_done();
	expect(&c, &(struct call){ .abi = 1, .nr = 64 /* i386 getppid */ }, 13,
	       "int $0x80 is bad-arch");
	expect(&c, &(struct call){ .abi = 0, .nr = ARCH_X32_SYSCALL_BIT | SYS_getppid }, 13,
	       "x32 number is bad-arch");
	expect(&c, &(struct call){ .abi = 0, .nr = -1 }, 14, "syscall -1 is an unknown number");
	expect(&c, &(struct call){ .abi = 0, .nr = 9999 }, 14,
	       "a number past the table is unknown");
	expect(&c, &(struct call){ .abi = 0, .nr = SYS_getppid }, 15, "native rule applies");
	util_compiled_free(&c);

	/* x86_64 + i386 + x32 in one program. */
	c = build(A("arches", "0x7", "", "default", "allow", "", "badarch", "errno(1003)", "",
		    "errno(1006)", "getppid", "", "errno(1007)", "getpid", "", "unknown",
		    "errno(1004)", ""));
	if (!c.out.prog)
		return tap_done();
	expect(&c, &(struct call){ .abi = 1, .nr = 64 }, 16, "i386 getppid hits the i386 rule");
	expect(&c, &(struct call){ .abi = 1, .nr = 20 }, 17, "i386 getpid hits the i386 rule");
	expect(&c, &(struct call){ .abi = 1, .nr = 9999 }, 14, "i386 unknown number");
	expect(&c, &(struct call){ .abi = 0, .nr = ARCH_X32_SYSCALL_BIT | SYS_getppid }, 16,
	       "x32 getppid hits the x32 rule");
	expect(&c, &(struct call){ .abi = 0, .nr = ARCH_X32_SYSCALL_BIT | 9999 }, 14,
	       "x32 unknown number");
	expect(&c, &(struct call){ .abi = 0, .nr = SYS_getppid }, 16, "x86_64 getppid");
	util_compiled_free(&c);

	/* i386 socketcall fails closed on a conditional allow. */
	c = build(A("arches", "0x3", "", "default", "errno(1008)", "", "allow", "socket",
		    "family == AF_UNIX", "kill-process", "connect", "addrlen > 100", "allow",
		    "exit_group", ""));
	if (!c.out.prog)
		return tap_done();
	expect(&c, &(struct call){ .abi = 1, .nr = 102, .args = { 1, 0 } }, 18,
	       "socketcall(SYS_SOCKET) not allowed");
	expect(&c, &(struct call){ .abi = 1, .nr = 102, .args = { 3, 0 } }, 3,
	       "socketcall(SYS_CONNECT) killed");
	util_compiled_free(&c);

	/* Kernel widths: the kernel acts on the low 32 bits of clone's flags,
	 * mmap's fd, writev's fd and length, so a deny rule written with "=="
	 * must hold whatever the upper half is. First the kernel as the
	 * oracle, then the filter. */
	{
		int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);

		if (fd < 0 || dup2(fd, WIDTH_FD) != WIDTH_FD) {
			tap_ok(false, "width tests: a file on descriptor %d", WIDTH_FD);
		} else {
			tap_ok(kernel_narrows(0) == 0,
			       "kernel: clone(CLONE_NEWUSER|SIGCHLD with bit 32) creates a user "
			       "namespace");
			tap_ok(kernel_narrows(1) == 0,
			       "kernel: mmap of fd %d with bit 32 maps the file", WIDTH_FD);
		}
		if (fd >= 0)
			close(fd);
		close(WIDTH_FD);
	}
	{
		int p[2];

		if (pipe(p) < 0 || dup2(p[1], WIDTH_FD) != WIDTH_FD)
			tap_ok(false, "width tests: a pipe on descriptor %d", WIDTH_FD);
		else
			tap_ok(kernel_narrows(2) == 0,
			       "kernel: writev to fd %d, length 1, both with bit 32, writes",
			       WIDTH_FD);
		c = build(A("default", "allow", "", "errno(1030)", "clone",
			    "flags == CLONE_NEWUSER|SIGCHLD", "errno(1031)", "mmap", "fd == 1000",
			    "errno(1032)", "writev", "fd == 1000", "errno(1033)", "readv",
			    "vlen == 1"));
		if (!c.out.prog)
			return tap_done();
		expect(&c,
		       &(struct call){ .nr = SYS_clone,
				       .args = { CLONE_NEWUSER | SIGCHLD | HIGH_BIT } },
		       40, "clone flags == CLONE_NEWUSER|SIGCHLD denied with bit 32 set");
		expect(&c,
		       &(struct call){ .nr = SYS_clone,
				       .args = { CLONE_NEWUSER | SIGCHLD | 0xffffffff00000000ul } },
		       40, "clone flags denied with the whole upper half set");
		expect(&c,
		       &(struct call){
			       .nr = SYS_mmap,
			       .args = { 0, 4096, PROT_READ, MAP_PRIVATE, WIDTH_FD | HIGH_BIT } },
		       41, "mmap fd == 1000 denied with bit 32 set");
		expect(&c,
		       &(struct call){ .nr = SYS_writev, .args = { WIDTH_FD | HIGH_BIT, 0, 1 } },
		       42, "writev fd == 1000 denied with bit 32 set");
		expect(&c, &(struct call){ .nr = SYS_readv, .args = { 9999, 0, 1 | HIGH_BIT } }, 43,
		       "readv vlen == 1 denied with bit 32 set");
		util_compiled_free(&c);
		close(p[0]);
		close(p[1]);
		close(WIDTH_FD);
	}

	/* Random conditions on harmless calls: kernel vs simulator. */
	static const struct {
		long nr;
		const char *name;
	} harmless[] = {
		/* three or more arguments; called with a bad fd, they fail with EBADF */
		{ SYS_lseek, "lseek" },		{ SYS_fcntl, "fcntl" },
		{ SYS_ioctl, "ioctl" },		{ SYS_fchown, "fchown" },
		{ SYS_dup3, "dup3" },		{ SYS_fadvise64, "fadvise64" },
		{ SYS_fallocate, "fallocate" }, { SYS_sync_file_range, "sync_file_range" },
	};
	static const char *const conds[] = {
		"arg1 == 0x80000000",
		"arg1 < 0",
		"arg1 >= -5 && arg1 <= 5",
		"arg2 > 0xffffffff",
		"arg2 & 0xff00 == 0x1200",
		"arg1 in { 1, 2, 0x7fffffff }",
		"arg0 != 3",
		"arg2 <= 0x100000000",
		"arg1 not in { 0, 1 }",
		"arg0 == 0xffffffff",
	};
	uint64_t seed = 0x11ce;
	for (int set = 0; set < 40; set++) {
		const char *lines[3 * 16 + 1] = { "default", "allow", "" };
		char errnos[12][16];
		int n = 3;

		for (int r = 0; r < 12; r++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			snprintf(errnos[r], sizeof(errnos[r]), "errno(%d)", 1010 + r);
			lines[n++] = errnos[r];
			lines[n++] = harmless[(seed >> 33) % 8].name;
			lines[n++] = conds[(seed >> 40) % 10];
		}
		lines[n] = NULL;
		c = build(lines);
		if (!c.out.prog) {
			/* a condition not valid for that syscall's types */
			continue;
		}
		for (int k = 0; k < 15; k++) {
			static const unsigned long vals[] = { 0,
							      1,
							      2,
							      3,
							      5,
							      0x7fffffff,
							      0x80000000,
							      0xffffffff,
							      0x100000000,
							      0x1200,
							      0xfffffffffffffffb,
							      0x100001200 };
			struct call call = { 0 };

			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			call.nr = harmless[(seed >> 33) % 8].nr;
			/* the fd stays invalid (low half): the calls must not act */
			call.args[0] =
				(const unsigned long[]){ 9999, 0xffffffff,
							 0x100000000 + 9999 }[(seed >> 20) % 3];
			call.args[1] = vals[(seed >> 40) % 12];
			call.args[2] = vals[(seed >> 50) % 12];
			random_calls++;
			if (child_status(c.out.prog, &call) != predicted_status(&c, &call) &&
			    ++random_bad <= 5)
				tap_diag("set %d: nr %ld args %lx %lx %lx differ", set, call.nr,
					 call.args[0], call.args[1], call.args[2]);
		}
		util_compiled_free(&c);
	}
	tap_ok(random_calls >= 100 && random_bad == 0,
	       "random conditions: kernel and simulator agree on %lu calls (%lu differ)",
	       random_calls, random_bad);
	size_first_live();
	return tap_done();
#endif
}
