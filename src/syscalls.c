/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Syscall names, numbers and argument slots per ABI, looked up in the static
 * tables generated into syscalls-table.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "syscalls-table.h"
#include "number.h"
#include "suggest.h"
#include "syscalls.h"

#define STR(off) (sct_strings + (off))

const char *syscall_name(const struct syscall *s)
{
	return s->name_at == SYSCALL_NO_NAME ? NULL : STR(s->name_at);
}

static int cmp_table_name(const void *key, const void *elem)
{
	return strcmp(key, STR(((const struct sct_table *)elem)->name));
}

static const struct sct_table *table_of(const struct arch *a)
{
	if (!a || !a->table)
		return NULL;
	return bsearch(a->table, sct_tables, sct_tables_n, sizeof(*sct_tables), cmp_table_name);
}

/* bsearch() key for the by-name index of a table: the index holds positions
 * in calls[], so the comparison needs the table. */
struct name_key {
	const char *name;
	const struct sct_table *t;
};

static int cmp_by_name(const void *key, const void *elem)
{
	const struct name_key *k = key;

	return strcmp(k->name, STR(sct_calls[k->t->first + *(const uint16_t *)elem].name_at));
}

static const struct syscall *find_name(const struct sct_table *t, const char *name)
{
	const struct name_key key = { name, t };
	const uint16_t *at;

	if (!t->n)
		return NULL;
	at = bsearch(&key, &sct_by_name[t->first], t->n, sizeof(*sct_by_name), cmp_by_name);
	return at ? &sct_calls[t->first + *at] : NULL;
}

static int cmp_syscall_nr(const void *key, const void *elem)
{
	uint32_t nr = *(const uint32_t *)key, other = ((const struct syscall *)elem)->nr;

	return (nr > other) - (nr < other);
}

const struct syscall *syscalls_find_nr(const struct syscall *list, size_t n, uint32_t nr)
{
	if (!list || !n)
		return NULL;
	return bsearch(&nr, list, n, sizeof(*list), cmp_syscall_nr);
}

const char *syscalls_kernel_version(void)
{
	return sct_kernel_version;
}

const struct syscall *syscalls_list(const struct arch *a, size_t *ret_n)
{
	const struct sct_table *t = table_of(a);

	*ret_n = t ? t->n : 0;
	return t ? &sct_calls[t->first] : NULL;
}

int syscalls_lookup_name(const struct arch *a, const char *name, uint32_t *ret_nr)
{
	const struct sct_table *t = table_of(a);
	const struct syscall *s;

	if (!t || !name)
		return -ENOENT;
	s = find_name(t, name);
	if (!s)
		return -ENOENT;
	*ret_nr = s->nr;
	return 0;
}

const char *syscalls_lookup_nr(const struct arch *a, uint32_t nr)
{
	const struct sct_table *t = table_of(a);
	const struct syscall *s = t ? syscalls_find_nr(&sct_calls[t->first], t->n, nr) : NULL;

	return s ? STR(s->name_at) : NULL;
}

static int cmp_name(const void *key, const void *elem)
{
	return strcmp(key, STR(*(const uint32_t *)elem));
}

/* Index of name in sct_names[], or -1. */
static ssize_t name_index(const char *name)
{
	const uint32_t *at;

	if (!name)
		return -1;
	at = bsearch(name, sct_names, sct_names_n, sizeof(*sct_names), cmp_name);
	return at ? at - sct_names : -1;
}

bool syscalls_known(const char *name)
{
	return name_index(name) >= 0;
}

int syscalls_parse_numbered(const char *s, const struct arch **ret_arch, uint32_t *ret_nr,
			    const char **reterr)
{
	const char *slash = strchr(s, '/'), *num = slash ? slash + 1 : s;
	char abi[32];
	uint64_t v;
	int r;

	*ret_arch = NULL;
	if (!slash && !(*s >= '0' && *s <= '9'))
		return -ENOENT;
	if (slash) {
		if ((size_t)(slash - s) >= sizeof(abi)) {
			*reterr = "unknown architecture before '/'";
			return -EINVAL;
		}
		memcpy(abi, s, (size_t)(slash - s));
		abi[slash - s] = '\0';
		*ret_arch = arch_lookup(abi);
		if (!*ret_arch) {
			*reterr = "unknown architecture before '/' (see --list-arches)";
			return -EINVAL;
		}
	}
	r = number_parse_max(num, UINT32_MAX, &v);
	if (r == -ERANGE)
		*reterr = "syscall number " NUMBER_ERR_RANGE " 0..4294967295";
	else if (r < 0)
		*reterr = "syscall number " NUMBER_ERR_SYNTAX;
	else
		*ret_nr = (uint32_t)v;
	return r;
}

const char *syscalls_suggest(const char *word)
{
	struct suggest sg;

	suggest_init(&sg, word);
	for (size_t i = 0; i < sct_names_n; i++)
		suggest_offer(&sg, STR(sct_names[i]));
	return suggest_result(&sg);
}

