/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of the profile loader: good profiles give the expected rules,
 * every bad fixture (every .ini in tests/profiles/bad) is rejected as its header says. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/arch.h"
#include "src/groups.h"
#include "src/profile-path.h"
#include "src/policy.h"
#include "src/profile.h"
#include "src/syscalls.h"
#include "tests/profiles/named.h"
#include "tests/profiles/xasprintf.h"
#include "tests/tap.h"

#define BAD_FIXTURES_MIN 40

static const char *srcdir; /* tests/profiles in the source tree */
static const struct arch *native;

static void dump_diag(const struct diag *d)
{
	for (size_t i = 0; i < d->n_msgs; i++)
		tap_diag("  %s:%u: %s", d->msgs[i].loc.file ? d->msgs[i].loc.file : "(none)",
			 d->msgs[i].loc.line, d->msgs[i].text ? d->msgs[i].text : "(oom)");
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix) && (a == b || s[a - b - 1] == '/');
}

/* An error located at a file ending in file_suffix, line, containing text. */
static bool has_error(const struct diag *d, const char *file_suffix, unsigned line,
		      const char *text)
{
	for (size_t i = 0; i < d->n_msgs; i++) {
		const struct diag_msg *m = &d->msgs[i];

		if (m->severity == DIAG_ERROR && m->loc.file &&
		    ends_with(m->loc.file, file_suffix) && m->loc.line == line && m->text &&
		    strstr(m->text, text))
			return true;
	}
	return false;
}

static struct profile *load(const char *path, struct diag *d, int *ret_r)
{
	struct profile *p = NULL;

	diag_init(d);
	*ret_r = profile_load(path, NULL, native, d, &p);
	return p;
}

static struct profile *load_good(const char *rel, struct diag *d)
{
	char *path = xasprintf("%s/%s", srcdir, rel);
	int r;
	struct profile *p = load(path, d, &r);

	if (!tap_ok(r == 0 && p && d->n_errors == 0, "%s loads", rel))
		dump_diag(d);
	free(path);
	return p;
}

static bool rule_is(const struct ruleset *rs, size_t i, const char *name, enum action_kind kind,
		    const char *file, unsigned line, size_t n_cmps, bool optional)
{
	const struct rule *r;

	if (i >= rs->n_rules)
		return false;
	r = &rs->rules[i];
	if (strcmp(r->syscall, name) || r->action.kind != kind || !ends_with(r->loc.file, file) ||
	    r->loc.line != line || r->conj.n_cmps != n_cmps || r->optional != optional) {
		tap_diag("rule %zu: %s %s %s:%u cmps=%zu opt=%d", i, r->syscall,
			 action_kind_name(r->action.kind), r->loc.file, r->loc.line, r->conj.n_cmps,
			 r->optional);
		return false;
	}
	return true;
}

