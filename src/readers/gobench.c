/*
 * gobench.c - the text of `go test -bench . [-count N] [-benchmem]`, in
 * the Go benchmark data format (golang.org/design/14313-benchmark-format).
 *
 * Result lines: "BenchmarkName-8  <iterations>  <value> <unit>...".
 * Every <value> <unit> pair is one sample of the metric named by the
 * unit ("ns/op", "B/op", "allocs/op", "MB/s", or a b.ReportMetric unit),
 * whose unit is the same string; repeated lines (-count) are repeated
 * samples.  The name is kept whole, "Benchmark" prefix and -GOMAXPROCS
 * suffix included, so that runs at different -cpu values stay apart.
 * group = the pkg configuration line in force ("" before any).
 *
 * Configuration lines ("key: value", key starting with a lower-case
 * letter and holding no space or upper-case letter) go to the side's
 * context.  "Unit <unit> better=higher|lower" lines set a unit's
 * direction for the whole file; without one, MB/s and any unit ending
 * in "/s" are higher-is-better, ns/op, sec/op, B/op and allocs/op lower,
 * and other units have no direction of their own.
 *
 * Everything else (PASS, FAIL, ok, --- lines, test logs) is ignored,
 * except that "--- FAIL: BenchmarkX" gives a warning.  A Benchmark line
 * whose second field is not an iteration count is a log line and is
 * ignored too; one that has an iteration count but a value that is not
 * a number, or a value without a unit, is an error at file:line:col.
 * The values NaN and +Inf (b.ReportMetric can print them) are skipped
 * with a warning.
 */
#include "reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "../util/num.h"
#include "../util/strbuf.h"
#include "../util/banned.h"

struct unit_dir {
	char unit[64];
	enum pv_dir dir;
};

/* The directions given by Unit lines (few: a handful of units). */
struct unit_dirs {
	struct unit_dir *v;
	size_t n;
};

struct line {
	const char *s;          /* not NUL-terminated */
	size_t len;
	unsigned long no;
};

/* The next line of buf (without "\n" or "\r\n"); 0 at the end. */
static int next_line(const char *buf, size_t len, size_t *pos,
		     struct line *l)
{
	const char *p, *nl;

	if (*pos >= len)
		return 0;
	p = buf + *pos;
	nl = memchr(p, '\n', len - *pos);
	l->s = p;
	l->len = nl ? (size_t)(nl - p) : len - *pos;
	*pos += l->len + (nl ? 1 : 0);
	if (l->len && p[l->len - 1] == '\r')
		l->len--;
	l->no++;
	return 1;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* Split off the next whitespace-separated field of l at *i. */
static int field(const struct line *l, size_t *i, const char **f,
		 size_t *flen)
{
	while (*i < l->len && is_space(l->s[*i]))
		(*i)++;
	if (*i >= l->len)
		return 0;
	*f = l->s + *i;
	while (*i < l->len && !is_space(l->s[*i]))
		(*i)++;
	*flen = (size_t)(l->s + *i - *f);
	return 1;
}

static int starts(const struct line *l, const char *prefix)
{
	size_t n = strlen(prefix);

	return l->len >= n && !memcmp(l->s, prefix, n);
}

/* "Benchmark" followed by the end or anything but a lower-case letter. */
static int is_benchmark_name(const char *f, size_t n)
{
	return n >= 9 && !memcmp(f, "Benchmark", 9) &&
	       (n == 9 || !(f[9] >= 'a' && f[9] <= 'z'));
}

static int is_iterations(const char *f, size_t n)
{
	if (!n || n > 19)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (f[i] < '0' || f[i] > '9')
			return 0;
	return 1;
}

/* Length of the key when l is a configuration line, else 0. */
static size_t config_key(const struct line *l)
{
	size_t i;

	if (!l->len || !(l->s[0] >= 'a' && l->s[0] <= 'z'))
		return 0;
	for (i = 1; i < l->len && l->s[i] != ':'; i++)
		if (is_space(l->s[i]) || (l->s[i] >= 'A' && l->s[i] <= 'Z'))
			return 0;
	if (i >= l->len || (i + 1 < l->len && !is_space(l->s[i + 1])))
		return 0;
	return i;
}

static enum pv_dir default_dir(const char *unit)
{
	static const char *const lower[] = {
		"ns/op", "sec/op", "B/op", "allocs/op", NULL
	};
	size_t n = strlen(unit);

