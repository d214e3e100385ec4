/*
 * dtoa.h - doubles as their shortest decimal text that reads back to the
 * same bits (Schubfach; see dtoa.c).
 */
#ifndef PV_DTOA_H
#define PV_DTOA_H

#include <stddef.h>

/* Room pv_format_double() may need, NUL included (it uses at most 26). */
#define PV_DTOA_BUFSIZE 32

/*
 * The shortest decimal significand of |v|, for finite v: fills digits
 * with d1..dn ('0'-'9', no NUL, d1 != '0', dn != '0') and sets *exp10
 * so that |v| reads back from 0.d1...dn * 10^*exp10 under correct
 * rounding (strtod), and returns n (1..17).  Of the n-digit strings that
 * read back, it is the one nearest |v| (ties to an even last digit).
 * The sign is ignored; zero gives "0" with *exp10 = 1.  Infinities and
 * NaN are the caller's to refuse: their digits are meaningless.
 */
int pv_dtoa_shortest(double v, char digits[17], int *exp10);

/*
 * v as a JSON number text in buf (at least PV_DTOA_BUFSIZE bytes),
 * NUL-terminated; returns its length.  The digits are those of
 * pv_dtoa_shortest(), laid out like ECMAScript's Number::toString:
 * fixed for 1e-6 <= |v| < 1e21 ("0.000025", "1234.5"), else exponent
 * form ("1e-7", "1.5e+300").  Unlike JavaScript, a fixed integral value
 * gets ".0" ("96435.0", "0.0", "-0.0") so it reads back as a real.
 * NaN and infinities print "null".
 */
size_t pv_format_double(double v, char *buf);

#endif
