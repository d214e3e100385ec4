/*
 * test_pooled_source.c - a baseline pooled from an archive is a source
 * (issue 20): pv_load_pooled_baseline() fills the table's baseline side
 * at load time, and the one-way path every tree takes (pv_decide():
 * model from the table, then the tests) gives compare
 * --baseline-history's verdicts, with nothing handed to the model from
 * outside.  The reference is the reviewed golden report of
 * tests/golden/baseline-history, read back; the archive and its rules
 * are samples/history's.  Run from the top of the repository.
 */
#include "unit.h"

#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "archive.h"
#include "history/baseline_history.h"
#include "config.h"
#include "report.h"
#include "scan.h"
#include "table.h"
#include "verdict.h"

#define ARCHIVE "samples/history/archive"
#define CONF "samples/history/perf.conf"
#define CANDIDATE "tests/golden/baseline-history/candidate"
#define GOLDEN "tests/golden/baseline-history/out/report.json"

struct loaded {
	struct pv_config cfg;
	struct pv_suite suite;
	struct pv_table t;
	struct pv_diag diag;
	struct pv_err err;
};

static int load(struct loaded *l, size_t window)
{
	struct pv_scan sc = { 0 };
	struct pv_history_opts o;
	int rc;

	memset(l, 0, sizeof(*l));
	assert_int_equal(pv_config_load(&l->cfg, CONF, &l->err), 0);
	l->suite.name = (char *)"default";
	l->suite.ignore_col = 1;
	l->suite.repeat_pattern = (char *)"repeat[0-9]+";
	assert_int_equal(regcomp(&l->suite.repeat_re, l->suite.repeat_pattern,
				 REG_EXTENDED), 0);
	o = (struct pv_history_opts){
		.cfg = &l->cfg, .suite = &l->suite, .order = PV_ORDER_NAME,
		.recent = PV_HISTORY_RECENT, .today = "2025-12-01",
	};
	pv_table_init(&l->t, 0);
	rc = pv_scan_tree(CANDIDATE, &l->suite, &l->cfg.limits, &sc, &l->err) ||
	     pv_load_side(&l->t, PV_CAND, &sc, &l->suite, NULL, &l->cfg,
			  &l->diag, &l->err) ||
	     pv_load_pooled_baseline(&l->t, ARCHIVE, window, &o, &l->diag,
				     &l->err) ? -1 : 0;
	pv_scan_release(&sc);
	return rc;
}

static void loaded_release(struct loaded *l)
{
	pv_table_release(&l->t);
	pv_diag_release(&l->diag);
	regfree(&l->suite.repeat_re);
	pv_config_release(&l->cfg);
}

/* The side says what it is, and each metric carries its points. */
static void loads_the_baseline_side(void **state)
{
	struct loaded l;
	const struct pv_sidemeta *b;
	size_t runs = 0;

	(void)state;
	assert_int_equal(load(&l, PV_POOL_WINDOW), 0);
	b = &l.t.side[PV_BASE];
	assert_true(b->is_archive);
	assert_string_equal(b->path, ARCHIVE);
	assert_int_equal(b->files, 12);         /* the archive's points */
	assert_true(b->npooled > 0 && b->npooled <= PV_POOL_WINDOW);
	assert_int_equal(b->runs, b->npooled);
	for (size_t i = 0; i < b->npooled; i++) {
		assert_true(b->pooled[i].age >= 1 && b->pooled[i].age <= 12);
		assert_true(!i || b->pooled[i].age < b->pooled[i - 1].age);
	}
	assert_int_equal(l.t.npoints, l.t.n);
	for (size_t i = 0; i < l.t.n; i++) {
		const struct pv_points *p = l.t.points[i];

		assert_non_null(p);
		assert_true(p->K >= 2 && p->K <= PV_POOL_WINDOW);
		/* one baseline sample a point (its runs' mean, after
		 * finish), from one file a point */
		assert_int_equal(l.t.m[i].files[PV_BASE], p->K);
		runs += p->K;
		for (size_t k = 0; k < p->K; k++)
			assert_true(isfinite(p->y[k]));
	}
	assert_true(runs > 0);
	loaded_release(&l);
}

/* --history-window bounds each metric's points. */
static void window_bounds_the_points(void **state)
{
	struct loaded l;

	(void)state;
	assert_int_equal(load(&l, 2), 0);
	for (size_t i = 0; i < l.t.n; i++)
		assert_int_equal(l.t.points[i]->K, 2);
	assert_true(l.t.side[PV_BASE].npooled <= 2);
	loaded_release(&l);
}

static const struct pv_result *find(const struct pv_report *r,
				    const struct pv_result *m)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->m[i].group, m->group) &&
		    !strcmp(r->m[i].benchmark, m->benchmark) &&
		    !strcmp(r->m[i].metric, m->metric))
			return &r->m[i];
	return NULL;
}

/* The one-way path gives the golden report's tests and verdicts. */
static void decides_like_compare(void **state)
{
	struct loaded l;
	struct pv_report r, want;
	struct pv_err err = { 0 };

	(void)state;
	assert_int_equal(load(&l, PV_POOL_WINDOW), 0);
	pv_table_finish(&l.t);
	pv_report_init(&r);
	r.settings.gate = l.cfg.gate;
	assert_int_equal(pv_decide(&l.t, &l.cfg, "2025-12-01", &r, &l.diag,
				   &l.err), 0);
	pv_report_init(&want);
	assert_int_equal(pv_archive_read(&want, GOLDEN, &err), 0);
	assert_int_equal(r.n, want.n);
	assert_int_equal(r.npooled, want.npooled);
	for (size_t i = 0; i < r.npooled; i++) {
		assert_string_equal(r.pooled[i].label, want.pooled[i].label);
		assert_int_equal(r.pooled[i].age, want.pooled[i].age);
		assert_int_equal(r.pooled[i].metrics, want.pooled[i].metrics);
	}
	for (size_t i = 0; i < r.n; i++) {
		const struct pv_result *m = &r.m[i], *g = find(&want, m);

		assert_non_null(g);
		assert_non_null(m->points);
		assert_int_equal(m->test_used, PV_TEST_HISTORY);
		assert_int_equal(m->verdict, g->verdict);
		assert_true(m->statistic == g->statistic);
		/* an infinite df (the prior's d0) is written as null */
		assert_true(m->df == g->df || (isinf(m->df) && isnan(g->df)));
		assert_true(m->p == g->p);
		assert_true(m->ci_low == g->ci_low && m->ci_high == g->ci_high);
	}
	pv_report_release(&want);
	pv_report_release(&r);
	loaded_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(loads_the_baseline_side),
		cmocka_unit_test(window_bounds_the_points),
		cmocka_unit_test(decides_like_compare),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
