/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Corners of the argument code that random values seldom reach
 * (scmp-run.ini(5) ARGUMENT WIDTHS AND SIGNEDNESS, PROGRAM SIZE): values
 * of 64-bit arguments that differ only in the high word or only in the
 * low one, masks with the sign bit or in the high word alone, signed
 * ranges across the sign bit of either word, sets spread over several
 * high words, dense sets (bit tables), several ABIs at once, and the
 * same rules padded past the size-first point. Each program is run on
 * inputs made from the rules' own constants (the value, its neighbours,
 * its words swapped or changed) against policy_decide() and the rules as
 * written.
 * Usage: test-corners [SETS [SEED]]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine-util.h"
#include "syscalls.h"
#include "tap.h"

static struct rng rng;

static unsigned pick_n(unsigned n)
{
	return pick(&rng, n);
}

/* Sets of ABIs one filter may hold; the first decides the argument types. */
static const char *const abi_sets[][3] = {
	{ "x86_64" },
	{ "x86_64", "x32" },
	{ "x86_64", "x86", "x32" },
	{ "x32", "x86_64" },
	{ "aarch64", "arm" },
	{ "s390x" },
	{ "ppc64" },
	{ "ppc64le" },
	{ "mips64", "mips64n32" },
	{ "mipsel64n32", "mipsel64" },
	{ "riscv64" },
	{ "x86" },
	{ "mips" },
};
#define N_SETS (sizeof(abi_sets) / sizeof(abi_sets[0]))

/* Syscalls with integer arguments of every class. */
static const char *const syscalls[] = {
	"lseek", "mmap",    "prctl",	   "ioctl",  "fcntl",  "kill",	 "read",  "pread64",
	"clone", "madvise", "personality", "socket", "setuid", "fchmod", "futex",
};
#define N_SYSCALLS (sizeof(syscalls) / sizeof(syscalls[0]))

static const char *const actions[] = {
	"allow", "log", "errno(1)", "errno(2)", "trap", "kill-thread", "kill-process", "trace(3)",
};
#define N_ACTIONS (sizeof(actions) / sizeof(actions[0]))

static const uint32_t words[] = { 0,	      1,	  2,	      0x7f,
				  0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe,
				  0xffffffff, 0x1000,	  0xffff };
#define N_WORDS (sizeof(words) / sizeof(words[0]))

/* The constants of the current rule set, to build inputs from. */
static uint64_t consts[512];
static size_t n_consts;

static uint32_t rnd_word(void)
{
	return pick_n(3) ? words[pick_n(N_WORDS)] + (pick_n(4) ? 0 : pick_n(3) - 1)
			 : (uint32_t)rnd(&rng);
}

/* A value whose two words are picked apart: the same low word under
 * another high word is what 64-bit tests must tell apart. */
static uint64_t rnd_value(void)
{
	uint64_t v;

	if (n_consts && pick_n(2)) {
		v = consts[pick_n((unsigned)n_consts)];
		switch (pick_n(4)) {
		case 0:
			return (v & 0xffffffff) | (uint64_t)rnd_word() << 32;
		case 1:
			return (v & ~0xffffffffull) | rnd_word();
		default:
			return v + pick_n(5) - 2;
		}
	}
	v = (uint64_t)rnd_word() << 32 | rnd_word();
	if (n_consts < sizeof(consts) / sizeof(consts[0]))
		consts[n_consts++] = v;
	return v;
}

static unsigned width_of(enum arg_class cls, unsigned bits)
{
	if (cls == ARG_U16)
		return 16;
	return cls == ARG_S32 || cls == ARG_U32 ? 32 : bits;
}

/* v as text for an argument of the class: signed ones with their sign. */
static void value_text(char *buf, size_t size, uint64_t v, unsigned width, bool is_signed)
{
	v &= width_max(width);
	if (is_signed && width < 64 && (v & width_sign(width)))
		snprintf(buf, size, "-%" PRIu64, (width_max(width) - v) + 1);
	else if (is_signed)
		snprintf(buf, size, "%" PRId64, (int64_t)v);
	else
		snprintf(buf, size, "0x%" PRIx64, v);
}

