/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Run mode: caller state, switch credentials, drop capabilities (libcap-ng),
 * resolve the command as the target user, set NO_NEW_PRIVS, kernel checks,
 * install the seccomp filter and execve().
 */
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <linux/capability.h>
#include <linux/seccomp.h>
#include <linux/securebits.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "caller.h"
#include "capname.h"
#include "caps.h"
#include "hardening.h"
#include "kernel-check.h"
#include "landlock.h"
#include "memstream.h"
#include "number.h"
#include "rlimits.h"
#include "sim.h"

/* Linux 5.19 uapi, newer than some build hosts' headers. */
#ifndef SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
#define SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (1UL << 5)
#endif

/* execvp() falls back to confstr(_CS_PATH) ("/bin:/usr/bin" on glibc) when
 * PATH is unset; we use the wider list that shells and systemd use. */
#define RUN_DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"

#define RUN_PWBUF_MAX (1u << 20) /* getpwnam_r() buffer limit on ERANGE growth */

static const char *errno_name(int err)
{
	const char *n = strerrorname_np(err);

	return n ? n : "unknown errno";
}

static const char *cap_name(int cap)
{
	const char *n = capname_of(cap);

	return n ? n : "unknown capability";
}

/* ---- command resolution ---- */

/* 0 if path is an executable regular file; else a positive errno
 * (EACCES also for directories and other non-regular files, as execve()). */
static int check_executable(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return errno;
	if (!S_ISREG(st.st_mode))
		return S_ISDIR(st.st_mode) ? EISDIR : EACCES;
	/* AT_EACCESS: check with the effective ids, as execve() does. */
	if (faccessat(AT_FDCWD, path, X_OK, AT_EACCESS) < 0)
		return errno;
	return 0;
}

/* Is err "not there" for a PATH candidate (the search goes on without
 * remembering it)? */
static bool err_absent(int err)
{
	return err == ENOENT || err == ENOTDIR || err == ENAMETOOLONG || err == ELOOP;
}

/* cmd could not be used; path is the file that err is about: a PATH
 * candidate, named so that a typed name is not blamed for a file (or an
 * unsearchable directory) found in its place. */
static void report_unusable(const char *cmd, const char *path, int err, struct diag *d,
			    enum run_failure *ret_fail)
{
	bool own = !path || !strcmp(path, cmd);

	if (err_absent(err)) {
		diag_error(d, NULL, "'%s': command not found", cmd);
		*ret_fail = RUN_FAIL_NOT_FOUND;
	} else if (err == EISDIR && own) {
		diag_error(d, NULL, "'%s': is a directory, not an executable", cmd);
		*ret_fail = RUN_FAIL_NOT_EXECUTABLE;
	} else if (err == EISDIR) {
		diag_error(d, NULL, "'%s': found '%s', a directory, not an executable", cmd, path);
		*ret_fail = RUN_FAIL_NOT_EXECUTABLE;
	} else if (own) {
		diag_error(d, NULL, "'%s': cannot execute: %s (%s)", cmd, strerror(err),
			   errno_name(err));
		*ret_fail = RUN_FAIL_NOT_EXECUTABLE;
	} else {
		diag_error(d, NULL, "'%s': cannot execute '%s': %s (%s)", cmd, path, strerror(err),
			   errno_name(err));
		if (err == EACCES)
			diag_hint(d, NULL,
				  "PATH is searched as the user the command runs as: a directory "
				  "of PATH that user may not search is refused as execvp(3) "
				  "refuses it");
		*ret_fail = RUN_FAIL_NOT_EXECUTABLE;
	}
}

/* Append cand (NULL: out of memory) to the NULL-terminated list *v of n. */
static int push_candidate(char ***v, size_t *n, char *cand)
{
	char **nv;

	if (!cand)
		return -ENOMEM;
	nv = realloc(*v, (*n + 2) * sizeof(**v));
	if (!nv) {
		free(cand);
		return -ENOMEM;
	}
	nv[(*n)++] = cand;
	nv[*n] = NULL;
	*v = nv;
	return 0;
}

/* Every usable candidate for cmd on PATH, in order, into *v; the first
 * "found but unusable" error in *first_err (execvp() keeps EACCES), and
 * that candidate in *first_path (malloc'ed). */
static int search_path(const char *cmd, char ***v, size_t *n, int *first_err, char **first_path)
{
	const char *path_env = getenv("PATH"), *p;
	size_t cmd_len = strlen(cmd);

	if (!path_env)
		path_env = RUN_DEFAULT_PATH;
	for (p = path_env;; p = strchrnul(p, ':') + 1) {
		const char *end = strchrnul(p, ':');
		const char *dir = p;
		size_t dir_len = (size_t)(end - p);
		char *cand;
		int err;

		/* An empty entry means the current directory (POSIX, execvp()). */
		if (dir_len == 0) {
			dir = ".";
			dir_len = 1;
		}
		if (dir_len + 1 + cmd_len + 1 <= PATH_MAX) {
			if (asprintf(&cand, "%.*s/%s", (int)dir_len, dir, cmd) < 0)
				return -ENOMEM;
			err = check_executable(cand);
			if (!err && push_candidate(v, n, cand) < 0)
				return -ENOMEM;
			/* Found but unusable: remembered, the search goes on. */
			if (err && !err_absent(err) && !*first_err) {
				*first_err = err;
				*first_path = cand;
			} else if (err) {
				free(cand);
			}
		}
		if (!*end)
			return 0;
	}
}

void run_candidates_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

char **run_resolve_candidates(const char *cmd, struct diag *d, enum run_failure *ret_fail)
{
	int first_err = 0, r = 0;
	char **v = NULL, *first_path = NULL;
	size_t n = 0;

	*ret_fail = RUN_FAIL_NONE;
	if (!cmd || !*cmd) {
		report_unusable("", NULL, ENOENT, d, ret_fail);
		return NULL;
	}
	if (strchr(cmd, '/')) {
		first_err = check_executable(cmd);
		if (!first_err)
			r = push_candidate(&v, &n, strdup(cmd));
	} else {
		r = search_path(cmd, &v, &n, &first_err, &first_path);
	}
	if (r < 0) {
		run_candidates_free(v);
		free(first_path);
		diag_error(d, NULL, "out of memory");
		*ret_fail = RUN_FAIL_SETUP;
		return NULL;
	}
	if (!n)
		report_unusable(cmd, first_path, first_err ? first_err : ENOENT, d, ret_fail);
	free(first_path);
	return v;
}

