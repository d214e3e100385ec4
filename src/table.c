/*
 * table.c - the sample table; see table.h.
 *
 * Metric keys are interned in an open-addressing hash table (linear
 * probing, power-of-two size, at most half full), and so are the key
 * strings themselves, each stored after its hash so that a key's hash is
 * a few multiplications and its comparison five pointer tests.  While
 * loading, each metric and side has a fill state: the array's capacity
 * and the last file seen; only the rare metric a file reports more than
 * once also gets a pv_multi, with where each file's samples start.
 */
#include "table.h"
#include "stats.h"

#include <stdlib.h>
#include <string.h>
#include "util/banned.h"

/* File j < first started at sample j (each file before the one that gave
 * a second sample gave one); only the starts after those are stored, so
 * a metric repeated within its only file (a point of an archive, runs one
 * after another) allocates nothing. */
struct pv_multi {
	uint32_t cur;           /* samples from the last file */
	uint32_t first;         /* files that started at their index */
	uint32_t nstart;        /* starts stored in fstart */
	uint32_t *fstart;       /* where each later file's samples start */
};

/* Sample arrays are cut from blocks of this many doubles; an array that
 * does not fit in what is left of the block gets a fresh one (the rest
 * is never touched, so it costs address space, not memory). */
#define POOL_BLOCK (1u << 17)

struct pv_pool_block {
	struct pv_pool_block *next;
	size_t used, size;
	double v[];
};

void pv_table_init(struct pv_table *t, size_t max_metrics)
{
	memset(t, 0, sizeof(*t));
	t->max_metrics = max_metrics;
	t->cap_hint = 1;
	pv_strmap_init(&t->strs, &t->arena);
	t->strset = &t->strs;
}

void pv_table_init_shared(struct pv_table *t, size_t max_metrics,
			  struct pv_strmap *strs)
{
	pv_table_init(t, max_metrics);
	t->strset = strs;
}

static void fill_release(struct pv_table *t)
{
	for (size_t i = 0; i < t->nmulti; i++)
		free(t->multi[i].fstart);
	free(t->multi);
	free(t->fill);
	t->multi = NULL;
	t->fill = NULL;
	t->nmulti = t->alloc_multi = 0;
}

void pv_table_release(struct pv_table *t)
{
	struct pv_pool_block *b, *next;

	fill_release(t);
	for (int s = 0; s < 2; s++) {
		free(t->side[s].context);
		free(t->side[s].finfo);
	}
	for (b = t->pool; b; b = next) {
		next = b->next;
		free(b);
	}
	free(t->m);
	free(t->slots);
	pv_strmap_release(&t->strs);
	arena_release(&t->arena);
	memset(t, 0, sizeof(*t));
}

/* Keys that differ in one field differ by a multiple of the mixing
 * constant; linear probing wants the low bits spread, so mix again. */
static size_t slot_of(uint64_t h, size_t nslots)
{
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 31;
	return (size_t)h & (nslots - 1);
}

/* A slot holds the hash's top half beside the index, so a probe that
 * meets another key mostly settles it without touching the metric. */
static uint64_t slot_value(uint64_t h, size_t i)
{
	return (h & 0xffffffff00000000ULL) | ((uint64_t)i + 1);
}

/* The hash of a key of table strings. */
static uint64_t hash_key(const struct pv_key *k)
{
	uint64_t h = PV_HASH_INIT;

	h = pv_hash_mix(h, k->suite);
	h = pv_hash_mix(h, k->test);
	h = pv_hash_mix(h, k->group);
	h = pv_hash_mix(h, k->benchmark);
	return pv_hash_mix(h, k->metric);
}

