/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Interval sets: the value sets of argument tests, kept sorted and merged. */
#include "ivset.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

void ivset_free(struct ivset *s)
{
	free(s->iv);
	*s = (struct ivset){ 0 };
}

int ivset_add(struct ivset *s, uint64_t lo, uint64_t hi)
{
	struct interval *iv = reallocarray(s->iv, s->n + 1, sizeof(*iv));

	if (!iv)
		return -ENOMEM;
	s->iv = iv;
	iv[s->n++] = (struct interval){ lo, hi };
	return 0;
}

/* Merge [lo, hi] (which does not start before out[n - 1]) into the last
 * of the n intervals of out when they overlap or touch: true if it did. */
static bool merge_last(struct interval *out, size_t n, uint64_t lo, uint64_t hi)
{
	struct interval *last = n ? &out[n - 1] : NULL;

	if (!last || last->hi == UINT64_MAX || last->hi + 1 < lo)
		return false;
	if (hi > last->hi)
		last->hi = hi;
	return true;
}

/* push(), into room the caller made: the new count. */
static size_t put(struct interval *out, size_t n, uint64_t lo, uint64_t hi)
{
	if (merge_last(out, n, lo, hi))
		return n;
	out[n] = (struct interval){ lo, hi };
	return n + 1;
}

/* Append an interval that does not start before the last one, merging it
 * with the last one when they overlap or touch. */
static int push(struct ivset *s, uint64_t lo, uint64_t hi)
{
	return merge_last(s->iv, s->n, lo, hi) ? 0 : ivset_add(s, lo, hi);
}

size_t ivset_merge_sorted(const struct interval *iv, size_t n, struct interval *out)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		m = put(out, m, iv[i].lo, iv[i].hi);
	return m;
}

size_t ivset_complement_into(const struct interval *iv, size_t n, uint64_t max,
			     struct interval *out)
{
	size_t m = 0;
	uint64_t next = 0;

	for (size_t i = 0; i < n; i++) {
		if (iv[i].lo > next)
			m = put(out, m, next, iv[i].lo - 1);
		if (iv[i].hi >= max)
			return m;
		next = iv[i].hi + 1;
	}
	return put(out, m, next, max);
}

static int cmp_lo(const void *a, const void *b)
{
	const struct interval *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Replace *s by out, or drop out on failure. */
static int replace(struct ivset *s, struct ivset *out, int r)
{
	if (r < 0) {
		ivset_free(out);
		return r;
	}
	ivset_free(s);
	*s = *out;
	return 0;
}

int ivset_normalize(struct ivset *s)
{
	if (s->n)
		qsort(s->iv, s->n, sizeof(*s->iv), cmp_lo);
	/* in place: the merged list is never longer than what it reads */
	s->n = ivset_merge_sorted(s->iv, s->n, s->iv);
	return 0;
}

int ivset_complement(struct ivset *s, uint64_t max)
{
	struct interval *out = malloc((s->n + 1) * sizeof(*out));

	if (!out)
		return -ENOMEM;
	s->n = ivset_complement_into(s->iv, s->n, max, out);
	free(s->iv);
	s->iv = out;
	return 0;
}

int ivset_intersect(struct ivset *a, const struct ivset *b)
{
	struct ivset out = { 0 };
	size_t i = 0, j = 0;
	int r = 0;

	while (i < a->n && j < b->n && r >= 0) {
		uint64_t lo = a->iv[i].lo > b->iv[j].lo ? a->iv[i].lo : b->iv[j].lo;
		uint64_t hi = a->iv[i].hi < b->iv[j].hi ? a->iv[i].hi : b->iv[j].hi;

		if (lo <= hi)
			r = push(&out, lo, hi);
		if (a->iv[i].hi < b->iv[j].hi)
			i++;
		else
			j++;
	}
	return replace(a, &out, r);
}

size_t ivset_complement_size(const struct interval *iv, size_t n, uint64_t max)
{
	if (!n)
		return 1;
	return n + 1 - (iv[0].lo == 0) - (iv[n - 1].hi == max);
}
