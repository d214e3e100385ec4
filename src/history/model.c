/*
 * history.c - read an archive's points through the same scan, readers
 * and table as compare (or, for an archived JSON report, archive.c),
 * gather each metric's series, and find its change points.
 *
 * A point's value is the mean of its runs on the log scale (when every
 * run of the metric is positive), leaving out runs more than
 * 5 robust within-point sds from the point's median: the
 * within-point sd is pooled over the whole series (the MAD of the runs
 * around their point medians), so that one noisy-neighbour run among
 * three does not move a point by a third of its size.  With one or two
 * runs the point value is their mean.
 */
#define _GNU_SOURCE 1   /* timegm */
#include "history.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "../archive.h"
#include "../readers/benchdata.h"
#include "point.h"
#include "../readers/reader.h"
#include "../report.h"
#include "../scan.h"
#include "../table.h"
#include "../policy.h"
#include "../verdict.h"
#include "../util/text.h"
#ifdef __GLIBC__
#include <malloc.h>     /* mallopt */
#endif
#include "../util/banned.h"


static const char *const status_names[PV_HS_COUNT] = {
	"regression", "improvement", "changed", "waived", "unchanged",
	"insufficient", "missing",
};

const char *pv_hist_status_name(enum pv_hist_status s)
{
	return s < PV_HS_COUNT ? status_names[s] : "unknown";
}

const char *pv_point_kind_name(int kind)
{
	static const char *const names[] = {
		"tree", "report", "point", "benchmark-action",
	};

	return kind >= 0 && kind <= PV_PK_BENCHDATA ? names[kind] : "tree";
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
	if (h->last_tree) {
		pv_table_release(h->last_tree);
		free(h->last_tree);
	}
	pv_cp_shared_release(&h->shared);
	pv_strmap_release(&h->keys);
	pv_strmap_release(&h->strs);
	arena_release(&h->arena);
	memset(h, 0, sizeof(*h));
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void iso_of(double t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "1970-01-01T00:00:00Z");
}

/* s starts with exactly YYYY-MM-DDTHH:MM:SS, digits where digits go:
 * strptime() alone would skip blanks before and inside the fields. */
static int iso_shape(const char *s)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";

	for (size_t i = 0; shape[i]; i++)
		if (shape[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') :
		    s[i] != shape[i])
			return 0;
	return 1;
}

/* Seconds since the epoch of an ISO 8601 time: YYYY-MM-DDTHH:MM:SS,
 * an optional fraction, then Z, +HH:MM, +HHMM, +HH (or -), or nothing
 * (UTC, as compare writes it); NAN for anything else, blanks included. */
static double parse_iso(const char *s)
{
	struct tm tm;
	const char *end;
	double t, frac = 0;

	if (!s || !iso_shape(s))
		return NAN;
	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end)
		return NAN;
	t = (double)timegm(&tm);
	if (*end == '.' || *end == ',') {
		double scale = 0.1;

		for (end++; *end >= '0' && *end <= '9'; end++, scale /= 10)
			frac += (*end - '0') * scale;
	}
	if (*end == 'Z' || *end == 'z') {
		end++;
	} else if (*end == '+' || *end == '-') {
		int sign = *end == '-' ? -1 : 1, hh, mm = 0;
		const char *q = end + 1;

		if (!(q[0] >= '0' && q[0] <= '9' && q[1] >= '0' && q[1] <= '9'))
			return NAN;
		hh = (q[0] - '0') * 10 + (q[1] - '0');
		q += 2;
		if (*q == ':')
			q++;
		if (q[0] >= '0' && q[0] <= '9' && q[1] >= '0' && q[1] <= '9') {
			mm = (q[0] - '0') * 10 + (q[1] - '0');
			q += 2;
		}
		if (hh > 23 || mm > 59)
			return NAN;
		/* local = UTC + offset */
		t -= sign * (hh * 3600.0 + mm * 60.0);
		end = q;
	}
	return *end ? NAN : t + frac;
}

