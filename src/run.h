/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Run mode: the one place that changes the process. Switch credentials,
 * drop capabilities, set NO_NEW_PRIVS, install the filter, execve().
 */
#pragma once

#include "bpf.h"
#include "diag.h"
#include "profile.h"

/*
 * Resolve argv[0] on PATH like execvp(). Returns a malloc'ed path, or NULL
 * with *ret_status 127 (not found) or 126 (found, not executable) and a
 * message in d (125 if out of memory).
 */
char *run_resolve_command(const char *cmd, struct diag *d, int *ret_status);

/*
 * Apply the profile to this process and execve(path, argv, environ).
 * Returns only on failure: a negative errno with the failed step, raw
 * errno and hints in d, and in *ret_status the exit status for it: 125, or,
 * when execve() itself failed (the filter is then installed and the command
 * did not run), 127 for ENOENT (a missing interpreter) and 126 otherwise,
 * as env(1) does. Nothing is executed unless every step succeeded.
 *
 * Choices: [capabilities] keep is an upper bound (a capability the caller
 * lacks is not kept and not an error); [credentials] sets the supplementary
 * groups to the primary group only; a numeric user without a passwd entry
 * needs an explicit group. Checks that need no change to the process (user
 * and group lookup, no-new-privs = no without CAP_SYS_ADMIN, missing
 * CAP_SETUID/CAP_SETGID) fail before anything changes.
 */
int run_exec(const struct profile *p, const struct bpf_prog *prog, const char *path,
	     char *const argv[], struct diag *d, int *ret_status);

/*
 * A supervisor's hook into run_exec() (scmp-run(1), FINDING WHAT WAS DENIED):
 * the filter is installed with SECCOMP_FILTER_FLAG_NEW_LISTENER (and
 * TSYNC_ESRCH when the profile asks for tsync), and installed() is called
 * with the listener between the install and execve(). It must make no
 * system call: the filter is in force and the profile may deny any of them.
 */
struct run_hook {
	void (*installed)(void *data, int listener);
	void *data;
};

/* run_exec() with a supervisor's hook; hook NULL is run_exec(). */
int run_exec_hooked(const struct profile *p, const struct bpf_prog *prog, const char *path,
		    char *const argv[], const struct run_hook *hook, struct diag *d,
		    int *ret_status);
