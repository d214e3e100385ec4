/*
 * test_catch2.c - the Catch2 XML reader (src/readers/catch2.c) and the
 * summary path it feeds (pv_emit_summary, pv_table_summary, the model's
 * summary_only sides and Welch's test from summaries), through a real
 * sample table and read context.  The XML is inline: the shapes of
 * Catch2 2.13's and 3.x's XML reporter, cut down.
 */
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "readers_fixture.h"
#include "report.h"
#include "stats.h"
#include "verdict.h"

static int setup(void **state)
{
	return fx_setup(state, "bench", "t");
}

/* Read text as the next file of side s. */
static int feed_xml(struct fx *f, enum pv_side s, const char *path,
		    const char *text)
{
	f->ctx.side = s;
	return feed(f, &pv_reader_catch2, path, text);
}

/* The metric "time" of a Catch2 benchmark. */
static const struct pv_metric *get_time(struct fx *f, const char *group,
					const char *benchmark)
{
	return get(f, group, benchmark, "time");
}

/* One BenchmarkResults as Catch2 2.13 writes it. */
#define BENCH(name, n, mean, sd) \
	"      <BenchmarkResults name=\"" name "\" samples=\"" #n "\" " \
	"resamples=\"2000\" iterations=\"1\" clockResolution=\"27.7\" " \
	"estimatedDuration=\"4.3e+06\">\n" \
	"        <!--All values in nano seconds-->\n" \
	"        <mean value=\"" #mean "\" lowerBound=\"1\" upperBound=\"2\" ci=\"0.95\"/>\n" \
	"        <standardDeviation value=\"" #sd "\" lowerBound=\"1\" upperBound=\"2\" ci=\"0.95\"/>\n" \
	"        <outliers variance=\"0.4\" lowMild=\"0\" lowSevere=\"0\" highMild=\"1\" highSevere=\"0\"/>\n" \
	"      </BenchmarkResults>\n"

#define V2_HEAD \
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" \
	"<Catch name=\"bench\">\n" \
	"  <Group name=\"bench\">\n"
#define V2_TAIL \
	"    <OverallResults successes=\"0\" failures=\"0\" expectedFailures=\"0\"/>\n" \
	"  </Group>\n" \
	"  <OverallResults successes=\"0\" failures=\"0\" expectedFailures=\"0\"/>\n" \
	"</Catch>\n"

static const char v2_file[] =
	V2_HEAD
	"    <TestCase name=\"containers\" tags=\"[bench]\" filename=\"bench.cpp\" line=\"24\">\n"
	BENCH("sort 4096", 30, 147428, 12126.3)
	BENCH("accumulate 8192", 30, 2693.88, 394.634)
	"      <OverallResult success=\"true\"/>\n"
	"    </TestCase>\n"
	"    <TestCase name=\"strings\" tags=\"[bench]\" filename=\"bench.cpp\" line=\"42\">\n"
	BENCH("append 256", 100, 334.833, 24.1758)
	"      <OverallResult success=\"true\"/>\n"
	"    </TestCase>\n"
	V2_TAIL;

/* ------------------------------------------------------------- reading */

static void v2_normal(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;
	double sd = 12126.3 * sqrt(30.0 / 29.0);

	assert_int_equal(feed_xml(f, PV_BASE, "b/bench.xml", v2_file), 0);
	assert_int_equal(f->t.n, 3);
	m = get_time(f, "containers", "sort 4096");
	assert_string_equal(m->key.suite, "bench");
	assert_string_equal(m->key.test, "t");
	assert_string_equal(m->unit, "ns");
	assert_int_equal(m->dir_hint, PV_DIR_LOWER);
	assert_int_equal(m->seen[PV_BASE], 1);
	assert_non_null(m->sum[PV_BASE]);
	assert_null(m->sum[PV_CAND]);
	assert_int_equal(m->sum[PV_BASE]->n, 30);
	assert_near(m->sum[PV_BASE]->mean, 147428, 0);
	/* Catch2 divides by N; the side carries the n-1 sd. */
	assert_near(m->sum[PV_BASE]->sd, sd, sd * 1e-15);
	m = get_time(f, "strings", "append 256");
	assert_int_equal(m->sum[PV_BASE]->n, 100);
	assert_near(m->sum[PV_BASE]->mean, 334.833, 0);
	get_time(f, "containers", "accumulate 8192");
	/* One warning per file that only summaries exist. */
	assert_int_equal(diag_count(f, "only summary statistics"), 1);
	assert_non_null(strstr(f->diag.msg[0], "b/bench.xml"));

	pv_table_finish(&f->t);
	m = get_time(f, "containers", "sort 4096");
	assert_int_equal(m->sum[PV_BASE]->only, 1);
	assert_int_equal(m->files[PV_BASE], 1);
}

