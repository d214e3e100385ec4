/*
 * reader.h - the interface every input format implements.
 *
 * A reader turns the bytes of one result file into samples, through the
 * read context.  It knows nothing of statistics or output and never
 * prints: problems that are not fatal go to pv_warn(), fatal ones fill
 * err with "file:line[:col]: what was expected" and return -1 (status
 * PV_EINPUT).  The loader has already inflated gzip, checked the size
 * limit and NUL-terminated the buffer (buf[len] == '\0').
 */
#ifndef PV_READER_H
#define PV_READER_H

#include <stddef.h>
#include <stdint.h>
#include "../config.h"
#include "../table.h"
#include "../util/err.h"

struct pv_diag;

struct pv_read_ctx {
	struct pv_table *table;
	enum pv_side side;
	const struct pv_suite *suite;
	const struct pv_config *cfg;
	const char *test;       /* test id: relative path minus repeat token */
	const char *path;       /* path as shown in messages */
	const char *relpath;    /* path relative to the tree root */
	const char *root;       /* the tree root, for readers that open siblings */
	uint32_t file;          /* index of this file among the side's files */
	struct pv_diag *diag;
	/* Set by a reader when the file is one its format writes beside
	 * the results (criterion's benchmark.json): holding no results is
	 * then expected, not an error. */
	int companion;
	/* Samples, summaries, notes and row cells given so far (the
	 * loader checks that a result file held any). */
	size_t emitted;
	/* Why the file held no results, from pv_no_results() ("" if not
	 * said), and its line (0: the whole file). */
	char why[256];
	unsigned long why_line;
	/* Private to registry.c (zero-initialise): the table's copies of
	 * this file's suite and test and of the last row's group and
	 * benchmark, with the key hash of each prefix. */
	uint64_t h_file, h_row;
	int h_file_ok, h_row_ok;
	const char *h_suite, *h_test, *h_group_s, *h_bench_s;
	const char *h_suite_of, *h_test_of;  /* what h_suite, h_test are of */
	size_t h_next;          /* the metric the next cell probably is */
	const char *h_metric_s; /* the last metric name the table gave */
	const char *h_unit_s;   /* the last unit copied into the table */
};

/*
 * Bring v in unit `from` into unit `to`, as compare does for a metric
 * whose files differ in unit: unchanged when they agree or either is
 * unknown (NULL or ""), converted between two time units (ns, us, ms, s,
 * min) or two rates (ops/s under its spellings ops/sec, op/s ..., ops/ms,
 * ops/us, ops/ns), multiplying or dividing by an exact integer ratio, so
 * 950 us is exactly what 0.95 ms reads as; -1 when they cannot be
 * converted (a time and a rate, or a unit of neither kind).
 */
int pv_unit_convert(const char *from, const char *to, double *v);

/* One sample.  unit may be NULL or ""; dir is PV_DIR_UNSET unless the
 * format states a direction (Go's better=higher, JMH's thrpt mode). */
struct pv_sample {
	const char *group, *benchmark, *metric, *unit;
	enum pv_dir dir;
	double value;
};

/* Add a sample.  Fails only when the metric limit is reached. */
int pv_emit(struct pv_read_ctx *ctx, const struct pv_sample *s,
	    struct pv_err *err);
/* The same for a sample whose group, benchmark, metric and unit (none
 * NULL) all come from pv_intern_n(): a long-form reader that takes the
 * table's copy of each name once (csv) saves pv_emit() comparing them
 * by content with every sample. */
int pv_emit_interned(struct pv_read_ctx *ctx, const struct pv_sample *s,
		     struct pv_err *err);
/* Declare a metric that has no usable samples on this side, with the
 * reason ("only aggregates were saved"); its verdict is insufficient. */
int pv_emit_note(struct pv_read_ctx *ctx, const struct pv_sample *s,
		 const char *note, struct pv_err *err);
