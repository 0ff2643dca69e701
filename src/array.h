/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Growable arrays with an explicit capacity: appending n elements costs
 * O(log n) reallocations, never one per element.
 */
#pragma once

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * 0, or a compile error when the string literal s with its NUL does not fit
 * in n bytes. For tables of names in char arrays (arrays need no relocation
 * at start-up): a name exactly as long as its array would lose its NUL, and
 * gcc does not warn about that.
 */
#define ARRAY_FITS(s, n) (0 * sizeof(char[sizeof(s) <= (n) ? 1 : -1]))

/* ARRAY_FITS() for the char array member of struct type (member may index
 * an array of them: "param[0]"). */
#define MEMBER_FITS(s, type, member) ARRAY_FITS(s, sizeof(((type *)0)->member))

/*
 * Append one element, uninitialised, to *array_ptr, which holds *n elements
 * of size bytes in room for *cap. The capacity doubles when full, starting
 * at first. Returns the new slot (then *n is one more), or NULL on ENOMEM
 * with the array, *n and *cap unchanged.
 */
static inline void *array_push_from(void *array_ptr, size_t *n, size_t *cap, size_t size,
				    size_t first)
{
	void **array = array_ptr;
	char *p = *array;

	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : first;

		p = reallocarray(p, c, size);
		if (!p)
			return NULL;
		*array = p;
		*cap = c;
	}
	return p + (*n)++ * size;
}

/* array_push_from() with the new element zeroed. */
static inline void *array_grow_from(void *array_ptr, size_t *n, size_t *cap, size_t size,
				    size_t first)
{
	void *slot = array_push_from(array_ptr, n, cap, size, first);

	if (slot)
		memset(slot, 0, size);
	return slot;
}

/* array_grow_from() starting at 4 elements. */
static inline void *array_grow(void *array_ptr, size_t *n, size_t *cap, size_t size)
{
	return array_grow_from(array_ptr, n, cap, size, 4);
}

/* array_push_from() starting at 4 elements: for a caller that writes the
 * whole element at once, and so need not have it zeroed first. */
static inline void *array_push(void *array_ptr, size_t *n, size_t *cap, size_t size)
{
	return array_push_from(array_ptr, n, cap, size, 4);
}

/*
 * Room for at least more elements past the n of *array_ptr, in one
 * reallocation: a caller that knows how many follow spares the doublings
 * and the copies they leave behind. Returns 0, or -ENOMEM with the array
 * and *cap unchanged.
 */
static inline int array_reserve(void *array_ptr, size_t n, size_t *cap, size_t size, size_t more)
{
	void **array = array_ptr;
	void *p;

	if (more <= *cap - n)
		return 0;
	/* n + more elements of size bytes must fit in a size_t (n does) */
	if (more > SIZE_MAX / size - n)
		return -ENOMEM;
	p = reallocarray(*array, n + more, size);
	if (!p)
		return -ENOMEM;
	*array = p;
	*cap = n + more;
	return 0;
}
