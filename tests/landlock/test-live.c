/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * [landlock] live in the kernel, as root and as uid/gid 65534 (both with
 * no_new_privs): paths, '.', missing paths, TCP ports, scopes, ptrace and
 * /proc/PID/mem of the parent, require and best-effort on an older ABI.
 */
#include <arpa/inet.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "landlock-uapi.h"
#include "landlock.h"
#include "tap.h"

#define NOBODY 65534

static char base[64];		     /* the test's directory */
static int report_fd = -1;	     /* where the sandboxed child writes its results */
static const char *who;		     /* "root" or "uid 65534" */
static volatile int parent_word = 1; /* what /proc/PPID/mem tries to change */

/* In a child: one result line "1 text" or "0 text" for the parent to turn into TAP. */
__attribute__((format(printf, 2, 3))) static void check(bool ok, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n = snprintf(buf, sizeof(buf), "%d ", ok);

	va_start(ap, fmt);
	n += vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf) - 1)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(report_fd, buf, (size_t)n) != n)
		_exit(3);
}

static void check_errno(int r, int want, const char *what)
{
	int err = errno;

	check(r < 0 && err == want, "%s fails with %s (got %d, %s)", what, strerrorname_np(want), r,
	      r < 0 ? strerrorname_np(err) : "success");
}

static void check_works(int r, const char *what)
{
	int err = errno;

	check(r >= 0, "%s works (got %d%s%s)", what, r, r < 0 ? ", " : "",
	      r < 0 ? strerrorname_np(err) : "");
}

static struct landlock_config config_v(const char *const *kv)
{
	struct landlock_config c;
	struct diag d;

	landlock_config_init(&c);
	diag_init(&d);
	for (unsigned line = 1; kv && kv[0]; kv += 2, line++) {
		struct src_loc loc = { .file = "t.ini", .line = line };

		landlock_parse_key_diag(&c, kv[0], kv[1], &loc, &d);
	}
	check(!diag_failed(&d), "the keys parse");
	diag_clear(&d);
	return c;
}

/* Prepare and enter the domain of kv on ABI abi (0: the kernel's). */
static void sandbox(const char *const *kv, int abi)
{
	struct landlock_config c = config_v(kv);
	struct landlock_plan plan;
	struct diag d;
	int r;

	diag_init(&d);
	r = landlock_prepare(&c, abi ? abi : landlock_abi_probe(), &d, &plan);
	if (r >= 0)
		r = landlock_enforce(&plan, &d);
	if (diag_failed(&d))
		diag_print(&d, "test", stderr);
	check(r == 0, "prepared and entered the domain (%d)", r);
	diag_clear(&d);
	landlock_config_clear(&c);
}

static int open_at(const char *dir, const char *name, int flags)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s/%s-%d", base, dir, name, (int)getuid());
	return open(p, flags | O_CLOEXEC, 0644);
}

/* ---- the scenarios; each runs in the sandboxed grandchild ---- */

static void fs_paths(void)
{
	char w[128], r[128];
	const char *kv[] = { "write", w, "read", r, NULL };
	char p[256];

	snprintf(w, sizeof(w), "%s/w", base);
	snprintf(r, sizeof(r), "%s/r", base);
	sandbox(kv, 0);
	check_works(open_at("w", "new", O_CREAT | O_WRONLY), "creating a file in a write path");
	check_errno(open_at("other", "new", O_CREAT | O_WRONLY), EACCES,
		    "creating a file outside the write paths");
	snprintf(p, sizeof(p), "%s/other/existing", base);
	check_errno(open(p, O_WRONLY), EACCES, "writing a file outside the write paths");
	snprintf(p, sizeof(p), "%s/r/f", base);
	check_works(open(p, O_RDONLY), "reading a file in a read path");
	check_errno(open(p, O_WRONLY), EACCES, "writing a file in a read path");
	check_errno(open_at("r", "new", O_CREAT | O_WRONLY), EACCES,
		    "creating a file in a read path");
	snprintf(p, sizeof(p), "%s/other", base);
	check_errno(open(p, O_RDONLY | O_DIRECTORY), EACCES, "listing an unlisted directory");
	snprintf(p, sizeof(p), "%s/other/existing", base);
	check_errno(open(p, O_RDONLY), EACCES, "reading a file in an unlisted directory");
}

