/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* For the tests of -p NAME that change the C library's file functions: a
 * profile file written, and a profile loaded with the trust check on. */
#pragma once

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/arch.h"
#include "src/profile.h"

static inline void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		abort();
	chmod(path, 0644);
}

/* A load with the trust check on from the start (as root, or with
 * --user), the caller's uid the one trusted besides root; the result of
 * profile_load() in *ret_r. */
static inline struct profile *load_trusting(const char *what, enum profile_source source,
					    const char *search_path, struct diag *d, int *ret_r)
{
	const struct profile_opts o = {
		.source = source,
		.search_path = search_path,
		.trust = PROFILE_TRUST_ROOT,
		.uid = getuid(),
	};
	struct profile *p = NULL;

	diag_init(d);
	*ret_r = profile_load(what, &o, arch_get(ARCH_X86_64), d, &p);
	return p;
}

/* -p named in search_path, so loaded. */
static inline struct profile *load_named(const char *search_path, struct diag *d, int *ret_r)
{
	return load_trusting("named", PROFILE_FROM_NAME, search_path, d, ret_r);
}
