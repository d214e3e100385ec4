/*
 * writers.h - the outputs.  Each writer reads only the report model and
 * writes to an open stream; outputs.c's table lists them, and writes a
 * run's reports through atomic files (util/atomic.h), all or none, so no
 * consumer ever sees half a report.  A writer returns 0, or -1 with err
 * filled (a write error, naming the report's file and the reason).
 */
#ifndef PV_WRITERS_H
#define PV_WRITERS_H

#include <stdio.h>
#include "../report.h"
#include "../util/atomic.h"
#include "../util/err.h"
#include "../util/strbuf.h"

/* What a report writer is told beside its model (o may be NULL). */
struct pv_write_opts {
	const char *path;       /* the report's file, for messages; NULL or
				 * "-": standard output */
	size_t markdown_limit;  /* characters the Markdown must fit; 0: the
				 * report's own, else MD_DEFAULT_LIMIT */
	const char *json_name;  /* the Markdown says the full report is here */
	const char *commit;     /* the point's commit id (--save-point), or NULL */
};

/* Every report writer of compare's model has this type (outputs.c). */
typedef int pv_report_writer(const struct pv_report *r,
			     const struct pv_write_opts *o, FILE *fp,
			     struct pv_err *err);

/* A write to o's report failed with errno e (0: EIO); returns -1 with
 * err "cannot write report 'PATH': REASON" (util/atomic.h's wording). */
static inline int pv_write_failed(const struct pv_write_opts *o, int e,
				  struct pv_err *err)
{
	return pv_atomic_error(err, o ? o->path : NULL, e);
}

/*
 * The JSON writer formats most metrics on a second thread (json.c).  The
 * invariant that makes that safe: while pv_write_json() runs, r is only
 * read, by both threads, through const pointers, and nothing the
 * formatting reaches keeps static state; each thread writes only its own
 * buffers.  So r must not change during the call, and a function called
 * from metric formatting must stay pure in this sense.
 */
pv_report_writer pv_write_json;
pv_report_writer pv_write_junit;
pv_report_writer pv_write_markdown;

/* The Markdown's default size limit, in characters (--markdown-limit):
 * GitHub refuses a comment of more than 65,536. */
#define MD_DEFAULT_LIMIT 65000

struct pv_text_opts {
	int color;              /* ANSI colours (a terminal, no NO_COLOR) */
	int quiet;              /* only the closing verdict line */
	int verbose;            /* every metric, not only those needing attention */
	unsigned width;         /* columns; 0 is 80 */
};
int pv_write_text(const struct pv_report *r, const struct pv_text_opts *o,
		  FILE *fp, struct pv_err *err);

/* Foreign text as HTML text or an attribute value: cleaned to printable
 * UTF-8, the five specials escaped, tabs and newlines as spaces, cut
 * with an ellipsis after maxchars characters (0: no limit). */
void pv_html_text(struct strbuf *sb, const char *s, size_t maxchars);

/* The head of both HTML reports, up to and with <body>: the charset, a
 * Content-Security-Policy of default-src 'none' that allows the inline
 * stylesheet and, when script is not NULL, only that script (by its
 * sha256 hash), the title (escaped), and the one stylesheet. */
void pv_html_head(struct strbuf *sb, const char *title, const char *script);
/* <script>script</script>: the text pv_html_head() hashed. */
void pv_html_script(struct strbuf *sb, const char *script);

/* One self-contained HTML page: inline CSS and SVG, no network. */
pv_report_writer pv_write_html;

/* render: rebuild the model from an archived JSON report. */
/* A double as the shortest JSON number that reads back bit-exact. */
void pv_json_number(struct strbuf *sb, double v);
/* s as a JSON string: cleaned to printable UTF-8 (util/text.h), quotes
 * and backslashes escaped (safe from any thread: no shared state). */
void pv_json_string(struct strbuf *sb, const char *s);

#endif
