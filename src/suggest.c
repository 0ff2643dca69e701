/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Did-you-mean by edit distance: optimal string alignment (Damerau-Levenshtein
 * without repeated edits of one substring) over three rows.
 */
#include "suggest.h"

#include <ctype.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>

static unsigned min3(unsigned a, unsigned b, unsigned c)
{
	unsigned m = a < b ? a : b;

	return m < c ? m : c;
}

static bool same(char x, char y)
{
	return tolower((unsigned char)x) == tolower((unsigned char)y);
}

unsigned suggest_distance(const char *a, const char *b)
{
	unsigned rows[3][SUGGEST_NAME_MAX + 1];
	size_t n = strlen(a), m = strlen(b);
	unsigned *prev2 = rows[0], *prev = rows[1], *cur = rows[2];

	if (n > SUGGEST_NAME_MAX || m > SUGGEST_NAME_MAX)
		return UINT_MAX;
	for (size_t j = 0; j <= m; j++)
		prev[j] = (unsigned)j;
	for (size_t i = 1; i <= n; i++) {
		unsigned *t;

		cur[0] = (unsigned)i;
		for (size_t j = 1; j <= m; j++) {
			unsigned cost = same(a[i - 1], b[j - 1]) ? 0 : 1;

			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
			if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) &&
			    same(a[i - 2], b[j - 1]) && prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[m];
}

void suggest_init(struct suggest *s, const char *word)
{
	size_t n = strlen(word);

	*s = (struct suggest){ .word = word, .best_dist = UINT_MAX };
	/* one character would match almost anything: case only */
	s->max_dist = n < 2 ? 0 : n < 5 ? 1 : (unsigned)((n + 1) / 3);
}

void suggest_offer(struct suggest *s, const char *candidate)
{
	unsigned d;

	if (!candidate || !strcmp(candidate, s->word))
		return;
	d = suggest_distance(s->word, candidate);
	if (d > s->max_dist || d > s->best_dist)
		return;
	if (d == s->best_dist && strcmp(candidate, s->best) >= 0)
		return;
	s->best = candidate;
	s->best_dist = d;
}

const char *suggest_result(const struct suggest *s)
{
	return s->best;
}
