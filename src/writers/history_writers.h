/*
 * history_writers.h - the outputs of `perfverdict history`.  Like the
 * compare writers they read only the model (history.h) and write to an
 * open stream that the caller commits atomically.
 */
#ifndef PV_WRITERS_HISTORY_H
#define PV_WRITERS_HISTORY_H

#include <stdio.h>
#include "../history/history.h"
#include "../util/err.h"
#include "../util/strbuf.h"
#include "writers.h"

/* Every report writer of the history model has this type (outputs.c's
 * table); o as for compare's writers (writers.h): the Markdown fits
 * o->markdown_limit (0: MD_DEFAULT_LIMIT, compare's) and names
 * o->json_name as the report with every change point. */
typedef int pv_history_writer(const struct pv_history *h,
			      const struct pv_write_opts *o, FILE *fp,
			      struct pv_err *err);

pv_history_writer pv_write_history_json;
pv_history_writer pv_write_history_html;
pv_history_writer pv_write_history_markdown;

/* The terminal summary: quiet, only the closing line; else the recent
 * change points and the trends (verbose: every change point), then the
 * closing line; every line fits width columns (0: 80). */
struct pv_hist_text_opts {
	int quiet, verbose;
	unsigned width;
};
int pv_write_history_text(const struct pv_history *h,
			  const struct pv_hist_text_opts *o, FILE *fp,
			  struct pv_err *err);

/* Shared by the writers: "group/benchmark/metric" without empty parts,
 * the label of a point, and the one-line description of a change point
 * ("thr/%CPU dropped 8.7% at 0042-3f2a9c1"). */
void pv_hist_name(struct strbuf *sb, const struct pv_hist_metric *m);
/* How a writer puts foreign text (a name, a label, a unit) into its
 * output: pv_hist_put_plain cleans it to printable UTF-8 (the terminal,
 * and HTML, which escapes the whole line after); the Markdown writer
 * escapes it as Markdown. */
typedef void pv_hist_put(struct strbuf *sb, const char *foreign);
void pv_hist_put_plain(struct strbuf *sb, const char *foreign);
/* Point i's label through put, as the reports show it: a full commit id
 * cut to h->abbrev hex digits (git's short id); any other label whole. */
void pv_hist_put_label(struct strbuf *sb, const struct pv_history *h,
		       size_t i, pv_hist_put *put);
/* The line of change point c without the metric's name: " dropped 8.7%
 * at 0042 (125.4 -> 114.4 us, q=1.3e-05)" (its p is in the JSON). */
void pv_hist_cp_tail(struct strbuf *sb, const struct pv_history *h,
		     const struct pv_hist_metric *m, const struct pv_hist_cp *c,
		     pv_hist_put *put);
void pv_hist_cp_line(struct strbuf *sb, const struct pv_history *h,
		     const struct pv_hist_metric *m, const struct pv_hist_cp *c,
		     pv_hist_put *put);
/* m's watch (h->m[].watched: its newest points moved, not confirmed
 * yet), without the name: " the newest 2 points are +10.0%, worse
 * (5.743 -> 6.305 us, q=2e-09), unconfirmed: a change point needs 3
 * points"; brief: " newest 2 points +10.0%, worse, unconfirmed". */
void pv_hist_watch_tail(struct strbuf *sb, const struct pv_hist_metric *m,
			int brief, pv_hist_put *put);
/* "regression", "improvement within threshold", "waived", "change". */
const char *pv_hist_cp_word(const struct pv_hist_cp *c);

/*
 * A relative change readable at any magnitude: "+8.2%", "-45%", "+250%"
 * below a factor of 10; beyond, the factor: "x707" (after/before; with
 * the multiplication sign), "÷500" (a drop to less than a tenth); NAN is
 * "n/a".  unsigned_: no sign (the caller's verb gives it).
 */
void pv_hist_rel(struct strbuf *sb, double rel, int unsigned_);
/* Change point c's change: pv_hist_rel() of its rel, or, when the level
 * before is 0 (no relative change), the absolute change in the metric's
 * unit ("+64 B/op"). */
void pv_hist_change(struct strbuf *sb, const struct pv_hist_metric *m,
		    const struct pv_hist_cp *c, int unsigned_,
		    pv_hist_put *put);
/* "before -> after unit" in one scale; arrow is "->" or "→". */
void pv_hist_levels(struct strbuf *sb, const struct pv_hist_metric *m,
		    double before, double after, const char *arrow,
		    pv_hist_put *put);
/* The value of a point that the test sees, in the metric's unit (what
 * the JSON's series[].value is, and what every plot draws). */
double pv_hist_value(const struct pv_hist_metric *m,
		     const struct pv_hist_obs *ob);
/* What the plots draw for m's point j: pv_hist_value(), except for the
 * newest points of a watch, whose values the clipping of spikes pulled
 * back to the old level: those are drawn as they are (the robust mean of
 * their runs). */
double pv_hist_drawn(const struct pv_hist_metric *m, size_t j);
/* The metric's trend when significant: "+2.5% a point (+70% over 30
 * points, q=1e-05)", brief: "+2.5% a point"; nothing when it is not.
 * Returns whether it wrote. */
int pv_hist_trend(struct strbuf *sb, const struct pv_hist_metric *m,
		  int brief);
/* A Unicode sparkline of the point values, at most max bars: one a
 * point, or when the series is longer, each the median of a bin of the
 * same number of consecutive points, counted from the newest (the
 * oldest bin may hold fewer). */
void pv_hist_sparkline(struct strbuf *sb, const struct pv_hist_metric *m,
		       size_t max);

#endif
