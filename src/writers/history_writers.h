/*
 * history_writers.h - the outputs of `perfverdict history`.  Like the
 * compare writers they read only the model (history.h) and write to an
 * open stream that the caller commits atomically.
 */
#ifndef PV_WRITERS_HISTORY_H
#define PV_WRITERS_HISTORY_H

#include <stdio.h>
#include "../history.h"
#include "../util/err.h"
#include "../util/strbuf.h"
#include "writers.h"

/* Every report writer of the history model has this type (outputs.c's
 * table); o as for compare's writers (writers.h). */
typedef int pv_history_writer(const struct pv_history *h,
			      const struct pv_write_opts *o, FILE *fp,
			      struct pv_err *err);

pv_history_writer pv_write_history_json;
pv_history_writer pv_write_history_html;
pv_history_writer pv_write_history_markdown;
/* The terminal summary: the status counts, the recent change points and
 * the verdict line. */
int pv_write_history_text(const struct pv_history *h, int quiet, FILE *fp,
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
void pv_hist_cp_line(struct strbuf *sb, const struct pv_history *h,
		     const struct pv_hist_metric *m, const struct pv_hist_cp *c,
		     pv_hist_put *put);

#endif
