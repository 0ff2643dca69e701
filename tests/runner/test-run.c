/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * run.c tests: PATH resolution, and live run_exec() cases, each in a forked
 * child whose exec'd program reports /proc/self/status back through a pipe.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pwd.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "filters.h"
#include "profile.h"
#include "run.h"
#include "tests/tap.h"

#define CAPBIT(c) ((uint64_t)1 << (c))

static const char *helper; /* argv[1]: the run-helper binary */

/* ---- small utilities ---- */

static struct profile *profile_make(void)
{
	struct profile *p = calloc(1, sizeof(*p));

	if (!p || !(p->rs = calloc(1, sizeof(*p->rs))))
		abort();
	p->path = (char *)"test.ini";
	p->rs->attrs.no_new_privs = true;
	p->caller = (struct caller_settings)CALLER_SETTINGS_INIT;
	/* As root, the uid-0 guard wants the user named: user = root. Cases
	 * about other users or an unprivileged caller change this. */
	p->has_user = true;
	p->user = "root";
	p->user_loc = (struct src_loc){ .file = "test.ini", .line = 10 };
	p->group_loc = (struct src_loc){ .file = "test.ini", .line = 11 };
	return p;
}

static void profile_drop(struct profile *p)
{
	free(p->rs);
	free(p);
}

static void keep(struct profile *p, int cap)
{
	p->keep_caps[p->n_keep_caps++] = cap;
}

static struct sock_filter allow_all_insns[] = {
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};
static const struct bpf_prog allow_all = { .insns = allow_all_insns, .len = 1 };

#ifdef NATIVE_AUDIT_ARCH

/* getppid() -> EPERM. */
static struct sock_filter getppid_insns[] = ONE_CALL_INSNS(__NR_getppid, SECCOMP_RET_ERRNO | EPERM);
static const struct bpf_prog getppid_eperm = { .insns = getppid_insns, .len = 6 };

/* write() -> EPERM. */
static struct sock_filter write_insns[] = ONE_CALL_INSNS(__NR_write, SECCOMP_RET_ERRNO | EPERM);
static const struct bpf_prog write_eperm = { .insns = write_insns, .len = 6 };

/* prctl() -> kill-process: a profile under which the read-back cannot ask
 * PR_GET_SECCOMP. */
static struct sock_filter prctl_kill_insns[] = ONE_CALL_INSNS(__NR_prctl, SECCOMP_RET_KILL_PROCESS);
static const struct bpf_prog prctl_kill = { .insns = prctl_kill_insns, .len = 6 };
#endif

/* An opcode seccomp_check_filter() does not know. */
static struct sock_filter bad_insns[] = {
	{ 0xffff, 0, 0, 0 },
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};
static const struct bpf_prog bad_prog = { .insns = bad_insns, .len = 2 };

/* BPF_PROG_MAX instructions: loads, then allow. */
static struct bpf_prog *big_prog(void)
{
	struct bpf_prog *b = malloc(sizeof(*b));

	if (!b || !(b->insns = calloc(BPF_PROG_MAX, sizeof(*b->insns))))
		abort();
	for (unsigned i = 0; i + 1 < BPF_PROG_MAX; i++)
		b->insns[i] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0);
	b->insns[BPF_PROG_MAX - 1] =
		(struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	b->len = BPF_PROG_MAX;
	return b;
}

/* The value of "Key:" in a /proc/PID/status text, trailing blanks cut. */
static const char *field(const char *text, const char *key, char *buf, size_t size)
{
	size_t klen = strlen(key);
	const char *s = text;

	while (s && *s) {
		if (!strncmp(s, key, klen) && s[klen] == ':') {
			const char *v = s + klen + 1, *e;
			size_t n;

			while (*v == '\t' || *v == ' ')
				v++;
			e = strchrnul(v, '\n');
			while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
				e--;
			n = (size_t)(e - v) < size - 1 ? (size_t)(e - v) : size - 1;
			memcpy(buf, v, n);
			buf[n] = 0;
			return buf;
		}
		s = strchr(s, '\n');
		if (s)
			s++;
	}
	return NULL;
}

static uint64_t hexfield(const char *text, const char *key)
{
	char buf[64];

	if (!field(text, key, buf, sizeof(buf)))
		return UINT64_MAX;
	return strtoull(buf, NULL, 16);
}

static bool field_is(const char *text, const char *key, const char *want)
{
	char buf[256];

	if (!field(text, key, buf, sizeof(buf))) {
		tap_diag("no field '%s'", key);
		return false;
	}
	if (strcmp(buf, want)) {
		tap_diag("%s: got '%s', want '%s'", key, buf, want);
		return false;
	}
	return true;
}

/* ---- running a case ---- */

struct outcome {
	int status;	       /* exit code, or 128 + signal */
	char *out;	       /* all the child wrote to stdout */
	char *after;	       /* after a failed run_exec: the child's own status, else NULL */
	int ret;	       /* run_exec()'s return if it returned, else 0 */
	enum run_failure fail; /* and what it said, if it returned */
	enum run_state state;
};

typedef void (*pre_fn)(void);

static void child_report(int r, enum run_failure fail, enum run_state state, const struct diag *d)
{
	FILE *f;
	char buf[4096];
	size_t n;

	printf("RUNFAIL %d %d %d\n", r, (int)fail, (int)state);
	for (size_t i = 0; i < d->n_msgs; i++)
		printf("MSG %d %s\n", (int)d->msgs[i].severity,
		       d->msgs[i].text ? d->msgs[i].text : "(null)");
	printf("AFTER\n");
	f = fopen("/proc/self/status", "r");
	if (f) {
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
			fwrite(buf, 1, n, stdout);
		fclose(f);
	}
	fflush(stdout);
}

