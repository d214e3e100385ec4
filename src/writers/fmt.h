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

/* "1234 ± 12.3 (n=5)"; "n/a (n=0)" when a side has no samples. */
void pv_fmt_mean_sd(struct strbuf *sb, const struct pv_moments *s);

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
 * The one-line summary of a regression (the JUnit failure message),
 * without the CI: "throughput -8.2% (p=0.003, q=0.01) beyond 5%
 * threshold".
 */
void pv_fmt_regression_line(struct strbuf *sb, const struct pv_result *m);

#endif
