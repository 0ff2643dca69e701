/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bpf_generate()'s per-ABI lengths: abi_len[i] is the length of the program
 * a copy of the policy that lists only ABI i compiles to, for profiles given
 * on the command line and for rule sets over every family of ABIs.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine-util.h"
#include "src/profile.h"
#include "tap.h"

/* The program of p->abis[i] alone: a shallow copy of p listing only that ABI. */
static int alone_len(const struct policy *p, size_t i, size_t *ret)
{
	struct policy one = *p;
	struct bpf_prog *prog = NULL;
	struct diag d;
	int r;

	one.abis = &p->abis[i];
	one.n_abis = 1;
	diag_init(&d);
	r = bpf_generate(&one, &d, &prog);
	diag_clear(&d);
	if (r < 0)
		return r;
	*ret = prog->len;
	bpf_prog_free(prog);
	return 0;
}

static void check(const char *what, const struct policy *p, const struct bpf_prog *prog)
{
	bool same = true;
	size_t sum = 0;
	char got[256] = "", one[32];

	for (size_t i = 0; i < p->n_abis; i++) {
		size_t want = 0;

		if (alone_len(p, i, &want) < 0 || want != prog->abi_len[i])
			same = false;
		sum += prog->abi_len[i];
		snprintf(one, sizeof(one), " %s %zu/%zu", p->abis[i].arch->name, prog->abi_len[i],
			 want);
		strncat(got, one, sizeof(got) - strlen(got) - 1);
	}
	tap_ok(same && (p->n_abis > 1 || prog->abi_len[0] == prog->len),
	       "%s: per-ABI lengths as compiled alone (%zu in all;%s)", what, prog->len, got);
	tap_ok(p->n_abis == 1 || sum > prog->len,
	       "%s: each ABI alone repeats the ABI check (sum %zu)", what, sum);
}

static void check_profile(const char *path)
{
	struct compiled c;
	struct diag d;
	int r;

	diag_init(&d);
	r = compile_file(path, arch_native(), NULL, &d, &c);
	if (tap_ok(r >= 0, "%s compiles (%d)", path, r))
		check(path, c.policy, c.prog);
	compiled_free(&c);
	diag_clear(&d);
}

/* Rules over every ABI of a family, with conditions and a multiplexer. */
static void check_family(const char *const *abis, size_t n)
{
	struct tcase c = { .rs = ruleset_new() };
	char what[128] = "";
	int r;

	for (size_t i = 0; i < n; i++) {
		c.rs->attrs.arches |= 1u << arch_lookup(abis[i])->id;
		strncat(what, i ? " " : "", sizeof(what) - strlen(what) - 1);
		strncat(what, abis[i], sizeof(what) - strlen(what) - 1);
	}
	action_parse("errno(EPERM)", arch_lookup(abis[0]), &c.rs->attrs.default_action,
		     &(const char *){ 0 });
	c.rs->attrs.has_default_action = true;
	util_add_rule(c.rs, "allow", "read", NULL, 1);
	util_add_rule(c.rs, "allow", "write", "fd == 1 || fd >= 3 && fd <= 9", 2);
	util_add_rule(c.rs, "allow", "socket", "family == AF_UNIX", 3);
	util_add_rule(c.rs, "kill-process", "connect", "fd == 99", 4);
	util_add_rule(c.rs, "errno(EACCES)", "openat", "flags & O_ACCMODE != O_RDONLY", 5);
	util_add_rule(c.rs, "allow", "exit_group", NULL, 6);
	util_add_rule(c.rs, "log", "kill", "pid < 0", 7);
	r = util_compile(&c);
	if (tap_ok(r == 0, "%s compiles (%d)", what, r))
		check(what, c.out.policy, c.out.prog);
	util_compiled_free(&c);
}

int main(int argc, char **argv)
{
	static const char *const families[][4] = {
		{ "x86_64", "x86", "x32" },
		{ "x86", "x86_64" },
		{ "x32", "x86_64" },
		{ "x32" },
		{ "x86_64", "x32" },
		{ "aarch64", "arm" },
		{ "ppc64", "ppc" },
		{ "s390x", "s390" },
		{ "mips", "mips64", "mips64n32" },
		{ "mipsel64n32", "mipsel" },
		{ "riscv64" },
	};

	for (int i = 1; i < argc; i++)
		check_profile(argv[i]);
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		size_t n = 0;

		while (n < 4 && families[i][n])
			n++;
		check_family(families[i], n);
	}
	return tap_done();
}
