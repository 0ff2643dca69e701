/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * JSON for the OCI modules: jansson parses and validates; a position index
 * built afterwards over the (then known valid) text records where each
 * value and key starts, keyed by JSON pointer.
 */
#include "oci-json.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dynlib.h"

void ojson_path_key(char *buf, const char *base, const char *key)
{
	size_t n;

	/* an invalid base stays invalid; buf may be base */
	if (base[0] == OJSON_PATH_INVALID[0] || strlen(base) >= OJSON_PATH_MAX) {
		strcpy(buf, OJSON_PATH_INVALID);
		return;
	}
	if (buf != base)
		strcpy(buf, base);
	n = strlen(buf);
	buf[n++] = '/';
	for (const char *k = key; *k; k++) {
		if (n + 3 > OJSON_PATH_MAX) {
			/* never a truncated path: it could name another value */
			strcpy(buf, OJSON_PATH_INVALID);
			return;
		}
		if (*k == '~' || *k == '/') {
			buf[n++] = '~';
			buf[n++] = *k == '~' ? '0' : '1';
		} else {
			buf[n++] = *k;
		}
	}
	buf[n] = '\0';
}

void ojson_path_index(char *buf, const char *base, size_t index)
{
	char num[24];

	snprintf(num, sizeof(num), "%zu", index);
	ojson_path_key(buf, base, num); /* digits need no escaping */
}

/* ---- the position index ---- */

struct scan {
	struct ojson *j;
	size_t i;
	unsigned line, col;
	size_t cap;
	int err;
	unsigned depth;		      /* containers open at sc->i */
	unsigned deep_line, deep_col; /* where OJSON_DEPTH_MAX was passed (err -E2BIG) */
};

static void adv(struct scan *sc)
{
	unsigned char c = (unsigned char)sc->j->text[sc->i++];

	if (c == '\n') {
		sc->line++;
		sc->col = 1;
	} else if ((c & 0xc0) != 0x80) { /* columns count characters, not bytes */
		sc->col++;
	}
}

static char peek(const struct scan *sc)
{
	return sc->i < sc->j->len ? sc->j->text[sc->i] : '\0';
}

static void skip_ws(struct scan *sc)
{
	while (sc->i < sc->j->len && strchr(" \t\r\n", peek(sc)))
		adv(sc);
}

static void skip_string(struct scan *sc)
{
	adv(sc); /* opening quote */
	while (sc->i < sc->j->len && peek(sc) != '"') {
		if (peek(sc) == '\\')
			adv(sc);
		if (sc->i < sc->j->len)
			adv(sc);
	}
	if (sc->i < sc->j->len)
		adv(sc);
}

static struct ojson_pos *add_pos(struct scan *sc, const char *path, unsigned kl, unsigned kc)
{
	struct ojson *j = sc->j;
	struct ojson_pos *p;

	if (j->n_pos == sc->cap) {
		size_t cap = sc->cap ? sc->cap * 2 : 64;

		p = reallocarray(j->pos, cap, sizeof(*p));
		if (!p)
			return NULL;
		j->pos = p;
		sc->cap = cap;
	}
	p = &j->pos[j->n_pos];
	*p = (struct ojson_pos){
		.path = strdup(path),
		.off = sc->i,
		.line = sc->line,
		.col = sc->col,
		.key_line = kl,
		.key_col = kc,
	};
	if (!p->path)
		return NULL;
	j->n_pos++;
	return p;
}

/* Index the value at sc->i. The text is valid JSON (jansson said so): any
 * surprise is an internal error, never a guess. Each level of nesting is a
 * frame of this recursion (with a path buffer): more than OJSON_DEPTH_MAX
 * is refused, -E2BIG, rather than run out of stack (jansson itself takes
 * 2048 levels). */
