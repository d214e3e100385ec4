/*
 * rhs.c - autotest's ".RHS" result tables (netperf, ffsb, ntttcp,
 * performance.py), as written by all three generations of its writers:
 *
 *   2012 and later   "### key : value" preamble, "Category:TCP_STREAM" or
 *                    "Category:TCP_STREAM (RX)" before each table
 *   2011             "#ver# text" and "#desc# text" preamble lines
 *   oldest           a bare protocol line ("TCP_STREAM") before each table
 *
 * followed by a '|'-separated header and '|'-separated, padded rows.  The
 * first suite->ignore_col columns of a row are its key; every other cell
 * is one sample.  How the corners are read (the report and tests rely on
 * these):
 *
 * - Context: "### key : value" gives key (split at the first ':'),
 *   "#ver# text" gives "ver" and "#desc# text" gives "desc".  A key given
 *   on several lines of one file gets its values joined with "; " in the
 *   order of the file.  Any other line that starts with '#' is a comment.
 * - Group: the text after "Category:", or a bare line (no '|', not a
 *   preamble line); "" for a table that comes before any group line.  A
 *   bare line that no header follows is ignored with a warning.
 * - Header: the first '|' line after a group line, or the first '|' line
 *   of the file.  Titles are trimmed, must be non-empty and distinct.
 * - Key: "title=value" for each key column, joined by ','; values are
 *   trimmed text ("None" stays "None").  With ignore_col = 0 there is no
 *   key, and the benchmark is "row=N", N the 1-based ordinal of the row
 *   after its header: matching then falls back to position, the only
 *   thing such a table offers.  (group, key) must be unique in a file.
 * - A '|' at the very end of a line ends it; it opens no empty column.
 * - Columns in messages are 1-based byte columns; a UTF-8 BOM at the
 *   start of the file is skipped and not counted.
 * - Tables of one column (no '|' at all) cannot be told from group lines
 *   and are not supported.
 *
 * One pass over the buffer; the titles are split, and their metric names
 * interned, once per header; keys are built in one reused strbuf and
 * interned once per row; a row's values go to the table together
 * (pv_emit_row()), and nothing is allocated per row or cell.
 */
#include "reader.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "../util/num.h"
#include "../util/strbuf.h"
#include "../util/text.h"
#include "../util/banned.h"

/* Longest piece of input quoted in a message. */
#define QUOTE_MAX 64

struct span {
	const char *p;
	size_t n;
};

/* The rows of a file: (group, key) as table strings, with the line of
 * each.  Open addressing on the strings' own hashes, at most half full;
 * the slots hold indices, so that growing clears little memory. */
struct row_ent {
	const char *group, *key;
	unsigned long line;
};

struct rowset {
	struct row_ent *e;
	size_t n, alloc;
	uint32_t *slot;         /* entry + 1, or 0 */
	size_t nslots;
};

static size_t row_slot(const char *group, const char *key, size_t mask)
{
	return (size_t)(pv_str_hash(key) ^
			pv_str_hash(group) * 0x9e3779b97f4a7c15ULL) & mask;
}

/* Add a row seen at line; returns 0, or the line it was first seen at. */
static unsigned long rowset_put(struct rowset *rs, const char *group,
				const char *key, unsigned long line)
{
	size_t j, mask;

	if (2 * (rs->n + 1) > rs->nslots) {
		rs->nslots = rs->nslots ? 2 * rs->nslots : 256;
		free(rs->slot);
		rs->slot = pv_calloc(rs->nslots, sizeof(*rs->slot));
		mask = rs->nslots - 1;
		for (size_t i = 0; i < rs->n; i++) {
			j = row_slot(rs->e[i].group, rs->e[i].key, mask);
			while (rs->slot[j])
				j = (j + 1) & mask;
			rs->slot[j] = (uint32_t)(i + 1);
		}
	}
	mask = rs->nslots - 1;
	for (j = row_slot(group, key, mask); rs->slot[j]; j = (j + 1) & mask) {
		const struct row_ent *e = &rs->e[rs->slot[j] - 1];

		if (e->key == key && e->group == group)
			return e->line;
	}
	if (rs->n == rs->alloc) {
		rs->alloc = rs->alloc ? 2 * rs->alloc : 128;
		rs->e = pv_reallocarray(rs->e, rs->alloc, sizeof(*rs->e));
	}
	rs->e[rs->n].group = group;
	rs->e[rs->n].key = key;
	rs->e[rs->n].line = line;
	rs->slot[j] = (uint32_t)++rs->n;
	return 0;
}

