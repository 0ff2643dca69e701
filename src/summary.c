/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --check: what a profile says, what its program costs and what run mode
 * does with the caller's state, one line per fact, for a person reading it. */
#include "summary.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "capname.h"
#include "hardening.h"
#include "memstream.h"
#include "sim.h"

static void print_attrs(const struct filter_attrs *attrs, FILE *f)
{
	char buf[64];

	struct action unknown;

	policy_unknown_action(attrs, &unknown);
	fprintf(f, "default action: %s\n", action_format(&attrs->default_action, buf, sizeof(buf)));
	fprintf(f, "unknown-syscall action: %s%s\n", action_format(&unknown, buf, sizeof(buf)),
		attrs->has_unknown_action ? ""
		: policy_action_denies(attrs->default_action.kind)
			? " (not written: the default action denies)"
			: " (not written: the default action)");
	fprintf(f, "bad-arch action: %s\n",
		action_format(&attrs->bad_arch_action, buf, sizeof(buf)));
	fprintf(f, "no-new-privs: %s, tsync: %s, log: %s, spec-allow: %s\n",
		attrs->no_new_privs ? "yes" : "no", attrs->tsync ? "yes" : "no",
		attrs->log ? "yes" : "no", attrs->spec_allow ? "yes" : "no");
}

static void print_rule_counts(const struct ruleset *rs, FILE *f)
{
	size_t per_action[ACTION_ALLOW + 1] = { 0 };

	for (size_t i = 0; i < rs->n_rules; i++)
		per_action[rs->rules[i].action.kind]++;
	fprintf(f, "rules:");
	for (int k = 0; k <= ACTION_ALLOW; k++)
		if (per_action[k])
			fprintf(f, " %s %zu", action_kind_name((enum action_kind)k), per_action[k]);
	fprintf(f, "%s\n", rs->n_rules ? "" : " none");
}

/* The built-in rules the profile got, and the ones it switched off
 * (scmp-run.ini(5) BUILT-IN RULES). */
static void print_builtins(const struct compiled *c, FILE *f)
{
	const struct hardening *h = &c->rs->hardening;
	char buf[64], loc[256];

	for (size_t i = 0; i < c->policy->n_builtins; i++) {
		const struct rule *r = &c->policy->builtins[i];
		const struct src_loc *tcp = &c->rs->landlock_tcp_loc;
		bool at_tcp = r->loc.file == tcp->file && r->loc.line == tcp->line;
		const char *kind = !r->loc.line ? "built-in" : at_tcp ? "landlock" : "hardening";

		fprintf(f, "%s rule: %s: %s %s", kind, src_loc_format(&r->loc, loc, sizeof(loc)),
			action_format(&r->action, buf, sizeof(buf)), r->syscall);
		if (r->conj.n_cmps) {
			fputs(" if ", f);
			conj_print(&r->conj, f);
		}
		fputc('\n', f);
	}
	if (h->tty_injection_allow)
		fprintf(f,
			"built-in rule: tty-injection: off ([hardening] tty-injection = allow at %s)\n",
			src_loc_format(&h->tty_injection_loc, loc, sizeof(loc)));
}

/* scmp-run(1) TRUST: what was checked before the profile was read. */
static void print_trust(const struct profile_trust *t, FILE *f)
{
	static const char reasons[][32] = {
		[PROFILE_TRUST_ROOT] = "scmp-run runs as root",
		[PROFILE_TRUST_CAPS] = "scmp-run holds capabilities",
		[PROFILE_TRUST_CREDENTIALS] = "the credentials change",
	};

	if (t->why == PROFILE_TRUST_NO) {
		fputs("trust: not checked (scmp-run does not run as root, holds no capability "
		      "and switches no credentials)\n",
		      f);
		return;
	}
	if (!t->files && !t->dirs) {
		fputs("trust: nothing to check (standard input is the caller's own)\n", f);
		return;
	}
	fprintf(f, "trust: checked %u file%s%s%u searched director%s", t->files,
		t->files == 1 ? "" : "s", t->above ? ", " : " and ", t->dirs,
		t->dirs == 1 ? "y" : "ies");
	if (t->above)
		fprintf(f, " and %u director%s on the way", t->above, t->above == 1 ? "y" : "ies");
	fprintf(f, ": owned by root or uid %u, not writable by group or others (%s)\n",
		(unsigned)t->uid, reasons[t->why]);
}

void summary_defaults(const struct compiled *c, FILE *f)
{
	print_builtins(c, f);
	print_trust(&c->profile->trust, f);
}

/* How many known numbers of an ABI the kernel serves from its always-allow
 * cache without running the program (sim_is_const_allow()). */
static size_t count_cached(const struct bpf_prog *prog, const struct abi_policy *abi)
{
	size_t cached = 0;

	for (size_t i = 0; i < abi->n_known; i++)
		cached += sim_is_const_allow(prog->insns, prog->len, abi->arch->audit_arch,
					     abi->known[i].nr);
	return cached;
}

