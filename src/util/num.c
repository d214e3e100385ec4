/*
 * num.c - strict decimal numbers in the C locale.
 *
 * perfverdict never calls setlocale(), so the C library's strtod and
 * printf already work in the "C" locale; nothing here depends on
 * LC_NUMERIC.  The grammar is checked by hand first, so "0x10", "nan",
 * "1,5" and "12abc" are refused even though strtod would take a prefix.
 * Numbers with at most 15 significant digits and a small exponent take
 * Clinger's fast path, which is exact (both operands are exact doubles
 * and IEEE division/multiplication rounds once); all others go to strtod.
 * The common case has a faster path still, inline in num.h.
 */
#include "num.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "banned.h"

const double pv_pow10_exact[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The general case: any number of digits, any exponent, blanks on both
 * sides.  pv_parse_double() takes its own fast path first and comes here
 * for everything else, so this is the grammar of record.
 */
enum pv_num pv_parse_double_slow(const char *s, size_t len, double *out)
{
	const char *p = s, *end = s + len, *start;
	uint64_t mant = 0;
	int ndig = 0, frac = 0, neg = 0, any = 0, exp = 0, eneg = 0;
	char tmp[128];
	double v;

	while (p < end && is_blank(*p))
		p++;
	while (end > p && is_blank(end[-1]))
		end--;
	if (p == end)
		return PV_NUM_EMPTY;
	start = p;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	/* Leading zeros do not count as significant digits. */
	for (; p < end && is_digit(*p); p++, any = 1) {
		if (ndig < 19 && (mant || *p != '0')) {
			mant = mant * 10 + (uint64_t)(*p - '0');
			ndig++;
		} else if (mant || *p != '0') {
			ndig++, frac--;  /* digit beyond precision: shift */
		}
	}
	if (p < end && *p == '.') {
		for (p++; p < end && is_digit(*p); p++, any = 1) {
			if (ndig < 19 && (mant || *p != '0')) {
				mant = mant * 10 + (uint64_t)(*p - '0');
				ndig++;
				frac++;
			} else if (mant || *p != '0') {
				ndig++;
			} else {
				frac++;
			}
		}
	}
	if (!any)
		return PV_NUM_INVALID;
	if (p < end && (*p == 'e' || *p == 'E')) {
		int edig = 0;

		p++;
		if (p < end && (*p == '+' || *p == '-'))
			eneg = *p++ == '-';
		for (; p < end && is_digit(*p); p++, edig++)
			if (exp < 100000)
				exp = exp * 10 + (*p - '0');
		if (!edig)
			return PV_NUM_INVALID;
	}
	if (p != end)
		return PV_NUM_INVALID;

	exp = (eneg ? -exp : exp) - frac;
	if (ndig <= 15 && exp >= -22 && exp <= 22) {
		v = (double)mant;
		v = exp < 0 ? v / pv_pow10_exact[-exp] :
			      v * pv_pow10_exact[exp];
		*out = neg ? -v : v;
		return PV_NUM_OK;
	}
	if ((size_t)(end - start) >= sizeof(tmp))
		return PV_NUM_INVALID;
	memcpy(tmp, start, (size_t)(end - start));
	tmp[end - start] = '\0';
	errno = 0;
	v = strtod(tmp, NULL);
	if (!isfinite(v))
		return PV_NUM_NONFINITE;
	*out = v;  /* underflow to a subnormal or zero is still a number */
	return PV_NUM_OK;
}

const char *pv_num_strerror(enum pv_num st)
{
	switch (st) {
	case PV_NUM_OK:
		return "a number";
	case PV_NUM_EMPTY:
		return "an empty cell";
	case PV_NUM_NONFINITE:
		return "not a finite number";
	case PV_NUM_INVALID:
		break;
	}
	return "not a decimal number";
}

int pv_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
