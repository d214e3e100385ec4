/*
 * test_num.c - pv_parse_double(): its grammar, and its values against
 * strtod() bit for bit, on hand-picked and on seeded random strings
 * (the fast path and the strtod fallback must never disagree).
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/num.h"

static void expect(const char *s, enum pv_num want)
{
	double v = 12345;
	enum pv_num st = pv_parse_double(s, strlen(s), &v);

	if (st != want)
		fail_msg("'%s': status %d, want %d", s, st, want);
	if (st == PV_NUM_OK) {
		double w = strtod(s, NULL);

		if (memcmp(&v, &w, sizeof(v)))
			fail_msg("'%s' read as %.17g, strtod says %.17g", s, v,
				 w);
	}
}

static void grammar(void **state)
{
	static const char *const ok[] = {
		"0", "-0", "+0", "1", "-1", "1.", ".5", "-.5", "+1.5", "1e5",
		"1E5", "1e+5", "1e-5", "1.5e-3", " 7", "7 ", "\t7\r\n",
		"  5339.74", "00000000000000000000000000000001", "0.000001",
		"9007199254740992", "9007199254740993", "123456789012345678",
		"1234567890123456789", "12345678901234567890", "1e22", "1e23",
		"1e-22", "1e-23", "4.9e-324", "2.2250738585072014e-308",
		"1.7976931348623157e308", "1e0000000000000000005", "1e-400",
		"0e999999999", "0.1", "0.2", "0.3", "123.456e2",
		"1e-99999999999", "5e00022", "5e000022", "5e0000022",
		"            12.5   ", "        \t   7",
	};
	static const char *const invalid[] = {
		"-", "+", ".", "-.", "e5", ".e5", "1e", "1e+", "1e-", "1..2",
		"1.2.3", "0x10", "nan", "inf", "-inf", "1,5", "12abc", "1 2",
		"- 1", "1e5.5", "1e 5", "++1", "--1", "1f", "1e5x", "\v1",
	};
	static const char *const nonfinite[] = {
		"1e309", "-1e400000", "1e99999999999", "3e303124756999",
	};
	char big[200];

	(void)state;
	expect("", PV_NUM_EMPTY);
	expect(" \t\r\n", PV_NUM_EMPTY);
	expect("                 ", PV_NUM_EMPTY);
	for (size_t i = 0; i < sizeof(ok) / sizeof(*ok); i++)
		expect(ok[i], PV_NUM_OK);
	for (size_t i = 0; i < sizeof(invalid) / sizeof(*invalid); i++)
		expect(invalid[i], PV_NUM_INVALID);
	for (size_t i = 0; i < sizeof(nonfinite) / sizeof(*nonfinite); i++)
		expect(nonfinite[i], PV_NUM_NONFINITE);

	/* 150 leading zeros: a short number after all. */
	memset(big, '0', 150);
	strcpy(big + 150, "1.25");
	expect(big, PV_NUM_OK);
	/* 150 significant digits: longer than the fallback takes. */
	memset(big, '7', 150);
	big[150] = '\0';
	expect(big, PV_NUM_INVALID);

	/* The length is the caller's: no terminator is read. */
	{
		double v = 0;

		assert_int_equal(pv_parse_double("12|34", 2, &v), PV_NUM_OK);
		assert_true(v == 12);
		assert_int_equal(pv_parse_double("1e5", 2, &v), PV_NUM_INVALID);
	}
}

/* xorshift64*: the same strings on every run. */
static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static unsigned rnd(unsigned n)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (unsigned)((rng * 0x2545f4914f6cdd1dULL) >> 33) % n;
}

static void add_digits(char *s, size_t *n, unsigned k)
{
	while (k--)
		s[(*n)++] = (char)('0' + rnd(10));
}

/* A valid number: leading zeros, 1-20 digit mantissas, fractions,
 * exponents, blanks. */