static void test_basic(void)
{
	struct diag d;
	struct profile *p = load_good("good/basic.ini", &d);
	const struct ruleset *rs;
	const struct filter_attrs *at;
	const char *f = "good/basic.ini";

	if (!p)
		goto out;
	rs = p->rs;
	at = &rs->attrs;
	tap_ok(p->description && !strcmp(p->description, "basic test profile"),
	       "basic: description");
	tap_ok(at->has_default_action && at->default_action.kind == ACTION_ERRNO &&
		       at->default_action.data == 1,
	       "basic: default-action errno(EPERM)");
	tap_ok(at->bad_arch_action.kind == ACTION_KILL_THREAD, "basic: bad-arch-action");
	tap_ok(at->has_unknown_action && at->unknown_action.kind == ACTION_ERRNO &&
		       at->unknown_action.data == 38,
	       "basic: unknown-syscall-action errno(ENOSYS)");
	tap_is(at->arches, ARCH_NATIVE_BIT | 1u << ARCH_X86, "basic: architectures native x86");
	tap_ok(!at->no_new_privs && at->tsync && at->log && !at->spec_allow,
	       "basic: booleans no/on/TRUE/0");
	tap_is(rs->n_rules, (size_t)11, "basic: 11 rules");
	tap_ok(rule_is(rs, 0, "read", ACTION_ALLOW, f, 17, 0, false) &&
		       rule_is(rs, 1, "close", ACTION_ALLOW, f, 17, 0, false) &&
		       rule_is(rs, 2, "fstat", ACTION_ALLOW, f, 17, 0, false),
	       "basic: syscalls list, one rule per name");
	tap_ok(rule_is(rs, 3, "mmap", ACTION_ALLOW, f, 18, 0, false) &&
		       rule_is(rs, 4, "munmap", ACTION_ALLOW, f, 18, 0, false),
	       "basic: continuation line, located at its own line, inline comment cut");
	tap_ok(rule_is(rs, 5, "write", ACTION_ALLOW, f, 19, 1, false) &&
		       rule_is(rs, 6, "write", ACTION_ALLOW, f, 19, 1, false) &&
		       rs->rules[5].conj.cmps[0].values[0].terms[0].lit == 1 &&
		       rs->rules[6].conj.cmps[0].values[0].terms[0].lit == 2,
	       "basic: 'fd == 1 || fd == 2' is two rules at one location");
	tap_ok(rule_is(rs, 7, "landlock_create_ruleset", ACTION_ALLOW, f, 20, 1, true),
	       "basic: 'name?' with a condition is optional");
	tap_ok(rule_is(rs, 8, "open", ACTION_ERRNO, f, 23, 0, false) &&
		       rs->rules[8].action.data == 13,
	       "basic: [errno(EACCES)] section");
	tap_ok(rule_is(rs, 9, "openat", ACTION_ERRNO, f, 24, 1, false) &&
		       rs->rules[9].conj.cmps[0].op == CMP_MASKED_NE,
	       "basic: 'key: value' with a masked condition");
	tap_ok(rule_is(rs, 10, "ptrace", ACTION_KILL_PROCESS, f, 27, 0, false),
	       "basic: [kill-process]");
	bool seq_ok = true;

	for (size_t i = 0; i < rs->n_rules; i++)
		seq_ok &= rs->rules[i].seq == i;
	tap_ok(seq_ok, "basic: rules numbered in written order");
	tap_ok(rs->n_prios == 2 && !strcmp(rs->prios[0].syscall, "read") &&
		       rs->prios[0].prio == 255 && rs->prios[0].loc.line == 30 &&
		       !strcmp(rs->prios[1].syscall, "write") && rs->prios[1].prio == 0,
	       "basic: priorities");
	tap_ok(p->n_keep_caps == 3 && p->keep_caps[0] == 10 && p->keep_caps[1] == 0 &&
		       p->keep_caps[2] == 5,
	       "basic: keep = CAP_NET_BIND_SERVICE chown cap_Kill");
	tap_ok(p->ambient, "basic: ambient");
	tap_ok(p->has_user && !strcmp(p->user, "nobody") && p->user_loc.line == 38 &&
		       ends_with(p->user_loc.file, f),
	       "basic: user kept as written, located");
	tap_ok(p->has_group && !strcmp(p->group, "65534") && p->group_loc.line == 39,
	       "basic: group kept as written");
out:
	profile_free(p);
	diag_clear(&d);
}

static void test_override(void)
{
	struct diag d;
	struct profile *p = load_good("good/override.ini", &d);
	const struct ruleset *rs;
	const char *f = "good/override.ini", *b = "good/inc/base.ini";

	if (!p)
		goto out;
	rs = p->rs;
	tap_ok(rs->attrs.default_action.kind == ACTION_KILL_PROCESS,
	       "override: an include overrides what came before it");
	tap_ok(!rs->attrs.log, "override: what comes after an include overrides it");
	tap_ok(rs->attrs.tsync, "override: what only the include sets is kept");
	tap_is(rs->n_rules, (size_t)4, "override: rules accumulate over includes");
	tap_ok(rule_is(rs, 0, "read", ACTION_ALLOW, b, 11, 0, false) &&
		       rule_is(rs, 1, "read", ACTION_ALLOW, f, 14, 0, false) &&
		       rule_is(rs, 2, "close", ACTION_ALLOW, f, 14, 0, false) &&
		       rule_is(rs, 3, "write", ACTION_ALLOW, f, 14, 0, false),
	       "override: included rules first, a group of the include expands at its use");
	tap_ok(p->n_keep_caps == 1 && p->keep_caps[0] == 5,
	       "override: a later 'keep' replaces the list");
out:
	profile_free(p);
	diag_clear(&d);
}

