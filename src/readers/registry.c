/*
 * registry.c - the table of readers (after git's command table) and the
 * calls through which readers hand their samples to the sample table.
 */
#include "reader.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "../util/diag.h"
#include "../util/strbuf.h"
#include "../util/banned.h"

const struct pv_reader *const pv_readers[] = {
	&pv_reader_rhs,
	&pv_reader_csv,
	&pv_reader_gbench,
	&pv_reader_pyperf,
	&pv_reader_hyperfine,
	&pv_reader_gobench,
	&pv_reader_pytest,
	&pv_reader_criterion,
	&pv_reader_jmh,
	&pv_reader_catch2,
	&pv_reader_benchaction,
	NULL
};

const struct pv_reader *pv_reader_by_name(const char *name)
{
	for (size_t i = 0; pv_readers[i]; i++)
		if (!strcmp(pv_readers[i]->name, name))
			return pv_readers[i];
	return NULL;
}

const struct pv_reader *pv_reader_detect(const char *relpath,
					 const char *head, size_t len)
{
	const struct pv_reader *best = NULL;
	int best_score = 0;

	for (size_t i = 0; pv_readers[i]; i++) {
		int score = pv_readers[i]->probe(relpath, head, len);

		if (score > best_score) {
			best = pv_readers[i];
			best_score = score;
		}
	}
	return best;
}

const char *pv_intern(struct pv_read_ctx *ctx, const char *s)
{
	return pv_table_str(ctx->table, s);
}

/* The key of the metric the next cell is expected to be (see find()): in
 * this table, or at the same place in the table read before (t->like,
 * whose strings are this table's), or NULL. */
static const struct pv_key *next_key(const struct pv_read_ctx *ctx)
{
	const struct pv_table *t = ctx->table;
	size_t next = ctx->h_next;

	return next < t->n ? &t->m[next].key :
	       next < t->nlike ? &t->like[next].key : NULL;
}

const char *pv_intern_n(struct pv_read_ctx *ctx, const char *s, size_t n)
{
	const struct pv_key *k = next_key(ctx);

	/* Repeat files list their rows in the same order, so a new row
	 * usually names the group, benchmark and metric of the metric the
	 * next cell is expected to be (see find()).  Comparing with those
	 * first spares a probe of the string set, which at a million
	 * metrics no longer fits in the cache. */
	if (k) {
		if (pv_strmap_is(k->benchmark, s, n))
			return k->benchmark;
		if (pv_strmap_is(k->group, s, n))
			return k->group;
		if (pv_strmap_is(k->metric, s, n))
			return k->metric;
	}
	return pv_table_strn(ctx->table, s, n);
}

/* The table's copies of this file's suite and test, and their hash. */
static void file_key(struct pv_read_ctx *ctx)
{
	if (ctx->h_file_ok && ctx->h_suite_of == ctx->suite->name &&
	    ctx->h_test_of == ctx->test)
		return;
	ctx->h_suite_of = ctx->suite->name;
	ctx->h_test_of = ctx->test;
	ctx->h_suite = pv_table_str(ctx->table, ctx->suite->name);
	ctx->h_test = pv_table_str(ctx->table, ctx->test);
	ctx->h_file = pv_hash_mix(pv_hash_mix(PV_HASH_INIT, ctx->h_suite),
				  ctx->h_test);
	ctx->h_file_ok = 1;
}

/* Make (group, benchmark), the table's strings, the current row. */
static void set_row(struct pv_read_ctx *ctx, const char *group,
		    const char *benchmark)
{
	file_key(ctx);
	if (ctx->h_row_ok && ctx->h_group_s == group &&
	    ctx->h_bench_s == benchmark)
		return;
	ctx->h_group_s = group;
	ctx->h_bench_s = benchmark;
	ctx->h_row = pv_hash_mix(pv_hash_mix(ctx->h_file, group), benchmark);
	ctx->h_row_ok = 1;
}

/* The metric of the current row named metric (a table string). */
static long find(struct pv_read_ctx *ctx, const char *metric,
		 struct pv_err *err)
{
	struct pv_key k = {
		ctx->h_suite, ctx->h_test, ctx->h_group_s, ctx->h_bench_s,
		metric,
	};
	long i;

