/*
 * calibrate.c - A/A splits of one tree; see calibrate.h.
 *
 * All metrics of one test share the same split in an iteration, so the
 * correlation between metrics measured in the same run (one bad run
 * moves many of them) is kept, as it would be in a real comparison.
 * The random numbers come from a seeded xorshift64*, so a run is
 * reproducible.
 */
#include "calibrate.h"

#include <stdlib.h>
#include <string.h>
#include "stats/binom.h"
#include "verdict.h"
#include "util/banned.h"

#define MIN_RUNS 4

static uint64_t next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

/* A uniform index below n (n small; the modulo bias is negligible). */
static size_t below(uint64_t *s, size_t n)
{
	return (size_t)(next(s) % n);
}

void pv_calib_release(struct pv_calib *c)
{
	free(c->alarms);
	pv_report_release(&c->model);
}

/* Counts the metrics with enough runs to split; the most runs of any
 * metric goes to *maxn. */
static void count_runs(struct pv_calib *c, const struct pv_report *r,
		       size_t *maxn)
{
	c->min_runs = (size_t)-1;
	c->max_runs = 0;
	for (size_t i = 0; i < r->n; i++) {
		size_t n = r->m[i].side[0].nsamples;

		if (n > *maxn)
			*maxn = n;
		if (n < MIN_RUNS) {
			c->skipped++;
			continue;
		}
		c->metrics++;
		if (n < c->min_runs)
			c->min_runs = n;
		if (n > c->max_runs)
			c->max_runs = n;
	}
}

/*
 * The working model: only the metrics with enough runs, both sides
 * present, samples pointing into one scratch buffer.  The scratch is
 * sized per metric (its halves hold its own runs) and per test (its
 * order of run indices is as long as its longest metric): one metric
 * with many runs must not multiply the rest.
 */
struct split {
	struct pv_report work;
	size_t ntests;
	size_t *test_of, *orig;     /* per working metric: its test, its index */
	const char **tests;
	size_t *tmax;               /* per test: the most runs of a metric */
	size_t *boff, *poff;        /* offsets into buf (metric), perm (test) */
	double *buf;
	size_t *perm;
};

static void split_init(struct split *sp, const struct pv_report *r,
		       const struct pv_calib *c)
{
	struct pv_report *work = &sp->work;
	size_t nbuf = 0, n1 = st_add(r->n, 1);

	memset(sp, 0, sizeof(*sp));
	pv_report_init(work);
	work->settings = r->settings;
	/* Halves of 4 runs have 2: let the test run on them. */
	work->settings.gate.min_samples = 2;
	work->m = pv_calloc(st_add(c->metrics, 1), sizeof(*work->m));
	sp->test_of = pv_calloc(n1, sizeof(*sp->test_of));
	sp->orig = pv_calloc(n1, sizeof(*sp->orig));
	sp->tests = pv_calloc(n1, sizeof(*sp->tests));
	sp->tmax = pv_calloc(n1, sizeof(*sp->tmax));
	sp->boff = pv_calloc(n1, sizeof(*sp->boff));
	sp->poff = pv_calloc(st_add(n1, 1), sizeof(*sp->poff));
	for (size_t i = 0; i < r->n; i++) {
		size_t k, n = r->m[i].side[0].nsamples;

		if (n < MIN_RUNS)
			continue;
		for (k = 0; k < sp->ntests; k++)
			if (!strcmp(sp->tests[k], r->m[i].test))
				break;
		if (k == sp->ntests)
			sp->tests[sp->ntests++] = r->m[i].test;
		if (n > sp->tmax[k])
			sp->tmax[k] = n;
		sp->test_of[work->n] = k;
		sp->orig[work->n] = i;
		sp->boff[work->n] = nbuf;
		nbuf += n;      /* the samples are in memory already: no overflow */
		work->m[work->n++] = r->m[i];
	}
	for (size_t k = 0; k < sp->ntests; k++)
		sp->poff[k + 1] = sp->poff[k] + sp->tmax[k];
	sp->buf = pv_calloc(st_add(nbuf, 1), sizeof(*sp->buf));
	sp->perm = pv_calloc(st_add(sp->poff[sp->ntests], 1),
			     sizeof(*sp->perm));
}

