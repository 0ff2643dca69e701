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

/* Strings are offsets into sct_strings (0 is ""): the tables hold no
 * pointer, so loading the program relocates nothing in them. */
struct sct_table {
	uint32_t name;	/* table name, matches struct arch.table */
	uint32_t base;	/* already added to every nr: the ABIs' nr_base */
	uint32_t first; /* its calls: sct_calls[first .. first + n), sorted by nr */
	uint32_t n;	/* and sct_by_name[first ..]: indexes from first, by name */
};

struct sct_param {
	uint32_t name;
	enum sct_class cls;
};

/* The argument list of a syscall: the default one (table 0: "") or the one
 * of a single table. nparams < 0: no arguments known on that table. */
struct sct_proto {
	uint32_t name;
	uint32_t table;
	int nparams;
	struct sct_param params[SYSCALL_ARGS_MAX];
};

extern const char sct_strings[];
extern const struct syscall sct_calls[];
extern const uint16_t sct_by_name[];

/* Sorted by name (strcmp). */
extern const struct sct_table sct_tables[];
extern const size_t sct_tables_n;

/* Sorted by name, then the default before the per-table ones, those sorted
 * by table name. */
extern const struct sct_proto sct_protos[];
extern const size_t sct_protos_n;

/* Every name of every table, sorted, unique. */
extern const uint32_t sct_names[];
extern const size_t sct_names_n;

extern const char sct_kernel_version[];
