/*
 * test_stats.c - src/stats/ against hand-checkable cases and against the
 * scipy/R/limma values recorded in tests/ref/stats_ref.txt (written by
 * tests/ref/gen_stats_ref.py; see there for how each value was made) and
 * the t distribution on a grid in tests/ref/tdist_ref.txt (written by
 * tests/ref/gen_tdist_ref.py).
 * No expected value here comes from perfverdict itself.
 *
 * The reference files are found through $PV_SRCDIR (the source tree),
 * else relative to the current directory (the repository root), else
 * above the directory of the test binary (build/tests/ or
 * build/sanitize/tests/).
 */
#include "unit.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_psi.h>

#include "stats.h"

#define REF_NAME "tests/ref/stats_ref.txt"
#define TDIST_REF_NAME "tests/ref/tdist_ref.txt"
#define TOL 1e-9

/* ---- comparing numbers ---------------------------------------------- */

/* |got - want| relative to max(|want|, floor); 0 when both are the same
 * infinity or both NaN, +inf when only one is. */
static double relerr(double got, double want, double floor)
{
	double den;

	if (isnan(want) || isnan(got))
		return isnan(want) && isnan(got) ? 0 : INFINITY;
	if (isinf(want) || isinf(got))
		return got == want ? 0 : INFINITY;
	den = fabs(want) > floor ? fabs(want) : floor;
	return fabs(got - want) / den;
}

#define assert_close(got, want, tol) \
	assert_true(relerr((got), (want), 1e-300) <= (tol))

/* ---- the reference file --------------------------------------------- */

static char **ref_lines;
static size_t ref_n, ref_alloc;
static const char *argv0 = "";

static FILE *open_ref(const char *name)
{
	const char *dir = getenv("PV_SRCDIR"), *slash;
	char path[4096];
	FILE *f;
	int up;

	if (dir) {
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		return fopen(path, "r");
	}
	if ((f = fopen(name, "r")))
		return f;
	slash = strrchr(argv0, '/');
	for (up = 1; slash && up <= 4 && !f; up++) {
		int n = snprintf(path, sizeof(path), "%.*s", (int)(slash - argv0),
				 argv0), i;

		for (i = 0; i < up && n > 0 && (size_t)n < sizeof(path); i++)
			n += snprintf(path + n, sizeof(path) - (size_t)n, "/..");
		if (n > 0 && (size_t)n < sizeof(path))
			snprintf(path + n, sizeof(path) - (size_t)n, "/%s",
				 name);
		f = fopen(path, "r");
	}
	return f;
}

/* The lines of reference file name, appended to ref_lines. */
static int load_file(const char *name)
{
	FILE *f;
	char *line = NULL;
	size_t cap = 0;

	f = open_ref(name);
	if (!f) {
		fprintf(stderr, "test_stats: cannot find %s (run from the "
			"repository root or set PV_SRCDIR)\n", name);
		return -1;
	}
	while (getline(&line, &cap, f) != -1) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (ref_n == ref_alloc) {
			ref_alloc = ref_alloc ? 2 * ref_alloc : 1024;
			ref_lines = realloc(ref_lines,
					    ref_alloc * sizeof(*ref_lines));
			if (!ref_lines)
				abort();
		}
		ref_lines[ref_n++] = strdup(line);
	}
	free(line);
	fclose(f);
	return 0;
}

static int load_ref(void **state)
{
	(void)state;
	gsl_set_error_handler_off();
	return load_file(REF_NAME) || load_file(TDIST_REF_NAME) ? -1 : 0;
}

static int free_ref(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ref_n; i++)
		free(ref_lines[i]);
	free(ref_lines);
	return 0;
}

/* A cursor over one record; the record's kind is already skipped. */
struct rec {
	const char *p;
	size_t line;
};

/* Next record of the given kind after *i; 0 at the end. */
static int next_rec(const char *kind, size_t *i, struct rec *r)
{
	size_t len = strlen(kind);

	for (; *i < ref_n; (*i)++) {
		if (!strncmp(ref_lines[*i], kind, len) &&
		    ref_lines[*i][len] == ' ') {
			r->p = ref_lines[*i] + len;
			r->line = *i;
			(*i)++;
			return 1;
		}
	}
	return 0;
}

static double rd(struct rec *r)
{
	char *end;
	double v = strtod(r->p, &end);

	if (end == r->p) {
		fprintf(stderr, "test_stats: bad record %zu near '%.20s'\n",
			r->line, r->p);
		abort();
	}
	r->p = end;
	return v;
}

static char *rdword(struct rec *r, char *buf, size_t size)
{
	size_t n;

	r->p += strspn(r->p, " ");
	n = strcspn(r->p, " \n");
	if (n >= size)
		n = size - 1;
	memcpy(buf, r->p, n);
	buf[n] = '\0';
	r->p += n;
	return buf;
}

/* Reads a length-prefixed vector into a new array. */
static double *rdvec(struct rec *r, size_t *n)
{
	size_t i;
	double *x;

	*n = (size_t)rd(r);
	x = malloc((*n ? *n : 1) * sizeof(*x));
	assert_non_null(x);
	for (i = 0; i < *n; i++)
		x[i] = rd(r);
	return x;
}

static enum pv_alt rdalt(struct rec *r)
{
	char w[16];

	rdword(r, w, sizeof(w));
	if (!strcmp(w, "greater"))
		return PV_ALT_GREATER;
	if (!strcmp(w, "less"))
		return PV_ALT_LESS;
	assert_string_equal(w, "two");
	return PV_ALT_TWO;
}

static double maxabs(const double *x, size_t n)
{
	double m = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (fabs(x[i]) > m)
			m = fabs(x[i]);
	return m;
}

/* Running tally of one reference check. */
struct tally {
	const char *what;
	size_t n, bad;
	double worst;
};

static void check(struct tally *t, const struct rec *r, const char *field,
		  double got, double want, double floor)
{
	double e = relerr(got, want, floor);

	t->n++;
	if (e > t->worst)
		t->worst = e;
	if (!(e <= TOL)) {
		t->bad++;
		print_error("%s, record %zu: %s = %.17g, want %.17g "
			    "(rel. error %.3g)\n", t->what, r->line, field,
			    got, want, e);
	}
}

static void done(struct tally *t, size_t min_checks)
{
	print_message("%s: %zu values, max rel. error %.3g\n", t->what,
		      t->n, t->worst);
	assert_true(t->n >= min_checks);
	assert_int_equal(t->bad, 0);
}

/* ---- hand-checkable cases ------------------------------------------- */

/* Median (numpy's: the mean of the middle two), min and max by hand. */
static void test_order_stats(void **state)
{
	const double odd[] = { 7, -2, 3.5, 10, 3.5 };
	const double even[] = { 4, 1, 9, 2 };
	double med, lo, hi;

	(void)state;
	pv_order_stats(odd, 5, &med, &lo, &hi);
	assert_true(med == 3.5 && lo == -2 && hi == 10);
	pv_order_stats(even, 4, &med, &lo, &hi);
	assert_true(med == 3 && lo == 1 && hi == 9);
	assert_true(even[0] == 4);          /* the input is not sorted */
	pv_order_stats(even, 0, &med, &lo, &hi);
	assert_true(isnan(med) && isnan(lo) && isnan(hi));
}

static void test_summary_hand(void **state)
{
	double x[] = { 3, 1, 10, 2 }, copy[4];
	double big[200];
	struct pv_summary s;
	size_t i;

	(void)state;
	memcpy(copy, x, sizeof(x));
	pv_summarize(x, 4, &s);
	assert_memory_equal(x, copy, sizeof(x));        /* untouched */
	assert_int_equal(s.n, 4);
	assert_close(s.mean, 4.0, 1e-15);
	assert_close(s.sd, sqrt(50.0 / 3), 1e-15);
	assert_close(s.cv, sqrt(50.0 / 3) / 4, 1e-15);
	assert_close(s.median, 2.5, 0);
	assert_close(s.min, 1, 0);
	assert_close(s.max, 10, 0);

	pv_summarize(x + 2, 1, &s);
	assert_close(s.mean, 10, 0);
	assert_true(isnan(s.sd) && isnan(s.cv));
	assert_close(s.median, 10, 0);

	pv_summarize(x, 0, &s);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.mean) && isnan(s.median) && isnan(s.min));

	x[0] = -1;
	x[1] = 1;
	pv_summarize(x, 2, &s);         /* mean 0: cv undefined */
	assert_close(s.mean, 0, 0);
	assert_close(s.sd, sqrt(2.0), 1e-15);
	assert_true(isnan(s.cv));

	x[1] = NAN;
	pv_summarize(x, 2, &s);
	assert_true(isnan(s.mean) && isnan(s.sd) && isnan(s.max));

	for (i = 0; i < 200; i++)       /* the heap path; 1..200 reversed */
		big[i] = (double)(200 - i);
	pv_summarize(big, 200, &s);
	assert_close(s.mean, 100.5, 1e-15);
	assert_close(s.median, 100.5, 0);
	assert_close(s.min, 1, 0);
	assert_close(s.max, 200, 0);
	assert_close(s.sd, sqrt(200.0 * 201 / 12), 1e-14);
	assert_close(big[0], 200, 0);
}

