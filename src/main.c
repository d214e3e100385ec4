/*
 * main.c - the command line: subcommands, options, exit statuses.
 *
 * This is the file that prints errors and chooses the exit status.  Each
 * subcommand parses argv into a struct, calls the library, and maps the
 * outcome to the documented exit status: 0 pass, 1 regression, 2 usage
 * or config error, 3 unreadable or malformed input.  The library never
 * exits, but for one case: util/err.c ends the run with 4 when memory
 * runs out or a size would overflow (an allocation cannot fail back to
 * its caller).
 *
 * The program never calls setlocale(), so it stays in the C locale:
 * numbers are read and written the same way under any LC_NUMERIC.
 */
#include <errno.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "archive.h"
#include "history/baseline_history.h"
#include "calibrate.h"
#include "history/cmd_history.h"
#include "config.h"
#include "util/diag.h"
#include "outputs.h"
#include "history/point.h"
#include "parseopt.h"
#include "readers/reader.h"
#include "report.h"
#include "scan.h"
#include "table.h"
#include "verdict.h"
#include "writers/calibrate_text.h"
#include "writers/writers.h"
#include "util/atomic.h"
#include "util/num.h"
#include "util/strbuf.h"
#include "util/banned.h"

#ifndef PV_COMMIT
#define PV_COMMIT "unknown"
#endif
#ifndef PV_VERSION
#define PV_VERSION "0.0.0"
#endif

/* A default for the option tables' help: the number, as text. */
#define DEFAULT_TEXT_(x) #x
#define DEFAULT_TEXT(x) DEFAULT_TEXT_(x)

/* Every message line ends in its code (msg.h), for scripts to filter. */
/* A usage error, in one line like every error. */
static int usage_error(enum pv_msg id, const char *fmt, const char *arg)
{
	fprintf(stderr, "perfverdict: error: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (see 'perfverdict --help') [%s]\n", pv_msg_code(id));
	return PV_EUSAGE;
}

static int report_error(const struct pv_err *err)
{
	fprintf(stderr, "perfverdict: error: %s [%s]\n", err->msg,
		pv_msg_code(err->id));
	return err->status ? (int)err->status : PV_EINPUT;
}

/* One line per kind of warning, at most four, so that with the error
 * line a failed run's stderr stays within five lines (the JSON report
 * keeps every warning). */
static void print_warnings(const struct pv_diag *d)
{
	pv_diag_print(d, stderr, "perfverdict: ", 4);
}

/*
 * The command line: every command's options in one table each (struct
 * pv_option, parseopt.h), parsed into struct cli before the command
 * runs, and printed by --help from the same tables.
 *
 * To add an option, add one line to the command's table (or to a
 * group below that several commands share), naming a field of struct
 * cli; a value that needs more than a range check gets a set_*()
 * callback.  --help then lists it, in table order.  To add a command,
 * add a table, a cmd_*() function and a line to commands[].
 */

/* Everything the command line can say, for any command. */
struct cli {
	const char *config, *suite, *format, *criterion;
	struct pv_outputs out;
	struct pv_gate gate;        /* given on the command line... */
	unsigned set;               /* ...in these fields (SET_*) */
	unsigned long iterations, seed;   /* calibrate */
	int help;
	const char *label[2];       /* --baseline-label, --candidate-label */
	char **operand;             /* the arguments that are not options */
	int noperands;
	const char *history;        /* --baseline-history ARCHIVE */
	const char *save_point;     /* history --save-points DIR */
	unsigned long window;       /* --history-window K */
	unsigned long recent;       /* history --recent K */
	enum pv_hist_order order;   /* history --order */
};

enum { SET_ALPHA = 1, SET_THRESHOLD = 2, SET_TEST = 4, SET_CORRECTION = 8,
       SET_SIDED = 16, SET_MIN = 32 };

/* A setter for a gate option: parse into the gate's field and mark it
 * given, so that it overrides the config's [gate]. */
#define GATE_SETTER(name, bit, parse, field)				\
	static int name(void *p, const char *v)				\
	{								\
		struct cli *a = p;					\
									\
		a->set |= bit;						\
		return parse(v, &a->gate.field);			\
	}
GATE_SETTER(set_alpha, SET_ALPHA, pv_parse_alpha, alpha)
GATE_SETTER(set_threshold, SET_THRESHOLD, pv_parse_fraction, threshold)
GATE_SETTER(set_test, SET_TEST, pv_parse_test, test)
GATE_SETTER(set_correction, SET_CORRECTION, pv_parse_correction, correction)
GATE_SETTER(set_sided, SET_SIDED, pv_parse_sided, sided)
#undef GATE_SETTER

