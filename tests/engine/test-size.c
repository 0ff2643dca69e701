/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Program size: jumps longer than 255 instructions are handled, and a rule
 * set over the kernel's 4096-instruction limit is refused with an error
 * that names the ABI and the largest rules.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine-util.h"
#include "tap.h"

static uint64_t seed = 42;

static uint64_t rnd(void)
{
	seed = seed * 6364136223846793005ull + 1442695040888963407ull;
	return seed >> 16;
}

/* n rules "errno(1 + i % 50) ioctl cmd == V_i" plus a few other syscalls. */
static int build(struct tcase *c, unsigned n)
{
	char cond[64], act[32];

	c->rs = ruleset_new();
	action_parse("allow", arch_native(), &c->rs->attrs.default_action, &(const char *){ 0 });
	c->rs->attrs.has_default_action = true;
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

static bool diag_has(const struct diag *d, const char *text)
{
	for (size_t i = 0; i < d->n_msgs; i++)
		if (d->msgs[i].text && strstr(d->msgs[i].text, text))
			return true;
	return false;
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
		tap_ok(c.out.prog->len > 1000 && c.out.prog->len <= BPF_PROG_MAX, "program of %zu instructions",
		       c.out.prog->len);
		for (size_t i = 0; i < c.out.prog->len; i++)
			if (c.out.prog->insns[i].code == (BPF_JMP | BPF_JA) && c.out.prog->insns[i].k > 255)
				long_jump = true;
		tap_ok(long_jump, "the program needs jumps over 255 instructions");
		for (int k = 0; k < 200000; k++) {
			struct seccomp_data sd = { .arch = arch_native()->audit_arch };
			bool agree;

			sd.nr = (int)c.out.policy->abis[0].known[rnd() % c.out.policy->abis[0].n_known].nr;
			if (k % 2)
				sd.nr = (int)c.out.policy->abis[0].sys[rnd() % c.out.policy->abis[0].n_sys].nr;
			sd.args[1] = k % 3 ? 0x1000 + 7 * (rnd() % 1500) + (k % 5 == 0) : rnd();
			util_eval(&c, &sd, &agree, NULL);
			n++;
			bad += !agree;
		}
		tap_ok(bad == 0, "program and reference agree on %lu inputs (%lu differ)", n, bad);
	}
	util_compiled_free(&c);

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
	return tap_done();
}
