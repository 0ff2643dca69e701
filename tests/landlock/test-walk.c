/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * [landlock] rule paths with a link on the way and a write path present
 * (scmp-run.ini(5) LANDLOCK, Paths): which are refused, and how many
 * components are looked at. This program replaces lstat() and statfs() to
 * count them.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "landlock.h"
#include "tests/tap.h"

static char base[] = "/tmp/test-landlock-walk-XXXXXX";
static unsigned n_lstat, n_statfs;

int lstat(const char *path, struct stat *st)
{
	n_lstat++;
	return (int)syscall(SYS_newfstatat, AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

int statfs(const char *path, struct statfs *sf)
{
	n_statfs++;
	return (int)syscall(SYS_statfs, path, sf);
}

/* The components of the absolute path p. */
static unsigned depth(const char *p)
{
	unsigned n = 0;

	for (; *p; p++)
		n += p[0] == '/' && p[1] && p[1] != '/';
	return n;
}

static void tree_add(const char *kind, const char *name, const char *target)
{
	char p[256];
	int r;

	snprintf(p, sizeof(p), "%s/%s", base, name);
	if (!strcmp(kind, "dir"))
		r = mkdir(p, 0755);
	else if (!strcmp(kind, "file"))
		r = close(open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0644));
	else
		r = symlink(target, p);
	if (r < 0)
		abort();
}

/*
 * w the write directory; a above it, a link to real; wl a link to w; w/in
 * a link below w to real (a command's, from an earlier run); real/tow a
 * link to w further down; end a link to a file at the end of a path.
 */
static void make_tree(void)
{
	if (!mkdtemp(base))
		abort();
	tree_add("dir", "w", NULL);
	tree_add("dir", "real", NULL);
	tree_add("dir", "real/sub", NULL);
	tree_add("file", "real/sub/file", NULL);
	tree_add("link", "a", "real");
	tree_add("link", "wl", "w");
	tree_add("link", "w/in", "../real");
	tree_add("link", "real/tow", "../w");
	tree_add("link", "end", "real/sub/file");
}

/* landlock_path_check() of base/rel with base/w the write path; the calls
 * counted from zero. */
static int check(const char *rel, bool *ret_planted)
{
	char w[256], p[256];
	const char *kv[] = { "write", w, "read", p };
	struct landlock_config c;
	struct landlock_link_dirs *ld;
	struct landlock_path_rule pr;
	struct src_loc loc = { .file = "t.ini", .line = 1 };
	struct diag d;
	int r;

	snprintf(w, sizeof(w), "%s/w", base);
	snprintf(p, sizeof(p), "%s/%s", base, rel);
	landlock_config_init(&c);
	diag_init(&d);
	for (size_t i = 0; i < 4; i += 2)
		if (landlock_parse_key_diag(&c, kv[i], kv[i + 1], &loc, &d) < 0)
			abort();
	if (landlock_link_dirs_new(&c, &ld) < 0)
		abort();
	pr = c.paths[1];
	n_lstat = n_statfs = 0;
	r = landlock_path_check(ld, &pr, ret_planted);
	landlock_link_dirs_free(ld);
	diag_clear(&d);
	landlock_config_clear(&c);
	return r;
}

/* After the link above the write path, the rest of the path is opened at once. */
static void link_above(void)
{
	unsigned d = depth(base);
	bool planted;
	int r;

	r = check("a/sub/file", &planted);
	tap_ok(r == 0 && n_lstat == d + 1,
	       "a link above the write path and none after: accepted (%d), %u components looked "
	       "at (want %u: up to the link)",
	       r, n_lstat, d + 1);
	r = check("end", &planted);
	tap_ok(r == 0 && n_lstat == d + 1,
	       "a link above the write path at the end, to a file: accepted (%d), %u components "
	       "looked at (want %u)",
	       r, n_lstat, d + 1);
	r = check("a/sub/missing?", &planted);
	tap_ok(r == 0, "... a missing optional path after it: skipped (%d)", r);
	r = check("a/sub/missing", &planted);
	tap_ok(r == -ENOENT && !planted, "... a missing path after it: ENOENT, not planted (%d)",
	       r);
	r = check("a/sub/file/x", &planted);
	tap_ok(r == -ENOTDIR && !planted, "... a file on the way after it: ENOTDIR (%d)", r);
	r = check("wl/missing", &planted);
	tap_ok(r == -ENOENT && !planted,
	       "a link to the write path, a missing path below: ENOENT, not planted (%d)", r);
}

/* A link below the write path is refused, however many links lead there. */
static void link_below(void)
{
	bool planted;
	int r;

	r = check("wl/in/sub/file", &planted);
	tap_ok(r == -ELOOP && planted,
	       "a link to the write path, then a link below it: ELOOP, planted (%d, %d)", r,
	       planted);
	r = check("a/tow/in/sub/file", &planted);
	tap_ok(r == -ELOOP && planted,
	       "two links to the write path, then a link below it: ELOOP, planted (%d, %d)", r,
	       planted);
	r = check("wl/in", &planted);
	tap_ok(r == -ELOOP && planted,
	       "a link below the write path at the end: ELOOP, planted (%d)", r);
}

/* A link at the end on the root file system is no /proc link: /proc is not
 * looked at for it. */
static void link_at_end(void)
{
	struct stat st, root;
	bool planted, on_root;
	int r;

	if (stat(base, &st) < 0 || stat("/", &root) < 0)
		abort();
	on_root = st.st_dev == root.st_dev;
	r = check("end", &planted);
	tap_ok(r == 0 && n_statfs == !on_root,
	       "a link at the end %s the root file system: accepted (%d), /proc looked at %u "
	       "times (want %u)",
	       on_root ? "on" : "off", r, n_statfs, !on_root);
}

/*
 * A filter answering openat2 with err for a path at or above mark: 0 for
 * every path; this program's data for a path refused with err, as the rule
 * paths are on the heap, above it, and the "/" the launcher asks for to
 * tell the two apart is not.
 */
static void openat2_filter(int err, uintptr_t mark)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const unsigned lo = offsetof(struct seccomp_data, args[1]), hi = lo + 4;
#else
	const unsigned hi = offsetof(struct seccomp_data, args[1]), lo = hi + 4;
#endif
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat2, 0, 6),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, hi),
		BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, (uint32_t)((uint64_t)mark >> 32), 3, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)((uint64_t)mark >> 32), 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, lo),
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, (uint32_t)mark, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned)err),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(insns) / sizeof(insns[0]), .filter = insns };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0)
		_exit(127);
}

