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
 * runs.  How the corners are read:
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

enum { COL_BENCHMARK, COL_VALUE, COL_METRIC, COL_UNIT, COL_GROUP, NCOLS };
static const char *const colname[NCOLS] = {
	"benchmark", "value", "metric", "unit", "group",
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static size_t col_of(const struct csv *c, const char *q)
{
	return (size_t)(q - c->lstart) + 1;
}

static void new_field(struct csv *c, const char *at)
{
	struct field *f;

	if (c->nf == c->alloc) {
		c->alloc = c->alloc ? 2 * c->alloc : 16;
		c->f = pv_reallocarray(c->f, c->alloc, sizeof(*c->f));
	}
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
			return pv_error(c->err, PV_EINPUT,
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
 * Read one record into c->fields and c->f.  Returns 1 when a record was
 * read, 0 at the end of input, -1 on error.  *blank is set when the
 * record is a blank line.
 */
static int next_record(struct csv *c, int *blank)
{
	if (c->p >= c->end)
		return 0;
	strbuf_reset(&c->fields);
	c->nf = 0;
	*blank = 1;
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
				return pv_error(c->err, PV_EINPUT,
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

static int read_header(struct csv *c, long *idx)
{
	unsigned long line = c->f[0].line;

	for (int k = 0; k < NCOLS; k++)
		idx[k] = -1;
	for (size_t i = 0; i < c->nf; i++) {
		const char *name = fld(c, i);

		for (int k = 0; k < NCOLS; k++) {
			if (strcmp(name, colname[k]))
				continue;
			if (idx[k] >= 0)
				return pv_error(c->err, PV_EINPUT,
						"%s:%lu:%zu: column '%s' "
						"appears twice in the header "
						"(fields %ld and %zu)", c->path,
						c->f[i].line, c->f[i].col,
						name, idx[k] + 1, i + 1);
			idx[k] = (long)i;
		}
	}
	for (int k = COL_BENCHMARK; k <= COL_VALUE; k++)
		if (idx[k] < 0)
			return pv_error_at(c->err, PV_EINPUT, c->path, line,
					   "missing required column '%s' in "
					   "the header", colname[k]);
	return 0;
}

static int read_records(struct pv_read_ctx *ctx, struct csv *c,
			struct pv_strmap *units, struct strbuf *key)
{
	long idx[NCOLS];
	size_t ncols = 0, records = 0;
	int header = 0, blank, r;

	while ((r = next_record(c, &blank)) > 0) {
		struct pv_sample s;
		struct pv_strmap_ent *e;
		const struct field *vf;
		enum pv_num st;
		int isnew;

		if (blank)
			continue;
		if (!header) {
			if (read_header(c, idx))
				return -1;
			ncols = c->nf;
			header = 1;
			continue;
		}
		if (c->nf != ncols)
			return pv_error_at(c->err, PV_EINPUT, c->path,
					   c->f[0].line, "record has %zu "
					   "fields but the header has %zu",
					   c->nf, ncols);

		vf = &c->f[idx[COL_VALUE]];
		st = pv_parse_double(fld(c, (size_t)idx[COL_VALUE]), vf->len,
				     &s.value);
		if (st != PV_NUM_OK)
			return pv_error(c->err, PV_EINPUT,
					"%s:%lu:%zu: cannot parse '%.*s%s' as "
					"a number in column 'value' (%s)",
					c->path, vf->line, vf->col,
					quote_len(vf->len),
					fld(c, (size_t)idx[COL_VALUE]),
					vf->len > QUOTE_MAX ? "..." : "",
					pv_num_strerror(st));
		s.benchmark = fld(c, (size_t)idx[COL_BENCHMARK]);
		if (!*s.benchmark)
			return pv_error(c->err, PV_EINPUT,
					"%s:%lu:%zu: empty 'benchmark' field",
					c->path, c->f[idx[COL_BENCHMARK]].line,
					c->f[idx[COL_BENCHMARK]].col);
		s.metric = idx[COL_METRIC] >= 0 ?
			fld(c, (size_t)idx[COL_METRIC]) : "";
		if (!*s.metric)
			s.metric = "value";
		s.unit = idx[COL_UNIT] >= 0 ? fld(c, (size_t)idx[COL_UNIT]) : "";
		s.group = idx[COL_GROUP] >= 0 ?
			fld(c, (size_t)idx[COL_GROUP]) : "";
		s.dir = PV_DIR_UNSET;

		strbuf_reset(key);
		strbuf_addstr(key, s.group);
		strbuf_addch(key, '\0');
		strbuf_addstr(key, s.benchmark);
		strbuf_addch(key, '\0');
		strbuf_addstr(key, s.metric);
		/* A metric's unit and where it was first given. */
		e = pv_strmap_put(units, key->buf, key->len, &isnew);
		if (isnew) {
			e->val[1] = c->f[0].line;
			e->str = pv_strmap_keep(units, s.unit);
		} else if (strcmp(e->str, s.unit)) {
			const struct field *uf = &c->f[idx[COL_UNIT]];

			return pv_error(c->err, PV_EINPUT,
					"%s:%lu:%zu: unit '%.*s' of metric "
					"'%s' differs from '%s' at line %lu",
					c->path, uf->line, uf->col,
					quote_len(uf->len), s.unit, s.metric,
					e->str, e->val[1]);
		}
		if (pv_emit(ctx, &s, c->err))
			return -1;
		records++;
	}
	if (r < 0)
		return -1;
	if (!header)
		pv_warn(ctx, 0, "empty file: no header");
	else if (!records)
		pv_warn(ctx, 0, "a header but no records");
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
			return pv_error_at(err, PV_EINPUT, ctx->path, line,
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
		return pv_error_at(err, PV_EINPUT, ctx->path, l,
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

/* Whether the first non-blank line names both required columns. */
static int header_fits(const char *p, size_t len)
{
	const char *end = p + len;
	int have[2] = { 0, 0 };

	if (len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3))
		p += 3;
	while (p < end && (is_blank(*p) || *p == '\r' || *p == '\n'))
		p++;
	while (p < end && *p != '\n') {
		const char *s = p, *t;

		while (p < end && *p != ',' && *p != '\n')
			p++;
		t = p;
		while (s < t && (is_blank(*s) || *s == '"'))
			s++;
		while (t > s && (is_blank(t[-1]) || t[-1] == '"' ||
				 t[-1] == '\r'))
			t--;
		for (int k = 0; k < 2; k++)
			if ((size_t)(t - s) == strlen(colname[k]) &&
			    !memcmp(s, colname[k], (size_t)(t - s)))
				have[k] = 1;
		if (p < end && *p == ',')
			p++;
	}
	return have[0] && have[1];
}

static int csv_probe(const char *relpath, const char *head, size_t len)
{
	int csv = relpath && pv_ends_with(relpath, ".csv", 1);
	int fits = header_fits(head, len);

	if (csv)
		return fits ? 90 : 20;
	return fits ? 40 : 0;
}

const struct pv_reader pv_reader_csv = {
	"csv",
	"long-form CSV: *.csv whose header names 'benchmark' and 'value' "
	"(optional 'metric', 'unit', 'group')",
	csv_probe,
	csv_read,
};
