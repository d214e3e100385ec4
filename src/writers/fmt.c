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

void pv_fmt_mean_sd(struct strbuf *sb, const struct pv_moments *s)
{
	pv_fmt_num(sb, s->mean);
	if (s->n > 0 && !isnan(s->sd)) {
		strbuf_addstr(sb, " \xc2\xb1 ");       /* U+00B1 PLUS-MINUS */
		pv_fmt_num(sb, s->sd);
	}
	strbuf_addf(sb, " (n=%zu)", (size_t)s->n);
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
	struct pv_result no_ci = *m;

	pv_text_clean(sb, name, strlen(name));
	strbuf_addch(sb, ' ');
	no_ci.ci_low = no_ci.ci_high = NAN;
	pv_fmt_change(sb, &no_ci);
	strbuf_addstr(sb, " (p=");
	pv_fmt_p(sb, m->p);
	strbuf_addstr(sb, ", q=");
	pv_fmt_p(sb, m->q);
	strbuf_addstr(sb, ") beyond ");
	pv_fmt_threshold(sb, m->threshold);
	strbuf_addstr(sb, " threshold");
	if (isfinite(m->abs_threshold)) {
		strbuf_addstr(sb, " and ");
		pv_fmt_num(sb, m->abs_threshold);
		if (m->unit && *m->unit) {
			strbuf_addch(sb, ' ');
			pv_text_clean(sb, m->unit, strlen(m->unit));
		}
		strbuf_addstr(sb, " absolute");
	}
}
