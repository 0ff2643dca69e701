/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * [limits]: resource limits (setrlimit(2)) as written in a profile, parsed
 * (pure), applied in run mode before the credential switch and read back.
 */
#pragma once

#include <stdbool.h>
#include <stdio.h>
#include <sys/resource.h>

#include "diag.h"

/* The keys of [limits], in the order of scmp-run.ini(5) LIMITS. */
enum rlimits_key {
	RLIMITS_CPU,
	RLIMITS_ADDRESS_SPACE,
	RLIMITS_DATA,
	RLIMITS_STACK,
	RLIMITS_CORE,
	RLIMITS_FILE_SIZE,
	RLIMITS_OPEN_FILES,
	RLIMITS_PROCESSES,
	RLIMITS_LOCKED_MEMORY,
	RLIMITS_NICE,
	RLIMITS_COUNT,
};

struct rlimits_entry {
	bool set;
	rlim_t soft, hard;  /* RLIM_INFINITY for "infinity" */
	struct src_loc loc; /* loc.file borrowed, as the profile's other locations */
};

/* The section as written; zero-initialised it sets nothing. */
struct rlimits_config {
	struct rlimits_entry e[RLIMITS_COUNT];
};

/*
 * Parse one key of [limits] into c (a later line replaces an earlier one of
 * the same key). Value: N, SOFT:HARD or infinity (each side of SOFT:HARD may
 * be infinity); sizes take K, M or G (1024-based); nice is the kernel's
 * RLIMIT_NICE value 0..40, or a nice level -20..19 written with its sign.
 * Pure. Returns 0; -ENOENT for a key that is not one of [limits]; -EINVAL for
 * a bad value, with a static lower-case message in *reterr. On error c is
 * unchanged.
 */
int rlimits_parse_key(struct rlimits_config *c, const char *key, const char *value,
		      const struct src_loc *loc, const char **reterr);

/* The key's name ("open-files") and its resource (RLIMIT_NOFILE). */
const char *rlimits_key_name(enum rlimits_key k);
int rlimits_resource(enum rlimits_key k);

/*
 * Apply every limit that c sets with setrlimit(2), then read each back with
 * getrlimit(2): a value that differs is an error. Raising a hard limit needs
 * CAP_SYS_RESOURCE; without it the error says so. Returns 0 or a negative
 * errno with the key, its line and the raw errno in d; limits applied before
 * the failing one stay applied (run mode then exits without running anything).
 */
int rlimits_apply(const struct rlimits_config *c, struct diag *d);

/* What execve(2) needs of the stack beyond the arguments and environment:
 * the kernel puts them up to 8 KiB lower at random, and the program's
 * loader needs room before main() (scmp-run.ini(5) LIMITS, stack). */
#define RLIMITS_STACK_ROOM (40 * 1024)

/*
 * The least soft stack limit a command started with argv and envp can
 * start under: their strings and pointers, and RLIMITS_STACK_ROOM.
 */
unsigned long long rlimits_stack_need(char *const argv[], char *const envp[]);

/*
 * Refuse a stack limit of c below rlimits_stack_need(argv, envp): execve()
 * would kill the command with SIGSEGV past its point of no return, with no
 * word of why. Returns 0, or -E2BIG with the key and its line in d.
 */
int rlimits_check_stack(const struct rlimits_config *c, char *const argv[], char *const envp[],
			struct diag *d);

/*
 * The first limit of c that rlimits_apply() would fail to set in this
 * process, for --check: a hard limit above the current one when can_raise
 * is false (no CAP_SYS_RESOURCE), or open-files above fs.nr_open. Its key
 * in *ret_key, the most that may be set in *ret_max, and in *ret_nr_open
 * whether fs.nr_open is that ceiling. Reads, changes nothing. True if
 * there is one.
 */
bool rlimits_check(const struct rlimits_config *c, bool can_raise, enum rlimits_key *ret_key,
		   rlim_t *ret_max, bool *ret_nr_open);

/* One line per limit set, "PREFIXNAME: SOFT:HARD" (--check, -v). Returns 0 or -EIO. */
int rlimits_print(const struct rlimits_config *c, const char *prefix, FILE *f);