static void rehash_to(struct pv_table *t, size_t nslots)
{
	uint64_t *slots = pv_calloc(nslots, sizeof(*slots));

	for (size_t i = 0; i < t->n; i++) {
		uint64_t h = hash_key(&t->m[i].key);
		size_t j = slot_of(h, nslots);

		while (slots[j])
			j = (j + 1) & (nslots - 1);
		slots[j] = slot_value(h, i);
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = nslots;
	t->nhashed = t->n;
}

/* Slots for every metric, with room for one more: those added without
 * one (pv_table_intern_hashed()) get theirs now. */
static void hash_pending(struct pv_table *t)
{
	size_t ns = t->nslots ? t->nslots : 1024;

	if (t->n * 2 >= t->nslots) {
		while (t->n * 2 >= ns)
			ns = st_mult(ns, 2);
		rehash_to(t, ns);
		return;
	}
	for (; t->nhashed < t->n; t->nhashed++) {
		uint64_t h = hash_key(&t->m[t->nhashed].key);
		size_t j = slot_of(h, t->nslots);

		while (t->slots[j])
			j = (j + 1) & (t->nslots - 1);
		t->slots[j] = slot_value(h, t->nhashed);
	}
}

void pv_table_reserve(struct pv_table *t, size_t n)
{
	size_t ns = t->nslots ? t->nslots : 1024;

	if (n > t->alloc) {
		t->alloc = n;
		t->m = pv_reallocarray(t->m, t->alloc, sizeof(*t->m));
		t->fill = pv_reallocarray(t->fill, st_mult(t->alloc, 2),
					  sizeof(*t->fill));
	}
	while (ns <= st_mult(n, 2))
		ns = st_mult(ns, 2);
	if (ns > t->nslots)
		rehash_to(t, ns);
}

/* Key strings repeat a lot (every row has a "throughput"), so each
 * distinct string is stored once, in the table's arena, found through
 * the string set (util/strmap.h), which also keeps its hash in front of
 * it (pv_str_hash()). */
const char *pv_table_strn(struct pv_table *t, const char *s, size_t n)
{
	return pv_strmap_intern(t->strset, s, n, NULL);
}

const char *pv_table_str(struct pv_table *t, const char *s)
{
	return pv_table_strn(t, s, strlen(s));
}

long pv_table_intern(struct pv_table *t, const struct pv_key *k,
		     struct pv_err *err)
{
	struct pv_key own = {
		pv_table_str(t, k->suite), pv_table_str(t, k->test),
		pv_table_str(t, k->group), pv_table_str(t, k->benchmark),
		pv_table_str(t, k->metric),
	};

	return pv_table_intern_hashed(t, &own, hash_key(&own), err);
}

/* Metric t->n, of key k, new. */
static long add_metric(struct pv_table *t, const struct pv_key *k,
		       struct pv_err *err)
{
	struct pv_metric *m;

	if (t->max_metrics && t->n >= t->max_metrics) {
		pv_error(err, PV_M_TOO_MANY_METRICS,
			 "more than %zu metrics (limits.max_metrics)",
			 t->max_metrics);
		return -1;
	}
	if (t->n == t->alloc) {
		t->alloc = t->alloc ? t->alloc * 2 : 256;
		t->m = pv_reallocarray(t->m, t->alloc, sizeof(*t->m));
		t->fill = pv_reallocarray(t->fill, t->alloc * 2, sizeof(*t->fill));
	}
	memset(&t->fill[t->n * 2], 0, 2 * sizeof(*t->fill));
	m = &t->m[t->n];
	memset(m, 0, sizeof(*m));
	m->key = *k;
	m->unit = "";
	m->ratio_num = m->ratio_den = -1;
	return (long)t->n++;
}

long pv_table_intern_hashed(struct pv_table *t, const struct pv_key *k,
			    uint64_t hash, struct pv_err *err)
{
	size_t j;
	long i;

	/*
	 * A table read in the order of the one before (t->like: history's
	 * points) gets the metrics of that one, in its order: while its
	 * metrics are all like's first ones (nlikeseq of them), the key of
	 * like's next differs from every one of them, so it is new without
	 * a probe.  The slots of metrics added so are filled in only when
	 * some key is looked up (hash_pending()), which a point that names
	 * its metrics in the same order again never needs (see find() in
	 * readers/registry.c).
	 */
	if (t->nlikeseq == t->n && t->n < t->nlike &&
	    pv_key_same(&t->like[t->n].key, k)) {
		if ((i = add_metric(t, k, err)) >= 0)
			t->nlikeseq++;
		return i;
	}
	hash_pending(t);
	j = slot_of(hash, t->nslots);
	for (; t->slots[j]; j = (j + 1) & (t->nslots - 1)) {
		uint64_t v = t->slots[j];

		i = (long)(v & 0xffffffffULL) - 1;
		if ((v >> 32) == (hash >> 32) && pv_table_is(t, (size_t)i, k))
			return i;
	}
	if ((i = add_metric(t, k, err)) < 0)
		return -1;
	t->slots[j] = slot_value(hash, (size_t)i);
	t->nhashed = t->n;
	return i;
}

void pv_table_hint(struct pv_table *t, uint32_t files)
{
	t->cap_hint = files ? files : 1;
}

/* n doubles from the pool, exactly. */
static double *pool_alloc(struct pv_table *t, size_t n)
{
	struct pv_pool_block *b = t->pool;

	if (!b || b->size - b->used < n) {
		size_t size = n > POOL_BLOCK ? n : POOL_BLOCK;

		b = pv_malloc(st_add(sizeof(*b), st_mult(size, sizeof(double))));
		b->used = 0;
		b->size = size;
		b->next = t->pool;
		t->pool = b;
	}
	b->used += n;
	return b->v + b->used - n;
}

/* Make room for one more sample: the test's number of files at first
 * (one sample per repeat), or as many samples as the metric at its place
 * in the table read before had when that is more (history's points: the
 * same metrics, each with its runs in one file); twice the room after
 * that. */
static void grow(struct pv_table *t, struct pv_metric *m, int side,
		 struct pv_fill *f)
{
	uint32_t cap = f->cap ? f->cap * 2 : t->cap_hint;
	double *v;

	if (!f->cap && (size_t)(m - t->m) < t->nlike &&
	    t->like[m - t->m].n[side] > cap)
		cap = t->like[m - t->m].n[side];
	v = pool_alloc(t, cap);

	if (m->n[side])
		memcpy(v, m->v[side], m->n[side] * sizeof(*v));
	m->v[side] = v;
	f->cap = cap;
}

static void add_start(struct pv_multi *mu, uint32_t at)
{
	/* Grow at powers of two. */
	if (!(mu->nstart & (mu->nstart - 1)))
		mu->fstart = pv_reallocarray(mu->fstart,
					     mu->nstart ? mu->nstart * 2 : 4,
					     sizeof(*mu->fstart));
	mu->fstart[mu->nstart++] = at;
}

/* A file's second sample of a metric: until now every file gave one, so
 * file j started at j (mu->first). */
static struct pv_multi *start_multi(struct pv_table *t, struct pv_metric *m,
				    int side, struct pv_fill *f)
{
	struct pv_multi *mu;

	if (t->nmulti == t->alloc_multi) {
		t->alloc_multi = t->alloc_multi ? t->alloc_multi * 2 : 16;
		t->multi = pv_reallocarray(t->multi, t->alloc_multi,
					   sizeof(*t->multi));
	}
	mu = &t->multi[t->nmulti++];
	memset(mu, 0, sizeof(*mu));
	mu->first = m->files[side];
	mu->cur = 1;
	f->multi = (uint32_t)t->nmulti;
	return mu;
}

/* pv_table_add() for all cases. */
void pv_table_add_slow(struct pv_table *t, size_t metric, enum pv_side side,
		       uint32_t file, double v)
{
	struct pv_metric *m = &t->m[metric];
	struct pv_fill *f = &t->fill[metric * 2 + side];

	if (f->last != file + 1) {
		f->last = file + 1;
		m->files[side]++;
		if (f->multi) {
			struct pv_multi *mu = &t->multi[f->multi - 1];

			add_start(mu, m->n[side]);
			mu->cur = 1;
		}
		if (!m->per_file[side])
			m->per_file[side] = 1;
	} else {
		struct pv_multi *mu = f->multi ? &t->multi[f->multi - 1] :
				      start_multi(t, m, side, f);

		if (++mu->cur > m->per_file[side])
			m->per_file[side] = mu->cur;
	}
	if (m->n[side] == f->cap)
		grow(t, m, side, f);
	m->v[side][m->n[side]++] = v;
	m->seen[side] = 1;
}

void pv_table_summary(struct pv_table *t, size_t metric, enum pv_side side,
		      uint32_t file, uint32_t n, double mean, double sd)
{
	struct pv_metric *m = &t->m[metric];
	struct pv_msum *s = m->sum[side];

	if (!s) {
		s = arena_alloc(&t->arena, sizeof(*s));
		memset(s, 0, sizeof(*s));
		m->sum[side] = s;
	}
	s->mean = mean;
	s->sd = sd;
	s->n = n;
	s->file = file;
	s->only = 0;
	if (n > s->max_n)
		s->max_n = n;
	pv_table_add(t, metric, side, file, mean);
}

/* Is value one of the "; "-separated parts of list? */
static int has_part(const char *list, const char *value)
{
	size_t n = strlen(value);

	for (const char *p = list;;) {
		const char *end = strstr(p, "; ");
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == n && !strncmp(p, value, n))
			return 1;
		if (!end)
			return 0;
		p = end + 2;
	}
}