static void run_case(const struct profile *p, const struct bpf_prog *prog, const char *path,
		     char *const argv[], pre_fn pre, struct outcome *o)
{
	int fds[2], wst;
	size_t len = 0, cap = 0;
	char *a;
	pid_t pid;

	memset(o, 0, sizeof(*o));
	fflush(stdout);
	if (pipe(fds) < 0)
		abort();
	pid = fork();
	if (pid < 0)
		abort();
	if (pid == 0) {
		enum run_failure fail = RUN_FAIL_NONE;
		enum run_state state = RUN_STATE_OPEN;
		struct diag d;
		int r;

		close(fds[0]);
		if (dup2(fds[1], 1) < 0)
			_exit(99);
		close(fds[1]);
		/* A pending alarm survives execve(): a hanging command dies. */
		alarm(60);
		if (pre)
			pre();
		diag_init(&d);
		r = run_exec(p, prog, path, argv, &d, &fail, &state);
		/* As main.c: a filter that may stop write(2) on fd 2 gets
		 * nothing but _exit() with the status. */
		if (state == RUN_STATE_MUTE)
			_exit(fail == RUN_FAIL_NOT_FOUND	? 127
			      : fail == RUN_FAIL_NOT_EXECUTABLE ? 126
								: 125);
		child_report(r, fail, state, &d);
		_exit(125);
	}
	close(fds[1]);
	for (;;) {
		ssize_t n;

		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 16384;
			o->out = realloc(o->out, cap);
			if (!o->out)
				abort();
		}
		n = read(fds[0], o->out + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	o->out[len] = 0;
	close(fds[0]);
	if (waitpid(pid, &wst, 0) < 0)
		abort();
	o->status = WIFEXITED(wst) ? WEXITSTATUS(wst) : 128 + WTERMSIG(wst);
	if (!strncmp(o->out, "RUNFAIL ", 8)) {
		int fail = 0, state = 0;

		if (sscanf(o->out + 8, "%d %d %d", &o->ret, &fail, &state) != 3)
			abort();
		o->fail = (enum run_failure)fail;
		o->state = (enum run_state)state;
		a = strstr(o->out, "\nAFTER\n");
		o->after = a ? a + 7 : NULL;
	}
}

static void outcome_free(struct outcome *o)
{
	free(o->out);
}

static bool has_msg(const struct outcome *o, const char *needle)
{
	const char *end = o->after ? o->after : o->out + strlen(o->out);
	const char *hit = strstr(o->out, needle);

	if (!hit || hit >= end) {
		tap_diag("message '%s' not found in:\n%s", needle, o->out);
		return false;
	}
	return true;
}

static void check_msg(const struct outcome *o, const char *needle)
{
	tap_ok(has_msg(o, needle), "message '%s'", needle);
}

/* The exec'd helper ran and run_exec did not return. */
static bool ran(const struct outcome *o, const char *what)
{
	bool ok = o->status == 0 && !strncmp(o->out, "getppid=", 8);

	if (!tap_ok(ok, "%s: the command ran", what))
		tap_diag("status %d, output:\n%s", o->status, o->out);
	return ok;
}

static bool not_ran(const struct outcome *o, int want_ret, const char *what)
{
	bool ok = o->status == 125 && o->ret == want_ret && !strstr(o->out, "getppid=");

	if (!tap_ok(ok, "%s: run_exec returned %d, nothing executed", what, want_ret))
		tap_diag("status %d, ret %d, output:\n%s", o->status, o->ret, o->out);
	return ok;
}

/* Inheritable is not changed by execve(): it stays what run_exec set (keep);
 * effective and permitted are what the kernel computed at execve(). */
static void check_caps(const struct outcome *o, const char *what, uint64_t eff, uint64_t inh,
		       uint64_t bnd, uint64_t amb)
{
	const char *t = o->out;
	bool ok = hexfield(t, "CapEff") == eff && hexfield(t, "CapPrm") == eff &&
		  hexfield(t, "CapInh") == inh && hexfield(t, "CapBnd") == bnd &&
		  hexfield(t, "CapAmb") == amb;

	if (!tap_ok(ok, "%s: CapEff/Prm %#llx, CapInh %#llx, CapBnd %#llx, CapAmb %#llx", what,
		    (unsigned long long)eff, (unsigned long long)inh, (unsigned long long)bnd,
		    (unsigned long long)amb))
		tap_diag("got Eff %#llx Prm %#llx Inh %#llx Bnd %#llx Amb %#llx",
			 (unsigned long long)hexfield(t, "CapEff"),
			 (unsigned long long)hexfield(t, "CapPrm"),
			 (unsigned long long)hexfield(t, "CapInh"),
			 (unsigned long long)hexfield(t, "CapBnd"),
			 (unsigned long long)hexfield(t, "CapAmb"));
}

static void check_ids(const char *t, const char *what, unsigned uid, unsigned gid,
		      const char *groups)
{
	char u[64], g[64];

	snprintf(u, sizeof(u), "%u\t%u\t%u\t%u", uid, uid, uid, uid);
	snprintf(g, sizeof(g), "%u\t%u\t%u\t%u", gid, gid, gid, gid);
	tap_ok(field_is(t, "Uid", u) && field_is(t, "Gid", g) && field_is(t, "Groups", groups),
	       "%s: Uid %u, Gid %u, Groups '%s'", what, uid, gid, groups);
}

static void check_sandbox(const char *t, const char *what, int nnp)
{
	tap_ok(field_is(t, "Seccomp", "2") && field_is(t, "NoNewPrivs", nnp ? "1" : "0"),
	       "%s: Seccomp 2, NoNewPrivs %d", what, nnp);
}

/* ---- state captured in the parent ---- */

static uid_t nobody_uid;
static gid_t nobody_gid;
static uint64_t parent_bnd, parent_eff;
static char parent_groups[256]; /* Groups: of a child: kept without [credentials] */

static void drop_to_nobody(void)
{
	/* Leaving uid 0 without KEEPCAPS clears the permitted, effective and
	 * ambient sets; the bounding set stays (an unprivileged caller). */
	if (setgroups(1, &nobody_gid) < 0 || setresgid(nobody_gid, nobody_gid, nobody_gid) < 0 ||
	    setresuid(nobody_uid, nobody_uid, nobody_uid) < 0)
		_exit(98);
}

static void preinstall_seven(void)
{
	struct bpf_prog *b = big_prog();
	struct sock_fprog f = { .len = (unsigned short)b->len, .filter = b->insns };

	/* 7 * (4096 + 4) + 4096 > 32768 (MAX_INSNS_PER_PATH) */
	for (int i = 0; i < 7; i++)
		if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &f) != 0)
			_exit(97);
}

