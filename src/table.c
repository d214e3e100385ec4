/*
 * table.c - the sample table; see table.h.
 *
 * Metric keys are interned in an open-addressing hash table (linear
 * probing, power-of-two size, at most half full).  Samples go to a log
 * of parallel arrays (metric index, value) per side, with the log
 * position where each file starts; pv_table_finish() groups them per
 * metric in two passes, like a counting sort, and frees the log.
 */
#include "table.h"

#include <stdlib.h>
#include <string.h>

struct side_log {
	uint32_t *metric;
	double *value;
	size_t n, alloc;
	size_t *file_start;     /* file_start[f]: first entry of file f */
	uint32_t nfiles;        /* files seen so far (max index + 1) */
};

struct pv_table_log {
	struct side_log side[2];
};

void pv_table_init(struct pv_table *t, size_t max_metrics)
{
	memset(t, 0, sizeof(*t));
	t->max_metrics = max_metrics;
	t->log = pv_calloc(1, sizeof(*t->log));
}

static void log_release(struct pv_table *t)
{
	if (!t->log)
		return;
	for (int s = 0; s < 2; s++) {
		free(t->log->side[s].metric);
		free(t->log->side[s].value);
		free(t->log->side[s].file_start);
	}
	free(t->log);
	t->log = NULL;
}