static void fs_files(void)
{
	char f[128];
	const char *kv[] = { "write", f, "devices", "/dev/null", "read-exec", "/dev/zero", NULL };

	snprintf(f, sizeof(f), "%s/r/f", base);
	sandbox(kv, 0);
	check_works(open(f, O_WRONLY | O_APPEND | O_CLOEXEC), "write on a file: writing it");
	check_works(open(f, O_WRONLY | O_TRUNC | O_CLOEXEC), "write on a file: truncating it");
	check_errno(open_at("r", "beside", O_CREAT | O_WRONLY), EACCES,
		    "write on a file: creating a file beside it");
	check_works(open("/dev/null", O_RDWR | O_CLOEXEC), "devices on a device: opening it rw");
	check_works(open("/dev/zero", O_RDONLY | O_CLOEXEC), "read-exec on a device: reading it");
	check_errno(open("/dev/zero", O_WRONLY | O_CLOEXEC), EACCES,
		    "read-exec on a device: writing it");
}

static void fs_dot(void)
{
	const char *kv[] = { "write", ".", NULL };
	char p[256];

	snprintf(p, sizeof(p), "%s/w", base);
	check(chdir(p) == 0, "chdir to the launch directory");
	sandbox(kv, 0);
	check(chdir("/") == 0, "chdir away after the domain is entered");
	check_works(open_at("w", "dot", O_CREAT | O_WRONLY),
		    "creating a file in '.' (the launch directory)");
	check_errno(open_at("other", "dot", O_CREAT | O_WRONLY), EACCES,
		    "creating a file outside '.'");
}

static void fs_missing(void)
{
	char missing[128], optional[128], msg[1024] = "";
	const char *kv1[] = { "read", "/usr", "read", missing, NULL };
	const char *kv2[] = { "read", optional, NULL };
	struct landlock_config c;
	struct landlock_plan plan;
	struct diag d;
	FILE *f;
	int r;

	snprintf(missing, sizeof(missing), "%s/missing", base);
	snprintf(optional, sizeof(optional), "%s/missing?", base);
	c = config_v(kv1);
	diag_init(&d);
	r = landlock_prepare(&c, landlock_abi_probe(), &d, &plan);
	f = fmemopen(msg, sizeof(msg) - 1, "w");
	diag_print(&d, "scmp-run", f);
	fclose(f);
	check(r == -ENOENT && plan.ruleset_fd < 0 &&
		      strstr(msg, "t.ini:2: error: landlock: opening") &&
		      strstr(msg, "/missing' failed: No such file or directory (ENOENT)") &&
		      strstr(msg, "hint: write '") && strstr(msg, "/missing?' for a path that may"),
	      "a missing path is a located error with a hint: %.*s", (int)strcspn(msg, "\n"), msg);
	diag_clear(&d);
	landlock_config_clear(&c);

	c = config_v(kv2);
	diag_init(&d);
	r = landlock_prepare(&c, landlock_abi_probe(), &d, &plan);
	check(r == 0 && plan.n_missing == 1 && plan.n_path_rules == 0 && plan.ruleset_fd >= 0,
	      "a missing path written with '?' is skipped");
	landlock_plan_close(&plan);
	diag_clear(&d);
	landlock_config_clear(&c);
}

/* The number of open descriptors below 1024. */
static int fds_open(void)
{
	int n = 0;

	for (int fd = 0; fd < 1024; fd++)
		n += fcntl(fd, F_GETFD) >= 0;
	return n;
}

/* n paths of the test's tree (r, w, /dev/null in turn), then tail if any. */
static struct landlock_config config_many(int n, const char *tail)
{
	struct src_loc loc = { .file = "t.ini", .line = 1 };
	struct landlock_config c;
	struct diag d;
	char *v = malloc(64 * (size_t)n + 256);
	size_t o = 0;

