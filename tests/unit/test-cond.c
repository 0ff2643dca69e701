/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of the condition parser (scmp-run.ini(5) CONDITIONS): the
 * trees of valid forms, the column named by errors, copy and canonical
 * printing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/arena.h"
#include "src/cond.h"
#include "tests/tap.h"

/* The canonical text of a whole condition, " || "-joined (malloc'ed). */
static char *print_cond(const struct cond *c)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		abort();
	for (size_t i = 0; i < c->n_conjs; i++) {
		if (i)
			fputs(" || ", f);
		conj_print(&c->conjs[i], f);
	}
	fclose(f);
	return buf;
}

/* Parse text, expect success and the canonical form want. */
static void ok_parse(const char *text, const char *want)
{
	struct cond c;
	char *err = NULL, *got;
	int r = cond_parse(text, &c, &err);

	if (!tap_ok(r == 0, "parses: %s", text)) {
		tap_diag("error: %s", err ? err : "(none)");
		free(err);
		return;
	}
	got = print_cond(&c);
	if (!tap_ok(!strcmp(got, want), "canonical form of '%s'", text))
		tap_diag("got '%s', want '%s'", got, want);

	/* The canonical form parses back to itself. */
	struct cond c2;
	char *err2 = NULL;

	if (tap_ok(cond_parse(got, &c2, &err2) == 0, "canonical form parses again")) {
		char *again = print_cond(&c2);

		tap_ok(!strcmp(again, got), "canonical form is stable");
		free(again);
		cond_free(&c2);
	}
	free(err2);

	/* Parsed into an arena, the same tree. */
	struct arena a = { 0 };
	struct cond c3;
	char *err3 = NULL;

	if (tap_ok(cond_parse_in(text, &a, &c3, &err3) == 0, "parses into an arena: %s", text)) {
		char *in_arena = print_cond(&c3);

		tap_ok(!strcmp(in_arena, got), "the same tree in an arena");
		free(in_arena);
	}
	free(err3);
	arena_free(&a);
	free(got);
	cond_free(&c);
}

/* Parse text, expect -EINVAL and a message containing want (which names
 * the column when the error is at a token). */
static void bad_parse(const char *text, const char *want)
{
	struct cond c;
	char *err = NULL;
	int r = cond_parse(text, &c, &err);

	tap_ok(r == -EINVAL && c.n_conjs == 0 && !c.conjs, "rejects: %s", text);
	if (!tap_ok(err && strstr(err, want), "message of '%s' mentions '%s'", text, want))
		tap_diag("got '%s'", err ? err : "(null)");

	/* Into an arena: the same error, the same message, nothing left. */
	struct arena a = { 0 };
	char *err2 = NULL;

	r = cond_parse_in(text, &a, &c, &err2);
	tap_ok(r == -EINVAL && c.n_conjs == 0 && !c.conjs && err && err2 && !strcmp(err, err2),
	       "rejects in an arena, with the same message: %s", text);
	free(err2);
	arena_free(&a);
	free(err);
}