double pv_history_parse_time(const char *s)
{
	return parse_iso(s);
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

	/* the key as pv_bh_attach() builds it: the fields joined by 0x1f */
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

int pv_history_add(struct pv_history *h, size_t pi,
		   const struct pv_history_opts *o, const char *suite,
		   const char *test, const char *group, const char *bench,
		   const char *metric, const char *unit, enum pv_dir hint,
		   const double *v, size_t n, struct pv_err *err)
{
	struct pv_hist_metric *m = NULL;

	if (metric_for(h, pi, suite, test, group, bench, metric, unit, o, hint,
		       &m, err))
		return -1;
	return series_add(h, pi, m, unit, v, n, err);
}

static void point_warnings(struct pv_diag *from, struct pv_diag *to)
{
	pv_diag_take(to, from);
}

/*
 * The points of an archive mostly hold the same metrics in the same
 * order: metric i of a tree's table is guessed to be the series that
 * metric i of the tree before went to (h->guess, index + 1), checked by
 * its key, before the key is built and looked up.
 */
static struct pv_hist_metric *same_metric(struct pv_history *h, size_t g,
					  const struct pv_key *k)
{
	struct pv_hist_metric *m;

	if (!g || g > h->nm)
		return NULL;
	m = &h->m[g - 1];
	/* the trees' strings are h->strs's: equal ones are one pointer */
	return m->metric == k->metric && m->benchmark == k->benchmark &&
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

/* Tree point p holds no results at all (no files, or none with a
 * result: a run that wrote nothing), read again with empty files
 * allowed: one empty file among others stays empty_files' error. */
static int tree_is_empty(struct pv_history *h,
			 const struct pv_hist_point *p,
			 const struct pv_history_opts *o)
{
	struct pv_config c = *o->cfg;
	struct pv_scan sc = { 0 };
	struct pv_table *t = pv_malloc(sizeof(*t));
	struct pv_diag d = PV_DIAG_INIT;
	struct pv_err e = { 0 };
	int empty = 0;

	c.limits.empty_files_warn = 1;
	pv_table_init_shared(t, c.limits.max_metrics, &h->strs);
	if (!pv_scan_tree(p->path, o->suite, &c.limits, &sc, &e))
		empty = pv_load_side(t, PV_CAND, &sc, o->suite, o->format, &c,
				     &d, &e) ? e.id == PV_M_NO_RESULT_FILES :
				     !t->n;
	pv_table_release(t);
	free(t);
	pv_scan_release(&sc);
	pv_diag_release(&d);
	return empty;
}

/* A result tree as one point: the same scan, readers and table as
 * compare uses for its candidate side.  Returns 1 (err filled with why)
 * when the tree holds no results at all. */
static int read_tree(struct pv_history *h, size_t pi,
		     const struct pv_history_opts *o, struct pv_diag *diag,
		     struct pv_err *err)
{
	struct pv_hist_point *p = &h->p[pi];
	struct pv_scan sc = { 0 };
	struct pv_table *t = pv_malloc(sizeof(*t));
	struct pv_diag d = PV_DIAG_INIT;
	double newest = 0;
	char iso[32];
	int rc = -1;

	pv_table_init_shared(t, o->cfg->limits.max_metrics, &h->strs);
	pv_table_reserve(t, h->tree_metrics);       /* as the tree before */
	if (h->last_tree) {
		t->like = h->last_tree->m;
		t->nlike = h->last_tree->n;
	}
	if (pv_scan_tree(p->path, o->suite, &o->cfg->limits, &sc, err))
		goto out;
	if (pv_load_side(t, PV_CAND, &sc, o->suite, o->format, o->cfg, &d, err)) {
		if ((err->id == PV_M_NO_RESULT_FILES || err->id == PV_M_NO_RESULTS ||
		     err->id == PV_M_EMPTY_FILE) && tree_is_empty(h, p, o)) {
			pv_diag_release(&d);
			rc = 1;
		}
		goto out;
	}
	if (!t->n) {
		pv_error(err, PV_M_NO_RESULTS, "no samples found%s",
			 o->suite->pattern ? " (check result_file_pattern)" :
			 ": expected result files of a known format (see 'perfverdict formats')");
		rc = 1;
		goto out;
	}
	pv_table_finish(t);
	h->tree_metrics = t->n;
	for (size_t i = 0; i < sc.n; i++) {
		struct strbuf f = STRBUF_INIT;
		struct stat st;

		strbuf_addf(&f, "%s/%s", p->path, sc.f[i].relpath);
		if (!stat(f.buf, &st) && (double)st.st_mtime > newest)
			newest = (double)st.st_mtime;
		strbuf_release(&f);
	}
	p->ncontext = t->side[PV_CAND].ncontext;
	if (p->ncontext) {
		p->context = arena_alloc(&h->arena, st_mult(p->ncontext, sizeof(*p->context)));
		for (size_t i = 0; i < p->ncontext; i++) {
			p->context[i].key = arena_strdup(&h->arena, t->side[PV_CAND].context[i].key);
			p->context[i].value = arena_strdup(&h->arena, t->side[PV_CAND].context[i].value);
		}
	}
	p->mtime = newest;
	/* Only when it orders the points: file times differ between
	 * checkouts of the same archive, and reports should not. */
	if (o->order == PV_ORDER_TIME) {
		iso_of(newest, iso, sizeof(iso));
		p->time = arena_strdup(&h->arena, iso);
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct pv_metric *tm = &t->m[i];
		struct pv_hist_metric *m;

		if (!tm->n[PV_CAND])
			continue;
		m = i < h->nguess ? same_metric(h, h->guess[i], &tm->key) : NULL;
		if (!m && metric_for(h, pi, tm->key.suite, tm->key.test,
				     tm->key.group, tm->key.benchmark,
				     tm->key.metric, tm->unit, o, tm->dir_hint,
				     &m, err))
			goto out;
		if (m) {
			if (i >= h->nguess)
				grow_guess(h, i + 1);
			h->guess[i] = (size_t)(m - h->m) + 1;
		}
		if (series_add(h, pi, m, tm->unit, tm->v[PV_CAND],
				     tm->n[PV_CAND], err))
			goto out;
	}
	rc = 0;
out:
	point_warnings(&d, diag);
	/* kept for the next tree's names (t->like); the one before goes */
	if (h->last_tree) {
		pv_table_release(h->last_tree);
		free(h->last_tree);
	}
	t->like = NULL;
	t->nlike = 0;
	h->last_tree = t;
	pv_scan_release(&sc);
	return rc;
}

/* An archived compare report as one point: its candidate side. */
static int read_report(struct pv_history *h, size_t pi,
		       const struct pv_history_opts *o, struct pv_err *err)
{
	struct pv_hist_point *p = &h->p[pi];
	struct pv_report r;
	int rc = -1;

	pv_report_init(&r);
	if (pv_archive_read(&r, p->path, err)) {
		/* Not a report but a history point written as plain .json (it
		 * has no schema_version): read it as one.  Reports stay opened
		 * once; only such a point is opened a second time. */
		struct pv_err perr = { 0 };
		int prc = err && err->id == PV_M_BAD_SCHEMA_VERSION ?
			  pv_point_read(h, pi, o, &perr) : -2;

		if (prc != -2)
			*err = perr;    /* a point: its own error, or none */
		if (prc == 0 || prc == 1) {
			p->is_report = PV_PK_POINT;
			rc = prc;
		}
		goto out;
	}
	for (size_t i = 0; i < r.n; i++) {
		const struct pv_result *res = &r.m[i];
		const struct pv_side_result *sd = &res->side[PV_CAND];
		struct pv_hist_metric *m;

		if (!sd->present || !sd->s.n)
			continue;
		if (!sd->nsamples) {
			pv_error(err, PV_M_BAD_POINT,
				 "point '%s' of archive '%s': the report keeps no candidate samples of %s/%s/%s; history needs the samples (a tree, or a report written with them)",
				 p->label, h->archive, res->group, res->benchmark,
				 res->metric);
			goto out;
		}
		if (metric_for(h, pi, res->suite ? res->suite : "",
			       res->test ? res->test : "",
			       res->group ? res->group : "", res->benchmark,
			       res->metric, res->unit, o, res->direction, &m, err) ||
		    series_add(h, pi, m, res->unit, sd->samples,
				     sd->nsamples, err))
			goto out;
	}
	if (!p->metrics) {
		pv_error(err, PV_M_BAD_POINT,
			 "point '%s' of archive '%s': the report has no candidate samples",
			 p->label, h->archive);
		goto out;
	}
	p->time = r.generated_at ? arena_strdup(&h->arena, r.generated_at) : NULL;
	p->mtime = parse_iso(r.generated_at);
	/* The candidate's context, as a tree's preamble: the machine rule
	 * of --baseline-history reads it. */
	p->ncontext = r.side[PV_CAND].ncontext;
	if (p->ncontext) {
		p->context = arena_alloc(&h->arena, st_mult(p->ncontext, sizeof(*p->context)));
		for (size_t i = 0; i < p->ncontext; i++) {
			p->context[i].key = arena_strdup(&h->arena, r.side[PV_CAND].context[i].key);
			p->context[i].value = arena_strdup(&h->arena, r.side[PV_CAND].context[i].value);
		}
	}
	/* candidate.label, as pv_archive_read() read it: the file is
	 * parsed once. */
	if (r.label[PV_CAND])
		p->commit = arena_strdup(&h->arena, r.label[PV_CAND]);
	rc = 0;
out:
	pv_report_release(&r);
	return rc;
}

/* Reorder the points by recorded time (stable: ties keep name order). */
struct order_ent {
	double t;
	size_t i;
};

static int by_time(const void *a, const void *b)
{
	const struct order_ent *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static int by_point(const void *a, const void *b)
{
	const struct pv_hist_obs *x = a, *y = b;

	return x->point < y->point ? -1 : x->point > y->point;
}

static int order_by_time(struct pv_history *h, struct pv_diag *diag,
			 struct pv_err *err)
{
	size_t ties = 0, tie = 0;

	struct order_ent *e = pv_calloc(h->np, sizeof(*e));
	size_t *newpos = pv_calloc(h->np, sizeof(*newpos));
	struct pv_hist_point *np = pv_calloc(h->np, sizeof(*np));

	for (size_t i = 0; i < h->np; i++) {
		if (isnan(h->p[i].mtime)) {
			pv_error(err, PV_M_BAD_POINT,
				 "point '%s' of archive '%s' has no recorded time: --order time needs a report's generated_at",
				 h->p[i].label, h->archive);
			free(e);
			free(newpos);
			free(np);
			return -1;
		}
		e[i].t = h->p[i].mtime;
		e[i].i = i;
	}
	qsort(e, h->np, sizeof(*e), by_time);
	for (size_t i = 1; i < h->np; i++)
		if (e[i].t == e[i - 1].t && !ties++)
			tie = i;
	if (ties) {
		char iso[32];

		iso_of(e[tie].t, iso, sizeof(iso));
		pv_diag_add(diag, PV_M_TIME_TIE, "--order time: %zu point%s the same recorded time as the one before (first '%s' and '%s', both %s): those keep name order",
			    ties, ties == 1 ? " has" : "s have",
			    h->p[e[tie - 1].i].label, h->p[e[tie].i].label, iso);
	}
	for (size_t i = 0; i < h->np; i++) {
		newpos[e[i].i] = i;
		np[i] = h->p[e[i].i];
	}
	memcpy(h->p, np, h->np * sizeof(*np));
	for (size_t i = 0; i < h->nm; i++) {
		struct pv_hist_metric *m = &h->m[i];

		for (size_t j = 0; j < m->nobs; j++)
			m->obs[j].point = (uint32_t)newpos[m->obs[j].point];
		qsort(m->obs, m->nobs, sizeof(*m->obs), by_point);
	}
	free(e);
	free(newpos);
	free(np);
	return 0;
}

static int too_few_points(const struct pv_history *h, struct pv_err *err)
{
	if (h->np >= 3)
		return 0;
	return pv_error(err, PV_M_TOO_FEW_POINTS,
			"archive '%s' has %zu point%s: history needs at least 3 (result trees, compare reports or history points, oldest first by name)",
			h->archive, h->np, h->np == 1 ? "" : "s");
}

static int no_metrics(const struct pv_history *h, struct pv_err *err)
{
	if (h->nm)
		return 0;
	return pv_error(err, PV_M_NO_SAMPLES, "archive '%s': no metrics in any point",
			h->archive);
}

/*
 * Each point's file buffer, table and sample arrays are freed and the
 * next point's, of about the same sizes, allocated again.  glibc hands
 * blocks of 128 KiB and more back to the kernel when they are freed
 * (mmap, or trimming the heap's top), and the next point faults the
 * same pages in again, zeroed: two thirds of the page faults at 100
 * points x 10,000 metrics (95,900 faults, 0.15 s).  Freed memory stays
 * in the heap instead, for the next point (peak RSS unchanged).
 */
static void keep_freed_memory(void)
{
#if defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
#endif
}

/*
 * Every point, in order.  One that holds no results (a tree of empty
 * files or none, a point with no metrics: a CI run that produced
 * nothing) is left out as a gap with a warning naming it, or is the
 * error with [limits] empty_points = error.  Nothing of it was added to
 * a series, so the points after it move down one place.
 */
static int read_points(struct pv_history *h, const struct pv_history_opts *o,
		       struct pv_diag *diag, struct pv_err *err)
{
	size_t w = 0;

	for (size_t i = 0; i < h->np; i++) {
		struct pv_hist_point *p = &h->p[w];
		const char *entry = NULL;
		int rc;

		h->p[w] = h->p[i];
		rc = p->is_report == PV_PK_POINT ? pv_point_read(h, w, o, err) :
		     p->is_report ? read_report(h, w, o, err) :
				    read_tree(h, w, o, diag, err);
		/* named by its entry: a point file's label is its own */
		if (rc == 1 && strrchr(p->path, '/'))
			entry = strrchr(p->path, '/') + 1;
		else if (rc == 1)
			entry = p->path;
		if (rc == 1 && o->cfg->limits.empty_points_error)
			return pv_error(err, PV_M_NO_RESULTS,
					"point '%s' of archive '%s' holds no results: expected the results of a run ([limits] empty_points = warn leaves such a point out as a gap)",
					entry, h->archive);
		if (rc == 1) {
			pv_diag_add(diag, PV_M_NO_RESULTS,
				    "point '%s' of archive '%s' holds no results; left out as a gap",
				    entry, h->archive);
			memset(p, 0, sizeof(*p));
			continue;
		}
		if (rc)
			return -1;
		w++;
	}
	h->np = w;
	return 0;
}

int pv_history_is_full_id(const char *s)
{
	size_t n = s ? strspn(s, "0123456789abcdef") : 0;

	return (n == 40 || n == 64) && !s[n];
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* h->abbrev: as git abbreviates, the least length from 7 at which no
 * two different full ids among the labels and commits share a prefix. */
static void set_abbrev(struct pv_history *h)
{
	const char **id;
	size_t n = 0, best = 7;

	ALLOC_ARRAY(id, st_mult(2, h->np) + 1);
	for (size_t i = 0; i < h->np; i++) {
		if (pv_history_is_full_id(h->p[i].label))
			id[n++] = h->p[i].label;
		if (pv_history_is_full_id(h->p[i].commit))
			id[n++] = h->p[i].commit;
	}
	qsort(id, n, sizeof(*id), by_str);
	for (size_t i = 1; i < n; i++) {
		size_t k = 0;

		if (!strcmp(id[i - 1], id[i]))
			continue;
		while (id[i - 1][k] == id[i][k])
			k++;
		if (k + 1 > best)
			best = k + 1;
	}
	h->abbrev = (unsigned)best;
	free(id);
}

static int read_archive(struct pv_history *h, const char *archive,
		       const struct pv_history_opts *o, struct pv_diag *diag,
		       struct pv_err *err);

int pv_history_read(struct pv_history *h, const char *archive,
		    const struct pv_history_opts *o, struct pv_diag *diag,
		    struct pv_err *err)
{
	int rc = read_archive(h, archive, o, diag, err);

	if (!rc)
		set_abbrev(h);
	return rc;
}

static int read_archive(struct pv_history *h, const char *archive,
			const struct pv_history_opts *o, struct pv_diag *diag,
			struct pv_err *err)
{
	DIR *dir;
	struct dirent *de;
	char **names = NULL;
	size_t nnames = 0, anames = 0;
	int rc = -1;

	h->archive = arena_strdup(&h->arena, archive);
	h->order = o->order;
	h->recent = o->recent;
	{
		struct stat ast;

		/* A file: a github-action-benchmark data.js (benchdata.h). */
		if (!stat(archive, &ast) && S_ISREG(ast.st_mode)) {
			if (pv_benchdata_read(h, archive, o, diag, err) ||
			    too_few_points(h, err) || no_metrics(h, err) ||
			    (o->order == PV_ORDER_TIME && order_by_time(h, diag, err)))
				return -1;
			return 0;
		}
	}
	dir = opendir(archive);
	if (!dir)
		return pv_error(err, PV_M_CANNOT_READ, "cannot read archive '%s': %s",
				archive, strerror(errno));
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		if (nnames == anames) {
			anames = anames ? 2 * anames : 32;
			names = pv_reallocarray(names, anames, sizeof(*names));
		}
		names[nnames++] = pv_strdup(de->d_name);
	}
	closedir(dir);
	if (!nnames) {
		pv_error(err, PV_M_TOO_FEW_POINTS,
			 "archive '%s' is empty: history needs at least 3 points (result trees or compare reports, oldest first by name)",
			 archive);
		goto out;
	}
	qsort(names, nnames, sizeof(*names), by_name);
	h->p = pv_calloc(nnames ? nnames : 1, sizeof(*h->p));
	for (size_t i = 0; i < nnames; i++) {
		struct strbuf path = STRBUF_INIT;
		struct stat st;
		struct pv_hist_point *p;

		strbuf_addf(&path, "%s/%s", archive, names[i]);
		if (lstat(path.buf, &st)) {
			pv_error(err, PV_M_CANNOT_READ, "cannot read '%s': %s", path.buf,
				 strerror(errno));
			strbuf_release(&path);
			goto out;
		}
		if (S_ISLNK(st.st_mode)) {
			pv_diag_add(diag, PV_M_NOT_A_POINT, "archive '%s': '%s' is a symbolic link, which history does not follow; left out",
				    archive, names[i]);
			strbuf_release(&path);
			continue;
		}
		if (!S_ISDIR(st.st_mode) &&
		    !(S_ISREG(st.st_mode) && (pv_ends_with(names[i], ".json", 0) ||
					      pv_ends_with(names[i], ".json.gz", 0)))) {
			pv_diag_add(diag, PV_M_NOT_A_POINT, "archive '%s': '%s' is not a point (expected a result tree, or a compare report or history point ending in .json or .json.gz); left out",
				    archive, names[i]);
			strbuf_release(&path);
			continue;
		}
		p = &h->p[h->np++];
		p->label = arena_strdup(&h->arena, names[i]);
		p->path = arena_strdup(&h->arena, path.buf);
		p->is_report = S_ISDIR(st.st_mode) ? PV_PK_TREE :
			       pv_ends_with(names[i], ".json.gz", 0) ? PV_PK_POINT :
			       PV_PK_REPORT;
		strbuf_release(&path);
	}
	if (too_few_points(h, err))
		goto out;
	keep_freed_memory();
	if (read_points(h, o, diag, err) || too_few_points(h, err) ||
	    no_metrics(h, err))
		goto out;
	if (o->order == PV_ORDER_TIME && order_by_time(h, diag, err))
		goto out;
	rc = 0;
out:
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	return rc;
}

/* The robust point values of one metric (see the top of this file;
 * the statistics are stats/changepoint.c's). */
static void point_values(struct pv_hist_metric *m)
{
	size_t k = m->nobs ? m->nobs : 1;
	double *lv, *val;
	uint32_t *n;
	size_t *off;

	ALLOC_ARRAY(lv, m->nruns ? m->nruns : 1);
	ALLOC_ARRAY(val, k);
	ALLOC_ARRAY(n, k);
	ALLOC_ARRAY(off, k);
	m->logscale = 1;
	for (size_t i = 0; i < m->nruns; i++)
		if (!(m->runs[i] > 0) || !isfinite(m->runs[i]))
			m->logscale = 0;
	for (size_t i = 0; i < m->nruns; i++)
		lv[i] = m->logscale ? log(m->runs[i]) : m->runs[i];
	for (size_t j = 0; j < m->nobs; j++) {
		n[j] = m->obs[j].n;
		off[j] = m->obs[j].off;
	}
	/* the run scale and each point's value (pv_cp_point_value()),
	 * from the runs on the scale */
	m->tau = pv_cp_point_values(lv, n, off, m->nobs, m->nruns, val);
	for (size_t j = 0; j < m->nobs; j++)
		m->obs[j].value = val[j];
	free(lv);
	free(val);
	free(n);
	free(off);
}

static double level_of(const struct pv_hist_metric *m, double v)
{
	return m->logscale ? exp(v) : v;
}

static double rel_of(const struct pv_hist_metric *m, double before,
		     double delta)
{
	if (m->logscale)
		return expm1(delta);
	return before != 0 ? delta / fabs(before) : NAN;
}

/*
 * m's watch: the excursion of its newest points after its last change
 * point (stats/excursion.h), on the values the detector saw before its
 * clipping (a newest point off its level is no spike until a later one
 * comes back), Bonferroni over the gated series.
 */
static void watch_end(const struct pv_history *h, struct pv_hist_metric *m,
		      const struct pv_cp_series *s, size_t gated)
{
	const double *y = s->adjusted ? s->adjusted : s->y;
	size_t from = s->ncp ? s->cp[s->ncp - 1].index : 0;
	struct pv_cp_excursion *w = &m->watch;

	pv_cp_end_excursion(y, from, s->L, s->sd, s->df, gated,
			    s->alpha > 0 ? s->alpha : h->alpha, w);
	m->watched = 0;
	if (!w->k || !m->nobs || m->obs[m->nobs - 1].point != h->np - 1)
		return;
	m->watch_before = level_of(m, w->before);
	m->watch_after = level_of(m, w->after);
	m->watch_rel = rel_of(m, w->before, w->delta);
	m->watched = w->significant &&
		     pv_policy_beyond(m->rule.threshold, m->rule.abs_threshold,
				      m->watch_before,
				      m->watch_after - m->watch_before,
				      m->watch_rel);
}

int pv_history_analyse(struct pv_history *h, const struct pv_history_opts *o,
		       struct pv_err *err)
{
	struct pv_cp_series *s = pv_calloc(h->nm ? h->nm : 1, sizeof(*s));
	double **y = pv_calloc(h->nm ? h->nm : 1, sizeof(*y));
	size_t **pt = pv_calloc(h->nm ? h->nm : 1, sizeof(*pt));
	size_t gated = 0;
	int rc = -1;

	h->alpha = o->cfg->gate.alpha;
	for (size_t i = 0; i < h->nm; i++) {
		struct pv_hist_metric *m = &h->m[i];

		point_values(m);
		ALLOC_ARRAY(y[i], m->nobs ? m->nobs : 1);
		ALLOC_ARRAY(pt[i], m->nobs ? m->nobs : 1);
		for (size_t j = 0; j < m->nobs; j++) {
			y[i][j] = m->obs[j].value;
			pt[i][j] = m->obs[j].point;
		}
		s[i].y = y[i];
		s[i].L = m->nobs;
		s[i].alone = !m->logscale;
		/* a slow machine makes times go up and rates down */
		s[i].point = pt[i];
		s[i].sign = m->rule.direction == PV_DIR_HIGHER ? -1 : 1;
		s[i].alpha = m->rule.alpha;
		s[i].ungated = !m->rule.gated;
	}
	pv_cp_shared_release(&h->shared);
	if (pv_cp_family_shared(s, h->nm, h->alpha, &h->shared, err))
		goto out;
	for (size_t i = 0; i < h->nm; i++)
		gated += !s[i].ungated;
	h->shared_metrics = 0;
	for (size_t i = 0; i < h->nm; i++) {
		struct pv_hist_metric *m = &h->m[i];

		m->sd = s[i].sd;
		m->df = s[i].df;
		m->nclipped = s[i].nclipped;
		m->shared_weight = s[i].shared_beta;
		h->shared_metrics += m->shared_weight != 0;
		for (size_t j = 0; j < m->nobs; j++)
			m->obs[j].tested = s[i].clipped ? s[i].clipped[j] :
					   m->obs[j].value;
		m->trend = s[i].trend;
		{
			double sum = 0;

			for (size_t j = 0; j < m->nobs; j++)
				sum += m->obs[j].value;
			m->trend_rel = m->nobs ? rel_of(m, sum / (double)m->nobs,
							m->trend.slope) : NAN;
		}
		m->ncp = s[i].ncp;
		m->cp = pv_calloc(m->ncp ? m->ncp : 1, sizeof(*m->cp));
		for (size_t j = 0; j < m->ncp; j++) {
			struct pv_hist_cp *c = &m->cp[j];
			const struct pv_cp *x = &s[i].cp[j];

			c->s = *x;
			c->point = m->obs[x->index].point;
			c->point_low = m->obs[x->index_low].point;
			c->point_high = m->obs[x->index_high].point;
			c->before = level_of(m, x->before);
			c->after = level_of(m, x->after);
			c->rel = rel_of(m, x->before, x->delta);
			c->rel_low = rel_of(m, x->before, x->delta_low);
			c->rel_high = rel_of(m, x->before, x->delta_high);
		}
		watch_end(h, m, &s[i], gated);
	}
	rc = 0;
out:
	for (size_t i = 0; i < h->nm; i++) {
		pv_cp_series_release(&s[i]);
		free(y[i]);
		free(pt[i]);
	}
	free(s);
	free(y);
	free(pt);
	return rc;
}

/* A change point's status, in the verdicts' severity order (policy.h). */
static const enum pv_verdict status_verdict[PV_HS_COUNT] = {
	[PV_HS_REGRESSION] = PV_V_REGRESSION,
	[PV_HS_IMPROVEMENT] = PV_V_IMPROVEMENT,
	[PV_HS_CHANGED] = PV_V_UNGATED,
	[PV_HS_WAIVED] = PV_V_WAIVED,
	[PV_HS_UNCHANGED] = PV_V_UNCHANGED,
	[PV_HS_INSUFFICIENT] = PV_V_INSUFFICIENT,
	[PV_HS_MISSING] = PV_V_MISSING,
};

/*
 * One metric's change points by its rule: the direction says regression
 * or improvement, the threshold and abs_threshold whether it is beyond
 * the floor, and the waiver (looked up once) whether it is waived; an
 * expired waiver is warned about when a recent regression beyond the
 * floor makes it matter.  Then whether each fails the gate, and the
 * metric's status: its most severe recent change beyond the floor.
 */
static void decide_metric(struct pv_history *h, struct pv_hist_metric *m,
			  size_t first_recent, const struct pv_history_opts *o,
			  struct pv_diag *diag)
{
	const struct pv_waiver *wv = NULL;
	int any = 0, matters = 0, best = 0;

	for (size_t j = 0; j < m->ncp; j++) {
		struct pv_hist_cp *c = &m->cp[j];
		int worse = m->rule.direction != PV_DIR_NONE &&
			    pv_policy_move(m->rule.direction, c->s.delta) > 0;

		c->verdict = m->rule.direction == PV_DIR_NONE ? PV_HS_CHANGED :
			     worse ? PV_HS_REGRESSION : PV_HS_IMPROVEMENT;
		c->beyond = pv_policy_beyond(m->rule.threshold, m->rule.abs_threshold,
					     c->before, c->after - c->before,
					     c->rel);
		any |= worse;
		matters |= worse && c->beyond && c->point >= first_recent;
	}
	if (any)
		wv = pv_policy_waiver(o->cfg, o->today, m->group, m->benchmark,
				      m->metric, matters ? diag : NULL);
	m->status_cp = 0;
	for (size_t j = 0; j < m->ncp; j++) {
		struct pv_hist_cp *c = &m->cp[j];
		enum pv_hist_status st = c->verdict;
		int rank;

		c->waiver = st == PV_HS_REGRESSION ? wv : NULL;
		if (c->waiver)
			st = PV_HS_WAIVED;
		c->fails = 0;
		if (c->point < first_recent || !c->beyond)
			continue;
		c->fails = pv_policy_fails(&o->cfg->gate, status_verdict[st]);
		h->fail_cp += (size_t)c->fails;
		rank = pv_verdict_severity(status_verdict[st]);
		if (!m->status_cp || rank < best) {
			best = rank;
			m->status = st;
			m->status_cp = j + 1;
		}
	}
	if (m->status_cp)
		return;
	if (!m->nobs || m->obs[m->nobs - 1].point != h->np - 1)
		m->status = PV_HS_MISSING;
	else if (m->nobs < 2 * PV_CP_MIN_SEG)
		m->status = PV_HS_INSUFFICIENT;
	else
		m->status = PV_HS_UNCHANGED;
}

void pv_history_decide(struct pv_history *h, const struct pv_history_opts *o,
		       struct pv_diag *diag)
{
	size_t first_recent = h->np > o->recent ? h->np - o->recent : 0;
	struct pv_names assumed = PV_NAMES_INIT(3);

	memset(h->count, 0, sizeof(h->count));
	h->fail_cp = 0;
	for (size_t i = 0; i < h->nm; i++) {
		struct pv_hist_metric *m = &h->m[i];

		if (m->rule.dir_assumed)
			pv_names_add(&assumed, m->group, m->benchmark, m->metric);
		decide_metric(h, m, first_recent, o, diag);
		h->count[m->status]++;
	}
	h->fail = h->fail_cp > 0;
	if (h->shared.applied) {
		struct strbuf size = STRBUF_INIT;
		size_t top = 0;

		/* the largest effect; a point with too few series for one
		 * (NAN) is never it */
		for (size_t p = 1; p < h->shared.np && p < h->np; p++)
			if (isfinite(h->shared.effect[p]) &&
			    !(fabs(h->shared.effect[top]) >= fabs(h->shared.effect[p])))
				top = p;
		h->shared_top = top;
		pv_history_shared_size(h, &size);
		pv_diag_add(diag, PV_M_SHARED_EFFECT, "the points shared a machine effect (%s'%s'): taken out of %zu metrics' values before the tests",
			    size.buf, h->p[top].label, h->shared_metrics);
		strbuf_release(&size);
	}
	pv_policy_note_assumed(diag, assumed.n, pv_names_end(&assumed));
	strbuf_release(&assumed.sb);
}

void pv_history_shared_size(const struct pv_history *h, struct strbuf *sb)
{
	double e = h->shared.effect[h->shared_top];

	strbuf_addf(sb, "sd %.1f%% a point; at most %.1f%% %s at ",
		    100 * h->shared.sd, 100 * fabs(expm1(e)),
		    e > 0 ? "slower" : "faster");
}
