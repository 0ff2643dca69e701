/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The lines of /proc/PID/status read in pieces (proc-status.h).
 */
#include "proc-status.h"

int proc_status_feed(struct proc_status_lines *s, const char *text, size_t n,
		     int (*fn)(void *ctx, const char *line, size_t len), void *ctx)
{
	for (size_t i = 0; i < n; i++) {
		size_t len = s->len;
		int r;

		if (text[i] != '\n') {
			if (len < sizeof(s->line) - 1)
				s->line[len] = text[i];
			s->len++;
			continue;
		}
		s->len = 0;
		if (len >= sizeof(s->line) - 1)
			continue; /* too long for any line asked for */
		s->line[len] = 0;
		r = fn(ctx, s->line, len);
		if (r)
			return r;
	}
	return 0;
}
