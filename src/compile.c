/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The pipeline: profile_find -> profile_load (oci_load for JSON) ->
 * policy_build -> bpf_generate, with every diagnostic in the caller's
 * struct diag.
 */
#include "compile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "profile-path.h"

/* The policy and program of c->rs; c->rs is set. */
static int build(struct compiled *c, const struct arch *native, struct diag *d)
{
	size_t errors = d->n_errors;
	int r;

	r = policy_build(c->rs, native, d, &c->policy);
	if (r >= 0)
		r = bpf_generate(c->policy, d, &c->prog);
	if (r >= 0 && d->n_errors > errors)
		r = -EINVAL;
	return r;
}

int compile_file(const char *path, const struct arch *native, const struct oci_options *oci,
		 struct diag *d, struct compiled *ret)
{
	size_t errors = d->n_errors;
	int r;

	memset(ret, 0, sizeof(*ret));
	if (oci_is_json(path))
		r = oci_load(path, native, oci, d, &ret->profile);
	else
		r = profile_load(path, native, d, &ret->profile);
	if (r >= 0 && d->n_errors > errors)
		r = -EINVAL;
	if (r >= 0) {
		ret->rs = ret->profile->rs;
		r = build(ret, native, d);
	}
	if (r < 0)
		compiled_free(ret);
	return r;
}

int compile_profile(const char *name, const char *search_path, const struct arch *native,
		    const struct oci_options *oci, struct diag *d, struct compiled *ret)
{
	char *path;
	int r;

	memset(ret, 0, sizeof(*ret));
	path = profile_find(name, search_path, SCMP_RUN_PROFILEDIR);
	if (!path) {
		r = errno == ENOMEM ? -ENOMEM : -ENOENT;
		if (r == -ENOMEM) {
			diag_error(d, NULL, "out of memory");
			return r;
		}
		diag_error(d, NULL, "profile '%s' not found", name);
		if (!strchr(name, '/'))
			diag_hint(d, NULL,
				  "looked in $SCMP_RUN_PROFILE_PATH, " PROFILE_SYSCONF_DIR
				  " and " SCMP_RUN_PROFILEDIR "; 'scmp-run --list-profiles' "
				  "lists them");
		return r;
	}
	r = compile_file(path, native, oci, d, ret);
	free(path);
	return r;
}

int compile_ruleset(const struct ruleset *rs, const struct arch *native, struct diag *d,
		    struct compiled *ret)
{
	int r;

	memset(ret, 0, sizeof(*ret));
	ret->rs = rs;
	r = build(ret, native, d);
	if (r < 0)
		compiled_free(ret);
	return r;
}

void compiled_free(struct compiled *c)
{
	bpf_prog_free(c->prog);
	policy_free(c->policy);
	profile_free(c->profile);
	memset(c, 0, sizeof(*c));
}
