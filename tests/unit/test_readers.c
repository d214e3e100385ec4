/*
 * test_readers.c - the RHS and CSV readers, fed through a real sample
 * table and read context: keys, values, context, ratios, and every
 * error path (file:line:col, status PV_EINPUT).
 *
 * Fixture files live in tests/unit/data/readers/; they are found through
 * $PV_TEST_DATA, or by walking up from the current directory or from the
 * test binary.
 */
#include "unit.h"

#include <stdio.h>
#include <string.h>

#define DATA_SUBDIR "tests/unit/data/readers"
#include "readers_fixture.h"

static int setup(void **state)
{
	struct fx *f;

	fx_setup(state, "netperf", "kvm.netperf");
	f = *state;
	f->suite.ignore_col = 2;
	f->suite.ratios = f->ratios;
	return 0;
}

static long index_of(struct fx *f, const struct pv_metric *m)
{
	return (long)(m - f->t.m);
}

/* ---------------------------------------------------------------- RHS */

static void rhs_2012_netperf(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m, *thr, *cpu;

	f->suite.nratios = 3;
	f->ratios[0] = (struct pv_ratio){ 4, 2, 3 };
	f->ratios[1] = (struct pv_ratio){ 14, 5, 12 };
	f->ratios[2] = (struct pv_ratio){ 15, 6, 13 };
	assert_int_equal(feed_file(f, &pv_reader_rhs, "netperf-2012.RHS"), 0);
	pv_table_finish(&f->t);

	/* 3 categories x 4 rows x 14 value columns; keys are not metrics */
	assert_int_equal(f->t.n, 3 * 4 * 14);
	assert_null(find(f, "TCP_STREAM", "size=64,sessions=1", "size"));
	assert_null(find(f, "TCP_STREAM", "size=64,sessions=1", "sessions"));

	m = get(f, "TCP_STREAM", "size=64,sessions=1", "throughput");
	assert_string_equal(m->key.suite, "netperf");
	assert_string_equal(m->key.test, "kvm.netperf");
	assert_string_equal(m->unit, "");
	assert_int_equal(m->n[PV_BASE], 1);
	assert_near(m->v[PV_BASE][0], 1020.94, 0);
	m = get(f, "TCP_RR", "size=1024,sessions=4", "#tx-byts");
	assert_near(m->v[PV_BASE][0], 2464530752.0, 0);
	m = get(f, "TCP_MAERTS", "size=64,sessions=4", "#rpkt/#irq");
	assert_near(m->v[PV_BASE][0], 2.20, 0);

	/* avg_update = 4,2,3: thr/%CPU is throughput / %CPU */
	m = get(f, "TCP_STREAM", "size=1024,sessions=1", "thr/%CPU");
	thr = get(f, "TCP_STREAM", "size=1024,sessions=1", "throughput");
	cpu = get(f, "TCP_STREAM", "size=1024,sessions=1", "%CPU");
	assert_int_equal(m->ratio_num, index_of(f, thr));
	assert_int_equal(m->ratio_den, index_of(f, cpu));
	assert_int_equal(thr->ratio_num, -1);
	m = get(f, "TCP_RR", "size=64,sessions=1", "#tpkt/#exit");
	assert_int_equal(m->ratio_num,
			 index_of(f, get(f, "TCP_RR", "size=64,sessions=1",
					 "#tx-pkts")));
	assert_int_equal(m->ratio_den,
			 index_of(f, get(f, "TCP_RR", "size=64,sessions=1",
					 "#io_exit")));

	assert_string_equal(context(f, "kvm-userspace-ver"),
			    "qemu-kvm-1.0.50 (qemu-kvm-devel)");
	assert_string_equal(context(f, "guest-kernel-ver"), "3.3.0-rc7");
	assert_string_equal(context(f, "session-length"), "60");
	assert_string_equal(context(f, "host cpu"),
			    "Intel(R) Xeon(R) CPU E5620 @ 2.40GHz");
	assert_int_equal(f->diag.n, 0);
}

