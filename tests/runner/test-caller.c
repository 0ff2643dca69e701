/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * caller.c tests: the key parsers, socket activation, and the live steps
 * (descriptors, signals, environment, session, uid-0 guard) in children.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pwd.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "caller.h"
#include "filters.h"
#include "tests/tap.h"

extern char **environ;

/* Run fn in a child; returns its exit status (or 128 + signal). */
static int in_child(int (*fn)(void))
{
	pid_t pid = tap_fork();

	if (pid == 0)
		_exit(fn());
	return tap_wait(pid);
}

static void test_parsers(void)
{
	struct caller_settings s = CALLER_SETTINGS_INIT;
	const char *err = NULL;

	tap_ok(s.reset_signals && !s.new_session && s.new_session_keyring && !s.env_clear &&
		       !s.keep_all_fds && s.n_keep_fds == 0,
	       "defaults: reset signals, no session, a new session keyring, environment kept, "
	       "descriptors closed");

	tap_ok(caller_parse_keep_fds(&s, "3 7", &err) == 0 && s.n_keep_fds == 2 &&
		       s.keep_fds[0] == 3 && s.keep_fds[1] == 7,
	       "keep-fds = 3 7");
	tap_ok(caller_parse_keep_fds(&s, "\t9 ", &err) == 0 && s.n_keep_fds == 3,
	       "keep-fds adds to the list");
	tap_ok(caller_parse_keep_fds(&s, "2", &err) == -ERANGE && strstr(err, ">= 3") &&
		       s.n_keep_fds == 3,
	       "keep-fds = 2 refused: %s", err);
	tap_ok(caller_parse_keep_fds(&s, "3x", &err) == -EINVAL && s.n_keep_fds == 3,
	       "keep-fds = 3x refused: %s", err);
	tap_ok(caller_parse_keep_fds(&s, "-3", &err) == -EINVAL, "keep-fds = -3 refused");
	tap_ok(caller_parse_keep_fds(&s, "99999999999", &err) == -ERANGE,
	       "keep-fds over INT_MAX refused: %s", err);
	tap_ok(caller_parse_keep_fds(&s, "   ", &err) == -EINVAL, "keep-fds empty refused: %s",
	       err);
	tap_ok(caller_parse_keep_fds(&s, "all 3", &err) == -EINVAL, "keep-fds = all 3 refused: %s",
	       err);
	tap_ok(caller_parse_keep_fds(&s, "ALL", &err) == 0 && s.keep_all_fds, "keep-fds = all");

	tap_ok(caller_parse_env_keep(&s, "PATH TERM", &err) == 0 && s.n_env_keep == 2 &&
		       !strcmp(s.env_keep[1], "TERM"),
	       "keep = PATH TERM");
	tap_ok(caller_parse_env_keep(&s, "LANG A=B", &err) == -EINVAL && s.n_env_keep == 2,
	       "keep with a name holding '=' refused, nothing added: %s", err);
	tap_ok(caller_parse_env_keep(&s, "A\001B", &err) == -EINVAL,
	       "keep with a control character refused");
	tap_ok(caller_parse_env_keep(&s, "", &err) == -EINVAL, "keep empty refused");

	tap_ok(caller_parse_env_set(&s, "GREETING=hello world=1", &err) == 0 && s.n_env_set == 1 &&
		       !strcmp(s.env_set[0], "GREETING=hello world=1"),
	       "set = GREETING=hello world=1 (value with blanks and '=')");
	tap_ok(caller_parse_env_set(&s, "EMPTY=", &err) == 0 && s.n_env_set == 2,
	       "set = EMPTY= (empty value)");
	tap_ok(caller_parse_env_set(&s, "NOEQUALS", &err) == -EINVAL, "set without '=' refused: %s",
	       err);
	tap_ok(caller_parse_env_set(&s, "=x", &err) == -EINVAL, "set with an empty name refused");
	tap_ok(caller_parse_env_set(&s, "A B=x", &err) == -EINVAL && s.n_env_set == 2,
	       "set with a blank in the name refused: %s", err);

	caller_settings_clear(&s);
	tap_ok(s.reset_signals && s.n_env_set == 0 && !s.keep_fds, "clear: back to the defaults");
}

