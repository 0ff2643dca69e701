/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Pseudo filter code: the policy as readable text, in the order the program
 * decides, with each rule's FILE:LINE. */
#include "pfc.h"

#include <errno.h>
#include <inttypes.h>

static void print_value(FILE *f, const struct rcmp *c, uint64_t key)
{
	uint64_t sign = width_sign(c->width);

	if (c->is_signed && key < sign) /* negative: key has the sign bit cleared */
		fprintf(f, "-%" PRIu64, sign - key);
	else if (c->is_signed)
		fprintf(f, "%" PRIu64, key - sign);
	else
		fprintf(f, "0x%" PRIx64, key);
}

static void print_cmp(FILE *f, const struct rcmp *c)
{
	const char *type = c->width == 16   ? "u16"
			   : c->width == 32 ? (c->is_signed ? "s32" : "u32")
					    : (c->is_signed ? "s64" : "u64");
	uint64_t max = width_max(c->width);

	if (c->kind != RCMP_IN) {
		fprintf(f, "(%s)$arg%u & 0x%" PRIx64 " %s 0x%" PRIx64, type, c->arg, c->mask,
			c->kind == RCMP_MASK_EQ ? "==" : "!=", c->value);
		return;
	}
	fprintf(f, "(");
	for (size_t i = 0; i < c->n_ivs; i++) {
		const struct interval *iv = &c->ivs[i];

		if (i)
			fprintf(f, " || ");
		fprintf(f, "(%s)$arg%u ", type, c->arg);
		if (iv->lo == iv->hi) {
			fprintf(f, "== ");
			print_value(f, c, iv->lo);
		} else if (iv->lo == 0) {
			fprintf(f, "<= ");
			print_value(f, c, iv->hi);
		} else if (iv->hi == max) {
			fprintf(f, ">= ");
			print_value(f, c, iv->lo);
		} else {
			fprintf(f, "in [");
			print_value(f, c, iv->lo);
			fprintf(f, ", ");
			print_value(f, c, iv->hi);
			fprintf(f, "]");
		}
	}
	fprintf(f, ")");
}

static void print_rsys(FILE *f, const struct abi_policy *abi, const struct rsys *s)
{
	char buf[64], loc[256];
	bool uncond = false;

	fprintf(f, "  if ($syscall == %" PRIu32 ") # %s\n", s->nr, s->name);
	for (size_t i = 0; i < s->n_rules; i++) {
		const struct rrule *r = &s->rules[i];

		fprintf(f, "    ");
		if (r->n_cmps) {
			fprintf(f, "if (");
			for (size_t j = 0; j < r->n_cmps; j++) {
				if (j)
					fprintf(f, " && ");
				print_cmp(f, &r->cmps[j]);
			}
			fprintf(f, ") ");
		} else {
			uncond = true;
		}
		fprintf(f, "action %s; # %s%s\n",
			action_format_ret(r->ret, abi->arch, buf, sizeof(buf)),
			src_loc_format(&r->src->loc, loc, sizeof(loc)),
			r->via_mux ? " (multiplexed)" : "");
	}
	if (!uncond)
		fprintf(f, "    action %s; # default\n",
			action_format_ret(abi->default_ret, abi->arch, buf, sizeof(buf)));
}

/* The test of the ABI's block, exactly as the program makes it: x86_64 and
 * x32 share AUDIT_ARCH_X86_64 and are told apart by the x32 bit of the
 * number, except -1 (a tracer's skipped call), which is x86_64's when the
 * filter has x86_64 (scmp-run.ini(5) ARCHITECTURES). A number of the other
 * one of the two when it is not in the filter matches no block and gets the
 * invalid arch action. */
static void print_arch_test(FILE *f, const struct policy *p, const struct abi_policy *abi)
{
	const struct arch *a = abi->arch;

	fprintf(f, "if ($arch == 0x%08" PRIx32, a->audit_arch);
	if (a->id == ARCH_X86_64)
		fprintf(f, " && (($syscall & 0x%" PRIx32 ") == 0 || $syscall == 0x%" PRIx32 ")",
			ARCH_X32_SYSCALL_BIT, UINT32_MAX);
	else if (a->id == ARCH_X32)
		fprintf(f, " && ($syscall & 0x%" PRIx32 ") != 0%s", ARCH_X32_SYSCALL_BIT,
			policy_abi_for(p, a->audit_arch, 0) ? " && $syscall != 0xffffffff" : "");
	fprintf(f, ")\n");
}

/* The numbers the table names for the ABI, as ranges: the test that sets
 * the default action apart from the unknown-syscall action. */
static void print_known_test(FILE *f, const struct abi_policy *abi)
{
	const char *sep = "";

	for (size_t i = 0; i < abi->n_known;) {
		size_t j = i;

		while (j + 1 < abi->n_known && abi->known[j + 1].nr == abi->known[j].nr + 1)
			j++;
		if (i == j)
			fprintf(f, "%s$syscall == %" PRIu32, sep, abi->known[i].nr);
		else
			fprintf(f, "%s$syscall in [%" PRIu32 ", %" PRIu32 "]", sep,
				abi->known[i].nr, abi->known[j].nr);
		sep = " || ";
		i = j + 1;
	}
}

/* The numbers no rule names: the default action for those of the table,
 * the unknown-syscall action for the others (scmp-run.ini(5) UNKNOWN
 * SYSCALLS). */
static void print_rest(FILE *f, const struct abi_policy *abi)
{
	char buf[64];

	if (abi->default_ret == abi->unknown_ret || !abi->n_known) {
		fprintf(f, "  # every other number, named by the table or not\n  action %s;\n",
			action_format_ret(abi->unknown_ret, abi->arch, buf, sizeof(buf)));
		return;
	}
	fprintf(f, "  # other syscalls of the table\n  if (");
	print_known_test(f, abi);
	fprintf(f, ") action %s;\n",
		action_format_ret(abi->default_ret, abi->arch, buf, sizeof(buf)));
	fprintf(f, "  # numbers the table does not name\n  action %s;\n",
		action_format_ret(abi->unknown_ret, abi->arch, buf, sizeof(buf)));
}

int pfc_print(const struct policy *p, FILE *f)
{
	char buf[64];

	fprintf(f, "#\n# pseudo filter code: the first matching line decides\n#\n");
	for (size_t i = 0; i < p->n_abis; i++) {
		const struct abi_policy *abi = &p->abis[i];

		fprintf(f, "# filter for arch %s (0x%08" PRIx32 ")%s\n", abi->arch->name,
			abi->arch->audit_arch,
			abi->arch->id == ARCH_X32 ? ", syscall numbers with bit 30 set" : "");
		print_arch_test(f, p, abi);
		for (size_t k = 0; k < abi->n_sys; k++)
			print_rsys(f, abi, &abi->sys[k]);
		print_rest(f, abi);
	}
	/* policy_build() resolves the bad-arch errno name on the first ABI */
	fprintf(f, "# invalid arch action\naction %s;\n",
		action_format_ret(p->bad_arch_ret, p->n_abis ? p->abis[0].arch : NULL, buf,
				  sizeof(buf)));
	return ferror(f) ? -EIO : 0;
}
