/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Caller state that must not leak into the command: descriptors, signals,
 * environment, session, session keyring, uid 0; and the parent-death signal,
 * which must not be lost (scmp-run(1), Caller state).
 */
#include "caller.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "number.h"
#include "proc-status.h"

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2) /* include/uapi/linux/close_range.h */
#endif

#define CALLER_FD_SCAN_MAX (1u << 20) /* the kernel's default fs.nr_open */

extern char **environ;

static const char *errno_name(int err)
{
	const char *n = strerrorname_np(err);

	return n ? n : "unknown errno";
}

static int step_failed(struct diag *d, const char *step, int err)
{
	diag_error(d, NULL, "%s failed: %s (%s)", step, strerror(err), errno_name(err));
	return -err;
}

static void strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void caller_settings_clear(struct caller_settings *s)
{
	free(s->keep_fds);
	strv_free(s->env_keep, s->n_env_keep);
	strv_free(s->env_set, s->n_env_set);
	*s = (struct caller_settings)CALLER_SETTINGS_INIT;
}

/* ---- parsers ---- */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Plain decimal digits into *ret (<= max). -EINVAL if not digits, -ERANGE
 * if larger than max. */
static int parse_decimal(const char *s, size_t len, unsigned long max, unsigned long *ret)
{
	unsigned long v = 0;

	if (len == 0)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		if (v > (max - (unsigned long)(s[i] - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	*ret = v;
	return 0;
}

int caller_parse_keep_fds(struct caller_settings *s, const char *value, const char **reterr)
{
	int fds[CALLER_KEEP_FDS_MAX];
	size_t n = 0;
	bool all = false;
	int *nv;

	for (const char *p = value;;) {
		const char *e;
		unsigned long v;
		int r;

		while (is_blank(*p))
			p++;
		if (!*p)
			break;
		for (e = p; *e && !is_blank(*e); e++)
			;
		if ((size_t)(e - p) == 3 && !strncasecmp(p, "all", 3)) {
			all = true;
		} else {
			r = parse_decimal(p, (size_t)(e - p), INT_MAX, &v);
			if (r == -EINVAL) {
				*reterr = "not a descriptor number or 'all'";
				return r;
			}
			if (r < 0) {
				*reterr = "descriptor number out of range";
				return r;
			}
			if (v < 3) {
				*reterr = "descriptors 0, 1 and 2 are always passed: list numbers "
					  ">= 3";
				return -ERANGE;
			}
			if (n + s->n_keep_fds >= CALLER_KEEP_FDS_MAX) {
				*reterr = "too many descriptors (256 at most)";
				return -ERANGE;
			}
			fds[n++] = (int)v;
		}
		p = e;
	}
	if (!all && n == 0) {
		*reterr = "no descriptor listed";
		return -EINVAL;
	}
	if (all && n > 0) {
		*reterr = "'all' and descriptor numbers together";
		return -EINVAL;
	}
	if (all) {
		s->keep_all_fds = true;
		return 0;
	}
	nv = realloc(s->keep_fds, (s->n_keep_fds + n) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	memcpy(nv + s->n_keep_fds, fds, n * sizeof(*fds));
	s->keep_fds = nv;
	s->n_keep_fds += n;
	return 0;
}

bool caller_env_name_valid(const char *name)
{
	if (!*name)
		return false;
	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		if (*c == '=' || *c <= ' ' || *c == 0x7f)
			return false;
	return true;
}

static int strv_add(char ***v, size_t *n, const char *s, size_t len)
{
	char **nv, *copy;

	if (*n >= CALLER_ENV_MAX)
		return -ERANGE;
	copy = strndup(s, len);
	if (!copy)
		return -ENOMEM;
	nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv) {
		free(copy);
		return -ENOMEM;
	}
	nv[(*n)++] = copy;
	*v = nv;
	return 0;
}

int caller_parse_env_keep(struct caller_settings *s, const char *value, const char **reterr)
{
	size_t n_old = s->n_env_keep, count = 0;
	int r = 0;

	/* Check every name first: a rejected value leaves s unchanged. */
	for (const char *p = value;;) {
		const char *e;
		char name[256];

		while (is_blank(*p))
			p++;
		if (!*p)
			break;
		for (e = p; *e && !is_blank(*e); e++)
			;
		if ((size_t)(e - p) >= sizeof(name)) {
			*reterr = "variable name too long (255 bytes at most)";
			return -ERANGE;
		}
		memcpy(name, p, (size_t)(e - p));
		name[e - p] = 0;
		if (!caller_env_name_valid(name)) {
			*reterr = "not a variable name (no '=', blanks or control characters)";
			return -EINVAL;
		}
		count++;
		p = e;
	}
	if (count == 0) {
		*reterr = "no variable name listed";
		return -EINVAL;
	}
	if (n_old + count > CALLER_ENV_MAX) {
		*reterr = "too many variable names (1024 at most)";
		return -ERANGE;
	}
	for (const char *p = value; r == 0;) {
		const char *e;

		while (is_blank(*p))
			p++;
		if (!*p)
			break;
		for (e = p; *e && !is_blank(*e); e++)
			;
		r = strv_add(&s->env_keep, &s->n_env_keep, p, (size_t)(e - p));
		p = e;
	}
	if (r < 0) {
		for (size_t i = n_old; i < s->n_env_keep; i++)
			free(s->env_keep[i]);
		s->n_env_keep = n_old;
	}
	return r;
}

int caller_parse_env_set(struct caller_settings *s, const char *value, const char **reterr)
{
	const char *eq = strchr(value, '=');
	char name[256];

	if (!eq) {
		*reterr = "not NAME=VALUE";
		return -EINVAL;
	}
	if ((size_t)(eq - value) >= sizeof(name)) {
		*reterr = "variable name too long (255 bytes at most)";
		return -ERANGE;
	}
	memcpy(name, value, (size_t)(eq - value));
	name[eq - value] = 0;
	if (!caller_env_name_valid(name)) {
		*reterr = "not a variable name before '=' (no blanks or control characters)";
		return -EINVAL;
	}
	if (s->n_env_set >= CALLER_ENV_MAX) {
		*reterr = "too many set entries (1024 at most)";
		return -ERANGE;
	}
	return strv_add(&s->env_set, &s->n_env_set, value, strlen(value));
}

/* ---- what the settings do ---- */

static void describe_fds(const struct caller_settings *s, long listen_n, FILE *f)
{
	const char *sep = ", except";
	bool any = false;

	if (s->keep_all_fds) {
		fputs("descriptors: all passed on (keep-fds = all)\n", f);
		return;
	}
	fputs("descriptors: closed from 3 up", f);
	if (listen_n < 0)
		fputs(", except those of socket activation (LISTEN_FDS)", f);
	else if (listen_n == 1)
		fputs(", except 3 (socket activation)", f);
	else if (listen_n > 1)
		fprintf(f, ", except 3..%ld (socket activation)", 2 + listen_n);
	if (listen_n)
		sep = " and";
	/* In ascending order, each once: the next larger number each time. */
	for (long last = -1;;) {
		long next = LONG_MAX;

		for (size_t i = 0; i < s->n_keep_fds; i++)
			if (s->keep_fds[i] > last && s->keep_fds[i] < next)
				next = s->keep_fds[i];
		if (next == LONG_MAX)
			break;
		fprintf(f, "%s %ld", any ? "" : sep, next);
		any = true;
		last = next;
	}
	fputs(any ? " (keep-fds)\n" : " (default)\n", f);
}

/* As run mode reads a user (digits are a uid): one without a passwd entry
 * has none of the four variables, caller_env_apply() removes them. */
static bool user_id_without_entry(const char *user)
{
	uint32_t id;

	return number_parse_id(user, &id) && !getpwuid(id);
}

/* What the user switch does to HOME, USER, LOGNAME and SHELL; nothing for
 * an id run mode refuses (--check warns about it at its line). */
static void describe_user_env(const char *user, FILE *f)
{
	if (!user || number_id_range_error(user, "user", NULL, 0))
		return;
	if (user_id_without_entry(user))
		fprintf(f, "; HOME USER LOGNAME SHELL removed (user id %s has no passwd entry)",
			user);
	else
		fprintf(f, "; HOME USER LOGNAME SHELL of user '%s'", user);
}

static void describe_env(const struct caller_settings *s, const char *user, FILE *f)
{
	bool dflt = !s->env_clear && !user && !s->n_env_set;

	fputs("environment: ", f);
	if (s->env_clear) {
		fputs("cleared", f);
		for (size_t i = 0; i < s->n_env_keep; i++)
			fprintf(f, "%s%s", i ? " " : " except ", s->env_keep[i]);
	} else {
		fputs("passed on", f);
	}
	describe_user_env(user, f);
	for (size_t i = 0; i < s->n_env_set; i++)
		fprintf(f, "%s%.*s", i ? " " : "; set ", (int)strcspn(s->env_set[i], "="),
			s->env_set[i]);
	fprintf(f, "%s\n", dflt ? " (default)" : "");
}

void caller_describe(const struct caller_settings *s, long listen_n, const char *user, FILE *f)
{
	describe_fds(s, listen_n, f);
	fputs(s->reset_signals ? "signals: dispositions and mask reset (default)\n"
			       : "signals: passed on (reset-signals = no)\n",
	      f);
	fputs(s->new_session ? "session: a new one (new-session = yes)\n"
			     : "session: the caller's (default)\n",
	      f);
	fputs(s->new_session_keyring ? "session keyring: a new one (default)\n"
				     : "session keyring: the caller's (new-session-keyring = no)\n",
	      f);
	describe_env(s, user, f);
}

/* ---- descriptors ---- */

bool caller_listen_pid_is(const char *listen_pid, pid_t pid)
{
	unsigned long v;

	return listen_pid && parse_decimal(listen_pid, strlen(listen_pid), INT_MAX, &v) == 0 &&
	       v == (unsigned long)pid;
}

int caller_listen_fds(const char *listen_pid, const char *listen_fds, pid_t self, unsigned *ret_n,
		      const char **reterr)
{
	unsigned long n;

	*ret_n = 0;
	/* Another process's variables (systemd checks LISTEN_PID the same
	 * way, sd_listen_fds(3)): not ours, nothing is kept. */
	if (!caller_listen_pid_is(listen_pid, self))
		return 0;
	if (!listen_fds) {
		*reterr = "LISTEN_PID is this process but LISTEN_FDS is not set";
		return -EINVAL;
	}
	if (parse_decimal(listen_fds, strlen(listen_fds), INT_MAX - 3, &n) < 0) {
		*reterr = "LISTEN_FDS is not a descriptor count (decimal digits, at most "
			  "INT_MAX - 3)";
		return -EINVAL;
	}
	*ret_n = (unsigned)n;
	return 0;
}

/* Set FD_CLOEXEC on one descriptor; EBADF (not open) is fine. */
static int cloexec_one(int fd)
{
	int fl = fcntl(fd, F_GETFD);

	if (fl < 0)
		return errno == EBADF ? 0 : -errno;
	if (!(fl & FD_CLOEXEC) && fcntl(fd, F_SETFD, fl | FD_CLOEXEC) < 0)
		return -errno;
	return 0;
}

/* The fallbacks of cloexec_range() walk /proc/self/fd, or every number up
 * to the hard limit of open files (capped). */
static int cloexec_range_slow(unsigned lo, unsigned hi)
{
	DIR *dir = opendir("/proc/self/fd");
	struct rlimit rl;
	int r = 0;

	if (dir) {
		int self = dirfd(dir);
		struct dirent *de;

		/* readdir() returns NULL at the end and on an error: only
		 * errno tells them apart, and after an error the descriptors
		 * not listed yet would stay open. */
		for (errno = 0; (de = readdir(dir)); errno = 0) {
			unsigned long fd;

			if (parse_decimal(de->d_name, strlen(de->d_name), INT_MAX, &fd) < 0 ||
			    (int)fd == self || fd < lo || fd > hi)
				continue;
			r = cloexec_one((int)fd);
			if (r < 0)
				break;
		}
		if (!de && errno)
			r = -errno;
		closedir(dir);
		return r;
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -errno;
	if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max > CALLER_FD_SCAN_MAX)
		rl.rlim_max = CALLER_FD_SCAN_MAX;
	for (unsigned long fd = lo; fd <= hi && fd < rl.rlim_max; fd++) {
		r = cloexec_one((int)fd);
		if (r < 0)
			return r;
	}
	return 0;
}

static int cloexec_range(unsigned lo, unsigned hi)
{
	if (lo > hi)
		return 0;
	if (syscall(SYS_close_range, lo, hi, CLOSE_RANGE_CLOEXEC) == 0)
		return 0;
	/* ENOSYS: before Linux 5.9; EINVAL: the flag is from Linux 5.11. */
	if (errno != ENOSYS && errno != EINVAL)
		return -errno;
	return cloexec_range_slow(lo, hi);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int caller_close_fds(const struct caller_settings *s, unsigned listen_n, struct diag *d)
{
	int *keep = NULL;
	size_t n = 0;
	unsigned lo = 3;
	int r = 0;

	if (s->keep_all_fds)
		return 0;
	/* The kept numbers in order; socket activation's as one range. */
	if (s->n_keep_fds) {
		keep = malloc(s->n_keep_fds * sizeof(*keep));
		if (!keep)
			return step_failed(d, "closing inherited descriptors", ENOMEM);
		memcpy(keep, s->keep_fds, s->n_keep_fds * sizeof(*keep));
		n = s->n_keep_fds;
		qsort(keep, n, sizeof(*keep), cmp_int);
	}
	if (listen_n)
		lo = 3 + listen_n; /* caller_listen_fds() keeps this <= INT_MAX */
	for (size_t i = 0; i < n && r == 0; i++) {
		if (keep[i] < 3 || (unsigned)keep[i] < lo)
			continue;
		r = cloexec_range(lo, (unsigned)keep[i] - 1);
		lo = (unsigned)keep[i] + 1;
	}
	if (r == 0)
		r = cloexec_range(lo, UINT_MAX);
	free(keep);
	if (r < 0)
		return step_failed(d, "closing inherited descriptors", -r);
	return 0;
}

/* ---- signals ---- */

/* proc_status_feed()'s fn for read_sigign(): 1 with *ctx set for the
 * SigIgn line, -EINVAL for one that does not parse. */
static int sigign_line(void *ctx, const char *line, size_t len)
{
	static const char key[] = "SigIgn:\t";
	char *end;

	if (strncmp(line, key, sizeof(key) - 1))
		return 0;
	errno = 0;
	*(uint64_t *)ctx = strtoull(line + sizeof(key) - 1, &end, 16);
	return errno || end == line + sizeof(key) - 1 || *end ? -EINVAL : 1;
}

/* The SigIgn mask of /proc/self/status (bit N-1: signal N ignored), read
 * until its line: it may lie beyond the first read (proc-status.h). */
static int read_sigign(uint64_t *ret)
{
	struct proc_status_lines lines = { 0 };
	char buf[4096];
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC), r = 0;

	if (fd < 0)
		return -errno;
	while (r == 0) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : -ENOENT;
			break;
		}
		r = proc_status_feed(&lines, buf, (size_t)n, sigign_line, ret);
	}
	close(fd);
	return r < 0 ? r : 0;
}

int caller_reset_signals(struct diag *d)
{
	/* The kernel's struct sigaction, all zero: SIG_DFL, no flags, empty
	 * mask, whatever the architecture's field order; 64 bytes cover every
	 * layout. */
	static const unsigned char zero[64];
	const size_t sigset_bytes = (_NSIG - 1) / 8;
	uint64_t ign = 0;
	int r;

	/* execve() sets every caught signal to SIG_DFL and clears the flags
	 * and masks of all; only SIG_IGN survives it (signal(7)). So only the
	 * ignored signals are reset, found in one read instead of a call per
	 * signal; the raw call also reaches those the C library reserves for
	 * itself (32 and 33 with glibc), whose handlers execve() resets. */
	r = read_sigign(&ign);
	if (r < 0)
		return step_failed(d, "reading the ignored signals", -r);
	for (int sig = 1; sig < _NSIG && sig <= 64; sig++)
		if ((ign & (UINT64_C(1) << (sig - 1))) &&
		    syscall(SYS_rt_sigaction, sig, zero, NULL, sigset_bytes) < 0)
			return step_failed(d, "resetting signal dispositions", errno);
	if (syscall(SYS_rt_sigprocmask, SIG_SETMASK, zero, NULL, sigset_bytes) < 0)
		return step_failed(d, "emptying the signal mask", errno);
	return 0;
}

/* A handler that does nothing: the write that raised SIGXFSZ fails with
 * EFBIG, which the caller of write() sees. */
static void xfsz_ignore(int sig)
{
	(void)sig;
}

int caller_guard_xfsz(bool keep_ignored, struct diag *d)
{
	struct sigaction sa = { .sa_handler = xfsz_ignore, .sa_flags = SA_RESTART }, old;

	/* A caught signal is reset to SIG_DFL by execve(), SIG_IGN survives
	 * it (signal(7)): a handler, not SIG_IGN, leaves the command the
	 * default. An ignored SIGXFSZ already spares scmp-run: kept, it is put
	 * back for the command; else the handler takes its place, and the
	 * command gets the default reset-signals would give it. */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGXFSZ, &sa, keep_ignored ? &old : NULL) < 0)
		return step_failed(d, "catching SIGXFSZ", errno);
	if (keep_ignored && old.sa_handler == SIG_IGN && sigaction(SIGXFSZ, &old, NULL) < 0)
		return step_failed(d, "catching SIGXFSZ", errno);
	return 0;
}

