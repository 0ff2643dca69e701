/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --check: the summary of a compiled profile (its actions, attributes, rule
 * counts, program size per ABI and the always-allow cache coverage). */
#pragma once

#include <stdio.h>

#include "compile.h"

/* Print the summary of c, compiled from a profile (c->profile is set), to f.
 * Returns 0 or -EIO if writing failed. */
int summary_print(const struct compiled *c, FILE *f);
