/*
 * test_model.c - zero, and numbers that are not numbers (issue 13): the
 * exact mean of identical values, the model's change from equal and
 * zero means, the verdicts of all-zero and from-zero metrics, and the
 * guarantee that no reason sentence says "nan" or "inf".
 *
 * Models are built through pv_model_from_table() where the table is
 * needed (the change), by hand elsewhere, and decided by pv_redecide().
 */
#include "unit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config.h"
#include "model.h"
#include "report.h"
#include "stats.h"
#include "verdict.h"

/* ------------------------------------------------------------ means */

/* Identical values: the mean is that value, the sd exactly 0 (numpy's
 * plain sum gives 2833.3700000000003 and 5.569e-13 for the first). */
static void mean_of_identical_is_exact(void **state)
{
	static const double vals[] = {
		2833.37, 0.523, 0.1, 1e-300, -7.77, 123456789.123, 1.0 / 3,
	};
	static const size_t ns[] = { 2, 3, 7, 8, 9, 28, 129, 1000 };
	double x[1000];

	(void)state;
	for (size_t v = 0; v < sizeof(vals) / sizeof(*vals); v++) {
		for (size_t k = 0; k < sizeof(ns) / sizeof(*ns); k++) {
			struct pv_summary s;
			double mean, sd;

			for (size_t i = 0; i < ns[k]; i++)
				x[i] = vals[v];
			pv_mean_sd(x, ns[k], &mean, &sd);
			assert_true(mean == vals[v]);
			assert_true(sd == 0);
			pv_summarize(x, ns[k], &s);
			assert_true(s.mean == vals[v] && s.sd == 0 && s.cv == 0);
		}
	}
}

/* Elsewhere the shifted mean stays within a few ulp of the exact mean
 * (a long double sum of seeded random runs), as numpy's does. */
static void mean_stays_accurate(void **state)
{
	uint64_t rng = 0x2545f4914f6cdd1dULL;
	double x[300];

	(void)state;
	for (int rep = 0; rep < 200; rep++) {
		size_t n = 2 + xorshift64(&rng) % 299;
		double loc = (double)(xorshift64(&rng) % 100000) - 20000;
		double scale = ldexp(1.0, (int)(xorshift64(&rng) % 30) - 10);
		long double sum = 0;
		double mean, sd, want;

		for (size_t i = 0; i < n; i++) {
			x[i] = loc + scale * ((double)(xorshift64(&rng) >> 11) /
					      9007199254740992.0 - 0.5);
			sum += x[i];
		}
		want = (double)(sum / n);
		pv_mean_sd(x, n, &mean, &sd);
		assert_near(mean, want, 8 * 2.2e-16 * (fabs(want) + scale));
		assert_true(sd > 0);
	}
}

/* The shift must not turn finite data into an overflow, nor lose an
 * infinite value. */
static void mean_edges(void **state)
{
	const double big[] = { -1e308, 1e308, 1e308 };
	const double inf[] = { INFINITY, 1, 2 };
	double mean, sd;

	(void)state;
	pv_mean_sd(big, 3, &mean, NULL);
	assert_near(mean, 3.333333333333333e+307, 1e293);   /* numpy's */
	pv_mean_sd(inf, 3, &mean, NULL);
	assert_true(isinf(mean) && mean > 0);
	pv_mean_sd(inf, 0, &mean, &sd);
	assert_true(isnan(mean) && isnan(sd));
}

/* ------------------------------------------------------ the change */

static void change_of(double a, double b, struct pv_result *res)
{
	memset(res, 0, sizeof(*res));
	res->side[0].s.n = res->side[1].s.n = 3;
	res->side[0].s.mean = a;
	res->side[1].s.mean = b;
	pv_model_change(res);
}