/* ---- checks of the command line against the profile ---- */

/* The filter must let our own execve() of the command through: simulated
 * on this machine's ABI with the arguments execve() will get. */
static int check_self_exec(const struct profile *p, const struct bpf_prog *prog, const char *path,
			   char *const argv[], struct diag *d)
{
	const struct arch *native = arch_native();
	const struct src_loc file = { .file = p->path };
	struct seccomp_data sd = { .arch = native->audit_arch };
	struct sim_result res = { 0 };
	uint32_t nr;
	char buf[64];

	if (syscalls_lookup_name(native, "execve", &nr) < 0)
		return 0;
	sd.nr = (int)nr;
	sd.args[0] = (uintptr_t)path;
	sd.args[1] = (uintptr_t)argv;
	sd.args[2] = (uintptr_t)environ;
	if (sim_run(prog->insns, prog->len, &sd, &res) < 0) {
		diag_error(d, NULL,
			   "the seccomp program is invalid: it fails in the simulator on the "
			   "execve() of the command");
		return -EINVAL;
	}
	if (res.ret == SECCOMP_RET_ALLOW || res.ret == SECCOMP_RET_LOG)
		return 0;
	/* located at the profile: the program is all there is here, and
	 * --check, which decides on the policy, names the rule */
	diag_error(d, &file, "the filter would stop the execve() of the command itself (%s)",
		   action_format_ret(res.ret, native, buf, sizeof(buf)));
	diag_hint(d, &file,
		  "allow 'execve' in the profile ('--check' names the rule that stops it)");
	return -EPERM;
}

int run_prepare(const struct profile *p, const struct bpf_prog *prog, char *const argv[],
		struct diag *d)
{
	const struct src_loc file = { .file = p->path };
	const struct src_loc *at = ruleset_notify_at(p->rs, &file);

	/* The notify action hands a call to a supervisor; run mode has none,
	 * so a notified call would fail with ENOSYS (seccomp(2),
	 * SECCOMP_RET_USER_NOTIF). Located at the rule, as --check does. */
	if (at) {
		diag_error(d, at, "the 'notify' action needs a supervisor; run mode has none");
		return -EINVAL;
	}
	/* The filter sees only the values of the pointers, not the path: a
	 * profile that stops every execve() is refused here, before anything
	 * changes; run_exec() checks the final call again. */
	return check_self_exec(p, prog, argv[0], argv, d);
}

/* ---- caller state: scmp-run(1) Caller state (the steps live in caller.c) ---- */

int run_describe(const struct profile *p, struct diag *d)
{
	const struct src_loc loc = { .file = p->path };
	const char *err;
	unsigned listen_n = 0;
	char *text = NULL;
	FILE *f;

	/* A LISTEN_FDS that run_exec() will refuse is reported there. */
	if (caller_listen_fds(getenv("LISTEN_PID"), getenv("LISTEN_FDS"), getpid(), &listen_n,
			      &err) < 0)
		listen_n = 0;
	f = memstream_open(&text);
	if (!f)
		return -ENOMEM;
	caller_describe(&p->caller, listen_n, p->has_user ? p->user : NULL, f);
	capname_describe_keep(p->keep_caps, p->n_keep_caps, p->ambient, f);
	if (memstream_close(f, &text) < 0)
		return -ENOMEM;
	diag_note_lines(d, &loc, text);
	if (p->has_user)
		diag_note(d, &p->user_loc, "the command runs as user '%s'", p->user);
	free(text);
	return 0;
}

/* ---- helpers ---- */

#define CAPBIT(c) ((uint64_t)1 << (c))

static int step_failed(struct diag *d, const char *step, int err)
{
	diag_error(d, NULL, "%s failed: %s (%s)", step, strerror(err), errno_name(err));
	return -err;
}

/* What run_exec() will do, decided before anything changes. */
struct run_plan {
	bool set_uid, set_gid;
	uid_t uid;
	gid_t gid;
	gid_t *groups; /* supplementary groups, the primary first, each once (owned);
			   * NULL: the primary group alone */
	size_t n_groups;
	uint64_t keep;	      /* capabilities kept: profile keep and permitted at start */
	uint64_t ambient;     /* raised as ambient (subset of keep) */
	bool keepcaps_locked; /* SECBIT_KEEP_CAPS_LOCKED: no PR_SET_KEEPCAPS */
	unsigned long seccomp_flags;
};

/* (uid_t)-1 and (gid_t)-1 mean "leave unchanged" to setresuid(2),
 * setresgid(2) and chown(2): no process can be switched to them. */
#define RUN_ID_UNCHANGED UINT32_MAX

/* Digits only, but too large for an id: refused here with the reason, not
 * looked up as a name (kind: "user" or "group"). */
static bool id_out_of_range(const char *s, const char *kind, const struct src_loc *loc,
			    struct diag *d)
{
	char msg[NUMBER_ID_MSG_MAX];

	if (!number_id_range_error(s, kind, msg, sizeof(msg)))
		return false;
	diag_error(d, loc, "%s", msg);
	return true;
}

/* The entry of name in the kind ("user", "group") database gives field
 * ("user id", ...) as id: true, with a located error, if no process can be
 * switched to it. */
static bool id_unchanged(uint32_t id, const char *kind, const char *name, const char *field,
			 const struct src_loc *loc, struct diag *d)
{
	if (id != RUN_ID_UNCHANGED)
		return false;
	diag_error(d, loc,
		   "%s '%s' has %s %u in the %s database, which the kernel takes as "
		   "'unchanged': it cannot be switched to",
		   kind, name, field, RUN_ID_UNCHANGED, kind);
	return true;
}

