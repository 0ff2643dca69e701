/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Cross-check of the syscall tables and AUDIT_ARCH values against libseccomp,
 * an independent table: every number both know must agree.
 */
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "syscalls-table.h"
#include "syscalls.h"
#include "tap.h"

/*
 * Entries where libseccomp is wrong against the Linux 6.12 tables, each with
 * the kernel file:line that decides. Matched on (ABI, name); the test fails
 * if one stops disagreeing, so the list cannot go stale. libseccomp 2.5.4
 * agrees on every name both know, so the list only holds its terminator.
 */
static const struct {
	const char *arch, *name, *reason;
} known_wrong[] = {
	{ NULL, NULL, NULL },
};

static bool is_known_wrong(const char *arch, const char *name, bool *used, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (known_wrong[i].arch && strcmp(known_wrong[i].arch, arch) == 0 &&
		    strcmp(known_wrong[i].name, name) == 0) {
			used[i] = true;
			return true;
		}
	return false;
}

int main(void)
{
	size_t nkw = sizeof(known_wrong) / sizeof(known_wrong[0]);
	bool used[sizeof(known_wrong) / sizeof(known_wrong[0])] = { false };
	size_t pairs = 0, mismatches = 0, excused = 0, only_ours = 0, only_theirs = 0;

	for (size_t i = 0; i < ARCH_COUNT; i++) {
		const struct arch *a = arch_get(i);
		uint32_t token = seccomp_arch_resolve_name(a->name);
		size_t before = pairs, bad = 0;

		if (!token) {
			tap_skip("%s: libseccomp %u.%u.%u does not know this ABI", a->name,
				 seccomp_version()->major, seccomp_version()->minor,
				 seccomp_version()->micro);
			continue;
		}
		/* libseccomp's x32 token is its own (EM_X86_64 | __AUDIT_ARCH_LE):
		 * the kernel reports x32 as AUDIT_ARCH_X86_64 plus the x32 bit in
		 * the number, which is what struct arch describes. */
		if (a->id == ARCH_X32)
			tap_ok(token == (a->audit_arch & ~0x80000000u) && a->nr_base == 0x40000000u,
			       "x32: AUDIT_ARCH 0x%08x + nr_base 0x%08x, libseccomp token 0x%08x",
			       a->audit_arch, a->nr_base, token);
		else
			tap_ok(token == a->audit_arch, "%s: AUDIT_ARCH 0x%08x, libseccomp 0x%08x",
			       a->name, a->audit_arch, token);

		/* every name of any table, asked on this ABI */
		for (size_t k = 0; k < sct_names_n; k++) {
			const char *name = sct_strings + sct_names[k];
			int theirs = seccomp_syscall_resolve_name_arch(token, name);
			uint32_t ours;
			int r = syscalls_lookup_name(a, name, &ours);

			if (theirs < 0) {
				only_ours += r == 0;
				continue;
			}
			pairs++;
			if (r == 0 && ours == (uint32_t)theirs)
				continue;
			if (is_known_wrong(a->name, name, used, nkw)) {
				excused++;
				continue;
			}
			mismatches++;
			bad++;
			if (r == 0)
				tap_diag("%s %s: ours %u, libseccomp %d", a->name, name, ours,
					 theirs);
			else
				tap_diag("%s %s: not in our table, libseccomp %d", a->name, name,
					 theirs);
		}
		/* every number libseccomp names on this ABI, so names only it
		 * knows are found too */
		for (uint32_t nr = a->nr_base; nr < a->nr_base + 1024; nr++) {
			char *name = seccomp_syscall_resolve_num_arch(token, (int)nr);

			if (name && !syscalls_known(name) &&
			    seccomp_syscall_resolve_name_arch(token, name) == (int)nr) {
				if (!is_known_wrong(a->name, name, used, nkw)) {
					tap_diag("%s %s: libseccomp %u, unknown to our tables",
						 a->name, name, nr);
					only_theirs++;
					bad++;
				}
			}
			free(name);
		}
		tap_ok(bad == 0, "%s: %zu names compared, all equal", a->name, pairs - before);
	}
	tap_diag("%zu (ABI, name) pairs compared, %zu mismatches, %zu listed as libseccomp "
		 "errors, %zu names only we know, %zu only libseccomp knows",
		 pairs, mismatches, excused, only_ours, only_theirs);
	tap_ok(pairs > 5000, "compared %zu pairs", pairs);
	tap_ok(mismatches == 0 && only_theirs == 0, "no unexplained disagreement");
	for (size_t i = 0; i < nkw; i++)
		if (known_wrong[i].arch)
			tap_ok(used[i], "%s %s still disagrees (%s)", known_wrong[i].arch,
			       known_wrong[i].name, known_wrong[i].reason);
	return tap_done();
}
