/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Supervised run mode (scmp-run(1), FINDING WHAT WAS DENIED and WRITING A
 * PROFILE FOR A PROGRAM): scmp-run stays the parent of the command, takes
 * the filter's user-notification listener and reports, enacts or learns
 * the calls the filter hands it.
 */
#pragma once

#include <stdbool.h>

#include "compile.h"
#include "diag.h"
#include "policy.h"
#include "profile.h"
#include "run.h"

enum supervise_mode {
	SUPERVISE_NONE,
	SUPERVISE_REPORT,     /* --report: denials reported, then enacted */
	SUPERVISE_PERMISSIVE, /* --permissive: reported as "would deny", continued */
	SUPERVISE_LEARN,      /* --learn: recorded, continued, written as a profile */
};

#define SUPERVISE_KILL_STATUS 159 /* 128 + SIGSYS: what the kernel's kill-process shows */

struct supervise_opts {
	enum supervise_mode mode;
	const char *report_path; /* --report=FILE; NULL: stderr */
	const char *learn_path;	 /* --learn FILE */
	bool has_base;		 /* --learn with -p: the profile is the base */
	bool verbose;
};

/*
 * Rewrite the outcomes of a policy for a mode: report turns errno,
 * kill-process and log into SECCOMP_RET_USER_NOTIF; permissive turns every
 * non-allow outcome into it; learn turns every outcome but an allow rule
 * into it (the default and unknown-syscall outcomes included: the learned
 * profile replaces them). Allow, and in report mode trap, trace and
 * kill-thread, are left alone: the program keeps its shape and the
 * kernel's always-allow cache.
 */
void supervise_transform(struct policy *p, enum supervise_mode mode);

/*
 * The program whose answers the supervisor gives to run mode's own calls
 * after the install (the read-back, the execve() of the command): run mode
 * predicts them from it, and checks the execve() against it before
 * anything changes. --report: the profile's own; --permissive and --learn:
 * one that lets every call run.
 */
const struct bpf_prog *supervise_answers(const struct compiled *c, enum supervise_mode mode);

/*
 * Refuse what a supervised mode cannot do: a profile that uses notify (the
 * listener is scmp-run's own). Returns 0 or -EINVAL with an error in d.
 */
int supervise_check(const struct profile *prof, struct diag *d);

/*
 * The program a supervised mode loads, for c compiled for this machine's
 * ABI: what supervise_transform() makes of c's policy, generated. For
 * --report and --permissive that is c->prog with its return values
 * rewritten (the same instructions otherwise); for --learn the policy is
 * built again, transformed and generated. Returns 0 and *ret (free with
 * bpf_prog_free()), or a negative errno with the reason in d.
 */
int supervise_program(const struct compiled *c, enum supervise_mode mode, struct diag *d,
		      struct bpf_prog **ret);

/*
 * The base of --learn without -p, compiled for native: a profile that
 * allows everything by default (so every call is notified and recorded).
 * Returns 0 and *ret (free with compiled_free()), or a negative errno
 * with the reason in d.
 */
int supervise_learn_base(const struct arch *native, struct diag *d, struct compiled *ret);

/*
 * Run argv under c->profile as a supervised child and wait for it. The
 * child does run_exec()'s whole sequence (argv[0] resolved there) with the
 * transformed program of supervise_program() installed; the parent takes
 * its listener and decides each notification with c->policy (run mode's
 * own calls before execve() as c->prog would answer them). Returns the
 * command's exit status (128+N for a signal N, SUPERVISE_KILL_STATUS when a
 * kill-process decision ended it), or a negative errno and *ret_fail when
 * the command did not run (or, with --learn, ran but its profile could not
 * be written): the supervisor's own failures are in d; the child's (the
 * run-mode steps) it printed itself, to stderr, as run mode prints them.
 */
int supervise_run(const struct supervise_opts *o, const struct compiled *c, char *const argv[],
		  struct diag *d, enum run_failure *ret_fail);
