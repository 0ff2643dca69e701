/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The supervisor: the child's start, listener handoff, signal forwarding, the
 * notification loop of --report, --permissive and --learn (scmp-run(1),
 * FINDING WHAT WAS DENIED).
 *
 * Handoff. The child shares the parent's memory and descriptor table
 * (clone(2) with CLONE_VM and CLONE_FILES, on a stack of its own) until its
 * execve(), as posix_spawn() does: no copy of the address space is made
 * and torn down again, which is most of what a fork costs. It does the
 * whole run-mode sequence, then installs the filter with
 * SECCOMP_FILTER_FLAG_NEW_LISTENER: the listener lands in the shared table,
 * so the parent holds it without a transfer. From the install on, every
 * system call of the child is filtered and the profile may deny any of
 * them but execve (run mode checks that one), so the child only stores the
 * listener's number in the memory it shares with the parent and goes on:
 * execve() unshares the table before it closes the close-on-exec
 * descriptors, so the command never holds the listener and the parent
 * keeps it. No sendmsg, no waiting for the parent: it works for every
 * profile and costs a task, not a copy of the parent. If the supervisor
 * dies, the listener closes with it and the kernel fails every notified
 * call with ENOSYS. Never unfiltered.
 *
 * The wake. The parent sleeps until the child writes an eventfd. When the
 * filter notifies none of the child's calls before its execve() (the
 * read-back's, run mode says, and the wake's own write, predicted from the
 * program before the clone), the child writes it right before execve():
 * the parent wakes once, with the listener installed and the read-back
 * over. Otherwise a notified call of the child would wait for a parent
 * that does not know the listener yet, so the child writes it before the
 * install, still unfiltered, and the parent waits out the seccomp() call.
 * A child that fails under the filter wakes the parent before its message
 * (which may be a notified call too).
 *
 * Shared memory. Until the child's execve() both run in one address space
 * with one thread-local area (errno included). The parent therefore runs
 * no code of its own while the child may run, beyond waiting in the kernel,
 * reading the handoff, forwarding signals, answering the child's notified
 * calls and closing the read-back's descriptor (below), and makes no call
 * then that can fail and set errno. The kernel clears the handoff's
 * tid word when the child leaves this memory (CLONE_CHILD_CLEARTID: at its
 * execve() or its end): until then the child's calls are run mode's, and
 * are answered without touching the heap or stdio the child may be using.
 * One limit of this: a child killed inside malloc() before its execve()
 * (a terminal's SIGINT reaches it directly) may leave the shared heap
 * half-updated for the parent's own clean-up. The command has not run
 * then; the parent may end abnormally instead of with 125.
 *
 * While the table is shared the child sees the parent's descriptors, so the
 * parent keeps its own at SUPERVISE_FD_MIN and above: the child finds the
 * caller's descriptors, and the lowest free numbers, where run mode would.
 *
 * The read-back's descriptor. Run mode opens /proc/self/status before the
 * install, in the shared table, and reads it after: the child cannot close
 * it then (the profile may deny close(2)), and execve() closes only the
 * command's copy of the table, so the parent would keep the child's /proc
 * file for the whole run. The child passes its number with the listener;
 * the parent closes it once the child is done with it (the handoff says
 * executing or not run, or the child left our memory): at once after a
 * late wake, else waking at growing intervals from 20 us until then; the
 * child does not wait for it. In the shared table the close is the child's
 * too, which no longer needs it; a close(2) of an open /proc file cannot
 * fail.
 */
#include "supervise.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "callfmt.h"
#include "caller.h"
#include "kernel-check.h"
#include "learn-file.h"
#include "learn.h"
#include "outfile.h"
#include "run.h"
#include "syscalls.h"

#define PROG "scmp-run"

#define FOLD_MAX	 4096 /* distinct report lines counted */
#define SUPERVISE_FD_MIN 256  /* the supervisor's own descriptors (see the top) */

/* Linux 6.6 uapi, newer than some build hosts' headers. */
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP 1UL
#endif

enum {
	HANDOFF_SETUP,	    /* the child runs run mode's steps */
	HANDOFF_INSTALLING, /* it woke the parent and calls seccomp() */
	HANDOFF_INSTALLED,  /* the filter is in place; fd is the listener */
	HANDOFF_EXEC,	    /* the child calls execve(): from here on, the command's calls */
	HANDOFF_NOT_RUN,    /* run mode failed in the child; fail says how */
};

/* In the parent's memory, shared with the child until its execve(). */
struct handoff {
	int state;
	int fd;	      /* the listener, in the shared descriptor table */
	int fail;     /* enum run_failure: why the command did not run */
	int wake_fd;  /* the eventfd the child writes to wake the parent */
	int readback; /* run mode's /proc/self/status, set with fd (see the top) */
	pid_t tid;    /* the child's; cleared by the kernel when it leaves our memory */
	bool late_ok; /* the filter lets the wake's write() run: it may come late (see the top) */
	bool woken;   /* the child has woken the parent */
	int wake_err; /* a negative errno: the wake under the filter failed */
	uint64_t one; /* what the wake writes (its address is in the prediction) */
};

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH };

/* Signals the supervisor ignores: a report reader that goes away
 * (SIGPIPE), a report past the caller's file-size limit, which the command
 * can grow with its denials (SIGXFSZ). Either would otherwise end the
 * supervisor and leave the command with every notified call failing with
 * ENOSYS, kill-process included; the write fails instead, and that is said
 * once (report_flush()). */
static const int ignored[] = { SIGPIPE, SIGXFSZ };
#define N_IGNORED (sizeof(ignored) / sizeof(ignored[0]))

/* ---- the policy transform ---- */

static bool is_act(uint32_t ret, uint32_t act)
{
	return (ret & SECCOMP_RET_ACTION_FULL) == act;
}

static uint32_t transform_ret(uint32_t ret, enum supervise_mode mode, bool outcome_of_rule)
{
	switch (mode) {
	case SUPERVISE_REPORT:
		if (is_act(ret, SECCOMP_RET_ERRNO) || is_act(ret, SECCOMP_RET_KILL_PROCESS) ||
		    is_act(ret, SECCOMP_RET_LOG))
			return SECCOMP_RET_USER_NOTIF;
		return ret;
	case SUPERVISE_PERMISSIVE:
		return is_act(ret, SECCOMP_RET_ALLOW) ? ret : SECCOMP_RET_USER_NOTIF;
	case SUPERVISE_LEARN:
		return is_act(ret, SECCOMP_RET_ALLOW) && outcome_of_rule ? ret
									 : SECCOMP_RET_USER_NOTIF;
	case SUPERVISE_NONE:
		break;
	}
	return ret;
}

void supervise_transform(struct policy *p, enum supervise_mode mode)
{
	p->bad_arch_ret = transform_ret(p->bad_arch_ret, mode, false);
	for (size_t i = 0; i < p->n_abis; i++) {
		struct abi_policy *abi = &p->abis[i];

		abi->default_ret = transform_ret(abi->default_ret, mode, false);
		abi->unknown_ret = transform_ret(abi->unknown_ret, mode, false);
		for (size_t s = 0; s < abi->n_sys; s++)
			for (size_t r = 0; r < abi->sys[s].n_rules; r++)
				abi->sys[s].rules[r].ret =
					transform_ret(abi->sys[s].rules[r].ret, mode, true);
	}
}

