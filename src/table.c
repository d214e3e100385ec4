/*
 * table.c - the sample table; see table.h.
 *
 * Metric keys are interned in an open-addressing hash table (linear
 * probing, power-of-two size, at most half full), and so are the key
 * strings themselves.  While loading, each metric and side has a fill
 * state: the array's capacity, the last file seen and, only for the rare
 * metric a file reports more than once, where each file's samples start.
 */
#include "table.h"

#include <stdlib.h>
#include <string.h>

struct pv_fill {
	uint32_t cap;           /* room in the metric's array */
	uint32_t last;          /* the last file seen + 1 */
	uint32_t cur;           /* samples from that file */
	uint32_t nstart;
	uint32_t *fstart;       /* where each file's samples start, or NULL */
};

void pv_table_init(struct pv_table *t, size_t max_metrics)
{
	memset(t, 0, sizeof(*t));
	t->max_metrics = max_metrics;
	t->cap_hint = 1;
	t->pool.block_size = 1 << 20;
}

static void fill_release(struct pv_table *t)
{
	if (!t->fill)
		return;
	for (size_t i = 0; i < t->n * 2; i++)
		free(t->fill[i].fstart);
	free(t->fill);
	t->fill = NULL;
}

void pv_table_release(struct pv_table *t)
{
	fill_release(t);
	for (int s = 0; s < 2; s++)
		free(t->side[s].context);
	arena_release(&t->pool);
	free(t->m);
	free(t->slots);
	free(t->strs);
	arena_release(&t->arena);
	memset(t, 0, sizeof(*t));
}

/* FNV-1a over the key's fields, each followed by a separator byte. */
uint64_t pv_hash_add(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (h ^ 0xff) * 0x100000001b3ULL;
}

/* FNV's low bits are weak for keys that differ only at their end (the
 * metric name after a long shared prefix), and linear probing turns that
 * into long clusters; a final avalanche (splitmix64's) spreads them. */
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

static uint64_t hash_key(const struct pv_key *k)
{
	uint64_t h = PV_HASH_INIT;

	h = pv_hash_add(h, k->suite);
	h = pv_hash_add(h, k->test);
	h = pv_hash_add(h, k->group);
	h = pv_hash_add(h, k->benchmark);
	return pv_hash_add(h, k->metric);
}

/* Keys from the registry carry the table's own copies of the common
 * strings, so most comparisons end at a pointer test. */
static int same(const char *a, const char *b)
{
	return a == b || !strcmp(a, b);
}

static int key_eq(const struct pv_key *a, const struct pv_key *b)
{
	return same(a->metric, b->metric) && same(a->benchmark, b->benchmark) &&
	       same(a->group, b->group) && same(a->test, b->test) &&
	       same(a->suite, b->suite);
}

