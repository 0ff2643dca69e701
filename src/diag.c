/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Diagnostics list: collect located messages, print them in GNU style. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void diag_init(struct diag *d)
{
	memset(d, 0, sizeof(*d));
}

void diag_clear(struct diag *d)
{
	for (size_t i = 0; i < d->n_msgs; i++) {
		free(d->msgs[i].text);
		free(d->msgs[i].file);
	}
	free(d->msgs);
	diag_init(d);
}

void diag_vadd(struct diag *d, enum diag_severity sev, const struct src_loc *loc, const char *fmt,
	       va_list ap)
{
	struct diag_msg *m;
	char *text = NULL, *file = NULL;

	if (sev == DIAG_ERROR && d->n_errors++ >= DIAG_ERRORS_MAX)
		return;
	if (sev == DIAG_WARNING)
		d->n_warnings++;
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	/* Own the file name: messages outlive the profile that named it. */
	if (loc && loc->file)
		file = strdup(loc->file);
	m = reallocarray(d->msgs, d->n_msgs + 1, sizeof(*m));
	if (!m || (loc && loc->file && !file)) {
		if (m)
			d->msgs = m;
		free(text);
		free(file);
		d->n_errors++; /* fail closed even if the message is lost */
		return;
	}
	d->msgs = m;
	m[d->n_msgs++] = (struct diag_msg){
		.severity = sev,
		.loc = { .file = file, .line = loc ? loc->line : 0, .col = loc ? loc->col : 0 },
		.text = text,
		.file = file,
	};
}

void diag_add(struct diag *d, enum diag_severity sev, const struct src_loc *loc, const char *fmt,
	      ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(d, sev, loc, fmt, ap);
	va_end(ap);
}

static const char *const severity_names[] = {
	[DIAG_ERROR] = "error",
	[DIAG_WARNING] = "warning",
	[DIAG_NOTE] = "note",
	[DIAG_HINT] = "hint",
};

void diag_print(const struct diag *d, const char *prog, FILE *f)
{
	for (size_t i = 0; i < d->n_msgs; i++) {
		const struct diag_msg *m = &d->msgs[i];

		fprintf(f, "%s: ", prog);
		if (m->loc.file && m->loc.line && m->loc.col)
			fprintf(f, "%s:%u:%u: ", m->loc.file, m->loc.line, m->loc.col);
		else if (m->loc.file && m->loc.line)
			fprintf(f, "%s:%u: ", m->loc.file, m->loc.line);
		else if (m->loc.file)
			fprintf(f, "%s: ", m->loc.file);
		fprintf(f, "%s: %s\n", severity_names[m->severity],
			m->text ? m->text : "out of memory");
	}
	if (d->n_errors > DIAG_ERRORS_MAX)
		fprintf(f, "%s: %zu more errors not shown\n", prog, d->n_errors - DIAG_ERRORS_MAX);
}