	/* Repeat files list their cells in the same order, so the next
	 * cell is usually the metric after the last one: checking that
	 * first walks the table in order instead of probing it at random
	 * (which misses the cache once the table outgrows it). */
	if (pv_table_is(ctx->table, ctx->h_next, &k))
		i = (long)ctx->h_next;
	/* after the last metric, a file that lists its runs one after
	 * another names the first again */
	else if (ctx->h_next == ctx->table->n && pv_table_is(ctx->table, 0, &k))
		i = 0;
	else
		i = pv_table_intern_hashed(ctx->table, &k,
					   pv_hash_mix(ctx->h_row, metric),
					   err);
	ctx->h_next = (size_t)i + 1;

	if (i < 0 && err) {
		char msg[sizeof(err->msg)];

		memcpy(msg, err->msg, sizeof(msg));
		pv_error(err, err->id, "%s: %s", ctx->path, msg);
	}
	return i;
}

static int same(const char *a, const char *b)
{
	return a == b || !strcmp(a, b);
}

/* The same for anyone's strings: a reader that emits cell by cell gives
 * each row's group and benchmark again with every cell. */
static long intern(struct pv_read_ctx *ctx, const char *group,
		   const char *benchmark, const char *metric,
		   struct pv_err *err)
{
	struct pv_table *t = ctx->table;
	const struct pv_key *nk = next_key(ctx);
	int same_group;

	group = group ? group : "";
	benchmark = benchmark ? benchmark : "";
	metric = metric ? metric : "value";
	file_key(ctx);
	/* The strings are the table's already, most of the time: the last
	 * row's, the next metric's (a repeat file) or the metric at the
	 * same place in the table read before (t->like: the same strings),
	 * or the last metric's name (a row per metric of one name, the
	 * first file); looking them up is for the rest. */
	same_group = ctx->h_row_ok && same(group, ctx->h_group_s);
	if (!same_group || !same(benchmark, ctx->h_bench_s))
		set_row(ctx, same_group ? ctx->h_group_s :
			nk && same(group, nk->group) ?
			nk->group : pv_table_str(t, group),
			nk && same(benchmark, nk->benchmark) ? nk->benchmark :
			pv_table_str(t, benchmark));
	if (nk && same(metric, nk->metric))
		metric = nk->metric;
	else if (ctx->h_metric_s && same(metric, ctx->h_metric_s))
		metric = ctx->h_metric_s;
	else
		metric = pv_table_str(t, metric);
	ctx->h_metric_s = metric;
	return find(ctx, metric, err);
}

/*
 * The units values can be converted between: a family (1 time, 2 a rate
 * per time) and the unit's size in the family's smallest one (exact
 * integers, so their ratios are too): nanoseconds for times, operations
 * per second for rates, under the spellings harnesses write (benchmark.js
 * "ops/sec", JMH "ops/ms", github-action-benchmark's "op/s" ...).
 */
static const struct unit_scale {
	const char *name;
	int family;
	double scale;
} unit_scales[] = {
	{ "ns", 1, 1 }, { "us", 1, 1e3 }, { "\xc2\xb5s", 1, 1e3 },
	{ "ms", 1, 1e6 }, { "s", 1, 1e9 }, { "sec", 1, 1e9 },
	{ "second", 1, 1e9 }, { "seconds", 1, 1e9 }, { "min", 1, 6e10 },
	{ "ops/s", 2, 1 }, { "op/s", 2, 1 }, { "ops/sec", 2, 1 },
	{ "op/sec", 2, 1 }, { "ops/second", 2, 1 }, { "ops/ms", 2, 1e3 },
	{ "ops/us", 2, 1e6 }, { "ops/ns", 2, 1e9 },
};

static const struct unit_scale *unit_scale(const char *unit)
{
	for (size_t i = 0; i < sizeof(unit_scales) / sizeof(*unit_scales); i++)
		if (!strcmp(unit, unit_scales[i].name))
			return &unit_scales[i];
	return NULL;
}

int pv_unit_convert(const char *from, const char *to, double *v)
{
	const struct unit_scale *a, *b;

	if (!from || !*from || !to || !*to || !strcmp(from, to))
		return 0;
	a = unit_scale(from);
	b = unit_scale(to);
	if (!a || !b || a->family != b->family)
		return -1;
	*v = a->scale >= b->scale ? *v * (a->scale / b->scale) :
		*v / (b->scale / a->scale);
	return 0;
}

/* Bring v in unit `from` into the metric's unit (pv_unit_convert()), or
 * an input error when they cannot be converted. */
static int convert(struct pv_read_ctx *ctx, const struct pv_metric *m,
		   const char *from, double *v, struct pv_err *err)
{
	if (!pv_unit_convert(from, m->unit, v))
		return 0;
	return pv_error(err, PV_M_UNIT_MISMATCH,
			"%s: metric '%s' of '%s' is in '%s' here but in '%s' before; they cannot be converted",
			ctx->path, m->key.metric, m->key.benchmark, from, m->unit);
}