/* An outer filter that answers seccomp(2) with "success" (errno 0): as a
 * sandbox around scmp-run could. */
static void install_seccomp_faker(void)
{
	static struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_seccomp, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog f = { .len = 4, .filter = insns };

	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &f) != 0)
		_exit(94);
}

#ifdef NATIVE_AUDIT_ARCH
/* An outer filter that answers seccomp(2) and prctl(PR_GET_SECCOMP) with
 * "success" (errno 0): a 0 from PR_GET_SECCOMP reads as "no filter". */
static void install_prctl_faker(void)
{
	static struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_seccomp, 3, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_prctl, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_GET_SECCOMP, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog f = { .len = sizeof(insns) / sizeof(insns[0]), .filter = insns };

	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &f) != 0)
		_exit(94);
}
#endif

/* A second thread with a filter of its own: TSYNC cannot synchronise it
 * (its filter is not an ancestor of the caller's). */
static void *diverging_thread(void *arg)
{
	struct sock_fprog f = { .len = 1, .filter = allow_all_insns };
	int *ready = arg;
	char c = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &f) == 0 ? 'y' : 'n';

	if (write(ready[1], &c, 1) != 1)
		_exit(96);
	for (;;)
		pause();
	return NULL;
}

static void start_diverging_thread(void)
{
	static int ready[2];
	pthread_t t;
	char c = 0;

	if (pipe(ready) < 0 || pthread_create(&t, NULL, diverging_thread, ready) != 0 ||
	    read(ready[0], &c, 1) != 1 || c != 'y')
		_exit(95);
}

/* The command run_resolve_candidates() finds (malloc'ed), or NULL. */
static char *resolve_first(const char *cmd, struct diag *d, enum run_failure *st)
{
	char **v = run_resolve_candidates(cmd, d, st);
	char *first = v ? strdup(v[0]) : NULL;

	run_candidates_free(v);
	return first;
}

/* ---- tests ---- */

static void test_resolve(void)
{
	char dir[] = "/tmp/test-run-XXXXXX", path[1400], *s, *r;
	char d1[600], d2[600];
	char *old_path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	struct diag d;
	enum run_failure st;
	int fd;

	if (!mkdtemp(dir))
		abort();
	snprintf(d1, sizeof(d1), "%s/a", dir);
	snprintf(d2, sizeof(d2), "%s/b", dir);
	if (mkdir(d1, 0755) < 0 || mkdir(d2, 0755) < 0)
		abort();
	/* a/tool is not executable, b/tool is; a/sub is a directory. */
	snprintf(path, sizeof(path), "%s/tool", d1);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	close(fd);
	snprintf(path, sizeof(path), "%s/tool", d2);
	fd = open(path, O_CREAT | O_WRONLY, 0755);
	close(fd);
	snprintf(path, sizeof(path), "%s/onlyplain", d1);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	close(fd);
	for (int i = 0; i < 2; i++) { /* a/both and b/both: both executable */
		snprintf(path, sizeof(path), "%s/both", i ? d2 : d1);
		fd = open(path, O_CREAT | O_WRONLY, 0755);
		close(fd);
	}
	snprintf(path, sizeof(path), "%s/sub", d1);
	if (mkdir(path, 0755) < 0)
		abort();

	snprintf(path, sizeof(path), "%s::%s", d1, d2);
	setenv("PATH", path, 1);

	diag_init(&d);
	r = resolve_first("tool", &d, &st);
	snprintf(path, sizeof(path), "%s/tool", d2);
	tap_ok(r && !strcmp(r, path) && st == RUN_FAIL_NONE && !diag_failed(&d),
	       "PATH search skips a non-executable file and finds the next one");
	free(r);
	diag_clear(&d);

	{
		/* every usable candidate, in order: execvp() tries the next
		 * after EACCES */
		char **v = run_resolve_candidates("both", &d, &st);
		char a[700], b[700];

		snprintf(a, sizeof(a), "%s/both", d1);
		snprintf(b, sizeof(b), "%s/both", d2);
		tap_ok(v && !strcmp(v[0], a) && v[1] && !strcmp(v[1], b) && !v[2],
		       "PATH search: every usable candidate, in PATH order");
		run_candidates_free(v);
		diag_clear(&d);
	}

	r = resolve_first("onlyplain", &d, &st);
	tap_ok(!r && st == RUN_FAIL_NOT_EXECUTABLE && diag_failed(&d),
	       "found but not executable: 126");
	diag_clear(&d);

	r = resolve_first("sub", &d, &st);
	snprintf(path, sizeof(path), "'sub': found '%s/sub', a directory, not an executable", d1);
	tap_ok(!r && st == RUN_FAIL_NOT_EXECUTABLE && diag_failed(&d) &&
		       !strcmp(d.msgs[0].text, path),
	       "a directory on PATH: 126, named ('%s')", d.n_msgs ? d.msgs[0].text : "");
	diag_clear(&d);

	r = resolve_first("onlyplain", &d, &st);
	snprintf(path, sizeof(path), "'onlyplain': cannot execute '%s/onlyplain': ", d1);
	tap_ok(!r && d.n_msgs && !strncmp(d.msgs[0].text, path, strlen(path)),
	       "a file on PATH that cannot be executed is named ('%s')",
	       d.n_msgs ? d.msgs[0].text : "");
	diag_clear(&d);

	r = resolve_first("no-such-command-xyz", &d, &st);
	tap_ok(!r && st == RUN_FAIL_NOT_FOUND && diag_failed(&d) &&
		       strstr(d.msgs[0].text, "command not found"),
	       "not found: 127 ('%s')", d.n_msgs ? d.msgs[0].text : "");
	diag_clear(&d);

	r = resolve_first("", &d, &st);
	tap_ok(!r && st == RUN_FAIL_NOT_FOUND, "empty command: 127");
	diag_clear(&d);

	snprintf(path, sizeof(path), "%s/tool", d1);
	r = resolve_first(path, &d, &st);
	tap_ok(!r && st == RUN_FAIL_NOT_EXECUTABLE, "a path with '/' that is not executable: 126");
	diag_clear(&d);

	r = resolve_first(d1, &d, &st);
	tap_ok(!r && st == RUN_FAIL_NOT_EXECUTABLE, "a path with '/' that is a directory: 126");
	diag_clear(&d);

	r = resolve_first("/no/such/file", &d, &st);
	tap_ok(!r && st == RUN_FAIL_NOT_FOUND, "a path with '/' that does not exist: 127");
	diag_clear(&d);

	snprintf(path, sizeof(path), "%s/tool", d2);
	r = resolve_first(path, &d, &st);
	tap_ok(r && !strcmp(r, path) && st == RUN_FAIL_NONE, "a path with '/' is used as is");
	free(r);
	diag_clear(&d);

	/* The empty PATH entry is the current directory, as for execvp(). */
	if (chdir(d2) == 0) {
		setenv("PATH", ":/nonexistent", 1);
		r = resolve_first("tool", &d, &st);
		tap_ok(r && !strcmp(r, "./tool"), "an empty PATH entry means '.' ('%s')",
		       r ? r : "(null)");
		free(r);
		diag_clear(&d);
		if (chdir("/") < 0)
			abort();
	} else {
		tap_skip("chdir failed");
	}

	unsetenv("PATH");
	r = resolve_first("sh", &d, &st);
	tap_ok(r && (!strcmp(r, "/usr/bin/sh") || !strcmp(r, "/bin/sh")),
	       "PATH unset: the default list finds sh ('%s')", r ? r : "(null)");
	free(r);
	diag_clear(&d);

	if (old_path) {
		setenv("PATH", old_path, 1);
		free(old_path);
	}
	/* cleanup */
	if (asprintf(&s, "rm -rf '%s'", dir) > 0) {
		if (system(s) != 0)
			tap_diag("cleanup of %s failed", dir);
		free(s);
	}
}