	for (size_t i = 0; lower[i]; i++)
		if (!strcmp(unit, lower[i]))
			return PV_DIR_LOWER;
	if (n > 2 && !strcmp(unit + n - 2, "/s"))
		return PV_DIR_HIGHER;
	return PV_DIR_UNSET;
}

static enum pv_dir unit_dir(const struct unit_dirs *u, const char *unit)
{
	for (size_t i = 0; i < u->n; i++)
		if (!strcmp(u->v[i].unit, unit))
			return u->v[i].dir;
	return default_dir(unit);
}

/* "Unit <unit> key=value...": remember better=higher|lower. */
static void unit_line(struct pv_read_ctx *ctx, const struct line *l,
		      struct unit_dirs *u)
{
	const char *f, *unit;
	size_t i = 4, n, ulen;

	if (!field(l, &i, &unit, &ulen) || ulen >= sizeof(u->v->unit))
		return;
	while (field(l, &i, &f, &n)) {
		enum pv_dir d;

		if (n == 13 && !memcmp(f, "better=higher", 13))
			d = PV_DIR_HIGHER;
		else if (n == 12 && !memcmp(f, "better=lower", 12))
			d = PV_DIR_LOWER;
		else if (n > 7 && !memcmp(f, "better=", 7)) {
			pv_warn(ctx, PV_M_UNKNOWN_DIRECTION, l->no, "unknown direction '%.*s' for "
				"unit '%.*s'", (int)n, f, (int)ulen, unit);
			continue;
		} else {
			continue;
		}
		u->v = pv_reallocarray(u->v, u->n + 1, sizeof(*u->v));
		memcpy(u->v[u->n].unit, unit, ulen);
		u->v[u->n].unit[ulen] = '\0';
		u->v[u->n++].dir = d;
	}
}

static int nonfinite(const char *f, size_t n)
{
	static const char *const names[] = {
		"NaN", "+Inf", "-Inf", "Inf", NULL
	};

	for (size_t i = 0; names[i]; i++)
		if (strlen(names[i]) == n && !strncasecmp(f, names[i], n))
			return 1;
	return 0;
}

static int result_line(struct pv_read_ctx *ctx, const struct line *l,
		       const char *group, const struct unit_dirs *u,
		       struct strbuf *name, struct strbuf *unit,
		       struct pv_err *err)
{
	const char *f = NULL, *v;
	size_t i = 0, n = 0, vn;
	int pairs = 0;

