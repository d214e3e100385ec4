/*
 * config.h - the effective settings of one run: defaults, then the INI
 * file (autotest's perf.conf is a valid one), then the command line.
 *
 * Any section that is not [gate], [limits], [metric "GLOB"] or
 * [waiver "GLOB"] is a suite.  Every value is checked when it is read;
 * a bad one is an error naming file:line (exit status 2).
 */
#ifndef PV_CONFIG_H
#define PV_CONFIG_H

#include <regex.h>
#include <stddef.h>
#include "util/err.h"

enum pv_dir { PV_DIR_UNSET = 0, PV_DIR_LOWER, PV_DIR_HIGHER, PV_DIR_NONE };
enum pv_test {
	PV_TEST_AUTO = 0, PV_TEST_WELCH, PV_TEST_STUDENT, PV_TEST_MANNWHITNEY,
	PV_TEST_MODERATED, PV_TEST_YUEN /* chosen by auto only */,
	PV_TEST_HISTORY /* compare --baseline-history only */
};
enum pv_correction { PV_CORR_NONE = 0, PV_CORR_HOLM, PV_CORR_BH };
enum pv_sided { PV_SIDED_WORSE = 0, PV_SIDED_TWO };
enum pv_policy { PV_POLICY_FAIL = 0, PV_POLICY_WARN, PV_POLICY_IGNORE };

const char *pv_dir_name(enum pv_dir d);
const char *pv_test_name(enum pv_test t);
const char *pv_correction_name(enum pv_correction c);
const char *pv_sided_name(enum pv_sided s);
const char *pv_policy_name(enum pv_policy p);

/* avg_update = dst,num,den: the mean shown for column dst is
 * mean(num)/mean(den).  Columns are 0-based, as in autotest. */
struct pv_ratio {
	int dst, num, den;
};

struct pv_suite {
	char *name;
	char *pattern;          /* result_file_pattern, a POSIX ERE */
	regex_t re;
	char *repeat_pattern;   /* default "repeat[0-9]+" */
	regex_t repeat_re;
	int ignore_col;         /* leading key columns; default 1 */
	struct pv_ratio *ratios;
	size_t nratios;
	char *format;           /* reader name, or NULL for auto */
	char *desc;             /* free text; \n escapes already expanded */
	unsigned long line;     /* where the section starts */
};

/* [metric "GLOB"]: NAN or PV_DIR_UNSET means "not set by this rule". */
struct pv_rule {
	char *glob;
	enum pv_dir direction;
	double threshold;       /* relative, as a fraction */
	double abs_threshold;   /* in the metric's unit */
	double alpha;
	int ignore;             /* -1 unset, 0, 1 */
	unsigned long line;
};

/* [waiver "GLOB"] */
struct pv_waiver {
	char *glob;
	char until[11];         /* YYYY-MM-DD, inclusive */
	char *reason;
	unsigned long line;
};

struct pv_gate {
	double alpha;
	enum pv_test test;
	enum pv_correction correction;
	enum pv_sided sided;
	double threshold;       /* relative, as a fraction (0.05 for 5%) */
	unsigned min_samples;
	double max_cv;          /* fraction; 0 disables the noise rule */
	enum pv_policy missing; /* fail|warn|ignore */
	enum pv_policy new_;    /* warn|ignore */
	enum pv_policy inconclusive; /* warn|fail */
	enum pv_policy insufficient; /* warn|fail (nothing testable: always an error) */
	enum pv_dir direction;  /* default for metrics with no rule */
};

/* Bounds on untrusted input; each one is named in the error that hits it. */
struct pv_limits {
	size_t max_file_size;   /* bytes */
	/* bytes inflated from one gzip file: parsing JSON costs up to ~20
	 * times its text, so this bounds the memory a small .gz can take */
	size_t max_inflated_size;
	size_t max_line;        /* bytes */
	unsigned max_depth;     /* directory levels below a tree root */
	size_t max_metrics;
	/* empty_files = warn: a result file that holds no results is a
	 * warning, not an input error (a crashed run leaves one). */
	int empty_files_warn;
	/* empty_points = error: a history point that holds no results at
	 * all is an input error; by default it is left out as a gap, with
	 * a warning naming it (a CI run that produced nothing). */
	int empty_points_error;
};

struct pv_config {
	char *path;             /* NULL when no file was given */
	struct pv_gate gate;
	struct pv_limits limits;
	struct pv_suite *suites;
	size_t nsuites;
	struct pv_rule *rules;
	size_t nrules;
	struct pv_waiver *waivers;
	size_t nwaivers;
	/* criterion.rs: read the baseline side from this saved baseline
	 * directory (e.g. "base") instead of "new"; NULL when unset. */
	char *criterion_baseline;
};

/* Built-in defaults, and one catch-all suite named "default". */
void pv_config_defaults(struct pv_config *c);
/* Defaults, then the file.  On error, c is released. */
int pv_config_load(struct pv_config *c, const char *path, struct pv_err *err);
void pv_config_release(struct pv_config *c);

const struct pv_suite *pv_config_suite(const struct pv_config *c,
				       const char *name);

/* A metric's rule and waiver are resolved in policy.h, the one place
 * that reads c->rules and decides what c->waivers mean (main.c and
 * archive.c carry the waivers to and from a report's settings). */

/* Is s a real date YYYY-MM-DD (a waiver's until)? */
int pv_valid_date(const char *s);

/* The index of s in names[0..n), or -1: the value names and the
 * handler's key list.  PV_LOOKUP takes n from an array. */
int pv_name_index(const char *s, const char *const *names, size_t n);
#define PV_LOOKUP(s, names) \
	pv_name_index(s, names, sizeof(names) / sizeof((names)[0]))

/* Value parsers shared with the command line; 0 or -1. */
int pv_parse_fraction(const char *s, double *out);   /* "5%", "0.05" */
int pv_parse_alpha(const char *s, double *out);      /* (0,1) */
int pv_parse_test(const char *s, enum pv_test *out);
int pv_parse_correction(const char *s, enum pv_correction *out);
int pv_parse_sided(const char *s, enum pv_sided *out);
int pv_parse_dir(const char *s, enum pv_dir *out);
int pv_parse_uint(const char *s, unsigned long max, unsigned long *out);
/* A policy whose bit (1 << PV_POLICY_x) is in allowed. */
int pv_parse_policy(const char *s, unsigned allowed, enum pv_policy *out);
int pv_parse_size(const char *s, size_t *out);       /* 64M: K, M, G */

#endif
