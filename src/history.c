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
#include "archive.h"
#include "report.h"
#include "scan.h"
#include "table.h"
#include "policy.h"
#include "verdict.h"
#include "util/banned.h"


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
	pv_strmap_release(&h->keys);
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

static double parse_iso(const char *s)
{
	struct tm tm;
	const char *end;

	if (!s)
		return NAN;
	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end)
		return NAN;
	return (double)timegm(&tm);
}

static struct pv_hist_metric *metric_for(struct pv_history *h,
					 const char *suite, const char *test,
					 const char *group, const char *bench,
					 const char *metric, const char *unit,
					 const struct pv_history_opts *o,
					 enum pv_dir hint)
{
	struct strbuf k = STRBUF_INIT;
	struct pv_strmap_ent *e;
	struct pv_hist_metric *m;
	struct pv_metric_policy pol;
	int added;

	strbuf_addf(&k, "%s\x1f%s\x1f%s\x1f%s\x1f%s", suite, test, group, bench,
		    metric);
	e = pv_strmap_put(&h->keys, k.buf, k.len, &added);
	strbuf_release(&k);
	if (!added)
		return e->val[0] ? &h->m[e->val[0] - 1] : NULL;
	pv_policy_of(o->cfg, &o->cfg->gate, group, bench, metric, unit, hint,
		     &pol);
	if (h->nm == h->am) {
		h->am = h->am ? 2 * h->am : 64;
		h->m = pv_reallocarray(h->m, h->am, sizeof(*h->m));
	}
	m = &h->m[h->nm++];
	e->val[0] = h->nm;
	memset(m, 0, sizeof(*m));
	m->suite = arena_strdup(&h->arena, suite);
	m->test = arena_strdup(&h->arena, test);
	m->group = arena_strdup(&h->arena, group);
	m->benchmark = arena_strdup(&h->arena, bench);
	m->metric = arena_strdup(&h->arena, metric);
	m->unit = arena_strdup(&h->arena, unit ? unit : "");
	m->rule = pol;
	return m;
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
		while (m->nruns + n > m->aruns)
			m->aruns = m->aruns ? 2 * m->aruns : 64;
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


static void point_warnings(struct pv_diag *from, struct pv_diag *to)
{
	pv_diag_take(to, from);
}

/* A result tree as one point: the same scan, readers and table as
 * compare uses for its candidate side. */
static int read_tree(struct pv_history *h, size_t pi,
		     const struct pv_history_opts *o, struct pv_diag *diag,
		     struct pv_err *err)
{
	struct pv_hist_point *p = &h->p[pi];
	struct pv_scan sc = { 0 };
	struct pv_table t;
	struct pv_diag d = PV_DIAG_INIT;
	double newest = 0;
	char iso[32];
	int rc = -1;

	pv_table_init(&t, o->cfg->limits.max_metrics);
	if (pv_scan_tree(p->path, o->suite, &o->cfg->limits, &sc, err) ||
	    pv_load_side(&t, PV_CAND, &sc, o->suite, o->format, o->cfg, &d, err))
		goto out;
	if (!t.n) {
		pv_error(err, PV_M_BAD_POINT,
			 "point '%s' of archive '%s': no samples found%s",
			 p->label, h->archive,
			 o->suite->pattern ? " (check result_file_pattern)" :
			 ": expected result files of a known format (see 'perfverdict formats')");
		goto out;
	}
	pv_table_finish(&t);
	for (size_t i = 0; i < sc.n; i++) {
		struct strbuf f = STRBUF_INIT;
		struct stat st;

		strbuf_addf(&f, "%s/%s", p->path, sc.f[i].relpath);
		if (!stat(f.buf, &st) && (double)st.st_mtime > newest)
			newest = (double)st.st_mtime;
		strbuf_release(&f);
	}
	p->ncontext = t.side[PV_CAND].ncontext;
	if (p->ncontext) {
		p->context = arena_alloc(&h->arena, st_mult(p->ncontext, sizeof(*p->context)));
		for (size_t i = 0; i < p->ncontext; i++) {
			p->context[i].key = arena_strdup(&h->arena, t.side[PV_CAND].context[i].key);
			p->context[i].value = arena_strdup(&h->arena, t.side[PV_CAND].context[i].value);
		}
	}
	p->mtime = newest;
	/* Only when it orders the points: file times differ between
	 * checkouts of the same archive, and reports should not. */
	if (o->order == PV_ORDER_TIME) {
		iso_of(newest, iso, sizeof(iso));
		p->time = arena_strdup(&h->arena, iso);
	}
	for (size_t i = 0; i < t.n; i++) {
		const struct pv_metric *tm = &t.m[i];
		struct pv_hist_metric *m;

		if (!tm->n[PV_CAND])
			continue;
		m = metric_for(h, tm->key.suite, tm->key.test, tm->key.group,
			       tm->key.benchmark, tm->key.metric, tm->unit, o,
			       tm->dir_hint);
		if (!m)
			continue;
		add_obs(m, (uint32_t)pi, tm->v[PV_CAND], tm->n[PV_CAND]);
		p->metrics++;
	}
	rc = 0;
out:
	point_warnings(&d, diag);
	pv_table_release(&t);
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
	if (pv_archive_read(&r, p->path, err))
		goto out;
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
		m = metric_for(h, res->suite ? res->suite : "", res->test ? res->test : "",
			       res->group ? res->group : "", res->benchmark,
			       res->metric, res->unit, o, res->direction);
		if (!m)
			continue;
		add_obs(m, (uint32_t)pi, sd->samples, sd->nsamples);
		p->metrics++;
	}
	if (!p->metrics) {
		pv_error(err, PV_M_BAD_POINT,
			 "point '%s' of archive '%s': the report has no candidate samples",
			 p->label, h->archive);
		goto out;
	}
	p->time = r.generated_at ? arena_strdup(&h->arena, r.generated_at) : NULL;
	p->mtime = parse_iso(r.generated_at);
	/* candidate.label, as pv_archive_read() read it: the file is
	 * parsed once. */
	if (r.label[PV_CAND])
		p->commit = arena_strdup(&h->arena, r.label[PV_CAND]);
	rc = 0;
out:
	pv_report_release(&r);
	return rc;
}