static void v3_root(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;
	static const char v3[] =
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<Catch2TestRun name=\"bench\" rng-seed=\"1\" catch2-version=\"3.4.0\">\n"
		"  <TestCase name=\"hashing\" tags=\"[bench]\" filename=\"h.cpp\" line=\"9\">\n"
		"    <Section name=\"small\" filename=\"h.cpp\" line=\"10\">\n"
		BENCH("fnv", 100, 12.5, 0.25)
		"    </Section>\n"
		BENCH("fnv", 100, 40.25, 1.5)
		"    <OverallResult success=\"true\" skips=\"0\"/>\n"
		"  </TestCase>\n"
		"  <OverallResults successes=\"0\" failures=\"0\" expectedFailures=\"0\" skips=\"0\"/>\n"
		"  <OverallResultsCases successes=\"1\" failures=\"0\" expectedFailures=\"0\" skips=\"0\"/>\n"
		"</Catch2TestRun>\n";

	assert_int_equal(feed_xml(f, PV_BASE, "v3.xml", v3), 0);
	assert_int_equal(f->t.n, 2);
	/* A section's benchmark is prefixed by the section's name. */
	m = get_time(f, "hashing", "small/fnv");
	assert_near(m->sum[PV_BASE]->mean, 12.5, 0);
	m = get_time(f, "hashing", "fnv");
	assert_near(m->sum[PV_BASE]->mean, 40.25, 0);
	assert_int_equal(f->t.side[PV_BASE].ncontext, 1);
	assert_string_equal(f->t.side[PV_BASE].context[0].key,
			    "catch2.version");
	assert_string_equal(f->t.side[PV_BASE].context[0].value, "3.4.0");
}

