/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Data-driven engine vectors: each .vec file is a rule set plus lines
 * "check ARCH SYSCALL [ARG...] -> ACTION [@LABEL|@default|@unknown|@badarch|@built-in:NAME]",
 * run through compile -> simulate and through the reference semantics.
 * A rule a check names carries a label: "rule LABEL: ACTION SYSCALL [COND]";
 * labels are unique within a rule set, so inserting lines breaks nothing.
 * "grouprule" adds a rule as if named through a group only; "hardening
 * tty-injection allow" opts out of that built-in rule.
 * "error TEXT" / "warning TEXT" expect a diagnostic containing TEXT,
 * "nowarning TEXT" expects none.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine-util.h"
#include "sim.h"
#include "tap.h"

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == '\n' || e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	return s;
}

static bool diag_has(const struct diag *d, enum diag_severity sev, const char *text)
{
	for (size_t i = 0; i < d->n_msgs; i++)
		if (d->msgs[i].severity == sev && d->msgs[i].text && strstr(d->msgs[i].text, text))
			return true;
	return false;
}

static void dump_diag(const struct diag *d)
{
	for (size_t i = 0; i < d->n_msgs; i++)
		tap_diag("  diag: %u: %s", d->msgs[i].loc.line, d->msgs[i].text);
}

#define LABELS_MAX 64

/* The labelled rules of one rule set: label -> the line of the rule. */
struct labels {
	struct {
		char name[32];
		unsigned line;
	} at[LABELS_MAX];
	size_t n;
};

static const char *const reserved[] = { "default", "unknown", "badarch" };

/* Record a label; -EEXIST for one used twice or a reserved word, -E2BIG
 * for too many or too long a name. */
static int label_add(struct labels *l, const char *name, unsigned line)
{
	for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
		if (!strcmp(name, reserved[i]))
			return -EEXIST;
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->at[i].name, name))
			return -EEXIST;
	if (l->n == LABELS_MAX || !*name || strlen(name) >= sizeof(l->at[0].name))
		return -E2BIG;
	strcpy(l->at[l->n].name, name);
	l->at[l->n++].line = line;
	return 0;
}

/* The line of a labelled rule; 0 if the label is unknown. */
static unsigned label_line(const struct labels *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->at[i].name, name))
			return l->at[i].line;
	return 0;
}

static int set_action(struct action *act, const char *text)
{
	const char *err;

	return action_parse(text, arch_native(), act, &err);
}

static void check_line(const char *file, unsigned line, struct tcase *c,
		       const struct labels *labels, char *spec)
{
	char *arrow = strstr(spec, "->"), *want, *at, *tok, *save = NULL;
	const struct arch *a;
	struct seccomp_data sd = { 0 };
	struct decision dec;
	uint32_t want_ret, nr;
	uint64_t v;
	bool agree;
	int argi = 0;

	if (!arrow) {
		tap_ok(false, "%s:%u: malformed check", file, line);
		return;
	}
	*arrow = '\0';
	want = trim(arrow + 2);
	at = strchr(want, '@');
	if (at) {
		*at++ = '\0';
		want = trim(want);
	}
	tok = strtok_r(spec, " \t", &save);
	a = tok ? arch_lookup(tok) : NULL;
	tok = strtok_r(NULL, " \t", &save);
	if (!a || !tok || util_action_ret(want, a, &want_ret) < 0) {
		tap_ok(false, "%s:%u: malformed check (arch, syscall or action)", file, line);
		return;
	}
	if (syscalls_lookup_name(a, tok, &nr) < 0) {
		if (!util_parse_value(tok, a, &v)) {
			tap_ok(false, "%s:%u: unknown syscall '%s' on %s", file, line, tok,
			       a->name);
			return;
		}
		nr = (uint32_t)v;
	}
	sd.nr = (int)nr;
	sd.arch = a->audit_arch;
	while ((tok = strtok_r(NULL, " \t", &save)) && argi < 6) {
		if (!util_parse_value(tok, a, &v)) {
			tap_ok(false, "%s:%u: bad argument '%s'", file, line, tok);
			return;
		}
		sd.args[argi++] = v;
	}
	uint32_t got = util_eval(c, &sd, &agree, NULL);
	policy_decide(c->out.policy, &sd, &dec);
	bool where_ok = true;
	if (at) {
		if (!strcmp(at, "default"))
			where_ok = dec.why == DECIDE_DEFAULT;
		else if (!strcmp(at, "unknown"))
			where_ok = dec.why == DECIDE_UNKNOWN;
		else if (!strcmp(at, "badarch"))
			where_ok = dec.why == DECIDE_BAD_ARCH;
		else if (!strncmp(at, "built-in:", 9))
			where_ok = dec.why == DECIDE_RULE && !strcmp(dec.rule->src->loc.file, at);
		else if (!label_line(labels, at)) {
			tap_ok(false, "%s:%u: no rule labelled '%s' in this rule set", file, line,
			       at);
			return;
		} else
			where_ok = dec.why == DECIDE_RULE &&
				   dec.rule->src->loc.line == label_line(labels, at);
	}
	if (!tap_ok(got == want_ret && agree && where_ok, "%s:%u: %s -> %s%s%s", file, line,
		    trim(spec), want, at ? " @" : "", at ? at : ""))
		tap_diag("program 0x%08x, policy 0x%08x (why %d, line %u), want 0x%08x", got,
			 dec.ret, dec.why, dec.why == DECIDE_RULE ? dec.rule->src->loc.line : 0,
			 want_ret);
}

