/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Program size: jumps longer than 255 instructions are handled, a rule set
 * near the kernel's 4096-instruction limit is compiled size-first
 * (scmp-run.ini(5) PROGRAM SIZE) and still decides as written, and a rule
 * set over the limit is refused with an error that names the ABI and the
 * largest rules.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine-util.h"
#include "syscalls.h"
#include "tap.h"

static struct rng seed = { 42 };

/* An empty rule set that allows by default. */
static void start(struct tcase *c)
{
	c->rs = ruleset_new();
	action_parse("allow", arch_native(), &c->rs->attrs.default_action, &(const char *){ 0 });
	c->rs->attrs.has_default_action = true;
}

/* n rules "errno(1 + i % 50) ioctl cmd == V_i" plus a few other syscalls. */
static int build(struct tcase *c, unsigned n)
{
	char cond[64], act[32];

	start(c);
	for (unsigned i = 0; i < n; i++) {
		snprintf(cond, sizeof(cond), "cmd == %u", 0x1000 + 7 * i);
		snprintf(act, sizeof(act), "errno(%u)", 1 + i % 50);
		if (util_add_rule(c->rs, act, i % 3 ? "ioctl" : "fcntl", cond, i + 1) < 0)
			return -EINVAL;
	}
	util_add_rule(c->rs, "kill-process", "ptrace", NULL, n + 1);
	util_add_rule(c->rs, "errno(EPERM)", "mount", NULL, n + 2);
	return util_compile(c);
}

/* n rules "errno(1 + i) ioctl cmd == 0x5400 + i": no action twice. */
static int build_distinct(struct tcase *c, unsigned n)
{
	char cond[64], act[32];

	start(c);
	for (unsigned i = 0; i < n; i++) {
		snprintf(cond, sizeof(cond), "cmd == %u", 0x5400 + i);
		snprintf(act, sizeof(act), "errno(%u)", 1 + i);
		if (util_add_rule(c->rs, act, "ioctl", cond, i + 1) < 0)
			return -EINVAL;
	}
	return util_compile(c);
}

/* n rules "errno(EPERM) ioctl cmd & M_i == 0", each with a mask of its own, the
 * first on line 7. */
static int build_masks(struct tcase *c, unsigned n)
{
	char cond[64];

	start(c);
	for (unsigned i = 0; i < n; i++) {
		snprintf(cond, sizeof(cond), "cmd & %#x == 0", i + 1);
		if (util_add_rule(c->rs, "errno(EPERM)", "ioctl", cond, 7 + i) < 0)
			return -EINVAL;
	}
	return util_compile(c);
}

static bool diag_has(const struct diag *d, const char *text)
{
	for (size_t i = 0; i < d->n_msgs; i++)
		if (d->msgs[i].text && strstr(d->msgs[i].text, text))
			return true;
	return false;
}

/* Whether prog passes values through memory: the size-first tables. */
static bool uses_memory(const struct bpf_prog *prog)
{
	for (size_t i = 0; i < prog->len; i++)
		if (BPF_CLASS(prog->insns[i].code) == BPF_ST ||
		    BPF_CLASS(prog->insns[i].code) == BPF_STX)
			return true;
	return false;
}

/* The clusters of util_add_clusters() on n syscalls, default errno(1000),
 * for the ABIs of arches (0: this machine's). */
static int build_clusters(struct tcase *c, size_t n, uint32_t arches, size_t *ret_n)
{
	struct rng r = { 0x5123f1 };
	const struct arch *also[ARCH_COUNT + 1] = { NULL };
	unsigned line = 0, k = 0;

	for (unsigned i = 0; i < ARCH_COUNT; i++)
		if (arches & 1u << i && arch_get(i) != arch_native())
			also[k++] = arch_get(i);
	c->rs = ruleset_new();
	c->rs->attrs.arches = arches;
	action_parse("errno(1000)", arch_native(), &c->rs->attrs.default_action,
		     &(const char *){ 0 });
	c->rs->attrs.has_default_action = true;
	*ret_n = util_add_clusters(c->rs, &r, n, (const char *const[]){ "allow", "errno(1001)" },
				   NULL, &line, k ? also : NULL);
	return util_compile(c);
}