static char *helper_argv[2];

static void test_caps(void)
{
	struct profile *p;
	struct outcome o;

	p = profile_make();
	run_case(p, &allow_all, helper, helper_argv, NULL, &o);
	if (ran(&o, "keep none")) {
		check_caps(&o, "keep none", 0, 0, 0, 0);
		check_sandbox(o.out, "keep none", 1);
		check_ids(o.out, "keep none", 0, 0, "0");
	}
	outcome_free(&o);

	keep(p, CAP_NET_BIND_SERVICE);
	run_case(p, &allow_all, helper, helper_argv, NULL, &o);
	if (ran(&o, "keep CAP_NET_BIND_SERVICE"))
		check_caps(&o, "keep CAP_NET_BIND_SERVICE", CAPBIT(CAP_NET_BIND_SERVICE),
			   CAPBIT(CAP_NET_BIND_SERVICE), CAPBIT(CAP_NET_BIND_SERVICE), 0);
	outcome_free(&o);

	p->ambient = true;
	run_case(p, &allow_all, helper, helper_argv, NULL, &o);
	if (ran(&o, "keep + ambient"))
		check_caps(&o, "keep + ambient", CAPBIT(CAP_NET_BIND_SERVICE),
			   CAPBIT(CAP_NET_BIND_SERVICE), CAPBIT(CAP_NET_BIND_SERVICE),
			   CAPBIT(CAP_NET_BIND_SERVICE));
	outcome_free(&o);

	keep(p, CAP_CHOWN);
	run_case(p, &allow_all, helper, helper_argv, NULL, &o);
	if (ran(&o, "keep two + ambient")) {
		uint64_t two = CAPBIT(CAP_NET_BIND_SERVICE) | CAPBIT(CAP_CHOWN);

		check_caps(&o, "keep two + ambient", two, two, two, two);
	}
	outcome_free(&o);
	profile_drop(p);

	/* keep out of range */
	p = profile_make();
	keep(p, 64);
	run_case(p, &allow_all, helper, helper_argv, NULL, &o);
	not_ran(&o, -EINVAL, "capability number 64");
	tap_ok(o.after && field_is(o.after, "Seccomp", "0"), "capability 64: nothing changed");
	outcome_free(&o);
	profile_drop(p);
}

