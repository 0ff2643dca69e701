/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The inih adapter: opens a profile file (and, through profile_key(), its
 * includes), reads it one physical line at a time, refuses what inih would
 * silently misread, and hands inih only lines it reads the way
 * scmp-run.ini(5) FILE SYNTAX says. The only file that includes <ini.h>.
 *
 * What this file relies on in inih (checked against inih r55's ini.c and
 * Debian's libinih 55-1; meson pins inih >= 55 and measures the line buffer):
 *
 *  - Line buffer: ini_parse_stream() calls the reader once per line with
 *    num = its line buffer size (INI_MAX_LINE, 200 by default; Debian's
 *    "runtime options" patch reads the global ini_max_line instead, also
 *    200, and this program never changes it). With fgets(), a line longer
 *    than num - 2 bytes (plus "\n") is split in two without a word. The
 *    reader hands over exactly one physical line per call and refuses lines
 *    over PROFILE_LINE_MAX (num - 2, see the meson check), so inih's line
 *    number is the physical line number.
 *  - Lines are rstrip()ed and lskip()ed with isspace() (C locale: the reader
 *    refuses every control character but tab, so only ' ' and '\t' remain).
 *  - A line whose first character is in INI_START_COMMENT_PREFIXES (";#")
 *    or that is empty (strchr() finds the NUL) is a comment and does not
 *    end a continued value. The reader hands comments and blank lines over
 *    as "\n".
 *  - Continuation lines (INI_ALLOW_MULTILINE): after a key, a line that
 *    starts with whitespace calls the handler again with prev_name (cut to
 *    49 bytes; the handler ignores the name of a continuation). r55 does not
 *    remove inline comments from continuation lines: the reader does.
 *  - "[" starts a section header and resets prev_name. The reader parses
 *    headers itself and hands every header and every refused line over as
 *    "[]": the handler never uses inih's section argument (cut to 49 bytes),
 *    and no continuation attaches to a refused line.
 *  - Key lines: the first '=' or ':' separates name and value (':' as a
 *    concession to Python's configparser); an inline comment is a ';'
 *    (INI_INLINE_COMMENT_PREFIXES, '#' is not one) after whitespace, cut
 *    from the value; name and value are stripped of blanks. The reader
 *    refuses lines without a separator or with an empty name first.
 *  - INI_ALLOW_BOM skips a UTF-8 byte order mark on line 1; the reader
 *    strips it before classifying the line, so inih never sees one.
 *  - INI_STOP_ON_FIRST_ERROR is 0 and the handler always returns nonzero:
 *    parsing goes on, and inih's return value (its first error line) is
 *    reported as a plain syntax error, which the reader's own checks leave
 *    unreachable.
 *  - INI_HANDLER_LINENO is 0 (the four-argument handler).
 *  - With a heap buffer that may grow (INI_USE_STACK 0, INI_ALLOW_REALLOC),
 *    inih calls the reader again only for a line that fills the buffer
 *    without "\n": never for the reader's lines.
 */
#include "profile-internal.h"

#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "memstream.h"
#include "profile-path.h"

/* inih r55's find_chars_or_comment(s, "=:"): the first '=' or ':', or an
 * inline comment (';' after whitespace), or the end; isspace() of the C
 * locale (this program never sets another), without a call per character. */
static char *find_separator_or_comment(const char *s)
{
	bool was_space = false;

	for (;; s++) {
		char c = *s;

		if (!c || c == '=' || c == ':' || (was_space && c == ';'))
			return (char *)s;
		was_space = c == ' ' || (c >= '\t' && c <= '\r');
	}
}

/* The same without chars (find_chars_or_comment(s, NULL)): the inline
 * comment, or the end. */
static char *find_comment(const char *s)
{
	const char *semi;

	for (const char *from = s; (semi = strchr(from, ';')); from = semi + 1) {
		char c = semi > s ? semi[-1] : 'x';

		if (c == ' ' || (c >= '\t' && c <= '\r'))
			return (char *)semi;
	}
	return (char *)s + strlen(s);
}

/* No key pending any more; the texts stay in the loader's scratch arena,
 * the room for segments is kept for the next key. */
static void pending_clear(struct pending *pd)
{
	pd->active = false;
	pd->key = NULL;
	pd->n_segs = 0;
}

static void pending_free(struct pending *pd)
{
	free(pd->segs);
	*pd = (struct pending){ 0 };
}

/* Process the key collected so far, if any. */
static void flush_pending(struct frame *fr)
{
	if (!fr->pend.active)
		return;
	profile_key(fr, &fr->pend);
	pending_clear(&fr->pend);
}

/* inih handler: inih has split the line; we only collect it. */
static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct frame *fr = user;
	struct pending *pd = &fr->pend;
	struct seg *n;
	char *text;

	if (!fr->cur_cont) {
		flush_pending(fr);
		pd->active = true;
		pd->sect = fr->sect;
		pd->key = arena_strdup(&fr->l->scratch, name);
		if (!pd->key)
			goto oom;
	} else if (!pd->active) {
		return 1;
	}
	text = arena_strdup(&fr->l->scratch, value);
	if (!text)
		goto oom;
	n = array_grow(&pd->segs, &pd->n_segs, &pd->cap_segs, sizeof(*n));
	if (!n)
		goto oom;
	*n = (struct seg){ .line = fr->line, .text = text };
	/* the value's column, from where it lies in the line handed to inih */
	if (fr->hand_buf && value >= fr->hand_buf && value < fr->hand_buf + PROFILE_LINE_MAX + 2)
		n->col = (unsigned)(fr->hand_col + (size_t)(value - fr->hand_buf));
	return 1;
oom:
	pending_clear(pd);
	fr->l->oom = -ENOMEM;
	return 1;
}

/* "[name]": check the brackets, then let the key table name the section. */
static void section_header(struct frame *fr, char *s)
{
	struct loader *l = fr->l;
	struct src_loc loc;
	char *close = strchr(s, ']'), *name, *end, *tail;

	profile_loc(fr, fr->line, &loc);
	fr->sect = (struct section){ .kind = SECTION_BAD };
	if (!close) {
		diag_error(l->d, &loc, "section header without ']'");
		return;
	}
	tail = profile_skip_blanks(close + 1);
	if (*tail && *tail != ';') {
		diag_error(l->d, &loc, "trailing garbage after the section header: '%s'", tail);
		return;
	}
	*close = '\0';
	name = profile_skip_blanks(s + 1);
	for (end = name + strlen(name); end > name && profile_is_blank(end[-1]); end--)
		;
	*end = '\0';
	if (!*name) {
		diag_error(l->d, &loc, "empty section name");
		return;
	}
	profile_section_enter(fr, name, &loc);
}

/* Binary data: report it at the current line and read no further. */
static void refuse_binary(struct frame *fr, const struct src_loc *loc, int bad)
{
	if (bad == 0x100)
		diag_error(fr->l->d, loc, "NUL byte: this is not a text file");
	else
		diag_error(fr->l->d, loc, "control character 0x%02x: this is not a text file", bad);
	fr->stop = true;
	fr->l->cut_short = true;
}

/* 1 if the len bytes of buf are valid UTF-8 without a character that
 * utf8_hides_text(); else reports, stops reading, 0. Such a character
 * would let a reader see another profile than the one that is run: an
 * editor may show a NEL (U+0085) as a line end, an override as text in
 * another order (scmp-run.ini(5) FILE SYNTAX). */
static int check_utf8(struct frame *fr, const struct src_loc *loc, const char *buf, size_t len)
{
	for (size_t i = 0; i < len;) {
		uint64_t w;
		uint32_t cp = 0;
		size_t n;

		if (len - i >= 8) { /* eight ASCII bytes at once */
			memcpy(&w, buf + i, 8);
			if (!(w & UINT64_C(0x8080808080808080))) {
				i += 8;
				continue;
			}
		}
		if (!((unsigned char)buf[i] & 0x80)) { /* ASCII: one byte */
			i++;
			continue;
		}
		n = utf8_decode((const unsigned char *)buf + i, len - i, &cp);
		if (n && !utf8_hides_text(cp)) {
			i += n;
			continue;
		}
		if (!n)
			diag_error(fr->l->d, loc,
				   "invalid UTF-8 at byte %zu: this is not a text file", i + 1);
		else
			diag_error(fr->l->d, loc,
				   "character U+%04X at byte %zu: a control character, or one that "
				   "reorders or breaks lines on display",
				   (unsigned)cp, i + 1);
		fr->stop = true;
		fr->l->cut_short = true;
		return 0;
	}
	return 1;
}

/* Whether one of w's eight bytes is below 0x20 or is DEL. Exact as a yes
 * or no: a subtraction sets the high bit of a byte whose own high bit is
 * clear only if the byte is below the subtrahend (below 0x20, or zero:
 * DEL after the XOR) or a lower byte was and borrowed from it. */
static bool has_control_byte(uint64_t w)
{
	const uint64_t ones = UINT64_C(0x0101010101010101), highs = ones << 7;
	uint64_t del = w ^ (ones * 0x7f);

	return ((w - ones * 0x20) & ~w & highs) || ((del - ones) & ~del & highs);
}

/* Whether p[0..n) is plain text as far as read_line() cares: no control
 * character but tab, no DEL, and a CR only as the last byte. Eight bytes
 * at a time until a word holds a tab, a CR or worse; from there one by
 * one. Every physical line of every profile passes here. */
static bool is_plain(const char *p, size_t n)
{
	size_t i = 0;

	for (; n - i >= 8; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, 8);
		if (has_control_byte(w))
			break;
	}
	for (; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if ((c < 0x20 && c != '\t' && (c != '\r' || i + 1 < n)) || c == 0x7f)
			return false;
	}
	return true;
}

