/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The generated constants table (consts-table.c, made by tools/gen-consts-c.py
 * from data/constants.txt). Private to consts.c and its tests.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch.h"

enum consts_scope {
	CONSTS_SCOPE_FAMILY, /* id is an enum arch_family */
	CONSTS_SCOPE_ABI,    /* id is an enum arch_id */
};

enum consts_kind {
	CONSTS_PLAIN,
	CONSTS_ERRNO,	    /* an error number */
	CONSTS_ERRNO_ALIAS, /* a second name of an error number (EWOULDBLOCK) */
};

/* The value of a constant on one family or ABI, where it differs from the
 * common value. An ABI override wins over a family override. */
struct consts_override {
	uint8_t scope; /* enum consts_scope */
	uint8_t id;
	bool absent; /* the name does not exist there */
	int64_t value;
};

struct consts_entry {
	uint32_t name;	/* offset into consts_strings */
	int64_t value;	/* on every ABI without an override */
	bool absent;	/* no common value: exists only where overridden */
	uint8_t kind;	/* enum consts_kind */
	uint16_t first; /* overrides: consts_overrides[first .. first + count) */
	uint16_t count;
};

/* Sorted by name (strcmp order), names unique. */
extern const struct consts_entry consts_table[];
extern const size_t consts_table_len;
extern const struct consts_override consts_overrides[];
/* The names, NUL-separated; the table holds offsets into it. */
extern const char consts_strings[];
