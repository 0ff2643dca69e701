/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of the interval sets: normalisation, complement, intersection
 * and the complement's size, checked against a bitmap over a small domain.
 */
#include <stdint.h>
#include <string.h>

#include "src/ivset.h"
#include "tests/rng.h"
#include "tests/tap.h"

#define DOMAIN 64 /* keys 0..63: a set is a uint64_t bitmap */

static uint64_t bits_of(const struct interval *iv, size_t n)
{
	uint64_t b = 0;

	for (size_t i = 0; i < n; i++)
		for (uint64_t k = iv[i].lo; k <= iv[i].hi && k < DOMAIN; k++)
			b |= 1ull << k;
	return b;
}

/* Sorted, disjoint, not adjacent, inside [0, max]. */
static bool canonical(const struct ivset *s, uint64_t max)
{
	for (size_t i = 0; i < s->n; i++) {
		if (s->iv[i].lo > s->iv[i].hi || s->iv[i].hi > max)
			return false;
		if (i && s->iv[i - 1].hi + 1 >= s->iv[i].lo)
			return false;
	}
	return true;
}

static void test_fixed(void)
{
	struct ivset s = { 0 }, t = { 0 };

	tap_ok(ivset_normalize(&s) == 0 && s.n == 0, "normalize: the empty set stays empty");
	ivset_add(&s, 9, 12);
	ivset_add(&s, 1, 3);
	ivset_add(&s, 4, 4);   /* adjacent to 1..3 */
	ivset_add(&s, 10, 20); /* overlaps 9..12 */
	ivset_add(&s, 30, 30);
	tap_ok(ivset_normalize(&s) == 0 && s.n == 3 && s.iv[0].lo == 1 && s.iv[0].hi == 4 &&
		       s.iv[1].lo == 9 && s.iv[1].hi == 20 && s.iv[2].lo == 30 && s.iv[2].hi == 30,
	       "normalize: sorts, merges overlapping and adjacent intervals");
	tap_is(ivset_complement_size(s.iv, s.n, 63), (size_t)4,
	       "complement_size: holes before, between and after");
	tap_ok(ivset_complement(&s, 63) == 0 && s.n == 4 && s.iv[0].lo == 0 && s.iv[0].hi == 0 &&
		       s.iv[1].lo == 5 && s.iv[1].hi == 8 && s.iv[3].lo == 31 && s.iv[3].hi == 63,
	       "complement over [0, 63]");
	ivset_free(&s);
	tap_ok(s.iv == NULL && s.n == 0, "free: leaves an empty set");

	tap_ok(ivset_complement(&s, UINT64_MAX) == 0 && s.n == 1 && s.iv[0].lo == 0 &&
		       s.iv[0].hi == UINT64_MAX,
	       "complement of the empty set is the whole 64-bit range");
	tap_ok(ivset_complement(&s, UINT64_MAX) == 0 && s.n == 0,
	       "complement of the whole range is empty");
	tap_is(ivset_complement_size(NULL, 0, UINT64_MAX), (size_t)1,
	       "complement_size of the empty set");

	ivset_add(&s, 0, 10);
	ivset_add(&t, 11, 20);
	tap_ok(ivset_intersect(&s, &t) == 0 && s.n == 0, "intersect: disjoint sets give nothing");
	ivset_free(&s);
	ivset_add(&s, UINT64_MAX - 1, UINT64_MAX);
	ivset_add(&t, 0, UINT64_MAX);
	ivset_normalize(&t);
	tap_ok(ivset_intersect(&s, &t) == 0 && s.n == 1 && s.iv[0].lo == UINT64_MAX - 1 &&
		       s.iv[0].hi == UINT64_MAX,
	       "intersect: with the whole range keeps the set, at the top of the range");
	ivset_free(&s);
	ivset_free(&t);
}

static void test_random(void)
{
	struct rng r = { .state = 7 };
	unsigned bad_norm = 0, bad_comp = 0, bad_size = 0, bad_inter = 0, runs = 2000;

	for (unsigned k = 0; k < runs; k++) {
		struct ivset a = { 0 }, b = { 0 };
		unsigned na = pick(&r, 6), nb = pick(&r, 6);
		uint64_t want_a, want_b;
		size_t size;

		for (unsigned i = 0; i < na; i++) {
			uint64_t lo = pick(&r, DOMAIN), hi = lo + pick(&r, 8);

			ivset_add(&a, lo, hi < DOMAIN ? hi : DOMAIN - 1);
		}
		for (unsigned i = 0; i < nb; i++) {
			uint64_t lo = pick(&r, DOMAIN);

			ivset_add(&b, lo, lo);
		}
		want_a = bits_of(a.iv, a.n);
		want_b = bits_of(b.iv, b.n);
		if (ivset_normalize(&a) < 0 || ivset_normalize(&b) < 0 ||
		    bits_of(a.iv, a.n) != want_a || !canonical(&a, DOMAIN - 1) ||
		    bits_of(b.iv, b.n) != want_b || !canonical(&b, DOMAIN - 1))
			bad_norm++;
		size = ivset_complement_size(a.iv, a.n, DOMAIN - 1);
		if (ivset_complement(&a, DOMAIN - 1) < 0 || bits_of(a.iv, a.n) != ~want_a ||
		    !canonical(&a, DOMAIN - 1))
			bad_comp++;
		if (size != a.n)
			bad_size++;
		if (ivset_intersect(&a, &b) < 0 || bits_of(a.iv, a.n) != (~want_a & want_b) ||
		    !canonical(&a, DOMAIN - 1))
			bad_inter++;
		ivset_free(&a);
		ivset_free(&b);
	}
	tap_ok(!bad_norm, "normalize matches a bitmap on %u random sets (%u differ)", runs,
	       bad_norm);
	tap_ok(!bad_comp, "complement matches a bitmap (%u differ)", bad_comp);
	tap_ok(!bad_size, "complement_size is the complement's length (%u differ)", bad_size);
	tap_ok(!bad_inter, "intersect matches a bitmap (%u differ)", bad_inter);
}

int main(void)
{
	test_fixed();
	test_random();
	return tap_done();
}