/*
 * a = {1, 3}, b = {4, 6}: means 2 and 5, both variances 2, so Student and
 * Welch agree with df = 2, se = sqrt(2), t = -3/sqrt(2).  For df = 2,
 * P(T > |t|) = 1/2 - |t|/(2 sqrt(2 + t^2)) = 1/2 - 3/(2 sqrt(13)), and
 * the 0.975 quantile is 0.95/sqrt(2 * 0.975 * 0.025).
 */
static void test_ttest_hand(void **state)
{
	double a[] = { 1, 3 }, b[] = { 4, 6 };
	double tail = 0.5 - 3 / (2 * sqrt(13.0));
	double q975 = 0.95 / sqrt(2 * 0.975 * 0.025);
	struct pv_test_out o;
	struct pv_err err;
	int eqv;

	(void)state;
	for (eqv = 0; eqv <= 1; eqv++) {
		assert_int_equal(pv_ttest(a, 2, b, 2, eqv, PV_ALT_TWO, 0.95,
					  &o, &err), 0);
		assert_close(o.statistic, -3 / sqrt(2.0), 1e-15);
		assert_close(o.df, 2, 1e-15);
		assert_close(o.p, 2 * tail, 1e-13);
		assert_close(o.shift, 3, 0);
		assert_close(o.se, sqrt(2.0), 1e-15);
		assert_close(o.ci_low, 3 - q975 * sqrt(2.0), 1e-12);
		assert_close(o.ci_high, 3 + q975 * sqrt(2.0), 1e-12);
		assert_int_equal(o.exact, 0);

		/* candidate larger: "greater" is the small tail */
		pv_ttest(a, 2, b, 2, eqv, PV_ALT_GREATER, 0.95, &o, &err);
		assert_close(o.p, tail, 1e-13);
		pv_ttest(a, 2, b, 2, eqv, PV_ALT_LESS, 0.95, &o, &err);
		assert_close(o.p, 1 - tail, 1e-14);
	}
}

static void test_ttest_zero_variance(void **state)
{
	double a[] = { 2.5, 2.5, 2.5 }, b[] = { 2.5, 2.5 }, c[] = { 4, 4 };
	struct pv_test_out o;
	struct pv_err err;
	enum pv_alt alt;

	(void)state;
	for (alt = PV_ALT_TWO; alt <= PV_ALT_LESS; alt++) {
		assert_int_equal(pv_ttest(a, 3, b, 2, 0, alt, 0.95, &o, &err),
				 0);
		assert_close(o.statistic, 0, 0);
		assert_close(o.p, 1, 0);
		assert_close(o.shift, 0, 0);
		assert_close(o.ci_low, 0, 0);
		assert_true(isnan(o.df));       /* Welch df is 0/0 */
		pv_ttest(a, 3, b, 2, 1, alt, 0.95, &o, &err);
		assert_close(o.p, 1, 0);
		assert_close(o.df, 3, 0);
	}
	/* b = 4 > a = 2.5: certain increase */
	pv_ttest(a, 3, c, 2, 0, PV_ALT_TWO, 0.95, &o, &err);
	assert_true(isinf(o.statistic) && o.statistic < 0);
	assert_close(o.p, 0, 0);
	assert_close(o.shift, 1.5, 0);
	assert_close(o.ci_low, 1.5, 0);
	assert_close(o.ci_high, 1.5, 0);
	pv_ttest(a, 3, c, 2, 1, PV_ALT_GREATER, 0.95, &o, &err);
	assert_close(o.p, 0, 0);
	pv_ttest(a, 3, c, 2, 0, PV_ALT_LESS, 0.95, &o, &err);
	assert_close(o.p, 1, 0);
	/* a = 4 > b = 2.5 */
	pv_ttest(c, 2, a, 3, 0, PV_ALT_LESS, 0.95, &o, &err);
	assert_true(isinf(o.statistic) && o.statistic > 0);
	assert_close(o.p, 0, 0);
}

/*
 * pv_ttest_summary against scipy 1.10.1 (Debian 12):
 *   scipy.stats.ttest_ind_from_stats(ma, sa, na, mb, sb, nb,
 *                                    equal_var=..., alternative=...)
 * printed with repr(); Welch's df is scipy's _unequal_var_ttest_denom
 * formula evaluated in Python.  The last case's summaries are those of
 * a = {1, 3}, b = {4, 6} (test_ttest_hand): the route through summaries
 * must agree with the route through samples.
 */
static void test_ttest_summary(void **state)
{
	static const struct {
		double ma, sa, mb, sb;
		size_t na, nb;
		double t, p_two, p_greater, p_less, t_student, p_student;
	} ref[] = {
		{ 164181.0, 11812.3, 173212.5, 12503.9, 30, 30,
		  -2.875836660411775, 0.005633214458061733,
		  0.9971833927709691, 0.0028166072290308664,
		  -2.875836660411775, 0.005627634995499861 },
		{ 2638.2, 327.1, 2771.9, 119.2, 100, 25,
		  -3.303209028045534, 0.001299473180603515,
		  0.9993502634096982, 0.0006497365903017575,
		  -2.0054889377413043, 0.04710551903094322 },
		{ 358.9, 16.8, 352.0, 25.5, 5, 8,
		  0.5879440497274525, 0.5685514579171103,
		  0.28427572895855513, 0.7157242710414449,
		  0.5326015711612535, 0.6049012843976558 },
	};
	double a[] = { 1, 3 }, b[] = { 4, 6 };
	struct pv_test_out o, raw;
	struct pv_err err;

	(void)state;
	for (size_t i = 0; i < sizeof(ref) / sizeof(*ref); i++) {
		/* PV_ALT_LESS is scipy's 'greater' and PV_ALT_GREATER its
		 * 'less' (see stats.h). */
		assert_int_equal(pv_ttest_summary(ref[i].ma, ref[i].sa,
				 ref[i].na, ref[i].mb, ref[i].sb, ref[i].nb, 0,
				 PV_ALT_TWO, 0.95, &o, &err), 0);
		assert_close(o.statistic, ref[i].t, TOL);
		assert_close(o.p, ref[i].p_two, TOL);
		assert_close(o.shift, ref[i].mb - ref[i].ma, 1e-15);
		pv_ttest_summary(ref[i].ma, ref[i].sa, ref[i].na, ref[i].mb,
				 ref[i].sb, ref[i].nb, 0, PV_ALT_GREATER, 0.95,
				 &o, &err);
		assert_close(o.p, ref[i].p_less, TOL);
		pv_ttest_summary(ref[i].ma, ref[i].sa, ref[i].na, ref[i].mb,
				 ref[i].sb, ref[i].nb, 0, PV_ALT_LESS, 0.95,
				 &o, &err);
		assert_close(o.p, ref[i].p_greater, TOL);
		pv_ttest_summary(ref[i].ma, ref[i].sa, ref[i].na, ref[i].mb,
				 ref[i].sb, ref[i].nb, 1, PV_ALT_TWO, 0.95,
				 &o, &err);
		assert_close(o.statistic, ref[i].t_student, TOL);
		assert_close(o.p, ref[i].p_student, TOL);
	}
	/* Summaries of {1, 3} and {4, 6}: the same test as from samples. */
	assert_int_equal(pv_ttest(a, 2, b, 2, 0, PV_ALT_TWO, 0.95, &raw,
				  &err), 0);
	assert_int_equal(pv_ttest_summary(2, sqrt(2.0), 2, 5, sqrt(2.0), 2, 0,
					  PV_ALT_TWO, 0.95, &o, &err), 0);
	assert_close(o.statistic, raw.statistic, 1e-15);
	assert_close(o.p, raw.p, 1e-13);
	assert_close(o.df, raw.df, 1e-15);
	assert_close(o.ci_low, raw.ci_low, 1e-13);
	assert_close(o.ci_high, raw.ci_high, 1e-13);
	/* Zero variance on both sides, as pv_ttest: a certain change. */
	assert_int_equal(pv_ttest_summary(10, 0, 5, 12, 0, 5, 0,
					  PV_ALT_GREATER, 0.95, &o, &err), 0);
	assert_close(o.p, 0, 0);
	assert_true(isinf(o.statistic) && o.statistic < 0);
	/* Errors: too few, a negative or non-finite sd, a bad level. */
	memset(&err, 0, sizeof(err));
	assert_int_equal(pv_ttest_summary(1, 1, 1, 2, 1, 5, 0, PV_ALT_TWO,
					  0.95, &o, &err), -1);
	assert_int_equal(err.status, PV_EINPUT);
	assert_non_null(strstr(err.msg, "at least 2"));
	assert_int_equal(pv_ttest_summary(1, -1, 5, 2, 1, 5, 0, PV_ALT_TWO,
					  0.95, &o, &err), -1);
	assert_int_equal(pv_ttest_summary(1, NAN, 5, 2, 1, 5, 0, PV_ALT_TWO,
					  0.95, &o, &err), -1);
	assert_non_null(strstr(err.msg, "summaries"));
	assert_int_equal(pv_ttest_summary(1, 1, 5, 2, 1, 5, 0, PV_ALT_TWO,
					  1.5, &o, &err), -1);
	assert_int_equal(err.status, PV_EUSAGE);
}

