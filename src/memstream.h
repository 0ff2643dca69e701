/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Text built in memory with stdio: a stream whose lost write is an error
 * that stays (glibc's open_memstream() can lose one silently). */
#ifndef SCMP_RUN_MEMSTREAM_H
#define SCMP_RUN_MEMSTREAM_H

#include <stdio.h>

/* A stream writing into memory, or NULL (out of memory). Its text reaches
 * *ret_text when memstream_close() closes it, not before; *ret_text is
 * NULL until then. */
FILE *memstream_open(char **ret_text);

/* Close f, a stream of memstream_open() on text: 0 with the text in *text
 * (NUL-terminated, "" when nothing was written; the caller frees it), or
 * -ENOMEM with *text NULL when any write to f failed. */
int memstream_close(FILE *f, char **text);

#endif