/* An input near the values of a random rule of c, on a random ABI of its
 * policy: the value, a neighbour, 32 or 64 away, below the first, or random
 * in either word. */
static const struct arch *near_input(const struct tcase *c, struct seccomp_data *sd)
{
	const struct rule *ru = &c->rs->rules[rnd(&seed) % c->rs->n_rules];
	const struct cmp *cmp = &ru->conj.cmps[0];
	const struct policy *p = c->out.policy;
	const struct arch *abi = p->abis[rnd(&seed) % p->n_abis].arch;
	uint64_t v = cmp->values[0].terms[0].lit;
	static const int64_t delta[] = { 0, 0, 0, 1, -1, 2, -2, 32, -32, 64, -64, 96, -200 };
	uint32_t nr = 0;

	memset(sd, 0, sizeof(*sd));
	sd->arch = abi->audit_arch;
	if (syscalls_lookup_name(abi, ru->syscall, &nr) < 0)
		nr = (uint32_t)rnd(&seed) % 600; /* a number of that ABI, some rule's or none */
	sd->nr = (int)nr;
	for (int a = 0; a < 6; a++)
		sd->args[a] = rnd(&seed) % 4 ? 0 : rnd(&seed);
	switch (rnd(&seed) % 8) {
	case 0:
		v = rnd(&seed) & 0xffffffff;
		break;
	case 1:
		v ^= 1ull << (32 + rnd(&seed) % 32);
		break;
	default:
		v += (uint64_t)delta[rnd(&seed) % (sizeof(delta) / sizeof(delta[0]))];
	}
	sd->args[cmp->arg] = v;
	return abi;
}

/* 100,000 inputs near the values of c: its program against its policy
 * and against the rules as written; 0 when both agree on all. */
static void agree_near(const struct tcase *c, const char *what)
{
	unsigned long bad = 0, unlike = 0;

	for (int k = 0; k < 100000; k++) {
		struct seccomp_data sd;
		uint32_t want, got;
		bool agree;

		const struct arch *abi = near_input(c, &sd);

		got = util_eval(c, &sd, &agree, NULL);
		bad += !agree;
		unlike += util_decide_written(c->rs, abi, &sd, &want) == 0 && want != got;
	}
	tap_ok(bad == 0,
	       "%s: program and policy agree on 100000 inputs near the values (%lu differ)", what,
	       bad);
	tap_ok(unlike == 0, "%s: program and the rules as written agree (%lu differ)", what,
	       unlike);
}

/* Size-first kicks in only near the limit, and decides as written. */
static void size_first(void)
{
	struct tcase c = { 0 };
	size_t n;
	int r;

	r = build_clusters(&c, 40, 0, &n);
	tap_ok(r == 0 && n == 40 && c.out.prog->len < BPF_PROG_MAX * 3 / 4 &&
		       !uses_memory(c.out.prog),
	       "40 syscalls of clustered values: %zu instructions, speed-first (%d)",
	       r == 0 ? c.out.prog->len : 0, r);
	util_compiled_free(&c);

	r = build_clusters(&c, 250, 0, &n);
	tap_ok(r == 0 && n == 250, "250 syscalls of clustered values compile (%d)", r);
	if (r != 0)
		return;
	/* speed-first they take about 14 instructions a syscall (3600) */
	tap_ok(uses_memory(c.out.prog) && c.out.prog->len <= BPF_PROG_MAX * 3 / 4,
	       "size-first: %zu instructions, masks passed in memory", c.out.prog->len);
	agree_near(&c, "one ABI");
	util_compiled_free(&c);

	/* Each value its own action, so no two share a table or a return:
	 * built again size-first past the point, the program is no shorter,
	 * and the speed-first one is kept. */
	r = build_distinct(&c, 1700);
	tap_ok(r == 0 && c.out.prog->len > BPF_PROG_MAX * 3 / 4 && !c.out.prog->size_first &&
		       !uses_memory(c.out.prog),
	       "1700 values, each its own errno: %zu instructions, past the point, speed-first "
	       "kept",
	       r == 0 ? c.out.prog->len : 0);
	util_compiled_free(&c);

#if defined(__x86_64__)
	/* Three ABIs in one program: the routines are shared across them. */
	r = build_clusters(&c, 200, 1u << ARCH_X86_64 | 1u << ARCH_X86 | 1u << ARCH_X32, &n);
	tap_ok(r == 0 && c.out.policy->n_abis == 3 && uses_memory(c.out.prog),
	       "x86_64, x86 and x32: size-first, %zu instructions (%d)",
	       r == 0 ? c.out.prog->len : 0, r);
	if (r == 0)
		agree_near(&c, "three ABIs");
	util_compiled_free(&c);
#endif
}

