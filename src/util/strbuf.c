/* strbuf.c - see strbuf.h for the invariants. */
#include "strbuf.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "err.h"
#include "banned.h"

const char strbuf_slopbuf[1];

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = sb->len = 0;
	sb->buf = (char *)strbuf_slopbuf;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *res;

	strbuf_grow(sb, 0);
	res = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return res;
}

void strbuf_grow_slow(struct strbuf *sb, size_t extra)
{
	size_t need = st_add(sb->len, st_add(extra, 1));

	if (need <= sb->alloc)
		return;
	if (!sb->alloc)
		sb->buf = NULL;
	sb->alloc = sb->alloc / 2 * 3 > need ? sb->alloc / 2 * 3 : st_add(need, 16);
	sb->buf = pv_realloc(sb->buf, sb->alloc);
	if (!sb->len)
		sb->buf[0] = '\0';
}

void strbuf_reset(struct strbuf *sb)
{
	strbuf_setlen(sb, 0);
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (!sb->alloc)
		return;
	sb->len = len;
	sb->buf[len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, (size_t)n);
		vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

/* The program never calls setlocale(), so printf already uses the C
 * locale; this wrapper names that intent at the call sites. */
void strbuf_addnum(struct strbuf *sb, const char *fmt, double v)
{
	strbuf_addf(sb, fmt, v);
}

/* m as digits with prec of them after the point (at least one before). */
static void add_scaled(struct strbuf *sb, uint64_t m, int prec)
{
	char digits[32], *p = digits + sizeof(digits);
	int n = 0;

	do {
		*--p = (char)('0' + m % 10);
		m /= 10;
		n++;
	} while (m || n <= prec);
	strbuf_grow(sb, (size_t)n + 1);
	memcpy(sb->buf + sb->len, p, (size_t)(n - prec));
	sb->len += (size_t)(n - prec);
	if (prec) {
		sb->buf[sb->len++] = '.';
		memcpy(sb->buf + sb->len, p + n - prec, (size_t)prec);
		sb->len += (size_t)prec;
	}
	sb->buf[sb->len] = '\0';
}

/*
 * x = |v| 10^prec is rounded once, so it is within x 2^-53 of the exact
 * product; only when the exact product could lie on the other side of a
 * half from x might x round differently from printf, which rounds the
 * exact value.  Those rare cases, and large or non-finite values, go to
 * printf.
 */
void strbuf_addfixed(struct strbuf *sb, double v, int prec, int plus)
{
	static const double p10[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6 };
	double a = fabs(v), x, r, f;

	if (prec >= 0 && prec <= 6 && a < 1e9) {
		x = a * p10[prec];
		r = floor(x);
		f = x - r;
		if (fabs(f - 0.5) > x * 0x1p-51 + 0x1p-60) {
			if (signbit(v))
				strbuf_addch(sb, '-');
			else if (plus)
				strbuf_addch(sb, '+');
			add_scaled(sb, (uint64_t)r + (f > 0.5), prec);
			return;
		}
	}
	strbuf_addf(sb, plus ? "%+.*f" : "%.*f", prec, v);
}

void strbuf_addg(struct strbuf *sb, double v)
{
	if (fabs(v) < 1e6 && v == (double)(long)v) {
		if (signbit(v))
			strbuf_addch(sb, '-');
		add_scaled(sb, (uint64_t)fabs(v), 0);
		return;
	}
	strbuf_addf(sb, "%g", v);
}