/* Look up a user: name or number. A number without a passwd entry is
 * allowed only together with an explicit group (there is no primary group
 * to take). The entry found is copied to *user for the environment: one
 * lookup serves both. Returns 0 or a negative errno with a message in d. */
static int resolve_user(const struct profile *p, struct run_plan *plan, struct caller_user *user,
			struct diag *d)
{
	struct passwd pw, *res = NULL;
	size_t size = 1024;
	char *buf = NULL;
	uint32_t num;
	bool is_num = number_parse_id(p->user, &num);
	int r;

	if (!is_num && id_out_of_range(p->user, "user", &p->user_loc, d))
		return -ERANGE;
	for (;;) {
		char *nbuf = realloc(buf, size);

		if (!nbuf) {
			r = -ENOMEM;
			diag_error(d, &p->user_loc, "out of memory");
			goto out;
		}
		buf = nbuf;
		r = is_num ? getpwuid_r(num, &pw, buf, size, &res)
			   : getpwnam_r(p->user, &pw, buf, size, &res);
		if (r != ERANGE || size >= RUN_PWBUF_MAX)
			break;
		size *= 2;
	}
	if (r != 0 && r != ENOENT && r != ESRCH && r != EBADF && r != EPERM) {
		diag_error(d, &p->user_loc, "looking up user '%s' failed: %s (%s)", p->user,
			   strerror(r), errno_name(r));
		r = -r;
		goto out;
	}
	plan->set_uid = true;
	if (res && (id_unchanged(res->pw_uid, "user", p->user, "user id", &p->user_loc, d) ||
		    (!p->has_group && id_unchanged(res->pw_gid, "user", p->user, "primary group id",
						   &p->user_loc, d)))) {
		r = -ERANGE;
		goto out;
	}
	if (res) {
		plan->uid = res->pw_uid;
		plan->gid = res->pw_gid;
		plan->set_gid = true;
		r = caller_user_set(res, user);
		if (r < 0)
			diag_error(d, &p->user_loc, "out of memory");
	} else if (is_num) {
		plan->uid = num;
		if (!p->has_group) {
			diag_error(d, &p->user_loc,
				   "user id %u has no passwd entry, so it has no primary group: "
				   "set 'group' as well",
				   num);
			r = -EINVAL;
			goto out;
		}
		r = 0;
	} else {
		diag_error(d, &p->user_loc, "unknown user '%s'", p->user);
		r = -ENOENT;
	}
out:
	free(buf);
	return r;
}

/* A group id by name or number (a number needs no group entry); loc is
 * where the group was written. 0 or a negative errno with a message in d. */
static int lookup_group(const char *name, const struct src_loc *loc, gid_t *ret, struct diag *d)
{
	struct group gr, *res = NULL;
	size_t size = 1024;
	char *buf = NULL;
	uint32_t num;
	int r;

	if (number_parse_id(name, &num)) {
		*ret = num;
		return 0;
	}
	if (id_out_of_range(name, "group", loc, d))
		return -ERANGE;
	for (;;) {
		char *nbuf = realloc(buf, size);

		if (!nbuf) {
			free(buf);
			diag_error(d, loc, "out of memory");
			return -ENOMEM;
		}
		buf = nbuf;
		r = getgrnam_r(name, &gr, buf, size, &res);
		if (r != ERANGE || size >= RUN_PWBUF_MAX)
			break;
		size *= 2;
	}
	if (res && id_unchanged(res->gr_gid, "group", name, "group id", loc, d)) {
		r = -ERANGE;
	} else if (res) {
		*ret = res->gr_gid;
		r = 0;
	} else if (r != 0 && r != ENOENT && r != ESRCH && r != EBADF && r != EPERM) {
		diag_error(d, loc, "looking up group '%s' failed: %s (%s)", name, strerror(r),
			   errno_name(r));
		r = -r;
	} else {
		diag_error(d, loc, "unknown group '%s'", name);
		r = -ENOENT;
	}
	free(buf);
	return r;
}

/* groups[0..n) with g appended unless it is there already. */
static void groups_add(gid_t *groups, size_t *n, gid_t g)
{
	for (size_t i = 0; i < *n; i++)
		if (groups[i] == g)
			return;
	groups[(*n)++] = g;
}

/* The user's groups of the group database, as initgroups(3) would set
 * them (the primary group included), into plan->groups. */
static int init_groups(const struct profile *p, const struct caller_user *user,
		       struct run_plan *plan, struct diag *d)
{
	int n = PROFILE_SUPP_GROUPS_MAX;
	long max = sysconf(_SC_NGROUPS_MAX);

	if (!user->found) {
		diag_error(d, &p->supp_loc,
			   "supplementary-groups = init needs a user with a passwd entry: the "
			   "groups are looked up by the user's name");
		return -EINVAL;
	}
	for (;;) {
		gid_t *g = realloc(plan->groups, (size_t)n * sizeof(*g));
		int want = n;

		if (!g) {
			diag_error(d, &p->supp_loc, "out of memory");
			return -ENOMEM;
		}
		plan->groups = g;
		if (getgrouplist(user->name, plan->gid, g, &want) >= 0) {
			plan->n_groups = 0;
			for (int i = 0; i < want; i++) {
				if (g[i] == RUN_ID_UNCHANGED) {
					diag_error(d, &p->supp_loc,
						   "the group database gives user '%s' group id "
						   "%u, which the kernel takes as 'unchanged'",
						   user->name, RUN_ID_UNCHANGED);
					return -ERANGE;
				}
				groups_add(g, &plan->n_groups, g[i]);
			}
			return 0;
		}
		if (want <= n || (max > 0 && want > max)) {
			diag_error(d, &p->supp_loc,
				   "looking up the groups of user '%s' failed: %d groups, the "
				   "kernel takes at most %ld",
				   user->name, want, max);
			return -E2BIG;
		}
		n = want;
	}
}

