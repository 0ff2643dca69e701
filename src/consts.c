/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Named constants per ABI: binary search over the generated table, then the
 * ABI's override, the family's override or the common value.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "consts-table.h"
#include "consts.h"
#include "suggest.h"

static int entry_cmp(const void *key, const void *elem)
{
	const struct consts_entry *e = elem;

	return strcmp(key, consts_strings + e->name);
}

static const struct consts_entry *entry_find(const char *name)
{
	if (!name)
		return NULL;
	return bsearch(name, consts_table, consts_table_len, sizeof(consts_table[0]), entry_cmp);
}

/* The value of e on a: 0 and *ret set, or -ENOENT if e does not exist on a. */
static int entry_value(const struct consts_entry *e, const struct arch *a, int64_t *ret)
{
	const struct consts_override *best = NULL;
	bool absent = e->absent;
	int64_t value = e->value;

	for (size_t i = e->first; i < (size_t)e->first + e->count; i++) {
		const struct consts_override *o = &consts_overrides[i];

		if (o->scope == CONSTS_SCOPE_ABI && o->id == (unsigned)a->id) {
			best = o; /* the ABI's own value wins over its family's */
			break;
		}
		if (o->scope == CONSTS_SCOPE_FAMILY && o->id == (unsigned)a->family)
			best = o;
	}
	if (best) {
		absent = best->absent;
		value = best->value;
	}
	if (absent)
		return -ENOENT;
	*ret = value;
	return 0;
}

/* The value of name on a; errno_only refuses plain constants. */
static int lookup(const struct arch *a, const char *name, bool errno_only, int64_t *ret)
{
	const struct consts_entry *e = entry_find(name);

	if (!e || !a || (errno_only && e->kind == CONSTS_PLAIN))
		return -ENOENT;
	return entry_value(e, a, ret);
}

int consts_lookup(const struct arch *a, const char *name, int64_t *ret)
{
	int64_t v;
	int r = lookup(a, name, false, &v);

	if (r >= 0 && ret)
		*ret = v;
	return r < 0 ? r : 0;
}

int consts_errno(const struct arch *a, const char *name, int *ret)
{
	int64_t v;
	int r = lookup(a, name, true, &v);

	if (r >= 0 && ret)
		*ret = (int)v;
	return r < 0 ? r : 0;
}

const char *consts_errno_name(const struct arch *a, int value)
{
	/* Prefer the proper name (EAGAIN); an alias (EWOULDBLOCK, ENOTSUP) only
	 * when it is the only name of the number on a (EDEADLOCK on MIPS). */
	for (int pass = 0; a && pass < 2; pass++) {
		for (size_t i = 0; i < consts_table_len; i++) {
			const struct consts_entry *e = &consts_table[i];
			int64_t v;

			if (e->kind != (pass == 0 ? CONSTS_ERRNO : CONSTS_ERRNO_ALIAS))
				continue;
			if (entry_value(e, a, &v) == 0 && v == value)
				return consts_strings + e->name;
		}
	}
	return NULL;
}

size_t consts_count(void)
{
	return consts_table_len;
}

const char *consts_name(size_t i)
{
	return i < consts_table_len ? consts_strings + consts_table[i].name : NULL;
}

const char *consts_static_name(const char *name)
{
	const struct consts_entry *e = entry_find(name);

	return e ? consts_strings + e->name : NULL;
}

const char *consts_suggest(const char *word)
{
	struct suggest sg;

	suggest_init(&sg, word);
	for (size_t i = 0; i < consts_count(); i++)
		suggest_offer(&sg, consts_name(i));
	return suggest_result(&sg);
}