int syscalls_names(const char ***ret, size_t *ret_n)
{
	bool *seen = calloc(sct_names_n + 1, sizeof(*seen));
	const char **names = calloc(sct_names_n + 1, sizeof(*names));
	size_t n = 0;

	*ret = NULL;
	*ret_n = 0;
	if (!seen || !names) {
		free(seen);
		free(names);
		return -ENOMEM;
	}
	for (int id = 0; id < ARCH_COUNT; id++) {
		size_t m;
		const struct syscall *sc = syscalls_list(arch_get((enum arch_id)id), &m);

		for (size_t i = 0; sc && i < m; i++) {
			ssize_t k = name_index(STR(sc[i].name_at));

			/* every table name is in sct_names[]: k < 0 cannot happen */
			if (k < 0 || seen[k])
				continue;
			seen[k] = true;
			names[n++] = STR(sc[i].name_at);
		}
	}
	free(seen);
	*ret = names;
	*ret_n = n;
	return 0;
}

/* The argument list of name on table: the table's own line, else the default
 * line; NULL if there is none. */
static const struct sct_proto *find_proto(const char *name, const char *table)
{
	size_t lo = 0, hi = sct_protos_n, first;
	const struct sct_proto *def = NULL;

	/* lower bound of name: the default line comes first, if any */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(STR(sct_protos[mid].name), name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (first = lo; first < sct_protos_n && strcmp(STR(sct_protos[first].name), name) == 0;
	     first++) {
		const struct sct_proto *p = &sct_protos[first];

		if (!p->table)
			def = p;
		else if (strcmp(STR(p->table), table) == 0)
			return p;
	}
	return def;
}

bool syscalls_arg_named(const struct syscall_arg *arg, const char *name)
{
	size_t n = strlen(name);

	if (!arg->name)
		return false;
	if (!strcmp(arg->name, name))
		return true;
	for (const char *s = arg->aliases; s && *s;) {
		const char *bar = strchr(s, '|');
		size_t len = bar ? (size_t)(bar - s) : strlen(s);

		if (len == n && !strncmp(s, name, n))
			return true;
		s = bar ? bar + 1 : s + len;
	}
	return false;
}

/* The class of each table class on a 32-bit (narrow) and a 64-bit (wide) ABI. */
static const struct {
	enum arg_class narrow, wide;
} classes[] = {
	[SCT_U16] = { ARG_U16, ARG_U16 },   [SCT_S32] = { ARG_S32, ARG_S32 },
	[SCT_U32] = { ARG_U32, ARG_U32 },   [SCT_SLONG] = { ARG_S32, ARG_S64 },
	[SCT_ULONG] = { ARG_U32, ARG_U64 }, [SCT_S64] = { ARG_PAIR, ARG_S64 },
	[SCT_U64] = { ARG_PAIR, ARG_U64 },  [SCT_PTR] = { ARG_PTR, ARG_PTR },
};

/*
 * How the kernel reads each class on an ABI: 32-bit classes are the low half
 * of the register on every ABI; long is register-wide; a 64-bit value on a
 * 32-bit ABI takes two registers, starting at an even slot where the ABI's
 * calling convention aligns register pairs (arm EABI, mips o32, ppc32).
 */
int syscalls_args(const struct arch *a, const char *name, struct syscall_arg ret[SYSCALL_ARGS_MAX],
		  bool *ret_known)
{
	uint32_t nr;
	int r;

	r = syscalls_lookup_name(a, name, &nr);
	if (r < 0)
		return r;
	return syscalls_proto_args(a, name, ret, ret_known);
}

int syscalls_proto_args(const struct arch *a, const char *name,
			struct syscall_arg ret[SYSCALL_ARGS_MAX], bool *ret_known)
{
	const struct sct_proto *p;
	unsigned slot = 0;
	bool wide;

	if (!a->table || !syscalls_known(name))
		return -ENOENT;
	for (unsigned i = 0; i < SYSCALL_ARGS_MAX; i++)
		ret[i] = (struct syscall_arg){ .cls = ARG_NONE };

	p = find_proto(name, a->table);
	if (!p || p->nparams < 0) {
		for (unsigned i = 0; i < SYSCALL_ARGS_MAX; i++)
			ret[i].cls = ARG_UNKNOWN;
		*ret_known = false;
		return 0;
	}

	wide = a->bits == 64;
	for (int i = 0; i < p->nparams && slot < SYSCALL_ARGS_MAX; i++) {
		const struct sct_param *pp = &p->params[i];
		const char *aliases = pp->aliases ? STR(pp->aliases) : NULL;
		enum arg_class cls;

		cls = (size_t)pp->cls < sizeof(classes) / sizeof(classes[0])
			      ? (wide ? classes[pp->cls].wide : classes[pp->cls].narrow)
			      : ARG_PTR;
		if (cls != ARG_PAIR) {
			ret[slot++] = (struct syscall_arg){ STR(pp->name), cls, aliases };
			continue;
		}
		if (a->pair_aligned && slot % 2 == 1)
			ret[slot++] = (struct syscall_arg){ .cls = ARG_PAD };
		for (unsigned half = 0; half < 2 && slot < SYSCALL_ARGS_MAX; half++)
			ret[slot++] = (struct syscall_arg){ STR(pp->name), ARG_PAIR, aliases };
	}
	*ret_known = true;
	return 0;
}