/* The next chunk of fr's file into fr->chunk: its size, 0 at the end or
 * after an error (fr->read_err). Plain read(2): the chunk is the only
 * buffer, and the end is remembered, not read again. */
static size_t fill(struct frame *fr)
{
	ssize_t n;

	if (fr->eof || fr->read_err)
		return 0;
	do
		n = read(fr->fd, fr->chunk, sizeof(fr->chunk));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		fr->read_err = errno;
	fr->eof = n == 0;
	return n > 0 ? (size_t)n : 0;
}

/*
 * Read one physical line into buf (PROFILE_LINE_MAX + 2 bytes; without "\n"
 * or "\r\n"). Returns 1 for a good line, 0 for a line refused with an error
 * (too long, not text), -1 at the end (or when reading must stop).
 */
static int read_line(struct frame *fr, char *buf, size_t *ret_len)
{
	struct loader *l = fr->l;
	struct src_loc loc;
	size_t len = 0, bytes = l->bytes;
	int last = 0, bad = 0;
	bool any = false;

	for (;;) {
		const char *p, *nl;
		size_t seg, take;
		bool seg_clean = false;

		if (fr->at == fr->end) {
			fr->at = 0;
			fr->end = fill(fr);
			if (!fr->end)
				break; /* the end, or an error */
		}
		p = fr->chunk + fr->at;
		nl = memchr(p, '\n', fr->end - fr->at);
		seg = nl ? (size_t)(nl - p) : fr->end - fr->at;
		take = seg + (nl != NULL);
		any = true;
		if (bytes + take > PROFILE_SIZE_MAX) {
			l->bytes = PROFILE_SIZE_MAX + 1;
			profile_loc(fr, fr->line + 1, &loc);
			diag_error(l->d, &loc, "profile too large: more than %u bytes in all files",
				   PROFILE_SIZE_MAX);
			l->abort = true;
			return -1;
		}
		bytes += take;
		fr->at += take;
		/* The first offence counts: a control character other than tab
		 * and CR, DEL, or a CR that is not the last character. Most
		 * pieces have none of them: a quick look first. */
		if (!bad && last != '\r' && is_plain(p, seg))
			seg_clean = true;
		for (size_t i = 0; i < seg && !bad && !seg_clean; i++) {
			unsigned char c = (unsigned char)p[i];

			if (last == '\r')
				bad = '\r';
			else if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
				bad = c ? c : 0x100;
			last = c;
		}
		if (seg)
			last = (unsigned char)p[seg - 1];
		if (len <= PROFILE_LINE_MAX)
			memcpy(buf + len, p,
			       seg < PROFILE_LINE_MAX + 1 - len ? seg : PROFILE_LINE_MAX + 1 - len);
		len += seg;
		if (nl)
			break;
	}
	l->bytes = bytes;
	if (fr->read_err) {
		profile_loc(fr, fr->line + 1, &loc);
		diag_error(l->d, &loc, "read error: %s", strerror(fr->read_err));
		return -1;
	}
	if (!any)
		return -1;
	buf[len <= PROFILE_LINE_MAX ? len : PROFILE_LINE_MAX + 1] = '\0';
	fr->line++;
	profile_loc(fr, fr->line, &loc);
	if (last == '\r')
		len--; /* CRLF: the CR is part of the line end */
	if (bad) {
		refuse_binary(fr, &loc, bad);
		return 0;
	}
	if (len > PROFILE_LINE_MAX) {
		diag_error(l->d, &loc, "line too long (%zu bytes, at most %d)", len,
			   PROFILE_LINE_MAX);
		return 0;
	}
	if (!check_utf8(fr, &loc, buf, len))
		return 0;
	buf[len] = '\0';
	*ret_len = len;
	return 1;
}