static void test_tree(void)
{
	struct cond c;
	char *err = NULL;
	const struct cmp *m;

	/* fd == 1 || fd >= 3 && fd <= 9 */
	if (!tap_ok(cond_parse("fd == 1 || fd >= 3 && fd <= 9", &c, &err) == 0, "tree: parse"))
		return;
	tap_is(c.n_conjs, (size_t)2, "tree: two conjunctions");
	tap_is(c.conjs[0].n_cmps, (size_t)1, "tree: first has one comparison");
	tap_is(c.conjs[1].n_cmps, (size_t)2, "tree: && binds tighter than ||");
	m = &c.conjs[0].cmps[0];
	tap_ok(m->arg == -1 && m->param && !strcmp(m->param, "fd"), "tree: parameter name kept");
	tap_ok(m->op == CMP_EQ && m->n_values == 1 && m->values[0].n_terms == 1 &&
		       m->values[0].terms[0].lit == 1 && !m->values[0].terms[0].name,
	       "tree: fd == 1");
	m = &c.conjs[1].cmps[1];
	tap_ok(m->op == CMP_LE && m->values[0].terms[0].lit == 9, "tree: fd <= 9");

	/* A deep copy is equal and independent. */
	struct conj cp;

	tap_is(conj_copy(&cp, &c.conjs[1]), 0, "copy: conj_copy succeeds");
	tap_ok(cp.n_cmps == 2 && cp.cmps != c.conjs[1].cmps && cp.cmps[0].param != m->param &&
		       !strcmp(cp.cmps[0].param, "fd") && cp.cmps[1].op == CMP_LE,
	       "copy: same content, new storage");
	conj_free(&cp);
	tap_ok(cp.n_cmps == 0 && !cp.cmps, "copy: conj_free empties");
	cond_free(&c);
	tap_ok(c.n_conjs == 0 && !c.conjs, "cond_free empties");
	cond_free(NULL);
	conj_free(NULL);

	/* arg2 & O_ACCMODE|0x40 != -1 */
	if (!tap_ok(cond_parse("arg2 & O_ACCMODE|0x40 != -1", &c, &err) == 0, "masked: parse"))
		return;
	m = &c.conjs[0].cmps[0];
	tap_ok(m->arg == 2 && !m->param, "masked: arg2 is slot 2");
	tap_ok(m->op == CMP_MASKED_NE, "masked: != becomes CMP_MASKED_NE");
	tap_ok(m->mask.n_terms == 2 && !strcmp(m->mask.terms[0].name, "O_ACCMODE") &&
		       m->mask.terms[1].lit == 0x40,
	       "masked: mask is O_ACCMODE|0x40");
	tap_ok(m->n_values == 1 && m->values[0].terms[0].neg && m->values[0].terms[0].lit == 1,
	       "masked: value -1 kept as sign and magnitude");
	cond_free(&c);

	/* family not in { AF_UNIX, AF_INET|0, 0o17 } */
	if (!tap_ok(cond_parse("family not in { AF_UNIX, AF_INET|0, 0o17 }", &c, &err) == 0,
		    "set: parse"))
		return;
	m = &c.conjs[0].cmps[0];
	tap_ok(m->op == CMP_NOT_IN && m->n_values == 3, "set: not in, three values");
	tap_ok(m->values[1].n_terms == 2 && m->values[2].terms[0].lit == 15,
	       "set: OR-ed value and octal 0o17");
	cond_free(&c);

	/* Integers: every base, and the 64-bit limit exactly. */
	static const struct {
		const char *text;
		uint64_t want;
	} ints[] = {
		{ "arg0 == 0", 0 },
		{ "arg0 == 42", 42 },
		{ "arg0 == 0x2A", 42 },
		{ "arg0 == 052", 42 },
		{ "arg0 == 0o52", 42 },
		{ "arg0 == 00", 0 },
		{ "arg0 == 18446744073709551615", UINT64_MAX },
		{ "arg0 == 0xffffffffffffffff", UINT64_MAX },
		{ "arg0 == 01777777777777777777777", UINT64_MAX },
	};
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		bool ok = cond_parse(ints[i].text, &c, &err) == 0 &&
			  c.conjs[0].cmps[0].values[0].terms[0].lit == ints[i].want;

		tap_ok(ok, "integer: %s", ints[i].text);
		if (!ok)
			tap_diag("error: %s", err ? err : "(value differs)");
		free(err);
		err = NULL;
		cond_free(&c);
	}

	/* The set limit: COND_SET_MAX values parse, one more does not. */
	char *big = malloc(COND_SET_MAX * 8 + 32);
	size_t n = (size_t)sprintf(big, "arg0 in {");

	for (int i = 0; i < COND_SET_MAX; i++)
		n += (size_t)sprintf(big + n, "%s%d", i ? "," : " ", i);
	strcpy(big + n, " }");
	tap_ok(cond_parse(big, &c, &err) == 0 && c.conjs[0].cmps[0].n_values == COND_SET_MAX,
	       "set: %d values accepted", COND_SET_MAX);
	cond_free(&c);
	free(err);
	err = NULL;
	strcpy(big + n, ",9 }");
	tap_ok(cond_parse(big, &c, &err) == -EINVAL && err && strstr(err, "more than"),
	       "set: %d values rejected", COND_SET_MAX + 1);
	free(err);
	free(big);
}