	if (!field(l, &i, &f, &n))
		return 0;
	strbuf_reset(name);
	strbuf_add(name, f, n);
	if (!field(l, &i, &f, &n))
		return 0;       /* a name alone: go test prints one before a
				 * benchmark's log output */
	if (!is_iterations(f, n)) {
		/* benchstat's parser calls this a syntax error; a file
		 * with other results is still worth reading. */
		pv_warn(ctx, PV_M_IGNORED_LINE, l->no, "syntax error: '%.*s' is not an "
			"iteration count: expected '%s <iterations> <value> "
			"<unit>...'; line ignored", (int)(n > 64 ? 64 : n), f,
			name->buf);
		return 0;
	}
	while (field(l, &i, &v, &vn)) {
		struct pv_sample s = { group, name->buf, NULL, NULL,
				       PV_DIR_UNSET, 0 };
		size_t col = (size_t)(v - l->s) + 1;
		enum pv_num st;

		if (!field(l, &i, &f, &n))
			return pv_error(err, PV_M_MISSING_UNIT, "%s:%lu:%zu: value "
					"'%.*s' has no unit; expected "
					"<value> <unit> pairs", ctx->path,
					l->no, col, (int)vn, v);
		strbuf_reset(unit);
		strbuf_add(unit, f, n);
		s.metric = s.unit = unit->buf;
		s.dir = unit_dir(u, unit->buf);
		pairs++;
		st = pv_parse_double(v, vn, &s.value);
		if (st == PV_NUM_OK) {
			if (pv_emit(ctx, &s, err) < 0)
				return -1;
			continue;
		}
		if (nonfinite(v, vn)) {
			pv_warn(ctx, PV_M_SKIPPED_SAMPLE, l->no, "%s %s is %.*s; sample skipped",
				name->buf, unit->buf, (int)vn, v);
			continue;
		}
		return pv_error(err, PV_M_BAD_NUMBER, "%s:%lu:%zu: cannot parse "
				"'%.*s' as a number (%s for %s): %s",
				ctx->path, l->no, col, (int)vn, v, unit->buf,
				name->buf, pv_num_strerror(st));
	}
	if (!pairs)
		pv_warn(ctx, PV_M_NO_MEASUREMENTS, l->no, "%s has an iteration count but no "
			"measurements; line ignored", name->buf);
	return 0;
}

static int gobench_read(struct pv_read_ctx *ctx, const char *buf,
			size_t len, struct pv_err *err)
{
	size_t max_line = ctx->cfg ? ctx->cfg->limits.max_line : 0;
	struct strbuf group = STRBUF_INIT, key = STRBUF_INIT;
	struct strbuf val = STRBUF_INIT, name = STRBUF_INIT;
	struct strbuf unit = STRBUF_INIT;
	struct unit_dirs u = { NULL, 0 };
	struct line l = { NULL, 0, 0 };
	size_t pos = 0, results = 0;
	int rc = -1;

	/* Unit lines apply to the whole file, wherever they stand. */
	while (next_line(buf, len, &pos, &l))
		if (starts(&l, "Unit") && l.len > 4 && is_space(l.s[4]))
			unit_line(ctx, &l, &u);

	pos = 0;
	l.no = 0;
	while (next_line(buf, len, &pos, &l)) {
		size_t k;
		const char *f;
		size_t i = 0, n;

		if (max_line && l.len > max_line) {
			pv_error(err, PV_M_LINE_TOO_LONG, "%s:%lu: line longer than %zu "
				 "bytes (limits.max_line)", ctx->path, l.no,
				 max_line);
			goto out;
		}
		if ((k = config_key(&l))) {
			const char *p = l.s + k + 1, *e = l.s + l.len;

			while (p < e && is_space(*p))
				p++;
			while (e > p && is_space(e[-1]))
				e--;
			strbuf_reset(&key);
			strbuf_add(&key, l.s, k);
			strbuf_reset(&val);
			strbuf_add(&val, p, (size_t)(e - p));
			pv_context(ctx, key.buf, val.buf);
			if (!strcmp(key.buf, "pkg")) {
				strbuf_reset(&group);
				strbuf_addstr(&group, val.buf);
			}
			continue;
		}
		if (starts(&l, "--- FAIL:")) {
			pv_warn(ctx, PV_M_FAILED_BENCHMARK, l.no, "%.*s", (int)l.len, l.s);
			continue;
		}
		if (!field(&l, &i, &f, &n) || f != l.s ||
		    !is_benchmark_name(f, n))
			continue;
		if (result_line(ctx, &l, group.buf, &u, &name, &unit, err) < 0)
			goto out;
		results++;
	}
	if (!results || !ctx->emitted)
		pv_no_results(ctx, 0, "no benchmark result lines%s: expected "
			      "'BenchmarkName <iterations> <value> <unit>...'",
			      results ? " that parse" : "");
	rc = 0;
out:
	free(u.v);
	strbuf_release(&group);
	strbuf_release(&key);
	strbuf_release(&val);
	strbuf_release(&name);
	strbuf_release(&unit);
	return rc;
}

static int gobench_probe(const char *relpath, const char *head, size_t len)
{
	struct line l = { NULL, 0, 0 };
	size_t pos = 0, hlen = strnlen(head, 65536);
	int config = 0;

	(void)relpath, (void)len;
	if (head[0] == '{' || head[0] == '[')
		return 0;
	while (next_line(head, hlen, &pos, &l) && l.no <= 200) {
		const char *f;
		size_t i = 0, n;

		if (starts(&l, "goos:") || starts(&l, "goarch:") ||
		    starts(&l, "pkg:"))
			config++;
		if (!field(&l, &i, &f, &n) || f != l.s ||
		    !is_benchmark_name(f, n))
			continue;
		/* Name, iteration count and something more: a result line,
		 * even when its values turn out to be malformed (the reader
		 * then says where). */
		if (field(&l, &i, &f, &n) && is_iterations(f, n) &&
		    field(&l, &i, &f, &n))
			return 90;
	}
	return config >= 2 ? 60 : 0;
}

const struct pv_reader pv_reader_gobench = {
	"gobench",
	"go test -bench text: \"BenchmarkX-8  N  v unit...\" lines after "
	"goos:/goarch:/pkg: lines; ns/op, B/op, allocs/op lower is better, "
	"MB/s higher, Unit lines override",
	gobench_probe,
	gobench_read,
};