static int has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && !strcmp(s + a - b, suf);
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

static int order_by_time(struct pv_history *h, struct pv_err *err)
{
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

int pv_history_read(struct pv_history *h, const char *archive,
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
		if (!S_ISDIR(st.st_mode) &&
		    !(S_ISREG(st.st_mode) && has_suffix(names[i], ".json"))) {
			pv_diag_add(diag, PV_M_NOT_A_POINT, "archive '%s': '%s' is not a point (expected a result tree or a compare report ending in .json); left out",
				    archive, names[i]);
			strbuf_release(&path);
			continue;
		}
		p = &h->p[h->np++];
		p->label = arena_strdup(&h->arena, names[i]);
		p->path = arena_strdup(&h->arena, path.buf);
		p->is_report = !S_ISDIR(st.st_mode);
		strbuf_release(&path);
	}
	if (h->np < 3) {
		pv_error(err, PV_M_TOO_FEW_POINTS,
			 "archive '%s' has %zu point%s: history needs at least 3 (result trees or compare reports, oldest first by name)",
			 archive, h->np, h->np == 1 ? "" : "s");
		goto out;
	}
	for (size_t i = 0; i < h->np; i++)
		if (h->p[i].is_report ? read_report(h, i, o, err) :
					read_tree(h, i, o, diag, err))
			goto out;
	if (!h->nm) {
		pv_error(err, PV_M_NO_SAMPLES, "archive '%s': no metrics in any point",
			 archive);
		goto out;
	}
	if (o->order == PV_ORDER_TIME && order_by_time(h, err))
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
	double *lv;
	uint32_t *n;
	size_t *off;

	ALLOC_ARRAY(lv, m->nruns ? m->nruns : 1);
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
	m->tau = pv_cp_run_tau(lv, n, off, m->nobs, m->nruns);
	for (size_t j = 0; j < m->nobs; j++)
		m->obs[j].value = pv_history_value(m, m->runs + m->obs[j].off,
						   m->obs[j].n);
	free(lv);
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

int pv_history_analyse(struct pv_history *h, const struct pv_history_opts *o,
		       struct pv_err *err)
{
	struct pv_cp_series *s = pv_calloc(h->nm ? h->nm : 1, sizeof(*s));
	double **y = pv_calloc(h->nm ? h->nm : 1, sizeof(*y));
	int rc = -1;

	h->alpha = o->cfg->gate.alpha;
	for (size_t i = 0; i < h->nm; i++) {
		struct pv_hist_metric *m = &h->m[i];

		point_values(m);
		ALLOC_ARRAY(y[i], m->nobs ? m->nobs : 1);
		for (size_t j = 0; j < m->nobs; j++)
			y[i][j] = m->obs[j].value;
		s[i].y = y[i];
		s[i].L = m->nobs;
		s[i].alone = !m->logscale;
		s[i].alpha = m->rule.alpha;
		s[i].ungated = !m->rule.gated;
	}
	if (pv_cp_family(s, h->nm, h->alpha, err))
		goto out;
	for (size_t i = 0; i < h->nm; i++) {
		struct pv_hist_metric *m = &h->m[i];

		m->sd = s[i].sd;
		m->df = s[i].df;
		m->nclipped = s[i].nclipped;
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
	}
	rc = 0;
out:
	for (size_t i = 0; i < h->nm; i++) {
		pv_cp_series_release(&s[i]);
		free(y[i]);
	}
	free(s);
	free(y);
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
	pv_policy_note_assumed(diag, assumed.n, pv_names_end(&assumed));
	strbuf_release(&assumed.sb);
}

double pv_history_value(const struct pv_hist_metric *m, const double *x,
			size_t n)
{
	return pv_cp_point_value(x, n, m->logscale, m->tau);
}
