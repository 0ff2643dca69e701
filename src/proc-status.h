/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The lines of /proc/PID/status, read in pieces: the text has no size
 * bound (Groups: lists up to 65536 supplementary groups), so a line may lie
 * beyond any buffer of one read(2).
 */
#pragma once

#include <stddef.h>

#define PROC_STATUS_LINE_MAX 48 /* bytes of a line handed on; longer ones are skipped */

/* The line being read across pieces; zero it before the first piece. */
struct proc_status_lines {
	char line[PROC_STATUS_LINE_MAX];
	size_t len; /* bytes of the line so far, those that did not fit too */
};

/*
 * Hand each line of text[0..n) that ends there and fits
 * PROC_STATUS_LINE_MAX to fn, NUL-terminated and without its '\n'; a line
 * not ended yet carries over to the next piece. Stops at fn's first
 * nonzero return value and returns it; 0 when every line was handed on.
 */
int proc_status_feed(struct proc_status_lines *s, const char *text, size_t n,
		     int (*fn)(void *ctx, const char *line, size_t len), void *ctx);
