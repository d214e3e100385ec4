/*
 * fmt.c - number formats and row ranking shared by the writers that
 * people read.  See fmt.h for the formats.
 *
 * printf already runs in the C locale (the program never calls
 * setlocale()), so "%.*f" here always prints a '.' decimal point.
 */
#include "fmt.h"

#include <math.h>
#include <string.h>
#include "../util/text.h"
#include "../util/banned.h"

void pv_fmt_num(struct strbuf *sb, double v)
{
	double a = fabs(v);
	int e, dec;

	if (isnan(v)) {
		strbuf_addstr(sb, "n/a");
		return;
	}
	if (isinf(v)) {
		strbuf_addstr(sb, v > 0 ? "inf" : "-inf");
		return;
	}
	if (a == 0) {
		strbuf_addch(sb, '0');
		return;
	}
	if (a >= 1e15 || a < 1e-4) {
		strbuf_addf(sb, "%.4g", v);
		return;
	}
	e = (int)floor(log10(a));
	dec = e >= 3 ? 0 : 3 - e;
	strbuf_addfixed(sb, v, dec, 0);
}

void pv_fmt_pct(struct strbuf *sb, double frac)
{
	double pct = frac * 100.0, a = fabs(pct);

	if (isnan(pct)) {
		strbuf_addstr(sb, "n/a");
		return;
	}
	if (isinf(pct)) {
		strbuf_addstr(sb, pct > 0 ? "+inf%" : "-inf%");
		return;
	}
	if (pct == 0) {
		strbuf_addstr(sb, "0%");
		return;
	}
	strbuf_addfixed(sb, pct, a < 1 ? 2 : a < 100 ? 1 : 0, 1);
	strbuf_addch(sb, '%');
}

void pv_fmt_threshold(struct strbuf *sb, double frac)
{
	if (!isfinite(frac)) {
		strbuf_addstr(sb, "n/a");
		return;
	}
	strbuf_addf(sb, "%.4g%%", frac * 100.0);
}

void pv_fmt_p(struct strbuf *sb, double p)
{
	if (isnan(p)) {
		strbuf_addstr(sb, "n/a");
		return;
	}
	strbuf_addf(sb, "%.2g", p);
}

void pv_fmt_change(struct strbuf *sb, const struct pv_result *m)
{
	if (isfinite(m->change_rel)) {
		pv_fmt_pct(sb, m->change_rel);
		if (isfinite(m->ci_low) && isfinite(m->ci_high)) {
			strbuf_addstr(sb, " [");
			pv_fmt_pct(sb, m->ci_low);
			strbuf_addstr(sb, ", ");
			pv_fmt_pct(sb, m->ci_high);
			strbuf_addch(sb, ']');
		}
	} else if (isfinite(m->change_abs)) {
		if (m->change_abs > 0)
			strbuf_addch(sb, '+');
		pv_fmt_num(sb, m->change_abs);
		strbuf_addstr(sb, " (abs)");
	} else {
		strbuf_addstr(sb, "n/a");
	}
}

int pv_fmt_better(const struct pv_result *m)
{
	double d = isfinite(m->change_abs) ? m->change_abs : m->change_rel;

	if (isnan(d) || d == 0)
		return 0;
	switch (m->direction) {
	case PV_DIR_HIGHER:
		return d > 0 ? 1 : -1;
	case PV_DIR_LOWER:
		return d < 0 ? 1 : -1;
	default:
		return 0;
	}
}

void pv_fmt_regression_line(struct strbuf *sb, const struct pv_result *m)
{
	const char *name = m->metric ? m->metric : "";

	pv_text_clean(sb, name, strlen(name));
	strbuf_addstr(sb, ": ");
	if (isfinite(m->change_rel))
		pv_fmt_pct(sb, m->change_rel);
	else
		pv_fmt_change(sb, m);
	strbuf_addstr(sb, " (");
	pv_fmt_means(sb, m, NULL);
	strbuf_addstr(sb, "), threshold ");
	pv_fmt_threshold(sb, m->threshold);
	if (isfinite(m->abs_threshold)) {
		strbuf_addstr(sb, " and ");
		pv_fmt_human(sb, m->abs_threshold, m->unit);
	}
	strbuf_addstr(sb, ", q=");
	pv_fmt_p(sb, m->q);
}

/* ---- human units ---------------------------------------------------- */

static const struct {
	const char *name;
	double sec;
} time_units[] = {
	{ "ns", 1e-9 }, { "us", 1e-6 }, { "\xc2\xb5s", 1e-6 },
	{ "\xce\xbcs", 1e-6 }, { "ms", 1e-3 }, { "s", 1 },
};

/* What we print for a time unit, from the smallest. */
static const struct {
	const char *name;
	double sec;
} time_out[] = {
	{ "ns", 1e-9 }, { "\xc2\xb5s", 1e-6 }, { "ms", 1e-3 }, { "s", 1 },
};

