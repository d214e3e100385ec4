/*
 * test_hostile.c - the defences against hostile input that live below
 * the command line: messages that stay one printable line, reports
 * committed all or none, test ids, and the limits on config regexes.
 * (tests/bad/run.sh checks the same end to end.)
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "diag.h"
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
	pv_error(&err, PV_EINPUT, "cannot parse '%s'", "x\ny\x1b]0;t\x07");
	assert_string_equal(err.msg, "cannot parse 'x\\x0ay\\x1b]0;t\\x07'");
	pv_error_at(&err, PV_EUSAGE, "f\x1b.conf", 3, "bad '%s'", "\r");
	assert_string_equal(err.msg, "f\\x1b.conf:3: bad '\\x0d'");
	pv_diag_add(&d, "name '%s'", "a\tb\xfe");
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

/* stderr shows one line per kind, the first with a count of the rest;
 * the list itself keeps every warning (the JSON report's warnings[]). */
static void warnings_collapse_by_kind(void **state)
{
	static const char empty[] = "%s: empty", odd[] = "odd %d";
	struct pv_diag d = PV_DIAG_INIT;
	char path[32], *out;

	(void)state;
	for (int i = 0; i < 10; i++) {
		snprintf(path, sizeof(path), "r%d/x.RHS", i);
		pv_diag_add_kind(&d, empty, path, empty, path);
		if (i == 4)
			pv_diag_add(&d, "one of its own");
	}
	pv_diag_add_kind(&d, odd, "a", odd, 1);
	pv_diag_add_kind(&d, odd, "a", odd, 2);
	assert_int_equal(d.n, 13);
	out = printed(&d, 0);
	assert_string_equal(out,
		"w: r0/x.RHS: empty (and 9 more files like it)\n"
		"w: one of its own\n"
		"w: odd 1 (and 1 more like it)\n");
	free(out);
	/* At most two lines: the second tallies what is not shown. */
	out = printed(&d, 2);
	assert_string_equal(out,
		"w: r0/x.RHS: empty (and 9 more files like it)\n"
		"w: 3 more warnings not shown (the JSON report lists every one)\n");
	free(out);
	/* Three lines are enough for all three kinds. */
	out = printed(&d, 3);
	assert_non_null(strstr(out, "w: odd 1 (and 1 more like it)\n"));
	free(out);
	pv_diag_release(&d);
	out = printed(&d, 0);
	assert_string_equal(out, "");
	free(out);
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
		cmocka_unit_test(warnings_collapse_by_kind),
		cmocka_unit_test(reports_all_or_none),
		cmocka_unit_test(report_path_errors),
		cmocka_unit_test(test_ids),
		cmocka_unit_test(regex_limits),
		cmocka_unit_test(config_file_kinds),
	};

	return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
