/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Cross-check: every constant the build host's C library headers define must
 * have the same value in our table for the native ABI.
 */
#include <inttypes.h>
#include <string.h>

#include "consts.h"
#include "host-check.h"
#include "tests/tap.h"

/* Where the C library deliberately differs from the kernel's uapi value. */
static const struct {
	const char *name;
	const char *why;
} differs[] = {
	/* glibc defines O_LARGEFILE as 0 on 64-bit ABIs (the kernel forces it
	 * there); the flag bit the kernel reads is the uapi value. */
	{ "O_LARGEFILE", "C library passes 0 on 64-bit ABIs" },
};

static const char *known_difference(const char *name)
{
	for (size_t i = 0; i < sizeof(differs) / sizeof(differs[0]); i++)
		if (strcmp(differs[i].name, name) == 0)
			return differs[i].why;
	return NULL;
}

static const struct arch *native(struct arch *a)
{
#if defined(__x86_64__) && !defined(__ILP32__)
	*a = (struct arch){ .id = ARCH_X86_64, .name = "x86_64", .family = FAMILY_X86 };
#elif defined(__i386__)
	*a = (struct arch){ .id = ARCH_X86, .name = "x86", .family = FAMILY_X86 };
#elif defined(__aarch64__)
	*a = (struct arch){ .id = ARCH_AARCH64, .name = "aarch64", .family = FAMILY_ARM };
#elif defined(__riscv) && __riscv_xlen == 64
	*a = (struct arch){ .id = ARCH_RISCV64, .name = "riscv64", .family = FAMILY_RISCV };
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
	*a = (struct arch){ .id = ARCH_PPC64LE, .name = "ppc64le", .family = FAMILY_PPC_LE };
#elif defined(__s390x__)
	*a = (struct arch){ .id = ARCH_S390X, .name = "s390x", .family = FAMILY_S390 };
#else
	return NULL;
#endif
	return a;
}

int main(void)
{
	struct arch buf;
	const struct arch *a = native(&buf);
	size_t checked = 0, host_only = 0;

	if (!a) {
		tap_skip("the cross-check does not know this host's ABI");
		return tap_done();
	}
	for (const struct host_value *h = host_values; h->name; h++) {
		int64_t v = 0;
		int r = consts_lookup(a, h->name, &v);
		const char *why = known_difference(h->name);

		if (r == -ENOENT) {
			/* a C library alias the kernel does not define for this ABI
			 * (F_GETLK64 on 64-bit ABIs) */
			tap_diag("%s: host defines it (0x%" PRIx64 "), not on %s", h->name,
				 (uint64_t)h->value, a->name);
			host_only++;
			continue;
		}
		checked++;
		if (why && v != h->value) {
			tap_skip("%s differs on purpose: %s", h->name, why);
			continue;
		}
		if (v != h->value || r != 0)
			tap_ok(false, "%s on %s: table 0x%" PRIx64 ", host 0x%" PRIx64, h->name,
			       a->name, (uint64_t)v, (uint64_t)h->value);
	}
	tap_ok(checked > 700, "%zu constants checked against the host headers (%zu host-only)",
	       checked, host_only);
	tap_ok(host_only < 20, "few host-only names (%zu)", host_only);
	return tap_done();
}
