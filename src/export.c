/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --export-bpf, --export-pfc and --export-oci: open the output, write, and
 * check every step, so that a full disk is an error and not a truncated
 * program. */
#include "export.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "landlock.h"
#include "memstream.h"
#include "oci.h"
#include "pfc.h"

static int open_out(const char *path, FILE **ret, struct diag *d)
{
	int err;

	*ret = strcmp(path, "-") ? fopen(path, "we") : stdout;
	if (*ret)
		return 0;
	err = errno;
	diag_error(d, NULL, "opening '%s': %s", path, strerror(err));
	return -err;
}

/* Flush and close f (standard output stays open); r is the result of the
 * writes (0 or a negative errno). The errno of a failed flush names the
 * cause best (ENOSPC), so it comes first. Returns 0 or a negative errno. */
static int close_out(FILE *f, const char *path, int r, struct diag *d)
{
	int err = 0;

	errno = 0;
	if (fflush(f) != 0 || ferror(f))
		err = errno ? errno : EIO;
	if (f != stdout && fclose(f) != 0 && !err)
		err = errno;
	if (!err && r < 0)
		err = -r;
	if (!err)
		return 0;
	diag_error(d, NULL, "writing '%s': %s", path, strerror(err));
	return -err;
}

int export_bpf(const struct compiled *c, const char *path, struct diag *d)
{
	FILE *f;
	int r = open_out(path, &f, d);

	if (r < 0)
		return r;
	errno = 0;
	if (fwrite(c->prog->insns, sizeof(*c->prog->insns), c->prog->len, f) != c->prog->len)
		r = errno ? -errno : -EIO;
	return close_out(f, path, r, d);
}

int export_pfc(const struct compiled *c, const char *path, struct diag *d)
{
	FILE *f;
	int r = open_out(path, &f, d);

	if (r < 0)
		return r;
	return close_out(f, path, pfc_print(c->policy, f), d);
}

int export_oci(const struct compiled *c, const struct arch *native, const char *path,
	       struct diag *d)
{
	char *text;
	FILE *m = memstream_open(&text), *f;
	int r;

	if (!m) {
		diag_error(d, NULL, "out of memory");
		return -ENOMEM;
	}
	/* scmp-run.ini(5) OCI AND DOCKER PROFILES: nor has a Landlock
	 * domain; a runtime would run the command without it. */
	if (c->profile && landlock_first_key(&c->profile->landlock))
		diag_warning(d, landlock_first_key(&c->profile->landlock),
			     "--export-oci: [landlock] has no OCI form: linux.seccomp cannot "
			     "restrict paths, TCP ports or scopes, and a runtime runs the command "
			     "without the Landlock domain");
	r = oci_export(c->policy, c->rs, native, d, m);
	if (memstream_close(m, &text) < 0 && r >= 0) {
		diag_error(d, NULL, "out of memory");
		r = -ENOMEM;
	}
	if (r >= 0)
		r = open_out(path, &f, d);
	if (r >= 0) {
		errno = 0;
		if (fputs(text, f) == EOF)
			r = errno ? -errno : -EIO;
		r = close_out(f, path, r, d);
	}
	free(text);
	return r;
}
