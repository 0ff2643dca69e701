/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* asprintf() for the profile tests: a test out of memory aborts. */
#pragma once

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	return s;
}
