/*
 * history.h - an archive of points (result trees, archived compare
 * reports, history points or a data.js, oldest first), each metric's
 * series over them, and its change points (history/changepoint.h): the
 * model the history writers read.  The archive readers (reader.h) give
 * rows; the driver (driver.c) adds them here with pv_history_add_rows().
 */
#ifndef PV_HISTORY_H
#define PV_HISTORY_H

#include <stddef.h>
#include <stdint.h>
#include "../config.h"
#include "../table.h"
#include "../util/diag.h"
#include "../policy.h"
#include "changepoint.h"
#include "excursion.h"
#include "../util/arena.h"
#include "../util/err.h"
#include "../util/strmap.h"

#define PV_HISTORY_SCHEMA_VERSION 2

/* --recent's default: a regression that began in the newest this many
 * points fails the gate. */
#define PV_HISTORY_RECENT 3

enum pv_hist_order { PV_ORDER_NAME = 0, PV_ORDER_TIME };

/* What an archive point is: a result tree, an archived compare report,
 * a compact point (point.h) or an entry of a github-action-benchmark
 * data.js (readers/benchdata.h). */
enum pv_point_kind { PV_PK_TREE = 0, PV_PK_REPORT, PV_PK_POINT,
		     PV_PK_BENCHDATA };
/* Its name in the history JSON: "tree", "report", "point",
 * "benchmark-action". */
const char *pv_point_kind_name(int kind);

struct pv_hist_point {
	const char *label;      /* the entry's name */
	const char *path;
	const char *commit;     /* a report's candidate.label, or NULL */
	const char *time;       /* ISO 8601 UTC: generated_at or newest file */
	double mtime;           /* seconds since the epoch, for --order time */
	int is_report;          /* a file: PV_PK_REPORT, _POINT or _BENCHDATA */
	size_t metrics;         /* metrics the point gave */
	struct pv_kv *context;  /* a tree's preamble keys (arena) */
	size_t ncontext;
};

/* One point of one metric's series. */
struct pv_hist_obs {
	uint32_t point;         /* index into the archive's points */
	uint32_t n;             /* runs */
	size_t off;             /* its runs: metric's runs[off .. off + n) */
	double mean, sd;        /* of the runs; sd NAN when n < 2 */
	double value;           /* the point's robust mean (analyse.c's
				 * header; history/changepoint.c computes it,
				 * pv_cp_point_value()) */
	double tested;          /* the value the change-point test sees:
				 * value after the clipping (changepoint.h
				 * step 1); series[].value */
};

enum pv_hist_status {
	PV_HS_REGRESSION = 0, PV_HS_IMPROVEMENT, PV_HS_CHANGED, PV_HS_WAIVED,
	PV_HS_UNCHANGED, PV_HS_INSUFFICIENT, PV_HS_MISSING, PV_HS_COUNT
};
const char *pv_hist_status_name(enum pv_hist_status s);

struct pv_hist_cp {
	struct pv_cp s;         /* the statistics, on the value scale */
	size_t point, point_low, point_high;  /* archive indices */
	double before, after;   /* levels in the metric's unit */
	double rel, rel_low, rel_high;        /* (after - before) / before */
	int verdict;            /* PV_HS_REGRESSION, _IMPROVEMENT or _CHANGED */
	int beyond;             /* beyond the metric's threshold and
				 * abs_threshold (pv_policy_beyond()) */
	const struct pv_waiver *waiver;       /* a waiver that holds */
	int fails;              /* it fails the gate: a recent regression
				 * beyond the floor that no waiver holds
				 * (pv_policy_fails()) */
};

struct pv_hist_metric {
	const char *suite, *test, *group, *benchmark, *metric, *unit;
	size_t unit_point;      /* the point whose unit the series is in */
	/* Its rule (direction, threshold, abs_threshold, alpha, ignored,
	 * dir_assumed), from policy.h's pv_policy_of(); alpha is the level
	 * its change points are found at. */
	struct pv_metric_policy rule;
	int logscale;           /* values are logs (all samples > 0) */
	struct pv_hist_obs *obs;
	size_t nobs, aobs;
	double *runs;
	size_t nruns, aruns;
	struct pv_hist_cp *cp;
	size_t ncp;
	double sd, df;          /* between-point sd used (value scale) */
	size_t nclipped;
	double shared_weight;   /* of the shared point effect (0: none) */
	struct pv_cp_trend trend;  /* the slope beyond the steps */
	double trend_rel;       /* trend.slope as a relative change a point */
	enum pv_hist_status status;
	size_t status_cp;       /* the change point status comes from + 1 */
	double tau;             /* runs further from a point's median are
				 * left out of its value (log scale) */
	/* The newest points' move the detector cannot confirm yet
	 * (history/excursion.h), on the values it saw before clipping;
	 * watched: significant, beyond the metric's floor, and the series
	 * reaches the archive's newest point. */
	struct pv_cp_excursion watch;
	double watch_before, watch_after;   /* levels in the metric's unit */
	double watch_rel;       /* (after - before) / before */
	int watched;
};