static void test_credentials(void)
{
	struct group *gr = getgrnam("daemon");
	struct profile *p;
	struct outcome o;
	char grp[32];

	p = profile_make();
	p->has_user = true;
	p->user = "nobody";
	run_case(p, &allow_all, helper, helper_argv, NULL, &o);
	snprintf(grp, sizeof(grp), "%u", (unsigned)nobody_gid);
	if (ran(&o, "user=nobody")) {
		check_ids(o.out, "user=nobody", nobody_uid, nobody_gid, grp);
		check_caps(&o, "user=nobody", 0, 0, 0, 0);
		check_sandbox(o.out, "user=nobody", 1);
	}
	outcome_free(&o);

	/* A non-root user keeps a capability only through the ambient set. */
	keep(p, CAP_NET_BIND_SERVICE);
	p->ambient = true;
	run_case(p, &allow_all, helper, helper_argv, NULL, &o);
	if (ran(&o, "user=nobody + keep + ambient")) {
		check_ids(o.out, "user=nobody + keep + ambient", nobody_uid, nobody_gid, grp);
		check_caps(&o, "user=nobody + keep + ambient", CAPBIT(CAP_NET_BIND_SERVICE),
			   CAPBIT(CAP_NET_BIND_SERVICE), CAPBIT(CAP_NET_BIND_SERVICE),
			   CAPBIT(CAP_NET_BIND_SERVICE));
	}
	outcome_free(&o);

	/* Without ambient, execve() as non-root leaves nothing. */
	p->ambient = false;
	run_case(p, &allow_all, helper, helper_argv, NULL, &o);
	if (ran(&o, "user=nobody + keep, no ambient"))
		check_caps(&o, "user=nobody + keep, no ambient", 0, CAPBIT(CAP_NET_BIND_SERVICE),
			   CAPBIT(CAP_NET_BIND_SERVICE), 0);
	outcome_free(&o);
	profile_drop(p);

	if (gr) {
		p = profile_make();
		p->has_user = p->has_group = true;
		p->user = "nobody";
		p->group = "daemon";
		snprintf(grp, sizeof(grp), "%u", (unsigned)gr->gr_gid);
		run_case(p, &allow_all, helper, helper_argv, NULL, &o);
		if (ran(&o, "user=nobody group=daemon"))
			check_ids(o.out, "user=nobody group=daemon", nobody_uid, gr->gr_gid, grp);
		outcome_free(&o);

		/* user = root with another group: the uid stays 0 */
		p->user = "root";
		run_case(p, &allow_all, helper, helper_argv, NULL, &o);
		if (ran(&o, "user=root group=daemon"))
			check_ids(o.out, "user=root group=daemon", 0, gr->gr_gid, grp);
		outcome_free(&o);

		/* group only, as root: the uid-0 guard refuses */
		p->has_user = false;
		run_case(p, &allow_all, helper, helper_argv, NULL, &o);
		not_ran(&o, -EPERM, "group=daemon only, as root");
		check_msg(&o, "running as root: add [credentials] user = ..., or user = root to "
			      "keep root");
		outcome_free(&o);
		profile_drop(p);
	} else {
		for (int i = 0; i < 4; i++)
			tap_skip("no group 'daemon' on this system");
	}

	/* numbers without passwd/group entries */
	p = profile_make();
	p->has_user = p->has_group = true;
	p->user = "4242";
	p->group = "4343";
	run_case(p, &allow_all, helper, helper_argv, NULL, &o);
	if (ran(&o, "user=4242 group=4343 (no entries)"))
		check_ids(o.out, "user=4242 group=4343", 4242, 4343, "4343");
	outcome_free(&o);

	if (!getpwuid(4242)) {
		p->has_group = false;
		run_case(p, &allow_all, helper, helper_argv, NULL, &o);
		not_ran(&o, -EINVAL, "user=4242 without passwd entry and no group");
		check_msg(&o, "no passwd entry");
		outcome_free(&o);
	} else {
		tap_skip("uid 4242 exists here");
	}
	profile_drop(p);

	p = profile_make();
	p->has_user = true;
	p->user = "no-such-user-xyz";
	run_case(p, &allow_all, helper, helper_argv, NULL, &o);
	not_ran(&o, -ENOENT, "unknown user");
	tap_ok(has_msg(&o, "unknown user 'no-such-user-xyz'") && o.after &&
		       field_is(o.after, "Uid", "0\t0\t0\t0"),
	       "unknown user: message, nothing changed");
	outcome_free(&o);

	p->has_group = true;
	p->user = "nobody";
	p->group = "no-such-group-xyz";
	run_case(p, &allow_all, helper, helper_argv, NULL, &o);
	not_ran(&o, -ENOENT, "unknown group");
	check_msg(&o, "unknown group 'no-such-group-xyz'");
	outcome_free(&o);

	p->group = "4294967295"; /* (gid_t)-1 is not a group */
	run_case(p, &allow_all, helper, helper_argv, NULL, &o);
	not_ran(&o, -ERANGE, "group 4294967295 is not a number we accept");
	check_msg(&o, "group id 4294967295 is out of range");
	outcome_free(&o);
	profile_drop(p);
}

static void test_nnp(void)
{
	struct profile *p;
	struct outcome o;

	p = profile_make();
	p->rs->attrs.no_new_privs = false;
	keep(p, CAP_SYS_ADMIN);
	run_case(p, &allow_all, helper, helper_argv, NULL, &o);
	if (ran(&o, "nnp off + CAP_SYS_ADMIN kept")) {
		check_sandbox(o.out, "nnp off + CAP_SYS_ADMIN kept", 0);
		check_caps(&o, "nnp off + CAP_SYS_ADMIN kept", CAPBIT(CAP_SYS_ADMIN),
			   CAPBIT(CAP_SYS_ADMIN), CAPBIT(CAP_SYS_ADMIN), 0);
	}
	outcome_free(&o);
	profile_drop(p);

	p = profile_make();
	p->rs->attrs.no_new_privs = false;
	keep(p, CAP_NET_BIND_SERVICE);
	p->has_user = true;
	p->user = "nobody";
	run_case(p, &allow_all, helper, helper_argv, NULL, &o);
	not_ran(&o, -EACCES, "nnp off without CAP_SYS_ADMIN");
	check_msg(&o, "no-new-privs = no needs CAP_SYS_ADMIN");
	tap_ok(o.after && field_is(o.after, "Seccomp", "0") &&
		       field_is(o.after, "NoNewPrivs", "0") &&
		       field_is(o.after, "Uid", "0\t0\t0\t0") &&
		       hexfield(o.after, "CapBnd") == parent_bnd &&
		       hexfield(o.after, "CapEff") == parent_eff,
	       "nnp off without CAP_SYS_ADMIN: nothing changed (ids, caps, nnp, seccomp)");
	outcome_free(&o);
	profile_drop(p);
}

/* The caller's capability sets changed before run_exec(): with capget and
 * capset directly, as the launcher reads them. */
static void caps_change(uint64_t clear_eff_prm, uint64_t add_inh)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data) < 0)
		_exit(97);
	for (int i = 0; i < 2; i++) {
		data[i].effective &= ~(uint32_t)(clear_eff_prm >> (32 * i));
		data[i].permitted &= ~(uint32_t)(clear_eff_prm >> (32 * i));
		data[i].inheritable |= (uint32_t)(add_inh >> (32 * i));
	}
	if (syscall(SYS_capset, &hdr, data) < 0)
		_exit(97);
}

static void bound_without_net_raw(void)
{
	if (prctl(PR_CAPBSET_DROP, CAP_NET_RAW, 0, 0, 0) < 0)
		_exit(97);
}

static void ambient_net_raw(void)
{
	caps_change(0, CAPBIT(CAP_NET_RAW));
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_NET_RAW, 0, 0) < 0)
		_exit(97);
}

static void without_setpcap(void)
{
	caps_change(CAPBIT(CAP_SETPCAP), 0);
}

/* The bounding and ambient sets are set without reading them back when
 * every step succeeds: what the command gets, read from its own status. */
