/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Did-you-mean: the candidate name closest to an unknown word by edit
 * distance (scmp-run.ini(5) SYSCALL NAMES), for the hints of diagnostics.
 */
#pragma once

#include <stddef.h>

#define SUGGEST_NAME_MAX 64 /* longer words and candidates are never compared */

/* The search for the closest candidate of one word. */
struct suggest {
	const char *word; /* borrowed */
	const char *best; /* borrowed from the candidates; NULL: none close enough */
	unsigned best_dist;
	unsigned max_dist;
};

/* Start a search for word (borrowed; it must outlive s). The distance allowed
 * grows with the word's length: 0 (case only) for one character, 1 up to
 * 4 characters, then a third of the length (rounded). */
void suggest_init(struct suggest *s, const char *word);

/* Consider one candidate (borrowed; it must outlive s). The closest wins;
 * among equally close candidates the one first in strcmp() order, so the
 * answer does not depend on the order of the offers. NULL is ignored. */
void suggest_offer(struct suggest *s, const char *candidate);

/* The closest candidate within the allowed distance, or NULL. */
const char *suggest_result(const struct suggest *s);

/* Optimal string alignment distance (insertions, deletions, substitutions
 * and transpositions of neighbours, each 1), letters compared without case;
 * UINT_MAX for a string over SUGGEST_NAME_MAX. */
unsigned suggest_distance(const char *a, const char *b);
