/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dlopen() of a helper library and its function table (dynlib.h).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dynlib.h"

/* The last dl*() error into buf, kept: the next dl*() call frees it. */
static void dl_why(char *buf, size_t size)
{
	const char *e = dlerror();

	if (e)
		snprintf(buf, size, "%s", e);
}

int dynlib_open(const char *soname, const struct dynlib_fn *fns, size_t n, void *table, size_t size,
		char *why, size_t why_size)
{
	void *h, *first;

	memcpy(&first, (char *)table + fns[0].off, sizeof(first));
	if (first)
		return 0;
	snprintf(why, why_size, "not found");
	h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		dl_why(why, why_size);
		return -ENOENT;
	}
	for (size_t i = 0; i < n; i++) {
		void *f = dlsym(h, fns[i].symbol);

		if (!f) {
			dl_why(why, why_size); /* before dlclose(), which frees it */
			dlclose(h);
			memset(table, 0, size);
			return -ENOENT;
		}
		/* a function pointer from dlsym()'s void * (POSIX allows it) */
		memcpy((char *)table + fns[i].off, &f, sizeof(f));
	}
	return 0;
}
