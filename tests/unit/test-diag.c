/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of diagnostics: counting, owned copies of file names, the cap
 * on kept errors, and the exact printed form.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/diag.h"
#include "tests/tap.h"

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
	tap_ok(diag_failed(&d) && !strcmp(out, "prog: b.json:9:4: error: unknown op 'SCMP_CMP_XX'\n"),
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

int main(void)
{
	test_forms();
	test_vadd();
	test_cap();
	return tap_done();
}
