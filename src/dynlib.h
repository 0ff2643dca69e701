/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Helper libraries opened with dlopen() when first needed, not linked, so
 * that a launch that does not need one does not map and relocate it
 * (docs/performance.md, Launch): jansson (JSON profiles) and libcap-ng
 * (capability names).
 */
#pragma once

#include <stddef.h>

/* One function to find: its symbol and where its pointer goes in the
 * caller's table (offsetof). */
struct dynlib_fn {
	const char *symbol;
	size_t off;
};

/*
 * Open soname once and fill table (a struct of function pointers, size
 * bytes) with fns[0..n). Returns 0, at once if the table is filled
 * already, or -ENOENT with the loader's reason in why (the file is missing,
 * is no library, or lacks a function, which is named) and the table all
 * NULL. A library once opened stays open: the table points into it.
 */
int dynlib_open(const char *soname, const struct dynlib_fn *fns, size_t n, void *table, size_t size,
		char *why, size_t why_size);
