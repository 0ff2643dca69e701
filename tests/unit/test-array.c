/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of the growable arrays: doubling from the first capacity,
 * zeroed slots (array_grow) or slots left to the caller (array_push), and
 * a reservation that later appends do not move, or that fails without
 * touching the array.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "src/array.h"
#include "tests/tap.h"

int main(void)
{
	int *v = NULL, *at, *before;
	size_t n = 0, cap = 0;
	bool zeroed = true, kept = true;

	at = array_grow_from(&v, &n, &cap, sizeof(*v), 3);
	tap_ok(at && n == 1 && cap == 3, "the first slot makes room for the first capacity");
	for (int i = 1; i < 7; i++) {
		at = array_grow_from(&v, &n, &cap, sizeof(*v), 3);
		zeroed &= at && *at == 0;
		if (at)
			*at = i;
	}
	tap_ok(n == 7 && cap == 12, "then the capacity doubles (3, 6, 12)");
	tap_ok(zeroed, "every new slot is zeroed");

	tap_is(array_reserve(&v, n, &cap, sizeof(*v), 5), 0, "room that is there already");
	tap_is(cap, (size_t)12, "... leaves the capacity alone");
	tap_is(array_reserve(&v, n, &cap, sizeof(*v), 100), 0, "room for 100 more");
	tap_is(cap, (size_t)107, "... makes the capacity n + 100 at once");
	before = v;
	for (int i = 0; i < 100; i++) {
		at = array_grow(&v, &n, &cap, sizeof(*v));
		kept &= at != NULL;
	}
	tap_ok(kept && v == before && cap == 107, "100 appends then neither move nor grow it");
	for (size_t i = 1; i < 7; i++)
		kept &= v[i] == (int)i;
	tap_ok(kept, "the elements before are kept");

	before = v;
	tap_is(array_reserve(&v, n, &cap, sizeof(*v), SIZE_MAX / 2), -ENOMEM,
	       "a reservation whose size in bytes overflows: ENOMEM, reallocarray() not asked");
	tap_ok(v == before && cap == 107, "... with the array and its capacity unchanged");
	tap_is(array_reserve(&v, n, &cap, sizeof(*v), SIZE_MAX - 3), -ENOMEM,
	       "a reservation whose count overflows: ENOMEM");
	tap_ok(v == before && cap == 107, "... with the array and its capacity unchanged");
	free(v);

	/* array_push(): the same growth, from 4, and the slot as it was */
	v = NULL;
	n = cap = 0;
	kept = true;
	for (int i = 0; i < 9; i++) {
		at = array_push(&v, &n, &cap, sizeof(*v));
		kept &= at == v + i;
		if (at)
			*at = 100 + i;
	}
	tap_ok(kept && n == 9 && cap == 16, "pushes double the capacity from 4 (4, 8, 16)");
	for (int i = 0; i < 9; i++)
		kept &= v[i] == 100 + i;
	tap_ok(kept, "... and keep what was written in each slot");
	free(v);
	return tap_done();
}