/* [credentials] supplementary-groups into plan->groups: the primary group
 * first, then each group named (scmp-run.ini(5)). Without the key,
 * plan->groups stays NULL: the primary group alone. */
static int resolve_supp_groups(const struct profile *p, const struct caller_user *user,
			       struct run_plan *plan, struct diag *d)
{
	if (!p->supp_init && !p->n_supp_groups)
		return 0;
	if (!plan->set_gid) {
		diag_error(d, &p->supp_loc,
			   "supplementary-groups needs [credentials] user or group: the groups "
			   "are set when the credentials are switched");
		return -EINVAL;
	}
	if (p->supp_init)
		return init_groups(p, user, plan, d);
	plan->groups = malloc((p->n_supp_groups + 1) * sizeof(*plan->groups));
	if (!plan->groups) {
		diag_error(d, &p->supp_loc, "out of memory");
		return -ENOMEM;
	}
	plan->groups[0] = plan->gid;
	plan->n_groups = 1;
	for (unsigned i = 0; i < p->n_supp_groups; i++) {
		gid_t g;
		int r = lookup_group(p->supp_groups[i], &p->supp_loc, &g, d);

		if (r < 0)
			return r;
		groups_add(plan->groups, &plan->n_groups, g);
	}
	return 0;
}

/*
 * SECBIT_KEEP_CAPS_LOCKED makes the kernel refuse PR_SET_KEEPCAPS, and
 * execve() cleared SECBIT_KEEP_CAPS itself: leaving uid 0 then clears the
 * permitted set (capabilities(7), "Effect of user ID changes"). Fine when
 * nothing is kept (switch_credentials() drops the bounding set first);
 * refused, before anything changes, when something is.
 */
static int check_keepcaps_lock(const struct profile *p, struct run_plan *plan, struct diag *d)
{
	const struct src_loc *at = p->keep_loc.file ? &p->keep_loc : NULL;
	uid_t ru, eu, su;
	int bits;

	if (!plan->set_uid || plan->uid == 0)
		return 0;
	bits = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
	if (bits < 0)
		return step_failed(d, "reading the securebits", errno);
	plan->keepcaps_locked = bits & SECBIT_KEEP_CAPS_LOCKED;
	if (!plan->keepcaps_locked || !plan->keep)
		return 0;
	if (getresuid(&ru, &eu, &su) < 0)
		return step_failed(d, "reading the user ids", errno);
	if (ru != 0 && eu != 0 && su != 0)
		return 0; /* no uid 0 to leave: nothing is cleared */
	diag_error(d, at,
		   "[capabilities] keep needs the capabilities kept across the switch from root to "
		   "user '%s', and SECBIT_KEEP_CAPS_LOCKED is set for this process: the kernel "
		   "refuses PR_SET_KEEPCAPS, and the switch would clear them",
		   p->user);
	diag_hint(d, at,
		  "start scmp-run without that securebit, or keep no capability (the switch "
		  "needs none kept)");
	return -EPERM;
}

/* Everything that can be checked without changing the process. */
static int plan_build(const struct profile *p, const struct bpf_prog *prog, struct diag *d,
		      struct run_plan *plan, struct caller_user *user)
{
	const struct filter_attrs *attrs = &p->rs->attrs;
	struct caps_sets now = { 0 };
	uint64_t want = 0;
	int r;

	memset(plan, 0, sizeof(*plan));
	if (!prog || !prog->insns || prog->len == 0 || prog->len > BPF_PROG_MAX) {
		diag_error(d, NULL, "the seccomp program has %zu instructions (1..%u allowed)",
			   prog ? prog->len : 0, BPF_PROG_MAX);
		return -EINVAL;
	}
	for (unsigned i = 0; i < p->n_keep_caps; i++) {
		if (p->keep_caps[i] < 0 || p->keep_caps[i] > 63) {
			diag_error(d, NULL, "capability number %d is out of range",
				   p->keep_caps[i]);
			return -EINVAL;
		}
		want |= CAPBIT(p->keep_caps[i]);
	}
	r = caps_read(&now);
	if (r < 0)
		return step_failed(d, "reading the capabilities of this process", -r);

	/* keep is an upper bound: a capability the caller does not have
	 * cannot be kept, and asking for it is not an error (it cannot
	 * weaken the sandbox; the command simply runs without it). */
	plan->keep = want & now.prm;
	if (p->ambient)
		plan->ambient = plan->keep;

	/* seccomp(2): without no_new_privs the caller needs CAP_SYS_ADMIN
	 * (in its user namespace) when the filter is installed, i.e. after
	 * the drop: it must be kept, and held. */
	if (!attrs->no_new_privs && !(plan->keep & CAPBIT(CAP_SYS_ADMIN))) {
		const struct src_loc *at = attrs->nnp_loc.file ? &attrs->nnp_loc : NULL;

		if (!(want & CAPBIT(CAP_SYS_ADMIN)))
			diag_error(d, at, "%s", CAPS_NNP_NEEDS_SYS_ADMIN);
		else
			diag_error(d, at,
				   "no-new-privs = no needs CAP_SYS_ADMIN, and this process does "
				   "not have it: the kernel would refuse the seccomp filter");
		diag_hint(d, at, "%s", CAPS_NNP_HINT);
		return -EACCES;
	}

	if (p->has_user && p->user) {
		r = resolve_user(p, plan, user, d);
		if (r < 0)
			return r;
	}
	if (p->has_group && p->group) {
		r = lookup_group(p->group, &p->group_loc, &plan->gid, d);
		if (r < 0)
			return r;
		plan->set_gid = true;
	}
	r = resolve_supp_groups(p, user, plan, d);
	if (r < 0)
		return r;
	r = check_keepcaps_lock(p, plan, d);
	if (r < 0)
		return r;
	if ((plan->set_gid && !(now.eff & CAPBIT(CAP_SETGID))) ||
	    (plan->set_uid && !(now.eff & CAPBIT(CAP_SETUID)))) {
		diag_error(d, p->has_user ? &p->user_loc : &p->group_loc,
			   "switching credentials failed: this process lacks %s",
			   plan->set_uid && !(now.eff & CAPBIT(CAP_SETUID)) ? "CAP_SETUID"
									    : "CAP_SETGID");
		diag_hint(d, NULL,
			  "[credentials] needs CAP_SETUID and CAP_SETGID: run scmp-run "
			  "as root, or remove the section");
		return -EPERM;
	}

