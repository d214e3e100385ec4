/*
 * test_hostile.c - the defences against hostile input that live below
 * the command line: messages that stay one printable line, reports
 * committed all or none, test ids, and the limits on config regexes.
 * (tests/bad/run.sh checks the same end to end.)
 */
#include "unit.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "util/diag.h"
#include "scan.h"
#include "util/atomic.h"
#include "util/err.h"
#include "util/text.h"

static char dir[] = "/tmp/pv-hostile-XXXXXX";

static void path_in(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", dir, name);
}

static void write_n(const char *path, const char *text, size_t len)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
}

static void write_file(const char *path, const char *text)
{
	write_n(path, text, strlen(text));
}

static char *read_file(const char *path)
{
	static char buf[4096];
	FILE *fp = fopen(path, "r");
	size_t n;

	if (!fp)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

static void escape_keeps_one_line(void **state)
{
	char out[64];
	size_t n;

	(void)state;
	n = pv_text_escape_buf(out, sizeof(out), "a\nb\x1b[1m\xff\xc3\xa9", 10);
	assert_string_equal(out, "a\\x0ab\\x1b[1m\\xff\xc3\xa9");
	assert_int_equal(n, strlen(out));
	/* Escaping twice changes nothing. */
	{
		char again[64];

		pv_text_escape_buf(again, sizeof(again), out, strlen(out));
		assert_string_equal(again, out);
	}
	/* A cut never splits an escape or a character. */
	n = pv_text_escape_buf(out, 7, "ab\x01\x02", 4);
	assert_string_equal(out, "ab\\x01");
	n = pv_text_escape_buf(out, 4, "ab\xc3\xa9", 4);
	assert_string_equal(out, "ab");
	/* C1 controls (U+0085) are escaped too. */
	pv_text_escape_buf(out, sizeof(out), "\xc2\x85", 2);
	assert_string_equal(out, "\\xc2\\x85");
}

static void errors_and_warnings_are_printable(void **state)
{
	struct pv_err err = { 0 };
	struct pv_diag d = PV_DIAG_INIT;

	(void)state;
	pv_error(&err, PV_M_BAD_NUMBER, "cannot parse '%s'", "x\ny\x1b]0;t\x07");
	assert_string_equal(err.msg, "cannot parse 'x\\x0ay\\x1b]0;t\\x07'");
	assert_int_equal(err.status, PV_EINPUT);
	assert_int_equal(err.id, PV_M_BAD_NUMBER);
	pv_error_at(&err, PV_M_BAD_VALUE, "f\x1b.conf", 3, "bad '%s'", "\r");
	assert_string_equal(err.msg, "f\\x1b.conf:3: bad '\\x0d'");
	assert_int_equal(err.status, PV_EUSAGE);
	assert_int_equal(err.id, PV_M_BAD_VALUE);
	pv_diag_add(&d, PV_M_NO_NAME, "name '%s'", "a\tb\xfe");
	assert_string_equal(d.msg[0], "name 'a\\x09b\\xfe'");
	pv_diag_release(&d);
}

/* What pv_diag_print() writes for d, max lines (a malloc'd string). */
static char *printed(const struct pv_diag *d, size_t max)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	pv_diag_print(d, fp, "w: ", max);
	fclose(fp);
	return buf;
}

/* stderr shows one line per code of the warnings about files, the
 * first with a count of the rest, and each line ends in its code; the
 * list itself keeps every warning (the JSON report's warnings[]). */