int supervise_check(const struct profile *prof, struct diag *d)
{
	const struct src_loc file = { .file = prof->path };
	const struct src_loc *at = ruleset_notify_at(prof->rs, &file);

	if (!at)
		return 0;
	diag_error(d, at,
		   "the notify action cannot be used with --report, --permissive or --learn: "
		   "the listener is scmp-run's own");
	return -EINVAL;
}

/*
 * The /proc mounted here belongs to this pid namespace: the supervisor
 * reads a caller's name, memory and thread group there by the pid the
 * kernel gives it, and kills by the thread group it reads. A /proc of
 * another namespace (unshare --pid without --mount-proc) would name other
 * processes by those numbers: the report would show another process's
 * memory, and kill-process would kill it (scmp-run(1) FINDING WHAT WAS
 * DENIED). Without a /proc at all nothing is read: names and strings are
 * not shown, and a thread that is not its group's leader cannot be killed
 * by the group (the report says so).
 */
static int proc_is_ours(struct diag *d)
{
	char self[32], want[32];
	ssize_t n = readlink("/proc/self", self, sizeof(self) - 1);

	if (n < 0)
		return 0;
	self[n] = '\0';
	snprintf(want, sizeof(want), "%d", (int)getpid());
	if (!strcmp(self, want))
		return 0;
	diag_error(d, NULL,
		   "--report, --permissive and --learn need the /proc of their own pid namespace: "
		   "/proc/self here is %s, not %s",
		   self, want);
	diag_hint(d, NULL, "mount one (unshare --pid --fork --mount-proc)");
	return -EINVAL;
}

int supervise_program(const struct compiled *c, enum supervise_mode mode, struct diag *d,
		      struct bpf_prog **ret)
{
	struct bpf_prog *prog;
	struct policy *copy = NULL;
	int r;