/* ---- session ---- */

int caller_new_session(struct diag *d)
{
	int r;

	if (setsid() >= 0)
		return 0;
	r = step_failed(d, "starting a new session (setsid)", errno);
	if (r == -EPERM)
		diag_hint(d, NULL,
			  "scmp-run leads its process group (a shell with job control "
			  "started it): start it through setsid(1), or from a service "
			  "manager");
	return r;
}

/* ---- session keyring ---- */

/* keyctl(2) operations and the session keyring's id (linux/keyctl.h) */
#define CALLER_KEYCTL_GET_KEYRING_ID	   0
#define CALLER_KEYCTL_JOIN_SESSION_KEYRING 1
#define CALLER_KEY_SPEC_SESSION_KEYRING	   (-3)

int caller_new_session_keyring(struct diag *d)
{
	int err;

	/* No name: a new anonymous keyring, never one of another process. */
	if (syscall(SYS_keyctl, CALLER_KEYCTL_JOIN_SESSION_KEYRING, NULL, 0, 0, 0) >= 0)
		return 0;
	err = errno;
	/* Nothing to leak only if the command cannot reach a keyring either:
	 * the lookup it would start with fails the same way. */
	if ((err == ENOSYS || err == EPERM) &&
	    syscall(SYS_keyctl, CALLER_KEYCTL_GET_KEYRING_ID, CALLER_KEY_SPEC_SESSION_KEYRING, 0, 0,
		    0) < 0 &&
	    errno == err)
		return 0;
	err = step_failed(d, "joining a new session keyring", err);
	diag_hint(d, NULL,
		  "[process] new-session-keyring = no passes the caller's session keyring on, "
		  "with the keys in it");
	return err;
}