static void warnings_collapse_by_code(void **state)
{
	struct pv_diag d = PV_DIAG_INIT;
	char path[32], *out;

	(void)state;
	for (int i = 0; i < 10; i++) {
		snprintf(path, sizeof(path), "r%d/x.RHS", i);
		pv_diag_add_subj(&d, PV_M_EMPTY_FILE, path, "%s: empty", path);
		if (i == 4)
			pv_diag_add(&d, PV_M_EMPTY_FILE, "one of its own");
	}
	pv_diag_add_subj(&d, PV_M_NO_ROWS, "a", "odd %d", 1);
	pv_diag_add_subj(&d, PV_M_NO_ROWS, "a", "other wording %d", 2);
	assert_int_equal(d.n, 13);
	assert_string_equal(d.code[0], "empty-file");
	assert_string_equal(d.code[12], "no-rows");
	out = printed(&d, 0);
	assert_string_equal(out,
		"w: warning: r0/x.RHS: empty (and 9 more files like it) [empty-file]\n"
		"w: warning: one of its own [empty-file]\n"
		"w: warning: odd 1 (and 1 more like it) [no-rows]\n");
	free(out);
	/* At most two lines: the second tallies what is not shown. */
	out = printed(&d, 2);
	assert_string_equal(out,
		"w: warning: r0/x.RHS: empty (and 9 more files like it) [empty-file]\n"
		"w: warning: 3 more warnings not shown (the JSON report lists every one)\n");
	free(out);
	/* Three lines are enough for all three codes. */
	out = printed(&d, 3);
	assert_non_null(strstr(out, "w: warning: odd 1 (and 1 more like it) [no-rows]\n"));
	free(out);
	pv_diag_release(&d);
	out = printed(&d, 0);
	assert_string_equal(out, "");
	free(out);
	/* A note says so, a warning too. */
	pv_diag_add(&d, PV_M_POOLED_BASELINE, "pooled from 3 points");
	pv_diag_add(&d, PV_M_NO_DIRECTION, "guessed");
	out = printed(&d, 0);
	assert_string_equal(out, "w: note: pooled from 3 points [pooled-baseline]\n"
			    "w: warning: guessed [no-direction]\n");
	free(out);
	pv_diag_release(&d);
}

/* A report that cannot be written leaves every other report as it was. */
static void reports_all_or_none(void **state)
{
	struct pv_atomic a[3];
	struct pv_err err = { 0 };
	char p1[256], p2[256], p3[256];

	(void)state;
	path_in(p1, sizeof(p1), "r.json");
	path_in(p2, sizeof(p2), "r.xml");
	path_in(p3, sizeof(p3), "full");
	write_file(p1, "old json");
	write_file(p2, "old xml");
	unlink(p3);
	if (symlink("/dev/full", p3)) {
		skip();
		return;
	}
	memset(a, 0, sizeof(a));
	assert_int_equal(pv_atomic_open(&a[0], p1, &err), 0);
	assert_int_equal(pv_atomic_open(&a[1], p2, &err), 0);
	assert_int_equal(pv_atomic_open(&a[2], p3, &err), 0);
	fputs("new json", a[0].fp);
	fputs("new xml", a[1].fp);
	fputs("new markdown", a[2].fp);
	assert_int_equal(pv_atomic_commit_all(a, 3, &err), -1);
	assert_non_null(strstr(err.msg, "No space left on device"));
	assert_string_equal(read_file(p1), "old json");
	assert_string_equal(read_file(p2), "old xml");
	{
		struct stat st;

		/* Neither the link nor /dev/full was replaced. */
		assert_int_equal(lstat(p3, &st), 0);
		assert_true(S_ISLNK(st.st_mode));
		assert_int_equal(stat("/dev/full", &st), 0);
		assert_true(S_ISCHR(st.st_mode));
	}
	unlink(p3);

	/* And with nothing in the way, all of them. */
	memset(a, 0, sizeof(a));
	assert_int_equal(pv_atomic_open(&a[0], p1, &err), 0);
	assert_int_equal(pv_atomic_open(&a[2], p2, &err), 0);
	fputs("new json", a[0].fp);
	fputs("new xml", a[2].fp);
	assert_int_equal(pv_atomic_commit_all(a, 3, &err), 0);
	assert_string_equal(read_file(p1), "new json");
	assert_string_equal(read_file(p2), "new xml");
	unlink(p1);
	unlink(p2);
}