static void test_bounding(void)
{
	struct profile *p;
	struct outcome o;

	p = profile_make();
	run_case(p, &allow_all, helper, helper_argv, bound_without_net_raw, &o);
	if (ran(&o, "caller's bounding set already without CAP_NET_RAW"))
		check_caps(&o, "caller's bounding set already without CAP_NET_RAW", 0, 0, 0, 0);
	outcome_free(&o);

	run_case(p, &allow_all, helper, helper_argv, ambient_net_raw, &o);
	if (ran(&o, "caller's ambient CAP_NET_RAW"))
		check_caps(&o, "caller's ambient CAP_NET_RAW", 0, 0, 0, 0);
	outcome_free(&o);

	keep(p, CAP_NET_BIND_SERVICE);
	p->ambient = true;
	run_case(p, &allow_all, helper, helper_argv, ambient_net_raw, &o);
	if (ran(&o, "caller's ambient CAP_NET_RAW, keep another + ambient"))
		check_caps(&o, "caller's ambient CAP_NET_RAW, keep another + ambient",
			   CAPBIT(CAP_NET_BIND_SERVICE), CAPBIT(CAP_NET_BIND_SERVICE),
			   CAPBIT(CAP_NET_BIND_SERVICE), CAPBIT(CAP_NET_BIND_SERVICE));
	outcome_free(&o);
	profile_drop(p);

	/* Root without CAP_SETPCAP: the bounding set stays the caller's,
	 * which no_new_privs makes harmless ... */
	p = profile_make();
	run_case(p, &allow_all, helper, helper_argv, without_setpcap, &o);
	if (ran(&o, "without CAP_SETPCAP"))
		check_caps(&o, "without CAP_SETPCAP", 0, 0, parent_bnd, 0);
	outcome_free(&o);
	profile_drop(p);

	/* ... and without no_new_privs the read-back refuses it. */
	p = profile_make();
	p->rs->attrs.no_new_privs = false;
	keep(p, CAP_SYS_ADMIN);
	run_case(p, &allow_all, helper, helper_argv, without_setpcap, &o);
	not_ran(&o, -EPERM, "without CAP_SETPCAP, nnp off");
	check_msg(&o, "is still in the bounding set");
	check_msg(&o, "reducing the bounding set needs CAP_SETPCAP");
	tap_ok(o.after && field_is(o.after, "Seccomp", "0"),
	       "without CAP_SETPCAP, nnp off: no filter installed");
	outcome_free(&o);
	profile_drop(p);
}

static void test_unprivileged(void)
{
	struct profile *p;
	struct outcome o;

	/* nobody asking for nothing special: works; the bounding set cannot
	 * shrink without CAP_SETPCAP, which no_new_privs makes harmless. */
	p = profile_make();
	p->has_user = false;
	run_case(p, &allow_all, helper, helper_argv, drop_to_nobody, &o);
	if (ran(&o, "unprivileged, keep none")) {
		check_caps(&o, "unprivileged, keep none", 0, 0, parent_bnd, 0);
		check_sandbox(o.out, "unprivileged, keep none", 1);
	}
	outcome_free(&o);

	/* keep is an upper bound: a capability we lack is not an error */
	keep(p, CAP_NET_BIND_SERVICE);
	p->ambient = true;
	run_case(p, &allow_all, helper, helper_argv, drop_to_nobody, &o);
	if (ran(&o, "unprivileged, keep a capability it lacks"))
		check_caps(&o, "unprivileged, keep a capability it lacks", 0, 0, parent_bnd, 0);
	outcome_free(&o);
	profile_drop(p);

	p = profile_make();
	p->has_user = true;
	p->user = "daemon";
	run_case(p, &allow_all, helper, helper_argv, drop_to_nobody, &o);
	not_ran(&o, -EPERM, "unprivileged, switching user");
	check_msg(&o, "switching credentials failed");
	tap_ok(o.after && field_is(o.after, "Seccomp", "0"),
	       "unprivileged, switching user: no filter installed");
	outcome_free(&o);
	profile_drop(p);

	p = profile_make();
	p->has_user = false;
	p->rs->attrs.no_new_privs = false;
	keep(p, CAP_SYS_ADMIN);
	run_case(p, &allow_all, helper, helper_argv, drop_to_nobody, &o);
	not_ran(&o, -EACCES, "unprivileged, nnp off with CAP_SYS_ADMIN in keep");
	check_msg(&o, "does not have it");
	outcome_free(&o);
	profile_drop(p);
}

