/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The --list-* modes: syscalls of an ABI, architecture tokens, groups and
 * their members, profile names. */
#include "listing.h"

#include <errno.h>
#include <inttypes.h>

#include <string.h>

#include "groups.h"
#include "profile-path.h"
#include "suggest.h"
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

/* The user group of p called name, or NULL. */
static const struct profile_group *user_group(const struct profile *p, const char *name)
{
	for (size_t i = 0; p && i < p->n_groups; i++)
		if (!strcmp(p->groups[i].name, name))
			return &p->groups[i];
	return NULL;
}

static void unknown_group(const char *group, const struct profile *p, struct diag *d)
{
	struct suggest sg;

	suggest_init(&sg, group);
	groups_suggest(&sg);
	for (size_t i = 0; p && i < p->n_groups; i++)
		suggest_offer(&sg, p->groups[i].name);
	diag_error(d, NULL, "unknown group '%s'", group);
	if (suggest_result(&sg))
		diag_hint(d, NULL, "did you mean '%s'?", suggest_result(&sg));
}

int listing_groups(const char *group, const struct profile *p, FILE *f, struct diag *d)
{
	const struct profile_group *ug;
	const struct group *g;

	if (!group) {
		size_t n;
		const struct group *list = groups_list(&n);
		char where[512];

		for (size_t i = 0; i < n; i++)
			fprintf(f, "%-16s %s\n", list[i].name, list[i].description);
		fprintf(f, "%-16s %s\n", "@known", "every syscall name of the table");
		for (size_t i = 0; p && i < p->n_groups; i++)
			fprintf(f, "%-16s user group (%s)\n", p->groups[i].name,
				src_loc_format(&p->groups[i].loc, where, sizeof(where)));
		return ferror(f) ? -EIO : 0;
	}
	g = groups_lookup(group);
	ug = g ? NULL : user_group(p, group);
	if (!g && !ug) {
		unknown_group(group, p, d);
		return -ENOENT;
	}
	if (ug)
		for (size_t i = 0; i < ug->n_members; i++)
			fprintf(f, "%s\n", ug->members[i]);
	else if (!g->members)
		print_known(f);
	else
		for (const char *m = g->members; *m; m = groups_next(m))
			fprintf(f, "%s\n", m);
	return ferror(f) ? -EIO : 0;
}

/* Does g name name directly? (A group g names through "@other" is
 * checked on its own by the caller, which walks every group.) */
static bool in_group(const struct group *g, const char *name)
{
	for (const char *m = g->members; m && *m; m = groups_next(m))
		if (m[0] != '@' && !strcmp(m, name))
			return true;
	return false;
}

int listing_unlisted(const struct arch *a, FILE *f)
{
	size_t n, n_groups;
	const struct syscall *list = syscalls_list(a, &n);
	const struct group *groups = groups_list(&n_groups);

	for (size_t i = 0; i < n; i++) {
		const char *name = syscall_name(&list[i]);
		bool listed = false;

		for (size_t k = 0; k < n_groups && !listed; k++)
			listed = in_group(&groups[k], name);
		if (!listed)
			fprintf(f, "%s\n", name);
	}
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
