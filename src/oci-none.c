/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * OCI profiles in a build without jansson: every entry point says so
 * (scmp-run.ini(5), OCI AND DOCKER PROFILES).
 */
#include <errno.h>
#include <string.h>

#include "oci.h"

bool oci_is_json(const char *path)
{
	size_t n = strlen(path);

	return n > 5 && !strcmp(path + n - 5, ".json");
}

static int unsupported(struct diag *d)
{
	diag_error(d, NULL, "built without OCI support (configure with -Doci=enabled)");
	return -EOPNOTSUPP;
}

int oci_load(const char *path, const struct arch *native, const struct oci_options *opts,
	     struct diag *d, struct profile **ret)
{
	*ret = NULL;
	return unsupported(d);
}

int oci_import(const char *path, const struct arch *native, const struct oci_options *opts,
	       struct diag *d, FILE *f)
{
	return unsupported(d);
}

int oci_export(const struct policy *p, const struct ruleset *rs, const struct arch *native,
	       struct diag *d, FILE *f)
{
	return unsupported(d);
}

int oci_export_insns(const struct policy *p, const struct ruleset *rs, const struct arch *native,
		     struct diag *d, size_t *ret)
{
	*ret = 0;
	return unsupported(d);
}

bool oci_libseccomp_unknown(const struct arch *a, const char *name)
{
	return false; /* nothing is exported without JSON */
}
