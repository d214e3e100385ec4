/*
 * test_formats.c - the readers of modern benchmark harnesses (gbench,
 * pyperf, hyperfine, gobench, pytest-benchmark, criterion, JMH), fed
 * through a real sample table and read context: keys, values, units,
 * directions, notes, context, warnings, and every error path (JSON
 * position or file:line:col, JSON paths, status PV_EINPUT).
 *
 * Fixture files live in tests/unit/data/formats/ (most of them written by
 * the real harnesses; see samples/FORMATS-SAMPLES.md); they are found
 * through $PV_TEST_FORMATS, or by walking up from the current directory or
 * from the test binary.
 */
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readers/jsonutil.h"

#define DATA_SUBDIR "tests/unit/data/formats"
#include "readers_fixture.h"

static int setup(void **state)
{
	struct fx *f;

	fx_setup(state, "bench", "t");
	f = *state;
	f->cfg.limits.max_file_size = 1 << 24;
	snprintf(f->root, sizeof(f->root), "%s", data_dir);
	f->ctx.root = f->root;
	return 0;
}

/* The metric has exactly these samples on side s, in this order. */
static void expect_samples(const struct pv_metric *m, enum pv_side s,
			   const double *want, size_t n)
{
	assert_int_equal(m->n[s], n);
	for (size_t i = 0; i < n; i++)
		assert_near(m->v[s][i], want[i], fabs(want[i]) * 1e-15);
}

#define EXPECT(m, side, ...) do { \
	const double want_[] = { __VA_ARGS__ }; \
	expect_samples((m), (side), want_, sizeof(want_) / sizeof(want_[0])); \
} while (0)

/* The read failed with an input error whose message is exactly want. */
static void expect_error(struct fx *f, int ret, const char *want)
{
	assert_int_equal(ret, -1);
	assert_int_equal(f->err.status, PV_EINPUT);
	if (strcmp(f->err.msg, want))
		fail_msg("error message\n  got:  %s\n  want: %s", f->err.msg,
			 want);
}

#define expect_warning(f, part) do { \
	if (!diag_count((f), (part))) \
		fail_msg("no warning contains '%s' (%zu warnings)", (part), \
			 (f)->diag.n); \
} while (0)

/* ------------------------------------------------------------- gbench */

static void gbench_normal(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	assert_int_equal(feed_file(f, &pv_reader_gbench, "gbench_normal.json"),
			 0);
	pv_table_finish(&f->t);

	/* 3 metrics each for BM_Sort and BM_StringAppend, 2 for the
	 * threaded one; the aggregates add nothing. */
	assert_int_equal(f->t.n, 8);
	m = get(f, "", "BM_Sort/4096", "real_time");
	assert_string_equal(m->key.suite, "bench");
	assert_string_equal(m->key.test, "t");
	assert_string_equal(m->unit, "ns");
	assert_int_equal(m->dir_hint, PV_DIR_LOWER);
	assert_null(m->note[PV_BASE]);
	EXPECT(m, PV_BASE, 3.2250656188116502e+05, 3.4732011881197372e+05,
	       3.5827751732663182e+05);
	m = get(f, "", "BM_Sort/4096", "cpu_time");
	assert_near(m->v[PV_BASE][0], 1.7033632178217822e+05, 0);
	assert_int_equal(m->n[PV_BASE], 3);
	m = get(f, "", "BM_Sort/4096", "items_per_second");
	assert_string_equal(m->unit, "items/s");
	assert_int_equal(m->dir_hint, PV_DIR_HIGHER);
	EXPECT(m, PV_BASE, 2.4046544842255436e+07, 2.3158774273773402e+07,
	       2.3596091691979326e+07);
	m = get(f, "", "BM_StringAppend", "bytes_built");
	assert_int_equal(m->dir_hint, PV_DIR_UNSET);
	assert_string_equal(m->unit, "");
	EXPECT(m, PV_BASE, 256, 256);
	m = get(f, "", "BM_Accumulate/8192/threads:2", "real_time");
	EXPECT(m, PV_BASE, 7.3245565107727689e+03, 7.9172656273854300e+03);
	assert_null(find(f, "", "BM_Sort/4096_mean", "real_time"));

	assert_string_equal(context(f, "host_name"), "vm");
	assert_string_equal(context(f, "num_cpus"), "2");
	assert_string_equal(context(f, "mhz_per_cpu"), "2300");
	assert_string_equal(context(f, "cpu_scaling_enabled"), "false");
	assert_string_equal(context(f, "executable"), "/tmp/pv/base");
	assert_string_equal(context(f, "caches"),
			    "L1 Data 48 KiB, L1 Instruction 32 KiB, "
			    "L2 Unified 2048 KiB, "
			    "L3 Unified 266240 KiB (shared by 2)");
	assert_null(context(f, "date"));
	assert_null(context(f, "load_avg"));
	/* Debian's libbenchmark says it is a debug build: context only. */
	assert_string_equal(context(f, "library_build_type"), "debug");
	assert_int_equal(f->diag.n, 0);
}

/* --benchmark_report_aggregates_only: each benchmark is one summary
 * per metric, the mean aggregate's value with the stddev aggregate's,
 * n = repetitions (the fixture's values, as gbench wrote them). */
static void expect_summary(const struct pv_metric *m, double mean, double sd,
			   uint32_t n)
{
	assert_int_equal(m->seen[PV_BASE], 1);
	assert_non_null(m->sum[PV_BASE]);
	assert_int_equal(m->sum[PV_BASE]->only, 1);
	assert_null(m->note[PV_BASE]);
	assert_int_equal(m->sum[PV_BASE]->n, n);
	assert_true(m->sum[PV_BASE]->mean == mean);
	assert_true(m->sum[PV_BASE]->sd == sd);
}