static void test_caller(void)
{
	struct diag d;
	struct profile *p = load_good("good/caller.ini", &d);
	const struct caller_settings *c;

	if (!p)
		goto out;
	c = &p->caller;
	tap_ok(!c->keep_all_fds && c->n_keep_fds == 4 && c->keep_fds[0] == 7 &&
		       c->keep_fds[1] == 5 && c->keep_fds[2] == 3 && c->keep_fds[3] == 9,
	       "caller: keep-fds accumulates in the order read, includes counted");
	tap_ok(c->reset_signals,
	       "caller: reset-signals = yes of the include overrides the no before");
	tap_ok(c->new_session, "caller: new-session = on after the include wins");
	tap_ok(!c->new_session_keyring, "caller: new-session-keyring = off");
	tap_ok(c->env_clear, "caller: clear = true from the include");
	tap_ok(c->n_env_keep == 3 && !strcmp(c->env_keep[0], "PATH") &&
		       !strcmp(c->env_keep[1], "LANG") && !strcmp(c->env_keep[2], "TERM"),
	       "caller: keep accumulates");
	tap_ok(c->n_env_set == 2 && !strcmp(c->env_set[0], "GREETING=hello world=1") &&
		       !strcmp(c->env_set[1], "EMPTY="),
	       "caller: set entries as written, in order");
	profile_free(p);
	diag_clear(&d);

	p = load_good("good/basic.ini", &d);
	if (!p)
		goto out;
	c = &p->caller;
	tap_ok(c->reset_signals && !c->new_session && c->new_session_keyring && !c->env_clear &&
		       !c->keep_all_fds && !c->n_keep_fds && !c->n_env_keep && !c->n_env_set,
	       "caller: without the sections, the defaults");
out:
	profile_free(p);
	diag_clear(&d);
}

static size_t count_known(void)
{
	const char **names = NULL;
	size_t n = 0;

	for (int id = 0; id < ARCH_COUNT; id++) {
		size_t m;
		const struct syscall *sc = syscalls_list(arch_get((enum arch_id)id), &m);

		for (size_t i = 0; sc && i < m; i++) {
			size_t j;

			for (j = 0; j < n && strcmp(names[j], syscall_name(&sc[i])); j++)
				;
			if (j < n)
				continue;
			names = realloc(names, (n + 1) * sizeof(*names));
			if (!names)
				abort();
			names[n++] = syscall_name(&sc[i]);
		}
	}
	free(names);
	return n;
}

static void test_groups(void)
{
	struct diag d;
	struct profile *p = load_good("good/groups.ini", &d);
	const struct ruleset *rs;
	const char *f = "good/groups.ini";
	size_t n_errno = 0, n_trap = 0;
	bool all_opt = true, has_settime = false;

	if (!p)
		goto out;
	rs = p->rs;
	tap_ok(rule_is(rs, 0, "read", ACTION_ALLOW, f, 7, 0, false) &&
		       rule_is(rs, 1, "write", ACTION_ALLOW, f, 7, 0, false) &&
		       rule_is(rs, 2, "not_a_syscall_anywhere", ACTION_ALLOW, f, 7, 0, true) &&
		       rule_is(rs, 3, "close", ACTION_ALLOW, f, 7, 0, false),
	       "groups: nested user groups expand in order, defined after their use");
	tap_ok(rs->n_rules > 4 && strcmp(rs->rules[4].syscall, "read"),
	       "groups: a name twice in one key gives one rule");
	for (size_t i = 4; i < rs->n_rules; i++) {
		const struct rule *r = &rs->rules[i];

		all_opt &= r->optional;
		if (r->action.kind == ACTION_ERRNO) {
			n_errno++;
			has_settime |= !strcmp(r->syscall, "clock_settime");
		} else if (r->action.kind == ACTION_TRAP) {
			n_trap++;
		}
	}
	tap_ok(n_errno > 0 && has_settime, "groups: @clock expands (%zu names)", n_errno);
	tap_is(n_trap, count_known(), "groups: @known is every name of every table");
	tap_ok(all_opt, "groups: names from built-in groups are optional");
out:
	profile_free(p);
	diag_clear(&d);
}

static void test_priority_group(void)
{
	struct diag d;
	struct profile *p = load_good("good/priority-group.ini", &d);
	struct policy *pol = NULL;
	unsigned read_prio = 0;
	bool has_llseek = false;

	if (!p)
		goto out;
	for (size_t i = 0; i < p->rs->n_prios; i++) {
		if (!strcmp(p->rs->prios[i].syscall, "read"))
			read_prio = p->rs->prios[i].prio;
		has_llseek |= !strcmp(p->rs->prios[i].syscall, "llseek");
	}
	tap_ok(read_prio == 255 && !has_llseek,
	       "priority: a group sets its members, unknown members skipped, later wins");
	tap_ok(policy_build(p->rs, arch_native(), &d, &pol) == 0,
	       "priority: a profile with a group in [priority] compiles");
	policy_free(pol);
out:
	profile_free(p);
	diag_clear(&d);
}