int main(void)
{
	test_tree();

	ok_parse("fd == 1", "fd == 1");
	ok_parse("fd==1||fd==2", "fd == 1 || fd == 2");
	ok_parse("  arg0 != 0  ", "arg0 != 0");
	ok_parse("arg5 < 3 && arg4 > 4 && arg3 <= 5 && arg2 >= 6",
		 "arg5 < 3 && arg4 > 4 && arg3 <= 5 && arg2 >= 6");
	ok_parse("dfd == AT_FDCWD", "dfd == AT_FDCWD");
	ok_parse("flags & O_ACCMODE != O_RDONLY", "flags & O_ACCMODE != O_RDONLY");
	ok_parse("flags & O_ACCMODE == O_RDONLY", "flags & O_ACCMODE == O_RDONLY");
	ok_parse("flags&0x3==0", "flags & 3 == 0");
	ok_parse("prot == PROT_READ|PROT_WRITE", "prot == PROT_READ|PROT_WRITE");
	ok_parse("fd == -100", "fd == -100");
	ok_parse("fd == -0", "fd == 0");
	ok_parse("arg1 == 0x100000000", "arg1 == 0x100000000");
	ok_parse("family in {AF_UNIX,AF_INET}", "family in { AF_UNIX, AF_INET }");
	/* lists longer than the parser's first allocation (4) grow */
	ok_parse("fd in {1,2,3,4,5,6,7,8,9}", "fd in { 1, 2, 3, 4, 5, 6, 7, 8, 9 }");
	ok_parse("fd==1||fd==2||fd==3||fd==4||fd==5",
		 "fd == 1 || fd == 2 || fd == 3 || fd == 4 || fd == 5");
	ok_parse("arg0 == 1 && arg1 == 2 && arg2 == 3 && arg3 == 4 && arg4 == 5",
		 "arg0 == 1 && arg1 == 2 && arg2 == 3 && arg3 == 4 && arg4 == 5");
	ok_parse("flags == O_CREAT|O_EXCL|O_TRUNC|O_APPEND|O_NONBLOCK",
		 "flags == O_CREAT|O_EXCL|O_TRUNC|O_APPEND|O_NONBLOCK");
	ok_parse("family not in { AF_NETLINK }", "family not in { AF_NETLINK }");
	ok_parse("a == 1 && b == 2 || c == 3 && d == 4 || e == 5",
		 "a == 1 && b == 2 || c == 3 && d == 4 || e == 5");
	ok_parse("clone_flags & CLONE_NEWUSER|CLONE_NEWNS == 0",
		 "clone_flags & CLONE_NEWUSER|CLONE_NEWNS == 0");
	ok_parse("fd >= 3 && fd <= 9", "fd >= 3 && fd <= 9");

	/* Malformed conditions, with the column of the offending token. */
	bad_parse("", "empty condition");
	bad_parse("fd", "expected an operator");
	bad_parse("fd ==", "expected a value after '=='");
	bad_parse("fd == 1 &&", "expected an argument (arg0..arg5 or a parameter name) after '&&'");
	bad_parse("fd == 1 && && fd == 2", "unexpected '&&' at column 12");
	bad_parse("fd == 1 ||| fd == 2", "unexpected '|' at column 11");
	bad_parse("fd = 1", "unexpected '=' at column 4");
	bad_parse("fd == 1 2", "unexpected '2' at column 9");
	bad_parse("== 1", "unexpected '==' at column 1");
	bad_parse("fd == 12abc", "not a number: '12abc' at column 7");
	bad_parse("fd == 0x", "not a number: '0x' at column 7");
	bad_parse("fd == 08", "not a number: '08' at column 7");
	bad_parse("fd == 0o8", "not a number: '0o8' at column 7");
	bad_parse("fd == 18446744073709551616",
		  "out of range: '18446744073709551616' at column 7 does not fit in 64 bits");
	bad_parse("fd == 0x10000000000000000", "out of range: '0x10000000000000000'");
	bad_parse("fd == 0o2000000000000000000000", "out of range: '0o2000000000000000000000'");
	bad_parse("fd == 99999999999999999999x", "not a number: '99999999999999999999x'");
	bad_parse("fd == 0b101", "not a number: '0b101'");
	bad_parse("fd == -AT_FDCWD", "unexpected 'AT_FDCWD' at column 8, expected an integer");
	/* A number is one token: no blank after its sign */
	bad_parse("fd == - 1", "not a number: blank between '-' and '1' at column 9");
	bad_parse("fd in { 2, -\t0x10 }",
		  "not a number: blank between '-' and '0x10' at column 14");
	bad_parse("fd == 1 |", "expected a value after '|'");
	bad_parse("flags & O_ACCMODE < 2", "unexpected '<' at column 19: a masked comparison");
	bad_parse("flags & O_ACCMODE", "expected '==' or '!=' after 'O_ACCMODE'");
	bad_parse("flags & == 1", "unexpected '==' at column 9, expected a value");
	bad_parse("fd in { }", "empty set at column 9");
	bad_parse("fd in 1, 2", "unexpected '1' at column 7, expected '{'");
	bad_parse("fd in { 1, 2", "expected ',' or '}' after '2'");
	bad_parse("fd in { 1 2 }", "unexpected '2' at column 11, expected ',' or '}'");
	bad_parse("fd in { 1, }", "unexpected '}' at column 12, expected a value");
	bad_parse("fd not { 1 }", "unexpected '{' at column 8, expected 'in'");
	bad_parse("arg6 == 0", "no such argument 'arg6' at column 1");
	bad_parse("arg10 == 0", "no such argument 'arg10'");
	bad_parse("fd == 1 && (fd == 2)", "unexpected '(' at column 12");
	bad_parse("fd == \"x\"", "unexpected '\"' at column 7");
	bad_parse("fd == 1 ; comment", "unexpected ';' at column 9");
	bad_parse("fd == 1 || in == 2", "unexpected 'in' at column 12");
	bad_parse("1 == fd", "unexpected '1' at column 1, expected an argument");
	bad_parse("fd == 1 # no", "unexpected '#' at column 9");
	return tap_done();
}