/*
 * Declare a summary of a metric instead of its samples, for harnesses
 * that keep no raw samples (Catch2): n samples with this mean and sample
 * standard deviation, in s's unit (s->value is not used).  A side whose
 * summaries all come from one file is compared by Welch's test from the
 * summaries; from several files (repeats), each file's mean is one
 * sample.  A side that also has samples of the metric, or a second
 * summary of it from the same file, is an input error naming the file.
 */
int pv_emit_summary(struct pv_read_ctx *ctx, const struct pv_sample *s,
		    size_t n, double mean, double sd, struct pv_err *err);

/*
 * Tables, where each row is a benchmark and each column a metric, can
 * skip nearly all of pv_emit()'s work per cell: take the table's copy of
 * each column's metric name once per header and of each row's group and
 * benchmark once per row with pv_intern(), then give a row's values with
 * pv_emit_row().  A cell then costs a few pointer compares.
 */
const char *pv_intern(struct pv_read_ctx *ctx, const char *s);
const char *pv_intern_n(struct pv_read_ctx *ctx, const char *s, size_t n);
/* avg_update, for pv_emit_row(): the mean shown for the metric of cell
 * dst is mean(num)/mean(den), cells counted from 0 in metric[]. */
struct pv_cell_ratio {
	size_t dst, num, den;
};

/*
 * One sample of each of n metrics of (group, benchmark): metric[i] has
 * value v[i], in no stated unit or direction.  All the strings come from
 * pv_intern().  Fails like n calls of pv_emit() would, at the first
 * cell that fails.  Then the nratio ratios between the row's cells are
 * declared (every row of a table states the same ones: only the first
 * declaration of each metric costs more than a test).
 */
int pv_emit_row(struct pv_read_ctx *ctx, const char *group,
		const char *benchmark, const char *const *metric,
		const double *v, size_t n, const struct pv_cell_ratio *ratio,
		size_t nratio, struct pv_err *err);
/* A context key of this side (kernel, qemu version, cpu...). */
void pv_context(struct pv_read_ctx *ctx, const char *key, const char *value);
/* A warning that does not stop the run; line 0 means the whole file. */
void pv_warn(struct pv_read_ctx *ctx, enum pv_msg id, unsigned long line,
	     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * Say why the file holds no results ("the table has a header but no
 * rows"), instead of a warning: the loader makes a result file without
 * any an input error naming it and this reason, or a warning when
 * [limits] empty_files = warn; should the file hold results after all,
 * the reason becomes a warning.  line 0 means the whole file.
 */
void pv_no_results(struct pv_read_ctx *ctx, unsigned long line,
		   const char *fmt, ...) __attribute__((format(printf, 3, 4)));

struct pv_reader {
	const char *name;
	const char *detect;     /* one line for `perfverdict formats` */
	/* How sure the reader is that this file is its format, 0..100.
	 * head is the start of the content (NUL-terminated). */
	int (*probe)(const char *relpath, const char *head, size_t len);
	int (*read)(struct pv_read_ctx *ctx, const char *buf, size_t len,
		    struct pv_err *err);
};

extern const struct pv_reader pv_reader_rhs;
extern const struct pv_reader pv_reader_csv;
extern const struct pv_reader pv_reader_gbench;
extern const struct pv_reader pv_reader_pyperf;
extern const struct pv_reader pv_reader_hyperfine;
extern const struct pv_reader pv_reader_gobench;
extern const struct pv_reader pv_reader_pytest;
extern const struct pv_reader pv_reader_criterion;
extern const struct pv_reader pv_reader_jmh;
extern const struct pv_reader pv_reader_catch2;
extern const struct pv_reader pv_reader_benchaction;

/* NULL-terminated, in the order `perfverdict formats` lists them. */
extern const struct pv_reader *const pv_readers[];

const struct pv_reader *pv_reader_by_name(const char *name);
/* The reader with the highest probe score above 0, or NULL. */
const struct pv_reader *pv_reader_detect(const char *relpath,
					 const char *head, size_t len);

#endif