static int set_order(void *p, const char *v)
{
	struct cli *a = p;

	if (!strcmp(v, "name"))
		a->order = PV_ORDER_NAME;
	else if (!strcmp(v, "time"))
		a->order = PV_ORDER_TIME;
	else
		return -1;
	return 0;
}

static int set_min_samples(void *p, const char *v)
{
	struct cli *a = p;
	unsigned long u;

	if (pv_parse_uint(v, 1000000, &u) || u < 2)
		return -1;
	a->gate.min_samples = (unsigned)u;
	a->set |= SET_MIN;
	return 0;
}

#define CLI struct cli
#define OPT_HELP PV_OPT_FLAG('h', "help", CLI, help, "print this command's help and exit")
#define OPT_CONFIG(H, D) PV_OPT_STRING('c', "config", "FILE", CLI, config, H, D)
#define OPT_REPORTS(D) \
	PV_OPT_STRING(0, "json", "F", CLI, out.path[PV_OUT_JSON], "write the JSON report ('-' is stdout)", NULL), \
	OPT_JUNIT, \
	OPT_MARKDOWN, \
	PV_OPT_UINT(0, "markdown-limit", "N", CLI, out.markdown_limit, 1000, 100000000, \
		    "a character count of at least 1000", "characters the Markdown must fit", D), \
	OPT_HTML
#define OPT_JUNIT PV_OPT_STRING(0, "junit", "F", CLI, out.path[PV_OUT_JUNIT], \
		"write JUnit XML ('-' is stdout)", NULL)
#define OPT_MARKDOWN PV_OPT_STRING(0, "markdown", "F", CLI, out.path[PV_OUT_MARKDOWN], \
		"write Markdown for a PR comment ('-' is stdout)", NULL)
#define OPT_HTML PV_OPT_STRING(0, "html", "F", CLI, out.path[PV_OUT_HTML], \
		"write a self-contained HTML report with figures ('-' is stdout)", NULL)
/* The options that decide: compare and calibrate. */
#define OPT_DECIDE \
	OPT_CONFIG("INI settings (autotest's perf.conf works)", NULL), \
	PV_OPT_STRING('s', "suite", "NAME", CLI, suite, "the config section to use", "the only one"), \
	PV_OPT_STRING('f', "format", "FMT", CLI, format, "input format (see 'perfverdict formats'), or auto", "auto"), \
	PV_OPT_CALLBACK(0, "alpha", "A", set_alpha, "a number between 0 and 1", \
			"significance level", "0.05"), \
	PV_OPT_CALLBACK(0, "threshold", "T", set_threshold, \
			"a non-negative fraction or percentage, e.g. 5%", \
			"smallest change that counts, e.g. 5%", "5%"), \
	PV_OPT_CALLBACK(0, "test", "T", set_test, \
			"auto, welch, student, mannwhitney or moderated", \
			"auto|welch|student|mannwhitney|moderated", "auto"), \
	PV_OPT_CALLBACK(0, "correction", "C", set_correction, "none, holm or bh", \
			"none|holm|bh", "bh"), \
	PV_OPT_CALLBACK(0, "sided", "S", set_sided, "worse or two", \
			"worse|two", "worse"), \
	PV_OPT_CALLBACK(0, "min-samples", "N", set_min_samples, \
			"a whole number of at least 2", \
			"fewer runs on a side is insufficient", "3"), \
	PV_OPT_STRING(0, "criterion-baseline", "NAME", CLI, criterion, \
		      "criterion.rs: the baseline side reads NAME/, not new/", NULL)

static const struct pv_option compare_options[] = {
	OPT_DECIDE,
	OPT_REPORTS(DEFAULT_TEXT(MD_DEFAULT_LIMIT)),
	PV_OPT_STRING(0, "baseline-label", "T", CLI, label[0], "what the baseline is, e.g. a commit", "from the CI's variables"),
	PV_OPT_STRING(0, "candidate-label", "T", CLI, label[1], "what the candidate is, e.g. a commit", "from the CI's variables"),
	PV_OPT_STRING(0, "baseline-history", "ARCHIVE", CLI, history,
		      "pool the baseline from ARCHIVE's points since its last change point; then give only CANDIDATE", NULL),
	PV_OPT_UINT(0, "history-window", "K", CLI, window, 2, 1000000,
		    "a count of at least 2 points", "at most K points pooled",
		    DEFAULT_TEXT(PV_POOL_WINDOW)),
	PV_OPT_STRING(0, "save-point", "FILE", CLI, out.path[PV_OUT_POINT],
		      "write the candidate as a history point (gzip when FILE ends in .gz); with one tree, only that", NULL),
	PV_OPT_FLAG('q', "quiet", CLI, out.quiet, "print only the closing verdict line"),
	PV_OPT_FLAG('v', "verbose", CLI, out.verbose, "print every metric, not only those that need attention"),
	OPT_HELP,
	PV_OPT_END,
};

