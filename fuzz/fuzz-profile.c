/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target over the loader and the compiler: an input is a profile;
 * every one that compiles must give a valid program that decides each probed
 * call exactly as the rules do. Its [landlock] section is decided for an
 * ABI, reported and asked about a few paths, as --check and --explain-path
 * do. Errors are fine; crashes, leaks, UB are not.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "bpf.h"
#include "compile.h"
#include "cond.h"
#include "diag.h"
#include "landlock.h"
#include "pfc.h"
#include "profile.h"
#include "policy.h"
#include "sim.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PROBES_MAX 4000 /* simulated calls per input */

/* The directory inputs are written to; "inc.ini" beside them can be included. */
static char fuzz_dir[] = "/tmp/fuzz-profile-XXXXXX";
static char fuzz_path[sizeof(fuzz_dir) + 16];
static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char inc[] = "[allow]\nsyscalls = read write\n[filter]\nlog = yes\n";
	char path[sizeof(fuzz_dir) + 16];
	FILE *f;

	(void)argc;
	(void)argv;
	if (!mkdtemp(fuzz_dir))
		abort();
	snprintf(fuzz_path, sizeof(fuzz_path), "%s/fuzz.ini", fuzz_dir);
	snprintf(path, sizeof(path), "%s/inc.ini", fuzz_dir);
	f = fopen(path, "we");
	if (!f || fwrite(inc, 1, sizeof(inc) - 1, f) != sizeof(inc) - 1 || fclose(f))
		abort();
	devnull = fopen("/dev/null", "we");
	if (!devnull)
		abort();
	return 0;
}

/* An include of a device, FIFO or /proc file could block or never end:
 * not what this target looks for. */