static void test_ttest_errors(void **state)
{
	double a[] = { 1, 2, 3 }, bad[] = { 1, NAN, 3 };
	struct pv_test_out o;
	struct pv_err err;

	(void)state;
	memset(&err, 0, sizeof(err));
	assert_int_equal(pv_ttest(a, 1, a, 3, 0, PV_ALT_TWO, 0.95, &o, &err),
			 -1);
	assert_int_equal(err.status, PV_EINPUT);
	assert_non_null(strstr(err.msg, "at least 2"));
	assert_int_equal(pv_ttest(a, 3, bad, 3, 0, PV_ALT_TWO, 0.95, &o,
				  &err), -1);
	assert_non_null(strstr(err.msg, "finite"));
	assert_int_equal(pv_ttest(a, 3, a, 3, 0, PV_ALT_TWO, 1.0, &o, &err),
			 -1);
	assert_int_equal(err.status, PV_EUSAGE);
	assert_int_equal(pv_ttest(a, 3, a, 3, 0, PV_ALT_TWO, 0.95, &o, NULL),
			 0);
	/* success leaves err alone */
	strcpy(err.msg, "sentinel");
	assert_int_equal(pv_ttest(a, 3, a, 2, 1, PV_ALT_TWO, 0.95, &o, &err),
			 0);
	assert_string_equal(err.msg, "sentinel");
	assert_int_equal(pv_mannwhitney(a, 0, a, 3, PV_ALT_TWO, 0.95, &o,
					&err), -1);
	assert_int_equal(pv_mannwhitney(bad, 3, a, 3, PV_ALT_TWO, 0.95, &o,
					&err), -1);
	assert_int_equal(pv_mannwhitney(a, 3, a, 3, PV_ALT_TWO, 0, &o,
					&err), -1);
}

/*
 * scipy's documentation example: males {19, 22, 16, 29, 24} against
 * females {20, 11, 17, 12}: U1 = 17 (count the pairs with the male
 * larger), and of the binom(9, 4) = 126 arrangements 1 + 1 + 2 + 3 = 7
 * have U <= 3, so the two-sided p is 14/126.
 */
static void test_mwu_hand(void **state)
{
	double m[] = { 19, 22, 16, 29, 24 }, f[] = { 20, 11, 17, 12 };
	double one[] = { 1 }, two[] = { 2 };
	struct pv_test_out o;
	struct pv_err err;

	(void)state;
	assert_int_equal(pv_mannwhitney(m, 5, f, 4, PV_ALT_TWO, 0.95, &o,
					&err), 0);
	assert_close(o.statistic, 17, 0);
	assert_close(o.p, 14.0 / 126, 1e-15);
	assert_int_equal(o.exact, 1);
	assert_true(isnan(o.df) && isnan(o.se));
	/* females first, "b larger" = scipy's 'less': 7/126 */
	pv_mannwhitney(f, 4, m, 5, PV_ALT_GREATER, 0.95, &o, &err);
	assert_close(o.statistic, 3, 0);
	assert_close(o.p, 7.0 / 126, 1e-15);
	pv_mannwhitney(f, 4, m, 5, PV_ALT_LESS, 0.95, &o, &err);
	assert_close(o.p, 1 - 4.0 / 126, 1e-15);        /* P(U1 >= 3) */

	/* 1 vs 1: U is 0 or 1, each with probability 1/2 */
	pv_mannwhitney(one, 1, two, 1, PV_ALT_TWO, 0.95, &o, &err);
	assert_close(o.statistic, 0, 0);
	assert_close(o.p, 1, 0);
	pv_mannwhitney(one, 1, two, 1, PV_ALT_GREATER, 0.95, &o, &err);
	assert_close(o.p, 0.5, 0);
	assert_close(o.shift, 1, 0);
	assert_close(o.ci_low, 1, 0);
	assert_close(o.ci_high, 1, 0);
}

/*
 * 1..9 against 10..18: no ties, both n > 8, so the normal approximation:
 * U = max(U1, U2) = 81, mu = 40.5, sigma^2 = 81 * 19 / 12, and with the
 * continuity correction z = 40 / sigma; p = erfc(z / sqrt 2).
 * With ties the variance shrinks by sum(t^3 - t) / (n (n - 1)).
 */
static void test_mwu_asymptotic_hand(void **state)
{
	double a[9], b[9], c[] = { 1, 2, 2, 3, 3, 3, 4, 5, 6 };
	double d[] = { 2, 3, 4, 4, 5, 6, 7, 8, 9 };
	double s, z, u1;
	struct pv_test_out o;
	struct pv_err err;
	int i;

	(void)state;
	for (i = 0; i < 9; i++) {
		a[i] = i + 1;
		b[i] = i + 10;
	}
	assert_int_equal(pv_mannwhitney(a, 9, b, 9, PV_ALT_TWO, 0.95, &o,
					&err), 0);
	assert_int_equal(o.exact, 0);
	assert_close(o.statistic, 0, 0);
	assert_close(o.p, erfc(40 / sqrt(81.0 * 19 / 12) / sqrt(2.0)), 1e-13);

	/* ties: pooled values 1 2 2 2 3 3 3 3 4 4 4 5 5 6 6 7 8 9:
	 * groups of 3, 4, 3, 2, 2 give sum(t^3 - t) = 24+60+24+6+6 = 120.
	 * Ranks of c: 1, 3, 3, 6.5 x3, 10, 12.5, 14.5 -> R1 = 63.5,
	 * U1 = 63.5 - 45 = 18.5; two-sided uses U = 81 - 18.5 = 62.5. */
	pv_mannwhitney(c, 9, d, 9, PV_ALT_TWO, 0.95, &o, &err);
	assert_int_equal(o.exact, 0);
	u1 = 18.5;
	assert_close(o.statistic, u1, 0);
	s = sqrt(81.0 / 12 * (19 - 120.0 / (18 * 17)));
	z = (81 - u1 - 40.5 - 0.5) / s;
	assert_close(o.p, erfc(z / sqrt(2.0)), 1e-13);

	/* small samples with a tie: asymptotic, not exact */
	pv_mannwhitney(c, 3, d, 3, PV_ALT_TWO, 0.95, &o, &err);
	assert_int_equal(o.exact, 0);

	/* everything tied: sigma = 0, no evidence */
	for (i = 0; i < 9; i++)
		a[i] = b[i] = 7;
	pv_mannwhitney(a, 9, b, 9, PV_ALT_TWO, 0.95, &o, &err);
	assert_close(o.p, 1, 0);
	assert_close(o.shift, 0, 0);
	pv_mannwhitney(a, 9, b, 9, PV_ALT_GREATER, 0.95, &o, &err);
	assert_close(o.p, 1, 0);
}

