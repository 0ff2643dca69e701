/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --export-oci: a compiled policy as runtime-spec linux.seccomp JSON whose
 * libseccomp compilation decides like the policy (scmp-run.ini(5), OCI AND
 * DOCKER PROFILES).
 */
#include <errno.h>

#include "oci.h"

int oci_export(const struct policy *p, struct diag *d, FILE *f)
{
	diag_error(d, NULL, "--export-oci: not implemented yet");
	return -ENOSYS;
}
