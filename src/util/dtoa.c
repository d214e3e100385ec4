/*
 * dtoa.c - shortest round-trip decimal digits of a double: Giulietti's
 * Schubfach ("The Schubfach way to render doubles", 2020), written for
 * perfverdict from the paper's description.
 *
 * Why Schubfach: it finds the shortest digits in one pass with three
 * 64x128-bit multiplications and no loop over candidate lengths, where
 * glibc's printf("%.17g") runs multi-precision arithmetic for every
 * value and still prints up to two digits too many.  Every double of a
 * JSON report passes through here, so its cost is the report's.
 *
 * The idea: v = c * 2^q rounds back from any decimal in its rounding
 * interval R = [c - 1/2, c + 1/2] * 2^q (closed when c is even, since
 * round-half-even then picks v; the lower half-width is 1/4 when v is a
 * power of two whose lower neighbour is closer).  Pick k with 10^k about
 * the width of R: R then holds one or two multiples of 10^k and at most
 * one of 10^(k+1).  Scaling the interval's ends by 10^-k with a 128-bit
 * over-estimate g of the power of ten and rounding to odd keeps just
 * enough information to compare them exactly with those multiples.
 *
 * Table: the 617 values of g live in dtoa_table.h, generated with exact
 * big-integer arithmetic by tests/ref/gen_dtoa_table.py, which also
 * proves the multiply-and-shift logarithms below over the range used.
 * A table costs 10 KiB of read-only data; computing it at run time would
 * need a big-integer routine in C that is harder to check than 60 lines
 * of Python.
 */
#include "dtoa.h"

#include <math.h>
#include <stdint.h>
#include <string.h>
#include "dtoa_table.h"
#include "banned.h"

__extension__ typedef unsigned __int128 u128;

/* floor(log10(2^q)), for q in [-1074, 971] (checked by the generator) */
static int flog10pow2(int q)
{
	return (int)(((int64_t)q * 661971961083) >> 41);
}

/* floor(log10(3/4 * 2^q)), same range */
static int flog10_3q_pow2(int q)
{
	return (int)(((int64_t)q * 661971961083 - 274743187321) >> 41);
}

/* floor(log2(10^p)), for p in [-292, 324] */
static int flog2pow10(int p)
{
	return (int)(((int64_t)p * 913124641741) >> 38);
}

/*
 * cp * g / 2^128 rounded to odd: the integer part, with its last bit set
 * when anything was cut off, so that comparing the result with an even
 * number compares the exact quotient.  g over-estimates by less than one
 * unit, which can only carry into the low bit of y0; hence "> 1".
 */
static uint64_t round_odd(const uint64_t g[2], uint64_t cp)
{
	u128 lo = (u128)g[1] * cp;
	u128 y = (u128)g[0] * cp + (lo >> 64);
	uint64_t y1 = (uint64_t)(y >> 64), y0 = (uint64_t)y;

	return y1 | (y0 > 1);
}

static const char two_digits[200] =
	"0001020304050607080910111213141516171819"
	"2021222324252627282930313233343536373839"
	"4041424344454647484950515253545556575859"
	"6061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/*
 * Writes the decimal digits of d < 10^18 so that they end just before end;
 * returns where they start.  Two digits per step, in 32-bit arithmetic
 * after the first split, so that no digit waits on a chain of 64-bit
 * divisions by 10.
 */
static char *put_digits(char *end, uint64_t d)
{
	char *p = end;
	uint32_t x;

	if (d >= 100000000) {
		uint32_t lo = (uint32_t)(d % 100000000);

		d /= 100000000;
		for (int i = 0; i < 4; i++) {
			p -= 2;
			memcpy(p, two_digits + 2 * (lo % 100), 2);
			lo /= 100;
		}
	}
	x = (uint32_t)d;
	while (x >= 100) {
		p -= 2;
		memcpy(p, two_digits + 2 * (x % 100), 2);
		x /= 100;
	}
	if (x >= 10) {
		p -= 2;
		memcpy(p, two_digits + 2 * x, 2);
	} else {
		*--p = (char)('0' + x);
	}
	return p;
}

/*
 * Most values in a report were read from text with a few decimals: |v| is
 * r / 10^j for an integer r below 10^15 and a small j.  Then r with j
 * decimals is exactly what Schubfach and the layout below would print:
 *  - it reads back: r and 10^j are exact doubles, so r / 10^j rounds
 *    once, as a correctly rounded strtod of those digits does;
 *  - it is the shortest: any shorter string would be y / 10^i with
 *    i < j, and then y = nearbyint(|v| 10^i), since |v| 10^i is within
 *    |v| 10^i 2^-52 < 0.25 of y when |v| 10^i < 10^15, so step i would
 *    have found it;
 *  - it is the only one of its length: decimals of at most 15 digits lie
 *    further apart than the width of any double's rounding interval;
 *  - 1e-6 <= |v| < 1e15 is printed in fixed notation.
 * Writes it to p and returns the end, or NULL when |v| is not of that
 * form.
 */
/* x rounded to an integer, ties to even, for 0 <= x < 2^52: adding 2^52
 * leaves no bits for a fraction (nearbyint without a libm call). */
static double round_near(double x)
{
	volatile double big = 0x1p52;  /* kept from being folded away */

	return (x + big) - big;
}

