/*
 * md.h - the parts of the Markdown writer (markdown.c), shared by its
 * three files and nothing else:
 *   md_text.c   escaping foreign text, the cells and the labels;
 *   md_parts.c  the table headers and rows, the detail groups' headings,
 *               the fixed parts (headline, provenance, environment,
 *               legend, notes, footer);
 *   markdown.c  the row budget (what fits o->markdown_limit) and the section order.
 */
#ifndef PV_WRITERS_MD_H
#define PV_WRITERS_MD_H

#include "writers.h"

#define NAME_CHARS 80           /* per name component */
#define REASON_CHARS 240
#define CTX_CHARS 100
#define CTX_ROWS 20
#define JSON_NAME_CHARS 200

#define ELLIPSIS "\xe2\x80\xa6"
#define DASH "\xe2\x80\x94"
#define NBSP "\xc2\xa0"

/* What the whole comment shares: the model and how its names show. */
struct md {
	const struct pv_report *r;
	int multi_suite, multi_test;    /* show suite / test in labels */
	int thr_column;                 /* a regression's threshold differs */
	size_t *rank;
	size_t cnt[PV_V_COUNT];
	size_t ungated_moved;
};

/* ---- md_text.c: text and cells --------------------------------------
 * md_text_in() is the one way foreign text enters the comment (cleaned,
 * capped, escaped, on one line); md_text() is the same inside a table
 * cell.  A cell never holds a newline or an unescaped '|'; a row is
 * md_cell_begin(), cells separated by md_cell_next(), md_cell_end().
 * md_str() reads NULL as "".
 */
const char *md_str(const char *s);
int md_is_alnum(unsigned char c);
void md_text_in(struct strbuf *out, const char *s, size_t maxchars,
		int in_table);
void md_text(struct strbuf *out, const char *s, size_t maxchars);
void md_unit(struct strbuf *out, const char *s);
/* The text appended to sb since from, kept on one line: its spaces
 * become no-break spaces, so a number never parts from its unit. */
void md_nowrap(struct strbuf *sb, size_t from);
int md_same(const char *a, const char *b);
void md_join(struct strbuf *sb, int *first, const char *s);
void md_label(struct md *d, struct strbuf *sb, const struct pv_result *m);
const char *md_verdict_cell(enum pv_verdict v);
void md_cell_begin(struct strbuf *sb);
void md_cell_next(struct strbuf *sb);
void md_cell_end(struct strbuf *sb);
void md_name_cells(struct strbuf *sb, struct md *d, const struct pv_result *m);
void md_move_cell(struct strbuf *sb, const struct pv_result *m);
void md_interval_cell(struct strbuf *sb, const struct pv_result *m);
void md_q_cell(struct strbuf *sb, const struct pv_result *m);
void md_threshold_text(struct strbuf *sb, const struct pv_result *m);
void md_side_cell(struct strbuf *sb, const struct pv_result *m, int k);
void md_reason_cell(struct strbuf *sb, const char *reason,
		    const char *common);

/* ---- md_parts.c: tables and fixed parts -----------------------------
 * Each *_head has as many columns as each *_row of its table; a row is
 * one line ending in '\n'.  The fixed parts end in a blank line; md_common_clause() returns a new
 * string or NULL.
 */
void md_regress_head(struct strbuf *sb, const struct md *d, size_t n);
/* Under the regressions table, the regressions judged at main's moved
 * end (history/pooled.h): md_end_head, then one md_end_item each. */
extern const char md_end_head[];
void md_end_item(struct strbuf *sb, struct md *d, const struct pv_result *m);
void md_regress_row(struct strbuf *sb, struct md *d,
		    const struct pv_result *m);
void md_numbers_head(struct strbuf *sb);
void md_numbers_row(struct strbuf *sb, struct md *d,
		    const struct pv_result *m);
extern const char md_other_head[];
extern const char md_why_head[];
void md_other_row(struct strbuf *sb, struct strbuf *why, struct md *d,
		  const struct pv_result *m, const char *common);
void md_ungated_head(struct strbuf *sb, const struct md *d);
void md_ungated_row(struct strbuf *sb, struct md *d,
		    const struct pv_result *m);
void md_detail_row(struct strbuf *sb, const struct pv_result *m);
void md_group_head(struct strbuf *sb, struct md *d,
		   const struct pv_result *m);
void md_headline(struct strbuf *sb, struct md *d);
void md_provenance(struct strbuf *sb, const struct pv_report *r);
void md_environment(struct strbuf *sb, const struct pv_report *r,
		    size_t rows);
void md_legend(struct strbuf *sb, const struct pv_report *r);
void md_footer(struct strbuf *sb, const struct pv_report *r);
void md_omitted_note(struct strbuf *sb, size_t k, const char *one,
		     const char *many);
void md_final_note(struct strbuf *sb, size_t hidden, size_t limit,
		   size_t n, const char *json_name);
extern const char md_no_detail[];
void md_details_open(struct strbuf *sb, size_t n, size_t shown);
char *md_common_clause(struct md *d);

#endif