/* scmp-run.ini(5) NUMBERS: hex and both octal spellings in actions,
 * conditions and priorities. */
static void test_numbers(void)
{
	struct diag d;
	struct profile *p = load_good("good/numbers.ini", &d);
	unsigned prio[3] = { 0 };
	uint64_t lits[3] = { 0 };
	size_t n_lits = 0;
	const struct rule *trace = NULL;

	if (!p)
		goto out;
	for (size_t i = 0; i < p->rs->n_prios; i++) {
		const struct priority *q = &p->rs->prios[i];

		prio[0] |= !strcmp(q->syscall, "read") ? q->prio : 0;
		prio[1] |= !strcmp(q->syscall, "write") ? q->prio : 0;
		prio[2] |= !strcmp(q->syscall, "close") ? q->prio : 0;
	}
	tap_ok(prio[0] == 255 && prio[1] == 8 && prio[2] == 8,
	       "numbers: priorities 0xff, 0o10, 010 (%u %u %u)", prio[0], prio[1], prio[2]);
	for (size_t i = 0; i < p->rs->n_rules; i++) {
		const struct rule *r = &p->rs->rules[i];

		if (!strcmp(r->syscall, "getpid"))
			trace = r;
		if (!strcmp(r->syscall, "write") && r->conj.n_cmps == 1 && n_lits < 3)
			lits[n_lits++] = r->conj.cmps[0].values[0].terms[0].lit;
	}
	tap_ok(p->rs->attrs.default_action.data == 13 && p->rs->attrs.bad_arch_action.data == 16 &&
		       trace && trace->action.kind == ACTION_TRACE && trace->action.data == 8,
	       "numbers: errno(0o15), trap(0x10), trace(010)");
	tap_ok(n_lits == 3 && lits[0] == 1 && lits[1] == 2 && lits[2] == 3,
	       "numbers: 0x1, 0o2 and 03 in a condition");
out:
	profile_free(p);
	diag_clear(&d);
}

static void test_small(void)
{
	struct diag d;
	struct profile *p;
	const char *f;

	f = "good/optional.ini";
	p = load_good(f, &d);
	if (p) {
		const struct ruleset *rs = p->rs;

		tap_ok(rs->n_rules == 3 &&
			       rule_is(rs, 0, "no_such_call", ACTION_KILL_PROCESS, f, 6, 0, true) &&
			       rule_is(rs, 1, "ptrace", ACTION_KILL_PROCESS, f, 6, 0, false) &&
			       rule_is(rs, 2, "frobnicate", ACTION_KILL_PROCESS, f, 7, 1, true),
		       "optional: unknown names accepted with '?'");
	}
	profile_free(p);
	diag_clear(&d);

	f = "good/multiline.ini";
	p = load_good(f, &d);
	if (p)
		tap_ok(p->rs->n_rules == 5 &&
			       rule_is(p->rs, 0, "ptrace", ACTION_KILL_PROCESS, f, 8, 0, false) &&
			       rule_is(p->rs, 1, "mount", ACTION_KILL_PROCESS, f, 11, 0, false) &&
			       rule_is(p->rs, 2, "write", ACTION_KILL_PROCESS, f, 12, 1, false) &&
			       rule_is(p->rs, 3, "write", ACTION_KILL_PROCESS, f, 12, 2, false) &&
			       rule_is(p->rs, 4, "openat", ACTION_LOG, f, 16, 1, false),
		       "multiline: empty first line, comments and blanks inside, condition "
		       "over three lines");
	profile_free(p);
	diag_clear(&d);

	f = "good/syntax.ini";
	p = load_good(f, &d);
	if (p)
		tap_ok(p->rs->attrs.default_action.kind == ACTION_ALLOW && p->rs->n_rules == 2 &&
			       rule_is(p->rs, 0, "ptrace", ACTION_KILL_PROCESS, f, 6, 0, false) &&
			       rule_is(p->rs, 1, "mount", ACTION_KILL_PROCESS, f, 7, 0, false),
		       "syntax: blanks in brackets, action case, indented key, comments on "
		       "continuations");
	profile_free(p);
	diag_clear(&d);

	f = "good/crlf-bom.ini";
	p = load_good(f, &d);
	if (p)
		tap_ok(p->rs->attrs.default_action.kind == ACTION_ALLOW && p->rs->n_rules == 2 &&
			       rule_is(p->rs, 0, "ptrace", ACTION_KILL_PROCESS, f, 6, 0, false) &&
			       rule_is(p->rs, 1, "mount", ACTION_KILL_PROCESS, f, 7, 0, false),
		       "crlf-bom: byte order mark and CRLF line ends");
	profile_free(p);
	diag_clear(&d);

	f = "good/utf8-offsets.ini";
	p = load_good(f, &d);
	if (p)
		tap_ok(p->description && !strcmp(p->description, "abcdefg\xe2\x82\xachijklmn"
								 "\xf0\x9d\x84\x9eop\xc3\xa9"),
		       "utf8-offsets: characters of 2, 3 and 4 bytes at every offset, kept");
	profile_free(p);
	diag_clear(&d);

	p = load_good("good/depth8.ini", &d);
	if (p)
		tap_ok(p->rs->attrs.default_action.kind == ACTION_ALLOW &&
			       p->rs->attrs.has_default_action,
		       "depth8: default-action found 8 includes deep");
	profile_free(p);
	diag_clear(&d);
}

