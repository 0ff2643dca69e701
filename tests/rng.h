/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A small seeded generator for tests and benchmarks (header-only): the
 * same seed gives the same sequence on every machine. */
#pragma once

#include <stdint.h>

struct rng {
	uint64_t state; /* the seed; never 0 */
};

/* xorshift64* */
static inline uint64_t rnd(struct rng *r)
{
	r->state ^= r->state >> 12;
	r->state ^= r->state << 25;
	r->state ^= r->state >> 27;
	return r->state * 0x2545F4914F6CDD1Dull;
}

/* A number in [0, n). */
static inline unsigned pick(struct rng *r, unsigned n)
{
	return (unsigned)(rnd(r) % n);
}

/* An element of array arr (a true array, not a pointer). */
#define PICK(r, arr) ((arr)[pick((r), (unsigned)(sizeof(arr) / sizeof((arr)[0])))])