static long intern_sample(struct pv_read_ctx *ctx, const struct pv_sample *s,
			  struct pv_err *err)
{
	long i = intern(ctx, s->group, s->benchmark, s->metric, err);
	struct pv_metric *m;

	if (i < 0)
		return -1;
	m = &ctx->table->m[i];
	if (s->unit && *s->unit && !*m->unit) {
		/* the metrics of a file mostly share one unit: one copy */
		if (!ctx->h_unit_s || strcmp(ctx->h_unit_s, s->unit))
			ctx->h_unit_s = arena_strdup(&ctx->table->arena, s->unit);
		m->unit = ctx->h_unit_s;
	}
	if (s->dir != PV_DIR_UNSET)
		m->dir_hint = s->dir;
	m->seen[ctx->side] = 1;
	return i;
}

/* A side holds either samples or summaries of a metric, never both. */
static int mixed_error(struct pv_read_ctx *ctx, const struct pv_metric *m,
		       struct pv_err *err)
{
	return pv_error(err, PV_M_SAMPLES_AND_SUMMARY,
			"%s: metric '%s' of '%s' has both samples and a summary (mean, sd, n) on the %s side; a side must give one or the other",
			ctx->path, m->key.metric, m->key.benchmark,
			ctx->side == PV_BASE ? "baseline" : "candidate");
}

/* Sample v (in the metric's unit) of metric i. */
static int add_sample(struct pv_read_ctx *ctx, long i, double v,
		      struct pv_err *err)
{
	if (ctx->table->m[i].sum[ctx->side])
		return mixed_error(ctx, &ctx->table->m[i], err);
	pv_table_add(ctx->table, (size_t)i, ctx->side, ctx->file, v);
	ctx->emitted++;
	return 0;
}

int pv_emit(struct pv_read_ctx *ctx, const struct pv_sample *s,
	    struct pv_err *err)
{
	long i = intern_sample(ctx, s, err);
	double v = s->value;

	if (i < 0)
		return -1;
	if (s->unit && *s->unit &&
	    convert(ctx, &ctx->table->m[i], s->unit, &v, err))
		return -1;
	return add_sample(ctx, i, v, err);
}

/*
 * pv_emit() for a sample whose strings are all the table's: its key is
 * then compared by pointer, and so is its unit with the metric's (a
 * metric's first unit is kept as it is, one copy for all its samples).
 */
int pv_emit_interned(struct pv_read_ctx *ctx, const struct pv_sample *s,
		     struct pv_err *err)
{
	struct pv_table *t = ctx->table;
	size_t next = ctx->h_next;
	const struct pv_key *k;
	struct pv_metric *m;
	double v = s->value;
	long i;

	/* Inline, find()'s guess: the metric after the last one (h_suite
	 * and h_test are NULL until set_row() has run for this file). */
	if (next < t->n && (k = &t->m[next].key)->metric == s->metric &&
	    k->benchmark == s->benchmark && k->group == s->group &&
	    k->test == ctx->h_test && k->suite == ctx->h_suite) {
		i = (long)next;
		ctx->h_next = next + 1;
	} else {
		if (!ctx->h_row_ok || s->group != ctx->h_group_s ||
		    s->benchmark != ctx->h_bench_s)
			set_row(ctx, s->group, s->benchmark);
		if ((i = find(ctx, s->metric, err)) < 0)
			return -1;
	}
	m = &t->m[i];
	if (*s->unit && !*m->unit)
		m->unit = s->unit;
	if (s->dir != PV_DIR_UNSET)
		m->dir_hint = s->dir;
	m->seen[ctx->side] = 1;
	if (*s->unit && s->unit != m->unit && convert(ctx, m, s->unit, &v, err))
		return -1;
	return add_sample(ctx, i, v, err);
}

int pv_emit_summary(struct pv_read_ctx *ctx, const struct pv_sample *s,
		    size_t n, double mean, double sd, struct pv_err *err)
{
	long i = intern_sample(ctx, s, err);
	struct pv_metric *m;

	if (i < 0 || convert(ctx, &ctx->table->m[i], s->unit, &mean, err) ||
	    convert(ctx, &ctx->table->m[i], s->unit, &sd, err))
		return -1;
	m = &ctx->table->m[i];
	if (m->n[ctx->side] && !m->sum[ctx->side])
		return mixed_error(ctx, m, err);
	if (m->sum[ctx->side] && m->sum[ctx->side]->file == ctx->file)
		return pv_error(err, PV_M_DUPLICATE_SUMMARY,
				"%s: metric '%s' of '%s' is summarised twice in this file",
				ctx->path, m->key.metric, m->key.benchmark);
	if (n > UINT32_MAX)
		n = UINT32_MAX;
	pv_table_summary(ctx->table, (size_t)i, ctx->side, ctx->file,
			 (uint32_t)n, mean, sd);
	ctx->emitted++;
	return 0;
}

