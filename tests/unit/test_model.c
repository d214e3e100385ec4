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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mean_of_identical_is_exact),
		cmocka_unit_test(mean_stays_accurate),
		cmocka_unit_test(mean_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
