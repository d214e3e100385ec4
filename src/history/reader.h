/*
 * reader.h - history's archive readers, behind one table, as compare's
 * readers are behind readers/registry.c's.
 *
 * An archive is a directory whose entries are points (a result tree, an
 * archived compare report, a history point), or one file holding all of
 * them (a github-action-benchmark data.js).  A reader turns one entry
 * into data: the points it holds (pv_hist_input.p) and one row per
 * metric and point (history.h's struct pv_hist_row).  It never touches
 * the model: the driver (driver.c) adds the rows with
 * pv_history_add_rows() and keeps the points.  Data flows one way.
 */
#ifndef PV_HISTORY_READER_H
#define PV_HISTORY_READER_H

#include <jansson.h>
#include "history.h"
#include "../report.h"
#include "../table.h"

/*
 * One entry being read.  The driver sets the first part; the reader
 * fills the rest, and pv_hist_input_release() frees what it kept.
 */
struct pv_hist_input {
	const char *path;               /* the entry (the archive: data.js) */
	const char *archive;            /* for messages */
	const struct pv_history_opts *o;
	struct arena *arena;            /* where the points' strings go */
	struct pv_strmap *strs;         /* key strings a tree's table shares */
	const struct pv_table *like;    /* the tree before's table, or NULL */
	struct pv_diag *diag;           /* warnings */

	/* The points: one (p == &one, preset by the driver with its label,
	 * path and kind; a point's reader sets its own label, the report
	 * reader the kind when the file is a point), or a data.js's in time
	 * order (allocated; the driver takes them). */
	struct pv_hist_point one;
	struct pv_hist_point *p;
	size_t np;
	/* The rows, in the order they are to be added; their runs live in
	 * the storage below. */
	struct pv_hist_row *rows;
	size_t nrows, arows;
	int interned;                   /* pv_history_add_rows()'s */
	/* An error the reader met after the rows it gave: the driver adds
	 * those first (one of them may be the error to report), then
	 * reports this one. */
	int late;
	struct pv_err late_err;
	/* Storage the rows point into. */
	struct pv_table *table;         /* a tree's (the driver keeps it
					 * as the next tree's like) */
	struct pv_report *report;
	json_t *json;
	double *vals;
	size_t nvals;
};

struct pv_hist_reader {
	int kind;                       /* enum pv_point_kind */
	const char *name;               /* pv_point_kind_name()'s */
	/* The directory entries it reads: directories (dir), or regular
	 * files whose names end in suffix (NULL: none; the data.js reader
	 * reads an archive that is a file). */
	int dir;
	const char *suffix;
	/*
	 * Read in->path.  0: the points and rows are given; 1 (err filled
	 * with why): the entry holds no results, a gap; -1: an error.
	 */
	int (*read)(struct pv_hist_input *in, struct pv_err *err);
	/*
	 * After the rows are added: when none went to a series (p->metrics
	 * is 0; a [metric] rule may ignore them all), 1 (a gap) or -1 with
	 * err; NULL when that is no matter for the reader.
	 */
	int (*none)(const struct pv_hist_input *in,
		    const struct pv_hist_point *p, struct pv_err *err);
};

/* The readers, indexed by enum pv_point_kind. */
extern const struct pv_hist_reader pv_hist_readers[];

/* The reader of a directory entry name (dir: it is a directory), or
 * NULL when the entry is no point. */
const struct pv_hist_reader *pv_hist_reader_for(const char *name, int dir);

/* A row more for in; its strings and runs must outlive in's rows. */
struct pv_hist_row *pv_hist_input_row(struct pv_hist_input *in);

/* The point p's context: a copy of kv[0..n) in in's arena (the
 * candidate's preamble keys of a tree or an archived report). */
void pv_hist_point_context(struct pv_hist_input *in, struct pv_hist_point *p,
			   const struct pv_kv *kv, size_t n);
/* Free what the reader kept (not in->table when the driver took it). */
void pv_hist_input_release(struct pv_hist_input *in);

/* The readers' own entry points (registry.c's table holds them). */
int pv_hist_read_tree(struct pv_hist_input *in, struct pv_err *err);
int pv_hist_read_report(struct pv_hist_input *in, struct pv_err *err);
int pv_hist_read_datajs(struct pv_hist_input *in, struct pv_err *err);
/*
 * A history point: its metrics' runs, its label, commit, time and
 * context.  Errors name the file, and the line and column of a JSON
 * syntax error; corrupt or truncated gzip data is PV_M_BAD_GZIP, a wrong
 * shape PV_M_BAD_POINT (all exit status 3).  -2 when the JSON is no
 * point at all (no "point_version": the report reader then keeps its
 * own error).  A ".json.gz" entry is a point; a ".json" one is a
 * compare report, or a point when it is no report.
 */
int pv_hist_read_point(struct pv_hist_input *in, struct pv_err *err);
int pv_hist_point_none(const struct pv_hist_input *in,
		       const struct pv_hist_point *p, struct pv_err *err);

/* qsort's order of two entries by time, then by their first order
 * (seq): a stable sort by time, ties as they came. */
static inline int pv_hist_time_cmp(double ta, size_t sa, double tb, size_t sb)
{
	if (ta != tb)
		return ta < tb ? -1 : 1;
	return sa < sb ? -1 : sa > sb;
}

#endif
