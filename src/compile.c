/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The pipeline: profile_load (which finds the profile; oci_load for JSON)
 * -> policy_build -> bpf_generate, with every diagnostic in the caller's
 * struct diag.
 */
#include "compile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hardening.h"
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

/* Load what opts names (INI), or without opts the file at what (JSON by its
 * name, else INI), then build it. */
static int compile_load(const char *what, const struct profile_opts *opts,
			const struct oci_options *oci, const struct arch *native, struct diag *d,
			struct compiled *ret)
{
	size_t errors = d->n_errors;
	int r;

	memset(ret, 0, sizeof(*ret));
	if (!opts && oci_is_json(what))
		r = oci_load(what, native, oci, d, &ret->profile);
	else
		r = profile_load(what, opts, native, d, &ret->profile);
	if (r >= 0 && d->n_errors > errors)
		r = -EINVAL;
	if (r >= 0) {
		/* the presets that depend on this process (scmp-run.ini(5) HARDENING) */
		hardening_probe(&ret->profile->rs->hardening);
		ret->rs = ret->profile->rs;
		r = build(ret, native, d);
	}
	if (r < 0)
		compiled_free(ret);
	return r;
}

int compile_file(const char *path, const struct arch *native, const struct oci_options *oci,
		 struct diag *d, struct compiled *ret)
{
	return compile_load(path, NULL, oci, native, d, ret);
}

int compile_profile(const char *value, const struct profile_opts *opts, const struct arch *native,
		    const struct oci_options *oci, struct diag *d, struct compiled *ret)
{
	struct profile_opts o = *opts;

	if (!strcmp(value, "-"))
		o.source = PROFILE_FROM_STDIN;
	else if (profile_is_path(value))
		o.source = PROFILE_FROM_PATH;
	else
		o.source = PROFILE_FROM_NAME;
	if (o.source != PROFILE_FROM_STDIN && oci_is_json(value)) {
		/* JSON: found and checked like any profile file, then read by
		 * the OCI module. */
		struct profile_trust trust;
		struct oci_options same = { 0 };
		char *path;
		int r = profile_locate(value, &o, d, &path, &trust);

		if (r < 0) {
			memset(ret, 0, sizeof(*ret));
			return r;
		}
		/* what is read is the file checked, not one put in its place */
		if (oci)
			same = *oci;
		same.same_file = true;
		same.dev = trust.dev;
		same.ino = trust.ino;
		r = compile_load(path, NULL, &same, native, d, ret);
		free(path);
		if (r >= 0)
			ret->profile->trust = trust;
		return r;
	}
	return compile_load(value, &o, oci, native, d, ret);
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

int compile_rebuild(struct compiled *c, const struct arch *native, struct diag *d)
{
	bpf_prog_free(c->prog);
	policy_free(c->policy);
	c->prog = NULL;
	c->policy = NULL;
	return build(c, native, d);
}

void compiled_free(struct compiled *c)
{
	bpf_prog_free(c->prog);
	policy_free(c->policy);
	profile_free(c->profile);
	memset(c, 0, sizeof(*c));
}
