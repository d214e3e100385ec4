/*
 * table.h - the sample table: every metric of both sides, keyed by
 * (suite, test, group, benchmark, metric) and never by position.
 *
 * Readers add samples through the read context (readers/reader.h); the
 * table only stores them.  Each metric and side gets one array, sized by
 * the number of files its test has on that side (the loader's hint), so
 * the usual case (one sample per repeat file) never reallocates; arrays
 * are carved from a pool of doubles, exactly as long as asked.  Strings
 * live in the table's arena, each distinct string once, beside its hash:
 * the strings of a key are always the table's copies, so keys are equal
 * when their pointers are.  Metrics keep the order in which they were
 * first seen, which is deterministic because files are read in sorted
 * order.
 */
#ifndef PV_TABLE_H
#define PV_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "config.h"
#include "util/arena.h"
#include "util/err.h"
#include "util/strmap.h"

enum pv_side { PV_BASE = 0, PV_CAND = 1 };

struct pv_key {
	const char *suite, *test, *group, *benchmark, *metric;
};

/*
 * A summary a reader gave instead of samples (Catch2 keeps only the
 * mean, sd and number of samples of each benchmark): see
 * pv_table_summary().
 */
struct pv_msum {
	double mean, sd;            /* of the last file that gave one */
	uint32_t n;                 /* its number of samples */
	uint32_t max_n;             /* the largest n of any file */
	uint32_t file;              /* the last file that gave one */
	int only;                   /* after finish: the side is this summary */
};

struct pv_metric {
	struct pv_key key;          /* table strings, see pv_table_str() */
	const char *unit;           /* may be "" */
	const char *note[2];        /* a reader's remark on this side, or NULL */
	double *v[2];               /* samples, in the order read */
	struct pv_msum *sum[2];     /* summaries instead of samples, or NULL */
	int32_t ratio_num, ratio_den; /* avg_update operands, or -1 */
	uint32_t n[2];
	uint32_t files[2];          /* distinct files that gave samples */
	uint32_t per_file[2];       /* >1: repeat means were taken (see below) */
	enum pv_dir dir_hint;       /* a direction the format itself states */
	unsigned char seen[2];      /* the side mentions this metric at all */
};

/*
 * A metric's baseline pooled from an archive's points (compare
 * --baseline-history, baseline_history.h): the value of each of the K
 * points pooled, oldest first, on the scale the points were valued
 * (the log when logscale), and the within-point scale tau the values
 * were taken with, so that the candidate's runs can be valued the same
 * way (history/changepoint.h, pv_cp_point_value()).  The runs themselves
 * are the side's samples, as for a tree.
 */
struct pv_points {
	const double *y;
	size_t K;
	double tau;
	int logscale;
	double sd;      /* the history's between-point sd (the points' scale) */
	/* point j's runs on the points' scale: runs[roff[j] .. roff[j + 1]) */
	const double *runs;
	const size_t *roff;
	/* the archive point each of y is (its index in the archive) */
	const size_t *point;
	int shared;     /* history found a shared point effect in the
			 * archive (step 0 applied) */
};

/* A point a pooled baseline drew on: its label, its commit (NULL when
 * unknown), its age in points before the candidate, and how many metrics
 * pooled it. */
struct pv_pooled_point {
	const char *label, *commit;
	size_t age, metrics;
};

/* The context of one side: preamble keys, harness metadata. */
struct pv_kv {
	const char *key, *value;
};

/* What the loader learnt of one scanned file (scan.c), for the checks
 * that look across files and sides: strings are the table's arena's. */
struct pv_fileinfo {
	const char *test;           /* its test id, as read */
	const char *path;           /* as shown in messages */
	const char *format;         /* the reader's name; NULL: none knew it */
	const char *why;            /* what is wrong with it, when NULL */
	int results;                /* it gave samples, summaries or notes */
	int reported;               /* its error or warning was given */
};

struct pv_sidemeta {
	const char *path;
	size_t files;               /* result files read */
	size_t runs;                /* distinct run indices (repeats) */
	struct pv_kv *context;
	size_t ncontext, alloc_context;
	struct pv_fileinfo *finfo;  /* every scanned file, in scan order */
	size_t nfinfo;
	/* An archive's points, not a tree (baseline_history.h): files are
	 * the archive's points, runs the points pooled, and pooled (npooled)
	 * those points, oldest first. */
	int is_archive;
	const struct pv_pooled_point *pooled;
	size_t npooled;
};

struct pv_multi;

/* Private: how far a metric's side has been filled, while loading. */
struct pv_fill {
	uint32_t cap;           /* room in the metric's array */
	uint32_t last;          /* the last file seen + 1 */
	uint32_t multi;         /* its pv_multi + 1 (see table.c), or 0 */
};
struct pv_pool_block;

struct pv_table {
	struct arena arena;
	struct pv_metric *m;
	size_t n, alloc;
	struct pv_sidemeta side[2];
	/* Per metric (npoints of them, the rest NULL) when the baseline
	 * side is an archive's points: the metric's pooled baseline, or
	 * NULL when the archive has none of it.  In the arena. */
	const struct pv_points **points;
	size_t npoints;
	size_t max_metrics;         /* 0: unlimited */
	/* private */
	uint64_t *slots;            /* open addressing: hash's top 32 bits, then
				     * index+1 in the low 32; 0 is empty */
	size_t nslots;
	size_t nhashed;             /* metrics [0, nhashed) are in the slots */
	size_t nlikeseq;            /* metrics [0, nlikeseq) are like's */
	struct pv_strmap strs;      /* the key strings, each stored once */
	struct pv_strmap *strset;   /* &strs, or the caller's (shared) */
	struct pv_fill *fill;       /* per metric and side, while loading */
	struct pv_multi *multi;     /* metrics a file gave twice, see table.c */
	size_t nmulti, alloc_multi;
	struct pv_pool_block *pool; /* the sample arrays */
	uint32_t cap_hint;          /* files of the current test and side */
	/* A table read before with the same string set (history's point
	 * before), or NULL: a row's names are compared with its metric at
	 * the same position before the string set is probed, and while
	 * this table's metrics are its first ones, its next metric is new
	 * without a probe (table.c). */
	const struct pv_metric *like;
	size_t nlike;
	int finished;
};