static void gbench_aggregates_only(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	assert_int_equal(feed_file(f, &pv_reader_gbench,
				   "gbench_aggregates_only.json"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 6);
	m = get(f, "", "BM_Memcpy/65536", "real_time");
	assert_string_equal(m->unit, "ns");
	expect_summary(m, 3659.6976770257247, 258.8818960170454, 3);
	expect_summary(get(f, "", "BM_Memcpy/65536", "cpu_time"),
		       1693.8655968278906, 6.176272701401388, 3);
	m = get(f, "", "BM_Memcpy/65536", "bytes_per_second");
	assert_int_equal(m->dir_hint, PV_DIR_HIGHER);
	assert_string_equal(m->unit, "B/s");
	expect_summary(m, 38690544392.65548, 141364225.84001562, 3);
	expect_summary(get(f, "", "BM_Sort/4096", "real_time"),
		       339052.4056222862, 50071.11645785705, 3);
	expect_summary(get(f, "", "BM_Sort/4096", "cpu_time"),
		       173009.86345381523, 1415.4227608260853, 3);
	expect_summary(get(f, "", "BM_Sort/4096", "items_per_second"),
		       23676004.771121033, 193250.52386102994, 3);
	assert_null(find(f, "", "BM_Sort/4096_mean", "real_time"));
	expect_warning(f, "only aggregates were saved for 2 benchmarks "
		       "(--benchmark_report_aggregates_only); compared from "
		       "the summaries (mean, stddev, repetitions) by Welch's "
		       "test");
}

/* Without a stddev aggregate (or a repetition count) there is no
 * summary to test: a note, and the verdict is insufficient. */
static void gbench_aggregates_without_stddev(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	assert_int_equal(feed(f, &pv_reader_gbench, "x.json",
		"{\"benchmarks\": ["
		"{\"name\": \"B_mean\", \"run_name\": \"B\", \"run_type\": "
		"\"aggregate\", \"aggregate_name\": \"mean\", "
		"\"repetitions\": 4, \"real_time\": 9, \"cpu_time\": 9, "
		"\"time_unit\": \"ms\"},"
		"{\"name\": \"C_mean\", \"run_name\": \"C\", \"run_type\": "
		"\"aggregate\", \"aggregate_name\": \"mean\", "
		"\"real_time\": 9, \"cpu_time\": 9},"
		"{\"name\": \"C_stddev\", \"run_name\": \"C\", \"run_type\": "
		"\"aggregate\", \"aggregate_name\": \"stddev\", "
		"\"real_time\": 1, \"cpu_time\": 1}]}"), 0);
	pv_table_finish(&f->t);
	m = get(f, "", "B", "real_time");
	assert_null(m->sum[PV_BASE]);
	assert_string_equal(m->note[PV_BASE], "only aggregates "
			    "(mean/median/stddev) were saved; rerun without "
			    "--benchmark_report_aggregates_only for "
			    "per-repetition samples");
	assert_null(get(f, "", "C", "cpu_time")->sum[PV_BASE]);
	expect_warning(f, "only aggregates were saved for 2 benchmarks "
		       "(--benchmark_report_aggregates_only), without a stddev "
		       "aggregate or a repetition count; no test is possible "
		       "for them");
}

/* Aggregates are ignored next to repetitions, even for one benchmark
 * whose repetitions are missing while another's are there. */
static void gbench_mixed_aggregates(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	assert_int_equal(feed(f, &pv_reader_gbench, "x.json",
		"{\"benchmarks\": ["
		"{\"name\": \"A\", \"run_name\": \"A\", \"run_type\": "
		"\"iteration\", \"real_time\": 5, \"cpu_time\": 4, "
		"\"time_unit\": \"us\"},"
		"{\"name\": \"A_mean\", \"run_name\": \"A\", \"run_type\": "
		"\"aggregate\", \"aggregate_name\": \"mean\", \"real_time\": 9, "
		"\"cpu_time\": 9, \"time_unit\": \"us\"},"
		"{\"name\": \"B_mean\", \"run_name\": \"B\", \"run_type\": "
		"\"aggregate\", \"aggregate_name\": \"mean\", \"real_time\": 9, "
		"\"cpu_time\": 9, \"time_unit\": \"ms\"}]}"), 0);
	pv_table_finish(&f->t);
	m = get(f, "", "A", "real_time");
	EXPECT(m, PV_BASE, 5);
	assert_string_equal(m->unit, "us");
	assert_null(m->note[PV_BASE]);
	m = get(f, "", "B", "cpu_time");
	assert_int_equal(m->n[PV_BASE], 0);
	assert_string_equal(m->unit, "ms");
	assert_non_null(m->note[PV_BASE]);
	expect_warning(f, "only aggregates were saved for 1 benchmark "
		       "(--benchmark_report_aggregates_only), without a stddev "
		       "aggregate or a repetition count; no test is possible "
		       "for it");
}

/* Errors, skips, complexity entries and unknown members. */
static void gbench_skips(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	assert_int_equal(feed(f, &pv_reader_gbench, "x.json",
		"{\"context\": {\"num_cpus\": 8, \"new_thing\": {\"a\": 1},"
		" \"cpu_scaling_enabled\": true,"
		" \"json_schema_version\": 1, \"mhz_per_cpu\": 2.5e3},"
		"\"benchmarks\": ["
		"{\"name\": \"BM_a\", \"run_name\": \"BM_a\", "
		"\"run_type\": \"iteration\", \"threads\": 1, "
		"\"iterations\": 10, \"real_time\": 1.5, \"cpu_time\": 1.25,"
		" \"time_unit\": \"ns\", \"label\": \"x\", \"flag\": true, "
		"\"nested\": {\"real_time\": 7}, \"tags\": [1, 2], "
		"\"hits\": 3, \"future_field\": \"text\"},"
		"{\"name\": \"BM_err\", \"run_name\": \"BM_err\", "
		"\"run_type\": \"iteration\", \"error_occurred\": true, "
		"\"error_message\": \"out of memory\", \"iterations\": 0, "
		"\"real_time\": 0, \"cpu_time\": 0, \"time_unit\": \"ns\"},"
		"{\"name\": \"BM_err\", \"run_name\": \"BM_err\", "
		"\"run_type\": \"iteration\", \"error_occurred\": true, "
		"\"error_message\": \"out of memory\", \"iterations\": 0, "
		"\"real_time\": 0, \"cpu_time\": 0, \"time_unit\": \"ns\"},"
		"{\"name\": \"BM_skip\", \"run_type\": \"iteration\", "
		"\"skipped\": true, \"skip_message\": \"no GPU\", "
		"\"real_time\": 0, \"cpu_time\": 0},"
		"{\"name\": \"BM_c_BigO\", \"run_name\": \"BM_c\", "
		"\"run_type\": \"aggregate\", \"aggregate_name\": \"BigO\", "
		"\"cpu_coefficient\": 2.0, \"real_coefficient\": 2.1, "
		"\"big_o\": \"N\", \"time_unit\": \"ns\"},"
		"{\"name\": \"BM_c_RMS\", \"run_name\": \"BM_c\", "
		"\"run_type\": \"aggregate\", \"aggregate_name\": \"RMS\", "
		"\"rms\": 0.01},"
		"{\"name\": \"BM_a\", \"run_name\": \"BM_a\", "
		"\"run_type\": \"iteration\", \"threads\": 1, "
		"\"iterations\": 10, \"real_time\": 1.75, \"cpu_time\": 1.5,"
		" \"time_unit\": \"ns\", \"hits\": 4, \"max_bytes_used\": 64}"
		"], \"unknown_top\": [1, {\"x\": null}]}"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 4);
	EXPECT(get(f, "", "BM_a", "real_time"), PV_BASE, 1.5, 1.75);
	m = get(f, "", "BM_a", "max_bytes_used");
	EXPECT(m, PV_BASE, 64);
	assert_int_equal(m->dir_hint, PV_DIR_LOWER);
	assert_string_equal(m->unit, "B");
	EXPECT(get(f, "", "BM_a", "cpu_time"), PV_BASE, 1.25, 1.5);
	m = get(f, "", "BM_a", "hits");
	EXPECT(m, PV_BASE, 3, 4);
	assert_int_equal(m->dir_hint, PV_DIR_UNSET);
	assert_null(find(f, "", "BM_err", "real_time"));
	assert_null(find(f, "", "BM_c", "real_time"));
	assert_string_equal(context(f, "num_cpus"), "8");
	assert_string_equal(context(f, "mhz_per_cpu"), "2500");
	assert_null(context(f, "new_thing"));
	/* One warning per failed benchmark, not per repetition. */
	assert_int_equal(f->diag.n, 3);
	expect_warning(f, "x.json: CPU frequency scaling was enabled while "
		       "benchmarking; real time will be noisy");
	expect_warning(f, "x.json: 'BM_err' failed: out of memory; no "
		       "samples from it");
	expect_warning(f, "x.json: 'BM_skip' was skipped: no GPU; no samples "
		       "from it");
}

/* Versions before run_type: aggregates are "<name>_mean"; threads may
 * be missing from the name. */
static void gbench_old_format(void **state)
{
	struct fx *f = *state;

	assert_int_equal(feed(f, &pv_reader_gbench, "old.json",
		"{\"context\": {\"date\": \"2017-01-01\", \"num_cpus\": 4},\n"
		"\"benchmarks\": [\n"
		"{\"name\": \"BM_x\", \"threads\": 4, \"iterations\": 3, "
		"\"real_time\": 10, \"cpu_time\": 20, \"time_unit\": \"ms\"},\n"
		"{\"name\": \"BM_x\", \"threads\": 4, \"iterations\": 3, "
		"\"real_time\": 12, \"cpu_time\": 22, \"time_unit\": \"ms\"},\n"
		"{\"name\": \"BM_x_mean\", \"threads\": 4, \"iterations\": 3, "
		"\"real_time\": 11, \"cpu_time\": 21, \"time_unit\": \"ms\"},\n"
		"{\"name\": \"BM_x_stddev\", \"threads\": 4, \"iterations\": 3,"
		" \"real_time\": 1, \"cpu_time\": 1, \"time_unit\": \"ms\"},\n"
		"{\"name\": \"BM_y/threads:2\", \"threads\": 2, "
		"\"real_time\": 1, \"cpu_time\": 2}\n"
		"]}\n"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 4);
	EXPECT(get(f, "", "BM_x/threads:4", "real_time"), PV_BASE, 10, 12);
	EXPECT(get(f, "", "BM_x/threads:4", "cpu_time"), PV_BASE, 20, 22);
	assert_string_equal(get(f, "", "BM_x/threads:4", "cpu_time")->unit,
			    "ms");
	/* no time_unit: nanoseconds */
	assert_string_equal(get(f, "", "BM_y/threads:2", "cpu_time")->unit,
			    "ns");
	assert_null(find(f, "", "BM_x_mean/threads:4", "real_time"));
	assert_null(context(f, "date"));
	assert_int_equal(f->diag.n, 0);
}

/* Bare NaN and Infinity: the file is read, those samples are left out
 * and each is named; the same words inside strings are untouched. */
static void gbench_nonfinite(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	assert_int_equal(feed(f, &pv_reader_gbench, "nf.json",
		"{\n"
		"  \"context\": {\"num_cpus\": 2, \"host_name\": \"NaN\"},\n"
		"  \"benchmarks\": [\n"
		"    {\n"
		"      \"name\": \"BM_NaN/Infinity\",\n"
		"      \"run_name\": \"BM_NaN/Infinity\",\n"
		"      \"run_type\": \"iteration\",\n"
		"      \"real_time\": NaN,\n"
		"      \"cpu_time\": Infinity,\n"
		"      \"time_unit\": \"ns\",\n"
		"      \"ratio\": -Infinity\n"
		"    },\n"
		"    {\n"
		"      \"name\": \"BM_NaN/Infinity\",\n"
		"      \"run_name\": \"BM_NaN/Infinity\",\n"
		"      \"run_type\": \"iteration\",\n"
		"      \"real_time\": 2.0000000000000000e+00,\n"
		"      \"cpu_time\": 1.0000000000000000e+00,\n"
		"      \"time_unit\": \"ns\",\n"
		"      \"ratio\": 5.0000000000000000e-01\n"
		"    },\n"
		"    {\"name\": \"BM_z\", \"run_type\": \"iteration\", "
		"\"real_time\": -NaN, \"cpu_time\": null, \"time_unit\": \"ns\"}\n"
		"  ]\n"
		"}\n"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 3);
	EXPECT(get(f, "", "BM_NaN/Infinity", "real_time"), PV_BASE, 2.0);
	EXPECT(get(f, "", "BM_NaN/Infinity", "cpu_time"), PV_BASE, 1.0);
	m = get(f, "", "BM_NaN/Infinity", "ratio");
	EXPECT(m, PV_BASE, 0.5);
	assert_null(find(f, "", "BM_z", "real_time"));
	assert_string_equal(context(f, "host_name"), "NaN");
	assert_int_equal(f->diag.n, 5);
	expect_warning(f, "nf.json: benchmarks[0].real_time of "
		       "'BM_NaN/Infinity' is NaN; sample skipped");
	expect_warning(f, "benchmarks[0].cpu_time of 'BM_NaN/Infinity' is "
		       "Infinity; sample skipped");
	expect_warning(f, "benchmarks[0].ratio of 'BM_NaN/Infinity' is "
		       "-Infinity; sample skipped");
	expect_warning(f, "benchmarks[2].real_time of 'BM_z' is -NaN");
	expect_warning(f, "benchmarks[2].cpu_time of 'BM_z' is null");
}

static void gbench_malformed(void **state)
{
	struct fx *f = *state;

	expect_error(f, feed(f, &pv_reader_gbench, "m.json",
		"{\n  \"benchmarks\": [\n    {\"name\": \"a\",, }\n  ]\n}\n"),
		"m.json:3:18: string or '}' expected near ','");
	/* A NaN before the error on the same line moves the column by 2
	 * (documented); the line stays right. */
	expect_error_prefix(f, feed(f, &pv_reader_gbench, "m.json",
		"{\"benchmarks\": [\n{\"real_time\": NaN x}]}"), "m.json:2:");
	expect_error(f, feed(f, &pv_reader_gbench, "e.json", ""),
		     "e.json:1:0: the file is empty; expected a JSON object or "
		     "array");
	expect_error(f, feed(f, &pv_reader_gbench, "e.json", "\n  \n"),
		     "e.json:3:0: the file is empty; expected a JSON object or "
		     "array");
	expect_error(f, feed(f, &pv_reader_gbench, "t.json",
		"{\"context\": {}, \"benchmarks\": [{\"name\": \"a\", "
		"\"real_time\": 1e999}]}"),
		"t.json:1:63: real number overflow near '1e999'");
	expect_error(f, feed(f, &pv_reader_gbench, "t.json",
		"{\"benchmarks\": []} trailing"),
		"t.json:1:27: end of file expected near 'trailing'");
}

static void gbench_shape(void **state)
{
	struct fx *f = *state;

	expect_error(f, feed(f, &pv_reader_gbench, "s.json", "[1, 2]"),
		     "s.json: $: expected an object, found an array");
	expect_error(f, feed(f, &pv_reader_gbench, "s.json",
			     "{\"benchmarks\": {\"a\": 1}}"),
		     "s.json: benchmarks: expected an array, found an object");
	expect_error(f, feed(f, &pv_reader_gbench, "s.json",
			     "{\"context\": {}}"),
		     "s.json: benchmarks: expected an array, found nothing "
		     "(the member is missing)");
	expect_error(f, feed(f, &pv_reader_gbench, "s.json",
			     "{\"context\": [], \"benchmarks\": []}"),
		     "s.json: context: expected an object, found an array");
	expect_error(f, feed(f, &pv_reader_gbench, "s.json",
			     "{\"benchmarks\": [{\"name\": \"a\", "
			     "\"real_time\": 1, \"cpu_time\": 1}, 7]}"),
		     "s.json: benchmarks[1]: expected an object, found a "
		     "number");
	expect_error(f, feed(f, &pv_reader_gbench, "s.json",
			     "{\"benchmarks\": [{\"name\": 5}]}"),
		     "s.json: benchmarks[0].name: expected a string, found a "
		     "number");
	expect_error(f, feed(f, &pv_reader_gbench, "s.json",
		"{\"benchmarks\": [{\"name\": \"a\"}, {\"name\": \"b\", "
		"\"run_type\": \"iteration\", \"real_time\": 1, "
		"\"cpu_time\": 1}, {\"name\": \"a\", \"run_type\": "
		"\"iteration\", \"real_time\": \"12\", \"cpu_time\": 1}]}"),
		"s.json: benchmarks[0].real_time: expected a number, found "
		"nothing (the member is missing)");
	expect_error(f, feed(f, &pv_reader_gbench, "s.json",
		"{\"benchmarks\": [{\"name\": \"b\", "
		"\"run_type\": \"iteration\", \"real_time\": 1, "
		"\"cpu_time\": 1}, {\"name\": \"a\", \"run_type\": "
		"\"iteration\", \"real_time\": \"12\", \"cpu_time\": 1}]}"),
		"s.json: benchmarks[1].real_time: expected a number, found a "
		"string '12'");
	expect_error(f, feed(f, &pv_reader_gbench, "s.json",
		"{\"benchmarks\": [{\"name\": \"b\", \"run_type\": 3}]}"),
		"s.json: benchmarks[0].run_type: expected a string, found a "
		"number");
	expect_error(f, feed(f, &pv_reader_gbench, "s.json",
		"{\"benchmarks\": [{\"name\": \"b\", \"time_unit\": [], "
		"\"real_time\": 1, \"cpu_time\": 1}]}"),
		"s.json: benchmarks[0].time_unit: expected a string, found an "
		"array");
	expect_error(f, feed(f, &pv_reader_gbench, "s.json",
		"{\"benchmarks\": [{\"name\": \"b\", \"real_time\": true, "
		"\"cpu_time\": 1}]}"),
		"s.json: benchmarks[0].real_time: expected a number, found a "
		"boolean");
}

static void gbench_empty_list(void **state)
{
	struct fx *f = *state;

	assert_int_equal(feed(f, &pv_reader_gbench, "e.json",
			      "{\"context\": {}, \"benchmarks\": []}"), 0);
	assert_int_equal(f->t.n, 0);
	expect_warning(f, "e.json: no benchmarks in the file");
}

/* ------------------------------------------------------------- pyperf */

static void pyperf_timeit(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	assert_int_equal(feed_file(f, &pv_reader_pyperf, "pyperf_timeit.json"),
			 0);
	pv_table_finish(&f->t);
	/* The first run only calibrated: it has warmups and no values. */
	assert_int_equal(f->t.n, 1);
	m = get(f, "", "timeit", "time");
	assert_string_equal(m->unit, "s");
	assert_int_equal(m->dir_hint, PV_DIR_LOWER);
	EXPECT(m, PV_BASE, 1.21e-05, 1.19e-05, 1.2e-05, 1.22e-05, 1.18e-05,
	       1.23e-05);
	assert_string_equal(context(f, "hostname"), "vm");
	assert_string_equal(context(f, "cpu_count"), "2");
	assert_string_equal(context(f, "cpu_model_name"),
			    "Intel(R) Xeon(R) Processor");
	assert_string_equal(context(f, "perf_version"), "2.6.1");
	assert_string_equal(context(f, "python_version"),
			    "3.11.2 (64-bit) revision 0");
	assert_null(context(f, "boot_time"));
	assert_null(context(f, "date"));
	assert_null(context(f, "loops"));
	assert_int_equal(f->diag.n, 0);
}

static void pyperf_suite(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	assert_int_equal(feed_file(f, &pv_reader_pyperf, "pyperf_suite.json"),
			 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 2);
	m = get(f, "", "json_dumps", "time");
	EXPECT(m, PV_BASE, 0.0101, 0.0102, 0.0103, 0.0099);
	/* unit "byte" from the benchmark's metadata overrides the suite's */
	m = get(f, "", "json_dumps_mem", "memory");
	assert_string_equal(m->unit, "B");
	assert_int_equal(m->dir_hint, PV_DIR_LOWER);
	EXPECT(m, PV_BASE, 1048576, 1052672);
}

static void pyperf_names_units(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	assert_int_equal(feed(f, &pv_reader_pyperf, "p.json",
		"{\"benchmarks\": ["
		"{\"runs\": [{\"values\": [1.0, 2.0], \"extra\": {\"z\": 1}}]},"
		"{\"metadata\": {\"name\": \"count\", \"unit\": \"integer\"}, "
		"\"runs\": [{\"values\": [3, 4]}, "
		"{\"metadata\": {\"name\": \"renamed\"}, \"values\": [5]}]}"
		"], \"version\": \"1.0\", \"future\": null}"), 0);
	pv_table_finish(&f->t);
	m = get(f, "", "benchmarks[0]", "time");
	EXPECT(m, PV_BASE, 1.0, 2.0);
	m = get(f, "", "count", "value");
	assert_string_equal(m->unit, "integer");
	assert_int_equal(m->dir_hint, PV_DIR_UNSET);
	EXPECT(m, PV_BASE, 3, 4);
	/* run metadata is the innermost level */
	EXPECT(get(f, "", "renamed", "value"), PV_BASE, 5);
	expect_warning(f, "p.json: benchmarks[0] has no name in its "
		       "metadata; calling it 'benchmarks[0]'");
	assert_int_equal(f->diag.n, 1);
}

static void pyperf_nonfinite(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	/* Python's json writes bare NaN and Infinity. */
	assert_int_equal(feed(f, &pv_reader_pyperf, "n.json",
		"{\"benchmarks\": [{\"runs\": [{\"values\": [NaN, 1.5]}, "
		"{\"values\": [Infinity]}]}, "
		"{\"metadata\": {\"name\": \"bad\"}, \"runs\": [{\"values\": "
		"[NaN, -Infinity]}]}], "
		"\"metadata\": {\"name\": \"ok\"}, \"version\": \"1.0\"}"), 0);
	pv_table_finish(&f->t);
	EXPECT(get(f, "", "ok", "time"), PV_BASE, 1.5);
	assert_null(get(f, "", "ok", "time")->note[PV_BASE]);
	m = get(f, "", "bad", "time");
	assert_int_equal(m->n[PV_BASE], 0);
	assert_string_equal(m->note[PV_BASE], "every value was NaN, infinite "
			    "or null, so there is nothing to compare");
	expect_warning(f, "n.json: ok: skipped 2 non-finite or null values "
		       "(first: benchmarks[0].runs[0].values[0] = NaN)");
	expect_warning(f, "n.json: bad: skipped 2 non-finite or null values "
		       "(first: benchmarks[1].runs[0].values[0] = NaN)");
}

static void pyperf_errors(void **state)
{
	struct fx *f = *state;

	expect_error(f, feed(f, &pv_reader_pyperf, "p.json",
		"{\"benchmarks\":[{\"runs\":[{\"values\":[1.0,]}]}]}"),
		"p.json:1:40: unexpected token near ']'");
	expect_error(f, feed(f, &pv_reader_pyperf, "p.json", ""),
		     "p.json:1:0: the file is empty; expected a JSON object or "
		     "array");
	expect_error(f, feed(f, &pv_reader_pyperf, "p.json",
		"{\"benchmarks\": [{\"runs\": [{\"values\": [1]}, "
		"{\"values\": \"x\"}]}]}"),
		"p.json: benchmarks[0].runs[1].values: expected an array, "
		"found a string 'x'");
	expect_error(f, feed(f, &pv_reader_pyperf, "p.json",
		"{\"benchmarks\": [{\"runs\": [{\"values\": [1, \"2\"]}]}]}"),
		"p.json: benchmarks[0].runs[0].values[1]: expected a number, "
		"found a string '2'");
	expect_error(f, feed(f, &pv_reader_pyperf, "p.json",
		"{\"benchmarks\": [{\"metadata\": [], \"runs\": []}]}"),
		"p.json: benchmarks[0].metadata: expected an object, found an "
		"array");
	expect_error(f, feed(f, &pv_reader_pyperf, "p.json",
		"{\"benchmarks\": [], \"metadata\": 3}"),
		"p.json: metadata: expected an object, found a number");
	expect_error(f, feed(f, &pv_reader_pyperf, "p.json",
		"{\"benchmarks\": [{\"runs\": {}}]}"),
		"p.json: benchmarks[0].runs: expected an array, found an "
		"object");
	expect_error(f, feed(f, &pv_reader_pyperf, "p.json",
		"{\"benchmarks\": [{\"runs\": [[]]}]}"),
		"p.json: benchmarks[0].runs[0]: expected an object, found an "
		"array");
	expect_error(f, feed(f, &pv_reader_pyperf, "p.json",
		"{\"version\": \"1.0\"}"),
		"p.json: benchmarks: expected an array, found nothing (the "
		"member is missing)");
	assert_int_equal(feed(f, &pv_reader_pyperf, "w.json",
		"{\"benchmarks\": [{\"runs\": [{\"warmups\": [[1, 0.5]]}]}], "
		"\"metadata\": {\"name\": \"cal\"}}"), 0);
	assert_null(find(f, "", "cal", "time"));
}

/* ---------------------------------------------------------- hyperfine */

static void hyperfine_params(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	assert_int_equal(feed_file(f, &pv_reader_hyperfine,
				   "hyperfine_params.json"), 0);
	pv_table_finish(&f->t);
	/* "true" ran once per parameter value: two benchmarks */
	assert_int_equal(f->t.n, 4);
	m = get(f, "", "sleep 0.01 (n=1)", "time");
	assert_string_equal(m->unit, "s");
	assert_int_equal(m->dir_hint, PV_DIR_LOWER);
	EXPECT(m, PV_BASE, 0.012859107000000002, 0.011443343,
	       0.012349744000000001, 0.011363553, 0.012172284);
	m = get(f, "", "true (n=2)", "time");
	EXPECT(m, PV_BASE, 0.0010178750000000001, 0.000896183, 0.00085793,
	       0.0008637790000000001, 0.0008579620000000001);
	assert_int_equal(get(f, "", "true (n=1)", "time")->n[PV_BASE], 5);
	assert_int_equal(get(f, "", "sleep 0.02 (n=2)", "time")->n[PV_BASE],
			 5);
	assert_null(find(f, "", "true", "time"));
	assert_string_equal(context(f, "param.n"), "1; 2");
	assert_int_equal(f->diag.n, 0);
}

static void hyperfine_memory_exit(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	assert_int_equal(feed(f, &pv_reader_hyperfine, "h.json",
		"{\"results\": [{\"command\": \"./app --fast\", \"mean\": 1.5, "
		"\"stddev\": null, \"median\": 1.5, \"user\": 1.0, "
		"\"system\": 0.1, \"min\": 1.0, \"max\": 2.0, "
		"\"times\": [1.0, 2.0], \"memory_usage_byte\": [4096, 8192], "
		"\"exit_codes\": [0, 1], \"new_field\": {\"a\": [1]}},"
		"{\"command\": \"./app --slow\", \"times\": [3], "
		"\"exit_codes\": [null], \"parameters\": {}}],"
		"\"hyperfine_version\": \"9.9\"}"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 3);
	EXPECT(get(f, "", "./app --fast", "time"), PV_BASE, 1.0, 2.0);
	m = get(f, "", "./app --fast", "memory");
	assert_string_equal(m->unit, "B");
	assert_int_equal(m->dir_hint, PV_DIR_LOWER);
	EXPECT(m, PV_BASE, 4096, 8192);
	EXPECT(get(f, "", "./app --slow", "time"), PV_BASE, 3);
	assert_null(find(f, "", "./app --slow", "memory"));
	expect_warning(f, "h.json: './app --fast': 1 of 2 runs exited "
		       "non-zero or were killed; their times are still "
		       "samples");
	expect_warning(f, "'./app --slow': 1 of 1 runs exited non-zero");
}

static void hyperfine_nonfinite_empty(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	assert_int_equal(feed(f, &pv_reader_hyperfine, "h.json",
		"{\"results\": [{\"command\": \"a\", \"times\": [null, 0.5]},"
		"{\"command\": \"b\", \"times\": [null]},"
		"{\"command\": \"c\", \"times\": []}]}"), 0);
	pv_table_finish(&f->t);
	EXPECT(get(f, "", "a", "time"), PV_BASE, 0.5);
	m = get(f, "", "b", "time");
	assert_int_equal(m->n[PV_BASE], 0);
	assert_non_null(m->note[PV_BASE]);
	m = get(f, "", "c", "time");
	assert_int_equal(m->n[PV_BASE], 0);
	assert_string_equal(m->note[PV_BASE], "hyperfine recorded no runs");
	expect_warning(f, "h.json: results[0].times: skipped 1 non-finite or "
		       "null value (first: results[0].times[0] = null)");

	assert_int_equal(feed(f, &pv_reader_hyperfine, "e.json",
			      "{\"results\": []}"), 0);
	expect_warning(f, "e.json: no results in the file");
}

static void hyperfine_errors(void **state)
{
	struct fx *f = *state;

	expect_error(f, feed(f, &pv_reader_hyperfine, "h.json",
		"{\n  \"results\": [\n    {\"command\": \"a\" \"times\": []}"
		"\n  ]\n}"),
		"h.json:3:27: '}' expected near '\"times\"'");
	expect_error(f, feed(f, &pv_reader_hyperfine, "h.json", " "),
		     "h.json:1:1: the file is empty; expected a JSON object or "
		     "array");
	expect_error(f, feed(f, &pv_reader_hyperfine, "h.json",
			     "{\"results\": {}}"),
		     "h.json: results: expected an array, found an object");
	expect_error(f, feed(f, &pv_reader_hyperfine, "h.json",
			     "{\"results\": [{\"times\": [1]}]}"),
		     "h.json: results[0].command: expected a string, found "
		     "nothing (the member is missing)");
	expect_error(f, feed(f, &pv_reader_hyperfine, "h.json",
			     "{\"results\": [{\"command\": \"a\"}]}"),
		     "h.json: results[0].times: expected an array, found "
		     "nothing (the member is missing)");
	expect_error(f, feed(f, &pv_reader_hyperfine, "h.json",
		"{\"results\": [{\"command\": \"a\", \"times\": [1, \"2s\"]}]}"),
		"h.json: results[0].times[1]: expected a number, found a "
		"string '2s'");
	expect_error(f, feed(f, &pv_reader_hyperfine, "h.json",
		"{\"results\": [{\"command\": \"a\", \"times\": [1], "
		"\"memory_usage_byte\": 5}]}"),
		"h.json: results[0].memory_usage_byte: expected an array, "
		"found a number");
	expect_error(f, feed(f, &pv_reader_hyperfine, "h.json",
		"{\"results\": [{\"command\": \"a\", \"times\": [1], "
		"\"parameters\": {\"k\": [1]}}]}"),
		"h.json: results[0].parameters.k: expected a string or a "
		"number, found an array");
	expect_error(f, feed(f, &pv_reader_hyperfine, "h.json",
		"{\"results\": [{\"command\": \"a\", \"times\": [1], "
		"\"parameters\": [\"k\"]}]}"),
		"h.json: results[0].parameters: expected an object, found an "
		"array");
}

/* ------------------------------------------------------------ gobench */

static void gobench_normal(void **state)
{
	struct fx *f = *state;
	const char *pkg = "example.com/pvsample", *sub = "example.com/pvsample/sub";
	const struct pv_metric *m;

	assert_int_equal(feed_file(f, &pv_reader_gobench,
				   "gobench_normal.txt"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 20);
	m = get(f, pkg, "BenchmarkSort-2", "ns/op");
	assert_string_equal(m->unit, "ns/op");
	assert_int_equal(m->dir_hint, PV_DIR_LOWER);
	EXPECT(m, PV_BASE, 1110478, 763039, 938628);
	m = get(f, pkg, "BenchmarkSort-2", "B/op");
	assert_int_equal(m->dir_hint, PV_DIR_LOWER);
	EXPECT(m, PV_BASE, 24, 24, 24);
	assert_int_equal(get(f, pkg, "BenchmarkSort-2", "allocs/op")->dir_hint,
			 PV_DIR_LOWER);
	m = get(f, pkg, "BenchmarkSHA256-2", "MB/s");
	assert_int_equal(m->dir_hint, PV_DIR_HIGHER);
	EXPECT(m, PV_BASE, 239.38, 225.81, 180.13);
	EXPECT(get(f, pkg, "BenchmarkBuilder/size=256-2", "ns/op"), PV_BASE,
	       858.5, 1401, 890.9);
	m = get(f, pkg, "BenchmarkMapInsert-2", "keys/op");
	assert_int_equal(m->dir_hint, PV_DIR_UNSET);
	EXPECT(m, PV_BASE, 64, 64, 64);
	/* the second package: same benchmark name, another group */
	EXPECT(get(f, sub, "BenchmarkSort-2", "ns/op"), PV_BASE, 2000000);
	EXPECT(get(f, sub, "BenchmarkWithLog-2", "ns/op"), PV_BASE, 1500);
	m = get(f, sub, "BenchmarkWithLog-2", "widgets/s");
	assert_int_equal(m->dir_hint, PV_DIR_HIGHER);
	EXPECT(m, PV_BASE, 3);
	assert_null(find(f, sub, "BenchmarkBroken", "ns/op"));

	assert_string_equal(context(f, "goos"), "linux");
	assert_string_equal(context(f, "goarch"), "amd64");
	assert_string_equal(context(f, "cpu"), "Intel(R) Xeon(R) Processor");
	assert_string_equal(context(f, "pkg"), "example.com/pvsample; "
			    "example.com/pvsample/sub");
	assert_int_equal(f->diag.n, 1);
	expect_warning(f, "gobench_normal.txt:28: --- FAIL: BenchmarkBroken");
}

static void gobench_unit_lines(void **state)
{
	struct fx *f = *state;

	assert_int_equal(feed(f, &pv_reader_gobench, "u.txt",
		"BenchmarkA-4   10   5 frobs   7 ns/op   9 zaps\r\n"
		"BenchmarkA-4   10   6 frobs   8 ns/op   9 zaps\r\n"
		"Unit frobs better=higher assume=nothing\r\n"
		"Unit ns/op better=lower\r\n"
		"Unit zaps better=sideways\r\n"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(get(f, "", "BenchmarkA-4", "frobs")->dir_hint,
			 PV_DIR_HIGHER);
	EXPECT(get(f, "", "BenchmarkA-4", "frobs"), PV_BASE, 5, 6);
	assert_int_equal(get(f, "", "BenchmarkA-4", "ns/op")->dir_hint,
			 PV_DIR_LOWER);
	assert_int_equal(get(f, "", "BenchmarkA-4", "zaps")->dir_hint,
			 PV_DIR_UNSET);
	expect_warning(f, "u.txt:5: unknown direction 'better=sideways' for "
		       "unit 'zaps'");
}

static void gobench_errors(void **state)
{
	struct fx *f = *state;

	expect_error(f, feed(f, &pv_reader_gobench, "g.txt",
		"goos: linux\n\nBenchmarkX-8   100   12x3 ns/op\n"),
		"g.txt:3:22: cannot parse '12x3' as a number (ns/op for "
		"BenchmarkX-8): not a decimal number");
	expect_error(f, feed(f, &pv_reader_gobench, "g.txt",
		"BenchmarkX-8 \t 100 \t 12 ns/op \t 5\n"),
		"g.txt:1:33: value '5' has no unit; expected <value> <unit> "
		"pairs");
	f->cfg.limits.max_line = 16;
	expect_error(f, feed(f, &pv_reader_gobench, "g.txt",
		"pkg: a\nBenchmarkX-8   100   12 ns/op\n"),
		"g.txt:2: line longer than 16 bytes (limits.max_line)");
}

static void gobench_nonfinite_and_noise(void **state)
{
	struct fx *f = *state;

	assert_int_equal(feed(f, &pv_reader_gobench, "n.txt",
		"BenchmarkX-8   100   NaN ns/op   3 B/op   +Inf x/op\n"
		"Benchmark\n"
		"BenchmarkY-8 took too long\n"
		"Benchmarks are fun: 3 ns/op\n"
		"Benchmarkfoo-8   100   3 ns/op\n"
		"  BenchmarkZ-8   100   3 ns/op\n"
		"BenchmarkW-8   100\n"
		"ok  \tpkg\t0.1s\n"
		"? \tpkg\t[no test files]\n"
		"FAIL\n"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 1);
	EXPECT(get(f, "", "BenchmarkX-8", "B/op"), PV_BASE, 3);
	expect_warning(f, "n.txt:1: BenchmarkX-8 ns/op is NaN; sample "
		       "skipped");
	expect_warning(f, "n.txt:1: BenchmarkX-8 x/op is +Inf; sample "
		       "skipped");
	expect_warning(f, "n.txt:7: BenchmarkW-8 has an iteration count but "
		       "no measurements; line ignored");
	/* benchstat: a syntax error; here a warning, the rest is read. */
	expect_warning(f, "n.txt:3: syntax error: 'took' is not an iteration "
		       "count: expected 'BenchmarkY-8 <iterations> <value> "
		       "<unit>...'; line ignored");
	assert_int_equal(f->diag.n, 4);
}

static void gobench_empty(void **state)
{
	struct fx *f = *state;

	assert_int_equal(feed(f, &pv_reader_gobench, "e.txt", ""), 0);
	assert_int_equal(f->t.n, 0);
	expect_warning(f, "e.txt: no benchmark result lines");
	assert_int_equal(feed(f, &pv_reader_gobench, "e.txt",
			      "goos: linux\nPASS\n"), 0);
	assert_int_equal(f->t.n, 0);
	assert_string_equal(context(f, "goos"), "linux");
}

/* ------------------------------------------------------------- pytest */

static void pytest_normal(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	assert_int_equal(feed_file(f, &pv_reader_pytest, "pytest_normal.json"),
			 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 5);
	m = get(f, "", "test_bench.py::test_sort", "time");
	assert_string_equal(m->unit, "s");
	assert_int_equal(m->dir_hint, PV_DIR_LOWER);
	EXPECT(m, PV_BASE, 0.0005650389999800609, 0.0005487590000257114,
	       0.000545310999996218);
	m = get(f, "json", "test_bench.py::test_json_loads", "time");
	EXPECT(m, PV_BASE, 8.839400004490017e-05, 7.56909998926858e-05,
	       7.306099996640114e-05);
	assert_non_null(find(f, "json", "test_bench.py::test_json_dumps",
			     "time"));
	EXPECT(get(f, "", "test_bench.py::test_join[1000]", "time"), PV_BASE,
	       5.525999995370512e-06, 5.3050000587973045e-06,
	       5.0969999847438885e-06);
	assert_string_equal(context(f, "node"), "vm");
	assert_string_equal(context(f, "cpu"), "Intel(R) Xeon(R) Processor");
	assert_string_equal(context(f, "python_version"), "3.11.2");
	assert_string_equal(context(f, "commit"), "unversioned");
	assert_string_equal(context(f, "dirty"), "false");
	assert_string_equal(context(f, "pytest_benchmark_version"), "3.2.2");
	assert_int_equal(f->diag.n, 0);
}

static void pytest_no_data(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	assert_int_equal(feed(f, &pv_reader_pytest, "0001_auto.json",
		"{\"machine_info\": {\"node\": \"ci-7\", \"cpu\": "
		"{\"brand_raw\": \"AMD EPYC\"}}, \"commit_info\": {\"id\": "
		"\"abc123\", \"dirty\": true},"
		"\"benchmarks\": [{\"group\": null, \"name\": \"test_a\", "
		"\"fullname\": \"t.py::test_a\", \"stats\": {\"min\": 1, "
		"\"mean\": 1.5, \"rounds\": 10}},"
		"{\"group\": \"g\", \"name\": \"test_b\", \"stats\": "
		"{\"data\": [2.5, 3.5], \"mean\": 3}}], \"version\": \"4.0.0\"}"),
		0);
	pv_table_finish(&f->t);
	m = get(f, "", "t.py::test_a", "time");
	assert_int_equal(m->n[PV_BASE], 0);
	assert_string_equal(m->unit, "s");
	assert_string_equal(m->note[PV_BASE], "pytest-benchmark saved no "
			    "per-round data (stats.data); run with "
			    "--benchmark-save-data, or export with "
			    "--benchmark-json");
	/* no fullname: the name */
	m = get(f, "g", "test_b", "time");
	EXPECT(m, PV_BASE, 2.5, 3.5);
	assert_null(m->note[PV_BASE]);
	assert_string_equal(context(f, "node"), "ci-7");
	assert_string_equal(context(f, "cpu"), "AMD EPYC");
	assert_string_equal(context(f, "commit"), "abc123");
	assert_string_equal(context(f, "dirty"), "true");
	expect_warning(f, "0001_auto.json: 1 benchmark without per-round "
		       "data: pytest-benchmark saved no per-round data");
}

static void pytest_nonfinite(void **state)
{
	struct fx *f = *state;

	assert_int_equal(feed(f, &pv_reader_pytest, "n.json",
		"{\"benchmarks\": [{\"fullname\": \"a\", \"stats\": {\"data\": "
		"[0.5, NaN, 0.25], \"ops\": Infinity}}, {\"fullname\": \"b\", "
		"\"stats\": {\"data\": []}}]}"), 0);
	pv_table_finish(&f->t);
	EXPECT(get(f, "", "a", "time"), PV_BASE, 0.5, 0.25);
	assert_string_equal(get(f, "", "b", "time")->note[PV_BASE],
			    "pytest-benchmark recorded no rounds");
	expect_warning(f, "n.json: a: skipped 1 non-finite or null value "
		       "(first: benchmarks[0].stats.data[1] = NaN)");
}

static void pytest_errors(void **state)
{
	struct fx *f = *state;

	expect_error(f, feed(f, &pv_reader_pytest, "p.json",
		"{\n    \"benchmarks\": [\n        {\n            \"name\": "
		"'x'\n        }\n    ]\n}\n"),
		"p.json:4:21: invalid token near '''");
	expect_error(f, feed(f, &pv_reader_pytest, "p.json", ""),
		     "p.json:1:0: the file is empty; expected a JSON object or "
		     "array");
	expect_error(f, feed(f, &pv_reader_pytest, "p.json",
		"{\"benchmarks\": [{\"fullname\": \"a\", \"stats\": {\"data\": "
		"\"1,2\"}}]}"),
		"p.json: benchmarks[0].stats.data: expected an array, found a "
		"string '1,2'");
	expect_error(f, feed(f, &pv_reader_pytest, "p.json",
		"{\"benchmarks\": [{\"fullname\": \"a\"}]}"),
		"p.json: benchmarks[0].stats: expected an object, found "
		"nothing (the member is missing)");
	expect_error(f, feed(f, &pv_reader_pytest, "p.json",
		"{\"benchmarks\": [{\"fullname\": \"a\", \"group\": 4, "
		"\"stats\": {}}]}"),
		"p.json: benchmarks[0].group: expected a string or null, found "
		"a number");
	expect_error(f, feed(f, &pv_reader_pytest, "p.json",
		"{\"benchmarks\": [{\"fullname\": null, \"stats\": {}}]}"),
		"p.json: benchmarks[0].fullname: expected a string, found "
		"nothing (the member is missing)");
	expect_error(f, feed(f, &pv_reader_pytest, "p.json",
		"{\"benchmarks\": [{\"fullname\": \"a\", \"stats\": "
		"{\"data\": [1, {}]}}]}"),
		"p.json: benchmarks[0].stats.data[1]: expected a number, found "
		"an object");
	expect_error(f, feed(f, &pv_reader_pytest, "p.json",
		"{\"machine_info\": {}, \"benchmarks\": null}"),
		"p.json: benchmarks: expected an array, found null");
}

/* ---------------------------------------------------------- criterion */

static int feed_criterion(struct fx *f, const char *rel)
{
	size_t len;
	char name[512];
	char *buf;
	int ret;

	snprintf(name, sizeof(name), "criterion/%s", rel);
	buf = slurp(name, &len);
	snprintf(f->root, sizeof(f->root), "%s/criterion", data_dir);
	ret = feed_n(f, &pv_reader_criterion, rel, buf, len);
	free(buf);
	return ret;
}

static void criterion_new(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	f->ctx.side = PV_CAND;
	f->cfg.criterion_baseline = (char *)"base";   /* baseline side only */
	assert_int_equal(feed_criterion(f, "fib 20/new/sample.json"), 0);
	assert_int_equal(feed_criterion(f, "Fibonacci/Recursive/20/new/"
					"sample.json"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 2);
	m = get(f, "", "fib 20", "time");
	assert_string_equal(m->unit, "ns");
	assert_int_equal(m->dir_hint, PV_DIR_LOWER);
	EXPECT(m, PV_CAND, 100, 110, 100, 110);
	m = get(f, "Fibonacci", "Recursive/20", "time");
	EXPECT(m, PV_CAND, 500, 510, 490);
	assert_int_equal(f->diag.n, 0);
}

static void criterion_saved_baseline(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	f->ctx.side = PV_BASE;
	f->cfg.criterion_baseline = (char *)"base";
	assert_int_equal(feed_criterion(f, "fib 20/new/sample.json"), 0);
	/* no base/ for this one: no baseline samples, and a warning */
	assert_int_equal(feed_criterion(f, "Fibonacci/Recursive/20/new/"
					"sample.json"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 1);
	m = get(f, "", "fib 20", "time");
	EXPECT(m, PV_BASE, 80, 80, 90);
	assert_null(find(f, "Fibonacci", "Recursive/20", "time"));
	expect_warning(f, "Fibonacci/Recursive/20/new/sample.json: no saved "
		       "criterion baseline 'base' "
		       "(Fibonacci/Recursive/20/base/sample.json); the "
		       "benchmark has no baseline samples");

	f->cfg.criterion_baseline = (char *)"../x";
	assert_int_equal(feed_criterion(f, "fib 20/new/sample.json"), -1);
	assert_int_equal(f->err.status, PV_EUSAGE);
	assert_string_equal(f->err.msg, "criterion baseline '../x' is not a "
			    "directory name");
}

static void criterion_other_files(void **state)
{
	struct fx *f = *state;

	assert_int_equal(feed_criterion(f, "fib 20/base/sample.json"), 0);
	assert_int_equal(feed_criterion(f, "fib 20/new/benchmark.json"), 0);
	assert_int_equal(feed_criterion(f, "fib 20/new/estimates.json"), 0);
	assert_int_equal(feed_criterion(f, "fib 20/new/tukey.json"), 0);
	assert_int_equal(f->t.n, 0);
	/* no benchmark.json: named after the directory */
	assert_int_equal(feed_criterion(f, "noname/new/sample.json"), 0);
	pv_table_finish(&f->t);
	EXPECT(get(f, "", "noname", "time"), PV_BASE, 7);
	expect_warning(f, "noname/new/sample.json: no benchmark.json beside "
		       "it; naming the benchmark 'noname' after its "
		       "directory");
}

/* criterion <= 0.2 wrote sample.json as [[iters...], [times...]]. */
static void criterion_old_pair(void **state)
{
	struct fx *f = *state;
	const char *rel = "old/new/sample.json";
	const char *text = " [[1.0, 2.0, 4.0], [10.0, 22.0, 36.0]]";

	assert_int_equal(pv_reader_criterion.probe(rel, text, strlen(text)),
			 90);
	assert_ptr_equal(pv_reader_detect(rel, text, strlen(text)),
			 &pv_reader_criterion);
	/* A bare array elsewhere is not criterion's. */
	assert_int_equal(pv_reader_criterion.probe("x/new/other.json", text,
						   strlen(text)), 0);
	assert_int_equal(feed(f, &pv_reader_criterion, rel, text), 0);
	pv_table_finish(&f->t);
	EXPECT(get(f, "", "old", "time"), PV_BASE, 10, 11, 9);
	expect_error(f, feed(f, &pv_reader_criterion, rel, "[[1, 2], [3, 4], [5]]"),
		"old/new/sample.json: $: expected a pair of arrays [[iters...], "
		"[times...]] (criterion 0.2) or an object with \"iters\" and "
		"\"times\", found an array");
	expect_error(f, feed(f, &pv_reader_criterion, rel, "[[1, 2], [3]]"),
		"old/new/sample.json: iters has 2 entries but times has 1; "
		"expected one count per time");
}

/* raw.csv, which criterion >= 0.3 writes beside sample.json, is
 * criterion's (a companion file, no samples), never the CSV reader's. */
static void criterion_raw_csv(void **state)
{
	struct fx *f = *state;
	const char *rel = "fib/20/new/raw.csv";
	const char *text = "group,function,value,throughput_num,"
		"throughput_type,sample_measured_value,unit,iteration_count\n"
		"fib,,20,,,261000.5,ns,10\n";

	assert_int_equal(pv_reader_criterion.probe(rel, text, strlen(text)),
			 95);
	assert_int_equal(pv_reader_csv.probe(rel, text, strlen(text)), 0);
	assert_ptr_equal(pv_reader_detect(rel, text, strlen(text)),
			 &pv_reader_criterion);
	assert_int_equal(feed(f, &pv_reader_criterion, rel, text), 0);
	assert_int_equal(f->t.n, 0);
	assert_int_equal(f->ctx.companion, 1);
	assert_int_equal(f->diag.n, 0);
}

static void criterion_errors(void **state)
{
	struct fx *f = *state;
	const char *rel = "zz/new/sample.json";

	expect_error(f, feed(f, &pv_reader_criterion, rel,
		"{\"iters\": [1, 2], \"times\": [5]}"),
		"zz/new/sample.json: iters has 2 entries but times has 1; "
		"expected one count per time");
	expect_error(f, feed(f, &pv_reader_criterion, rel,
		"{\"iters\": [1, 0], \"times\": [5, 6]}"),
		"zz/new/sample.json: iters[1]: expected a positive iteration "
		"count, found a number");
	expect_error(f, feed(f, &pv_reader_criterion, rel,
		"{\"iters\": [1, 2], \"times\": [5, \"6\"]}"),
		"zz/new/sample.json: times[1]: expected a number, found a "
		"string '6'");
	expect_error(f, feed(f, &pv_reader_criterion, rel,
		"{\"iters\": 3, \"times\": [5]}"),
		"zz/new/sample.json: iters: expected an array, found a number");
	expect_error(f, feed(f, &pv_reader_criterion, rel,
		"{\"sampling_mode\":\"Linear\",\"iters\":[1.0],"
		"\"times\":[5.0}"),
		"zz/new/sample.json:1:53: ']' expected near '}'");
	expect_error(f, feed(f, &pv_reader_criterion, rel, ""),
		     "zz/new/sample.json:1:0: the file is empty; expected a "
		     "JSON object or array");
	/* A non-finite time (serde writes null) is skipped.  (A failed
	 * read may leave samples behind: the run stops at an error.) */
	assert_int_equal(feed(f, &pv_reader_criterion, "yy/new/sample.json",
		"{\"iters\": [1, 2], \"times\": [null, 8], \"unknown\": 1}"), 0);
	assert_int_equal(feed(f, &pv_reader_criterion, "ww/new/sample.json",
		"{\"sampling_mode\": \"Flat\", \"iters\": [], \"times\": []}"),
		0);
	pv_table_finish(&f->t);
	EXPECT(get(f, "", "yy", "time"), PV_BASE, 4);
	assert_int_equal(get(f, "", "ww", "time")->n[PV_BASE], 0);
	assert_string_equal(get(f, "", "ww", "time")->note[PV_BASE],
			    "criterion saved no samples");
	expect_warning(f, "yy: skipped 1 non-finite or null value (first: "
		       "times[0] = null)");
}

/* ---------------------------------------------------------------- jmh */

static void jmh_normal(void **state)
{
	struct fx *f = *state;
	const char *g = "org.example.ListBench";
	const char *add = "add (size=100, kind=array)";
	const struct pv_metric *m;

	assert_int_equal(feed_file(f, &pv_reader_jmh, "jmh_normal.json"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 6);
	m = get(f, g, add, "thrpt");
	assert_string_equal(m->unit, "ops/ms");
	assert_int_equal(m->dir_hint, PV_DIR_HIGHER);
	EXPECT(m, PV_BASE, 1500, 1510, 1520, 1530, 1541, 1522);
	/* "\u00b7gc..." and "·gc..." lose the middle dot alike */
	m = get(f, g, add, "gc.alloc.rate.norm");
	assert_string_equal(m->unit, "B/op");
	assert_int_equal(m->dir_hint, PV_DIR_LOWER);
	assert_int_equal(m->n[PV_BASE], 6);
	m = get(f, g, add, "gc.count");
	assert_string_equal(m->unit, "counts");
	EXPECT(m, PV_BASE, 1, 0, 1, 0, 1, 0);

	/* get ran in two modes: the secondary metric says which */
	m = get(f, g, "get", "avgt");
	assert_string_equal(m->unit, "ns/op");
	assert_int_equal(m->dir_hint, PV_DIR_LOWER);
	EXPECT(m, PV_BASE, 12.5, 14.0);
	m = get(f, g, "get", "sample");
	assert_int_equal(m->dir_hint, PV_DIR_LOWER);
	/* histogram means: (3*10 + 40)/4 and 20 */
	EXPECT(m, PV_BASE, 17.5, 20.0);
	m = get(f, g, "get", "sample:gc.alloc.rate");
	assert_string_equal(m->unit, "MB/sec");
	EXPECT(m, PV_BASE, 0.01, 0.01);
	assert_null(find(f, g, "get", "gc.alloc.rate"));

	assert_string_equal(context(f, "jmhVersion"), "1.37");
	assert_string_equal(context(f, "jdkVersion"), "17.0.9");
	assert_string_equal(context(f, "vmName"), "OpenJDK 64-Bit Server VM");
	assert_string_equal(context(f, "jvmArgs"), "-Xmx1g -XX:+UseG1GC");
	assert_int_equal(f->diag.n, 1);
	expect_warning(f, "jmh_normal.json: org.example.ListBench.get/avgt: "
		       "skipped 2 non-finite or null values (first: "
		       "[1].primaryMetric.rawData[0][1] = NaN)");
}

static void jmh_directions_and_notes(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	assert_int_equal(feed(f, &pv_reader_jmh, "j.json",
		"[{\"benchmark\": \"Solo\", \"mode\": \"ss\", \"params\": "
		"{\"n\": 3}, \"primaryMetric\": {\"scoreUnit\": \"s/op\", "
		"\"rawData\": [[\"NaN\", \"-INF\"]]}, \"secondaryMetrics\": "
		"{\"put\": {\"scoreUnit\": \"s/op\", \"rawData\": [[1.0]]}, "
		"\"cycles\": {\"scoreUnit\": \"#/op\", \"rawData\": [[2.0]]}, "
		"\"summary\": {\"score\": 1.0, \"scoreUnit\": \"x\"}}},"
		"{\"benchmark\": \"a.B.c\", \"mode\": \"weird\", "
		"\"primaryMetric\": {\"rawData\": [[1]]}, \"newStuff\": 1}]"), 0);
	pv_table_finish(&f->t);
	m = get(f, "", "Solo (n=3)", "ss");
	assert_int_equal(m->n[PV_BASE], 0);
	assert_string_equal(m->note[PV_BASE], "every value was NaN, infinite "
			    "or null, so there is nothing to compare");
	/* same unit as the primary: the mode's direction */
	assert_int_equal(get(f, "", "Solo (n=3)", "put")->dir_hint,
			 PV_DIR_LOWER);
	assert_int_equal(get(f, "", "Solo (n=3)", "cycles")->dir_hint,
			 PV_DIR_UNSET);
	m = get(f, "", "Solo (n=3)", "summary");
	assert_int_equal(m->n[PV_BASE], 0);
	assert_string_equal(m->note[PV_BASE], "JMH saved no raw data "
			    "(rawData) for this metric");
	m = get(f, "a.B", "c", "weird");
	assert_int_equal(m->dir_hint, PV_DIR_UNSET);
	assert_string_equal(m->unit, "");
	EXPECT(m, PV_BASE, 1);
	expect_warning(f, "j.json: Solo (n=3)/ss: skipped 2 non-finite or null "
		       "values (first: [0].primaryMetric.rawData[0][0] = "
		       "NaN)");
}

static void jmh_errors(void **state)
{
	struct fx *f = *state;

	expect_error(f, feed(f, &pv_reader_jmh, "j.json",
			     "{\"benchmark\": \"x\"}"),
		     "j.json: $: expected an array, found an object");
	expect_error(f, feed(f, &pv_reader_jmh, "j.json",
		"[\n    {\n        \"benchmark\" : \"a.b\",\n        \"mode\" "
		": thrpt\n    }\n]\n"),
		"j.json:4:22: invalid token near 'thrpt'");
	expect_error(f, feed(f, &pv_reader_jmh, "j.json", "\n"),
		     "j.json:2:0: the file is empty; expected a JSON object or "
		     "array");
	expect_error(f, feed(f, &pv_reader_jmh, "j.json",
		"[{\"benchmark\": \"a.b\", \"mode\": \"avgt\"}]"),
		"j.json: [0].primaryMetric: expected an object, found nothing "
		"(the member is missing)");
	expect_error(f, feed(f, &pv_reader_jmh, "j.json",
		"[{\"benchmark\": \"a.b\"}]"),
		"j.json: [0].mode: expected a string, found nothing (the "
		"member is missing)");
	expect_error(f, feed(f, &pv_reader_jmh, "j.json",
		"[{\"benchmark\": \"a.b\", \"mode\": \"avgt\", "
		"\"primaryMetric\": {\"rawData\": [1, 2]}}]"),
		"j.json: [0].primaryMetric.rawData[0]: expected an array, "
		"found a number");
	expect_error(f, feed(f, &pv_reader_jmh, "j.json",
		"[{\"benchmark\": \"a.b\", \"mode\": \"avgt\", "
		"\"primaryMetric\": {\"rawData\": [[1, \"fast\"]]}}]"),
		"j.json: [0].primaryMetric.rawData[0][1]: expected a number, "
		"found a string 'fast'");
	expect_error(f, feed(f, &pv_reader_jmh, "j.json",
		"[{\"benchmark\": \"a.b\", \"mode\": \"sample\", "
		"\"primaryMetric\": {\"rawDataHistogram\": [[[[1, 2], [3]]]]}}]"),
		"j.json: [0].primaryMetric.rawDataHistogram[0][0][1]: expected "
		"a [value, count] pair, found an array");
	expect_error(f, feed(f, &pv_reader_jmh, "j.json",
		"[{\"benchmark\": \"a.b\", \"mode\": \"avgt\", \"params\": "
		"{\"k\": {}}, \"primaryMetric\": {}}]"),
		"j.json: [0].params.k: expected a string, found an object");
	expect_error(f, feed(f, &pv_reader_jmh, "j.json",
		"[{\"benchmark\": \"a.b\", \"mode\": \"avgt\", "
		"\"primaryMetric\": {\"rawData\": []}, \"secondaryMetrics\": "
		"{\"x\": 5}}]"),
		"j.json: [0].secondaryMetrics.x: expected an object, found a "
		"number");
	assert_int_equal(feed(f, &pv_reader_jmh, "e.json", "[]"), 0);
	expect_warning(f, "e.json: no benchmarks in the file");
}

/* ------------------------------------------------------------- probes */

static const struct pv_reader *detect_file(const char *name)
{
	size_t len;
	char *buf = slurp(name, &len);
	const struct pv_reader *r = pv_reader_detect(name, buf, len);

	free(buf);
	return r;
}

static void probes_fixtures(void **state)
{
	(void)state;
	assert_ptr_equal(detect_file("gbench_normal.json"), &pv_reader_gbench);
	assert_ptr_equal(detect_file("gbench_aggregates_only.json"),
			 &pv_reader_gbench);
	assert_ptr_equal(detect_file("pyperf_timeit.json"), &pv_reader_pyperf);
	assert_ptr_equal(detect_file("pyperf_suite.json"), &pv_reader_pyperf);
	assert_ptr_equal(detect_file("hyperfine_params.json"),
			 &pv_reader_hyperfine);
	assert_ptr_equal(detect_file("gobench_normal.txt"), &pv_reader_gobench);
	assert_ptr_equal(detect_file("pytest_normal.json"), &pv_reader_pytest);
	assert_ptr_equal(detect_file("jmh_normal.json"), &pv_reader_jmh);
	assert_ptr_equal(detect_file("criterion/fib 20/new/sample.json"),
			 &pv_reader_criterion);
	assert_ptr_equal(detect_file("criterion/fib 20/new/benchmark.json"),
			 &pv_reader_criterion);
	assert_ptr_equal(detect_file("criterion/fib 20/new/estimates.json"),
			 &pv_reader_criterion);
	assert_ptr_equal(detect_file("criterion/fib 20/new/tukey.json"),
			 &pv_reader_criterion);
	assert_ptr_equal(pv_reader_by_name("gbench"), &pv_reader_gbench);
	assert_ptr_equal(pv_reader_by_name("pyperf"), &pv_reader_pyperf);
	assert_ptr_equal(pv_reader_by_name("hyperfine"), &pv_reader_hyperfine);
	assert_ptr_equal(pv_reader_by_name("gobench"), &pv_reader_gobench);
	assert_ptr_equal(pv_reader_by_name("pytest"), &pv_reader_pytest);
	assert_ptr_equal(pv_reader_by_name("criterion"), &pv_reader_criterion);
	assert_ptr_equal(pv_reader_by_name("jmh"), &pv_reader_jmh);
}

/* Every probe of this file, on text that belongs to another reader. */
static const struct pv_reader *const mine[] = {
	&pv_reader_gbench, &pv_reader_pyperf, &pv_reader_hyperfine,
	&pv_reader_gobench, &pv_reader_pytest, &pv_reader_criterion,
	&pv_reader_jmh, NULL
};

static void expect_only(const char *relpath, const char *text,
			const struct pv_reader *owner)
{
	for (size_t i = 0; mine[i]; i++) {
		int score = mine[i]->probe(relpath, text, strlen(text));

		if (mine[i] == owner && score <= 0)
			fail_msg("%s does not claim %s", mine[i]->name,
				 relpath);
		if (mine[i] != owner && score > 0)
			fail_msg("%s claims %s (%d)", mine[i]->name, relpath,
				 score);
	}
}

static void probes_exclusive(void **state)
{
	(void)state;
	/* RHS and CSV belong to other readers */
	expect_only("r/netperf-result.RHS",
		    "### kvm-userspace-ver : qemu-kvm-1.0\n"
		    "Category:TCP_STREAM\n"
		    "size|sessions|throughput|  %CPU\n"
		    "   64|       1|   1020.94| 24.38\n", NULL);
	expect_only("k/results.csv",
		    "benchmark,metric,unit,value\nbuild,elapsed,s,61.2\n",
		    NULL);
	expect_only("k/results.csv", "name,ns/op,B/op\nBenchmarkX,3,4\n",
		    NULL);
	expect_only("x.json", "{\"a\": 1}", NULL);
	expect_only("x.json", "[1, 2, 3]", NULL);
	expect_only("x.txt", "hello\nworld\n", NULL);
	expect_only("x.txt", "", NULL);
	/* heads without their context object */
	expect_only("x.json", "{\"benchmarks\": [{\"name\": \"a\", "
		    "\"run_type\": \"iteration\", \"real_time\": 1",
		    &pv_reader_gbench);
	expect_only("x.json", "{\"benchmarks\":[{\"metadata\":{\"name\":"
		    "\"a\"},\"runs\":[{\"values\":[1.0]}]}]", &pv_reader_pyperf);
	expect_only("x.json", "{\n    \"benchmarks\": [\n        {\n"
		    "            \"group\": null,\n            \"name\": \"t\",\n"
		    "            \"fullname\": \"a.py::t\",\n"
		    "            \"stats\": {", &pv_reader_pytest);
	expect_only("x.json", "{\"results\": [{\"command\": \"a\", "
		    "\"times\": [1]}]}", &pv_reader_hyperfine);
	expect_only("x.json", "[{\"benchmark\": \"a.b\", \"mode\": \"thrpt\", "
		    "\"threads\": 1", &pv_reader_jmh);
	expect_only("b/new/sample.json", "{\"sampling_mode\":\"Flat\","
		    "\"iters\":[1.0],\"times\":[2.0]}", &pv_reader_criterion);
	expect_only("go.txt", "goos: linux\ngoarch: arm64\n",
		    &pv_reader_gobench);
	expect_only("go.txt", "BenchmarkX-4 \t 100\t 12.5 ns/op\n",
		    &pv_reader_gobench);
	/* broken files still go to their reader, which says what is wrong */
	expect_only("go.txt", "BenchmarkX-4 \t 100\t 1x2 ns/op\n",
		    &pv_reader_gobench);
	expect_only("cut.json", "{\n  \"context\": {\n    \"date\": "
		    "\"2026-11-30\",\n    \"host_name\": \"vm\",\n    \"exe",
		    &pv_reader_gbench);
}

static void jsonutil_numbers(void **state)
{
	json_t *v;
	double d = 0;

	(void)state;
	v = json_string("+INF");
	assert_int_equal(pv_json_num(v, &d), PV_JNUM_NONFINITE);
	assert_true(isinf(d) && d > 0);
	json_decref(v);
	v = json_string("-inf");
	assert_int_equal(pv_json_num(v, &d), PV_JNUM_NONFINITE);
	assert_true(isinf(d) && d < 0);
	json_decref(v);
	v = json_string("NaN");
	assert_int_equal(pv_json_num(v, &d), PV_JNUM_NONFINITE);
	assert_true(isnan(d));
	json_decref(v);
	v = json_string("1.5");
	assert_int_equal(pv_json_num(v, &d), PV_JNUM_BAD);
	json_decref(v);
	v = json_integer(7);
	assert_int_equal(pv_json_num(v, &d), PV_JNUM_OK);
	assert_near(d, 7, 0);
	json_decref(v);
	v = json_null();
	assert_int_equal(pv_json_num(v, &d), PV_JNUM_NULL);
	assert_int_equal(pv_json_num(NULL, &d), PV_JNUM_BAD);
	assert_string_equal(pv_json_type(NULL), "null");
	assert_string_equal(pv_json_type(v), "null");
	json_decref(v);
	assert_true(pv_probe_key("{ \"a\" :1}", "a"));
	assert_false(pv_probe_key("{\"a\", \"b\": 1}", "a"));
	assert_false(pv_probe_key("{\"ab\": 1}", "a"));
	assert_int_equal(pv_probe_first("\xef\xbb\xbf \n {"), '{');
}

static void jsonutil_parse(void **state)
{
	static const char text[] = "\xef\xbb\xbf{\"a\": [NaN, -Infinity, "
		"+Infinity], \"b\": \"NaN \\\" Infinity\", \"NaNx\": 1}";
	struct pv_err err;
	json_t *root;

	(void)state;
	/* Tokens outside strings only; escapes do not end a string. */
	root = pv_json_parse("x", text, strlen(text), &err);
	assert_non_null(root);
	assert_string_equal(json_string_value(json_array_get(
		json_object_get(root, "a"), 0)), "NaN");
	assert_string_equal(json_string_value(json_array_get(
		json_object_get(root, "a"), 1)), "-Infinity");
	assert_string_equal(json_string_value(json_array_get(
		json_object_get(root, "a"), 2)), "+Infinity");
	assert_string_equal(json_string_value(json_object_get(root, "b")),
			    "NaN \" Infinity");
	assert_non_null(json_object_get(root, "NaNx"));
	json_decref(root);
	/* A word that only starts like a token stays what it was. */
	memset(&err, 0, sizeof(err));
	assert_null(pv_json_parse("x", "[NaNa]", 6, &err));
	assert_string_equal(err.msg, "x:1:5: invalid token near 'NaNa'");
	assert_int_equal(err.status, PV_EINPUT);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		T(gbench_normal),
		T(gbench_aggregates_only),
		T(gbench_aggregates_without_stddev),
		T(gbench_mixed_aggregates),
		T(gbench_skips),
		T(gbench_old_format),
		T(gbench_nonfinite),
		T(gbench_malformed),
		T(gbench_shape),
		T(gbench_empty_list),
		T(pyperf_timeit),
		T(pyperf_suite),
		T(pyperf_names_units),
		T(pyperf_nonfinite),
		T(pyperf_errors),
		T(hyperfine_params),
		T(hyperfine_memory_exit),
		T(hyperfine_nonfinite_empty),
		T(hyperfine_errors),
		T(gobench_normal),
		T(gobench_unit_lines),
		T(gobench_errors),
		T(gobench_nonfinite_and_noise),
		T(gobench_empty),
		T(pytest_normal),
		T(pytest_no_data),
		T(pytest_nonfinite),
		T(pytest_errors),
		T(criterion_new),
		T(criterion_saved_baseline),
		T(criterion_other_files),
		T(criterion_errors),
		T(criterion_old_pair),
		T(criterion_raw_csv),
		T(jmh_normal),
		T(jmh_directions_and_notes),
		T(jmh_errors),
		cmocka_unit_test(probes_fixtures),
		cmocka_unit_test(probes_exclusive),
		cmocka_unit_test(jsonutil_numbers),
		cmocka_unit_test(jsonutil_parse),
	};

	(void)argc;
	if (fx_find_data(argv[0], "PV_TEST_FORMATS"))
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