static const struct pv_option calibrate_options[] = {
	OPT_DECIDE,
	PV_OPT_UINT(0, "iterations", "N", CLI, iterations, 1, 1000000,
		    "a positive count up to 1000000", "random A/A splits", "200"),
	PV_OPT_UINT(0, "seed", "N", CLI, seed, 0, (unsigned long)-1,
		    "a whole number", "seed of the splits", "1"),
	OPT_HELP,
	PV_OPT_END,
};

static const struct pv_option render_options[] = {
	OPT_JUNIT,
	OPT_MARKDOWN,
	PV_OPT_UINT(0, "markdown-limit", "N", CLI, out.markdown_limit, 1000, 100000000,
		    "a character count of at least 1000",
		    "characters the Markdown must fit", "the report's"),
	OPT_HTML,
	PV_OPT_FLAG('q', "quiet", CLI, out.quiet, "with no report options: print only the closing verdict line"),
	PV_OPT_FLAG('v', "verbose", CLI, out.verbose, "with no report options: print every metric"),
	OPT_HELP,
	PV_OPT_END,
};

static const struct pv_option merge_options[] = {
	OPT_CONFIG("INI settings: its [gate] and waivers decide", "the reports' [gate]"),
	OPT_REPORTS("the first report's"),
	OPT_HELP,
	PV_OPT_END,
};

static const struct pv_option formats_options[] = {
	OPT_HELP,
	PV_OPT_END,
};

static void apply_overrides(struct pv_gate *g, const struct cli *a)
{
	if (a->set & SET_ALPHA) g->alpha = a->gate.alpha;
	if (a->set & SET_THRESHOLD) g->threshold = a->gate.threshold;
	if (a->set & SET_TEST) g->test = a->gate.test;
	if (a->set & SET_CORRECTION) g->correction = a->gate.correction;
	if (a->set & SET_SIDED) g->sided = a->gate.sided;
	if (a->set & SET_MIN) g->min_samples = a->gate.min_samples;
}

/*
 * merge -c: the config's [gate], [metric "GLOB"] rules and waivers decide
 * instead of the reports' settings.  Each metric's rule was settled when
 * its shard was compared: settle it again from this config, as compare
 * would have (policy.h), with the shard's direction as the hint unless
 * the shard guessed it.
 */
static void apply_merge_config(struct pv_report *r,
			       const struct pv_config *cfg)
{
	r->settings.gate = cfg->gate;
	r->settings.config_path = cfg->path;
	for (size_t i = 0; i < r->n; i++)
		pv_policy_result(cfg, &cfg->gate,
				 r->m[i].dir_assumed ? PV_DIR_UNSET :
				 r->m[i].direction, &r->m[i]);
}

/* The suite: -s, the only one in the config, or a catch-all. */
static int choose_suite(struct pv_config *cfg, const char *name,
			struct pv_suite *fallback, const struct pv_suite **out,
			struct pv_err *err)
{
	if (name) {
		*out = pv_config_suite(cfg, name);
		if (!*out)
			return pv_error(err, PV_M_NO_SUCH_SUITE,
					"no suite [%s] in %s", name,
					cfg->path ? cfg->path : "the built-in defaults");
		return 0;
	}
	if (cfg->nsuites == 1) {
		*out = &cfg->suites[0];
		return 0;
	}
	if (cfg->nsuites > 1) {
		struct pv_err e;
		char list[512] = "";

		for (size_t i = 0; i < cfg->nsuites; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list),
				 "%s%s", i ? ", " : "", cfg->suites[i].name);
		(void)e;
		return pv_error(err, PV_M_AMBIGUOUS_SUITE,
				"%s has several suites (%s): choose one with -s",
				cfg->path, list);
	}
	memset(fallback, 0, sizeof(*fallback));
	fallback->name = (char *)"default";
	fallback->ignore_col = 1;
	fallback->repeat_pattern = (char *)"repeat[0-9]+";
	if (regcomp(&fallback->repeat_re, fallback->repeat_pattern, REG_EXTENDED))
		return pv_error(err, PV_M_BAD_PATTERN, "cannot compile the repeat pattern");
	*out = fallback;
	return 0;
}

/*
 * The settings of a command that decides: -c's config or the defaults,
 * the command line's gate options over its [gate], the suite and the
 * input format.  On failure err says why and nothing is left to release;
 * on success release_config() releases what this took.
 */
