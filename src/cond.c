/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Conditions (scmp-run.ini(5) CONDITIONS): a hand-written lexer and recursive-descent parser
 * for "fd == 1 || flags & O_ACCMODE != O_RDONLY", and the tree's helpers. */
#include "cond.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "number.h"

enum tok_kind {
	TOK_END,
	TOK_IDENT,
	TOK_NUMBER,
	TOK_EQ,	    /* == */
	TOK_NE,	    /* != */
	TOK_LT,	    /* <  */
	TOK_LE,	    /* <= */
	TOK_GT,	    /* >  */
	TOK_GE,	    /* >= */
	TOK_ANDAND, /* && */
	TOK_OROR,   /* || */
	TOK_AMP,    /* &  */
	TOK_PIPE,   /* |  */
	TOK_MINUS,  /* -  */
	TOK_LBRACE, /* {  */
	TOK_RBRACE, /* }  */
	TOK_COMMA,  /* ,  */
	TOK_BAD,    /* a character the grammar does not know */
};

struct token {
	enum tok_kind kind;
	const char *start;
	size_t len;
	size_t col; /* 1-based byte column */
};

struct parser {
	const char *text;
	const char *pos;
	struct token tok;		/* current token */
	struct token prev;		/* the one before it (for "expected X after Y") */
	char *err;			/* malloc'ed message, first error only */
	int r;				/* -EINVAL or -ENOMEM once failed */
	struct arena *arena;		/* where the tree goes; NULL: malloc() */
	const struct cond_lines *lines; /* the physical lines of text; NULL: one */
	char where[64];			/* pos()'s text */
};

/* Where token t is in the file when the text was joined from several
 * lines; line 0 when it is one line. */
static struct cond_at at(const struct parser *p, const struct token *t)
{
	const struct cond_lines *ls = p->lines;
	size_t off = t->col - 1, i = 0, col;

	if (!ls || ls->n < 2)
		return (struct cond_at){ 0 };
	while (i + 1 < ls->n && ls->start[i + 1] <= off)
		i++;
	col = ls->col[i] ? ls->col[i] + off - ls->start[i] : 0;
	return (struct cond_at){ ls->line[i], col <= UINT16_MAX ? (uint16_t)col : 0 };
}

/* Where token t is: "column C" of the text, or "line L, column C" when
 * the text was joined from several lines. */
static const char *pos(struct parser *p, const struct token *t)
{
	struct cond_at a = at(p, t);

	if (!a.line)
		snprintf(p->where, sizeof(p->where), "column %zu", t->col);
	else if (a.col)
		snprintf(p->where, sizeof(p->where), "line %u, column %u", (unsigned)a.line,
			 (unsigned)a.col);
	else
		snprintf(p->where, sizeof(p->where), "line %u", (unsigned)a.line);
	return p->where;
}

/* The punctuation token at s (the longest match), or TOK_BAD; its length
 * in *len. */
static enum tok_kind punct(const char *s, size_t *len)
{
	*len = 2;
	switch (s[0]) {
	case '=':
		if (s[1] == '=')
			return TOK_EQ;
		break;
	case '!':
		if (s[1] == '=')
			return TOK_NE;
		break;
	case '<':
		if (s[1] == '=')
			return TOK_LE;
		*len = 1;
		return TOK_LT;
	case '>':
		if (s[1] == '=')
			return TOK_GE;
		*len = 1;
		return TOK_GT;
	case '&':
		if (s[1] == '&')
			return TOK_ANDAND;
		*len = 1;
		return TOK_AMP;
	case '|':
		if (s[1] == '|')
			return TOK_OROR;
		*len = 1;
		return TOK_PIPE;
	case '-':
		*len = 1;
		return TOK_MINUS;
	case '{':
		*len = 1;
		return TOK_LBRACE;
	case '}':
		*len = 1;
		return TOK_RBRACE;
	case ',':
		*len = 1;
		return TOK_COMMA;
	default:
		break;
	}
	*len = 1;
	return TOK_BAD;
}

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static void lex(struct parser *p)
{
	const char *s = p->pos;

	while (*s == ' ' || *s == '\t')
		s++;
	p->prev = p->tok;
	p->tok = (struct token){ .kind = TOK_END, .start = s, .col = (size_t)(s - p->text) + 1 };
	if (!*s) {
		p->pos = s;
		return;
	}
	/* isalpha(), isdigit() and isalnum() of the C locale, which this
	 * program never changes */
	if (is_alpha(*s) || *s == '_' || is_digit(*s)) {
		const char *e = s;

		/* A number takes every alphanumeric character: "12abc" is one
		 * bad number, not 12 followed by an identifier. */
		while (is_alpha(*e) || is_digit(*e) || *e == '_')
			e++;
		p->tok.kind = is_digit(*s) ? TOK_NUMBER : TOK_IDENT;
		p->tok.len = (size_t)(e - s);
	} else {
		p->tok.kind = punct(s, &p->tok.len);
	}
	p->pos = s + p->tok.len;
}