static void run_file(const char *path)
{
	FILE *f = fopen(path, "re");
	const char *file = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct tcase c = { .rs = ruleset_new() };
	struct labels labels = { 0 };
	char buf[1024];
	unsigned line = 0;
	bool compiled = false, compile_ok = false;
	int r;

	if (!f || !c.rs) {
		tap_ok(false, "%s: cannot open", path);
		return;
	}
	while (fgets(buf, sizeof(buf), f)) {
		char *s = trim(buf), *word, *rest;

		line++;
		if (!*s || *s == '#')
			continue;
		word = s;
		rest = strpbrk(s, " \t");
		if (rest)
			*rest++ = '\0';
		rest = rest ? trim(rest) : (char *)"";

		if (!strcmp(word, "---")) { /* next rule set */
			if (!compiled)
				tap_ok(false, "%s:%u: rule set without checks", file, line);
			util_compiled_free(&c);
			c.rs = ruleset_new();
			compiled = compile_ok = false;
			labels.n = 0;
			continue;
		}
		if (!strcmp(word, "check") || !strcmp(word, "error") || !strcmp(word, "warning") ||
		    !strcmp(word, "nowarning")) {
			if (!compiled) {
				compiled = true;
				compile_ok = util_compile(&c) >= 0;
			}
		}
		if (!strcmp(word, "default")) {
			r = set_action(&c.rs->attrs.default_action, rest);
			c.rs->attrs.has_default_action = r >= 0;
		} else if (!strcmp(word, "unknown")) {
			r = set_action(&c.rs->attrs.unknown_action, rest);
			c.rs->attrs.has_unknown_action = true;
		} else if (!strcmp(word, "badarch")) {
			r = set_action(&c.rs->attrs.bad_arch_action, rest);
		} else if (!strcmp(word, "arches")) {
			char *save = NULL;

			r = 0;
			for (char *t = strtok_r(rest, " ", &save); t;
			     t = strtok_r(NULL, " ", &save)) {
				const struct arch *a = arch_lookup(t);

				if (!strcmp(t, "native"))
					c.rs->attrs.arches |= ARCH_NATIVE_BIT;
				else if (a)
					c.rs->attrs.arches |= 1u << a->id;
				else
					r = -EINVAL;
			}
		} else if (!strcmp(word, "hardening")) {
			/* "hardening tty-injection allow|deny" */
			r = -EINVAL;
			if (!strcmp(rest, "tty-injection allow") ||
			    !strcmp(rest, "tty-injection deny")) {
				c.rs->hardening.tty_injection_allow = !strcmp(rest + 14, "allow");
				r = 0;
			}
		} else if (!strcmp(word, "rule") || !strcmp(word, "grouprule")) {
			/* grouprule: as if named through a group only */
			bool via_group = word[0] == 'g';
			size_t before = c.rs->n_rules;

			char *act = rest, *sys, *cond;

			sys = strpbrk(act, " \t");
			r = 0;
			if (sys && sys[-1] == ':') { /* "rule LABEL: ACTION ..." */
				sys[-1] = '\0';
				r = label_add(&labels, act, line);
				if (r < 0)
					tap_ok(false, "%s:%u: label '%s' %s", file, line, act,
					       r == -EEXIST ? "used twice or reserved"
							    : "too long or too many");
				act = trim(sys + 1);
				sys = strpbrk(act, " \t");
			}
			if (r < 0) {
				continue;
			} else if (!sys) {
				r = -EINVAL;
			} else {
				*sys++ = '\0';
				sys = trim(sys);
				cond = strpbrk(sys, " \t");
				if (cond)
					*cond++ = '\0';
				r = util_add_rule(c.rs, act, sys, cond ? trim(cond) : NULL, line);
			}
			for (size_t i = before; r >= 0 && i < c.rs->n_rules; i++)
				c.rs->rules[i].via_group = via_group;
		} else if (!strcmp(word, "prio")) {
			char *n = strpbrk(rest, " \t");
			struct src_loc loc = { .file = "test", .line = line };

			if (n)
				*n++ = '\0';
			r = n ? ruleset_set_priority(c.rs, rest, (unsigned)atoi(n), false, &loc)
			      : -EINVAL;
		} else if (!strcmp(word, "check")) {
			if (!compile_ok) {
				tap_ok(false, "%s:%u: rule set did not compile", file, line);
				dump_diag(&c.d);
				continue;
			}
			check_line(file, line, &c, &labels, rest);
			continue;
		} else if (!strcmp(word, "error") || !strcmp(word, "warning")) {
			bool err = word[0] == 'e';
			bool ok = diag_has(&c.d, err ? DIAG_ERROR : DIAG_WARNING, rest) &&
				  (!err || !compile_ok);

			if (!tap_ok(ok, "%s:%u: %s '%s'", file, line, word, rest))
				dump_diag(&c.d);
			continue;
		} else if (!strcmp(word, "nowarning")) {
			if (!tap_ok(compile_ok && !diag_has(&c.d, DIAG_WARNING, rest),
				    "%s:%u: no warning '%s'", file, line, rest))
				dump_diag(&c.d);
			continue;
		} else {
			r = -EINVAL;
		}
		if (r < 0)
			tap_ok(false, "%s:%u: cannot read '%s'", file, line, word);
	}
	if (!compiled)
		tap_ok(false, "%s: no checks", file);
	fclose(f);
	util_compiled_free(&c);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		run_file(argv[i]);
	return tap_done();
}
