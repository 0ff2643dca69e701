/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kernel checks of run mode: SECCOMP_GET_ACTION_AVAIL for every action the
 * program returns, and the read-back of PR_GET_SECCOMP and Seccomp_filters.
 */
#include "kernel-check.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <linux/seccomp.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "arch.h"
#include "array.h"
#include "sim.h"
#include "syscalls.h"

#ifndef SECCOMP_GET_ACTION_AVAIL
#define SECCOMP_GET_ACTION_AVAIL 2
#endif

/* One row, its strings checked to fit with their NULs when compiled
 * (MEMBER_FITS()). */
/* clang-format off */
#define ACTION(a, s, ver) { (a) + (uint32_t)(MEMBER_FITS(s, struct kcheck_action, name) + \
	MEMBER_FITS(ver, struct kcheck_action, since)), s, ver }
/* clang-format on */

/* seccomp(2) and include/uapi/linux/seccomp.h: the filter mode and these
 * actions came with Linux 3.5; SECCOMP_RET_KILL_THREAD is the old
 * SECCOMP_RET_KILL. SECCOMP_GET_ACTION_AVAIL itself is from Linux 4.14. */
static const struct kcheck_action actions[] = {
	ACTION(SECCOMP_RET_KILL_PROCESS, "kill-process", "Linux 4.14"),
	ACTION(SECCOMP_RET_KILL_THREAD, "kill-thread", "Linux 3.5"),
	ACTION(SECCOMP_RET_TRAP, "trap", "Linux 3.5"),
	ACTION(SECCOMP_RET_ERRNO, "errno", "Linux 3.5"),
	ACTION(SECCOMP_RET_USER_NOTIF, "notify", "Linux 5.0"),
	ACTION(SECCOMP_RET_TRACE, "trace", "Linux 3.5"),
	ACTION(SECCOMP_RET_LOG, "log", "Linux 4.14"),
	ACTION(SECCOMP_RET_ALLOW, "allow", "Linux 3.5"),
};

_Static_assert(sizeof(actions) / sizeof(actions[0]) == KCHECK_ACTIONS_MAX, "one entry per action");

static const char *errno_name(int err)
{
	const char *n = strerrorname_np(err);

	return n ? n : "unknown errno";
}

const struct kcheck_action *kcheck_action_info(uint32_t ret)
{
	for (size_t i = 0; i < KCHECK_ACTIONS_MAX; i++)
		if ((ret & SECCOMP_RET_ACTION_FULL) == actions[i].action)
			return &actions[i];
	return NULL;
}

int kcheck_prog_actions(const struct bpf_prog *prog, uint32_t ret_actions[KCHECK_ACTIONS_MAX])
{
	int n = 0;

	for (size_t i = 0; i < prog->len; i++) {
		const struct sock_filter *in = &prog->insns[i];
		uint32_t act;
		int j;

		if (BPF_CLASS(in->code) != BPF_RET)
			continue;
		if (BPF_RVAL(in->code) != BPF_K || !kcheck_action_info(in->k))
			return -EINVAL;
		act = in->k & SECCOMP_RET_ACTION_FULL;
		for (j = 0; j < n && ret_actions[j] != act; j++)
			;
		if (j == n)
			ret_actions[n++] = act;
	}
	return n;
}

int kcheck_actions_available(const struct bpf_prog *prog, struct diag *d)
{
	uint32_t acts[KCHECK_ACTIONS_MAX];
	int n = kcheck_prog_actions(prog, acts);

	if (n < 0) {
		diag_error(d, NULL,
			   "checking the actions of the program failed: it returns a value "
			   "that is no seccomp action");
		return n;
	}
	for (int i = 0; i < n; i++) {
		const struct kcheck_action *a = kcheck_action_info(acts[i]);
		uint32_t act = acts[i];
		int err;

		if (syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &act) == 0)
			continue;
		err = errno;
		if (err == EOPNOTSUPP) {
			diag_error(d, NULL,
				   "the kernel does not support the seccomp action '%s' (it needs "
				   "%s or later)",
				   a->name, a->since);
		} else {
			diag_error(d, NULL,
				   "checking that the kernel supports the seccomp action '%s' "
				   "failed: %s (%s)",
				   a->name, strerror(err), errno_name(err));
			if (err == EINVAL)
				diag_hint(d, NULL,
					  "SECCOMP_GET_ACTION_AVAIL needs Linux 4.14 or later");
			else if (err == ENOSYS)
				diag_hint(d, NULL,
					  "the kernel was built without seccomp filter support "
					  "(CONFIG_SECCOMP_FILTER)");
		}
		return -err;
	}
	return 0;
}

