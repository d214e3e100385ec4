/*
 * strmap.h - the one string hash set of the program: the table's key
 * strings (each distinct string stored once, so that keys compare by
 * pointer), a reader's per-file map of row keys (csv.c: a metric's unit
 * and the line that gave it), the JUnit writer's names.
 *
 * Each key is copied once into an arena, after a small header holding
 * its entry number, its length and its 64-bit hash (the hash last, just
 * before the key), so a key's pointer is stable for the arena's life and
 * its hash and length cost nothing to read again.  Open addressing over
 * the keys' pointers, at most half full: a probe touches the slot and
 * the key's own memory, nothing else.  Each key has an entry for its
 * user (two numbers and a string, zero for a new key).
 */
#ifndef PV_STRMAP_H
#define PV_STRMAP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "arena.h"

struct pv_strmap_ent {
	const char *key;        /* the map's copy, NUL-terminated */
	const char *str;        /* the user's (pv_strmap_keep()), or NULL */
	size_t val[2];          /* the user's */
};

struct pv_strmap {
	struct arena *keys;     /* where keys go; NULL: own */
	struct arena own;
	const char **slot;      /* the keys; NULL is empty */
	size_t nslot;           /* a power of two, or 0 */
	struct pv_strmap_ent *e; /* by entry number */
	size_t n, alloc;
};

#define PV_STRMAP_INIT { NULL, ARENA_INIT, NULL, 0, NULL, 0, 0 }

/* Keys into the caller's arena (they outlive the map), or with keys
 * NULL into the map's own (freed by pv_strmap_release()). */
void pv_strmap_init(struct pv_strmap *m, struct arena *keys);

/* The hash pv_strmap uses, of n bytes. */
uint64_t pv_strmap_hash_bytes(const char *p, size_t n);

/* The map's copy of p[0..n), added if new (*added says which, when
 * added is not NULL).  Stable until the arena goes. */
const char *pv_strmap_intern(struct pv_strmap *m, const char *p, size_t n,
			     int *added);
/* The same, and its entry; the pointer is valid until the next add. */
struct pv_strmap_ent *pv_strmap_put(struct pv_strmap *m, const char *p,
				    size_t n, int *added);
/* A NUL-terminated copy of s in the map's arena, outside the set. */
const char *pv_strmap_keep(struct pv_strmap *m, const char *s);
/* Free the set and the entries; the keys go with their arena (the
 * map's own arena is released here). */
void pv_strmap_release(struct pv_strmap *m);

/* The hash and the length of a key the map returned. */
static inline uint64_t pv_strmap_hash(const char *key)
{
	uint64_t h;

	memcpy(&h, key - sizeof(h), sizeof(h));
	return h;
}

static inline size_t pv_strmap_len(const char *key)
{
	size_t n;

	memcpy(&n, key - sizeof(uint64_t) - sizeof(n), sizeof(n));
	return n;
}

/* Is the key the map returned the n bytes at p?  Keys are names, a few
 * bytes long: compared here a word at a time (the last word overlapping
 * the one before), which costs less than a call of memcmp(). */
static inline int pv_strmap_is(const char *key, const char *p, size_t n)
{
	uint64_t a, b;
	uint32_t x, y, z, w;

	if (pv_strmap_len(key) != n)
		return 0;
	if (n < 4) {
		while (n && *key == *p) {
			key++;
			p++;
			n--;
		}
		return !n;
	}
	if (n <= 8) {
		memcpy(&x, key, 4);
		memcpy(&y, p, 4);
		memcpy(&z, key + n - 4, 4);
		memcpy(&w, p + n - 4, 4);
		return x == y && z == w;
	}
	for (; n > 8; key += 8, p += 8, n -= 8) {
		memcpy(&a, key, 8);
		memcpy(&b, p, 8);
		if (a != b)
			return 0;
	}
	memcpy(&a, key + n - 8, 8);
	memcpy(&b, p + n - 8, 8);
	return a == b;
}

#endif
