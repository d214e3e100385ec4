/*
 * num.h - numbers in the C locale, whatever LC_NUMERIC says.
 */
#ifndef PV_NUM_H
#define PV_NUM_H

#include <stddef.h>

enum pv_num {
	PV_NUM_OK = 0,
	PV_NUM_EMPTY,     /* nothing but blanks */
	PV_NUM_INVALID,   /* not a decimal number: "12abc", "0x10", "1,5" */
	PV_NUM_NONFINITE, /* nan, inf, or out of range such as 1e309 */
};

/*
 * Parse s[0..len) as a decimal number: optional sign, digits with an
 * optional fraction and exponent, surrounded by optional blanks.
 * Hexadecimal, "nan", "inf" and trailing garbage are refused.
 */
enum pv_num pv_parse_double(const char *s, size_t len, double *out);

/* A short description of a parse status, for messages. */
const char *pv_num_strerror(enum pv_num st);

/* snprintf in the C locale. */
int pv_snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
