/*
 * baseline_history.c - a baseline pooled from an archive's recent points
 * pooled into the table's baseline side (see baseline_history.h).
 */
#include "baseline_history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "../readers/reader.h"
#include "../util/strbuf.h"
#include "../util/banned.h"

/* What pv_load_pooled_baseline() keeps while it pools. */
struct bh {
	struct pv_history h;
	size_t *used;                   /* per point: metrics that pooled it */
	unsigned char *excluded;        /* per point: environment differs */
};

/* Context keys that say what kind of machine ran the point: a point
 * that differs from the candidate in one of these is not pooled. */
static int kind_key(const char *k)
{
	static const char *const words[] = {
		"model", "arch", "machine", "processor", "platform",
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++)
		for (const char *s = k; *s; s++)
			if (!strncasecmp(s, words[i], strlen(words[i])))
				return 1;
	return 0;
}

static const char *context_get(const struct pv_kv *kv, size_t n,
			       const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(kv[i].key, key))
			return kv[i].value;
	return NULL;
}

/*
 * Points that ran on another kind of machine than the candidate are
 * excluded; other context differences (another runner, a clock speed)
 * are one warning per key, counting the points.
 */
static void environments(struct bh *bh, const struct pv_sidemeta *cand,
			 struct pv_diag *diag)
{
	struct pv_history *h = &bh->h;

	for (size_t j = 0; j < cand->ncontext; j++) {
		const char *k = cand->context[j].key;
		const char *cv = cand->context[j].value;
		size_t ndiff = 0, first = 0;
		int kind = kind_key(k);

		for (size_t i = 0; i < h->np; i++) {
			const struct pv_hist_point *p = &h->p[i];
			const char *v = context_get(p->context, p->ncontext, k);

			if (!v || !strcmp(v, cv))
				continue;
			if (!ndiff++)
				first = i;
			if (kind) {
				pv_diag_add(diag, PV_M_OTHER_MACHINE, "baseline point '%s' ran on another kind of machine (%s '%s', the candidate's '%s'): not pooled",
					    p->label, k, v, cv);
				bh->excluded[i] = 1;
			}
		}
		if (ndiff && !kind)
			pv_diag_add(diag, PV_M_ENVIRONMENT_DIFFERS, "the candidate's environment differs from %zu of %zu baseline points in %s ('%s' against '%s' at '%s' ...)",
				    ndiff, h->np, k, cv,
				    context_get(h->p[first].context,
						h->p[first].ncontext, k),
				    h->p[first].label);
	}
}

/*
 * The baseline side's context from the points pooled: each key the value
 * of the newest point that has it.  Keys the points agree on are theirs;
 * where they differ (another runner each time) the newest, nearest the
 * candidate, stands for them, so a report warns of an environment only
 * where the candidate differs from main as it is now.
 */
static void pool_context(struct pv_table *t, const struct bh *bh)
{
	const struct pv_history *h = &bh->h;
	struct pv_sidemeta *side = &t->side[PV_BASE];

	for (size_t i = h->np; i-- > 0;) {
		const struct pv_hist_point *p = &h->p[i];

		if (!bh->used[i])
			continue;
		for (size_t j = 0; j < p->ncontext; j++)
			if (!context_get(side->context, side->ncontext,
					 p->context[j].key))
				pv_table_context(t, PV_BASE, p->context[j].key,
						 p->context[j].value);
	}
}

/* Name the points pooled, with their age (points before the
 * candidate), in a message and in the side. */
static void name_points(struct pv_table *t, const struct bh *bh,
			const char *archive, size_t window,
			struct pv_diag *diag)
{
	const struct pv_history *h = &bh->h;
	struct pv_sidemeta *side = &t->side[PV_BASE];
	struct pv_pooled_point *pp;
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;

	pp = arena_alloc(&t->arena, st_mult(st_add(h->np, 1), sizeof(*pp)));
	for (size_t i = 0; i < h->np; i++) {
		if (!bh->used[i])
			continue;
		strbuf_addf(&sb, "%s%s (age %zu)", n ? ", " : "",
			    h->p[i].label, h->np - i);
		pp[n].label = pv_table_str(t, h->p[i].label);
		pp[n].commit = h->p[i].commit ?
			       pv_table_str(t, h->p[i].commit) : NULL;
		pp[n].age = h->np - i;
		pp[n].metrics = bh->used[i];
		n++;
	}
	side->path = pv_table_str(t, archive);
	side->files = h->np;
	side->runs = n;
	side->is_archive = 1;
	side->pooled = pp;
	side->npooled = n;
	pv_diag_add(diag, PV_M_POOLED_BASELINE, "baseline pooled from %zu point%s of '%s' (at most %zu a metric, since its last change point): %s",
		    n, n == 1 ? "" : "s", archive, window, n ? sb.buf : "none");
	strbuf_release(&sb);
}

/* One history metric into the table's baseline side: the runs of its
 * newest points since its last change, at most window of them, leaving
 * out other kinds of machine.  Returns its table index, or -1. */
static long pool_metric(struct pv_table *t, struct bh *bh,
			const struct pv_hist_metric *m, size_t window,
			struct pv_points *pts, struct pv_err *err)
{
	struct pv_key key = { m->suite, m->test, m->group, m->benchmark,
			      m->metric };
	size_t since = m->ncp ? m->cp[m->ncp - 1].point : 0;
	size_t first = m->nobs, k = 0, nr = 0, *roff, *point;
	double *y, *runs, f = 1;
	long mi;

