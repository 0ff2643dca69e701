/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The --list-* modes: syscalls of an ABI, architecture tokens, groups and
 * their members, profile names. */
#include "listing.h"

#include <errno.h>
#include <inttypes.h>

#include "groups.h"
#include "profile-path.h"
#include "syscalls.h"

int listing_syscalls(const struct arch *a, FILE *f)
{
	size_t n;
	const struct syscall *list = syscalls_list(a, &n);

	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s\t%" PRIu32 "\n", syscall_name(&list[i]), list[i].nr);
	return ferror(f) ? -EIO : 0;
}

int listing_arches(FILE *f)
{
	fprintf(f, "native\n");
	for (int id = 0; id < ARCH_COUNT; id++)
		fprintf(f, "%s\n", arch_get((enum arch_id)id)->name);
	return ferror(f) ? -EIO : 0;
}

/* True if an ABI before id has a syscall of this name. */
static bool seen_before(int id, const char *name)
{
	uint32_t nr;

	for (int k = 0; k < id; k++)
		if (syscalls_lookup_name(arch_get((enum arch_id)k), name, &nr) == 0)
			return true;
	return false;
}

/* @known: every name of the table, each once (at the first ABI that has it). */
static void print_known(FILE *f)
{
	for (int id = 0; id < ARCH_COUNT; id++) {
		size_t n;
		const struct syscall *l = syscalls_list(arch_get((enum arch_id)id), &n);

		for (size_t i = 0; i < n; i++)
			if (!seen_before(id, syscall_name(&l[i])))
				fprintf(f, "%s\n", syscall_name(&l[i]));
	}
}

int listing_groups(const char *group, FILE *f)
{
	const struct group *g;

	if (!group) {
		size_t n;
		const struct group *list = groups_list(&n);

		for (size_t i = 0; i < n; i++)
			fprintf(f, "%-16s %s\n", list[i].name, list[i].description);
		fprintf(f, "%-16s %s\n", "@known", "every syscall name of the table");
		return ferror(f) ? -EIO : 0;
	}
	g = groups_lookup(group);
	if (!g)
		return -ENOENT;
	if (!g->members)
		print_known(f);
	else
		for (const char *const *m = g->members; *m; m++)
			fprintf(f, "%s\n", *m);
	return ferror(f) ? -EIO : 0;
}

int listing_profiles(const char *search_path, const char *installed_dir, FILE *f, struct diag *d)
{
	char **names;
	size_t n;

	if (profile_names_list(search_path, installed_dir, &names, &n) < 0) {
		diag_error(d, NULL, "listing the profiles: out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s\n", names[i]);
	profile_names_free(names, n);
	return ferror(f) ? -EIO : 0;
}