/*
 * a = {1, 2, 3}, b = {11, 12, 13}: the nine differences sorted are
 * 8 9 9 10 10 10 11 11 12, so Hodges-Lehmann is 10.  The counts of
 * U = 0..9 for 3 vs 3 are 1 1 2 3 3 3 3 2 1 1 out of 20.  conf = 0.5:
 * P(U <= 2) = 4/20 < 0.25 <= P(U <= 3) = 7/20, so k = 3 and the interval
 * is [d(3), d(7)] = [9, 11].  conf = 0.8: P(U <= 1) = 0.1 reaches 0.1,
 * k = 1, [8, 12].
 */
static void test_hodges_lehmann_hand(void **state)
{
	double a[] = { 3, 1, 2 }, b[] = { 12, 13, 11 };
	struct pv_test_out o;
	struct pv_err err;

	(void)state;
	pv_mannwhitney(a, 3, b, 3, PV_ALT_TWO, 0.5, &o, &err);
	assert_close(o.shift, 10, 0);
	assert_close(o.ci_low, 9, 0);
	assert_close(o.ci_high, 11, 0);
	pv_mannwhitney(a, 3, b, 3, PV_ALT_TWO, 0.8, &o, &err);
	assert_close(o.ci_low, 8, 0);
	assert_close(o.ci_high, 12, 0);
	/* even count of differences: the mean of the middle two */
	pv_mannwhitney(a, 2, b, 3, PV_ALT_TWO, 0.5, &o, &err);
	/* 11-3 12-3 13-3 11-1 12-1 13-1 -> 8 9 10 10 11 12 -> 10 */
	assert_close(o.shift, 10, 0);
}

static int cmp_d(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/*
 * The selection of order statistics of b[j] - a[i] without storing them,
 * against brute force (all differences, sorted), on sizes where the
 * selection has to iterate, with and without ties.  For the interval of
 * large tie-free samples the index k comes from the documented normal
 * rule (the exact rule is checked against R in test_ref_mwu_ci).
 */
static void test_hodges_lehmann_selection(void **state)
{
	static const size_t sizes[][2] = {
		{ 9, 9 }, { 40, 3 }, { 3, 40 }, { 57, 61 }, { 200, 150 },
		{ 1, 300 }, { 300, 1 }, { 128, 129 },
	};
	struct pv_test_out o;
	struct pv_err err;
	unsigned long seed = 12345;
	size_t s, i, j, na, nb, mn, k;
	double *a, *b, *all, med, sigma, z = 1.959963984540054;
	int ties;

	(void)state;
	for (ties = 0; ties <= 1; ties++) {
		for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			na = sizes[s][0];
			nb = sizes[s][1];
			mn = na * nb;
			a = malloc(na * sizeof(*a));
			b = malloc(nb * sizeof(*b));
			all = malloc(mn * sizeof(*all));
			assert_true(a && b && all);
			for (i = 0; i < na + nb; i++) {
				double v;

				seed = seed * 6364136223846793005UL +
				       1442695040888963407UL;
				v = (double)(seed >> 11) / 9007199254740992.0;
				v = ties ? floor(v * 10) : v * 100;
				if (i < na)
					a[i] = v;
				else
					b[i - na] = v + 3;
			}
			for (i = 0; i < na; i++)
				for (j = 0; j < nb; j++)
					all[i * nb + j] = b[j] - a[i];
			qsort(all, mn, sizeof(*all), cmp_d);
			med = mn % 2 ? all[mn / 2]
				     : (all[mn / 2 - 1] + all[mn / 2]) / 2;
			assert_int_equal(pv_mannwhitney(a, na, b, nb,
				PV_ALT_TWO, 0.95, &o, &err), 0);
			assert_close(o.shift, med, 0);
			/* the normal rule: ties or a sample of 50 or more */
			if (!o.exact && (na >= 50 || nb >= 50)) {
				/* tie-free sigma is enough when no ties */
				if (ties)
					goto next;
				sigma = sqrt((double)mn * (double)(na + nb + 1)
					     / 12);
				k = (size_t)fmax(1, ceil((double)mn / 2 - 0.5
							 - z * sigma));
				assert_close(o.ci_low, all[k - 1], 0);
				assert_close(o.ci_high, all[mn - k], 0);
			}
next:
			free(a);
			free(b);
			free(all);
		}
	}
}

/*
 * p = {0.01, 0.04, 0.03, 0.005}.  Holm: sorted 0.005*4 = 0.02,
 * 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 -> cummax 0.06.
 * BH: (n/i) p = 0.02, 0.02, 0.04, 0.04 from the smallest; cummin from
 * the largest leaves them.
 */
static void test_adjust_hand(void **state)
{
	double p[] = { 0.01, 0.04, 0.03, 0.005 }, q[4];
	double holm[] = { 0.03, 0.06, 0.06, 0.02 };
	double bh[] = { 0.02, 0.04, 0.04, 0.02 };
	double pn[] = { NAN, 0.02, 0.04, NAN };
	double one[] = { 0.3 }, big[] = { 0.6, 0.9 };
	int i;

	(void)state;
	pv_adjust_holm(p, 4, q);
	for (i = 0; i < 4; i++)
		assert_close(q[i], holm[i], 1e-15);
	pv_adjust_bh(p, 4, q);
	for (i = 0; i < 4; i++)
		assert_close(q[i], bh[i], 1e-15);
	/* NaN is out of the family: n = 2 */
	pv_adjust_holm(pn, 4, q);
	assert_true(isnan(q[0]) && isnan(q[3]));
	assert_close(q[1], 0.04, 1e-15);
	assert_close(q[2], 0.04, 1e-15);
	/* in place */
	pv_adjust_bh(pn, 4, pn);
	assert_true(isnan(pn[0]) && isnan(pn[3]));
	assert_close(pn[1], 0.04, 1e-15);
	assert_close(pn[2], 0.04, 1e-15);
	pv_adjust_holm(one, 1, one);
	assert_close(one[0], 0.3, 0);
	pv_adjust_holm(big, 2, q);      /* capped at 1 */
	assert_close(q[0], 1, 0);
	assert_close(q[1], 1, 0);
	pv_adjust_bh(p, 0, q);          /* empty family is fine */
}

static void test_trigamma_inverse_hand(void **state)
{
	const double pi2 = M_PI * M_PI;
	double xs[] = { 2e-6, 1e-3, 0.1, 1, 3, 50, 1e4, 9e6 };
	size_t i;

	(void)state;
	assert_close(pv_trigamma_inverse(pi2 / 6), 1, 1e-12);  /* psi1(1) */
	assert_close(pv_trigamma_inverse(pi2 / 2), 0.5, 1e-12);
	assert_close(pv_trigamma_inverse(1e8), 1e-4, 0);
	assert_close(pv_trigamma_inverse(1e-7), 1e7, 0);
	assert_true(isnan(pv_trigamma_inverse(-1)));
	assert_true(isnan(pv_trigamma_inverse(NAN)));
	for (i = 0; i < sizeof(xs) / sizeof(xs[0]); i++)
		assert_close(gsl_sf_psi_1(pv_trigamma_inverse(xs[i])), xs[i],
			     1e-12);
}

static void test_fit_prior_edges(void **state)
{
	double s2[] = { 0.3, NAN, 0.2, -1, 0.5 }, d[] = { 4, 4, 0, 4, 4 };
	double same[] = { 0.04, 0.04, 0.04, 0.04 }, d4[] = { 4, 4, 4, 4 };
	double zero[] = { 0, 0, 0, 0 };
	struct pv_prior pr;
	struct pv_err err;

	(void)state;
	/* nothing usable, or one value: no moderation */
	assert_int_equal(pv_fit_prior(s2, d, 0, &pr, &err), 0);
	assert_close(pr.d0, 0, 0);
	assert_true(isnan(pr.s0sq));
	assert_int_equal(pv_fit_prior(s2 + 1, d + 1, 3, &pr, &err), 0);
	assert_close(pr.d0, 0, 0);      /* NaN, d = 0, negative: none */
	assert_true(isnan(pr.s0sq));
	assert_int_equal(pv_fit_prior(s2, d, 4, &pr, &err), 0);
	assert_close(pr.d0, 0, 0);      /* only 0.3 is usable */
	assert_close(pr.s0sq, 0.3, 0);
	/* identical variances: no spread beyond sampling -> d0 = inf,
	 * s0sq = their mean */
	assert_int_equal(pv_fit_prior(same, d4, 4, &pr, &err), 0);
	assert_true(isinf(pr.d0));
	assert_close(pr.s0sq, 0.04, 1e-15);
	/* all zero: the median 0 is replaced by 1, floor 1e-5 */
	assert_int_equal(pv_fit_prior(zero, d4, 4, &pr, &err), 0);
	assert_true(isinf(pr.d0));
	assert_close(pr.s0sq, 1e-5, 1e-15);
}