/* ---- parent-death signal ---- */

int caller_pdeath_save(struct caller_pdeath *p, struct diag *d)
{
	p->sig = 0;
	p->parent = getppid();
	if (prctl(PR_GET_PDEATHSIG, &p->sig, 0, 0, 0) < 0)
		return step_failed(d, "reading the parent-death signal", errno);
	return 0;
}

int caller_pdeath_restore(const struct caller_pdeath *p, struct diag *d)
{
	if (!p->sig)
		return 0;
	if (prctl(PR_SET_PDEATHSIG, p->sig, 0, 0, 0) < 0)
		return step_failed(d, "setting the parent-death signal again", errno);
	/* The parent died while none was set: the kernel sent nothing. */
	if (getppid() != p->parent && kill(getpid(), p->sig) < 0)
		return step_failed(d, "sending the parent-death signal", errno);
	return 0;
}

/* ---- environment ---- */

void caller_user_clear(struct caller_user *u)
{
	free(u->name);
	free(u->home);
	free(u->shell);
	memset(u, 0, sizeof(*u));
}

int caller_user_set(const struct passwd *pw, struct caller_user *u)
{
	caller_user_clear(u);
	u->name = strdup(pw->pw_name);
	u->home = strdup(pw->pw_dir);
	/* passwd(5): an empty shell field means /bin/sh. */
	u->shell = strdup(pw->pw_shell && *pw->pw_shell ? pw->pw_shell : "/bin/sh");
	if (!u->name || !u->home || !u->shell) {
		caller_user_clear(u);
		return -ENOMEM;
	}
	u->found = true;
	return 0;
}

