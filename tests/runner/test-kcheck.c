/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kernel-check.c tests: action -> kernel version mapping, the actions of a
 * program, the live SECCOMP_GET_ACTION_AVAIL check, and the read-back.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "filters.h"
#include "kernel-check.h"
#include "tests/tap.h"

static void test_mapping(void)
{
	static const struct {
		uint32_t ret;
		const char *name, *since;
	} want[] = {
		{ SECCOMP_RET_KILL_PROCESS, "kill-process", "Linux 4.14" },
		{ SECCOMP_RET_KILL_THREAD, "kill-thread", "Linux 3.5" },
		{ SECCOMP_RET_TRAP | 7, "trap", "Linux 3.5" },
		{ SECCOMP_RET_ERRNO | EPERM, "errno", "Linux 3.5" },
		{ SECCOMP_RET_USER_NOTIF, "notify", "Linux 5.0" },
		{ SECCOMP_RET_TRACE | 9, "trace", "Linux 3.5" },
		{ SECCOMP_RET_LOG, "log", "Linux 4.14" },
		{ SECCOMP_RET_ALLOW, "allow", "Linux 3.5" },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct kcheck_action *a = kcheck_action_info(want[i].ret);

		tap_ok(a && a->action == (want[i].ret & SECCOMP_RET_ACTION_FULL) &&
			       !strcmp(a->name, want[i].name) && !strcmp(a->since, want[i].since),
		       "%#x is %s, since %s", want[i].ret, want[i].name, want[i].since);
	}
	tap_ok(!kcheck_action_info(0x12340000u), "0x12340000 is no action");
}

static void test_prog_actions(void)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 1),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 2, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 2),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 3, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_LOG),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct bpf_prog prog = { .insns = insns, .len = 8 };
	uint32_t acts[KCHECK_ACTIONS_MAX];
	int n = kcheck_prog_actions(&prog, acts);
	struct diag d;

	tap_ok(n == 3 && acts[0] == SECCOMP_RET_ERRNO && acts[1] == SECCOMP_RET_LOG &&
		       acts[2] == SECCOMP_RET_ALLOW,
	       "a program's actions: errno (twice), log, allow -> 3 distinct");
	insns[7] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_A, 0);
	tap_ok(kcheck_prog_actions(&prog, acts) == -EINVAL, "returning A: cannot tell, refused");
	insns[7] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, 0x12340000u);
	tap_ok(kcheck_prog_actions(&prog, acts) == -EINVAL, "an unknown action value: refused");
	diag_init(&d);
	tap_ok(kcheck_actions_available(&prog, &d) == -EINVAL && d.n_msgs == 1 &&
		       strstr(d.msgs[0].text, "no seccomp action"),
	       "an unknown action value: the kernel is not asked, the program refused");
	diag_clear(&d);
}

static void test_available(void)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_THREAD),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_LOG),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct bpf_prog prog = { .insns = insns, .len = 8 };
	uint32_t act = SECCOMP_RET_ALLOW;
	struct diag d;
	int r;

	if (syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &act) != 0) {
		tap_skip("SECCOMP_GET_ACTION_AVAIL: %s", strerror(errno));
		return;
	}
	diag_init(&d);
	r = kcheck_actions_available(&prog, &d);
	tap_ok(r == 0 && d.n_msgs == 0, "all 8 actions are available on this kernel");
	diag_clear(&d);
}

static void test_parse(void)
{
	static const char ok[] = "Name:\tx\nSeccomp:\t2\nSeccomp_filters:\t3\nSpeculation:\tx\n";
	static const char last[] = "Seccomp_filters:\t12";
	static const char missing[] = "Name:\tx\nSeccomp:\t0\n";
	static const char bad[] = "Seccomp_filters:\t1x\n";
	static const char empty[] = "Seccomp_filters:\t\n";
	unsigned v = 0;

	tap_ok(kcheck_parse_filters(ok, sizeof(ok) - 1, &v) == 0 && v == 3, "Seccomp_filters 3");
	tap_ok(kcheck_parse_filters(last, sizeof(last) - 1, &v) == 0 && v == 12,
	       "last line without newline: 12");
	tap_ok(kcheck_parse_filters(missing, sizeof(missing) - 1, &v) == -ENOENT,
	       "no Seccomp_filters line: -ENOENT");
	tap_ok(kcheck_parse_filters(bad, sizeof(bad) - 1, &v) == -EINVAL, "'1x': -EINVAL");
	tap_ok(kcheck_parse_filters(empty, sizeof(empty) - 1, &v) == -EINVAL, "empty: -EINVAL");
}

