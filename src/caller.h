/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The caller's state that must not leak into the command (scmp-run(1),
 * Caller state): file descriptors, signal dispositions and mask,
 * environment, session, session keyring, the parent-death signal kept
 * across the user switch, and the uid-0 guard.
 */
#pragma once

#include <pwd.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "diag.h"

#define CALLER_KEEP_FDS_MAX 256	 /* entries in [process] keep-fds */
#define CALLER_ENV_MAX	    1024 /* entries in [environment] keep and set, each */

/* What the uid-0 guard says (caller_check_root(), --check). */
#define CALLER_ROOT_HINT \
	"running as root: add [credentials] user = ..., or user = root to keep root"

/* [process] and [environment]: what the profile asks for. */
struct caller_settings {
	bool keep_all_fds; /* keep-fds = all */
	int *keep_fds;	   /* keep-fds = 3 7: descriptors >= 3, owned */
	size_t n_keep_fds;
	bool reset_signals;	  /* default yes */
	bool new_session;	  /* default no */
	bool new_session_keyring; /* default yes */
	bool env_clear;		  /* default no */
	char **env_keep;	  /* names kept by clear = yes, owned */
	size_t n_env_keep;
	char **env_set; /* "NAME=VALUE", applied last in order, owned */
	size_t n_env_set;
};

/* The defaults of scmp-run.ini(5): close descriptors, reset signals, keep
 * the environment, no new session, a new session keyring. */
#define CALLER_SETTINGS_INIT                                       \
	{                                                          \
		.reset_signals = true, .new_session_keyring = true \
	}

/* Frees what s owns and sets it back to CALLER_SETTINGS_INIT. */
void caller_settings_clear(struct caller_settings *s);

/*
 * Parsers for the list keys of [process] and [environment] (scmp-run.ini(5)
 * SECTIONS; the booleans reset-signals, new-session, new-session-keyring
 * and clear are the
 * loader's plain booleans). Each takes the value as written, returns 0, or
 * -EINVAL / -ERANGE with a static message in *reterr (s is then
 * unchanged), or -ENOMEM. Each assignment adds to what is there.
 *
 * [process] keep-fds = 3 7 ... | all   descriptor numbers >= 3, or 'all'
 * [environment] keep = NAME ...
 * [environment] set = NAME=VALUE      one entry per key; VALUE may be empty
 *                                      and may hold blanks and '='
 */
int caller_parse_keep_fds(struct caller_settings *s, const char *value, const char **reterr);
int caller_parse_env_keep(struct caller_settings *s, const char *value, const char **reterr);
int caller_parse_env_set(struct caller_settings *s, const char *value, const char **reterr);

/* True if name can be an environment variable name here: not empty, no
 * '=', no blanks or control characters. */
bool caller_env_name_valid(const char *name);

/*
 * What s does with the caller's state, for --check and -v: five lines,
 * "descriptors: ...", "signals: ...", "session: ...", "session keyring:
 * ...", "environment: ...",
 * each ending in a newline, written to f; "(default)" marks a built-in
 * default. listen_n: the socket-activation descriptors run mode keeps
 * (caller_listen_fds()), or -1 where that is not known (--check). user: the
 * target user as written when credentials change, else NULL.
 */
void caller_describe(const struct caller_settings *s, long listen_n, const char *user, FILE *f);

/* True if listen_pid (the value of LISTEN_PID, or NULL) is pid written as
 * plain decimal digits: the one test of whose socket-activation variables
 * they are. */
bool caller_listen_pid_is(const char *listen_pid, pid_t pid);

/*
 * systemd socket activation (sd_listen_fds(3)): the number of descriptors
 * from 3 that are ours to pass on. listen_pid and listen_fds are the
 * values of LISTEN_PID and LISTEN_FDS (NULL if unset), self our pid.
 * LISTEN_PID unset, not a plain decimal number or another process's pid:
 * 0 (the variables are not meant for us). LISTEN_PID == self and
 * LISTEN_FDS unset, empty, not plain decimal digits or more than
 * INT_MAX - 3: -EINVAL with a static message in *reterr (fail closed: a
 * service manager that says the descriptors are ours must say how many).
 */
int caller_listen_fds(const char *listen_pid, const char *listen_fds, pid_t self, unsigned *ret_n,
		      const char **reterr);