	if (!v)
		abort();
	landlock_config_init(&c);
	diag_init(&d);
	for (int i = 0; i < n; i++)
		o += (size_t)sprintf(v + o, "%s%s", i ? " " : "",
				     i % 3 == 2 ? "/dev/null"
				     : i % 3	? "W"
						: "R");
	v[o] = '\0';
	/* R and W stand for the directories; the paths are absolute */
	for (char *p = v; *p; p++)
		if (*p == 'R' || *p == 'W') {
			char dir[128];
			size_t len = (size_t)snprintf(dir, sizeof(dir), "%s/%s", base,
						      *p == 'R' ? "r" : "w");

			memmove(p + len, p + 1, strlen(p + 1) + 1);
			memcpy(p, dir, len);
			p += len - 1;
		}
	if (tail)
		strcat(strcat(v, " "), tail);
	landlock_parse_key_diag(&c, "write", v, &loc, &d);
	check(!diag_failed(&d), "%d paths parse", n);
	diag_clear(&d);
	free(v);
	return c;
}

/*
 * More paths than the descriptors held at a time, under an open-files limit
 * that leaves three descriptors free: every rule is added, and no path
 * descriptor stays open, after success or after a failure.
 */
static void fs_many_fds(void)
{
	struct rlimit rl;
	struct landlock_config c;
	struct landlock_plan plan;
	struct diag d;
	char missing[128], p[256];
	int before, r;

	snprintf(missing, sizeof(missing), "%s/missing", base);
	before = fds_open();
	c = config_many(150, missing);
	diag_init(&d);
	r = landlock_prepare(&c, landlock_abi_probe(), &d, &plan);
	check(r == -ENOENT && plan.ruleset_fd < 0 && fds_open() == before,
	      "a missing path after 150 others fails and leaves nothing open (%d, %d fds, was %d)",
	      r, fds_open(), before);
	diag_clear(&d);
	landlock_config_clear(&c);

	/* the limit: the number of the fourth free descriptor */
	check(getrlimit(RLIMIT_NOFILE, &rl) == 0, "getrlimit");
	for (rl.rlim_cur = 0, r = 0; r < 4; rl.rlim_cur++)
		r += fcntl((int)rl.rlim_cur, F_GETFD) < 0;
	rl.rlim_cur--;
	check(setrlimit(RLIMIT_NOFILE, &rl) == 0, "open-files limit %d", (int)rl.rlim_cur);
	c = config_many(150, NULL);
	diag_init(&d);
	r = landlock_prepare(&c, landlock_abi_probe(), &d, &plan);
	if (diag_failed(&d))
		diag_print(&d, "test", stderr);
	check(r == 0 && plan.n_path_rules == 150 && fds_open() == before + 1,
	      "150 paths with 3 free descriptors: %zu rules, %d fds open (was %d; the ruleset "
	      "adds one)",
	      plan.n_path_rules, fds_open(), before);
	if (r == 0)
		r = landlock_enforce(&plan, &d);
	check(r == 0, "the domain is entered (%d)", r);
	diag_clear(&d);
	landlock_config_clear(&c);
	check_works(open_at("w", "many", O_CREAT | O_WRONLY), "creating a file in a write path");
	snprintf(p, sizeof(p), "%s/other/existing", base);
	check_errno(open(p, O_WRONLY | O_CLOEXEC), EACCES, "writing outside the paths");
}

/*
 * Where close_range() is refused (an older kernel, or a filter around the
 * launcher), the held descriptors are closed one by one: none stays open.
 */
static void fs_no_close_range(void)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_close_range, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(insns) / sizeof(insns[0]), .filter = insns };
	struct landlock_config c;
	struct landlock_plan plan;
	struct diag d;
	int before, r;

	check(prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0 &&
		      syscall(__NR_close_range, 1000, 1000, 0) < 0 && errno == ENOSYS,
	      "close_range is refused");
	before = fds_open();
	c = config_many(100, NULL);
	diag_init(&d);
	r = landlock_prepare(&c, landlock_abi_probe(), &d, &plan);
	check(r == 0 && plan.n_path_rules == 100 && fds_open() == before + 1,
	      "100 paths without close_range: %zu rules, %d fds open (was %d; the ruleset adds "
	      "one)",
	      plan.n_path_rules, fds_open(), before);
	landlock_plan_close(&plan);
	diag_clear(&d);
	landlock_config_clear(&c);
}