/* ---- bad fixtures ---- */

struct expect {
	char file[256];
	unsigned line;
	char text[256];
};

/* Read the "; expect: [FILE:]LINE: TEXT" lines of a fixture. */
static size_t read_expects(const char *path, struct expect *ex, size_t max)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t size = 0, n = 0;
	ssize_t len;

	if (!f)
		return 0;
	while ((len = getline(&line, &size, f)) > 0 && n < max) {
		static const char tag[] = "; expect: ";
		char *s, *c1, *num;

		if (strncmp(line, tag, sizeof(tag) - 1))
			continue;
		line[strcspn(line, "\n")] = '\0';
		s = line + sizeof(tag) - 1;
		c1 = strchr(s, ':');
		if (!c1)
			continue;
		ex[n].file[0] = '\0';
		if (strspn(s, "0123456789") == (size_t)(c1 - s)) {
			num = s;
		} else {
			snprintf(ex[n].file, sizeof(ex[n].file), "%.*s", (int)(c1 - s), s);
			num = c1 + 1;
			c1 = strchr(num, ':');
			if (!c1)
				continue;
		}
		ex[n].line = (unsigned)strtoul(num, NULL, 10);
		snprintf(ex[n].text, sizeof(ex[n].text), "%s", c1[1] == ' ' ? c1 + 2 : c1 + 1);
		n++;
	}
	free(line);
	fclose(f);
	return n;
}

static int filter_ini(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return n > 4 && !strcmp(e->d_name + n - 4, ".ini");
}

static void test_bad_fixtures(void)
{
	char *dir = xasprintf("%s/bad", srcdir);
	struct dirent **list;
	int n = scandir(dir, &list, filter_ini, alphasort);

	tap_ok(n >= BAD_FIXTURES_MIN, "at least %d bad fixtures (%d)", BAD_FIXTURES_MIN, n);
	for (int i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", dir, list[i]->d_name);
		struct expect ex[8];
		size_t n_ex = read_expects(path, ex, 8);
		struct diag d;
		int r;
		struct profile *p = load(path, &d, &r);
		bool ok = n_ex > 0 && r == -EINVAL && !p && d.n_errors > 0;

		for (size_t j = 0; j < n_ex; j++) {
			char *file = ex[j].file[0] ? xasprintf("bad/%s", ex[j].file)
						   : xasprintf("bad/%s", list[i]->d_name);

			if (!has_error(&d, file, ex[j].line, ex[j].text)) {
				tap_diag("missing: %s:%u: %s", file, ex[j].line, ex[j].text);
				ok = false;
			}
			free(file);
		}
		for (size_t j = 0; j < d.n_msgs; j++)
			ok &= d.msgs[j].loc.file != NULL;
		if (!tap_ok(ok, "bad/%s rejected as expected", list[i]->d_name)) {
			tap_diag("r=%d expectations=%zu", r, n_ex);
			dump_diag(&d);
		}
		profile_free(p);
		diag_clear(&d);
		free(path);
		free(list[i]);
	}
	free(list);
	free(dir);
}

/* ---- generated inputs ---- */

static char tmpdir[] = "/tmp/scmp-run-profiles-XXXXXX";

static char *write_tmp(const char *name, const char *text, size_t len)
{
	char *path = xasprintf("%s/%s", tmpdir, name);
	FILE *f = fopen(path, "we");

	if (!f || fwrite(text, 1, len, f) != len || fclose(f))
		abort();
	return path;
}

