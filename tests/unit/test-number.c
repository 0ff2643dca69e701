/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of the integer syntax (scmp-run.ini(5) NUMBERS): every base,
 * the limits of 64 bits, and "not a number" told apart from "out of range".
 */
#include <errno.h>
#include <string.h>

#include "src/number.h"
#include "tests/tap.h"

static void good(const char *s, uint64_t want)
{
	uint64_t v = 0;
	int r = number_parse_u64(s, strlen(s), &v);

	tap_ok(r == 0 && v == want, "'%s' is %llu (got %d, %llu)", s, (unsigned long long)want, r,
	       (unsigned long long)v);
}

static void bad(const char *s, int want)
{
	uint64_t v = 12345;
	int r = number_parse_u64(s, strlen(s), &v);

	tap_ok(r == want && v == 12345, "'%s' is %s", s,
	       want == -ERANGE ? NUMBER_ERR_RANGE : NUMBER_ERR_SYNTAX);
}

static void test_u64(void)
{
	good("0", 0);
	good("42", 42);
	good("0x2a", 42);
	good("0X2A", 42);
	good("0o52", 42);
	good("0O52", 42);
	good("052", 42);
	good("00", 0);
	good("18446744073709551615", UINT64_MAX);
	good("0xffffffffffffffff", UINT64_MAX);
	good("0o1777777777777777777777", UINT64_MAX);
	good("01777777777777777777777", UINT64_MAX);

	bad("", -EINVAL);
	bad("0x", -EINVAL);
	bad("0o", -EINVAL);
	bad("08", -EINVAL);
	bad("0o8", -EINVAL);
	bad("0xg", -EINVAL);
	bad("12abc", -EINVAL);
	bad("1_000", -EINVAL);
	bad("0b101", -EINVAL);
	bad("+1", -EINVAL);
	bad("-1", -EINVAL);
	bad(" 1", -EINVAL);
	bad("1 ", -EINVAL);
	bad("18446744073709551616", -ERANGE);
	bad("0x10000000000000000", -ERANGE);
	bad("0o2000000000000000000000", -ERANGE);
	/* Malformed wins over too long: the user should fix the syntax first. */
	bad("99999999999999999999x", -EINVAL);

	/* The length bounds the number, not the NUL. */
	{
		uint64_t v = 0;

		tap_ok(number_parse_u64("123abc", 3, &v) == 0 && v == 123,
		       "only len bytes are read");
	}
}

static void test_signed(void)
{
	bool neg = false;
	uint64_t v = 0;

	tap_ok(number_parse("-0x10", &neg, &v) == 0 && neg && v == 16, "'-0x10' is -16");
	tap_ok(number_parse("-0", &neg, &v) == 0 && !neg && v == 0, "'-0' is not negative");
	tap_ok(number_parse("--1", &neg, &v) == -EINVAL, "'--1' is not a number");
	tap_ok(number_parse("-", &neg, &v) == -EINVAL, "'-' is not a number");
	tap_ok(number_parse("-18446744073709551616", &neg, &v) == -ERANGE,
	       "'-18446744073709551616' is out of range");

	tap_ok(number_parse_max("255", 255, &v) == 0 && v == 255, "max: 255 of 255");
	tap_ok(number_parse_max("0xff", 255, &v) == 0 && v == 255, "max: 0xff of 255");
	tap_ok(number_parse_max("256", 255, &v) == -ERANGE, "max: 256 over 255 is out of range");
	tap_ok(number_parse_max("-1", 255, &v) == -ERANGE, "max: -1 is out of range");
	tap_ok(number_parse_max("-0", 255, &v) == -ERANGE, "max: -0 is refused: no sign here");
	tap_ok(number_parse_max("x", 255, &v) == -EINVAL, "max: 'x' is not a number");

	{
		uint32_t id = 7;

		tap_ok(number_parse_id("4294967294", &id) && id == 4294967294u,
		       "id: 4294967294 is the largest");
		tap_ok(!number_parse_id("4294967295", &id) && id == 4294967294u,
		       "id: 4294967295 ((uid_t)-1) is refused, *ret untouched");
		tap_ok(!number_parse_id("", &id) && !number_parse_id("0x10", &id) &&
			       !number_parse_id("-1", &id) && !number_parse_id("1 ", &id),
		       "id: empty, hex, negative and trailing blanks are refused");
		tap_ok(number_parse_id("0", &id) && id == 0 && number_parse_id("010", &id) &&
			       id == 10,
		       "id: decimal only, a leading 0 is not octal");
	}
	{
		char msg[NUMBER_ID_MSG_MAX] = "";

		tap_ok(number_id_range_error("4294967295", "user", msg, sizeof(msg)) &&
			       !strcmp(msg,
				       "user id 4294967295 is out of range: at most 4294967294 "
				       "(4294967295 means 'unchanged' to the kernel)"),
		       "id range: (uid_t)-1 is out of range, with run mode's message");
		tap_ok(number_id_range_error("99999999999", "group", NULL, 0),
		       "id range: a larger number too, without a buffer");
		tap_ok(!number_id_range_error("4294967294", "user", NULL, 0) &&
			       !number_id_range_error("nobody", "user", NULL, 0) &&
			       !number_id_range_error("", "user", NULL, 0) &&
			       !number_id_range_error("0x100000000", "user", NULL, 0),
		       "id range: a valid id, a name, '' and hex are not");
	}
	tap_ok(number_looks_like("1") && number_looks_like("-1") && number_looks_like("0x"),
	       "looks like a number: a digit, or '-' and a digit");
	tap_ok(!number_looks_like("EPERM") && !number_looks_like("-") && !number_looks_like("-x") &&
		       !number_looks_like(""),
	       "names, '-' alone and '' do not");
}

static void test_bool(void)
{
	const char *err = NULL;
	bool v = false;

	tap_ok(number_parse_bool("Yes", &v, &err) == 0 && v &&
		       number_parse_bool("1", &v, &err) == 0,
	       "bool: yes in any case, 1");
	tap_ok(number_parse_bool("OFF", &v, &err) == 0 && !v &&
		       number_parse_bool("false", &v, &err) == 0,
	       "bool: off in any case, false");
	v = true;
	tap_ok(number_parse_bool("yes no", &v, &err) == -EINVAL && v &&
		       !strcmp(err, NUMBER_ERR_BOOL),
	       "bool: anything else is refused with the spellings, *ret untouched");
}

int main(void)
{
	test_u64();
	test_signed();
	test_bool();
	return tap_done();
}