int pv_emit_note(struct pv_read_ctx *ctx, const struct pv_sample *s,
		 const char *note, struct pv_err *err)
{
	long i = intern_sample(ctx, s, err);

	if (i < 0)
		return -1;
	if (!ctx->table->m[i].note[ctx->side])
		ctx->table->m[i].note[ctx->side] =
			arena_strdup(&ctx->table->arena, note);
	ctx->emitted++;
	return 0;
}

/* The metrics of cells num and den become the operands of cell dst's.
 * When the row's cells went to consecutive metrics (contig), cell c is
 * metric first + c; otherwise find() looks them up by name. */
static int set_ratio(struct pv_read_ctx *ctx, const char *const *metric,
		     const struct pv_cell_ratio *q, size_t first,
		     int contig, struct pv_err *err)
{
	struct pv_table *t = ctx->table;
	long d, n, r;

	d = contig ? (long)(first + q->dst) : find(ctx, metric[q->dst], err);
	if (d < 0)
		return -1;
	if (t->m[d].ratio_num >= 0)
		return 0;
	n = contig ? (long)(first + q->num) : find(ctx, metric[q->num], err);
	r = contig ? (long)(first + q->den) : find(ctx, metric[q->den], err);
	if (n < 0 || r < 0)
		return -1;
	t->m[d].ratio_num = (int32_t)n;
	t->m[d].ratio_den = (int32_t)r;
	return 0;
}

int pv_emit_row(struct pv_read_ctx *ctx, const char *group,
		const char *benchmark, const char *const *metric,
		const double *v, size_t n, const struct pv_cell_ratio *ratio,
		size_t nratio, struct pv_err *err)
{
	struct pv_table *t = ctx->table;
	enum pv_side side = ctx->side;
	uint32_t file = ctx->file;
	size_t next = ctx->h_next, first = next;
	int contig = 1;         /* cell c is metric first + c */
	const char *test, *suite;

	set_row(ctx, group, benchmark);
	test = ctx->h_test;
	suite = ctx->h_suite;
	for (size_t c = 0; c < n; c++) {
		const struct pv_key *k;
		struct pv_metric *m;
		long i;

		/* Inline, find()'s guess: the cell after the last one. */
		if (next < t->n && (k = &t->m[next].key)->metric == metric[c] &&
		    k->benchmark == benchmark && k->group == group &&
		    k->test == test && k->suite == suite) {
			i = (long)next;
		} else {
			ctx->h_next = next;
			if ((i = find(ctx, metric[c], err)) < 0)
				return -1;
			if (!c)
				first = (size_t)i;
			else if ((size_t)i != first + c)
				contig = 0;
		}
		next = (size_t)i + 1;
		m = &t->m[i];
		if (m->sum[side]) {
			ctx->h_next = next;
			return mixed_error(ctx, m, err);
		}
		pv_table_add(t, (size_t)i, side, file, v[c]);
	}
	ctx->emitted += n;
	ctx->h_next = next;
	for (size_t r = 0; r < nratio; r++)
		if (set_ratio(ctx, metric, &ratio[r], first, contig, err))
			return -1;
	/* The cells' order is not disturbed by the ratios' lookups. */
	ctx->h_next = next;
	return 0;
}

void pv_context(struct pv_read_ctx *ctx, const char *key, const char *value)
{
	pv_table_context(ctx->table, ctx->side, key, value);
}

void pv_no_results(struct pv_read_ctx *ctx, unsigned long line,
		   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx->why, sizeof(ctx->why), fmt, ap);
	va_end(ap);
	ctx->why_line = line;
}

void pv_warn(struct pv_read_ctx *ctx, enum pv_msg id, unsigned long line,
	     const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!ctx->diag)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	/* stderr shows one line for all the files that warn with one
	 * code. */
	if (line)
		pv_diag_add_subj(ctx->diag, id, ctx->path, "%s:%lu: %s",
				 ctx->path, line, sb.buf);
	else
		pv_diag_add_subj(ctx->diag, id, ctx->path, "%s: %s",
				 ctx->path, sb.buf);
	strbuf_release(&sb);
}