/* Hand inih a line that resets its previous key ("[]"): after a refused
 * line, continuation lines are dropped. */
static char *hand_reset(struct frame *fr, char *str, bool skip_cont)
{
	fr->has_key = false;
	fr->skip_cont = skip_cont;
	strcpy(str, "[]\n");
	return str;
}

/* Hand inih an empty line: a comment, or a line already dealt with. */
static char *hand_nothing(char *str)
{
	strcpy(str, "\n");
	return str;
}

/* Hand inih text and "\n" (text is at most PROFILE_LINE_MAX bytes, and
 * num at least PROFILE_LINE_MAX + 2: reader() checks). col: the column of
 * text's first byte on its physical line, for the handler's segments. */
static char *hand_text(struct frame *fr, char *str, int num, const char *text, size_t col)
{
	size_t n = strnlen(text, (size_t)num - 2);

	fr->hand_buf = str;
	fr->hand_col = col;
	memcpy(str, text, n);
	str[n] = '\n';
	str[n + 1] = '\0';
	return str;
}

/* A line that starts at start (line: the whole physical line) and is
 * neither blank, a comment, nor a continuation. */
static char *hand_line(struct frame *fr, char *str, int num, const char *line, char *start)
{
	struct src_loc loc;
	char *sep;

	flush_pending(fr);
	fr->skip_cont = false;
	if (*start == '[') {
		section_header(fr, start);
		return hand_reset(fr, str, false);
	}
	profile_loc(fr, fr->line, &loc);
	sep = find_separator_or_comment(start);
	if (*sep != '=' && *sep != ':') {
		diag_error(fr->l->d, &loc, "expected 'key = value', got '%s'", start);
		return hand_reset(fr, str, true);
	}
	if (sep == start) {
		diag_error(fr->l->d, &loc, "missing key name before '%c'", *sep);
		return hand_reset(fr, str, true);
	}
	fr->has_key = true;
	return hand_text(fr, str, num, start, (size_t)(start - line) + 1);
}