int main(void)
{
	struct tcase c = { 0 };
	unsigned long bad = 0, n = 0;
	bool long_jump = false;
	int r;

	/* About 3000 instructions: far jumps everywhere, still valid. */
	r = build(&c, 1400);
	tap_ok(r == 0, "1400 argument rules compile (%d)", r);
	if (r == 0) {
		tap_ok(c.out.prog->len > 1000 && c.out.prog->len <= BPF_PROG_MAX,
		       "program of %zu instructions", c.out.prog->len);
		for (size_t i = 0; i < c.out.prog->len; i++)
			if (c.out.prog->insns[i].code == (BPF_JMP | BPF_JA) &&
			    c.out.prog->insns[i].k > 255)
				long_jump = true;
		tap_ok(long_jump, "the program needs jumps over 255 instructions");
		for (int k = 0; k < 200000; k++) {
			struct seccomp_data sd = { .arch = arch_native()->audit_arch };
			bool agree;

			sd.nr = (int)c.out.policy->abis[0]
					.known[rnd(&seed) % c.out.policy->abis[0].n_known]
					.nr;
			if (k % 2)
				sd.nr = (int)c.out.policy->abis[0]
						.sys[rnd(&seed) % c.out.policy->abis[0].n_sys]
						.nr;
			sd.args[1] = k % 3 ? 0x1000 + 7 * (rnd(&seed) % 1500) + (k % 5 == 0)
					   : rnd(&seed);
			util_eval(&c, &sd, &agree, NULL);
			n++;
			bad += !agree;
		}
		tap_ok(bad == 0, "program and reference agree on %lu inputs (%lu differ)", n, bad);
	}
	util_compiled_free(&c);

	size_first();

	/* Over the limit: refused, with the ABI and the largest rules named. */
	r = build(&c, 6000);
	tap_ok(r == -E2BIG, "6000 argument rules are refused (%d)", r);
	tap_ok(c.out.prog == NULL, "nothing generated");
	tap_ok(diag_has(&c.d, "the kernel accepts at most 4096"), "error names the limit");
	tap_ok(diag_has(&c.d, "x86_64:") && diag_has(&c.d, "'ioctl' takes"),
	       "error names the ABI and the largest syscall");
	for (size_t i = 0; i < c.d.n_msgs; i++)
		tap_diag("%u: %s", c.d.msgs[i].loc.line, c.d.msgs[i].text);
	util_compiled_free(&c);

	/* More masks than the argument code keeps apart: refused, at the
	 * syscall's first rule. */
	r = build_masks(&c, 1100);
	tap_ok(r == -E2BIG, "1100 masks of one syscall are refused (%d)", r);
	tap_ok(c.out.prog == NULL, "1100 masks: nothing generated");
	tap_ok(c.d.n_msgs == 1 && c.d.msgs[0].loc.line == 7 &&
		       diag_has(&c.d, "the argument rules of 'ioctl' are too complex"),
	       "1100 masks: the error names the syscall, at its first rule");
	for (size_t i = 0; i < c.d.n_msgs; i++)
		tap_diag("%u: %s", c.d.msgs[i].loc.line, c.d.msgs[i].text);
	util_compiled_free(&c);
	return tap_done();
}