static void rehash(struct pv_table *t)
{
	size_t nslots = t->nslots ? t->nslots * 2 : 1024;
	uint64_t *slots = pv_calloc(nslots, sizeof(*slots));

	for (size_t i = 0; i < t->n; i++) {
		size_t j = slot_of(t->m[i].hash, nslots);

		while (slots[j])
			j = (j + 1) & (nslots - 1);
		slots[j] = slot_value(t->m[i].hash, i);
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = nslots;
}

/* Key strings repeat a lot (every row has a "throughput"), so each
 * distinct string is stored once, found through its own hash set. */
const char *pv_table_str(struct pv_table *t, const char *s)
{
	size_t j;

	if (t->nstrs * 2 >= t->nstrslots) {
		size_t n = t->nstrslots ? t->nstrslots * 2 : 1024;
		const char **slots = pv_calloc(n, sizeof(*slots));

		for (size_t i = 0; i < t->nstrslots; i++) {
			if (!t->strs[i])
				continue;
			j = slot_of(pv_hash_add(PV_HASH_INIT, t->strs[i]), n);
			while (slots[j])
				j = (j + 1) & (n - 1);
			slots[j] = t->strs[i];
		}
		free(t->strs);
		t->strs = slots;
		t->nstrslots = n;
	}
	j = slot_of(pv_hash_add(PV_HASH_INIT, s), t->nstrslots);
	for (; t->strs[j]; j = (j + 1) & (t->nstrslots - 1))
		if (!strcmp(t->strs[j], s))
			return t->strs[j];
	t->nstrs++;
	return t->strs[j] = arena_strdup(&t->arena, s);
}

int pv_table_is(const struct pv_table *t, size_t i, const struct pv_key *k,
		uint64_t h)
{
	return i < t->n && t->m[i].hash == h && key_eq(&t->m[i].key, k);
}

long pv_table_intern(struct pv_table *t, const struct pv_key *k,
		     struct pv_err *err)
{
	return pv_table_intern_hashed(t, k, hash_key(k), err);
}

long pv_table_intern_hashed(struct pv_table *t, const struct pv_key *k,
			    uint64_t hash, struct pv_err *err)
{
	struct pv_metric *m;
	size_t j;

	if (t->n * 2 >= t->nslots)
		rehash(t);
	j = slot_of(hash, t->nslots);
	for (; t->slots[j]; j = (j + 1) & (t->nslots - 1)) {
		uint64_t v = t->slots[j];
		size_t i = (size_t)(v & 0xffffffffULL) - 1;

		if ((v >> 32) == (hash >> 32) && t->m[i].hash == hash &&
		    key_eq(&t->m[i].key, k))
			return (long)i;
	}

	if (t->max_metrics && t->n >= t->max_metrics) {
		pv_error(err, PV_EINPUT,
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
	m->key.suite = pv_table_str(t, k->suite);
	m->key.test = pv_table_str(t, k->test);
	m->key.group = pv_table_str(t, k->group);
	m->key.benchmark = pv_table_str(t, k->benchmark);
	m->key.metric = pv_table_str(t, k->metric);
	m->unit = "";
	m->hash = hash;
	m->ratio_num = m->ratio_den = -1;
	t->slots[j] = slot_value(hash, t->n);
	return (long)t->n++;
}

void pv_table_hint(struct pv_table *t, uint32_t files)
{
	t->cap_hint = files ? files : 1;
}

/* Make room for one more sample: twice the room, from the pool. */
static void grow(struct pv_table *t, struct pv_metric *m, int side,
		 struct pv_fill *f)
{
	uint32_t cap = f->cap ? f->cap * 2 : t->cap_hint;
	double *v = arena_alloc(&t->pool, (size_t)cap * sizeof(*v));

	if (m->n[side])
		memcpy(v, m->v[side], m->n[side] * sizeof(*v));
	m->v[side] = v;
	f->cap = cap;
}

static void add_start(struct pv_fill *f, uint32_t at)
{
	/* Grow at powers of two. */
	if (!(f->nstart & (f->nstart - 1)))
		f->fstart = pv_reallocarray(f->fstart, f->nstart ? f->nstart * 2 : 4,
					    sizeof(*f->fstart));
	f->fstart[f->nstart++] = at;
}

void pv_table_add(struct pv_table *t, size_t metric, enum pv_side side,
		  uint32_t file, double v)
{
	struct pv_metric *m = &t->m[metric];
	struct pv_fill *f = &t->fill[metric * 2 + side];

	if (f->last != file + 1) {
		f->last = file + 1;
		f->cur = 0;
		m->files[side]++;
		if (f->fstart)
			add_start(f, m->n[side]);
	} else if (!f->fstart) {
		/* A file's second sample of this metric: until now every
		 * file gave one, so file j started at j. */
		for (uint32_t j = 0; j < m->files[side]; j++)
			add_start(f, j);
	}
	if (++f->cur > m->per_file[side])
		m->per_file[side] = f->cur;
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

/* Replace a side's samples by one mean per file. */
static void collapse(struct pv_metric *m, int side, const struct pv_fill *f)
{
	double *v = m->v[side];

	for (uint32_t j = 0; j < f->nstart; j++) {
		uint32_t start = f->fstart[j];
		uint32_t end = j + 1 < f->nstart ? f->fstart[j + 1] : m->n[side];
		double sum = 0;

		for (uint32_t i = start; i < end; i++)
			sum += v[i];
		v[j] = sum / (end - start);
	}
	m->n[side] = f->nstart;
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
			/* Several files, some with several samples: the
			 * repeat (process) is the unit of noise. */
			if (m->files[s] > 1 && m->per_file[s] > 1)
				collapse(m, s, &t->fill[i * 2 + s]);
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
	free(t->strs);
	t->slots = NULL;
	t->strs = NULL;
	t->nslots = t->nstrslots = 0;
	if (t->n && t->n < t->alloc) {
		t->m = pv_reallocarray(t->m, t->n, sizeof(*t->m));
		t->alloc = t->n;
	}
}
