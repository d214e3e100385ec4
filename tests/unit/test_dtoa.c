/*
 * test_dtoa.c - util/dtoa.c: known hard cases, then millions of random
 * doubles checked against glibc, which is exact but slow: strtod reads
 * every output back bit for bit, and "%.*e" (correctly rounded) gives
 * the shortest digit count and the nearest digits independently.
 */
#include "unit.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/dtoa.h"

static const char *fmt(double v)
{
	static char buf[PV_DTOA_BUFSIZE];

	pv_format_double(v, buf);
	return buf;
}

static double bits(uint64_t b)
{
	double v;

	memcpy(&v, &b, sizeof(v));
	return v;
}

static void test_hard_cases(void **state)
{
	/* Expected strings are Python's repr() (shortest, nearest) in
	 * ECMAScript's layout. */
	static const struct { double v; const char *s; } cases[] = {
		{ 0.05, "0.05" },
		{ 0.1 + 0.2, "0.30000000000000004" },
		{ 2.0 / 3, "0.6666666666666666" },
		{ 5e-324, "5e-324" },                   /* 2^-1074 */
		{ 1e-323, "1e-323" },                   /* 2^-1073 */
		{ DBL_MAX, "1.7976931348623157e+308" },
		{ 1.7976931348623155e308, "1.7976931348623155e+308" },
		{ DBL_MIN, "2.2250738585072014e-308" },
		{ 2.225073858507201e-308, "2.225073858507201e-308" },
		{ 3.337610787760802e-308, "3.337610787760802e-308" },
		{ 1.7800590868057611e-307, "1.7800590868057611e-307" },
		{ 9.332636185032189e-302, "9.332636185032189e-302" },
		{ 8.98846567431158e307, "8.98846567431158e+307" }, /* 2^1023 */
		{ 9.9792015476736e291, "9.9792015476736e+291" },   /* 2^970 */
		{ 1.2379400392853803e27, "1.2379400392853803e+27" },
		{ 9.313225746154785e-10, "9.313225746154785e-10" }, /* 2^-30 */
		{ 5.684341886080802e-14, "5.684341886080802e-14" }, /* 2^-44 */
		{ 1e21, "1e+21" },
		{ 1e23, "1e+23" },
		{ 8.41e21, "8.41e+21" },
		{ 1.8531501765868567e21, "1.8531501765868567e+21" },
		{ 123456789012345680000.0, "123456789012345680000.0" },
		{ 2.0919495182368195e19, "20919495182368195000.0" },
		{ 9223372036854775808.0, "9223372036854776000.0" }, /* 2^63 */
		{ 9007199254740992.0, "9007199254740992.0" },       /* 2^53 */
		{ 9007199254740994.0, "9007199254740994.0" },
		{ 1e15, "1000000000000000.0" },
		{ 172486248.0, "172486248.0" },
		{ 1e-6, "0.000001" },
		{ 1.5e-6, "0.0000015" },
		{ 1e-7, "1e-7" },
		{ 5e-7, "5e-7" },
		{ 1.5e-8, "1.5e-8" },
		{ 2.5e-5, "0.000025" },
		{ -2.5e300, "-2.5e+300" },
		{ 1e100, "1e+100" },
		{ 1.0, "1.0" },
		{ -1.5, "-1.5" },
		{ 0.0, "0.0" },
		{ -0.0, "-0.0" },
	};
	char d[17];
	int e, n;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(fmt(cases[i].v), cases[i].s);
	assert_string_equal(fmt(bits(UINT64_C(0x7ff0000000000000))), "null");
	assert_string_equal(fmt(-INFINITY), "null");
	assert_string_equal(fmt(NAN), "null");

	n = pv_dtoa_shortest(1234.5, d, &e);
	assert_int_equal(n, 5);
	assert_memory_equal(d, "12345", 5);
	assert_int_equal(e, 4);
	n = pv_dtoa_shortest(-0.001, d, &e);
	assert_int_equal(n, 1);
	assert_int_equal(d[0], '1');
	assert_int_equal(e, -2);
	n = pv_dtoa_shortest(0.0, d, &e);
	assert_int_equal(n, 1);
	assert_int_equal(d[0], '0');
	assert_int_equal(e, 1);
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void)
{
	return xorshift64(&rng);
}

static int same(double a, double b)
{
	return !memcmp(&a, &b, sizeof(a));
}

static long boundary;  /* shorter than any correctly rounded form */

/*
 * One value: the text reads back to v, is a JSON real, and its digit
 * count n is printf's minimum.  Correctly rounding to more digits never
 * moves further from v, so that minimum is n exactly when P = n reads
 * back and P = n - 1 does not; then the digits must be printf's too.
 * When P = n does not read back, our n digits are not v rounded but
 * still inside its rounding interval: legal, and counted.  0 when good.
 */
static int check(double v)
{
	char buf[PV_DTOA_BUFSIZE], pf[40], d[17], *dot;
	int n, e, x;

	pv_format_double(v, buf);
	if (!same(strtod(buf, NULL), v) || !strpbrk(buf, ".e") ||
	    strlen(buf) >= sizeof(buf))
		goto bad;
	n = pv_dtoa_shortest(v, d, &e);
	if (n > 1) {
		snprintf(pf, sizeof(pf), "%.*e", n - 2, v);
		if (same(strtod(pf, NULL), v))
			goto bad;       /* printf found something shorter */
	}
	/* "-d.ddde-x": the same digits and exponent read back like ours,
	 * so only a difference needs strtod. */
	snprintf(pf, sizeof(pf), "%.*e", n - 1, v);
	dot = pf + (pf[0] == '-');
	x = atoi(strchr(pf, 'e') + 1);
	if (dot[0] == d[0] && x == e - 1 &&
	    (n == 1 || !memcmp(dot + 2, d + 1, (size_t)n - 1)))
		return 0;
	if (same(strtod(pf, NULL), v))
		goto bad;
	boundary++;
	return 0;
bad:
	print_error("%a: printed '%s', printf says '%s'\n", v, buf, pf);
	return 1;
}

/* Every bit pattern is as likely: all exponents, subnormals included. */
static void test_random_bits(void **state)
{
	long bad = 0;

	(void)state;
	for (int i = 0; i < 1000000; i++) {
		double v = bits(next());

		if (!isfinite(v)) {
			i--;
			continue;
		}
		bad += check(v);
	}
	assert_int_equal(bad, 0);
}

/*
 * What reports mostly hold: m / 10^j with m of up to 15 digits.  strtod
 * of "m" "e-j" is exactly that division (both exact, one rounding), so
 * the output must never need more digits than m has.
 */
static void test_random_decimals(void **state)
{
	static const double p10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
		1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
		1e21, 1e22,
	};
	long bad = 0;

	(void)state;
	for (int i = 0; i < 1000000; i++) {
		uint64_t r = next();
		uint64_t m = (r >> 10) % (uint64_t)p10[1 + r % 15];
		int j = (int)((r >> 4) % 23), mdig = 0, e;
		double v = (double)m / p10[j];
		char d[17];

		for (uint64_t t = m; t; t /= 10)
			mdig++;
		while (m && m % 10 == 0) {
			m /= 10;
			mdig--;
		}
		if (r & 8)
			v = -v;
		bad += check(v);
		if (m && pv_dtoa_shortest(v, d, &e) > mdig)
			bad++;
	}
	assert_int_equal(bad, 0);
	print_message("%ld boundary cases\n", boundary);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hard_cases),
		cmocka_unit_test(test_random_bits),
		cmocka_unit_test(test_random_decimals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
