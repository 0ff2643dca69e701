/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of diagnostics: counting, owned copies of file names, the cap
 * on kept errors, and the exact printed form.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/diag.h"
#include "tests/tap.h"

/* A sanitizer owns vasprintf(): no failing it there (TAP_SANITIZED). */

#ifndef TAP_SANITIZED
static bool fail_vasprintf;

extern int __vasprintf_chk(char **p, int flag, const char *fmt, va_list ap);

/* diag_vadd() formats with vasprintf(): this one fails on demand. */
int vasprintf(char **p, const char *fmt, va_list ap)
{
	if (fail_vasprintf)
		return -1;
	return __vasprintf_chk(p, 0, fmt, ap);
}
#endif

/* What diag_print() writes (malloc'ed). */
static char *printed(const struct diag *d)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		abort();
	diag_print(d, "prog", f);
	fclose(f);
	return buf;
}

/* A wrapper that adds its own location, as the OCI loader's do. */
__attribute__((format(printf, 2, 3))) static void error_at_line_9(struct diag *d, const char *fmt,
								  ...)
{
	const struct src_loc at = { .file = "b.json", .line = 9, .col = 4 };
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(d, DIAG_ERROR, &at, fmt, ap);
	va_end(ap);
}

static void test_vadd(void)
{
	struct diag d;
	char *out;

	diag_init(&d);
	error_at_line_9(&d, "unknown op '%s'", "SCMP_CMP_XX");
	out = printed(&d);
	tap_ok(diag_failed(&d) &&
		       !strcmp(out, "prog: b.json:9:4: error: unknown op 'SCMP_CMP_XX'\n"),
	       "diag_vadd: a va_list message with a column");
	free(out);
	diag_clear(&d);
}

static void test_forms(void)
{
	struct diag d;
	char file[] = "a.ini";
	struct src_loc at = { .file = file, .line = 7 }, whole = { .file = file };
	struct src_loc col = { .file = file, .line = 3, .col = 12 };
	char *out;

	diag_init(&d);
	tap_ok(!diag_failed(&d) && d.n_msgs == 0, "init: empty, not failed");
	diag_warning(&d, &at, "dup '%s'", "read");
	tap_ok(!diag_failed(&d) && d.n_warnings == 1, "a warning does not fail a pass");
	diag_error(&d, &whole, "bad file");
	diag_note(&d, NULL, "%d notes", 2);
	diag_hint(&d, &at, "try this");
	diag_error(&d, &col, "bad value");
	tap_ok(diag_failed(&d) && d.n_errors == 2 && d.n_msgs == 5, "an error fails it");
	file[0] = 'X'; /* the caller's buffer changes: messages kept their own copy */
	out = printed(&d);
	tap_ok(!strcmp(out, "prog: a.ini:7: warning: dup 'read'\n"
			    "prog: a.ini: error: bad file\n"
			    "prog: note: 2 notes\n"
			    "prog: a.ini:7: hint: try this\n"
			    "prog: a.ini:3:12: error: bad value\n"),
	       "print: FILE:LINE, FILE alone, no location, FILE:LINE:COLUMN; severities");
	free(out);
	diag_clear(&d);
	tap_ok(d.n_msgs == 0 && d.n_errors == 0 && d.n_warnings == 0 && !d.msgs,
	       "clear: back to empty");
	out = printed(&d);
	tap_ok(!strcmp(out, ""), "print: nothing for no messages");
	free(out);
}

static void test_cap(void)
{
	struct diag d;
	char *out, *last;

	diag_init(&d);
	for (int i = 0; i < DIAG_ERRORS_MAX + 10; i++)
		diag_error(&d, NULL, "error %d", i);
	diag_warning(&d, NULL, "still kept");
	tap_ok(d.n_errors == DIAG_ERRORS_MAX + 10 && d.n_msgs == DIAG_ERRORS_MAX + 1,
	       "errors over the cap are counted, not kept (%zu errors, %zu messages)", d.n_errors,
	       d.n_msgs);
	out = printed(&d);
	last = strrchr(out, '\n');
	while (last > out && last[-1] != '\n')
		last--;
	tap_ok(strstr(out, "error 49\n") && !strstr(out, "error 50\n") &&
		       !strcmp(last, "prog: 10 more errors not shown\n"),
	       "print: the kept errors, then how many more");
	free(out);
	diag_clear(&d);
}

static void escaped(const char *in, const char *want, const char *what)
{
	char *got = diag_escape(in);

	if (!tap_ok(got && !strcmp(got, want), "escape: %s", what))
		tap_diag("got '%s', want '%s'", got ? got : "(null)", want);
	free(got);
}

/* scmp-run(1) DIAGNOSTICS: nothing a user wrote reaches a terminal as a
 * control sequence or as text that reorders the rest of the line. */