static int settle_config(const struct cli *a, struct pv_config *cfg,
			 struct pv_suite *fallback,
			 const struct pv_suite **suite, const char **format,
			 struct pv_err *err)
{
	if (a->config) {
		if (pv_config_load(cfg, a->config, err))
			return -1;
	} else {
		pv_config_defaults(cfg);
	}
	apply_overrides(&cfg->gate, a);
	if (a->criterion)
		cfg->criterion_baseline = pv_strdup(a->criterion);
	memset(fallback, 0, sizeof(*fallback));
	*suite = NULL;
	if (choose_suite(cfg, a->suite, fallback, suite, err)) {
		pv_config_release(cfg);
		return -1;
	}
	*format = a->format ? a->format : (*suite)->format;
	if (*format && strcmp(*format, "auto") && !pv_reader_by_name(*format)) {
		pv_error(err, PV_M_UNKNOWN_FORMAT,
			 "unknown format '%s' (see 'perfverdict formats')",
			 *format);
		if (*suite == fallback)
			regfree(&fallback->repeat_re);
		pv_config_release(cfg);
		return -1;
	}
	return 0;
}

static void release_config(struct pv_config *cfg,
			   const struct pv_suite *suite,
			   struct pv_suite *fallback)
{
	if (suite == fallback)
		regfree(&fallback->repeat_re);
	pv_config_release(cfg);
}

/* What compare records of how it ran, beside the verdicts. */
static void report_settings(struct pv_report *r, const struct cli *a,
			    const struct pv_config *cfg,
			    const struct pv_suite *suite, const char *format)
{
	r->tool_version = PV_VERSION;
	r->settings.config_path = cfg->path;
	r->settings.suite = suite->name;
	r->settings.format = format ? format : "auto";
	r->settings.gate = cfg->gate;
	r->settings.markdown_limit = (unsigned)a->out.markdown_limit;
	for (int k = 0; k < 2; k++)
		r->label[k] = a->label[k] ? a->label[k] :
			      pv_label_from_env(k, getenv);
	r->settings.waivers = cfg->waivers;
	r->settings.nwaivers = cfg->nwaivers;
}

/* compare --save-point F TREE: one tree, written as a point, no gate. */
static int point_only(const struct cli *a)
{
	return !a->history && a->noperands == 1 && a->out.path[PV_OUT_POINT];
}

/*
 * compare's two sides into table: two trees, or with --baseline-history
 * the candidate's tree and a baseline pooled from the archive's points.
 */
static int load_sides(const struct cli *a, const struct pv_config *cfg,
		      const struct pv_suite *suite, const char *format,
		      const char *today, struct pv_scan scan[2],
		      struct pv_table *table, struct pv_diag *diag,
		      struct pv_err *err)
{
	const char *base = a->history ? a->history : a->operand[0];
	const char *cand = a->operand[a->history || point_only(a) ? 0 : 1];

	if (a->history && a->noperands != 1)
		return pv_error(err, PV_M_USAGE, "compare --baseline-history ARCHIVE needs one tree: CANDIDATE");
	if (!a->history && a->noperands != 2 && !point_only(a))
		return pv_error(err, PV_M_USAGE, "compare needs two trees: BASELINE CANDIDATE (or one tree with --save-point: its point alone)");
	if (point_only(a)) {
		/* A point needs no baseline: the candidate side alone. */
		if (pv_outputs_any(&a->out))
			return pv_error(err, PV_M_USAGE, "compare with one tree writes only its point (--save-point): reports need a BASELINE tree too");
		if (pv_scan_tree(cand, suite, &cfg->limits, &scan[1], err) ||
		    pv_load_side(table, PV_CAND, &scan[1], suite, format, cfg,
				 diag, err))
			return -1;
	} else if (a->history) {
		/* The baseline pooled from the archive's points. */
		struct pv_history_opts ho = {
			.cfg = cfg, .suite = suite, .format = format,
			.order = PV_ORDER_NAME, .recent = PV_HISTORY_RECENT,
			.today = today,
		};

		if (pv_scan_tree(cand, suite, &cfg->limits, &scan[1], err) ||
		    pv_load_side(table, PV_CAND, &scan[1], suite, format, cfg,
				 diag, err) ||
		    pv_load_pooled_baseline(table, a->history,
					    a->window ? a->window : PV_POOL_WINDOW,
					    &ho, diag, err))
			return -1;
	} else if (pv_scan_tree(base, suite, &cfg->limits, &scan[0], err) ||
		   pv_scan_tree(cand, suite, &cfg->limits, &scan[1], err) ||
		   pv_load_side(table, PV_BASE, &scan[0], suite, format, cfg,
				diag, err) ||
		   pv_load_side(table, PV_CAND, &scan[1], suite, format, cfg,
				diag, err)) {
		return -1;
	}
	pv_warn_numbered_runs(&scan[!!a->history], 2 - !!a->history, suite, diag);
	if (!table->n)
		return pv_error(err, PV_M_NO_SAMPLES,
			 "no samples found in '%s'%s%s%s%s", base,
			 point_only(a) ? "" : " or '", point_only(a) ? "" : cand,
			 point_only(a) ? "" : "'", suite->pattern ? " (check result_file_pattern)" :
			 ": expected result files of a known format (see 'perfverdict formats')");
	return 0;
}

