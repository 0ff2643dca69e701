/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared helpers of the engine tests: build rulesets from short strings,
 * compile them, parse values. Test code only: aborts on misuse. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "compile.h"
#include "policy.h"
#include "rng.h"

/* A test's rule set, what compile_ruleset() made of it, and the messages. */
struct tcase {
	struct ruleset *rs;  /* owned; built by the test */
	struct compiled out; /* out.rs == rs once compiled */
	struct diag d;
};

/* Add "ACTION SYSCALL [CONDITION]" to rs; returns 0 or a negative errno. */
int util_add_rule(struct ruleset *rs, const char *action, const char *syscall, const char *cond,
		  unsigned line);

/* Parse an action for ABI a into its SECCOMP_RET value. */
int util_action_ret(const char *text, const struct arch *a, uint32_t *ret);

/* A number, "-number" or a constant of ABI a. */
bool util_parse_value(const char *s, const struct arch *a, uint64_t *ret);

/* compile_ruleset() of c->rs for this machine's ABI; the messages stay in
 * c->d. Returns as compile_ruleset(). */
int util_compile(struct tcase *c);
void util_compiled_free(struct tcase *c);

/* Run c's program and its policy on sd; both must agree. Returns the
 * program's value; *ret_agree tells whether the policy said the same. */
uint32_t util_eval(const struct tcase *c, const struct seccomp_data *sd, bool *ret_agree,
		   size_t *ret_executed);

/*
 * An independent model of scmp-run.ini(5) ARGUMENT WIDTHS AND SIGNEDNESS and
 * MEANING OF A PROFILE for tests: decides a call on ABI a
 * straight from the rules as written (no policy_build, no interval sets).
 * Returns 0 and the SECCOMP_RET value, or -EOPNOTSUPP for what it does not
 * model (multiplexer numbers).
 */
int util_decide_written(const struct ruleset *rs, const struct arch *a,
			const struct seccomp_data *sd, uint32_t *ret);

/* The rule of the profile (no built-in rule) that decides a call of name
 * with sd's arguments, straight from the rules as written: the strictest
 * action, the first written among equals. NULL if none matches. */
const struct rule *util_written_best(const struct ruleset *rs, const struct arch *a,
				     const char *name, const struct seccomp_data *sd);

/* Rules shaped like ioctl request numbers (bench set L): on each of up to
 * n syscalls of this machine's ABI, "argK == V" for 20 values V spread over
 * about 70 numbers, with acts[0], or acts[1] on every third syscall. The
 * syscalls of first (NULL-terminated, may be NULL) come first, on arg1;
 * the others of the table follow on their first integer argument, which
 * must be a 32-bit integer on each ABI of also (NULL-terminated, may be
 * NULL; without it some values have the high word set). Lines are numbered
 * from *line + 1 on. Returns how many syscalls got rules (0 on an error). */
size_t util_add_clusters(struct ruleset *rs, struct rng *r, size_t n, const char *const acts[2],
			 const char *const *first, unsigned *line, const struct arch *const *also);