/* A test of slot arg: one of the shapes whose code differs. */
static void rnd_cmp(char *buf, size_t size, unsigned arg, enum arg_class cls, unsigned width)
{
	static const uint64_t masks[] = { 0x8000000000000000,
					  0xffffffff00000000,
					  0x80000000,
					  0x100000000,
					  0x1,
					  0xffff0000ffff0000,
					  0xff,
					  0x80000000ffffffff };
	static const char *const ops[] = { "==", "!=", "<", "<=", ">", ">=" };
	bool is_signed = cls == ARG_S32 || cls == ARG_S64;
	uint64_t v = rnd_value() & width_max(width), m;
	char a[40], b[48], set[400];
	size_t len;

	if (cls == ARG_PTR) {
		snprintf(buf, size, "arg%u %s 0", arg, pick_n(2) ? "==" : "!=");
		return;
	}
	value_text(a, sizeof(a), v, width, is_signed);
	switch (pick_n(7)) {
	case 0:
		m = (pick_n(2) ? masks[pick_n(8)] : rnd_value()) & width_max(width);
		snprintf(buf, size, "arg%u & 0x%" PRIx64 " %s 0x%" PRIx64, arg, m,
			 pick_n(2) ? "==" : "!=", pick_n(4) ? v & m : v);
		break;
	case 1: /* a set over a few high words, or dense in one low window */
	case 2:
		len = (size_t)snprintf(set, sizeof(set), "arg%u %s {", arg,
				       pick_n(3) ? "in" : "not in");
		for (unsigned k = 0, n = 2 + pick_n(20), dense = pick_n(2); k < n; k++) {
			uint64_t x = dense ? v + k * (1 + pick_n(3))
					   : (v & 0xffffffff) | (uint64_t)rnd_word() << 32;

			if (!dense && pick_n(3) == 0)
				x = rnd_value();
			value_text(b, sizeof(b), x, width, false);
			len += (size_t)snprintf(set + len, sizeof(set) - len, "%s %s", k ? "," : "",
						b);
			if (len > sizeof(set) - 60)
				break;
		}
		snprintf(buf, size, "%s }", set);
		break;
	case 3:
		value_text(b, sizeof(b), rnd_value(), width, is_signed);
		snprintf(buf, size, "arg%u >= %s && arg%u <= %s", arg, a, arg, b);
		break;
	default:
		snprintf(buf, size, "arg%u %s %s", arg, ops[pick_n(6)], a);
	}
}

/* The class of slot k of sys on every ABI of set, with the narrowest
 * width in *ret_width; ARG_NONE when the ABIs do not agree on a class
 * a value of one width fits (a pointer on one of them, no such slot). */
static enum arg_class slot_class(unsigned set, const char *sys, unsigned k, unsigned *ret_width)
{
	enum arg_class cls = ARG_NONE;

	*ret_width = 64;
	for (int i = 0; i < 3 && abi_sets[set][i]; i++) {
		const struct arch *a = arch_lookup(abi_sets[set][i]);
		struct syscall_arg args[SYSCALL_ARGS_MAX];
		bool known;
		unsigned w;

		if (syscalls_args(a, sys, args, &known) < 0)
			continue; /* not on this ABI: its rules do not apply there */
		if (args[k].cls == ARG_NONE || args[k].cls == ARG_PAIR || args[k].cls == ARG_PAD)
			return ARG_NONE;
		w = width_of(args[k].cls, a->bits);
		if (cls != ARG_NONE && (cls == ARG_PTR) != (args[k].cls == ARG_PTR))
			return ARG_NONE;
		if (cls != ARG_NONE && (cls == ARG_S32 || cls == ARG_S64) !=
					       (args[k].cls == ARG_S32 || args[k].cls == ARG_S64))
			return ARG_NONE;
		if (cls == ARG_NONE || w < *ret_width)
			cls = args[k].cls;
		*ret_width = w < *ret_width ? w : *ret_width;
	}
	return cls;
}

/* Rules over a few syscalls, padded with clusters of values on other
 * syscalls when pad (past the size-first point). */
static int rnd_ruleset(struct tcase *c, unsigned set, bool pad)
{
	const struct arch *first = arch_lookup(abi_sets[set][0]);
	unsigned line = 0;

	c->rs = ruleset_new();
	for (int k = 0; k < 3 && abi_sets[set][k]; k++)
		c->rs->attrs.arches |= 1u << arch_lookup(abi_sets[set][k])->id;
	action_parse(actions[pick_n(N_ACTIONS)], first, &c->rs->attrs.default_action,
		     &(const char *){ NULL });
	c->rs->attrs.has_default_action = true;
	action_parse(actions[pick_n(N_ACTIONS)], first, &c->rs->attrs.bad_arch_action,
		     &(const char *){ NULL });
	for (unsigned s = 0, n_sys = 1 + pick_n(3); s < n_sys; s++) {
		const char *sys = syscalls[pick_n(N_SYSCALLS)];
		enum arg_class cls[2];
		unsigned slots[2], width[2], tries = 0;

		for (unsigned k = 0; k < 2; k++) /* two slots: trees over their words */
			do
				cls[k] = slot_class(set, sys, slots[k] = pick_n(6), &width[k]);
			while (cls[k] == ARG_NONE && ++tries < 50);
		if (cls[0] == ARG_NONE || cls[1] == ARG_NONE)
			continue;
		for (unsigned i = 0, n = 1 + pick_n(24); i < n; i++) {
			char cond[1024] = "", one[480];

			for (unsigned k = 0, nc = 1 + pick_n(2); k < nc; k++) {
				unsigned j = pick_n(2);

				rnd_cmp(one, sizeof(one), slots[j], cls[j], width[j]);
				if (strlen(cond) + strlen(one) + 5 >= sizeof(cond))
					break;
				if (*cond)
					strcat(cond, pick_n(5) ? " && " : " || ");
				strcat(cond, one);
			}
			if (util_add_rule(c->rs, actions[pick_n(N_ACTIONS)], sys, cond, ++line) < 0)
				return -1;
		}
	}
	if (pad && first == arch_native()) {
		const struct arch *also[3] = { NULL };
		struct rng r = { rnd(&rng) | 1 };

		for (int k = 1; k < 3 && abi_sets[set][k]; k++)
			also[k - 1] = arch_lookup(abi_sets[set][k]);
		util_add_clusters(c->rs, &r, 250, (const char *const[]){ "allow", "errno(9)" },
				  NULL, &line, also[0] ? also : NULL);
	}
	return util_compile(c);
}