/* The error for a report in which no metric could be compared. */
static int report_nothing_compared(const struct pv_report *r,
				   struct pv_err *err)
{
	struct strbuf why = STRBUF_INIT;

	pv_error(err, PV_M_NOTHING_COMPARED, "%s", pv_nothing_compared(r, &why));
	strbuf_release(&why);
	return report_error(err);
}

static int cmd_compare(struct cli *a)
{
	struct pv_config cfg;
	struct pv_suite fallback;
	const struct pv_suite *suite = NULL;
	struct pv_scan scan[2] = { { 0 }, { 0 } };
	struct pv_table table;
	struct pv_report r;
	struct pv_diag diag = PV_DIAG_INIT;
	struct pv_err err = { 0 };
	char iso[32], today[16];
	const char *format;
	int st = 0;

	if (!a->out.markdown_limit)
		a->out.markdown_limit = MD_DEFAULT_LIMIT;
	if (pv_outputs_check(&a->out, &err) ||
	    settle_config(a, &cfg, &fallback, &suite, &format, &err))
		return report_error(&err);
	pv_table_init(&table, cfg.limits.max_metrics);
	pv_report_init(&r);
	pv_now_utc(iso, sizeof(iso), today, sizeof(today));
	if (load_sides(a, &cfg, suite, format, today, scan, &table, &diag, &err))
		goto fail_all;
	pv_table_finish(&table);

	report_settings(&r, a, &cfg, suite, format);
	r.generated_at = iso;
	pv_model_from_table(&table, &cfg, &r, &diag);
	pv_table_drop_metrics(&table);
	if (pv_redecide(&r, &cfg, today, &diag, &err))
		goto fail_all;
	r.warnings = (const char **)diag.msg;
	r.warning_codes = diag.code;
	r.nwarnings = diag.n;

	print_warnings(&diag);
	if (!r.compared && !point_only(a)) {
		/* Nothing was tested: an input error, not a verdict. */
		struct strbuf why = STRBUF_INIT;

		pv_error(&err, PV_M_NOTHING_COMPARED, "%s",
			 pv_nothing_compared(&r, &why));
		strbuf_release(&why);
		goto fail_printed;
	}
	/* The point (--save-point) is one file of the report set. */
	a->out.commit = pv_label_from_env(PV_CAND, getenv);
	if (pv_write_reports(&r, &a->out, &err))
		goto fail_printed;
	if (point_only(a)) {
		st = PV_OK;
		goto done;
	}
	if (!pv_outputs_to_stdout(&a->out) &&
	    pv_write_summary(&r, a->out.quiet || pv_outputs_any(&a->out),
			  a->out.verbose, &err))
		goto fail_printed;
	st = r.fail ? PV_FAIL : PV_OK;
	goto done;

fail_all:
	print_warnings(&diag);
fail_printed:
	st = report_error(&err);
done:
	pv_report_release(&r);
	pv_table_release(&table);
	pv_scan_release(&scan[0]);
	pv_scan_release(&scan[1]);
	pv_diag_release(&diag);
	release_config(&cfg, suite, &fallback);
	return st;
}

