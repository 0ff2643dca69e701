/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Capability names through libcap-ng, linked or opened on first use
 * (capname.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <strings.h>

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
	char why[256];

	if (dynlib_open(SCMP_RUN_CAPNG_SONAME, fns, sizeof(fns) / sizeof(fns[0]), &capng,
			sizeof(capng), why, sizeof(why)) < 0) {
		snprintf(open_error, sizeof(open_error), "capability names need %s: %s",
			 SCMP_RUN_CAPNG_SONAME, why);
		return -ENOENT;
	}
	return 0;
}

/* The number of a lower-case name without "cap_", as capname_parse(). */
static int lookup(const char *lower, const char **reterr)
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

static int lookup(const char *lower, const char **reterr)
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

int capname_parse(const char *word, const char **reterr)
{
	const char *bare = strncasecmp(word, "cap_", 4) ? word : word + 4;
	char lower[64];
	size_t k;

	*reterr = "unknown capability";
	for (k = 0; bare[k] && k + 1 < sizeof(lower); k++)
		lower[k] = (char)tolower((unsigned char)bare[k]);
	lower[k] = '\0';
	if (!k || bare[k] || isdigit((unsigned char)lower[0]))
		return -EINVAL;
	return lookup(lower, reterr);
}

int capname_describe_keep(const int *keep, unsigned n, bool ambient, FILE *f)
{
	char name[64];
	int e = 0;

	if (!n)
		return fputs("capabilities: none kept (default)\n", f) == EOF ? -EIO : 0;
	e |= fputs("capabilities: kept", f) == EOF;
	for (unsigned i = 0; i < n; i++) {
		capname_format(keep[i], name, sizeof(name));
		e |= fprintf(f, " %s", name) < 0;
	}
	/* capabilities(7): without ambient, execve() of a program with no
	 * file capabilities clears the permitted set of a non-root user */
	e |= fputs(ambient ? "; ambient: passed on through execve\n"
			   : "; not ambient: the command keeps them only if it runs as root\n",
		   f) == EOF;
	return e ? -EIO : 0;
}

void capname_format(int cap, char *buf, size_t size)
{
	const char *name = capname_of(cap);

	if (!name) {
		snprintf(buf, size, "capability %d", cap);
		return;
	}
	snprintf(buf, size, "CAP_%s", name);
	/* within buf: a short one holds less than "CAP_" */
	for (size_t i = 4; i < size && buf[i]; i++)
		buf[i] = (char)toupper((unsigned char)buf[i]);
}
