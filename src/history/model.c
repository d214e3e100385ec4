/*
 * model.c - the history model: its points' metrics and their series,
 * added row by row as the driver (driver.c) hands over what the archive
 * readers gave; the names of statuses and point kinds.
 */
#include "history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../readers/reader.h"
#include "../stats.h"
#include "../util/banned.h"



static const char *const status_names[PV_HS_COUNT] = {
	"regression", "improvement", "changed", "waived", "unchanged",
	"insufficient", "missing",
};

const char *pv_hist_status_name(enum pv_hist_status s)
{
	return s < PV_HS_COUNT ? status_names[s] : "unknown";
}

void pv_history_init(struct pv_history *h)
{
	static const struct pv_strmap empty = PV_STRMAP_INIT;

	memset(h, 0, sizeof(*h));
	h->keys = empty;
	pv_strmap_init(&h->strs, &h->arena);
}

void pv_history_release(struct pv_history *h)
{
	for (size_t i = 0; i < h->nm; i++) {
		free(h->m[i].obs);
		free(h->m[i].runs);
		free(h->m[i].cp);
	}
	free(h->m);
	free(h->p);
	free(h->guess);
	pv_cp_shared_release(&h->shared);
	pv_strmap_release(&h->keys);
	pv_strmap_release(&h->strs);
	arena_release(&h->arena);
	memset(h, 0, sizeof(*h));
}

static void metric_name(struct strbuf *sb, const char *group,
			const char *bench, const char *metric)
{
	if (*group)
		strbuf_addf(sb, "%s/", group);
	if (*bench)
		strbuf_addf(sb, "%s/", bench);
	strbuf_addstr(sb, metric);
}

/*
 * The series of one metric into *out, created at its first point (NULL
 * if its rule ignores it).  Archive-wide, like compare's table:
 * more metrics than limits.max_metrics over all points is an error.
 */
static int metric_for(struct pv_history *h, size_t pi, const char *suite,
		      const char *test, const char *group, const char *bench,
		      const char *metric, const char *unit,
		      const struct pv_history_opts *o, enum pv_dir hint,
		      struct pv_hist_metric **out, struct pv_err *err)
{
	struct strbuf k = STRBUF_INIT;
	struct pv_strmap_ent *e;
	struct pv_hist_metric *m;
	struct pv_metric_policy pol;
	int added;

	/* the key in h->keys: the five fields joined by 0x1f */
	strbuf_addstr(&k, suite);
	strbuf_addch(&k, '\x1f');
	strbuf_addstr(&k, test);
	strbuf_addch(&k, '\x1f');
	strbuf_addstr(&k, group);
	strbuf_addch(&k, '\x1f');
	strbuf_addstr(&k, bench);
	strbuf_addch(&k, '\x1f');
	strbuf_addstr(&k, metric);
	e = pv_strmap_put(&h->keys, k.buf, k.len, &added);
	strbuf_release(&k);
	*out = NULL;
	if (!added) {
		*out = e->val[0] ? &h->m[e->val[0] - 1] : NULL;
		return 0;
	}
	if (o->cfg->limits.max_metrics && h->nm >= o->cfg->limits.max_metrics) {
		e->val[0] = 0;
		return pv_error(err, PV_M_TOO_MANY_METRICS,
				"archive '%s': more than %zu metrics (limits.max_metrics) by point '%s'",
				h->archive, o->cfg->limits.max_metrics,
				h->p[pi].label);
	}
	pv_policy_of(o->cfg, &o->cfg->gate, group, bench, metric, unit, hint,
		     &pol);
	if (h->nm == h->am) {
		h->am = h->am ? 2 * h->am : 64;
		h->m = pv_reallocarray(h->m, h->am, sizeof(*h->m));
	}
	m = &h->m[h->nm++];
	e->val[0] = h->nm;
	memset(m, 0, sizeof(*m));
	/* room for a point from here to the newest: no reallocation when
	 * the metric is in every point, the usual archive */
	m->aobs = h->np - pi;
	m->obs = pv_reallocarray(NULL, m->aobs, sizeof(*m->obs));
	/* h->strs's copies: a tree's key strings already are, and
	 * same_metric() compares them by pointer */
	m->suite = pv_strmap_intern(&h->strs, suite, strlen(suite), NULL);
	m->test = pv_strmap_intern(&h->strs, test, strlen(test), NULL);
	m->group = pv_strmap_intern(&h->strs, group, strlen(group), NULL);
	m->benchmark = pv_strmap_intern(&h->strs, bench, strlen(bench), NULL);
	m->metric = pv_strmap_intern(&h->strs, metric, strlen(metric), NULL);
	m->unit = arena_strdup(&h->arena, unit ? unit : "");
	m->unit_point = pi;
	m->rule = pol;
	*out = m;
	return 0;
}