/* caller_describe() into a string. */
static char *describe(const struct caller_settings *s, long listen_n, const char *user)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	if (!f)
		abort();
	caller_describe(s, listen_n, user, f);
	if (fclose(f) != 0)
		abort();
	return text;
}

static void check_describe(const struct caller_settings *s, long listen_n, const char *user,
			   const char *want, const char *what)
{
	char *got = describe(s, listen_n, user);

	if (!tap_ok(!strcmp(got, want), "describe: %s", what))
		tap_diag("got:\n%swant:\n%s", got, want);
	free(got);
}

static void test_describe(void)
{
	struct caller_settings s = CALLER_SETTINGS_INIT;
	const char *err;

	check_describe(&s, -1, NULL,
		       "descriptors: closed from 3 up, except those of socket activation "
		       "(LISTEN_FDS) (default)\n"
		       "signals: dispositions and mask reset (default)\n"
		       "session: the caller's (default)\n"
		       "session keyring: a new one (default)\n"
		       "environment: passed on (default)\n",
		       "the defaults, as --check says them");
	check_describe(&s, 0, NULL,
		       "descriptors: closed from 3 up (default)\n"
		       "signals: dispositions and mask reset (default)\n"
		       "session: the caller's (default)\n"
		       "session keyring: a new one (default)\n"
		       "environment: passed on (default)\n",
		       "the defaults without socket activation");
	if (caller_parse_keep_fds(&s, "9 7 9", &err) < 0 ||
	    caller_parse_env_keep(&s, "PATH TERM", &err) < 0 ||
	    caller_parse_env_set(&s, "LANG=C.UTF-8", &err) < 0 ||
	    caller_parse_env_set(&s, "A=b=c", &err) < 0)
		abort();
	s.reset_signals = false;
	s.new_session = true;
	s.new_session_keyring = false;
	s.env_clear = true;
	check_describe(&s, 2, "nobody",
		       "descriptors: closed from 3 up, except 3..4 (socket activation) and 7 9 "
		       "(keep-fds)\n"
		       "signals: passed on (reset-signals = no)\n"
		       "session: a new one (new-session = yes)\n"
		       "session keyring: the caller's (new-session-keyring = no)\n"
		       "environment: cleared except PATH TERM; HOME USER LOGNAME SHELL of user "
		       "'nobody'; set LANG A\n",
		       "every setting changed, two socket-activation descriptors");
	check_describe(&s, 1, NULL,
		       "descriptors: closed from 3 up, except 3 (socket activation) and 7 9 "
		       "(keep-fds)\n"
		       "signals: passed on (reset-signals = no)\n"
		       "session: a new one (new-session = yes)\n"
		       "session keyring: the caller's (new-session-keyring = no)\n"
		       "environment: cleared except PATH TERM; set LANG A\n",
		       "one socket-activation descriptor, no user change");
	caller_settings_clear(&s);
	if (caller_parse_keep_fds(&s, "all", &err) < 0)
		abort();
	check_describe(&s, 0, NULL,
		       "descriptors: all passed on (keep-fds = all)\n"
		       "signals: dispositions and mask reset (default)\n"
		       "session: the caller's (default)\n"
		       "session keyring: a new one (default)\n"
		       "environment: passed on (default)\n",
		       "keep-fds = all");
	caller_settings_clear(&s);
	if (caller_parse_keep_fds(&s, "5", &err) < 0)
		abort();
	s.env_clear = true;
	check_describe(&s, 0, "root",
		       "descriptors: closed from 3 up, except 5 (keep-fds)\n"
		       "signals: dispositions and mask reset (default)\n"
		       "session: the caller's (default)\n"
		       "session keyring: a new one (default)\n"
		       "environment: cleared; HOME USER LOGNAME SHELL of user 'root'\n",
		       "keep-fds only, clear without keep");
	/* an id run mode refuses (warned about at its line) has no entry to
	 * describe */
	check_describe(&s, 0, "4294967295",
		       "descriptors: closed from 3 up, except 5 (keep-fds)\n"
		       "signals: dispositions and mask reset (default)\n"
		       "session: the caller's (default)\n"
		       "session keyring: a new one (default)\n"
		       "environment: cleared\n",
		       "a user id out of range: no variables described");
	caller_settings_clear(&s);
}