/* The plain number after KEY (with its ':') on its line of status text:
 * 0, -ENOENT without the line, -EINVAL for anything but digits. */
static int status_number(const char *text, size_t len, const char *key, unsigned *ret)
{
	const size_t klen = strlen(key);
	size_t i = 0;

	while (i < len) {
		size_t end = i;

		while (end < len && text[end] != '\n')
			end++;
		if (end - i > klen && !memcmp(text + i, key, klen)) {
			unsigned long v = 0;
			size_t j = i + klen;

			while (j < end && (text[j] == '\t' || text[j] == ' '))
				j++;
			if (j == end)
				return -EINVAL;
			for (; j < end; j++) {
				if (text[j] < '0' || text[j] > '9' || v > (UINT32_MAX - 9) / 10)
					return -EINVAL;
				v = v * 10 + (unsigned long)(text[j] - '0');
			}
			*ret = (unsigned)v;
			return 0;
		}
		i = end + 1;
	}
	return -ENOENT;
}

int kcheck_parse_filters(const char *text, size_t len, unsigned *ret)
{
	return status_number(text, len, "Seccomp_filters:", ret);
}

int kcheck_parse_status(const char *text, size_t len, pid_t pid, unsigned *ret)
{
	unsigned tgid = 0;
	int r = status_number(text, len, "Tgid:", &tgid);

	if (r < 0 || pid <= 0 || tgid != (unsigned)pid)
		return -ESRCH;
	return kcheck_parse_filters(text, len, ret);
}

int kcheck_predict(const struct bpf_prog *prog, const char *syscall_name, const uint64_t args[6],
		   uint32_t *ret)
{
	const struct arch *a = arch_native();
	struct seccomp_data sd = { .arch = a->audit_arch };
	struct sim_result res;
	uint32_t nr;

	if (syscalls_lookup_name(a, syscall_name, &nr) < 0)
		return -ENOENT;
	sd.nr = (int)nr;
	memcpy(sd.args, args, sizeof(sd.args));
	if (sim_run(prog->insns, prog->len, &sd, &res) < 0)
		return -EINVAL;
	*ret = res.ret;
	return 0;
}

/* The filter lets the call run (its own result counts). */
static bool passes(uint32_t ret)
{
	uint32_t act = ret & SECCOMP_RET_ACTION_FULL;

	return act == SECCOMP_RET_ALLOW || act == SECCOMP_RET_LOG;
}

