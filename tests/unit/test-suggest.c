/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of did-you-mean (suggest.h): the distance, the threshold that
 * grows with the word, and a choice among ties that ignores the offer order.
 */
#include <limits.h>
#include <string.h>

#include "src/suggest.h"
#include "tests/tap.h"

static void dist(const char *a, const char *b, unsigned want)
{
	unsigned d = suggest_distance(a, b);

	tap_ok(d == want, "distance '%s' '%s' is %u (got %u)", a, b, want, d);
}

/* The answer for word among the NULL-terminated candidates. */
static const char *best(const char *word, const char *const *cands)
{
	struct suggest s;

	suggest_init(&s, word);
	for (; *cands; cands++)
		suggest_offer(&s, *cands);
	return suggest_result(&s);
}

static void answer(const char *word, const char *const *cands, const char *want)
{
	const char *got = best(word, cands);

	tap_ok(want ? got && !strcmp(got, want) : !got, "'%s' -> %s (got %s)", word,
	       want ? want : "nothing", got ? got : "nothing");
}

int main(void)
{
	static const char *const sys[] = { "openat", "open", "read", "ptrace", "write", NULL };
	static const char *const ties[] = { "readv", "ready", "reads", NULL };
	static const char *const ties_rev[] = { "reads", "ready", "readv", NULL };
	char long_word[SUGGEST_NAME_MAX + 2];

	dist("", "", 0);
	dist("abc", "", 3);
	dist("opneat", "openat", 1); /* a transposition is one edit */
	dist("ptarce", "ptrace", 1);
	dist("kitten", "sitting", 3);
	dist("O_ACCMOD", "o_accmode", 1); /* case does not count */
	memset(long_word, 'a', sizeof(long_word) - 1);
	long_word[sizeof(long_word) - 1] = '\0';
	dist(long_word, "a", UINT_MAX);

	answer("opneat", sys, "openat");
	answer("opn", sys, "open");
	answer("xyzzyq", sys, NULL);
	answer("wrte", sys, "write");
	answer("rd", sys, NULL); /* 2 edits from "read": too far for 2 letters */
	answer("r", sys, NULL);
	answer("openat", sys, "open"); /* never the word itself */
	/* equally close: the first in strcmp() order, whatever the offer order */
	answer("readx", ties, "reads");
	answer("readx", ties_rev, "reads");
	return tap_done();
}
