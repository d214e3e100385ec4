/*
 * report.h - the verdict model.  Every writer (JSON, JUnit, Markdown,
 * terminal text) reads only this, and `render` rebuilds it from an
 * archived JSON report, so everything a writer needs is here.
 *
 * Ownership: the report owns m and the sides' context arrays
 * (pv_report_release() frees them) and its arena.  Strings and sample
 * arrays are the arena's or borrowed from a pv_table that outlives the
 * report, and so are warnings, pooled and each metric's points (see
 * their fields).  Non-finite numbers are NAN and mean "not defined
 * here"; the reason says why.
 */
#ifndef PV_REPORT_H
#define PV_REPORT_H

#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include "config.h"
#include "stats.h"
#include "table.h"
#include "util/arena.h"
#include "util/strbuf.h"

/* 2 added the verdict ungated, each side's label and config.waivers. */
#define PV_SCHEMA_VERSION 2
/* The oldest schema_version `render` and `merge` still read. */
#define PV_SCHEMA_VERSION_MIN 1

/* The level of the default rule's family gate, as a fraction of alpha
 * (verdict.c's family_gate(); the reasons quote it). */
#define PV_GATE_FRAC 0.4

enum pv_verdict {
	PV_V_REGRESSION = 0,
	PV_V_IMPROVEMENT,
	PV_V_UNCHANGED,
	PV_V_INCONCLUSIVE,
	PV_V_NOISY,
	PV_V_INSUFFICIENT,
	PV_V_MISSING,
	PV_V_NEW,
	PV_V_WAIVED,
	PV_V_UNGATED,               /* reported, never gated (direction none) */
	PV_V_COUNT
};

/* Why a metric got its verdict: the facts the reason sentence states. */
enum pv_why {
	PV_WHY_TEXT = 0,            /* reason holds the sentence (archived) */
	PV_WHY_NEW, PV_WHY_MISSING, PV_WHY_NOTE, PV_WHY_FEW, PV_WHY_UNGATED,
	PV_WHY_WORSE, PV_WHY_BETTER, PV_WHY_NOISY, PV_WHY_WITHIN,
	PV_WHY_IDENTICAL, PV_WHY_EQUIVALENT, PV_WHY_INCONCLUSIVE, PV_WHY_SMALL,
	PV_WHY_UNDEFINED,           /* a side's mean is not a finite number */
};

const char *pv_verdict_name(enum pv_verdict v);
int pv_verdict_parse(const char *s, enum pv_verdict *out);
/* pv_verdict_severity(), the order reports rank by: policy.h. */

/*
 * What the decision needs of a side.  The median, min and max, which only
 * reports show, are computed from the samples when asked
 * (pv_side_summary()), so that the model does not carry them for every
 * metric.
 */
struct pv_moments {
	double mean, sd;            /* NAN when undefined */
	uint32_t n;                 /* observations: samples, or a summary's n */
};

/* The coefficient of variation sd/|mean|; NAN when the mean is 0 or the
 * sd undefined. */
static inline double pv_cv(const struct pv_moments *m)
{
	return m->mean != 0 && !isnan(m->sd) ? m->sd / fabs(m->mean) : NAN;
}

struct pv_side_result {
	struct pv_moments s;        /* mean is mean(num)/mean(den) for ratios */
	const double *samples;
	const char *note;           /* a reader's remark, or NULL */
	uint32_t nsamples;
	uint32_t files;             /* files that gave samples */
	uint32_t per_file;          /* >1: each sample is a repeat's mean */
	unsigned present : 1;       /* the side reports this metric at all */
	/* No raw samples (Catch2 keeps only summaries): s.n, s.mean and
	 * s.sd are the reader's summary, nsamples is 0 and the median,
	 * min and max are NAN; the test is Welch's from the summaries. */
	unsigned summary_only : 1;
};