/* A "lint: allow ID..." comment (scmp-run.ini(5) LINT) at this line: one
 * record per ID. Any other comment is nobody's business. */
static void note_lint_comment(struct frame *fr, const char *text)
{
	struct profile *p = fr->l->p;
	const char *s = profile_skip_blanks(text), *e;
	struct src_loc loc;

	if (strncmp(s, "lint:", 5))
		return;
	profile_loc(fr, fr->line, &loc);
	s = profile_skip_blanks(s + 5);
	if (strncmp(s, "allow", 5) || !profile_is_blank(s[5])) {
		diag_warning(fr->l->d, &loc,
			     "lint comment not understood: write '; lint: allow ID...'");
		return;
	}
	for (s += 5;; s = e) {
		struct lint_allow *a;

		while (profile_is_blank(*s) || *s == ',')
			s++;
		if (!*s)
			break;
		for (e = s; *e && !profile_is_blank(*e) && *e != ','; e++)
			;
		a = array_grow(&p->lint_allows, &p->n_lint_allows, &p->cap_lint_allows, sizeof(*a));
		if (!a || !(a->id = strndup(s, (size_t)(e - s)))) {
			if (a)
				p->n_lint_allows--;
			fr->l->oom = -ENOMEM;
			return;
		}
		a->loc = loc;
	}
}

/*
 * The ini_reader: one physical line per call, never split. It mirrors
 * inih's classification of the line (comment, continuation, section, key)
 * to fix what r55 gets wrong: section headers and refused lines are handed
 * over as "[]" (which resets inih's notion of the previous key), inline
 * comments are cut from continuation lines (r55 keeps them).
 */
static char *reader(char *str, int num, void *stream)
{
	struct frame *fr = stream;
	struct loader *l = fr->l;
	char buf[PROFILE_LINE_MAX + 2], *s, *start, *comment;
	size_t len;
	int r;

	if (num < PROFILE_LINE_MAX + 2) {
		struct src_loc loc;

		profile_loc(fr, 0, &loc);
		diag_error(l->d, &loc, "the INI parser's line buffer is too small (%d)", num);
		return NULL;
	}
	fr->cur_cont = false;
	if (fr->stop || l->abort || l->oom)
		return NULL;
	r = read_line(fr, buf, &len);
	if (r < 0)
		return NULL;
	if (r == 0) {
		flush_pending(fr);
		/* A refused header: what follows belongs to an unknown section. */
		if (!fr->stop && *profile_skip_blanks(buf) == '[')
			fr->sect = (struct section){ .kind = SECTION_BAD };
		return hand_reset(fr, str, true);
	}
	s = buf;
	if (fr->line == 1 && !strncmp(s, "\xef\xbb\xbf", 3))
		s += 3; /* UTF-8 byte order mark */
	start = profile_skip_blanks(s);
	comment = *start == ';' || *start == '#' ? start : find_comment(start);
	if (*comment == ';' || *comment == '#')
		note_lint_comment(fr, comment + 1);
	if (!*start || *start == ';' || *start == '#')
		return hand_nothing(str);
	if (start == s || !(fr->has_key || fr->skip_cont))
		return hand_line(fr, str, num, buf, start);
	/* A continuation line. */
	if (fr->skip_cont)
		return hand_nothing(str);
	/* inih needs the indentation to see a continuation. */
	*comment = '\0';
	fr->cur_cont = true;
	return hand_text(fr, str, num, s, (size_t)(s - buf) + 1);
}

/* Report "include cycle: a -> b -> a" for path, first seen at frame a. */
static void report_cycle(struct loader *l, const struct frame *parent, const struct frame *a,
			 const char *path, const struct src_loc *where)
{
	const struct frame *stack[PROFILE_INCLUDE_DEPTH_MAX + 2];
	char *chain;
	size_t n = 0;
	FILE *m = memstream_open(&chain);

	for (const struct frame *b = parent; b && n < PROFILE_INCLUDE_DEPTH_MAX + 2;
	     b = b->parent) {
		stack[n++] = b;
		if (b == a)
			break;
	}
	if (m) {
		while (n--)
			fprintf(m, "%s -> ", stack[n]->path);
		fputs(path, m);
		memstream_close(m, &chain); /* NULL if it failed: the path alone */
	}
	diag_error(l->d, where, "include cycle: %s", chain ? chain : path);
	free(chain);
}

/* ---- trust (scmp-run(1) TRUST) ---- */

/* Remember what the trust check must look at: a file, a directory
 * searched (is_dir) or one on the way to the directory searched below
 * (is_dir). 0 or -ENOMEM. */
static int add_trust(struct loader *l, const char *path, const char *what, bool is_dir,
		     const char *below, const struct src_loc *loc, const struct stat *st)
{
	struct trust_rec *n = array_grow(&l->trust, &l->n_trust, &l->cap_trust, sizeof(*n));
	struct trust_rec t = {
		.path = strdup(path),
		.what = what ? strdup(what) : NULL,
		.below = below ? strdup(below) : NULL,
		.is_dir = is_dir,
		.loc = loc ? *loc : (struct src_loc){ 0 },
		.uid = st->st_uid,
		.mode = st->st_mode,
	};

	if (!n || !t.path || (what && !t.what) || (below && !t.below)) {
		if (n)
			l->n_trust--;
		free(t.path);
		free(t.what);
		free(t.below);
		l->oom = -ENOMEM;
		return -ENOMEM;
	}
	*n = t;
	return 0;
}

