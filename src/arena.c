/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A bump allocator over a list of chunks: allocation moves a pointer, and
 * everything is freed at once. */
#include "arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_CHUNK 4096u /* bytes of a chunk's room, unless one allocation needs more */
#define ARENA_ALIGN alignof(max_align_t)

struct arena_chunk {
	struct arena_chunk *next;
	alignas(ARENA_ALIGN) char room[];
};

void *arena_alloc(struct arena *a, size_t size)
{
	struct arena_chunk *c;
	size_t want = (size + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1), room;
	char *p;

	if (size > SIZE_MAX / 2)
		return NULL;
	if (want == 0)
		want = ARENA_ALIGN;
	if ((size_t)(a->end - a->cur) >= want) {
		p = a->cur;
		a->cur += want;
		return p;
	}
	/* a new chunk; a large allocation gets one of its own, behind the
	 * current one, so that the current chunk's room is not lost */
	room = want > ARENA_CHUNK / 4 ? want : ARENA_CHUNK;
	c = malloc(sizeof(*c) + room);
	if (!c)
		return NULL;
	if (room == want && a->chunks) {
		c->next = a->chunks->next;
		a->chunks->next = c;
		return c->room;
	}
	c->next = a->chunks;
	a->chunks = c;
	a->cur = c->room + want;
	a->end = c->room + room;
	return c->room;
}

void *arena_calloc(struct arena *a, size_t n, size_t size)
{
	void *p;

	if (size && n > SIZE_MAX / 2 / size)
		return NULL;
	p = arena_alloc(a, n * size);
	if (p)
		memset(p, 0, n * size);
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = arena_alloc(a, len + 1);

	if (!p)
		return NULL;
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, SIZE_MAX);
}

void arena_free(struct arena *a)
{
	for (struct arena_chunk *c = a->chunks, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	*a = (struct arena){ 0 };
}