/*
 * The robust prior: variances drawn from a known prior, and the same with
 * 5% of the series 50x (structure a fit missed), where the mean and
 * variance of the log terms (pv_fit_prior) read a spread prior and the
 * median and MAD do not.
 */
static void test_fit_prior_median(void **state)
{
	enum { N = 400, OUT = 20 };
	double s2[N + OUT], d[N + OUT];
	struct pv_prior pr, conv;
	struct pv_err err;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	(void)state;
	gsl_rng_set(rng, 11);
	for (int i = 0; i < N + OUT; i++) {
		d[i] = 30;
		s2[i] = 0.01 * gsl_ran_chisq(rng, 30) / 30 * (i >= N ? 50 : 1);
	}
	assert_int_equal(pv_fit_prior_median(s2, d, N, &pr, &err), 0);
	assert_true(pr.d0 > 200);
	assert_close(pr.s0sq, 0.01, 0.05);
	assert_int_equal(pv_fit_prior(s2, d, N + OUT, &conv, &err), 0);
	assert_true(conv.d0 < 10);
	assert_int_equal(pv_fit_prior_median(s2, d, N + OUT, &pr, &err), 0);
	assert_true(pr.d0 > 100);
	assert_close(pr.s0sq, 0.01, 0.1);
	/* a real spread (d0 = 8): found as one */
	for (int i = 0; i < N; i++)
		s2[i] = 0.01 * 8 / gsl_ran_chisq(rng, 8) *
			gsl_ran_chisq(rng, 30) / 30;
	assert_int_equal(pv_fit_prior_median(s2, d, N, &pr, &err), 0);
	print_message("robust prior: d0 %g s0sq %g\n", pr.d0, pr.s0sq);
	assert_true(pr.d0 > 4 && pr.d0 < 16);
	assert_close(pr.s0sq, 0.01, 0.15);
	/* fewer than 10 usable: no prior */
	assert_int_equal(pv_fit_prior_median(s2, d, 9, &pr, &err), 0);
	assert_close(pr.d0, 0, 0);
	gsl_rng_free(rng);
}

/*
 * logs of a: {0, 2}, of b: {1, 3}: means 1 and 2, SS = 2 + 2, d = 2,
 * s2 = 2, u = 1, diff = 1.
 * Trimmed, n = 5 (g = 1, h = 3): logs {0,1,2,3,100} -> trimmed mean 2,
 * winsorized {1,1,2,3,3} SS 4; {10..14} -> 12, SS 4; s2 = 8/4,
 * u = sqrt(2/3), diff = 10.
 */
static void test_modvar_hand(void **state)
{
	double a[] = { 1, exp(2.0) }, b[] = { exp(3.0), exp(1.0) };
	double ta[5], tb[5], la[] = { 3, 0, 100, 1, 2 };
	double zero[] = { 1, 0 }, neg[] = { -1, 2 };
	struct pv_modvar mv;
	struct pv_err err;
	int i;

	(void)state;
	assert_int_equal(pv_modvar_log(a, 2, b, 2, 0, &mv, &err), 0);
	assert_close(mv.diff, 1, 1e-15);
	assert_close(mv.s2, 2, 1e-15);
	assert_close(mv.d, 2, 0);
	assert_close(mv.u, 1, 1e-15);

	for (i = 0; i < 5; i++) {
		ta[i] = exp(la[i]);
		tb[i] = exp(14.0 - i);
	}
	assert_int_equal(pv_modvar_log(ta, 5, tb, 5, 1, &mv, &err), 0);
	assert_close(mv.diff, 10, 1e-14);
	assert_close(mv.s2, 2, 1e-13);
	assert_close(mv.d, 4, 0);
	assert_close(mv.u, sqrt(2.0 / 3), 1e-15);
	assert_close(ta[2], exp(100.0), 0);             /* untouched */

	assert_int_equal(pv_modvar_log(zero, 2, a, 2, 0, &mv, &err), -1);
	assert_non_null(strstr(err.msg, "log"));
	assert_int_equal(pv_modvar_log(a, 2, neg, 2, 1, &mv, &err), -1);
	assert_int_equal(pv_modvar_log(a, 1, b, 2, 0, &mv, &err), -1);
}

/*
 * s2 = 2 with d = 4, prior d0 = 4, s0sq = 1: posterior (8 + 4)/8 = 1.5,
 * t = -diff/sqrt(1.5), df = 8 (or the cap).  d0 = 0 gives back the
 * Student t on logs; d0 = inf uses s0sq alone.
 */
static void test_moderated_hand(void **state)
{
	double a[] = { 10, 12, 11, 13 }, b[] = { 14, 12, 15 };
	double la[4], lb[3];
	struct pv_modvar mv = { 2, 4, 1, 1 };
	struct pv_prior pr = { 4, 1 };
	struct pv_test_out o, t;
	struct pv_err err;
	int i;

	(void)state;
	pv_moderated_t(&mv, &pr, INFINITY, PV_ALT_TWO, 0.95, &o);
	assert_close(o.statistic, -1 / sqrt(1.5), 1e-15);
	assert_close(o.df, 8, 0);
	assert_close(o.shift, 1, 0);
	assert_close(o.se, sqrt(1.5), 1e-15);
	pv_moderated_t(&mv, &pr, 6, PV_ALT_TWO, 0.95, &o);
	assert_close(o.df, 6, 0);
	pr.d0 = INFINITY;
	pv_moderated_t(&mv, &pr, 40, PV_ALT_GREATER, 0.95, &o);
	assert_close(o.statistic, -1, 1e-15);
	assert_close(o.df, 40, 0);
	pv_moderated_t(&mv, &pr, INFINITY, PV_ALT_GREATER, 0.95, &o);
	assert_close(o.p, 0.5 * erfc(1 / sqrt(2.0)), 1e-13);  /* z-test */

	/* d0 = 0: exactly scipy's Student t on the logs */
	for (i = 0; i < 4; i++)
		la[i] = log(a[i]);
	for (i = 0; i < 3; i++)
		lb[i] = log(b[i]);
	pr.d0 = 0;
	pr.s0sq = NAN;
	assert_int_equal(pv_modvar_log(a, 4, b, 3, 0, &mv, &err), 0);
	pv_moderated_t(&mv, &pr, INFINITY, PV_ALT_TWO, 0.9, &o);
	pv_ttest(la, 4, lb, 3, 1, PV_ALT_TWO, 0.9, &t, &err);
	assert_close(o.statistic, t.statistic, 1e-13);
	assert_close(o.p, t.p, 1e-12);
	assert_close(o.df, t.df, 0);
	assert_close(o.ci_low, t.ci_low, 1e-12);
	assert_close(o.ci_high, t.ci_high, 1e-12);

	/* zero posterior variance */
	mv.s2 = 0;
	mv.diff = 0;
	pv_moderated_t(&mv, &pr, INFINITY, PV_ALT_TWO, 0.95, &o);
	assert_close(o.statistic, 0, 0);
	assert_close(o.p, 1, 0);
	mv.diff = 0.1;
	pv_moderated_t(&mv, &pr, INFINITY, PV_ALT_GREATER, 0.95, &o);
	assert_close(o.p, 0, 0);
	pv_moderated_t(&mv, &pr, INFINITY, PV_ALT_LESS, 0.95, &o);
	assert_close(o.p, 1, 0);
}

/*
 * One metric, 8 runs a side, logs h * {-2,-1,-1,0,0,1,1,2} and
 * h * {-2,-1,-1,0,0,1,1,50}: both side medians are 0, the pooled
 * residuals have median 0 and MAD h, so the cut is 6 * 1.4826 h and only
 * the 50 h residual is beyond: 1/16.  A second, clean metric doubles the
 * denominator; metrics with 7 runs, a zero value, or a zero MAD take no
 * part.
 */
/* Smyth's posterior variance, the one function the moderated t, the
 * pooled baseline and the change points use: the weighted mean, the
 * prior alone at d0 = inf, and no prior at d0 = 0 or a NAN s0sq (which
 * only the moderated t checked before); a variance on 0 df adds
 * nothing, even a NAN one. */
