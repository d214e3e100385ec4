/* strmap.c - see strmap.h. */
#include "strmap.h"

#include <stdlib.h>
#include <string.h>
#include "err.h"
#include "banned.h"

/* In front of every key, the hash last so that it ends where the key
 * begins (pv_strmap_hash()).  Arena memory is aligned for it. */
struct head {
	size_t id;              /* entry number */
	size_t len;
	uint64_t hash;
};

static const struct head *head_of(const char *key)
{
	return (const struct head *)(const void *)(key - sizeof(struct head));
}

void pv_strmap_init(struct pv_strmap *m, struct arena *keys)
{
	const struct pv_strmap empty = PV_STRMAP_INIT;

	*m = empty;
	m->keys = keys;
}

/* Eight bytes at a time, multiplied in (FNV's way), then splitmix64's
 * finaliser so that every bit of the input reaches the low bits, which
 * pick the slot. */
uint64_t pv_strmap_hash_bytes(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ n, w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x100000001b3ULL;
		h ^= h >> 29;
	}
	for (w = 0; n; n--)
		w = w << 8 | (unsigned char)s[n - 1];
	h = (h ^ w) * 0x100000001b3ULL;
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	return h ^ (h >> 31);
}

static struct arena *arena_of(struct pv_strmap *m)
{
	return m->keys ? m->keys : &m->own;
}

static void grow(struct pv_strmap *m)
{
	size_t ns = m->nslot ? st_mult(m->nslot, 2) : 256, mask = ns - 1;
	const char **slot;

	CALLOC_ARRAY(slot, ns);
	for (size_t i = 0; i < m->nslot; i++) {
		size_t j;

		if (!m->slot[i])
			continue;
		for (j = head_of(m->slot[i])->hash & mask; slot[j];
		     j = (j + 1) & mask)
			;
		slot[j] = m->slot[i];
	}
	free(m->slot);
	m->slot = slot;
	m->nslot = ns;
}

const char *pv_strmap_intern(struct pv_strmap *m, const char *p, size_t n,
			     int *added)
{
	uint64_t h = pv_strmap_hash_bytes(p, n);
	struct head *hd;
	size_t mask, j;
	char *key;

	if (2 * (m->n + 1) > m->nslot)
		grow(m);
	mask = m->nslot - 1;
	for (j = h & mask; m->slot[j]; j = (j + 1) & mask) {
		const char *q = m->slot[j];
		const struct head *qh = head_of(q);

		if (qh->hash == h && qh->len == n && !memcmp(q, p, n)) {
			if (added)
				*added = 0;
			return q;
		}
	}
	if (m->n == m->alloc) {
		m->alloc = m->alloc ? st_mult(m->alloc, 2) : 64;
		REALLOC_ARRAY(m->e, m->alloc);
	}
	hd = arena_alloc(arena_of(m), st_add(sizeof(*hd), st_add(n, 1)));
	hd->id = m->n;
	hd->len = n;
	hd->hash = h;
	key = (char *)(hd + 1);
	memcpy(key, p, n);
	key[n] = '\0';
	memset(&m->e[m->n], 0, sizeof(m->e[m->n]));
	m->e[m->n++].key = key;
	if (added)
		*added = 1;
	return m->slot[j] = key;
}

struct pv_strmap_ent *pv_strmap_put(struct pv_strmap *m, const char *p,
				    size_t n, int *added)
{
	/* Intern first: it may move m->e. */
	const char *key = pv_strmap_intern(m, p, n, added);

	return &m->e[head_of(key)->id];
}

const char *pv_strmap_keep(struct pv_strmap *m, const char *s)
{
	return arena_strdup(arena_of(m), s);
}

void pv_strmap_release(struct pv_strmap *m)
{
	free(m->slot);
	free(m->e);
	arena_release(&m->own);
	pv_strmap_init(m, m->keys);
}