/* Why t is not trusted, or NULL: its owner is neither root nor the real
 * uid, or group or others may write it; on the way to a directory
 * searched, a sticky directory others may write is trusted, since only an
 * entry's owner can remove or rename it there (chmod(2)). */
static const char *untrusted(const struct loader *l, const struct trust_rec *t, char *buf,
			     size_t size)
{
	if (t->uid != 0 && t->uid != l->opts->uid) {
		snprintf(buf, size, "owned by uid %u, not by root or uid %u", (unsigned)t->uid,
			 (unsigned)l->opts->uid);
		return buf;
	}
	if (t->mode & (S_IWGRP | S_IWOTH) && !(t->below && t->mode & S_ISVTX)) {
		snprintf(buf, size, "writable by group or others (mode %04o)",
			 (unsigned)(t->mode & 07777));
		return buf;
	}
	return NULL;
}

static void report_untrusted(struct loader *l, const struct trust_rec *t, const char *why)
{
	struct src_loc loc = t->loc;

	if (!loc.file)
		loc = (struct src_loc){ .file = t->path };
	if (t->below && t->loc.file)
		diag_error(
			l->d, &loc,
			"untrusted directory '%s' on the way to '%s', searched for include '%s': "
			"%s",
			t->path, t->below, t->what, why);
	else if (t->below)
		diag_error(l->d, &loc,
			   "untrusted directory on the way to '%s', searched for profile '%s': %s",
			   t->below, t->what, why);
	else if (t->is_dir && t->loc.file)
		diag_error(l->d, &loc, "untrusted directory '%s' searched for include '%s': %s",
			   t->path, t->what, why);
	else if (t->is_dir)
		diag_error(l->d, &loc, "untrusted directory searched for profile '%s': %s", t->what,
			   why);
	else if (t->what)
		diag_error(l->d, &loc, "untrusted include '%s' (%s): %s", t->what, t->path, why);
	else
		diag_error(l->d, &loc, "untrusted profile: %s", why);
}

/*
 * The trust check of the record just added, at once when it applies from
 * the start (scmp-run runs as root, or with --user or --group): a file is
 * checked before anything is read from it, a directory before a NAME is
 * looked up in it. An untrusted file is thus never read, so no line of it
 * reaches a message and nothing it includes is opened with the privileges
 * the check protects. When only the profile itself switches credentials,
 * the check waits for the whole profile (profile_ini_check_trust()). 0, or
 * -EINVAL (reported).
 */
static int trust_now(struct loader *l)
{
	struct trust_rec *t = &l->trust[l->n_trust - 1];
	const char *why;
	char buf[96];

	if (!l->opts->trust)
		return 0;
	why = untrusted(l, t, buf, sizeof(buf));
	if (!why)
		return 0;
	report_untrusted(l, t, why);
	t->reported = true;
	return -EINVAL;
}

void profile_ini_check_trust(struct loader *l)
{
	const struct profile *p = l->p;
	bool bad = false;
	char buf[96];

	l->trust_done = (struct profile_trust){ .uid = l->opts->uid };
	if (!l->opts->trust && !(p && (p->has_user || p->has_group)))
		return;
	l->trust_done.why = l->opts->trust ? l->opts->trust : PROFILE_TRUST_CREDENTIALS;
	for (size_t i = 0; i < l->n_trust; i++) {
		const char *why = untrusted(l, &l->trust[i], buf, sizeof(buf));

		if (l->trust[i].below)
			l->trust_done.above++;
		else if (l->trust[i].is_dir)
			l->trust_done.dirs++;
		else
			l->trust_done.files++;

		if (why && !l->trust[i].reported)
			report_untrusted(l, &l->trust[i], why);
		bad |= why != NULL;
	}
	if (bad)
		diag_hint(l->d, NULL,
			  "as root, or when switching credentials, scmp-run reads only "
			  "profiles, includes and searched directories that root or uid %u owns "
			  "and that group and others cannot write",
			  (unsigned)l->opts->uid);
}

void profile_ini_free(struct loader *l)
{
	for (size_t i = 0; i < l->n_trust; i++) {
		free(l->trust[i].path);
		free(l->trust[i].what);
		free(l->trust[i].below);
	}
	free(l->trust);
	l->trust = NULL;
	l->n_trust = l->cap_trust = 0;
}

/* ---- opening a file ---- */

