/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Diagnostics list: collect located messages, print them in GNU style. */
#include "diag.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "memstream.h"

size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *ret_cp)
{
	static const uint32_t min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t len;
	uint32_t cp;

	if (s[0] < 0x80) {
		*ret_cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	cp = s[0] & (0x7f >> len);
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	*ret_cp = cp;
	return len;
}

bool utf8_hides_text(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Where escape() writes: a stream, or else buf, filled while a whole piece
 * fits (and its NUL): a cut never splits an escape or a UTF-8 sequence. */
struct sink {
	FILE *f;
	char *buf;
	size_t size, len;
	bool full;
};

static void put(struct sink *k, const void *piece, size_t n)
{
	if (k->f) {
		fwrite(piece, 1, n, k->f);
		return;
	}
	if (k->full || n >= k->size - k->len) {
		k->full = true;
		return;
	}
	memcpy(k->buf + k->len, piece, n);
	k->len += n;
	k->buf[k->len] = '\0';
}

/* s escaped (diag_fputs_escaped() says how) into k; with name, also ')'
 * (diag_escape_name()). */
static void escape(const char *s, struct sink *k, bool name)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s);

	for (size_t i = 0; i < n;) {
		char esc[8];
		uint32_t cp;
		size_t len = utf8_decode(u + i, n - i, &cp);

		if (!len) {
			put(k, esc, (size_t)snprintf(esc, sizeof(esc), "\\x%02x", u[i]));
			i++;
			continue;
		}
		if (cp == '\\')
			put(k, "\\\\", 2);
		else if (cp == ')' && name)
			put(k, "\\x29", 4);
		else if (cp == '\t')
			put(k, "\\t", 2);
		else if (cp == '\n')
			put(k, "\\n", 2);
		else if (cp == '\r')
			put(k, "\\r", 2);
		else if (cp < 0x20 || cp == 0x7f)
			put(k, esc, (size_t)snprintf(esc, sizeof(esc), "\\x%02x", (unsigned)cp));
		else if (utf8_hides_text(cp))
			put(k, esc, (size_t)snprintf(esc, sizeof(esc), "\\u%04x", (unsigned)cp));
		else
			put(k, u + i, len);
		i += len;
	}
}

/* s escaped to f, with ')' or without. */
static int fputs_escaped(const char *s, FILE *f, bool name)
{
	struct sink k = { .f = f };

	escape(s, &k, name);
	return ferror(f) ? -EIO : 0;
}

int diag_fputs_escaped(const char *s, FILE *f)
{
	return fputs_escaped(s, f, false);
}

int diag_fputs_escaped_name(const char *s, FILE *f)
{
	return fputs_escaped(s, f, true);
}

/* s escaped into a malloc'ed string, with ')' or without. */
static char *escape_to_string(const char *s, bool name)
{
	char *buf;
	FILE *m = memstream_open(&buf);
	int r;

	if (!m)
		return NULL;
	r = fputs_escaped(s, m, name);
	if (memstream_close(m, &buf) < 0 || r < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

char *diag_escape(const char *s)
{
	return escape_to_string(s, false);
}

char *diag_escape_name(const char *s)
{
	return escape_to_string(s, true);
}

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
	if (vasprintf(&text, fmt, ap) >= 0) {
		char *raw = text;

		text = diag_escape(raw);
		free(raw);
	} else {
		text = NULL;
	}
	/* A message lost for memory is printed as "out of memory", an error
	 * whatever it was: fail closed, as below, not a warning and status 0. */
	if (!text && sev != DIAG_ERROR) {
		d->n_warnings -= sev == DIAG_WARNING;
		d->n_errors++;
		sev = DIAG_ERROR;
	}
	/* Own the file name: messages outlive the profile that named it. */
	if (loc && loc->file)
		file = diag_escape(loc->file);
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

int diag_oom(struct diag *d, size_t errors_before, int r)
{
	if (r == -ENOMEM && d->n_errors == errors_before)
		diag_error(d, NULL, "out of memory");
	return r;
}

void diag_note_lines(struct diag *d, const struct src_loc *loc, const char *text)
{
	for (const char *line = text; *line;) {
		const char *end = strchrnul(line, '\n');

		diag_note(d, loc, "%.*s", (int)(end - line), line);
		line = *end ? end + 1 : end;
	}
}

const char *src_loc_format(const struct src_loc *loc, char *buf, size_t size)
{
	/* The file name may come from a profile (an include): escaped. */
	struct sink k = { .buf = buf, .size = size };
	char line[16];

	if (!size)
		return buf;
	buf[0] = '\0';
	escape(loc->file ? loc->file : "", &k, false);
	if (loc->line)
		put(&k, line, (size_t)snprintf(line, sizeof(line), ":%u", loc->line));
	return buf;
}