static void scan_value(struct scan *sc, const char *path, unsigned kl, unsigned kc)
{
	char child[OJSON_PATH_MAX];
	size_t slot;
	char c;

	skip_ws(sc);
	if (sc->err)
		return;
	/* the value of an invalid (too long) path is scanned, not recorded */
	slot = path[0] == OJSON_PATH_INVALID[0] ? SIZE_MAX : sc->j->n_pos;
	if (slot != SIZE_MAX && !add_pos(sc, path, kl, kc)) {
		sc->err = -ENOMEM;
		return;
	}
	c = peek(sc);
	if ((c == '{' || c == '[') && sc->depth == OJSON_DEPTH_MAX) {
		sc->err = -E2BIG;
		sc->deep_line = sc->line;
		sc->deep_col = sc->col;
		return;
	}
	if (c == '{' || c == '[') {
		char close = c == '{' ? '}' : ']';
		size_t index = 0;

		sc->depth++;
		adv(sc);
		skip_ws(sc);
		if (peek(sc) == close) {
			adv(sc);
			sc->depth--;
			goto done;
		}
		for (;;) {
			skip_ws(sc);
			if (c == '{') {
				size_t koff = sc->i;
				unsigned line = sc->line, col = sc->col;
				json_t *key;

				if (peek(sc) != '"') {
					sc->err = -EINVAL;
					return;
				}
				skip_string(sc);
				/* jansson decodes the key token: escapes mean what it says */
				key = json_loadb(sc->j->text + koff, sc->i - koff, JSON_DECODE_ANY,
						 NULL);
				if (!json_is_string(key)) {
					json_decref(key);
					sc->err = -EINVAL;
					return;
				}
				ojson_path_key(child, path, json_string_value(key));
				json_decref(key);
				skip_ws(sc);
				if (peek(sc) != ':') {
					sc->err = -EINVAL;
					return;
				}
				adv(sc);
				scan_value(sc, child, line, col);
			} else {
				ojson_path_index(child, path, index++);
				scan_value(sc, child, 0, 0);
			}
			if (sc->err)
				return;
			skip_ws(sc);
			if (peek(sc) == ',') {
				adv(sc);
				continue;
			}
			if (peek(sc) != close) {
				sc->err = -EINVAL;
				return;
			}
			adv(sc);
			break;
		}
		sc->depth--;
	} else if (c == '"') {
		skip_string(sc);
	} else {
		while (sc->i < sc->j->len && !strchr(",]} \t\r\n", peek(sc)))
			adv(sc);
	}
done:
	if (slot != SIZE_MAX)
		sc->j->pos[slot].end = sc->i;
}

static int cmp_pos(const void *a, const void *b)
{
	return strcmp(((const struct ojson_pos *)a)->path, ((const struct ojson_pos *)b)->path);
}

static const struct ojson_pos *find_pos(const struct ojson *j, const char *path)
{
	struct ojson_pos key = { .path = (char *)path };

	return j->n_pos ? bsearch(&key, j->pos, j->n_pos, sizeof(*j->pos), cmp_pos) : NULL;
}

/* ---- loading ---- */

static int read_all(const char *path, size_t max, const struct ojson_file_id *same, struct diag *d,
		    const struct src_loc *where, char **ret, size_t *ret_len)
{
	/* Never block on a FIFO nor take a terminal (scmp-run(1) PROFILE LOOKUP). */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	struct stat st = { 0 }; /* if fstat() fails: "not a regular file" */
	char *buf = NULL;
	size_t len = 0;
	int r = -EINVAL;

	if (!f) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		diag_error(d, where, "cannot open profile: %s", strerror(e));
		return -EINVAL;
	}
	if (fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode)) {
		diag_error(d, where, "cannot read '%s': %s", path,
			   S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
		goto out;
	}
	if (same && (st.st_dev != same->dev || st.st_ino != same->ino)) {
		diag_error(d, where,
			   "'%s' is another file than the one checked a moment before: it was "
			   "replaced meanwhile",
			   path);
		goto out;
	}
	if ((unsigned long long)st.st_size > max) {
		diag_error(d, where, "'%s' is too large (%lld bytes, at most %zu)", path,
			   (long long)st.st_size, max);
		goto out;
	}
	buf = malloc(max + 1);
	if (!buf) {
		r = -ENOMEM;
		goto out;
	}
	len = fread(buf, 1, max + 1, f);
	if (ferror(f) || len > max) {
		diag_error(d, where, "cannot read '%s': %s", path,
			   len > max ? "file grew while reading" : strerror(errno));
		free(buf);
		buf = NULL;
		goto out;
	}
	buf[len] = '\0';
	*ret = buf;
	*ret_len = len;
	r = 0;
out:
	fclose(f);
	return r;
}