static int cmd_calibrate(struct cli *a)
{
	struct pv_config cfg;
	struct pv_suite fallback;
	const struct pv_suite *suite = NULL;
	struct pv_scan scan = { 0 };
	struct pv_table table;
	struct pv_calib cal;
	struct pv_diag diag = PV_DIAG_INIT;
	struct pv_err err = { 0 };
	const char *format;
	int st = PV_OK;

	if (settle_config(a, &cfg, &fallback, &suite, &format, &err))
		return report_error(&err);
	memset(&cal, 0, sizeof(cal));
	pv_table_init(&table, cfg.limits.max_metrics);
	if (pv_scan_tree(a->operand[0], suite, &cfg.limits, &scan, &err) ||
	    pv_load_side(&table, PV_BASE, &scan, suite, format, &cfg, &diag, &err)) {
		st = report_error(&err);
		goto out;
	}
	if (!table.n) {
		pv_error(&err, PV_M_NO_SAMPLES, "no samples found in '%s'", a->operand[0]);
		st = report_error(&err);
		goto out;
	}
	pv_table_finish(&table);
	pv_report_init(&cal.model);
	cal.model.settings.config_path = cfg.path;
	cal.model.settings.suite = suite->name;
	cal.model.settings.gate = cfg.gate;
	if (pv_calibrate(&table, &cfg, (unsigned)a->iterations, a->seed, &cal,
			 &diag, &err)) {
		st = report_error(&err);
	} else {
		print_warnings(&diag);
		errno = 0;
		if (pv_write_calibration(&cal, a->operand[0], stdout, &err) ||
		    fflush(stdout))
			st = report_error((pv_atomic_error(&err, NULL, errno), &err));
	}
out:
	pv_calib_release(&cal);
	pv_table_release(&table);
	pv_scan_release(&scan);
	pv_diag_release(&diag);
	release_config(&cfg, suite, &fallback);
	return st;
}

/* render: an archived JSON report as JUnit, Markdown, or the terminal
 * summary when neither is asked for. */
static int cmd_render(struct cli *a)
{
	struct pv_outputs o = a->out;
	struct pv_report r;
	struct pv_err err = { 0 };
	const char *path = a->operand[0];
	int rc;

	pv_report_init(&r);
	if (pv_archive_read(&r, path, &err)) {
		pv_report_release(&r);
		return report_error(&err);
	}
	/* Name the JSON as compare did: by its file name. */
	o.path[PV_OUT_JSON] = NULL;
	if (!pv_outputs_any(&o)) {
		rc = pv_write_summary(&r, o.quiet, o.verbose, &err);
		pv_report_release(&r);
		return rc ? report_error(&err) : PV_OK;
	}
	if (!o.markdown_limit)
		o.markdown_limit = r.settings.markdown_limit ?
				   r.settings.markdown_limit : MD_DEFAULT_LIMIT;
	rc = pv_write_reports_named(&r, &o, pv_json_name(path), &err);
	pv_report_release(&r);
	return rc ? report_error(&err) : PV_OK;
}

static int cmd_merge(struct cli *a)
{
	struct pv_outputs o = a->out;
	struct pv_report *rs;
	struct pv_config cfg;
	struct pv_diag diag = PV_DIAG_INIT;
	struct pv_err err = { 0 };
	char iso[32], today[16];
	int n = a->noperands, st = PV_OK;

	if (!pv_outputs_any(&o))
		return usage_error(PV_M_USAGE, "%s", "merge needs --json F (and may add --junit, --markdown, --html)");
	if (a->config) {
		if (pv_config_load(&cfg, a->config, &err))
			return report_error(&err);
	} else {
		pv_config_defaults(&cfg);
	}
	rs = pv_calloc((size_t)n, sizeof(*rs));
	for (int i = 0; i < n && !st; i++) {
		pv_report_init(&rs[i]);
		if (pv_archive_read(&rs[i], a->operand[i], &err) ||
		    (i && pv_archive_merge(&rs[0], &rs[i], a->operand[i], &err)))
			st = report_error(&err);
	}
	if (!st) {
		struct pv_report *r = &rs[0];

		/* The family correction and verdicts over the union. */
		pv_now_utc(iso, sizeof(iso), today, sizeof(today));
		r->generated_at = iso;
		r->tool_version = PV_VERSION;
		if (!o.markdown_limit)
			o.markdown_limit = r->settings.markdown_limit ?
					   r->settings.markdown_limit :
					   MD_DEFAULT_LIMIT;
		r->settings.markdown_limit = (unsigned)o.markdown_limit;
		pv_archive_waivers(r, &cfg);
		if (a->config)
			apply_merge_config(r, &cfg);
		if (pv_redecide(r, &cfg, today, &diag, &err)) {
			st = report_error(&err);
		} else {
			print_warnings(&diag);
			if (!r->compared)
				st = report_nothing_compared(r, &err);
			else if (pv_write_reports(r, &o, &err))
				st = report_error(&err);
			else
				st = r->fail ? PV_FAIL : PV_OK;
		}
	}
	/* rs[0] holds copies of the others' entries, whose strings live in
	 * their arenas: release them only now, each its own array. */
	for (int i = n - 1; i >= 0; i--)
		pv_report_release(&rs[i]);
	free(rs);
	pv_diag_release(&diag);
	pv_config_release(&cfg);
	return st;
}