bool caller_group_known(const char *name)
{
	return getgrnam(name) != NULL;
}

static bool keeps(const struct caller_settings *s, const char *entry)
{
	size_t len = strcspn(entry, "=");

	for (size_t i = 0; i < s->n_env_keep; i++)
		if (strlen(s->env_keep[i]) == len && !strncmp(s->env_keep[i], entry, len))
			return true;
	return false;
}

/* clear = yes: only the kept names stay. Builds the kept list before
 * clearing, so that nothing is lost on ENOMEM halfway. */
static int env_clear(const struct caller_settings *s, struct diag *d)
{
	char **kept = NULL;
	size_t n = 0;
	int r = 0;

	for (char **e = environ; e && *e; e++) {
		char **nk;

		if (!keeps(s, *e))
			continue;
		nk = realloc(kept, (n + 1) * sizeof(*nk));
		if (!nk || !(nk[n] = strdup(*e))) {
			kept = nk ? nk : kept;
			r = -ENOMEM;
			break;
		}
		kept = nk;
		n++;
	}
	if (r == 0 && clearenv() != 0)
		r = -ENOMEM;
	for (size_t i = 0; i < n && r == 0; i++) {
		char *eq = strchr(kept[i], '=');

		/* Entries without '=' are not variables; getenv() ignores them. */
		if (!eq)
			continue;
		*eq = 0;
		if (setenv(kept[i], eq + 1, 1) < 0)
			r = -errno;
	}
	strv_free(kept, n);
	if (r < 0)
		return step_failed(d, "clearing the environment", -r);
	return 0;
}

