/*
 * csv.c - long-form CSV: one sample per record.
 *
 *   group,benchmark,metric,unit,value
 *   build,kernbench-1x,elapsed,s,512.3
 *
 * The header names the columns (trimmed, case-sensitive).  "benchmark"
 * and "value" are required; "metric" (default "value"), "unit" (default
 * "") and "group" (default "") are optional, and other columns are
 * ignored.  Records that repeat a (group, benchmark, metric) are repeated
 * runs.
 *
 * The summary form has "mean", "sd" (or "stddev", "stdev") and "n" in
 * place of "value", for results that kept only summary statistics (a
 * mailing list's benchmark matrix): each record is one summary, given to
 * pv_emit_summary(), so a (group, benchmark, metric) appears once per
 * file.  n is a whole number >= 1, sd a finite number >= 0.  A header
 * with "value" is the sample form whatever else it names.
 *
 * The probe claims a file only when its header names the required
 * columns of one of the forms, whatever the file is called: criterion's
 * raw.csv or a stray notes.csv is not this format.  How the corners are
 * read:
 *
 * - Quoting follows RFC 4180: a quoted field may hold ',', '"' written as
 *   '""', and line breaks.  Records end at LF or CRLF.  Blanks around a
 *   field, and around the quotes of a quoted one, are dropped.  A '"'
 *   inside an unquoted field is kept as it is.
 * - Blank lines are skipped; a UTF-8 BOM at the start is skipped and not
 *   counted in columns.
 * - Every record has as many fields as the header.
 * - An empty metric cell means the default "value"; an empty benchmark
 *   is an error.  The unit of a (group, benchmark, metric) may not change
 *   between records of one file.
 * - Columns in messages are 1-based byte columns of a field's first
 *   character (inside the quotes for a quoted field).
 */
#include "reader.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../util/num.h"
#include "../util/strbuf.h"
#include "../util/strmap.h"
#include "../util/text.h"
#include "../util/banned.h"

#define QUOTE_MAX 64

/* One field of the current record: its text is fields.buf + off. */
struct field {
	size_t off, len;
	unsigned long line;
	size_t col;
};

struct csv {
	struct pv_err *err;
	const char *path;
	const char *p, *end;
	const char *lstart;     /* start of the current physical line */
	unsigned long line;
	struct strbuf fields;   /* unescaped fields, NUL-separated */
	struct field *f;
	size_t nf, alloc;
};

enum {
	COL_BENCHMARK, COL_VALUE, COL_METRIC, COL_UNIT, COL_GROUP,
	COL_MEAN, COL_SD, COL_N, NCOLS
};
static const char *const colname[NCOLS] = {
	"benchmark", "value", "metric", "unit", "group", "mean", "sd", "n",
};

/* The column a header title names, or -1: "stddev" and "stdev" are
 * other spellings of "sd". */