static const char *file_type(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

/* "cannot open ..." for the top file or an include. What the file holds is
 * not known, so no required key is reported missing after it. */
static void report_open(struct frame *fr, const char *written, const char *path,
			const struct src_loc *where, const char *why)
{
	fr->l->cut_short = true;
	if (fr->parent)
		diag_error(fr->l->d, where, "cannot open include '%s' (%s): %s", written, path,
			   why);
	else
		diag_error(fr->l->d, where, "cannot open profile: %s", why);
}

/* dir and name joined by one '/'; "" is no directory. NULL on ENOMEM. */
static char *join_path(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	char *p;

	if (!n)
		return strdup(name);
	if (asprintf(&p, "%s%s%s", dir, dir[n - 1] == '/' ? "" : "/", name) < 0)
		return NULL;
	return p;
}

/* The directory part of path ("" for none, "/" for the root); NULL on ENOMEM. */
static char *dir_part(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup("");
	return strndup(path, slash == path ? 1 : (size_t)(slash - path));
}

/*
 * Where relative includes of the file at path start: the directory of its
 * real path (symlinks resolved), spelt as path's own directory when that is
 * the same place, so that messages keep the names the user wrote. 0,
 * -ENOMEM, or -errno of realpath().
 */
static int include_dir(const char *path, char **ret)
{
	char *real = realpath(path, NULL), *real_dir = NULL, *dir = NULL, *dir_real = NULL;
	int r = -ENOMEM;

	*ret = NULL;
	if (!real)
		return errno == ENOMEM ? -ENOMEM : -errno;
	real_dir = dir_part(real);
	dir = dir_part(path);
	if (!real_dir || !dir)
		goto out;
	dir_real = realpath(*dir ? dir : ".", NULL);
	if (dir_real && !strcmp(dir_real, real_dir)) {
		*ret = dir;
		dir = NULL;
	} else {
		*ret = real_dir;
		real_dir = NULL;
	}
	r = 0;
out:
	free(real);
	free(real_dir);
	free(dir);
	free(dir_real);
	return r;
}

/* A file of the include chain seen again: a cycle. */
static bool check_cycle(struct frame *fr, const char *path, const struct src_loc *where)
{
	for (const struct frame *a = fr->parent; a; a = a->parent) {
		if (a->dev == fr->dev && a->ino == fr->ino) {
			report_cycle(fr->l, fr->parent, a, path, where);
			return false;
		}
	}
	return true;
}

/* Standard input as the top file (scmp-run(1) PROFILE LOOKUP, -p -): a
 * duplicate of descriptor 0, so that the command keeps its own. */
static int open_stdin(struct frame *fr, const struct src_loc *where, struct stat *st)
{
	int fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);

	if (fd < 0 || fstat(fd, st) < 0) {
		diag_error(fr->l->d, where, "cannot read standard input: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -EINVAL;
	}
	if (S_ISDIR(st->st_mode)) {
		diag_error(fr->l->d, where, "cannot read standard input: it is a directory");
		close(fd);
		return -EINVAL;
	}
	fr->is_stdin = true;
	fr->fd = fd;
	fr->inc_dir = strdup("");
	if (!fr->inc_dir) {
		fr->l->oom = -ENOMEM;
		return -ENOMEM;
	}
	return 0;
}

/*
 * Open path as a regular file (scmp-run.ini(5) [profile] include): refused
 * before it is opened when stat() says it is anything else, so that no
 * device is ever opened, and again after (the file may have been replaced
 * in between); O_NONBLOCK and O_NOCTTY so that the open itself can never
 * block or take a terminal. found (NULL unless path was found by NAME) is
 * the file found in a checked directory: the one opened must be that file,
 * not one of a directory put in that one's place since. A file that is no
 * symbolic link (lstat(), and the same file opened) lies in the directory
 * its path names: that is where its includes start, with nothing to
 * resolve. 0, -EINVAL (reported), -ENOMEM.
 */
static int open_regular(struct frame *fr, const char *written, const char *path,
			const struct src_loc *where, const struct stat *found, struct stat *st)
{
	struct stat lst = { .st_mode = S_IFLNK };
	char why[64];
	int fd = -1, r;

	if (lstat(path, &lst) == 0) {
		*st = lst;
		if ((!S_ISLNK(lst.st_mode) || stat(path, st) == 0) && !S_ISREG(st->st_mode))
			goto not_regular;
	}
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, st) < 0) {
		report_open(fr, written, path, where, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -EINVAL;
	}
	if (!S_ISREG(st->st_mode))
		goto not_regular;
	if (found && (found->st_dev != st->st_dev || found->st_ino != st->st_ino)) {
		close(fd);
		report_open(fr, written, path, where,
			    "the file was replaced after its directory was checked");
		return -EINVAL;
	}
	if (S_ISREG(lst.st_mode) && lst.st_dev == st->st_dev && lst.st_ino == st->st_ino)
		r = (fr->inc_dir = dir_part(path)) ? 0 : -ENOMEM;
	else
		r = include_dir(path, &fr->inc_dir);
	if (r < 0) {
		close(fd);
		if (r == -ENOMEM) {
			fr->l->oom = r;
			return r;
		}
		report_open(fr, written, path, where, strerror(-r));
		return -EINVAL;
	}
	fr->fd = fd;
	return 0;
not_regular:
	if (fd >= 0)
		close(fd);
	snprintf(why, sizeof(why), "%s, not a regular file", file_type(st->st_mode));
	report_open(fr, written, path, where, why);
	return -EINVAL;
}

/* Open the file of fr (path, or standard input for the top file of a
 * profile read from it): a regular file (found: see open_regular()), not
 * too large, not on the include chain; its owner and mode recorded for the
 * trust check. 0, -EINVAL (reported), -ENOMEM. */
