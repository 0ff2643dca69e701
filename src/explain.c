/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --resolve and --explain: syscall names and numbers from the command line,
 * and one call decided by both the program (simulated) and the policy.
 */
#include "explain.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "consts.h"
#include "hardening.h"
#include "number.h"
#include "sim.h"
#include "syscalls.h"

/* "not a number" or "out of range" for a number written as s. */
static int bad_number(int r, const char *what, const char *s, const char *range, struct diag *d)
{
	if (r == -ERANGE)
		diag_error(d, NULL, "%s '%s' is " NUMBER_ERR_RANGE " (%s)", what, s, range);
	else
		diag_error(d, NULL, "%s '%s' is " NUMBER_ERR_SYNTAX, what, s);
	return -EINVAL;
}

static int no_such_name(const struct arch *a, const char *name, struct diag *d)
{
	diag_error(d, NULL, "%s '%s' on %s",
		   syscalls_known(name) ? "no syscall" : "unknown syscall", name, a->name);
	if (!syscalls_known(name) && syscalls_suggest(name))
		diag_hint(d, NULL, "did you mean '%s'?", syscalls_suggest(name));
	return -ENOENT;
}

/* A syscall number: 0..UINT32_MAX, or -1..INT32_MIN as the kernel's int. */
static int parse_nr(const char *s, uint32_t *ret_nr, struct diag *d)
{
	bool neg;
	uint64_t v;
	int r = number_parse(s, &neg, &v);

	if (r == 0 && (neg ? v > (uint64_t)INT32_MAX + 1 : v > UINT32_MAX))
		r = -ERANGE;
	if (r < 0)
		return bad_number(r, "syscall number", s, "-2147483648..4294967295", d);
	*ret_nr = neg ? (uint32_t)((uint64_t)0 - v) : (uint32_t)v;
	return 0;
}

int explain_parse_syscall(const struct arch *a, const char *s, uint32_t *ret_nr, struct diag *d)
{
	if (number_looks_like(s))
		return parse_nr(s, ret_nr, d);
	if (syscalls_lookup_name(a, s, ret_nr) < 0)
		return no_such_name(a, s, d);
	return 0;
}

int explain_parse_value(const struct arch *a, const char *s, uint64_t *ret, struct diag *d)
{
	bool neg;
	uint64_t v;
	int64_t c;
	int r;

	if (number_looks_like(s)) {
		/* A register value: any 64-bit pattern, or a negative number
		 * down to INT64_MIN in two's complement. */
		r = number_parse(s, &neg, &v);
		if (r == 0 && neg && v > (uint64_t)1 << 63)
			r = -ERANGE;
		if (r < 0)
			return bad_number(r, "argument", s, "64 bits", d);
		*ret = neg ? (uint64_t)0 - v : v;
		return 0;
	}
	if (consts_lookup(a, s, &c) == 0) {
		*ret = (uint64_t)c;
		return 0;
	}
	diag_error(d, NULL, "bad argument '%s': a number or a constant", s);
	return -EINVAL;
}

int explain_resolve(const struct arch *a, const char *s, FILE *f, struct diag *d)
{
	uint32_t nr;

	if (number_looks_like(s)) {
		const char *name;

		if (parse_nr(s, &nr, d) < 0)
			return -EINVAL;
		name = syscalls_lookup_nr(a, nr);
		if (!name) {
			diag_error(d, NULL, "no syscall number %s on %s", s, a->name);
			return -ENOENT;
		}
		fprintf(f, "%s\n", name);
	} else {
		if (syscalls_lookup_name(a, s, &nr) < 0)
			return no_such_name(a, s, d);
		fprintf(f, "%" PRIu32 "\n", nr);
	}
	return ferror(f) ? -EIO : 0;
}

static void print_why(const struct decision *dec, const struct arch *a, FILE *f)
{
	char loc[256];

	switch (dec->why) {
	case DECIDE_RULE:
		fprintf(f, "rule: %s%s\n", src_loc_format(&dec->rule->src->loc, loc, sizeof(loc)),
			dec->rule->via_mux ? " (through the multiplexer, arguments not visible)"
					   : "");
		break;
	case DECIDE_DEFAULT:
		fprintf(f, "rule: default\n");
		break;
	case DECIDE_UNKNOWN:
		fprintf(f, "rule: unknown-syscall (not in the table for %s)\n", a->name);
		break;
	case DECIDE_BAD_ARCH:
		fprintf(f, "rule: bad-arch\n");
		break;
	}
}

/* Calls the kernel runs without consulting any seccomp filter, and the
 * release since which it does (scmp-run.ini(5) SECURITY MODEL): the x86_64
 * numbers only, not x32's with the same name. */
static const struct {
	char name[10];
	char since[5];
} unfiltered[] = {
	{ "uretprobe", "6.14" },
	{ "uprobe", "6.18" },
};

static void print_unfiltered(const struct arch *owner, const char *name, FILE *f)
{
	if (!name || owner->id != ARCH_X86_64)
		return;
	for (size_t i = 0; i < sizeof(unfiltered) / sizeof(unfiltered[0]); i++)
		if (!strcmp(name, unfiltered[i].name))
			fprintf(f,
				"kernel: Linux %s and later run %s on x86_64 without consulting "
				"seccomp filters: the action above applies to older kernels only\n",
				unfiltered[i].since, name);
}

int explain_call(const struct compiled *c, const struct arch *a, const struct seccomp_data *sd,
		 FILE *f, struct diag *d)
{
	struct seccomp_data raw;
	struct sim_result res;
	struct decision dec;
	const struct arch *owner;
	const char *name;
	char buf[64];

	bpf_abi_data(a, sd, &raw);
	if (sim_run(c->prog->insns, c->prog->len, &raw, &res) < 0) {
		diag_error(d, NULL, "internal error: the program did not run");
		return -EPROTO;
	}
	policy_decide(c->policy, sd, &dec);
	if (dec.ret != res.ret) {
		diag_error(d, NULL, "internal error: program says 0x%08x, rules say 0x%08x",
			   res.ret, dec.ret);
		return -EPROTO;
	}
	/* x32 numbers carry the x32 bit: name them by the ABI they belong to */
	owner = arch_of_call(sd->arch, (uint32_t)sd->nr);
	if (!owner)
		owner = a;
	name = syscalls_lookup_nr(owner, (uint32_t)sd->nr);
	fprintf(f, "%s (%s %" PRIu32 "): %s\n", name ? name : "unknown", owner->name,
		(uint32_t)sd->nr, action_format_ret(res.ret, owner, buf, sizeof(buf)));
	print_why(&dec, owner, f);
	print_unfiltered(owner, name, f);
	/* past a filter that lets the call run, PR_SET_MDWE may refuse it */
	if (action_ret_rank(res.ret) < action_rank(ACTION_ERRNO) &&
	    hardening_explain(&c->rs->hardening, owner, name, sd, f) < 0)
		return -EIO;
	fprintf(f, "instructions executed: %zu of %zu\n", res.executed, c->prog->len);
	return ferror(f) ? -EIO : 0;
}
