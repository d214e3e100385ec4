/*
 * num.h - numbers in the C locale, whatever LC_NUMERIC says.
 */
#ifndef PV_NUM_H
#define PV_NUM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum pv_num {
	PV_NUM_OK = 0,
	PV_NUM_EMPTY,     /* nothing but blanks */
	PV_NUM_INVALID,   /* not a decimal number: "12abc", "0x10", "1,5" */
	PV_NUM_NONFINITE, /* nan, inf, or out of range such as 1e309 */
};

/* The general case of pv_parse_double(), and its grammar of record. */
enum pv_num pv_parse_double_slow(const char *s, size_t len, double *out);
extern const double pv_pow10_exact[23];

/* ' ', '\t', '\r' and '\n' as one test: a bit of a 64-bit mask. */
static inline int pv_num_blank(unsigned char c)
{
	const uint64_t blanks = 1ULL << ' ' | 1ULL << '\t' | 1ULL << '\r' |
				1ULL << '\n';

	return c <= ' ' && (blanks >> c) & 1;
}

/*
 * Eight bytes of a number in a word, the first in the low byte whatever
 * the machine's byte order (after fast_float's digit tricks).
 */
#define PV_NUM_ONES 0x0101010101010101ULL

/* How many of w's bytes, from the first, are digits (0-8).  Carries and
 * borrows only run towards later bytes, so the first non-digit's high
 * bit is exact even where those after it are not. */
static inline unsigned pv_num_ndigits(uint64_t w)
{
	uint64_t bad = ((w + 0x46 * PV_NUM_ONES) | (w - 0x30 * PV_NUM_ONES)) &
		       0x80 * PV_NUM_ONES;

	return bad ? (unsigned)__builtin_ctzll(bad) >> 3 : 8;
}

/* The value of w's first k (1-8) bytes, all digits: moved to the top
 * under leading zeros, then summed in pairs, fours and eights. */
static inline uint64_t pv_num_digits(uint64_t w, unsigned k)
{
	uint64_t d = (w - 0x30 * PV_NUM_ONES) << (64 - 8 * k);

	d = d * 10 + (d >> 8);
	return ((d & 0x000000ff000000ffULL) * 0x000f424000000064ULL +
		((d >> 16) & 0x000000ff000000ffULL) * 0x0000271000000001ULL) >>
	       32;
}

/*
 * Parse str[0..len) as a decimal number: optional sign, digits with an
 * optional fraction and exponent, surrounded by optional blanks.
 * Hexadecimal, "nan", "inf" and trailing garbage are refused.  The
 * number may lie in a larger buffer that can be read from lo (<= str)
 * on: the 8 bytes before its end are then one word even when it is
 * shorter (a table's cells, one after another in its line).
 *
 * Inline, one pass for what result files hold (table readers call it
 * for every cell): blanks, a sign, at most 19 digits around an optional
 * point, an exponent of at most 4 digits, blanks.  A mantissa up to
 * 2^53 and a power of ten up to 1e22 are exact doubles, so one IEEE
 * division or multiplication rounds the value correctly (Clinger) and it
 * is what strtod() gives.  Anything else, valid or not, goes to
 * pv_parse_double_slow(), which then decides exactly as it would have
 * on its own: whatever this path accepts is at most 27 characters long
 * and valid there too.
 */
static inline enum pv_num pv_parse_double_in(const char *lo, const char *str,
					     size_t len, double *out)
{
	const unsigned char *s = (const unsigned char *)str, *p = s;
	const unsigned char *end = s + len, *digits;
	uint64_t mant = 0;
	unsigned d;
	size_t nd;
	int neg = 0, exp = 0;
	double v;

	/* Padding is spaces: 8 at a time while 8 bytes are left, then one
	 * by one; other blanks are rare enough for a second loop. */
	while (end - p >= 8) {
		uint64_t w;

		memcpy(&w, p, 8);
		if ((w ^= 0x2020202020202020ULL)) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
			p += __builtin_clzll(w) >> 3;
#else
			p += __builtin_ctzll(w) >> 3;
#endif
			break;
		}
		p += 8;
	}
	while (p < end && *p == ' ')
		p++;
	while (p < end && pv_num_blank(*p))
		p++;
	if (p == end)
		return PV_NUM_EMPTY;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	/*
	 * A right-aligned cell ends with its number: when the rest is at
	 * most 8 bytes, it is in the 8 before the cell's end (read from lo
	 * on), shifted down (bytes past the end read as 0, a non-digit).
	 * Digits, or digits with one point squeezed out, are then counted
	 * and summed a word at a time.
	 * Anything else there goes on below, byte by byte.
	 */
	if ((size_t)(end - p) - 1 < 8 && end - (const unsigned char *)lo >= 8) {
		unsigned n = (unsigned)(end - p), k, t;
		uint64_t w;

		memcpy(&w, end - 8, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		w = __builtin_bswap64(w);
#endif
		w >>= 64 - 8 * n;
		k = pv_num_ndigits(w);
		if (k == n) {
			v = (double)pv_num_digits(w, k);
			*out = neg ? -v : v;
			return PV_NUM_OK;
		}
		if (((w >> 8 * k) & 0xff) == '.') {
			uint64_t low = (1ULL << 8 * k) - 1;

			w = (w & low) | ((w >> 8) & ~low);
			t = pv_num_ndigits(w);
			if (t && t + 1 == n) {
				v = (double)pv_num_digits(w, t) /
				    pv_pow10_exact[t - k];
				*out = neg ? -v : v;
				return PV_NUM_OK;
			}
		}
	}
	for (digits = p; p < end && (d = (unsigned)*p - '0') < 10; p++)
		mant = mant * 10 + d;
	nd = (size_t)(p - digits);
	if (p < end && *p == '.') {
		for (digits = ++p; p < end && (d = (unsigned)*p - '0') < 10;
		     p++)
			mant = mant * 10 + d;
		exp = -(int)(p - digits);
		nd += (size_t)(p - digits);
	}
	/* No digit, or so many that mant may have wrapped. */
	if (nd - 1 >= 19)
		return pv_parse_double_slow(str, len, out);
	if (p < end && (*p | 0x20) == 'e') {
		int eneg = 0, x = 0;

		if (++p < end && (*p == '-' || *p == '+'))
			eneg = *p++ == '-';
		/* A fifth digit ends the loop, and the fast path. */
		for (digits = p; p < end && p - digits < 5 &&
		     (d = (unsigned)*p - '0') < 10; p++)
			x = x * 10 + (int)d;
		if (p == digits || p - digits > 4)
			return pv_parse_double_slow(str, len, out);
		exp += eneg ? -x : x;
	}
	while (p < end && pv_num_blank(*p))
		p++;
	if (p != end || mant > (1ULL << 53) || exp < -22 || exp > 22)
		return pv_parse_double_slow(str, len, out);
	v = (double)mant;
	v = exp < 0 ? v / pv_pow10_exact[-exp] : v * pv_pow10_exact[exp];
	*out = neg ? -v : v;
	return PV_NUM_OK;
}

/* pv_parse_double_in() of a number on its own. */
static inline enum pv_num pv_parse_double(const char *str, size_t len,
					  double *out)
{
	return pv_parse_double_in(str, str, len, out);
}

/* A short description of a parse status, for messages. */
const char *pv_num_strerror(enum pv_num st);

/* snprintf in the C locale. */
int pv_snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
