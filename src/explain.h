/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --resolve and --explain: a syscall named on the command line, its number,
 * and what a compiled profile decides for one call of it.
 */
#pragma once

#include <linux/seccomp.h>
#include <stdint.h>
#include <stdio.h>

#include "arch.h"
#include "compile.h"
#include "diag.h"

/*
 * A syscall by name or number on ABI a: a number (scmp-run.ini(5) NUMBERS)
 * up to UINT32_MAX, or a negative one down to INT32_MIN, is taken as is (the
 * program decides numbers outside the table too); a name must be in a's
 * table. Returns 0, -EINVAL with "not a number" or "out of range" in d, or
 * -ENOENT with "no syscall 'NAME' on ABI" (a name of another ABI) or
 * "unknown syscall 'NAME' on ABI" in d.
 */
int explain_parse_syscall(const struct arch *a, const char *s, uint32_t *ret_nr, struct diag *d);

/* An argument value: a number of up to 64 bits, "-number" (two's
 * complement, down to INT64_MIN) or a constant of ABI a, as a register
 * value. Returns 0, or -EINVAL with "not a number", "out of range" or "bad
 * argument" in d. */
int explain_parse_value(const struct arch *a, const char *s, uint64_t *ret, struct diag *d);

/*
 * --resolve: print to f the number of a syscall name, or the name of a
 * number, on ABI a. Returns 0, -EINVAL for a malformed number, -ENOENT
 * with an error in d when a has no such syscall, or -EIO if writing failed.
 */
int explain_resolve(const struct arch *a, const char *s, FILE *f, struct diag *d);

/*
 * --explain: run c's program on sd, a call on ABI a written in this host's
 * words, check that the policy decides the same, and print to f the action,
 * the deciding rule (FILE:LINE, default, unknown-syscall or bad-arch) and
 * the instructions executed. Returns 0, -EPROTO with an internal error in d
 * when the program does not run or disagrees with the policy, or -EIO if
 * writing failed.
 */
int explain_call(const struct compiled *c, const struct arch *a, const struct seccomp_data *sd,
		 FILE *f, struct diag *d);