static void test_filter(void)
{
	struct profile *p = profile_make();
	struct bpf_prog *big = big_prog();
	struct bpf_prog empty = { .insns = allow_all_insns, .len = 0 };
	struct outcome o;
	char notexec[] = "/tmp/test-run-notexec-XXXXXX";
	int fd;

	run_case(p, &bad_prog, helper, helper_argv, NULL, &o);
	not_ran(&o, -EINVAL, "a program with a bad opcode");
	/* Refused by the self-check of the execve(), after the drop and
	 * before no_new_privs. */
	check_msg(&o, "the seccomp program is invalid");
	tap_ok(o.after && field_is(o.after, "Seccomp", "0") &&
		       field_is(o.after, "NoNewPrivs", "0") && hexfield(o.after, "CapEff") == 0,
	       "bad program: no filter, no nnp, capabilities dropped");
	outcome_free(&o);

	run_case(p, &empty, helper, helper_argv, NULL, &o);
	not_ran(&o, -EINVAL, "an empty program");
	tap_ok(o.after && hexfield(o.after, "CapEff") == parent_eff,
	       "empty program: refused before anything changed");
	outcome_free(&o);

	run_case(p, big, helper, helper_argv, preinstall_seven, &o);
	not_ran(&o, -ENOMEM, "over the kernel's 32768-instruction total");
	check_msg(&o, "32768");
	outcome_free(&o);

	run_case(p, big, helper, helper_argv, NULL, &o);
	if (ran(&o, "a 4096-instruction program"))
		check_sandbox(o.out, "a 4096-instruction program", 1);
	outcome_free(&o);
	free(big->insns);
	free(big);

	p->rs->attrs.tsync = p->rs->attrs.log = p->rs->attrs.spec_allow = true;
	run_case(p, &allow_all, helper, helper_argv, NULL, &o);
	if (ran(&o, "tsync + log + spec-allow"))
		check_sandbox(o.out, "tsync + log + spec-allow", 1);
	outcome_free(&o);

	p->rs->attrs.log = p->rs->attrs.spec_allow = false;
	run_case(p, &allow_all, helper, helper_argv, start_diverging_thread, &o);
	not_ran(&o, -ESRCH, "tsync with a thread that has its own filter");
	tap_ok(has_msg(&o, "could not be synchronised"), "tsync failure names the thread");
	outcome_free(&o);
	p->rs->attrs.tsync = false;

#ifdef NATIVE_AUDIT_ARCH
	run_case(p, &getppid_eperm, helper, helper_argv, NULL, &o);
	if (ran(&o, "getppid filter"))
		tap_ok(!strncmp(o.out, "getppid=-1 errno=1\n", 19),
		       "the filter is live in the exec'd program: getppid -> EPERM");
	outcome_free(&o);

	{
		char *sh_argv[] = { "sh", "-c", "echo PPID=$PPID; cat /proc/self/status", NULL };

		run_case(p, &getppid_eperm, "/bin/sh", sh_argv, NULL, &o);
		tap_ok(o.status == 0 && !strncmp(o.out, "PPID=-1\n", 8) &&
			       field_is(o.out, "Seccomp", "2"),
		       "/bin/sh under the getppid filter sees PPID=-1, and so does its cat");
		if (o.status != 0 || strncmp(o.out, "PPID=-1\n", 8))
			tap_diag("status %d, output:\n%.300s", o.status, o.out);
		outcome_free(&o);
	}
#else
	tap_skip("getppid filter: no native audit arch for this test");
	tap_skip("getppid filter: no native audit arch for this test");
	tap_skip("getppid filter: no native audit arch for this test");
#endif

	fd = mkstemp(notexec);
	if (fd < 0)
		abort();
	close(fd);
	run_case(p, &allow_all, notexec, helper_argv, NULL, &o);
	not_ran(&o, -EACCES, "a non-executable file");
	check_msg(&o, "cannot execute");
	tap_ok(o.fail == RUN_FAIL_NOT_EXECUTABLE && o.state == RUN_STATE_OPEN,
	       "a non-executable file: not executable (126), no filter yet");
	tap_ok(o.after && field_is(o.after, "Seccomp", "0"),
	       "a non-executable file: 126 decided before the filter");
	outcome_free(&o);

	/* Executable, but execve() fails (missing interpreter): after the
	 * filter; printed only because the filter allows write on fd 2. */
	fd = open(notexec, O_WRONLY | O_TRUNC);
	if (fd < 0 || write(fd, "#!/nonexistent/interp\n", 22) != 22 || close(fd) < 0 ||
	    chmod(notexec, 0755) < 0)
		abort();
	run_case(p, &allow_all, notexec, helper_argv, NULL, &o);
	not_ran(&o, -ENOENT, "a missing interpreter");
	check_msg(&o, "executing '");
	tap_ok(o.fail == RUN_FAIL_NOT_FOUND && o.state == RUN_STATE_FILTERED,
	       "a missing interpreter: not found (127), filtered, may report");
	tap_ok(o.after && field_is(o.after, "Seccomp", "2"),
	       "execve failure comes after the filter was installed");
	outcome_free(&o);
#ifdef NATIVE_AUDIT_ARCH
	run_case(p, &write_eperm, notexec, helper_argv, NULL, &o);
	tap_ok(o.status == 127 && o.out[0] == 0,
	       "filter denies write: execve failure exits 127 silently");
	if (o.status != 127 || o.out[0])
		tap_diag("status %d, output:\n%.300s", o.status, o.out);
	outcome_free(&o);
#else
	tap_skip("write filter: no native audit arch for this test");
#endif
	unlink(notexec);

	/* An outer filter that fakes the success of seccomp(2): the
	 * read-back sees that no filter was added. */
	run_case(p, &allow_all, helper, helper_argv, install_seccomp_faker, &o);
	not_ran(&o, -EPERM, "an outer filter fakes seccomp() success");
	check_msg(&o, "Seccomp_filters is 1, expected 2");
	tap_ok(o.fail == RUN_FAIL_SETUP && o.state == RUN_STATE_FILTERED,
	       "read-back failure: setup failure (125), after the filter");
	outcome_free(&o);
#ifdef NATIVE_AUDIT_ARCH
	/* ... and PR_GET_SECCOMP, under a profile that kills prctl(): the
	 * count before is read all the same, so the count after is short. */
	run_case(p, &prctl_kill, helper, helper_argv, install_prctl_faker, &o);
	not_ran(&o, -EPERM, "an outer filter fakes seccomp() and PR_GET_SECCOMP");
	check_msg(&o, "Seccomp_filters is 1, expected 2");
	outcome_free(&o);
#else
	tap_skip("faked PR_GET_SECCOMP: no native audit arch for this test");
#endif
	profile_drop(p);
}

/* COMMAND is looked up and checked as the target user. */
static void test_resolve_as_user(void)
{
	char base[] = "/tmp/test-run-user-XXXXXX", a[600], b[600], cmd[1400];
	char *old_path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	char *argv[] = { "tool", NULL };
	struct profile *p = profile_make();
	struct outcome o;

	if (!mkdtemp(base) || chmod(base, 0755) < 0)
		abort();
	snprintf(a, sizeof(a), "%s/a", base);
	snprintf(b, sizeof(b), "%s/b", base);
	if (mkdir(a, 0755) < 0 || mkdir(b, 0755) < 0)
		abort();
	/* a/tool: only root may execute it; b/tool: everyone. */
	snprintf(cmd, sizeof(cmd),
		 "install -m 0700 '%s' '%s/tool' && install -m 0755 '%s' '%s/tool'", helper, a,
		 helper, b);
	if (system(cmd) != 0)
		abort();
	p->user = "nobody";

	snprintf(cmd, sizeof(cmd), "%s:%s", a, b);
	setenv("PATH", cmd, 1);
	run_case(p, &allow_all, "tool", argv, NULL, &o);
	if (ran(&o, "PATH search as nobody skips a root-only a/tool"))
		check_ids(o.out, "PATH search as nobody", nobody_uid, nobody_gid, "65534");
	outcome_free(&o);

	setenv("PATH", a, 1);
	run_case(p, &allow_all, "tool", argv, NULL, &o);
	not_ran(&o, -EACCES, "only a root-only tool on PATH, as nobody");
	tap_ok(o.fail == RUN_FAIL_NOT_EXECUTABLE && o.state == RUN_STATE_OPEN,
	       "root-only tool as nobody: not executable (126)");
	snprintf(cmd, sizeof(cmd), "'tool': cannot execute '%s/tool': Permission denied", a);
	check_msg(&o, cmd);
	check_msg(&o, "PATH is searched as the user the command runs as");
	tap_ok(o.after && field_is(o.after, "Seccomp", "0"),
	       "root-only tool as nobody: refused before the filter");
	outcome_free(&o);

	p->user = "root";
	run_case(p, &allow_all, "tool", argv, NULL, &o);
	ran(&o, "the same tool with user = root");
	outcome_free(&o);

	if (old_path)
		setenv("PATH", old_path, 1);
	else
		unsetenv("PATH");
	free(old_path);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	if (system(cmd) != 0)
		tap_diag("could not remove %s", base);
	profile_drop(p);
}