void pv_table_context(struct pv_table *t, enum pv_side side,
		      const char *key, const char *value)
{
	struct pv_sidemeta *sm = &t->side[side];

	for (size_t i = 0; i < sm->ncontext; i++) {
		struct pv_kv *kv = &sm->context[i];

		if (strcmp(kv->key, key))
			continue;
		if (!has_part(kv->value, value))
			kv->value = arena_printf(&t->arena, "%s; %s",
						 kv->value, value);
		return;
	}
	if (sm->ncontext == sm->alloc_context) {
		sm->alloc_context = sm->alloc_context ? sm->alloc_context * 2 : 8;
		sm->context = pv_reallocarray(sm->context, sm->alloc_context,
					      sizeof(*sm->context));
	}
	sm->context[sm->ncontext].key = arena_strdup(&t->arena, key);
	sm->context[sm->ncontext++].value = arena_strdup(&t->arena, value);
}

/* Where file j's samples start. */
static uint32_t start_of(const struct pv_multi *f, uint32_t j)
{
	return j < f->first ? j : f->fstart[j - f->first];
}

/* Replace a side's samples by one mean per file (the mean of stats:
 * numpy's summation). */
static void collapse(struct pv_metric *m, int side, const struct pv_multi *f)
{
	double *v = m->v[side];
	uint32_t files = f->first + f->nstart;

	for (uint32_t j = 0; j < files; j++) {
		uint32_t start = start_of(f, j);
		uint32_t end = j + 1 < files ? start_of(f, j + 1) : m->n[side];
		double mean;

		pv_mean_sd(v + start, end - start, &mean, NULL);
		v[j] = mean;
	}
	m->n[side] = files;
}

