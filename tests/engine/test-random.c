/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Random rule sets, compiled and simulated over random and boundary inputs,
 * against the reference semantics (policy_decide). Also: shuffled rule
 * order gives the same decisions, and every syscall that is always allowed
 * is served by the kernel's always-allow cache (and nothing else is; x32's
 * numbers never are: they lie beyond it).
 * Usage: test-random [SETS [SEED]]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine-util.h"
#include "sim.h"
#include "tap.h"
#include "rng.h"
#include "rnd-cond.h"

static struct rng rng;

static unsigned pick_n(unsigned n)
{
	return pick(&rng, n);
}

/* Sets of ABIs one filter may hold. */
static const char *const abi_sets[][3] = {
	{ "x86_64" },
	{ "x86_64", "x86", "x32" },
	{ "x86" },
	{ "x32" },
	{ "aarch64", "arm" },
	{ "riscv64" },
	{ "s390x", "s390" },
	{ "ppc64le" },
	{ "mips64", "mips", "mips64n32" },
	{ "loongarch64" },
};
#define N_SETS (sizeof(abi_sets) / sizeof(abi_sets[0]))

/* clang-format off */
static const char *const syscalls[] = {
	"read", "write", "openat", "close", "kill", "ioctl", "lseek", "socket", "connect",
	"sendto", "setuid", "personality", "dup", "prctl", "clone", "futex", "fcntl", "mprotect",
	"madvise", "getpriority", "umask", "setsockopt", "bind", "shmget", "semop", "getpid",
	"exit_group", "socketcall", "ipc", "accept4", "recvmsg", "pread64",
};
/* clang-format on */
#define N_SYSCALLS (sizeof(syscalls) / sizeof(syscalls[0]))

/* clang-format off */
static const char *const actions[] = {
	"allow", "log", "trace(1)", "trace(2)", "errno(EACCES)", "errno(1)", "errno(2)",
	"trap", "trap(5)", "kill-thread", "kill-process", "notify",
};
/* clang-format on */
/* One datum per kind: no ties, so that shuffling cannot change a decision. */
/* clang-format off */
static const char *const actions_untied[] = {
	"allow", "log", "trace(1)", "errno(EACCES)", "trap", "kill-thread", "kill-process",
};
/* clang-format on */

/* Build a random rule set: returns 0 if it compiled. */
static int rnd_ruleset(struct tcase *c, const char *const *acts, size_t n_acts, unsigned set,
		       unsigned n_rules, char (*texts)[3][160])
{
	const struct arch *first = arch_lookup(abi_sets[set][0]);
	unsigned bits = 64; /* the narrowest ABI of the set decides what fits */

	c->rs = ruleset_new();
	for (int k = 0; k < 3 && abi_sets[set][k]; k++) {
		c->rs->attrs.arches |= 1u << arch_lookup(abi_sets[set][k])->id;
		if (arch_lookup(abi_sets[set][k])->bits < bits)
			bits = arch_lookup(abi_sets[set][k])->bits;
	}
	action_parse(acts[pick_n((unsigned)n_acts)], first, &c->rs->attrs.default_action,
		     &(const char *){ NULL });
	c->rs->attrs.has_default_action = true;
	if (pick_n(2)) {
		action_parse("errno(ENOSYS)", first, &c->rs->attrs.unknown_action,
			     &(const char *){ NULL });
		c->rs->attrs.has_unknown_action = true;
	}
	action_parse(acts[pick_n((unsigned)n_acts)], first, &c->rs->attrs.bad_arch_action,
		     &(const char *){ NULL });
	for (unsigned i = 0; i < n_rules; i++) {
		const char *sys = syscalls[pick_n(N_SYSCALLS)];
		struct syscall_arg args[SYSCALL_ARGS_MAX];
		bool known;
		char cond[160] = "";

		if (syscalls_args(first, sys, args, &known) < 0) {
			sys = "read";
			syscalls_args(first, sys, args, &known);
		}
		rnd_cond(&rng, args, bits, cond, sizeof(cond));
		snprintf(texts[i][0], sizeof(texts[i][0]), "%s", acts[pick_n((unsigned)n_acts)]);
		snprintf(texts[i][1], sizeof(texts[i][1]), "%s", sys);
		snprintf(texts[i][2], sizeof(texts[i][2]), "%s", cond);
		if (util_add_rule(c->rs, texts[i][0], sys, cond, i + 1) < 0)
			return -1;
	}
	return util_compile(c);
}

static void rnd_input(const struct tcase *c, struct seccomp_data *sd)
{
	const struct abi_policy *abi =
		&c->out.policy->abis[pick_n((unsigned)c->out.policy->n_abis)];

	memset(sd, 0, sizeof(*sd));
	sd->arch = abi->arch->audit_arch;
	if (!pick_n(20)) /* an ABI that may not be in the filter */
		sd->arch = arch_get((enum arch_id)pick_n(ARCH_COUNT))->audit_arch;
	switch (pick_n(8)) {
	case 0:
		sd->nr = (int)(uint32_t)rnd_value(&rng);
		break;
	case 1:
		sd->nr = (int)(abi->arch->nr_base + pick_n(1100));
		break;
	default:
		if (abi->n_sys && pick_n(2))
			sd->nr = (int)abi->sys[pick_n((unsigned)abi->n_sys)].nr;
		else
			sd->nr = (int)abi->known[pick_n((unsigned)abi->n_known)].nr;
	}
	for (int i = 0; i < 6; i++)
		sd->args[i] = rnd_value(&rng);
}