static char *short_decimal(double a, char *p)
{
	static const double p10[] = { 1, 1e1, 1e2, 1e3, 1e4 };
	char tmp[20], *d, *end = tmp + sizeof(tmp);

	double x4 = a * 1e4;

	if (!(a >= 1e-6 && a < 1e15))
		return NULL;
	/* Computed values have all their digits: a * 10^4, which must be
	 * within a * 10^4 * 2^-52 of an integer for any j <= 4, is not. */
	if (x4 < 0x1p52 && fabs(x4 - round_near(x4)) > x4 * 0x1p-51)
		return NULL;
	for (int j = 0; j < (int)(sizeof(p10) / sizeof(*p10)); j++) {
		double r = a * p10[j];
		int n, lead;

		r = r < 0x1p52 ? round_near(r) : r;

		if (r >= 1e15)
			return NULL;
		if (r / p10[j] != a)
			continue;
		d = put_digits(end, (uint64_t)r);
		n = (int)(end - d);
		lead = n > j ? n - j : 0;      /* digits before the point */
		if (!lead)
			*p++ = '0';
		while (d < end - j)
			*p++ = *d++;
		*p++ = '.';
		if (!j)
			*p++ = '0';
		for (int z = n; z < j; z++)
			*p++ = '0';
		while (d < end)
			*p++ = *d++;
		return p;
	}
	return NULL;
}

int pv_dtoa_shortest(double v, char digits[17], int *exp10)
{
	uint64_t bits, m, c, cbl, cb, cbr, vbl, vb, vbr, lower, upper, s, d;
	const uint64_t *g;
	int be, q, k, h, even, closer, n;
	char tmp[20], *p;

	memcpy(&bits, &v, sizeof(bits));
	m = bits & ((UINT64_C(1) << 52) - 1);
	be = (int)(bits >> 52) & 0x7ff;
	if (!be && !m) {
		digits[0] = '0';
		*exp10 = 1;
		return 1;
	}
	if (be) {
		c = m | UINT64_C(1) << 52;
		q = be - 1075;
	} else {
		c = m;
		q = -1074;
	}
	even = !(c & 1);
	/* Only a power of two above the smallest normal has a nearer lower
	 * neighbour: 2^52 * 2^-1074 borders the subnormals at equal spacing. */
	closer = !m && be > 1;

	cbl = 4 * c - 2 + (uint64_t)closer;
	cb = 4 * c;
	cbr = 4 * c + 2;
	k = closer ? flog10_3q_pow2(q) : flog10pow2(q);
	/* 10^-k * 2^q lies in [1, 40/3), so h is in [1, 4] and cbr << h
	 * stays below 2^60. */
	h = q + flog2pow10(-k) + 1;
	g = pv_dtoa_g[-k - PV_DTOA_P_MIN];
	vbl = round_odd(g, cbl << h);
	vb = round_odd(g, cb << h);
	vbr = round_odd(g, cbr << h);
	/* An odd c rounds its interval's ends away: shrink to open bounds. */
	lower = vbl + (uint64_t)!even;
	upper = vbr - (uint64_t)!even;

	/* Everything is now 4 * 10^-k times its real size. */
	s = vb >> 2;
	if (s >= 10) {
		/* A multiple of 10^(k+1) inside R is shorter than anything
		 * at 10^k; at most one of the two around v fits. */
		uint64_t sp = s / 10;
		int up_in = lower <= 40 * sp, wp_in = 40 * sp + 40 <= upper;

		if (up_in != wp_in) {
			d = sp + (uint64_t)wp_in;
			k++;
			goto digits;
		}
	}
	{
		int u_in = lower <= 4 * s, w_in = 4 * s + 4 <= upper;

		if (u_in != w_in) {
			d = s + (uint64_t)w_in;
		} else {
			/* Both fit (R is at least 10^k wide): the nearer one,
			 * ties to even; vb == mid only when vb is exact. */
			uint64_t mid = 4 * s + 2;

			d = s + (uint64_t)(vb > mid || (vb == mid && (s & 1)));
		}
	}
digits:
	p = put_digits(tmp + sizeof(tmp), d);
	n = (int)(tmp + sizeof(tmp) - p);
	while (p[n - 1] == '0') {
		n--;
		k++;
	}
	memcpy(digits, p, (size_t)n);
	*exp10 = k + n;
	return n;
}

size_t pv_format_double(double v, char *buf)
{
	char d[17];
	char *p = buf, *q;
	int n, e;

	if (!isfinite(v)) {
		memcpy(buf, "null", 5);
		return 4;
	}
	if (signbit(v))
		*p++ = '-';
	if ((q = short_decimal(fabs(v), p))) {
		*q = '\0';
		return (size_t)(q - buf);
	}
	n = pv_dtoa_shortest(v, d, &e);
	if (e > 0 && e <= 21) {
		if (n <= e) {
			memcpy(p, d, (size_t)n);
			memset(p + n, '0', (size_t)(e - n));
			p += e;
			*p++ = '.';
			*p++ = '0';
		} else {
			memcpy(p, d, (size_t)e);
			p += e;
			*p++ = '.';
			memcpy(p, d + e, (size_t)(n - e));
			p += n - e;
		}
	} else if (e > -6 && e <= 0) {
		*p++ = '0';
		*p++ = '.';
		memset(p, '0', (size_t)-e);
		p += -e;
		memcpy(p, d, (size_t)n);
		p += n;
	} else {
		int x = e - 1;

		*p++ = d[0];
		if (n > 1) {
			*p++ = '.';
			memcpy(p, d + 1, (size_t)(n - 1));
			p += n - 1;
		}
		*p++ = 'e';
		*p++ = x < 0 ? '-' : '+';
		if (x < 0)
			x = -x;
		if (x >= 100)
			*p++ = (char)('0' + x / 100);
		if (x >= 10)
			*p++ = (char)('0' + x / 10 % 10);
		*p++ = (char)('0' + x % 10);
	}
	*p = '\0';
	return (size_t)(p - buf);
}