static void expect_error(const char *path, const char *what, unsigned line, const char *text)
{
	struct diag d;
	int r;
	struct profile *p = load(path, &d, &r);
	const char *base = strrchr(path, '/') + 1;

	if (!tap_ok(r == -EINVAL && !p && has_error(&d, base, line, text), "%s: %u: %s", what, line,
		    text))
		dump_diag(&d);
	profile_free(p);
	diag_clear(&d);
}

static void expect_ok(const char *path, const char *what)
{
	struct diag d;
	int r;
	struct profile *p = load(path, &d, &r);

	if (!tap_ok(r == 0 && p, "%s", what))
		dump_diag(&d);
	profile_free(p);
	diag_clear(&d);
}

/* Every control byte and DEL, in each of the first 20 places of a value:
 * refused on its line, except a tab anywhere and a CR as the last byte
 * (CRLF). The loader looks at eight bytes at a time before it looks at
 * them one by one, so each place in a word, and in the second and third
 * words, counts. */
static void test_control_bytes(void)
{
	static const char head[] = "[filter]\ndefault-action = allow\n[profile]\ndescription = ";
	char text[sizeof(head) + 32], want[64];
	unsigned tried = 0, wrong = 0;

	for (int c = 0; c < 0x80; c++) {
		if (c == '\n' || (c >= 0x20 && c < 0x7f && c != 'x'))
			continue;
		/* 'x' is the control: the plain line, loaded once */
		for (int at = 0; at < (c == 'x' ? 1 : 20); at++) {
			size_t n = sizeof(head) - 1;
			bool fine = c == 'x' || c == '\t' || (c == '\r' && at == 19);
			struct diag d;
			struct profile *p;
			char *path;
			int r;

			memcpy(text, head, n);
			memset(text + n, 'x', 20);
			text[n + at] = (char)c;
			text[n + 20] = '\n';
			path = write_tmp("byte.ini", text, n + 21);
			p = load(path, &d, &r);
			if (c)
				snprintf(want, sizeof(want), "control character 0x%02x", c);
			else
				snprintf(want, sizeof(want), "NUL byte");
			tried++;
			if (fine ? r != 0 || !p
				 : r != -EINVAL || p || !has_error(&d, "byte.ini", 4, want)) {
				if (!wrong++)
					tap_diag("byte 0x%02x at %d: r=%d", c, at, r);
				dump_diag(&d);
			}
			profile_free(p);
			diag_clear(&d);
			free(path);
		}
	}
	tap_ok(!wrong, "control bytes in a value: %u of %u loads as expected", tried - wrong,
	       tried);
}

/* A section header refused for its length opens no section (reading goes
 * on after a line too long): the keys after it are neither applied to the
 * section before nor reported as unknown there, so the refused line is the
 * only error. */
static void test_refused_header(void)
{
	char text[PROFILE_LINE_MAX + 128], *path;
	struct diag d;
	struct profile *p;
	int r, n;

	n = snprintf(text, sizeof(text),
		     "[filter]\ndefault-action = allow\n[errno(EPERM)%*s]\n"
		     "syscalls = read\nbogus = 1\n",
		     PROFILE_LINE_MAX, "");
	path = write_tmp("header.ini", text, (size_t)n);
	p = load(path, &d, &r);
	if (!tap_ok(r == -EINVAL && !p && d.n_msgs == 1 &&
			    has_error(&d, "header.ini", 3, "line too long"),
		    "a section header too long: its keys go nowhere, one error"))
		dump_diag(&d);
	profile_free(p);
	diag_clear(&d);
	free(path);
}