__attribute__((format(printf, 2, 3))) static void fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	if (p->r < 0)
		return;
	p->r = -EINVAL;
	va_start(ap, fmt);
	if (vasprintf(&p->err, fmt, ap) < 0) {
		p->err = NULL;
		p->r = -ENOMEM;
	}
	va_end(ap);
}

/* Report that the current token is not what the grammar needs here:
 * "unexpected '&&' at column 12, expected a value" or, at the end of the
 * text, "expected a value after '=='". */
static void fail_expected(struct parser *p, const char *what)
{
	if (p->tok.kind == TOK_END) {
		/* In a condition of several lines, the line of the token the
		 * text ends with: the key's line alone would leave it to search
		 * (scmp-run.ini(5) FILE SYNTAX). */
		if (p->prev.len && at(p, &p->prev).line)
			fail(p, "expected %s after '%.*s' at %s", what, (int)p->prev.len,
			     p->prev.start, pos(p, &p->prev));
		else if (p->prev.len)
			fail(p, "expected %s after '%.*s'", what, (int)p->prev.len, p->prev.start);
		else
			fail(p, "expected %s, got an empty condition", what);
	} else {
		fail(p, "unexpected '%.*s' at %s, expected %s", (int)p->tok.len, p->tok.start,
		     pos(p, &p->tok), what);
	}
}

static bool is_ident(const struct token *t, const char *word)
{
	return t->kind == TOK_IDENT && t->len == strlen(word) && !strncmp(t->start, word, t->len);
}

static void oom(struct parser *p)
{
	if (p->r < 0 && p->err)
		return;
	free(p->err);
	p->err = NULL;
	p->r = -ENOMEM;
}

/* Integer literal (scmp-run.ini(5) NUMBERS). Never truncated. */
static int parse_integer(struct parser *p, uint64_t *ret)
{
	int r = number_parse_u64(p->tok.start, p->tok.len, ret);

	if (r == -ERANGE)
		fail(p, NUMBER_ERR_RANGE ": '%.*s' at %s does not fit in 64 bits", (int)p->tok.len,
		     p->tok.start, pos(p, &p->tok));
	else if (r < 0)
		fail(p, NUMBER_ERR_SYNTAX ": '%.*s' at %s", (int)p->tok.len, p->tok.start,
		     pos(p, &p->tok));
	return r < 0 ? -EINVAL : 0;
}

/*
 * Room for one more element in *array_ptr, which holds n elements of size
 * bytes: its capacity is implicit, n rounded up to a power of two (at least
 * 4), so that appending n elements costs O(log n) copies. From p's arena, or
 * malloc() without one. 0, or -ENOMEM (p failed).
 */
static int grow(struct parser *p, void *array_ptr, size_t n, size_t size)
{
	void **array = array_ptr;
	size_t cap = n ? 2 * n : 4;
	void *m;

	if (n && (n < 4 || (n & (n - 1))))
		return 0;
	if (p->arena) {
		m = cap <= SIZE_MAX / 2 / size ? arena_alloc(p->arena, cap * size) : NULL;
		if (m && n)
			memcpy(m, *array, n * size);
	} else {
		m = reallocarray(*array, cap, size);
	}
	if (!m) {
		oom(p);
		return -ENOMEM;
	}
	*array = m;
	return 0;
}

/* The n bytes at s as a string, from p's arena or malloc(); NULL (p failed)
 * on ENOMEM. */
static char *copy_name(struct parser *p, const char *s, size_t n)
{
	char *c = p->arena ? arena_strndup(p->arena, s, n) : strndup(s, n);

	if (!c)
		oom(p);
	return c;
}

static void value_free(struct value *v)
{
	for (size_t i = 0; i < v->n_terms; i++)
		free(v->terms[i].name);
	free(v->terms);
	*v = (struct value){ 0 };
}

static void cmp_free(struct cmp *c)
{
	free(c->param);
	value_free(&c->mask);
	for (size_t i = 0; i < c->n_values; i++)
		value_free(&c->values[i]);
	free(c->values);
	*c = (struct cmp){ 0 };
}

/* On a failure, what the parser built is freed only when it was
 * allocated with malloc(): in p's arena it stays until the arena goes, and
 * parse() empties the result once. */