static int cmd_formats(struct cli *a)
{
	(void)a;
	printf("%-12s %s\n", "FORMAT", "DETECTED BY");
	for (size_t i = 0; pv_readers[i]; i++)
		printf("%-12s %s\n", pv_readers[i]->name, pv_readers[i]->detect);
	return fflush(stdout) ? PV_EUSAGE : PV_OK;
}

static const struct pv_option history_options[] = {
	OPT_CONFIG("INI settings (autotest's perf.conf works)", NULL),
	PV_OPT_STRING('s', "suite", "NAME", CLI, suite, "the config section to use", "the only one"),
	PV_OPT_STRING('f', "format", "FMT", CLI, format, "input format of the points that are trees, or auto", "auto"),
	PV_OPT_CALLBACK(0, "alpha", "A", set_alpha, "a number between 0 and 1",
			"family-wise level of the change points", "0.05"),
	PV_OPT_CALLBACK(0, "threshold", "T", set_threshold,
			"a non-negative fraction or percentage, e.g. 5%",
			"smallest step that counts, e.g. 5%", "5%"),
	PV_OPT_UINT(0, "recent", "K", CLI, recent, 1, 1000000,
		    "a positive count of points",
		    "fail on a regression that began in the newest K points",
		    DEFAULT_TEXT(PV_HISTORY_RECENT)),
	PV_OPT_CALLBACK(0, "order", "ORDER", set_order, "name or time",
			"point order: entry names, or each point's recorded time", "name"),
	PV_OPT_STRING(0, "json", "F", CLI, out.path[PV_OUT_JSON], "write the JSON history report ('-' is stdout)", NULL),
	PV_OPT_STRING(0, "markdown", "F", CLI, out.path[PV_OUT_MARKDOWN], "write Markdown with trends ('-' is stdout)", NULL),
	PV_OPT_UINT(0, "markdown-limit", "N", CLI, out.markdown_limit, 1000, 100000000,
		    "a character count of at least 1000", "characters the Markdown must fit", DEFAULT_TEXT(MD_DEFAULT_LIMIT)),
	OPT_HTML,
	PV_OPT_STRING(0, "save-points", "DIR", CLI, save_point,
		      "write every point as a history point into DIR (TIME-COMMIT.json.gz), e.g. to start an archive from a data.js", NULL),
	PV_OPT_FLAG('q', "quiet", CLI, out.quiet, "print only the closing status line"),
	PV_OPT_FLAG('v', "verbose", CLI, out.verbose, "print every change point and trend, not only the recent ones"),
	OPT_HELP,
	PV_OPT_END,
};

/* history [options] ARCHIVE: settle the config, and hand over. */
static int cmd_history(struct cli *a)
{
	struct pv_history_args h;
	struct pv_config cfg;
	struct pv_suite fallback;
	const struct pv_suite *suite = NULL;
	struct pv_diag diag = PV_DIAG_INIT;
	struct pv_err err = { 0 };
	char iso[32], today[16];
	int st;

	memset(&h, 0, sizeof(h));
	h.recent = a->recent ? a->recent : PV_HISTORY_RECENT;
	h.order = a->order;
	h.out = &a->out;
	h.archive = a->operand[0];
	h.save_points = a->save_point;
	if (settle_config(a, &cfg, &fallback, &suite, &h.format, &err))
		return report_error(&err);
	pv_now_utc(iso, sizeof(iso), today, sizeof(today));
	h.cfg = &cfg;
	h.suite = suite;
	h.tool_version = PV_VERSION;
	h.generated_at = iso;
	h.today = today;
	st = pv_cmd_history(&h, &diag, &err);
	print_warnings(&diag);
	if (st < 0)
		st = report_error(&err);
	pv_diag_release(&diag);
	release_config(&cfg, suite, &fallback);
	return st;
}
/* The commands (git's struct cmd_struct commands[]), in help order. */
static const struct cmd_struct {
	const char *name;
	int (*fn)(struct cli *a);
	const struct pv_option *options;
	const char *operands;       /* the usage line after the name */
	int min, max;               /* operands taken; max -1: no limit */
	const char *needs;          /* the error when that count is wrong */
	const char *what;           /* one line for --help */
} commands[] = {
	{ "compare", cmd_compare, compare_options,
	  "[options] BASELINE CANDIDATE | --save-point FILE TREE",
	  1, 2, "compare needs two trees: BASELINE CANDIDATE",
	  "compare two result trees and decide the gate" },
	{ "render", cmd_render, render_options, "[options] REPORT.json",
	  1, 1, "render needs one REPORT.json",
	  "write a JSON report again as JUnit, Markdown or HTML; with none, print its summary" },
	{ "merge", cmd_merge, merge_options, "[options] --json F REPORT.json...",
	  1, -1, "merge needs at least one REPORT.json",
	  "merge the reports of several jobs into one and decide again" },
	{ "calibrate", cmd_calibrate, calibrate_options, "[options] TREE",
	  1, 1, "calibrate needs one tree: TREE",
	  "A/A splits of one tree: how often the gate would cry wolf" },
	{ "formats", cmd_formats, formats_options, "",
	  0, 0, "formats takes no arguments",
	  "list the input formats and how each is detected" },
	{ "history", cmd_history, history_options, "[options] ARCHIVE",
	  1, 1, "history needs one archive: ARCHIVE",
	  "find change points in an archive of past results, and gate on the newest" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(*commands))

static const char exit_text[] =
"exit status: 0 pass, 1 regression, 2 usage or config error, 3 input error,\n"
"4 out of memory\n";

static void print_usage_lines(FILE *fp, const struct cmd_struct *only)
{
	const char *lead = "usage:";

	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (only && only != &commands[i])
			continue;
		fprintf(fp, "%-6s perfverdict %s%s%s\n", lead, commands[i].name,
			*commands[i].operands ? " " : "", commands[i].operands);
		lead = "";
	}
	if (!only)
		fprintf(fp, "%-6s perfverdict --help | --version\n", lead);
}

