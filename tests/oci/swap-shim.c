/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Preloaded into scmp-run by test-errors.sh: at the first open() of the
 * path SCMP_TEST_SWAP_TO, renames SCMP_TEST_SWAP_FROM over it, as someone
 * who may write the directory could between the trust check of a profile
 * and its reading. Deterministic where the real race is not. */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int swapped;

static void maybe_swap(const char *path)
{
	const char *to = getenv("SCMP_TEST_SWAP_TO"), *from = getenv("SCMP_TEST_SWAP_FROM");

	if (!swapped && to && from && !strcmp(path, to)) {
		swapped = 1;
		rename(from, to);
	}
}

static int real_open(const char *name, const char *path, int flags, mode_t mode)
{
	void *sym = dlsym(RTLD_NEXT, name);
	int (*f)(const char *, int, ...);

	if (!sym)
		return -1;
	memcpy(&f, &sym, sizeof(f)); /* POSIX allows it; ISO C has no cast for it */
	return f(path, flags, mode);
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	va_start(ap, flags);
	if (flags & (O_CREAT | O_TMPFILE))
		mode = va_arg(ap, mode_t);
	va_end(ap);
	maybe_swap(path);
	/* built like scmp-run (_FILE_OFFSET_BITS=64): the symbol is open64 */
	return real_open("open64", path, flags, mode);
}
