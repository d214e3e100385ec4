/*
 * strmap.h - a set of byte strings, each with two numbers for its user:
 * the small hash table the readers keep while reading one file (a row
 * key and the line it was first seen on; a metric and its unit).  Keys
 * are copied into the map's pool; open addressing, at most half full.
 */
#ifndef PV_STRMAP_H
#define PV_STRMAP_H

#include <stddef.h>
#include <stdint.h>
#include "strbuf.h"

struct pv_strmap_ent {
	uint64_t hash;
	size_t off, len;        /* the key, in the pool */
	size_t val[2];          /* the user's; 0 for a new entry */
};

struct pv_strmap {
	struct strbuf pool;
	struct pv_strmap_ent *e;
	size_t n, alloc;
	uint32_t *slot;         /* entry index + 1; 0 is empty */
	size_t nslot;           /* a power of two, or 0 */
};

#define PV_STRMAP_INIT { STRBUF_INIT, NULL, 0, 0, NULL, 0 }

/* The entry of key p[0..n), added if new (*added says which).  The
 * pointer is valid until the next put. */
struct pv_strmap_ent *pv_strmap_put(struct pv_strmap *m, const char *p,
				    size_t n, int *added);
/* Keep a NUL-terminated copy of s in the pool; returns its offset, which
 * pv_strmap_str() turns back into a string. */
size_t pv_strmap_keep(struct pv_strmap *m, const char *s);
const char *pv_strmap_str(const struct pv_strmap *m, size_t off);
void pv_strmap_release(struct pv_strmap *m);

#endif