static bool reaches_special_files(const uint8_t *data, size_t size)
{
	static const char *const bad[] = { "/dev", "/proc", "/sys", "/run", "dev/", "proc/" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (memmem(data, size, bad[i], strlen(bad[i])))
			return true;
	return false;
}

static void check(bool ok, const char *what, const struct seccomp_data *sd, uint32_t got,
		  uint32_t want)
{
	if (ok)
		return;
	fprintf(stderr,
		"fuzz-profile: %s: arch 0x%08x nr %d args %#llx %#llx %#llx: "
		"program 0x%08x, rules 0x%08x\n",
		what, sd->arch, sd->nr, (unsigned long long)sd->args[0],
		(unsigned long long)sd->args[1], (unsigned long long)sd->args[2], got, want);
	abort();
}

/* Run the program and the reference semantics on one call; they must agree. */
static void probe(const struct policy *p, const struct bpf_prog *prog, const struct arch *fallback,
		  const struct seccomp_data *sd, size_t *budget)
{
	const struct abi_policy *abi = policy_abi_for(p, sd->arch, (uint32_t)sd->nr);
	struct seccomp_data raw;
	struct sim_result res;
	struct decision dec;

	if (!*budget)
		return;
	(*budget)--;
	bpf_abi_data(abi ? abi->arch : fallback, sd, &raw);
	check(sim_run(prog->insns, prog->len, &raw, &res) == 0, "the program did not run", sd, 0,
	      0);
	policy_decide(p, sd, &dec);
	check(res.ret == dec.ret, "program and rules disagree", sd, res.ret, dec.ret);
}

/* Argument values at the edges of a rule's comparisons. */
static size_t edge_values(const struct rsys *s, uint64_t *v, size_t max)
{
	size_t n = 0;

	v[n++] = 0;
	v[n++] = UINT64_MAX;
	for (size_t r = 0; r < s->n_rules && n + 4 <= max; r++)
		for (size_t c = 0; c < s->rules[r].n_cmps && n + 4 <= max; c++) {
			const struct rcmp *cmp = &s->rules[r].cmps[c];
			uint64_t flip = cmp->is_signed ? (cmp->width == 32 ? 0x80000000u
									   : 0x8000000000000000u)
						       : 0;

			if (cmp->kind == RCMP_IN && cmp->n_ivs) {
				v[n++] = cmp->ivs[0].lo ^ flip;
				v[n++] = (cmp->ivs[0].lo ^ flip) - 1;
				v[n++] = cmp->ivs[0].hi ^ flip;
				v[n++] = (cmp->ivs[0].hi ^ flip) + 1;
			} else {
				v[n++] = cmp->value;
				v[n++] = cmp->value ^ cmp->mask;
				v[n++] = cmp->value | ~cmp->mask;
				v[n++] = cmp->value + 0x100000000ull;
			}
		}
	return n;
}

/* A small literal as written (no name, no sign, no OR): its value, else false. */
static bool small_literal(const struct value *v, uint64_t *ret)
{
	if (v->n_terms != 1 || v->terms[0].name || v->terms[0].neg ||
	    v->terms[0].lit >= 0x7fffffffu)
		return false;
	*ret = v->terms[0].lit;
	return true;
}

/* The resolved test of a one-comparison rule against the values written in
 * it, independently of how the engine merges them into intervals. */
static void check_written_values(const struct rrule *r)
{
	const struct cmp *c;
	uint64_t v;

	if (r->via_mux || r->src->conj.n_cmps != 1 || r->n_cmps != 1)
		return;
	c = &r->src->conj.cmps[0];
	for (size_t i = 0; i < c->n_values; i++) {
		bool yes = c->op == CMP_EQ || c->op == CMP_IN || c->op == CMP_LE || c->op == CMP_GE;
		bool m;

		if (c->op == CMP_MASKED_EQ || c->op == CMP_MASKED_NE ||
		    !small_literal(&c->values[i], &v))
			continue;
		m = rcmp_match(&r->cmps[0], v);
		if (m != yes) {
			fprintf(stderr, "fuzz-profile: %s:%u: %s: written value %llu %s\n",
				r->src->loc.file, r->src->loc.line, r->src->syscall,
				(unsigned long long)v, m ? "matches" : "does not match");
			abort();
		}
		/* one step past the bound of an ordered comparison flips it */
		if (c->op == CMP_LT || c->op == CMP_GE) {
			if (v > 0 && rcmp_match(&r->cmps[0], v - 1) == yes)
				abort();
		} else if (c->op == CMP_GT || c->op == CMP_LE) {
			if (rcmp_match(&r->cmps[0], v + 1) == yes)
				abort();
		}
	}
}

static void simulate(const struct policy *p, const struct bpf_prog *prog)
{
	size_t budget = PROBES_MAX;
	struct seccomp_data sd;

	for (size_t a = 0; a < p->n_abis; a++) {
		const struct abi_policy *abi = &p->abis[a];

		memset(&sd, 0, sizeof(sd));
		sd.arch = abi->arch->audit_arch;
		/* calls with rules, at the edges of their conditions */
		for (size_t i = 0; i < abi->n_sys; i++) {
			uint64_t v[32];
			size_t n = edge_values(&abi->sys[i], v, 32);

			for (size_t r = 0; r < abi->sys[i].n_rules; r++)
				check_written_values(&abi->sys[i].rules[r]);
			sd.nr = (int)abi->sys[i].nr;
			for (size_t j = 0; j < n; j++) {
				for (int k = 0; k < 6; k++)
					sd.args[k] = v[(j + (size_t)k) % n];
				probe(p, prog, abi->arch, &sd, &budget);
			}
		}
		/* a few known numbers, the ends of the table, and unknown ones */
		for (size_t i = 0; i < abi->n_known; i += 1 + abi->n_known / 16) {
			sd.nr = (int)abi->known[i].nr;
			probe(p, prog, abi->arch, &sd, &budget);
		}
		if (abi->n_known) {
			sd.nr = (int)(abi->known[abi->n_known - 1].nr + 1);
			probe(p, prog, abi->arch, &sd, &budget);
		}
		sd.nr = -1;
		probe(p, prog, abi->arch, &sd, &budget);
		sd.nr = (int)(abi->arch->nr_base + 0x3fffffffu);
		probe(p, prog, abi->arch, &sd, &budget);
		(void)sim_is_const_allow(prog->insns, prog->len, sd.arch, abi->arch->nr_base);
	}
	/* an ABI no filter lists */
	memset(&sd, 0, sizeof(sd));
	sd.arch = 0x12345678;
	probe(p, prog, p->abis[0].arch, &sd, &budget);
}

/* The Landlock section on the ABI picked by an input byte (0: none; past
 * the newest, as a newer kernel), then the paths of --explain-path. */
static void landlock_pass(const struct landlock_config *c, uint8_t pick)
{
	static const char *const paths[] = { "/usr/bin/sh", "/tmp/x", "/etc", "sub/file", "." };
	struct landlock_rights r;
	struct diag d;

	diag_init(&d);
	if (landlock_rights_build(c, pick % 10, &d, &r) == 0 &&
	    landlock_report(c, &r, NULL, "  ", devnull) < 0)
		abort();
	diag_print(&d, "fuzz-profile", devnull);
	diag_clear(&d);
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		(void)landlock_explain_print(c, i % 2 ? NULL : "/home/u", paths[i],
					     (enum landlock_kind)((pick + i) % 4),
					     (enum landlock_access)((pick / 4 + i) % 3), devnull);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the first byte picks the ABI "native" stands for */
	const struct arch *native = arch_get((enum arch_id)(size ? data[0] % ARCH_COUNT : 0));
	struct compiled c;
	struct diag d;
	char err[128];
	FILE *f;

	if (reaches_special_files(data, size))
		return -1; /* not added to the corpus */
	f = fopen(fuzz_path, "we");
	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	if (fclose(f))
		abort();

	diag_init(&d);
	if (compile_file(fuzz_path, native, NULL, &d, &c) < 0)
		goto out;
	if (bpf_validate(c.prog->insns, c.prog->len, err, sizeof(err)) < 0) {
		fprintf(stderr, "fuzz-profile: generated program is invalid: %s\n", err);
		abort();
	}
	if (c.prog->len > BPF_PROG_MAX)
		abort();
	simulate(c.policy, c.prog);
	landlock_pass(&c.profile->landlock, size > 1 ? data[1] : 0);
	if (pfc_print(c.policy, devnull) < 0)
		abort();
	bpf_disasm(c.prog->insns, c.prog->len, devnull);
out:
	diag_print(&d, "fuzz-profile", devnull);
	diag_clear(&d);
	compiled_free(&c);
	return 0;
}