/* ports chosen by the parent: [0] bind listed, [1] bind unlisted, [2] connect
 * listed (listening), [3] connect unlisted (listening) */
static unsigned short ports[4];

static int tcp(const char *op, unsigned short port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), r;

	if (s < 0)
		return -1;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (!strcmp(op, "bind"))
		r = bind(s, (struct sockaddr *)&a, sizeof(a));
	else
		r = connect(s, (struct sockaddr *)&a, sizeof(a));
	if (r < 0) {
		int err = errno;

		close(s);
		errno = err;
	}
	return r;
}

static void net_ports(void)
{
	char b[16], cn[16];
	const char *kv[] = { "bind-tcp", b, "connect-tcp", cn, NULL };

	snprintf(b, sizeof(b), "%u", ports[0]);
	snprintf(cn, sizeof(cn), "%u", ports[2]);
	sandbox(kv, 0);
	check_errno(tcp("bind", ports[1]), EACCES, "binding an unlisted port");
	check_works(tcp("bind", ports[0]), "binding the listed port");
	check_errno(tcp("connect", ports[3]), EACCES, "connecting to an unlisted (listening) port");
	check_works(tcp("connect", ports[2]), "connecting to the listed port");
}

static void net_bind_only(void)
{
	char b[16];
	const char *kv[] = { "bind-tcp", b, NULL };

	snprintf(b, sizeof(b), "%u", ports[0]);
	sandbox(kv, 0);
	check_errno(tcp("bind", ports[1]), EACCES, "bind-tcp alone: binding an unlisted port");
	check_works(tcp("connect", ports[3]), "bind-tcp alone: connecting anywhere");
}

static void best_effort_old_abi(void)
{
	char b[16], out[2048] = "";
	const char *kv[] = { "bind-tcp", b, NULL };
	struct landlock_config c;
	struct landlock_plan plan;
	struct diag d;
	FILE *f;
	int r;

	snprintf(b, sizeof(b), "%u", ports[0]);
	c = config_v(kv);
	diag_init(&d);
	r = landlock_prepare(&c, 3, &d, &plan);
	check(r == 0 && plan.rights.drop_net == LANDLOCK_ACCESS_NET_BIND_TCP,
	      "best-effort on a simulated ABI 3 drops bind-tcp");
	f = fmemopen(out, sizeof(out) - 1, "w");
	landlock_report(&c, &plan.rights, &plan, "landlock: ", f);
	fclose(f);
	check(strstr(out, "landlock: kernel: Landlock ABI 3\n") &&
		      strstr(out,
			     "landlock: bind-tcp: dropped, the kernel lacks it (needs ABI 4)") &&
		      strstr(out, "landlock: scope: dropped, the kernel lacks them (needs ABI 6): "
				  "signal"),
	      "and the report says what was dropped");
	r = landlock_enforce(&plan, &d);
	check(r == 0, "the ABI 3 domain is entered");
	check_works(tcp("bind", ports[1]), "binding an unlisted port (bind-tcp was dropped)");
	check_works(kill(getppid(), 0), "signalling the parent (scope was dropped)");
	diag_clear(&d);
	landlock_config_clear(&c);
}

static void require_old_abi(void)
{
	const char *kv[] = { "mode", "require", "bind-tcp", "80", NULL };
	struct landlock_config c = config_v(kv);
	struct landlock_plan plan;
	struct diag d;
	char out[2048] = "";
	FILE *f;
	int r;

	diag_init(&d);
	r = landlock_prepare(&c, 3, &d, &plan);
	f = fmemopen(out, sizeof(out) - 1, "w");
	diag_print(&d, "scmp-run", f);
	fclose(f);
	check(r == -EOPNOTSUPP && plan.ruleset_fd < 0 &&
		      strstr(out, "scmp-run: t.ini:2: error: landlock: bind-tcp needs Landlock ABI "
				  "4; the kernel has ABI 3 (mode = require)\n") &&
		      strstr(out, "scmp-run: t.ini:1: note: mode = require is set here"),
	      "require on a simulated ABI 3 fails, saying why");
	check_works(tcp("bind", ports[1]), "nothing was enforced after the failure");
	diag_clear(&d);
	landlock_config_clear(&c);
}