	*ret = NULL;
	if (mode == SUPERVISE_LEARN) {
		/* an allow rule and an allowing default are one RET in the
		 * program: learn's transform needs the policy */
		r = policy_build(c->rs, arch_native(), d, &copy);
		if (r >= 0) {
			supervise_transform(copy, mode);
			r = bpf_generate(copy, d, ret);
		}
		policy_free(copy);
		return r;
	}
	/* --report and --permissive map each outcome by its value alone:
	 * the profile's own program with its returns rewritten is the
	 * transformed policy's, instruction for instruction (the same shape,
	 * no second compile) */
	prog = malloc(sizeof(*prog));
	if (prog)
		*prog = *c->prog;
	if (prog)
		prog->insns = malloc(c->prog->len * sizeof(*prog->insns));
	if (!prog || !prog->insns) {
		free(prog);
		diag_error(d, NULL, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < prog->len; i++) {
		struct sock_filter insn = c->prog->insns[i];

		if (BPF_CLASS(insn.code) == BPF_RET) {
			if (BPF_RVAL(insn.code) != BPF_K) {
				bpf_prog_free(prog);
				diag_error(d, NULL,
					   "internal error: instruction %zu returns a register", i);
				return -EINVAL;
			}
			insn.k = transform_ret(insn.k, mode, false);
		}
		prog->insns[i] = insn;
	}
	*ret = prog;
	return 0;
}

int supervise_learn_base(const struct arch *native, struct diag *d, struct compiled *ret)
{
	struct profile *p = calloc(1, sizeof(*p));
	int r = -ENOMEM;

	memset(ret, 0, sizeof(*ret));
	if (!p)
		goto oom;
	p->path = strdup("(no base profile)");
	p->rs = ruleset_new();
	if (!p->path || !p->rs)
		goto oom;
	p->caller = (struct caller_settings)CALLER_SETTINGS_INIT;
	p->rs->attrs.default_action = (struct action){ .kind = ACTION_ALLOW };
	p->rs->attrs.has_default_action = true;
	r = compile_ruleset(p->rs, native, d, ret);
	if (r < 0) {
		profile_free(p);
		return r;
	}
	ret->profile = p;
	return 0;
oom:
	profile_free(p);
	diag_error(d, NULL, "out of memory");
	return r;
}

/* ---- the child ---- */

/* The answer of --permissive and --learn to every call: let it run (read
 * only: struct bpf_prog has no const view). */
static const struct sock_filter allow_all_insn = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
static const struct bpf_prog allow_all = { .insns = (struct sock_filter *)&allow_all_insn,
					   .len = 1 };

const struct bpf_prog *supervise_answers(const struct compiled *c, enum supervise_mode mode)
{
	return mode == SUPERVISE_REPORT ? c->prog : &allow_all;
}

/* Does the program loaded let the wake's write() run without us? Only
 * an exact allow: a logged wake would show in the audit log. */
static bool wake_passes(const struct bpf_prog *load, const struct handoff *h)
{
	const uint64_t args[6] = { (uint64_t)h->wake_fd, (uint64_t)(uintptr_t)&h->one,
				   sizeof(h->one) };
	uint32_t ret;

	return kcheck_predict(load, "write", args, &ret) == 0 &&
	       (ret & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_ALLOW;
}

/* Wake the parent (once). Returns 0 or a negative errno. */
static int handoff_wake(struct handoff *h)
{
	if (h->woken)
		return 0;
	if (write(h->wake_fd, &h->one, sizeof(h->one)) != (ssize_t)sizeof(h->one))
		return errno ? -errno : -EIO;
	h->woken = true;
	return 0;
}

/* Called right before the install, still unfiltered: wake the parent now,
 * or at the execve() when nothing before it needs the parent (see the
 * top). */
static int handoff_installing(void *data, bool quiet)
{
	struct handoff *h = data;

	if (quiet && h->late_ok)
		return 0;
	__atomic_store_n(&h->state, HANDOFF_INSTALLING, __ATOMIC_RELEASE);
	return handoff_wake(h);
}

/* Called right after the install: no system call (see the top). */
static void handoff_installed(void *data, int listener, int readback)
{
	struct handoff *h = data;

	__atomic_store_n(&h->fd, listener, __ATOMIC_RELAXED);
	__atomic_store_n(&h->readback, readback, __ATOMIC_RELAXED);
	__atomic_store_n(&h->state, HANDOFF_INSTALLED, __ATOMIC_RELEASE);
}

/* Called right before execve(): what is notified from here on is the
 * command's (run mode's own calls before it are decided unreported). The
 * late wake is a call the filter lets run. */
static int handoff_executing(void *data)
{
	struct handoff *h = data;

	__atomic_store_n(&h->state, HANDOFF_EXEC, __ATOMIC_RELEASE);
	return handoff_wake(h);
}

struct child_args {
	const struct profile *prof;
	const struct bpf_prog *prog; /* supervise_answers(): what run mode's own calls get */
	const struct bpf_prog *load; /* transformed: the one installed */
	char *const *argv;
	struct handoff *h;
	sigset_t oldmask;			 /* the caller's signal mask */
	struct sigaction old_sigchld;		 /* and its SIGCHLD disposition */
	struct sigaction old_ignored[N_IGNORED]; /* and those of ignored[] */
	struct caller_pdeath pdeath; /* the caller's parent-death signal, this process */
};

/* The child: run mode, then the command. Never returns (not declared so:
 * a sanitizer build takes a call of a noreturn function on a stack it
 * does not know for a stack switch, and warns). */
static void child_main(const struct child_args *a)
{
	struct run_hook hook = {
		.load = a->load,
		.installing = handoff_installing,
		.installed = handoff_installed,
		.executing = handoff_executing,
		.data = a->h,
	};
	const char *listen_pid = getenv("LISTEN_PID");
	enum run_failure fail = RUN_FAIL_SETUP;
	enum run_state state = RUN_STATE_OPEN;
	struct diag d;

	/* the caller's signal state, as run mode would find it */
	sigaction(SIGCHLD, &a->old_sigchld, NULL);
	for (size_t i = 0; i < N_IGNORED; i++)
		sigaction(ignored[i], &a->old_ignored[i], NULL);
	sigprocmask(SIG_SETMASK, &a->oldmask, NULL);
	/* socket activation: the descriptors are meant for the command, which
	 * is this process now (as systemd-socket-activate does) */
	if (caller_listen_pid_is(listen_pid, getppid())) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%d", (int)getpid());
		setenv("LISTEN_PID", buf, 1);
	}
	diag_init(&d);
	/* A child does not inherit the parent-death signal: the caller's is
	 * set for the supervisor's death, which the caller's death brings
	 * about or whose signal the supervisor forwards (scmp-run(1), Caller
	 * state). Run mode keeps it across the user switch. */
	if (caller_pdeath_restore(&a->pdeath, &d) == 0)
		run_exec_hooked(a->prof, a->prog, a->argv[0], a->argv, &hook, &d, &fail, &state);
	/* The command did not run; the parent tells why from fail (its exit
	 * status is decided where every other one is), this process says how,
	 * unless the filter may stop the message (run mode's own rule). */
	__atomic_store_n(&a->h->fail, (int)(fail == RUN_FAIL_NONE ? RUN_FAIL_SETUP : fail),
			 __ATOMIC_RELAXED);
	__atomic_store_n(&a->h->state, HANDOFF_NOT_RUN, __ATOMIC_RELEASE);
	/* Under the filter a message may be a notified call: the parent must
	 * hold the listener first. A late wake that failed (an outer filter
	 * may deny it) leaves it without: the parent says why instead. */
	if (state != RUN_STATE_OPEN) {
		int r = handoff_wake(a->h);

		if (r < 0) {
			__atomic_store_n(&a->h->wake_err, r, __ATOMIC_RELAXED);
			state = RUN_STATE_MUTE;
		}
	}
	if (state != RUN_STATE_MUTE) {
		diag_print(&d, PROG, stderr);
		fflush(stderr);
	}
	/* exit_group(2) itself, for the same reason as above. A profile may
	 * answer it, and exit(2), with an errno: a trap ends the process then,
	 * as glibc's _exit() does (the kernel kills a process that blocks or
	 * ignores the signal of its own trap), where a loop would spin. */
	syscall(SYS_exit_group, 125);
	syscall(SYS_exit, 125);
	for (;;)
		__builtin_trap();
}

static int child_start(void *data)
{
	child_main(data);
	return 125;
}

/* The child's stack: run mode's, in memory shared with the parent. */
#define CHILD_STACK_SIZE (8UL << 20)

/* Start the child: it shares memory and descriptor table until execve()
 * (see the top); h->tid is set before the child runs and cleared by the
 * kernel when it leaves our memory. Returns its pid, or -1 with errno. */
static pid_t clone_vm(struct child_args *a, void *stack_top)
{
	return clone(child_start, stack_top,
		     CLONE_VM | CLONE_FILES | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID | SIGCHLD,
		     a, &a->h->tid, NULL, &a->h->tid);
}

/* Does the child still run in our memory (before or after a failed execve)? */
static bool child_in_our_memory(const struct handoff *h)
{
	return __atomic_load_n(&h->tid, __ATOMIC_ACQUIRE) != 0;
}

/* Is the child done with the read-back's descriptor (see the top)? */
static bool readback_over(const struct handoff *h)
{
	int state = __atomic_load_n(&h->state, __ATOMIC_ACQUIRE);

	return state == HANDOFF_EXEC || state == HANDOFF_NOT_RUN || !child_in_our_memory(h);
}

/* Move a descriptor of the supervisor above SUPERVISE_FD_MIN, out of the
 * child's way (see the top); under a lower descriptor limit it stays. */
static int fd_high(int fd)
{
	int high;

	if (fd < 0 || fd >= SUPERVISE_FD_MIN)
		return fd;
	high = fcntl(fd, F_DUPFD_CLOEXEC, SUPERVISE_FD_MIN);
	if (high < 0)
		return fd;
	close(fd);
	return high;
}

/* ---- the parent ---- */

struct fold {
	const struct arch *abi;
	uint32_t nr;
	const void *rule; /* the deciding rrule, or NULL with why */
	int why;
	uint32_t ret;
	unsigned long count;
	char *text; /* "uname -> errno(EPERM) [x86_64 63] by p.ini:4" */
};

#define BASE_DENIED_MAX 16 /* rules named; the count goes on */

struct sup {
	const struct supervise_opts *o;
	const struct policy *policy;
	const struct handoff *h;
	int listener;
	pid_t child;
	FILE *report;
	struct fold *folds;
	size_t n_folds;
	unsigned long reported, dropped_folds;
	unsigned long not_killed;    /* kill-process calls answered ENOSYS (kill_caller()) */
	pid_t killed_tgid;	     /* a kill-process decision was enacted on it */
	struct learn_file lf;	     /* --learn: FILE, its records and the file written */
	struct learn_header learn_h; /* --learn: what the learned profile is written under */
	const struct arch *base_abis[ARCH_COUNT];
	/* --learn: the built-in rules the learned profile gets, alone
	 * (learn_builtins()), and the ruleset they are built from */
	struct ruleset builtins_rs;
	struct policy *builtins;
	/* --learn: rules of the base, and built-in rules, that deny what the
	 * command did (the learned profile has them too: they still deny);
	 * distinct */
	struct base_denial {
		const struct rrule *rule;
		const char *name;
	} base_denied[BASE_DENIED_MAX];
	size_t n_base_denied;
	int learn_err;
	bool synced;	    /* sync_wake_up() done */
	bool report_failed; /* a write of the report failed, and was said */
};

/* Write out what the report holds. A report that cannot be written (its
 * reader has gone, its disk is full) is said once on stderr when it goes
 * elsewhere; the profile is enacted all the same. Only after the command
 * runs: errno is the child's too before that. */
static void report_flush(struct sup *s)
{
	if (fflush(s->report) == 0 || s->report_failed)
		return;
	s->report_failed = true;
	if (s->report != stderr)
		fprintf(stderr,
			PROG ": --report: writing '%s' failed: %s; the profile is enacted "
			     "all the same\n",
			s->o->report_path, strerror(errno));
}

/* The caller's memory, through /proc/PID/mem. A page the command serves
 * itself through FUSE makes this wait as long as the command wants; no
 * timeout can cut it short, and no call runs unfiltered meanwhile: a
 * known limit (scmp-run(1), FINDING WHAT WAS DENIED). */
static ssize_t read_mem(void *data, uint64_t addr, char *buf, size_t size)
{
	const pid_t *tid = data;
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", (int)*tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = pread(fd, buf, size, (off_t)addr);
	if (n < 0)
		n = -errno;
	close(fd);
	return n;
}

/* A pointer argument as the caller's ABI reads it: the low half on a
 * 32-bit ABI. */
static uint64_t call_addr(const struct arch *abi, uint64_t arg)
{
	return abi->bits == 32 ? arg & UINT32_MAX : arg;
}

static void read_comm(pid_t tid, char *buf, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(buf, size, "?");
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return;
	/* The kernel ends the name with a newline; one inside it is the
	 * caller's own (prctl(PR_SET_NAME) takes any byte but NUL), escaped
	 * with the rest when printed. */
	if (buf[n - 1] == '\n')
		n--;
	buf[n] = 0;
}

static pid_t read_tgid(pid_t tid)
{
	char path[64], line[128];
	pid_t tgid = tid;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return tid;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Tgid:", 5)) {
			tgid = (pid_t)strtol(line + 5, NULL, 10);
			break;
		}
	fclose(f);
	return tgid;
}