void pv_scale_pick(struct pv_scale *sc, const char *unit, double ref)
{
	static const char *const si[] = { "k", "M", "G", "T" };
	double a = fabs(ref);

	sc->div = 1;
	sc->unit = NULL;
	sc->prefix = "";
	sc->rest = "";
	if (!isfinite(a) || a == 0)
		return;
	for (size_t i = 0; unit && i < sizeof(time_units) / sizeof(*time_units); i++) {
		size_t n = strlen(time_units[i].name);

		if (strncmp(unit, time_units[i].name, n) ||
		    (unit[n] && unit[n] != '/'))
			continue;
		sc->rest = unit + n;
		/* the largest unit in which ref is at least 1 */
		double secs = a * time_units[i].sec;
		size_t k = 0;

		while (k + 1 < sizeof(time_out) / sizeof(*time_out) &&
		       secs >= time_out[k + 1].sec)
			k++;
		sc->div = time_out[k].sec / time_units[i].sec;
		sc->unit = time_out[k].name;
		return;
	}
	if (a >= 1e4) {
		size_t k = 0;
		double d = 1e3;

		while (k + 1 < sizeof(si) / sizeof(*si) && a >= d * 1e3)
			k++, d *= 1e3;
		/* 10,000 and more, with the prefix that leaves 1 <= x < 1000 */
		sc->div = d;
		sc->prefix = si[k];
	}
}

void pv_fmt_scaled(struct strbuf *sb, double v, const struct pv_scale *sc)
{
	double x = v / sc->div, a = fabs(x);
	int e, dec;

	if (!isfinite(x) || a == 0 || a >= 1e15 || a < 1e-4) {
		pv_fmt_num(sb, x);
		return;
	}
	/* 4 significant digits, integer digits never rounded away */
	e = (int)floor(log10(a));
	dec = e >= 3 ? 0 : 3 - e;
	strbuf_addfixed(sb, x, dec, 0);
}

void pv_fmt_scale_unit(struct strbuf *sb, const struct pv_scale *sc,
		       const char *unit,
		       void (*esc)(struct strbuf *, const char *))
{
	if (sc->unit) {
		strbuf_addch(sb, ' ');
		strbuf_addstr(sb, sc->unit);
		if (*sc->rest) {
			if (esc)
				esc(sb, sc->rest);
			else
				pv_text_clean(sb, sc->rest, strlen(sc->rest));
		}
		return;
	}
	if (*sc->prefix || (unit && *unit))
		strbuf_addch(sb, ' ');
	strbuf_addstr(sb, sc->prefix);
	if (unit && *unit) {
		if (*sc->prefix)
			strbuf_addch(sb, ' ');
		if (esc)
			esc(sb, unit);
		else
			pv_text_clean(sb, unit, strlen(unit));
	}
}

void pv_fmt_human(struct strbuf *sb, double v, const char *unit)
{
	struct pv_scale sc;

	pv_scale_pick(&sc, unit, v);
	pv_fmt_scaled(sb, v, &sc);
	if (isfinite(v))
		pv_fmt_scale_unit(sb, &sc, unit, NULL);
}

static void move(struct strbuf *sb, const struct pv_result *m,
		 void (*esc)(struct strbuf *, const char *), int change)
{
	const struct pv_moments *b = &m->side[0].s, *c = &m->side[1].s;
	int hb = m->side[0].present && b->n && isfinite(b->mean);
	int hc = m->side[1].present && c->n && isfinite(c->mean);
	struct pv_scale sc;

	pv_scale_pick(&sc, m->unit, hb ? b->mean : c->mean);
	if (hb)
		pv_fmt_scaled(sb, b->mean, &sc);
	else
		strbuf_addstr(sb, "\xe2\x80\x94");
	strbuf_addstr(sb, " \xe2\x86\x92 ");       /* U+2192 RIGHTWARDS ARROW */
	if (hc)
		pv_fmt_scaled(sb, c->mean, &sc);
	else
		strbuf_addstr(sb, "\xe2\x80\x94");
	if (hb || hc)
		pv_fmt_scale_unit(sb, &sc, m->unit, esc);
	if (hb && hc && change) {
		strbuf_addstr(sb, " (");
		if (isfinite(m->change_rel)) {
			pv_fmt_pct(sb, m->change_rel);
		} else if (isfinite(m->change_abs)) {
			if (m->change_abs > 0)
				strbuf_addch(sb, '+');
			pv_fmt_scaled(sb, m->change_abs, &sc);
		} else {
			strbuf_addstr(sb, "n/a");
		}
		strbuf_addch(sb, ')');
	}
}

void pv_fmt_move(struct strbuf *sb, const struct pv_result *m,
		 void (*esc)(struct strbuf *, const char *))
{
	move(sb, m, esc, 1);
}

void pv_fmt_means(struct strbuf *sb, const struct pv_result *m,
		  void (*esc)(struct strbuf *, const char *))
{
	move(sb, m, esc, 0);
}

void pv_fmt_interval(struct strbuf *sb, const struct pv_result *m)
{
	if (!isfinite(m->ci_low) || !isfinite(m->ci_high)) {
		strbuf_addstr(sb, "\xe2\x80\x94");
		return;
	}
	pv_fmt_pct(sb, m->ci_low);
	strbuf_addstr(sb, " \xe2\x80\xa6 ");       /* U+2026 */
	pv_fmt_pct(sb, m->ci_high);
}

const char *pv_fmt_label(const char *label, char *buf, size_t size)
{
	size_t n, hex = 0;

	if (!label || !*label)
		return NULL;
	n = strlen(label);
	while (hex < n && strchr("0123456789abcdef", label[hex]))
		hex++;
	if ((n == 40 || n == 64) && hex == n && size > 12) {
		memcpy(buf, label, 12);
		buf[12] = '\0';
		return buf;
	}
	return label;
}

const char *pv_fmt_better_word(const struct pv_result *m)
{
	int b = pv_fmt_better(m);

	return b > 0 ? "better" : b < 0 ? "worse" : NULL;
}
