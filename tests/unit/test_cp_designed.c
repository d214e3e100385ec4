/*
 * test_cp_designed.c - the designed change-point detector of
 * docs/changepoint.md (stats/cp_*.c): each of its stated properties.
 */
#include "unit.h"
#include <stdlib.h>
#include <string.h>
#include "stats/changepoint.h"
#include "stats/cp.h"

static const struct pvs_cpn_without all_parts = { 0, 0, 0, 0 };

/* A standard normal from xorshift64 (Box-Muller). */
static double gauss(uint64_t *s)
{
	double u = ((double)(xorshift64(s) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(xorshift64(s) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* The least penalised cost of y[0..L) by optimal partitioning with no
 * pruning (O(L^2)), segments of at least m points. */
static double brute_cost(const double *y, const double *w, size_t L,
			 size_t m, double pen)
{
	double *F = malloc((L + 1) * sizeof(*F)), out;

	F[0] = -pen;
	for (size_t t = 1; t <= L; t++) {
		F[t] = INFINITY;
		for (size_t s = 0; s + m <= t; s++)
			if (isfinite(F[s]) && (s == 0 || s >= m)) {
				double c = F[s] + pvs_cpn_ss(y, w, s, t, NULL) + pen;

				if (c < F[t])
					F[t] = c;
			}
	}
	out = F[L];
	free(F);
	return out;
}

/* Section 3: PELT's pruning never loses the optimum; the search returns
 * a segmentation whose cost is optimal partitioning's, on noisy series
 * with steps, at minimum segments of 3 and 5. */
static void test_search_optimal(void **state)
{
	enum { L = 90 };
	double y[L], w[L];
	size_t cp[L];
	uint64_t seed = 11;

	(void)state;
	for (int trial = 0; trial < 30; trial++) {
		size_t m = trial % 2 ? 5 : 3, k;
		double pen = 4 + trial % 7, cost = 0;

		for (size_t i = 0; i < L; i++) {
			y[i] = gauss(&seed) + (i >= 30) * 2.0 - (i >= 33) * 2.0 +
			       (i >= 60) * 1.0;
			w[i] = 1 + (double)(i % 3);
		}
		k = pvs_cpn_search(y, w, L, m, pen, cp);
		for (size_t i = 0; i <= k; i++) {
			size_t a = i ? cp[i - 1] : 0, b = i < k ? cp[i] : L;

			assert_true(b - a >= m);
			cost += pvs_cpn_ss(y, w, a, b, NULL);
		}
		cost += (double)k * pen;
		assert_true(fabs(cost - brute_cost(y, w, L, m, pen)) <
			    1e-9 * fmax(1, fabs(cost)));
	}
}

/* Section 1: the scale of white noise is its sd, whatever steps and
 * spikes it carries; noise of two modes is not read as quiet. */
static void test_scale(void **state)
{
	enum { L = 400 };
	double y[L], tmp[2 * L];
	uint64_t seed = 5;
	double sum = 0;

	(void)state;
	for (int rep = 0; rep < 20; rep++) {
		for (size_t i = 0; i < L; i++)
			y[i] = gauss(&seed) + (i >= 200) * 50.0 +
			       (i % 37 == 0) * 30.0;
		sum += pvs_cpn_scale(y, L, tmp);
	}
	assert_true(fabs(sum / 20 - 1) < 0.05);
	/* modes 0 and 1 at random, jitter 0.1: sd about 0.5 */
	for (size_t i = 0; i < L; i++)
		y[i] = (double)(xorshift64(&seed) & 1) + 0.1 * gauss(&seed);
	assert_true(pvs_cpn_scale(y, L, tmp) > 0.4);
}

/* Section 2: a spike and a two-point blip go; a three-point level and
 * the newest three points at a new level stay. */
static void test_spikes(void **state)
{
	double y[30], out[30], sd[30];

	(void)state;
	for (int i = 0; i < 30; i++) {
		y[i] = (i % 2) * 0.01;
		sd[i] = 0.01;
	}
	y[5] = 1;                       /* spike */
	y[10] = y[11] = 1;              /* blip */
	y[17] = y[18] = y[19] = 1;      /* level of three */
	y[27] = y[28] = y[29] = 2;      /* a new level at the end */
	assert_int_equal(pvs_cpn_despike(y, 30, sd, out), 3);
	assert_true(out[5] < 0.5 && out[10] < 0.5 && out[11] < 0.5);
	for (int i = 17; i < 20; i++)
		assert_true(out[i] == 1);
	for (int i = 27; i < 30; i++)
		assert_true(out[i] == 2);
}

/* Family figures of M white-noise series of L points, sd 1%, with a
 * +10% step at point 20 in the first `stepped` of them. */
static size_t run_family(size_t M, size_t L, size_t stepped, uint64_t *seed,
			 const struct pvs_cpn_without *wo, size_t *found,
			 size_t *covered)
{
	struct pv_cp_series *s = calloc(M, sizeof(*s));
	double *y = malloc(M * L * sizeof(*y));
	struct pv_err err;
	size_t falsecp = 0;

	for (size_t i = 0; i < M; i++) {
		for (size_t j = 0; j < L; j++)
			y[i * L + j] = 0.01 * gauss(seed) +
				       (i < stepped && j >= 20) * log(1.1);
		s[i].y = &y[i * L];
		s[i].L = L;
		s[i].sign = 1;
	}
	assert_int_equal(pvs_cpn_family_shared(s, M, 0.05, NULL, wo, &err), 0);
	*found = 0;
	for (size_t i = 0; i < M; i++) {
		for (size_t k = 0; k < s[i].ncp; k++) {
			const struct pv_cp *c = &s[i].cp[k];

			if (i < stepped && c->index == 20) {
				assert_true(c->index_low <= 20 && c->index_high >= 20);
				*covered += c->delta_low < log(1.1) &&
					    c->delta_high > log(1.1);
				(*found)++;
			} else {
				falsecp++;
			}
		}
		pv_cp_series_release(&s[i]);
	}
	free(s);
	free(y);
	return falsecp;
}

/* Section 4: white-noise families of 100 series raise a false change
 * point in about alpha of them or fewer (40 families: at most 5 is a
 * binomial's 0.98 quantile at 0.05), and a +10% step in 1% noise is
 * found at its point, its 95% interval holding the step's size about
 * 95% of the time (at least 44 of 50 is a binomial's 0.99 lower
 * quantile at 0.95). */
static void test_family_level(void **state)
{
	uint64_t seed = 2024;
	size_t alarms = 0, found, total = 0, covered = 0;

	(void)state;
	for (int f = 0; f < 40; f++)
		alarms += run_family(100, f % 2 ? 40 : 20, 0, &seed, &all_parts,
				     &found, &covered) > 0;
	assert_true(alarms <= 5);
	covered = 0;
	for (int f = 0; f < 5; f++) {
		assert_int_equal(run_family(50, 40, 10, &seed, &all_parts,
					    &found, &covered), 0);
		total += found;
	}
	assert_true(total >= 48);
	assert_true(covered >= 44);
}

/* Section 5: a drift with no step is a slope; three clear steps are
 * steps, not a slope. */
static void test_steps_or_slope(void **state)
{
	enum { M = 10, L = 60 };
	double y[M * L];
	struct pv_cp_series s[M];
	struct pv_err err;
	uint64_t seed = 9;

	(void)state;
	for (int kind = 0; kind < 2; kind++) {
		memset(s, 0, sizeof(s));
		for (size_t i = 0; i < M; i++) {
			for (size_t j = 0; j < L; j++)
				y[i * L + j] = 0.01 * gauss(&seed) + (i == 0 ?
					(kind ? 0.1 * (double)(j / 15) :
						0.002 * (double)j) : 0);
			s[i].y = &y[i * L];
			s[i].L = L;
			s[i].sign = 1;
		}
		assert_int_equal(pvs_cpn_family(s, M, 0.05, &all_parts, &err), 0);
		if (kind == 0) {
			assert_int_equal(s[0].ncp, 0);
			assert_true(s[0].trend.significant);
		} else {
			assert_int_equal(s[0].ncp, 3);
			assert_int_equal(s[0].cp[0].index, 15);
			assert_int_equal(s[0].cp[2].index, 45);
			assert_false(s[0].trend.significant);
		}
		for (size_t i = 1; i < M; i++)
			assert_int_equal(s[i].ncp, 0);
		for (size_t i = 0; i < M; i++)
			pv_cp_series_release(&s[i]);
	}
}

/*
 * Section 6: every point ran on another machine (3% a point, shared by
 * the family's 40 series) over 0.5% of the series' own noise.  A +3%
 * step of one series is one sd of the point noise: found once the
 * shared effect is out, not without it.  A +20% step every series took
 * at point 30 stays a step of each.
 */
static void test_shared(void **state)
{
	enum { M = 40, L = 40 };
	double y[M * L], u[L];
	struct pv_cp_series s[M];
	struct pv_err err;
	struct pvs_cpn_without no_shared = { 0, 0, 0, 1 };
	uint64_t seed = 7;

	(void)state;
	memset(s, 0, sizeof(s));
	for (size_t j = 0; j < L; j++)
		u[j] = 0.03 * gauss(&seed);
	for (size_t i = 0; i < M; i++) {
		for (size_t j = 0; j < L; j++)
			y[i * L + j] = u[j] + 0.005 * gauss(&seed) +
				       (j >= 30) * log(1.2) +
				       (i == 0 && j >= 15) * log(1.03);
		s[i].y = &y[i * L];
		s[i].L = L;
		s[i].sign = 1;
	}
	for (int pass = 0; pass < 2; pass++) {
		int at15 = 0, at30 = 0;

		assert_int_equal(pvs_cpn_family_shared(s, M, 0.05, NULL,
			pass ? &no_shared : &all_parts, &err), 0);
		for (size_t k = 0; k < s[0].ncp; k++)
			at15 |= s[0].cp[k].index == 15;
		for (size_t i = 0; i < M; i++) {
			for (size_t k = 0; k < s[i].ncp; k++)
				at30 += s[i].cp[k].index == 30;
			free(s[i].adjusted);
			s[i].adjusted = NULL;
			pv_cp_series_release(&s[i]);
		}
		assert_int_equal(at15, !pass);
		if (!pass)
			assert_int_equal(at30, M);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_search_optimal),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_spikes),
		cmocka_unit_test(test_family_level),
		cmocka_unit_test(test_steps_or_slope),
		cmocka_unit_test(test_shared),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
