/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --export-bpf, --export-pfc and --export-oci: the program run mode would
 * load, raw, as readable pseudo filter code or as OCI seccomp JSON, to a
 * file or to standard output. */
#pragma once

#include "compile.h"
#include "diag.h"

/*
 * Write c's program (struct sock_filter array, host byte order) to path, or
 * to standard output if path is "-". Returns 0, or a negative errno with
 * "opening 'PATH'" or "writing 'PATH'" and the reason in d.
 */
int export_bpf(const struct compiled *c, const char *path, struct diag *d);

/* Write the pseudo filter code of c's policy (pfc_print()) the same way. */
int export_pfc(const struct compiled *c, const char *path, struct diag *d);

/* Write c's policy as OCI runtime-spec JSON (oci_export(); native is the ABI
 * it was compiled for) the same way. Nothing is opened or written when the
 * policy has no OCI form: the problems are in d. */
int export_oci(const struct compiled *c, const struct arch *native, const char *path,
	       struct diag *d);
