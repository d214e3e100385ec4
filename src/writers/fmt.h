/*
 * fmt.h - how the human-facing writers (Markdown, JUnit text, terminal)
 * print numbers and rank rows, so that all of them say the same thing in
 * the same way.
 *
 * Every function appends to a strbuf, prints in the C locale and never
 * writes an exponent for ordinary magnitudes.  A value that is not
 * defined (NAN) prints as "n/a"; infinities print as "inf" / "-inf".
 * None of these functions writes foreign text, except
 * pv_fmt_regression_line(), which cleans the metric name first.
 */
#ifndef PV_WRITERS_FMT_H
#define PV_WRITERS_FMT_H

#include <stddef.h>
#include "../report.h"
#include "../util/strbuf.h"

/*
 * A measured value with 4 significant digits and no exponent for
 * 1e-4 <= |v| < 1e15 ("1235", "12.35", "0.001235"); integer digits are
 * never rounded away ("93457").  Outside that range "%.4g" ("1.2e-05").
 */
void pv_fmt_num(struct strbuf *sb, double v);

/* A signed relative change given as a fraction: "+8.21%" below 1%,
 * "-8.2%" below 100%, "+250%" above. */
void pv_fmt_pct(struct strbuf *sb, double frac);

/* A threshold given as a fraction, unsigned: "5%", "2.5%". */
void pv_fmt_threshold(struct strbuf *sb, double frac);

/* A p- or q-value: "0.003", "0.5", "1.2e-05", "0". */
void pv_fmt_p(struct strbuf *sb, double p);

/*
 * The change with its confidence interval, both relative to the
 * baseline mean: "-8.2% [-10.1%, -6.3%]".  When the relative change is
 * undefined (a zero baseline mean) the absolute change is given instead,
 * "+12 (abs)"; "n/a" when neither is defined.
 */
void pv_fmt_change(struct strbuf *sb, const struct pv_result *m);

/* +1 when the change is better for the metric's direction, -1 worse,
 * 0 when it is neither (no change, no direction, undefined). */
int pv_fmt_better(const struct pv_result *m);

/*
 * The one-line summary of a regression (the JUnit failure message's
 * first line), short and complete:
 * "thr/%CPU: -8.7% (125.4 → 114.4), threshold 5%, q=1.3e-05".
 */
void pv_fmt_regression_line(struct strbuf *sb, const struct pv_result *m);

/*
 * Human units.  A scale is chosen once per metric (from the baseline
 * mean, so both sides and the interval read in one unit):
 *   - time units (ns, us, µs, ms, s), also before a '/' ("ns/op"): the
 *     largest unit in which the value is at least 1, "160296 ns" ->
 *     "160.3 µs", "398882 ns/op" -> "398.9 µs/op";
 *   - any other unit, when |value| >= 10,000: an SI prefix k, M, G, T,
 *     "25802117 items/s" -> "25.80 M items/s"; "1865658" -> "1.866 M".
 * Otherwise the unit stays as the input gave it.
 */
struct pv_scale {
	double div;             /* the printed number is v / div */
	const char *unit;       /* our own text replacing the unit, or NULL */
	const char *prefix;     /* "k", "M"... before the input's unit, or "" */
	const char *rest;       /* after unit: the input's "/op" of "ns/op" */
};

void pv_scale_pick(struct pv_scale *sc, const char *unit, double ref);
/* v in the scale's unit, 4 significant digits, no unit. */
void pv_fmt_scaled(struct strbuf *sb, double v, const struct pv_scale *sc);
/* The unit of a scale: " µs", " M items/s", " M", or "" for no unit.
 * The input's own unit goes through esc (the writer's escaping; NULL
 * appends it as it is). */
void pv_fmt_scale_unit(struct strbuf *sb, const struct pv_scale *sc,
		       const char *unit,
		       void (*esc)(struct strbuf *, const char *));
/* A value with its unit in its own scale: "160.3 µs". */
void pv_fmt_human(struct strbuf *sb, double v, const char *unit);

/*
 * The move of a metric: "125.4 → 114.4 (-8.7%)", the unit once after
 * the candidate ("160.3 → 151.2 µs (-5.7%)"); a missing side is "—".
 */
void pv_fmt_move(struct strbuf *sb, const struct pv_result *m,
		 void (*esc)(struct strbuf *, const char *));

/* The same without the change: "125.4 → 114.4". */
void pv_fmt_means(struct strbuf *sb, const struct pv_result *m,
		  void (*esc)(struct strbuf *, const char *));

/* The confidence interval of the change: "-10.9% … -6.5%", or "—". */
void pv_fmt_interval(struct strbuf *sb, const struct pv_result *m);

/* A side's label for people: a 40- or 64-digit hex commit is cut to 12
 * digits; NULL when there is none.  Foreign text: the caller escapes. */
const char *pv_fmt_label(const char *label, char *buf, size_t size);

/* +1 better, -1 worse, 0 neither: the words "better" / "worse" / NULL. */
const char *pv_fmt_better_word(const struct pv_result *m);

#endif
