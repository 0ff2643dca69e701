/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The rules as written: a ruleset collects rules, priorities and the names
 * of the files they came from, in written order.
 */
#include "ruleset.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "syscalls.h"

struct ruleset *ruleset_new(void)
{
	struct ruleset *rs = calloc(1, sizeof(*rs));

	if (!rs)
		return NULL;
	rs->attrs.bad_arch_action.kind = ACTION_KILL_PROCESS;
	rs->attrs.no_new_privs = true;
	return rs;
}

void ruleset_free(struct ruleset *rs)
{
	if (!rs)
		return;
	free(rs->rules);
	for (size_t i = 0; i < rs->n_prios; i++)
		free(rs->prios[i].syscall);
	free(rs->prios);
	for (size_t i = 0; i < rs->n_files; i++)
		free(rs->files[i]);
	free(rs->files);
	arena_free(&rs->arena);
	free(rs);
}

const char *ruleset_intern_file(struct ruleset *rs, const char *file)
{
	char **slot, *copy;

	for (size_t i = 0; i < rs->n_files; i++)
		if (!strcmp(rs->files[i], file))
			return rs->files[i];
	copy = strdup(file);
	if (!copy)
		return NULL;
	slot = array_grow(&rs->files, &rs->n_files, &rs->cap_files, sizeof(*slot));
	if (!slot) {
		free(copy);
		return NULL;
	}
	*slot = copy;
	return copy;
}

int ruleset_add_rule(struct ruleset *rs, const struct rule *r, bool shared)
{
	struct rule *slot, copy = *r; /* r may be a rule of rs, which may move */

	copy.seq = (unsigned)rs->n_rules;
	/* a name of the table is the table's own string: only other
	 * spellings need a copy */
	copy.syscall = copy.name_key ? syscalls_name_of_id((int)copy.name_key - 1)
				     : arena_strdup(&rs->arena, r->syscall);
	if (!copy.syscall)
		return -ENOMEM;
	if (r->conj.n_cmps && !shared && conj_copy_in(&rs->arena, &copy.conj, &r->conj) < 0)
		return -ENOMEM;
	slot = array_push(&rs->rules, &rs->n_rules, &rs->cap_rules, sizeof(*slot));
	if (!slot)
		return -ENOMEM;
	*slot = copy;
	return 0;
}

int ruleset_reserve(struct ruleset *rs, size_t more)
{
	return array_reserve(&rs->rules, rs->n_rules, &rs->cap_rules, sizeof(*rs->rules), more);
}

int ruleset_add(struct ruleset *rs, const char *syscall, bool optional, const struct action *act,
		const struct conj *conj, const struct src_loc *loc)
{
	struct rule r = {
		.syscall = syscall,
		.name_key = (unsigned)(syscalls_name_id(syscall) + 1),
		.optional = optional,
		.action = *act,
		.loc = *loc,
	};

	if (conj)
		r.conj = *conj;
	return ruleset_add_rule(rs, &r, false);
}

const struct src_loc *ruleset_notify_at(const struct ruleset *rs, const struct src_loc *fallback)
{
	const struct filter_attrs *at = &rs->attrs;

	if (at->default_action.kind == ACTION_NOTIFY)
		return at->default_loc.file ? &at->default_loc : fallback;
	if (at->has_unknown_action && at->unknown_action.kind == ACTION_NOTIFY)
		return &at->unknown_loc;
	if (at->bad_arch_action.kind == ACTION_NOTIFY)
		return fallback;
	for (size_t i = 0; i < rs->n_rules; i++)
		if (rs->rules[i].action.kind == ACTION_NOTIFY)
			return &rs->rules[i].loc;
	return NULL;
}

int ruleset_set_priority(struct ruleset *rs, const char *syscall, unsigned prio, bool via_group,
			 const struct src_loc *loc)
{
	struct priority *p;
	char *name;

	if (prio > RULESET_PRIORITY_MAX)
		return -ERANGE;
	name = strdup(syscall);
	if (!name)
		return -ENOMEM;
	p = array_grow(&rs->prios, &rs->n_prios, &rs->cap_prios, sizeof(*p));
	if (!p) {
		free(name);
		return -ENOMEM;
	}
	*p = (struct priority){ .syscall = name, .prio = prio, .via_group = via_group, .loc = *loc };
	return 0;
}