/* run_prepare(): the checks before anything changes, in their order. The
 * command is not looked up there: run_exec() does it as the target user. */
static void test_prepare(void)
{
	static struct sock_filter kill_insns[] = {
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	};
	const struct bpf_prog kill_all = { .insns = kill_insns, .len = 1 };
	struct profile *p = profile_make();
	char *argv_sh[] = { (char *)"sh", NULL },
	     *argv_none[] = { (char *)"no-such-cmd-xyz", NULL };
	struct diag d;

	p->path = (char *)"test.ini";
	diag_init(&d);
	tap_ok(run_prepare(p, &allow_all, argv_sh, &d) == 0 && !diag_failed(&d),
	       "prepare: an allowed execve()");
	diag_clear(&d);

	tap_ok(run_prepare(p, &kill_all, argv_sh, &d) == -EPERM && d.n_msgs &&
		       strstr(d.msgs[0].text, "would stop the execve() of the command itself"),
	       "prepare: a filter that stops the execve() is refused ('%s')",
	       d.n_msgs ? d.msgs[0].text : "");
	diag_clear(&d);

	tap_ok(run_prepare(p, &allow_all, argv_none, &d) == 0 && !diag_failed(&d),
	       "prepare: a missing command is not looked up yet");
	diag_clear(&d);

	p->rs->attrs.default_action.kind = ACTION_NOTIFY;
	tap_ok(run_prepare(p, &kill_all, argv_none, &d) == -EINVAL && d.n_msgs == 1 &&
		       strstr(d.msgs[0].text, "'notify' action needs a supervisor"),
	       "prepare: notify is refused first, before the self-check");
	diag_clear(&d);
	p->path = NULL;
	profile_drop(p);
}

#if defined(NATIVE_AUDIT_ARCH) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The self-check of run_exec() asks about the execve() it makes: with the
 * path found on PATH, not argv[0]. The filter allows execve() only with
 * argv[0]'s pointer as path, so run_prepare() passes and run_exec() refuses
 * before the filter. */
static void test_self_check_final_path(void)
{
	char *argv[] = { (char *)"run-helper", NULL };
	uint64_t ptr = (uint64_t)(uintptr_t)argv[0];
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execve, 0, 4),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)ptr, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0]) + 4),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(ptr >> 32), 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	};
	const struct bpf_prog prog = { .insns = insns, .len = 8 };
	struct profile *p = profile_make();
	struct outcome o;
	struct diag d;

	p->path = (char *)"test.ini";
	diag_init(&d);
	tap_ok(run_prepare(p, &prog, argv, &d) == 0, "self-check: argv[0] passes run_prepare()");
	diag_clear(&d);
	run_case(p, &prog, helper, argv, NULL, &o);
	not_ran(&o, -EPERM, "self-check with the path found");
	check_msg(&o, "would stop the execve() of the command itself");
	tap_ok(o.after && field_is(o.after, "Seccomp", "0") && o.state == RUN_STATE_OPEN,
	       "self-check with the path found: before the filter");
	outcome_free(&o);
	p->path = NULL;
	profile_drop(p);
}
#else
static void test_self_check_final_path(void)
{
	for (int i = 0; i < 5; i++)
		tap_skip("self-check test: needs a little-endian native audit arch");
}
#endif

int main(int argc, char **argv)
{
	struct passwd *pw;
	struct outcome o;

	if (argc < 2) {
		fprintf(stderr, "usage: %s RUN-HELPER\n", argv[0]);
		return 2;
	}
	helper = argv[1];
	helper_argv[0] = (char *)"run-helper";

	test_resolve();
	test_prepare();

	if (geteuid() != 0) {
		tap_skip("live run_exec tests need root (credentials, capabilities)");
		return tap_done();
	}
	pw = getpwnam("nobody");
	if (!pw) {
		tap_skip("live run_exec tests need a 'nobody' user");
		return tap_done();
	}
	nobody_uid = pw->pw_uid;
	nobody_gid = pw->pw_gid;

	/* The state a child starts from: parent's bounding and effective sets,
	 * read through the same /proc parser. */
	{
		struct profile *p = profile_make();
		struct bpf_prog empty = { .insns = allow_all_insns, .len = 0 };

		run_case(p, &empty, helper, helper_argv, NULL, &o);
		parent_bnd = o.after ? hexfield(o.after, "CapBnd") : 0;
		parent_eff = o.after ? hexfield(o.after, "CapEff") : 0;
		if (!o.after || !field(o.after, "Groups", parent_groups, sizeof(parent_groups)))
			tap_diag("could not read the starting state of a child");
		outcome_free(&o);
		profile_drop(p);
	}
	if (!(parent_eff & CAPBIT(CAP_SETPCAP)) || !(parent_eff & CAPBIT(CAP_SYS_ADMIN)) ||
	    !(parent_eff & CAPBIT(CAP_SETUID)) || !(parent_eff & CAPBIT(CAP_SETGID))) {
		tap_skip("live run_exec tests need CAP_SETPCAP, CAP_SYS_ADMIN, CAP_SETUID and "
			 "CAP_SETGID (have %#llx)",
			 (unsigned long long)parent_eff);
		return tap_done();
	}

	test_caps();
	test_credentials();
	test_nnp();
	test_bounding();
	test_unprivileged();
	test_filter();
	test_resolve_as_user();
	test_self_check_final_path();
	return tap_done();
}
