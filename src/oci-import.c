/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --import-oci: an OCI/Docker seccomp JSON file printed as the equivalent INI
 * profile, each rule under a comment naming its JSON entry, with every
 * change of meaning said (scmp-run.ini(5), OCI AND DOCKER PROFILES).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "oci-int.h"

#define IMPORT_WRAP 90 /* wrap lists here: far below the loader's line limit */

/* A comment, wrapped so that no line exceeds the profile line limit. */
static void comment(FILE *f, const char *text)
{
	const char *s = text;

	while (*s) {
		size_t n = strlen(s), cut = n;

		if (n > IMPORT_WRAP) {
			cut = IMPORT_WRAP;
			while (cut > 20 && s[cut] != ' ')
				cut--;
		}
		fprintf(f, "# %.*s\n", (int)cut, s);
		s += cut;
		while (*s == ' ')
			s++;
	}
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static void print_entry_notes(FILE *f, const struct oci_doc *doc, size_t entry)
{
	for (size_t i = 0; i < doc->n_notes; i++)
		if (doc->notes[i].entry == entry)
			comment(f, doc->notes[i].text);
}

/* The rules [from, to) of one entry: all have its action. */
static void print_rules(FILE *f, const struct oci_doc *doc, size_t from, size_t to)
{
	const struct ruleset *rs = doc->profile->rs;
	const char *last_note = NULL;
	size_t col = 0;
	char buf[64];

	fprintf(f, "[%s]\n", action_format(&rs->rules[from].action, buf, sizeof(buf)));
	for (size_t i = from; i < to; i++) {
		const struct rule *r = &rs->rules[i];

		if (r->conj.n_cmps)
			continue;
		if (!col) {
			fputs("syscalls =", f);
			col = 10;
		} else if (col > IMPORT_WRAP) {
			fputs("\n\t", f);
			col = 8;
		}
		fprintf(f, " %s%s", r->syscall, r->optional ? "?" : "");
		col += strlen(r->syscall) + 1 + r->optional;
	}
	if (col)
		fputc('\n', f);
	for (size_t i = from; i < to; i++) {
		const struct rule *r = &rs->rules[i];
		const char *note = doc->info[i].note;
		char *text = NULL;
		size_t len = 0;
		FILE *m;

		if (!r->conj.n_cmps)
			continue;
		if (note && (!last_note || strcmp(note, last_note)))
			comment(f, note);
		last_note = note;
		m = open_memstream(&text, &len);
		if (!m)
			continue;
		conj_print(&r->conj, m);
		fclose(m);
		fprintf(f, "%s%s = ", r->syscall, r->optional ? "?" : "");
		/* a long conjunction goes on continuation lines, split after "&&" */
		for (char *s = text, *amp; s; s = amp) {
			amp = len > 150 ? strstr(s, " && ") : NULL;
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
}

static void print_profile(FILE *f, const struct oci_doc *doc, const struct arch *native)
{
	const struct profile *p = doc->profile;
	const struct ruleset *rs = p->rs;
	const struct filter_attrs *at = &rs->attrs;
	char buf[64];
	size_t next = 0;

	fprintf(f, "# Imported from %s by scmp-run --import-oci.\n", base_name(p->path));
	comment(f, "Each rule follows the comment naming its entry of \"syscalls\" (counted from "
		   "0) and the line the entry starts on. Meaning kept: libseccomp's decisions as "
		   "runc drives it, except where a comment says otherwise; argument compares use "
		   "the kernel's argument widths (see scmp-run.ini(5), OCI AND DOCKER PROFILES).");
	print_entry_notes(f, doc, SIZE_MAX);
	fputs("\n[profile]\ndescription = imported from an OCI seccomp profile\n\n[filter]\n", f);
	fprintf(f, "default-action = %s\n", action_format(&at->default_action, buf, sizeof(buf)));
	comment(f, "libseccomp gives syscall numbers it does not know the default action too");
	fprintf(f, "unknown-syscall-action = %s\n",
		action_format(&at->unknown_action, buf, sizeof(buf)));
	comment(f, "libseccomp's bad-arch action: SCMP_ACT_KILL");
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
		fputs("\n# --oci-caps: the capabilities the process keeps\n[capabilities]\nkeep =",
		      f);
		for (size_t i = 0; i < doc->n_caps; i++)
			fprintf(f, " %s", doc->caps[i]);
		fputc('\n', f);
	}
	for (size_t e = 0; e < doc->n_entries; e++) {
		size_t to = next;

		while (to < rs->n_rules && doc->info[to].entry == e)
			to++;
		fprintf(f, "\n# entry %zu, line %u\n", e, doc->entry_loc[e].line);
		print_entry_notes(f, doc, e);
		if (to > next)
			print_rules(f, doc, next, to);
		next = to;
	}
}

int oci_import(const char *path, const struct arch *native, const struct oci_options *opts,
	       struct diag *d, FILE *f)
{
	struct oci_doc *doc;
	struct policy *pol = NULL;
	int r;

	r = oci_doc_load(path, native, opts, d, &doc);
	if (r < 0)
		return r;
	/* what the printed profile would refuse is refused here, before printing */
	r = policy_build(doc->profile->rs, native, d, &pol);
	policy_free(pol);
	if (r >= 0)
		print_profile(f, doc, native);
	oci_doc_free(doc);
	return r;
}
