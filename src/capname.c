/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Capability names through libcap-ng, linked or opened on first use
 * (capname.h).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>

#include "config.h"

#include "capname.h"

#if SCMP_RUN_CAPNG_DLOPEN
#include "dynlib.h"

/* libcap-ng's functions, as cap-ng.h declares them. */
struct capng_fns {
	int (*name_to_capability)(const char *name);
	const char *(*capability_to_name)(unsigned int capability);
};

static struct capng_fns capng;

static char open_error[320];

/* Open libcap-ng once. 0, or -ENOENT with the reason in open_error. */
static int capng_open(void)
{
	static const struct dynlib_fn fns[] = {
		{ "capng_name_to_capability", offsetof(struct capng_fns, name_to_capability) },
		{ "capng_capability_to_name", offsetof(struct capng_fns, capability_to_name) },
	};
	struct capng_fns lib;
	char why[256];

	if (capng.name_to_capability)
		return 0;
	if (dynlib_open(SCMP_RUN_CAPNG_SONAME, fns, sizeof(fns) / sizeof(fns[0]), &lib, why,
			sizeof(why)) < 0) {
		snprintf(open_error, sizeof(open_error), "capability names need %s: %s",
			 SCMP_RUN_CAPNG_SONAME, why);
		return -ENOENT;
	}
	capng = lib;
	return 0;
}

int capname_number(const char *lower, const char **reterr)
{
	int cap;

	if (capng_open() < 0) {
		*reterr = open_error;
		return -ENOENT;
	}
	cap = capng.name_to_capability(lower);
	return cap < 0 ? -EINVAL : cap;
}

const char *capname_of(int cap)
{
	return cap >= 0 && capng_open() == 0 ? capng.capability_to_name((unsigned)cap) : NULL;
}
#else
#include <cap-ng.h>

int capname_number(const char *lower, const char **reterr)
{
	int cap = capng_name_to_capability(lower);

	(void)reterr;
	return cap < 0 ? -EINVAL : cap;
}

const char *capname_of(int cap)
{
	return cap >= 0 ? capng_capability_to_name((unsigned)cap) : NULL;
}
#endif