static void test_listen(void)
{
	const char *err = NULL;
	unsigned n = 99;

	tap_ok(caller_listen_fds(NULL, "2", 100, &n, &err) == 0 && n == 0,
	       "no LISTEN_PID: nothing kept");
	tap_ok(caller_listen_fds("101", "2", 100, &n, &err) == 0 && n == 0,
	       "another process's LISTEN_PID: nothing kept");
	tap_ok(caller_listen_fds("1x0", "2", 100, &n, &err) == 0 && n == 0,
	       "a LISTEN_PID that is no number: nothing kept");
	tap_ok(caller_listen_fds(" 100", "2", 100, &n, &err) == 0 && n == 0,
	       "a LISTEN_PID with a blank: nothing kept");
	tap_ok(caller_listen_fds("100", "2", 100, &n, &err) == 0 && n == 2, "ours: 2 kept");
	tap_ok(caller_listen_fds("100", "0", 100, &n, &err) == 0 && n == 0, "ours, 0: none");
	tap_ok(caller_listen_fds("100", NULL, 100, &n, &err) == -EINVAL,
	       "ours without LISTEN_FDS refused: %s", err);
	tap_ok(caller_listen_fds("100", "", 100, &n, &err) == -EINVAL,
	       "ours with an empty LISTEN_FDS refused");
	tap_ok(caller_listen_fds("100", "-1", 100, &n, &err) == -EINVAL,
	       "ours with LISTEN_FDS=-1 refused");
	tap_ok(caller_listen_fds("100", "2 ", 100, &n, &err) == -EINVAL,
	       "ours with a trailing blank refused");
	tap_ok(caller_listen_fds("100", "2147483645", 100, &n, &err) == -EINVAL,
	       "ours with LISTEN_FDS past INT_MAX - 3 refused");
	tap_ok(caller_listen_fds("100", "2147483644", 100, &n, &err) == 0 && n == 2147483644u,
	       "ours with LISTEN_FDS = INT_MAX - 3 accepted");
}

/* ---- descriptors: flags after caller_close_fds() ---- */

static bool cloexec(int fd)
{
	int fl = fcntl(fd, F_GETFD);

	return fl >= 0 && (fl & FD_CLOEXEC);
}

static int fds_default(void)
{
	struct caller_settings s = CALLER_SETTINGS_INIT;
	struct diag d;
	int bad = 0;

	diag_init(&d);
	for (int i = 3; i <= 9; i++)
		if (dup2(0, i) < 0)
			return 90;
	if (dup2(0, 200) < 0)
		return 90;
	if (caller_close_fds(&s, 2, &d) < 0)
		return 91;
	/* 3, 4: socket activation; the rest close at execve; 0-2 stay. */
	bad |= cloexec(3) || cloexec(4) || cloexec(0) || cloexec(1) || cloexec(2);
	for (int i = 5; i <= 9; i++)
		bad |= !cloexec(i);
	bad |= !cloexec(200);
	/* Still open now (the launcher may need them until execve). */
	bad |= fcntl(200, F_GETFD) < 0;
	return bad ? 1 : 0;
}

static int fds_keep(void)
{
	struct caller_settings s = CALLER_SETTINGS_INIT;
	const char *err;
	struct diag d;
	int bad = 0;

	diag_init(&d);
	for (int i = 3; i <= 9; i++)
		if (dup2(0, i) < 0)
			return 90;
	if (caller_parse_keep_fds(&s, "9 7 7", &err) < 0 || caller_close_fds(&s, 0, &d) < 0)
		return 91;
	bad |= cloexec(7) || cloexec(9);
	for (int i = 3; i <= 8; i++)
		if (i != 7)
			bad |= !cloexec(i);
	caller_settings_clear(&s);
	return bad ? 1 : 0;
}

static int fds_all(void)
{
	struct caller_settings s = CALLER_SETTINGS_INIT;
	const char *err;
	struct diag d;

	diag_init(&d);
	if (dup2(0, 5) < 0 || caller_parse_keep_fds(&s, "all", &err) < 0 ||
	    caller_close_fds(&s, 0, &d) < 0)
		return 91;
	return cloexec(5) ? 1 : 0;
}

