/* test_changepoint.c - history/changepoint.c and history/pooled.c. */
#include "unit.h"
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_sort.h>
#include "history/changepoint.h"
#include "history/pooled.h"


/* A standard normal from xorshift64 (Box-Muller). */
static double gauss(uint64_t *s)
{
	double u = ((double)(xorshift64(s) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(xorshift64(s) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/*
 * A point effect shared by the family (every commit on another runner:
 * 3% a point, common to all 40 series; times go up where rates go down)
 * over 0.5% of the series' own noise.  A +3% step of one series is one
 * sd of the point noise: not found alone, found once the shared effect
 * is taken out.  A +10% step that every series took at point 30 stays a
 * step of each.  With no sign the series take no part: the step is lost.
 */
static void test_shared_effect(void **state)
{
	enum { M = 40, L = 40 };
	double *y = malloc(M * L * sizeof(*y)), u[L];
	struct pv_cp_series s[M];
	struct pv_err err;
	uint64_t seed = 7;

	(void)state;
	for (int i = 0; i < L; i++)
		u[i] = 0.03 * gauss(&seed);
	for (int pass = 0; pass < 2; pass++) {
		size_t other = 0;

		memset(s, 0, sizeof(s));
		seed = 11;
		for (int m = 0; m < M; m++) {
			int sign = m % 2 ? -1 : 1;

			for (int i = 0; i < L; i++)
				y[m * L + i] = sign * (u[i] + (i >= 30 ? log(1.10) : 0)) +
					       0.005 * gauss(&seed);
			s[m].y = y + m * L;
			s[m].L = L;
			s[m].sign = pass ? sign : 0;
		}
		for (int i = 20; i < L; i++)
			y[i] += log(1.03);
		assert_int_equal(pv_cp_family(s, M, 0.05, &err), 0);
		if (!pass) {
			/* alone: the 3% step is lost in the point noise */
			for (size_t k = 0; k < s[0].ncp; k++)
				assert_int_not_equal(s[0].cp[k].index, 20);
			assert_null(s[0].adjusted);
		} else {
			assert_int_equal(s[0].ncp, 2);
			assert_int_equal(s[0].cp[0].index, 20);
			assert_near(s[0].cp[0].delta, log(1.03), 0.005);
			assert_int_equal(s[0].cp[1].index, 30);
			assert_near(s[0].shared_beta, 1, 0.15);
			assert_near(s[1].shared_beta, 1, 0.15);
			assert_non_null(s[0].adjusted);
			/* the tests saw the values less the effect */
			assert_true(fabs(s[0].adjusted[5] - s[0].y[5]) > 0);
		}
		for (int m = pass ? 1 : 0; m < M && pass; m++) {
			assert_true(s[m].ncp >= 1);
			assert_int_equal(s[m].cp[s[m].ncp - 1].index, 30);
			other += s[m].ncp - 1;
		}
		assert_int_equal(other, 0);
		for (int m = 0; m < M; m++)
			pv_cp_series_release(&s[m]);
	}
	free(y);
}

/*
 * Short levels that most series took after a step they all took (sfdx's
 * real history: x20 at point 7, then +10% at 10 in a third of the series
 * and at 13 in another): the first run's levels miss them, so the
 * residuals of points 7-12 share them, and the effect must keep them as
 * its own levels, not take them out of every series as machine noise.
 * With this much machine noise both alpha / k and alpha / sqrt(k) keep
 * them; sfdx's own series (tests/check_corpus.sh) are where alpha / k
 * did not.
 */
static void test_shared_short_levels(void **state)
{
	enum { M = 30, L = 41 };
	double *y = malloc(M * L * sizeof(*y)), u[L];
	struct pv_cp_series s[M];
	struct pv_err err;
	uint64_t seed = 5;
	size_t found = 0, took = 0;

	(void)state;
	for (int i = 0; i < L; i++)
		u[i] = 0.03 * gauss(&seed) - (i == 12 || i == 25 || i == 39 ? 0.25 : 0);
	memset(s, 0, sizeof(s));
	for (int m = 0; m < M; m++) {
		int at = m % 3 == 0 ? 10 : m % 3 == 1 ? 13 : 0;

		for (int i = 0; i < L; i++)
			y[m * L + i] = u[i] + (i >= 7 ? log(20.0) : 0) +
				       (at && i >= at ? log(1.10) : 0) +
				       0.01 * gauss(&seed);
		s[m].y = y + m * L;
		s[m].L = L;
		s[m].sign = 1;
	}
	assert_int_equal(pv_cp_family(s, M, 0.05, &err), 0);
	for (int m = 0; m < M; m++) {
		int at = m % 3 == 0 ? 10 : m % 3 == 1 ? 13 : 0;

		assert_non_null(s[m].adjusted);
		assert_true(s[m].ncp >= 1);
		assert_int_equal(s[m].cp[0].index, 7);
		if (!at)
			continue;
		took++;
		for (size_t k = 1; k < s[m].ncp; k++)
			if (s[m].cp[k].index == (size_t)at)
				found++;
	}
	assert_true(found >= 9 * took / 10);
	for (int m = 0; m < M; m++)
		pv_cp_series_release(&s[m]);
	free(y);
}

/* A uniform in (0, 1) from xorshift64. */
static double unif(uint64_t *s)
{
	return ((double)(xorshift64(s) >> 11) + 0.5) / 9007199254740992.0;
}

/*
 * Slow runners at 9 of 60 points (hyper's real history): each series
 * slows by its own 15-45% there, over 1% of its own noise, and three
 * series hold +12% for points 26-32, two of the slow points among them.
 * The shared effect takes only part of each slow point out (the median
 * of the others' depths), so the slow points stay noisy neighbours in
 * the values less it; the series' own values (without the slow points)
 * must show each step.  Before, over three seeds: 8 of the 9 plateaus,
 * and 4 flags in two of the flat series; now 7 and none.
 */
static void test_shared_slow_runners(void **state)
{
	enum { M = 13, L = 60 };
	static const int slow[] = { 8, 19, 23, 30, 32, 37, 46, 51, 55 };
	double *y = malloc(M * L * sizeof(*y));
	struct pv_cp_series s[M];
	struct pv_err err;
	size_t found = 0, other = 0;

	(void)state;
	for (uint64_t seed0 = 3; seed0 <= 5; seed0++) {
		uint64_t seed = seed0;

		memset(s, 0, sizeof(s));
		for (int m = 0; m < M; m++) {
			for (int i = 0; i < L; i++) {
				double v = 0.01 * gauss(&seed);

				for (size_t d = 0; d < sizeof(slow) / sizeof(*slow); d++)
					if (i == slow[d])
						v += log(0.55 + 0.3 * unif(&seed));
				if (m < 3 && i >= 26 && i < 33)
					v += log(1.12);
				y[m * L + i] = v;
			}
			s[m].y = y + m * L;
			s[m].L = L;
			s[m].sign = 1;
		}
		assert_int_equal(pv_cp_family(s, M, 0.05, &err), 0);
		for (int m = 0; m < M; m++) {
			if (m < 3)
				found += s[m].ncp == 2 && s[m].cp[0].index == 26 &&
					 s[m].cp[1].index >= 31 && s[m].cp[1].index <= 33;
			else
				other += s[m].ncp;
			pv_cp_series_release(&s[m]);
		}
	}
	assert_true(found >= 7);
	assert_int_equal(other, 0);
	free(y);
}

/*
 * A level the first run missed in several series is a false level of
 * the shared effect (cppmicroservices' real history): 12% of machine
 * noise a point over 3% of the series' own; five series at -20% for
 * points 11-20 (the first run finds their return at 21 in few), four
 * x2.3 from point 13, four flat.  The effect took the five's level at
 * 21 and made steps of it in the others; a step must also show in the
 * series' own values.  Before, over three seeds: 9 flags in the flat
 * series, 1 at 21 in the four and 2 misplaced in the five; now 1.
 */
static void test_shared_missed_level(void **state)
{
	enum { M = 13, L = 60 };
	double *y = malloc(M * L * sizeof(*y)), u[L];
	struct pv_cp_series s[M];
	struct pv_err err;
	size_t found = 0, other = 0;

	(void)state;
	for (uint64_t seed0 = 3; seed0 <= 5; seed0++) {
		uint64_t seed = seed0;

		memset(s, 0, sizeof(s));
		for (int i = 0; i < L; i++)
			u[i] = 0.12 * gauss(&seed);
		for (int m = 0; m < M; m++) {
			for (int i = 0; i < L; i++)
				y[m * L + i] = u[i] + 0.03 * gauss(&seed) +
					       (m < 5 && i >= 11 && i < 21 ? log(0.8) : 0) +
					       (m >= 5 && m < 9 && i >= 13 ? log(2.3) : 0);
			s[m].y = y + m * L;
			s[m].L = L;
			s[m].sign = 1;
		}
		assert_int_equal(pv_cp_family(s, M, 0.05, &err), 0);
		for (int m = 0; m < M; m++) {
			for (size_t k = 0; k < s[m].ncp; k++) {
				size_t at = s[m].cp[k].index;

				if (m < 5 && (at == 11 || at == 21))
					continue;
				if (m >= 5 && m < 9 && at == 13)
					found++;
				else
					other++;
			}
			pv_cp_series_release(&s[m]);
		}
	}
	assert_int_equal(found, 12);
	assert_true(other <= 1);
	free(y);
}

/*
 * A cluster of wild points is no measure of the noise of the steps
 * around it (maxtext's real history: a staircase of 0.5% noise, and
 * runs that stopped half-way, 0.7x, at three of four points that step
 * 1 cannot all call gross): the residuals beyond the gross limit count
 * as that limit in the between-point variance.  Four series step +7% at
 * 9, +12% at 22, +8% at 50 and +14% at 60, with 0.7x at 35, 36 and 38.
 * Before, over three seeds: no step at all (a between-point sd of 7%,
 * the staircase fitted as a line); now each step in every series, and
 * nothing else.
 */
static void test_wild_cluster(void **state)
{
	enum { M = 4, L = 69 };
	static const int at[] = { 9, 22, 50, 60 };
	static const double by[] = { 1.07, 1.12, 1.08, 1.14 };
	double *y = malloc(M * L * sizeof(*y));
	struct pv_cp_series s[M];
	struct pv_err err;
	size_t found = 0, other = 0;

	(void)state;
	for (uint64_t seed0 = 3; seed0 <= 5; seed0++) {
		uint64_t seed = seed0;

		memset(s, 0, sizeof(s));
		for (int m = 0; m < M; m++) {
			for (int i = 0; i < L; i++) {
				double v = 0.005 * gauss(&seed);

				for (int k = 0; k < 4; k++)
					v += i >= at[k] ? log(by[k]) : 0;
				if (i == 35 || i == 36 || i == 38)
					v += log(0.7);
				y[m * L + i] = v;
			}
			s[m].y = y + m * L;
			s[m].L = L;
			s[m].sign = 1;
		}
		assert_int_equal(pv_cp_family(s, M, 0.05, &err), 0);
		for (int m = 0; m < M; m++) {
			size_t hit = 0;

			for (size_t k = 0; k < s[m].ncp; k++) {
				size_t j = s[m].cp[k].index;

				hit += j == 9 || j == 22 || j == 50 || j == 60;
			}
			found += hit;
			other += s[m].ncp - hit;
			pv_cp_series_release(&s[m]);
		}
	}
	assert_int_equal(found, 3 * M * 4);
	assert_int_equal(other, 0);
	free(y);
}

/*
 * Three 1.5x runs in four points (cpsim's outliers at n = 1, where 5% of
 * the runs are 1.5x): step 1 cannot call them all gross (the median of
 * five around the middle ones is wild).  With their residuals counted as
 * at most the gross limit in the sd but not in the slope, they made a
 * significant slope, and at times a step beside it, in 1% noise.  Twenty
 * series, one with 1.5x at 28, 29 and 31, the others with isolated 1.5x
 * points at 5%, five seeds: no change point and no trend (with the cap
 * in the sd alone, 7 trends).
 */
static void test_cluster_no_slope(void **state)
{
	enum { M = 20, L = 40 };
	double *y = malloc(M * L * sizeof(*y));
	struct pv_cp_series s[M];
	struct pv_err err;
	size_t cps = 0, trends = 0;

	(void)state;
	for (uint64_t seed0 = 3; seed0 <= 7; seed0++) {
		uint64_t seed = seed0;

		memset(s, 0, sizeof(s));
		for (int m = 0; m < M; m++) {
			for (int i = 0; i < L; i++) {
				double v = 0.01 * gauss(&seed);

				if (m == 0 ? i == 28 || i == 29 || i == 31 :
				    unif(&seed) < 0.05 && i > 0 && i < L - 1)
					v += log(1.5);
				y[m * L + i] = v;
			}
			s[m].y = y + m * L;
			s[m].L = L;
			s[m].sign = 1;
		}
		assert_int_equal(pv_cp_family(s, M, 0.05, &err), 0);
		for (int m = 0; m < M; m++) {
			cps += s[m].ncp;
			trends += s[m].trend.significant;
			pv_cp_series_release(&s[m]);
		}
	}
	assert_int_equal(cps, 0);
	assert_int_equal(trends, 0);
	free(y);
}

/* The series of a family without a shared effect are left as they are
 * (the first run stands), whatever their signs; also among 10,000
 * series, where the chi-square alone (the t's a little wider than normal
 * at 40 points) found an "effect" of 0.0% a point in the bench archive. */
static void test_no_shared_effect(void **state)
{
	enum { M = 10000, L = 40 };
	double *y = malloc(M * L * sizeof(*y));
	struct pv_cp_series *s = calloc(M, sizeof(*s));
	struct pv_err err;
	uint64_t seed = 99;

	(void)state;
	for (int m = 0; m < M; m++) {
		for (int i = 0; i < L; i++)
			y[m * L + i] = 0.02 * gauss(&seed);
		s[m].y = y + m * L;
		s[m].L = L;
		s[m].sign = m % 3 ? 1 : -1;
	}
	assert_int_equal(pv_cp_family(s, M, 0.05, &err), 0);
	for (int m = 0; m < M; m++) {
		assert_null(s[m].adjusted);
		assert_near(s[m].shared_beta, 0, 0);
		assert_true(s[m].ncp <= 1);
		pv_cp_series_release(&s[m]);
	}
	free(y);
	free(s);
}

/*
 * Bumps at one run a point (cpsim's machine noise without a shared part,
 * about 3.2% a point): 20 of 100 series are +10% from point 5 to 19 and
 * back, where a line through them is significant too.  A line fits a
 * bump clearly worse than its two steps, so they stay steps even where
 * the first, net of a slope, is weak over its 5-point segment; before,
 * any weak step gave the series to the line when it cost less than the
 * steps' (BUMPS_FOUND_BEFORE of the 40 steps were found).  Nothing is
 * found in the 80 flat series.
 */
#define BUMPS_FOUND_BEFORE 22
static void test_short_bump(void **state)
{
	enum { M = 100, L = 40, K = 20 };
	double *y = malloc(M * L * sizeof(*y));
	struct pv_cp_series s[M];
	struct pv_err err;
	uint64_t seed = 2022;
	size_t found = 0, other = 0;

	(void)state;
	memset(s, 0, sizeof(s));
	for (int m = 0; m < M; m++) {
		for (int i = 0; i < L; i++)
			y[m * L + i] = 0.0316 * gauss(&seed) +
				       (m < K ? log(1.10) * (i >= 5 && i < 20) : 0);
		s[m].y = y + m * L;
		s[m].L = L;
	}
	assert_int_equal(pv_cp_family(s, M, 0.05, &err), 0);
	for (int m = 0; m < M; m++) {
		for (size_t k = 0; k < s[m].ncp; k++) {
			size_t i = s[m].cp[k].index;

			if (m < K && (i + 1 >= 5 && i <= 6 ? 1 : i + 1 >= 20 && i <= 21))
				found++;
			else
				other++;
		}
		pv_cp_series_release(&s[m]);
	}
	print_message("bumps: %zu of %d steps found, %zu other\n", found, 2 * K, other);
	assert_true(found >= BUMPS_FOUND_BEFORE + 10);
	assert_true(other <= 2);
	free(y);
}

/*
 * A drift too weak for the trend test: 60 families of 100 series of 40
 * points, 1% noise, each series drifting 0.05% a point up or down (2%
 * over the history).  A split of such a series is often significant (its
 * halves' means do differ) while its line, at alpha over the series,
 * often is not; the line's start now keeps its slope at
 * PV_CP_LINE_KEEP_P, so a split the slope explains goes: 1 of these 60
 * families has a change point.  Before, 5 had (cpsim's drift:0.01:0.0005
 * at n = 1: an A/A FWER of 0.125-0.20).
 */
static void test_weak_drift(void **state)
{
	enum { F = 60, M = 100, L = 40 };
	double *y = malloc(M * L * sizeof(*y));
	struct pv_cp_series s[M];
	struct pv_err err;
	uint64_t seed = 5;
	int alarms = 0;

	(void)state;
	for (int f = 0; f < F; f++) {
		size_t ncp = 0;

		memset(s, 0, sizeof(s));
		for (int m = 0; m < M; m++) {
			double dir = xorshift64(&seed) & 1 ? 1 : -1;

			for (int i = 0; i < L; i++)
				y[m * L + i] = log1p(dir * 0.0005 * i) + 0.01 * gauss(&seed);
			s[m].y = y + m * L;
			s[m].L = L;
		}
		assert_int_equal(pv_cp_family(s, M, 0.05, &err), 0);
		for (int m = 0; m < M; m++) {
			ncp += s[m].ncp;
			pv_cp_series_release(&s[m]);
		}
		alarms += ncp > 0;
	}
	print_message("weak drift: %d of %d families with a change point\n", alarms, F);
	assert_true(alarms <= 2);
	free(y);
}

/*
 * Scores a family in which the first c of m series took two steps, at
 * at[i][0] and at[i][1]: a change point within one point of either is
 * found, any other is counted in *other.  Releases the series.
 */
static void score_two_steps(struct pv_cp_series *s, int m, int c,
			    int (*at)[2], size_t *found, size_t *steps,
			    size_t *other)
{
	for (int i = 0; i < m; i++) {
		for (size_t k = 0; k < s[i].ncp; k++) {
			long x = (long)s[i].cp[k].index;
			int hit = i < c && (labs(x - at[i][0]) <= 1 ||
					    labs(x - at[i][1]) <= 1);

			*found += hit;
			*other += !hit;
		}
		*steps += i < c ? 2 : 0;
		pv_cp_series_release(&s[i]);
	}
}

/*
 * Steps in a family that does not drift stay steps: with 3% noise at one
 * run a point, two +-10% steps a series were often fitted as a line
 * through them (the line's start, tried for slow drifts, cost 0.05-0.08
 * of cpsim's recall there).  The line is tried only when most of the
 * family's series slope within their segments (a sign test).
 */
static void test_steps_not_line(void **state)
{
	enum { F = 20, M = 100, L = 40, C = 10 };
	double *y = malloc(M * L * sizeof(*y));
	struct pv_cp_series s[M];
	struct pv_err err;
	uint64_t seed = 17;
	size_t found = 0, steps = 0, other = 0;

	(void)state;
	for (int f = 0; f < F; f++) {
		int at[C][2];

		memset(s, 0, sizeof(s));
		for (int m = 0; m < M; m++) {
			double d1 = 0, d2 = 0;

			if (m < C) {
				at[m][0] = 5 + (int)(xorshift64(&seed) % 14);
				at[m][1] = at[m][0] + 5 + (int)(xorshift64(&seed) % 14);
				d1 = xorshift64(&seed) & 1 ? log(1.1) : -log(1.1);
				d2 = xorshift64(&seed) & 1 ? log(1.1) : -log(1.1);
			}
			for (int i = 0; i < L; i++)
				y[m * L + i] = 0.03 * gauss(&seed) +
					       (m < C && i >= at[m][0] ? d1 : 0) +
					       (m < C && i >= at[m][1] ? d2 : 0);
			s[m].y = y + m * L;
			s[m].L = L;
		}
		assert_int_equal(pv_cp_family(s, M, 0.05, &err), 0);
		score_two_steps(s, M, C, at, &found, &steps, &other);
	}
	print_message("steps not line: %zu of %zu steps found, %zu other\n",
		      found, steps, other);
	assert_true(found >= 75 * steps / 100);     /* 69% before */
	assert_true(other <= steps / 20);
	free(y);
}

/*
 * A slow drift is not a staircase, even where other series stepped.
 * cpsim's drift:0.01:0.001 at shift 0.1: every series drifts 0.1% a point
 * (up or down) under 1% noise, and 10 of 100 take two +-10% steps.  The
 * commits they stepped at are candidates for the other 90 (step 2b);
 * tested without the slope, which a step at a candidate absorbed, a
 * drift's halves differ, and each candidate cut the series once more:
 * 368 false change points per 1,000 series before.  The candidates'
 * steps stand only where they explain the series better than the slope
 * (staircase_wins()), and, the family drifting, where they differ net of
 * the slope too (steps_seen()): at 40 points 81 false change points in
 * 1,500 series before that, 22 now; at 20 points (steps 5 points from
 * an end and 4 apart, 0.6% noise: three runs a point) 245 before, 20
 * now.
 */
static void drift_family(int L, int gap, double sd, uint64_t seed,
			 size_t *found, size_t *steps, size_t *other)
{
	enum { F = 15, M = 100, C = 10 };
	double *y = malloc(M * (size_t)L * sizeof(*y));
	struct pv_cp_series s[M];
	struct pv_err err;

	for (int f = 0; f < F; f++) {
		int at[C][2];

		memset(s, 0, sizeof(s));
		for (int m = 0; m < M; m++) {
			double dir = xorshift64(&seed) & 1 ? 1 : -1;
			double d1 = 0, d2 = 0;

			if (m < C) {
				at[m][0] = 5 + (int)(xorshift64(&seed) % gap);
				at[m][1] = at[m][0] + 5 + (int)(xorshift64(&seed) % gap);
				d1 = xorshift64(&seed) & 1 ? log(1.1) : log(0.9);
				d2 = xorshift64(&seed) & 1 ? log(1.1) : log(0.9);
			}
			for (int i = 0; i < L; i++)
				y[m * L + i] = log1p(dir * 0.001 * i) +
					       log1p(sd * gauss(&seed)) +
					       (m < C && i >= at[m][0] ? d1 : 0) +
					       (m < C && i >= at[m][1] ? d2 : 0);
			s[m].y = y + m * L;
			s[m].L = (size_t)L;
		}
		assert_int_equal(pv_cp_family(s, M, 0.05, &err), 0);
		score_two_steps(s, M, C, at, found, steps, other);
	}
	free(y);
}

static void test_drift_not_staircase(void **state)
{
	size_t found = 0, steps = 0, other = 0;

	(void)state;
	drift_family(40, 13, 0.01, 31, &found, &steps, &other);
	print_message("drift not staircase: %zu of %zu steps found, %zu other "
		      "in 1500 series\n", found, steps, other);
	assert_true(found >= 97 * steps / 100);
	assert_true(other <= 45);
	found = steps = other = 0;
	drift_family(20, 4, 0.01 / sqrt(3), 37, &found, &steps, &other);
	print_message("... at 20 points: %zu of %zu steps found, %zu other\n",
		      found, steps, other);
	assert_true(found >= 97 * steps / 100);
	assert_true(other <= 45);
}

/*
 * A short archive's bump is a bump: 20 points of 3% noise at one run,
 * 10 of 100 series with a +-10% level of 6-9 points in the middle.  Net
 * of a slope within the segments (with its error), such a level's edges
 * are weak, and the refinement took them for a slope the series did not
 * have: 9 of 80 bumps found before (both edges within a point), 73 now.
 * The trend's test now needs a trend.
 */
static void test_short_bump_not_slope(void **state)
{
	enum { F = 8, M = 100, L = 20, C = 10 };
	double y[M * L];
	struct pv_cp_series s[M];
	struct pv_err err;
	uint64_t seed = 2026;
	size_t found = 0, other = 0;

	(void)state;
	for (int f = 0; f < F; f++) {
		int at[C], len[C];

		memset(s, 0, sizeof(s));
		for (int m = 0; m < M; m++) {
			double d = 0;

			if (m < C) {
				len[m] = 6 + (int)(xorshift64(&seed) % 4);
				at[m] = 5 + (int)(xorshift64(&seed) % (unsigned)(11 - len[m]));
				d = xorshift64(&seed) & 1 ? log(1.1) : log(0.9);
			}
			for (int i = 0; i < L; i++)
				y[m * L + i] = log1p(0.03 * gauss(&seed)) +
					       (m < C && i >= at[m] && i < at[m] + len[m] ? d : 0);
			s[m].y = y + m * L;
			s[m].L = L;
		}
		assert_int_equal(pv_cp_family(s, M, 0.05, &err), 0);
		for (int m = 0; m < M; m++) {
			int hit0 = 0, hit1 = 0;

			for (size_t k = 0; k < s[m].ncp; k++) {
				long i = (long)s[m].cp[k].index;

				if (m < C && labs(i - at[m]) <= 1)
					hit0 = 1;
				else if (m < C && labs(i - at[m] - len[m]) <= 1)
					hit1 = 1;
				else
					other++;
			}
			found += hit0 && hit1;
			pv_cp_series_release(&s[m]);
		}
	}
	print_message("short bumps: %zu of %d found, %zu other change points\n",
		      found, F * C, other);
	assert_true(found >= 56);      /* 70% */
	assert_true(other <= 8);
}

/*
 * A short level is not "noisy neighbours" because its own points are
 * gross: a 3-point +50% bump in 5% noise among series with two 2x spikes
 * each (replicache's `read tx` at 32-34, and tenant-shard-db's 3-point
 * dip): the chance of its gross points is taken at the rate of the
 * series' other points, at the split level the refinement tests its
 * splits at.  Two isolated spikes a series stay spikes.
 */
static void test_bump_not_neighbours(void **state)
{
	enum { M = 15, L = 100 };
	double *y = malloc(M * L * sizeof(*y));
	struct pv_cp_series s[M];
	struct pv_err err;
	uint64_t seed = 23;
	size_t other = 0;

	(void)state;
	memset(s, 0, sizeof(s));
	for (int m = 0; m < M; m++) {
		for (int i = 0; i < L; i++)
			y[m * L + i] = 0.05 * gauss(&seed);
		y[m * L + 10 + (int)(xorshift64(&seed) % 30)] += log(2.0);
		y[m * L + 50 + (int)(xorshift64(&seed) % 40)] -= log(2.0);
		s[m].y = y + m * L;
		s[m].L = L;
	}
	for (int i = 32; i < 35; i++)
		y[i] += log(1.5);
	assert_int_equal(pv_cp_family(s, M, 0.05, &err), 0);
	assert_int_equal(s[0].ncp, 2);
	assert_int_equal(s[0].cp[0].index, 32);
	assert_int_equal(s[0].cp[1].index, 35);
	for (int m = 1; m < M; m++)
		other += s[m].ncp;
	assert_int_equal(other, 0);
	for (int m = 0; m < M; m++)
		pv_cp_series_release(&s[m]);
	free(y);
}

/* Families with no step: F of M = 100 series of L points from point();
 * how many families had a change point, and how many in all. */
static void null_families(double (*point)(uint64_t *), int F, int L,
			  uint64_t seed, size_t *families, size_t *all)
{
	enum { M = 100 };
	double *y = malloc(M * (size_t)L * sizeof(*y));
	struct pv_cp_series s[M];
	struct pv_err err;

	*families = *all = 0;
	for (int f = 0; f < F; f++) {
		size_t here = 0;

		memset(s, 0, sizeof(s));
		for (int m = 0; m < M; m++) {
			for (int i = 0; i < L; i++)
				y[m * L + i] = point(&seed);
			s[m].y = y + m * L;
			s[m].L = (size_t)L;
		}
		assert_int_equal(pv_cp_family(s, M, 0.05, &err), 0);
		for (int m = 0; m < M; m++) {
			here += s[m].ncp;
			pv_cp_series_release(&s[m]);
		}
		*families += here > 0;
		*all += here;
	}
	free(y);
}

static double outlier_point(uint64_t *seed)
{
	double v = log1p(0.01 * gauss(seed));

	return v + (xorshift64(seed) % 20 == 0 ? log(1.5) : 0);
}

/*
 * cpsim's outliers at one run a point and 20 points: 1% noise, 5% of
 * the points 1.5x, no step.  Three such points in five are a family's
 * daily event (100 series x 16 windows x 10 x 0.05^3: two a family); the
 * cluster's edges inflate the series' own robust sd (one difference of
 * 19 trimmed at 20 points), so against 6 of those sds its points were
 * not gross and the level they made was not theirs: 0.225 of cpsim's
 * families had a false change point (seed 421).  A level inside the
 * series is judged against the scale with a quarter of the differences
 * trimmed as well (changepoint.h, step 2).
 */
static void test_outlier_clusters_short(void **state)
{
	size_t families, all;

	(void)state;
	null_families(outlier_point, 20, 20, 41, &families, &all);
	print_message("outlier clusters: %zu of 20 families with a change "
		      "point, %zu in all\n", families, all);
	assert_true(families <= 2);
}

/*
 * Two CPU frequencies, 20 points: cpsim's bimodal:0.02 at three runs a
 * point, each point the median of runs at 1 - 2% or 1 + 2% (0.2%
 * jitter), no step.  A series whose points changed mode a few times only
 * has a scale of its jitter once its lone points of the other mode go
 * as gross (step 1's find scale), and those points going made its runs
 * a clean step: 0.125 of cpsim's families had a false change point at
 * seed 421.  The gross points' going may not make a series quieter than
 * its family (its moderated sd, up to its own first scale) by more than
 * PV_CP_FLOOR_K.
 */
static double mode_run(uint64_t *seed)
{
	double r[3];

	for (int k = 0; k < 3; k++)
		r[k] = (xorshift64(seed) & 1 ? 1.02 : 0.98) *
		       (1 + 0.002 * gauss(seed));
	return log(r[0] > r[1] ?
		   (r[1] > r[2] ? r[1] : r[0] > r[2] ? r[2] : r[0]) :
		   (r[0] > r[2] ? r[0] : r[1] > r[2] ? r[2] : r[1]));
}

static void test_two_modes_short(void **state)
{
	size_t families, all;

	(void)state;
	null_families(mode_run, 40, 20, 43, &families, &all);
	print_message("two modes: %zu of 40 families with a change point, "
		      "%zu in all\n", families, all);
	assert_true(families <= 2);
}

/*
 * A commit that moved two metrics is where a person looks in the others
 * (step 2b).  30 families of 50 series of 40 points, 2% noise: series 0
 * and 1 step +30% at point 20 (step 2 finds them), series 2-10 +2.5%
 * there (a t of about 3.6: step 2's level, alpha over 1,700 split
 * positions, finds 21 of 270), the other 39 nothing.  Tested at point 20
 * alone, at alpha over the 50 series, most of the small steps are found
 * (those step 2 fitted as a slope too); the 39 series with no step have
 * at most alpha's share of false ones.  A step of one series alone
 * makes no candidate (PV_CP_CAND_SUPPORT).
 */
static size_t commit_family(int strong, uint64_t *seed, size_t *other,
			    size_t *nulls)
{
	enum { M = 50, L = 40, W = 10 };
	double *y = malloc(M * L * sizeof(*y));
	struct pv_cp_series s[M];
	struct pv_err err;
	size_t found = 0;

	memset(s, 0, sizeof(s));
	for (int m = 0; m < M; m++) {
		double d = m < strong ? log(1.30) : m >= 2 && m <= W ? log(1.025) : 0;

		for (int i = 0; i < L; i++)
			y[m * L + i] = 0.02 * gauss(seed) + d * (i >= 20);
		s[m].y = y + m * L;
		s[m].L = L;
	}
	assert_int_equal(pv_cp_family(s, M, 0.05, &err), 0);
	for (int m = 0; m < M; m++) {
		for (size_t k = 0; k < s[m].ncp; k++) {
			size_t i = s[m].cp[k].index;

			if (m > W)
				++*nulls;
			else if (i + 1 >= 20 && i <= 21)
				found += m > 1;
			else
				++*other;
		}
		pv_cp_series_release(&s[m]);
	}
	free(y);
	return found;
}

static void test_commit_candidates(void **state)
{
	enum { F = 30 };
	uint64_t seed = 7070;
	size_t found = 0, other = 0, nulls = 0;

	(void)state;
	for (int f = 0; f < F; f++)
		found += commit_family(2, &seed, &other, &nulls);
	/* before step 2b: 21 found, 8 misplaced; 161 and 8 before step 2
	 * kept a step net of a slope the segments did not have
	 * (PV_CP_SLOPE_SEEN), which finds more of the small steps itself,
	 * often 2-5 points off: moved to the commit in their location
	 * interval (snap_to_candidates()), 170 and 16, the rest outside it */
	print_message("candidates: %zu of %d small steps, %zu misplaced, "
		      "%zu in series with none\n", found, F * 9, other, nulls);
	assert_true(found >= 165);
	assert_true(other <= 20);
	assert_true(nulls <= 3);
}

/* A gross spike is replaced by the median of it and its four nearest
 * neighbours, a milder one pulled back to 3 robust sds; a step is left
 * alone once its last three points show it, and clipped before. */
static void test_clip(void **state)
{
	enum { L = 40 };
	double y[L], out[L], sd, w[5];
	uint64_t seed = 42;
	size_t n;

	(void)state;
	for (int i = 0; i < L; i++)
		y[i] = 0.01 * gauss(&seed);
	y[15] = 1.0;                    /* gross spike: 100 sds */
	for (int i = L - 3; i < L; i++)
		y[i] += 0.5;            /* a step at the end, three points */
	n = pv_cp_clip(y, L, out, &sd);
	assert_int_equal(n, 1);
	for (int k = 0; k < 5; k++)
		w[k] = y[13 + k];
	gsl_sort(w, 1, 5);
	assert_near(out[15], w[2], 0);
	for (int i = L - 3; i < L; i++)
		assert_near(out[i], y[i], 0);
	assert_near(sd, 0.01, 0.004);
	/* A mild spike (4 sds above all its neighbours) is clamped. */
	seed = 42;
	for (int i = 0; i < L; i++)
		y[i] = 0.01 * gauss(&seed);
	for (int k = 13; k <= 17; k++)
		y[k] = 0.04 - 0.001 * (k - 15) * (k - 15);
	y[15] = 0.039 + 0.055;  /* the median of the five is 0.039 */
	n = pv_cp_clip(y, L, out, &sd);
	assert_true(sd > 0.055 / PV_CP_GROSS && sd < 0.055 / PV_CP_CLIP);
	assert_near(out[15], 0.039 + PV_CP_CLIP * sd, 1e-15);
	/* Two points of a new level are not yet one: both clipped. */
	y[L - 3] -= 0.5;
	n = pv_cp_clip(y, L, out, &sd);
	assert_true(out[L - 1] < 0.1 && out[L - 2] < 0.1);
}

/* A family of 50 noisy series: a +10% step (10 sds) at point 20 of one
 * series, and a -10% step confirmed by the last three points of another,
 * are found where they are; nothing else is. */
static void test_family(void **state)
{
	enum { M = 50, L = 40 };
	double *y = malloc(M * L * sizeof(*y));
	struct pv_cp_series s[M];
	struct pv_err err;
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	size_t total = 0;

	(void)state;
	memset(s, 0, sizeof(s));
	for (int m = 0; m < M; m++) {
		for (int i = 0; i < L; i++)
			y[m * L + i] = 0.01 * gauss(&seed);
		s[m].y = y + m * L;
		s[m].L = L;
		s[m].alone = 0;
	}
	for (int i = 20; i < L; i++)
		y[0 * L + i] += log(1.10);
	for (int i = L - 3; i < L; i++)
		y[1 * L + i] += log(0.90);
	assert_int_equal(pv_cp_family(s, M, 0.05, &err), 0);
	for (int m = 0; m < M; m++)
		total += s[m].ncp;
	assert_int_equal(total, 2);
	assert_int_equal(s[0].ncp, 1);
	assert_int_equal(s[0].cp[0].index, 20);
	assert_true(s[0].cp[0].index_low <= 20 && s[0].cp[0].index_high >= 20);
	assert_near(s[0].cp[0].delta, log(1.10), 0.01);
	assert_true(s[0].cp[0].delta_low < log(1.10) && s[0].cp[0].delta_high > log(1.10));
	assert_true(s[0].cp[0].q <= 0.05);
	assert_near(s[0].cp[0].q, s[0].cp[0].p * M * pv_cp_positions(L), 1e-12 + 1e-9 * s[0].cp[0].q);
	assert_int_equal(s[1].ncp, 1);
	assert_int_equal(s[1].cp[0].index, L - 3);
	assert_true(s[1].cp[0].delta < 0);
	/* The moderated sd is near the truth. */
	assert_near(s[5].sd, 0.01, 0.002);
	for (int m = 0; m < M; m++)
		pv_cp_series_release(&s[m]);
	free(y);
}

/*
 * Noisy neighbours at one run a point (cpsim's outliers:0.01:0.05:1.5 at
 * n = 1): 100 series of 40 points, 1% noise, 5% of the points 1.5x, no
 * shift.  Three 1.5x points close together (6, 7, 8; 31, 33, 34; the
 * first three; the last three) are what a 5% rate gives a family of
 * 4,000 points, not levels: no change point.  The scale is the clean
 * points' but in series with a sixth of their points wild (before, each
 * outlier's two wild differences made it 6-15% in most series), and a +10% step among
 * the outliers is still found.
 */
static void test_noisy_neighbours(void **state)
{
	enum { M = 100, L = 40 };
	double *y = malloc(M * L * sizeof(*y));
	struct pv_cp_series s[M];
	struct pv_err err;
	uint64_t seed = 0x2545f4914f6cdd1dULL;
	size_t total = 0, big = 0;
	static const int planted[][5] = {
		{ 6, 7, 8, 19, 22 }, { 31, 33, 34, 4, 4 }, { 0, 1, 2, 24, 34 },
		{ 10, 11, 12, 35, 35 }, { 37, 38, 39, 9, 9 },
	};

	(void)state;
	memset(s, 0, sizeof(s));
	for (int m = 0; m < M; m++) {
		for (int i = 0; i < L; i++) {
			y[m * L + i] = 0.01 * gauss(&seed);
			if (xorshift64(&seed) % 20 == 0)
				y[m * L + i] += log(1.5);
		}
		s[m].y = y + m * L;
		s[m].L = L;
	}
	for (int m = 0; m < 5; m++) {
		for (int i = 0; i < L; i++)
			y[m * L + i] = 0.01 * gauss(&seed);
		for (int k = 0; k < 5; k++)
			y[m * L + planted[m][k]] = log(1.5) + 0.01 * gauss(&seed);
	}
	for (int i = 20; i < L; i++)
		y[5 * L + i] += log(1.10);
	assert_int_equal(pv_cp_family(s, M, 0.05, &err), 0);
	for (int m = 0; m < M; m++) {
		if (m != 5)
			total += s[m].ncp;
		big += s[m].robust_sd > 0.015;
	}
	assert_int_equal(total, 0);
	/* main had 56 of 100 above 1.5%, and 8 change points */
	assert_true(big <= 10);
	assert_int_equal(s[5].ncp, 1);
	assert_true(s[5].cp[0].index >= 19 && s[5].cp[0].index <= 21);
	for (int m = 0; m < M; m++)
		pv_cp_series_release(&s[m]);
	free(y);
}

/* A family of 50 noisy series (sd 1%): a line of +0.2% a point (8% over
 * the history, t about 15) gives no change point and a significant
 * slope near the truth; a +10% step at point 20 gives its change point
 * and no significant trend; the slow drift of cpsim's null cell
 * (0.005% a point) neither. */
static void test_trend(void **state)
{
	enum { M = 50, L = 40 };
	double *y = malloc(M * L * sizeof(*y));
	struct pv_cp_series s[M];
	struct pv_err err;
	uint64_t seed = 0x2545f4914f6cdd1dULL;

	(void)state;
	memset(s, 0, sizeof(s));
	for (int m = 0; m < M; m++) {
		for (int i = 0; i < L; i++)
			y[m * L + i] = 0.01 * gauss(&seed);
		s[m].y = y + m * L;
		s[m].L = L;
		s[m].alone = 0;
	}
	for (int i = 0; i < L; i++) {
		y[0 * L + i] += 0.002 * i;
		y[2 * L + i] += 0.00005 * i;
	}
	for (int i = 20; i < L; i++)
		y[1 * L + i] += log(1.10);
	assert_int_equal(pv_cp_family(s, M, 0.05, &err), 0);
	assert_int_equal(s[0].ncp, 0);
	assert_true(s[0].trend.significant);
	assert_true(s[0].trend.q <= 0.05);
	assert_near(s[0].trend.slope, 0.002, 3 * s[0].trend.se);
	assert_true(s[0].trend.se > 0 && s[0].trend.se < 0.0005);
	assert_near(s[0].trend.q, s[0].trend.p * M, 1e-12 + 1e-9 * s[0].trend.q);
	assert_int_equal(s[1].ncp, 1);
	assert_int_equal(s[1].cp[0].index, 20);
	assert_false(s[1].trend.significant);
	assert_false(s[1].trend.replaced);
	assert_int_equal(s[2].ncp, 0);
	assert_false(s[2].trend.significant);
	for (int m = 3; m < M; m++)
		assert_false(s[m].trend.significant && s[m].ncp);
	for (int m = 0; m < M; m++)
		pv_cp_series_release(&s[m]);
	/* No noise: a pure line has no change point and a significant
	 * slope (the clipping, with a robust sd of 0, flattens the two
	 * points at each end, so the slope is a little under the truth). */
	for (int i = 0; i < L; i++)
		y[i] = 0.001 * i;
	s[0].alone = 1;
	assert_int_equal(pv_cp_family(s, 1, 0.05, &err), 0);
	assert_int_equal(s[0].ncp, 0);
	assert_near(s[0].trend.slope, 0.001, 0.00005);
	assert_true(s[0].trend.significant);
	pv_cp_series_release(&s[0]);
	/* ... and a step with noise, alone, a change point and no trend.
	 * (A noiseless step is not tested: with a robust sd of 0 every
	 * split's t is infinite and the first is taken.) */
	seed = 7;
	for (int i = 0; i < L; i++)
		y[i] = 0.01 * gauss(&seed) + (i < 25 ? 0 : 0.1);
	assert_int_equal(pv_cp_family(s, 1, 0.05, &err), 0);
	assert_int_equal(s[0].ncp, 1);
	assert_int_equal(s[0].cp[0].index, 25);
	assert_false(s[0].trend.significant);
	assert_true(fabs(s[0].trend.slope) < 3 * s[0].trend.se);
	pv_cp_series_release(&s[0]);
	free(y);
}

/* The pooled prediction t against scipy:
 * t = (c - mean(y)) / (sd(y) * sqrt(1 + 1/5)), df 4 (one metric: no
 * prior), stats.t.sf(t, 4) and 2 * sf. */
static void test_pooled(void **state)
{
	static const double y[5] = { 0.01, -0.02, 0.005, 0.0, 0.015 };
	struct pv_pooled x = { .y = y, .K = 5, .cand = 0.08 };
	struct pv_err err;

	(void)state;
	assert_int_equal(pv_pooled_family(&x, 1, 0.05, &err), 0);
	assert_true(x.testable);
	assert_near(x.df, 4, 0);
	assert_near(x.t, 5.270751551515991, 1e-12);
	assert_near(x.p_up, 0.0031044875317313074, 1e-14);
	assert_near(x.p_two, 0.006208975063462615, 1e-14);
	assert_near(x.hi - x.delta, 2.7764451051977987 * x.se, 1e-12);
	/* One point is not a baseline. */
	x.K = 1;
	assert_int_equal(pv_pooled_family(&x, 1, 0.05, &err), 0);
	assert_false(x.testable);
}

/* Main's newest two points moved (pooled.h, the end of the archive),
 * worked by hand: one member (no prior), the six points before them of
 * mean 0 and variance 5e-5 (df 5); the newest two at 0.1 are on one
 * side, their mean beyond t(0.975, 5) = 2.5706 sd sqrt(1/2 + 1/6) and
 * they agree: an end excursion of 2, out of the level and the variance.
 * A candidate at 0.1 inherits it: p_up 1/2 (against N).  At 0.2 the p is
 * the newest level's, scipy's stats.t.sf(0.1 / (sd sqrt(1.5)), 5), larger
 * than the long-run one's (0.2 / (sd sqrt(1 + 1/6))).  Back at 0 it is
 * no change either way: p_down is the long-run test's 1/2. */
static void test_pooled_end(void **state)
{
	static const double y[8] = { 0.0, 0.01, -0.01, 0.005, -0.005, 0.0,
				     0.1, 0.1 };
	struct pv_pooled x = { .y = y, .K = 8, .cand = 0.1 };
	struct pv_err err;

	(void)state;
	assert_int_equal(pv_pooled_family(&x, 1, 0.05, &err), 0);
	assert_true(x.testable);
	assert_int_equal(x.end, 2);
	assert_int_equal(x.kept, 6);
	assert_near(x.level, 0, 1e-15);
	assert_near(x.s2, 5e-5, 1e-15);
	assert_near(x.end_level, 0.1, 1e-15);
	assert_near(x.p_up, 0.5, 1e-12);
	x.cand = 0.2;
	assert_int_equal(pv_pooled_family(&x, 1, 0.05, &err), 0);
	assert_near(x.p_up, 4.272152345746461e-05, 1e-15);
	assert_near(x.end_hi - x.end_delta, 2.5705818366147395 * x.end_se, 1e-10);
	x.cand = 0.0;
	assert_int_equal(pv_pooled_family(&x, 1, 0.05, &err), 0);
	assert_true(x.p_up > 0.99);
	assert_near(x.p_down, 0.5, 1e-12);
	/* without the newest two's move: no excursion, as before */
	x.K = 6;
	assert_int_equal(pv_pooled_family(&x, 1, 0.05, &err), 0);
	assert_int_equal(x.end, 0);
}

/* The shared point effect (pooled.h), against scipy: three members on
 * six points y_ij = mu_i + s_j + o_ij, the points' runners s = 0.02,
 * -0.01, 0, 0.03, -0.04, 0.01 shared by all, and own deviations o of
 * +-0.005 or 0, one of each at every point, summing to 0 in every member
 * with the same sum of squares.  So each point's median residual is
 * s_j - mean(s), exactly: the effect's variance over the six points is
 * numpy's var(s, ddof=1) = 0.000616666... on 5 df; the values less it
 * leave each member its o, a variance of 2e-5 for all three (the prior:
 * that on infinite df).  Candidates at mu_i + 0.06: delta 0.0583333
 * (mu_i + mean(s) is the level), se sqrt((vs + own) (1 + 1/6)), and
 * Welch and Satterthwaite's df 5 ((vs + own) / vs)^2 = 5.3296; p_up is
 * scipy's stats.t.sf(t, df) and the interval's quantile
 * stats.t.ppf(0.975, df).  As if the members' point noise were their
 * own (the prior's infinite df) p would be 0.0166. */
static void test_pooled_shared(void **state)
{
	static const double y[3][6] = {
		{ 0.025, -0.015, 0.0, 0.024999999999999998, -0.035, 0.01 },
		{ 1.02, 0.995, 0.995, 1.03, 0.955, 1.015 },
		{ 2.015, 1.99, 2.005, 2.0349999999999997, 1.96, 2.005 },
	};
	static const size_t point[6] = { 0, 1, 2, 3, 4, 5 };
	struct pv_pooled x[3];
	struct pv_err err;

	(void)state;
	memset(x, 0, sizeof(x));
	for (int i = 0; i < 3; i++) {
		x[i].y = y[i];
		x[i].K = 6;
		x[i].cand = i + 0.06;
		x[i].point = point;
	}
	assert_int_equal(pv_pooled_family(x, 3, 0.05, &err), 0);
	for (int i = 0; i < 3; i++) {
		assert_true(x[i].testable);
		assert_int_equal(x[i].end, 0);
		assert_near(x[i].delta, 0.05833333333333338, 1e-12);
		assert_near(x[i].se, 0.027253949764718025, 1e-9);
		assert_near(x[i].df, 5.32958363769175, 1e-6);
		assert_near(x[i].t, 2.1403625469673977, 1e-8);
		assert_near(x[i].p_up, 0.04093669542145784, 1e-9);
		assert_near(x[i].hi - x[i].delta,
			    2.5234964776704456 * x[i].se, 1e-8);
	}
	/* without point indexes no shared effect: the points' variance is
	 * the members' own, and p far smaller */
	for (int i = 0; i < 3; i++)
		x[i].point = NULL;
	assert_int_equal(pv_pooled_family(x, 3, 0.05, &err), 0);
	assert_true(x[0].p_up < 0.03);
}

/* Spikes in a pooled baseline (pooled.h), worked by hand (the spike is
 * the second point: the newest ones would be an end excursion): spike sd
 * 0.01, so the limit is 0.06 from each member's median (0.005 in both:
 * -0.01, 0, 0.01 and the spike).  Member 0's spike has both runs as far
 * (whole), member 1's one run (split): 2 spikes of 8 points, 1 whole,
 * and 3 runs of 16 as far.  The spikes are not the level: mean 0 and
 * sd 0.01 of the other three. */
static void test_pooled_spikes(void **state)
{
	static const double y0[4] = { 0.0, 0.5, 0.01, -0.01 };
	static const double y1[4] = { 0.0, 0.25, 0.01, -0.01 };
	static const double r0[8] = { 0, 0, 0.5, 0.5, 0.01, 0.01, -0.01, -0.01 };
	static const double r1[8] = { 0, 0, 0.5, 0.0, 0.01, 0.01, -0.01, -0.01 };
	static const size_t roff[5] = { 0, 2, 4, 6, 8 };
	static const double whole[2] = { 0.3, 0.31 }, split[2] = { 0.3, 0.0 };
	struct pv_pooled x[2] = {
		{ .y = y0, .K = 4, .cand = 0.3, .spike_sd = 0.01, .runs = r0,
		  .roff = roff, .cruns = whole, .ncruns = 2 },
		{ .y = y1, .K = 4, .cand = 0.15, .spike_sd = 0.01, .runs = r1,
		  .roff = roff, .cruns = split, .ncruns = 2 },
	};
	struct pv_err err;

	(void)state;
	assert_int_equal(pv_pooled_family(x, 2, 0.05, &err), 0);
	for (int i = 0; i < 2; i++) {
		assert_true(x[i].testable);
		assert_int_equal(x[i].kept, 3);
		assert_near(x[i].level, 0, 1e-15);
		assert_near(x[i].s2, 1e-4, 1e-15);
		assert_true(x[i].spike);
	}
	/* the t's p is far below either rate: the whole one's is the
	 * rate of whole spikes, 1 of 8; the split one (one of its two runs
	 * as far) has P(at least 1 of 2 runs) at 3/16 a run, 1 - (13/16)^2,
	 * above the rate of spikes, 2 of 8 */
	assert_near(x[0].p_up, 1.0 / 8, 0);
	assert_near(x[0].p_two, 2.0 / 8, 0);
	assert_near(x[1].p_up, 87.0 / 256, 1e-15);
	/* the other way, no floor: p_down is the t's */
	assert_true(x[0].p_down > 0.99);
	/* a candidate within the limit is tested as before */
	x[0].cand = 0.05;
	x[0].cruns = NULL;
	x[0].ncruns = 0;
	assert_int_equal(pv_pooled_family(x, 2, 0.05, &err), 0);
	assert_false(x[0].spike);
	assert_true(x[0].p_up < 0.01);
	/* no spike in the family: no floor, however far the candidate */
	x[0].y = x[1].y = (const double[]){ 0.0, 0.01, -0.01, 0.005 };
	x[0].runs = x[1].runs = NULL;
	x[0].roff = x[1].roff = NULL;
	x[0].cand = 0.3;
	assert_int_equal(pv_pooled_family(x, 2, 0.05, &err), 0);
	assert_false(x[0].spike);
	assert_int_equal(x[0].kept, 4);
	assert_true(x[0].p_up < 1e-6);
}

/* Gross runs in a family whose points hold no spike (pooled.h): six
 * points of five runs, each point's value within 0.01 of 0 (spike sd
 * 0.01, limit 0.06), and in points 1 and 3 one run at +0.4, which
 * history's point value leaves out (the run scale is about 0.01): 4 of
 * the family's 60 runs.  A candidate whose 3 runs of 5 are at +0.4 is a
 * spike, and its p is the chance of 3 or more of 5 runs that far at
 * 1/15 a run, P(Bin(5, 1/15) >= 3) (scipy: binom.sf(2, 5, 1/15)). */
static void test_pooled_gross_runs(void **state)
{
	static const double y[6] = { 0.0, 0.01, -0.01, 0.005, -0.005, 0.0 };
	static const double r[30] = {
		-0.01, -0.005, 0, 0.005, 0.01,	-0.01, 0, 0.005, 0.01, 0.4,
		-0.01, -0.005, 0, 0.005, 0.01,	-0.01, 0, 0.005, 0.01, 0.4,
		-0.01, -0.005, 0, 0.005, 0.01,	-0.01, -0.005, 0, 0.005, 0.01,
	};
	static const size_t roff[7] = { 0, 5, 10, 15, 20, 25, 30 };
	static const double cand[5] = { 0.4, 0.4, 0.4, 0.0, 0.005 };
	struct pv_pooled x[2];
	struct pv_err err;

	(void)state;
	for (int i = 0; i < 2; i++)
		x[i] = (struct pv_pooled){ .y = y, .K = 6, .cand = 0.4,
					   .spike_sd = 0.01, .runs = r,
					   .roff = roff, .cruns = cand,
					   .ncruns = 5 };
	assert_int_equal(pv_pooled_family(x, 2, 0.05, &err), 0);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(x[i].kept, 6);
		assert_true(x[i].spike);
		assert_near(x[i].p_up, 0.002674567901234568, 1e-15);
	}
	/* a candidate no further than its family's runs: no floor */
	x[0].cand = 0.03;
	x[0].cruns = NULL;
	x[0].ncruns = 0;
	assert_int_equal(pv_pooled_family(x, 2, 0.05, &err), 0);
	assert_false(x[0].spike);
}

/* A point's value and the run scale, against values worked by hand. */
static void test_point_value(void **state)
{
	const double lv[] = { 0.0, 0.1, 0.2, 1.0, 1.1, 1.3 };
	const uint32_t n[] = { 3, 3 };
	const size_t off[] = { 0, 3 };
	const double x[] = { 1.0, 1.0, 1.0, 100.0 };
	const double two[] = { 2.0, 8.0 };

	(void)state;
	/* medians 0.1 and 1.1; deviations without the medians 0.1, 0.1,
	 * 0.1, 0.2.  The MAD's sd 1.482602218505602 * 0.1; the trimmed
	 * RMS's keeps 3 of 4 (0.1 each) over E[Z^2 | |Z| < z] at f = 0.75,
	 * z = Phi^-1(0.875) (scipy: 0.3685240509835622), so sd =
	 * 0.1 / sqrt(0.3685...), the larger: tau = 5 sd (scipy) */
	assert_float_equal(pv_cp_run_tau(lv, n, off, 2, 6),
			   0.8236393479210912, 1e-14);
	{
		/* runs of two modes 0.04 apart (two CPU frequencies) with a
		 * little jitter: the MAD of the deviations is the jitter's,
		 * yet every run counts in its point's value */
		const double bi[] = { 0.0, 0.001, 0.04, 0.04, 0.041, 0.0,
				      0.001, 0.0, 0.04, 0.04, 0.0, 0.041 };
		const uint32_t bn[] = { 3, 3, 3, 3 };
		const size_t boff[] = { 0, 3, 6, 9 };
		double v[4];

		pv_cp_point_values(bi, bn, boff, 4, 12, v);
		for (size_t j = 0; j < 4; j++)
			assert_float_equal(v[j], (bi[3 * j] + bi[3 * j + 1] +
						  bi[3 * j + 2]) / 3, 1e-15);
	}
	assert_true(isinf(pv_cp_run_tau(lv, (const uint32_t[]){ 2, 2 }, off,
					2, 6)));
	/* logs 0, 0, 0, 4.61: median 0, the run of 100 is left out */
	assert_float_equal(pv_cp_point_value(x, 4, 1, 1.0), 0.0, 0);
	assert_float_equal(pv_cp_point_value(x, 4, 1, INFINITY),
			   log(100.0) / 4, 1e-15);
	assert_float_equal(pv_cp_point_value(x, 4, 0, INFINITY), 25.75, 1e-15);
	/* one or two runs: their mean, whatever tau says */
	assert_float_equal(pv_cp_point_value(two, 2, 1, 0.0), log(4.0), 1e-15);
	assert_true(isnan(pv_cp_point_value((const double[]){ -1, 2, 3 }, 3,
					    1, 1.0)));
}

/* Every point's value at once (history's path): the same scale and
 * values, worked by hand, for points of 3, 1 and 2 runs and none. */
static void test_point_values(void **state)
{
	/* point 0: 0, 0.1, 2.0 (median 0.1); point 1: 5; point 2: 1, 3 */
	const double lv[] = { 0.0, 0.1, 2.0, 5.0, 1.0, 3.0 };
	const uint32_t n[] = { 3, 1, 2, 0 };
	const size_t off[] = { 0, 3, 4, 6 };
	double v[4];
	double tau;

	(void)state;
	/* one point of 3 runs: deviations 0.1 and 1.9 (the median left
	 * out), their median 1.0: tau = 5 * 1.482602218505602 * 1.0 */
	tau = pv_cp_point_values(lv, n, off, 4, 6, v);
	assert_float_equal(tau, 7.413011092528010, 1e-14);
	assert_float_equal(v[0], 2.1 / 3, 1e-15);   /* all within tau */
	assert_float_equal(v[1], 5.0, 0);
	assert_float_equal(v[2], 2.0, 0);
	assert_true(isnan(v[3]));
	/* a third run far out: deviations 0.1 and 8.9, their median 4.5,
	 * so tau = 33.4 keeps it */
	{
		const double far[] = { 0.0, 0.1, 9.0, 5.0, 1.0, 3.0 };

		tau = pv_cp_point_values(far, n, off, 4, 6, v);
		assert_float_equal(tau, 5 * 1.482602218505602 * 4.5, 1e-13);
		assert_float_equal(v[0], 9.1 / 3, 1e-15);
	}
	/* and one beyond tau is left out: 1, 1.1 and 9 at tau 1 */
	assert_float_equal(pv_cp_point_value((const double[]){ 1, 1.1, 9 },
					     3, 0, 1.0), 1.05, 1e-15);
}

/* Constant levels (issue 22, pattern 4): 0 -> 1 (alone, a linear
 * series) and 100 -> 200 (logs), no noise at all: one change point each,
 * at the first point of the new level, with a finite, huge t; equal
 * levels none.  The short series (6 points, the minimum of two segments)
 * included. */
static void test_constant_levels(void **state)
{
	double a[12], b[12], c[6], e[12];
	struct pv_cp_series s[4];
	struct pv_err err;

	(void)state;
	for (int i = 0; i < 12; i++) {
		a[i] = i < 7 ? 0 : 1;
		b[i] = log(i < 4 ? 100.0 : 200.0);
		e[i] = log(50.0);
	}
	for (int i = 0; i < 6; i++)
		c[i] = log(i < 3 ? 10.0 : 12.0);
	s[0] = (struct pv_cp_series){ .y = a, .L = 12, .alone = 1 };
	s[1] = (struct pv_cp_series){ .y = b, .L = 12, .alone = 0 };
	s[2] = (struct pv_cp_series){ .y = c, .L = 6, .alone = 0 };
	s[3] = (struct pv_cp_series){ .y = e, .L = 12, .alone = 0 };
	assert_int_equal(pv_cp_family(s, 4, 0.05, &err), 0);
	assert_int_equal(s[0].ncp, 1);
	assert_int_equal(s[0].cp[0].index, 7);
	assert_near(s[0].cp[0].delta, 1, 1e-12);
	assert_true(isfinite(s[0].cp[0].t) && s[0].cp[0].t > 1e6);
	assert_int_equal(s[1].ncp, 1);
	assert_int_equal(s[1].cp[0].index, 4);
	assert_near(s[1].cp[0].delta, log(2.0), 1e-12);
	assert_int_equal(s[2].ncp, 1);
	assert_int_equal(s[2].cp[0].index, 3);
	assert_int_equal(s[3].ncp, 0);
	for (int m = 0; m < 4; m++)
		pv_cp_series_release(&s[m]);
}


/*
 * A series' own alpha (its [metric] rule's) and ungated series (policy,
 * issue 20): a +3% step in 1% noise (q about 1e-17 over the family) is
 * a change point at the family's 0.05, none at its own 1e-30; a series
 * without direction is not counted in the Bonferroni counts (the others'
 * q is p times 9/10 of the positions), as compare corrects over the
 * gated metrics only.
 */
static void test_own_alpha(void **state)
{
	enum { M = 10, L = 40 };
	double *y = malloc(M * L * sizeof(*y));
	struct pv_cp_series s[M];
	struct pv_err err;
	uint64_t seed = 11;
	double q_all, p_all;

	(void)state;
	memset(s, 0, sizeof(s));
	for (int m = 0; m < M; m++) {
		for (int i = 0; i < L; i++)
			y[m * L + i] = 0.01 * gauss(&seed) +
				       (m == 1 && i >= 20 ? log(1.03) : 0);
		s[m].y = y + m * L;
		s[m].L = L;
	}
	assert_int_equal(pv_cp_family(s, M, 0.05, &err), 0);
	assert_int_equal(s[1].ncp, 1);
	assert_int_equal(s[1].cp[0].index, 20);
	assert_true(s[1].cp[0].q < 1e-6 && s[1].cp[0].q > 1e-29);
	q_all = s[1].cp[0].q;
	p_all = s[1].cp[0].p;
	for (int m = 0; m < M; m++)
		pv_cp_series_release(&s[m]);
	s[1].alpha = 1e-30;
	assert_int_equal(pv_cp_family(s, M, 0.05, &err), 0);
	assert_int_equal(s[1].ncp, 0);
	for (int m = 0; m < M; m++)
		pv_cp_series_release(&s[m]);
	s[1].alpha = 0;
	s[5].ungated = 1;
	assert_int_equal(pv_cp_family(s, M, 0.05, &err), 0);
	assert_int_equal(s[1].ncp, 1);
	assert_near(s[1].cp[0].p, p_all, 1e-12 * p_all);
	assert_near(s[1].cp[0].q, q_all * 0.9, 1e-9 * q_all);
	for (int m = 0; m < M; m++)
		pv_cp_series_release(&s[m]);
	free(y);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_point_value),
		cmocka_unit_test(test_point_values),
		cmocka_unit_test(test_clip),
		cmocka_unit_test(test_family),
		cmocka_unit_test(test_noisy_neighbours),
		cmocka_unit_test(test_trend),
		cmocka_unit_test(test_pooled),
		cmocka_unit_test(test_pooled_spikes),
		cmocka_unit_test(test_pooled_gross_runs),
		cmocka_unit_test(test_pooled_end),
		cmocka_unit_test(test_pooled_shared),
		cmocka_unit_test(test_constant_levels),
		cmocka_unit_test(test_own_alpha),
		cmocka_unit_test(test_shared_effect),
		cmocka_unit_test(test_shared_short_levels),
		cmocka_unit_test(test_short_bump),
		cmocka_unit_test(test_weak_drift),
		cmocka_unit_test(test_steps_not_line),
		cmocka_unit_test(test_bump_not_neighbours),
		cmocka_unit_test(test_outlier_clusters_short),
		cmocka_unit_test(test_two_modes_short),
		cmocka_unit_test(test_no_shared_effect),
		cmocka_unit_test(test_shared_slow_runners),
		cmocka_unit_test(test_shared_missed_level),
		cmocka_unit_test(test_wild_cluster),
		cmocka_unit_test(test_cluster_no_slope),
		cmocka_unit_test(test_commit_candidates),
		cmocka_unit_test(test_drift_not_staircase),
		cmocka_unit_test(test_short_bump_not_slope),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
