/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Conditions (scmp-run.ini(5) CONDITIONS): the parse tree of
 * "fd == 1 || fd >= 3 && fd <= 9". Syntax only: argument names, constants
 * and widths are resolved per ABI by policy_build().
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define COND_SET_MAX 256 /* values in one "in { }" set */

enum cmp_op {
	CMP_EQ,
	CMP_NE,
	CMP_LT,
	CMP_LE,
	CMP_GT,
	CMP_GE,
	CMP_MASKED_EQ, /* (arg & mask) == value */
	CMP_MASKED_NE, /* (arg & mask) != value */
	CMP_IN,	       /* arg in { values } */
	CMP_NOT_IN,    /* arg not in { values } */
};

/* Where a comparison or a term begins in a condition joined from several
 * lines (cond_parse_lines()), for the messages of what the parser cannot
 * check (an unknown name, a value too wide); line 0 for a condition on one
 * line, which its key's line locates. col 0: not known. */
struct cond_at {
	uint32_t line;
	uint16_t col; /* physical lines are short (scmp-run.ini(5)) */
};

/* One term of a value: an integer literal or a constant name. */
struct term {
	char *name;   /* constant name (owned), or NULL for a literal */
	uint64_t lit; /* magnitude of the literal */
	bool neg;     /* literal written with a leading '-' */
	struct cond_at at;
};

/* A value: the bitwise OR of its terms. */
struct value {
	struct term *terms;
	size_t n_terms;
};

struct cmp {
	int arg;     /* 0..5, or -1 when given by parameter name */
	char *param; /* parameter name (owned) when arg == -1 */
	enum cmp_op op;
	struct value mask;    /* CMP_MASKED_* only */
	struct value *values; /* one value, or the set for CMP_IN / CMP_NOT_IN */
	size_t n_values;
	struct cond_at at; /* of the argument's name */
};

/* Comparisons joined by "&&". */
struct conj {
	struct cmp *cmps;
	size_t n_cmps;
};

/* Conjunctions joined by "||": each one becomes a rule of its own. */
struct cond {
	struct conj *conjs;
	size_t n_conjs;
};

/*
 * Parse a condition. On success returns 0 and fills *ret (free with
 * cond_free()). On a syntax error returns -EINVAL and sets *ret_err to a
 * malloc'ed message naming the offending token (caller frees); *ret is
 * then empty. -ENOMEM on allocation failure.
 */
int cond_parse(const char *text, struct cond *ret, char **ret_err);

struct arena;

/* cond_parse() with the tree in arena a (arena.h), which owns it: never
 * free it with cond_free(); it lives until arena_free(a). The error
 * message is malloc'ed all the same. */
int cond_parse_in(const char *text, struct arena *a, struct cond *ret, char **ret_err);

/* Where the physical lines joined into a condition's text begin: line
 * line[i] (its text from column col[i], 0 if not known) starts at byte
 * start[i] of the text; start[0] is 0. */
struct cond_lines {
	size_t n;
	const size_t *start;
	const unsigned *line;
	const unsigned *col;
};

/* cond_parse_in() of a text joined from lines: an error names the line
 * and column of its token ("at line 6, column 10"), not its column in the
 * joined text. */
int cond_parse_lines(const char *text, struct arena *a, const struct cond_lines *lines,
		     struct cond *ret, char **ret_err);

void cond_free(struct cond *c);
void conj_free(struct conj *c);

/* Deep copy of a conjunction; 0 or -ENOMEM. */
int conj_copy(struct conj *dst, const struct conj *src);

/* Deep copy of a conjunction into arena a, which owns it (never
 * conj_free() it); 0 or -ENOMEM (what was copied stays in a). */
int conj_copy_in(struct arena *a, struct conj *dst, const struct conj *src);

/* Print a conjunction back in the profile syntax (for PFC comments). */
#include <stdio.h>
void conj_print(const struct conj *c, FILE *f);