static void tree_value_free(struct parser *p, struct value *v)
{
	if (!p->arena)
		value_free(v);
}

/* term := INTEGER | "-" INTEGER | CONSTANT */
static int parse_term(struct parser *p, struct term *t)
{
	*t = (struct term){ .at = at(p, &p->tok) };
	if (p->tok.kind == TOK_MINUS) {
		const char *minus = p->tok.start;

		t->neg = true;
		lex(p);
		if (p->tok.kind != TOK_NUMBER) {
			fail_expected(p, "an integer");
			return -EINVAL;
		}
		/* A number is one token (scmp-run.ini(5) NUMBERS): "- 1",
		 * or a '-' at the end of a line continued by "1", is not one. */
		if (p->tok.start != minus + 1) {
			fail(p, NUMBER_ERR_SYNTAX ": blank between '-' and '%.*s' at %s",
			     (int)p->tok.len, p->tok.start, pos(p, &p->tok));
			return -EINVAL;
		}
	}
	if (p->tok.kind == TOK_NUMBER) {
		if (parse_integer(p, &t->lit) < 0)
			return -EINVAL;
		t->neg = t->neg && t->lit; /* "-0" is 0, as number_parse() reads it */
	} else if (p->tok.kind == TOK_IDENT) {
		t->name = copy_name(p, p->tok.start, p->tok.len);
		if (!t->name)
			return -ENOMEM;
	} else {
		fail_expected(p, "a value");
		return -EINVAL;
	}
	lex(p);
	return 0;
}

/* value := term { "|" term } */
static int parse_value(struct parser *p, struct value *v)
{
	*v = (struct value){ 0 };
	for (;;) {
		struct term t;

		if (parse_term(p, &t) < 0)
			goto fail;
		if (grow(p, &v->terms, v->n_terms, sizeof(t)) < 0) {
			if (!p->arena)
				free(t.name);
			goto fail;
		}
		v->terms[v->n_terms++] = t;
		if (p->tok.kind != TOK_PIPE)
			return 0;
		lex(p);
	}
fail:
	tree_value_free(p, v);
	return p->r;
}

static int push_value(struct parser *p, struct cmp *c, struct value *v)
{
	if (grow(p, &c->values, c->n_values, sizeof(*v)) < 0) {
		tree_value_free(p, v);
		return -ENOMEM;
	}
	c->values[c->n_values++] = *v;
	return 0;
}

/* set := "{" value { "," value } "}" */
static int parse_set(struct parser *p, struct cmp *c)
{
	if (p->tok.kind != TOK_LBRACE) {
		fail_expected(p, "'{'");
		return -EINVAL;
	}
	lex(p);
	if (p->tok.kind == TOK_RBRACE) {
		fail(p, "empty set at %s: a set needs at least one value", pos(p, &p->tok));
		return -EINVAL;
	}
	for (;;) {
		struct value v;

		if (c->n_values >= COND_SET_MAX) {
			fail(p, "set at %s has more than %d values", pos(p, &p->tok), COND_SET_MAX);
			return -EINVAL;
		}
		if (parse_value(p, &v) < 0 || push_value(p, c, &v) < 0)
			return p->r;
		if (p->tok.kind == TOK_RBRACE)
			break;
		if (p->tok.kind != TOK_COMMA) {
			fail_expected(p, "',' or '}'");
			return -EINVAL;
		}
		lex(p);
	}
	lex(p);
	return 0;
}

static bool tok_op(enum tok_kind k, enum cmp_op *ret)
{
	static const struct {
		enum tok_kind tok;
		enum cmp_op op;
	} ops[] = {
		{ TOK_EQ, CMP_EQ }, { TOK_NE, CMP_NE }, { TOK_LT, CMP_LT },
		{ TOK_LE, CMP_LE }, { TOK_GT, CMP_GT }, { TOK_GE, CMP_GE },
	};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (ops[i].tok == k) {
			*ret = ops[i].op;
			return true;
		}
	}
	return false;
}