/* The fallbacks of close_range(CLOSE_RANGE_CLOEXEC) (Linux 5.11): an
 * outer filter answers it with ENOSYS, as an older kernel does, and, with
 * getdents_errno, getdents64 (readdir() of /proc/self/fd) with that errno. */
#ifdef NATIVE_AUDIT_ARCH
static bool deny_close_range(int getdents_errno)
{
	struct sock_filter insns[] =
		TWO_CALLS_INSNS(__NR_close_range, SECCOMP_RET_ERRNO | ENOSYS, __NR_getdents64,
				SECCOMP_RET_ERRNO | (unsigned)getdents_errno);
	struct sock_fprog f = { .len = sizeof(insns) / sizeof(insns[0]), .filter = insns };

	/* errno 0 would fake success: allow getdents64 instead. */
	if (!getdents_errno)
		insns[6] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
	       syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &f) == 0;
}

/* Without close_range: descriptors are found in /proc/self/fd. */
static int fds_no_close_range(void)
{
	struct caller_settings s = CALLER_SETTINGS_INIT;
	struct diag d;

	diag_init(&d);
	if (dup2(0, 7) < 0 || dup2(0, 300) < 0 || !deny_close_range(0))
		return 90;
	if (caller_close_fds(&s, 0, &d) < 0)
		return 91;
	return cloexec(7) && cloexec(300) && !cloexec(0) ? 0 : 1;
}

/* ... and reading /proc/self/fd fails: refused, not a partial walk. */
static int fds_readdir_fails(void)
{
	struct caller_settings s = CALLER_SETTINGS_INIT;
	struct diag d;
	int r;

	diag_init(&d);
	if (dup2(0, 7) < 0 || !deny_close_range(EIO))
		return 90;
	r = caller_close_fds(&s, 0, &d);
	if (r == 0)
		return cloexec(7) ? 2 : 1; /* 1: descriptor 7 would leak */
	return r == -EIO && d.n_errors == 1 &&
			       strstr(d.msgs[0].text, "closing inherited descriptors failed")
		       ? 0
		       : 3;
}
#endif

/* ---- signals ---- */

/* The hex value after key in /proc/self/status, read to its end (the
 * Groups line before it can be longer than any one buffer). */
static unsigned long long status_hex(const char *key)
{
	FILE *f = fopen("/proc/self/status", "re");
	unsigned long long v = ~0ull;
	char *line = NULL;
	size_t size = 0;

	if (!f)
		return v;
	while (getline(&line, &size, f) > 0)
		if (!strncmp(line, key, strlen(key))) {
			v = strtoull(line + strlen(key), NULL, 16);
			break;
		}
	free(line);
	fclose(f);
	return v;
}

