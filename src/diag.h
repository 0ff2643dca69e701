/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Diagnostics: a list of located messages (error, warning, note, hint) that
 * the core collects and main.c prints. Never prints by itself, never exits.
 */
#pragma once

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

/* The length of the valid UTF-8 sequence at s (n > 0 bytes left), its code
 * point in *ret_cp; 0 for an invalid sequence (overlong, surrogate, over
 * U+10FFFF, cut short). The one UTF-8 check: what a profile may contain and
 * what a message may show agree. */
size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *ret_cp);

/* Whether code point cp moves or hides text on a terminal or in an
 * editor: a C1 control, a bidirectional override, embedding, isolate or
 * mark, a line or paragraph separator. A message shows it escaped; a
 * profile may not contain it (scmp-run.ini(5) FILE SYNTAX). */
bool utf8_hides_text(uint32_t cp);

/* "FILE:LINE", or "FILE" alone when line is 0 ("built-in:tty-injection"),
 * into buf, with FILE escaped as by diag_fputs_escaped(); returns buf. It
 * allocates nothing, so it cannot fail: what does not fit is left out,
 * never part of an escape or a character. */
const char *src_loc_format(const struct src_loc *loc, char *buf, size_t size);

void diag_init(struct diag *d);
/* Frees every message; the struct itself is the caller's. */
void diag_clear(struct diag *d);

/* Append a message. loc may be NULL. The text and the file name are kept
 * escaped (diag_escape()): a quoted user string, such as a line of an
 * included file, can never reach a terminal verbatim. Allocation failure is
 * recorded as an error without text so that a pass still fails closed. */
void diag_add(struct diag *d, enum diag_severity sev, const struct src_loc *loc, const char *fmt,
	      ...) __attribute__((format(printf, 4, 5)));

/* The same with a va_list, for functions that add a location of their own. */
void diag_vadd(struct diag *d, enum diag_severity sev, const struct src_loc *loc, const char *fmt,
	       va_list ap) __attribute__((format(printf, 4, 0)));

/* Each line of text (lines ended by '\n', as a describing function writes
 * them into a memory stream) as one note at loc. */
void diag_note_lines(struct diag *d, const struct src_loc *loc, const char *text);

#define diag_error(d, loc, ...)	  diag_add((d), DIAG_ERROR, (loc), __VA_ARGS__)
#define diag_warning(d, loc, ...) diag_add((d), DIAG_WARNING, (loc), __VA_ARGS__)
#define diag_note(d, loc, ...)	  diag_add((d), DIAG_NOTE, (loc), __VA_ARGS__)
#define diag_hint(d, loc, ...)	  diag_add((d), DIAG_HINT, (loc), __VA_ARGS__)

/* r, unchanged. When r is -ENOMEM and no error was added since d held
 * errors_before, "out of memory" is added first: a step that ran out of
 * memory deep down returns -ENOMEM without a message, and every failure
 * must say why. */
int diag_oom(struct diag *d, size_t errors_before, int r);

static inline bool diag_failed(const struct diag *d)
{
	return d->n_errors > 0;
}

/*
 * Write s to f with everything that could change how a terminal shows the
 * rest escaped (scmp-run(1) DIAGNOSTICS): control characters (C0, DEL) and
 * bytes that are not UTF-8 as \xNN (tab, newline and carriage return as \t,
 * \n, \r), a backslash as \\, the C1 controls U+0080..U+009F and the
 * bidirectional and line controls (U+061C, U+200E, U+200F, U+2028..U+202E,
 * U+2066..U+2069) as \uNNNN. Everything else, including other UTF-8, is
 * written as it is. Returns 0, or -EIO if writing failed. The one escaping
 * function: every user string that leaves the program through a message or
 * a summary goes through it.
 */
int diag_fputs_escaped(const char *s, FILE *f);

/* The same into a malloc'ed string; NULL when out of memory. */
char *diag_escape(const char *s);

/* A process name as a report line or an explained audit record shows it,
 * in parentheses: escaped as above, and its ')' written \x29 as well, so
 * that the name ends at the first ')' and cannot put a rule or an action
 * of its choosing after it (scmp-run(1) FINDING WHAT WAS DENIED).
 * malloc'ed; NULL when out of memory. */
char *diag_escape_name(const char *s);

/* The same written to f, allocating nothing. Returns 0 or -EIO. */
int diag_fputs_escaped_name(const char *s, FILE *f);

/* Print every message as "PROG: FILE:LINE[:COL]: SEVERITY: TEXT" to f, then a
 * line "PROG: N more errors not shown" if the cap was hit. */
void diag_print(const struct diag *d, const char *prog, FILE *f);