static void scope_signal(void)
{
	sandbox(NULL, 0);
	check_errno(kill(getppid(), 0), EPERM, "default scope: kill of the parent");
}

static void scope_none(void)
{
	const char *kv[] = { "scope", "none", NULL };

	sandbox(kv, 0);
	check_works(kill(getppid(), 0), "scope none: kill of the parent");
}

static char abstract_name[64];

static void scope_abstract(void)
{
	const char *kv[] = { "scope", "abstract-unix", NULL };
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	socklen_t len =
		(socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(abstract_name));
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	memcpy(a.sun_path + 1, abstract_name, strlen(abstract_name));
	sandbox(kv, 0);
	check_errno(connect(s, (struct sockaddr *)&a, len), EPERM,
		    "scope abstract-unix: connecting to an abstract socket outside");
	check_works(kill(getppid(), 0), "scope abstract-unix alone: kill of the parent");
}

static void abstract_control(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	socklen_t len =
		(socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(abstract_name));
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	memcpy(a.sun_path + 1, abstract_name, strlen(abstract_name));
	sandbox(NULL, 0);
	check_works(connect(s, (struct sockaddr *)&a, len),
		    "default scope: connecting to an abstract socket outside");
}

/* Write 2 into the parent's parent_word through /proc/PPID/mem. */
static int poke_parent(void)
{
	char p[64];
	int v = 2, fd, r;

	snprintf(p, sizeof(p), "/proc/%d/mem", (int)getppid());
	fd = open(p, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	r = (int)pwrite(fd, &v, sizeof(v), (off_t)(uintptr_t)&parent_word);
	close(fd);
	return r == (int)sizeof(v) ? 0 : -1;
}

static int trace_parent(void)
{
	pid_t pp = getppid();
	int st;

	if (ptrace(PTRACE_ATTACH, pp, 0, 0) < 0)
		return -1;
	if (waitpid(pp, &st, __WALL) < 0)
		return -1;
	return (int)ptrace(PTRACE_DETACH, pp, 0, 0);
}

static void ptrace_denied(void)
{
	sandbox(NULL, 0);
	check(poke_parent() < 0, "no [landlock] keys: writing /proc/PPID/mem fails (%s)",
	      strerrorname_np(errno));
	check_errno(trace_parent(), EPERM, "no [landlock] keys: PTRACE_ATTACH of the parent");
}

static void ptrace_off(void)
{
	const char *kv[] = { "mode", "off", NULL };

	sandbox(kv, 0);
	check_works(poke_parent(), "mode off: writing /proc/PPID/mem");
	check_works(trace_parent(), "mode off: PTRACE_ATTACH of the parent");
	check_works(kill(getppid(), 0), "mode off: kill of the parent");
}

/* ---- the harness ---- */

/*
 * Run fn in a grandchild G whose parent C has the identity under test and
 * no_new_privs; G's results come back through a pipe and become TAP lines.
 * C checks after G whether /proc/PPID/mem changed its memory (want_poke:
 * whether it should have).
 */
static void run(const char *name, void (*fn)(void), int want_poke)
{
	int pfd[2];
	pid_t c;
	FILE *in;
	char line[600];
	int st, n = 0;

	if (pipe2(pfd, O_CLOEXEC) < 0)
		abort();
	fflush(stdout);
	c = fork();
	if (c == 0) {
		pid_t g;

		close(pfd[0]);
		report_fd = pfd[1];
		if (getuid() == 0 && strcmp(who, "root")) {
			if (setgroups(0, NULL) < 0 || setgid(NOBODY) < 0 || setuid(NOBODY) < 0)
				_exit(4);
		}
		/* a set*id() clears dumpable; ptrace and /proc/PID/mem need it */
		if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0 ||
		    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
			_exit(4);
		g = fork();
		if (g == 0) {
			fn();
			_exit(0);
		}
		if (waitpid(g, &st, 0) != g || !WIFEXITED(st) || WEXITSTATUS(st))
			check(false, "the sandboxed child exited with status %#x", st);
		if (want_poke >= 0)
			check(parent_word == (want_poke ? 2 : 1), "the parent's memory %s changed",
			      want_poke ? "was" : "was not");
		_exit(0);
	}
	close(pfd[1]);
	in = fdopen(pfd[0], "r");
	while (fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\n")] = '\0';
		tap_ok(line[0] == '1', "%s, %s: %s", who, name, line + 2);
		n++;
	}
	fclose(in);
	if (waitpid(c, &st, 0) != c || !WIFEXITED(st) || WEXITSTATUS(st))
		tap_ok(false, "%s, %s: the child exited with status %#x", who, name, st);
	if (!n)
		tap_ok(false, "%s, %s: no result", who, name);
}

static unsigned short free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    getsockname(s, (struct sockaddr *)&a, &len) < 0)
		abort();
	close(s);
	return ntohs(a.sin_port);
}

