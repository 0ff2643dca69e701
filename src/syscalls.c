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

/* Index of name in sct_names[] (by its hash index), or -1. */
static ssize_t name_index(const char *name)
{
	size_t mask = sct_name_slots_n - 1;

	if (!name)
		return -1;
	for (size_t i = sct_hash(name) & mask;; i = (i + 1) & mask) {
		uint16_t k = sct_name_slots[i];

		if (!k)
			return -1;
		if (!strcmp(name, STR(sct_names[k - 1])))
			return k - 1;
	}
}

const struct sct_table *syscalls_table(const struct arch *a)
{
	size_t mask = sct_table_slots_n - 1;

	if (!a || !a->table[0])
		return NULL;
	for (size_t i = sct_hash(a->table) & mask;; i = (i + 1) & mask) {
		uint8_t k = sct_table_slots[i];

		if (!k)
			return NULL;
		if (!strcmp(a->table, STR(sct_tables[k - 1].name)))
			return &sct_tables[k - 1];
	}
}

/* The entry of the name with index k (name_index()) in table t, or NULL. */
static const struct syscall *find_index(const struct sct_table *t, ssize_t k)
{
	uint16_t at;

	if (k < 0)
		return NULL;
	at = sct_name_call[(size_t)(t - sct_tables) * sct_names_n + (size_t)k];
	return at == UINT16_MAX ? NULL : &sct_calls[t->first + at];
}

const struct syscall *syscalls_find_nr(const struct syscall *list, size_t n, uint32_t nr)
{
	size_t lo = 0, hi = n;

	if (!list)
		return NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (list[mid].nr == nr)
			return &list[mid];
		if (list[mid].nr < nr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *syscalls_kernel_version(void)
{
	return sct_kernel_version;
}

const struct syscall *syscalls_list(const struct arch *a, size_t *ret_n)
{
	const struct sct_table *t = syscalls_table(a);

	*ret_n = t ? t->n : 0;
	return t ? &sct_calls[t->first] : NULL;
}

const struct syscall *syscalls_lookup(const struct arch *a, const char *name)
{
	const struct sct_table *t = syscalls_table(a);

	return t && name ? find_index(t, name_index(name)) : NULL;
}

const struct syscall *syscalls_table_lookup_id(const struct sct_table *t, int id)
{
	return t && id >= 0 && (size_t)id < sct_names_n ? find_index(t, id) : NULL;
}

const char *syscalls_name_of_id(int id)
{
	return id >= 0 && (size_t)id < sct_names_n ? STR(sct_names[id]) : NULL;
}

int syscalls_lookup_name(const struct arch *a, const char *name, uint32_t *ret_nr)
{
	const struct syscall *s = syscalls_lookup(a, name);

	if (!s)
		return -ENOENT;
	*ret_nr = s->nr;
	return 0;
}

const char *syscalls_lookup_nr(const struct arch *a, uint32_t nr)
{
	const struct sct_table *t = syscalls_table(a);
	const struct syscall *s = t ? syscalls_find_nr(&sct_calls[t->first], t->n, nr) : NULL;

	return s ? STR(s->name_at) : NULL;
}

int syscalls_name_id(const char *name)
{
	return (int)name_index(name);
}

size_t syscalls_name_count(void)
{
	return sct_names_n;
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

/* The argument list of the name with index k (name_index(), >= 0) on
 * table t (NULL: an ABI without a table of its own): the table's own line,
 * else the default line; NULL if there is none. */
static const struct sct_proto *find_proto(ssize_t k, const struct sct_table *t)
{
	const struct sct_proto *def = NULL;
	uint32_t name = sct_names[k];

	/* a name's lines are consecutive, its default one first */
	for (size_t i = sct_name_proto[k]; i < sct_protos_n && sct_protos[i].name == name; i++) {
		const struct sct_proto *p = &sct_protos[i];

		if (!p->table)
			def = p;
		else if (t && p->table == t->name)
			return p;
	}
	return def;
}

int syscalls_arg_misnumbered(const struct syscall_arg *arg, int pos)
{
	const char *s = arg->name;

	if (!s || strncmp(s, "arg", 3) || s[3] < '0' || s[3] > '9' || s[4] || s[3] - '0' == pos)
		return -1;
	return s[3] - '0';
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
/* syscalls_proto_args() of the name with index k (>= 0) on a, whose table
 * is t (NULL: none of its own). */
static int proto_args(const struct arch *a, const struct sct_table *t, ssize_t k,
		      struct syscall_arg ret[SYSCALL_ARGS_MAX], bool *ret_known)
{
	const struct sct_proto *p;
	unsigned slot = 0;
	bool wide;

	for (unsigned i = 0; i < SYSCALL_ARGS_MAX; i++)
		ret[i] = (struct syscall_arg){ .cls = ARG_NONE };

	p = find_proto(k, t);
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

int syscalls_args(const struct arch *a, const char *name, struct syscall_arg ret[SYSCALL_ARGS_MAX],
		  bool *ret_known)
{
	const struct sct_table *t = syscalls_table(a);
	ssize_t k = name_index(name);

	if (!t || !find_index(t, k))
		return -ENOENT;
	return proto_args(a, t, k, ret, ret_known);
}

int syscalls_proto_args(const struct arch *a, const char *name,
			struct syscall_arg ret[SYSCALL_ARGS_MAX], bool *ret_known)
{
	ssize_t k = name_index(name);

	if (!a->table[0] || k < 0)
		return -ENOENT;
	return proto_args(a, syscalls_table(a), k, ret, ret_known);
}