static int open_file(struct frame *fr, const char *written, const char *path,
		     const struct src_loc *where, const struct stat *found, bool from_stdin)
{
	struct loader *l = fr->l;
	struct stat st;
	int r;

	r = from_stdin ? open_stdin(fr, where, &st)
		       : open_regular(fr, written, path, where, found, &st);
	if (r < 0)
		return r;
	if (S_ISREG(st.st_mode) && st.st_size > (off_t)PROFILE_SIZE_MAX) {
		diag_error(l->d, where, "'%s' is too large (%lld bytes, at most %u)", path,
			   (long long)st.st_size, PROFILE_SIZE_MAX);
		l->cut_short = true; /* not read: what it holds is not known */
		return -EINVAL;
	}
	fr->dev = st.st_dev;
	fr->ino = st.st_ino;
	if (!check_cycle(fr, path, where))
		return -EINVAL;
	/* Standard input is the caller's own choice, like an argument; a
	 * regular file behind it is checked like any profile file. */
	if (!S_ISREG(st.st_mode))
		return 0;
	r = add_trust(l, path, fr->parent ? written : NULL, false, NULL, fr->parent ? where : NULL,
		      &st);
	if (r == 0)
		r = trust_now(l);
	if (r == -EINVAL)
		l->cut_short = true; /* what it holds is not known */
	return r;
}

/* Read one file with inih: the top one (parent NULL, inc_loc NULL) or an
 * include written as "written" at inc_loc, opened as path (found: the file
 * find_named() found there, or NULL). 0 when the file was read (its errors
 * are in l->d), -EINVAL when it could not be opened or read (reported),
 * -ENOMEM. */
static int load_file(struct loader *l, const struct frame *parent, const char *written,
		     const char *path, const struct src_loc *inc_loc, const struct stat *found,
		     bool from_stdin)
{
	struct frame fr = { .l = l, .parent = parent, .fd = -1, .sect = { .kind = SECTION_NONE } };
	struct src_loc top = { 0 };
	const struct src_loc *where = inc_loc;
	int r;

	fr.path = ruleset_intern_file(l->p->rs, path);
	if (!fr.path) {
		l->oom = -ENOMEM;
		return -ENOMEM;
	}
	if (!where) {
		top.file = fr.path;
		where = &top;
	}
	fr.depth = parent ? parent->depth + 1 : 0;
	if (fr.depth > PROFILE_INCLUDE_DEPTH_MAX) {
		diag_error(l->d, where, "include '%s' nested too deep (at most %d levels)", written,
			   PROFILE_INCLUDE_DEPTH_MAX);
		l->cut_short = true; /* not read: what it holds is not known */
		return -EINVAL;
	}
	r = open_file(&fr, written, path, where, found, from_stdin);
	if (r == 0) {
		r = ini_parse_stream(reader, &fr, handler, &fr);
		flush_pending(&fr);
		if (r > 0) {
			struct src_loc loc;

			profile_loc(&fr, (unsigned)r, &loc);
			diag_error(l->d, &loc, "syntax error");
		}
		r = 0;
	}
	pending_free(&fr.pend);
	if (fr.fd >= 0)
		close(fr.fd);
	free(fr.inc_dir);
	return r;
}

/* ---- lookup by NAME ---- */

struct visit_ctx {
	struct loader *l;
	const char *name;
	const struct src_loc *where; /* the include line; NULL for -p NAME */
};

/* Whether dir is recorded already as a directory on the way to one
 * searched: every directory of the search path starts at "/". */
static bool above_recorded(const struct loader *l, const char *dir)
{
	for (size_t i = 0; i < l->n_trust; i++)
		if (l->trust[i].below && !strcmp(l->trust[i].path, dir))
			return true;
	return false;
}

/* A directory searched for a NAME (below NULL), or one on the way to the
 * directory below, open at dfd, just before an entry of it is looked up
 * (one that does not exist is not visited: it cannot give a file):
 * recorded for the trust check as that descriptor shows it; an untrusted
 * one stops the search when the check applies at once (trust_now()). A
 * negative dfd: dir cannot be searched, and why. 0, -EACCES (reported) or
 * -ENOMEM. */
static int visit_dir(const char *dir, int dfd, const char *below, void *ctx)
{
	struct visit_ctx *v = ctx;
	struct stat st;

	if (below && above_recorded(v->l, dir))
		return 0;
	if (dfd < 0 || fstat(dfd, &st) < 0) {
		diag_error(v->l->d, v->where, "cannot look in directory '%s' for '%s': %s", dir,
			   v->name, strerror(dfd < 0 ? -dfd : errno));
		return -EACCES;
	}
	if (add_trust(v->l, dir, v->name, true, below, v->where, &st) < 0)
		return -ENOMEM;
	return trust_now(v->l) < 0 ? -EACCES : 0;
}

/* The path of the profile NAME and in *ret_st the file found there, or
 * NULL with *ret_err: -ENOENT (not found, reported), -EINVAL (a directory
 * searched is untrusted, reported) or -ENOMEM (l->oom set). */