/* perfverdict --help: every command, from the tables. */
static int print_help(FILE *fp)
{
	print_usage_lines(fp, NULL);
	fprintf(fp, "\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(fp, "  %-10s %s\n", commands[i].name, commands[i].what);
	fprintf(fp, "\nThe options that decide (--alpha ... --min-samples) override the config's\n"
		"[gate]; each default applies when neither sets it.\n");
	for (size_t i = 0; i < NCOMMANDS; i++) {
		fprintf(fp, "\n%s options:\n", commands[i].name);
		pv_options_help(commands[i].options, fp);
	}
	fprintf(fp, "\n%s", exit_text);
	return fflush(fp) || ferror(fp) ? PV_EUSAGE : PV_OK;
}

/* perfverdict CMD --help */
static int print_command_help(const struct cmd_struct *c, FILE *fp)
{
	print_usage_lines(fp, c);
	fprintf(fp, "\n%s\n\noptions:\n", c->what);
	pv_options_help(c->options, fp);
	fprintf(fp, "\n%s", exit_text);
	return fflush(fp) || ferror(fp) ? PV_EUSAGE : PV_OK;
}

/* perfverdict alone: the two commands most runs need, where to start,
 * and exit 2 (no command is a usage error). */
static int print_short_usage(FILE *fp)
{
	const char *lead = "usage:";

	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (strcmp(commands[i].name, "compare") &&
		    strcmp(commands[i].name, "history"))
			continue;
		fprintf(fp, "%-6s perfverdict %s %s\n", lead, commands[i].name,
			commands[i].operands);
		lead = "";
	}
	fprintf(fp, "\nOther commands:");
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, "compare") &&
		    strcmp(commands[i].name, "history"))
			fprintf(fp, " %s", commands[i].name);
	fprintf(fp, ".\nEvery command and option: perfverdict --help.\n"
		"Quick start: \"First comparison\" in README.md, or EXAMPLES in\n"
		"perfverdict(1) (man perfverdict).\n");
	return PV_EUSAGE;
}

/* Parse the command's arguments into a struct cli, then run it. */
static int run_command(const struct cmd_struct *c, int argc, char **argv)
{
	struct cli a;
	struct pv_err err = { 0 };
	int n;

	memset(&a, 0, sizeof(a));
	a.iterations = 200;
	a.seed = 1;
	n = pv_parse_options(argc, argv, c->options, &a, &err);
	if (n < 0)
		return usage_error(err.id, "%s", err.msg);
	if (a.help)
		return print_command_help(c, stdout);
	if (n < c->min || (c->max >= 0 && n > c->max))
		return usage_error(PV_M_USAGE, "%s", c->needs);
	a.operand = argv;
	a.noperands = n;
	return c->fn(&a);
}

int main(int argc, char **argv)
{
	gsl_set_error_handler_off();
	if (argc < 2)
		return print_short_usage(stderr);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return print_help(stdout);
	if (!strcmp(argv[1], "--version")) {
		printf("perfverdict %s (commit %s)\n", PV_VERSION, PV_COMMIT);
		return fflush(stdout) ? PV_EUSAGE : PV_OK;
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return run_command(&commands[i], argc - 2, argv + 2);
	return usage_error(PV_M_UNKNOWN_COMMAND, "unknown command '%s'", argv[1]);
}