static void add_obs(struct pv_hist_metric *m, uint32_t point,
		    const double *v, size_t n)
{
	struct pv_hist_obs *ob;

	if (m->nobs == m->aobs) {
		m->aobs = m->aobs ? 2 * m->aobs : 16;
		m->obs = pv_reallocarray(m->obs, m->aobs, sizeof(*m->obs));
	}
	if (m->nruns + n > m->aruns) {
		/* as many runs in every point as in the first */
		if (!m->aruns)
			m->aruns = st_mult(n ? n : 1, m->aobs);
		while (m->nruns + n > m->aruns)
			m->aruns = st_mult(m->aruns, 2);
		m->runs = pv_reallocarray(m->runs, m->aruns, sizeof(*m->runs));
	}
	ob = &m->obs[m->nobs++];
	ob->point = point;
	ob->n = (uint32_t)n;
	ob->off = m->nruns;
	memcpy(m->runs + m->nruns, v, n * sizeof(*v));
	m->nruns += n;
	pv_mean_sd(v, n, &ob->mean, &ob->sd);
	if (n < 2)
		ob->sd = NAN;
	ob->value = ob->tested = NAN;
}

/* The observation just added has a finite mean and, with 2 runs or
 * more, sd: values near DBL_MAX (1e308, 1e308, -1e308) overflow them,
 * and a series with such a point would read as unchanged. */
static int finite_obs(const struct pv_history *h, size_t pi,
		      const struct pv_hist_metric *m, struct pv_err *err)
{
	const struct pv_hist_obs *ob = &m->obs[m->nobs - 1];
	struct strbuf name = STRBUF_INIT;

	if (isfinite(ob->mean) && (ob->n < 2 || isfinite(ob->sd)))
		return 0;
	metric_name(&name, m->group, m->benchmark, m->metric);
	pv_error(err, PV_M_NOT_FINITE,
		 "point '%s' of archive '%s': metric '%s': the mean or standard deviation of its %u runs overflows a double: expected values whose sums are finite",
		 h->p[pi].label, h->archive, name.buf, (unsigned)ob->n);
	strbuf_release(&name);
	return -1;
}

/*
 * Point pi's runs v[0..n) in unit `unit` into the metric's series:
 * converted into the series' unit (its first point's) as compare
 * converts a metric's files (pv_unit_convert()), or an error naming both
 * units and points.  A metric twice in one point (a report can hold
 * that; a tree's table merges its files) is an error.
 */
