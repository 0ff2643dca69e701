/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Built-in syscall groups: systemd's names, nesting as in systemd, no unknown
 * references, no cycles, sorted for lookup; their expansion at build time.
 */
#include <stdlib.h>
#include <string.h>

#include "groups-flat.h"
#include "groups.h"
#include "syscalls.h"
#include "tests/tap.h"

static const char *const systemd_groups[] = {
	"@aio",	     "@basic-io",  "@chown",	      "@clock",	   "@cpu-emulation",
	"@debug",    "@default",   "@file-system",    "@io-event", "@ipc",
	"@keyring",  "@memlock",   "@module",	      "@mount",	   "@network-io",
	"@obsolete", "@pkey",	   "@privileged",     "@process",  "@raw-io",
	"@reboot",   "@resources", "@sandbox",	      "@setuid",   "@signal",
	"@swap",     "@sync",	   "@system-service", "@timer",
};

#define N_SYSTEMD     (sizeof(systemd_groups) / sizeof(systemd_groups[0]))
#define SYSCALL_CHARS "abcdefghijklmnopqrstuvwxyz0123456789_"

static bool has_member(const struct group *g, const char *name)
{
	for (const char *m = g->members; m && *m; m = groups_next(m))
		if (strcmp(m, name) == 0)
			return true;
	return false;
}

/* Does group g contain syscall name, following "@group" references? depth
 * bounds the walk so that a cycle cannot hang the test. */
static bool expands_to(const struct group *g, const char *name, int depth)
{
	if (!g || depth > 16)
		return false;
	for (const char *m = g->members; m && *m; m = groups_next(m)) {
		if (m[0] == '@') {
			if (expands_to(groups_lookup(m), name, depth + 1))
				return true;
		} else if (strcmp(m, name) == 0) {
			return true;
		}
	}
	return false;
}

/* 0 unvisited, 1 on the stack, 2 done; returns true if a cycle is reachable. */
static bool has_cycle(const struct group *list, size_t n, size_t i, int *state)
{
	if (state[i] == 1)
		return true;
	if (state[i] == 2)
		return false;
	state[i] = 1;
	for (const char *m = list[i].members; *m; m = groups_next(m)) {
		const struct group *r;

		if (m[0] != '@')
			continue;
		r = groups_lookup(m);
		if (r && r->members && has_cycle(list, n, (size_t)(r - list), state))
			return true;
	}
	state[i] = 2;
	return false;
}

static void test_list(void)
{
	size_t n = 0;
	const struct group *list = groups_list(&n);
	size_t bad_desc = 0, bad_members = 0, unsorted = 0, bad_refs = 0, dups = 0, bad_names = 0;

	tap_is(n, N_SYSTEMD, "%zu built-in groups besides @known", n);
	for (size_t i = 0; i < N_SYSTEMD; i++)
		tap_ok(groups_lookup(systemd_groups[i]) != NULL, "%s exists", systemd_groups[i]);

	for (size_t i = 0; i < n; i++) {
		const struct group *g = &list[i];

		if (!g->description || !g->description[0] || strchr(g->description, '\n'))
			bad_desc++;
		if (!g->members || !g->members[0])
			bad_members++;
		if (i > 0 && strcmp(list[i - 1].name, g->name) >= 0)
			unsorted++;
		if (groups_lookup(g->name) != g)
			unsorted++;
		for (const char *m = g->members; m && *m; m = groups_next(m)) {
			if (m[0] == '@') {
				const struct group *r = groups_lookup(m);

				if (!r || !r->members) {
					tap_diag("%s references unknown group %s", g->name, m);
					bad_refs++;
				}
			} else if (strspn(m, SYSCALL_CHARS) != strlen(m)) {
				tap_diag("%s: odd syscall name '%s'", g->name, m);
				bad_names++;
			}
			for (const char *k = groups_next(m); *k; k = groups_next(k))
				if (strcmp(k, m) == 0) {
					tap_diag("%s lists %s twice", g->name, m);
					dups++;
				}
		}
	}
	tap_is(bad_desc, (size_t)0, "every group has a one-line description");
	tap_is(bad_members, (size_t)0, "every group has members");
	tap_is(unsorted, (size_t)0, "groups are sorted by name and found by lookup");
	tap_is(bad_refs, (size_t)0, "no group references an unknown group (or @known)");
	tap_is(dups, (size_t)0, "no group lists a member twice");
	tap_is(bad_names, (size_t)0, "member names look like syscall names");

	int state[64] = { 0 };
	bool cycle = false;

	for (size_t i = 0; i < n && i < 64; i++)
		cycle = cycle || has_cycle(list, n, i, state);
	tap_ok(!cycle && n < 64, "no group nests into itself");
}