	if (attrs->tsync)
		plan->seccomp_flags |= SECCOMP_FILTER_FLAG_TSYNC;
	if (attrs->log)
		plan->seccomp_flags |= SECCOMP_FILTER_FLAG_LOG;
	if (attrs->spec_allow)
		plan->seccomp_flags |= SECCOMP_FILTER_FLAG_SPEC_ALLOW;
	return 0;
}

/* ---- (a) credentials ---- */

/*
 * The supplementary groups read back are exactly want[0..n), in any order
 * (setgroups(2) sorts them). The list the kernel holds is read whole: one
 * more slot than expected catches a longer one.
 */
static bool groups_read_back(const gid_t *want, size_t n)
{
	gid_t small[2], *got = n < 2 ? small : malloc((n + 1) * sizeof(*got));
	bool same;
	int k;

	if (!got)
		return false;
	k = getgroups((int)n + 1, got);
	same = k >= 0 && (size_t)k == n;
	for (int i = 0; same && i < k; i++) {
		bool found = false;

		for (size_t j = 0; j < n && !found; j++)
			found = got[i] == want[j];
		same = found;
	}
	if (got != small)
		free(got);
	return same;
}

/* The bounding set reduced to plan->keep, if this process may (CAP_SETPCAP
 * effective); else it is left to drop_capabilities(), which refuses it
 * without no_new_privs. 0 or -errno. */
static int drop_bounding_now(const struct run_plan *plan)
{
	struct caps_sets now = { 0 };
	int r = caps_read(&now);

	if (r < 0)
		return r;
	return now.eff & CAPBIT(CAP_SETPCAP) ? caps_drop_bounding(plan->keep) : 0;
}

/*
 * Supplementary groups are the primary group and what [credentials]
 * supplementary-groups names, nothing else: inheriting the caller's groups
 * (root's, typically), or taking the user's from /etc/group unasked
 * (initgroups), would grant access the profile does not state.
 */
static int switch_credentials(const struct run_plan *plan, struct diag *d)
{
	const gid_t *groups = plan->groups ? plan->groups : &plan->gid;
	size_t n_groups = plan->groups ? plan->n_groups : 1;
	uid_t ru, eu, su;
	gid_t rg, eg, sg;
	int r = 0;

	if (!plan->set_gid && !plan->set_uid)
		return 0;
	if (setgroups(n_groups, groups) < 0)
		return step_failed(d, "setting supplementary groups", errno);
	if (setresgid(plan->gid, plan->gid, plan->gid) < 0)
		return step_failed(d, "setting the group id", errno);
	if (plan->set_uid) {
		/* Without KEEPCAPS, leaving uid 0 clears the permitted set
		 * (capabilities(7), "Effect of user ID changes"); the kept
		 * capabilities are re-established in the next step. Staying
		 * or becoming uid 0 clears no capability set: no KEEPCAPS.
		 * KEEPCAPS locked: check_keepcaps_lock() made sure no kept
		 * capability needs it, but CAP_SETPCAP may go with the
		 * switch, so the bounding set is dropped now. */
		bool keep = plan->uid != 0 && !plan->keepcaps_locked;

		if (plan->uid != 0 && plan->keepcaps_locked) {
			r = drop_bounding_now(plan);
			if (r < 0)
				return step_failed(d, "dropping the capability bounding set", -r);
		}

		if (keep && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0)
			return step_failed(d, "keeping capabilities across the user change", errno);
		if (setresuid(plan->uid, plan->uid, plan->uid) < 0)
			r = step_failed(d, "setting the user id", errno);
		if (keep && prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) < 0 && r == 0)
			r = step_failed(d, "resetting keep-capabilities", errno);
		if (r < 0)
			return r;
	}

	/* Read back: fail closed on any difference. */
	if (getresgid(&rg, &eg, &sg) < 0 || getresuid(&ru, &eu, &su) < 0)
		return step_failed(d, "reading back the credentials", errno);
	if (rg != plan->gid || eg != plan->gid || sg != plan->gid ||
	    !groups_read_back(groups, n_groups) ||
	    (plan->set_uid && (ru != plan->uid || eu != plan->uid || su != plan->uid))) {
		diag_error(d, NULL,
			   "switching credentials failed: the ids read back differ "
			   "from the requested ones");
		return -EPERM;
	}
	return 0;
}

/* ---- (b) capabilities ---- */

