/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The number dispatch: random outcomes over runs of consecutive syscall
 * numbers (runs of one action with single numbers cut out of them, next to
 * conditional syscalls), simulated at every number of several ABIs against
 * the reference semantics and the rules as written; and the "jeq" chains:
 * the dispatch never takes more than one comparison per change of outcome.
 * Usage: test-dispatch [SETS [SEED]]
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

static const char *const abi_sets[][3] = {
	{ "x86_64" },
	{ "x86_64", "x86", "x32" },
	{ "aarch64" },
	{ "aarch64", "arm" },
	{ "riscv64" },
	{ "s390x" },
	{ "mips64", "mips" },
	{ "ppc64le" },
	{ "x86" },
};
#define N_SETS (sizeof(abi_sets) / sizeof(abi_sets[0]))

/* The actions runs and single numbers take. */
static const char *const acts[] = { "allow", "errno(EPERM)", "trap", "kill-process", "log" };
#define N_ACTS (sizeof(acts) / sizeof(acts[0]))

/* Can a rule compare argument 0 of name with an integer? */
static bool int_arg0(const struct arch *a, const char *name)
{
	struct syscall_arg args[SYSCALL_ARGS_MAX];
	bool known;

	return syscalls_args(a, name, args, &known) == 0 && known &&
	       (args[0].cls == ARG_S32 || args[0].cls == ARG_U32 || args[0].cls == ARG_S64 ||
		args[0].cls == ARG_U64);
}

/* Outcomes over a window of the first ABI's table, into c; returns 0 if
 * it compiled. Each conditional syscall tests its own value, so no two
 * have the same argument code. */
static int build(struct tcase *c, unsigned set)
{
	const struct arch *first = arch_lookup(abi_sets[set][0]);
	size_t n_list, start, len;
	const struct syscall *list = syscalls_list(first, &n_list);
	const char *run = acts[pick(&rng, N_ACTS)];
	char cond[64];

	c->rs = ruleset_new();
	for (int k = 0; k < 3 && abi_sets[set][k]; k++)
		c->rs->attrs.arches |= 1u << arch_lookup(abi_sets[set][k])->id;
	action_parse(acts[1 + pick(&rng, N_ACTS - 1)], first, &c->rs->attrs.default_action,
		     &(const char *){ NULL });
	c->rs->attrs.has_default_action = true;
	start = pick(&rng, (unsigned)n_list);
	len = 4 + pick(&rng, 120);
	for (size_t k = start; k < n_list && k < start + len; k++) {
		const char *name = syscall_name(&list[k]), *act = run;
		unsigned p = pick(&rng, 20);
		int r = 0;

		if (p < 2) { /* a new run */
			run = acts[pick(&rng, N_ACTS)];
			act = run;
		} else if (p < 6) { /* a single number with another action */
			act = acts[pick(&rng, N_ACTS)];
		} else if (p < 8) { /* the default action */
			continue;
		} else if (p < 10 && int_arg0(first, name)) { /* conditional */
			snprintf(cond, sizeof(cond), "arg0 == %zu", k);
			r = util_add_rule(c->rs, acts[pick(&rng, N_ACTS)], name, cond,
					  (unsigned)k + 1);
			if (pick(&rng, 2))
				continue;
		}
		if (r >= 0)
			r = util_add_rule(c->rs, act, name, NULL, (unsigned)k + 1);
		if (r < 0)
			return r;
	}
	return util_compile(c);
}

/* The numbers to try on abi, ascending, into out (room for 1200 + 5 per
 * table entry): every number from just below the base to 1100 past it,
 * then the ones around the table's numbers above that (arm's private
 * calls at 0xf0000). Returns how many. */
static size_t numbers(const struct abi_policy *abi, uint32_t *out)
{
	uint32_t base = abi->arch->nr_base ? abi->arch->nr_base - 2 : 0;
	uint32_t dense = abi->arch->nr_base + 1100, next;
	size_t n = 0;

	for (next = base; next <= dense; next++)
		out[n++] = next;
	for (size_t k = 0; k < abi->n_known; k++)
		for (uint32_t nr = abi->known[k].nr - 2; nr <= abi->known[k].nr + 2; nr++)
			if (nr >= next) {
				out[n++] = nr;
				next = nr + 1;
			}
	return n;
}

/* The value the condition of number nr of ABI a tests: its syscall's
 * index in the first ABI's table (0 if none). */
static uint64_t cond_value(unsigned set, const struct arch *a, uint32_t nr)
{
	const struct arch *first = arch_lookup(abi_sets[set][0]);
	const char *name = syscalls_lookup_nr(a, nr);
	const struct syscall *list, *sc;
	uint32_t nr1;
	size_t n;

	if (!name || syscalls_lookup_name(first, name, &nr1) < 0)
		return 0;
	list = syscalls_list(first, &n);
	sc = syscalls_find_nr(list, n, nr1);
	return sc ? (uint64_t)(sc - list) : 0;
}

/*
 * Run the program's number dispatch on sd: the first instruction that
 * neither loads the number or the architecture nor jumps on them (its
 * index), or the value returned (with bit 63 set). Marks in on_nr the
 * jumps taken while A held the number.
 */
