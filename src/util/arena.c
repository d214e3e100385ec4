/* arena.c - bump allocator; see arena.h. */
#include "arena.h"

#include <stdalign.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "err.h"
#include "banned.h"

struct arena_block {
	struct arena_block *next;
	size_t used, size;
	alignas(max_align_t) unsigned char data[];
};

#define ARENA_MIN_BLOCK (64 * 1024)

void arena_release(struct arena *a)
{
	struct arena_block *b = a->head, *next;

	for (; b; b = next) {
		next = b->next;
		free(b);
	}
	a->head = NULL;
}

void *arena_alloc(struct arena *a, size_t n)
{
	const size_t align = alignof(max_align_t);
	struct arena_block *b = a->head;
	size_t size;

	n = st_add(n, align - 1) & ~(align - 1);
	if (!b || b->size - b->used < n) {
		size = a->block_size ? a->block_size : ARENA_MIN_BLOCK;
		/* Grow geometrically so huge inputs need few blocks. */
		if (b && b->size * 2 > size)
			size = b->size * 2 > 64u << 20 ? 64u << 20 : b->size * 2;
		if (size < n)
			size = n;
		b = pv_malloc(st_add(sizeof(*b), size));
		b->size = size;
		b->used = 0;
		b->next = a->head;
		a->head = b;
	}
	b->used += n;
	return b->data + b->used - n;
}

void *arena_calloc(struct arena *a, size_t n, size_t size)
{
	size_t bytes = st_mult(n, size);

	return memset(arena_alloc(a, bytes), 0, bytes);
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

char *arena_printf(struct arena *a, const char *fmt, ...)
{
	va_list ap;
	char small[256], *p;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return arena_strdup(a, "");
	p = arena_alloc(a, (size_t)n + 1);
	if ((size_t)n < sizeof(small)) {
		memcpy(p, small, (size_t)n + 1);
	} else {
		va_start(ap, fmt);
		vsnprintf(p, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	return p;
}
