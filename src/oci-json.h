/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * JSON documents for the OCI modules: parsed by jansson, plus an index of
 * where every value and key sits in the text (jansson keeps no positions),
 * so that semantic errors are located as FILE:LINE:COLUMN; and accessors
 * for object members that report a wrong type at the member.
 */
#pragma once

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "config.h"
#include "diag.h"

#if SCMP_RUN_JANSSON_DLOPEN
/*
 * jansson is not linked: ojson_load() opens it with dlopen() when a JSON
 * document is first read, so that a launch with an INI profile does not
 * map it (docs/performance.md, Launch). Its functions are called through
 * this table, which ojson_load() fills before anything is parsed; these
 * names, and those inside jansson's iteration macros, resolve to it.
 */
struct ojson_jansson {
	json_t *(*loadb)(const char *buffer, size_t buflen, size_t flags, json_error_t *error);
	json_t *(*object_get)(const json_t *object, const char *key);
	const char *(*string_value)(const json_t *string);
	size_t (*array_size)(const json_t *array);
	json_t *(*array_get)(const json_t *array, size_t index);
	void *(*object_iter)(json_t *object);
	void *(*object_iter_next)(json_t *object, void *iter);
	const char *(*object_iter_key)(void *iter);
	json_t *(*object_iter_value)(void *iter);
	void *(*object_key_to_iter)(const char *key);
	void (*delete_value)(json_t *json);
};

extern struct ojson_jansson ojson_jansson;

/* jansson's json_decref(), calling json_delete() through the table. */
void ojson_decref(json_t *json);

#define json_loadb		ojson_jansson.loadb
#define json_object_get		ojson_jansson.object_get
#define json_string_value	ojson_jansson.string_value
#define json_array_size		ojson_jansson.array_size
#define json_array_get		ojson_jansson.array_get
#define json_object_iter	ojson_jansson.object_iter
#define json_object_iter_next	ojson_jansson.object_iter_next
#define json_object_iter_key	ojson_jansson.object_iter_key
#define json_object_iter_value	ojson_jansson.object_iter_value
#define json_object_key_to_iter ojson_jansson.object_key_to_iter
#define json_decref		ojson_decref
#endif

#define OJSON_PATH_MAX	256 /* bytes of a JSON pointer built by the OCI loader */
#define OJSON_DEPTH_MAX 32  /* nested objects and arrays; an OCI profile uses 5 */

/* Where one value sits: byte range of its token and its line/column (the
 * column counts characters, as jansson's error column does); for an object
 * member also the position of its key. */
struct ojson_pos {
	char *path; /* JSON pointer (RFC 6901): "/syscalls/3/args/0/op"; "" is the root */
	size_t off, end;
	unsigned line, col;
	unsigned key_line, key_col; /* 0 when the value is not an object member */
};

struct ojson {
	json_t *root;
	char *text; /* the file as read, NUL-terminated */
	size_t len;
	const char *file; /* borrowed: the name locations carry */
	struct diag *d;	  /* borrowed: where the accessors below report */
	struct ojson_pos *pos;
	size_t n_pos;
};

/* A file by its device and inode, as stat(2) gives them. */
struct ojson_file_id {
	dev_t dev;
	ino_t ino;
};

/*
 * Read and parse a JSON file (at most max bytes, regular files only; with
 * same not NULL, only the file it names: another one now at path is an
 * error). file is the name put in locations (borrowed; must outlive j). Syntax errors
 * (jansson's, with line and column), duplicate keys and a top level that
 * is not an object are reported to d, and so is every error of the
 * accessors below (d must outlive j). Returns 0 or a negative errno.
 */
int ojson_load(const char *path, const char *file, size_t max, const struct ojson_file_id *same,
	       struct diag *d, struct ojson *ret);
void ojson_free(struct ojson *j);

/* The location of the value at JSON pointer path (of its key when key is
 * true and the value is an object member). Falls back to the file alone. */
void ojson_loc(const struct ojson *j, const char *path, bool key, struct src_loc *ret);

/* An error at the value at JSON pointer path (the file alone if there is
 * none). */
void ojson_error(const struct ojson *j, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* An error for each member of the object obj at path that allowed (NULL-
 * terminated) does not name, at its key: "unknown field 'K' in WHAT". */
void ojson_check_fields(const struct ojson *j, const char *path, json_t *obj, const char *what,
			const char *const *allowed);

/* The member key of the object obj at path: a string (NULL when absent, or
 * with an error when it is not a string), an array (NULL when absent or
 * null, or with an error when it is not an array). */
const char *ojson_get_string(const struct ojson *j, const char *path, json_t *obj, const char *key);
json_t *ojson_get_array(const struct ojson *j, const char *path, json_t *obj, const char *key);

/*
 * The member key of obj as an exact unsigned integer <= max (jansson holds
 * integers as signed 64-bit; the token text is read instead, so 0..2^64-1
 * all work); *has is false when it is absent or null. Errors (not a number,
 * negative, fraction or exponent, over max) are reported at the member.
 * Returns 0 or -EINVAL.
 */
int ojson_get_uint(const struct ojson *j, const char *path, json_t *obj, const char *key,
		   uint64_t max, bool *has, uint64_t *ret);

/* A path too long for OJSON_PATH_MAX: it names no value (never a truncated
 * path, which could name another one), so lookups fail closed. */
#define OJSON_PATH_INVALID "\x7f"

/* Append "/KEY" (escaped as RFC 6901 says) or "/INDEX" to the pointer base,
 * into buf of size OJSON_PATH_MAX (buf may be base); OJSON_PATH_INVALID if
 * it does not fit or base is invalid. */
void ojson_path_key(char *buf, const char *base, const char *key);
void ojson_path_index(char *buf, const char *base, size_t index);