static void test_generated(void)
{
	char *text, *path;
	size_t n;

	if (!mkdtemp(tmpdir)) {
		tap_skip("generated inputs: cannot create a temporary directory: %s",
			 strerror(errno));
		return;
	}

	/* The line limit, exactly. */
	text = malloc(1024);
	for (int len = PROFILE_LINE_MAX; len <= PROFILE_LINE_MAX + 1; len++) {
		for (int crlf = 0; crlf < 2; crlf++) {
			n = (size_t)sprintf(text, "[filter]\ndefault-action = allow\n[profile]\n");
			n += (size_t)sprintf(text + n, "description = %0*d%s\n", len - 14, 0,
					     crlf ? "\r" : "");
			path = write_tmp("limit.ini", text, n);
			if (len == PROFILE_LINE_MAX)
				expect_ok(path, crlf ? "a line of 198 bytes plus CRLF is accepted"
						     : "a line of 198 bytes is accepted");
			else
				expect_error(path, "a line of 199 bytes", 4, "line too long (199");
			free(path);
		}
	}
	free(text);

	path = write_tmp("empty.ini", "", 0);
	expect_error(path, "a file of 0 bytes", 0, "no default-action");
	free(path);

	path = xasprintf("%s/no-such-file.ini", tmpdir);
	expect_error(path, "a missing profile", 0, "cannot open profile");
	free(path);

	/* 10 MB: refused before reading it. */
	n = 10u << 20;
	text = malloc(n);
	for (size_t i = 0; i < n; i += 64) {
		memset(text + i, 'x', 64);
		text[i] = ';';
		text[i + 63] = '\n';
	}
	path = write_tmp("huge.ini", text, n);
	expect_error(path, "a 10 MB file", 0, "is too large (10485760 bytes");
	free(path);

	/* Includes count towards the limit: 2 x 600 kB. */
	path = write_tmp("big.ini", text, 600u << 10);
	free(path);
	free(text);
	text = xasprintf("[profile]\ninclude = big.ini\ninclude = big.ini\n"
			 "[filter]\ndefault-action = allow\n");
	path = write_tmp("twice.ini", text, strlen(text));
	{
		struct diag d;
		int r;
		struct profile *p = load(path, &d, &r);
		bool found = false;

		for (size_t i = 0; i < d.n_msgs; i++)
			found |= d.msgs[i].text && strstr(d.msgs[i].text, "profile too large");
		if (!tap_ok(r == -EINVAL && !p && found, "includes count towards the size limit"))
			dump_diag(&d);
		profile_free(p);
		diag_clear(&d);
	}
	free(path);
	free(text);

	/* Messages stay printable after the profile is rejected and freed. */
	{
		char *bad = xasprintf("%s/bad/include-error-inside.ini", srcdir);
		struct diag d;
		int r;
		struct profile *p = load(bad, &d, &r);
		char *out = NULL;
		size_t size = 0;
		FILE *f = open_memstream(&out, &size);

		diag_print(&d, "scmp-run", f);
		fclose(f);
		tap_ok(!p && out &&
			       strstr(out, "include/has-error.ini:3: error: unknown key 'bogus'"),
		       "diagnostics of a rejected profile keep their file names");
		free(out);
		diag_clear(&d);
		free(bad);
	}

	/* An error already in d (from another pass) does not fail this load. */
	{
		char *good = xasprintf("%s/good/optional.ini", srcdir);
		struct diag d;
		struct profile *p = NULL;

		diag_init(&d);
		diag_error(&d, NULL, "earlier");
		tap_ok(profile_load(good, NULL, native, &d, &p) == 0 && p,
		       "an earlier error in the diag list does not reject this profile");
		profile_free(p);
		diag_clear(&d);
		free(good);
	}
}

static void test_find(void)
{
	char *a = xasprintf("%s/a", tmpdir), *b = xasprintf("%s/b", tmpdir);
	char *sp = xasprintf("%s:%s", a, b), *p, *want;

	mkdir(a, 0755);
	mkdir(b, 0755);
	free(write_tmp("b/net.ini", "", 0));
	free(write_tmp("b/plain", "", 0));
	free(write_tmp("a/plain", "", 0));

	p = profile_find("net", sp, NULL);
	want = xasprintf("%s/net.ini", b);
	tap_ok(p && !strcmp(p, want), "find: NAME.ini in the search path");
	free(p);
	free(want);
	p = profile_find("plain", sp, NULL);
	want = xasprintf("%s/plain", a);
	tap_ok(p && !strcmp(p, want), "find: the first directory wins");
	free(p);
	free(want);
	p = profile_find("net", NULL, b);
	want = xasprintf("%s/net.ini", b);
	tap_ok(p && !strcmp(p, want), "find: the installed directory comes last");
	free(p);
	free(want);
	p = profile_find("./no/such.ini", sp, NULL);
	tap_ok(p && !strcmp(p, "./no/such.ini"), "find: a name with '/' is a path");
	free(p);
	errno = 0;
	p = profile_find("no-such-profile-anywhere", sp, NULL);
	tap_ok(!p && errno == ENOENT, "find: not found is NULL with ENOENT");
	free(sp);
	free(a);
	free(b);
}

/* Whether a message of d is located in a file whose path ends in suffix. */
static bool has_msg_in(const struct diag *d, const char *suffix)
{
	for (size_t i = 0; i < d->n_msgs; i++)
		if (d->msgs[i].loc.file && ends_with(d->msgs[i].loc.file, suffix))
			return true;
	return false;
}

/* scmp-run(1) TRUST: an untrusted file is refused before it is read, and a
 * NAME is not looked up in an untrusted directory, so nothing they name
 * is opened and none of its lines reach a message. */
