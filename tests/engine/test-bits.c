/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Bit tables: dense value sets on one argument word compile to windows of
 * 32 values tested by shifting a mask (scmp-run.ini(5) ARGUMENT WIDTHS);
 * random dense sets (and sets of three outcomes, which searches cut into
 * blocks of "jeq" chains), simulated over every value around them, against
 * the reference semantics and the rules as written.
 * Usage: test-bits [SETS [SEED]]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine-util.h"
#include "syscalls.h"
#include "rng.h"
#include "tap.h"

static struct rng rng;

/* Argument slots of different widths and signedness, and one with a mask. */
static const struct {
	const char *sys, *arg;
} slots[] = {
	{ "read", "arg0" },	 /* int fd: 32-bit signed */
	{ "lseek", "arg2" },	 /* unsigned int whence */
	{ "ioctl", "arg1" },	 /* unsigned int cmd */
	{ "mmap", "arg2" },	 /* unsigned long prot: 64-bit */
	{ "socket", "arg1" },	 /* int type */
	{ "madvise", "arg2" },	 /* int advice */
	{ "prctl", "arg1" },	 /* unsigned long */
	{ "getrandom", "arg2" }, /* unsigned int flags */
};
#define N_SLOTS (sizeof(slots) / sizeof(slots[0]))

static const char *const acts[] = { "allow", "errno(EPERM)", "kill-process" };

/* v as a value of slot's argument: cut to its width, signed ones written
 * with their sign. */
static void value_text(char *buf, size_t size, unsigned slot, uint64_t v)
{
	struct syscall_arg args[SYSCALL_ARGS_MAX];
	unsigned i = (unsigned)(slots[slot].arg[3] - '0');
	bool known;

	syscalls_args(arch_native(), slots[slot].sys, args, &known);
	if (args[i].cls == ARG_S32)
		snprintf(buf, size, "%" PRId32, (int32_t)(uint32_t)v);
	else if (args[i].cls == ARG_U32 || args[i].cls == ARG_U16)
		snprintf(buf, size, "0x%" PRIx64,
			 v & (args[i].cls == ARG_U16 ? 0xffff : 0xffffffff));
	else if (args[i].cls == ARG_S64)
		snprintf(buf, size, "%" PRId64, (int64_t)v);
	else
		snprintf(buf, size, "0x%" PRIx64, v);
}

/* A dense set near base on one slot: single values, short ranges and the
 * odd masked test, mostly one action (mixed: any of three, so that the
 * values go to more than two outcomes). Returns 0 if it compiled. */
static int build(struct tcase *c, unsigned slot, uint64_t base, unsigned n, bool mixed)
{
	char cond[160], x[40], y[40];
	uint64_t v = base;

	c->rs = ruleset_new();
	action_parse(acts[1 + pick(&rng, 2)], arch_native(), &c->rs->attrs.default_action,
		     &(const char *){ NULL });
	c->rs->attrs.has_default_action = true;
	for (unsigned i = 0; i < n; i++) {
		const char *act = pick(&rng, 16) && !mixed ? "allow" : acts[pick(&rng, 3)];

		v += 1 + pick(&rng, 6);
		value_text(x, sizeof(x), slot, v);
		switch (pick(&rng, 20)) {
		case 0:
			value_text(y, sizeof(y), slot, v + pick(&rng, 5));
			snprintf(cond, sizeof(cond), "%s >= %s && %s <= %s", slots[slot].arg, x,
				 slots[slot].arg, y);
			break;
		case 1:
			snprintf(cond, sizeof(cond), "%s & 0xffff == 0x%" PRIx64, slots[slot].arg,
				 v & 0xffff);
			break;
		default:
			snprintf(cond, sizeof(cond), "%s == %s", slots[slot].arg, x);
		}
		if (util_add_rule(c->rs, act, slots[slot].sys, cond, i + 1) < 0)
			return -1;
	}
	return util_compile(c);
}

static bool has_bit_table(const struct tcase *c)
{
	for (size_t i = 0; i < c->out.prog->len; i++)
		if (c->out.prog->insns[i].code == (BPF_ALU | BPF_RSH | BPF_X))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	unsigned sets = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 300;
	unsigned long compared = 0, disagree = 0, written = 0, written_bad = 0, tables = 0;
	unsigned failed = 0;

	rng.state = argc > 2 ? strtoull(argv[2], NULL, 0) : 0xb175;
	/* then half as many again with mixed actions: searches over three
	 * outcomes, in blocks of "jeq" chains or in halves */
	for (unsigned s = 0; s < sets + sets / 2; s++) {
		static const uint64_t bases[] = { 0,	      0x40,   0x7fffff80,
						  0xffffff00, 0x5400, 0xffffffffffffff00 };
		unsigned slot = pick(&rng, N_SLOTS), n = 4 + pick(&rng, 60);
		uint64_t base = pick(&rng, 2) ? bases[pick(&rng, 6)] : rnd(&rng) & 0xffffffff;
		struct tcase c = { 0 };

		if (build(&c, slot, base, n, s >= sets) < 0) {
			if (++failed <= 3)
				for (size_t i = 0; i < c.d.n_msgs; i++)
					tap_diag("compile: %s", c.d.msgs[i].text);
			util_compiled_free(&c);
			continue;
		}
		tables += s < sets && has_bit_table(&c);
		for (uint64_t k = 0; k < 7 * (uint64_t)n + 80; k++) {
			const struct abi_policy *abi = &c.out.policy->abis[0];
			struct seccomp_data sd = { .arch = abi->arch->audit_arch };
			uint32_t got, want, nr = 0;
			bool agree;

			syscalls_lookup_name(abi->arch, slots[slot].sys, &nr);
			sd.nr = (int)nr;
			for (int i = 0; i < 6; i++)
				sd.args[i] = base + k - 40;
			if (k % 5 == 4) /* the same low word under another high word */
				for (int i = 0; i < 6; i++)
					sd.args[i] ^= (uint64_t)(1 + pick(&rng, 3)) << 32;
			got = util_eval(&c, &sd, &agree, NULL);
			compared++;
			if (!agree && ++disagree <= 10)
				tap_diag("set %u: %s %s = 0x%" PRIx64 ": program 0x%x disagrees", s,
					 slots[slot].sys, slots[slot].arg, (uint64_t)sd.args[0],
					 got);
			if (util_decide_written(c.rs, abi->arch, &sd, &want) == 0) {
				written++;
				if (want != got && ++written_bad <= 10)
					tap_diag("set %u: %s %s = 0x%" PRIx64
						 ": program 0x%x, written 0x%x",
						 s, slots[slot].sys, slots[slot].arg,
						 (uint64_t)sd.args[0], got, want);
			}
		}
		util_compiled_free(&c);
	}
	tap_diag("%lu comparisons over %u sets (and %u mixed), %lu with a bit table", compared,
		 sets, sets / 2, tables);
	tap_ok(failed == 0, "every set compiles (%u did not)", failed);
	/* 73 of these 300 sets get a table (75 before jeq chains took the
	 * two where a chain is shorter): a drop below 70 is a regression */
	tap_ok(tables >= 70 * sets / 300, "bit tables are used (%lu of %u sets)", tables, sets);
	tap_ok(disagree == 0, "program and policy agree (%lu disagreements)", disagree);
	tap_ok(written > compared / 2 && written_bad == 0,
	       "program and the rules as written agree (%lu of %lu differ)", written_bad, written);
	return tap_done();
}