/* Dot files left in the test directory: temporary or kept copies. */
static int dot_files(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (e->d_name[0] == '.' && strcmp(e->d_name, ".") &&
		    strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* Open p[0..3) as one set of reports and write each its new text. */
static void open_three(struct pv_atomic *a, char p[3][256])
{
	static const char *const text[3] = { "new json", "new xml", "new md" };
	struct pv_err err = { 0 };

	memset(a, 0, 3 * sizeof(*a));
	for (int i = 0; i < 3; i++) {
		assert_int_equal(pv_atomic_open(&a[i], p[i], &err), 0);
		fputs(text[i], a[i].fp);
	}
}

/* Commit a set whose last target has become a non-empty directory. */
static void commit_into_directory(struct pv_atomic *a, const char *last)
{
	struct pv_err err = { 0 };
	char inner[300];

	assert_int_equal(mkdir(last, 0755), 0);
	snprintf(inner, sizeof(inner), "%s/x", last);
	write_file(inner, "x");
	assert_int_equal(pv_atomic_commit_all(a, 3, &err), -1);
	assert_non_null(strstr(err.msg, "three.md"));
	unlink(inner);
	rmdir(last);
}

/*
 * A rename that fails after another succeeded (a directory appeared
 * where a report goes): the renamed report is put back, a report that
 * did not exist before is removed, and no temporary file is left.
 */
static void failed_rename_puts_back(void **state)
{
	struct pv_atomic a[3];
	struct pv_err err = { 0 };
	char p[3][256];

	(void)state;
	path_in(p[0], sizeof(p[0]), "one.json");
	path_in(p[1], sizeof(p[1]), "two.xml");
	path_in(p[2], sizeof(p[2]), "three.md");
	/* An old first report comes back, a new second one goes. */
	write_file(p[0], "old json");
	unlink(p[1]);
	unlink(p[2]);
	open_three(a, p);
	commit_into_directory(a, p[2]);
	assert_string_equal(read_file(p[0]), "old json");
	assert_int_equal(access(p[1], F_OK), -1);
	assert_int_equal(dot_files(), 0);

	/* The same with the first target new and the second existing. */
	unlink(p[0]);
	write_file(p[1], "old xml");
	open_three(a, p);
	commit_into_directory(a, p[2]);
	assert_int_equal(access(p[0], F_OK), -1);
	assert_string_equal(read_file(p[1]), "old xml");
	assert_int_equal(dot_files(), 0);

	/* And with nothing in the way: all three, no copies left. */
	open_three(a, p);
	assert_int_equal(pv_atomic_commit_all(a, 3, &err), 0);
	assert_string_equal(read_file(p[0]), "new json");
	assert_string_equal(read_file(p[1]), "new xml");
	assert_string_equal(read_file(p[2]), "new md");
	assert_int_equal(dot_files(), 0);
	for (int i = 0; i < 3; i++)
		unlink(p[i]);
}

static void report_path_errors(void **state)
{
	struct pv_atomic a;
	struct pv_err err = { 0 };
	char p[256];

	(void)state;
	assert_int_equal(pv_atomic_open(&a, "", &err), -1);
	assert_int_equal(err.status, PV_EUSAGE);
	assert_int_equal(pv_atomic_open(&a, dir, &err), -1);
	assert_non_null(strstr(err.msg, "it is a directory"));
	path_in(p, sizeof(p), "missing/r.json");
	assert_int_equal(pv_atomic_open(&a, p, &err), -1);
	assert_non_null(strstr(err.msg, "No such file or directory"));
}

static void test_ids(void **state)
{
	static const struct { const char *path, *id; } cases[] = {
		{ "repeat1/r.RHS", "r.RHS" },
		{ "a/repeat12/r.RHS", "a/r.RHS" },
		{ "kvm.repeat1.smp2/r.RHS", "kvm.smp2/r.RHS" },
		{ "kvm.repeat1/r.RHS", "kvm/r.RHS" },
		{ "run_repeat3", "run" },
		{ "norepeat/r.RHS", "norepeat/r.RHS" },
	};
	regex_t re;

	(void)state;
	assert_int_equal(regcomp(&re, "repeat[0-9]+", REG_EXTENDED), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *id = pv_test_id(cases[i].path, &re);

		assert_string_equal(id, cases[i].id);
		free(id);
	}
	regfree(&re);
}

static int load_n(const char *text, size_t len, struct pv_err *err)
{
	struct pv_config c;
	char p[256];
	int rc;

	path_in(p, sizeof(p), "perf.conf");
	write_n(p, text, len);
	rc = pv_config_load(&c, p, err);
	if (!rc)
		pv_config_release(&c);
	unlink(p);
	return rc;
}

static int load(const char *text, struct pv_err *err)
{
	return load_n(text, strlen(text), err);
}

/* glibc's regcomp() takes minutes and gigabytes on these. */
static void regex_limits(void **state)
{
	struct pv_err err = { 0 };

	(void)state;
	assert_int_equal(load("[s]\nresult_file_pattern = netperf-result\\.RHS$\n"
			      "repeat_pattern = (run|repeat)[0-9]{1,4}\n", &err), 0);
	assert_int_equal(load("[s]\nresult_file_pattern = [[:alpha:]]{3}[]x]+\n", &err), 0);
	assert_int_equal(load("[s]\nresult_file_pattern = x++++++++++++++++++++++++++++++++++++++++++\n",
			      &err), -1);
	assert_non_null(strstr(err.msg, "a repetition (+, *, ? or {m,n}) follows another"));
	/* Nested, not stacked: regcomp's time grows with the cube of
	 * this (8 s at {1000}), so the bound is on the expansion. */
	assert_int_equal(load("[s]\nresult_file_pattern = ((a*)+){300}\n", &err), -1);
	assert_non_null(strstr(err.msg, "too complex"));
	assert_int_equal(load("[s]\nresult_file_pattern = ((a*)+){200}\n", &err), 0);
	assert_int_equal(load("[s]\nresult_file_pattern = x\nrepeat_pattern = ((a{99}){99}){99}\n",
			      &err), -1);
	assert_non_null(strstr(err.msg, "perf.conf:3: bad repeat_pattern"));
	/* Stacked before a syntax error: regcomp builds the copies first. */
	assert_int_equal(load("[s]\nresult_file_pattern = x++++++++++++++++++++++++++++++++++++++++++[ab\n",
			      &err), -1);
	assert_non_null(strstr(err.msg, "follows another"));
	assert_int_equal(load("[s]\nresult_file_pattern = (a*)*\\1\n", &err), -1);
	assert_non_null(strstr(err.msg, "back-references"));
	assert_int_equal(err.status, PV_EUSAGE);
}

static void config_file_kinds(void **state)
{
	struct pv_config c;
	struct pv_err err = { 0 };
	char p[256];

	(void)state;
	assert_int_equal(pv_config_load(&c, dir, &err), -1);
	assert_non_null(strstr(err.msg, "it is a directory"));
	path_in(p, sizeof(p), "fifo.conf");
	unlink(p);
	if (mkfifo(p, 0600) == 0) {
		/* Would block forever in fopen(). */
		assert_int_equal(pv_config_load(&c, p, &err), -1);
		assert_non_null(strstr(err.msg, "not a regular file"));
		unlink(p);
	}
	{
		static const char nul[] = "[gate]\nalpha = 0.1\n\x01\0junk\n";

		assert_int_equal(load_n(nul, sizeof(nul) - 1, &err), -1);
	}
	assert_non_null(strstr(err.msg, ":3: unexpected NUL byte"));
	assert_int_equal(load("\xef\xbb\xbf[gate]\r\nalpha = 0.1\r\n", &err), 0);
	assert_int_equal(load("[]\n", &err), -1);
	assert_int_equal(load("[gate\nalpha = 0.1\n", &err), -1);
	assert_non_null(strstr(err.msg, ":1: cannot parse this line"));
}

/* ------------------------------------------------ the loader's checks */

/* One file of a side tree: "b/old.txt" under dir. */
struct tfile {
	const char *path, *text;
};

static const char go3[] = "goos: linux\nBenchmarkX-8 10 5 ns/op\n"
	"BenchmarkX-8 10 6 ns/op\nBenchmarkX-8 10 7 ns/op\n";
static const char gb[] = "{\"context\": {\"num_cpus\": 2}, \"benchmarks\": "
	"[{\"name\": \"BM_A\", \"run_type\": \"iteration\", "
	"\"real_time\": 5, \"cpu_time\": 4, \"time_unit\": \"ns\"}]}";

struct loaded {
	struct pv_table t;
	struct pv_diag diag;
	struct pv_err err;
	int rc;
};

/*
 * Write the files, scan dir/b and dir/c (or the files base and cand
 * when given), load both sides in auto mode, and remove the files.
 */
static void load_trees(struct loaded *l, const struct tfile *f, size_t n,
		       int warn, const char *base, const char *cand)
{
	struct pv_config cfg;
	struct pv_suite suite;
	struct pv_scan sc[2] = { { 0 }, { 0 } };
	char p[512], b[300], c[300];

	memset(l, 0, sizeof(*l));
	path_in(p, sizeof(p), "b");
	assert_int_equal(mkdir(p, 0700), 0);
	path_in(p, sizeof(p), "c");
	assert_int_equal(mkdir(p, 0700), 0);
	for (size_t i = 0; i < n; i++) {
		char *slash;

		path_in(p, sizeof(p), f[i].path);
		slash = strrchr(p, '/');
		*slash = '\0';
		mkdir(p, 0700);         /* a repeat directory */
		*slash = '/';
		write_file(p, f[i].text);
	}
	pv_config_defaults(&cfg);
	cfg.limits.empty_files_warn = warn;
	memset(&suite, 0, sizeof(suite));
	suite.name = (char *)"s";
	suite.ignore_col = 1;
	assert_int_equal(regcomp(&suite.repeat_re, "repeat[0-9]+",
				 REG_EXTENDED), 0);
	path_in(b, sizeof(b), base ? base : "b");
	path_in(c, sizeof(c), cand ? cand : "c");
	pv_table_init(&l->t, 0);
	l->rc = pv_scan_tree(b, &suite, &cfg.limits, &sc[0], &l->err) ||
		pv_scan_tree(c, &suite, &cfg.limits, &sc[1], &l->err) ||
		pv_load_side(&l->t, PV_BASE, &sc[0], &suite, NULL, &cfg,
			     &l->diag, &l->err) ||
		pv_load_side(&l->t, PV_CAND, &sc[1], &suite, NULL, &cfg,
			     &l->diag, &l->err) ? -1 : 0;
	pv_scan_release(&sc[0]);
	pv_scan_release(&sc[1]);
	regfree(&suite.repeat_re);
	for (size_t i = n; i-- > 0;) {
		char *slash;

		path_in(p, sizeof(p), f[i].path);
		assert_int_equal(unlink(p), 0);
		slash = strrchr(p, '/');
		*slash = '\0';
		rmdir(p);               /* a repeat directory, once empty */
	}
	path_in(p, sizeof(p), "b");
	rmdir(p);
	path_in(p, sizeof(p), "c");
	rmdir(p);
}

static void loaded_release(struct loaded *l)
{
	pv_table_release(&l->t);
	pv_diag_release(&l->diag);
}

/* Skip dir's prefix in a message: "<dir>/c/x" -> "c/x". */
static const char *rel(const char *msg)
{
	const char *p = strstr(msg, dir);

	assert_non_null(p);
	return p + strlen(dir) + 1;
}

static void load_pairs_one_file_per_side(void **state)
{
	static const struct tfile f[] = {
		{ "b/old.txt", go3 }, { "c/new.txt", go3 },
	};
	static const struct tfile mixed[] = {
		{ "b/old.txt", go3 }, { "c/new.json", gb },
	};
	struct loaded l;

	(void)state;
	load_trees(&l, f, 2, 0, NULL, NULL);
	assert_int_equal(l.rc, 0);
	assert_int_equal(l.t.n, 1);
	assert_string_equal(l.t.m[0].key.test, "old.txt");
	assert_int_equal(l.t.m[0].n[PV_BASE], 3);
	assert_int_equal(l.t.m[0].n[PV_CAND], 3);
	loaded_release(&l);
	/* compare FILE FILE */
	load_trees(&l, f, 2, 0, "b/old.txt", "c/new.txt");
	assert_int_equal(l.rc, 0);
	assert_int_equal(l.t.n, 1);
	assert_int_equal(l.t.m[0].n[PV_CAND], 3);
	loaded_release(&l);
	/* Not across formats. */
	load_trees(&l, mixed, 2, 0, NULL, NULL);
	assert_int_equal(l.rc, 0);
	assert_int_equal(l.t.n, 3);
	loaded_release(&l);
}

static void load_empty_and_unknown_files(void **state)
{
	static const struct tfile empty[] = {
		{ "b/bench.json", gb }, { "c/bench.json", "" },
	};
	static const struct tfile base_array[] = {
		{ "b/bench.json", "[1, 2]" }, { "c/bench.json", gb },
	};
	static const struct tfile crashed[] = {
		{ "b/repeat1/r.txt", go3 }, { "b/repeat2/r.txt", go3 },
		{ "c/repeat1/r.txt", go3 }, { "c/repeat2/r.txt", "goos: x\n" },
	};
	static const struct tfile none[] = {
		{ "b/bench.json", gb }, { "c/README", "no results\n" },
	};
	struct loaded l;

	(void)state;
	load_trees(&l, empty, 2, 0, NULL, NULL);
	assert_int_equal(l.rc, -1);
	assert_int_equal(l.err.status, PV_EINPUT);
	{
		static const char want[] = "c/bench.json: the file is empty: "
			"the file holds no results; expected gbench results, "
			"as in '";

		assert_int_equal(strncmp(rel(l.err.msg), want,
					 strlen(want)), 0);
		assert_non_null(strstr(l.err.msg, "/b/bench.json' ([limits] "
				       "empty_files = warn allows such files)"));
	}
	loaded_release(&l);

	load_trees(&l, base_array, 2, 0, NULL, NULL);
	assert_int_equal(l.rc, -1);
	assert_non_null(strstr(l.err.msg, "/b/bench.json: cannot read it as "
		"any format: a JSON array of 2 elements that no reader knows"));
	loaded_release(&l);

	/* A crashed repeat: an error, or with empty_files = warn a warning
	 * while the other repeat is still read. */
	load_trees(&l, crashed, 4, 0, NULL, NULL);
	assert_int_equal(l.rc, -1);
	assert_non_null(strstr(l.err.msg, "/c/repeat2/r.txt: no benchmark "
		"result lines: expected 'BenchmarkName <iterations> <value> "
		"<unit>...': the file holds no results ([limits] empty_files "
		"= warn allows such files)"));
	loaded_release(&l);
	load_trees(&l, crashed, 4, 1, NULL, NULL);
	assert_int_equal(l.rc, 0);
	assert_int_equal(l.diag.n, 1);
	assert_non_null(strstr(l.diag.msg[0], "/c/repeat2/r.txt: no benchmark "
		"result lines"));
	assert_int_equal(l.t.m[0].n[PV_CAND], 3);
	loaded_release(&l);

	load_trees(&l, none, 2, 0, NULL, NULL);
	assert_int_equal(l.rc, -1);
	assert_non_null(strstr(l.err.msg, "no result files found in candidate "
		"tree '"));
	assert_non_null(strstr(l.err.msg, "': none of its 1 files is of a "
		"known format (see 'perfverdict formats')"));
	loaded_release(&l);
}

static int setup_dir(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown_dir(void **state)
{
	(void)state;
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escape_keeps_one_line),
		cmocka_unit_test(errors_and_warnings_are_printable),
		cmocka_unit_test(warnings_collapse_by_code),
		cmocka_unit_test(reports_all_or_none),
		cmocka_unit_test(failed_rename_puts_back),
		cmocka_unit_test(report_path_errors),
		cmocka_unit_test(test_ids),
		cmocka_unit_test(load_pairs_one_file_per_side),
		cmocka_unit_test(load_empty_and_unknown_files),
		cmocka_unit_test(regex_limits),
		cmocka_unit_test(config_file_kinds),
	};

	return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