	while (first > 0 && k < window && m->obs[first - 1].point >= since) {
		first--;
		k += !bh->excluded[m->obs[first].point];
	}
	mi = pv_table_intern(t, &key, err);
	if (mi < 0)
		return -1;
	if (!t->m[mi].unit || !*t->m[mi].unit)
		t->m[mi].unit = pv_table_str(t, m->unit);
	/* The archive's unit into the candidate's, as compare converts a
	 * metric's files (f: one of the archive's units in the
	 * candidate's). */
	if (pv_unit_convert(m->unit, t->m[mi].unit, &f)) {
		pv_error(err, PV_M_UNIT_MISMATCH,
			 "metric '%s' of '%s' is in '%s' in the archive (from point '%s') but in '%s' in the candidate; they cannot be converted",
			 m->metric, m->benchmark, m->unit,
			 bh->h.p[m->unit_point].label, t->m[mi].unit);
		return -1;
	}
	for (size_t j = first; j < m->nobs; j++)
		nr += bh->excluded[m->obs[j].point] ? 0 : m->obs[j].n;
	y = arena_alloc(&t->arena, st_mult(k ? k : 1, sizeof(*y)));
	runs = arena_alloc(&t->arena, st_mult(nr ? nr : 1, sizeof(*runs)));
	roff = arena_alloc(&t->arena, st_mult(st_add(k, 1), sizeof(*roff)));
	point = arena_alloc(&t->arena, st_mult(k ? k : 1, sizeof(*point)));
	roff[0] = 0;
	pts->y = y;
	pts->point = point;
	pts->shared = bh->h.shared.applied;
	pts->runs = runs;
	pts->roff = roff;
	pts->K = 0;
	pts->logscale = m->logscale;
	pts->tau = m->logscale ? m->tau : m->tau * f;
	/* the spike test's scale (pooled.h): none when history took a
	 * shared machine effect out, whose sd is not the values' own */
	pts->sd = m->shared_weight != 0 ? NAN :
		  m->logscale ? m->sd : m->sd * f;
	for (size_t j = first; j < m->nobs; j++) {
		const struct pv_hist_obs *ob = &m->obs[j];

		if (bh->excluded[ob->point])
			continue;
		y[pts->K] = m->logscale ? ob->value + log(f) : ob->value * f;
		point[pts->K] = ob->point;
		bh->used[ob->point]++;
		pv_table_hint(t, (uint32_t)(m->nobs - first));
		roff[pts->K + 1] = roff[pts->K];
		for (size_t r = 0; r < ob->n; r++) {
			double v = m->runs[ob->off + r];

			pv_unit_convert(m->unit, t->m[mi].unit, &v);
			pv_table_add(t, (size_t)mi, PV_BASE, ob->point, v);
			runs[roff[pts->K + 1]++] = m->logscale ? log(v) : v;
		}
		pts->K++;
	}
	return mi;
}

static int pool(struct pv_table *t, struct bh *bh, const char *archive,
		size_t window, const struct pv_history_opts *o,
		struct pv_diag *diag, struct pv_err *err)
{
	struct pv_history *h = &bh->h;
	struct pv_points *pts;
	long *at;
	size_t left = 0;
	int rc = -1;

	if (pv_history_read(h, archive, o, diag, err) ||
	    pv_history_analyse(h, o, err))
		return -1;
	bh->used = pv_calloc(h->np, sizeof(*bh->used));
	bh->excluded = pv_calloc(h->np, sizeof(*bh->excluded));
	environments(bh, &t->side[PV_CAND], diag);
	for (size_t i = 0; i < h->np; i++)
		left += !bh->excluded[i];
	if (!left)
		return pv_error(err, PV_M_NO_POOLABLE_POINT,
				"no point of archive '%s' ran on the candidate's kind of machine: nothing to pool, so the gate cannot pass (inconclusive)",
				archive);
	pts = arena_alloc(&t->arena, st_mult(h->nm ? h->nm : 1, sizeof(*pts)));
	ALLOC_ARRAY(at, h->nm ? h->nm : 1);
	for (size_t i = 0; i < h->nm; i++) {
		at[i] = pool_metric(t, bh, &h->m[i], window, &pts[i], err);
		if (at[i] < 0)
			goto out;
	}
	/* Every metric is interned now: the per-metric view. */
	t->npoints = t->n;
	t->points = arena_alloc(&t->arena,
				st_mult(t->n ? t->n : 1, sizeof(*t->points)));
	memset(t->points, 0, st_mult(t->n ? t->n : 1, sizeof(*t->points)));
	for (size_t i = 0; i < h->nm; i++)
		t->points[at[i]] = &pts[i];
	name_points(t, bh, archive, window, diag);
	pool_context(t, bh);
	rc = 0;
out:
	free(at);
	return rc;
}

int pv_load_pooled_baseline(struct pv_table *t, const char *archive,
			    size_t window, const struct pv_history_opts *o,
			    struct pv_diag *diag, struct pv_err *err)
{
	struct bh bh;
	int rc;

	memset(&bh, 0, sizeof(bh));
	pv_history_init(&bh.h);
	rc = pool(t, &bh, archive, window, o, diag, err);
	free(bh.used);
	free(bh.excluded);
	pv_history_release(&bh.h);
	return rc;
}
