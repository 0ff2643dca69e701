/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Interval sets over 64-bit keys: the values an argument test accepts, as
 * sorted, disjoint, non-adjacent inclusive intervals.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

struct interval {
	uint64_t lo, hi; /* inclusive */
};

/* A set; zero-initialised is empty. Owns iv (free with ivset_free()). */
struct ivset {
	struct interval *iv;
	size_t n;
};

void ivset_free(struct ivset *s);

/* Append an interval in any order; ivset_normalize() sorts and merges.
 * 0 or -ENOMEM. */
int ivset_add(struct ivset *s, uint64_t lo, uint64_t hi);

/* Sort and merge overlapping or adjacent intervals. 0 or -ENOMEM. */
int ivset_normalize(struct ivset *s);

/* Replace a normalized set by its complement over [0, max]. 0 or -ENOMEM. */
int ivset_complement(struct ivset *s, uint64_t max);

/* Without allocating: merge the n intervals of iv, sorted by lo, into out
 * (room for n; out may be iv), or write the complement over [0, max] of a
 * normalized iv into out (room for n + 1). Return the count written. */
size_t ivset_merge_sorted(const struct interval *iv, size_t n, struct interval *out);
size_t ivset_complement_into(const struct interval *iv, size_t n, uint64_t max,
			     struct interval *out);

/* Intersect normalized a with normalized b, into a. 0 or -ENOMEM. */
int ivset_intersect(struct ivset *a, const struct ivset *b);

/* Number of intervals the complement over [0, max] of a normalized set of n
 * intervals has, without computing it. */
size_t ivset_complement_size(const struct interval *iv, size_t n, uint64_t max);
