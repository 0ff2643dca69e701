/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared helpers of the engine tests. */
#include "engine-util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consts.h"
#include "sim.h"
#include "syscalls.h"

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

int util_compile(struct tcase *c)
{
	diag_init(&c->d);
	return compile_ruleset(c->rs, arch_native(), &c->d, &c->out);
}

void util_compiled_free(struct tcase *c)
{
	compiled_free(&c->out);
	ruleset_free(c->rs);
	diag_clear(&c->d);
	memset(c, 0, sizeof(*c));
}

uint32_t util_eval(const struct tcase *c, const struct seccomp_data *sd, bool *ret_agree,
		   size_t *ret_executed)
{
	struct sim_result res = { 0 };
	struct decision dec;
	const struct abi_policy *abi = policy_abi_for(c->out.policy, sd->arch, (uint32_t)sd->nr);
	struct seccomp_data raw;

	bpf_abi_data(abi ? abi->arch : c->out.policy->abis[0].arch, sd, &raw);
	if (sim_run(c->out.prog->insns, c->out.prog->len, &raw, &res) < 0) {
		*ret_agree = false;
		return 0xdeadbeef;
	}
	policy_decide(c->out.policy, sd, &dec);
	*ret_agree = dec.ret == res.ret;
	if (ret_executed)
		*ret_executed = res.executed;
	return res.ret;
}

/* A value as the written condition means it, on an argument of the given
 * width and signedness: the OR of its terms, cut to the width. */
static uint64_t written_value(const struct value *v, const struct arch *a, unsigned width)
{
	uint64_t x = 0;

	for (size_t i = 0; i < v->n_terms; i++) {
		int64_t c = 0;

		if (v->terms[i].name) {
			consts_lookup(a, v->terms[i].name, &c);
			x |= (uint64_t)c;
		} else {
			x |= v->terms[i].neg ? (uint64_t)0 - v->terms[i].lit : v->terms[i].lit;
		}
	}
	return width == 64 ? x : x & ((1ull << width) - 1);
}

/* Order two values of one width: -1, 0, 1, signed or unsigned. */
static int order(uint64_t x, uint64_t y, unsigned width, bool is_signed)
{
	if (is_signed && width < 64) {
		int64_t sx = (int64_t)(x << (64 - width)) >> (64 - width);
		int64_t sy = (int64_t)(y << (64 - width)) >> (64 - width);

		return (sx > sy) - (sx < sy);
	}
	if (is_signed)
		return ((int64_t)x > (int64_t)y) - ((int64_t)x < (int64_t)y);
	return (x > y) - (x < y);
}

static bool written_match(const struct rule *r, const struct arch *a, const struct seccomp_data *sd)
{
	struct syscall_arg args[SYSCALL_ARGS_MAX];
	bool known;

	syscalls_args(a, r->syscall, args, &known);
	for (size_t i = 0; i < r->conj.n_cmps; i++) {
		const struct cmp *c = &r->conj.cmps[i];
		int slot = c->arg;
		unsigned width;
		bool is_signed, hit = false;
		uint64_t x;

		for (int k = 0; slot < 0 && k < SYSCALL_ARGS_MAX; k++)
			if (syscalls_arg_named(&args[k], c->param))
				slot = k;
		switch (args[slot].cls) {
		case ARG_U16:
			width = 16;
			break;
		case ARG_S32:
		case ARG_U32:
			width = 32;
			break;
		default:
			width = a->bits;
		}
		if (a->bits == 32 && width > 32)
			width = 32;
		is_signed = args[slot].cls == ARG_S32 || args[slot].cls == ARG_S64;
		x = width == 64 ? sd->args[slot] : sd->args[slot] & ((1ull << width) - 1);
		switch (c->op) {
		case CMP_EQ:
			hit = x == written_value(&c->values[0], a, width);
			break;
		case CMP_NE:
			hit = x != written_value(&c->values[0], a, width);
			break;
		case CMP_LT:
			hit = order(x, written_value(&c->values[0], a, width), width, is_signed) <
			      0;
			break;
		case CMP_LE:
			hit = order(x, written_value(&c->values[0], a, width), width, is_signed) <=
			      0;
			break;
		case CMP_GT:
			hit = order(x, written_value(&c->values[0], a, width), width, is_signed) >
			      0;
			break;
		case CMP_GE:
			hit = order(x, written_value(&c->values[0], a, width), width, is_signed) >=
			      0;
			break;
		case CMP_MASKED_EQ:
		case CMP_MASKED_NE:
			hit = (x & written_value(&c->mask, a, width)) ==
			      written_value(&c->values[0], a, width);
			hit = c->op == CMP_MASKED_EQ ? hit : !hit;
			break;
		case CMP_IN:
		case CMP_NOT_IN:
			for (size_t k = 0; k < c->n_values; k++)
				hit |= x == written_value(&c->values[k], a, width);
			hit = c->op == CMP_IN ? hit : !hit;
			break;
		}
		if (!hit)
			return false;
	}
	return true;
}

const struct rule *util_written_best(const struct ruleset *rs, const struct arch *a,
				     const char *name, const struct seccomp_data *sd)
{
	const struct rule *best = NULL;

	for (size_t i = 0; i < rs->n_rules; i++) {
		const struct rule *r = &rs->rules[i];

		if (strcmp(r->syscall, name) || !written_match(r, a, sd))
			continue;
		/* the most restrictive action; among equals the first written */
		if (!best || action_rank(r->action.kind) > action_rank(best->action.kind))
			best = r;
	}
	return best;
}

/* The built-in rules as scmp-run.ini(5) BUILT-IN RULES states them, decided
 * for one call: the candidate they add (written after every rule), or
 * NULL. */
