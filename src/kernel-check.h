/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kernel checks of run mode (scmp-run(1), Kernel checks): every action of
 * the program is available, and after loading, the filter is really there.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bpf.h"
#include "diag.h"
#include "proc-status.h"

#define KCHECK_ACTIONS_MAX   8	/* distinct SECCOMP_RET_* actions the kernel defines */
#define KCHECK_FD_SEARCH_MAX 64 /* descriptor numbers tried for the read-back */

/* An action (SECCOMP_RET_ACTION_FULL bits) and the kernel that has it.
 * Arrays, not pointers: the table needs no relocation at start-up. */
struct kcheck_action {
	uint32_t action;
	char name[16];	/* the profile's spelling: "kill-process" */
	char since[12]; /* "Linux 4.14" */
};

/* The entry for an action value (the data bits are ignored); NULL if the
 * value is no action the kernel defines. */
const struct kcheck_action *kcheck_action_info(uint32_t ret);

/*
 * The distinct actions (SECCOMP_RET_ACTION_FULL bits) that prog can return,
 * from its return instructions, in program order. Returns the count
 * (<= KCHECK_ACTIONS_MAX), or -EINVAL if prog returns the accumulator or a
 * value that is no known action (then nothing can be checked: fail closed).
 */
int kcheck_prog_actions(const struct bpf_prog *prog, uint32_t ret_actions[KCHECK_ACTIONS_MAX]);

/*
 * Ask the kernel (seccomp(SECCOMP_GET_ACTION_AVAIL), Linux 4.14) about every
 * action prog can return. Returns 0, or a negative errno with an error
 * naming the action and the kernel version that has it in d.
 */
int kcheck_actions_available(const struct bpf_prog *prog, struct diag *d);

/*
 * The value of "Seccomp_filters:" in a /proc/PID/status text of len bytes
 * (Linux 5.9). Returns 0 and *ret, or -ENOENT if the line is missing, or
 * -EINVAL if it does not hold a plain number.
 */
int kcheck_parse_filters(const char *text, size_t len, unsigned *ret);

/* kcheck_parse_filters() of the status text of process pid: -ESRCH when
 * its Tgid line is missing or names another process. */
int kcheck_parse_status(const char *text, size_t len, pid_t pid, unsigned *ret);

/* The result prog gives for a call with these arguments on this binary's
 * ABI (nr from the table by name). Returns 0 and *ret, or a negative errno
 * (-ENOENT: no such syscall here; -EINVAL: the program is broken). */
int kcheck_predict(const struct bpf_prog *prog, const char *syscall_name, const uint64_t args[6],
		   uint32_t *ret);

/*
 * The read-back after loading. Prepared before the filter is installed:
 * the filter count now, a descriptor of /proc/self/status (close-on-exec)
 * for the count after (the lowest free number from 3 that the filter lets
 * read(2) through, else any), and what the new filter will answer to the
 * two calls of the read-back (read(2) on it, prctl(PR_GET_SECCOMP)).
 */
struct kcheck_readback {
	int status_fd;
	pid_t pid; /* whose status text it must be */
	unsigned before;
	uint32_t read_ret, prctl_ret; /* predicted SECCOMP_RET_* of the new filter */
	char buf[4096];		      /* one read(2) of the status text */
	/* The lines the read-back parses (Tgid, Seccomp_filters), kept from a
	 * text read in pieces, and the line being read */
	char kept[96];
	size_t kept_len;
	struct proc_status_lines lines;
};

/*
 * Prepare rb for prog. Returns 0, or a negative errno with a message in d:
 * /proc/self/status unreadable, not /proc's or not this process's, or
 * without Seccomp_filters (Linux 5.9), or a filter that
 * would stop both read-back calls with a signal or a tracer (they would
 * kill the launcher; nothing could be verified).
 */
int kcheck_readback_prepare(const struct bpf_prog *prog, struct kcheck_readback *rb,
			    struct diag *d);

/*
 * After the filter is installed. Each call the filter lets through must
 * show the filter: PR_GET_SECCOMP reads 2 and Seccomp_filters grew by
 * exactly one; a call the filter answers with an errno must fail with that
 * errno (an outer filter cannot turn it into success: the most restrictive
 * answer wins); a call that would be stopped by a signal is not made.
 * Returns 0, or -EPERM with a message in d. Apart from a message on
 * failure, nothing is allocated: only the two calls are made.
 */
int kcheck_readback_verify(struct kcheck_readback *rb, struct diag *d);

/* Does prog let every call kcheck_readback_verify() will make run or fail
 * without a supervisor, i.e. notify none of them (SECCOMP_RET_USER_NOTIF)?
 * False also when a call cannot be predicted. */
bool kcheck_readback_unnotified(const struct kcheck_readback *rb, const struct bpf_prog *prog);

/* Close the descriptor of rb (-1 afterwards; a closed rb is a no-op). */
void kcheck_readback_close(struct kcheck_readback *rb);