static void split_release(struct split *sp)
{
	free(sp->work.m);
	sp->work.m = NULL;
	pv_report_release(&sp->work);
	free(sp->test_of);
	free(sp->orig);
	free(sp->tests);
	free(sp->tmax);
	free(sp->boff);
	free(sp->poff);
	free(sp->buf);
	free(sp->perm);
}

/* One random order of run indices per test. */
static void shuffle(struct split *sp, uint64_t *rng)
{
	for (size_t k = 0; k < sp->ntests; k++) {
		size_t *p = sp->perm + sp->poff[k];

		for (size_t j = 0; j < sp->tmax[k]; j++)
			p[j] = j;
		for (size_t j = sp->tmax[k]; j > 1; j--) {
			size_t x = below(rng, j), tmp = p[j - 1];

			p[j - 1] = p[x];
			p[x] = tmp;
		}
	}
}

/* Working metric i as two halves of its baseline runs, in its test's
 * order. */
static void split_metric(struct split *sp, const struct pv_report *r,
			 size_t i)
{
	struct pv_result *m = &sp->work.m[i];
	const struct pv_side_result *src = &r->m[sp->orig[i]].side[0];
	const size_t *p = sp->perm + sp->poff[sp->test_of[i]];
	size_t n = src->nsamples, na = 0, nb = 0, seen = 0;
	double *a = sp->buf + sp->boff[i], *b = a + n / 2;

	for (size_t j = 0; j < sp->tmax[sp->test_of[i]] && seen < n; j++) {
		if (p[j] >= n)
			continue;
		if (seen++ < n / 2)
			a[na++] = src->samples[p[j]];
		else
			b[nb++] = src->samples[p[j]];
	}
	for (int s = 0; s < 2; s++) {
		struct pv_side_result *sd = &m->side[s];

		*sd = *src;
		sd->samples = s ? b : a;
		sd->nsamples = s ? nb : na;
		pv_moments_of(sd->samples, sd->nsamples, &sd->s);
	}
	m->ratio = 0;
	m->change_abs = m->side[1].s.mean - m->side[0].s.mean;
	m->change_rel = pv_rel_change(m->side[0].s.mean, m->side[1].s.mean);
}

int pv_calibrate(struct pv_table *t, const struct pv_config *cfg,
		 unsigned iterations, uint64_t seed, struct pv_calib *c,
		 struct pv_diag *diag, struct pv_err *err)
{
	struct pv_report *r = &c->model;
	struct split sp;
	size_t maxn = 0;
	uint64_t rng = seed ? seed : 0x9e3779b97f4a7c15ULL;
	int rc = 0;

	pv_model_from_table(t, cfg, r, diag);
	c->iterations = iterations;
	c->alarmed = 0;
	c->alarms = pv_calloc(st_add(r->n, 1), sizeof(*c->alarms));
	count_runs(c, r, &maxn);
	if (!c->metrics)
		return pv_error(err, PV_M_TOO_FEW_RUNS,
				"calibrate needs at least %d runs of a metric to split them in two; the most any metric has is %zu",
				MIN_RUNS, maxn);

	split_init(&sp, r, c);
	for (unsigned it = 0; it < iterations && !rc; it++) {
		int any = 0;

		shuffle(&sp, &rng);
		for (size_t i = 0; i < sp.work.n; i++)
			split_metric(&sp, r, i);
		arena_release(&sp.work.arena);
		rc = pv_redecide(&sp.work, cfg, NULL, NULL, err);
		for (size_t i = 0; i < sp.work.n && !rc; i++) {
			if (sp.work.m[i].verdict != PV_V_REGRESSION)
				continue;
			any = 1;
			c->alarms[sp.orig[i]]++;
		}
		c->alarmed += any;
	}
	split_release(&sp);
	if (!rc)
		pv_wilson_interval(c->alarmed, c->iterations, 0.95,
				   &c->rate_lo, &c->rate_hi);
	return rc;
}
