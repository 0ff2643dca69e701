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
	char buf[64];
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
		fprintf(f, "action %s; # ", action_format_ret(r->ret, abi->arch, buf, sizeof(buf)));
		diag_fputs_escaped(r->src->loc.file, f); /* a name from a profile: escaped */
		fprintf(f, ":%u%s\n", r->src->loc.line, r->via_mux ? " (multiplexed)" : "");
	}
	if (!uncond)
		fprintf(f, "    action %s; # default\n",
			action_format_ret(abi->default_ret, abi->arch, buf, sizeof(buf)));
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
		fprintf(f, "if ($arch == 0x%08" PRIx32 ")\n", abi->arch->audit_arch);
		for (size_t k = 0; k < abi->n_sys; k++)
			print_rsys(f, abi, &abi->sys[k]);
		fprintf(f, "  # other syscalls of the table\n  action %s;\n",
			action_format_ret(abi->default_ret, abi->arch, buf, sizeof(buf)));
		fprintf(f, "  # numbers the table does not name\n  action %s;\n",
			action_format_ret(abi->unknown_ret, abi->arch, buf, sizeof(buf)));
	}
	fprintf(f, "# invalid arch action\naction %s;\n",
		action_format_ret(p->bad_arch_ret, NULL, buf, sizeof(buf)));
	return ferror(f) ? -EIO : 0;
}