#if SCMP_RUN_JANSSON_DLOPEN
struct ojson_jansson ojson_jansson;

void ojson_decref(json_t *json)
{
	if (json && json->refcount != (size_t)-1 && JSON_INTERNAL_DECREF(json) == 0)
		ojson_jansson.delete_value(json);
}

/* Open jansson and fill ojson_jansson, once (see oci-json.h). 0, or
 * -ENOENT with an error at where. */
static int jansson_open(struct diag *d, const struct src_loc *where)
{
	static const struct dynlib_fn fns[] = {
#define FN(field, name) { name, offsetof(struct ojson_jansson, field) }
		FN(loadb, "json_loadb"),
		FN(object_get, "json_object_get"),
		FN(string_value, "json_string_value"),
		FN(array_size, "json_array_size"),
		FN(array_get, "json_array_get"),
		FN(object_iter, "json_object_iter"),
		FN(object_iter_next, "json_object_iter_next"),
		FN(object_iter_key, "json_object_iter_key"),
		FN(object_iter_value, "json_object_iter_value"),
		FN(object_key_to_iter, "json_object_key_to_iter"),
		FN(delete_value, "json_delete"),
#undef FN
	};
	char why[256];

	if (dynlib_open(SCMP_RUN_JANSSON_SONAME, fns, sizeof(fns) / sizeof(fns[0]), &ojson_jansson,
			sizeof(ojson_jansson), why, sizeof(why)) < 0) {
		diag_error(d, where, "reading JSON needs %s: %s", SCMP_RUN_JANSSON_SONAME, why);
		diag_hint(d, NULL, "install jansson (Debian: libjansson4)");
		return -ENOENT;
	}
	return 0;
}
#endif

int ojson_load(const char *path, const char *file, size_t max, const struct ojson_file_id *same,
	       struct diag *d, struct ojson *ret)
{
	struct src_loc where = { .file = file };
	struct scan sc = { .j = ret, .line = 1, .col = 1 };
	json_error_t err;
	int r;

	memset(ret, 0, sizeof(*ret));
	ret->file = file;
	ret->d = d;
#if SCMP_RUN_JANSSON_DLOPEN
	r = jansson_open(d, &where);
	if (r < 0)
		return r;
#endif
	r = read_all(path, max, same, d, &where, &ret->text, &ret->len);
	if (r < 0)
		return r;
	/* Integers as reals: jansson's integers are signed 64-bit, OCI values
	 * are unsigned 64-bit; ojson_uint() reads the exact token instead. */
	ret->root = json_loadb(ret->text, ret->len,
			       JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &err);
	if (!ret->root) {
		struct src_loc at = { .file = file,
				      .line = err.line > 0 ? (unsigned)err.line : 0,
				      .col = err.column > 0 ? (unsigned)err.column : 0 };

		diag_error(d, &at, "invalid JSON: %s", err.text);
		return -EINVAL;
	}
	if (!json_is_object(ret->root)) {
		where.line = 1;
		where.col = 1;
		diag_error(d, &where, "an OCI seccomp profile is a JSON object");
		return -EINVAL;
	}
	scan_value(&sc, "", 0, 0);
	if (sc.err == -E2BIG) {
		where.line = sc.deep_line;
		where.col = sc.deep_col;
		diag_error(d, &where, "JSON nested deeper than %d levels (an OCI profile needs 5)",
			   OJSON_DEPTH_MAX);
		return -EINVAL;
	}
	if (sc.err) {
		diag_error(d, &where, "internal error: cannot index the JSON text (%s)",
			   strerror(-sc.err));
		return sc.err;
	}
	qsort(ret->pos, ret->n_pos, sizeof(*ret->pos), cmp_pos);
	return 0;
}

void ojson_free(struct ojson *j)
{
	json_decref(j->root);
	for (size_t i = 0; i < j->n_pos; i++)
		free(j->pos[i].path);
	free(j->pos);
	free(j->text);
	memset(j, 0, sizeof(*j));
}

