/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Run mode: the one place that changes the process. Caller state, switch
 * credentials, drop capabilities, set NO_NEW_PRIVS, install the filter,
 * execve().
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
 * Apply the profile to this process and execve() the command, in the order
 * of scmp-run(1), RUN MODE: uid-0 guard and checks; descriptors, signals,
 * session, environment (Caller state); credentials; capabilities; COMMAND
 * resolved on PATH (unless cmd contains '/') and checked as the target
 * user; no_new_privs; kernel checks; filter; read-back; execve().
 *
 * Returns only on failure: a negative errno with the failed step, raw
 * errno and hints in d, and in *ret_status the exit status for it: 125;
 * 127 (not found) or 126 (not executable) from the resolution, before the
 * filter is installed; or, when execve() itself failed (the filter is then
 * installed and the command did not run), 127 for ENOENT (a missing
 * interpreter) and 126 otherwise, as env(1) does. Once the filter is
 * installed, a failure (read-back 125, execve 126/127) returns only if the
 * filter allows write(2) on fd 2; otherwise the process _exit()s with that
 * status at once, silently. Nothing is executed unless every step
 * succeeded.
 *
 * Choices: [capabilities] keep is an upper bound (a capability the caller
 * lacks is not kept and not an error); [credentials] sets the supplementary
 * groups to the primary group only; a numeric user without a passwd entry
 * needs an explicit group. Checks that need no change to the process (user
 * and group lookup, uid 0 without user = root, LISTEN_FDS, no-new-privs =
 * no without CAP_SYS_ADMIN, missing CAP_SETUID/CAP_SETGID) fail before
 * anything changes.
 */
int run_exec(const struct profile *p, const struct bpf_prog *prog, const char *cmd,
	     char *const argv[], struct diag *d, int *ret_status);