static void change_from_equal_and_zero_means(void **state)
{
	struct pv_result res;

	(void)state;
	/* equal means, zeros of either sign included: +0, relative 0 */
	change_of(0.0, -0.0, &res);
	assert_true(res.change_abs == 0 && !signbit(res.change_abs));
	assert_true(res.change_rel == 0 && !signbit(res.change_rel));
	change_of(-0.0, 0.0, &res);
	assert_true(res.change_abs == 0 && !signbit(res.change_abs));
	assert_true(res.change_rel == 0);
	change_of(-0.0, -0.0, &res);
	assert_true(res.change_abs == 0 && !signbit(res.change_abs));
	change_of(7.5, 7.5, &res);
	assert_true(res.change_abs == 0 && res.change_rel == 0);
	/* from a zero baseline: absolute only */
	change_of(0.0, 24, &res);
	assert_true(res.change_abs == 24 && isnan(res.change_rel));
	change_of(-0.0, -3, &res);
	assert_true(res.change_abs == -3 && isnan(res.change_rel));
	/* relative to |baseline| */
	change_of(2, 3, &res);
	assert_near(res.change_rel, 0.5, 0);
	change_of(-2, -3, &res);
	assert_near(res.change_rel, -0.5, 0);
	/* a side without observations */
	change_of(1, 2, &res);
	res.side[1].s.n = 0;
	pv_model_change(&res);
	assert_true(isnan(res.change_abs) && isnan(res.change_rel));
}

/* ------------------------------------------------------ hand models */

#define NRUN 5
#define MAXM 16

struct fx {
	struct pv_report r;
	struct pv_config cfg;
	double v[MAXM][2][NRUN];
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	pv_config_defaults(&f->cfg);
	pv_report_init(&f->r);
	f->r.settings.gate = f->cfg.gate;
	f->r.m = calloc(MAXM + 1, sizeof(*f->r.m));
	*state = f;
	return f->r.m ? 0 : -1;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	pv_report_release(&f->r);
	pv_config_release(&f->cfg);
	free(f);
	return 0;
}

/* A metric with NRUN runs a side: base + step * (i - 2) + jitter. */
static struct pv_result *add(struct fx *f, const char *metric,
			     const char *unit, enum pv_dir dir,
			     double base, double cand, double spread)
{
	static const double jit[NRUN] = { -2, 1, 0, 2, -1 };
	size_t k = f->r.n++;
	struct pv_result *res = &f->r.m[k];

	assert_true(k < MAXM);
	res->suite = "s";
	res->test = "t";
	res->group = "g";
	res->benchmark = "b";
	res->metric = metric;
	res->unit = unit;
	res->direction = dir;
	res->gated = dir == PV_DIR_LOWER || dir == PV_DIR_HIGHER;
	res->threshold = f->r.settings.gate.threshold;
	res->abs_threshold = NAN;
	res->alpha = f->r.settings.gate.alpha;
	for (int s = 0; s < 2; s++) {
		struct pv_side_result *sd = &res->side[s];

		for (int i = 0; i < NRUN; i++)
			f->v[k][s][i] = (s ? cand : base) + spread * jit[(i + s) % NRUN];
		sd->samples = f->v[k][s];
		sd->nsamples = NRUN;
		sd->present = 1;
		sd->files = NRUN;
		sd->per_file = 1;
		pv_moments_of(sd->samples, NRUN, &sd->s);
	}
	pv_model_change(res);
	return res;
}

/* Some ordinary noisy metrics, so the moderated test has a family. */
static void add_family(struct fx *f)
{
	add(f, "time", "ns", PV_DIR_LOWER, 1000, 1003, 10);
	add(f, "latency", "us", PV_DIR_LOWER, 50, 50.2, 0.8);
	add(f, "throughput", "MB/s", PV_DIR_HIGHER, 300, 299, 4);
	add(f, "cpu", "%", PV_DIR_LOWER, 40, 40.5, 0.6);
}

static void decide(struct fx *f)
{
	struct pv_diag diag = PV_DIAG_INIT;
	struct pv_err err = { 0 };

	assert_int_equal(pv_redecide(&f->r, &f->cfg, "2026-01-01", &diag,
				     &err), 0);
	pv_diag_release(&diag);
}

static const char *reason(const struct fx *f, const struct pv_result *m,
			  struct strbuf *sb)
{
	return pv_result_reason(&f->r, m, sb);
}

/* No "nan" or "inf" in a sentence, in any case. */
static void assert_finite_text(const char *s)
{
	for (const char *p = s; *p; p++) {
		if (!strncasecmp(p, "nan", 3) || !strncasecmp(p, "inf", 3)) {
			print_error("non-finite text in \"%s\"\n", s);
			fail();
		}
	}
}

/* Go's 0 B/op and 0 allocs/op on every run of both sides, and 0 against
 * -0: unchanged ("identical"), so inconclusive = fail still passes. */
