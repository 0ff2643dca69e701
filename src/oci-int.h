/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internals shared by the OCI loader and the INI printer: a converted
 * document keeps, next to its profile, where each rule came from and the
 * notes --import-oci prints (changes of meaning, dropped entries).
 */
#pragma once

#include <stddef.h>

#include "oci.h"

/* Per rule of the ruleset (same index). */
struct oci_rule_info {
	size_t entry; /* index in "syscalls" */
	char *note;   /* change of meaning for this rule (owned), or NULL */
};

/* A note about an entry as a whole (skipped, dropped, overlap...). */
struct oci_note {
	size_t entry; /* SIZE_MAX: about the whole file */
	char *text;
};

struct oci_doc {
	struct profile *profile;
	struct oci_rule_info *info; /* parallel to profile->rs->rules */
	size_t n_info;
	struct oci_note *notes;
	size_t n_notes;
	struct src_loc *entry_loc; /* where each entry of "syscalls" starts */
	size_t n_entries;
	char **caps; /* --oci-caps names, normalised ("CAP_SYS_ADMIN") */
	size_t n_caps;
};

/* Convert a JSON file; on success *ret holds the document (free with
 * oci_doc_free()). Errors and warnings as oci_load() says. */
int oci_doc_load(const char *path, const struct arch *native, const struct oci_options *opts,
		 struct diag *d, struct oci_doc **ret);
void oci_doc_free(struct oci_doc *doc);