static int col_index(const char *s, size_t len)
{
	if ((len == 6 && !memcmp(s, "stddev", 6)) ||
	    (len == 5 && !memcmp(s, "stdev", 5)))
		return COL_SD;
	for (int k = 0; k < NCOLS; k++)
		if (strlen(colname[k]) == len && !memcmp(s, colname[k], len))
			return k;
	return -1;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static size_t col_of(const struct csv *c, const char *q)
{
	return (size_t)(q - c->lstart) + 1;
}

/* c->f, grown: it is full. */
static struct field *more_fields(struct csv *c)
{
	c->alloc = c->alloc ? 2 * c->alloc : 16;
	c->f = pv_reallocarray(c->f, c->alloc, sizeof(*c->f));
	return c->f;
}

static void new_field(struct csv *c, const char *at)
{
	struct field *f;

	if (c->nf == c->alloc)
		more_fields(c);
	f = &c->f[c->nf++];
	f->off = c->fields.len;
	f->len = 0;
	f->line = c->line;
	f->col = col_of(c, at);
}

static void end_field(struct csv *c)
{
	struct field *f = &c->f[c->nf - 1];

	f->len = c->fields.len - f->off;
	strbuf_addch(&c->fields, '\0');
}

/* The rest of a quoted field, c->p just after the opening quote. */
static int quoted(struct csv *c)
{
	for (;;) {
		const char *q = memchr(c->p, '"', (size_t)(c->end - c->p));
		const char *nl;

		/* Point at the opening quote, just before the field. */
		if (!q)
			return pv_error(c->err, PV_M_MALFORMED_CSV,
					"%s:%lu:%zu: unterminated quoted field",
					c->path, c->f[c->nf - 1].line,
					c->f[c->nf - 1].col - 1);
		/* Line breaks inside the quotes still count as lines. */
		for (const char *s = c->p;
		     (nl = memchr(s, '\n', (size_t)(q - s))); s = nl + 1) {
			c->line++;
			c->lstart = nl + 1;
		}
		strbuf_add(&c->fields, c->p, (size_t)(q - c->p));
		if (q + 1 < c->end && q[1] == '"') {
			strbuf_addch(&c->fields, '"');
			c->p = q + 2;
			continue;
		}
		c->p = q + 1;
		return 0;
	}
}

/*
 * Bytes of a word, each its top bit: those that are 0, and those below
 * n (< 0x80).  Exact for every byte: no carry crosses into the next one
 * (unlike the usual test for whether there is any zero byte).
 */
#define ONES 0x0101010101010101ULL

static uint64_t zero_bytes(uint64_t w)
{
	const uint64_t low7 = 0x7f * ONES;

	return ~(((w & low7) + low7) | w | low7);
}

static uint64_t bytes_below(uint64_t w, unsigned n)
{
	const uint64_t low7 = 0x7f * ONES;

	return ~(((w & low7) + (0x80 - n) * ONES) | w | low7);
}

/*
 * next_record() for the usual record: one line that ends with '\n' and
 * has no byte below '#' before it (so no blank, '\r', quote or control
 * character), read eight bytes at a time: each word's commas and the
 * first such byte, which must be the '\n', found at once.  Its fields
 * are the ones plain_record() would cut (there is nothing to trim).
 * Returns 0 for any other line (or one too close to the end of the
 * buffer to read by words), leaving it unread (c->f may have grown) for
 * next_record() to read as before.
 */
static int simple_record(struct csv *c, int *blank)
{
	const char *line = c->p, *q = line, *start = line, *end = c->end;
	const char *eol = NULL;
	size_t col0 = col_of(c, line), nf = 0, alloc = c->alloc;
	unsigned long lno = c->line;
	struct field *fv = c->f;
	char *copy;

	while (!eol) {
		uint64_t w, low, comma;

		if (end - q < 8)
			return 0;
		memcpy(&w, q, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		w = __builtin_bswap64(w);
#endif
		low = bytes_below(w, '#');
		comma = zero_bytes(w ^ ',' * ONES);
		if (low) {
			uint64_t first = low & -low;

			if (!(first & zero_bytes(w ^ '\n' * ONES)))
				return 0;
			/* the commas before it are this line's */
			comma &= first - 1;
			eol = q + (__builtin_ctzll(first) >> 3);
		}
		for (; comma; comma &= comma - 1) {
			const char *stop = q + (__builtin_ctzll(comma) >> 3);

			if (nf == alloc) {
				fv = more_fields(c);
				alloc = c->alloc;
			}
			fv[nf].off = (size_t)(start - line);
			fv[nf].len = (size_t)(stop - start);
			fv[nf].line = lno;
			fv[nf].col = col0 + fv[nf].off;
			nf++;
			start = stop + 1;
		}
		q += 8;
	}
	if (eol == line)
		return 0;       /* a blank line */
	if (nf == alloc)
		fv = more_fields(c);
	fv[nf].off = (size_t)(start - line);
	fv[nf].len = (size_t)(eol - start);
	fv[nf].line = lno;
	fv[nf].col = col0 + fv[nf].off;
	nf++;
	/* the copy, each field ended where its comma was */
	strbuf_grow(&c->fields, (size_t)(eol - line) + 1);
	copy = c->fields.buf;
	memcpy(copy, line, (size_t)(eol - line));
	for (size_t i = 0; i < nf; i++)
		copy[fv[i].off + fv[i].len] = '\0';
	c->fields.len = (size_t)(eol - line);
	c->nf = nf;
	*blank = 0;
	c->p = eol + 1;
	c->line = lno + 1;
	c->lstart = c->p;
	return 1;
}

/*
 * next_record() for a record that is one line without a quote, the line
 * ending at eol ('\n' or the end): the same fields, cut the same way,
 * but the line copied in one piece and each field ended in the copy
 * (its end is never past the comma or the line end that follows it).
 */
static int plain_record(struct csv *c, const char *eol, int *blank)
{
	const char *line = c->p, *p = line;
	char *copy;

	strbuf_grow(&c->fields, (size_t)(eol - line) + 1);
	copy = c->fields.buf;
	memcpy(copy, line, (size_t)(eol - line));
	for (;;) {
		const char *start, *stop;
		struct field *f;

		while (p < eol && is_blank(*p))
			p++;
		start = p;
		while (p < eol && *p != ',')
			p++;
		stop = p;
		if (p == eol && stop > start && stop[-1] == '\r')
			stop--;
		while (stop > start && is_blank(stop[-1]))
			stop--;
		if (stop > start || p < eol)
			*blank = 0;
		if (c->nf == c->alloc) {
			c->alloc = c->alloc ? 2 * c->alloc : 16;
			c->f = pv_reallocarray(c->f, c->alloc, sizeof(*c->f));
		}
		f = &c->f[c->nf++];
		f->off = (size_t)(start - line);
		f->len = (size_t)(stop - start);
		f->line = c->line;
		f->col = col_of(c, start);
		copy[stop - line] = '\0';
		if (p == eol)
			break;
		p++;
	}
	c->fields.len = (size_t)(eol - line);
	copy[c->fields.len] = '\0';
	if (eol < c->end) {
		c->p = eol + 1;
		c->line++;
		c->lstart = c->p;
	} else {
		c->p = eol;
	}
	return 1;
}

/*
 * Read one record into c->fields and c->f.  Returns 1 when a record was
 * read, 0 at the end of input, -1 on error.  *blank is set when the
 * record is a blank line.
 */
static int next_record(struct csv *c, int *blank)
{
	const char *eol;

	if (c->p >= c->end)
		return 0;
	strbuf_reset(&c->fields);
	c->nf = 0;
	*blank = 1;
	if (simple_record(c, blank))
		return 1;
	eol = memchr(c->p, '\n', (size_t)(c->end - c->p));
	if (!eol)
		eol = c->end;
	if (!memchr(c->p, '"', (size_t)(eol - c->p)))
		return plain_record(c, eol, blank);
	for (;;) {
		while (c->p < c->end && is_blank(*c->p))
			c->p++;
		if (c->p < c->end && *c->p == '"') {
			*blank = 0;
			c->p++;
			new_field(c, c->p);
			if (quoted(c))
				return -1;
			end_field(c);
			while (c->p < c->end && is_blank(*c->p))
				c->p++;
			if (c->p < c->end && *c->p == '\r' &&
			    (c->p + 1 == c->end || c->p[1] == '\n'))
				c->p++;
			if (c->p < c->end && *c->p != ',' && *c->p != '\n')
				return pv_error(c->err, PV_M_MALFORMED_CSV,
						"%s:%lu:%zu: unexpected '%c' "
						"after a closing quote",
						c->path, c->line,
						col_of(c, c->p), *c->p);
		} else {
			const char *start = c->p, *stop;

			while (c->p < c->end && *c->p != ',' &&
			       *c->p != '\n')
				c->p++;
			stop = c->p;
			if (stop > start && stop[-1] == '\r' &&
			    (stop == c->end || *stop == '\n'))
				stop--;
			while (stop > start && is_blank(stop[-1]))
				stop--;
			if (stop > start || (c->p < c->end && *c->p == ','))
				*blank = 0;
			new_field(c, start);
			strbuf_add(&c->fields, start, (size_t)(stop - start));
			end_field(c);
		}
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			continue;
		}
		if (c->p < c->end) {    /* '\n' */
			c->p++;
			c->line++;
			c->lstart = c->p;
		}
		return 1;
	}
}

static const char *fld(const struct csv *c, size_t i)
{
	return c->fields.buf + c->f[i].off;
}

static int quote_len(size_t n)
{
	return (int)(n > QUOTE_MAX ? QUOTE_MAX : n);
}

static int read_header(struct csv *c, long *idx, int *summary)
{
	unsigned long line = c->f[0].line;

	for (int k = 0; k < NCOLS; k++)
		idx[k] = -1;
	for (size_t i = 0; i < c->nf; i++) {
		const char *name = fld(c, i);
		int k = col_index(name, c->f[i].len);

		if (k < 0)
			continue;
		if (idx[k] >= 0)
			return pv_error(c->err, PV_M_DUPLICATE_COLUMN,
					"%s:%lu:%zu: column '%s' "
					"appears twice in the header "
					"(fields %ld and %zu)", c->path,
					c->f[i].line, c->f[i].col,
					name, idx[k] + 1, i + 1);
		idx[k] = (long)i;
	}
	if (idx[COL_BENCHMARK] < 0)
		return pv_error_at(c->err, PV_M_MISSING_COLUMN, c->path, line,
				   "missing required column 'benchmark' in "
				   "the header");
	*summary = idx[COL_VALUE] < 0 && idx[COL_MEAN] >= 0;
	if (!*summary && idx[COL_VALUE] < 0)
		return pv_error_at(c->err, PV_M_MISSING_COLUMN, c->path, line,
				   "missing required column 'value' in "
				   "the header (or 'mean', 'sd' and 'n' "
				   "for summaries)");
	if (*summary && (idx[COL_SD] < 0 || idx[COL_N] < 0))
		return pv_error_at(c->err, PV_M_MISSING_COLUMN, c->path, line,
				   "missing required column '%s' in the "
				   "header: a summary needs 'mean', 'sd' "
				   "(or 'stddev') and 'n'",
				   idx[COL_SD] < 0 ? "sd" : "n");
	return 0;
}

/* The number in column k of the record, or an error naming the cell. */
static int cell_num(struct csv *c, const long *idx, int k, double *v)
{
	const struct field *f = &c->f[idx[k]];
	const char *text = fld(c, (size_t)idx[k]);
	/* the record's fields are one buffer: the cells before can be read */
	enum pv_num st = pv_parse_double_in(c->fields.buf, text, f->len, v);

	if (st != PV_NUM_OK)
		return pv_error(c->err, PV_M_BAD_NUMBER,
				"%s:%lu:%zu: cannot parse '%.*s%s' as "
				"a number in column '%s' (%s)",
				c->path, f->line, f->col,
				quote_len(f->len), text,
				f->len > QUOTE_MAX ? "..." : "",
				colname[k], pv_num_strerror(st));
	return 0;
}

/* The key of a record's (group, benchmark, metric) in the unit map. */
static void unit_key(struct strbuf *key, const char *group,
		     const char *benchmark, const char *metric)
{
	strbuf_reset(key);
	strbuf_addstr(key, group);
	strbuf_addch(key, '\0');
	strbuf_addstr(key, benchmark);
	strbuf_addch(key, '\0');
	strbuf_addstr(key, metric);
}

/* A record's metric name: an empty or missing cell is "value". */
static const char *metric_of(const struct csv *c, const long *idx)
{
	const char *m = idx[COL_METRIC] >= 0 ? fld(c, (size_t)idx[COL_METRIC]) : "";

	return *m ? m : "value";
}

static const char *unit_of(const struct csv *c, const long *idx)
{
	return idx[COL_UNIT] >= 0 ? fld(c, (size_t)idx[COL_UNIT]) : "";
}

static const char *group_of(const struct csv *c, const long *idx)
{
	return idx[COL_GROUP] >= 0 ? fld(c, (size_t)idx[COL_GROUP]) : "";
}

/*
 * The table's copy (pv_intern_n()) of column k of the record, "" when
 * the header has no such column, or dflt for an empty cell.  *last is
 * the column's name in the record before: rows mostly repeat the group,
 * metric and unit of the row before, and a repeated name then costs a
 * compare, not a lookup.
 */
static inline const char *cell_name(struct pv_read_ctx *ctx,
				    const char **last, const struct csv *c,
				    const long *idx, int k, const char *dflt)
{
	const char *text = idx[k] >= 0 ? fld(c, (size_t)idx[k]) : "";
	size_t len = idx[k] >= 0 ? c->f[idx[k]].len : 0;

	if (!len && dflt) {
		text = dflt;
		len = strlen(dflt);
	}
	if (!*last || !pv_strmap_is(*last, text, len))
		*last = pv_intern_n(ctx, text, len);
	return *last;
}

/*
 * The unit map of the records from data (line `line`) up to stop, which
 * were read before without error: each (group, benchmark, metric)'s
 * unit and the line that gave it first.  read_records() needs the map
 * only once two records differ in unit; until then no record can
 * contradict another, and the map is built from the records read so far
 * when the first one differs, the same map as if it had been kept all
 * along.
 */
static void replay_units(const struct csv *c, const long *idx,
			 const char *data, unsigned long line, const char *stop,
			 struct pv_strmap *units, struct strbuf *key)
{
	struct csv r = {
		.err = c->err, .path = c->path, .p = data, .end = c->end,
		.lstart = data, .line = line, .fields = STRBUF_INIT,
	};
	int blank;

	while (r.p < stop && next_record(&r, &blank) > 0) {
		struct pv_strmap_ent *e;
		int isnew;

		if (blank)
			continue;
		unit_key(key, group_of(&r, idx),
			 fld(&r, (size_t)idx[COL_BENCHMARK]), metric_of(&r, idx));
		e = pv_strmap_put(units, key->buf, key->len, &isnew);
		if (isnew) {
			e->val[1] = r.f[0].line;
			e->str = pv_strmap_keep(units, unit_of(&r, idx));
		}
	}
	strbuf_release(&r.fields);
	free(r.f);
}

static int read_records(struct pv_read_ctx *ctx, struct csv *c,
			struct pv_strmap *units, struct strbuf *key)
{
	long idx[NCOLS];
	size_t ncols = 0, records = 0;
	int header = 0, summary = 0, blank, r;
	/* where the records begin, and the unit all records so far agree
	 * on, the table's string (NULL once two differ: then units is kept,
	 * replay_units()) */
	const char *data = NULL, *rec, *unit0 = NULL;
	unsigned long data_line = 0;
	int mapped = 0;
	/* the last record's metric, unit and group: see cell_name() */
	const char *names[3] = { NULL, NULL, NULL };

	while ((rec = c->p, r = next_record(c, &blank)) > 0) {
		struct pv_sample s;
		struct pv_strmap_ent *e;
		double mean = 0, sd = 0, n = 0;
		int isnew;

		if (blank)
			continue;
		if (!header) {
			if (read_header(c, idx, &summary))
				return -1;
			ncols = c->nf;
			header = 1;
			data = c->p;
			data_line = c->line;
			continue;
		}
		if (c->nf != ncols)
			return pv_error_at(c->err, PV_M_FIELD_COUNT, c->path,
					   c->f[0].line, "record has %zu "
					   "fields but the header has %zu",
					   c->nf, ncols);

		if (!summary && cell_num(c, idx, COL_VALUE, &s.value))
			return -1;
		if (summary && (cell_num(c, idx, COL_MEAN, &mean) ||
				cell_num(c, idx, COL_SD, &sd) ||
				cell_num(c, idx, COL_N, &n)))
			return -1;
		if (summary && !(sd >= 0))
			return pv_error(c->err, PV_M_BAD_SUMMARY,
					"%s:%lu:%zu: sd is negative: expected a standard deviation >= 0",
					c->path, c->f[idx[COL_SD]].line,
					c->f[idx[COL_SD]].col);
		/* (Compared as doubles: a huge n must not reach a cast.) */
		if (summary && (n < 1 || n > 4294967295.0 || n != floor(n)))
			return pv_error(c->err, PV_M_BAD_SUMMARY,
					"%s:%lu:%zu: n is '%s': expected the number of runs, a whole number >= 1",
					c->path, c->f[idx[COL_N]].line,
					c->f[idx[COL_N]].col,
					fld(c, (size_t)idx[COL_N]));
		s.benchmark = fld(c, (size_t)idx[COL_BENCHMARK]);
		if (!*s.benchmark)
			return pv_error(c->err, PV_M_EMPTY_NAME,
					"%s:%lu:%zu: empty 'benchmark' field",
					c->path, c->f[idx[COL_BENCHMARK]].line,
					c->f[idx[COL_BENCHMARK]].col);
		/* The table's strings, so that units and keys compare by
		 * pointer (pv_emit_interned()). */
		s.benchmark = pv_intern_n(ctx, s.benchmark,
					  c->f[idx[COL_BENCHMARK]].len);
		s.metric = cell_name(ctx, &names[0], c, idx, COL_METRIC, "value");
		s.unit = cell_name(ctx, &names[1], c, idx, COL_UNIT, NULL);
		s.group = cell_name(ctx, &names[2], c, idx, COL_GROUP, NULL);
		s.dir = PV_DIR_UNSET;

		/* A metric's unit and where it was first given: needed only
		 * once two records differ in unit. */
		if (!mapped && !unit0) {
			unit0 = s.unit;
		} else if (!mapped && unit0 != s.unit) {
			replay_units(c, idx, data, data_line, rec, units, key);
			mapped = 1;
		}
		if (mapped) {
			unit_key(key, s.group, s.benchmark, s.metric);
			e = pv_strmap_put(units, key->buf, key->len, &isnew);
			if (isnew) {
				e->val[1] = c->f[0].line;
				e->str = pv_strmap_keep(units, s.unit);
			} else if (strcmp(e->str, s.unit)) {
				const struct field *uf = &c->f[idx[COL_UNIT]];

				return pv_error(c->err, PV_M_UNIT_MISMATCH,
						"%s:%lu:%zu: unit '%.*s' of metric "
						"'%s' differs from '%s' at line %lu",
						c->path, uf->line, uf->col,
						quote_len(uf->len), s.unit, s.metric,
						e->str, e->val[1]);
			}
		}
		if (summary ? pv_emit_summary(ctx, &s, (size_t)n, mean, sd,
					      c->err) :
		    pv_emit_interned(ctx, &s, c->err))
			return -1;
		records++;
	}
	if (r < 0)
		return -1;
	if (!header)
		pv_no_results(ctx, 0, "empty file: no header: expected a "
			      "header naming 'benchmark' and 'value', then "
			      "records");
	else if (!records)
		pv_no_results(ctx, 0, "a header but no records");
	return 0;
}

/* limits.max_line bounds every physical line, quoted or not. */
static int check_lines(struct pv_read_ctx *ctx, const char *p,
		       const char *end, struct pv_err *err)
{
	size_t max = ctx->cfg ? ctx->cfg->limits.max_line : 0;
	unsigned long line = 1;

	if (!max || (size_t)(end - p) <= max)
		return 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *stop = nl ? nl : end;

		if ((size_t)(stop - p) > max)
			return pv_error_at(err, PV_M_LINE_TOO_LONG, ctx->path, line,
					   "line is longer than %zu bytes (limits.max_line)",
					   max);
		line++;
		p = nl ? nl + 1 : end;
	}
	return 0;
}