static void rnd_input(const struct tcase *c, struct seccomp_data *sd)
{
	const struct policy *p = c->out.policy;
	const struct abi_policy *abi = &p->abis[pick_n((unsigned)p->n_abis)];

	memset(sd, 0, sizeof(*sd));
	sd->arch = abi->arch->audit_arch;
	if (abi->n_sys && pick_n(8))
		sd->nr = (int)abi->sys[pick_n((unsigned)abi->n_sys)].nr;
	else
		sd->nr = (int)(abi->arch->nr_base + pick_n(500));
	for (int i = 0; i < 6; i++)
		sd->args[i] = rnd_value();
}

int main(int argc, char **argv)
{
	unsigned sets = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 400;
	unsigned long compared = 0, disagree = 0, written = 0, written_bad = 0, failed = 0;
	unsigned long size_first = 0, internal = 0;

	rng.state = argc > 2 ? strtoull(argv[2], NULL, 0) : 0xc0ae5;
	for (unsigned s = 0; s < sets; s++) {
		struct tcase c = { 0 };
		unsigned set = pick_n(N_SETS);
		bool pad = s % 4 == 3;

		/* padded: an ABI set that starts with this machine's */
		while (pad && arch_lookup(abi_sets[set][0]) != arch_native())
			set = pick_n(N_SETS);
		n_consts = 0;
		if (rnd_ruleset(&c, set, pad) < 0) {
			for (size_t i = 0; i < c.d.n_msgs; i++)
				internal += strstr(c.d.msgs[i].text, "internal error") != NULL;
			if (++failed <= 5)
				for (size_t i = 0; i < c.d.n_msgs; i++)
					tap_diag("set %u: compile: %s", s, c.d.msgs[i].text);
			util_compiled_free(&c);
			continue;
		}
		size_first += c.out.prog->size_first;
		for (unsigned k = 0; k < 3000; k++) {
			const struct abi_policy *abi;
			struct seccomp_data sd;
			uint32_t got, want;
			bool agree;

			rnd_input(&c, &sd);
			got = util_eval(&c, &sd, &agree, NULL);
			compared++;
			if (!agree && ++disagree <= 10)
				tap_diag("set %u: arch 0x%x nr %d args %" PRIx64 " %" PRIx64
					 " %" PRIx64 " %" PRIx64 ": program 0x%x",
					 s, sd.arch, sd.nr, (uint64_t)sd.args[0],
					 (uint64_t)sd.args[1], (uint64_t)sd.args[2],
					 (uint64_t)sd.args[3], got);
			abi = policy_abi_for(c.out.policy, sd.arch, (uint32_t)sd.nr);
			if (abi && util_decide_written(c.rs, abi->arch, &sd, &want) == 0) {
				written++;
				if (want != got && ++written_bad <= 10)
					tap_diag("set %u: %s nr %d args %" PRIx64 " %" PRIx64
						 " %" PRIx64 ": program 0x%x, written 0x%x",
						 s, abi->arch->name, sd.nr, (uint64_t)sd.args[0],
						 (uint64_t)sd.args[1], (uint64_t)sd.args[2], got,
						 want);
			}
		}
		util_compiled_free(&c);
	}
	tap_diag("%lu comparisons over %u sets (%lu did not compile, %lu size-first), seed "
		 "0x%" PRIx64,
		 compared, sets, failed, size_first, rng.state);
	tap_ok(failed * 10 < sets, "rule sets compile (%lu of %u failed)", failed, sets);
	/* size-first tables behind a shared return (bpf.c, emit_ret()) */
	tap_ok(internal == 0, "every program passes the kernel's checks (%lu did not)", internal);
	tap_ok(disagree == 0, "program and policy agree (%lu disagreements)", disagree);
	tap_ok(written > compared / 2 && written_bad == 0,
	       "program and the rules as written agree (%lu of %lu differ)", written_bad, written);
	return tap_done();
}
