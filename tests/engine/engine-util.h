/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared helpers of the engine tests: build rulesets from short strings,
 * compile them, parse values. Test code only: aborts on misuse. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "bpf.h"
#include "policy.h"

struct compiled {
	struct ruleset *rs;
	struct policy *p;
	struct bpf_prog *prog;
	struct diag d;
};

/* Add "ACTION SYSCALL [CONDITION]" to rs; returns 0 or a negative errno. */
int util_add_rule(struct ruleset *rs, const char *action, const char *syscall, const char *cond,
		  unsigned line);

/* Parse an action for ABI a into its SECCOMP_RET value. */
int util_action_ret(const char *text, const struct arch *a, uint32_t *ret);

/* A number, "-number" or a constant of ABI a. */
bool util_parse_value(const char *s, const struct arch *a, uint64_t *ret);

/* policy_build + bpf_generate; diagnostics stay in c->d. */
int util_compile(struct compiled *c);
void util_compiled_free(struct compiled *c);

/* Run c's program and its policy on sd; both must agree. Returns the
 * program's value; *ret_agree tells whether the policy said the same. */
uint32_t util_eval(const struct compiled *c, const struct seccomp_data *sd, bool *ret_agree,
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
