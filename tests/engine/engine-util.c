/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared helpers of the engine tests. */
#include "engine-util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consts.h"
#include "sim.h"

int util_add_rule(struct ruleset *rs, const char *action, const char *syscall, const char *cond,
		  unsigned line)
{
	struct src_loc loc = { .file = ruleset_intern_file(rs, "test"), .line = line };
	struct cond c = { 0 };
	struct action act;
	const char *err;
	char *perr = NULL;
	size_t len = strlen(syscall);
	bool optional = len && syscall[len - 1] == '?';
	char *name = strndup(syscall, optional ? len - 1 : len);
	int r;

	if (!name || action_parse(action, arch_native(), &act, &err) < 0) {
		fprintf(stderr, "bad action '%s'\n", action);
		free(name);
		return -EINVAL;
	}
	if (!cond || !*cond) {
		r = ruleset_add(rs, name, optional, &act, NULL, &loc);
		free(name);
		return r;
	}
	r = cond_parse(cond, &c, &perr);
	if (r < 0) {
		fprintf(stderr, "bad condition '%s': %s\n", cond, perr ? perr : "?");
		free(perr);
		free(name);
		return r;
	}
	for (size_t i = 0; i < c.n_conjs && r >= 0; i++)
		r = ruleset_add(rs, name, optional, &act, &c.conjs[i], &loc);
	cond_free(&c);
	free(name);
	return r;
}

int util_action_ret(const char *text, const struct arch *a, uint32_t *ret)
{
	struct action act;
	const char *err;

	if (action_parse(text, a, &act, &err) < 0)
		return -EINVAL;
	return action_ret(&act, a, ret);
}

bool util_parse_value(const char *s, const struct arch *a, uint64_t *ret)
{
	char *end;
	bool neg = *s == '-';
	int64_t c;

	if ((neg ? s[1] : s[0]) >= '0' && (neg ? s[1] : s[0]) <= '9') {
		errno = 0;
		*ret = strtoull(neg ? s + 1 : s, &end, 0);
		if (errno || *end)
			return false;
		if (neg)
			*ret = (uint64_t)0 - *ret;
		return true;
	}
	if (consts_lookup(a, s, &c) < 0)
		return false;
	*ret = (uint64_t)c;
	return true;
}

int util_compile(struct compiled *c)
{
	int r;

	diag_init(&c->d);
	r = rules_build(c->rs, arch_native(), &c->d, &c->p);
	if (r < 0)
		return r;
	return bpf_generate(c->p, &c->d, &c->prog);
}

void util_compiled_free(struct compiled *c)
{
	bpf_prog_free(c->prog);
	policy_free(c->p);
	ruleset_free(c->rs);
	diag_clear(&c->d);
	memset(c, 0, sizeof(*c));
}

uint32_t util_eval(const struct compiled *c, const struct seccomp_data *sd, bool *ret_agree,
		   size_t *ret_executed)
{
	struct sim_result res = { 0 };
	struct decision dec;
	const struct abi_policy *abi = policy_abi_for(c->p, sd->arch, (uint32_t)sd->nr);
	struct seccomp_data raw;

	bpf_abi_data(abi ? abi->arch : c->p->abis[0].arch, sd, &raw);
	if (sim_run(c->prog->insns, c->prog->len, &raw, &res) < 0) {
		*ret_agree = false;
		return 0xdeadbeef;
	}
	policy_decide(c->p, sd, &dec);
	*ret_agree = dec.ret == res.ret;
	if (ret_executed)
		*ret_executed = res.executed;
	return res.ret;
}
