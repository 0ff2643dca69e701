/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Pseudo filter code: a readable rendering of a policy, equivalent to the
 * generated program, with each rule's FILE:LINE as a comment. */
#pragma once

#include <stdio.h>

#include "policy.h"

/* Print p to f. Returns 0 or -EIO if writing failed. */
int pfc_print(const struct policy *p, FILE *f);
