/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A memory stream on fopencookie(). glibc's open_memstream() returns EOF
 * from a write it could not make room for without setting the stream's
 * error flag, so a later write that fits leaves a hole in the text and
 * nothing tells: a condition built that way could lose a term and still
 * parse. Here a write that cannot grow the buffer fails as a whole, the
 * stream's error flag and our own stay set, and the text is never handed
 * out.
 */
#include "memstream.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MEMSTREAM_FIRST 128 /* bytes: most texts are a line or two */

struct memstream {
	char *buf; /* len bytes of text and room for its NUL */
	size_t len, cap;
	bool failed;	 /* a write was lost: the text is cut short */
	char **ret_text; /* where the close puts the text */
};

static ssize_t ms_write(void *cookie, const char *data, size_t n)
{
	struct memstream *m = cookie;

	if (m->failed)
		goto fail;
	if (n >= m->cap - m->len) {
		size_t cap = m->cap;
		char *buf;

		while (n >= cap - m->len) {
			if (cap > SIZE_MAX / 2)
				goto fail;
			cap *= 2;
		}
		buf = realloc(m->buf, cap);
		if (!buf)
			goto fail;
		m->buf = buf;
		m->cap = cap;
	}
	memcpy(m->buf + m->len, data, n);
	m->len += n;
	return (ssize_t)n;
fail:
	m->failed = true;
	errno = ENOMEM;
	return -1;
}

/* Hands the text over, or frees it if a write was lost. */
static int ms_close(void *cookie)
{
	struct memstream *m = cookie;
	bool failed = m->failed;

	if (failed) {
		free(m->buf);
		*m->ret_text = NULL;
	} else {
		m->buf[m->len] = '\0';
		*m->ret_text = m->buf;
	}
	free(m);
	return failed ? -1 : 0;
}

FILE *memstream_open(char **ret_text)
{
	static const cookie_io_functions_t io = { .write = ms_write, .close = ms_close };
	struct memstream *m = calloc(1, sizeof(*m));
	FILE *f;

	*ret_text = NULL;
	if (!m)
		return NULL;
	m->buf = malloc(MEMSTREAM_FIRST);
	m->cap = MEMSTREAM_FIRST;
	m->ret_text = ret_text;
	f = m->buf ? fopencookie(m, "w", io) : NULL;
	if (!f) {
		free(m->buf);
		free(m);
	}
	return f;
}

int memstream_close(FILE *f, char **text)
{
	bool failed = ferror(f);

	if (fclose(f) == 0 && !failed && *text)
		return 0;
	free(*text);
	*text = NULL;
	return -ENOMEM;
}
