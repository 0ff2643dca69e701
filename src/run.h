/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Run mode: the one place that changes the process. Caller state, switch
 * credentials, drop capabilities, set NO_NEW_PRIVS, kernel checks, install
 * the filter, execve().
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
 * Resolve argv[0] on PATH like execvp(): every candidate that exists and
 * that this process may execute, in PATH order (cmd itself if it contains
 * '/'). The first is the command; the others are what execvp() would try
 * when the execve() of one fails with EACCES, which the check here cannot
 * foresee (a security module; Landlock's execute right, which access(2)
 * does not see). Returns a NULL-terminated malloc'ed list (free with
 * run_candidates_free()) of at least one, or NULL with a message in d and
 * *ret_fail RUN_FAIL_NOT_FOUND or RUN_FAIL_NOT_EXECUTABLE (RUN_FAIL_SETUP
 * if out of memory).
 */
char **run_resolve_candidates(const char *cmd, struct diag *d, enum run_failure *ret_fail);
void run_candidates_free(char **v);

/* Where a failed run_exec() leaves the process. */
enum run_state {
	RUN_STATE_OPEN,	    /* no filter installed: report and exit as usual */
	RUN_STATE_FILTERED, /* the filter is installed and lets write(2) on fd 2
			     * through: report, then _exit() at once */
	RUN_STATE_MUTE,	    /* the filter is installed and may stop write(2) on
			     * fd 2: _exit() at once, printing nothing */
};

/*
 * The checks of run mode that need neither the command's path nor any
 * change to the process, in order (scmp-run(1) Run mode): the profile needs
 * no supervisor (no 'notify' action), and the program lets an execve() of
 * argv[0] through on this machine's ABI (run_exec() checks again with the
 * path it finds). Returns 0, or a negative errno with the reason in d.
 */
int run_prepare(const struct profile *p, const struct bpf_prog *prog, char *const argv[],
		struct diag *d);

/*
 * What run mode will do with the caller's state (scmp-run(1) Caller state),
 * as notes located at the profile, one per line of caller_describe(): the
 * descriptors kept (socket activation included), signals, session,
 * environment. For -v; changes nothing. Returns 0 or -ENOMEM.
 */
int run_describe(const struct profile *p, struct diag *d);

/*
 * Apply the profile to this process and execve() the command, in the order
 * of scmp-run(1) Run mode: checks that change nothing (program, uid-0
 * guard, socket activation, user and group lookup, capabilities);
 * descriptors, signals, session, environment (Caller state); credentials;
 * capabilities; cmd resolved on PATH unless it contains '/' and checked as
 * the target user (run_resolve_candidates()), then the execve() of that path
 * checked against the program; no_new_privs; kernel checks; filter;
 * read-back; execve(path, argv, environ), and of the later candidates in
 * turn while it fails with EACCES, as execvp() goes on.
 *
 * Returns only on failure: a negative errno with the failed step, raw
 * errno and hints in d; in *ret_fail RUN_FAIL_SETUP, or RUN_FAIL_NOT_FOUND
 * / RUN_FAIL_NOT_EXECUTABLE from the resolution (before the filter), or,
 * when execve() itself failed (the filter is then installed and the command
 * did not run), RUN_FAIL_NOT_FOUND for ENOENT (a missing interpreter) and
 * RUN_FAIL_NOT_EXECUTABLE otherwise, as env(1) does; in *ret_state whether
 * the filter is installed and whether d may be printed. Nothing is executed
 * unless every step succeeded.
 *
 * Choices: [capabilities] keep is an upper bound (a capability the caller
 * lacks is not kept and not an error); [credentials] sets the supplementary
 * groups to the primary group only; a numeric user without a passwd entry
 * needs an explicit group. Checks that need no change to the process (user
 * and group lookup, uid 0 without a named user, LISTEN_FDS, no-new-privs =
 * no without CAP_SYS_ADMIN, missing CAP_SETUID/CAP_SETGID) fail before
 * anything changes.
 */
int run_exec(const struct profile *p, const struct bpf_prog *prog, const char *cmd,
	     char *const argv[], struct diag *d, enum run_failure *ret_fail,
	     enum run_state *ret_state);

/*
 * A supervisor's hook into run_exec() (scmp-run(1), FINDING WHAT WAS DENIED).
 * The program installed is load, with SECCOMP_FILTER_FLAG_NEW_LISTENER,
 * WAIT_KILLABLE_RECV where the kernel has it (and TSYNC_ESRCH when the
 * profile asks for tsync); prog stays the program whose
 * answers run mode predicts for its own calls after the install (the
 * read-back, a message) and checks the execve() of the command against: the
 * supervisor answers those calls as prog does. installing() is called right
 * before the install (a negative errno from it fails the step), with quiet
 * true if load notifies none of the read-back's calls (so they need no
 * supervisor); installed() right after it with the listener and the
 * read-back's descriptor (open and close-on-exec until execve(); its last
 * use is the read-back, before executing()); executing() right before
 * execve() (a negative errno from it: the command is not run). These two
 * run under the filter: a system call they make must be one that load lets
 * run, which installing() knows.
 */
struct run_hook {
	const struct bpf_prog *load;
	int (*installing)(void *data, bool quiet);
	void (*installed)(void *data, int listener, int readback);
	int (*executing)(void *data);
	void *data;
};

/* run_exec() with a supervisor's hook; hook NULL is run_exec(). */
int run_exec_hooked(const struct profile *p, const struct bpf_prog *prog, const char *cmd,
		    char *const argv[], const struct run_hook *hook, struct diag *d,
		    enum run_failure *ret_fail, enum run_state *ret_state);