static void all_zero_is_unchanged(void **state)
{
	struct fx *f = *state;
	struct strbuf sb = STRBUF_INIT;
	struct pv_result *m[3];

	f->r.settings.gate.inconclusive = PV_POLICY_FAIL;
	add_family(f);
	m[0] = add(f, "B/op", "B/op", PV_DIR_LOWER, 0, 0, 0);
	m[1] = add(f, "allocs/op", "allocs/op", PV_DIR_LOWER, 0, 0, 0);
	m[2] = add(f, "zero", "", PV_DIR_HIGHER, -0.0, 0, 0);
	for (int k = 0; k < 3; k++) {
		assert_true(m[k]->side[0].s.sd == 0 && m[k]->side[1].s.sd == 0);
		assert_true(m[k]->change_rel == 0);
	}
	decide(f);
	for (int k = 0; k < 3; k++) {
		assert_int_equal(m[k]->verdict, PV_V_UNCHANGED);
		assert_int_equal(m[k]->why, PV_WHY_IDENTICAL);
		assert_true(m[k]->p == 1);
		assert_true(m[k]->statistic == 0);
		assert_string_equal(reason(f, m[k], &sb),
				    "identical on every run of both sides");
	}
	for (size_t i = 0; i < f->r.n; i++)
		assert_int_not_equal(f->r.m[i].verdict, PV_V_INCONCLUSIVE);
	assert_int_equal(f->r.fail, 0);
	strbuf_release(&sb);
}

/* Three runs of 2833.37 against the same: the exact mean reaches the
 * zero-variance path. */
static void identical_nonzero_is_unchanged(void **state)
{
	struct fx *f = *state;
	struct strbuf sb = STRBUF_INIT;
	struct pv_result *m;

	add_family(f);
	m = add(f, "time", "s", PV_DIR_LOWER, 2833.37, 2833.37, 0);
	decide(f);
	assert_true(m->side[0].s.mean == 2833.37 && m->side[0].s.sd == 0);
	assert_int_equal(m->verdict, PV_V_UNCHANGED);
	assert_int_equal(m->why, PV_WHY_IDENTICAL);
	strbuf_release(&sb);
}

/* 0 -> 24 B/op on every run: a certain change from zero, beyond any
 * relative threshold, stated in absolute terms; with abs_threshold
 * above it, held below the floor. */
static void from_zero_is_a_change(void **state)
{
	struct fx *f = *state;
	struct strbuf sb = STRBUF_INIT;
	struct pv_result *up, *better, *floor_;
	const char *s;

	add_family(f);
	up = add(f, "B/op", "B/op", PV_DIR_LOWER, 0, 24, 0);
	better = add(f, "ops", "ops/s", PV_DIR_HIGHER, 0, 5, 0);
	floor_ = add(f, "allocs/op", "allocs/op", PV_DIR_LOWER, 0, 2, 0);
	floor_->abs_threshold = 3;
	decide(f);

	assert_int_equal(up->verdict, PV_V_REGRESSION);
	assert_true(isnan(up->change_rel) && up->change_abs == 24);
	assert_true(isnan(up->statistic));      /* not inf */
	assert_true(up->p == 0);
	s = reason(f, up, &sb);
	assert_finite_text(s);
	assert_non_null(strstr(s, "moved from a zero baseline mean to 24 B/op, +24 in absolute terms: worse, and beyond the 5% threshold as any change from zero is (p=0"));

	assert_int_equal(better->verdict, PV_V_IMPROVEMENT);
	s = reason(f, better, &sb);
	assert_finite_text(s);
	assert_non_null(strstr(s, "to 5 ops/s, +5 in absolute terms: better"));

	assert_int_equal(floor_->verdict, PV_V_INCONCLUSIVE);
	assert_int_equal(floor_->why, PV_WHY_SMALL);
	s = reason(f, floor_, &sb);
	assert_finite_text(s);
	assert_non_null(strstr(s, "but below the absolute threshold of 3 allocs/op"));
	strbuf_release(&sb);
}

/* Noisy from zero: a test runs (Welch: no logs of 0), the reason gives
 * the change in absolute terms and no interval. */