/* The status text must be this process's: another one's is /proc's too. */
static void test_parse_status(void)
{
	static const char mine[] = "Name:\tx\nTgid:\t42\nPid:\t43\nSeccomp_filters:\t2\n";
	static const char no_tgid[] = "Name:\tx\nPid:\t42\nSeccomp_filters:\t2\n";
	static const char no_count[] = "Tgid:\t42\n";
	unsigned v = 0;

	tap_ok(kcheck_parse_status(mine, sizeof(mine) - 1, 42, &v) == 0 && v == 2,
	       "status of process 42: Seccomp_filters 2");
	tap_ok(kcheck_parse_status(mine, sizeof(mine) - 1, 43, &v) == -ESRCH,
	       "Tgid 42 is not process 43 (Pid is the thread's): -ESRCH");
	tap_ok(kcheck_parse_status(mine, sizeof(mine) - 1, 0, &v) == -ESRCH,
	       "pid 0 (a faked getpid()) matches nothing: -ESRCH");
	tap_ok(kcheck_parse_status(no_tgid, sizeof(no_tgid) - 1, 42, &v) == -ESRCH,
	       "no Tgid line: -ESRCH");
	tap_ok(kcheck_parse_status(no_count, sizeof(no_count) - 1, 42, &v) == -ENOENT,
	       "this process's, without a count: -ENOENT");
}

/* ---- live read-back, each in a child ---- */

static struct sock_filter allow_insns[] = {
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};

static int load(const struct bpf_prog *prog)
{
	struct sock_fprog f = { .len = (unsigned short)prog->len, .filter = prog->insns };

	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &f);
}

/* How the child meets the read-back: unfiltered, behind an outer filter
 * that fakes seccomp()'s success, or under a real filter already; then
 * unfiltered and under a filter without /proc (readback_no_proc()). */
enum child_kind {
	PLAIN,
	FAKED,
	STACKED,
	NO_PROC,
	NO_PROC_STACKED
};

/* prepare, load, verify: the child's exit status is verify's result (0 ok,
 * 1 refused), 2+ for setup problems. Behind a faker or a real filter the
 * count before is 1 (read); unfiltered it is 0. */
static int readback(const struct bpf_prog *prog, enum child_kind kind)
{
	struct kcheck_readback rb;
	struct diag d;

	diag_init(&d);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return 2;
	if (kind == FAKED) {
		/* an outer filter: seccomp() "succeeds" without doing anything */
		static struct sock_filter f[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_seccomp, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 0),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct bpf_prog outer = { .insns = f, .len = 4 };

		if (load(&outer) != 0)
			return 3;
	} else if (kind == STACKED && load(prog) != 0) {
		return 2;
	}
	if (kcheck_readback_prepare(prog, &rb, &d) < 0)
		return 4;
	if (rb.before != (kind == PLAIN ? 0u : 1u))
		return 6;
	if (load(prog) != 0)
		return 5;
	return kcheck_readback_verify(&rb, &d) == 0 ? 0 : 1;
}

/* Without /proc (an empty tmpfs over it, in a mount namespace of the
 * child's own), stacked on a filter or not: prepare must refuse, naming
 * the read that failed. 0 refused so, 1 not, 77 no namespace here. */
static int readback_no_proc(const struct bpf_prog *prog, bool stacked)
{
	struct kcheck_readback rb;
	struct diag d;
	int r;

	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("none", "/proc", "tmpfs", 0, NULL) < 0)
		return 77;
	if (stacked && (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || load(prog) != 0))
		return 2;
	diag_init(&d);
	r = kcheck_readback_prepare(prog, &rb, &d);
	return r == -ENOENT && rb.status_fd == -1 && d.n_msgs == 2 &&
			       strstr(d.msgs[0].text, "reading /proc/self/status failed") &&
			       strstr(d.msgs[1].text, "mount /proc")
		       ? 0
		       : 1;
}

