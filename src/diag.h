/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Diagnostics: a list of located messages (error, warning, note, hint) that
 * the core collects and main.c prints. Never prints by itself, never exits.
 */
#pragma once

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#define DIAG_ERRORS_MAX 50 /* errors kept per pass; later ones are only counted */

enum diag_severity {
	DIAG_ERROR,
	DIAG_WARNING,
	DIAG_NOTE,
	DIAG_HINT,
};

/* A source location. file is borrowed (rulesets intern their file names);
 * diagnostics keep a copy. line 0 means "whole file" or none; col 0 means
 * no column (INI profiles), else the character column (JSON profiles). */
struct src_loc {
	const char *file;
	unsigned line;
	unsigned col;
};

struct diag_msg {
	enum diag_severity severity;
	struct src_loc loc; /* loc.file may be NULL: message without location */
	char *text;
	char *file; /* owned copy that loc.file points at */
};

struct diag {
	struct diag_msg *msgs;
	size_t n_msgs;
	size_t n_errors; /* all errors, including those over DIAG_ERRORS_MAX */
	size_t n_warnings;
};

void diag_init(struct diag *d);
/* Frees every message; the struct itself is the caller's. */
void diag_clear(struct diag *d);

/* Append a message. loc may be NULL. Allocation failure is recorded as an
 * error without text so that a pass still fails closed. */
void diag_add(struct diag *d, enum diag_severity sev, const struct src_loc *loc, const char *fmt,
	      ...) __attribute__((format(printf, 4, 5)));

/* The same with a va_list, for functions that add a location of their own. */
void diag_vadd(struct diag *d, enum diag_severity sev, const struct src_loc *loc, const char *fmt,
	       va_list ap) __attribute__((format(printf, 4, 0)));

#define diag_error(d, loc, ...)	  diag_add((d), DIAG_ERROR, (loc), __VA_ARGS__)
#define diag_warning(d, loc, ...) diag_add((d), DIAG_WARNING, (loc), __VA_ARGS__)
#define diag_note(d, loc, ...)	  diag_add((d), DIAG_NOTE, (loc), __VA_ARGS__)
#define diag_hint(d, loc, ...)	  diag_add((d), DIAG_HINT, (loc), __VA_ARGS__)

static inline bool diag_failed(const struct diag *d)
{
	return d->n_errors > 0;
}

/* Print every message as "PROG: FILE:LINE[:COL]: SEVERITY: TEXT" to f, then a
 * line "PROG: N more errors not shown" if the cap was hit. */
#include <stdio.h>
void diag_print(const struct diag *d, const char *prog, FILE *f);