void pv_table_init(struct pv_table *t, size_t max_metrics);
/* The same, with the key strings interned in strs, which the caller
 * owns and which outlives the table (keys into its own arena): tables
 * read one after another (history's points) then share their strings,
 * so that each is copied once, not once a table. */
void pv_table_init_shared(struct pv_table *t, size_t max_metrics,
			  struct pv_strmap *strs);
void pv_table_release(struct pv_table *t);

/* Room for n metrics, before loading: a caller that knows how many are
 * coming (history's next point) saves the table growing to them. */
void pv_table_reserve(struct pv_table *t, size_t n);

/* Find or add the metric of key k, whose strings need not be the
 * table's (they are interned first); its index, or -1 as below. */
long pv_table_intern(struct pv_table *t, const struct pv_key *k,
		     struct pv_err *err);
/* Find or add the metric of a key made of the table's own strings
 * (pv_table_str()); returns its index, or -1 when max_metrics is
 * exceeded.  The caller computes the hash, and can then hash a row's
 * common prefix once for all of its cells:
 * hash = pv_hash_mix(...pv_hash_mix(PV_HASH_INIT, suite)..., metric). */
long pv_table_intern_hashed(struct pv_table *t, const struct pv_key *k,
			    uint64_t hash, struct pv_err *err);
/* The table's own copy of s (each distinct string is stored once, so
 * two of them are equal exactly when their pointers are). */
const char *pv_table_str(struct pv_table *t, const char *s);
const char *pv_table_strn(struct pv_table *t, const char *s, size_t n);
/* Are keys a and b of one table's strings the same? */
static inline int pv_key_same(const struct pv_key *a, const struct pv_key *b)
{
	return a->metric == b->metric && a->benchmark == b->benchmark &&
	       a->group == b->group && a->test == b->test &&
	       a->suite == b->suite;
}
/* Is metric i the one with key k (the table's strings)? */
static inline int pv_table_is(const struct pv_table *t, size_t i,
			      const struct pv_key *k)
{
	return i < t->n && pv_key_same(&t->m[i].key, k);
}

#define PV_HASH_INIT 0xcbf29ce484222325ULL
/* The hash of one of the table's strings: stored in front of it. */
static inline uint64_t pv_str_hash(const char *s)
{
	return pv_strmap_hash(s);
}
/* Add a string of the table to a key's hash.  String hashes are already
 * mixed, and slots mix again, so a multiply keeps the fields in order. */
static inline uint64_t pv_hash_mix(uint64_t h, const char *s)
{
	return (h ^ pv_str_hash(s)) * 0x9e3779b97f4a7c15ULL;
}
/* The number of files of the test being read, on this side: the size
 * new sample arrays get.  The loader sets it before each file. */
void pv_table_hint(struct pv_table *t, uint32_t files);
/* Append one sample; file is the index of the file that gave it.  Files
 * of a side must come in increasing order. */
void pv_table_add_slow(struct pv_table *t, size_t metric, enum pv_side side,
		       uint32_t file, double v);
static inline void pv_table_add(struct pv_table *t, size_t metric,
				enum pv_side side, uint32_t file, double v)
{
	struct pv_metric *m = &t->m[metric];
	struct pv_fill *f = &t->fill[metric * 2 + side];

	/* The usual case, inline: a file's one sample, and room for it.
	 * Room means an earlier sample, which set seen and per_file. */
	if (f->last != file + 1 && m->n[side] < f->cap && !f->multi) {
		f->last = file + 1;
		m->files[side]++;
		m->v[side][m->n[side]++] = v;
		return;
	}
	pv_table_add_slow(t, metric, side, file, v);
}
/*
 * Add a summary (number of samples n, mean, sd) instead of samples.  The
 * mean is also added as the file's one sample, so that when a side's
 * summaries come from several files (repeats), each file's mean is one
 * sample, tested like any other (per_file becomes the largest n); only
 * when they all come from one file does the side stay a summary
 * (sum[side]->only, set by pv_table_finish()).  The caller makes sure a
 * side never mixes samples and summaries, and a file gives at most one
 * summary per metric.
 */
void pv_table_summary(struct pv_table *t, size_t metric, enum pv_side side,
		      uint32_t file, uint32_t n, double mean, double sd);
/* Set a context key of a side (the first value of a key wins unless it
 * differs between files, in which case they are joined with "; "). */
void pv_table_context(struct pv_table *t, enum pv_side side,
		      const char *key, const char *value);

/*
 * End loading.  When a side has samples from several files and some file
 * gave several samples of one metric, each file's mean becomes one
 * sample (the repeat is the unit; per_file records how many samples a
 * file held).  A side of summaries from one file becomes summary-only
 * (sum[side]->only).  The lookup structures are freed: no more interning.
 */
void pv_table_finish(struct pv_table *t);
/* Free the metric array once the verdict model has taken what it needs;
 * the strings, samples and contexts stay until pv_table_release(). */
void pv_table_drop_metrics(struct pv_table *t);
/* Keep only the first n metrics (a finished table's metrics can be
 * handed back as they are taken, see pv_model_from_table()). */
void pv_table_trim(struct pv_table *t, size_t n);

#endif
