/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Syscall names, numbers and argument slots per ABI, looked up in the static
 * tables generated into syscalls-table.c.
 */
#include <errno.h>
#include <string.h>

#include "syscalls-table.h"
#include "syscalls.h"

static const struct sct_table *table_of(const struct arch *a)
{
	size_t lo = 0, hi = sct_tables_n;

	if (!a || !a->table)
		return NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(a->table, sct_tables[mid].name);

		if (c == 0)
			return &sct_tables[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static const struct syscall *find_name(const struct sct_table *t, const char *name)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct syscall *s = &t->calls[t->by_name[mid]];
		int c = strcmp(name, s->name);

		if (c == 0)
			return s;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

const char *syscalls_kernel_version(void)
{
	return sct_kernel_version;
}

const struct syscall *syscalls_list(const struct arch *a, size_t *ret_n)
{
	const struct sct_table *t = table_of(a);

	*ret_n = t ? t->n : 0;
	return t ? t->calls : NULL;
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
	size_t lo = 0, hi;

	if (!t)
		return NULL;
	hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->calls[mid].nr == nr)
			return t->calls[mid].name;
		if (nr < t->calls[mid].nr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

bool syscalls_known(const char *name)
{
	size_t lo = 0, hi = sct_names_n;

	if (!name)
		return false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(name, sct_names[mid]);

		if (c == 0)
			return true;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
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

		if (strcmp(sct_protos[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (first = lo; first < sct_protos_n && strcmp(sct_protos[first].name, name) == 0;
	     first++) {
		const struct sct_proto *p = &sct_protos[first];

		if (!p->table)
			def = p;
		else if (strcmp(p->table, table) == 0)
			return p;
	}
	return def;
}

/*
 * How the kernel reads each class on an ABI: 32-bit classes are the low half
 * of the register on every ABI; long is register-wide; a 64-bit value on a
 * 32-bit ABI takes two registers, starting at an even slot where the ABI's
 * calling convention aligns register pairs (arm EABI, mips o32, ppc32).
 */
int syscalls_args(const struct arch *a, const char *name, struct syscall_arg ret[SYSCALL_ARGS_MAX],
		  bool *ret_known)
{
	const struct sct_proto *p;
	uint32_t nr;
	unsigned slot = 0;
	bool wide;
	int r;

	r = syscalls_lookup_name(a, name, &nr);
	if (r < 0)
		return r;
	for (unsigned i = 0; i < SYSCALL_ARGS_MAX; i++)
		ret[i] = (struct syscall_arg){ .name = NULL, .cls = ARG_NONE };

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
		enum arg_class cls;

		switch (pp->cls) {
		case SCT_U16:
			cls = ARG_U16;
			break;
		case SCT_S32:
			cls = ARG_S32;
			break;
		case SCT_U32:
			cls = ARG_U32;
			break;
		case SCT_SLONG:
			cls = wide ? ARG_S64 : ARG_S32;
			break;
		case SCT_ULONG:
			cls = wide ? ARG_U64 : ARG_U32;
			break;
		case SCT_S64:
			cls = wide ? ARG_S64 : ARG_PAIR;
			break;
		case SCT_U64:
			cls = wide ? ARG_U64 : ARG_PAIR;
			break;
		case SCT_PTR:
		default:
			cls = ARG_PTR;
			break;
		}
		if (cls != ARG_PAIR) {
			ret[slot++] = (struct syscall_arg){ .name = pp->name, .cls = cls };
			continue;
		}
		if (a->pair_aligned && slot % 2 == 1)
			ret[slot++] = (struct syscall_arg){ .name = NULL, .cls = ARG_PAD };
		for (unsigned half = 0; half < 2 && slot < SYSCALL_ARGS_MAX; half++)
			ret[slot++] = (struct syscall_arg){ .name = pp->name, .cls = ARG_PAIR };
	}
	*ret_known = true;
	return 0;
}
