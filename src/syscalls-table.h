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
	uint32_t n;
};

struct sct_param {
	uint32_t name;	  /* the include/linux/syscalls.h spelling where there is one */
	uint32_t aliases; /* the kernel source's other spellings, '|'-separated; 0: none */
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

/* Sorted by name (strcmp). */
extern const struct sct_table sct_tables[];
extern const size_t sct_tables_n;

/* Hash index of the tables by name: sct_table_slots_n slots (a power of
 * two), each an index into sct_tables[] + 1, or 0 (empty); the slot of a
 * name is sct_hash(name) modulo the size, then the next ones (linear
 * probing). */
extern const uint8_t sct_table_slots[];
extern const size_t sct_table_slots_n;

/* Sorted by name, then the default before the per-table ones, those sorted
 * by table name. */
extern const struct sct_proto sct_protos[];
extern const size_t sct_protos_n;

/* Every name of every table, sorted, unique. */
extern const uint32_t sct_names[];
extern const size_t sct_names_n;

/* Hash index of sct_names[], as sct_table_slots[] is of the tables: each
 * slot an index into sct_names[] + 1, or 0. */
extern const uint16_t sct_name_slots[];
extern const size_t sct_name_slots_n;

/* Per table (in sct_tables[] order), per name (in sct_names[] order): the
 * position of the name in the table's calls, or UINT16_MAX if the table
 * lacks it. sct_tables_n * sct_names_n entries. */
extern const uint16_t sct_name_call[];

/* Per name: the index of its first line in sct_protos[] (the default one
 * when there is one), or UINT16_MAX if it has none. */
extern const uint16_t sct_name_proto[];

/* The hash of the slot indexes: FNV-1a over the bytes of s, 32 bits (the
 * generator computes the same). */
static inline uint32_t sct_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

extern const char sct_kernel_version[];