static int series_add(struct pv_history *h, size_t pi,
		      struct pv_hist_metric *m, const char *unit,
		      const double *v, size_t n, struct pv_err *err)
{
	struct strbuf name = STRBUF_INIT;
	size_t from;
	int rc = 0;

	if (!m)
		return 0;
	if (m->nobs && m->obs[m->nobs - 1].point == pi) {
		metric_name(&name, m->group, m->benchmark, m->metric);
		rc = pv_error(err, PV_M_DUPLICATE_METRIC,
			      "point '%s' of archive '%s': metric '%s' appears twice; each metric must appear once in a point",
			      h->p[pi].label, h->archive, name.buf);
		strbuf_release(&name);
		return rc;
	}
	from = m->nruns;
	add_obs(m, (uint32_t)pi, v, n);
	h->p[pi].metrics++;
	if (!unit || !*unit || !strcmp(unit, m->unit))
		return finite_obs(h, pi, m, err);
	if (!*m->unit) {
		m->unit = arena_strdup(&h->arena, unit);
		m->unit_point = pi;
		return finite_obs(h, pi, m, err);
	}
	for (size_t i = from; i < m->nruns && !rc; i++)
		rc = pv_unit_convert(unit, m->unit, &m->runs[i]);
	if (!rc) {
		struct pv_hist_obs *ob = &m->obs[m->nobs - 1];

		pv_mean_sd(m->runs + from, n, &ob->mean, &ob->sd);
		if (n < 2)
			ob->sd = NAN;
		return finite_obs(h, pi, m, err);
	}
	metric_name(&name, m->group, m->benchmark, m->metric);
	rc = pv_error(err, PV_M_UNIT_MISMATCH,
		      "archive '%s': metric '%s' is in '%s' at point '%s' but in '%s' at point '%s'; they cannot be converted",
		      h->archive, name.buf, unit, h->p[pi].label, m->unit,
		      h->p[m->unit_point].label);
	strbuf_release(&name);
	return rc;
}

/*
 * The points of an archive mostly hold the same metrics in the same
 * order: row i of a tree is guessed to be the series that row i of the
 * tree before went to (h->guess, index + 1), checked by its key, before
 * the key is built and looked up.
 */
static struct pv_hist_metric *same_metric(struct pv_history *h, size_t g,
					  const struct pv_hist_row *k)
{
	struct pv_hist_metric *m;

	if (!g || g > h->nm)
		return NULL;
	m = &h->m[g - 1];
	/* the trees' strings are h->strs's: equal ones are one pointer */
	return m->metric == k->metric && m->benchmark == k->bench &&
	       m->group == k->group && m->test == k->test &&
	       m->suite == k->suite ? m : NULL;
}

static void grow_guess(struct pv_history *h, size_t n)
{
	size_t a = h->nguess ? h->nguess : 64;

	while (a < n)
		a = st_mult(a, 2);
	REALLOC_ARRAY(h->guess, a);
	memset(h->guess + h->nguess, 0, (a - h->nguess) * sizeof(*h->guess));
	h->nguess = a;
}

/* Row i of rows into h: its series by the guess (interned rows) or by
 * its key, then its runs. */
static int add_row(struct pv_history *h, size_t pi,
		   const struct pv_history_opts *o, const struct pv_hist_row *r,
		   size_t i, int interned, struct pv_err *err)
{
	struct pv_hist_metric *m = NULL;

	if (interned && i < h->nguess)
		m = same_metric(h, h->guess[i], r);
	if (!m && metric_for(h, pi, r->suite, r->test, r->group, r->bench,
			     r->metric, r->unit, o, r->hint, &m, err))
		return -1;
	if (interned && m) {
		if (i >= h->nguess)
			grow_guess(h, i + 1);
		h->guess[i] = (size_t)(m - h->m) + 1;
	}
	return series_add(h, pi, m, r->unit, r->v, r->n, err);
}

int pv_history_add_rows(struct pv_history *h, size_t p0,
			const struct pv_history_opts *o,
			const struct pv_hist_row *rows, size_t n, int interned,
			struct pv_err *err)
{
	for (size_t i = 0; i < n; i++)
		if (add_row(h, p0 + rows[i].point, o, &rows[i], i, interned,
			    err))
			return -1;
	return 0;
}

int pv_history_is_full_id(const char *s)
{
	size_t n = s ? strspn(s, "0123456789abcdef") : 0;

	return (n == 40 || n == 64) && !s[n];
}