static int signals_reset(void)
{
	struct diag d;
	sigset_t set;

	diag_init(&d);
	signal(SIGINT, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGRTMIN + 3, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (status_hex("SigIgn:\t") == 0 || status_hex("SigBlk:\t") == 0)
		return 90; /* the setup did not take */
	if (caller_reset_signals(&d) < 0)
		return 91;
	return status_hex("SigIgn:\t") == 0 && status_hex("SigBlk:\t") == 0 ? 0 : 1;
}

/* As root: 2000 supplementary groups make the Groups line of
 * /proc/self/status longer than a page; SigIgn comes after it. */
static int signals_many_groups(void)
{
	static gid_t groups[2000];
	struct diag d;

	diag_init(&d);
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		groups[i] = (gid_t)(1000000 + i);
	if (geteuid() != 0)
		return 77;
	if (setgroups(sizeof(groups) / sizeof(groups[0]), groups) < 0)
		return 90;
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	/* the caller may ignore more (SIGHUP under nohup): those two at least */
	if ((~status_hex("SigIgn:\t") & (1ull << (SIGINT - 1) | 1ull << (SIGQUIT - 1))) != 0)
		return 91; /* the setup did not take */
	if (caller_reset_signals(&d) < 0)
		return 1;
	return status_hex("SigIgn:\t") == 0 ? 0 : 2;
}

/* ---- session ---- */

static int session_new(void)
{
	struct diag d;

	diag_init(&d);
	if (caller_new_session(&d) < 0)
		return 1;
	return getsid(0) == getpid() ? 0 : 2;
}

static int session_leader(void)
{
	struct diag d;
	int r;

	diag_init(&d);
	if (setpgid(0, 0) < 0)
		return 90;
	r = caller_new_session(&d);
	return r == -EPERM && d.n_msgs == 2 && strstr(d.msgs[1].text, "setsid(1)") ? 0 : 1;
}

/* ---- environment ---- */

static bool env_is(const char *name, const char *want)
{
	const char *v = getenv(name);

	if (!want)
		return !v;
	return v && !strcmp(v, want);
}

static int env_user(void)
{
	struct caller_settings s = CALLER_SETTINGS_INIT;
	struct caller_user u;
	const char *err;
	struct diag d;

	diag_init(&d);
	setenv("HOME", "/root-home", 1);
	setenv("SSH_AUTH_SOCK", "/tmp/agent", 1);
	setenv("SHELL", "/bin/zsh", 1);
	u = (struct caller_user){ true, strdup("svc"), strdup("/srv/svc"), strdup("/bin/sh") };
	if (caller_parse_env_set(&s, "HOME=/override", &err) < 0)
		return 91;
	if (caller_env_apply(&s, &u, &d) < 0)
		return 92;
	/* The four from the entry, set last wins, the rest untouched. */
	if (!env_is("HOME", "/override") || !env_is("USER", "svc") || !env_is("LOGNAME", "svc") ||
	    !env_is("SHELL", "/bin/sh") || !env_is("SSH_AUTH_SOCK", "/tmp/agent"))
		return 1;
	caller_user_clear(&u);
	caller_settings_clear(&s);
	return 0;
}

/* How many entries of environ are name=...? */
static size_t env_count(const char *name)
{
	size_t n = 0, len = strlen(name);

	for (char **e = environ; e && *e; e++)
		n += !strncmp(*e, name, len) && (*e)[len] == '=';
	return n;
}

/* A caller's environment that names HOME and FOO twice (execve() passes
 * any array): what the profile sets is the only entry, so a program that
 * reads the last one (a shell does) gets it too. */
static int env_duplicates(void)
{
	static char *dup[] = { "HOME=/first",  "FOO=caller1", "OTHER=x",
			       "HOME=/second", "FOO=caller2", NULL };
	struct caller_settings s = CALLER_SETTINGS_INIT;
	struct caller_user u;
	const char *err;
	struct diag d;

	diag_init(&d);
	environ = dup;
	u = (struct caller_user){ true, strdup("svc"), strdup("/srv/svc"), strdup("/bin/sh") };
	if (caller_parse_env_set(&s, "FOO=profile", &err) < 0)
		return 91;
	if (caller_env_apply(&s, &u, &d) < 0)
		return 92;
	if (env_count("HOME") != 1 || env_count("FOO") != 1 || !env_is("HOME", "/srv/svc") ||
	    !env_is("FOO", "profile") || !env_is("OTHER", "x"))
		return 1;
	caller_user_clear(&u);
	caller_settings_clear(&s);
	return 0;
}

static int env_no_entry(void)
{
	struct caller_settings s = CALLER_SETTINGS_INIT;
	struct caller_user u;
	struct diag d;

	diag_init(&d);
	setenv("HOME", "/root-home", 1);
	setenv("USER", "root", 1);
	/* uid 4242 is assumed to have no entry: checked */
	if (getpwuid(4242))
		return 77;
	u = (struct caller_user){ 0 };
	if (caller_env_apply(&s, &u, &d) < 0)
		return 92;
	return env_is("HOME", NULL) && env_is("USER", NULL) && env_is("LOGNAME", NULL) &&
			       env_is("SHELL", NULL)
		       ? 0
		       : 1;
}

static int env_clear_keep(void)
{
	struct caller_settings s = CALLER_SETTINGS_INIT;
	const char *err;
	struct diag d;
	size_t n = 0;

	diag_init(&d);
	setenv("KEEPME", "a=b", 1);
	setenv("DROPME", "x", 1);
	setenv("SSH_AUTH_SOCK", "/tmp/agent", 1);
	s.env_clear = true;
	if (caller_parse_env_keep(&s, "KEEPME MISSING", &err) < 0 ||
	    caller_parse_env_set(&s, "NEW=1", &err) < 0)
		return 91;
	/* No credential change: HOME and friends are not touched (gone). */
	if (caller_env_apply(&s, NULL, &d) < 0)
		return 92;
	for (char **e = environ; e && *e; e++)
		n++;
	caller_settings_clear(&s);
	return n == 2 && env_is("KEEPME", "a=b") && env_is("NEW", "1") && env_is("DROPME", NULL) &&
			       env_is("SSH_AUTH_SOCK", NULL) && env_is("MISSING", NULL)
		       ? 0
		       : 1;
}

static int env_bad_set(void)
{
	struct caller_settings s = CALLER_SETTINGS_INIT;
	char *bad[] = { "A B=1" };
	struct diag d;
	int r;

	diag_init(&d);
	/* Filled without the parser: checked again. */
	s.env_set = bad;
	s.n_env_set = 1;
	r = caller_env_apply(&s, NULL, &d);
	return r == -EINVAL && d.n_errors == 1 && env_is("A B", NULL) ? 0 : 1;
}

static void test_live(void)
{
	struct diag d;
	int st;

	tap_ok(in_child(fds_default) == 0,
	       "descriptors >= 3 close-on-exec, still open; LISTEN_FDS=2 keeps 3 and 4");
	tap_ok(in_child(fds_keep) == 0, "keep-fds = 9 7 7 keeps 7 and 9 only");
	tap_ok(in_child(fds_all) == 0, "keep-fds = all keeps everything");
#ifdef NATIVE_AUDIT_ARCH
	tap_ok(in_child(fds_no_close_range) == 0,
	       "without close_range: descriptors found in /proc/self/fd close-on-exec");
	st = in_child(fds_readdir_fails);
	tap_ok(st == 0, "without close_range, reading /proc/self/fd fails: refused (%d)", st);
#else
	tap_skip("close_range fallback: no test filter for this architecture");
	tap_skip("close_range fallback: no test filter for this architecture");
#endif
	tap_ok(in_child(signals_reset) == 0,
	       "ignored signals (also a real-time one) and the mask are reset");
	st = in_child(signals_many_groups);
	if (st == 77)
		tap_skip("2000 supplementary groups need root");
	else
		tap_ok(st == 0,
		       "ignored signals are reset with a status file longer than a page (%d)", st);
	tap_ok(in_child(session_new) == 0, "new session: the process leads it");
	tap_ok(in_child(session_leader) == 0,
	       "a process group leader: setsid EPERM, with the setsid(1) hint");
	tap_ok(in_child(env_user) == 0,
	       "user change: HOME/USER/LOGNAME/SHELL from the entry, set last, "
	       "SSH_AUTH_SOCK untouched");
	tap_ok(in_child(env_duplicates) == 0,
	       "a name twice in the caller's environment: the value set is the only one");
	st = in_child(env_no_entry);
	if (st == 77)
		tap_skip("uid 4242 has a passwd entry here");
	else
		tap_ok(st == 0, "user without passwd entry: the four variables are removed");
	tap_ok(in_child(env_clear_keep) == 0, "clear = yes, keep, set");
	tap_ok(in_child(env_bad_set) == 0, "an invalid set entry filled directly: refused");

	diag_init(&d);
	tap_ok(caller_check_root(true, false, &d) == -EPERM && d.n_msgs == 2 &&
		       !strcmp(d.msgs[1].text, "running as root: add [credentials] user = ..., "
					       "or user = root to keep root"),
	       "uid 0 without user = root: refused with the hint");
	diag_clear(&d);
	tap_ok(caller_check_root(true, true, &d) == 0 && d.n_msgs == 0,
	       "uid 0 with user = root: accepted");
	tap_ok(caller_check_root(false, false, &d) == 0 && d.n_msgs == 0,
	       "not root: nothing to say");
}

int main(void)
{
	test_parsers();
	test_describe();
	test_listen();
	test_live();
	return tap_done();
}
