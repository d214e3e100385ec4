/*
 * targets.h - the fuzz targets, one function of (data, size) each.
 *
 * Included by the libFuzzer harness (tests/fuzz/fuzz.c, built with clang
 * by `make fuzz`, one binary whose name picks the target) and by the replay driver
 * (tests/tools/fuzzreplay.c, built by `make unit` with the project's
 * compiler and SANITIZE flags), which runs the committed crash inputs of
 * tests/fuzz/regress/TARGET/ in `make check`.
 *
 * Targets:
 *   rhs csv gbench pyperf hyperfine gobench pytest criterion jmh catch2
 *            the reader of that name (pv_readers[]) on the input, through
 *            a real sample table and read context, then pv_table_finish();
 *            every reader's probe sees the input too.  rhs runs twice:
 *            ignore_col 1, and ignore_col 2 with avg_update 4,2,3.
 *   csv-summary gbench-aggregates criterion-old
 *            the csv, gbench and criterion readers again, each seeded
 *            (tests/fuzz/run.sh) with one of the forms that are read as
 *            summaries or in an old layout: the CSV summary form (mean,
 *            sd, n), --benchmark_report_aggregates_only files, criterion
 *            0.2's [[iters], [times]] sample.json.
 *   load     the loader (pv_scan_tree, pv_load_side) in auto mode on two
 *            one-file trees: the baseline a valid file of a format the
 *            first byte picks (gbench, csv, rhs, gobench), the candidate
 *            the rest of the input under the same name, so that
 *            detection, the peer's reader, the descriptions of unknown
 *            files and the no-results checks all see it; then the
 *            warnings are printed (collapsed) to /dev/null.
 *   config   the input as a config file (pv_config_load), then the rule
 *            and waiver lookups.
 *   archive  the input as render's/merge's REPORT.json (pv_archive_read),
 *            then what render and merge do with it: the JUnit, Markdown,
 *            text and JSON writers, and pv_redecide().
 *   point point-gz
 *            the input as the newest of three entries of a history
 *            archive directory (two fixed valid points before it), named
 *            0003-p.json (the point reader's JSON) or 0003-p.json.gz (its
 *            gzip decoder first), read by pv_history_read(); seeded
 *            (tests/fuzz/run.sh) with points of samples/history's trees,
 *            the .gz ones kept compressed.
 *   datajs   the input as a github-action-benchmark data.js given to
 *            history (pv_history_read), then, when it reads, what
 *            `history --save-points DIR` does with it (pv_point_save_all
 *            into a scratch directory, emptied after each input).
 *   benchmark-action (a reader of pv_readers[], as above) the data.js as
 *            compare's candidate: its newest entry of each suite.
 *   num      pv_parse_double(), checked against strtod() for every input
 *            it accepts (bit for bit), and pv_test_id() on the input as a
 *            relative path.
 *   dtoa     the first 8 bytes as a double's bits: pv_format_double()
 *            must read back bit for bit with strtod(), be a JSON real
 *            (a '.' or an 'e'), and pv_dtoa_shortest() must give 1 to
 *            17 digits with neither leading nor trailing zeros.
 *
 * Invariants checked (a violation aborts, which the fuzzer reports): a
 * failing call fills err with a non-empty one-line message and an exit
 * status of 2 or 3.
 */
#ifndef PV_FUZZ_TARGETS_H
#define PV_FUZZ_TARGETS_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <gsl/gsl_errno.h>

#include <dirent.h>
#include "archive.h"
#include "history/history.h"
#include "history/point.h"
#include "config.h"
#include "policy.h"
#include "util/diag.h"
#include "readers/reader.h"
#include "report.h"
#include "scan.h"
#include "table.h"
#include "verdict.h"
#include "writers/writers.h"
#include "util/dtoa.h"
#include "util/num.h"

static void fuzz_check_err(const struct pv_err *err, enum pv_status want)
{
	if (!err->msg[0] || strchr(err->msg, '\n') ||
	    (want ? err->status != want :
	     err->status != PV_EUSAGE && err->status != PV_EINPUT)) {
		fprintf(stderr, "fuzz: bad error: status %d, message '%s'\n",
			(int)err->status, err->msg);
		abort();
	}
}

/* The path the reader is told it reads: some readers look at the name. */
static const char *fuzz_relpath(const char *reader)
{
	if (!strcmp(reader, "rhs"))
		return "repeat1/netperf-result.RHS";
	if (!strcmp(reader, "csv"))
		return "results.csv";
	if (!strcmp(reader, "gobench"))
		return "bench.txt";
	if (!strcmp(reader, "criterion"))
		return "fib/new/sample.json";
	if (!strcmp(reader, "jmh"))
		return "jmh-result.json";
	if (!strcmp(reader, "catch2"))
		return "bench.xml";
	if (!strcmp(reader, "benchmark-action"))
		return "data.js";
	return "bench.json";
}

