/* strmap.c - see strmap.h. */
#include "strmap.h"

#include <stdlib.h>
#include <string.h>
#include "err.h"
#include "banned.h"

static uint64_t fnv1a(const char *p, size_t n)
{
	uint64_t h = 14695981039346656037ULL;

	while (n--)
		h = (h ^ (unsigned char)*p++) * 1099511628211ULL;
	return h;
}

static void rehash(struct pv_strmap *m)
{
	size_t mask;

	m->nslot = m->nslot ? m->nslot * 2 : 64;
	free(m->slot);
	m->slot = pv_calloc(m->nslot, sizeof(*m->slot));
	mask = m->nslot - 1;
	for (size_t i = 0; i < m->n; i++) {
		size_t j = (size_t)m->e[i].hash & mask;

		while (m->slot[j])
			j = (j + 1) & mask;
		m->slot[j] = (uint32_t)(i + 1);
	}
}

struct pv_strmap_ent *pv_strmap_put(struct pv_strmap *m, const char *p,
				    size_t n, int *added)
{
	uint64_t h = fnv1a(p, n);
	struct pv_strmap_ent *e;
	size_t mask, j;

	if (2 * (m->n + 1) > m->nslot)
		rehash(m);
	mask = m->nslot - 1;
	for (j = (size_t)h & mask; m->slot[j]; j = (j + 1) & mask) {
		e = &m->e[m->slot[j] - 1];
		if (e->hash == h && e->len == n &&
		    !memcmp(m->pool.buf + e->off, p, n)) {
			*added = 0;
			return e;
		}
	}
	if (m->n == m->alloc) {
		m->alloc = m->alloc ? 2 * m->alloc : 64;
		m->e = pv_reallocarray(m->e, m->alloc, sizeof(*m->e));
	}
	e = &m->e[m->n];
	memset(e, 0, sizeof(*e));
	e->hash = h;
	e->off = m->pool.len;
	e->len = n;
	strbuf_add(&m->pool, p, n);
	m->slot[j] = (uint32_t)(++m->n);
	*added = 1;
	return e;
}

size_t pv_strmap_keep(struct pv_strmap *m, const char *s)
{
	size_t off = m->pool.len;

	strbuf_addstr(&m->pool, s);
	strbuf_addch(&m->pool, '\0');
	return off;
}

const char *pv_strmap_str(const struct pv_strmap *m, size_t off)
{
	return m->pool.buf + off;
}

void pv_strmap_release(struct pv_strmap *m)
{
	strbuf_release(&m->pool);
	free(m->e);
	free(m->slot);
	m->e = NULL;
	m->slot = NULL;
	m->n = m->alloc = m->nslot = 0;
}