static void probe(void **state)
{
	const struct pv_reader *rd = &pv_reader_catch2;
	static const char v3[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
				 "<Catch2TestRun name=\"x\">\n";

	(void)state;
	assert_true(rd->probe("a.xml", v2_file, strlen(v2_file)) > 0);
	assert_true(rd->probe("a.xml", v3, strlen(v3)) > 0);
	assert_ptr_equal(pv_reader_detect("a.xml", v2_file, strlen(v2_file)),
			 rd);
	assert_ptr_equal(pv_reader_detect("a.xml", v3, strlen(v3)), rd);
	/* Catch2's JUnit reporter, other XML, JSON, nothing: not ours. */
	assert_int_equal(rd->probe("a.xml", "<?xml version=\"1.0\"?>\n"
				   "<testsuites><testsuite name=\"Catch\"/>"
				   "</testsuites>", 62), 0);
	assert_int_equal(rd->probe("a.xml", "<?xml version=\"1.0\"?><CatchAll/>",
				   32), 0);
	assert_int_equal(rd->probe("a.json", "{\"benchmarks\": []}", 18), 0);
	assert_int_equal(rd->probe("a.xml", "", 0), 0);
	assert_int_equal(rd->probe("a.xml", "<Catch name=\"x\"/>", 17), 0);
}

static void failed_benchmark_skipped(void **state)
{
	struct fx *f = *state;
	static const char text[] =
		V2_HEAD
		"    <TestCase name=\"tc\">\n"
		"      <BenchmarkResults name=\"throws\" samples=\"100\" resamples=\"100000\" iterations=\"1\">\n"
		"        <failed message=\"boom\"/>\n"
		"      </BenchmarkResults>\n"
		BENCH("ok", 10, 5.5, 0.5)
		"    </TestCase>\n"
		V2_TAIL;

	assert_int_equal(feed_xml(f, PV_BASE, "f.xml", text), 0);
	assert_int_equal(f->t.n, 1);
	get_time(f, "tc", "ok");
	assert_int_equal(diag_count(f, "benchmark 'throws' failed (boom)"), 1);
	assert_int_equal(diag_count(f, "f.xml:6:"), 1);
}

static void no_benchmarks_warns(void **state)
{
	struct fx *f = *state;

	assert_int_equal(feed_xml(f, PV_BASE, "n.xml", V2_HEAD
			      "    <TestCase name=\"tc\"><OverallResult success=\"true\"/></TestCase>\n"
			      V2_TAIL), 0);
	assert_int_equal(f->t.n, 0);
	assert_int_equal(diag_count(f, "no <BenchmarkResults>"), 1);
}

/* --------------------------------------------------------------- errors */

static void missing_fields(void **state)
{
	struct fx *f = *state;
	static const char no_sd[] =
		V2_HEAD
		"    <TestCase name=\"tc\">\n"
		"      <BenchmarkResults name=\"lonely\" samples=\"100\">\n"
		"        <mean value=\"10\" lowerBound=\"9\" upperBound=\"11\"/>\n"
		"      </BenchmarkResults>\n"
		"    </TestCase>\n"
		V2_TAIL;
	static const char no_samples[] =
		V2_HEAD
		"    <TestCase name=\"tc\">\n"
		"      <BenchmarkResults name=\"uncounted\">\n"
		"        <mean value=\"10\"/>\n"
		"        <standardDeviation value=\"1\"/>\n"
		"      </BenchmarkResults>\n"
		"    </TestCase>\n"
		V2_TAIL;
	static const char no_mean_value[] =
		V2_HEAD
		"    <TestCase name=\"tc\">\n"
		"      <BenchmarkResults name=\"meanless\" samples=\"3\">\n"
		"        <mean lowerBound=\"9\"/>\n"
		"        <standardDeviation value=\"1\"/>\n"
		"      </BenchmarkResults>\n"
		"    </TestCase>\n"
		V2_TAIL;
	static const char bad_number[] =
		V2_HEAD
		"    <TestCase name=\"tc\">\n"
		"      <BenchmarkResults name=\"nan\" samples=\"3\">\n"
		"        <mean value=\"nan\"/>\n"
		"        <standardDeviation value=\"1\"/>\n"
		"      </BenchmarkResults>\n"
		"    </TestCase>\n"
		V2_TAIL;
	static const char bad_count[] =
		V2_HEAD
		"    <TestCase name=\"tc\">\n"
		"      <BenchmarkResults name=\"half\" samples=\"2.5\">\n"
		"        <mean value=\"3\"/>\n"
		"        <standardDeviation value=\"1\"/>\n"
		"      </BenchmarkResults>\n"
		"    </TestCase>\n"
		V2_TAIL;

	expect_error_prefix(f, feed_xml(f, PV_BASE, "m.xml", no_sd), "m.xml:5: ");
	expect_in_error(f, "benchmark 'lonely' (test case 'tc')");
	expect_in_error(f, "<standardDeviation value>");
	expect_error_prefix(f, feed_xml(f, PV_BASE, "m.xml", no_samples), "m.xml:5: ");
	expect_in_error(f, "'uncounted'");
	expect_in_error(f, "<BenchmarkResults samples>");
	expect_error_prefix(f, feed_xml(f, PV_BASE, "m.xml", no_mean_value), "m.xml:6: ");
	expect_in_error(f, "'meanless'");
	expect_in_error(f, "<mean value>");
	expect_error_prefix(f, feed_xml(f, PV_BASE, "m.xml", bad_number), "m.xml:6: ");
	expect_in_error(f, "<mean value>=\"nan\" is not a number");
	expect_error_prefix(f, feed_xml(f, PV_BASE, "m.xml", bad_count), "m.xml:5: ");
	expect_in_error(f, "'half': samples=\"2.5\"");
}

static void malformed(void **state)
{
	struct fx *f = *state;

	expect_error_prefix(f, feed_xml(f, PV_BASE, "bad.xml", V2_HEAD
			     "    <TestCase name=\"tc\">\n"
			     "      <BenchmarkResults name=\"x\" samples=\"3\">\n"
			     "    </TestCase>\n"), "bad.xml:6: ");
	expect_in_error(f, "mismatch");
	/* Nothing after the root: cut short. */
	expect_error_prefix(f, feed_xml(f, PV_BASE, "cut.xml", "<?xml version=\"1.0\"?>\n"
			     "<Catch name=\"x\">\n  <Gro"), "cut.xml:3: ");
	expect_error_prefix(f, feed_xml(f, PV_BASE, "empty.xml", ""), "empty.xml:1: ");
	expect_in_error(f, "empty");
	expect_error_prefix(f, feed_xml(f, PV_BASE, "junit.xml", "<?xml version=\"1.0\"?>\n"
			     "<testsuites/>\n"), "junit.xml:2: ");
	expect_in_error(f, "not <testsuites>");
	/* No DTD, so no entity games. */
	expect_error_prefix(f, feed_xml(f, PV_BASE, "dtd.xml", "<?xml version=\"1.0\"?>\n"
			     "<!DOCTYPE Catch [<!ENTITY a \"aaaa\">]>\n"
			     "<Catch name=\"&a;\"/>\n"), "dtd.xml:");
	expect_in_error(f, "DOCTYPE");
	assert_int_equal(f->t.n, 0);
}

static void duplicate_in_one_file(void **state)
{
	struct fx *f = *state;

	expect_error_prefix(f, feed_xml(f, PV_BASE, "d.xml", V2_HEAD
			     "    <TestCase name=\"tc\">\n"
			     BENCH("twice", 5, 1, 0.1)
			     BENCH("twice", 5, 1, 0.1)
			     "    </TestCase>\n" V2_TAIL),
		     "d.xml: metric 'time' of 'twice' is summarised twice");
}

/* A side gets samples and a summary of one metric: an input error
 * naming the file, whichever comes first. */
static void samples_and_summary(void **state)
{
	struct fx *f = *state;
	struct pv_sample s = { "tc", "ok", "time", "ns", PV_DIR_UNSET, 7 };

	assert_int_equal(feed_xml(f, PV_BASE, "s.xml", V2_HEAD
			      "    <TestCase name=\"tc\">\n"
			      BENCH("ok", 10, 5.5, 0.5)
			      "    </TestCase>\n" V2_TAIL), 0);
	f->ctx.path = "other.csv";
	f->ctx.file = f->nfiles[PV_BASE]++;
	expect_error_prefix(f, pv_emit(&f->ctx, &s, &f->err),
		     "other.csv: metric 'time' of 'ok' has both samples and a summary");
	/* The other order, on the candidate side. */
	f->ctx.side = PV_CAND;
	f->ctx.file = f->nfiles[PV_CAND]++;
	assert_int_equal(pv_emit(&f->ctx, &s, &f->err), 0);
	expect_error_prefix(f, feed_xml(f, PV_CAND, "c.xml", V2_HEAD
			     "    <TestCase name=\"tc\">\n"
			     BENCH("ok", 10, 5.5, 0.5)
			     "    </TestCase>\n" V2_TAIL),
		     "c.xml: metric 'time' of 'ok' has both samples and a summary (mean, sd, n) on the candidate side");
}

/* ------------------------------------------------------- summary path */

static const char *one_bench(char *buf, size_t size, int n, double mean,
			     double sd)
{
	snprintf(buf, size, V2_HEAD
		 "    <TestCase name=\"tc\">\n"
		 "      <BenchmarkResults name=\"b\" samples=\"%d\">\n"
		 "        <mean value=\"%.17g\"/>\n"
		 "        <standardDeviation value=\"%.17g\"/>\n"
		 "      </BenchmarkResults>\n"
		 "    </TestCase>\n" V2_TAIL, n, mean, sd);
	return buf;
}

/* Several files on a side: each file's mean is one sample. */
static void repeats_become_samples(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;
	char buf[2048];

	assert_int_equal(feed_xml(f, PV_BASE, "r1.xml",
			      one_bench(buf, sizeof(buf), 30, 100, 5)), 0);
	assert_int_equal(feed_xml(f, PV_BASE, "r2.xml",
			      one_bench(buf, sizeof(buf), 50, 104, 6)), 0);
	assert_int_equal(feed_xml(f, PV_BASE, "r3.xml",
			      one_bench(buf, sizeof(buf), 30, 98, 5)), 0);
	assert_int_equal(feed_xml(f, PV_CAND, "c1.xml",
			      one_bench(buf, sizeof(buf), 30, 120, 5)), 0);
	pv_table_finish(&f->t);
	m = get_time(f, "tc", "b");
	assert_int_equal(m->n[PV_BASE], 3);
	assert_near(m->v[PV_BASE][0], 100, 0);
	assert_near(m->v[PV_BASE][1], 104, 0);
	assert_near(m->v[PV_BASE][2], 98, 0);
	assert_int_equal(m->files[PV_BASE], 3);
	assert_int_equal(m->per_file[PV_BASE], 50);
	assert_int_equal(m->sum[PV_BASE]->only, 0);
	/* The one-file side stays a summary. */
	assert_int_equal(m->sum[PV_CAND]->only, 1);
	assert_int_equal(m->per_file[PV_CAND], 1);
	assert_int_equal(diag_count(f, "only summary statistics"), 4);
}

/* One file per side: the decision is Welch's test from the summaries. */
static void summary_only_decision(void **state)
{
	struct fx *f = *state;
	struct pv_report r;
	struct pv_config cfg;
	struct pv_diag diag = PV_DIAG_INIT;
	struct pv_err err = { 0 };
	struct pv_test_out o;
	struct strbuf sb = STRBUF_INIT;
	const struct pv_result *m;
	double sa = 5 * sqrt(30.0 / 29), sb_ = 6 * sqrt(40.0 / 39);
	char buf[2048];

	assert_int_equal(feed_xml(f, PV_BASE, "b.xml",
			      one_bench(buf, sizeof(buf), 30, 100, 5)), 0);
	assert_int_equal(feed_xml(f, PV_CAND, "c.xml",
			      one_bench(buf, sizeof(buf), 40, 120, 6)), 0);
	pv_table_finish(&f->t);
	pv_config_defaults(&cfg);
	pv_report_init(&r);
	r.settings.gate = cfg.gate;
	assert_int_equal(pv_decide(&f->t, &cfg, "2026-01-01", &r, &diag, &err),
			 0);
	assert_int_equal(r.n, 1);
	m = &r.m[0];
	for (int s = 0; s < 2; s++) {
		struct pv_summary sum;

		assert_int_equal(m->side[s].summary_only, 1);
		assert_int_equal(m->side[s].nsamples, 0);
		pv_side_summary(&m->side[s], &sum);
		assert_true(isnan(sum.median));
		assert_true(isnan(sum.min));
		assert_int_equal(sum.n, m->side[s].s.n);
	}
	assert_int_equal(m->side[0].s.n, 30);
	assert_int_equal(m->side[1].s.n, 40);
	assert_near(m->side[0].s.sd, sa, sa * 1e-15);
	assert_near(pv_cv(&m->side[0].s), sa / 100, 1e-15);
	assert_near(m->change_rel, 0.2, 1e-15);
	assert_int_equal(m->tested, 1);
	assert_int_equal(m->test_used, PV_TEST_WELCH);
	pv_ttest_summary(100, sa, 30, 120, sb_, 40, 0, PV_ALT_TWO, 0.95, &o,
			 &err);
	assert_near(m->statistic, o.statistic, 0);
	assert_near(m->df, o.df, 0);
	assert_int_equal(m->verdict, PV_V_REGRESSION);
	assert_non_null(strstr(pv_result_reason(&r, m, &sb),
			       "raw samples were not available"));
	assert_non_null(strstr(sb.buf, "Welch's test was computed from the summaries (mean, sd, n)"));
	strbuf_release(&sb);
	pv_report_release(&r);
	pv_diag_release(&diag);
	pv_config_release(&cfg);
}

/* Summaries with fewer samples than min_samples are insufficient. */
static void summary_too_few(void **state)
{
	struct fx *f = *state;
	struct pv_report r;
	struct pv_config cfg;
	struct pv_diag diag = PV_DIAG_INIT;
	struct pv_err err = { 0 };
	struct strbuf sb = STRBUF_INIT;
	char buf[2048];

	assert_int_equal(feed_xml(f, PV_BASE, "b.xml",
			      one_bench(buf, sizeof(buf), 2, 100, 5)), 0);
	assert_int_equal(feed_xml(f, PV_CAND, "c.xml",
			      one_bench(buf, sizeof(buf), 40, 120, 6)), 0);
	pv_table_finish(&f->t);
	pv_config_defaults(&cfg);
	pv_report_init(&r);
	r.settings.gate = cfg.gate;
	assert_int_equal(pv_decide(&f->t, &cfg, NULL, &r, &diag, &err), 0);
	assert_int_equal(r.m[0].verdict, PV_V_INSUFFICIENT);
	assert_non_null(strstr(pv_result_reason(&r, &r.m[0], &sb),
			       "2 baseline and 40 candidate samples"));
	assert_non_null(strstr(sb.buf, "raw samples were not available"));
	strbuf_release(&sb);
	pv_report_release(&r);
	pv_diag_release(&diag);
	pv_config_release(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(v2_normal, setup, teardown),
		cmocka_unit_test_setup_teardown(v3_root, setup, teardown),
		cmocka_unit_test(probe),
		cmocka_unit_test_setup_teardown(failed_benchmark_skipped, setup,
						teardown),
		cmocka_unit_test_setup_teardown(no_benchmarks_warns, setup,
						teardown),
		cmocka_unit_test_setup_teardown(missing_fields, setup, teardown),
		cmocka_unit_test_setup_teardown(malformed, setup, teardown),
		cmocka_unit_test_setup_teardown(duplicate_in_one_file, setup,
						teardown),
		cmocka_unit_test_setup_teardown(samples_and_summary, setup,
						teardown),
		cmocka_unit_test_setup_teardown(repeats_become_samples, setup,
						teardown),
		cmocka_unit_test_setup_teardown(summary_only_decision, setup,
						teardown),
		cmocka_unit_test_setup_teardown(summary_too_few, setup,
						teardown),
	};

	gsl_set_error_handler_off();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