/*
 * Mark every descriptor >= 3 close-on-exec, except 3 .. 2+listen_n and the
 * ones s keeps (all of them with keep-fds = all). Nothing is closed now, so
 * descriptors the launcher still needs stay usable until execve(); kept
 * descriptors are left as they are (one already close-on-exec still closes
 * at execve). Uses close_range(CLOSE_RANGE_CLOEXEC) (Linux 5.11), else
 * walks /proc/self/fd, else every number below the hard RLIMIT_NOFILE.
 * Returns 0 or a negative errno with the failed step in d.
 */
int caller_close_fds(const struct caller_settings *s, unsigned listen_n, struct diag *d);

/*
 * Reset every ignored signal to the default disposition and empty the
 * signal mask; caught signals keep their handlers until execve(), which
 * resets them (only SIG_IGN survives execve()). The ignored set is read
 * from /proc/self/status. Returns 0 or a negative errno with the failed
 * step in d.
 */
int caller_reset_signals(struct diag *d);

/*
 * Keep a file-size limit (scmp-run.ini(5) LIMITS) from killing scmp-run
 * with SIGXFSZ when it writes its own messages: SIGXFSZ is caught by a
 * handler that does nothing, so the write fails with EFBIG instead;
 * execve() resets the handler, and the command gets the default. With
 * keep_ignored (no reset-signals), an ignored SIGXFSZ is left as it is, for
 * the command; without, the handler replaces it too, which
 * caller_reset_signals() then leaves alone. Returns 0 or a negative errno
 * with the failed step in d.
 */
int caller_guard_xfsz(bool keep_ignored, struct diag *d);

/* setsid(). Returns 0 or a negative errno (EPERM: this process leads a
 * process group) with a message and a hint in d. */
int caller_new_session(struct diag *d);

/*
 * Join a new, empty session keyring (keyctl(KEYCTL_JOIN_SESSION_KEYRING)
 * with no name), owned by the current fsuid. The caller's session keyring
 * survives execve() and a user switch, and whoever holds it as a session
 * keyring "possesses" its keys: it may read them whatever its uid
 * (keyrings(7)). A kernel without keys (ENOSYS), or an outer filter that
 * answers keyctl() with ENOSYS or EPERM, is accepted only when looking up
 * the session keyring fails with the same errno. Returns 0 or a negative
 * errno with the failed step in d.
 */
int caller_new_session_keyring(struct diag *d);

/* The parent-death signal the caller set (PR_SET_PDEATHSIG) and the
 * parent it is for. */
struct caller_pdeath {
	int sig; /* 0: none */
	pid_t parent;
};

/* Read the parent-death signal into *p, before the credential switch,
 * which clears it. Returns 0 or a negative errno with the step in d. */
int caller_pdeath_save(struct caller_pdeath *p, struct diag *d);

/*
 * Set the parent-death signal of p again after the switch. A parent that
 * died in between (getppid() changed) would have sent it: it is sent now,
 * to this process. Returns 0 or a negative errno with the step in d.
 */
int caller_pdeath_restore(const struct caller_pdeath *p, struct diag *d);

/* The target user's passwd entry, for the environment. found false: the
 * uid has no entry (the four variables are then removed). */
struct caller_user {
	bool found;
	char *name, *home, *shell; /* owned */
};

/* u becomes a copy of the passwd entry pw (its strings owned by u; what u
 * held before is freed). Returns 0 or -ENOMEM (u then empty). */
int caller_user_set(const struct passwd *pw, struct caller_user *u);

/* Whether the group database has a group called name (getgrnam(3)); a
 * caller that takes numbers checks them first. */
bool caller_group_known(const char *name);

void caller_user_clear(struct caller_user *u);

/*
 * Apply [environment] to this process's environment (environ), in the
 * order of scmp-run.ini(5): clear = yes keeps only the names in keep; then,
 * when u is not NULL (credentials change), HOME, USER, LOGNAME and SHELL
 * from u (an empty shell is /bin/sh as in passwd(5); without an entry the
 * four are removed); then every set entry. Returns 0 or a negative errno
 * (-EINVAL for an invalid entry, -ENOMEM) with a message in d.
 */
int caller_env_apply(const struct caller_settings *s, const struct caller_user *u, struct diag *d);

/*
 * The uid-0 guard. runs_as_root: the command would run with real or
 * effective uid 0. explicit_user: the profile (or --user) names the user,
 * and that user is what makes it root. Returns 0, or -EPERM with the error
 * and the hint "running as root: add [credentials] user = ..., or user =
 * root to keep root" in d.
 */
int caller_check_root(bool runs_as_root, bool explicit_user, struct diag *d);
