/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --import-oci: an OCI/Docker seccomp JSON file printed as the equivalent INI
 * profile, each rule under a comment naming its JSON entry, with every
 * change of meaning said (scmp-run.ini(5), OCI AND DOCKER PROFILES).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memstream.h"
#include "oci-int.h"
#include "policy.h"

#define IMPORT_WRAP 90 /* wrap lists here: far below the loader's line limit */

/* What is printed of the document. */
struct import {
	const struct oci_doc *doc;
	const struct arch *native;
	const struct rule **restates; /* per rule: the built-in it restates, or NULL */
};

/*
 * A comment, wrapped so that no line exceeds the profile line limit. The
 * text can carry strings of the JSON (a syscall name skipped, a capability):
 * escaped as in messages (diag_fputs_escaped()), so that a newline in one
 * cannot end the comment and write a line of the profile. 0 or -ENOMEM.
 */
static int comment(FILE *f, const char *text)
{
	char *esc = diag_escape(text);
	const char *s = esc;

	if (!esc)
		return -ENOMEM;
	while (*s) {
		size_t n = strlen(s), cut = n;

		if (n > IMPORT_WRAP) {
			cut = IMPORT_WRAP;
			while (cut > 20 && s[cut] != ' ')
				cut--;
			/* a word cut: never inside a UTF-8 sequence, which the
			 * loader would refuse as a file that is not text */
			while (cut > 1 && ((unsigned char)s[cut] & 0xc0) == 0x80)
				cut--;
		}
		fprintf(f, "# %.*s\n", (int)cut, s);
		s += cut;
		while (*s == ' ')
			s++;
	}
	free(esc);
	return 0;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* ---- rules that restate a built-in rule ---- */

static bool is_builtin(const struct rule *r)
{
	return policy_builtin_name(r) != NULL;
}

/* Every test of q holds (all = true) or can hold (all = false) everywhere in
 * the region of rr's tests. */
static bool holds(const struct rrule *q, const struct rrule *rr, bool all)
{
	for (size_t k = 0; k < q->n_cmps; k++) {
		int v = oci_region_decide(rr->cmps, rr->n_cmps, &q->cmps[k]);

		if (all ? v != 1 : v == 0)
			return false;
	}
	return true;
}

/* The built-in rule of s that decides every call rr matches as rr does, so
 * that rr can go; NULL if there is none, or if a rule of the same action
 * with other data could match there (rr wins that tie by being written
 * first, the built-in would lose it). */
static const struct rule *covering_builtin(const struct rsys *s, const struct rrule *rr)
{
	const struct rule *found = NULL;

	for (size_t i = 0; i < s->n_rules; i++) {
		const struct rrule *q = &s->rules[i];

		if (q == rr)
			continue;
		if (q->ret != rr->ret) {
			if (action_ret_rank(q->ret) == action_ret_rank(rr->ret) &&
			    holds(q, rr, false))
				return NULL;
		} else if (!found && is_builtin(q->src) && holds(q, rr, true)) {
			found = q->src;
		}
	}
	return found;
}

/*
 * For each rule of rs, the built-in rule it only restates (on every ABI of p,
 * wherever it matches, the built-in decides alike), or NULL, into
 * restates[] (rs->n_rules entries). An export carries the built-in rules as
 * entries; printed back they would stay in the profile even where
 * [hardening] drops the built-in. Returns 0 or -ENOMEM.
 */
static int find_restated(const struct policy *p, const struct ruleset *rs,
			 const struct rule **restates)
{
	bool *kept = calloc(rs->n_rules + 1, sizeof(*kept));

	if (!kept)
		return -ENOMEM;
	for (size_t a = 0; a < p->n_abis; a++)
		for (size_t k = 0; k < p->abis[a].n_sys; k++) {
			const struct rsys *s = &p->abis[a].sys[k];

			for (size_t i = 0; i < s->n_rules; i++) {
				const struct rule *r = s->rules[i].src;
				size_t n = r->seq;

				/* a rule of rs: rule.seq is its index */
				if (n >= rs->n_rules || &rs->rules[n] != r || kept[n])
					continue;
				restates[n] = covering_builtin(s, &s->rules[i]);
				kept[n] = !restates[n];
			}
		}
	free(kept);
	return 0;
}

/* 0 or -ENOMEM. */
static int print_entry_notes(FILE *f, const struct oci_doc *doc, size_t entry)
{
	for (size_t i = 0; i < doc->n_notes; i++)
		if (doc->notes[i].entry == entry && comment(f, doc->notes[i].text) < 0)
			return -ENOMEM;
	return 0;
}

/* " WORD" appended to a list line col wide so far, which goes on after a
 * tab on the next line past IMPORT_WRAP. Returns the new width. */
static size_t put_word(FILE *f, size_t col, const char *word, bool optional)
{
	if (col > IMPORT_WRAP) {
		fputs("\n\t", f);
		col = 8;
	}
	fprintf(f, " %s%s", word, optional ? "?" : "");
	return col + 1 + strlen(word) + optional;
}

/* The rules [from, to) of one entry: all have its action. 0 or -ENOMEM. */
static int print_rules(FILE *f, const struct import *im, size_t from, size_t to)
{
	const struct oci_doc *doc = im->doc;
	const struct ruleset *rs = doc->profile->rs;
	const char *last_note = NULL;
	size_t col = 0, kept = 0;
	char buf[64];

	for (size_t i = from; i < to; i++) {
		const struct rule *b = im->restates[i];

		if (!b) {
			kept++;
		} else if (i == from || im->restates[i - 1] != b ||
			   strcmp(rs->rules[i - 1].syscall, rs->rules[i].syscall)) {
			fprintf(f, "# '%s' left out: the built-in rule %s says the same\n",
				rs->rules[i].syscall, policy_builtin_name(b));
		}
	}
	if (!kept)
		return 0;
	fprintf(f, "[%s]\n", action_format(&rs->rules[from].action, buf, sizeof(buf)));
	for (size_t i = from; i < to; i++) {
		const struct rule *r = &rs->rules[i];

		if (r->conj.n_cmps || im->restates[i])
			continue;
		if (!col) {
			fputs("syscalls =", f);
			col = 10;
		}
		col = put_word(f, col, r->syscall, r->optional);
	}
	if (col)
		fputc('\n', f);
	for (size_t i = from; i < to; i++) {
		const struct rule *r = &rs->rules[i];
		const char *note = doc->info[i].note;
		char *text;
		bool long_text;
		FILE *m;

		if (!r->conj.n_cmps || im->restates[i])
			continue;
		if (note && (!last_note || strcmp(note, last_note)) && comment(f, note) < 0)
			return -ENOMEM;
		last_note = note;
		m = memstream_open(&text);
		if (!m)
			return -ENOMEM;
		conj_print(&r->conj, m);
		if (memstream_close(m, &text) < 0)
			return -ENOMEM;
		fprintf(f, "%s%s = ", r->syscall, r->optional ? "?" : "");
		/* a long conjunction goes on continuation lines, split after "&&" */
		long_text = strlen(text) > 150;
		for (char *s = text, *amp; s; s = amp) {
			amp = long_text ? strstr(s, " && ") : NULL;
			if (amp) {
				fprintf(f, "%.*s &&\n\t", (int)(amp - s), s);
				amp += 4;
			} else {
				fputs(s, f);
			}
		}
		fputc('\n', f);
		free(text);
	}
	return 0;
}

/* 0 or -ENOMEM. */
static int print_profile(FILE *f, const struct import *im)
{
	const struct oci_doc *doc = im->doc;
	const struct arch *native = im->native;
	const struct profile *p = doc->profile;
	const struct ruleset *rs = p->rs;
	const struct filter_attrs *at = &rs->attrs;
	char buf[64];
	size_t next = 0;
	int r = 0;

	char *head;

	/* the file name too is the caller's string: a comment, escaped */
	if (asprintf(&head, "Imported from %s by scmp-run --import-oci.", base_name(p->path)) < 0)
		return -ENOMEM;
	r = comment(f, head);
	free(head);
	if (r >= 0)
		r = comment(
			f,
			"Each rule follows the comment naming its entry of \"syscalls\" (counted from "
			"0) and the line the entry starts on. Meaning kept: libseccomp's decisions as "
			"runc drives it, except where a comment says otherwise; argument compares use "
			"the kernel's argument widths (see scmp-run.ini(5), OCI AND DOCKER PROFILES). "
			"The built-in rules are added when this profile is loaded, as when the JSON "
			"is: rules that only restate them are left out (see scmp-run.ini(5), "
			"BUILT-IN RULES). JSON names no user: as root, run mode needs [credentials] "
			"user or --user (see scmp-run(1), Caller state).");
	if (r >= 0)
		r = print_entry_notes(f, doc, SIZE_MAX);
	if (r < 0)
		return r;
	fputs("\n[profile]\ndescription = imported from an OCI seccomp profile\n\n[filter]\n", f);
	fprintf(f, "default-action = %s\n", action_format(&at->default_action, buf, sizeof(buf)));
	if (comment(f, "libseccomp gives syscall numbers it does not know the default action too") <
	    0)
		return -ENOMEM;
	fprintf(f, "unknown-syscall-action = %s\n",
		action_format(&at->unknown_action, buf, sizeof(buf)));
	if (comment(f, "libseccomp's bad-arch action: SCMP_ACT_KILL") < 0)
		return -ENOMEM;
	fprintf(f, "bad-arch-action = %s\n", action_format(&at->bad_arch_action, buf, sizeof(buf)));
	fprintf(f, "architectures = %s", native->name);
	for (int id = 0; id < ARCH_COUNT; id++)
		if ((at->arches & (1u << id)) && (enum arch_id)id != native->id)
			fprintf(f, " %s", arch_get((enum arch_id)id)->name);
	fputc('\n', f);
	if (at->log)
		fputs("log = yes\n", f);
	if (at->spec_allow)
		fputs("spec-allow = yes\n", f);
	if (at->tsync)
		fputs("tsync = yes\n", f);
	if (p->n_keep_caps) {
		size_t col = 6;

		fputs("\n# --oci-caps: the capabilities the process keeps\n[capabilities]\nkeep =",
		      f);
		/* wrapped as syscall lists are: a dozen names exceed the line limit */
		for (size_t i = 0; i < doc->n_caps; i++)
			col = put_word(f, col, doc->caps[i], false);
		fputc('\n', f);
	}
	for (size_t e = 0; e < doc->n_entries; e++) {
		size_t to = next;

		while (to < rs->n_rules && doc->info[to].entry == e)
			to++;
		fprintf(f, "\n# entry %zu, line %u\n", e, doc->entry_loc[e].line);
		if (r >= 0)
			r = print_entry_notes(f, doc, e);
		if (to > next && r >= 0)
			r = print_rules(f, im, next, to);
		next = to;
	}
	return r;
}

/* The profile, printed to f only once it is whole. 0 or -ENOMEM. */
static int print_text(FILE *f, const struct import *im)
{
	char *text;
	FILE *m = memstream_open(&text);
	int r;

	if (!m)
		return -ENOMEM;
	r = print_profile(m, im);
	if (memstream_close(m, &text) < 0)
		r = -ENOMEM;
	if (r >= 0)
		fputs(text, f);
	free(text);
	return r;
}

int oci_import(const char *path, const struct arch *native, const struct oci_options *opts,
	       struct diag *d, FILE *f)
{
	struct oci_doc *doc;
	struct policy *pol = NULL;
	struct import im;
	int r;

	r = oci_doc_load(path, native, opts, d, &doc);
	if (r < 0)
		return r;
	/* what the printed profile would refuse is refused here, before printing */
	r = policy_build(doc->profile->rs, native, d, &pol);
	im = (struct import){ .doc = doc, .native = native };
	if (r >= 0) {
		im.restates = calloc(doc->profile->rs->n_rules + 1, sizeof(*im.restates));
		r = im.restates ? 0 : -ENOMEM;
	}
	if (r >= 0)
		r = find_restated(pol, doc->profile->rs, im.restates);
	if (r >= 0)
		r = print_text(f, &im);
	free(im.restates);
	policy_free(pol);
	oci_doc_free(doc);
	return r;
}