static void why_text(const struct decision *dec, char *buf, size_t size)
{
	char loc[256];

	switch (dec->why) {
	case DECIDE_RULE:
		snprintf(buf, size, "%s%s", src_loc_format(&dec->rule->src->loc, loc, sizeof(loc)),
			 dec->rule->via_mux ? " (through the multiplexer)" : "");
		break;
	case DECIDE_DEFAULT:
		snprintf(buf, size, "default-action");
		break;
	case DECIDE_UNKNOWN:
		snprintf(buf, size, "unknown-syscall-action");
		break;
	case DECIDE_BAD_ARCH:
		snprintf(buf, size, "bad-arch-action");
		break;
	}
}

/* Count a call of a kind the table has no room for. Its line is not
 * printed, so that no command can grow the report without bound either:
 * the first such call says so, once, and the summary counts them
 * (scmp-run(1), FINDING WHAT WAS DENIED). */
static void count_untabled(struct sup *s)
{
	if (s->dropped_folds++)
		return;
	fprintf(s->report,
		PROG ": calls of kinds past the %zu counted are not shown from here on; the "
		     "summary counts them\n",
		s->n_folds);
	report_flush(s);
}

/* Count a line; true if it is the first of its kind (to be printed). */
static bool fold(struct sup *s, const struct arch *abi, const struct seccomp_data *sd,
		 const struct decision *dec, const char *name, const char *why)
{
	const void *rule = dec->why == DECIDE_RULE ? (const void *)dec->rule : NULL;
	struct fold *f;
	char act[64], *text;

	for (size_t i = 0; i < s->n_folds; i++) {
		f = &s->folds[i];
		if (f->abi == abi && f->nr == (uint32_t)sd->nr && f->rule == rule &&
		    f->why == (int)dec->why && f->ret == dec->ret) {
			f->count++;
			return false;
		}
	}
	if (s->n_folds >= FOLD_MAX) {
		count_untabled(s);
		return false;
	}
	f = reallocarray(s->folds, s->n_folds + 1, sizeof(*f));
	if (!f) {
		count_untabled(s);
		return false;
	}
	s->folds = f;
	f = &s->folds[s->n_folds];
	/* NULL when out of memory: the summary prints '?'. The number as
	 * the report line shows it: seccomp_data.nr is an int. */
	if (asprintf(&text, "%s -> %s [%s %d] by %s", name ? name : "?",
		     action_format_ret(dec->ret, abi, act, sizeof(act)), abi ? abi->name : "?",
		     sd->nr, why) < 0)
		text = NULL;
	*f = (struct fold){ abi, (uint32_t)sd->nr, rule, (int)dec->why, dec->ret, 1, text };
	s->n_folds++;
	return true;
}

/* Take back the call fold() just counted as new: the fold it added, and
 * the count. */
static void unfold(struct sup *s)
{
	free(s->folds[--s->n_folds].text);
	s->reported--;
}