/* cmp := arg op value | arg "&" value ("=="|"!=") value | arg ["not"] "in" set */
static int parse_cmp(struct parser *p, struct cmp *c)
{
	struct value v;

	*c = (struct cmp){ .arg = -1, .at = at(p, &p->tok) };
	if (p->tok.kind != TOK_IDENT || is_ident(&p->tok, "in") || is_ident(&p->tok, "not")) {
		fail_expected(p, "an argument (arg0..arg5 or a parameter name)");
		return -EINVAL;
	}
	if (p->tok.len >= 4 && !strncmp(p->tok.start, "arg", 3) &&
	    strspn(p->tok.start + 3, "0123456789") == p->tok.len - 3) {
		if (p->tok.len != 4 || p->tok.start[3] > '5') {
			fail(p, "no such argument '%.*s' at %s: use arg0..arg5", (int)p->tok.len,
			     p->tok.start, pos(p, &p->tok));
			return -EINVAL;
		}
		c->arg = p->tok.start[3] - '0';
	} else {
		c->param = copy_name(p, p->tok.start, p->tok.len);
		if (!c->param)
			return -ENOMEM;
	}
	lex(p);

	if (tok_op(p->tok.kind, &c->op)) {
		lex(p);
		if (parse_value(p, &v) < 0 || push_value(p, c, &v) < 0)
			goto fail;
		return 0;
	}
	if (p->tok.kind == TOK_AMP) {
		lex(p);
		if (parse_value(p, &c->mask) < 0)
			goto fail;
		if (p->tok.kind == TOK_EQ) {
			c->op = CMP_MASKED_EQ;
		} else if (p->tok.kind == TOK_NE) {
			c->op = CMP_MASKED_NE;
		} else {
			if (p->tok.kind == TOK_END)
				fail_expected(p, "'==' or '!='");
			else
				fail(p,
				     "unexpected '%.*s' at %s: a masked comparison "
				     "takes '==' or '!='",
				     (int)p->tok.len, p->tok.start, pos(p, &p->tok));
			goto fail;
		}
		lex(p);
		if (parse_value(p, &v) < 0 || push_value(p, c, &v) < 0)
			goto fail;
		return 0;
	}
	if (is_ident(&p->tok, "not")) {
		lex(p);
		if (!is_ident(&p->tok, "in")) {
			fail_expected(p, "'in'");
			goto fail;
		}
		c->op = CMP_NOT_IN;
	} else if (is_ident(&p->tok, "in")) {
		c->op = CMP_IN;
	} else {
		fail_expected(p, "an operator (== != < <= > >= & in, not in)");
		goto fail;
	}
	lex(p);
	if (parse_set(p, c) < 0)
		goto fail;
	return 0;
fail:
	if (!p->arena)
		cmp_free(c);
	return p->r;
}

/* conj := cmp { "&&" cmp } */
static int parse_conj(struct parser *p, struct conj *cj)
{
	*cj = (struct conj){ 0 };
	for (;;) {
		struct cmp c;

		if (parse_cmp(p, &c) < 0)
			goto fail;
		if (grow(p, &cj->cmps, cj->n_cmps, sizeof(c)) < 0) {
			if (!p->arena)
				cmp_free(&c);
			goto fail;
		}
		cj->cmps[cj->n_cmps++] = c;
		if (p->tok.kind != TOK_ANDAND)
			return 0;
		lex(p);
	}
fail:
	if (!p->arena)
		conj_free(cj);
	return p->r;
}

static int parse(const char *text, struct arena *arena, const struct cond_lines *lines,
		 struct cond *ret, char **ret_err)
{
	struct parser p = { .text = text, .pos = text, .arena = arena, .lines = lines };

	*ret = (struct cond){ 0 };
	*ret_err = NULL;
	lex(&p);
	for (;;) {
		struct conj cj;

		if (parse_conj(&p, &cj) < 0)
			goto fail;
		if (grow(&p, &ret->conjs, ret->n_conjs, sizeof(cj)) < 0) {
			if (!arena)
				conj_free(&cj);
			goto fail;
		}
		ret->conjs[ret->n_conjs++] = cj;
		if (p.tok.kind == TOK_END)
			return 0;
		if (p.tok.kind != TOK_OROR) {
			fail_expected(&p, "'&&', '||' or the end of the condition");
			goto fail;
		}
		lex(&p);
	}
fail:
	if (arena)
		*ret = (struct cond){ 0 };
	else
		cond_free(ret);
	*ret_err = p.err;
	return p.r;
}

int cond_parse(const char *text, struct cond *ret, char **ret_err)
{
	return parse(text, NULL, NULL, ret, ret_err);
}

int cond_parse_in(const char *text, struct arena *arena, struct cond *ret, char **ret_err)
{
	return parse(text, arena, NULL, ret, ret_err);
}

int cond_parse_lines(const char *text, struct arena *arena, const struct cond_lines *lines,
		     struct cond *ret, char **ret_err)
{
	return parse(text, arena, lines, ret, ret_err);
}

void conj_free(struct conj *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n_cmps; i++)
		cmp_free(&c->cmps[i]);
	free(c->cmps);
	*c = (struct conj){ 0 };
}

