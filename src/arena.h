/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A bump allocator: many small allocations that are freed together, in one
 * call (the conditions of a ruleset, the profile loader's scratch data).
 */
#pragma once

#include <stddef.h>

struct arena_chunk;

/* An arena; all zero is an empty arena, ready for use. */
struct arena {
	struct arena_chunk *chunks; /* the newest first */
	char *cur, *end;	    /* free room of the newest chunk */
};

/* size bytes aligned for any object, uninitialised; NULL on ENOMEM (and for
 * a size over half of SIZE_MAX). Lives until arena_free(a). */
void *arena_alloc(struct arena *a, size_t size);

/* n * size bytes, zeroed; NULL on ENOMEM or overflow. */
void *arena_calloc(struct arena *a, size_t n, size_t size);

/* A copy of the first n bytes of s (fewer if s ends before), with a NUL;
 * NULL on ENOMEM. */
char *arena_strndup(struct arena *a, const char *s, size_t n);

/* A copy of s; NULL on ENOMEM. */
char *arena_strdup(struct arena *a, const char *s);

/* Free everything allocated from a and empty it (it may be used again). */
void arena_free(struct arena *a);