static void fuzz_one_read(const struct pv_reader *rd, const char *buf,
			  size_t size, int ignore_col, int ratios)
{
	static struct pv_ratio ratio[1] = { { 4, 2, 3 } };
	struct pv_config cfg;
	struct pv_suite suite;
	struct pv_table t;
	struct pv_diag diag = PV_DIAG_INIT;
	struct pv_err err = { 0 };
	struct pv_read_ctx ctx;

	pv_config_defaults(&cfg);
	cfg.limits.max_metrics = 100000;
	memset(&suite, 0, sizeof(suite));
	suite.name = (char *)"fuzz";
	suite.ignore_col = ignore_col;
	suite.ratios = ratios ? ratio : NULL;
	suite.nratios = ratios ? 1 : 0;
	pv_table_init(&t, cfg.limits.max_metrics);
	memset(&ctx, 0, sizeof(ctx));
	ctx.table = &t;
	ctx.side = PV_BASE;
	ctx.suite = &suite;
	ctx.cfg = &cfg;
	ctx.test = "fuzz";
	ctx.path = "fuzz-input";
	ctx.relpath = fuzz_relpath(rd->name);
	/* criterion opens files next to the input: there are none. */
	ctx.root = "/nonexistent/perfverdict-fuzz";
	ctx.file = 0;
	ctx.diag = &diag;
	if (rd->read(&ctx, buf, size, &err))
		fuzz_check_err(&err, 0);
	else
		pv_table_finish(&t);
	pv_table_release(&t);
	pv_diag_release(&diag);
}

static int fuzz_reader(const char *name, const uint8_t *data, size_t size)
{
	const struct pv_reader *rd;
	char *buf;

	/* The targets that seed a reader with its newer forms. */
	if (!strcmp(name, "csv-summary"))
		name = "csv";
	else if (!strcmp(name, "gbench-aggregates"))
		name = "gbench";
	else if (!strcmp(name, "criterion-old"))
		name = "criterion";
	rd = pv_reader_by_name(name);

	if (!rd)
		return -1;
	/* The loader hands readers a NUL-terminated buffer. */
	buf = malloc(size + 1);
	if (!buf)
		abort();
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (size_t i = 0; pv_readers[i]; i++)
		(void)pv_readers[i]->probe(fuzz_relpath(name), buf, size);
	(void)pv_reader_detect("fuzz-input", buf, size);
	fuzz_one_read(rd, buf, size, 1, 0);
	if (!strcmp(name, "rhs"))
		fuzz_one_read(rd, buf, size, 2, 1);
	free(buf);
	return 0;
}

/* Inputs of the path-taking targets go through one temporary file. */
static const char *fuzz_file(const uint8_t *data, size_t size)
{
	static char path[64];
	FILE *fp;

	if (!path[0]) {
		int fd;
		const char *dir = getenv("TMPDIR");

		snprintf(path, sizeof(path), "%s/pv-fuzz-XXXXXX",
			 dir && strlen(dir) < 40 ? dir : "/tmp");
		fd = mkstemp(path);
		if (fd < 0)
			abort();
		close(fd);
	}
	fp = fopen(path, "wb");
	if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp))
		abort();
	return path;
}

static void fuzz_cleanup(void)
{
	const char *p = fuzz_file((const uint8_t *)"", 0);

	unlink(p);
}

static int fuzz_config(const uint8_t *data, size_t size)
{
	struct pv_config c;
	struct pv_err err = { 0 };
	struct pv_metric_policy pol;
	struct pv_diag d = PV_DIAG_INIT;

	if (pv_config_load(&c, fuzz_file(data, size), &err)) {
		fuzz_check_err(&err, PV_EUSAGE);
		return 0;
	}
	for (size_t i = 0; i < c.nsuites; i++) {
		char *id = pv_test_id("a/repeat1/b.repeat2.c/r.RHS",
				      &c.suites[i].repeat_re);

		free(id);
		(void)pv_config_suite(&c, c.suites[i].name);
	}
	pv_policy_of(&c, &c.gate, "TCP_STREAM", "size=64", "throughput", "",
		     PV_DIR_UNSET, &pol);
	(void)pv_policy_waiver(&c, "2026-01-01", "TCP_STREAM", "size=64",
			       "throughput", &d);
	pv_diag_release(&d);
	pv_config_release(&c);
	return 0;
}

