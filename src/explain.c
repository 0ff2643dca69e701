/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --resolve and --explain: syscall names and numbers from the command line,
 * and one call decided by both the program (simulated) and the policy.
 */
#include "explain.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "consts.h"
#include "sim.h"
#include "syscalls.h"

/* A number without sign, in any base strtoull() takes. */
static bool parse_u64(const char *s, uint64_t *ret)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	*ret = strtoull(s, &end, 0);
	return !errno && !*end;
}

static int no_such_name(const struct arch *a, const char *name, struct diag *d)
{
	diag_error(d, NULL, "%s '%s' on %s",
		   syscalls_known(name) ? "no syscall" : "unknown syscall", name, a->name);
	return -ENOENT;
}

int explain_parse_syscall(const struct arch *a, const char *s, uint32_t *ret_nr, struct diag *d)
{
	uint64_t nr;

	if (parse_u64(s, &nr) && nr <= UINT32_MAX) {
		*ret_nr = (uint32_t)nr;
		return 0;
	}
	if (syscalls_lookup_name(a, s, ret_nr) < 0)
		return no_such_name(a, s, d);
	return 0;
}

int explain_parse_value(const struct arch *a, const char *s, uint64_t *ret, struct diag *d)
{
	int64_t c;

	if (*s == '-' && parse_u64(s + 1, ret)) {
		*ret = (uint64_t)0 - *ret;
		return 0;
	}
	if (parse_u64(s, ret))
		return 0;
	if (consts_lookup(a, s, &c) == 0) {
		*ret = (uint64_t)c;
		return 0;
	}
	diag_error(d, NULL, "bad argument '%s': a number or a constant", s);
	return -EINVAL;
}

int explain_resolve(const struct arch *a, const char *s, FILE *f, struct diag *d)
{
	uint64_t nr;
	uint32_t got;

	if (parse_u64(s, &nr)) {
		const char *name = nr <= UINT32_MAX ? syscalls_lookup_nr(a, (uint32_t)nr) : NULL;

		if (!name) {
			diag_error(d, NULL, "no syscall number %s on %s", s, a->name);
			return -ENOENT;
		}
		fprintf(f, "%s\n", name);
	} else {
		if (syscalls_lookup_name(a, s, &got) < 0)
			return no_such_name(a, s, d);
		fprintf(f, "%" PRIu32 "\n", got);
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

int explain_call(const struct compiled *c, const struct arch *a, const struct seccomp_data *sd,
		 FILE *f, struct diag *d)
{
	struct seccomp_data raw;
	struct sim_result res;
	struct decision dec;
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
	name = syscalls_lookup_nr(a, (uint32_t)sd->nr);
	fprintf(f, "%s (%s %" PRIu32 "): %s\n", name ? name : "unknown", a->name, (uint32_t)sd->nr,
		action_format_ret(res.ret, a, buf, sizeof(buf)));
	print_why(&dec, a, f);
	fprintf(f, "instructions executed: %zu of %zu\n", res.executed, c->prog->len);
	return ferror(f) ? -EIO : 0;
}