static void rhs_2011_ver_desc(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	assert_int_equal(feed_file(f, &pv_reader_rhs, "netperf-2011.RHS"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 2 * 4 * 14);
	assert_string_equal(context(f, "ver"), "2.6.32-71.el6.x86_64; "
			    "qemu-kvm-0.12.1.2-2.113.el6");
	assert_string_equal(context(f, "desc"),
			    "The tests are *60* seconds sessions of 'Netperf'. "
			    "'throughput' was taken from netperf's report.; "
			    "Other measurements were taken on the host.");
	m = get(f, "TCP_MAERTS", "size=1024,sessions=4", "throughput");
	assert_near(m->v[PV_BASE][0], 2919.0, 0);
	m = get(f, "TCP_STREAM", "size=64,sessions=1", "%CPU");
	assert_near(m->v[PV_BASE][0], 13.62, 0);
	/* titles are trimmed: "  %CPU" and "#tpkt/#exit" */
	assert_non_null(find(f, "TCP_STREAM", "size=64,sessions=4",
			     "#tpkt/#exit"));
}

static void rhs_bare_protocol(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	assert_int_equal(feed_file(f, &pv_reader_rhs, "netperf-bare.RHS"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, (3 + 2) * 3);
	m = get(f, "TCP_STREAM", "size=1024,sessions=1", "thr/%CPU");
	assert_near(m->v[PV_BASE][0], 126.62, 0);
	m = get(f, "TCP_RR", "size=1,sessions=2", "throughput");
	assert_near(m->v[PV_BASE][0], 25110.6, 0);
	assert_null(find(f, "TCP_STREAM", "size=1,sessions=2", "throughput"));
	assert_int_equal(f->diag.n, 0);
}

static void rhs_category_rx(void **state)
{
	struct fx *f = *state;

	f->suite.ignore_col = 1;
	assert_int_equal(feed(f, &pv_reader_rhs, "rx.RHS",
			      "Category:TCP_STREAM (RX)\n"
			      "size|throughput\n"
			      "  64|    100.5\n"
			      "Category:  TCP_STREAM (TX)  \n"
			      "size|throughput\n"
			      "  64|    200.5\n"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 2);
	assert_near(get(f, "TCP_STREAM (RX)", "size=64",
				"throughput")->v[PV_BASE][0], 100.5, 0);
	assert_near(get(f, "TCP_STREAM (TX)", "size=64",
				"throughput")->v[PV_BASE][0], 200.5, 0);
}

static void rhs_crlf_bom_blank(void **state)
{
	struct fx *f = *state;
	const char text[] =
		"\xEF\xBB\xBF### kvm_version : 3.4.0 \r\n"
		"\r\n"
		"Category:TCP_STREAM\r\n"
		"\r\n"
		"   \t\r\n"
		"size|sessions|throughput|  %CPU   \r\n"
		"  64|       1|    812.40| 12.10   \r\n"
		"\r\n"
		"  64|       2|    990.05| 15.80\t\r\n"
		"\r\n";

	assert_int_equal(feed(f, &pv_reader_rhs, "crlf.RHS", text), 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 4);
	assert_string_equal(context(f, "kvm_version"), "3.4.0");
	assert_near(get(f, "TCP_STREAM", "size=64,sessions=2",
				"%CPU")->v[PV_BASE][0], 15.8, 0);
	assert_near(get(f, "TCP_STREAM", "size=64,sessions=1",
				"throughput")->v[PV_BASE][0], 812.4, 0);
}

/* The BOM is not counted in columns of the first line. */
static void rhs_bom_column(void **state)
{
	struct fx *f = *state;

	f->suite.ignore_col = 0;
	expect_error_prefix(f, feed(f, &pv_reader_rhs, "bom.RHS",
			     "\xEF\xBB\xBF" "a|b\n1|x\n"),
		     "bom.RHS:2:3: cannot parse 'x' as a number");
	expect_error_prefix(f, feed(f, &pv_reader_rhs, "bom.RHS",
			     "\xEF\xBB\xBF" "a||b\n"),
		     "bom.RHS:1:3: empty title of column 1 in the header");
}

static void rhs_numbers(void **state)
{
	struct fx *f = *state;

	f->suite.ignore_col = 1;
	assert_int_equal(feed(f, &pv_reader_rhs, "num.RHS",
			      "Category:X\n"
			      "k|a|b|c|d|e\n"
			      "1|1e+05|-2.5E-3|+7|0.000|  12345678901234567890\n"
			      ), 0);
	pv_table_finish(&f->t);
	assert_near(get(f, "X", "k=1", "a")->v[PV_BASE][0], 1e5, 0);
	assert_near(get(f, "X", "k=1", "b")->v[PV_BASE][0], -2.5e-3,
			    0);
	assert_near(get(f, "X", "k=1", "c")->v[PV_BASE][0], 7, 0);
	assert_near(get(f, "X", "k=1", "d")->v[PV_BASE][0], 0, 0);
	assert_near(get(f, "X", "k=1", "e")->v[PV_BASE][0],
			    12345678901234567890.0, 0);
}

static void rhs_none_keys(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	f->suite.name = (char *)"ffsb";
	f->suite.ignore_col = 1;
	assert_int_equal(feed_file(f, &pv_reader_rhs, "ffsb.RHS"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, (3 + 2) * 4);
	m = get(f, "large_file_creates", "Threads=None", "Trans/sec");
	assert_near(m->v[PV_BASE][0], 2048.8, 0);
	m = get(f, "random_reads", "Threads=None", "Throughput");
	assert_near(m->v[PV_BASE][0], 40.5, 1e-12);
	m = get(f, "random_reads", "Threads=1", "Trans/sec");
	assert_near(m->v[PV_BASE][0], 5900, 0);
	assert_string_equal(context(f, "desc"),
			    "ffsb large_file_creates and random_reads profiles");
}

static void rhs_no_group(void **state)
{
	struct fx *f = *state;

	f->suite.ignore_col = 1;
	assert_int_equal(feed(f, &pv_reader_rhs, "nogroup.RHS",
			      "#ver# 1.0\n"
			      "threads| ops\n"
			      "      1| 10\n"
			      "      2| 19\n"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 2);
	assert_near(get(f, "", "threads=2", "ops")->v[PV_BASE][0],
			    19, 0);
}

static void rhs_ignore_col_zero(void **state)
{
	struct fx *f = *state;

	f->suite.ignore_col = 0;
	assert_int_equal(feed(f, &pv_reader_rhs, "zero.RHS",
			      "Category:A\n"
			      "x|y\n"
			      "1|2\n"
			      "3|4\n"
			      "Category:B\n"
			      "x|y\n"
			      "5|6\n"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 6);
	assert_near(get(f, "A", "row=1", "y")->v[PV_BASE][0], 2, 0);
	assert_near(get(f, "A", "row=2", "x")->v[PV_BASE][0], 3, 0);
	assert_near(get(f, "B", "row=1", "y")->v[PV_BASE][0], 6, 0);
}

/* Rows are matched by key, never by position. */
static void rhs_rows_by_key(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	assert_int_equal(feed(f, &pv_reader_rhs, "repeat1/r.RHS",
			      "Category:TCP_STREAM\n"
			      "size|sessions|throughput\n"
			      "  64|       1|       100\n"
			      "1024|       1|       900\n"), 0);
	assert_int_equal(feed(f, &pv_reader_rhs, "repeat2/r.RHS",
			      "Category:TCP_STREAM\n"
			      "size|sessions|throughput\n"
			      "1024|       1|       910\n"
			      "  64|       1|       110\n"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 2);
	m = get(f, "TCP_STREAM", "size=64,sessions=1", "throughput");
	assert_int_equal(m->n[PV_BASE], 2);
	assert_near(m->v[PV_BASE][0], 100, 0);
	assert_near(m->v[PV_BASE][1], 110, 0);
	m = get(f, "TCP_STREAM", "size=1024,sessions=1", "throughput");
	assert_near(m->v[PV_BASE][0], 900, 0);
	assert_near(m->v[PV_BASE][1], 910, 0);
}

static void rhs_bad_numbers(void **state)
{
	struct fx *f = *state;
	static const struct {
		const char *cell, *want;
	} cases[] = {
		{ "    x1.5", "t.RHS:3:9: cannot parse 'x1.5' as a number" },
		{ "     nan", "t.RHS:3:10: cannot parse 'nan' as a number" },
		{ "    -inf", "t.RHS:3:9: cannot parse '-inf' as a number" },
		{ "   1e309", "t.RHS:3:8: cannot parse '1e309' as a number" },
		{ "    0x10", "t.RHS:3:9: cannot parse '0x10' as a number" },
		{ "     1,5", "t.RHS:3:10: cannot parse '1,5' as a number" },
		{ "   12abc", "t.RHS:3:8: cannot parse '12abc' as a number" },
		{ "    1 2 ", "t.RHS:3:9: cannot parse '1 2' as a number" },
		{ "     1e+", "t.RHS:3:10: cannot parse '1e+' as a number" },
		{ "        ", "t.RHS:3:5: cannot parse '' as a number" },
	};
	char text[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text),
			 "Category:X\n"
			 "a|b|       c|d\n"
			 "1|2|%s|4\n", cases[i].cell);
		expect_error_prefix(f, feed(f, &pv_reader_rhs, "t.RHS", text),
			     cases[i].want);
		expect_in_error(f, "in column 'c'");
	}
	expect_in_error(f, "(an empty cell)");
	/* A bad cell in the last column, and a key cell is never parsed. */
	expect_error_prefix(f, feed(f, &pv_reader_rhs, "t.RHS",
			     "a|b|c\nx y|None|1.0.0\n"),
		     "t.RHS:2:10: cannot parse '1.0.0' as a number in column "
		     "'c' (not a decimal number)");
	expect_error_prefix(f, feed(f, &pv_reader_rhs, "t.RHS",
			     "a|b|c\n1|2|1e999\n"),
		     "t.RHS:2:5: cannot parse '1e999' as a number in column "
		     "'c' (not a finite number)");
}

static void rhs_mismatched_columns(void **state)
{
	struct fx *f = *state;

	expect_error_prefix(f, feed(f, &pv_reader_rhs, "m.RHS",
			     "Category:X\n"
			     "a|b|c|d\n"
			     "1|2|3|4\n"
			     "\n"
			     "1|3|4\n"),
		     "m.RHS:5: row has 3 columns but the header at line 2 "
		     "has 4");
	expect_error_prefix(f, feed(f, &pv_reader_rhs, "m.RHS",
			     "a|b|c\n1|2|3|4|5\n"),
		     "m.RHS:2: row has 5 columns but the header at line 1 "
		     "has 3");
}

static void rhs_avg_update_range(void **state)
{
	struct fx *f = *state;
	const char *text = "Category:X\n"
			   "size|sessions|throughput|%CPU|thr/%CPU\n"
			   "  64|       1|       100|  10|      10\n";

	f->suite.nratios = 2;
	f->ratios[0] = (struct pv_ratio){ 4, 2, 3 };
	f->ratios[1] = (struct pv_ratio){ 4, 2, 5 };
	expect_error_prefix(f, feed(f, &pv_reader_rhs, "r.RHS", text),
		     "r.RHS:2: avg_update column 5 is out of range: the "
		     "header has 5 columns (0-4)");
	f->ratios[1] = (struct pv_ratio){ 16, 2, 3 };
	expect_error_prefix(f, feed(f, &pv_reader_rhs, "r.RHS", text),
		     "r.RHS:2: avg_update column 16 is out of range");
	f->ratios[1] = (struct pv_ratio){ 4, 1, 3 };
	expect_error_prefix(f, feed(f, &pv_reader_rhs, "r.RHS", text),
		     "r.RHS:2: avg_update column 1 ('sessions') is a key "
		     "column (ignore_col = 2)");
	/* in range: the ratio is recorded once per row */
	f->suite.nratios = 1;
	assert_int_equal(feed(f, &pv_reader_rhs, "r.RHS", text), 0);
}

/* Repeat files whose columns come in another order, or with a column
 * more: the cells are not the metrics after the last one, and ratios
 * are found by name (rows are added with pv_emit_row()). */
static void rhs_columns_reordered(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *a, *b, *r, *c;

	f->suite.nratios = 1;
	f->ratios[0] = (struct pv_ratio){ 4, 2, 3 };
	assert_int_equal(feed(f, &pv_reader_rhs, "1.RHS",
			      "Category:X\n"
			      "size|sessions|a|b|r\n"
			      "  64|       1|10|2|5\n"
			      " 128|       1|20|4|5\n"), 0);
	assert_int_equal(feed(f, &pv_reader_rhs, "2.RHS",
			      "Category:X\n"
			      "size|sessions|b|r|a|c\n"
			      "  64|       1|3|0|12|7\n"
			      " 128|       1|5|0|25|8\n"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 2 * 4);
	a = get(f, "X", "size=64,sessions=1", "a");
	b = get(f, "X", "size=64,sessions=1", "b");
	r = get(f, "X", "size=64,sessions=1", "r");
	c = get(f, "X", "size=64,sessions=1", "c");
	assert_int_equal(a->n[PV_BASE], 2);
	assert_near(a->v[PV_BASE][0], 10, 0);
	assert_near(a->v[PV_BASE][1], 12, 0);
	assert_near(b->v[PV_BASE][1], 3, 0);
	assert_int_equal(c->n[PV_BASE], 1);
	assert_near(c->v[PV_BASE][0], 7, 0);
	assert_int_equal(a->files[PV_BASE], 2);
	assert_int_equal(c->files[PV_BASE], 1);
	/* file 1: column 4 is r = a / b; file 2: column 4 is a = b / r */
	assert_int_equal(r->ratio_num, index_of(f, a));
	assert_int_equal(r->ratio_den, index_of(f, b));
	assert_int_equal(a->ratio_num, index_of(f, b));
	assert_int_equal(a->ratio_den, index_of(f, r));
	a = get(f, "X", "size=128,sessions=1", "a");
	assert_near(a->v[PV_BASE][1], 25, 0);
	assert_int_equal(a->ratio_num,
			 index_of(f, get(f, "X", "size=128,sessions=1", "b")));
}

static void rhs_duplicate_key(void **state)
{
	struct fx *f = *state;

	expect_error_prefix(f, feed(f, &pv_reader_rhs, "d.RHS",
			     "Category:TCP_STREAM\n"
			     "size|sessions|throughput\n"
			     "  64|       1|       100\n"
			     " 128|       1|       200\n"
			     "  64|       1|       300\n"),
		     "d.RHS:5: duplicate row key 'size=64,sessions=1' in "
		     "group 'TCP_STREAM' (first at line 3)");
	/* the same key in another group is fine ... */
	assert_int_equal(feed(f, &pv_reader_rhs, "d.RHS",
			      "Category:A\nsize|thr\n64|1\n"
			      "Category:B\nsize|thr\n64|2\n"), 0);
	/* ... but a group repeated in one file is not a second run */
	expect_error_prefix(f, feed(f, &pv_reader_rhs, "d.RHS",
			     "Category:A\nsize|s|thr\n64|1|1\n"
			     "Category:A\nsize|s|thr\n64|1|2\n"),
		     "d.RHS:6: duplicate row key 'size=64,s=1' in group 'A' "
		     "(first at line 3)");
}

static void rhs_ignore_col_too_large(void **state)
{
	struct fx *f = *state;

	f->suite.ignore_col = 4;
	expect_error_prefix(f, feed(f, &pv_reader_rhs, "i.RHS",
			     "Category:X\na|b|c\n1|2|3\n"),
		     "i.RHS:2: ignore_col = 4 but the header has only 3 "
		     "columns");
	/* every column a key: no values, a warning */
	f->suite.ignore_col = 3;
	assert_int_equal(feed(f, &pv_reader_rhs, "i.RHS",
			      "Category:X\na|b|c\n1|2|3\n"), 0);
	assert_true(diag_count(f, "i.RHS:2: every column is a key column"));
	assert_int_equal(f->t.n, 0);
}

static void rhs_bad_header(void **state)
{
	struct fx *f = *state;

	expect_error_prefix(f, feed(f, &pv_reader_rhs, "h.RHS",
			     "Category:X\nsize|sess|thr|cpu|thr\n"),
		     "h.RHS:2: duplicate column title 'thr' (columns 2 and 4)");
	expect_error_prefix(f, feed(f, &pv_reader_rhs, "h.RHS",
			     "Category:X\nsize|sess|  |cpu\n"),
		     "h.RHS:2:11: empty title of column 2 in the header");
}

/* A '|' that ends a line opens no column. */
static void rhs_trailing_bar(void **state)
{
	struct fx *f = *state;

	f->suite.ignore_col = 1;
	assert_int_equal(feed(f, &pv_reader_rhs, "b.RHS",
			      "Category:X\n"
			      "size|thr|cpu|\n"
			      "  64| 10|  1|  \n"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 2);
	assert_near(get(f, "X", "size=64", "cpu")->v[PV_BASE][0], 1,
			    0);
}

static void rhs_comments_and_orphans(void **state)
{
	struct fx *f = *state;

	f->suite.ignore_col = 1;
	assert_int_equal(feed(f, &pv_reader_rhs, "o.RHS",
			      "# written by hand\n"
			      "### no separator here\n"
			      "###   : empty key\n"
			      "###\n"
			      "UDP_STREAM\n"
			      "TCP_STREAM\n"
			      "size|thr\n"
			      "  64| 10\n"
			      "Category:TCP_RR\n"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 1);
	assert_near(get(f, "TCP_STREAM", "size=64", "thr")
			    ->v[PV_BASE][0], 10, 0);
	assert_true(diag_count(f, "o.RHS:2: ignoring preamble line without"));
	assert_true(diag_count(f, "o.RHS:3: ignoring preamble line with an "
			     "empty key"));
	assert_true(diag_count(f, "o.RHS:5: ignoring 'UDP_STREAM': no table"));
	assert_true(diag_count(f, "o.RHS:9: ignoring 'TCP_RR': no table"));
	assert_int_equal(f->t.side[PV_BASE].ncontext, 0);
}

static void rhs_no_table(void **state)
{
	struct fx *f = *state;

	assert_int_equal(feed(f, &pv_reader_rhs, "e.RHS", ""), 0);
	assert_true(diag_count(f, "e.RHS: no table found"));
	assert_int_equal(feed(f, &pv_reader_rhs, "p.RHS",
			      "### k : v\n"), 0);
	assert_true(diag_count(f, "p.RHS: no table found"));
	assert_string_equal(context(f, "k"), "v");
}

static void rhs_binary_and_limits(void **state)
{
	struct fx *f = *state;
	static const char bin[] = "a|b\n1|2\n3|\0|4\n";
	char big[200];

	expect_error_prefix(f, feed_n(f, &pv_reader_rhs, "n.RHS", bin,
			       sizeof(bin) - 1),
		     "n.RHS:3: unexpected NUL byte");
	f->cfg.limits.max_line = 64;
	memset(big, '1', sizeof(big));
	memcpy(big, "a|b\n", 4);
	big[sizeof(big) - 1] = '\0';
	expect_error_prefix(f, feed(f, &pv_reader_rhs, "l.RHS", big),
		     "l.RHS:2: line is longer than 64 bytes (limits.max_line)");
}

static void rhs_probe(void **state)
{
	const char *head = "### k : v\nCategory:TCP_STREAM\nsize|thr\n";

	(void)state;
	assert_int_equal(pv_reader_rhs.probe("a/netperf-result.RHS", "", 0),
			 90);
	assert_int_equal(pv_reader_rhs.probe("a/x.rhs", "", 0), 90);
	assert_int_equal(pv_reader_rhs.probe("a/x.txt", head, strlen(head)),
			 60);
	assert_int_equal(pv_reader_rhs.probe("x.txt", "#ver# 1\na|b\n", 12),
			 50);
	assert_int_equal(pv_reader_rhs.probe("x.txt", "a,b\n1,2\n", 8), 0);
	assert_int_equal(pv_reader_rhs.probe("x.RHSX", "", 0), 0);
	assert_ptr_equal(pv_reader_detect("r/netperf-result.RHS", head,
					  strlen(head)), &pv_reader_rhs);
}

/* ---------------------------------------------------------------- CSV */

static void csv_basic(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	f->suite.name = (char *)"kernbench";
	assert_int_equal(feed_file(f, &pv_reader_csv, "kernbench.csv"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 3);
	m = get(f, "build", "kernbench-1x", "elapsed");
	assert_string_equal(m->unit, "s");
	assert_string_equal(m->key.suite, "kernbench");
	assert_int_equal(m->n[PV_BASE], 2);
	assert_near(m->v[PV_BASE][0], 512.30, 0);
	assert_near(m->v[PV_BASE][1], 509.85, 0);
	m = get(f, "build", "kernbench-2x", "elapsed");
	assert_int_equal(m->n[PV_BASE], 2);
	assert_near(m->v[PV_BASE][1], 1051.2, 0);
	/* quoted with doubled quotes, and unquoted with bare quotes */
	m = get(f, "java", "specjbb \"2005\" 1x", "bops");
	assert_int_equal(m->n[PV_BASE], 2);
	assert_near(m->v[PV_BASE][0], 31250, 0);
	assert_near(m->v[PV_BASE][1], 30990, 0);
	assert_string_equal(m->unit, "bops");
	assert_int_equal(f->diag.n, 0);
}

static void csv_quoting(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	assert_int_equal(feed(f, &pv_reader_csv, "q.csv",
			      "benchmark,metric,value\r\n"
			      "\"a,b\",\"t \"\"wall\"\"\",1.5\r\n"
			      "\"multi\r\nline\", \"x\" ,\"2\"\r\n"
			      "  spaced  ,  y  ,  3  \r\n"
			      "\"\",z,4\n"), -1);
	/* the empty quoted benchmark is on line 6 */
	expect_error_prefix(f, -1, "q.csv:6:2: empty 'benchmark' field");
	pv_table_finish(&f->t);
	m = get(f, "", "a,b", "t \"wall\"");
	assert_near(m->v[PV_BASE][0], 1.5, 0);
	m = get(f, "", "multi\r\nline", "x");
	assert_near(m->v[PV_BASE][0], 2, 0);
	m = get(f, "", "spaced", "y");
	assert_near(m->v[PV_BASE][0], 3, 0);
}

static void csv_defaults(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	assert_int_equal(feed(f, &pv_reader_csv, "d.csv",
			      "benchmark,value\n"
			      "sort,1e+05\n"
			      "sort,2.5E-1\n"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 1);
	m = get(f, "", "sort", "value");
	assert_string_equal(m->unit, "");
	assert_int_equal(m->n[PV_BASE], 2);
	assert_near(m->v[PV_BASE][0], 1e5, 0);
	assert_near(m->v[PV_BASE][1], 0.25, 0);
}

/*
 * The usual record (no quote, blank or CR: read eight bytes at a time)
 * and the others (read byte by byte) give the same cells: fields that
 * cross words, a record of 20 fields (the field array grows), a record
 * of one blank before its end (the other path, trimmed), a last record
 * with no newline, and a bad number's line and column on the fast path.
 */
static void csv_word_path(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;
	char wide[256];

	/* 16 ignored columns before the three */
	snprintf(wide, sizeof(wide),
		 "c1,c2,c3,c4,c5,c6,c7,c8,c9,c10,c11,c12,c13,c14,c15,c16,"
		 "benchmark,metric,value\n"
		 "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,wide,m,42.25\n");
	assert_int_equal(feed(f, &pv_reader_csv, "w.csv", wide), 0);
	assert_int_equal(feed(f, &pv_reader_csv, "p.csv",
			      "benchmark,metric,value\n"
			      "a,m,1\n"
			      "abcdefghijklmnopq,metric-that-crosses,12345.678\n"
			      "a,m,2 \n"
			      "abcdefghijklmnopq,metric-that-crosses,-0.5e3"), 0);
	pv_table_finish(&f->t);
	assert_near(get(f, "", "wide", "m")->v[PV_BASE][0], 42.25, 0);
	m = get(f, "", "a", "m");
	assert_int_equal(m->n[PV_BASE], 2);
	assert_near(m->v[PV_BASE][0], 1, 0);
	assert_near(m->v[PV_BASE][1], 2, 0);
	m = get(f, "", "abcdefghijklmnopq", "metric-that-crosses");
	assert_int_equal(m->n[PV_BASE], 2);
	assert_near(m->v[PV_BASE][0], 12345.678, 0);
	assert_near(m->v[PV_BASE][1], -500, 0);
	expect_error_prefix(f, feed(f, &pv_reader_csv, "e.csv",
				    "benchmark,metric,value\n"
				    "bench-one,m,1.5\n"
				    "bench-two,m,1.5x\n"),
			    "e.csv:3:13: cannot parse '1.5x' as a number");
}

/* Columns in any order, extra columns ignored, rows in any order. */
static void csv_reordered(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	assert_int_equal(feed(f, &pv_reader_csv, "r1.csv",
			      "value, host ,metric,benchmark,group,unit\n"
			      "10,h1,ops,b1,g,op/s\n"
			      "20,h1,ops,b2,g,op/s\n"
			      "30,h1,,b2,g,op/s\n"), 0);
	assert_int_equal(feed(f, &pv_reader_csv, "r2.csv",
			      "unit,group,benchmark,metric,value\n"
			      "op/s,g,b2,ops,21\n"
			      "op/s,g,b1,ops,11\n"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 3);
	m = get(f, "g", "b1", "ops");
	assert_int_equal(m->n[PV_BASE], 2);
	assert_near(m->v[PV_BASE][0], 10, 0);
	assert_near(m->v[PV_BASE][1], 11, 0);
	assert_string_equal(m->unit, "op/s");
	m = get(f, "g", "b2", "ops");
	assert_near(m->v[PV_BASE][0], 20, 0);
	assert_near(m->v[PV_BASE][1], 21, 0);
	/* an empty metric cell is the default metric */
	assert_near(get(f, "g", "b2", "value")->v[PV_BASE][0], 30, 0);
}

static void csv_missing_column(void **state)
{
	struct fx *f = *state;

	expect_error_prefix(f, feed(f, &pv_reader_csv, "m.csv",
			     "\n\ngroup,metric,value\ng,m,1\n"),
		     "m.csv:3: missing required column 'benchmark' in the "
		     "header");
	expect_error_prefix(f, feed(f, &pv_reader_csv, "m.csv",
			     "benchmark,Value\nb,1\n"),
		     "m.csv:1: missing required column 'value' in the header");
	expect_error_prefix(f, feed(f, &pv_reader_csv, "m.csv",
			     "benchmark,value,metric,value\nb,1,m,2\n"),
		     "m.csv:1:24: column 'value' appears twice in the header "
		     "(fields 2 and 4)");
}

/* The summary form: mean, sd (or stddev, stdev) and n instead of value,
 * one summary per record; "value" wins when a header has both. */
static void csv_summary(void **state)
{
	struct fx *f = *state;
	const struct pv_metric *m;

	assert_int_equal(feed(f, &pv_reader_csv, "s.csv",
			      "group,benchmark,metric,unit,mean,stdev,n,%improve\n"
			      "kernbench,1x,elapsed,s,49.23,1.0171,3,21.7\n"
			      "ebizzy,1x,records,records/s,2230.8,51.34,5,0.5\n"),
			 0);
	pv_table_finish(&f->t);
	assert_int_equal(f->t.n, 2);
	m = get(f, "kernbench", "1x", "elapsed");
	assert_string_equal(m->unit, "s");
	assert_non_null(m->sum[PV_BASE]);
	assert_int_equal(m->sum[PV_BASE]->only, 1);
	assert_int_equal(m->sum[PV_BASE]->n, 3);
	assert_true(m->sum[PV_BASE]->mean == 49.23);
	assert_true(m->sum[PV_BASE]->sd == 1.0171);
	m = get(f, "ebizzy", "1x", "records");
	assert_int_equal(m->sum[PV_BASE]->n, 5);
	assert_int_equal(f->diag.n, 0);
}

static void csv_summary_errors(void **state)
{
	struct fx *f = *state;

	expect_error_prefix(f, feed(f, &pv_reader_csv, "e.csv",
			     "benchmark,mean,sd\nx,1,0.1\n"),
		     "e.csv:1: missing required column 'n' in the header: a "
		     "summary needs 'mean', 'sd' (or 'stddev') and 'n'");
	expect_error_prefix(f, feed(f, &pv_reader_csv, "e.csv",
			     "benchmark,mean,n\nx,1,3\n"),
		     "e.csv:1: missing required column 'sd' in the header");
	expect_error_prefix(f, feed(f, &pv_reader_csv, "e.csv",
			     "benchmark,mean,sd,stddev,n\nx,1,1,1,3\n"),
		     "e.csv:1:19: column 'stddev' appears twice in the header "
		     "(fields 3 and 4)");
	expect_error_prefix(f, feed(f, &pv_reader_csv, "e.csv",
			     "benchmark,mean,sd,n\nx,1,-1,3\n"),
		     "e.csv:2:5: sd is negative");
	expect_error_prefix(f, feed(f, &pv_reader_csv, "e.csv",
			     "benchmark,mean,sd,n\nx,1,1,0\n"),
		     "e.csv:2:7: n is '0': expected the number of runs, a "
		     "whole number >= 1");
	expect_error_prefix(f, feed(f, &pv_reader_csv, "e.csv",
			     "benchmark,mean,sd,n\nx,1,1,1e10\n"),
		     "e.csv:2:7: n is '1e10'");
	expect_error_prefix(f, feed(f, &pv_reader_csv, "e.csv",
			     "benchmark,mean,sd,n\nx,1,x,3\n"),
		     "e.csv:2:5: cannot parse 'x' as a number in column 'sd'");
	expect_error_prefix(f, feed(f, &pv_reader_csv, "t.csv",
			     "benchmark,mean,sd,n\ny,1,1,3\ny,2,1,3\n"),
		     "t.csv: metric 'value' of 'y' is summarised twice in this "
		     "file");
}

static void csv_bad_number(void **state)
{
	struct fx *f = *state;

	expect_error_prefix(f, feed(f, &pv_reader_csv, "n.csv",
			     "benchmark,value\n"
			     "a,1\n"
			     "b,  x1.5\n"),
		     "n.csv:3:5: cannot parse 'x1.5' as a number in column "
		     "'value' (not a decimal number)");
	expect_error_prefix(f, feed(f, &pv_reader_csv, "n.csv",
			     "benchmark,value\n"
			     "\"two\nlines\",\"nan\"\n"),
		     "n.csv:3:9: cannot parse 'nan' as a number");
	expect_error_prefix(f, feed(f, &pv_reader_csv, "n.csv",
			     "benchmark,value\nb,\n"),
		     "n.csv:2:3: cannot parse '' as a number in column "
		     "'value' (an empty cell)");
	expect_error_prefix(f, feed(f, &pv_reader_csv, "n.csv",
			     "benchmark,value\nb,\"1,5\"\n"),
		     "n.csv:2:4: cannot parse '1,5' as a number");
	expect_error_prefix(f, feed(f, &pv_reader_csv, "n.csv",
			     "benchmark,value\nb,1e309\n"),
		     "n.csv:2:3: cannot parse '1e309' as a number in column "
		     "'value' (not a finite number)");
}

static void csv_unit_mismatch(void **state)
{
	struct fx *f = *state;

	expect_error_prefix(f, feed(f, &pv_reader_csv, "u.csv",
			     "benchmark,metric,unit,value\n"
			     "b,time,s,1\n"
			     "b,other,ms,1\n"
			     "b,time,ms,1000\n"),
		     "u.csv:4:8: unit 'ms' of metric 'time' differs from 's' "
		     "at line 2");
	/* The map of units is built only when a unit first differs, from
	 * the records before: the line each key was first given is the
	 * same past blank lines and quoted line breaks, and the record that
	 * differs may itself be the one in conflict. */
	expect_error_prefix(f, feed(f, &pv_reader_csv, "u.csv",
			     "benchmark,metric,unit,value\n"
			     "\n"
			     "b,time,s,1\n"
			     "\"c\nd\",time,s,2\n"
			     "b,time,s,3\n"
			     "b,other,ms,1\n"
			     "\"c\nd\",time,ms,5\n"),
		     "u.csv:9:9: unit 'ms' of metric 'time' differs from 's' "
		     "at line 4");
	expect_error_prefix(f, feed(f, &pv_reader_csv, "u.csv",
			     "benchmark,metric,unit,value\n"
			     "b,time,s,1\n"
			     "a,time,s,1\n"
			     "b,time,ms,2\n"),
		     "u.csv:4:8: unit 'ms' of metric 'time' differs from 's' "
		     "at line 2");
}

static void csv_field_count(void **state)
{
	struct fx *f = *state;

	expect_error_prefix(f, feed(f, &pv_reader_csv, "c.csv",
			     "benchmark,value\nb,1\nb,2,3\n"),
		     "c.csv:3: record has 3 fields but the header has 2");
	expect_error_prefix(f, feed(f, &pv_reader_csv, "c.csv",
			     "benchmark,metric,value\nb,1\n"),
		     "c.csv:2: record has 2 fields but the header has 3");
}

static void csv_bad_quotes(void **state)
{
	struct fx *f = *state;

	expect_error_prefix(f, feed(f, &pv_reader_csv, "q.csv",
			     "benchmark,value\nb,1\n  \"open,2\n"),
		     "q.csv:3:3: unterminated quoted field");
	expect_error_prefix(f, feed(f, &pv_reader_csv, "q.csv",
			     "benchmark,value\n\"b\"x,1\n"),
		     "q.csv:2:4: unexpected 'x' after a closing quote");
}

static void csv_blank_bom(void **state)
{
	struct fx *f = *state;

	assert_int_equal(feed(f, &pv_reader_csv, "b.csv",
			      "\xEF\xBB\xBF\r\n"
			      "benchmark,value\r\n"
			      "\r\n"
			      "   \r\n"
			      "b,1\r\n"
			      "\n"
			      "b,2"), 0);
	pv_table_finish(&f->t);
	assert_int_equal(get(f, "", "b", "value")->n[PV_BASE], 2);
	assert_near(get(f, "", "b", "value")->v[PV_BASE][1], 2, 0);
	expect_error_prefix(f, feed(f, &pv_reader_csv, "b.csv",
			     "\xEF\xBB\xBF" "benchmark,value\nb,?\n"),
		     "b.csv:2:3: cannot parse '?'");
	assert_int_equal(feed(f, &pv_reader_csv, "e.csv", "\n\n"), 0);
	assert_true(diag_count(f, "e.csv: empty file: no header"));
}

static void csv_probe(void **state)
{
	const char *good = "\"group\",benchmark , value\r\nx,y,1\r\n";
	const char *bad = "name,time\n";

	(void)state;
	assert_int_equal(pv_reader_csv.probe("a/k.csv", good, strlen(good)),
			 90);
	assert_int_equal(pv_reader_csv.probe("a/k.CSV", good, strlen(good)),
			 90);
	/* A .csv that does not name the columns is not claimed: criterion's
	 * raw.csv, a stray notes.csv. */
	assert_int_equal(pv_reader_csv.probe("a/k.csv", bad, strlen(bad)), 0);
	assert_int_equal(pv_reader_csv.probe("a/k.txt", good, strlen(good)),
			 40);
	assert_int_equal(pv_reader_csv.probe("a/k.txt", bad, strlen(bad)), 0);
	assert_int_equal(pv_reader_csv.probe("a/k.csv", "benchmarks,value\n",
					     17), 0);
	/* The summary form: mean, sd (or stddev, stdev) and n. */
	assert_int_equal(pv_reader_csv.probe("a/k.csv",
					     "benchmark,mean,sd,n\n", 20), 90);
	assert_int_equal(pv_reader_csv.probe("a/k.txt",
					     "benchmark,mean,stddev,n\n", 24),
			 40);
	assert_int_equal(pv_reader_csv.probe("a/k.csv",
					     "benchmark,mean,n\n", 17), 0);
	assert_ptr_equal(pv_reader_detect("a/k.csv", good, strlen(good)),
			 &pv_reader_csv);
	assert_ptr_equal(pv_reader_by_name("csv"), &pv_reader_csv);
	assert_ptr_equal(pv_reader_by_name("rhs"), &pv_reader_rhs);
}

/* Times convert among themselves, rates among their spellings and
 * sizes, and never a time into a rate. */
static void unit_convert(void **state)
{
	double v;

	(void)state;
	v = 950;
	assert_int_equal(pv_unit_convert("us", "ms", &v), 0);
	assert_true(v == 0.95);
	v = 2;
	assert_int_equal(pv_unit_convert("s", "ms", &v), 0);
	assert_true(v == 2000);
	v = 1234.5;
	assert_int_equal(pv_unit_convert("ops/sec", "op/s", &v), 0);
	assert_true(v == 1234.5);
	v = 3;
	assert_int_equal(pv_unit_convert("ops/ms", "ops/s", &v), 0);
	assert_true(v == 3000);
	v = 7;
	assert_int_equal(pv_unit_convert("ms", "ops/s", &v), -1);
	assert_int_equal(pv_unit_convert("ops/sec", "MB/s", &v), -1);
	assert_true(v == 7);
	assert_int_equal(pv_unit_convert("", "ops/s", &v), 0);
	assert_true(v == 7);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(rhs_2012_netperf, setup, teardown),
		cmocka_unit_test_setup_teardown(rhs_2011_ver_desc, setup, teardown),
		cmocka_unit_test_setup_teardown(rhs_bare_protocol, setup, teardown),
		cmocka_unit_test_setup_teardown(rhs_category_rx, setup, teardown),
		cmocka_unit_test_setup_teardown(rhs_crlf_bom_blank, setup, teardown),
		cmocka_unit_test_setup_teardown(rhs_bom_column, setup, teardown),
		cmocka_unit_test_setup_teardown(rhs_numbers, setup, teardown),
		cmocka_unit_test_setup_teardown(rhs_none_keys, setup, teardown),
		cmocka_unit_test_setup_teardown(rhs_no_group, setup, teardown),
		cmocka_unit_test_setup_teardown(rhs_ignore_col_zero, setup, teardown),
		cmocka_unit_test_setup_teardown(rhs_rows_by_key, setup, teardown),
		cmocka_unit_test_setup_teardown(rhs_bad_numbers, setup, teardown),
		cmocka_unit_test_setup_teardown(rhs_mismatched_columns, setup, teardown),
		cmocka_unit_test_setup_teardown(rhs_avg_update_range, setup, teardown),
		cmocka_unit_test_setup_teardown(rhs_columns_reordered, setup,
						teardown),
		cmocka_unit_test_setup_teardown(rhs_duplicate_key, setup, teardown),
		cmocka_unit_test_setup_teardown(rhs_ignore_col_too_large, setup, teardown),
		cmocka_unit_test_setup_teardown(rhs_bad_header, setup, teardown),
		cmocka_unit_test_setup_teardown(rhs_trailing_bar, setup, teardown),
		cmocka_unit_test_setup_teardown(rhs_comments_and_orphans, setup, teardown),
		cmocka_unit_test_setup_teardown(rhs_no_table, setup, teardown),
		cmocka_unit_test_setup_teardown(rhs_binary_and_limits, setup, teardown),
		cmocka_unit_test(rhs_probe),
		cmocka_unit_test_setup_teardown(csv_basic, setup, teardown),
		cmocka_unit_test_setup_teardown(csv_quoting, setup, teardown),
		cmocka_unit_test_setup_teardown(csv_defaults, setup, teardown),
		cmocka_unit_test_setup_teardown(csv_word_path, setup, teardown),
		cmocka_unit_test_setup_teardown(csv_reordered, setup, teardown),
		cmocka_unit_test_setup_teardown(csv_missing_column, setup, teardown),
		cmocka_unit_test_setup_teardown(csv_bad_number, setup, teardown),
		cmocka_unit_test_setup_teardown(csv_summary, setup, teardown),
		cmocka_unit_test_setup_teardown(csv_summary_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(csv_unit_mismatch, setup, teardown),
		cmocka_unit_test_setup_teardown(csv_field_count, setup, teardown),
		cmocka_unit_test_setup_teardown(csv_bad_quotes, setup, teardown),
		cmocka_unit_test_setup_teardown(csv_blank_bom, setup, teardown),
		cmocka_unit_test(csv_probe),
		cmocka_unit_test(unit_convert),
	};

	(void)argc;
	if (fx_find_data(argv[0], "PV_TEST_DATA"))
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
