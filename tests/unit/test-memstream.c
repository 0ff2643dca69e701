/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of the memory streams: the text whole and NUL-terminated, ""
 * for nothing, and a write that could not grow the buffer failing the
 * whole text, even when every later write fits (glibc's open_memstream()
 * leaves a hole there and closes without an error).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "src/memstream.h"
#include "tests/tap.h"

/* A sanitizer owns realloc(): no failing it there (TAP_SANITIZED). */

static bool fail_realloc;

#ifndef TAP_SANITIZED
extern void *__libc_realloc(void *p, size_t n);

/* The stream grows its buffer with realloc(): this one fails on demand. */
void *realloc(void *p, size_t n)
{
	if (fail_realloc)
		return NULL;
	return __libc_realloc(p, n);
}
#endif

/* n lines "line I\n" to f; the text they make in want (room for it). */
static void lines(FILE *f, int from, int n, char *want)
{
	for (int i = from; i < from + n; i++) {
		fprintf(f, "line %d\n", i);
		if (want)
			want += sprintf(want, "line %d\n", i);
	}
}

int main(void)
{
	static char want[64 * 1024];
	char *text = want; /* memstream_open() must clear it */
	FILE *f = memstream_open(&text);

	tap_ok(f && !text, "a stream opens; its text is NULL until the close");
	lines(f, 0, 3000, want); /* past the first buffer and stdio's own */
	tap_is(memstream_close(f, &text), 0, "3000 lines: the close succeeds");
	tap_ok(text && strlen(text) == strlen(want) && !strcmp(text, want),
	       "... with the text whole and NUL-terminated");
	free(text);

	f = memstream_open(&text);
	tap_is(memstream_close(f, &text), 0, "nothing written: the close succeeds");
	tap_ok(text && !*text, "... with \"\", not NULL");
	free(text);

#ifdef TAP_SANITIZED
	tap_skip("failing realloc() under a sanitizer (the oom suite does it without)");
	return tap_done();
#endif
	f = memstream_open(&text);
	lines(f, 0, 100, NULL); /* 790 bytes in stdio's buffer, none in ours */
	fail_realloc = true;
	fflush(f); /* stdio hands them over: growing past 128 fails */
	fail_realloc = false;
	tap_ok(ferror(f), "a write the buffer could not grow for sets the error flag");
	lines(f, 2000, 10, NULL);
	fflush(f);
	tap_is(memstream_close(f, &text), -ENOMEM,
	       "later writes that fit do not clear it: the close says ENOMEM");
	tap_ok(!text, "... and hands out no text");
	return tap_done();
}
