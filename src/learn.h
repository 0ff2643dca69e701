/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What --learn records (ABI, syscall, the decisive argument of the usual
 * multiplexing calls) and the profile it writes from that record
 * (scmp-run(1), WRITING A PROFILE FOR A PROGRAM).
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "arch.h"
#include "diag.h"
#include "syscalls.h"

#define LEARN_TESTS_MAX	  2	      /* decisive argument tests per recorded call */
#define LEARN_RECORDS_MAX 100000      /* distinct records kept; more is an error */
#define LEARN_TAG	  ";@learned" /* record lines in a written profile */

struct learn;

struct learn *learn_new(void);
void learn_free(struct learn *l);

/*
 * Record one call: the number nr on ABI a with its arguments. For the
 * multiplexing calls the decisive arguments are kept (masked), for the
 * others only the syscall. Returns 1 if the record is new, 0 if it was
 * known, -ENOMEM, or -E2BIG past LEARN_RECORDS_MAX.
 */
int learn_record(struct learn *l, const struct arch *a, uint32_t nr,
		 const uint64_t args[SYSCALL_ARGS_MAX]);

/*
 * Record a clone3() call of ABI a whose struct clone_args holds flags,
 * read from the caller's memory. A condition cannot look there, so the
 * learned profile never allows clone3: it is recorded as the clone() that
 * the C library makes instead when clone3() fails with ENOSYS, which the
 * profile's condition on clone makes it do (scmp-run.ini(5) BUILT-IN
 * RULES, clone3). Returns as learn_record().
 */
int learn_record_clone3(struct learn *l, const struct arch *a, uint64_t flags);

/* Number of distinct records. */
size_t learn_count(const struct learn *l);

struct learn_header {
	const char *base; /* absolute path of the base profile; NULL: none */
	const char *user; /* [credentials] to keep; NULL: none */
	const char *group;
	const char *command; /* shown in a comment; may be NULL */
	const struct arch *native;
	/* the ABIs of the base's filter, which the learned profile's are too
	 * (it includes the base): its rules must hold on them */
	const struct arch *const *base_abis;
	size_t n_base_abis;
};

/*
 * Read the records of a profile this module wrote (its LEARN_TAG lines) from
 * f, named path in diagnostics, for a profile whose native ABI is h->native. A
 * file without any record is not a learned profile: -EINVAL with an error in
 * d (it is not overwritten). A malformed record line is an error too, and
 * so is a record of an ABI that cannot run beside h->native (no filter could
 * allow both), and a record past LEARN_RECORDS_MAX with those already in l
 * (-E2BIG). So is a file written under another header than h, the one
 * this run writes: another base (what a base allows by rule is never
 * recorded) or other [credentials] (scmp-run(1), WRITING A PROFILE FOR A
 * PROGRAM). Returns the number of records read, or -errno with the error
 * in d.
 */
int learn_load(struct learn *l, FILE *f, const char *path, const struct learn_header *h,
	       struct diag *d);

/*
 * Why path cannot be the value of the learned profile's include line, or
 * NULL if it can: the loader must read back the very same path (no blank
 * at either end, no ';' after a blank, which would start a comment, no
 * control character or byte that is not UTF-8, nothing utf8_hides_text())
 * from a line that fits PROFILE_LINE_MAX.
 */
const char *learn_include_unfit(const char *path);

/*
 * Write the profile: it includes the base, denies by default
 * (errno(EPERM)), sets unknown-syscall-action = errno(ENOSYS), keeps the
 * credentials and allows exit and exit_group (a program ends through them,
 * recorded or not) and exactly the records: complete built-in groups by
 * name, other names with their group in a comment, conditions on the
 * recorded arguments, ABI/NUMBER for a call seen on some of the ABIs that
 * have its name; then the records as LEARN_TAG lines for the next merge.
 * Returns 0 or -EIO (the stream's error).
 */
int learn_write(const struct learn *l, const struct learn_header *h, FILE *f);
