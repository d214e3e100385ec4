/*
 * main.c - the command line: subcommands, options, exit statuses.
 *
 * This is the only file that prints errors or exits.  Each subcommand
 * parses argv into a struct, calls the library, and maps the outcome to
 * the documented exit status: 0 pass, 1 regression, 2 usage or config
 * error, 3 unreadable or malformed input.
 *
 * The program never calls setlocale(), so it stays in the C locale:
 * numbers are read and written the same way under any LC_NUMERIC.
 */
#include <getopt.h>
#include <math.h>
#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "archive.h"
#include "baseline_history.h"
#include "calibrate.h"
#include "cmd_history.h"
#include "config.h"
#include "diag.h"
#include "readers/reader.h"
#include "report.h"
#include "scan.h"
#include "table.h"
#include "verdict.h"
#include "writers/writers.h"
#include "util/atomic.h"
#include "util/num.h"

#ifndef PV_VERSION
#define PV_VERSION "0.0.0"
#endif

static const char usage_text[] =
"usage: perfverdict compare [options] BASELINE CANDIDATE\n"
"       perfverdict render REPORT.json [--junit F] [--markdown F]\n"
"       perfverdict merge REPORT.json... --json F [--junit F] [--markdown F]\n"
"       perfverdict calibrate [options] TREE\n"
"       perfverdict history [options] ARCHIVE\n"
"       perfverdict formats\n"
"       perfverdict --help | --version\n"
"\n"
"compare options:\n"
"  -c, --config FILE       INI settings (autotest's perf.conf works)\n"
"  -s, --suite NAME        the config section to use\n"
"  -f, --format FMT        input format, or auto (default)\n"
"      --json F            write the JSON report ('-' is stdout)\n"
"      --junit F           write JUnit XML\n"
"      --markdown F        write Markdown for a PR comment\n"
"      --markdown-limit N  characters the Markdown must fit (65000)\n"
"      --alpha A           significance level (0.05)\n"
"      --threshold T       smallest change that counts, e.g. 5%\n"
"      --test T            auto|welch|student|mannwhitney|moderated\n"
"      --correction C      none|holm|bh\n"
"      --sided S           worse|two\n"
"      --min-samples N     fewer runs on a side is insufficient (3)\n"
"      --criterion-baseline NAME  criterion.rs: baseline from NAME/\n"
"      --baseline-history ARCHIVE  pool the baseline from ARCHIVE's points\n"
"                          since the last change point; then give only CANDIDATE\n"
"      --history-window K  at most K points pooled (10)\n"
"  -q, --quiet             print only the closing verdict line\n"
"\n"
"calibrate takes the compare options that decide (-c -s -f --alpha\n"
"--threshold --test --correction --sided --min-samples) and:\n"
"      --iterations N      random A/A splits (200)\n"
"      --seed N            seed of the splits (1)\n"
"\n"
"history takes -c -s -f --alpha --threshold -q, --json F,\n"
"--markdown F and --html F (SVG trend charts), and:\n"
"      --recent K          fail on a regression in the newest K points (3)\n"
"      --order name|time   point order: entry names (default) or recorded time\n"
"\n"
"exit status: 0 pass, 1 regression, 2 usage or config error, 3 input error\n";

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "perfverdict: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'perfverdict --help'.\n");
	return PV_EUSAGE;
}

static int report_error(const struct pv_err *err)
{
	fprintf(stderr, "perfverdict: error: %s\n", err->msg);
	return err->status ? (int)err->status : PV_EINPUT;
}

static void print_warnings(const struct pv_diag *d)
{
	for (size_t i = 0; i < d->n; i++)
		fprintf(stderr, "perfverdict: warning: %s\n", d->msg[i]);
}

/* SOURCE_DATE_EPOCH (reproducible builds) or now, as UTC strings. */
static void now_utc(char *iso, size_t isolen, char *day, size_t daylen)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	time_t t = time(NULL);
	struct tm tm;

	if (sde && *sde) {
		char *end;
		long long v = strtoll(sde, &end, 10);

		/* Up to 9999-12-31T23:59:59Z: ISO 8601 has four-digit years. */
		if (!*end && v >= 0 && v <= 253402300799LL)
			t = (time_t)v;
	}
	if (!gmtime_r(&t, &tm))
		memset(&tm, 0, sizeof(tm));
	strftime(iso, isolen, "%Y-%m-%dT%H:%M:%SZ", &tm);
	strftime(day, daylen, "%Y-%m-%d", &tm);
}

