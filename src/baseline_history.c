/*
 * baseline_history.c - a baseline pooled from an archive's recent points
 * (see baseline_history.h and stats/pooled.h).
 */
#include "baseline_history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "readers/reader.h"
#include "util/banned.h"

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
static void environments(struct pv_bh *bh, const struct pv_sidemeta *cand,
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

int pv_bh_pool(struct pv_bh *bh, struct pv_table *t, const char *archive,
	       size_t window, const struct pv_history_opts *o,
	       struct pv_diag *diag, struct pv_err *err)
{
	struct pv_history *h = &bh->h;

	memset(bh, 0, sizeof(*bh));
	pv_history_init(h);
	bh->window = window;
	if (pv_history_read(h, archive, o, diag, err) ||
	    pv_history_analyse(h, o, diag, err))
		return -1;
	bh->tests = pv_calloc(h->nm ? h->nm : 1, sizeof(*bh->tests));
	bh->y = pv_calloc(h->nm ? h->nm : 1, sizeof(*bh->y));
	bh->used = pv_calloc(h->np, sizeof(*bh->used));
	bh->excluded = pv_calloc(h->np, sizeof(*bh->excluded));
	environments(bh, &t->side[PV_CAND], diag);
	{
		size_t left = 0;

		for (size_t i = 0; i < h->np; i++)
			left += !bh->excluded[i];
		if (!left)
			return pv_error(err, PV_M_NO_POOLABLE_POINT,
					"no point of archive '%s' ran on the candidate's kind of machine: nothing to pool, so the gate cannot pass (inconclusive)",
					archive);
	}
	for (size_t i = 0; i < h->nm; i++) {
		struct pv_hist_metric *m = &h->m[i];
		struct pv_pooled *x = &bh->tests[i];
		struct pv_key key = { m->suite, m->test, m->group, m->benchmark,
				      m->metric };
		size_t since = m->ncp ? m->cp[m->ncp - 1].point : 0;
		size_t first = m->nobs, k = 0;
		long mi;

		/* The newest points since the last change, at most window,
		 * leaving out other kinds of machine. */
		while (first > 0 && k < window &&
		       m->obs[first - 1].point >= since) {
			first--;
			k += !bh->excluded[m->obs[first].point];
		}
		bh->y[i] = pv_malloc((k ? k : 1) * sizeof(double));
		x->y = bh->y[i];
		x->K = 0;
		x->cand = NAN;
		mi = pv_table_intern(t, &key, err);
		if (mi < 0)
			return -1;
		if (!t->m[mi].unit || !*t->m[mi].unit)
			t->m[mi].unit = pv_table_str(t, m->unit);
		{
			/* The archive's unit and the candidate's are
			 * converted as compare converts a metric's files. */
			double one = 1;

			if (pv_unit_convert(m->unit, t->m[mi].unit, &one))
				return pv_error(err, PV_M_UNIT_MISMATCH,
						"metric '%s' of '%s' is in '%s' in archive '%s' (from point '%s') but in '%s' in the candidate; they cannot be converted",
						m->metric, m->benchmark, m->unit, archive,
						h->p[m->unit_point].label, t->m[mi].unit);
		}
		for (size_t j = first; j < m->nobs; j++) {
			const struct pv_hist_obs *ob = &m->obs[j];

			if (bh->excluded[ob->point])
				continue;
			bh->y[i][x->K++] = ob->value;
			bh->used[ob->point]++;
			pv_table_hint(t, (uint32_t)(m->nobs - first));
			for (size_t r = 0; r < ob->n; r++) {
				double v = m->runs[ob->off + r];

				pv_unit_convert(m->unit, t->m[mi].unit, &v);
				pv_table_add(t, (size_t)mi, PV_BASE, ob->point, v);
			}
		}
		if (t->m[mi].n[PV_CAND]) {
			/* The candidate's value on the archive's scale. */
			size_t n = t->m[mi].n[PV_CAND];
			double *cv = pv_malloc(n * sizeof(*cv));

			for (size_t r = 0; r < n; r++) {
				cv[r] = t->m[mi].v[PV_CAND][r];
				pv_unit_convert(t->m[mi].unit, m->unit, &cv[r]);
			}
			x->cand = pv_history_value(m, cv, n);
			free(cv);
		}
	}
	{
		struct pv_pooled *live = pv_calloc(h->nm ? h->nm : 1, sizeof(*live));
		size_t n = 0;
		int rc;

		/* Only metrics with a candidate value join the prior. */
		for (size_t i = 0; i < h->nm; i++)
			if (!isnan(bh->tests[i].cand))
				live[n++] = bh->tests[i];
		rc = pv_pooled_family(live, n, o->cfg->gate.alpha, err);
		for (size_t i = 0, j = 0; i < h->nm; i++)
			if (!isnan(bh->tests[i].cand))
				bh->tests[i] = live[j++];
		free(live);
		if (rc)
			return -1;
	}
	/* Name the points pooled, with their age (points before the
	 * candidate). */
	{
		struct strbuf sb = STRBUF_INIT;
		size_t n = 0;

		for (size_t i = 0; i < h->np; i++)
			if (bh->used[i]) {
				strbuf_addf(&sb, "%s%s (age %zu)", n ? ", " : "",
					    h->p[i].label, h->np - i);
				n++;
			}
		pv_diag_add(diag, PV_M_POOLED_BASELINE, "baseline pooled from %zu point%s of '%s' (at most %zu a metric, since its last change point): %s",
			    n, n == 1 ? "" : "s", archive, window,
			    n ? sb.buf : "none");
		strbuf_release(&sb);
	}
	return 0;
}

int pv_bh_attach(struct pv_bh *bh, struct pv_report *r, struct pv_diag *diag,
		 struct pv_err *err)
{
	struct pv_history *h = &bh->h;
	size_t lost = 0;

	(void)err;
	bh->ext = pv_calloc(r->n ? r->n : 1, sizeof(*bh->ext));
	for (size_t i = 0; i < r->n; i++) {
		const struct pv_result *res = &r->m[i];
		struct pv_ext_test *e = &bh->ext[i];
		struct strbuf k = STRBUF_INIT;
		struct pv_strmap_ent *ent;
		const struct pv_pooled *x;
		const struct pv_hist_metric *m;
		int added, up_worse;

		strbuf_addf(&k, "%s\x1f%s\x1f%s\x1f%s\x1f%s", res->suite, res->test,
			    res->group, res->benchmark, res->metric);
		ent = pv_strmap_put(&h->keys, k.buf, k.len, &added);
		strbuf_release(&k);
		if (added || !ent->val[0])
			continue;
		m = &h->m[ent->val[0] - 1];
		x = &bh->tests[ent->val[0] - 1];
		if (!x->testable) {
			if (res->side[1].present && m->nobs)
				lost++;
			continue;
		}
		up_worse = res->direction != PV_DIR_HIGHER;
		e->testable = 1;
		e->statistic = -x->t;
		e->df = x->df;
		e->p_two = x->p_two;
		e->p_worse = up_worse ? x->p_up : x->p_down;
		e->p_better = up_worse ? x->p_down : x->p_up;
		e->ci_low = m->logscale ? expm1(x->lo) :
			    x->level != 0 ? x->lo / fabs(x->level) : NAN;
		e->ci_high = m->logscale ? expm1(x->hi) :
			     x->level != 0 ? x->hi / fabs(x->level) : NAN;
	}
	if (lost)
		pv_diag_add(diag, PV_M_FEW_BASELINE_POINTS, "%zu metric%s had fewer than 2 comparable baseline points: not tested",
			    lost, lost == 1 ? "" : "s");
	r->ext = bh->ext;
	/* The points used, for the report (baseline.pooled_points). */
	bh->pooled = pv_calloc(h->np + 1, sizeof(*bh->pooled));
	for (size_t i = 0; i < h->np; i++) {
		struct pv_pooled_point *p = &bh->pooled[bh->npooled];

		if (!bh->used[i])
			continue;
		p->label = h->p[i].label;
		p->commit = h->p[i].commit;
		p->age = h->np - i;
		p->metrics = bh->used[i];
		bh->npooled++;
	}
	r->pooled = bh->pooled;
	r->npooled = bh->npooled;
	return 0;
}

void pv_bh_release(struct pv_bh *bh)
{
	for (size_t i = 0; i < bh->h.nm; i++)
		free(bh->y ? bh->y[i] : NULL);
	free(bh->y);
	free(bh->tests);
	free(bh->used);
	free(bh->excluded);
	free(bh->ext);
	free(bh->pooled);
	pv_history_release(&bh->h);
	memset(bh, 0, sizeof(*bh));
}