static void test_posterior_var_hand(void **state)
{
	struct pv_prior pr = { 4, 0.5 };
	double df;

	(void)state;
	assert_true(pv_posterior_var(&pr, 2, 6, &df) == 14.0 / 10);
	assert_true(df == 10);
	pr.d0 = INFINITY;
	assert_true(pv_posterior_var(&pr, 2, 6, &df) == 0.5);
	assert_true(isinf(df));
	pr.d0 = 0;
	assert_true(pv_posterior_var(&pr, 2, 6, &df) == 2 && df == 6);
	pr.d0 = 4;
	pr.s0sq = NAN;
	assert_true(pv_posterior_var(&pr, 2, 6, &df) == 2 && df == 6);
	pr.s0sq = 0.5;
	assert_true(pv_posterior_var(&pr, NAN, 0, &df) == 0.5 && df == 4);
}

static void test_gross_fraction_hand(void **state)
{
	static const double ra[] = { -2, -1, -1, 0, 0, 1, 1, 2 };
	static const double rb[] = { -2, -1, -1, 0, 0, 1, 1, 50 };
	double a[8], b[8], flat[8], zero[8];
	const double *pa[4], *pb[4];
	size_t na[4], nb[4];
	int i;

	(void)state;
	for (i = 0; i < 8; i++) {
		a[i] = 100 * exp(0.01 * ra[i]);
		b[i] = 100 * exp(0.01 * rb[i]);
		flat[i] = i < 6 ? 3 : 4;        /* MAD 0 */
		zero[i] = i ? 1 : 0;
	}
	pa[0] = a, pb[0] = b, na[0] = nb[0] = 8;
	assert_close(pv_gross_fraction(pa, na, pb, nb, 1), 1.0 / 16, 0);
	pa[1] = a, pb[1] = a, na[1] = nb[1] = 8;
	assert_close(pv_gross_fraction(pa, na, pb, nb, 2), 1.0 / 32, 0);
	pa[2] = b, pb[2] = b, na[2] = 7, nb[2] = 8;     /* too few */
	pa[3] = zero, pb[3] = flat, na[3] = nb[3] = 8;  /* not positive */
	assert_close(pv_gross_fraction(pa, na, pb, nb, 4), 1.0 / 32, 0);
	pa[3] = flat, pb[3] = flat;                     /* MAD 0 */
	assert_close(pv_gross_fraction(pa, na, pb, nb, 4), 1.0 / 32, 0);
	assert_true(isnan(pv_gross_fraction(pa + 2, na + 2, pb + 2, nb + 2,
					    2)));
}

/*
 * The t tail against scipy.stats.t.sf (scipy 1.10.1, whose stdtr is
 * Boost's): integer and fractional df from 1 to 1e6, either side of the
 * switch between the two beta forms (t^2 near 3) and of the BGRAT
 * threshold, and tails down to 1e-202.  Within 1e-13 relative while
 * p >= 1e-60; below, the tail's own conditioning (a relative change of
 * 2 eps ln(1/p) per ulp of t) sets the bound.
 */
static void test_t_sf_scipy(void **state)
{
	static const struct { double df, t, p; } ref[] = {
	{ 1.0, 1e-06, 0.49999968169011383 },
	{ 1.0, 1.0, 0.24999999999999978 },
	{ 1.0, 1000.0, 0.00031830978008055887 },
	{ 2.5, 2.0, 0.078695747878983 },
	{ 2.5, 1000.0, 2.2747463948307502e-08 },
	{ 7.3, 0.4, 0.35030187104343413 },
	{ 18.49837650021739, 2.1, 0.024846472335722947 },
	{ 18.49837650021739, 30.0, 1.902600798781679e-17 },
	{ 18.49837650021739, 1000.0, 1.5354437306134172e-45 },
	{ 30.0, 126.0, 9.82922865109525e-43 },
	{ 100.0, 1000.0, 3.9598093039741064e-202 },
	{ 299.5, 1.7320508, 0.04214704786110309 },
	{ 1000.0, 1.75, 0.04021250467972891 },
	{ 2999.0, 2.0, 0.02279514654270848 },
	{ 3001.0, 10.0, 1.7497700292228316e-23 },
	{ 10000.0, 3.0, 0.0013532240949988318 },
	{ 33000.5, 1.7, 0.04457017439807457 },
	{ 100000.0, 5.0, 2.871350839320823e-07 },
	{ 588766.6, 18.0776, 2.503927020953765e-73 },
	{ 1000000.0, 2.0, 0.0227502669256596 },
	{ 1000000.0, 10.0, 7.639305384089058e-24 },
	{ 1000000.0, 1e-06, 0.4999996010578193 },
	{ 147095.7, 26.3, 2.1617663738901893e-152 },
	{ 12.0, -3.0, 0.9944666521569832 },
	{ 1000000.0, -1.75, 0.9599406897917261 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ref) / sizeof(ref[0]); i++) {
		double got = pv_t_sf(ref[i].t, ref[i].df);
		double tol = ref[i].p >= 1e-60 ? 1e-13 :
			     4 * DBL_EPSILON * -log(ref[i].p);

		if (!(relerr(got, ref[i].p, 1e-300) <= tol))
			fail_msg("t_sf(%.17g, %.17g) = %.17g, scipy %.17g",
				 ref[i].t, ref[i].df, got, ref[i].p);
	}
	assert_true(pv_t_sf(INFINITY, 5) == 0);
	assert_true(pv_t_sf(-INFINITY, 5) == 1);
	assert_true(pv_t_sf(0, 5) == 0.5);
	assert_true(isnan(pv_t_sf(NAN, 5)));
	assert_true(isnan(pv_t_sf(1, 0)));
	assert_true(isnan(pv_t_sf(1, NAN)));
	/* df = inf is the normal tail: Q(1.96) = 0.024997895148220435 */
	assert_close(pv_t_sf(1.96, INFINITY), 0.024997895148220435, 1e-14);
}

/*
 * The t tail and quantile on scipy's grid (tests/ref/tdist_ref.txt): the
 * accuracy tdist.h promises, and the memo variants giving the same bits
 * (each value is asked for twice through one memo, so that both a miss
 * and a hit are compared).  The largest errors are printed.
 */
static void test_ref_tdist(void **state)
{
	struct pv_tmemo memo;
	struct rec r;
	size_t i = 0, nsf = 0, nq = 0;
	double worst_sf = 0, worst_deep = 0, worst_q = 0;

	(void)state;
	pv_tmemo_init(&memo);
	while (next_rec("sf", &i, &r)) {
		double t = rd(&r), df = rd(&r), want = rd(&r);
		double got = pv_t_sf(t, df), e = relerr(got, want, 1e-300);
		double tol = want >= 1e-60 ? 1e-13 : 4 * DBL_EPSILON * -log(want);

		if (!(e <= tol))
			fail_msg("t_sf(%.17g, %.17g) = %.17g, scipy %.17g (%.3g)",
				 t, df, got, want, e);
		if (pv_t_sf_memo(&memo, t, df) != got ||
		    pv_t_sf_memo(&memo, t, df) != got)
			fail_msg("t_sf_memo(%.17g, %.17g) differs", t, df);
		if (want >= 1e-60 && e > worst_sf)
			worst_sf = e;
		if (want < 1e-60 && e / tol > worst_deep)
			worst_deep = e / tol;
		nsf++;
	}
	i = 0;
	while (next_rec("ppf", &i, &r)) {
		double p = rd(&r), df = rd(&r), want = rd(&r);
		double got = pv_t_quantile(p, df), e = relerr(got, want, 1e-300);

		if (!(e <= 1e-13))
			fail_msg("t_quantile(%.17g, %.17g) = %.17g, scipy %.17g "
				 "(%.3g)", p, df, got, want, e);
		if (pv_t_quantile_memo(&memo, p, df) != got ||
		    pv_t_quantile_memo(&memo, p, df) != got)
			fail_msg("t_quantile_memo(%.17g, %.17g) differs", p, df);
		if (e > worst_q)
			worst_q = e;
		nq++;
	}
	assert_true(nsf >= 1000 && nq >= 600);
	print_message("t tail: %zu values, max rel error %.2g (p >= 1e-60), "
		      "%.2g of the tolerance below; quantile: %zu values, "
		      "max rel error %.2g\n", nsf, worst_sf, worst_deep, nq,
		      worst_q);
}