static int csv_read(struct pv_read_ctx *ctx, const char *buf, size_t len,
		    struct pv_err *err)
{
	struct csv c = {
		.err = err, .path = ctx->path, .p = buf, .end = buf + len,
		.lstart = buf, .line = 1, .fields = STRBUF_INIT,
	};
	struct pv_strmap units = PV_STRMAP_INIT;
	struct strbuf key = STRBUF_INIT;
	const char *nul;
	int ret;

	if (len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3))
		c.p = c.lstart = buf + 3;
	nul = memchr(c.p, '\0', (size_t)(c.end - c.p));
	if (nul) {
		unsigned long l = 1;

		for (const char *q = c.p; q < nul; q++)
			l += *q == '\n';
		return pv_error_at(err, PV_M_BINARY_FILE, ctx->path, l,
				   "unexpected NUL byte: not a text file");
	}
	if (check_lines(ctx, c.p, c.end, err))
		return -1;
	ret = read_records(ctx, &c, &units, &key);
	strbuf_release(&c.fields);
	free(c.f);
	pv_strmap_release(&units);
	strbuf_release(&key);
	return ret;
}

/* Whether the first non-blank line names the required columns of the
 * sample form or of the summary form. */
static int header_fits(const char *p, size_t len)
{
	const char *end = p + len;
	int have[NCOLS] = { 0 };

	if (len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3))
		p += 3;
	while (p < end && (is_blank(*p) || *p == '\r' || *p == '\n'))
		p++;
	while (p < end && *p != '\n') {
		const char *s = p, *t;
		int k;

		while (p < end && *p != ',' && *p != '\n')
			p++;
		t = p;
		while (s < t && (is_blank(*s) || *s == '"'))
			s++;
		while (t > s && (is_blank(t[-1]) || t[-1] == '"' ||
				 t[-1] == '\r'))
			t--;
		if ((k = col_index(s, (size_t)(t - s))) >= 0)
			have[k] = 1;
		if (p < end && *p == ',')
			p++;
	}
	return have[COL_BENCHMARK] &&
	       (have[COL_VALUE] || (have[COL_MEAN] && have[COL_SD] &&
				    have[COL_N]));
}

static int csv_probe(const char *relpath, const char *head, size_t len)
{
	if (!header_fits(head, len))
		return 0;
	return relpath && pv_ends_with(relpath, ".csv", 1) ? 90 : 40;
}

const struct pv_reader pv_reader_csv = {
	"csv",
	"long-form CSV: a header naming 'benchmark' and 'value', or "
	"'benchmark', 'mean', 'sd' (or 'stddev') and 'n' for summaries "
	"(optional 'metric', 'unit', 'group')",
	csv_probe,
	csv_read,
};