static const struct action *written_builtin(const struct ruleset *rs, const struct arch *a,
					    const char *name, const struct seccomp_data *sd)
{
	static const struct action eperm = { ACTION_ERRNO, 1, "EPERM" };
	static const struct action enosys = { ACTION_ERRNO, 38, "ENOSYS" };
	bool clone_cond = false, clone3_named = false;
	int64_t sti = -1, linux_ = -1;

	if (!strcmp(name, "ioctl") && !rs->hardening.tty_injection_allow) {
		uint32_t cmd = (uint32_t)sd->args[1];

		consts_lookup(a, "TIOCSTI", &sti);
		consts_lookup(a, "TIOCLINUX", &linux_);
		return cmd == (uint32_t)sti || cmd == (uint32_t)linux_ ? &eperm : NULL;
	}
	if (strcmp(name, "clone3"))
		return NULL;
	for (size_t i = 0; i < rs->n_rules; i++) {
		clone_cond |= !strcmp(rs->rules[i].syscall, "clone") && rs->rules[i].conj.n_cmps;
		clone3_named |= !strcmp(rs->rules[i].syscall, "clone3") && !rs->rules[i].via_group;
	}
	return clone_cond && !clone3_named ? &enosys : NULL;
}

int util_decide_written(const struct ruleset *rs, const struct arch *a,
			const struct seccomp_data *sd, uint32_t *ret)
{
	static const struct action enosys = { ACTION_ERRNO, 38, "ENOSYS" };
	const char *name = syscalls_lookup_nr(a, (uint32_t)sd->nr);
	const struct action *builtin, *best_action;
	const struct rule *best;

	if (!name) {
		const struct action *def = &rs->attrs.default_action;

		/* unknown-syscall-action: ENOSYS when the default denies */
		if (rs->attrs.has_unknown_action)
			def = &rs->attrs.unknown_action;
		else if (def->kind != ACTION_ALLOW && def->kind != ACTION_LOG)
			def = &enosys;
		return action_ret(def, a, ret);
	}
	for (int k = 0; k < MUX_COUNT; k++)
		if (arch_mux_name(a, k) && !strcmp(arch_mux_name(a, k), name))
			return -EOPNOTSUPP;
	best = util_written_best(rs, a, name, sd);
	best_action = best ? &best->action : NULL;
	builtin = written_builtin(rs, a, name, sd);
	if (builtin &&
	    (!best_action || action_rank(builtin->kind) > action_rank(best_action->kind)))
		best_action = builtin;
	return action_ret(best_action ? best_action : &rs->attrs.default_action, a, ret);
}

/* The first integer argument slot of name on ABI a, from slot `from` on;
 * -1 if none. */
static int int_slot(const struct arch *a, const char *name, unsigned from, bool *ret_wide)
{
	struct syscall_arg args[SYSCALL_ARGS_MAX];
	bool known;

	if (syscalls_args(a, name, args, &known) < 0 || !known)
		return -1;
	for (unsigned k = from; k < SYSCALL_ARGS_MAX; k++) {
		switch (args[k].cls) {
		case ARG_S32:
		case ARG_U32:
		case ARG_S64:
		case ARG_U64:
			*ret_wide = args[k].cls == ARG_S64 || args[k].cls == ARG_U64;
			return (int)k;
		default:
			break;
		}
	}
	return -1;
}

/* 20 values from base on, 1 to 6 apart, on one argument of name. */
static int add_cluster(struct ruleset *rs, struct rng *r, const char *name, int slot, uint64_t base,
		       const char *act, unsigned *line)
{
	char cond[64];

	for (unsigned j = 0; j < 20; j++) {
		int e;

		base += 1 + pick(r, 6);
		snprintf(cond, sizeof(cond), "arg%d == %llu", slot, (unsigned long long)base);
		e = util_add_rule(rs, act, name, cond, ++*line);
		if (e < 0)
			return e;
	}
	return 0;
}

/* Whether slot is an integer argument of name on every ABI of also. */
static bool int_on_all(const struct arch *const *also, const char *name, int slot)
{
	bool wide;

	for (; also && *also; also++)
		if (int_slot(*also, name, (unsigned)slot, &wide) != slot || wide)
			return false;
	return true;
}

size_t util_add_clusters(struct ruleset *rs, struct rng *r, size_t n, const char *const acts[2],
			 const char *const *first, unsigned *line, const struct arch *const *also)
{
	const struct arch *a = arch_native();
	size_t n_all, done = 0;
	const struct syscall *all = syscalls_list(a, &n_all);

	for (size_t i = 0; first && first[i] && done < n; i++, done++)
		if (add_cluster(rs, r, first[i], 1, (rnd(r) & 0xffff) << pick(r, 12),
				acts[done % 3 == 0], line) < 0)
			return 0;
	for (size_t i = 0; i < n_all && done < n; i++) {
		const char *name = syscall_name(&all[i]);
		bool wide = false, listed = false;
		int slot = int_slot(a, name, 0, &wide);
		uint64_t base = (rnd(r) & 0xffff) << pick(r, 12);

		for (size_t k = 0; first && first[k]; k++)
			listed |= !strcmp(first[k], name);
		if (slot < 0 || listed || !strcmp(name, "exit_group") ||
		    !int_on_all(also, name, slot))
			continue;
		if (wide && !also && done % 7 == 0)
			base |= 1ull << 32; /* the high word decides first */
		if (add_cluster(rs, r, name, slot, base, acts[done % 3 == 0], line) < 0)
			return 0;
		done++;
	}
	return done;
}