/* The filter answers with an errno (the call is safe to make). */
static bool answers(uint32_t ret)
{
	return (ret & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_ERRNO;
}

/* The read-back makes a call whose predicted answer is ret: one that runs
 * or fails with an errno, never one that a signal or a tracer would stop. */
static bool made(uint32_t ret)
{
	return passes(ret) || answers(ret);
}

/* proc_status_feed()'s fn for read_status(): the lines the read-back
 * parses are kept (one read(2) may end before Seccomp_filters). */
static int keep_line(void *ctx, const char *line, size_t len)
{
	static const char keys[][17] = { "Tgid:", "Seccomp_filters:" }; /* no relocations */
	struct kcheck_readback *rb = ctx;

	for (size_t k = 0; k < 2; k++)
		if (!strncmp(line, keys[k], strlen(keys[k])) &&
		    rb->kept_len + len < sizeof(rb->kept)) {
			memcpy(rb->kept + rb->kept_len, line, len);
			rb->kept_len += len;
			rb->kept[rb->kept_len++] = '\n';
		}
	return 0;
}

/*
 * The whole status text into keep_line(), with pread(2) from offset 0
 * (before: the descriptor's offset stays 0) or read(2) from where the
 * descriptor is (after). Each read(2) has the arguments the filter's
 * answer was predicted for. 0 or a negative errno.
 */
static int read_status(struct kcheck_readback *rb, int fd, bool positioned)
{
	off_t at = 0;

	rb->kept_len = 0;
	rb->lines = (struct proc_status_lines){ 0 };
	for (;;) {
		ssize_t n = positioned ? pread(fd, rb->buf, sizeof(rb->buf), at)
				       : read(fd, rb->buf, sizeof(rb->buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		proc_status_feed(&rb->lines, rb->buf, (size_t)n, keep_line, rb);
		/* A short read is the end: /proc makes the status text whole at
		 * the first read (seq_file). Were it not, a count would be
		 * missing and the check would fail, never pass. */
		if ((size_t)n < sizeof(rb->buf))
			return 0;
		at += n;
	}
}

void kcheck_readback_close(struct kcheck_readback *rb)
{
	if (rb->status_fd >= 0)
		close(rb->status_fd);
	rb->status_fd = -1;
}

/* /proc/self/status could not be opened or read (r: a negative errno). */
static int unreadable(struct diag *d, int r)
{
	diag_error(d, NULL, "reading /proc/self/status failed: %s (%s)", strerror(-r),
		   errno_name(-r));
	diag_hint(d, NULL,
		  "the filter count there is how the filter is verified after loading: "
		  "mount /proc");
	return r;
}

/* The status text has no Seccomp_filters count (r: -ENOENT, -EINVAL), or
 * is not this process's (-ESRCH, from kcheck_parse_status()). */
static int no_count(struct diag *d, int r)
{
	if (r == -ESRCH) {
		diag_error(d, NULL,
			   "the status text read from /proc/self/status is not this process's: "
			   "the filter cannot be verified after loading");
		diag_hint(d, NULL,
			  "the /proc mounted here may belong to another pid namespace "
			  "(unshare --pid without --mount-proc), or an outer seccomp filter "
			  "may fake the result of open(2)");
		return -EPERM;
	}
	diag_error(d, NULL,
		   "/proc/self/status has no Seccomp_filters count: the filter "
		   "cannot be verified after loading");
	diag_hint(d, NULL, "the count needs Linux 5.9 or later");
	return r;
}

/*
 * A descriptor of /proc/self/status, or a negative errno with a message in
 * d. An outer filter can fake the result of a call, never fill its buffer:
 * open() answered with errno(0) hands back descriptor 0, whatever the
 * caller left there, but an fstatfs() it fakes leaves f_type 0. Another
 * process's status text is /proc's too: the Tgid line settles that
 * (kcheck_parse_status()).
 */
static int open_status(struct diag *d)
{
	struct statfs sf = { 0 };
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return unreadable(d, -errno);
	if (fstatfs(fd, &sf) == 0 && sf.f_type == PROC_SUPER_MAGIC)
		return fd;
	diag_error(d, NULL,
		   "the descriptor open(2) returned for /proc/self/status (%d) is not a file of "
		   "/proc: the filter cannot be verified after loading",
		   fd);
	diag_hint(d, NULL, "an outer seccomp filter may fake the result of open(2)");
	if (fd > STDERR_FILENO) /* a faked 0 is the caller's */
		close(fd);
	return -EPERM;
}

/*
 * The filter count before loading, into rb->before, read with pread() at
 * offset 0 from the descriptor the read after loading uses: the offset
 * stays 0, and /proc generates a text read from offset 0 anew, so the
 * read after shows the count then. Read even when PR_GET_SECCOMP says the
 * process is unfiltered: an outer filter can answer that call with
 * errno(0), which reads as "no filter", and a count of 0 taken from it
 * would let a faked seccomp(2) pass the check after.
 */
static int count_before(struct kcheck_readback *rb, int fd, struct diag *d)
{
	int r = read_status(rb, fd, true);

	if (r < 0)
		return unreadable(d, r);
	r = kcheck_parse_status(rb->kept, rb->kept_len, rb->pid, &rb->before);
	return r < 0 ? no_count(d, r) : 0;
}

int kcheck_readback_prepare(const struct bpf_prog *prog, struct kcheck_readback *rb, struct diag *d)
{
	uint64_t args[6] = { 0 };
	int fd, r;

	memset(rb, 0, sizeof(*rb));
	rb->status_fd = -1;
	rb->pid = getpid();
	fd = open_status(d);
	if (fd < 0)
		return fd;
	r = count_before(rb, fd, d);
	if (r < 0) {
		close(fd);
		return r;
	}
	rb->status_fd = fd;
	args[1] = (uint64_t)(uintptr_t)rb->buf;
	args[2] = sizeof(rb->buf);
	/* A profile may allow read(2) on some descriptors only: take the
	 * lowest free number the filter lets read through, if any. */
	for (int n = 3; n < 3 + KCHECK_FD_SEARCH_MAX; n++) {
		uint32_t ret;

		args[0] = (uint64_t)n;
		if (n != fd && (fcntl(n, F_GETFD) >= 0 || errno != EBADF))
			continue;
		if (kcheck_predict(prog, "read", args, &ret) < 0 || !passes(ret))
			continue;
		if (n != fd) {
			if (fcntl(fd, F_DUPFD_CLOEXEC, n) != n) {
				r = -errno;
				kcheck_readback_close(rb);
				return unreadable(d, r);
			}
			close(fd);
			rb->status_fd = n;
		}
		break;
	}
	args[0] = (uint64_t)rb->status_fd;
	r = kcheck_predict(prog, "read", args, &rb->read_ret);
	if (r == 0) {
		memset(args, 0, sizeof(args));
		args[0] = PR_GET_SECCOMP;
		r = kcheck_predict(prog, "prctl", args, &rb->prctl_ret);
	}
	if (r < 0) {
		kcheck_readback_close(rb);
		diag_error(d, NULL, "predicting the filter's answer to its read-back failed: %s",
			   r == -ENOENT ? "no read or prctl syscall on this ABI"
					: "the program is invalid");
		return r;
	}
	if (!made(rb->read_ret) && !made(rb->prctl_ret)) {
		kcheck_readback_close(rb);
		diag_error(d, NULL,
			   "the filter stops both read(2) of /proc/self/status and "
			   "prctl(PR_GET_SECCOMP) with a signal or a tracer: the filter "
			   "could not be verified after loading");
		diag_hint(d, NULL,
			  "allow 'prctl' with option == PR_GET_SECCOMP, or deny it with an "
			  "errno instead");
		return -EPERM;
	}
	return 0;
}

/* Is the read-back's call with these arguments made (prog_ret: the answer
 * predicted at preparation) and notified by prog? */
static bool notified(const struct bpf_prog *prog, uint32_t prog_ret, const char *name,
		     const uint64_t args[6])
{
	uint32_t ret;

	if (!made(prog_ret))
		return false;
	return kcheck_predict(prog, name, args, &ret) < 0 ||
	       (ret & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_USER_NOTIF;
}

bool kcheck_readback_unnotified(const struct kcheck_readback *rb, const struct bpf_prog *prog)
{
	/* the arguments exactly as kcheck_readback_verify() passes them */
	const uint64_t prctl_args[6] = { PR_GET_SECCOMP };
	const uint64_t read_args[6] = { (uint64_t)rb->status_fd, (uint64_t)(uintptr_t)rb->buf,
					sizeof(rb->buf) };

	return !notified(prog, rb->prctl_ret, "prctl", prctl_args) &&
	       !notified(prog, rb->read_ret, "read", read_args);
}

/* Did a call the filter answers with errno(e) come back with just that? */
static bool got_errno(long r, int err, uint32_t ret)
{
	uint32_t e = ret & SECCOMP_RET_DATA;

	return e == 0 ? r == 0 : r == -1 && (uint32_t)err == e;
}

/* The read(2) of the read-back, through the new filter: its errno if it
 * answers with one, else a count of one more, in this process's text. */
static int verify_count(struct kcheck_readback *rb, struct diag *d)
{
	unsigned after = 0;
	int r;

	if (answers(rb->read_ret)) {
		/* one call, its answer the filter's */
		ssize_t len = read(rb->status_fd, rb->buf, sizeof(rb->buf));

		if (got_errno(len, errno, rb->read_ret))
			return 0;
		diag_error(d, NULL,
			   "the seccomp filter is not in place after loading: "
			   "read(2) did not get the filter's errno");
		return -EPERM;
	}
	r = read_status(rb, rb->status_fd, false);
	if (r == 0) {
		r = kcheck_parse_status(rb->kept, rb->kept_len, rb->pid, &after);
		if (r < 0)
			return no_count(d, r == -ESRCH ? r : -EPERM);
	}
	if (r < 0 || after != rb->before + 1) {
		diag_error(d, NULL,
			   "the seccomp filter is not in place after loading: "
			   "Seccomp_filters is %u, expected %u",
			   after, rb->before + 1);
		diag_hint(d, NULL, "an outer seccomp filter may fake the success of seccomp(2)");
		return -EPERM;
	}
	return 0;
}

int kcheck_readback_verify(struct kcheck_readback *rb, struct diag *d)
{
	long r;
	int err;

	if (made(rb->prctl_ret)) {
		r = prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
		err = errno;
		if (passes(rb->prctl_ret) ? r != 2 : !got_errno(r, err, rb->prctl_ret)) {
			diag_error(d, NULL,
				   "the seccomp filter is not in place after loading: "
				   "PR_GET_SECCOMP returned %ld (errno %d), not %s",
				   r, r < 0 ? err : 0,
				   passes(rb->prctl_ret) ? "2" : "the filter's errno");
			return -EPERM;
		}
	}
	return made(rb->read_ret) ? verify_count(rb, d) : 0;
}
