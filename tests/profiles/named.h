/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* For the tests of -p NAME that change the C library's file functions: a
 * profile file written, and the profile "named" looked up. */
#pragma once

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/arch.h"
#include "src/profile.h"

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		abort();
	chmod(path, 0644);
}

/* -p named in search_path, with the trust check on, as root or with
 * --user; the result of profile_load() in *ret_r. */
static struct profile *load_named(const char *search_path, struct diag *d, int *ret_r)
{
	const struct profile_opts o = {
		.source = PROFILE_FROM_NAME,
		.search_path = search_path,
		.trust = PROFILE_TRUST_ROOT,
		.uid = getuid(),
	};
	struct profile *p = NULL;

	diag_init(d);
	*ret_r = profile_load("named", &o, arch_get(ARCH_X86_64), d, &p);
	return p;
}