/*
 * Tails so deep that t^2 overflows or the density underflows: the
 * closed forms of df = 1 (atan(1/t)/pi) and df = 2 (1/(2 t^2) to
 * 1e-300 relative here), and quantiles that must give their tail back.
 */
static void test_t_deep(void **state)
{
	const double dfs[] = { 1, 1.5, 2, 3, 5, 10, 30 };
	const double ps[] = { 1e-300, 1e-200, 1e-100 };
	size_t i, j;

	(void)state;
	assert_close(pv_t_sf(1e160, 1), 1 / (M_PI * 1e160), 1e-13);
	assert_close(pv_t_sf(1e300, 1), 1 / (M_PI * 1e300), 1e-13);
	assert_close(pv_t_sf(1e150, 2), 0.5 / 1e150 / 1e150, 1e-12);
	for (i = 0; i < sizeof(dfs) / sizeof(*dfs); i++) {
		for (j = 0; j < sizeof(ps) / sizeof(*ps); j++) {
			double q = pv_t_quantile(ps[j], dfs[i]);

			if (!(isfinite(q) && q < 0 &&
			      relerr(pv_t_sf(-q, dfs[i]), ps[j], 1e-300) <= 1e-12))
				fail_msg("t_quantile(%g, %g) = %.17g: tail %.17g",
					 ps[j], dfs[i], q, pv_t_sf(-q, dfs[i]));
		}
	}
	/* df = 1: the quantile is cot(pi p) */
	assert_close(pv_t_quantile(1e-300, 1), -1 / (M_PI * 1e-300), 1e-13);
}

/* The relative change every report shows (verdict and calibrate alike)
 * and the runs-per-side extrapolation of the inconclusive reason. */
static void test_effect_hand(void **state)
{
	(void)state;
	assert_true(pv_rel_change(100, 105) == 0.05);
	assert_true(pv_rel_change(-100, -90) == 0.1);  /* |a|: sign of b - a */
	assert_true(pv_rel_change(2, 1) == -0.5);
	assert_true(pv_rel_change(3, 3) == 0);
	assert_true(isnan(pv_rel_change(0, 1)));
	assert_true(isnan(pv_rel_change(0, 0)));
	assert_true(isnan(pv_rel_change(NAN, 1)));
	assert_true(isnan(pv_rel_change(1, NAN)));

	/* detectable effect ~ 1/sqrt(n): n (mde/target)^2, rounded up */
	assert_true(pv_runs_to_detect(10, 0.1, 0.05) == 40);
	assert_true(pv_runs_to_detect(10, 0.06, 0.05) == 15);   /* 14.4 */
	assert_true(pv_runs_to_detect(5, 0.05, 0.05) == 5);
	assert_true(pv_runs_to_detect(3, 0.01, 0.05) == 1);     /* 0.12 */
	assert_true(isnan(pv_runs_to_detect(10, 0, 0.05)));
	assert_true(isnan(pv_runs_to_detect(10, 0.1, 0)));
	assert_true(isnan(pv_runs_to_detect(10, INFINITY, 0.05)));
	assert_true(isnan(pv_runs_to_detect(10, NAN, 0.05)));
}

/* z quantiles: 0.975 -> 1.959963984540054, 0.8 -> 0.8416212335729143,
 * 0.95 -> 1.6448536269514722. */
static void test_mde_hand(void **state)
{
	(void)state;
	assert_close(pv_mde(2, INFINITY, 0.05, 1, 0.8),
		     2 * (1.959963984540054 + 0.8416212335729143), 1e-14);
	assert_close(pv_mde(1, INFINITY, 0.05, 0, 0.8),
		     1.6448536269514722 + 0.8416212335729143, 1e-14);
	/* df = 2: quantile (2p - 1)/sqrt(2 p (1 - p)) */
	assert_close(pv_mde(1, 2, 0.05, 1, 0.8),
		     0.95 / sqrt(2 * 0.975 * 0.025) + 0.6 / sqrt(2 * 0.8 * 0.2),
		     1e-12);
	assert_close(pv_mde(0, 5, 0.05, 1, 0.8), 0, 0);
	assert_true(isnan(pv_mde(-1, 5, 0.05, 1, 0.8)));
	assert_true(isnan(pv_mde(1, 0, 0.05, 1, 0.8)));
	assert_true(isnan(pv_mde(1, 5, 0, 1, 0.8)));
	assert_true(isnan(pv_mde(1, 5, 0.05, 1, 1)));
	assert_true(isnan(pv_mde(1, NAN, 0.05, 1, 0.8)));
}

/* ---- recorded scipy / R / limma values ------------------------------ */

static void test_ref_ttest(void **state)
{
	struct tally t = { "ttest vs scipy", 0, 0, 0 };
	struct pv_test_out o;
	struct pv_err err;
	struct rec r;
	size_t i = 0, na, nb;
	double *a, *b;

	(void)state;
	while (next_rec("ttest", &i, &r)) {
		int eqv = (int)rd(&r);
		enum pv_alt alt = rdalt(&r);

		a = rdvec(&r, &na);
		b = rdvec(&r, &nb);
		assert_int_equal(pv_ttest(a, na, b, nb, eqv, alt, 0.95, &o,
					  &err), 0);
		check(&t, &r, "t", o.statistic, rd(&r), 1e-300);
		check(&t, &r, "p", o.p, rd(&r), 1e-300);
		free(a);
		free(b);
	}
	done(&t, 400);
}

static void test_ref_ttest_ci(void **state)
{
	struct tally t = { "t-test interval vs R t.test", 0, 0, 0 };
	struct pv_test_out o;
	struct pv_err err;
	struct rec r;
	size_t i = 0, na, nb;
	double *a, *b, conf, floor;

	(void)state;
	while (next_rec("ttestci", &i, &r)) {
		int eqv = (int)rd(&r);

		conf = rd(&r);
		a = rdvec(&r, &na);
		b = rdvec(&r, &nb);
		floor = 1e-12 * fmax(maxabs(a, na), maxabs(b, nb));
		assert_int_equal(pv_ttest(a, na, b, nb, eqv, PV_ALT_TWO, conf,
					  &o, &err), 0);
		check(&t, &r, "shift", o.shift, rd(&r), floor);
		check(&t, &r, "ci_low", o.ci_low, rd(&r), floor);
		check(&t, &r, "ci_high", o.ci_high, rd(&r), floor);
		free(a);
		free(b);
	}
	done(&t, 90);
}

static void test_ref_mwu(void **state)
{
	struct tally t = { "mannwhitneyu vs scipy", 0, 0, 0 };
	struct pv_test_out o;
	struct pv_err err;
	struct rec r;
	size_t i = 0, na, nb, nexact = 0;
	double *a, *b;

	(void)state;
	while (next_rec("mwu", &i, &r)) {
		enum pv_alt alt = rdalt(&r);

		a = rdvec(&r, &na);
		b = rdvec(&r, &nb);
		assert_int_equal(pv_mannwhitney(a, na, b, nb, alt, 0.95, &o,
						&err), 0);
		check(&t, &r, "U", o.statistic, rd(&r), 1e-300);
		check(&t, &r, "p", o.p, rd(&r), 1e-300);
		check(&t, &r, "exact", o.exact, rd(&r), 1);
		nexact += o.exact;
		free(a);
		free(b);
	}
	done(&t, 450);
	assert_true(nexact >= 20);      /* both methods were exercised */
	assert_true(nexact * 2 <= t.n);
}

static void test_ref_mwu_ci(void **state)
{
	struct tally t = { "Hodges-Lehmann interval vs R wilcox.test", 0, 0,
			   0 };
	struct pv_test_out o;
	struct pv_err err;
	struct rec r;
	size_t i = 0, na, nb;
	double *a, *b, conf;

	(void)state;
	while (next_rec("mwuci", &i, &r)) {
		conf = rd(&r);
		a = rdvec(&r, &na);
		b = rdvec(&r, &nb);
		assert_int_equal(pv_mannwhitney(a, na, b, nb, PV_ALT_TWO, conf,
						&o, &err), 0);
		check(&t, &r, "estimate", o.shift, rd(&r), 1e-9);
		check(&t, &r, "ci_low", o.ci_low, rd(&r), 1e-9);
		check(&t, &r, "ci_high", o.ci_high, rd(&r), 1e-9);
		free(a);
		free(b);
	}
	done(&t, 30);
}

