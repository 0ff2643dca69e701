/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The multiplexer rule of scmp-run.ini(5) MEANING OF A PROFILE, by brute
 * force: random rules on socket (and on socketcall itself) for i386, and for
 * each visible socketcall(SYS_SOCKET, args) the strictest result over every
 * hidden (family, type, protocol) from a set of values that meets every
 * region the conditions can tell apart. The compiled program and the policy
 * must give exactly that result, from the rule the tie rule picks. As the
 * manual states, rules with a mask test ("type & 1 == 0") never count as
 * covering values: the default stays possible unless mask-free rules match
 * every hidden triple.
 * Usage: test-mux [SETS [SEED]]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine-util.h"
#include "rng.h"
#include "tap.h"

/* Conditions use the constants 0..10 only: the values 0..13, both sides of
 * the sign bit and the ends of the 32-bit range meet every region of every
 * comparison, with both parities (for "& 1"). */
static const uint32_t hidden_values[] = {
	0,  1,	2,  3,	4,	    5,		6,	    7,		8,	    9,
	10, 11, 12, 13, 0x7ffffffe, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff,
};
#define N_HIDDEN (sizeof(hidden_values) / sizeof(hidden_values[0]))

static const char *const actions[] = { "allow",	    "log",  "errno(1)",
				       "errno(13)", "trap", "kill-process" };
#define N_ACTIONS (sizeof(actions) / sizeof(actions[0]))

static const char *const params[] = { "family", "type", "protocol" };
static const char *const ops[] = { "==", "!=", "<", ">=", "in", "not in", "&" };

/* One random comparison of socket's arguments, into buf. */
static void rnd_cmp(struct rng *r, char *buf, size_t size)
{
	const char *p = params[pick(r, 3)], *op = ops[pick(r, 7)];
	unsigned v = pick(r, 11), w = pick(r, 11);

	if (!strcmp(op, "in") || !strcmp(op, "not in"))
		snprintf(buf, size, "%s %s { %u, %u }", p, op, v, w);
	else if (!strcmp(op, "&"))
		snprintf(buf, size, "%s & 1 == %u", p, v & 1);
	else
		snprintf(buf, size, "%s %s %u", p, op, v);
}

static int rank_of(const struct action *a)
{
	return action_rank(a->kind);
}

/* The winner of two candidates: the stricter action, the first written
 * among equals (NULL: no candidate). */
static const struct rule *winner(const struct rule *a, const struct rule *b)
{
	if (!a || !b)
		return a ? a : b;
	if (rank_of(&a->action) != rank_of(&b->action))
		return rank_of(&a->action) > rank_of(&b->action) ? a : b;
	return a->seq <= b->seq ? a : b;
}

/* Does r test an argument through a mask? */
static bool has_mask(const struct rule *r)
{
	for (size_t i = 0; i < r->conj.n_cmps; i++)
		if (r->conj.cmps[i].op == CMP_MASKED_EQ || r->conj.cmps[i].op == CMP_MASKED_NE)
			return true;
	return false;
}

/* A copy of rs without its rules that test through a mask. */
static struct ruleset *mask_free(const struct ruleset *rs)
{
	struct ruleset *out = ruleset_new();

	for (size_t i = 0; out && i < rs->n_rules; i++)
		if (!has_mask(&rs->rules[i]))
			ruleset_add(out, rs->rules[i].syscall, false, &rs->rules[i].action,
				    &rs->rules[i].conj, &rs->rules[i].loc);
	return out;
}

/* The model: the strictest result over every hidden triple, the default
 * counting as written after every rule. *ret_rule is the deciding rule,
 * NULL for the default. */
