/*
 * arena.h - bump allocation for strings and arrays that live as long as
 * one comparison (after git's mem-pool).  Nothing is freed one at a time;
 * arena_release() frees everything at once.
 */
#ifndef PV_ARENA_H
#define PV_ARENA_H

#include <stddef.h>

struct arena_block;

struct arena {
	struct arena_block *head;
	size_t block_size;
};

#define ARENA_INIT { NULL, 0 }

void arena_release(struct arena *a);
/* Memory aligned for any type; never NULL (aborts on exhaustion). */
void *arena_alloc(struct arena *a, size_t n);
/* n zeroed elements of size bytes (the product checked, as st_mult()). */
void *arena_calloc(struct arena *a, size_t n, size_t size);
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_strdup(struct arena *a, const char *s);
char *arena_printf(struct arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