static void test_systemd_meaning(void)
{
	const struct group *ss = groups_lookup("@system-service");
	const struct group *priv = groups_lookup("@privileged");
	const struct group *def = groups_lookup("@default");
	static const char *const ss_refs[] = {
		"@aio",	   "@basic-io", "@chown",   "@default",	   "@file-system", "@io-event",
		"@ipc",	   "@keyring",	"@memlock", "@network-io", "@process",	   "@resources",
		"@setuid", "@signal",	"@sync",    "@timer",
	};
	static const char *const ss_in[] = {
		"read",		"write",   "openat", "close",
		"epoll_wait",	"socket",  "clone",  "execve",
		"rt_sigaction", "futex",   "mmap",   "landlock_create_ruleset",
		"ioctl",	"madvise", "uname",  "setuid",
		"fchown",
	};
	static const char *const ss_out[] = {
		"mount", "reboot",     "init_module", "ptrace", "swapon",	   "settimeofday",
		"iopl",	 "kexec_load", "acct",	      "bpf",	"perf_event_open", "pkey_alloc",
	};

	tap_ok(ss && priv && def, "@system-service, @privileged and @default exist");
	if (!ss || !priv || !def)
		return;
	for (size_t i = 0; i < sizeof(ss_refs) / sizeof(ss_refs[0]); i++)
		tap_ok(has_member(ss, ss_refs[i]), "@system-service includes %s", ss_refs[i]);
	for (size_t i = 0; i < sizeof(ss_in) / sizeof(ss_in[0]); i++)
		tap_ok(expands_to(ss, ss_in[i], 0), "@system-service allows %s", ss_in[i]);
	for (size_t i = 0; i < sizeof(ss_out) / sizeof(ss_out[0]); i++)
		tap_ok(!expands_to(ss, ss_out[i], 0), "@system-service does not allow %s",
		       ss_out[i]);

	tap_ok(has_member(priv, "@chown") && has_member(priv, "@clock") &&
		       has_member(priv, "@module") && has_member(priv, "@raw-io") &&
		       has_member(priv, "@reboot") && has_member(priv, "@swap"),
	       "@privileged includes @chown @clock @module @raw-io @reboot @swap");
	tap_ok(has_member(priv, "setuid") && !has_member(priv, "setgid"),
	       "@privileged lists setuid but not setgid (as systemd)");
	tap_ok(has_member(def, "@sandbox") && expands_to(def, "seccomp", 0),
	       "@default includes @sandbox");
	tap_ok(expands_to(def, "execve", 0) && expands_to(def, "exit_group", 0) &&
		       expands_to(def, "rt_sigreturn", 0) && !expands_to(def, "read", 0),
	       "@default: execve, exit_group, rt_sigreturn, not read");
	tap_ok(expands_to(groups_lookup("@mount"), "umount2", 0) &&
		       expands_to(groups_lookup("@mount"), "pivot_root", 0),
	       "@mount has umount2 and pivot_root");
	tap_ok(expands_to(groups_lookup("@obsolete"), "uselib", 0), "@obsolete has uselib");
}

static void test_lookup(void)
{
	const struct group *k = groups_lookup("@known");

	tap_ok(k && k->members == NULL && k->description && k->description[0],
	       "@known exists with members NULL and a description");
	tap_ok(groups_lookup("@nope") == NULL, "unknown group is NULL");
	tap_ok(groups_lookup("default") == NULL, "the name includes the '@'");
	tap_ok(groups_lookup("@Default") == NULL, "group names are case-sensitive");
	tap_ok(groups_lookup("") == NULL && groups_lookup(NULL) == NULL, "empty and NULL");
	tap_ok(groups_lookup("@zzz") == NULL && groups_lookup("@") == NULL,
	       "names around the ends of the table");
}

/* The build-time expansion (groups-flat.h) against a walk of the member
 * lists here: the same names, each once, in depth-first order. */
struct walk {
	const char *names[1024];
	size_t n;
	const struct group *done[64];
	size_t n_done;
};

static void walk_name(struct walk *w, const char *name)
{
	for (size_t i = 0; i < w->n; i++)
		if (!strcmp(w->names[i], name))
			return;
	if (w->n < sizeof(w->names) / sizeof(w->names[0]))
		w->names[w->n++] = name;
}

static void walk_group(struct walk *w, const struct group *g)
{
	for (size_t i = 0; i < w->n_done; i++)
		if (w->done[i] == g)
			return;
	if (!g || w->n_done >= sizeof(w->done) / sizeof(w->done[0]))
		return;
	w->done[w->n_done++] = g;
	for (const char *m = g->members; *m; m = groups_next(m))
		if (m[0] == '@')
			walk_group(w, groups_lookup(m));
		else
			walk_name(w, m);
}

static bool flat_is(const struct groups_flat *f, const char *const *names, size_t n)
{
	if (f->n != n)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned v = groups_flat_ids[f->first + i];
		const char *got = v & GROUPS_FLAT_OTHER
					  ? groups_flat_other + (v & ~GROUPS_FLAT_OTHER)
					  : syscalls_name_of_id((int)v);

		if (!got || strcmp(got, names[i]) ||
		    (syscalls_name_id(names[i]) < 0) != !!(v & GROUPS_FLAT_OTHER))
			return false;
	}
	return true;
}

static void test_flat(void)
{
	size_t n, n_known;
	const struct group *list = groups_list(&n);
	const char **known;

	tap_ok(groups_flat_n == n + 1, "one expansion per group, and @known");
	for (size_t g = 0; g < n; g++) {
		struct walk w = { .n = 0 };

		walk_group(&w, &list[g]);
		tap_ok(flat_is(&groups_flat[g], w.names, w.n),
		       "%s expanded at build time: %zu names", list[g].name, w.n);
	}
	tap_ok(syscalls_names(&known, &n_known) == 0 && flat_is(&groups_flat[n], known, n_known),
	       "@known expanded at build time: every name of the table");
	free(known);
}

int main(void)
{
	test_list();
	test_systemd_meaning();
	test_lookup();
	test_flat();
	return tap_done();
}
