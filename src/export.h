/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --export-bpf and --export-pfc: the program run mode would load, raw or as
 * readable pseudo filter code, to a file or to standard output. */
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