static int fuzz_archive(const uint8_t *data, size_t size)
{
	static FILE *sink;
	struct pv_report r;
	struct pv_config cfg;
	struct pv_diag diag = PV_DIAG_INIT;
	struct pv_err err = { 0 };
	struct pv_write_opts md = { "/dev/null", 65000, "report.json", NULL };
	struct pv_text_opts to = { 0, 0, 0, 80 };

	if (!sink && !(sink = fopen("/dev/null", "w")))
		abort();
	pv_report_init(&r);
	if (pv_archive_read(&r, fuzz_file(data, size), &err)) {
		fuzz_check_err(&err, PV_EINPUT);
		pv_report_release(&r);
		return 0;
	}
	/* render */
	if (!r.settings.markdown_limit || r.settings.markdown_limit > 1000000)
		md.markdown_limit = 65000;
	else
		md.markdown_limit = r.settings.markdown_limit;
	if (pv_write_junit(&r, &md, sink, &err) ||
	    pv_write_markdown(&r, &md, sink, &err) ||
	    pv_write_text(&r, &to, sink, &err) ||
	    pv_write_html(&r, &md, sink, &err))
		fuzz_check_err(&err, 0);
	/* merge */
	pv_config_defaults(&cfg);
	if (pv_redecide(&r, &cfg, "2025-11-30", &diag, &err))
		fuzz_check_err(&err, 0);
	else if (pv_write_json(&r, &md, sink, &err))
		fuzz_check_err(&err, 0);
	pv_diag_release(&diag);
	pv_report_release(&r);
	return 0;
}

static int fuzz_num(const uint8_t *data, size_t size)
{
	char s[256];
	double v;
	regex_t re;

	if (size < sizeof(s)) {
		memcpy(s, data, size);
		s[size] = '\0';
		if (pv_parse_double(s, size, &v) == PV_NUM_OK) {
			double w = strtod(s, NULL);

			if (!isfinite(v) || memcmp(&v, &w, sizeof(v))) {
				fprintf(stderr, "fuzz: '%s' read as %.17g, strtod says %.17g\n",
					s, v, w);
				abort();
			}
		}
		if (!memchr(s, '\0', size) &&
		    !regcomp(&re, "repeat[0-9]+", REG_EXTENDED)) {
			free(pv_test_id(s, &re));
			regfree(&re);
		}
	}
	return 0;
}

static int fuzz_dtoa(const uint8_t *data, size_t size)
{
	char buf[PV_DTOA_BUFSIZE], d[17];
	double v, back;
	size_t len;
	int n, e, ok;

	if (size < sizeof(v))
		return 0;
	memcpy(&v, data, sizeof(v));
	len = pv_format_double(v, buf);
	if (len != strlen(buf) || len >= sizeof(buf))
		abort();
	if (!isfinite(v)) {
		if (strcmp(buf, "null"))
			abort();
		return 0;
	}
	back = strtod(buf, NULL);
	n = pv_dtoa_shortest(v, d, &e);
	if (v == 0)
		ok = n == 1 && d[0] == '0';
	else
		ok = n >= 1 && n <= 17 && d[0] != '0' && d[n - 1] != '0';
	if (!ok || memcmp(&v, &back, sizeof(v)) || !strpbrk(buf, ".e")) {
		fprintf(stderr, "fuzz: %a printed as '%s', reads back as %a\n",
			v, buf, back);
		abort();
	}
	return 0;
}

/* A directory of our own for the load target's two trees. */
static const char *fuzz_dir(void)
{
	static char dir[64];

	if (!dir[0]) {
		const char *tmp = getenv("TMPDIR");
		char sub[96];

		snprintf(dir, sizeof(dir), "%s/pv-fuzz-load-XXXXXX",
			 tmp && strlen(tmp) < 32 ? tmp : "/tmp");
		if (!mkdtemp(dir))
			abort();
		snprintf(sub, sizeof(sub), "%s/base", dir);
		if (mkdir(sub, 0700))
			abort();
		snprintf(sub, sizeof(sub), "%s/cand", dir);
		if (mkdir(sub, 0700))
			abort();
	}
	return dir;
}

static void fuzz_put(const char *dir, const char *side, const char *name,
		     const void *data, size_t size)
{
	char path[160];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, side, name);
	fp = fopen(path, "wb");
	if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp))
		abort();
}

static const char *const fuzz_load_names[] = {
	"bench.json", "r.csv", "r.RHS", "bench.txt"
};