struct pv_result {
	const char *suite, *test, *group, *benchmark, *metric, *unit;
	struct pv_side_result side[2];
	/* change: candidate mean - baseline mean; rel and the CI as
	 * fractions of the baseline mean */
	double change_abs, change_rel, ci_low, ci_high;
	double statistic, df, p, q;
	double threshold;           /* relative, as a fraction */
	double abs_threshold;       /* NAN when unset */
	double alpha;
	double mde;                 /* relative minimum detectable effect */
	const struct pv_waiver *waiver;  /* the waiver that holds, or NULL */
	/* The baseline pooled from an archive's points (borrowed from the
	 * table), or NULL: then the test is the pooled one (verdict.c). */
	const struct pv_points *points;
	const char *reason;         /* set when read back from JSON */
	enum pv_dir direction;
	enum pv_test test_used;     /* the test actually run */
	enum pv_sided sided;
	enum pv_verdict verdict;
	enum pv_why why;
	unsigned tested : 1;        /* 0: no test ran (missing, new, ...) */
	unsigned gated : 1;         /* direction lower or higher */
	unsigned ignored : 1;       /* a rule says ignore: reported, ungated */
	unsigned dir_assumed : 1;   /* direction guessed, not configured */
	unsigned ratio : 1;         /* mean shown is a ratio (avg_update) */
	unsigned held : 1;          /* significant, held back by the family gate */
	unsigned spike : 1;         /* pooled: the candidate is as far as the
				     * baseline's spikes; its p is at least
				     * spike_p (history/pooled.h) */
	double spike_p;
	/* pooled: main's newest end_points points moved end_move (relative)
	 * from the long-run level, not yet confirmed; the candidate was
	 * judged against both levels, its change measured from the newest
	 * when end_from_newest (history/pooled.h) */
	size_t end_points;
	double end_move;
	unsigned end_from_newest : 1;
};

/* The settings that produced the report (the JSON "config" object). */
struct pv_settings {
	const char *config_path;    /* NULL: built-in defaults */
	const char *suite;
	const char *format;
	struct pv_gate gate;
	unsigned markdown_limit;
	/* Every waiver of the config (JSON config.waivers), so that merge
	 * can apply them again; borrowed from the config or the arena. */
	const struct pv_waiver *waivers;
	size_t nwaivers;
};

struct pv_report {
	struct arena arena;
	const char *tool_version;
	const char *generated_at;   /* UTC ISO 8601; SOURCE_DATE_EPOCH honoured */
	struct pv_settings settings;
	struct pv_sidemeta side[2];
	/* What each side is (a commit, a branch), or NULL: the CLI's
	 * --baseline-label / --candidate-label, else the CI's variables. */
	const char *label[2];
	size_t count[PV_V_COUNT];
	int fail;                   /* the gate's verdict */
	size_t compared;            /* metrics with a test on both sides */
	struct pv_result *m;
	size_t n;
	/* The run's warnings and each one's code (msg.h; NULL for one read
	 * from a version-1 report, which had none): borrowed, never freed by
	 * pv_report_release(): compare's are its pv_diag's, which outlives
	 * the report, and a report read back (archive.c) keeps them in its
	 * arena. */
	const char **warnings;
	const char **warning_codes;
	size_t nwarnings;
	/* compare --baseline-history: the archive's points the baseline
	 * was pooled from, oldest first (borrowed from the table, or the
	 * arena when read back; none otherwise). */
	const struct pv_pooled_point *pooled;
	size_t npooled;
};

void pv_report_init(struct pv_report *r);
void pv_report_release(struct pv_report *r);
/* Recount r->count, and r->fail from the verdicts (pv_policy_fails()). */
void pv_report_tally(struct pv_report *r);

/*
 * The one human sentence that explains m's verdict: m->reason when the
 * report was read back, otherwise written into sb from the facts the
 * decision kept (reason.c).  The result lives as long as sb or m.
 */