struct pv_history_opts {
	const struct pv_config *cfg;
	const struct pv_suite *suite;
	const char *format;
	enum pv_hist_order order;
	size_t recent;          /* --recent K */
	const char *today;      /* YYYY-MM-DD, for waivers */
};

struct pv_history {
	struct arena arena;
	const char *archive;
	const char *generated_at;
	const char *tool_version;
	const char *config_path, *suite, *format;
	enum pv_hist_order order;
	size_t recent;
	double alpha;
	struct pv_hist_point *p;
	size_t np;
	struct pv_hist_metric *m;
	size_t nm, am;
	struct pv_strmap keys;  /* metric key -> index + 1 */
	size_t *guess, nguess;  /* private: see model.c's same_metric() */
	struct pv_strmap strs;  /* the metrics' key strings, which a tree's
				 * table shares (pv_hist_row.interned) */
	struct pv_cp_shared shared;     /* the points' shared effect */
	size_t shared_metrics;  /* metrics that took part of it */
	size_t shared_top;      /* the point where it was largest */
	size_t count[PV_HS_COUNT];
	size_t fail_cp;         /* regressions in the recent window */
	int fail;
	const char **warnings;
	const char **warning_codes;     /* each warning's code (msg.h) */
	size_t nwarnings;
	/* Full commit ids among the points' labels and commits are shown
	 * with this many hex digits: git's rule, 7, or more when 7 would
	 * name two of them (pv_history_read() sets it). */
	unsigned abbrev;
};

/* The shared point effect's size, for the reports and the note: "sd 2.6%
 * a point; at most 26.3% faster at " (the largest point's label, as the
 * report quotes it, follows).  Only when h->shared.applied. */
void pv_history_shared_size(const struct pv_history *h, struct strbuf *sb);

void pv_history_init(struct pv_history *h);
void pv_history_release(struct pv_history *h);

/* Whether s is a full commit id: 40 or 64 lowercase hex digits. */
int pv_history_is_full_id(const char *s);

/* Read every point of the archive (a directory of points, or a data.js
 * file) into h (driver.c). */
int pv_history_read(struct pv_history *h, const char *archive,
		    const struct pv_history_opts *o, struct pv_diag *diag,
		    struct pv_err *err);
/*
 * One metric's n runs v at one point, as an archive reader gives them
 * (reader.h): the metric's key, its unit, and hint, the direction the
 * input says (PV_DIR_UNSET: none), which a [metric] rule or [gate]
 * direction overrides.
 */
struct pv_hist_row {
	size_t point;           /* which of the reader's points */
	const char *suite, *test, *group, *bench, *metric, *unit;
	enum pv_dir hint;
	const double *v;
	size_t n;
};

/*
 * Add rows[0..n) to h: row r is h->p[p0 + r.point]'s, its metric found
 * or made by its key (more than limits.max_metrics over the archive is
 * an error), its runs converted into the series' unit (its first
 * point's) or an error naming both units and points, a metric twice in
 * one point an error, each counted in its point's metrics.  interned:
 * the rows' key strings are h->strs's (a tree's table shares them), and
 * row i is first guessed to be the series row i of the rows before went
 * to.  0, or -1 with err.
 */
int pv_history_add_rows(struct pv_history *h, size_t p0,
			const struct pv_history_opts *o,
			const struct pv_hist_row *rows, size_t n, int interned,
			struct pv_err *err);

/* The series' change points (the statistics alone: what a baseline
 * pooled from the archive needs). */
int pv_history_analyse(struct pv_history *h, const struct pv_history_opts *o,
		       struct pv_err *err);
/*
 * The gate, after pv_history_analyse(): each change point's verdict,
 * floor, waiver and whether it fails (policy.h), each metric's status,
 * h->count, h->fail_cp and h->fail; and the policy's warnings
 * (no-direction, waiver-expired) into diag.  Only the history command
 * asks: a pooled baseline is a source, and compare decides.
 */
void pv_history_decide(struct pv_history *h, const struct pv_history_opts *o,
		       struct pv_diag *diag);

#endif
