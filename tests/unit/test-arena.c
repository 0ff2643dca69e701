/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of the bump allocator: alignment, separate objects, large
 * allocations, copies of strings, zeroing, overflow and reuse after a free.
 */
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "src/arena.h"
#include "tests/tap.h"

int main(void)
{
	struct arena a = { 0 };
	unsigned char *p[200];
	bool aligned = true, apart = true;
	char *s;

	/* many small ones, of every size up to 199 bytes */
	for (size_t i = 0; i < 200; i++) {
		p[i] = arena_alloc(&a, i);
		if (!p[i])
			break;
		aligned &= (uintptr_t)p[i] % alignof(max_align_t) == 0;
		memset(p[i], (int)i, i);
	}
	tap_ok(p[199] != NULL, "200 small allocations");
	tap_ok(aligned, "each aligned for any object");
	for (size_t i = 0; i < 200; i++)
		for (size_t k = 0; k < i; k++)
			apart &= p[i][k] == (unsigned char)i;
	tap_ok(apart, "none overlaps another");

	/* a large one gets its own chunk; the current chunk's room stays */
	unsigned char *before = arena_alloc(&a, 16), *big = arena_alloc(&a, 100000),
		      *after = arena_alloc(&a, 16);

	tap_ok(before && big && after, "a large allocation");
	if (big)
		memset(big, 0xab, 100000);
	tap_ok(before && after && after == before + 16, "the chunk goes on after it");

	s = arena_strdup(&a, "clock_gettime");
	tap_ok(s && !strcmp(s, "clock_gettime"), "arena_strdup copies");
	s = arena_strndup(&a, "openat2", 4);
	tap_ok(s && !strcmp(s, "open"), "arena_strndup stops at n");
	s = arena_strndup(&a, "rt", 10);
	tap_ok(s && !strcmp(s, "rt"), "arena_strndup stops at the NUL");

	unsigned *z = arena_calloc(&a, 1000, sizeof(unsigned));
	bool zero = z != NULL;

	for (size_t i = 0; z && i < 1000; i++)
		zero &= z[i] == 0;
	tap_ok(zero, "arena_calloc zeroes");
	tap_ok(arena_calloc(&a, SIZE_MAX / 4, 8) == NULL, "arena_calloc refuses an overflow");
	tap_ok(arena_alloc(&a, SIZE_MAX - 8) == NULL, "arena_alloc refuses a huge size");

	arena_free(&a);
	tap_ok(!a.chunks && !a.cur && !a.end, "arena_free empties");
	s = arena_strdup(&a, "again");
	tap_ok(s && !strcmp(s, "again"), "usable again after arena_free");
	arena_free(&a);
	arena_free(&a); /* an empty arena: nothing to free, still usable */
	s = arena_strdup(&a, "third");
	tap_ok(s && !strcmp(s, "third"), "usable after arena_free of an empty arena");
	arena_free(&a);
	return tap_done();
}