/* Behind an outer filter that answers openat() with errno(0), which hands
 * back descriptor 0: prepare must refuse whatever descriptor 0 is, a pipe
 * (not /proc's) or another process's status (/proc's, not this
 * process's). 0 refused so, 1 not. */
static int readback_faked_open(const struct bpf_prog *prog, const char *stdin_path, const char *msg)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct bpf_prog outer = { .insns = f, .len = 4 };
	struct kcheck_readback rb;
	struct diag d;
	int p[2], r;

	if (stdin_path ? dup2(open(stdin_path, O_RDONLY), 0) != 0
		       : pipe(p) < 0 || dup2(p[0], 0) != 0)
		return 2;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || load(&outer) != 0)
		return 3;
	diag_init(&d);
	r = kcheck_readback_prepare(prog, &rb, &d);
	return r == -EPERM && d.n_msgs == 2 && strstr(d.msgs[0].text, msg) &&
			       strstr(d.msgs[1].text, "fake the result of open(2)")
		       ? 0
		       : 1;
}

static void test_readback_faked_open(const struct bpf_prog *prog)
{
	pid_t pid = tap_fork();

	if (pid == 0)
		_exit(readback_faked_open(prog, NULL, "(0) is not a file of /proc"));
	tap_ok(tap_wait(pid) == 0, "openat() faked, descriptor 0 a pipe: refused, not /proc's");
	pid = tap_fork();
	if (pid == 0)
		_exit(readback_faked_open(prog, "/proc/1/status", "is not this process's"));
	tap_ok(tap_wait(pid) == 0,
	       "openat() faked, descriptor 0 the status of process 1: refused, not ours");
}

static int child(const struct bpf_prog *prog, enum child_kind kind)
{
	pid_t pid = tap_fork();

	if (pid == 0)
		_exit(kind >= NO_PROC ? readback_no_proc(prog, kind == NO_PROC_STACKED)
				      : readback(prog, kind));
	return tap_wait(pid);
}

static void test_readback_no_proc(const struct bpf_prog *prog)
{
	for (int stacked = 0; stacked < 2; stacked++) {
		int r = child(prog, stacked ? NO_PROC_STACKED : NO_PROC);

		if (r == 77)
			tap_skip("no mount namespace for a test without /proc");
		else
			tap_ok(r == 0, "no /proc, %s: refused, naming the read",
			       stacked ? "on a filter already (the count before)"
				       : "unfiltered (the descriptor for after)");
	}
}