const char *pv_result_reason(const struct pv_report *r,
			     const struct pv_result *m, struct strbuf *sb);
/*
 * Why nothing could be compared, into sb: the counts, the first few
 * missing and new metrics, and, when a missing and a new id differ in
 * one '/'- or blank-separated part ("old/app.py" vs "new/app.py"), that
 * part as a hint; with neither missing nor new, the first reason.
 */
const char *pv_nothing_compared(const struct pv_report *r, struct strbuf *sb);
/* What m's run could detect, appended to sb: "this run could detect
 * about 31.0%", then, when that is above m's threshold, and (", and" or
 * ";"), " about 193 runs per side would detect 5%"; nothing when m has
 * no detectable effect. */
const char *pv_add_detectable(struct strbuf *sb, const struct pv_result *m,
			      const char *and);
/* When main's newest points moved (m->end_points, history/pooled.h), that
 * clause of the reason, appended to sb: "main's newest 2 points moved
 * +10.0% from its long-run level, not confirmed yet: ...". */
const char *pv_result_end_note(const struct pv_result *m, struct strbuf *sb);
/* m's id, suite/test/group/benchmark/metric, into sb. */
const char *pv_result_id(const struct pv_result *m, struct strbuf *sb);
/* A side's moments from its samples (NAN where undefined). */
void pv_moments_of(const double *x, size_t n, struct pv_moments *m);
/* The full summary a report shows: the side's moments, and the median,
 * min and max of its samples (NAN for a summary-only side). */
void pv_side_summary(const struct pv_side_result *s, struct pv_summary *out);

/*
 * A side's label from the CI's variables, through get (getenv):
 * side 0 (baseline) CI_MERGE_REQUEST_DIFF_BASE_SHA, GITHUB_BASE_REF,
 * CHANGE_TARGET; side 1 (candidate) GITHUB_SHA, CI_COMMIT_SHA,
 * GIT_COMMIT.  NULL when none is set (provenance.c).
 */
const char *pv_label_from_env(int side, char *(*get)(const char *name));

/* The names (group/benchmark/metric) of the first few metrics pick
 * chooses, then " and N more": what a warning about metrics says. */
void pv_report_some_names(const struct pv_report *r,
			  int (*pick)(const struct pv_result *m), size_t few,
			  struct strbuf *sb);
/* The same list built one metric at a time (from PV_NAMES_INIT(few)):
 * pv_names_end() adds the " and N more" and returns sb's text; the
 * caller releases sb. */
struct pv_names {
	size_t n, few;
	struct strbuf sb;
};
#define PV_NAMES_INIT(few) { 0, few, STRBUF_INIT }
void pv_names_add(struct pv_names *nm, const char *group,
		  const char *benchmark, const char *metric);
const char *pv_names_end(struct pv_names *nm);

/*
 * How many runs side k had, as a side's line says it: "5 runs"; for a
 * baseline pooled from an archive its points, with the count a metric
 * used where it is fewer: "10 points, 3 of them for BM_Parse", or
 * "10 points, 3-8 of them for 4 metrics".  Into sb, whose text it returns.
 */
const char *pv_side_count(const struct pv_report *r, int k, struct strbuf *sb);

/* Indices of r->m ordered by severity, then by their order in r->m. */
size_t *pv_report_ranked(const struct pv_report *r);
/* The index of the first metric in that order whose verdict fails the
 * gate (pv_policy_fails()), or r->n when none does, in one pass: what
 * the closing line needs, without sorting. */
size_t pv_report_first_failing(const struct pv_report *r);

/*
 * The metrics in groups of one suite and test (and group, when
 * by_group): gid[i] (r->n entries) is metric i's group, the groups
 * numbered in the order of their first metric in r->m.  Returns the
 * number of groups.  What the writers' group tables and JUnit's
 * testsuites are built from.
 */
size_t pv_report_groups(const struct pv_report *r, int by_group, size_t *gid);

#endif