/* One preamble key of this file, its lines joined with "; ". */
struct rhs_kv {
	char *key;
	struct strbuf value;
};

struct rhs {
	struct pv_read_ctx *ctx;
	struct pv_err *err;
	const char *path;
	size_t ignore_col;
	size_t max_line;

	struct strbuf group;
	unsigned long group_line;   /* group line waiting for its header */
	int need_header;
	int tables;                 /* headers seen in the file */

	struct strbuf names;        /* trimmed titles, NUL-separated */
	size_t *name_off;
	const char **title;
	const char **metric;        /* the table's copies of the titles */
	double *val;                /* a row's values */
	const char *igroup;         /* the table's copy of the group */
	struct pv_cell_ratio *ratio; /* avg_update, in value columns */
	size_t ncols, alloc_cols;
	unsigned long header_line;
	unsigned long rowno;        /* rows since the header */

	struct span *cell;
	size_t alloc_cell;
	struct strbuf key;
	struct rowset seen;         /* row keys of the file, with their line */

	struct rhs_kv *kv;
	size_t nkv, alloc_kv;
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static struct span trim(const char *p, size_t n)
{
	struct span s;

	while (n && is_blank(*p))
		p++, n--;
	while (n && is_blank(p[n - 1]))
		n--;
	s.p = p;
	s.n = n;
	return s;
}

static int starts_with(const char *p, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && !memcmp(p, prefix, k);
}

/* Append s to the preamble key, joining repeated lines with "; ". */
static void add_context(struct rhs *r, const char *key, size_t keylen,
			struct span v)
{
	struct rhs_kv *kv = NULL;

	for (size_t i = 0; i < r->nkv; i++)
		if (strlen(r->kv[i].key) == keylen &&
		    !memcmp(r->kv[i].key, key, keylen)) {
			kv = &r->kv[i];
			break;
		}
	if (!kv) {
		if (r->nkv == r->alloc_kv) {
			r->alloc_kv = r->alloc_kv ? 2 * r->alloc_kv : 8;
			r->kv = pv_reallocarray(r->kv, r->alloc_kv,
						sizeof(*r->kv));
		}
		kv = &r->kv[r->nkv++];
		kv->key = pv_malloc(keylen + 1);
		memcpy(kv->key, key, keylen);
		kv->key[keylen] = '\0';
		strbuf_init(&kv->value, 0);
	}
	if (!v.n)
		return;
	if (kv->value.len)
		strbuf_addstr(&kv->value, "; ");
	strbuf_add(&kv->value, v.p, v.n);
}

/* A line starting with '#'.  Only the preamble forms mean anything. */
static void read_preamble(struct rhs *r, const char *s, size_t n,
			  unsigned long lineno)
{
	if (starts_with(s, n, "#ver#")) {
		add_context(r, "ver", 3, trim(s + 5, n - 5));
	} else if (starts_with(s, n, "#desc#")) {
		add_context(r, "desc", 4, trim(s + 6, n - 6));
	} else if (starts_with(s, n, "###")) {
		struct span body = trim(s + 3, n - 3), k;
		const char *colon = memchr(body.p, ':', body.n);

		if (!body.n)
			return;
		if (!colon) {
			pv_warn(r->ctx, PV_M_IGNORED_PREAMBLE, lineno,
				"ignoring preamble line without ' : ': '%.*s'",
				(int)(body.n > QUOTE_MAX ? QUOTE_MAX : body.n),
				body.p);
			return;
		}
		k = trim(body.p, (size_t)(colon - body.p));
		if (!k.n) {
			pv_warn(r->ctx, PV_M_IGNORED_PREAMBLE, lineno,
				"ignoring preamble line with an empty key");
			return;
		}
		add_context(r, k.p, k.n,
			    trim(colon + 1,
				 (size_t)(body.p + body.n - colon - 1)));
	}
}

static void set_group(struct rhs *r, struct span g, unsigned long lineno)
{
	if (r->need_header && r->group_line)
		pv_warn(r->ctx, PV_M_NO_TABLE, r->group_line,
			"ignoring '%.*s': no table follows it",
			(int)(r->group.len > QUOTE_MAX ? QUOTE_MAX :
			      r->group.len), r->group.buf);
	strbuf_reset(&r->group);
	strbuf_add(&r->group, g.p, g.n);
	r->group_line = lineno;
	r->need_header = 1;
}

static void add_cell(struct rhs *r, size_t k, const char *p, const char *end)
{
	if (k == r->alloc_cell) {
		r->alloc_cell = r->alloc_cell ? 2 * r->alloc_cell : 32;
		r->cell = pv_reallocarray(r->cell, r->alloc_cell,
					  sizeof(*r->cell));
	}
	r->cell[k].p = p;
	r->cell[k].n = (size_t)(end - p);
}

/*
 * Split a line at '|' into r->cell; returns the number of cells.  Cells
 * are short, so rather than a memchr() per cell, a mask of the bars of
 * 16 bytes at a time (SSE2, which every x86-64 has), or 8 elsewhere:
 * there a byte of x is 0 where the line has a '|', and the exact
 * zero-byte test (Hacker's Delight 6-1) marks just those bytes.
 */
#ifdef __SSE2__
#define CHUNK 16
static uint64_t bars(const char *q)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)q);

	x = _mm_cmpeq_epi8(x, _mm_set1_epi8('|'));
	return (uint64_t)_mm_movemask_epi8(x);
}
#else
#define CHUNK 8
#define ONES 0x0101010101010101ULL
static uint64_t bars(const char *q)
{
	uint64_t x, m = 0;

	memcpy(&x, q, 8);
	x ^= '|' * ONES;
	x = ~(((x & 0x7f * ONES) + 0x7f * ONES) | x | 0x7f * ONES);
	/* One bit per byte, the first byte's lowest, in any byte order. */
	for (int i = 0; i < 8; i++)
		m |= (uint64_t)((x >> (8 * i + 7)) & 1) << i;
	return m;
}
#endif