static void from_zero_noisy(void **state)
{
	struct fx *f = *state;
	struct strbuf sb = STRBUF_INIT;
	struct pv_result *m;
	const char *s;

	f->r.settings.gate.max_cv = 0;          /* no noise rule */
	add_family(f);
	m = add(f, "retrans", "", PV_DIR_LOWER, 0, 0.2, 0.5);
	for (int i = 0; i < NRUN; i++)
		f->v[f->r.n - 1][0][i] = 0.5 * (i - 2);     /* mean 0 */
	pv_moments_of(m->side[0].samples, NRUN, &m->side[0].s);
	assert_true(m->side[0].s.mean == 0);
	pv_model_change(m);
	decide(f);
	assert_int_equal(m->test_used, PV_TEST_WELCH);
	assert_int_equal(m->verdict, PV_V_INCONCLUSIVE);
	s = reason(f, m, &sb);
	assert_finite_text(s);
	assert_non_null(strstr(s, "moved from a zero baseline mean to 0.2, +0.2 in absolute terms (p="));
	strbuf_release(&sb);
}

/* A mean that is not a number (a report read back with null): no test,
 * inconclusive, and said in words. */
static void undefined_mean(void **state)
{
	struct fx *f = *state;
	struct strbuf sb = STRBUF_INIT;
	struct pv_result *m;

	add_family(f);
	m = add(f, "ratio", "", PV_DIR_LOWER, 1, 1, 0.1);
	m->side[0].s.mean = NAN;
	pv_model_change(m);
	decide(f);
	assert_int_equal(m->verdict, PV_V_INCONCLUSIVE);
	assert_int_equal(m->why, PV_WHY_UNDEFINED);
	assert_int_equal(m->tested, 0);
	assert_string_equal(reason(f, m, &sb),
			    "the baseline mean is not a finite number, so no change can be stated");
	strbuf_release(&sb);
}

/* Every reason, with every number of the result undefined or zero:
 * none says "nan" or "inf". */
static void no_reason_says_nan(void **state)
{
	struct fx *f = *state;
	struct strbuf sb = STRBUF_INIT;
	struct pv_result *m;

	f->r.settings.gate.max_cv = 0.1;
	m = add(f, "x", "B", PV_DIR_LOWER, 0, 0, 0);
	for (int variant = 0; variant < 3; variant++) {
		for (int why = PV_WHY_NEW; why <= PV_WHY_UNDEFINED; why++) {
			m->why = (enum pv_why)why;
			m->held = variant == 1;
			m->dir_assumed = variant == 2;
			m->change_rel = m->ci_low = m->ci_high = NAN;
			m->p = m->q = m->mde = m->statistic = m->df = NAN;
			m->change_abs = variant == 0 ? NAN : 3;
			m->abs_threshold = variant == 2 ? 1 : NAN;
			m->side[0].s.mean = variant == 0 ? NAN : 0;
			m->side[0].s.sd = variant == 0 ? NAN : 1;
			m->side[1].s.sd = NAN;
			assert_finite_text(reason(f, m, &sb));
		}
	}
	strbuf_release(&sb);
}

/* A report borrows its warnings (report.h): compare's are its diag's,
 * and releasing the report leaves them to the diag (the previous
 * pv_report_release() freed them, so compare had to clear them first). */
static void report_borrows_warnings(void **state)
{
	struct pv_diag diag = PV_DIAG_INIT;
	struct pv_report r;

	(void)state;
	pv_diag_add(&diag, PV_M_TOO_NOISY, "a warning %d", 1);
	pv_report_init(&r);
	r.warnings = (const char **)diag.msg;
	r.warning_codes = diag.code;
	r.nwarnings = diag.n;
	pv_report_release(&r);
	assert_int_equal(diag.n, 1);
	assert_string_equal(diag.msg[0], "a warning 1");
	pv_diag_release(&diag);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mean_of_identical_is_exact),
		cmocka_unit_test(mean_stays_accurate),
		cmocka_unit_test(mean_edges),
		cmocka_unit_test(change_from_equal_and_zero_means),
		cmocka_unit_test_setup_teardown(all_zero_is_unchanged, setup, teardown),
		cmocka_unit_test_setup_teardown(identical_nonzero_is_unchanged, setup, teardown),
		cmocka_unit_test_setup_teardown(from_zero_is_a_change, setup, teardown),
		cmocka_unit_test_setup_teardown(from_zero_noisy, setup, teardown),
		cmocka_unit_test_setup_teardown(undefined_mean, setup, teardown),
		cmocka_unit_test_setup_teardown(no_reason_says_nan, setup, teardown),
		cmocka_unit_test(report_borrows_warnings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
