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

/* Append an interval that does not start before the last one, merging it
 * with the last one when they overlap or touch. */
static int push(struct ivset *s, uint64_t lo, uint64_t hi)
{
	struct interval *last = s->n ? &s->iv[s->n - 1] : NULL;

	if (last && last->hi != UINT64_MAX && last->hi + 1 >= lo) {
		if (hi > last->hi)
			last->hi = hi;
		return 0;
	}
	return ivset_add(s, lo, hi);
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
	struct ivset out = { 0 };
	int r = 0;

	if (s->n)
		qsort(s->iv, s->n, sizeof(*s->iv), cmp_lo);
	for (size_t i = 0; i < s->n && r >= 0; i++)
		r = push(&out, s->iv[i].lo, s->iv[i].hi);
	return replace(s, &out, r);
}

int ivset_complement(struct ivset *s, uint64_t max)
{
	struct ivset out = { 0 };
	uint64_t next = 0;
	bool done = false;
	int r = 0;

	for (size_t i = 0; i < s->n && !done && r >= 0; i++) {
		if (s->iv[i].lo > next)
			r = push(&out, next, s->iv[i].lo - 1);
		if (s->iv[i].hi >= max)
			done = true;
		else
			next = s->iv[i].hi + 1;
	}
	if (!done && r >= 0)
		r = push(&out, next, max);
	return replace(s, &out, r);
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