static size_t split(struct rhs *r, const char *p, size_t n)
{
	const char *end = p + n, *q = p, *start = p;
	size_t k = 0;

	for (; end - q >= CHUNK; q += CHUNK) {
		for (uint64_t m = bars(q); m; m &= m - 1) {
			const char *bar = q + __builtin_ctzll(m);

			add_cell(r, k++, start, bar);
			start = bar + 1;
		}
	}
	for (; q < end; q++)
		if (*q == '|') {
			add_cell(r, k++, start, q);
			start = q + 1;
		}
	add_cell(r, k++, start, end);
	return k;
}

static int cmp_title(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static size_t title_index(const struct rhs *r, const char *t)
{
	for (size_t i = 0; i < r->ncols; i++)
		if (r->title[i] == t)
			return i;
	return 0;
}

static int check_ratio_col(struct rhs *r, int c, unsigned long lineno)
{
	if (c < 0 || (size_t)c >= r->ncols)
		return pv_error_at(r->err, PV_M_BAD_COLUMN_SETTING, r->path, lineno,
				   "avg_update column %d is out of range: "
				   "the header has %zu columns (0-%zu)",
				   c, r->ncols, r->ncols - 1);
	if ((size_t)c < r->ignore_col)
		return pv_error_at(r->err, PV_M_BAD_COLUMN_SETTING, r->path, lineno,
				   "avg_update column %d ('%s') is a key "
				   "column (ignore_col = %zu)",
				   c, r->title[c], r->ignore_col);
	return 0;
}

/* A header with no rows under it (a benchmark that died after
 * printing it) says nothing, but it should not pass unnoticed. */
static void warn_empty_table(struct rhs *r)
{
	if (r->tables && !r->rowno)
		pv_warn(r->ctx, PV_M_NO_ROWS, r->header_line,
			"the table has a header but no rows");
}

/* line[0..n) is a whole line, from its first byte. */
static int read_header(struct rhs *r, const char *line, size_t n,
		       unsigned long lineno)
{
	const struct pv_suite *suite = r->ctx->suite;
	size_t k = split(r, line, n);
	const char **sorted;

	if (k > r->alloc_cols) {
		r->alloc_cols = k;
		r->name_off = pv_reallocarray(r->name_off, k + 1,
					      sizeof(*r->name_off));
		r->title = pv_reallocarray(r->title, 2 * k, sizeof(*r->title));
		r->metric = pv_reallocarray(r->metric, k, sizeof(*r->metric));
		r->val = pv_reallocarray(r->val, k, sizeof(*r->val));
	}
	strbuf_reset(&r->names);
	for (size_t i = 0; i < k; i++) {
		struct span t = trim(r->cell[i].p, r->cell[i].n);

		if (!t.n)
			return pv_error(r->err, PV_M_EMPTY_NAME,
					"%s:%lu:%zu: empty title of column %zu "
					"in the header", r->path, lineno,
					(size_t)(r->cell[i].p - line) + 1, i);
		r->name_off[i] = r->names.len;
		strbuf_add(&r->names, t.p, t.n);
		strbuf_addch(&r->names, '\0');
	}
	/* Title i is name_off[i + 1] - name_off[i] - 1 bytes long. */
	r->name_off[k] = r->names.len;
	for (size_t i = 0; i < k; i++)
		r->title[i] = r->names.buf + r->name_off[i];
	warn_empty_table(r);
	r->ncols = k;
	r->header_line = lineno;
	r->rowno = 0;

	/* Distinct titles: the second half of title[] is scratch. */
	sorted = r->title + k;
	memcpy(sorted, r->title, k * sizeof(*sorted));
	qsort(sorted, k, sizeof(*sorted), cmp_title);
	for (size_t i = 1; i < k; i++)
		if (!strcmp(sorted[i - 1], sorted[i])) {
			size_t a = title_index(r, sorted[i - 1]);
			size_t b = title_index(r, sorted[i]);

			return pv_error_at(r->err, PV_M_DUPLICATE_COLUMN, r->path, lineno,
					   "duplicate column title '%s' "
					   "(columns %zu and %zu)", sorted[i],
					   a < b ? a : b, a < b ? b : a);
		}

	if (r->ignore_col > k)
		return pv_error_at(r->err, PV_M_BAD_COLUMN_SETTING, r->path, lineno,
				   "ignore_col = %zu but the header has only "
				   "%zu columns", r->ignore_col, k);
	if (r->ignore_col == k)
		pv_warn(r->ctx, PV_M_NO_VALUE_COLUMNS, lineno, "every column is a key column "
			"(ignore_col = %zu): this table has no values",
			r->ignore_col);
	for (size_t i = 0; i < suite->nratios; i++) {
		const struct pv_ratio *q = &suite->ratios[i];

		if (check_ratio_col(r, q->dst, lineno) ||
		    check_ratio_col(r, q->num, lineno) ||
		    check_ratio_col(r, q->den, lineno))
			return -1;
	}
	for (size_t i = r->ignore_col; i < k; i++)
		r->metric[i] = pv_intern(r->ctx, r->title[i]);
	if (suite->nratios && !r->ratio)
		r->ratio = pv_reallocarray(NULL, suite->nratios,
					   sizeof(*r->ratio));
	for (size_t i = 0; i < suite->nratios; i++) {
		const struct pv_ratio *q = &suite->ratios[i];

		r->ratio[i].dst = (size_t)q->dst - r->ignore_col;
		r->ratio[i].num = (size_t)q->num - r->ignore_col;
		r->ratio[i].den = (size_t)q->den - r->ignore_col;
	}
	r->igroup = pv_intern_n(r->ctx, r->group.buf, r->group.len);
	r->need_header = 0;
	r->group_line = 0;
	r->tables++;
	return 0;
}

static int bad_number(struct rhs *r, const char *lstart, unsigned long lineno,
		      struct span c, enum pv_num st, const char *title)
{
	struct span t = trim(c.p, c.n);
	size_t col = (size_t)((t.n ? t.p : c.p) - lstart) + 1;

	return pv_error(r->err, PV_M_BAD_NUMBER,
			"%s:%lu:%zu: cannot parse '%.*s%s' as a number "
			"in column '%s' (%s)", r->path, lineno, col,
			(int)(t.n > QUOTE_MAX ? QUOTE_MAX : t.n), t.p,
			t.n > QUOTE_MAX ? "..." : "", title,
			pv_num_strerror(st));
}

/* The row's value columns before column end, and nratio ratios. */
static int emit(struct rhs *r, const char *bench, size_t end, size_t nratio)
{
	size_t ic = r->ignore_col;

	return pv_emit_row(r->ctx, r->igroup, bench, r->metric + ic,
			   r->val + ic, end - ic, r->ratio, nratio, r->err);
}

static int read_row(struct rhs *r, const char *line, size_t n,
		    unsigned long lineno)
{
	const struct pv_suite *suite = r->ctx->suite;
	size_t k = split(r, line, n);
	unsigned long first;
	const char *bench;

	if (k != r->ncols)
		return pv_error_at(r->err, PV_M_FIELD_COUNT, r->path, lineno,
				   "row has %zu columns but the header at "
				   "line %lu has %zu", k, r->header_line,
				   r->ncols);
	r->rowno++;
	strbuf_reset(&r->key);
	if (!r->ignore_col)
		strbuf_addf(&r->key, "row=%lu", r->rowno);
	for (size_t i = 0; i < r->ignore_col; i++) {
		struct span v = trim(r->cell[i].p, r->cell[i].n);
		size_t tn = r->name_off[i + 1] - r->name_off[i] - 1;
		char *p;

		/* "title=value", written in place: once per row. */
		strbuf_grow(&r->key, tn + v.n + 2);
		p = r->key.buf + r->key.len;
		if (i)
			*p++ = ',';
		memcpy(p, r->title[i], tn);
		p += tn;
		*p++ = '=';
		memcpy(p, v.p, v.n);
		strbuf_setlen(&r->key, (size_t)(p + v.n - r->key.buf));
	}

	/* The group is part of the identity. */
	bench = pv_intern_n(r->ctx, r->key.buf, r->key.len);
	first = rowset_put(&r->seen, r->igroup, bench, lineno);
	/* Most often the table has more key columns than the suite says
	 * (autotest's netperf has two: size and sessions), or no perf.conf
	 * was given at all: say how to tell. */
	if (first && r->ignore_col < r->ncols - 1)
		return pv_error_at(r->err, PV_M_DUPLICATE_ROW, r->path, lineno,
				   "duplicate row key '%s' in group '%s' "
				   "(first at line %lu): if column %zu ('%s') "
				   "is a key column too, set ignore_col = %zu "
				   "in the suite (e.g. -c perf.conf)",
				   r->key.buf, r->group.buf, first,
				   r->ignore_col + 1, r->title[r->ignore_col],
				   r->ignore_col + 1);
	if (first)
		return pv_error_at(r->err, PV_M_DUPLICATE_ROW, r->path, lineno,
				   "duplicate row key '%s' in group '%s' "
				   "(first at line %lu)", r->key.buf,
				   r->group.buf, first);

	for (size_t i = r->ignore_col; i < k; i++) {
		enum pv_num st = pv_parse_double(r->cell[i].p, r->cell[i].n,
						 &r->val[i]);

		/* The cells before it are still added, and may fail
		 * first, as one by one they would. */
		if (st != PV_NUM_OK)
			return emit(r, bench, i, 0) ? -1 :
			       bad_number(r, line, lineno, r->cell[i], st,
					  r->title[i]);
	}
	return emit(r, bench, k, suite->nratios);
}

static int read_line(struct rhs *r, const char *p, size_t n,
		     unsigned long lineno)
{
	struct span s;

	if (r->max_line && n > r->max_line)
		return pv_error_at(r->err, PV_M_LINE_TOO_LONG, r->path, lineno,
				   "line is longer than %zu bytes (limits.max_line)",
				   r->max_line);
	if (n && p[n - 1] == '\r')
		n--;
	s = trim(p, n);
	if (!s.n)
		return 0;
	if (*s.p == '#') {
		read_preamble(r, s.p, s.n, lineno);
		return 0;
	}
	if (starts_with(s.p, s.n, "Category:")) {
		set_group(r, trim(s.p + 9, s.n - 9), lineno);
		return 0;
	}
	if (!memchr(s.p, '|', s.n)) {
		set_group(r, s, lineno);
		return 0;
	}
	/* A '|' that ends the line closes the last cell. */
	n = (size_t)(s.p + s.n - p);
	if (p[n - 1] == '|')
		n--;
	if (r->need_header)
		return read_header(r, p, n, lineno);
	return read_row(r, p, n, lineno);
}

static void rhs_release(struct rhs *r)
{
	strbuf_release(&r->group);
	strbuf_release(&r->names);
	free(r->name_off);
	free(r->title);
	free(r->metric);
	free(r->val);
	free(r->ratio);
	free(r->cell);
	strbuf_release(&r->key);
	free(r->seen.e);
	free(r->seen.slot);
	for (size_t i = 0; i < r->nkv; i++) {
		free(r->kv[i].key);
		strbuf_release(&r->kv[i].value);
	}
	free(r->kv);
}

static int rhs_read(struct pv_read_ctx *ctx, const char *buf, size_t len,
		    struct pv_err *err)
{
	struct rhs r = {
		.ctx = ctx, .err = err, .path = ctx->path,
		.group = STRBUF_INIT, .names = STRBUF_INIT,
		.key = STRBUF_INIT,
		.need_header = 1,
	};
	const char *p = buf, *end = buf + len, *nul;
	unsigned long lineno = 0;
	int ret = 0;

	if (ctx->suite->ignore_col < 0)
		return pv_error(err, PV_M_BAD_COLUMN_SETTING, "%s: ignore_col = %d is "
				"negative", ctx->path, ctx->suite->ignore_col);
	r.ignore_col = (size_t)ctx->suite->ignore_col;
	r.max_line = ctx->cfg ? ctx->cfg->limits.max_line : 0;
	if (len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3))
		p += 3;
	nul = memchr(p, '\0', len - (size_t)(p - buf));
	if (nul) {
		unsigned long l = 1;

		for (const char *q = p; q < nul; q++)
			l += *q == '\n';
		return pv_error_at(err, PV_M_BINARY_FILE, ctx->path, l,
				   "unexpected NUL byte: not a text file");
	}

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *stop = nl ? nl : end;

		ret = read_line(&r, p, (size_t)(stop - p), ++lineno);
		if (ret)
			goto out;
		p = nl ? nl + 1 : end;
	}

	if (r.tables && !r.rowno && !ctx->emitted)
		pv_no_results(ctx, r.header_line,
			      "the table has a header but no rows");
	else
		warn_empty_table(&r);
	if (r.need_header && r.group_line)
		pv_warn(ctx, PV_M_NO_TABLE, r.group_line, "ignoring '%.*s': no table follows it",
			(int)(r.group.len > QUOTE_MAX ? QUOTE_MAX : r.group.len),
			r.group.buf);
	if (!r.tables)
		pv_no_results(ctx, 0, "no table found: expected a "
			      "'|'-separated header, then rows%s",
			      r.nkv ? " (the file has only a preamble)" : "");
	for (size_t i = 0; i < r.nkv; i++)
		pv_context(ctx, r.kv[i].key, r.kv[i].value.buf);
