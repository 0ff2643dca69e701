/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The resolved policy and its reference semantics: lookups by ABI and
 * number, the test of one argument, and how the filter decides a call.
 */
#include "policy.h"

#include <stdlib.h>

void rcmps_free(struct rcmp *cmps, size_t n)
{
	for (size_t i = 0; cmps && i < n; i++)
		free(cmps[i].ivs);
	free(cmps);
}

void policy_free(struct policy *p)
{
	if (!p)
		return;
	free(p->builtins); /* their conditions are in p->lists */
	for (size_t i = 0; i < p->n_abis; i++) {
		for (size_t j = 0; j < p->abis[i].n_sys; j++) {
			struct rsys *s = &p->abis[i].sys[j];

			for (size_t k = 0; k < s->n_rules; k++)
				rcmps_free(s->rules[k].cmps, s->rules[k].n_cmps);
		}
		free(p->abis[i].sys);
		free(p->abis[i].prio_known);
		free(p->abis[i].known_owned);
	}
	free(p->abis);
	arena_free(&p->lists);
	free(p);
}

bool policy_action_denies(enum action_kind kind)
{
	return kind != ACTION_ALLOW && kind != ACTION_LOG;
}

void policy_unknown_action(const struct filter_attrs *attrs, struct action *ret)
{
	if (attrs->has_unknown_action)
		*ret = attrs->unknown_action;
	else if (policy_action_denies(attrs->default_action.kind))
		/* a newer libc's probe for a syscall the table predates falls back */
		*ret = (struct action){ .kind = ACTION_ERRNO, .data = 38, .errno_name = "ENOSYS" };
	else
		*ret = attrs->default_action;
}

const struct abi_policy *policy_abi_for(const struct policy *p, uint32_t audit_arch, uint32_t nr)
{
	const struct abi_policy *x86_64 = NULL, *x32 = NULL;

	for (size_t i = 0; i < p->n_abis; i++) {
		const struct arch *a = p->abis[i].arch;

		if (a->audit_arch != audit_arch)
			continue;
		if (a->id == ARCH_X86_64)
			x86_64 = &p->abis[i];
		else if (a->id == ARCH_X32)
			x32 = &p->abis[i];
		else
			return &p->abis[i];
	}
	/* x86_64 and x32 share AUDIT_ARCH_X86_64; x32 numbers carry the x32 bit
	 * (scmp-run.ini(5) ARCHITECTURES). -1 (a tracer skipping the call) is
	 * an unknown number, never x32. */
	if (nr == UINT32_MAX)
		return x86_64 ? x86_64 : x32;
	return (nr & ARCH_X32_SYSCALL_BIT) ? x32 : x86_64;
}

bool rcmp_match(const struct rcmp *c, uint64_t arg)
{
	uint64_t v = arg & width_max(c->width);

	switch (c->kind) {
	case RCMP_MASK_EQ:
		return (v & c->mask) == c->value;
	case RCMP_MASK_NE:
		return (v & c->mask) != c->value;
	case RCMP_IN:
		if (c->is_signed)
			v ^= width_sign(c->width);
		for (size_t i = 0; i < c->n_ivs; i++)
			if (v >= c->ivs[i].lo && v <= c->ivs[i].hi)
				return true;
		return false;
	}
	return false;
}

static int cmp_rsys_nr(const void *key, const void *elem)
{
	uint32_t nr = *(const uint32_t *)key, other = ((const struct rsys *)elem)->nr;

	return (nr > other) - (nr < other);
}

const struct rsys *policy_rsys(const struct abi_policy *abi, uint32_t nr)
{
	if (!abi->n_sys)
		return NULL;
	return bsearch(&nr, abi->sys, abi->n_sys, sizeof(*abi->sys), cmp_rsys_nr);
}

const struct syscall *policy_known(const struct abi_policy *abi, uint32_t nr)
{
	return syscalls_find_nr(abi->known, abi->n_known, nr);
}

void policy_decide(const struct policy *p, const struct seccomp_data *sd, struct decision *ret)
{
	uint32_t nr = (uint32_t)sd->nr;
	const struct abi_policy *abi = policy_abi_for(p, sd->arch, nr);
	const struct rsys *s;

	*ret = (struct decision){ .ret = p->bad_arch_ret, .why = DECIDE_BAD_ARCH, .abi = abi };
	if (!abi)
		return;
	s = policy_rsys(abi, nr);
	for (size_t i = 0; s && i < s->n_rules; i++) {
		const struct rrule *rr = &s->rules[i];
		bool match = true;

		for (size_t j = 0; j < rr->n_cmps && match; j++)
			match = rcmp_match(&rr->cmps[j], sd->args[rr->cmps[j].arg]);
		if (match) {
			ret->ret = rr->ret;
			ret->why = DECIDE_RULE;
			ret->rule = rr;
			return;
		}
	}
	if (s || policy_known(abi, nr)) {
		ret->ret = abi->default_ret;
		ret->why = DECIDE_DEFAULT;
	} else {
		ret->ret = abi->unknown_ret;
		ret->why = DECIDE_UNKNOWN;
	}
}