static size_t gen_valid(char *s)
{
	size_t n = 0;
	unsigned a, b;

	if (!rnd(4))    /* padding, as in tables: mostly spaces */
		for (unsigned z = rnd(13); z; z--)
			s[n++] = " \t"[rnd(8) == 0];
	if (rnd(3) == 0)
		s[n++] = "+-"[rnd(2)];
	if (!rnd(6))
		for (unsigned z = rnd(5); z; z--)
			s[n++] = '0';
	switch (rnd(4)) {
	case 0:         /* the usual: up to 15 digits */
		a = rnd(9);
		b = rnd(7);
		break;
	case 1:         /* 16-20 digits */
		b = 16 + rnd(5);
		a = rnd(b + 1);
		b -= a;
		break;
	default:
		a = rnd(12);
		b = rnd(12);
		break;
	}
	if (a + b == 0)
		a = 1;
	add_digits(s, &n, a);
	if (b || rnd(4) == 0) {
		s[n++] = '.';
		add_digits(s, &n, b);
		if (!a && !b)
			s[n++] = '0';
	}
	if (rnd(3) == 0) {
		s[n++] = "eE"[rnd(2)];
		if (rnd(2))
			s[n++] = "+-"[rnd(2)];
		if (!rnd(8))
			s[n++] = '0';
		add_digits(s, &n, 1 + rnd(3));
	}
	if (!rnd(8))
		s[n++] = " \r\n"[rnd(3)];
	s[n] = '\0';
	return n;
}

/* The grammar, spelt out: blanks, sign, digits with at least one digit
 * around an optional point, an optional exponent with digits, blanks. */
static enum pv_num ref_status(const char *s)
{
	const char *p = s, *end = s + strlen(s);
	int any = 0;

	while (p < end && strchr(" \t\r\n", *p))
		p++;
	while (end > p && strchr(" \t\r\n", end[-1]))
		end--;
	if (p == end)
		return PV_NUM_EMPTY;
	if (*p == '+' || *p == '-')
		p++;
	for (; p < end && *p >= '0' && *p <= '9'; p++)
		any = 1;
	if (p < end && *p == '.')
		for (p++; p < end && *p >= '0' && *p <= '9'; p++)
			any = 1;
	if (!any)
		return PV_NUM_INVALID;
	if (p < end && (*p == 'e' || *p == 'E')) {
		const char *e;

		if (++p < end && (*p == '+' || *p == '-'))
			p++;
		for (e = p; p < end && *p >= '0' && *p <= '9'; p++)
			;
		if (p == e)
			return PV_NUM_INVALID;
	}
	return p == end ? PV_NUM_OK : PV_NUM_INVALID;
}

static void random_strings(void **state)
{
	static const char junk[] = "0123456789.eE+- \tx,";
	char s[128];
	size_t fast = 0;

	(void)state;
	for (long i = 0; i < 1200000; i++) {
		size_t n = gen_valid(s);
		enum pv_num want, st;
		double v, w;

		/* One in four is mutated: a character replaced, dropped or
		 * inserted, so the grammar's edges are hit too. */
		if (!rnd(4) && n) {
			size_t at = rnd((unsigned)n);

			switch (rnd(3)) {
			case 0:
				s[at] = junk[rnd(sizeof(junk) - 1)];
				break;
			case 1:
				memmove(s + at, s + at + 1, n - at);
				n--;
				break;
			default:
				memmove(s + at + 1, s + at, n - at + 1);
				s[at] = junk[rnd(sizeof(junk) - 1)];
				n++;
				break;
			}
		}
		want = ref_status(s);
		st = pv_parse_double(s, n, &v);
		if (want == PV_NUM_OK) {
			w = strtod(s, NULL);
			if (!isfinite(w))
				want = PV_NUM_NONFINITE;
		}
		if (st != want)
			fail_msg("'%s': status %d, want %d", s, st, want);
		if (st == PV_NUM_OK) {
			if (memcmp(&v, &w, sizeof(v)))
				fail_msg("'%s' read as %.17g, strtod says %.17g",
					 s, v, w);
			fast++;
		}
	}
	/* The generator must mostly make valid numbers to test values. */
	assert_true(fast > 800000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(grammar),
		cmocka_unit_test(random_strings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