void ojson_loc(const struct ojson *j, const char *path, bool key, struct src_loc *ret)
{
	const struct ojson_pos *p = find_pos(j, path);

	*ret = (struct src_loc){ .file = j->file };
	if (!p)
		return;
	ret->line = key && p->key_line ? p->key_line : p->line;
	ret->col = key && p->key_line ? p->key_col : p->col;
}

/* The exact unsigned integer at path, read from the token text. */
static int read_uint(const struct ojson *j, const char *path, const char *what, uint64_t max,
		     uint64_t *ret)
{
	const struct ojson_pos *p = find_pos(j, path);
	struct diag *d = j->d;
	struct src_loc at;
	uint64_t v = 0;
	size_t i;

	ojson_loc(j, path, false, &at);
	if (!p || p->end <= p->off) {
		diag_error(d, &at, "internal error: no position for '%s'", what);
		return -EINVAL;
	}
	for (i = p->off; i < p->end; i++) {
		unsigned digit = (unsigned char)j->text[i] - '0';

		if (digit > 9)
			break;
		if (v > (UINT64_MAX - digit) / 10) {
			diag_error(d, &at, "'%s' is out of range (at most %llu)", what,
				   (unsigned long long)max);
			return -EINVAL;
		}
		v = v * 10 + digit;
	}
	if (i == p->off || i != p->end) {
		diag_error(d, &at, "'%s' must be a non-negative integer, not '%.*s'", what,
			   (int)(p->end - p->off > 40 ? 40 : p->end - p->off), j->text + p->off);
		return -EINVAL;
	}
	if (v > max) {
		diag_error(d, &at, "'%s' is out of range: %llu (at most %llu)", what,
			   (unsigned long long)v, (unsigned long long)max);
		return -EINVAL;
	}
	*ret = v;
	return 0;
}

/* ---- accessors ---- */

void ojson_error(const struct ojson *j, const char *path, const char *fmt, ...)
{
	struct src_loc at;
	va_list ap;

	ojson_loc(j, path, false, &at);
	va_start(ap, fmt);
	diag_vadd(j->d, DIAG_ERROR, &at, fmt, ap);
	va_end(ap);
}

void ojson_check_fields(const struct ojson *j, const char *path, json_t *obj, const char *what,
			const char *const *allowed)
{
	const char *key;
	json_t *v;

	json_object_foreach(obj, key, v)
	{
		const char *const *a = allowed;
		char p[OJSON_PATH_MAX];
		struct src_loc at;

		while (*a && strcmp(*a, key))
			a++;
		if (*a)
			continue;
		ojson_path_key(p, path, key);
		ojson_loc(j, p, true, &at);
		diag_error(j->d, &at, "unknown field '%s' in %s", key, what);
	}
}

const char *ojson_get_string(const struct ojson *j, const char *path, json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	char p[OJSON_PATH_MAX];

	if (!v)
		return NULL;
	if (!json_is_string(v)) {
		ojson_path_key(p, path, key);
		ojson_error(j, p, "'%s' must be a string", key);
		return NULL;
	}
	return json_string_value(v);
}

json_t *ojson_get_array(const struct ojson *j, const char *path, json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	char p[OJSON_PATH_MAX];

	if (!v || json_is_null(v))
		return NULL;
	if (!json_is_array(v)) {
		ojson_path_key(p, path, key);
		ojson_error(j, p, "'%s' must be an array", key);
		return NULL;
	}
	return v;
}

int ojson_get_uint(const struct ojson *j, const char *path, json_t *obj, const char *key,
		   uint64_t max, bool *has, uint64_t *ret)
{
	json_t *v = json_object_get(obj, key);
	char p[OJSON_PATH_MAX];

	*has = false;
	*ret = 0;
	if (!v || json_is_null(v))
		return 0;
	ojson_path_key(p, path, key);
	if (!json_is_number(v)) {
		ojson_error(j, p, "'%s' must be a non-negative integer", key);
		return -EINVAL;
	}
	if (read_uint(j, p, key, max, ret) < 0)
		return -EINVAL;
	*has = true;
	return 0;
}