/* The result of check(rel) in a child under openat2_filter(err, mark):
 * -r, with 128 added when planted. */
static int check_filtered(int err, uintptr_t mark, const char *rel)
{
	pid_t pid = tap_fork();
	bool planted = false;
	int r;

	if (pid == 0) {
		openat2_filter(err, mark);
		r = check(rel, &planted);
		_exit(-r + (planted ? 128 : 0));
	}
	return tap_wait(pid);
}

/* A filter around the launcher that refuses openat2 with ENOSYS or EPERM:
 * each path is opened one component at a time, with the same outcome. */
static void filtered(void)
{
	static const int errs[] = { ENOSYS, EPERM };
	int r;

	for (size_t i = 0; i < 2; i++) {
		const char *name = strerrorname_np(errs[i]);

		r = check_filtered(errs[i], 0, "a/sub/file");
		tap_ok(r == 0,
		       "openat2 refused with %s: a link above the write path: accepted (%d)", name,
		       r);
		r = check_filtered(errs[i], 0, "real/sub/file");
		tap_ok(r == 0, "openat2 refused with %s: no link on the way: accepted (%d)", name,
		       r);
		r = check_filtered(errs[i], 0, "a/sub/missing");
		tap_ok(r == ENOENT, "openat2 refused with %s: a missing path: ENOENT (%d)", name,
		       r);
		r = check_filtered(errs[i], 0, "wl/in/sub/file");
		tap_ok(r == ELOOP + 128,
		       "openat2 refused with %s: a link below the write path: ELOOP, planted (%d)",
		       name, r);
	}
	/* near miss: openat2 works, the path is refused */
	r = check_filtered(EPERM, (uintptr_t)&n_lstat, "real/sub/file");
	tap_ok(r == EPERM, "a path refused with EPERM, openat2 of / works: EPERM (%d)", r);
}

int main(void)
{
	char cmd[128];

	make_tree();
	link_above();
	link_below();
	link_at_end();
	filtered();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	if (system(cmd) != 0)
		tap_diag("could not remove %s", base);
	return tap_done();
}