static int listener(unsigned short *ret_port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(s, 16) < 0 ||
	    getsockname(s, (struct sockaddr *)&a, &len) < 0)
		abort();
	*ret_port = ntohs(a.sin_port);
	return s;
}

static int abstract_listener(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(abstract_name, sizeof(abstract_name), "scmp-run-landlock-test-%d", (int)getpid());
	memcpy(a.sun_path + 1, abstract_name, strlen(abstract_name));
	if (s < 0 ||
	    bind(s, (struct sockaddr *)&a,
		 (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(abstract_name))) <
		    0 ||
	    listen(s, 16) < 0)
		abort();
	return s;
}

static void make_tree(void)
{
	char p[128];
	int fd;

	strcpy(base, "/tmp/scmp-run-landlock-XXXXXX");
	if (!mkdtemp(base) || chmod(base, 0755) < 0)
		abort();
	for (const char *const *d = (const char *const[]){ "w", "r", "other", NULL }; *d; d++) {
		snprintf(p, sizeof(p), "%s/%s", base, *d);
		if (mkdir(p, 0777) < 0 || chmod(p, strcmp(*d, "r") ? 0777 : 0755) < 0)
			abort();
	}
	for (const char *const *f = (const char *const[]){ "r/f", "other/existing", NULL }; *f;
	     f++) {
		snprintf(p, sizeof(p), "%s/%s", base, *f);
		fd = open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0666);
		if (fd < 0 || fchmod(fd, 0666) < 0 || write(fd, "x\n", 2) != 2)
			abort();
		close(fd);
	}
}

int main(void)
{
	const char *ids[] = { "root", "uid 65534" };
	int abi = landlock_abi_probe(), l2, l4, la;
	char cmd[128];

	if (abi < 6) {
		printf("1..0 # SKIP the kernel's Landlock ABI is %d; these tests need 6\n", abi);
		return 0;
	}
	tap_diag("kernel Landlock ABI %d", abi);
	make_tree();
	ports[0] = free_port();
	do
		ports[1] = free_port();
	while (ports[1] == ports[0]);
	l2 = listener(&ports[2]);
	l4 = listener(&ports[3]);
	la = abstract_listener();

	for (int i = 0; i < 2; i++) {
		who = ids[i];
		if (i == 0 && getuid() != 0) {
			tap_skip("root: the test does not run as root");
			continue;
		}
		if (i == 1 && getuid() != 0)
			who = "this user";
		run("write/read paths", fs_paths, -1);
		run("rules on files", fs_files, -1);
		run("'.'", fs_dot, -1);
		run("missing paths", fs_missing, -1);
		run("many paths, few descriptors", fs_many_fds, -1);
		run("no close_range", fs_no_close_range, -1);
		run("tcp ports", net_ports, -1);
		run("bind-tcp only", net_bind_only, -1);
		run("best-effort", best_effort_old_abi, -1);
		run("require", require_old_abi, -1);
		run("scope signal", scope_signal, -1);
		run("scope none", scope_none, -1);
		run("scope abstract-unix", scope_abstract, -1);
		run("abstract socket control", abstract_control, -1);
		run("ptrace in a domain", ptrace_denied, 0);
		run("ptrace without a domain", ptrace_off, 1);
	}
	close(l2);
	close(l4);
	close(la);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	if (system(cmd) != 0)
		tap_diag("could not remove %s", base);
	return tap_done();
}