static int drop_capabilities(const struct run_plan *plan, bool nnp, struct diag *d)
{
	struct caps_sets now = { 0 }, got = { 0 };
	const char *step;
	bool can_bound;
	int r;

	r = caps_read(&now);
	if (r < 0)
		return step_failed(d, "reading the capabilities of this process", -r);
	/* Nothing held and nothing asked for (an unprivileged caller): no
	 * set can change, and the ambient set is empty already (the kernel
	 * keeps it within permitted and inheritable). Under no_new_privs the
	 * bounding set needs no check either (see the end). */
	if (nnp && !(now.eff | now.prm | now.inh) && !plan->keep && !plan->ambient)
		return 0;
	/* Reducing the bounding set needs CAP_SETPCAP in the effective set;
	 * after a user change with KEEPCAPS it is only permitted. */
	can_bound = now.prm & CAPBIT(CAP_SETPCAP);

	r = caps_set(plan->keep, can_bound, &step);
	if (r < 0)
		return step_failed(d, step, -r);

	/* Ambient: cleared always (the caller's own ambient set must not
	 * leak through), then raised for the kept ones if asked. */
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 &&
	    (errno != EINVAL || plan->ambient))
		return step_failed(d, "clearing ambient capabilities", errno);
	for (int c = 0; c < 64; c++) {
		if ((plan->ambient & CAPBIT(c)) &&
		    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, c, 0, 0) < 0) {
			r = step_failed(d, "raising ambient capabilities", errno);
			if (r == -EPERM)
				diag_hint(d, NULL,
					  "SECBIT_NO_CAP_AMBIENT_RAISE may be set "
					  "for this process");
			return r;
		}
	}

	/* Verify: nothing outside keep may remain in any set. */
	r = caps_read(&got);
	if (r < 0)
		return step_failed(d, "reading back capabilities", -r);
	if (got.eff != plan->keep || got.prm != plan->keep || got.inh != plan->keep) {
		diag_error(d, NULL,
			   "dropping capabilities failed: read back effective %#llx permitted "
			   "%#llx inheritable %#llx, expected %#llx",
			   (unsigned long long)got.eff, (unsigned long long)got.prm,
			   (unsigned long long)got.inh, (unsigned long long)plan->keep);
		return -EPERM;
	}
	/* The bounding and ambient sets need no read-back when the kernel
	 * said yes to each step: every capability outside keep up to the
	 * kernel's last one was dropped from the bounding set (a drop of one
	 * that is not there succeeds too), the ambient set was cleared, and
	 * each ambient capability asked for was raised. Without CAP_SETPCAP
	 * the bounding set stays as the caller left it: harmless under
	 * no_new_privs (execve() can then never add capabilities beyond the
	 * verified permitted set), refused without it. */
	if (can_bound || nnp)
		return 0;
	for (int c = 0; c < 64; c++) {
		int in_bset = prctl(PR_CAPBSET_READ, c, 0, 0, 0);

		if (in_bset < 0) {
			if (errno == EINVAL && c > 0)
				return 0; /* beyond the kernel's last capability */
			return step_failed(d, "reading the capability bounding set", errno);
		}
		if (in_bset && !(plan->keep & CAPBIT(c))) {
			diag_error(d, NULL,
				   "dropping capabilities failed: %s is still in the "
				   "bounding set",
				   cap_name(c));
			diag_hint(d, NULL,
				  "reducing the bounding set needs CAP_SETPCAP; "
				  "with no-new-privs = no it must be reduced");
			return -EPERM;
		}
	}
	return 0;
}

/* ---- (d) seccomp ---- */

static int install_filter(const struct run_plan *plan, const struct bpf_prog *prog,
			  const struct run_hook *hook, const struct kcheck_readback *rb,
			  struct diag *d)
{
	struct sock_fprog fprog = {
		.len = (unsigned short)prog->len,
		.filter = prog->insns,
	};
	unsigned long flags = plan->seccomp_flags;
	long r;
	int err;

	if (hook) {
		r = hook->installing(hook->data, kcheck_readback_unnotified(rb, prog));
		if (r < 0)
			return step_failed(d, "preparing the supervisor's listener", (int)-r);
		/* TSYNC and NEW_LISTENER both use the return value: the
		 * kernel takes them together only with TSYNC_ESRCH (5.7). A
		 * call the supervisor has taken waits for its answer, which
		 * a signal would otherwise cut short (EINTR instead of the
		 * profile's errno, no kill-process): WAIT_KILLABLE_RECV, from
		 * Linux 5.19; an older kernel says EINVAL, and the install is
		 * made again without it. */
		flags |= SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV;
		if (flags & SECCOMP_FILTER_FLAG_TSYNC)
			flags |= SECCOMP_FILTER_FLAG_TSYNC_ESRCH;
	}
	r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &fprog);
	err = errno;
	if (hook && r < 0 && err == EINVAL) {
		flags &= ~SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV;
		r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &fprog);
		err = errno;
	}
	if (hook && r >= 0) {
		hook->installed(hook->data, (int)r, rb->status_fd);
		return 0;
	}
	if (r > 0) {
		/* TSYNC: the id of a thread that could not be synchronised (it
		 * has a diverging filter or no_new_privs state). */
		diag_error(d, NULL,
			   "installing the seccomp filter failed: thread %ld could not "
			   "be synchronised (tsync)",
			   r);
		return -ESRCH;
	}
	if (r == 0)
		return 0;

	r = step_failed(d, "installing the seccomp filter", err);
	switch (err) {
	case EINVAL:
		if (plan->seccomp_flags)
			diag_hint(d, NULL,
				  "the kernel may be too old for a filter flag "
				  "(tsync: Linux 3.17, log: 4.14, spec-allow: 4.17), or "
				  "it rejected the program (see --export-bpf)");
		else
			diag_hint(d, NULL,
				  "the kernel rejected the program (see --export-bpf) "
				  "or is too old for seccomp filters (Linux 3.5)");
		break;
	case EACCES:
		diag_hint(d, NULL,
			  "the kernel requires no_new_privs or CAP_SYS_ADMIN to "
			  "install a filter");
		break;
	case EFAULT:
		diag_hint(d, NULL, "the program was not readable by the kernel (internal error)");
		break;
	case ENOMEM:
		diag_hint(d, NULL,
			  "the filters already attached to this process and this one "
			  "exceed the kernel's limit of 32768 instructions in total");
		break;
	case ENOSYS:
		diag_hint(d, NULL,
			  "the kernel was built without seccomp filter support "
			  "(CONFIG_SECCOMP_FILTER)");
		break;
	case ESRCH:
		diag_hint(d, NULL,
			  "tsync: a thread could not be synchronised (it has a diverging "
			  "filter or no_new_privs state)");
		break;
	default:
		break;
	}
	return (int)r;
}

/* ---- (e) kernel checks: scmp-run(1), Kernel checks (kernel-check.c) ---- */

/* Does prog let this call through (allow or log)? */
static bool filter_allows(const struct bpf_prog *prog, const char *name, const uint64_t args[6])
{
	uint32_t ret;

	if (kcheck_predict(prog, name, args, &ret) < 0)
		return false;
	ret &= SECCOMP_RET_ACTION_FULL;
	return ret == SECCOMP_RET_ALLOW || ret == SECCOMP_RET_LOG;
}