static char *find_named(struct loader *l, const char *name, const struct src_loc *where,
			int *ret_err, struct stat *ret_st)
{
	struct visit_ctx v = { .l = l, .name = name, .where = where };
	const struct profile_opts *o = l->opts;
	char *path =
		profile_find_visit(name, o->search_path, o->installed_dir, visit_dir, &v, ret_st);

	*ret_err = path ? 0 : errno == ENOMEM ? -ENOMEM : errno == EACCES ? -EINVAL : -ENOENT;
	if (*ret_err == -ENOMEM)
		l->oom = -ENOMEM;
	if (path || *ret_err != -ENOENT)
		return path;
	if (where)
		diag_error(l->d, where, "include '%s': no profile of that name", name);
	else
		diag_error(l->d, NULL, "profile '%s' not found", name);
	diag_hint(l->d, where, "looked in $SCMP_RUN_PROFILE_PATH, " PROFILE_SYSCONF_DIR "%s%s; %s",
		  o->installed_dir ? " and " : "", o->installed_dir ? o->installed_dir : "",
		  where ? "a file beside this one is written with '.ini' or a '/'"
			: "never in the current directory: write './NAME' for a file there; "
			  "'scmp-run --list-profiles' lists the names");
	return NULL;
}

int profile_ini_load_top(struct loader *l, const char *what)
{
	struct stat found;
	char *path;
	int r;

	switch (l->opts->source) {
	case PROFILE_FROM_STDIN:
		return load_file(l, NULL, PROFILE_STDIN_NAME, PROFILE_STDIN_NAME, NULL, NULL, true);
	case PROFILE_FROM_NAME:
		path = find_named(l, what, NULL, &r, &found);
		if (!path)
			return r;
		r = load_file(l, NULL, path, path, NULL, &found, false);
		free(path);
		return r;
	default:
		return load_file(l, NULL, what, what, NULL, NULL, false);
	}
}

/* An include with a '/' or ending in ".ini" is a path (scmp-run.ini(5)
 * [profile] include); anything else is a NAME. */
static bool include_is_path(const char *value)
{
	size_t n = strlen(value);

	return profile_is_path(value) || (n >= 4 && !strcmp(value + n - 4, ".ini"));
}

int profile_ini_include(struct frame *fr, const char *value, const struct src_loc *loc)
{
	struct loader *l = fr->l;
	struct stat st, *found = NULL;
	char *path;
	int r;

	if (!include_is_path(value)) {
		path = find_named(l, value, loc, &r, &st);
		found = &st;
	} else if (value[0] == '/') {
		path = strdup(value);
	} else if (fr->is_stdin || fr->is_cmdline) {
		l->cut_short = true; /* not read: what it holds is not known */
		diag_error(l->d, loc,
			   "include '%s': a relative path has no directory to start from %s; "
			   "use a NAME or an absolute path",
			   value,
			   fr->is_stdin ? "in a profile read from standard input" : "in --set");
		return 0;
	} else {
		path = join_path(fr->inc_dir, value);
	}
	if (!path) {
		/* not found, or an untrusted directory: reported, and not read */
		l->cut_short = true;
		if (!include_is_path(value))
			return l->oom ? -ENOMEM : 0;
		l->oom = -ENOMEM;
		return -ENOMEM;
	}
	r = load_file(l, fr, value, path, loc, found, false);
	free(path);
	return r == -ENOMEM ? r : 0; /* its errors are reported */
}

int profile_locate(const char *what, const struct profile_opts *opts, struct diag *d,
		   char **ret_path, struct profile_trust *ret_trust)
{
	struct loader l = { .opts = opts, .d = d, .errors = d->n_errors };
	const struct src_loc *where;
	struct src_loc at = { 0 };
	struct stat st;
	char *path;
	int r = 0;

	*ret_path = NULL;
	if (opts->source == PROFILE_FROM_NAME) {
		/* st: the file as found in the checked directory; the OCI
		 * reader refuses another one put at path since */
		path = find_named(&l, what, NULL, &r, &st);
	} else {
		path = strdup(what);
		r = path ? 0 : -ENOMEM;
	}
	if (!path) {
		if (r == -EINVAL) /* an untrusted directory: the hint */
			profile_ini_check_trust(&l);
		profile_ini_free(&l);
		return r;
	}
	at.file = path;
	where = &at;
	/* The OCI reader opens the file itself (O_NONBLOCK, and it refuses
	 * anything but a regular file again after the open). */
	if (opts->source != PROFILE_FROM_NAME && stat(path, &st) < 0) {
		diag_error(d, where, "cannot open profile: %s", strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		diag_error(d, where, "cannot open profile: %s, not a regular file",
			   file_type(st.st_mode));
	} else {
		r = add_trust(&l, path, NULL, false, NULL, NULL, &st);
		if (r == 0)
			profile_ini_check_trust(&l);
	}
	profile_ini_free(&l);
	if (r == 0 && d->n_errors != l.errors)
		r = -EINVAL;
	if (r < 0) {
		free(path);
		return r;
	}
	*ret_path = path;
	*ret_trust = l.trust_done;
	ret_trust->dev = st.st_dev;
	ret_trust->ino = st.st_ino;
	return 0;
}
