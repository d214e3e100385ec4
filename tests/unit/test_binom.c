/* test_binom.c - Wilson's interval against scipy 1.10:
 *   binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson") */
#include "unit.h"

#include "stats/binom.h"

static const struct { unsigned long k, n; double lo, hi; } ref[] = {
	{ 0, 200, 0.0, 0.018845326377266575 },
	{ 1, 200, 0.0008831687156009762, 0.02777370439789293 },
	{ 10, 200, 0.02738264560076392, 0.08957814813877599 },
	{ 200, 200, 0.9811546736227335, 1.0 },
	{ 3, 20, 0.05236874589621662, 0.3604188647407569 },
	{ 37, 1000, 0.026961180875554734, 0.05058239748206931 },
};

static void against_scipy(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(ref) / sizeof(*ref); i++) {
		double lo, hi;

		pv_wilson_interval(ref[i].k, ref[i].n, 0.95, &lo, &hi);
		assert_near(lo, ref[i].lo, 1e-12);
		assert_near(hi, ref[i].hi, 1e-12);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(against_scipy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