int main(int argc, char **argv)
{
	unsigned sets = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 2000;
	uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x5eed;
	unsigned long compared = 0, disagree = 0, failed_compile = 0, shuffled = 0,
		      shuffle_diff = 0, cache_checked = 0, cache_wrong = 0, written = 0,
		      written_bad = 0;
	static char texts[64][3][160];

	rng.state = seed;
	for (unsigned s = 0; s < sets; s++) {
		unsigned set = pick_n(N_SETS), n_rules = 1 + pick_n(40);
		bool untied = s % 2;
		struct tcase c = { 0 }, c2 = { 0 };
		unsigned order[64];

		if (rnd_ruleset(&c, untied ? actions_untied : actions,
				untied ? sizeof(actions_untied) / sizeof(*actions_untied)
				       : sizeof(actions) / sizeof(*actions),
				set, n_rules, texts) < 0) {
			failed_compile++;
			if (failed_compile < 5)
				for (size_t i = 0; i < c.d.n_msgs; i++)
					tap_diag("compile: %s", c.d.msgs[i].text);
			util_compiled_free(&c);
			continue;
		}
		/* The same rules in another order. */
		if (untied) {
			for (unsigned i = 0; i < n_rules; i++)
				order[i] = i;
			for (unsigned i = n_rules; i > 1; i--) {
				unsigned j = pick_n(i), t = order[i - 1];

				order[i - 1] = order[j];
				order[j] = t;
			}
			c2.rs = ruleset_new();
			c2.rs->attrs = c.rs->attrs;
			for (unsigned i = 0; i < n_rules; i++)
				util_add_rule(c2.rs, texts[order[i]][0], texts[order[i]][1],
					      texts[order[i]][2], i + 1);
			if (util_compile(&c2) < 0) {
				tap_ok(false, "shuffled set %u does not compile", s);
				untied = false;
			}
		}
		for (unsigned k = 0; k < 1500; k++) {
			struct seccomp_data sd;
			bool agree;
			uint32_t got;

			rnd_input(&c, &sd);
			got = util_eval(&c, &sd, &agree, NULL);
			compared++;
			/* and the rules as written, decided without the engine */
			{
				const struct abi_policy *abi =
					policy_abi_for(c.out.policy, sd.arch, (uint32_t)sd.nr);
				uint32_t want;

				if (abi && util_decide_written(c.rs, abi->arch, &sd, &want) == 0) {
					written++;
					if (want != got && ++written_bad <= 10)
						tap_diag("set %u: %s nr %d args %" PRIx64
							 " %" PRIx64 " %" PRIx64
							 ": program 0x%x, written 0x%x",
							 s, abi->arch->name, sd.nr,
							 (uint64_t)sd.args[0], (uint64_t)sd.args[1],
							 (uint64_t)sd.args[2], got, want);
				}
			}
			if (!agree && ++disagree <= 10) {
				struct decision dec;

				policy_decide(c.out.policy, &sd, &dec);
				tap_diag("set %u: arch 0x%x nr %d args %" PRIx64 " %" PRIx64
					 " %" PRIx64 ": program 0x%x policy 0x%x",
					 s, sd.arch, sd.nr, (uint64_t)sd.args[0],
					 (uint64_t)sd.args[1], (uint64_t)sd.args[2], got, dec.ret);
			}
			if (untied) {
				bool agree2;

				shuffled++;
				if (util_eval(&c2, &sd, &agree2, NULL) != got || !agree2)
					shuffle_diff++;
			}
		}
		/* Cache: always allowed <=> served by the always-allow cache. */
		for (size_t a = 0; a < c.out.policy->n_abis; a++) {
			const struct abi_policy *abi = &c.out.policy->abis[a];

			for (size_t k = 0; k < abi->n_known; k++) {
				uint32_t nr = abi->known[k].nr;
				const struct rsys *rs = policy_rsys(abi, nr);
				bool always = rs ? rs->n_rules && !rs->rules[0].n_cmps &&
							      rs->rules[0].ret == SECCOMP_RET_ALLOW
						 : abi->default_ret == SECCOMP_RET_ALLOW;
				/* x32's numbers are beyond the kernel's cache */
				bool in_cache = nr < ARCH_X32_SYSCALL_BIT;
				bool cached = sim_is_const_allow(c.out.prog->insns, c.out.prog->len,
								 abi->arch->audit_arch, nr);

				/* A conditional block that always ends in allow is
				 * allowed but not cacheable: only check "always". */
				cache_checked++;
				if ((always && in_cache) != cached && (always || !rs)) {
					if (++cache_wrong <= 5)
						tap_diag(
							"set %u: %s nr %u always-allow %d cached %d",
							s, abi->arch->name, nr, always, cached);
				}
			}
		}
		util_compiled_free(&c);
		util_compiled_free(&c2);
	}
	tap_diag("%lu comparisons over %u rule sets (%lu did not compile), seed 0x%" PRIx64,
		 compared, sets, failed_compile, seed);
	tap_ok(compared >= 100000 || sets < 2000, "at least 100000 comparisons (%lu)", compared);
	tap_ok(disagree == 0, "program and reference semantics agree (%lu disagreements)",
	       disagree);
	tap_ok(written > compared / 2 && written_bad == 0,
	       "program and the rules as written agree (%lu of %lu differ)", written_bad, written);
	tap_ok(failed_compile * 10 < sets, "random rule sets compile (%lu of %u failed)",
	       failed_compile, sets);
	tap_ok(shuffle_diff == 0, "shuffled rule order decides the same (%lu of %lu differ)",
	       shuffle_diff, shuffled);
	tap_ok(cache_wrong == 0, "always-allowed numbers are exactly the cached ones (%lu of %lu)",
	       cache_wrong, cache_checked);
	return tap_done();
}
