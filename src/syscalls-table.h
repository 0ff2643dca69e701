/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Interface of the generated syscalls-table.c (tools/gen-syscalls-c.py over
 * data/syscalls.txt and data/syscall-args.txt). Private to syscalls.c and tests.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "syscalls.h"

/* Argument class as data/syscall-args.txt writes it, before the ABI decides
 * register width and pairing (see syscalls_args()). */
enum sct_class {
	SCT_U16,
	SCT_S32,
	SCT_U32,
	SCT_SLONG,
	SCT_ULONG,
	SCT_S64,
	SCT_U64,
	SCT_PTR,
};

struct sct_table {
	const char *name;	     /* table name, matches struct arch.table */
	uint32_t base;		     /* already added to every nr: the ABIs' nr_base */
	const struct syscall *calls; /* sorted by nr, numbers unique */
	const uint16_t *by_name;     /* indexes into calls, sorted by name (strcmp) */
	size_t n;
};

struct sct_param {
	const char *name;    /* the include/linux/syscalls.h spelling where there is one */
	const char *aliases; /* the kernel source's other spellings, '|'-separated; or NULL */
	enum sct_class cls;
};

/* The argument list of a syscall: the default one (table NULL) or the one of
 * a single table. nparams < 0: no arguments known on that table. */
struct sct_proto {
	const char *name;
	const char *table;
	int nparams;
	struct sct_param params[SYSCALL_ARGS_MAX];
};

/* Sorted by name (strcmp). */
extern const struct sct_table sct_tables[];
extern const size_t sct_tables_n;

/* Sorted by name, then the default before the per-table ones, those sorted
 * by table name. */
extern const struct sct_proto sct_protos[];
extern const size_t sct_protos_n;

/* Every name of every table, sorted, unique. */
extern const char *const sct_names[];
extern const size_t sct_names_n;

extern const char sct_kernel_version[];