static uint64_t dispatch_leaf(const struct sock_filter *p, size_t len,
			      const struct seccomp_data *sd, bool *on_nr)
{
	uint32_t a = 0;
	bool nr = false;

	for (size_t pc = 0; pc < len;) {
		const struct sock_filter *in = &p[pc];

		if (in->code == (BPF_LD | BPF_W | BPF_ABS) &&
		    (in->k == offsetof(struct seccomp_data, nr) ||
		     in->k == offsetof(struct seccomp_data, arch))) {
			nr = in->k == offsetof(struct seccomp_data, nr);
			a = nr ? (uint32_t)sd->nr : sd->arch;
			pc++;
		} else if (in->code == (BPF_JMP | BPF_JA)) {
			pc += 1 + in->k;
		} else if (BPF_CLASS(in->code) == BPF_JMP && BPF_SRC(in->code) == BPF_K) {
			bool t = BPF_OP(in->code) == BPF_JEQ   ? a == in->k
				 : BPF_OP(in->code) == BPF_JGT ? a > in->k
				 : BPF_OP(in->code) == BPF_JGE ? a >= in->k
							       : (a & in->k) != 0;

			if (nr)
				on_nr[pc] = true;
			pc += 1 + (t ? in->jt : in->jf);
		} else if (in->code == (BPF_RET | BPF_K)) {
			return 1ull << 63 | in->k;
		} else {
			return pc;
		}
	}
	return UINT64_MAX;
}

int main(int argc, char **argv)
{
	unsigned sets = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 300;
	unsigned long compared = 0, disagree = 0, written = 0, written_bad = 0, over = 0;
	unsigned long jumps_all = 0, bounds_all = 0;
	unsigned failed = 0;

	rng.state = argc > 2 ? strtoull(argv[2], NULL, 0) : 0xd15a;
	for (unsigned s = 0; s < sets; s++) {
		unsigned set = pick(&rng, N_SETS);
		struct tcase c = { 0 };
		const struct bpf_prog *prog;
		unsigned long bounds = 0, jumps = 0;
		bool *on_nr;

		if (build(&c, set) < 0) {
			if (++failed <= 3)
				for (size_t i = 0; i < c.d.n_msgs; i++)
					tap_diag("compile: %s", c.d.msgs[i].text);
			util_compiled_free(&c);
			continue;
		}
		prog = c.out.prog;
		on_nr = calloc(prog->len, sizeof(*on_nr));
		if (!on_nr)
			return 99;
		for (size_t a = 0; a < c.out.policy->n_abis; a++) {
			const struct abi_policy *abi = &c.out.policy->abis[a];
			uint32_t *nrs = calloc(1200 + 5 * abi->n_known, sizeof(*nrs));
			uint64_t prev = UINT64_MAX;
			size_t n_nrs;

			if (!nrs)
				return 99;
			n_nrs = numbers(abi, nrs);
			for (size_t q = 0; q < n_nrs; q++) {
				uint32_t nr = nrs[q];
				struct seccomp_data sd = { .nr = (int)nr,
							   .arch = abi->arch->audit_arch };
				uint64_t leaf, idx;

				leaf = dispatch_leaf(prog->insns, prog->len, &sd, on_nr);
				bounds += q > 0 && leaf != prev;
				prev = leaf;
				idx = cond_value(set, abi->arch, nr);
				for (unsigned v = 0; v < 4; v++) {
					uint32_t got, want;
					bool agree;

					/* arg0: 0, the value its condition wants, or near it */
					sd.args[0] = v == 0 ? 0 : idx + v - 2;
					got = util_eval(&c, &sd, &agree, NULL);
					compared++;
					if (!agree && ++disagree <= 10)
						tap_diag("set %u: %s nr %u arg0 %" PRIu64
							 ": program 0x%x disagrees",
							 s, abi->arch->name, nr,
							 (uint64_t)sd.args[0], got);
					if (util_decide_written(c.rs, abi->arch, &sd, &want) == 0) {
						written++;
						if (want != got && ++written_bad <= 10)
							tap_diag("set %u: %s nr %u: program 0x%x, "
								 "written 0x%x",
								 s, abi->arch->name, nr, got, want);
					}
				}
			}
			free(nrs);
			/* the number check of x86_64: the x32 bit and -1 */
			if (abi->arch->id == ARCH_X86_64)
				bounds += 2;
		}
		for (size_t i = 0; i < prog->len; i++)
			jumps += on_nr[i];
		free(on_nr);
		if (jumps > bounds && ++over <= 5)
			tap_diag("set %u: %lu comparisons of the number for %lu changes of outcome",
				 s, jumps, bounds);
		jumps_all += jumps;
		bounds_all += bounds;
		util_compiled_free(&c);
	}
	tap_diag("%lu comparisons over %u sets; the dispatch: %lu comparisons of the number for "
		 "%lu changes of outcome",
		 compared, sets, jumps_all, bounds_all);
	tap_ok(failed == 0, "every set compiles (%u did not)", failed);
	tap_ok(disagree == 0, "program and policy agree (%lu disagreements)", disagree);
	tap_ok(written > compared / 2 && written_bad == 0,
	       "program and the rules as written agree (%lu of %lu differ)", written_bad, written);
	tap_ok(over == 0,
	       "no dispatch compares the number more often than its outcome changes "
	       "(%lu sets do)",
	       over);
	tap_ok(jumps_all * 10 < bounds_all * 8,
	       "chains of \"jeq\" save over a fifth of the comparisons (%lu for %lu)", jumps_all,
	       bounds_all);
	return tap_done();
}