static uint32_t model(const struct ruleset *rs, const struct arch *x86, uint64_t args_ptr,
		      const struct rule **ret_rule)
{
	struct seccomp_data vis = { .arch = x86->audit_arch, .args = { 1, args_ptr } };
	const struct rule *own = util_written_best(rs, x86, "socketcall", &vis), *best = NULL;
	struct ruleset *covering = mask_free(rs);
	bool dflt = false, first = true;
	uint32_t ret;

	for (size_t i = 0; i < N_HIDDEN; i++)
		for (size_t j = 0; j < N_HIDDEN; j++)
			for (size_t k = 0; k < N_HIDDEN; k++) {
				struct seccomp_data h = { .arch = x86->audit_arch };
				const struct rule *w;

				h.args[0] = hidden_values[i];
				h.args[1] = hidden_values[j];
				h.args[2] = hidden_values[k];
				if (!own && !util_written_best(covering, x86, "socket", &h))
					dflt = true;
				w = winner(own, util_written_best(rs, x86, "socket", &h));
				if (!w)
					continue;
				best = first ? w : winner(best, w);
				first = false;
			}
	ruleset_free(covering);
	if (dflt && (!best || rank_of(&rs->attrs.default_action) > rank_of(&best->action)))
		best = NULL;
	*ret_rule = best;
	action_ret(best ? &best->action : &rs->attrs.default_action, x86, &ret);
	return ret;
}

int main(int argc, char **argv)
{
	unsigned sets = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 300;
	struct rng r = { argc > 2 ? strtoull(argv[2], NULL, 0) : 0x3c5e7 };
	const struct arch *x86 = arch_lookup("x86");
	unsigned checked = 0, bad = 0, builds = 0;
	uint32_t socketcall;

	if (!x86 || syscalls_lookup_name(x86, "socketcall", &socketcall) < 0) {
		tap_ok(false, "i386 socketcall in the table");
		return tap_done();
	}
	for (unsigned set = 0; set < sets; set++) {
		struct tcase c = { .rs = ruleset_new() };
		unsigned n_rules = 1 + pick(&r, 5);
		const char *err;

		c.rs->attrs.arches = 1u << x86->id;
		action_parse(actions[pick(&r, N_ACTIONS)], x86, &c.rs->attrs.default_action, &err);
		c.rs->attrs.has_default_action = true;
		for (unsigned i = 0; i < n_rules; i++) {
			char cond[160] = "", one[64];
			unsigned n_cmps = pick(&r, 3);

			for (unsigned k = 0; k < n_cmps; k++) {
				rnd_cmp(&r, one, sizeof(one));
				snprintf(cond + strlen(cond), sizeof(cond) - strlen(cond), "%s%s",
					 k ? " && " : "", one);
			}
			util_add_rule(c.rs, actions[pick(&r, N_ACTIONS)], "socket", cond, i + 1);
		}
		if (!pick(&r, 3)) /* a rule on the multiplexer itself */
			util_add_rule(c.rs, actions[pick(&r, N_ACTIONS)], "socketcall",
				      (const char *const[]){ "", "args == 0", "call == 1",
							     "call != 1" }[pick(&r, 4)],
				      n_rules + 1);
		if (util_compile(&c) < 0) {
			util_compiled_free(&c);
			continue;
		}
		builds++;
		for (unsigned v = 0; v < 2; v++) {
			struct seccomp_data sd = { .nr = (int)socketcall, .arch = x86->audit_arch };
			const struct rule *why;
			struct decision dec;
			bool agree;
			uint32_t want, got;

			sd.args[0] = 1;
			sd.args[1] = v ? 0x1000 : 0;
			want = model(c.rs, x86, sd.args[1], &why);
			got = util_eval(&c, &sd, &agree, NULL);
			policy_decide(c.out.policy, &sd, &dec);
			checked++;
			if (got == want && agree &&
			    (why ? dec.why == DECIDE_RULE && dec.rule->src == why
				 : dec.why == DECIDE_DEFAULT))
				continue;
			if (++bad <= 5) {
				tap_diag("set %u, args %s: program 0x%08x, model 0x%08x (rule %u)",
					 set, v ? "!= 0" : "== 0", got, want,
					 why ? why->loc.line : 0);
				for (size_t i = 0; i < c.rs->n_rules; i++) {
					char buf[64];

					tap_diag("  %u: %s %s", c.rs->rules[i].loc.line,
						 action_format(&c.rs->rules[i].action, buf,
							       sizeof(buf)),
						 c.rs->rules[i].syscall);
				}
			}
		}
		util_compiled_free(&c);
	}
	tap_ok(builds > sets / 2, "%u of %u random rule sets compiled", builds, sets);
	tap_ok(bad == 0,
	       "socketcall(SYS_SOCKET): %u results equal the brute-force model (%u differ)",
	       checked, bad);
	return tap_done();
}