static void fuzz_load_clear(const char *dir)
{
	char path[160];

	for (size_t i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/base/%s", dir,
			 fuzz_load_names[i]);
		unlink(path);
		snprintf(path, sizeof(path), "%s/cand/%s", dir,
			 fuzz_load_names[i]);
		unlink(path);
	}
}

static void fuzz_load_cleanup(void)
{
	char path[160];
	const char *dir = fuzz_dir();

	fuzz_load_clear(dir);
	snprintf(path, sizeof(path), "%s/base", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/cand", dir);
	rmdir(path);
	rmdir(dir);
}

static int fuzz_load(const uint8_t *data, size_t size)
{
	static const char *const peers[][2] = {
		{ "bench.json", "{\"context\": {\"num_cpus\": 2}, "
		  "\"benchmarks\": [{\"name\": \"BM_A\", \"run_name\": "
		  "\"BM_A\", \"run_type\": \"iteration\", \"real_time\": 5, "
		  "\"cpu_time\": 4, \"time_unit\": \"ns\"}]}" },
		{ "r.csv", "benchmark,mean,sd,n\nsort,10,1,5\n" },
		{ "r.RHS", "Category:TCP_STREAM\nsize|throughput\n64|10.5\n" },
		{ "bench.txt", "goos: linux\nBenchmarkX-8 10 5 ns/op\n" },
	};
	static FILE *sink;
	const char *dir;
	char base[96], cand[96];
	struct pv_config cfg;
	struct pv_suite suite;
	struct pv_scan sc[2] = { { 0 }, { 0 } };
	struct pv_table t;
	struct pv_diag diag = PV_DIAG_INIT;
	struct pv_err err = { 0 };
	size_t k;
	static int registered;

	if (!size)
		return 0;
	if (!sink && !(sink = fopen("/dev/null", "w")))
		abort();
	dir = fuzz_dir();
	if (!registered) {
		atexit(fuzz_load_cleanup);
		registered = 1;
	}
	fuzz_load_clear(dir);
	snprintf(base, sizeof(base), "%s/base", dir);
	snprintf(cand, sizeof(cand), "%s/cand", dir);
	k = data[0] % 4;
	fuzz_put(dir, "base", peers[k][0], peers[k][1], strlen(peers[k][1]));
	fuzz_put(dir, "cand", peers[k][0], data + 1, size - 1);

	pv_config_defaults(&cfg);
	cfg.limits.max_metrics = 100000;
	cfg.limits.max_file_size = 1 << 20;
	cfg.limits.empty_files_warn = data[0] >= 128;
	memset(&suite, 0, sizeof(suite));
	suite.name = (char *)"fuzz";
	suite.ignore_col = 1;
	if (regcomp(&suite.repeat_re, "repeat[0-9]+", REG_EXTENDED))
		abort();
	pv_table_init(&t, cfg.limits.max_metrics);
	if (pv_scan_tree(base, &suite, &cfg.limits, &sc[0], &err) ||
	    pv_scan_tree(cand, &suite, &cfg.limits, &sc[1], &err) ||
	    pv_load_side(&t, PV_BASE, &sc[0], &suite, NULL, &cfg, &diag, &err) ||
	    pv_load_side(&t, PV_CAND, &sc[1], &suite, NULL, &cfg, &diag, &err))
		fuzz_check_err(&err, 0);
	else if (t.n)
		pv_table_finish(&t);
	pv_diag_print(&diag, sink, "w: ", (size_t)(data[0] % 6));
	pv_table_release(&t);
	pv_scan_release(&sc[0]);
	pv_scan_release(&sc[1]);
	pv_diag_release(&diag);
	regfree(&suite.repeat_re);
	return 0;
}

/* The history targets' scratch directory: arch/ (the archive) and out/
 * (--save-points), both emptied before each input. */
static const char *fuzz_hist_dir(void)
{
	static char dir[64];
	char sub[96];

	if (dir[0])
		return dir;
	snprintf(dir, sizeof(dir), "%s/pv-fuzz-hist-XXXXXX",
		 getenv("TMPDIR") && strlen(getenv("TMPDIR")) < 32 ?
		 getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		abort();
	snprintf(sub, sizeof(sub), "%s/arch", dir);
	if (mkdir(sub, 0700))
		abort();
	snprintf(sub, sizeof(sub), "%s/out", dir);
	if (mkdir(sub, 0700))
		abort();
	return dir;
}

/* Remove the files of dir/sub (no subdirectories are made there). */
static void fuzz_empty(const char *dir, const char *sub)
{
	char path[512];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	if (!(d = opendir(path)))
		return;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(path, sizeof(path), "%s/%s/%s", dir, sub,
				 e->d_name);
			unlink(path);
		}
	closedir(d);
}

static void fuzz_hist_cleanup(void)
{
	char path[96];
	const char *dir = fuzz_hist_dir();

	fuzz_empty(dir, "arch");
	fuzz_empty(dir, "out");
	snprintf(path, sizeof(path), "%s/arch", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/out", dir);
	rmdir(path);
	unlink(dir);
	rmdir(dir);
}

/* point, point-gz, datajs: the input as the archive's one entry (name),
 * or with save the input as a data.js, then --save-points. */
static int fuzz_history(const char *name, int save, const uint8_t *data,
			size_t size)
{
	static int registered;
	const char *dir = fuzz_hist_dir();
	char archive[160], out[96];
	struct pv_config cfg;
	struct pv_suite suite;
	struct pv_history h;
	struct pv_history_opts o;
	struct pv_diag diag = PV_DIAG_INIT;
	struct pv_err err = { 0 };

	if (!registered) {
		atexit(fuzz_hist_cleanup);
		registered = 1;
	}
	fuzz_empty(dir, "arch");
	fuzz_empty(dir, "out");
	snprintf(archive, sizeof(archive), "%s/%s%s", dir,
		 save ? "" : "arch/", name);
	snprintf(out, sizeof(out), "%s/out", dir);
	fuzz_put(dir, save ? "." : "arch", name, data, size);
	if (!save) {
		/* history needs 3 points: two valid ones before the input */
		static const char pt[] = "{\"point_version\": 1, \"tool\": "
			"{\"name\": \"perfverdict\", \"version\": \"0\"}, "
			"\"label\": \"a\", \"commit\": null, \"time\": "
			"\"2026-01-01T00:00:00Z\", \"suite\": \"fuzz\", "
			"\"context\": {}, \"metrics\": [{\"suite\": \"fuzz\", "
			"\"test\": \"r.csv\", \"group\": \"g\", \"benchmark\": "
			"\"b\", \"metric\": \"time\", \"unit\": \"ns\", "
			"\"samples\": [10.0, 11.0, 10.5]}]}\n";

		fuzz_put(dir, "arch", "0001.json", pt, sizeof(pt) - 1);
		fuzz_put(dir, "arch", "0002.json", pt, sizeof(pt) - 1);
		snprintf(archive, sizeof(archive), "%s/arch", dir);
	}
	pv_config_defaults(&cfg);
	cfg.limits.max_metrics = 100000;
	cfg.limits.max_file_size = 1 << 20;
	memset(&suite, 0, sizeof(suite));
	suite.name = (char *)"fuzz";
	suite.ignore_col = 1;
	if (regcomp(&suite.repeat_re, "repeat[0-9]+", REG_EXTENDED))
		abort();
	memset(&o, 0, sizeof(o));
	o.cfg = &cfg;
	o.suite = &suite;
	o.order = PV_ORDER_NAME;
	o.recent = 3;
	o.today = "2026-01-01";
	pv_history_init(&h);
	h.tool_version = "fuzz";
	h.generated_at = "2026-01-01T00:00:00Z";
	h.suite = "fuzz";
	h.format = "auto";
	if (pv_history_read(&h, archive, &o, &diag, &err))
		fuzz_check_err(&err, 0);
	else if (save && pv_point_save_all(&h, out, &err))
		fuzz_check_err(&err, 0);
	pv_history_release(&h);
	pv_diag_release(&diag);
	regfree(&suite.repeat_re);
	return 0;
}

/* Run target on one input; -1 for an unknown target. */
static int pv_fuzz_run(const char *target, const uint8_t *data, size_t size)
{
	static int init;

	if (!init) {
		gsl_set_error_handler_off();
		atexit(fuzz_cleanup);
		init = 1;
	}
	if (!strcmp(target, "config"))
		return fuzz_config(data, size);
	if (!strcmp(target, "archive"))
		return fuzz_archive(data, size);
	if (!strcmp(target, "num"))
		return fuzz_num(data, size);
	if (!strcmp(target, "dtoa"))
		return fuzz_dtoa(data, size);
	if (!strcmp(target, "load"))
		return fuzz_load(data, size);
	if (!strcmp(target, "point"))
		return fuzz_history("0003-p.json", 0, data, size);
	if (!strcmp(target, "point-gz"))
		return fuzz_history("0003-p.json.gz", 0, data, size);
	if (!strcmp(target, "datajs"))
		return fuzz_history("data.js", 1, data, size);
	return fuzz_reader(target, data, size);
}

#endif