/* May anything be written to fd 2 once the filter is installed? Only if
 * the filter lets write(2, ...) through for any buffer and length tried:
 * a message the filter kills or traps would turn the exit status into a
 * signal. Under a file-size limit, a write past it runs the SIGXFSZ
 * handler of caller_guard_xfsz(), which returns through rt_sigreturn: that
 * call too. The program is asked (not the policy): it is what the kernel
 * runs. */
static bool filter_allows_stderr(const struct bpf_prog *prog, bool fsize_limited)
{
	static const uint64_t lens[] = { 1, 4096, 65536 }, none[6];
	char probe;

	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		uint64_t args[6] = { 2, (uint64_t)(uintptr_t)&probe, lens[i] };

		if (!filter_allows(prog, "write", args))
			return false;
	}
	return !fsize_limited || filter_allows(prog, "rt_sigreturn", none);
}

/* Will a write be limited in size once [limits] is applied? Then
 * scmp-run's own messages need caller_guard_xfsz(); without a limit, no
 * call is spent on it. */
static bool fsize_limited(const struct rlimits_config *c)
{
	const struct rlimits_entry *e = &c->e[RLIMITS_FILE_SIZE];
	struct rlimit l;

	if (e->set)
		return e->soft != RLIM_INFINITY;
	return getrlimit(RLIMIT_FSIZE, &l) != 0 || l.rlim_cur != RLIM_INFINITY;
}

/* The steps of scmp-run(1) Caller state that are decided before anything
 * changes: the uid-0 guard, socket activation. (The target user's passwd
 * entry, for the environment, comes from plan_build().) */
static int caller_plan(const struct run_plan *plan, unsigned *ret_listen_n, struct diag *d)
{
	const char *err = NULL;
	int r;

	r = caller_check_root(plan->set_uid ? plan->uid == 0 : getuid() == 0 || geteuid() == 0,
			      plan->set_uid, d);
	if (r < 0)
		return r;
	r = caller_listen_fds(getenv("LISTEN_PID"), getenv("LISTEN_FDS"), getpid(), ret_listen_n,
			      &err);
	if (r < 0)
		diag_error(d, NULL, "socket activation: %s", err);
	return r;
}

/* The steps of scmp-run(1) Caller state that change the process:
 * descriptors (close-on-exec), signals, session, environment. */
static int caller_apply(const struct caller_settings *s, unsigned listen_n,
			const struct caller_user *user, struct diag *d)
{
	int r = caller_close_fds(s, listen_n, d);

	if (r == 0 && s->reset_signals)
		r = caller_reset_signals(d);
	if (r == 0 && s->new_session)
		r = caller_new_session(d);
	if (r == 0)
		r = caller_env_apply(s, user, d);
	return r;
}

/* execve() of each candidate in turn, going on after EACCES and ENOENT
 * as execvp() does: a refusal that checking the file before could not
 * see, such as Landlock's execute right (scmp-run(1) Run mode), or a
 * missing interpreter. The filter sees only the pointer of the path, so
 * its answer is that of the first, which was checked. Returns the errno
 * of the first candidate, or of the first later one that failed
 * otherwise, and that candidate in *ret_path. */
static int exec_candidates(char *const paths[], char *const argv[], const char **ret_path)
{
	int first;

	execve(paths[0], argv, environ);
	first = errno;
	*ret_path = paths[0];
	for (size_t i = 1; paths[i] && (errno == EACCES || errno == ENOENT); i++) {
		execve(paths[i], argv, environ);
		if (errno != EACCES && errno != ENOENT) {
			*ret_path = paths[i];
			return errno;
		}
	}
	return first;
}

int run_exec(const struct profile *p, const struct bpf_prog *prog, const char *cmd,
	     char *const argv[], struct diag *d, enum run_failure *ret_fail,
	     enum run_state *ret_state)
{
	return run_exec_hooked(p, prog, cmd, argv, NULL, d, ret_fail, ret_state);
}

int run_exec_hooked(const struct profile *p, const struct bpf_prog *prog, const char *cmd,
		    char *const argv[], const struct run_hook *hook, struct diag *d,
		    enum run_failure *ret_fail, enum run_state *ret_state)
{
	const struct bpf_prog *load = hook ? hook->load : prog;
	const bool nnp = p->rs->attrs.no_new_privs;
	struct landlock_plan ll = { .ruleset_fd = -1 };
	struct caller_user user = { 0 };
	struct caller_pdeath pdeath = { 0 };
	struct kcheck_readback rb = { .status_fd = -1 };
	unsigned listen_n = 0;
	bool may_print, guard_xfsz;
	char **paths = NULL, *path;
	const char *failed;
	struct run_plan plan = { 0 };
	int abi, r;

	*ret_fail = RUN_FAIL_SETUP;
	*ret_state = RUN_STATE_OPEN;
	r = plan_build(p, load, d, &plan, &user);
	if (r < 0)
		goto out;
	r = caller_plan(&plan, &listen_n, d);
	if (r < 0)
		goto out;

	/* [limits], then the [landlock] paths: both while the launcher still
	 * has its own credentials (scmp-run.ini(5) LIMITS, LANDLOCK). The
	 * ruleset fd is close-on-exec and survives the descriptor step,
	 * which only marks descriptors close-on-exec. */
	guard_xfsz = fsize_limited(&p->limits);
	r = guard_xfsz ? caller_guard_xfsz(!p->caller.reset_signals, d) : 0;
	if (r == 0)
		r = rlimits_apply(&p->limits, d);
	if (r < 0)
		goto out;
	/* mode = off enters no domain and needs no Landlock: a probe that
	 * an outer sandbox denies (EPERM) must not stop it (scmp-run.ini(5)
	 * LANDLOCK, Mode and kernel versions). */
	abi = p->landlock.mode == LANDLOCK_MODE_OFF ? 0 : landlock_abi_for(&p->landlock);
	if (abi < 0) {
		r = step_failed(d, "probing the Landlock ABI", -abi);
		goto out;
	}
	r = landlock_prepare(&p->landlock, abi, d, &ll);
	if (r < 0)
		goto out;
	/* Out of the low numbers: the read-back takes the lowest free
	 * descriptor the filter lets read through (a profile may allow read(2)
	 * on fd 3 only). Where the open-files limit leaves no room above, the
	 * ruleset stays where it is. */
	if (ll.ruleset_fd >= 0 && ll.ruleset_fd < 3 + KCHECK_FD_SEARCH_MAX) {
		int hi = fcntl(ll.ruleset_fd, F_DUPFD_CLOEXEC, 3 + KCHECK_FD_SEARCH_MAX);

		if (hi >= 0) {
			close(ll.ruleset_fd);
			ll.ruleset_fd = hi;
		}
	}

