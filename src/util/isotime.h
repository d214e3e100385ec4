/*
 * isotime.h - ISO 8601 UTC times: read into seconds since the epoch, and
 * written back.  History's points, the archived reports and a
 * github-action-benchmark data.js all carry their times this way.
 */
#ifndef PV_ISOTIME_H
#define PV_ISOTIME_H

#include <stddef.h>

/* Seconds since the epoch of an ISO 8601 time: YYYY-MM-DDTHH:MM:SS, an
 * optional fraction, then Z, +HH:MM, +HHMM, +HH (or -), or nothing
 * (UTC, as compare writes it); NAN for anything else, blanks included,
 * and for NULL. */
double pv_iso_time(const char *iso);

/* t (seconds since the epoch) as "YYYY-MM-DDTHH:MM:SSZ" into buf (len
 * bytes; 21 are enough); the epoch itself when t cannot be shown. */
void pv_iso_format(double t, char *buf, size_t len);

#endif
