/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of the string steps of a path resolved by hand: components
 * without empty ones and ".", a link's target put in front of what is
 * left, and the path walked so far one step down or up, never cut short.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "src/path-walk.h"
#include "tests/tap.h"

static void test_next(void)
{
	char rest[] = "//usr/./lib//x/..", name[NAME_MAX + 1], *cursor = rest;
	char names[64] = "", longname[NAME_MAX + 3];
	int r;

	while ((r = path_walk_next(&cursor, name)) > 0)
		strcat(strcat(names, name), " ");
	tap_ok(r == 0 && !strcmp(names, "usr lib x .. "),
	       "components: empty ones and '.' skipped, '..' kept (%s)", names);
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	cursor = longname;
	tap_is(path_walk_next(&cursor, name), -ENAMETOOLONG, "a component over NAME_MAX: refused");
}

static void test_follow(void)
{
	char rest[32] = "bin/ls/x", *cursor = rest + 4;

	tap_is(path_walk_follow(rest, sizeof(rest), &cursor, "usr/bin", 7), 0, "a link followed");
	tap_ok(cursor == rest && !strcmp(rest, "usr/bin/ls/x"),
	       "... its target before what was left, walked from the start (%s)", rest);
	cursor = rest + 8;
	tap_is(path_walk_follow(rest, sizeof(rest), &cursor, "012345678901234567890123456789", 30),
	       -ENAMETOOLONG, "a target that does not fit: refused");
	tap_ok(cursor == rest && !strcmp(rest, "ls/x"), "... what was left stays (%s)", rest);
}

static void test_step(void)
{
	char at[8] = "/";

	tap_ok(path_walk_step(at, sizeof(at), "usr") == 0 && !strcmp(at, "/usr"),
	       "down from '/' (%s)", at);
	tap_ok(path_walk_step(at, sizeof(at), "li") == 0 && !strcmp(at, "/usr/li"),
	       "down again (%s)", at);
	tap_ok(path_walk_step(at, sizeof(at), "b") == -ENAMETOOLONG && !strcmp(at, "/usr/li"),
	       "a step that does not fit: refused, the path unchanged (%s)", at);
	tap_ok(path_walk_step(at, sizeof(at), "..") == 0 && !strcmp(at, "/usr"), "up (%s)", at);
	path_walk_step(at, sizeof(at), "..");
	tap_ok(path_walk_step(at, sizeof(at), "..") == 0 && !strcmp(at, "/"),
	       "the parent of '/' is '/' (%s)", at);
}

int main(void)
{
	test_next();
	test_follow();
	test_step();
	return tap_done();
}