	/* Caller state, applied before the lookup below: PATH is the
	 * command's. */
	r = caller_apply(&p->caller, listen_n, plan.set_uid ? &user : NULL, d);
	if (r < 0)
		goto out;
	/* The environment is the command's now: a stack limit execve() could
	 * not start it under is refused while a message can be written. */
	r = rlimits_check_stack(&p->limits, argv, environ, d);
	if (r < 0)
		goto out;

	/* only a switch clears the parent-death signal: read it for one */
	if (plan.set_uid || plan.set_gid)
		r = caller_pdeath_save(&pdeath, d);
	if (r == 0)
		r = switch_credentials(&plan, d);
	free(plan.groups);
	plan.groups = NULL;
	/* The kernel clears the parent-death signal when the ids change
	 * (prctl(2), PR_SET_PDEATHSIG): the caller's is the command's all
	 * the same (scmp-run(1), Caller state). */
	if (r == 0)
		r = caller_pdeath_restore(&pdeath, d); /* none saved: nothing */
	/* After the switch: the new keyring is the target user's, and counts
	 * against that user's key quota (scmp-run(1), Caller state). */
	if (r == 0 && p->caller.new_session_keyring)
		r = caller_new_session_keyring(d);
	if (r < 0)
		goto out;

	r = drop_capabilities(&plan, nnp, d);
	if (r < 0)
		goto out;

	/* COMMAND is resolved and checked here, with exactly the ids, groups
	 * and effective capabilities that execve() will check it with (after
	 * the switch and the drop; no_new_privs and seccomp do not change
	 * file access): the launcher's own permissions (root's) would find
	 * files the target user cannot execute. 126 and 127 are decided
	 * before the filter is installed; the filter is asked again about
	 * this very execve(), with the final path and environment. */
	paths = run_resolve_candidates(cmd, d, ret_fail);
	if (!paths) {
		r = *ret_fail == RUN_FAIL_NOT_FOUND	   ? -ENOENT
		    : *ret_fail == RUN_FAIL_NOT_EXECUTABLE ? -EACCES
							   : -ENOMEM;
		goto out;
	}
	*ret_fail = RUN_FAIL_SETUP;
	path = paths[0];
	r = check_self_exec(p, prog, path, argv, d);
	if (r < 0)
		goto out;

	if (nnp) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
			r = step_failed(d, "setting no_new_privs", errno);
			goto out;
		}
		if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1) {
			diag_error(d, NULL, "setting no_new_privs failed: not set on read-back");
			r = -EPERM;
			goto out;
		}
	}

	/* Kernel checks before loading: every action of the program loaded
	 * is available; the read-back is prepared (it opens
	 * /proc/self/status now). */
	r = kcheck_actions_available(load, d);
	if (r == 0)
		r = kcheck_readback_prepare(prog, &rb, d);
	if (r < 0)
		goto out;
	may_print = filter_allows_stderr(prog, guard_xfsz);

	/* The domain right before the filter: entering it is a syscall the
	 * filter might deny (scmp-run.ini(5) LANDLOCK). */
	r = landlock_enforce(&ll, d);
	if (r < 0)
		goto out;

	/* memory-deny-write-execute by the kernel: prctl() may be a call the
	 * filter denies (scmp-run.ini(5) HARDENING). */
	r = hardening_apply(&p->rs->hardening, d);
	if (r < 0)
		goto out;

	r = install_filter(&plan, load, hook, &rb, d);
	if (r < 0)
		goto out;

	/* The filter is in place: nothing but the read-back runs before
	 * execve(), and the caller prints nothing unless may_print. */
	*ret_state = may_print ? RUN_STATE_FILTERED : RUN_STATE_MUTE;
	r = kcheck_readback_verify(&rb, d);
	if (r < 0)
		return r;
	if (hook) {
		r = hook->executing(hook->data);
		if (r < 0)
			return r; /* the hook's own failure, unprinted (it knows why) */
	}
	r = exec_candidates(paths, argv, &failed);
	/* The command never runs unsandboxed. */
	*ret_fail = r == ENOENT ? RUN_FAIL_NOT_FOUND : RUN_FAIL_NOT_EXECUTABLE;
	diag_error(d, NULL, "executing '%s' failed: %s (%s)", failed, strerror(r), errno_name(r));
	if (r == EPERM || r == EACCES)
		diag_hint(d, NULL,
			  "the seccomp filter, a security module, the [landlock] paths "
			  "(exec needs read-exec) or the mount options (noexec) may refuse "
			  "execve");
	/* After the filter nothing is freed: the caller leaves with _exit(). */
	return -r;

out:
	/* the limit applies to the launcher's own steps after it, too */
	if (r == -EMFILE && p->limits.e[RLIMITS_OPEN_FILES].set)
		diag_hint(d, &p->limits.e[RLIMITS_OPEN_FILES].loc,
			  "open-files leaves scmp-run too few descriptors for its own steps "
			  "before the command (the Landlock ruleset, /proc/self/status): raise it");
	free(plan.groups);
	landlock_plan_close(&ll);
	kcheck_readback_close(&rb);
	caller_user_clear(&user);
	run_candidates_free(paths);
	return r;
}