static void reply(struct sup *s, const struct seccomp_notif *req, int error, bool cont)
{
	struct seccomp_notif_resp resp = { .id = req->id };

	if (cont)
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	else
		resp.error = error;
	/* ENOENT: the caller died or was interrupted meanwhile */
	(void)ioctl(s->listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
}

static const struct arch *arch_of(const struct policy *p, const struct seccomp_data *sd)
{
	const struct abi_policy *abi = policy_abi_for(p, sd->arch, (uint32_t)sd->nr);

	return abi ? abi->arch : arch_of_call(sd->arch, (uint32_t)sd->nr);
}

/*
 * Kill-process, enacted: SIGKILL to the caller's thread group, which
 * cannot catch it, so the call never runs. The group is named by a pidfd
 * taken before the check that the caller still waits: while it waits its
 * group lives, so the pidfd is that group's, and stays so. A number would
 * not: between the check and the signal another thread may end the group
 * (exit_group()), its parent reap it, and any process of the system take
 * its pid, which the supervisor, running as the caller of scmp-run, might
 * be allowed to kill. False when the group cannot be named (no descriptor
 * or memory left): the call is then answered with ENOSYS, which is said
 * once (a command could repeat the call without end) and counted in the
 * summary (scmp-run(1), FINDING WHAT WAS DENIED).
 */
static bool kill_caller(struct sup *s, const struct seccomp_notif *req)
{
	pid_t tgid = read_tgid((pid_t)req->pid);
	int pidfd = pidfd_open(tgid, 0);

	if (pidfd < 0 && errno == ESRCH)
		return true; /* gone: the call was not made */
	if (pidfd < 0) {
		if (!s->not_killed++) {
			fprintf(s->report,
				PROG ": cannot kill pid %d for its call: pidfd_open: %s; the call "
				     "fails with ENOSYS, as do the next such calls, unsaid\n",
				(int)tgid, strerror(errno));
			report_flush(s);
		}
		return false;
	}
	/* a caller that no longer waits did not make the call */
	if (ioctl(s->listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id) == 0) {
		if (tgid == s->child)
			s->killed_tgid = tgid;
		pidfd_send_signal(pidfd, SIGKILL, NULL, 0);
	}
	close(pidfd);
	return true;
}

/*
 * A call of run mode itself between the install and execve() (the filter's
 * read-back, a message after a failed execve): not the command's, so
 * neither reported nor learned, and answered as the mode answers every
 * call, which is what run mode predicted (supervise_answers()): --report as the
 * profile does, where what would stop the call ends the child (the command
 * has not started); --permissive and --learn let it run.
 */
static void run_mode_call(struct sup *s, const struct seccomp_notif *req,
			  const struct decision *dec)
{
	if (s->o->mode != SUPERVISE_REPORT) {
		reply(s, req, 0, true);
		return;
	}
	switch (dec->ret & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_ALLOW:
	case SECCOMP_RET_LOG:
		reply(s, req, 0, true);
		break;
	case SECCOMP_RET_ERRNO:
		reply(s, req, -(int)(dec->ret & SECCOMP_RET_DATA), false);
		break;
	default:
		kill(s->child, SIGKILL);
		break;
	}
}

static void sync_wake_up(int listener);

/* Is the notified call of the child one of run mode's own? Those before
 * its execve(), and those after a failed execve() (it still runs in our
 * memory then): the execve() of the command itself is the command's. */
static bool is_run_mode_call(const struct sup *s, const struct seccomp_notif *req)
{
	const struct arch *abi;
	const char *name;

	if ((pid_t)req->pid != s->child)
		return false;
	if (__atomic_load_n(&s->h->state, __ATOMIC_ACQUIRE) != HANDOFF_EXEC)
		return true;
	if (!child_in_our_memory(s->h))
		return false;
	abi = arch_of(s->policy, &req->data);
	name = abi ? syscalls_lookup_nr(abi, (uint32_t)req->data.nr) : NULL;
	return !name || strcmp(name, "execve");
}

/* Whether r is one of the rules p adds to its ruleset's (a built-in rule or
 * a [hardening] preset's, scmp-run.ini(5) BUILT-IN RULES, HARDENING). */
static bool is_builtin(const struct policy *p, const struct rule *r)
{
	return r >= p->builtins && r < p->builtins + p->n_builtins;
}

/* --learn: a call a rule of the base (-p BASE) or a built-in rule denies
 * (errno, a kill, trap or trace) is learned like any other, but the
 * learned profile has that rule too (it includes the base, and gets the
 * built-in rules, which it does not switch off), and the strictest action
 * wins: the command will meet the denial (scmp-run(1) WRITING A PROFILE
 * FOR A PROGRAM). Kept to be said at the end (learn_warn_base()). */
static void note_denial(struct sup *s, const struct arch *abi, const struct seccomp_data *sd,
			const struct policy *p, bool builtin)
{
	struct decision dec;
	uint32_t act;

	policy_decide(p, sd, &dec);
	act = dec.ret & SECCOMP_RET_ACTION_FULL;
	if (dec.why != DECIDE_RULE || act == SECCOMP_RET_ALLOW || act == SECCOMP_RET_LOG ||
	    is_builtin(p, dec.rule->src) != builtin)
		return;
	for (size_t i = 0; i < s->n_base_denied && i < BASE_DENIED_MAX; i++)
		if (s->base_denied[i].rule == dec.rule)
			return;
	if (s->n_base_denied < BASE_DENIED_MAX)
		s->base_denied[s->n_base_denied] = (struct base_denial){
			.rule = dec.rule,
			.name = abi ? syscalls_lookup_nr(abi, (uint32_t)sd->nr) : NULL,
		};
	s->n_base_denied++;
}

/* The rules of the base are decided by the base's policy, the built-in
 * ones by their own (learn_builtins()): the base's program leaves out a
 * built-in rule whose result the base's default gives anyway, but the
 * learned profile allows by rule what was seen, and there it denies. */
static void note_base_denial(struct sup *s, const struct arch *abi, const struct seccomp_data *sd)
{
	/* without a base, s->policy is the notify-everything program of
	 * --learn (supervise_learn_base()): no rule of it denies */
	if (s->o->has_base)
		note_denial(s, abi, sd, s->policy, false);
	note_denial(s, abi, sd, s->builtins, true);
}

/* The rules that will still deny what was learned, each at its line. */
static void learn_warn_base(const struct sup *s, struct diag *d)
{
	for (size_t i = 0; i < s->n_base_denied && i < BASE_DENIED_MAX; i++) {
		const struct rule *r = s->base_denied[i].rule->src;
		const char *used = s->base_denied[i].name ? s->base_denied[i].name : r->syscall;
		const char *builtin = policy_builtin_name(r);

		if (builtin)
			diag_warning(d, &r->loc,
				     "--learn: the command used '%s', which the built-in rule %s "
				     "denies; the learned profile has the rule too, so the command "
				     "meets the denial under it (scmp-run.ini(5) BUILT-IN RULES "
				     "says how to switch it off)",
				     used, builtin);
		else
			diag_warning(
				d, &r->loc,
				"--learn: the command used '%s', which this rule of the base "
				"denies; the learned profile includes the base, so the command "
				"meets the denial under it: change the rule, or learn without it",
				used);
	}
	if (s->n_base_denied > BASE_DENIED_MAX)
		diag_warning(d, NULL, "--learn: %zu more rules deny what the command did",
			     s->n_base_denied - BASE_DENIED_MAX);
}

/* --learn: record the call. clone3()'s flags are read from the caller's
 * memory (learn_record_clone3()); they belong to the caller only if it
 * still waits (its pid cannot have been reused). Unreadable (no memory
 * there, or a caller the supervisor may not read), the call fails with
 * ENOSYS (*enosys), as under the learned profile: the clone() the C
 * library makes instead is learned (scmp-run(1) WRITING A PROFILE FOR A
 * PROGRAM). Let run, it would be learned as nothing, and the learned
 * profile would refuse both ways to the thread or process it made. */
static int learn_call(struct sup *s, const struct arch *abi, const struct seccomp_notif *req,
		      bool *enosys)
{
	const char *name = syscalls_lookup_nr(abi, (uint32_t)req->data.nr);
	uint64_t args[SYSCALL_ARGS_MAX], flags;
	pid_t tid = (pid_t)req->pid;

	if (!name || strcmp(name, "clone3")) {
		for (unsigned i = 0; i < SYSCALL_ARGS_MAX; i++)
			args[i] = req->data.args[i];
		return learn_record(s->lf.learn, abi, (uint32_t)req->data.nr, args);
	}
	if (read_mem(&tid, call_addr(abi, req->data.args[0]), (char *)&flags, sizeof(flags)) !=
	    (ssize_t)sizeof(flags)) {
		*enosys = true;
		return 0;
	}
	if (ioctl(s->listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id) < 0)
		return 0;
	return learn_record_clone3(s->lf.learn, abi, flags);
}

/* --learn: every notified call is recorded and runs (but an unreadable
 * clone3(), learn_call()); the base's decision only matters where a rule
 * of it denies. */
static void learn_handle(struct sup *s, const struct arch *abi, const struct seccomp_notif *req)
{
	bool enosys = false;

	note_base_denial(s, abi, &req->data);
	if (abi && s->learn_err == 0) {
		int r = learn_call(s, abi, req, &enosys);

		if (r < 0)
			s->learn_err = r;
	}
	reply(s, req, enosys ? -ENOSYS : 0, !enosys);
}

static void handle(struct sup *s)
{
	struct seccomp_notif req;
	struct decision dec;
	const struct arch *abi;
	const char *name, *verb;
	uint32_t act;
	bool cont = false, kill_it = false;
	uint64_t args[SYSCALL_ARGS_MAX];
	int error = 0;

	memset(&req, 0, sizeof(req));
	if (ioctl(s->listener, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0)
		return; /* EINTR, or ENOENT: the caller went away */
	if (is_run_mode_call(s, &req)) {
		policy_decide(s->policy, &req.data, &dec);
		run_mode_call(s, &req, &dec);
		return;
	}
	/* past run mode: the child waits in its execve() or has left our
	 * memory, no errno of ours can reach code of its now */
	if (!s->synced) {
		sync_wake_up(s->listener);
		s->synced = true;
	}
	abi = arch_of(s->policy, &req.data);

	if (s->o->mode == SUPERVISE_LEARN) {
		learn_handle(s, abi, &req);
		return;
	}

	policy_decide(s->policy, &req.data, &dec);
	act = dec.ret & SECCOMP_RET_ACTION_FULL;
	for (unsigned i = 0; i < SYSCALL_ARGS_MAX; i++)
		args[i] = req.data.args[i];
	name = abi ? syscalls_lookup_nr(abi, (uint32_t)req.data.nr) : NULL;
	switch (act) {
	case SECCOMP_RET_ALLOW:
		reply(s, &req, 0, true);
		return;
	case SECCOMP_RET_LOG:
		verb = s->o->mode == SUPERVISE_PERMISSIVE ? "would log" : "logged";
		cont = true;
		break;
	case SECCOMP_RET_ERRNO:
		verb = s->o->mode == SUPERVISE_PERMISSIVE ? "would deny" : "denied";
		error = -(int)(dec.ret & SECCOMP_RET_DATA);
		cont = s->o->mode == SUPERVISE_PERMISSIVE;
		break;
	case SECCOMP_RET_KILL_PROCESS:
		verb = s->o->mode == SUPERVISE_PERMISSIVE ? "would deny" : "denied";
		kill_it = s->o->mode != SUPERVISE_PERMISSIVE;
		cont = !kill_it;
		error = kill_it ? -ENOSYS : 0; /* where kill_caller() cannot */
		break;
	default:
		/* trap, trace, kill-thread: notified only in permissive mode */
		verb = "would deny";
		cont = s->o->mode == SUPERVISE_PERMISSIVE;
		error = -ENOSYS; /* never reached in report mode: fail closed */
		break;
	}

	s->reported++;
	char why[PATH_MAX + 64];

	why_text(&dec, why, sizeof(why));
	if (fold(s, abi, &req.data, &dec, name, why)) {
		char call[512], comm[32], act_text[64];
		pid_t tid = (pid_t)req.pid;

		if (abi)
			callfmt_format(abi, name, (uint32_t)req.data.nr, args, read_mem, &tid, call,
				       sizeof(call));
		else
			snprintf(call, sizeof(call), "syscall_%d(...)", req.data.nr);
		read_comm(tid, comm, sizeof(comm));
		/* what was read belongs to the caller only if it is still
		 * waiting: its pid cannot have been reused meanwhile. If not,
		 * the call was not made (a signal interrupted it; restarted,
		 * it comes again): uncounted, so that its line is printed then */
		if (ioctl(s->listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &req.id) < 0) {
			unfold(s);
			return;
		}
		/* one write for the line, '?' when out of memory */
		char *comm_esc = diag_escape_name(comm);

		fprintf(s->report, PROG ": %s: %s -> %s [%s %d] pid %d (%s) by %s\n", verb, call,
			action_format_ret(dec.ret, abi, act_text, sizeof(act_text)),
			abi ? abi->name : "?", req.data.nr, (int)tid, comm_esc ? comm_esc : "?",
			why);
		free(comm_esc);
		report_flush(s);
	}
	if (kill_it && kill_caller(s, &req))
		return;
	reply(s, &req, error, cont);
}

static void summary(struct sup *s)
{
	if (!s->reported || s->o->mode == SUPERVISE_LEARN)
		return;
	fprintf(s->report, PROG ": summary: %lu call%s %s, %zu distinct:\n", s->reported,
		s->reported == 1 ? "" : "s",
		s->o->mode == SUPERVISE_PERMISSIVE ? "would have been denied or logged"
						   : "denied or logged",
		s->n_folds);
	for (size_t i = 0; i < s->n_folds; i++)
		fprintf(s->report, PROG ":   %6lu  %s\n", s->folds[i].count,
			s->folds[i].text ? s->folds[i].text : "?");
	if (s->dropped_folds)
		fprintf(s->report, PROG ":   %lu more calls not counted by kind\n",
			s->dropped_folds);
	if (s->not_killed)
		fprintf(s->report,
			PROG ":   %lu call%s could not be killed and failed with ENOSYS\n",
			s->not_killed, s->not_killed == 1 ? "" : "s");
	report_flush(s);
}

/* The command's status as a shell shows it: 128+N for a signal N. */
static int command_status(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	return 128 + WTERMSIG(wstatus);
}

/* The child ended without executing the command: why, from the handoff. */
static int not_run(const struct handoff *h, int wstatus, enum run_failure *ret_fail, struct diag *d)
{
	int fail = __atomic_load_n(&h->fail, __ATOMIC_RELAXED);
	int wake_err = __atomic_load_n(&h->wake_err, __ATOMIC_RELAXED);

	/* the child could not say it: without the wake we hold no listener */
	if (wake_err < 0)
		diag_error(d, NULL,
			   "the command was not run: waking the supervisor under the filter "
			   "failed: %s",
			   strerror(-wake_err));
	/* ended before run mode could say why: a signal (a forwarded one
	 * too) stopped its steps */
	else if (__atomic_load_n(&h->state, __ATOMIC_ACQUIRE) != HANDOFF_NOT_RUN) {
		int sig = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
		const char *name = sig ? sigabbrev_np(sig) : NULL;

		diag_error(
			d, NULL,
			"the command was not run: its setup ended before the execve(), %s %d%s%s%s",
			sig ? "killed by signal" : "with status", sig ? sig : WEXITSTATUS(wstatus),
			name ? " (SIG" : "", name ? name : "", name ? ")" : "");
	}

	*ret_fail = fail == RUN_FAIL_NOT_FOUND || fail == RUN_FAIL_NOT_EXECUTABLE
			    ? (enum run_failure)fail
			    : RUN_FAIL_SETUP;
	return -ECHILD;
}

/* The child woke us right before its install: wait out the seccomp() call
 * and return the listener's number, or -1 if the child ended first or the
 * install failed. The wait sleeps: a spinning parent would take a CPU
 * from the child it waits for, or burn one. */
static int take_listener(const struct handoff *h, pid_t child)
{
	struct timespec ts = { 0, 20000 };

	while (__atomic_load_n(&h->state, __ATOMIC_ACQUIRE) == HANDOFF_INSTALLING) {
		siginfo_t si = { 0 };

		if (waitid(P_PID, (id_t)child, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
		    si.si_pid == child)
			break;
		nanosleep(&ts, NULL);
		if (ts.tv_nsec < 640000)
			ts.tv_nsec *= 2;
	}
	return __atomic_load_n(&h->fd, __ATOMIC_RELAXED);
}

/* A notification and its reply each block one side until the other
 * answers: ask the kernel (Linux 6.6) to wake the waiting side on the CPU
 * that answers, instead of wherever the scheduler would put it, which
 * halves a round trip. An older kernel says EINVAL or ENOTTY: only speed
 * is lost. */
static void sync_wake_up(int listener)
{
	if (listener >= 0)
		(void)ioctl(listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS,
			    SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP);
}

/* Read the signals that arrived (poll() said some did): forward them, and
 * reap the child on SIGCHLD. True once the child is reaped (*wstatus set).
 * One read takes them all (non-realtime signals pending coalesce), so
 * none fails: the child may share our errno (see the top). */
static bool take_signals(int sfd, pid_t child, int *wstatus)
{
	struct signalfd_siginfo sis[16];
	bool reaped = false;
	ssize_t n = read(sfd, sis, sizeof(sis));

	for (ssize_t i = 0; n > 0 && i < n / (ssize_t)sizeof(sis[0]); i++) {
		const struct signalfd_siginfo si = sis[i];

		if (si.ssi_signo == SIGCHLD) {
			/* one SIGCHLD may stand for several changes: ask */
			if (!reaped && waitpid(child, wstatus, WNOHANG) == child)
				reaped = true;
		} else if (!reaped && (si.ssi_code != SI_KERNEL || getpgid(child) != getpgrp())) {
			/* A terminal's signals reach the whole foreground
			 * group: the command too, unless it left the group
			 * ([process] new-session). Sent once. */
			kill(child, (int)si.ssi_signo);
		}
	}
	return reaped;
}

static char *join_argv(char *const argv[])
{
	size_t len = 0, cut = 157;
	char *s, *e;

	for (size_t i = 0; argv[i]; i++)
		len += strlen(argv[i]) + 1;
	s = malloc(len + 1);
	if (!s)
		return NULL;
	s[0] = 0;
	for (size_t i = 0; argv[i]; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	/* A comment line of the learned profile, which the loader reads
	 * again: no control character and nothing that is not UTF-8
	 * (escaped), and a cut that splits no character. */
	e = diag_escape(s);
	free(s);
	if (!e || strlen(e) <= 160)
		return e;
	while (cut && ((unsigned char)e[cut] & 0xc0) == 0x80)
		cut--;
	strcpy(e + cut, "...");
	return e;
}

/* Why --report=FILE could not be opened: outfile_open()'s refusals in
 * the words of scmp-run(1) TRUST, "Files written". */
static void report_open_error(const char *path, int err, struct diag *d)
{
	const char *why = strerror(err);

	if (err == EMLINK)
		why = "it is a symbolic link in a directory other users may write";
	else if (err == EPERM)
		why = "in a directory other users may write, only a new file, or a FIFO or "
		      "a regular file with one link of scmp-run's own user, is written";
	else if (err == EAGAIN)
		why = "it was replaced while it was opened";
	diag_error(d, NULL, "--report: cannot write '%s': %s", path, why);
}

/* The report's stream: --report=FILE or stderr. Returns 0 or -errno. */
static int report_open(struct sup *s, struct diag *d)
{
	int fd;

	if (!s->o->report_path)
		return 0;
	fd = outfile_open(s->o->report_path);
	if (fd < 0)
		errno = -fd;
	fd = fd_high(fd);
	s->report = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!s->report) {
		int err = errno;

		if (fd >= 0)
			close(fd);
		s->report = stderr;
		report_open_error(s->o->report_path, err, d);
		return -err;
	}
	return 0;
}

/*
 * --learn: the built-in rules the learned profile gets (the base's
 * [hardening] and [landlock] decide which), built without the base's rules
 * under an allowing default, where none is left out. The base's warnings
 * were said when it was built: only errors are passed on.
 */
static int learn_builtins(struct sup *s, const struct ruleset *base, struct diag *d)
{
	struct diag quiet;
	int r;

	s->builtins_rs = (struct ruleset){ .attrs = base->attrs,
					   .hardening = base->hardening,
					   .landlock_tcp_loc = base->landlock_tcp_loc };
	s->builtins_rs.attrs.default_action = (struct action){ .kind = ACTION_ALLOW };
	diag_init(&quiet);
	r = policy_build(&s->builtins_rs, arch_native(), &quiet, &s->builtins);
	for (size_t i = 0; i < quiet.n_msgs; i++)
		if (quiet.msgs[i].severity == DIAG_ERROR)
			diag_add(d, DIAG_ERROR, &quiet.msgs[i].loc, "%s", quiet.msgs[i].text);
	diag_clear(&quiet);
	return r;
}

/* --learn: this run's header, FILE and the base checked, and the file
 * written opened, out of the child's way: every check before the command
 * runs. */
static int learn_start(struct sup *s, const struct profile *prof, char *const argv[],
		       struct diag *d)
{
	struct learn_header *h = &s->learn_h;
	int r;

	*h = (struct learn_header){
		.user = prof->has_user ? prof->user : NULL,
		.group = prof->has_group ? prof->group : NULL,
		.command = join_argv(argv),
		.native = arch_native(),
		.base_abis = s->base_abis,
	};
	for (size_t i = 0; s->o->has_base && i < s->policy->n_abis && i < ARCH_COUNT; i++)
		s->base_abis[h->n_base_abis++] = s->policy->abis[i].arch;
	r = learn_builtins(s, prof->rs, d);
	if (r == 0)
		r = learn_file_start(&s->lf, s->o->learn_path, s->o->has_base ? prof->path : NULL,
				     h, d);
	if (r == 0)
		s->lf.fd = fd_high(s->lf.fd);
	return r;
}

/*
 * What --permissive and --learn leave of the sandbox: the filter denies
 * nothing, but the child enters the Landlock domain as run mode does, and
 * a [landlock] key of the profile still denies (scmp-run(1) --permissive).
 */
static void banner(enum supervise_mode mode, const struct profile *prof)
{
	const char *opt = mode == SUPERVISE_LEARN ? "--learn" : "--permissive";

	if (landlock_first_key(&prof->landlock))
		fprintf(stderr,
			PROG ": %s: the filter denies nothing; [landlock] still confines the "
			     "command, this is not a sandbox\n",
			opt);
	else
		fprintf(stderr, PROG ": %s: the filter denies nothing, this is not a sandbox\n",
			opt);
}

int supervise_run(const struct supervise_opts *o, const struct compiled *c, char *const argv[],
		  struct diag *d, enum run_failure *ret_fail)
{
	struct sup s = {
		.o = o, .policy = c->policy, .listener = -1, .report = stderr, .lf.fd = -1
	};
	struct child_args a = { .prof = c->profile,
				.prog = supervise_answers(c, o->mode),
				.argv = argv };
	const struct sigaction dfl = { .sa_handler = SIG_DFL }, ign = { .sa_handler = SIG_IGN };
	struct bpf_prog *prog = NULL;
	/* in our memory, which the child shares until its execve() */
	struct handoff hand = {
		.state = HANDOFF_SETUP,
		.fd = -1,
		.fail = RUN_FAIL_NONE,
		.wake_fd = -1,
		.readback = -1,
		.one = 1,
	};
	struct handoff *h = &hand;
	void *stack = MAP_FAILED;
	sigset_t mask;
	bool masked = false, chld_set = false, reaped = false;
	size_t n_ignored = 0;
	int sfd = -1, wake_fd = -1, listen_poll = -1, readback = -1;
	struct timespec tick = { 0, 20000 }; /* while the read-back is not over */
	int status = -EINVAL, wstatus = 0, r;
	pid_t child = -1;

	*ret_fail = RUN_FAIL_SETUP;
	if (supervise_check(c->profile, d) < 0 || proc_is_ours(d) < 0)
		return -EINVAL;
	/* the program loaded: the profile with its denials sent to us */
	r = supervise_program(c, o->mode, d, &prog);
	if (r < 0)
		return r;
	a.load = prog;

	if (o->mode == SUPERVISE_LEARN)
		r = learn_start(&s, c->profile, argv, d);
	else
		r = report_open(&s, d);
	if (r < 0) {
		status = r;
		goto out;
	}

	s.h = h;
	a.h = h;
	wake_fd = fd_high(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
	if (wake_fd < 0)
		goto sys_fail;
	h->wake_fd = wake_fd;
	h->late_ok = wake_passes(prog, h);

	/* Forwarded signals and SIGCHLD are taken through a signalfd; blocked
	 * before the clone, so none is lost in between. SIGCHLD must not be
	 * ignored, or the kernel reaps the child for us. */
	sigemptyset(&mask);
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		sigaddset(&mask, forwarded[i]);
	sigaddset(&mask, SIGCHLD);
	if (sigaction(SIGCHLD, &dfl, &a.old_sigchld) < 0)
		goto sys_fail;
	chld_set = true;
	for (; n_ignored < N_IGNORED; n_ignored++)
		if (sigaction(ignored[n_ignored], &ign, &a.old_ignored[n_ignored]) < 0)
			goto sys_fail;
	if (sigprocmask(SIG_BLOCK, &mask, &a.oldmask) < 0)
		goto sys_fail;
	masked = true;
	sfd = fd_high(signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK));
	if (sfd < 0)
		goto sys_fail;
	status = caller_pdeath_save(&a.pdeath, d);
	if (status < 0)
		goto out;
	a.pdeath.parent = getpid(); /* the child's parent: this process */

	if (o->mode != SUPERVISE_REPORT)
		banner(o->mode, c->profile);
	fflush(NULL);

	/* The command runs as the same user unless the profile switches, and
	 * the supervisor enacts its profile: without a Landlock domain, ptrace
	 * or a write to /proc/PPID/mem would let the command answer its own
	 * notified calls. Not dumpable, only CAP_SYS_PTRACE can reach it
	 * (ptrace(2), PTRACE_MODE_ATTACH). The mm is shared with the child
	 * until its execve(), which gives the command a dumpable one again. */
	if (prctl(PR_SET_DUMPABLE, 0) < 0) {
		status = -errno;
		diag_error(d, NULL, "starting the supervisor failed: prctl(PR_SET_DUMPABLE): %s",
			   strerror(-status));
		goto out;
	}

	/* the child's stack, with a guard page below it */
	stack = mmap(NULL, CHILD_STACK_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED)
		goto sys_fail;
	if (mprotect(stack, (size_t)sysconf(_SC_PAGESIZE), PROT_NONE) < 0)
		goto sys_fail;
	child = clone_vm(&a, (char *)stack + CHILD_STACK_SIZE);
	if (child < 0) {
		status = -errno;
		diag_error(d, NULL, "starting the command failed: clone: %s", strerror(-status));
		goto out;
	}
	s.child = child;

	while (!reaped) {
		struct pollfd pfd[3] = {
			{ .fd = sfd, .events = POLLIN },
			{ .fd = wake_fd, .events = POLLIN },
			{ .fd = listen_poll, .events = POLLIN },
		};
		struct timespec ts = tick;
		int n = ppoll(pfd, 3, readback >= 0 ? &ts : NULL, NULL);

		if (n < 0) {
			int err = errno;

			if (err == EINTR)
				continue;
			/* the child first: it may share our heap (see the top) */
			kill(child, SIGKILL);
			waitpid(child, NULL, 0);
			child = -1;
			diag_error(d, NULL, "waiting for the command failed: ppoll: %s",
				   strerror(err));
			goto out;
		}
		if (pfd[1].revents) {
			s.listener = take_listener(h, child);
			listen_poll = s.listener;
			readback = __atomic_load_n(&h->readback, __ATOMIC_RELAXED);
			pfd[1].fd = wake_fd = -1; /* woken once: it stays readable */
		}
		if (pfd[2].revents & POLLIN)
			handle(&s);
		else if (pfd[2].revents)
			listen_poll = -1; /* POLLHUP: nobody uses the filter any more */
		if (pfd[0].revents)
			reaped = take_signals(sfd, child, &wstatus);
		if (readback >= 0 && readback_over(h)) {
			close(readback);
			readback = -1;
		} else if (n == 0 && tick.tv_nsec < 640000) {
			tick.tv_nsec *= 2;
		}
	}
	child = -1;
	if (__atomic_load_n(&h->state, __ATOMIC_ACQUIRE) != HANDOFF_EXEC) {
		status = not_run(h, wstatus, ret_fail, d);
		goto out;
	}
	status = command_status(wstatus);
	if (s.killed_tgid && WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGKILL)
		status = SUPERVISE_KILL_STATUS;
	summary(&s);
	if (o->mode == SUPERVISE_LEARN) {
		/* the header names the command: no silent gap */
		r = learn_file_finish(&s.lf, s.learn_h.command ? s.learn_err : -ENOMEM, d);
		learn_warn_base(&s, d);
		if (r < 0 && status == 0)
			status = r; /* the command succeeded, the learning did not */
	}
	goto out;

sys_fail:
	status = -errno;
	diag_error(d, NULL, "starting the supervisor failed: %s", strerror(errno));
out:
	/* the child is reaped or was never started: its stack is free */
	if (stack != MAP_FAILED)
		munmap(stack, CHILD_STACK_SIZE);
	if (s.listener >= 0)
		close(s.listener);
	if (readback >= 0)
		close(readback); /* the child was killed before it was done */
	if (h->wake_fd >= 0)
		close(h->wake_fd);
	if (sfd >= 0)
		close(sfd);
	if (masked)
		sigprocmask(SIG_SETMASK, &a.oldmask, NULL);
	if (chld_set)
		sigaction(SIGCHLD, &a.old_sigchld, NULL);
	while (n_ignored--)
		sigaction(ignored[n_ignored], &a.old_ignored[n_ignored], NULL);
	learn_file_clear(&s.lf);
	policy_free(s.builtins);
	free((char *)s.learn_h.command);
	if (s.report && s.report != stderr)
		fclose(s.report);
	for (size_t i = 0; i < s.n_folds; i++)
		free(s.folds[i].text);
	free(s.folds);
	bpf_prog_free(prog);
	return status;
}