static void test_escape(void)
{
	struct diag d;
	char *out;

	escaped("plain 'read' 42", "plain 'read' 42", "plain text is kept");
	escaped("caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac", "other UTF-8 is kept");
	escaped("a\tb\nc\rd", "a\\tb\\nc\\rd", "tab, newline, CR");
	escaped("\x1b[31mred", "\\x1b[31mred", "ESC (C0)");
	escaped("x\x7fy", "x\\x7fy", "DEL");
	escaped("back\\slash", "back\\\\slash",
		"a backslash is doubled: the escapes stay unambiguous");
	escaped("\xc2\x80 \xc2\x9b \xc2\x9f \xc2\xa0", "\\u0080 \\u009b \\u009f \xc2\xa0",
		"C1 controls U+0080..U+009F, not U+00A0");
	escaped("a\xe2\x80\xae"
		"b",
		"a\\u202eb", "RIGHT-TO-LEFT OVERRIDE");
	escaped("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad", "\\u202a\\u202b\\u202c\\u202d",
		"embeddings, PDF, LRO");
	escaped("\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9", "\\u2066\\u2067\\u2068\\u2069",
		"isolates U+2066..U+2069");
	escaped("\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c\xe2\x80\xa8", "\\u200e\\u200f\\u061c\\u2028",
		"marks and the line separator");
	escaped("\xe2\x81\xa5", "\xe2\x81\xa5", "U+2065 (unassigned, not a control) is kept");
	escaped("\xff\xfe", "\\xff\\xfe", "bytes that are not UTF-8");
	escaped("\xc0\xaf", "\\xc0\\xaf", "an overlong sequence");
	escaped("\xed\xa0\x80", "\\xed\\xa0\\x80", "a surrogate");
	escaped("\xe2\x80", "\\xe2\\x80", "a sequence cut short");
	escaped("", "", "the empty string");

	/* Every message is kept escaped, its file name too. */
	diag_init(&d);
	{
		struct src_loc at = { .file = "evil\xe2\x80\xae.ini", .line = 3 };

		diag_error(&d, &at, "unknown key '%s'",
			   "k\xc2\x9b"
			   "2J");
	}
	out = printed(&d);
	tap_ok(!strcmp(out, "prog: evil\\u202e.ini:3: error: unknown key 'k\\u009b2J'\n"),
	       "diag_add(): the text and the file name are escaped");
	free(out);
	diag_clear(&d);
}

/* src_loc_format(): escaped into the caller's buffer, nothing allocated;
 * what does not fit is left out whole (an escape, a character, the line). */
static void located(const char *file, unsigned line, size_t size, const char *want,
		    const char *what)
{
	const struct src_loc at = { .file = file, .line = line };
	char buf[64];
	const char *got = src_loc_format(&at, buf, size);

	if (!tap_ok(got == buf && !strcmp(got, want), "src_loc_format: %s", what))
		tap_diag("got '%s', want '%s'", got, want);
}

static void test_located(void)
{
	located("a/b.ini", 12, 64, "a/b.ini:12", "FILE:LINE");
	located("built-in:tty-injection", 0, 64, "built-in:tty-injection", "no line: FILE");
	located("evil\xe2\x80\xae.ini", 3, 64, "evil\\u202e.ini:3", "the file name escaped");
	located("abc\x1b", 7, 6, "abc", "an escape that does not fit is left out whole");
	located("caf\xc3\xa9", 0, 5, "caf", "so is a character");
	located("abc", 1234, 6, "abc", "and a line number: never a shorter one");
	located("abc", 5, 6, "abc:5", "what fits with its NUL is kept");
}

/* diag_oom(): "out of memory" for a -ENOMEM nobody explained, once. */
static void test_oom(void)
{
	struct diag d;

	diag_init(&d);
	tap_ok(diag_oom(&d, 0, -ENOMEM) == -ENOMEM && d.n_errors == 1 && d.n_msgs == 1 &&
		       !strcmp(d.msgs[0].text, "out of memory"),
	       "diag_oom: -ENOMEM with nothing said: 'out of memory'");
	tap_ok(diag_oom(&d, 0, -ENOMEM) == -ENOMEM && d.n_errors == 1,
	       "diag_oom: an error said since: nothing added");
	tap_ok(diag_oom(&d, 1, -EINVAL) == -EINVAL && diag_oom(&d, 1, 0) == 0 && d.n_errors == 1,
	       "diag_oom: other results pass through");
	diag_clear(&d);
}

/* A warning whose text cannot be made is an error: printed as "out of
 * memory", and counted so that the mode fails. */
static void test_lost_text(void)
{
#ifdef TAP_SANITIZED
	tap_skip("a sanitizer build: vasprintf() cannot be failed");
	tap_skip("a sanitizer build: vasprintf() cannot be failed");
#else
	struct diag d;
	char *out;

	diag_init(&d);
	fail_vasprintf = true;
	diag_warning(&d, NULL, "a warning of %d words", 5);
	fail_vasprintf = false;
	tap_ok(d.n_errors == 1 && d.n_warnings == 0,
	       "a warning lost for memory: counted as an error, not a warning");
	out = printed(&d);
	tap_ok(out && !strcmp(out, "prog: error: out of memory\n"),
	       "... and printed as an error: 'out of memory'");
	free(out);
	diag_clear(&d);
#endif
}

int main(void)
{
	test_forms();
	test_oom();
	test_vadd();
	test_cap();
	test_escape();
	test_located();
	test_lost_text();
	return tap_done();
}
