/* test_excursion.c - the newest points' unconfirmed move (history's
 * watch): the t, the k chosen, the Bonferroni count, and when none. */
#include "unit.h"

#include "history/excursion.h"

/* Five points 1..5, then two at 10, sd 1, normal df: k = 1 gives
 * (10 - 25/6) / sqrt(1 + 1/6), k = 2 gives (10 - 3) / sqrt(1/2 + 1/5),
 * the larger; its two-sided normal p is erfc(t / sqrt 2). */
static void two_newest_points(void **state)
{
	const double y[] = { 1, 2, 3, 4, 5, 10, 10 };
	struct pv_cp_excursion e;
	double t = 7 / sqrt(0.5 + 0.2), p = erfc(t / sqrt(2));

	(void)state;
	pv_cp_end_excursion(y, 0, 7, 1, INFINITY, 4, 0.05, &e);
	assert_int_equal(e.k, 2);
	assert_near(e.before, 3, 1e-12);
	assert_near(e.after, 10, 1e-12);
	assert_near(e.delta, 7, 1e-12);
	assert_near(e.t, t, 1e-12);
	assert_near(e.p / p, 1, 1e-9);
	assert_near(e.q / (p * 2 * 4), 1, 1e-9);    /* 2 lengths, 4 series */
	assert_true(e.significant);
}

/* From the last change point on: the points before it are not the rest;
 * one point past a rest of 3 is the only length (a rest of 2 is too
 * short), so the count is 1 length. */
static void from_the_last_change_point(void **state)
{
	const double y[] = { 100, 100, 100, 0, 1, -1, 1.5 };
	struct pv_cp_excursion e;
	double t = 1.5 / sqrt(1 + 1.0 / 3), p = erfc(t / sqrt(2));

	(void)state;
	pv_cp_end_excursion(y, 3, 7, 1, INFINITY, 1, 0.05, &e);
	assert_int_equal(e.k, 1);
	assert_near(e.before, 0, 1e-12);
	assert_near(e.t, t, 1e-12);
	assert_near(e.q / p, 1, 1e-9);
	assert_false(e.significant);
}

/* Too short a segment, or no scale: nothing is tried. */
static void nothing_to_test(void **state)
{
	const double y[] = { 1, 2, 3, 9 };
	struct pv_cp_excursion e;

	(void)state;
	pv_cp_end_excursion(y, 1, 4, 1, INFINITY, 1, 0.05, &e);
	assert_int_equal(e.k, 0);
	assert_false(e.significant);
	pv_cp_end_excursion(y, 0, 4, 0, INFINITY, 1, 0.05, &e);
	assert_int_equal(e.k, 0);
	pv_cp_end_excursion(y, 0, 4, NAN, 10, 1, 0.05, &e);
	assert_int_equal(e.k, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_newest_points),
		cmocka_unit_test(from_the_last_change_point),
		cmocka_unit_test(nothing_to_test),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