void cond_free(struct cond *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n_conjs; i++)
		conj_free(&c->conjs[i]);
	free(c->conjs);
	*c = (struct cond){ 0 };
}

/* The copies below allocate from a, or with malloc() when a is NULL. */
static void *copy_alloc(struct arena *a, size_t n, size_t size)
{
	return a ? arena_calloc(a, n, size) : calloc(n, size);
}

static char *copy_str(struct arena *a, const char *s)
{
	return a ? arena_strdup(a, s) : strdup(s);
}

/* Each copy counts what it filled as it goes, so that conj_free() can undo
 * a partial malloc() copy. */
static int value_copy(struct arena *a, struct value *dst, const struct value *src)
{
	*dst = (struct value){ 0 };
	if (!src->n_terms)
		return 0;
	dst->terms = copy_alloc(a, src->n_terms, sizeof(*dst->terms));
	if (!dst->terms)
		return -ENOMEM;
	for (size_t i = 0; i < src->n_terms; i++) {
		dst->terms[i] = src->terms[i];
		dst->terms[i].name = NULL;
		dst->n_terms = i + 1;
		if (src->terms[i].name && !(dst->terms[i].name = copy_str(a, src->terms[i].name)))
			return -ENOMEM;
	}
	return 0;
}

static int cmp_copy(struct arena *a, struct cmp *dst, const struct cmp *src)
{
	*dst = (struct cmp){ .arg = src->arg, .op = src->op, .at = src->at };
	if (src->param && !(dst->param = copy_str(a, src->param)))
		return -ENOMEM;
	if (value_copy(a, &dst->mask, &src->mask) < 0)
		return -ENOMEM;
	if (src->n_values && !(dst->values = copy_alloc(a, src->n_values, sizeof(*dst->values))))
		return -ENOMEM;
	for (size_t i = 0; i < src->n_values; i++) {
		dst->n_values = i + 1;
		if (value_copy(a, &dst->values[i], &src->values[i]) < 0)
			return -ENOMEM;
	}
	return 0;
}

int conj_copy_in(struct arena *a, struct conj *dst, const struct conj *src)
{
	*dst = (struct conj){ 0 };
	if (!src->n_cmps)
		return 0;
	dst->cmps = copy_alloc(a, src->n_cmps, sizeof(*dst->cmps));
	if (!dst->cmps)
		return -ENOMEM;
	for (size_t i = 0; i < src->n_cmps; i++) {
		dst->n_cmps = i + 1;
		if (cmp_copy(a, &dst->cmps[i], &src->cmps[i]) < 0)
			return -ENOMEM;
	}
	return 0;
}

int conj_copy(struct conj *dst, const struct conj *src)
{
	int r = conj_copy_in(NULL, dst, src);

	if (r < 0)
		conj_free(dst);
	return r;
}

static void value_print(const struct value *v, FILE *f)
{
	for (size_t i = 0; i < v->n_terms; i++) {
		const struct term *t = &v->terms[i];

		if (i)
			fputc('|', f);
		if (t->name)
			fputs(t->name, f);
		else if (t->lit > 0xffff)
			fprintf(f, "%s0x%llx", t->neg ? "-" : "", (unsigned long long)t->lit);
		else
			fprintf(f, "%s%llu", t->neg ? "-" : "", (unsigned long long)t->lit);
	}
}

void conj_print(const struct conj *c, FILE *f)
{
	static const char *const ops[] = {
		[CMP_EQ] = "==",	 [CMP_NE] = "!=",	 [CMP_LT] = "<",
		[CMP_LE] = "<=",	 [CMP_GT] = ">",	 [CMP_GE] = ">=",
		[CMP_MASKED_EQ] = "==",	 [CMP_MASKED_NE] = "!=", [CMP_IN] = "in",
		[CMP_NOT_IN] = "not in",
	};

	for (size_t i = 0; i < c->n_cmps; i++) {
		const struct cmp *m = &c->cmps[i];

		if (i)
			fputs(" && ", f);
		if (m->param)
			fputs(m->param, f);
		else
			fprintf(f, "arg%d", m->arg);
		if (m->op == CMP_MASKED_EQ || m->op == CMP_MASKED_NE) {
			fputs(" & ", f);
			value_print(&m->mask, f);
		}
		fprintf(f, " %s ", ops[m->op]);
		if (m->op == CMP_IN || m->op == CMP_NOT_IN) {
			fputs("{ ", f);
			for (size_t j = 0; j < m->n_values; j++) {
				if (j)
					fputs(", ", f);
				value_print(&m->values[j], f);
			}
			fputs(" }", f);
		} else if (m->n_values) {
			value_print(&m->values[0], f);
		}
	}
}
