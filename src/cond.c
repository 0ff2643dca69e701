/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Conditions (scmp-run.ini(5) CONDITIONS): a hand-written lexer and recursive-descent parser
 * for "fd == 1 || flags & O_ACCMODE != O_RDONLY", and the tree's helpers. */
#include "cond.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	struct token tok;  /* current token */
	struct token prev; /* the one before it (for "expected X after Y") */
	char *err;	   /* malloc'ed message, first error only */
	int r;		   /* -EINVAL or -ENOMEM once failed */
};

static void lex(struct parser *p)
{
	static const struct {
		const char *text;
		enum tok_kind kind;
	} punct[] = {
		/* two-character tokens first: longest match */
		{ "==", TOK_EQ },     { "!=", TOK_NE },	  { "<=", TOK_LE },   { ">=", TOK_GE },
		{ "&&", TOK_ANDAND }, { "||", TOK_OROR }, { "<", TOK_LT },    { ">", TOK_GT },
		{ "&", TOK_AMP },     { "|", TOK_PIPE },  { "-", TOK_MINUS }, { "{", TOK_LBRACE },
		{ "}", TOK_RBRACE },  { ",", TOK_COMMA },
	};
	const char *s = p->pos;

	while (*s == ' ' || *s == '\t')
		s++;
	p->prev = p->tok;
	p->tok = (struct token){ .kind = TOK_END, .start = s, .col = (size_t)(s - p->text) + 1 };
	if (!*s) {
		p->pos = s;
		return;
	}
	if (isalpha((unsigned char)*s) || *s == '_') {
		const char *e = s;

		while (isalnum((unsigned char)*e) || *e == '_')
			e++;
		p->tok.kind = TOK_IDENT;
		p->tok.len = (size_t)(e - s);
	} else if (isdigit((unsigned char)*s)) {
		const char *e = s;

		/* Take every alphanumeric character: "12abc" is one bad number,
		 * not 12 followed by an identifier. */
		while (isalnum((unsigned char)*e) || *e == '_')
			e++;
		p->tok.kind = TOK_NUMBER;
		p->tok.len = (size_t)(e - s);
	} else {
		p->tok.kind = TOK_BAD;
		p->tok.len = 1;
		for (size_t i = 0; i < sizeof(punct) / sizeof(punct[0]); i++) {
			size_t n = strlen(punct[i].text);

			if (!strncmp(s, punct[i].text, n)) {
				p->tok.kind = punct[i].kind;
				p->tok.len = n;
				break;
			}
		}
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
		if (p->prev.len)
			fail(p, "expected %s after '%.*s'", what, (int)p->prev.len, p->prev.start);
		else
			fail(p, "expected %s, got an empty condition", what);
	} else {
		fail(p, "unexpected '%.*s' at column %zu, expected %s", (int)p->tok.len,
		     p->tok.start, p->tok.col, what);
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
		fail(p, NUMBER_ERR_RANGE ": '%.*s' at column %zu does not fit in 64 bits",
		     (int)p->tok.len, p->tok.start, p->tok.col);
	else if (r < 0)
		fail(p, NUMBER_ERR_SYNTAX ": '%.*s' at column %zu", (int)p->tok.len, p->tok.start,
		     p->tok.col);
	return r < 0 ? -EINVAL : 0;
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

/* term := INTEGER | "-" INTEGER | CONSTANT */
static int parse_term(struct parser *p, struct term *t)
{
	*t = (struct term){ 0 };
	if (p->tok.kind == TOK_MINUS) {
		t->neg = true;
		lex(p);
		if (p->tok.kind != TOK_NUMBER) {
			fail_expected(p, "an integer");
			return -EINVAL;
		}
	}
	if (p->tok.kind == TOK_NUMBER) {
		if (parse_integer(p, &t->lit) < 0)
			return -EINVAL;
	} else if (p->tok.kind == TOK_IDENT) {
		t->name = strndup(p->tok.start, p->tok.len);
		if (!t->name) {
			oom(p);
			return -ENOMEM;
		}
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
		struct term t, *n;

		if (parse_term(p, &t) < 0)
			goto fail;
		n = reallocarray(v->terms, v->n_terms + 1, sizeof(*n));
		if (!n) {
			free(t.name);
			oom(p);
			goto fail;
		}
		v->terms = n;
		v->terms[v->n_terms++] = t;
		if (p->tok.kind != TOK_PIPE)
			return 0;
		lex(p);
	}
fail:
	value_free(v);
	return p->r;
}

static int push_value(struct parser *p, struct cmp *c, struct value *v)
{
	struct value *n = reallocarray(c->values, c->n_values + 1, sizeof(*n));

	if (!n) {
		value_free(v);
		oom(p);
		return -ENOMEM;
	}
	c->values = n;
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
		fail(p, "empty set at column %zu: a set needs at least one value", p->tok.col);
		return -EINVAL;
	}
	for (;;) {
		struct value v;

		if (c->n_values >= COND_SET_MAX) {
			fail(p, "set at column %zu has more than %d values", p->tok.col,
			     COND_SET_MAX);
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

	*c = (struct cmp){ .arg = -1 };
	if (p->tok.kind != TOK_IDENT || is_ident(&p->tok, "in") || is_ident(&p->tok, "not")) {
		fail_expected(p, "an argument (arg0..arg5 or a parameter name)");
		return -EINVAL;
	}
	if (p->tok.len >= 4 && !strncmp(p->tok.start, "arg", 3) &&
	    strspn(p->tok.start + 3, "0123456789") == p->tok.len - 3) {
		if (p->tok.len != 4 || p->tok.start[3] > '5') {
			fail(p, "no such argument '%.*s' at column %zu: use arg0..arg5",
			     (int)p->tok.len, p->tok.start, p->tok.col);
			return -EINVAL;
		}
		c->arg = p->tok.start[3] - '0';
	} else {
		c->param = strndup(p->tok.start, p->tok.len);
		if (!c->param) {
			oom(p);
			return -ENOMEM;
		}
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
				     "unexpected '%.*s' at column %zu: a masked comparison "
				     "takes '==' or '!='",
				     (int)p->tok.len, p->tok.start, p->tok.col);
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
	cmp_free(c);
	return p->r;
}

/* conj := cmp { "&&" cmp } */
static int parse_conj(struct parser *p, struct conj *cj)
{
	*cj = (struct conj){ 0 };
	for (;;) {
		struct cmp c, *n;

		if (parse_cmp(p, &c) < 0)
			goto fail;
		n = reallocarray(cj->cmps, cj->n_cmps + 1, sizeof(*n));
		if (!n) {
			cmp_free(&c);
			oom(p);
			goto fail;
		}
		cj->cmps = n;
		cj->cmps[cj->n_cmps++] = c;
		if (p->tok.kind != TOK_ANDAND)
			return 0;
		lex(p);
	}
fail:
	conj_free(cj);
	return p->r;
}

int cond_parse(const char *text, struct cond *ret, char **ret_err)
{
	struct parser p = { .text = text, .pos = text };

	*ret = (struct cond){ 0 };
	*ret_err = NULL;
	lex(&p);
	for (;;) {
		struct conj cj, *n;

		if (parse_conj(&p, &cj) < 0)
			goto fail;
		n = reallocarray(ret->conjs, ret->n_conjs + 1, sizeof(*n));
		if (!n) {
			conj_free(&cj);
			oom(&p);
			goto fail;
		}
		ret->conjs = n;
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
	cond_free(ret);
	*ret_err = p.err;
	return p.r;
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

static int value_copy(struct value *dst, const struct value *src)
{
	*dst = (struct value){ 0 };
	if (!src->n_terms)
		return 0;
	dst->terms = calloc(src->n_terms, sizeof(*dst->terms));
	if (!dst->terms)
		return -ENOMEM;
	for (size_t i = 0; i < src->n_terms; i++) {
		dst->terms[i] = src->terms[i];
		dst->terms[i].name = NULL;
		dst->n_terms = i + 1;
		if (src->terms[i].name) {
			dst->terms[i].name = strdup(src->terms[i].name);
			if (!dst->terms[i].name) {
				value_free(dst);
				return -ENOMEM;
			}
		}
	}
	return 0;
}

static int cmp_copy(struct cmp *dst, const struct cmp *src)
{
	*dst = (struct cmp){ .arg = src->arg, .op = src->op };
	if (src->param && !(dst->param = strdup(src->param)))
		goto fail;
	if (value_copy(&dst->mask, &src->mask) < 0)
		goto fail;
	if (src->n_values) {
		dst->values = calloc(src->n_values, sizeof(*dst->values));
		if (!dst->values)
			goto fail;
		for (size_t i = 0; i < src->n_values; i++) {
			if (value_copy(&dst->values[i], &src->values[i]) < 0)
				goto fail;
			dst->n_values = i + 1;
		}
	}
	return 0;
fail:
	cmp_free(dst);
	return -ENOMEM;
}

int conj_copy(struct conj *dst, const struct conj *src)
{
	*dst = (struct conj){ 0 };
	if (!src->n_cmps)
		return 0;
	dst->cmps = calloc(src->n_cmps, sizeof(*dst->cmps));
	if (!dst->cmps)
		return -ENOMEM;
	for (size_t i = 0; i < src->n_cmps; i++) {
		if (cmp_copy(&dst->cmps[i], &src->cmps[i]) < 0) {
			conj_free(dst);
			return -ENOMEM;
		}
		dst->n_cmps = i + 1;
	}
	return 0;
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