/* The three report files, written together: all of them or none. */
struct outputs {
	const char *json, *junit, *markdown;
	size_t markdown_limit;
	int quiet;
};

/* The JSON report's file name, as the Markdown mentions it. */
static const char *json_name(const char *path)
{
	const char *slash;

	if (!path || !strcmp(path, "-"))
		return NULL;
	slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static int write_reports_named(const struct pv_report *r,
			       const struct outputs *o, const char *jname,
			       struct pv_err *err)
{
	struct pv_atomic a[3];
	const char *paths[3] = { o->json, o->junit, o->markdown };
	int rc = 0;

	memset(a, 0, sizeof(a));
	/* Two reports in one file would leave only the last one. */
	for (int i = 0; i < 3; i++)
		for (int j = i + 1; j < 3; j++)
			if (paths[i] && paths[j] && strcmp(paths[i], "-") &&
			    !strcmp(paths[i], paths[j]))
				return pv_error(err, PV_EUSAGE,
						"'%s' is given for two reports: each report needs its own file",
						paths[i]);
	for (int i = 0; i < 3 && !rc; i++) {
		struct pv_md_opts md = { o->markdown_limit, jname };

		if (!paths[i])
			continue;
		rc = pv_atomic_open(&a[i], paths[i], err);
		if (rc)
			break;
		if (i == 0)
			rc = pv_write_json(r, a[i].fp, err);
		else if (i == 1)
			rc = pv_write_junit(r, a[i].fp, err);
		else
			rc = pv_write_markdown(r, &md, a[i].fp, err);
	}
	if (rc) {
		for (int i = 0; i < 3; i++)
			pv_atomic_abort(&a[i]);
		return rc;
	}
	/* All of them or none. */
	return pv_atomic_commit_all(a, 3, err);
}

static int write_reports(const struct pv_report *r, const struct outputs *o,
			 struct pv_err *err)
{
	return write_reports_named(r, o, json_name(o->json), err);
}

enum {
	OPT_JSON = 256, OPT_JUNIT, OPT_MARKDOWN, OPT_MDLIMIT, OPT_ALPHA,
	OPT_THRESHOLD, OPT_TEST, OPT_CORRECTION, OPT_SIDED, OPT_MINSAMPLES,
	OPT_CRITERION, OPT_ITERATIONS, OPT_SEED, OPT_BHISTORY, OPT_HWINDOW,
};

static const struct option compare_opts[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "suite", required_argument, NULL, 's' },
	{ "format", required_argument, NULL, 'f' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "junit", required_argument, NULL, OPT_JUNIT },
	{ "markdown", required_argument, NULL, OPT_MARKDOWN },
	{ "markdown-limit", required_argument, NULL, OPT_MDLIMIT },
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "test", required_argument, NULL, OPT_TEST },
	{ "correction", required_argument, NULL, OPT_CORRECTION },
	{ "sided", required_argument, NULL, OPT_SIDED },
	{ "min-samples", required_argument, NULL, OPT_MINSAMPLES },
	{ "criterion-baseline", required_argument, NULL, OPT_CRITERION },
	{ "iterations", required_argument, NULL, OPT_ITERATIONS },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "baseline-history", required_argument, NULL, OPT_BHISTORY },
	{ "history-window", required_argument, NULL, OPT_HWINDOW },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Command-line settings that override the config file's [gate]. */
struct compare_args {
	const char *config, *suite, *format, *criterion;
	struct outputs out;
	struct pv_gate gate;
	unsigned set;               /* which gate fields were given */
	const char *base, *cand;
	unsigned long iterations, seed;   /* calibrate */
	const char *history;        /* --baseline-history ARCHIVE */
	unsigned long window;       /* --history-window K */
};

enum { SET_ALPHA = 1, SET_THRESHOLD = 2, SET_TEST = 4, SET_CORRECTION = 8,
       SET_SIDED = 16, SET_MIN = 32 };