/* name=value, or name removed (value NULL). environ may hold a name twice
 * (execve(2) takes any array); setenv() replaces only the first entry, and
 * a program that reads the last one (a shell) would see the caller's value.
 * unsetenv() removes every entry of the name, so the one set is the only
 * one. */
static int env_set(const char *name, const char *value, struct diag *d)
{
	int r = unsetenv(name);

	if (r == 0 && value)
		r = setenv(name, value, 1);

	if (r < 0) {
		r = errno;
		diag_error(d, NULL, "setting the environment variable '%s' failed: %s (%s)", name,
			   strerror(r), errno_name(r));
		return -r;
	}
	return 0;
}

int caller_env_apply(const struct caller_settings *s, const struct caller_user *u, struct diag *d)
{
	int r;

	if (s->env_clear) {
		r = env_clear(s, d);
		if (r < 0)
			return r;
	}
	if (u) {
		const struct caller_user none = { 0 };
		const struct caller_user *e = u->found ? u : &none;

		if ((r = env_set("HOME", e->home, d)) < 0 ||
		    (r = env_set("USER", e->name, d)) < 0 ||
		    (r = env_set("LOGNAME", e->name, d)) < 0 ||
		    (r = env_set("SHELL", e->shell, d)) < 0)
			return r;
	}
	for (size_t i = 0; i < s->n_env_set; i++) {
		const char *entry = s->env_set[i], *eq = strchr(entry, '=');
		char name[256];

		/* The parser checked this; a settings struct filled another
		 * way is checked again (fail closed). */
		if (!eq || (size_t)(eq - entry) >= sizeof(name)) {
			diag_error(d, NULL, "environment entry '%s' is not NAME=VALUE", entry);
			return -EINVAL;
		}
		memcpy(name, entry, (size_t)(eq - entry));
		name[eq - entry] = 0;
		if (!caller_env_name_valid(name)) {
			diag_error(d, NULL, "environment entry '%s': '%s' is not a variable name",
				   entry, name);
			return -EINVAL;
		}
		r = env_set(name, eq + 1, d);
		if (r < 0)
			return r;
	}
	return 0;
}

/* ---- uid 0 ---- */

int caller_check_root(bool runs_as_root, bool explicit_user, struct diag *d)
{
	if (!runs_as_root || explicit_user)
		return 0;
	diag_error(d, NULL,
		   "the command would run as root (uid 0), and the profile does not say so");
	diag_hint(d, NULL, CALLER_ROOT_HINT);
	return -EPERM;
}