static void test_ref_adjust(void **state)
{
	struct tally t = { "holm/BH vs R p.adjust", 0, 0, 0 };
	struct rec r;
	size_t i = 0, k, n;
	double *p, *q;
	int holm;

	(void)state;
	for (holm = 0; holm <= 1; holm++) {
		i = 0;
		while (next_rec(holm ? "holm" : "bh", &i, &r)) {
			p = rdvec(&r, &n);
			q = malloc((n ? n : 1) * sizeof(*q));
			assert_non_null(q);
			if (holm)
				pv_adjust_holm(p, n, q);
			else
				pv_adjust_bh(p, n, q);
			for (k = 0; k < n; k++)
				check(&t, &r, "q", q[k], rd(&r), 1e-300);
			free(p);
			free(q);
		}
	}
	done(&t, 1000);
}

static void test_ref_limma(void **state)
{
	struct tally t = { "trigammaInverse/fitFDist vs limma", 0, 0, 0 };
	struct pv_prior pr;
	struct pv_err err;
	struct rec r;
	size_t i = 0, k, n;
	double *s2, *d;

	(void)state;
	while (next_rec("triginv", &i, &r)) {
		double x = rd(&r);

		check(&t, &r, "y", pv_trigamma_inverse(x), rd(&r), 1e-300);
	}
	i = 0;
	while (next_rec("fitprior", &i, &r)) {
		s2 = rdvec(&r, &n);
		d = malloc(n * sizeof(*d));
		assert_non_null(d);
		for (k = 0; k < n; k++)
			d[k] = rd(&r);
		assert_int_equal(pv_fit_prior(s2, d, n, &pr, &err), 0);
		check(&t, &r, "s0sq", pr.s0sq, rd(&r), 1e-300);
		check(&t, &r, "d0", pr.d0, rd(&r), 1e-300);
		free(s2);
		free(d);
	}
	done(&t, 40);
}

/* A whole family through pv_modvar_log, pv_fit_prior and pv_moderated_t
 * against limma's lmFit + eBayes on the same logs.  limma's t is
 * (b - a)/se; ours has scipy's orientation, hence the minus sign. */
static void test_ref_moderated(void **state)
{
	struct tally t = { "moderated t vs limma eBayes", 0, 0, 0 };
	struct pv_modvar *mv;
	struct pv_prior pr;
	struct pv_test_out o;
	struct pv_err err;
	struct rec r;
	size_t i = 0, k, m, na, nb, j;
	double *a, *b, *s2, *d;

	(void)state;
	while (next_rec("modt", &i, &r)) {
		double d0, s0sq;

		m = (size_t)rd(&r);
		na = (size_t)rd(&r);
		nb = (size_t)rd(&r);
		d0 = rd(&r);
		s0sq = rd(&r);
		mv = malloc(m * sizeof(*mv));
		s2 = malloc(m * sizeof(*s2));
		d = malloc(m * sizeof(*d));
		a = malloc(na * sizeof(*a));
		b = malloc(nb * sizeof(*b));
		assert_true(mv && s2 && d && a && b);
		/* first pass: the variances */
		{
			struct rec r0 = r;

			for (k = 0; k < m; k++) {
				for (j = 0; j < na; j++)
					a[j] = rd(&r0);
				for (j = 0; j < nb; j++)
					b[j] = rd(&r0);
				rd(&r0), rd(&r0), rd(&r0);
				assert_int_equal(pv_modvar_log(a, na, b, nb,
					0, &mv[k], &err), 0);
				s2[k] = mv[k].s2;
				d[k] = mv[k].d;
			}
		}
		assert_int_equal(pv_fit_prior(s2, d, m, &pr, &err), 0);
		check(&t, &r, "d0", pr.d0, d0, 1e-300);
		check(&t, &r, "s0sq", pr.s0sq, s0sq, 1e-300);
		for (k = 0; k < m; k++) {
			for (j = 0; j < na + nb; j++)
				rd(&r);
			pv_moderated_t(&mv[k], &pr, (double)m * d[k],
				       PV_ALT_TWO, 0.95, &o);
			check(&t, &r, "t", -o.statistic, rd(&r), 1e-300);
			check(&t, &r, "p", o.p, rd(&r), 1e-300);
			check(&t, &r, "df", o.df, rd(&r), 1e-300);
		}
		free(mv);
		free(s2);
		free(d);
		free(a);
		free(b);
	}
	done(&t, 300);
}

/* For equal sizes our pooled Yuen t equals scipy's Yuen-Welch t:
 * ((n-1)(w1 + w2) / (2(h-1))) (2/h) = (n-1) w1/(h(h-1)) + (n-1) w2/...
 */
static void test_ref_yuen(void **state)
{
	struct tally t = { "trimmed (Yuen) t vs scipy trim=0.2", 0, 0, 0 };
	struct pv_modvar mv;
	struct pv_err err;
	struct rec r;
	size_t i = 0, na, nb;
	double *a, *b;

	(void)state;
	while (next_rec("yuen", &i, &r)) {
		a = rdvec(&r, &na);
		b = rdvec(&r, &nb);
		assert_int_equal(na, nb);
		assert_int_equal(pv_modvar_log(a, na, b, nb, 1, &mv, &err), 0);
		check(&t, &r, "t", -mv.diff / (sqrt(mv.s2) * mv.u), rd(&r),
		      1e-300);
		free(a);
		free(b);
	}
	done(&t, 8);
}

static void test_ref_mde_summary(void **state)
{
	struct tally t = { "mde vs R qt, summary vs numpy", 0, 0, 0 };
	struct pv_summary s;
	struct rec r;
	size_t i = 0, n;
	double *x;

	(void)state;
	while (next_rec("mde", &i, &r)) {
		double se = rd(&r), df = rd(&r), alpha = rd(&r);
		int two = (int)rd(&r);
		double power = rd(&r);

		check(&t, &r, "mde", pv_mde(se, df, alpha, two, power), rd(&r),
		      1e-300);
	}
	i = 0;
	while (next_rec("summary", &i, &r)) {
		x = rdvec(&r, &n);
		pv_summarize(x, n, &s);
		check(&t, &r, "mean", s.mean, rd(&r), 1e-300);
		check(&t, &r, "sd", s.sd, rd(&r), 1e-300);
		check(&t, &r, "median", s.median, rd(&r), 1e-300);
		check(&t, &r, "min", s.min, rd(&r), 1e-300);
		check(&t, &r, "max", s.max, rd(&r), 1e-300);
		free(x);
	}
	done(&t, 35);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_hand),
		cmocka_unit_test(test_order_stats),
		cmocka_unit_test(test_ttest_hand),
		cmocka_unit_test(test_ttest_zero_variance),
		cmocka_unit_test(test_ttest_errors),
		cmocka_unit_test(test_ttest_summary),
		cmocka_unit_test(test_mwu_hand),
		cmocka_unit_test(test_mwu_asymptotic_hand),
		cmocka_unit_test(test_hodges_lehmann_hand),
		cmocka_unit_test(test_hodges_lehmann_selection),
		cmocka_unit_test(test_adjust_hand),
		cmocka_unit_test(test_trigamma_inverse_hand),
		cmocka_unit_test(test_fit_prior_edges),
		cmocka_unit_test(test_fit_prior_median),
		cmocka_unit_test(test_modvar_hand),
		cmocka_unit_test(test_moderated_hand),
		cmocka_unit_test(test_posterior_var_hand),
		cmocka_unit_test(test_gross_fraction_hand),
		cmocka_unit_test(test_mde_hand),
		cmocka_unit_test(test_effect_hand),
		cmocka_unit_test(test_ref_ttest),
		cmocka_unit_test(test_ref_ttest_ci),
		cmocka_unit_test(test_ref_mwu),
		cmocka_unit_test(test_ref_mwu_ci),
		cmocka_unit_test(test_ref_adjust),
		cmocka_unit_test(test_ref_limma),
		cmocka_unit_test(test_ref_moderated),
		cmocka_unit_test(test_ref_yuen),
		cmocka_unit_test(test_ref_mde_summary),
		cmocka_unit_test(test_t_sf_scipy),
		cmocka_unit_test(test_ref_tdist),
		cmocka_unit_test(test_t_deep),
	};

	if (argc > 0)
		argv0 = argv[0];
	gsl_set_error_handler_off();
	return cmocka_run_group_tests(tests, load_ref, free_ref);
}