static int parse_compare(int argc, char **argv, struct compare_args *a,
			 int calibrate)
{
	unsigned long u;
	int c;

	memset(a, 0, sizeof(*a));
	a->out.markdown_limit = 65000;
	a->iterations = 200;
	a->seed = 1;
	a->window = 10;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "c:s:f:qh", compare_opts, NULL)) != -1) {
		switch (c) {
		case 'c': a->config = optarg; break;
		case 's': a->suite = optarg; break;
		case 'f': a->format = optarg; break;
		case 'q': a->out.quiet = 1; break;
		case 'h': fputs(usage_text, stdout); exit(0);
		case OPT_JSON: a->out.json = optarg; break;
		case OPT_JUNIT: a->out.junit = optarg; break;
		case OPT_MARKDOWN: a->out.markdown = optarg; break;
		case OPT_CRITERION: a->criterion = optarg; break;
		case OPT_BHISTORY:
			if (calibrate)
				return usage_error("%s", "--baseline-history is for compare");
			a->history = optarg;
			break;
		case OPT_HWINDOW:
			if (pv_parse_uint(optarg, 1000000, &a->window) || a->window < 2)
				return usage_error("bad --history-window '%s': expected a count of at least 2 points", optarg);
			break;
		case OPT_ITERATIONS:
			if (!calibrate || pv_parse_uint(optarg, 1000000, &a->iterations) ||
			    !a->iterations)
				return usage_error("bad --iterations '%s': expected a positive count (calibrate only)", optarg);
			break;
		case OPT_SEED:
			if (!calibrate || pv_parse_uint(optarg, (unsigned long)-1, &a->seed))
				return usage_error("bad --seed '%s': expected a whole number (calibrate only)", optarg);
			break;
		case OPT_MDLIMIT:
			if (pv_parse_uint(optarg, 100000000, &u) || u < 1000)
				return usage_error("bad --markdown-limit '%s': expected a character count of at least 1000", optarg);
			a->out.markdown_limit = u;
			break;
		case OPT_ALPHA:
			if (pv_parse_alpha(optarg, &a->gate.alpha))
				return usage_error("bad --alpha '%s': expected a number between 0 and 1", optarg);
			a->set |= SET_ALPHA;
			break;
		case OPT_THRESHOLD:
			if (pv_parse_fraction(optarg, &a->gate.threshold))
				return usage_error("bad --threshold '%s': expected a non-negative fraction or percentage, e.g. 5%%", optarg);
			a->set |= SET_THRESHOLD;
			break;
		case OPT_TEST:
			if (pv_parse_test(optarg, &a->gate.test))
				return usage_error("bad --test '%s': expected auto, welch, student, mannwhitney or moderated", optarg);
			a->set |= SET_TEST;
			break;
		case OPT_CORRECTION:
			if (pv_parse_correction(optarg, &a->gate.correction))
				return usage_error("bad --correction '%s': expected none, holm or bh", optarg);
			a->set |= SET_CORRECTION;
			break;
		case OPT_SIDED:
			if (pv_parse_sided(optarg, &a->gate.sided))
				return usage_error("bad --sided '%s': expected worse or two", optarg);
			a->set |= SET_SIDED;
			break;
		case OPT_MINSAMPLES:
			if (pv_parse_uint(optarg, 1000000, &u) || u < 2)
				return usage_error("bad --min-samples '%s': expected a whole number of at least 2", optarg);
			a->gate.min_samples = (unsigned)u;
			a->set |= SET_MIN;
			break;
		case ':':
			return usage_error("option '%s' needs a value", argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (calibrate) {
		if (argc - optind != 1)
			return usage_error("%s", "calibrate needs one tree: TREE");
		if (a->out.json || a->out.junit || a->out.markdown)
			return usage_error("%s", "calibrate writes no reports; it prints its findings");
		a->base = argv[optind];
		return 0;
	}
	if (a->history) {
		if (argc - optind != 1)
			return usage_error("%s", "compare --baseline-history ARCHIVE needs one tree: CANDIDATE");
		a->base = a->history;
		a->cand = argv[optind];
		return 0;
	}
	if (argc - optind != 2)
		return usage_error("%s", "compare needs two trees: BASELINE CANDIDATE");
	a->base = argv[optind];
	a->cand = argv[optind + 1];
	return 0;
}

static void apply_overrides(struct pv_gate *g, const struct compare_args *a)
{
	if (a->set & SET_ALPHA) g->alpha = a->gate.alpha;
	if (a->set & SET_THRESHOLD) g->threshold = a->gate.threshold;
	if (a->set & SET_TEST) g->test = a->gate.test;
	if (a->set & SET_CORRECTION) g->correction = a->gate.correction;
	if (a->set & SET_SIDED) g->sided = a->gate.sided;
	if (a->set & SET_MIN) g->min_samples = a->gate.min_samples;
}

/* The suite: -s, the only one in the config, or a catch-all. */
static int choose_suite(struct pv_config *cfg, const char *name,
			struct pv_suite *fallback, const struct pv_suite **out,
			struct pv_err *err)
{
	if (name) {
		*out = pv_config_suite(cfg, name);
		if (!*out)
			return pv_error(err, PV_EUSAGE,
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
		return pv_error(err, PV_EUSAGE,
				"%s has several suites (%s): choose one with -s",
				cfg->path, list);
	}
	memset(fallback, 0, sizeof(*fallback));
	fallback->name = (char *)"default";
	fallback->ignore_col = 1;
	fallback->repeat_pattern = (char *)"repeat[0-9]+";
	if (regcomp(&fallback->repeat_re, fallback->repeat_pattern, REG_EXTENDED))
		return pv_error(err, PV_EUSAGE, "cannot compile the repeat pattern");
	*out = fallback;
	return 0;
}

static int cmd_compare(int argc, char **argv)
{
	struct compare_args a;
	struct pv_config cfg;
	struct pv_suite fallback;
	const struct pv_suite *suite = NULL;
	struct pv_scan scan[2] = { { 0 }, { 0 } };
	struct pv_table table;
	struct pv_report r;
	struct pv_diag diag = PV_DIAG_INIT;
	struct pv_err err = { 0 };
	struct pv_bh bh;
	char iso[32], today[16];
	const char *format;
	int st = 0, rc;

	memset(&bh, 0, sizeof(bh));
	if ((rc = parse_compare(argc, argv, &a, 0)))
		return rc;
	if (a.config) {
		if (pv_config_load(&cfg, a.config, &err))
			return report_error(&err);
	} else {
		pv_config_defaults(&cfg);
	}
	apply_overrides(&cfg.gate, &a);
	if (a.criterion)
		cfg.criterion_baseline = strdup(a.criterion);
	memset(&fallback, 0, sizeof(fallback));
	if (choose_suite(&cfg, a.suite, &fallback, &suite, &err)) {
		pv_config_release(&cfg);
		return report_error(&err);
	}
	format = a.format ? a.format : suite->format;
	if (format && strcmp(format, "auto") && !pv_reader_by_name(format)) {
		pv_error(&err, PV_EUSAGE, "unknown format '%s' (see 'perfverdict formats')",
			 format);
		goto fail;
	}
	pv_table_init(&table, cfg.limits.max_metrics);
	pv_report_init(&r);
	now_utc(iso, sizeof(iso), today, sizeof(today));
	if (a.history) {
		/* The baseline pooled from the archive's points. */
		struct pv_history_opts ho = {
			&cfg, suite, format, PV_ORDER_NAME, 3, today,
		};

		if (pv_scan_tree(a.cand, suite, &cfg.limits, &scan[1], &err) ||
		    pv_load_side(&table, PV_CAND, &scan[1], suite, format, &cfg, &diag, &err) ||
		    pv_bh_pool(&bh, &table, a.history, a.window, &ho, &diag, &err))
			goto fail_all;
		table.side[PV_BASE].path = a.history;
		table.side[PV_BASE].files = bh.h.np;
		table.side[PV_BASE].runs = 0;
		for (size_t i = 0; i < bh.h.np; i++)
			table.side[PV_BASE].runs += bh.used[i] > 0;
	} else
	if (pv_scan_tree(a.base, suite, &cfg.limits, &scan[0], &err) ||
	    pv_scan_tree(a.cand, suite, &cfg.limits, &scan[1], &err) ||
	    pv_load_side(&table, PV_BASE, &scan[0], suite, format, &cfg, &diag, &err) ||
	    pv_load_side(&table, PV_CAND, &scan[1], suite, format, &cfg, &diag, &err))
		goto fail_all;
	if (!table.n) {
		pv_error(&err, PV_EINPUT,
			 "no samples found in '%s' or '%s'%s", a.base, a.cand,
			 suite->pattern ? " (check result_file_pattern)" :
			 ": expected result files of a known format (see 'perfverdict formats')");
		goto fail_all;
	}
	pv_table_finish(&table);

	r.tool_version = PV_VERSION;
	r.generated_at = iso;
	r.settings.config_path = cfg.path;
	r.settings.suite = suite->name;
	r.settings.format = format ? format : "auto";
	r.settings.gate = cfg.gate;
	r.settings.markdown_limit = (unsigned)a.out.markdown_limit;
	pv_model_from_table(&table, &cfg, &r, &diag);
	pv_table_drop_metrics(&table);
	if (a.history && pv_bh_attach(&bh, &r, &diag, &err))
		goto fail_all;
	if (pv_redecide(&r, &cfg, today, &diag, &err))
		goto fail_all;
	r.warnings = (const char **)diag.msg;
	r.nwarnings = diag.n;

	print_warnings(&diag);
	if (!r.compared) {
		/* Nothing was tested: an input error, not a verdict. */
		struct strbuf why = STRBUF_INIT;

		pv_error(&err, PV_EINPUT,
			 "no metric could be compared (%zu insufficient, %zu missing, %zu new): %s",
			 r.count[PV_V_INSUFFICIENT], r.count[PV_V_MISSING],
			 r.count[PV_V_NEW], pv_result_reason(&r, &r.m[0], &why));
		strbuf_release(&why);
		goto fail_printed;
	}
	if (write_reports(&r, &a.out, &err))
		goto fail_printed;
	{
		int to_stdout = (a.out.json && !strcmp(a.out.json, "-")) ||
				(a.out.junit && !strcmp(a.out.junit, "-")) ||
				(a.out.markdown && !strcmp(a.out.markdown, "-"));
		int any = a.out.json || a.out.junit || a.out.markdown;
		const char *nc = getenv("NO_COLOR");
		struct pv_text_opts to = {
			isatty(STDOUT_FILENO) && !(nc && *nc),
			a.out.quiet || any,
		};

		if (!to_stdout && pv_write_text(&r, &to, stdout, &err))
			goto fail_printed;
		if (fflush(stdout)) {
			pv_error(&err, PV_EUSAGE, "cannot write to standard output");
			goto fail_printed;
		}
	}
	st = r.fail ? PV_FAIL : PV_OK;
	goto done;

fail_all:
	print_warnings(&diag);
fail_printed:
	st = report_error(&err);
done:
	r.warnings = NULL;
	pv_report_release(&r);
	pv_bh_release(&bh);
	pv_table_release(&table);
	pv_scan_release(&scan[0]);
	pv_scan_release(&scan[1]);
	pv_diag_release(&diag);
	if (suite == &fallback)
		regfree(&fallback.repeat_re);
	pv_config_release(&cfg);
	return st;
fail:
	st = report_error(&err);
	if (suite == &fallback)
		regfree(&fallback.repeat_re);
	pv_config_release(&cfg);
	return st;
}

static void print_calibration(const struct pv_calib *c, const char *tree,
			      FILE *fp)
{
	const struct pv_report *r = &c->model;
	double rate = (double)c->alarmed / c->iterations;
	double se = sqrt(rate * (1 - rate) / c->iterations);
	size_t shown = 0;

	fprintf(fp, "perfverdict calibrate: %u random A/A splits of %s\n",
		c->iterations, tree);
	fprintf(fp, "  %zu metrics with %zu to %zu runs, split in halves (min_samples is 2 for them)", c->metrics,
		c->min_runs, c->max_runs);
	if (c->skipped)
		fprintf(fp, " (%zu with fewer than 4 runs left out)", c->skipped);
	fprintf(fp, "\n  settings: test %s, correction %s, sided %s, alpha %g, threshold %g%%\n",
		pv_test_name(r->settings.gate.test),
		pv_correction_name(r->settings.gate.correction),
		pv_sided_name(r->settings.gate.sided), r->settings.gate.alpha,
		r->settings.gate.threshold * 100);
	fprintf(fp, "\nfamily false-alarm rate: %.1f%% (%u of %u splits raised a regression), standard error %.1f%%\n",
		rate * 100, c->alarmed, c->iterations, se * 100);
	for (unsigned pass = 0; pass < 1; pass++) {
		size_t *idx = pv_malloc((r->n + 1) * sizeof(*idx));
		size_t k = 0;

		for (size_t i = 0; i < r->n; i++)
			if (c->alarms[i])
				idx[k++] = i;
		/* Most alarms first (a small insertion sort: k is small). */
		for (size_t i = 1; i < k; i++)
			for (size_t j = i; j > 0 && c->alarms[idx[j]] >
			     c->alarms[idx[j - 1]]; j--) {
				size_t t = idx[j];

				idx[j] = idx[j - 1];
				idx[j - 1] = t;
			}
		if (k)
			fprintf(fp, "\nmetrics that alarmed most:\n");
		for (size_t i = 0; i < k && shown < 10; i++, shown++) {
			struct strbuf id = STRBUF_INIT;

			fprintf(fp, "  %5.1f%%  %s\n",
				100.0 * c->alarms[idx[i]] / c->iterations,
				pv_result_id(&r->m[idx[i]], &id));
			strbuf_release(&id);
		}
		free(idx);
	}
	if (rate > r->settings.gate.alpha + 2 * se)
		fprintf(fp, "\nThe gate would cry wolf more often than alpha on this data: raise the threshold, set max_cv, or run more repeats.\n");
}

static int cmd_calibrate(int argc, char **argv)
{
	struct compare_args a;
	struct pv_config cfg;
	struct pv_suite fallback;
	const struct pv_suite *suite = NULL;
	struct pv_scan scan = { 0 };
	struct pv_table table;
	struct pv_calib cal;
	struct pv_diag diag = PV_DIAG_INIT;
	struct pv_err err = { 0 };
	const char *format;
	int st = PV_OK, rc;

	if ((rc = parse_compare(argc, argv, &a, 1)))
		return rc;
	if (a.config) {
		if (pv_config_load(&cfg, a.config, &err))
			return report_error(&err);
	} else {
		pv_config_defaults(&cfg);
	}
	apply_overrides(&cfg.gate, &a);
	memset(&fallback, 0, sizeof(fallback));
	memset(&cal, 0, sizeof(cal));
	pv_table_init(&table, cfg.limits.max_metrics);
	if (choose_suite(&cfg, a.suite, &fallback, &suite, &err)) {
		st = report_error(&err);
		goto out;
	}
	format = a.format ? a.format : suite->format;
	if (pv_scan_tree(a.base, suite, &cfg.limits, &scan, &err) ||
	    pv_load_side(&table, PV_BASE, &scan, suite, format, &cfg, &diag, &err)) {
		st = report_error(&err);
		goto out;
	}
	if (!table.n) {
		pv_error(&err, PV_EINPUT, "no samples found in '%s'", a.base);
		st = report_error(&err);
		goto out;
	}
	pv_table_finish(&table);
	pv_report_init(&cal.model);
	cal.model.settings.config_path = cfg.path;
	cal.model.settings.suite = suite->name;
	cal.model.settings.gate = cfg.gate;
	if (pv_calibrate(&table, &cfg, (unsigned)a.iterations, a.seed, &cal,
			 &diag, &err)) {
		st = report_error(&err);
	} else {
		print_warnings(&diag);
		print_calibration(&cal, a.base, stdout);
		if (fflush(stdout))
			st = PV_EUSAGE;
	}
out:
	pv_calib_release(&cal);
	pv_table_release(&table);
	pv_scan_release(&scan);
	pv_diag_release(&diag);
	if (suite == &fallback)
		regfree(&fallback.repeat_re);
	pv_config_release(&cfg);
	return st;
}

static const struct option render_opts[] = {
	{ "json", required_argument, NULL, OPT_JSON },
	{ "junit", required_argument, NULL, OPT_JUNIT },
	{ "markdown", required_argument, NULL, OPT_MARKDOWN },
	{ "markdown-limit", required_argument, NULL, OPT_MDLIMIT },
	{ "config", required_argument, NULL, 'c' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* render and merge: reports in, reports out. */
static int parse_reports_args(int argc, char **argv, struct outputs *o,
			      const char **config)
{
	unsigned long u;
	int c;

	memset(o, 0, sizeof(*o));
	*config = NULL;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "c:h", render_opts, NULL)) != -1) {
		switch (c) {
		case 'h': fputs(usage_text, stdout); exit(0);
		case 'c': *config = optarg; break;
		case OPT_JSON: o->json = optarg; break;
		case OPT_JUNIT: o->junit = optarg; break;
		case OPT_MARKDOWN: o->markdown = optarg; break;
		case OPT_MDLIMIT:
			if (pv_parse_uint(optarg, 100000000, &u) || u < 1000)
				return usage_error("bad --markdown-limit '%s': expected a character count of at least 1000", optarg);
			o->markdown_limit = u;
			break;
		case ':':
			return usage_error("option '%s' needs a value", argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	return 0;
}

static int cmd_render(int argc, char **argv)
{
	struct outputs o;
	struct pv_report r;
	struct pv_err err = { 0 };
	const char *config;
	int rc;

	if ((rc = parse_reports_args(argc, argv, &o, &config)))
		return rc;
	if (argc - optind != 1)
		return usage_error("%s", "render needs one REPORT.json");
	if (config || o.json)
		return usage_error("%s", "render writes --junit and --markdown only");
	if (!o.junit && !o.markdown)
		return usage_error("%s", "render needs --junit F or --markdown F");
	pv_report_init(&r);
	if (pv_archive_read(&r, argv[optind], &err)) {
		pv_report_release(&r);
		return report_error(&err);
	}
	if (!o.markdown_limit)
		o.markdown_limit = r.settings.markdown_limit ?
				   r.settings.markdown_limit : 65000;
	/* Name the JSON as compare did: by its file name. */
	o.json = argv[optind];
	{
		struct outputs w = o;

		w.json = NULL;
		rc = write_reports_named(&r, &w, json_name(o.json), &err);
	}
	pv_report_release(&r);
	return rc ? report_error(&err) : PV_OK;
}

static int cmd_merge(int argc, char **argv)
{
	struct outputs o;
	struct pv_report *rs;
	struct pv_config cfg;
	struct pv_diag diag = PV_DIAG_INIT;
	struct pv_err err = { 0 };
	const char *config;
	char iso[32], today[16];
	int rc, n, st = PV_OK;

	if ((rc = parse_reports_args(argc, argv, &o, &config)))
		return rc;
	n = argc - optind;
	if (n < 1)
		return usage_error("%s", "merge needs at least one REPORT.json");
	if (!o.json && !o.junit && !o.markdown)
		return usage_error("%s", "merge needs --json F (and may add --junit, --markdown)");
	if (config) {
		if (pv_config_load(&cfg, config, &err))
			return report_error(&err);
	} else {
		pv_config_defaults(&cfg);
	}
	rs = pv_calloc((size_t)n, sizeof(*rs));
	for (int i = 0; i < n && !st; i++) {
		pv_report_init(&rs[i]);
		if (pv_archive_read(&rs[i], argv[optind + i], &err) ||
		    (i && pv_archive_merge(&rs[0], &rs[i], argv[optind + i], &err)))
			st = report_error(&err);
	}
	if (!st) {
		struct pv_report *r = &rs[0];

		/* The family correction and verdicts over the union. */
		now_utc(iso, sizeof(iso), today, sizeof(today));
		r->generated_at = iso;
		r->tool_version = PV_VERSION;
		if (!o.markdown_limit)
			o.markdown_limit = r->settings.markdown_limit ?
					   r->settings.markdown_limit : 65000;
		r->settings.markdown_limit = (unsigned)o.markdown_limit;
		if (pv_redecide(r, &cfg, today, &diag, &err)) {
			st = report_error(&err);
		} else {
			print_warnings(&diag);
			if (!r->compared)
				st = report_error((pv_error(&err, PV_EINPUT,
					"no metric could be compared: %zu insufficient, %zu missing, %zu new",
					r->count[PV_V_INSUFFICIENT], r->count[PV_V_MISSING],
					r->count[PV_V_NEW]), &err));
			else if (write_reports(r, &o, &err))
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

static int cmd_formats(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("%-12s %s\n", "FORMAT", "DETECTED BY");
	for (size_t i = 0; pv_readers[i]; i++)
		printf("%-12s %s\n", pv_readers[i]->name, pv_readers[i]->detect);
	return fflush(stdout) ? PV_EUSAGE : PV_OK;
}


static const struct option history_opts[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "suite", required_argument, NULL, 's' },
	{ "format", required_argument, NULL, 'f' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "json", required_argument, NULL, 'J' },
	{ "markdown", required_argument, NULL, 'M' },
	{ "html", required_argument, NULL, 'H' },
	{ "alpha", required_argument, NULL, 'A' },
	{ "threshold", required_argument, NULL, 'T' },
	{ "recent", required_argument, NULL, 'R' },
	{ "order", required_argument, NULL, 'O' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* history [options] ARCHIVE: parse, settle the config, and hand over. */
static int cmd_history(int argc, char **argv)
{
	struct pv_history_args h;
	struct pv_config cfg;
	struct pv_suite fallback;
	const struct pv_suite *suite = NULL;
	const char *config = NULL, *suite_name = NULL;
	struct pv_diag diag = PV_DIAG_INIT;
	struct pv_err err = { 0 };
	char iso[32], today[16];
	double alpha = NAN, threshold = NAN;
	unsigned long u;
	int c, st;

	memset(&h, 0, sizeof(h));
	h.recent = 3;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "c:s:f:qh", history_opts, NULL)) != -1) {
		switch (c) {
		case 'c': config = optarg; break;
		case 's': suite_name = optarg; break;
		case 'f': h.format = optarg; break;
		case 'q': h.quiet = 1; break;
		case 'J': h.json = optarg; break;
		case 'M': h.markdown = optarg; break;
		case 'H': h.html = optarg; break;
		case 'h': fputs(usage_text, stdout); exit(0);
		case 'A':
			if (pv_parse_alpha(optarg, &alpha))
				return usage_error("bad --alpha '%s': expected a number between 0 and 1", optarg);
			break;
		case 'T':
			if (pv_parse_fraction(optarg, &threshold))
				return usage_error("bad --threshold '%s': expected a non-negative fraction or percentage, e.g. 5%%", optarg);
			break;
		case 'R':
			if (pv_parse_uint(optarg, 1000000, &u) || !u)
				return usage_error("bad --recent '%s': expected a positive count of points", optarg);
			h.recent = u;
			break;
		case 'O':
			if (!strcmp(optarg, "name"))
				h.order = PV_ORDER_NAME;
			else if (!strcmp(optarg, "time"))
				h.order = PV_ORDER_TIME;
			else
				return usage_error("bad --order '%s': expected name or time", optarg);
			break;
		case ':':
			return usage_error("option '%s' needs a value", argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind != 1)
		return usage_error("%s", "history needs one archive: ARCHIVE");
	h.archive = argv[optind];
	if (config) {
		if (pv_config_load(&cfg, config, &err))
			return report_error(&err);
	} else {
		pv_config_defaults(&cfg);
	}
	if (!isnan(alpha))
		cfg.gate.alpha = alpha;
	if (!isnan(threshold))
		cfg.gate.threshold = threshold;
	memset(&fallback, 0, sizeof(fallback));
	if (choose_suite(&cfg, suite_name, &fallback, &suite, &err)) {
		pv_config_release(&cfg);
		return report_error(&err);
	}
	if (!h.format)
		h.format = suite->format;
	if (h.format && strcmp(h.format, "auto") && !pv_reader_by_name(h.format)) {
		pv_error(&err, PV_EUSAGE, "unknown format '%s' (see 'perfverdict formats')",
			 h.format);
		st = report_error(&err);
		goto out;
	}
	now_utc(iso, sizeof(iso), today, sizeof(today));
	h.cfg = &cfg;
	h.suite = suite;
	h.tool_version = PV_VERSION;
	h.generated_at = iso;
	h.today = today;
	st = pv_cmd_history(&h, &diag, &err);
	print_warnings(&diag);
	if (st < 0)
		st = report_error(&err);
out:
	pv_diag_release(&diag);
	if (suite == &fallback)
		regfree(&fallback.repeat_re);
	pv_config_release(&cfg);
	return st;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "compare", cmd_compare },
	{ "render", cmd_render },
	{ "merge", cmd_merge },
	{ "calibrate", cmd_calibrate },
	{ "formats", cmd_formats },
	{ "history", cmd_history },
};

int main(int argc, char **argv)
{
	gsl_set_error_handler_off();
	if (argc < 2)
		return usage_error("%s", "a command is required: compare, render or formats");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage_text, stdout);
		return fflush(stdout) ? PV_EUSAGE : PV_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("perfverdict %s\n", PV_VERSION);
		return fflush(stdout) ? PV_EUSAGE : PV_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(*commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	return usage_error("unknown command '%s'", argv[1]);
}