void pv_table_drop_metrics(struct pv_table *t)
{
	fill_release(t);
	free(t->m);
	t->m = NULL;
	t->n = t->alloc = 0;
}

void pv_table_trim(struct pv_table *t, size_t n)
{
	if (n >= t->n)
		return;
	if (!n) {
		pv_table_drop_metrics(t);
		return;
	}
	/* Shrinking a large block gives its tail back to the system. */
	t->m = pv_reallocarray(t->m, n, sizeof(*t->m));
	t->n = t->alloc = n;
}

void pv_table_finish(struct pv_table *t)
{
	if (t->finished)
		return;
	t->finished = 1;
	for (size_t i = 0; i < t->n; i++) {
		struct pv_metric *m = &t->m[i];

		for (int s = 0; s < 2; s++) {
			const struct pv_fill *f = &t->fill[i * 2 + s];

			/* Several files, some with several samples: the
			 * repeat (process) is the unit of noise.  (A file
			 * gave two, so the metric has a pv_multi.) */
			if (m->files[s] > 1 && m->per_file[s] > 1)
				collapse(m, s, &t->multi[f->multi - 1]);
			else
				m->per_file[s] = 1;
			/* Summaries: one file's is the side's summary;
			 * several files' means are samples, each the mean
			 * of up to max_n of that repeat's samples. */
			if (m->sum[s] && m->files[s] == 1)
				m->sum[s]->only = 1;
			else if (m->sum[s] && m->sum[s]->max_n > 1)
				m->per_file[s] = m->sum[s]->max_n;
		}
	}
	fill_release(t);
	free(t->slots);
	pv_strmap_release(&t->strs);    /* a shared set stays */
	t->slots = NULL;
	t->nslots = 0;
	if (t->n && t->n < t->alloc) {
		t->m = pv_reallocarray(t->m, t->n, sizeof(*t->m));
		t->alloc = t->n;
	}
}