/* scmp-run(1) Caller state: the user, and what run mode does with
 * descriptors, signals, session and environment. (Running as root without a
 * user is a fact of the process that runs: the lint warns about it, lint.h.)
 * 0 or -ENOMEM. */
static int print_caller(const struct profile *p, FILE *f)
{
	char at[256];
	char *text = NULL, *line, *next;
	FILE *m;

	if (p->has_user) {
		/* the name comes from a profile or the command line: escaped
		 * (src_loc_format() escapes the file name) */
		fputs("user: ", f);
		diag_fputs_escaped(p->user, f);
		fprintf(f, " (set at %s)\n", src_loc_format(&p->user_loc, at, sizeof(at)));
	} else {
		fputs("user: the caller's (default; run mode refuses to run a command as root)\n",
		      f);
	}
	if (p->has_group && p->group) {
		fputs("group: ", f);
		diag_fputs_escaped(p->group, f);
		fprintf(f, " (set at %s)\n", src_loc_format(&p->group_loc, at, sizeof(at)));
	}
	if (p->supp_init || p->n_supp_groups) {
		fputs("supplementary groups: ", f);
		if (p->supp_init)
			fputs("the user's, from the group database (init;", f);
		for (unsigned i = 0; i < p->n_supp_groups; i++) {
			if (i)
				fputc(' ', f);
			diag_fputs_escaped(p->supp_groups[i], f);
		}
		fprintf(f, "%sset at %s)\n", p->supp_init ? " " : " (",
			src_loc_format(&p->supp_loc, at, sizeof(at)));
	}
	capname_describe_keep(p->keep_caps, p->n_keep_caps, p->ambient, f);
	/* The user's name is in the environment line: each line escaped. */
	m = memstream_open(&text);
	if (!m)
		return -ENOMEM;
	caller_describe(&p->caller, -1, p->has_user ? p->user : NULL, m);
	if (memstream_close(m, &text) < 0)
		return -ENOMEM;
	for (line = text; *line; line = next) {
		next = strchrnul(line, '\n');
		if (*next)
			*next++ = '\0';
		diag_fputs_escaped(line, f);
		fputc('\n', f);
	}
	free(text);
	return 0;
}

int summary_print(const struct compiled *c, FILE *f, struct diag *d)
{
	const struct policy *p = c->policy;

	/* Both come from outside (a command line, a profile): escaped. */
	fputs("profile: ", f);
	diag_fputs_escaped(c->profile->path, f);
	if (c->profile->description) {
		fputs("\ndescription: ", f);
		diag_fputs_escaped(c->profile->description, f);
	}
	fputc('\n', f);
	print_attrs(&c->rs->attrs, f);
	print_rule_counts(c->rs, f);
	summary_defaults(c, f);
	fprintf(f, "program: %zu instructions (limit %u)%s\n", c->prog->len, BPF_PROG_MAX,
		c->prog->size_first ? ", size-first" : "");
	for (size_t i = 0; i < p->n_abis; i++) {
		const struct abi_policy *abi = &p->abis[i];
		size_t len = c->prog->abi_len[i];

		if (len > BPF_PROG_MAX) {
			fprintf(f, "  %s: over the limit on its own\n", abi->arch->name);
			continue;
		}
		fprintf(f,
			"  %s: %zu instructions alone; %zu of %zu syscalls served by the kernel's "
			"always-allow cache%s\n",
			abi->arch->name, len, count_cached(c->prog, abi), abi->n_known,
			abi->arch->nr_base >= ARCH_X32_SYSCALL_BIT
				? " (none can be: its numbers carry bit 0x40000000, beyond the cache)"
				: "");
	}
	if (print_caller(c->profile, f) < 0) {
		diag_error(d, NULL, "out of memory");
		return -ENOMEM;
	}
	return ferror(f) ? -EIO : 0;
}

int summary_print_confine(const struct compiled *c, int abi, struct diag *d, FILE *f)
{
	const struct profile *p = c->profile;
	struct landlock_rights rights;
	struct diag kernel;
	int r;

	/* Errors that only this kernel causes are warnings here. */
	diag_init(&kernel);
	landlock_rights_probed(&p->landlock, abi, &kernel, &rights);
	for (size_t i = 0; i < kernel.n_msgs; i++) {
		const struct diag_msg *m = &kernel.msgs[i];
		bool err = m->severity == DIAG_ERROR;

		diag_add(d, err ? DIAG_WARNING : m->severity, m->loc.file ? &m->loc : NULL, "%s%s",
			 m->text, err ? " (run mode fails on this kernel)" : "");
	}
	diag_clear(&kernel);
	r = landlock_report(&p->landlock, &rights, NULL, "landlock: ", f);
	if (r == 0)
		r = rlimits_print(&p->limits, "limit: ", f);
	if (r == 0)
		r = hardening_print(&p->rs->hardening, "hardening: ", f);
	return r;
}
