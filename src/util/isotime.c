/*
 * isotime.c - ISO 8601 UTC times read and written; see isotime.h.
 */
#define _GNU_SOURCE 1   /* timegm */
#include "isotime.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "banned.h"

void pv_iso_format(double t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "1970-01-01T00:00:00Z");
}

/* s starts with exactly YYYY-MM-DDTHH:MM:SS, digits where digits go:
 * strptime() alone would skip blanks before and inside the fields. */
static int iso_shape(const char *s)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";

	for (size_t i = 0; shape[i]; i++)
		if (shape[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') :
		    s[i] != shape[i])
			return 0;
	return 1;
}

/* The zone after the time at *end: Z, +HH:MM, +HHMM, +HH (or -), or
 * nothing; its offset from UTC in seconds into *off, *end past it.
 * -1 when it is none of those. */
static int iso_zone(const char **end, double *off)
{
	const char *q = *end + 1;
	int sign, hh, mm = 0;

	*off = 0;
	if (**end == 'Z' || **end == 'z') {
		(*end)++;
		return 0;
	}
	if (**end != '+' && **end != '-')
		return 0;
	sign = **end == '-' ? -1 : 1;
	if (!(q[0] >= '0' && q[0] <= '9' && q[1] >= '0' && q[1] <= '9'))
		return -1;
	hh = (q[0] - '0') * 10 + (q[1] - '0');
	q += 2;
	if (*q == ':')
		q++;
	if (q[0] >= '0' && q[0] <= '9' && q[1] >= '0' && q[1] <= '9') {
		mm = (q[0] - '0') * 10 + (q[1] - '0');
		q += 2;
	}
	if (hh > 23 || mm > 59)
		return -1;
	/* local = UTC + offset */
	*off = sign * (hh * 3600.0 + mm * 60.0);
	*end = q;
	return 0;
}

double pv_iso_time(const char *s)
{
	struct tm tm;
	const char *end;
	double t, frac = 0, off;

	if (!s || !iso_shape(s))
		return NAN;
	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end)
		return NAN;
	t = (double)timegm(&tm);
	if (*end == '.' || *end == ',') {
		double scale = 0.1;

		for (end++; *end >= '0' && *end <= '9'; end++, scale /= 10)
			frac += (*end - '0') * scale;
	}
	if (iso_zone(&end, &off))
		return NAN;
	return *end ? NAN : t - off + frac;
}
