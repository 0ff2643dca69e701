/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Run mode: the one place that changes the process. Switch credentials,
 * drop capabilities, set NO_NEW_PRIVS, install the filter, execve().
 */
#pragma once

#include "bpf.h"
#include "diag.h"
#include "profile.h"

/* Why run mode failed; main.c turns it into the exit status
 * (scmp-run(1) EXIT STATUS). */
enum run_failure {
	RUN_FAIL_NONE,		 /* no failure */
	RUN_FAIL_SETUP,		 /* before execve() of the command: it did not run */
	RUN_FAIL_NOT_FOUND,	 /* not found on PATH, or execve() said ENOENT */
	RUN_FAIL_NOT_EXECUTABLE, /* found but not executable, or execve() failed otherwise */
};

/*
 * Resolve argv[0] on PATH like execvp(). Returns a malloc'ed path, or NULL
 * with a message in d and *ret_fail RUN_FAIL_NOT_FOUND or
 * RUN_FAIL_NOT_EXECUTABLE (RUN_FAIL_SETUP if out of memory).
 */
char *run_resolve_command(const char *cmd, struct diag *d, enum run_failure *ret_fail);

/*
 * The checks of run mode that come before anything about the process
 * changes, in order (scmp-run(1) Run mode): the profile needs no supervisor
 * (no 'notify' action), argv[0] resolves on PATH (run_resolve_command()),
 * and the program lets the execve() of that path through on this machine's
 * ABI. Returns the malloc'ed path of the command, or NULL with the reason
 * in d and *ret_fail.
 */
char *run_prepare(const struct profile *p, const struct bpf_prog *prog, char *const argv[],
		  struct diag *d, enum run_failure *ret_fail);

/*
 * Apply the profile to this process and execve(path, argv, environ).
 * Returns only on failure: a negative errno with the failed step, raw
 * errno and hints in d, and in *ret_fail RUN_FAIL_SETUP, or, when execve()
 * itself failed (the filter is then installed and the command did not
 * run), RUN_FAIL_NOT_FOUND for ENOENT (a missing interpreter) and
 * RUN_FAIL_NOT_EXECUTABLE otherwise, as env(1) does. Nothing is executed
 * unless every step succeeded.
 *
 * Choices: [capabilities] keep is an upper bound (a capability the caller
 * lacks is not kept and not an error); [credentials] sets the supplementary
 * groups to the primary group only; a numeric user without a passwd entry
 * needs an explicit group. Checks that need no change to the process (user
 * and group lookup, no-new-privs = no without CAP_SYS_ADMIN, missing
 * CAP_SETUID/CAP_SETGID) fail before anything changes.
 */
int run_exec(const struct profile *p, const struct bpf_prog *prog, const char *path,
	     char *const argv[], struct diag *d, enum run_failure *ret_fail);