static void test_trust_before_read(void)
{
	static const char secret[] = "secret line one\nsecret line two\n";
	char *ww = xasprintf("%s/ww", tmpdir), *top, *text, *inc;
	struct diag d;
	struct profile *p;
	int r;

	mkdir(ww, 0755);
	chmod(ww, 0755);
	inc = write_tmp("secret", secret, strlen(secret));
	chmod(inc, 0600);
	free(inc);
	text = xasprintf("[profile]\ninclude = %s/secret\n", tmpdir);
	inc = write_tmp("ww/writable.ini", text, strlen(text));
	chmod(inc, 0666);
	free(inc);
	free(text);
	/* no default-action: the include not read may have held it */
	text = xasprintf("[profile]\ninclude = ww/writable.ini\n");
	top = write_tmp("trust-top.ini", text, strlen(text));
	chmod(top, 0644);
	free(text);
	p = load_trusting(top, PROFILE_FROM_PATH, NULL, &d, &r);
	if (!tap_ok(r == -EINVAL && !p &&
			    has_error(&d, "trust-top.ini", 2,
				      "untrusted include 'ww/writable.ini'"),
		    "trust: an untrusted include is refused at its include line"))
		dump_diag(&d);
	if (!tap_ok(!has_msg_in(&d, "secret"),
		    "trust: an untrusted include is not read (nothing it includes is opened)"))
		dump_diag(&d);
	if (!tap_ok(!has_error(&d, "trust-top.ini", 0, "no default-action"),
		    "trust: no 'no default-action' error: the include not read may hold it"))
		dump_diag(&d);
	profile_free(p);
	diag_clear(&d);

	/* A NAME in a directory others may write: a link planted there to a
	 * file of the trusted owner is not followed. */
	chmod(ww, 0777);
	text = xasprintf("%s/secret", tmpdir);
	inc = xasprintf("%s/named.ini", ww);
	if (symlink(text, inc) < 0)
		abort();
	p = load_trusting("named", PROFILE_FROM_NAME, ww, &d, &r);
	if (!tap_ok(r < 0 && !p && has_error(&d, "ww", 0, "untrusted directory searched"),
		    "trust: an untrusted directory searched for a NAME is refused"))
		dump_diag(&d);
	if (!tap_ok(!has_msg_in(&d, "secret") && !has_msg_in(&d, "named.ini"),
		    "trust: no file is read from an untrusted directory"))
		dump_diag(&d);
	profile_free(p);
	diag_clear(&d);
	chmod(ww, 0755);
	free(text);
	free(inc);
	free(top);
	free(ww);
}

static void cleanup(void)
{
	char *cmd;

	if (!strcmp(tmpdir + strlen(tmpdir) - 6, "XXXXXX"))
		return;
	cmd = xasprintf("rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		tap_diag("could not remove %s", tmpdir);
	free(cmd);
}

/* profile_keep_cap(): each capability once, and no more than the array
 * holds ([capabilities] keep and --oci-caps share it). */
static void test_keep_cap(void)
{
	struct profile *p = profile_new("keep.ini");
	bool added = true;

	if (!p)
		abort();
	tap_is(profile_keep_cap(p, 12), 1, "keep: a capability is added");
	tap_is(profile_keep_cap(p, 12), 0, "keep: named again, kept once");
	for (int cap = 100; cap < 100 + PROFILE_KEEP_CAPS_MAX - 1; cap++)
		added &= profile_keep_cap(p, cap) == 1;
	tap_ok(added && p->n_keep_caps == PROFILE_KEEP_CAPS_MAX, "keep: %d fit",
	       PROFILE_KEEP_CAPS_MAX);
	tap_is(profile_keep_cap(p, 99), -E2BIG, "keep: one more is refused");
	tap_is(profile_keep_cap(p, 12), 0, "keep: a full list still knows its own");
	tap_is(p->n_keep_caps, PROFILE_KEEP_CAPS_MAX, "keep: nothing written past the array");
	profile_free(p);
}

int main(int argc, char **argv)
{
	srcdir = argc > 1 ? argv[1] : "tests/profiles";
	native = arch_get(ARCH_X86_64);

	test_basic();
	test_override();
	test_caller();
	test_groups();
	test_small();
	test_priority_group();
	test_numbers();
	test_bad_fixtures();
	test_generated();
	test_control_bytes();
	test_refused_header();
	test_keep_cap();
	test_find();
	test_trust_before_read();
	cleanup();
	return tap_done();
}