void pv_table_release(struct pv_table *t)
{
	log_release(t);
	for (int s = 0; s < 2; s++)
		free(t->side[s].context);
	free(t->store);
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

static uint64_t hash_key(const struct pv_key *k)
{
	uint64_t h = PV_HASH_INIT;

	h = pv_hash_add(h, k->suite);
	h = pv_hash_add(h, k->test);
	h = pv_hash_add(h, k->group);
	h = pv_hash_add(h, k->benchmark);
	return pv_hash_add(h, k->metric);
}

static int key_eq(const struct pv_key *a, const struct pv_key *b)
{
	return !strcmp(a->metric, b->metric) &&
	       !strcmp(a->benchmark, b->benchmark) &&
	       !strcmp(a->group, b->group) && !strcmp(a->test, b->test) &&
	       !strcmp(a->suite, b->suite);
}

static void rehash(struct pv_table *t)
{
	size_t nslots = t->nslots ? t->nslots * 2 : 1024;
	uint32_t *slots = pv_calloc(nslots, sizeof(*slots));

	for (size_t i = 0; i < t->n; i++) {
		size_t j = t->m[i].hash & (nslots - 1);

		while (slots[j])
			j = (j + 1) & (nslots - 1);
		slots[j] = (uint32_t)i + 1;
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = nslots;
}

/* Key strings repeat a lot (every row has a "throughput"), so each
 * distinct string is stored once, found through its own hash set. */
static const char *intern_str(struct pv_table *t, const char *s)
{
	size_t j;

	if (t->nstrs * 2 >= t->nstrslots) {
		size_t n = t->nstrslots ? t->nstrslots * 2 : 1024;
		const char **slots = pv_calloc(n, sizeof(*slots));

		for (size_t i = 0; i < t->nstrslots; i++) {
			if (!t->strs[i])
				continue;
			j = pv_hash_add(PV_HASH_INIT, t->strs[i]) & (n - 1);
			while (slots[j])
				j = (j + 1) & (n - 1);
			slots[j] = t->strs[i];
		}
		free(t->strs);
		t->strs = slots;
		t->nstrslots = n;
	}
	j = pv_hash_add(PV_HASH_INIT, s) & (t->nstrslots - 1);
	for (; t->strs[j]; j = (j + 1) & (t->nstrslots - 1))
		if (!strcmp(t->strs[j], s))
			return t->strs[j];
	t->nstrs++;
	return t->strs[j] = arena_strdup(&t->arena, s);
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
	j = hash & (t->nslots - 1);
	for (; t->slots[j]; j = (j + 1) & (t->nslots - 1)) {
		const struct pv_metric *c = &t->m[t->slots[j] - 1];

		if (c->hash == hash && key_eq(&c->key, k))
			return (long)t->slots[j] - 1;
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
	}
	m = &t->m[t->n];
	memset(m, 0, sizeof(*m));
	m->key.suite = intern_str(t, k->suite);
	m->key.test = intern_str(t, k->test);
	m->key.group = intern_str(t, k->group);
	m->key.benchmark = intern_str(t, k->benchmark);
	m->key.metric = intern_str(t, k->metric);
	m->unit = "";
	m->hash = hash;
	m->ratio_num = m->ratio_den = -1;
	t->slots[j] = (uint32_t)t->n + 1;
	return (long)t->n++;
}

void pv_table_add(struct pv_table *t, size_t metric, enum pv_side side,
		  uint32_t file, double v)
{
	struct side_log *l = &t->log->side[side];

	if (l->n == l->alloc) {
		l->alloc = l->alloc ? l->alloc * 2 : 4096;
		l->metric = pv_reallocarray(l->metric, l->alloc,
					    sizeof(*l->metric));
		l->value = pv_reallocarray(l->value, l->alloc,
					   sizeof(*l->value));
	}
	/* Files arrive in increasing order; remember where each starts. */
	while (l->nfiles <= file) {
		l->file_start = pv_reallocarray(l->file_start, l->nfiles + 1,
						sizeof(*l->file_start));
		l->file_start[l->nfiles++] = l->n;
	}
	l->metric[l->n] = (uint32_t)metric;
	l->value[l->n++] = v;
	t->m[metric].seen[side] = 1;
}

/* Is value one of the "; "-separated parts of list? */
static int has_part(const char *list, const char *value)
{
	size_t n = strlen(value);

	for (const char *p = list; p; p = strstr(p, "; ")) {
		if (p != list)
			p += 2;
		if (!strncmp(p, value, n) && (!p[n] || !strncmp(p + n, "; ", 2)))
			return 1;
	}
	return 0;
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

/* Per metric and side, while grouping. */
struct tally {
	uint32_t count;         /* samples */
	uint32_t files;         /* files that gave samples */
	uint32_t per_file;      /* most samples from one file */
	uint32_t cur;           /* samples in the current file */
	uint32_t last;          /* last file seen + 1 */
	uint32_t fill;          /* slots filled so far */
};

void pv_table_finish(struct pv_table *t)
{
	struct tally *ty;
	size_t total = 0;
	double *store;

	if (t->finished)
		return;
	t->finished = 1;
	ty = pv_calloc(t->n * 2 + 1, sizeof(*ty));
	for (int s = 0; s < 2; s++) {
		struct side_log *l = &t->log->side[s];

		for (uint32_t f = 0; f < l->nfiles; f++) {
			size_t end = f + 1 < l->nfiles ? l->file_start[f + 1] : l->n;

			for (size_t i = l->file_start[f]; i < end; i++) {
				struct tally *y = &ty[l->metric[i] * 2 + s];

				y->count++;
				if (y->last != f + 1) {
					y->last = f + 1;
					y->files++;
					y->cur = 0;
				}
				if (++y->cur > y->per_file)
					y->per_file = y->cur;
			}
		}
	}
	/* A metric that several files report, some more than once, uses
	 * one mean per file: the repeat (process) is the unit of noise. */
	for (size_t i = 0; i < t->n * 2; i++) {
		struct tally *y = &ty[i];

		if (y->files > 1 && y->per_file > 1)
			y->count = y->files;
		else
			y->per_file = y->per_file > 1 ? y->per_file : 1;
		total += y->count;
		y->last = 0;
	}
	store = pv_malloc((total ? total : 1) * sizeof(*store));
	total = 0;
	for (size_t i = 0; i < t->n; i++) {
		for (int s = 0; s < 2; s++) {
			struct pv_metric *m = &t->m[i];
			struct tally *y = &ty[i * 2 + s];

			m->v[s] = store + total;
			m->n[s] = y->count;
			m->files[s] = y->files;
			m->per_file[s] = y->files > 1 ? y->per_file : 1;
			total += y->count;
		}
	}
	t->store = store;
	for (int s = 0; s < 2; s++) {
		struct side_log *l = &t->log->side[s];

		for (uint32_t f = 0; f < l->nfiles; f++) {
			size_t end = f + 1 < l->nfiles ? l->file_start[f + 1] : l->n;

			for (size_t i = l->file_start[f]; i < end; i++) {
				struct pv_metric *m = &t->m[l->metric[i]];
				struct tally *y = &ty[l->metric[i] * 2 + s];

				if (m->per_file[s] <= 1) {
					m->v[s][y->fill++] = l->value[i];
					continue;
				}
				if (y->last != f + 1) {  /* new file: new slot */
					if (y->last)
						m->v[s][y->fill - 1] /= y->cur;
					y->last = f + 1;
					y->cur = 0;
					m->v[s][y->fill++] = 0;
				}
				m->v[s][y->fill - 1] += l->value[i];
				y->cur++;
			}
		}
	}
	for (size_t i = 0; i < t->n; i++)
		for (int s = 0; s < 2; s++)
			if (t->m[i].per_file[s] > 1 && ty[i * 2 + s].last)
				t->m[i].v[s][ty[i * 2 + s].fill - 1] /=
					ty[i * 2 + s].cur;
	free(ty);
	log_release(t);
}