out:
	rhs_release(&r);
	return ret;
}

static int rhs_probe(const char *relpath, const char *head, size_t len)
{
	const char *p = head, *end = head + len;
	int category = 0, preamble = 0, bar = 0;

	if (relpath && pv_ends_with(relpath, ".rhs", 1))
		return 90;
	if (len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3))
		p += 3;
	/* no '|' anywhere: no header line, whatever else the file holds
	 * (the line by line scan of a large CSV point is spared) */
	if (!memchr(p, '|', (size_t)(end - p)))
		return 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct span s = trim(p, (size_t)((nl ? nl : end) - p));

		if (starts_with(s.p, s.n, "Category:"))
			category = 1;
		else if (starts_with(s.p, s.n, "### ") ||
			 starts_with(s.p, s.n, "#ver#") ||
			 starts_with(s.p, s.n, "#desc#"))
			preamble = 1;
		else if (s.n && *s.p != '#' && memchr(s.p, '|', s.n))
			bar = 1;
		p = nl ? nl + 1 : end;
	}
	if (bar && category)
		return 60;
	if (bar && preamble)
		return 50;
	return 0;
}

const struct pv_reader pv_reader_rhs = {
	"rhs",
	"autotest .RHS tables: *.RHS, or 'Category:' lines with a "
	"'|'-separated header",
	rhs_probe,
	rhs_read,
};