static void test_readback(void)
{
	struct bpf_prog allow = { .insns = allow_insns, .len = 1 };
	struct diag d;
	struct kcheck_readback rb;

	diag_init(&d);
	if (kcheck_readback_prepare(&allow, &rb, &d) < 0) {
		tap_skip("no Seccomp_filters in /proc/self/status here");
		diag_clear(&d);
		return;
	}
	tap_ok(rb.status_fd >= 3 && (rb.read_ret & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_ALLOW &&
		       rb.prctl_ret == SECCOMP_RET_ALLOW,
	       "prepare: a descriptor, both calls predicted allowed");
	kcheck_readback_close(&rb);

	tap_ok(child(&allow, PLAIN) == 0,
	       "a real filter: count 0 before (unfiltered), PR_GET_SECCOMP 2, count 1 after");
	tap_ok(child(&allow, STACKED) == 0, "on a filter already: count 1 read before, 2 after");
	tap_ok(child(&allow, FAKED) == 1, "an outer filter that fakes seccomp() success: refused");
	test_readback_no_proc(&allow);
	test_readback_faked_open(&allow);

	{
		/* a status text without the count (a kernel before 5.9): only the
		 * read after loading sees it when the process was unfiltered */
		char text[64];
		int p[2], n = snprintf(text, sizeof(text), "Name:\tx\nTgid:\t%d\nSeccomp:\t2\n",
				       (int)getpid());

		if (pipe(p) < 0 || write(p[1], text, (size_t)n) < 0)
			abort();
		close(p[1]);
		memset(&rb, 0, sizeof(rb));
		rb.pid = getpid();
		rb.status_fd = p[0];
		rb.read_ret = SECCOMP_RET_ALLOW;
		rb.prctl_ret = SECCOMP_RET_KILL_PROCESS; /* not asked */
		tap_ok(kcheck_readback_verify(&rb, &d) == -EPERM && d.n_msgs == 2 &&
			       strstr(d.msgs[0].text, "no Seccomp_filters count") &&
			       strstr(d.msgs[1].text, "Linux 5.9"),
		       "no Seccomp_filters after loading: refused, naming the kernel needed");
		kcheck_readback_close(&rb);
		diag_clear(&d);
		diag_init(&d);
	}

#ifdef NATIVE_AUDIT_ARCH
	{
		/* read -> EACCES, prctl -> EPERM: verified by the errnos */
		struct sock_filter insns[] = TWO_CALLS_INSNS(__NR_read, SECCOMP_RET_ERRNO | EACCES,
							     __NR_prctl, SECCOMP_RET_ERRNO | EPERM);
		struct bpf_prog errs = { .insns = insns, .len = 8 };

		tap_ok(child(&errs, PLAIN) == 0, "read and prctl answered by errnos: verified");
		tap_ok(child(&errs, FAKED) == 1, "the same behind a faker: refused");

		/* prctl killed: read's errno alone shows the filter in place */
		insns[6] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
		tap_ok(child(&errs, PLAIN) == 0,
		       "read answered by an errno, prctl killed: verified");
		tap_ok(child(&errs, FAKED) == 1,
		       "the same behind a faker: refused, read did not get the errno");

		/* both killed: nothing can be verified, refused before loading */
		insns[4] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
		insns[6] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
		tap_ok(kcheck_readback_prepare(&errs, &rb, &d) == -EPERM && rb.status_fd == -1 &&
			       diag_failed(&d),
		       "read killed, prctl trapped: refused before loading");
		diag_clear(&d);
		diag_init(&d);
	}
#else
	for (int i = 0; i < 5; i++)
		tap_skip("no native audit arch for this test");
#endif
	diag_clear(&d);
}

/* Which of the read-back's calls a program notifies: a supervisor is
 * needed before the execve() exactly when one of those made is. */
static void test_unnotified(void)
{
#ifdef NATIVE_AUDIT_ARCH
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_AUDIT_ARCH, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_write, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct bpf_prog prog = { .insns = insns, .len = 6 };
	struct kcheck_readback rb;

	memset(&rb, 0, sizeof(rb));
	rb.status_fd = 5;
	rb.read_ret = rb.prctl_ret = SECCOMP_RET_ALLOW;
	tap_ok(kcheck_readback_unnotified(&rb, &prog), "write notified: the read-back is not");
	insns[3].k = __NR_read;
	tap_ok(!kcheck_readback_unnotified(&rb, &prog), "read notified: needs the supervisor");
	rb.read_ret = SECCOMP_RET_ERRNO | EPERM;
	tap_ok(!kcheck_readback_unnotified(&rb, &prog),
	       "read notified where the profile names an errno: still made, needs it");
	rb.read_ret = SECCOMP_RET_KILL_PROCESS;
	tap_ok(kcheck_readback_unnotified(&rb, &prog), "read notified but never made: not needed");
	insns[3].k = __NR_prctl;
	tap_ok(!kcheck_readback_unnotified(&rb, &prog), "prctl notified: needs the supervisor");
	rb.prctl_ret = SECCOMP_RET_TRAP;
	tap_ok(kcheck_readback_unnotified(&rb, &prog), "prctl notified but never made: not needed");
	/* a program that cannot be run: nothing can be predicted */
	rb.read_ret = SECCOMP_RET_ALLOW;
	prog.len = 4; /* ends in a jump, not a return */
	tap_ok(!kcheck_readback_unnotified(&rb, &prog),
	       "a program that cannot be predicted: taken as notifying");
#else
	for (int i = 0; i < 7; i++)
		tap_skip("no native audit arch for this test");
#endif
}

int main(void)
{
	test_mapping();
	test_prog_actions();
	test_available();
	test_parse();
	test_parse_status();
	test_readback();
	test_unnotified();
	return tap_done();
}
