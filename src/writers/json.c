/*
 * json.c - the archived JSON report (schemas/report.schema.json).
 *
 * jansson reads reports back (archive.c) but cannot print a double in
 * its shortest round-trip form: at 17 digits 0.05 becomes
 * 0.050000000000000003, and it would build the whole report as one tree
 * in memory.  So this writer streams the report through a
 * small emitter: strings are already clean UTF-8 (pv_text_clean), so
 * escaping is '"', '\\' and tab; each double is printed with the fewest
 * digits that read back to the same bits (util/dtoa.c).  Values that
 * are not finite are written as null.  The top level is indented; each
 * metric is one line, so reports grep and diff well.
 *
 * The metrics are nearly all of a report.  With two or more CPUs a
 * second thread formats two chunks of every three while the calling
 * thread formats the third and writes all chunks in order, so the file
 * is the same byte for byte.
 *
 * Why the helper is safe, from the code rather than from luck: it sees
 * the report only through struct json_view, a const view of the model
 * and of the writer's state at "metrics": [; it formats with
 * format_chunk(), which takes that view const and writes only the two
 * strbufs it is handed and its own stack.  Everything format_chunk()
 * reaches (metric_json() and below, pv_result_id(), pv_result_reason(),
 * pv_side_summary() -> pv_order_stats(), the *_name() tables,
 * pv_format_double()) takes the model through const pointers and keeps
 * no static state: tests/check_util.sh fails when any object of the
 * library holds writable static data.  The only state the two threads
 * share for writing is struct chunks' parts and stop flag, under its
 * mutex.  A change that gives format_chunk() a mutable pointer, or a
 * callee a static memo, breaks this; see writers.h.
 */
#include "writers.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "../util/dtoa.h"
#include "../util/msg.h"
#include "../util/strbuf.h"
#include "../util/text.h"
#include "../util/banned.h"

struct jw {
	struct strbuf *sb;
	int depth;
	int first[32];          /* no element written yet at this depth */
	int pretty;             /* depth up to which elements get newlines */
	struct strbuf *tmp;     /* scratch for ids and reasons */
};

static inline void jw_sep(struct jw *w)
{
	if (!w->first[w->depth])
		strbuf_addch(w->sb, ',');
	w->first[w->depth] = 0;
	if (w->depth <= w->pretty) {
		strbuf_addch(w->sb, '\n');
		for (int i = 0; i < w->depth; i++)
			strbuf_addstr(w->sb, "  ");
	}
}

/* Does s need more than quotes around it: a byte that is not printable
 * ASCII, or '"' or '\\'?  Most names are plain, and for them this one
 * pass is all the checking there is. */
static int needs_care(const char *s, size_t len)
{
	/* 1 for control bytes, '"' (0x22), '\\' (0x5c), DEL and above. */
	static const unsigned char care[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	};
	const unsigned char *u = (const unsigned char *)s;
	unsigned char any = 0;

	/* No early exit: most strings are plain, and for them the loop
	 * runs to the end anyway, without a branch per byte. */
	for (size_t i = 0; i < len; i++)
		any |= care[u[i]];
	return any;
}

void pv_json_string(struct strbuf *sb, const char *s)
{
	struct strbuf clean = STRBUF_INIT;
	size_t len = strlen(s);

	if (!needs_care(s, len)) {
		strbuf_grow(sb, len + 2);
		sb->buf[sb->len++] = '"';
		memcpy(sb->buf + sb->len, s, len);
		sb->len += len;
		sb->buf[sb->len++] = '"';
		sb->buf[sb->len] = '\0';
		return;
	}
	if (!pv_text_is_clean(s, len)) {
		pv_text_clean(&clean, s, len);
		s = clean.buf;
	}
	strbuf_addch(sb, '"');
	while (*s) {
		size_t run = strcspn(s, "\"\\\t");

		strbuf_add(sb, s, run);
		s += run;
		if (!*s)
			break;
		strbuf_addstr(sb, *s == '\t' ? "\\t" : *s == '"' ? "\\\"" : "\\\\");
		s++;
	}
	strbuf_addch(sb, '"');
	strbuf_release(&clean);
}

static void jw_open(struct jw *w, int c)
{
	strbuf_addch(w->sb, (char)c);
	w->first[++w->depth] = 1;
}

static void jw_close(struct jw *w, int c)
{
	int empty = w->first[w->depth];

	w->depth--;
	if (!empty && w->depth < w->pretty) {
		strbuf_addch(w->sb, '\n');
		for (int i = 0; i < w->depth; i++)
			strbuf_addstr(w->sb, "  ");
	}
	strbuf_addch(w->sb, (char)c);
}

/* A key from the input (a context key): checked and escaped. */
static void jw_key_text(struct jw *w, const char *k)
{
	jw_sep(w);
	pv_json_string(w->sb, k);
	strbuf_addstr(w->sb, w->depth <= w->pretty ? ": " : ":");
	w->first[w->depth + 1] = 2;  /* the value follows: no separator */
}

/* One of the schema's own keys, of length len: plain ASCII, copied as
 * it is.  Always inlined, so that the length is a constant and the copy
 * a few moves (about 45 keys per metric). */
static inline __attribute__((always_inline)) void
jw_keyn(struct jw *w, const char *k, size_t len)
{
	struct strbuf *sb = w->sb;

	jw_sep(w);
	strbuf_grow(sb, len + 4);
	sb->buf[sb->len++] = '"';
	memcpy(sb->buf + sb->len, k, len);
	sb->len += len;
	sb->buf[sb->len++] = '"';
	sb->buf[sb->len++] = ':';
	if (w->depth <= w->pretty)
		sb->buf[sb->len++] = ' ';
	sb->buf[sb->len] = '\0';
	w->first[w->depth + 1] = 2;
}

static void jw_key(struct jw *w, const char *k)
{
	jw_keyn(w, k, strlen(k));
}

/* Values are either after a key (no separator) or array elements. */
static inline void jw_value_sep(struct jw *w)
{
	if (w->first[w->depth + 1] == 2)
		w->first[w->depth + 1] = 0;
	else
		jw_sep(w);
}

static void jw_str(struct jw *w, const char *s)
{
	jw_value_sep(w);
	if (s)
		pv_json_string(w->sb, s);
	else
		strbuf_addstr(w->sb, "null");
}

/*
 * A double as the shortest JSON number that reads back bit-exact
 * (pv_format_double: Schubfach digits, ECMAScript layout, ".0" on
 * integral values, null for NaN and infinities).
 */
void pv_json_number(struct strbuf *sb, double v)
{
	strbuf_grow(sb, PV_DTOA_BUFSIZE);
	sb->len += pv_format_double(v, sb->buf + sb->len);
}

static void jw_num(struct jw *w, double v)
{
	jw_value_sep(w);
	pv_json_number(w->sb, v);
}

static void jw_int(struct jw *w, size_t v)
{
	char digits[24], *p = digits + sizeof(digits);

	jw_value_sep(w);
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	strbuf_add(w->sb, p, (size_t)(digits + sizeof(digits) - p));
}

static void jw_bool(struct jw *w, int v)
{
	jw_value_sep(w);
	strbuf_addstr(w->sb, v ? "true" : "false");
}

static void jw_begin(struct jw *w, int c)
{
	jw_value_sep(w);
	jw_open(w, c);
}

/* k is a string literal: its length is known when compiling. */
#define KSTR(w, k, v) (jw_keyn(w, k, sizeof(k) - 1), jw_str(w, v))
#define KNUM(w, k, v) (jw_keyn(w, k, sizeof(k) - 1), jw_num(w, v))
#define KINT(w, k, v) (jw_keyn(w, k, sizeof(k) - 1), jw_int(w, v))
#define KBOOL(w, k, v) (jw_keyn(w, k, sizeof(k) - 1), jw_bool(w, v))

static void side_json(struct jw *w, const char *key,
		      const struct pv_side_result *s)
{
	struct pv_summary sum;

	pv_side_summary(s, &sum);
	jw_key(w, key);
	jw_begin(w, '{');
	KINT(w, "n", sum.n);
	KNUM(w, "mean", sum.mean);
	KNUM(w, "sd", sum.sd);
	KNUM(w, "cv", sum.cv);
	KNUM(w, "median", sum.median);
	KNUM(w, "min", sum.min);
	KNUM(w, "max", sum.max);
	KBOOL(w, "present", s->present);
	KINT(w, "files", s->files);
	KINT(w, "per_file", s->per_file);
	KSTR(w, "note", s->note);
	if (s->summary_only)
		KBOOL(w, "summary_only", 1);
	jw_key(w, "samples");
	jw_begin(w, '[');
	for (size_t i = 0; i < s->nsamples; i++)
		jw_num(w, s->samples[i]);
	jw_close(w, ']');
	jw_close(w, '}');
}

static void metric_json(struct jw *w, const struct pv_report *r,
			const struct pv_result *m)
{
	jw_begin(w, '{');
	KSTR(w, "id", pv_result_id(m, w->tmp));
	KSTR(w, "suite", m->suite);
	KSTR(w, "test_id", m->test);
	KSTR(w, "group", m->group);
	KSTR(w, "benchmark", m->benchmark);
	KSTR(w, "metric", m->metric);
	KSTR(w, "unit", m->unit);
	KSTR(w, "direction", pv_dir_name(m->direction));
	KBOOL(w, "direction_assumed", m->dir_assumed);
	KBOOL(w, "gated", m->gated);
	if (m->ignored)
		KBOOL(w, "ignored", 1);
	KBOOL(w, "ratio", m->ratio);
	side_json(w, "baseline", &m->side[0]);
	side_json(w, "candidate", &m->side[1]);
	jw_key(w, "change");
	jw_begin(w, '{');
	KNUM(w, "abs", m->change_abs);
	KNUM(w, "rel", m->change_rel);
	KNUM(w, "ci_low", m->ci_low);
	KNUM(w, "ci_high", m->ci_high);
	KNUM(w, "ci_level", 1 - m->alpha);
	KNUM(w, "mde", m->mde);
	jw_close(w, '}');
	jw_key(w, "test");
	jw_begin(w, '{');
	KSTR(w, "name", m->tested ? pv_test_name(m->test_used) : NULL);
	KSTR(w, "sided", pv_sided_name(m->sided));
	KSTR(w, "correction", pv_correction_name(r->settings.gate.correction));
	KNUM(w, "statistic", m->statistic);
	KNUM(w, "df", m->df);
	KNUM(w, "p_value", m->p);
	jw_close(w, '}');
	KNUM(w, "q_value", m->q);
	KNUM(w, "threshold", m->threshold);
	KNUM(w, "abs_threshold", m->abs_threshold);
	KNUM(w, "alpha", m->alpha);
	KSTR(w, "verdict", pv_verdict_name(m->verdict));
	KSTR(w, "reason", pv_result_reason(r, m, w->tmp));
	jw_close(w, '}');
}

static void config_json(struct jw *w, const struct pv_report *r)
{
	const struct pv_settings *s = &r->settings;
	const struct pv_gate *g = &s->gate;

	jw_key(w, "config");
	jw_begin(w, '{');
	KSTR(w, "path", s->config_path);
	KSTR(w, "suite", s->suite);
	KSTR(w, "format", s->format ? s->format : "auto");
	KNUM(w, "alpha", g->alpha);
	KSTR(w, "test", pv_test_name(g->test));
	KSTR(w, "correction", pv_correction_name(g->correction));
	KSTR(w, "sided", pv_sided_name(g->sided));
	KNUM(w, "threshold", g->threshold);
	KINT(w, "min_samples", g->min_samples);
	KNUM(w, "max_cv", g->max_cv);
	KSTR(w, "missing", pv_policy_name(g->missing));
	KSTR(w, "new", pv_policy_name(g->new_));
	KSTR(w, "inconclusive", pv_policy_name(g->inconclusive));
	KSTR(w, "insufficient", pv_policy_name(g->insufficient));
	KSTR(w, "direction", pv_dir_name(g->direction));
	KINT(w, "markdown_limit", s->markdown_limit);
	jw_key(w, "waivers");
	jw_begin(w, '[');
	w->pretty++;            /* a line for each waiver, like metrics */
	for (size_t i = 0; i < s->nwaivers; i++) {
		jw_begin(w, '{');
		KSTR(w, "glob", s->waivers[i].glob);
		KSTR(w, "until", s->waivers[i].until);
		KSTR(w, "reason", s->waivers[i].reason);
		jw_close(w, '}');
	}
	jw_close(w, ']');
	w->pretty--;
	jw_close(w, '}');
}

static void pooled_json(struct jw *w, const struct pv_report *r)
{
	jw_key(w, "pooled_points");
	jw_begin(w, '[');
	for (size_t i = 0; i < r->npooled; i++) {
		const struct pv_pooled_point *p = &r->pooled[i];

		jw_begin(w, '{');
		KSTR(w, "label", p->label);
		KSTR(w, "commit", p->commit);
		KINT(w, "age", p->age);
		KINT(w, "metrics", p->metrics);
		jw_close(w, '}');
	}
	jw_close(w, ']');
}

static void sidemeta_json(struct jw *w, const char *key,
			  const struct pv_report *r, int s)
{
	const struct pv_sidemeta *sm = &r->side[s];

	jw_key(w, key);
	jw_begin(w, '{');
	KSTR(w, "path", sm->path);
	KSTR(w, "label", r->label[s]);
	KINT(w, "files", sm->files);
	KINT(w, "runs", sm->runs);
	if (s == 0 && r->npooled)
		pooled_json(w, r);
	jw_key(w, "context");
	jw_begin(w, '{');
	for (size_t i = 0; i < sm->ncontext; i++)
		jw_key_text(w, sm->context[i].key), jw_str(w, sm->context[i].value);
	jw_close(w, '}');
	jw_close(w, '}');
}

static void summary_json(struct jw *w, const struct pv_report *r)
{
	static const struct { const char *key; enum pv_verdict v; } keys[] = {
		{ "regressions", PV_V_REGRESSION },
		{ "improvements", PV_V_IMPROVEMENT },
		{ "unchanged", PV_V_UNCHANGED },
		{ "inconclusive", PV_V_INCONCLUSIVE },
		{ "noisy", PV_V_NOISY },
		{ "insufficient", PV_V_INSUFFICIENT },
		{ "missing", PV_V_MISSING },
		{ "new", PV_V_NEW },
		{ "waived", PV_V_WAIVED },
		{ "ungated", PV_V_UNGATED },
	};

	jw_key(w, "summary");
	jw_begin(w, '{');
	KINT(w, "metrics", r->n);
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
		jw_key(w, keys[i].key), jw_int(w, r->count[keys[i].v]);
	jw_close(w, '}');
}

static int flush(struct strbuf *sb, FILE *fp)
{
	int rc = sb->len && fwrite(sb->buf, 1, sb->len, fp) != sb->len;

	strbuf_reset(sb);
	return rc;
}

/* ---- the metrics array, in chunks ------------------------------------ */

#define CHUNK 256           /* metrics per chunk */
#define HELPER_CHUNK(j) ((j) + (j) / 2 + 1)

/* One chunk the helper thread has formatted, or is formatting. */
struct part {
	struct strbuf sb;
	int full;               /* formatted, not yet written */
};

/* All the helper thread reads: see the top of this file. */
struct json_view {
	const struct pv_report *r;
	const struct jw *at;    /* the writer inside "metrics": [ */
	size_t n;               /* chunks */
};

struct chunks {
	const struct json_view view;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	/* The helper formats chunks 1, 2, 4, 5, 7... (its j-th is
	 * HELPER_CHUNK(j)) into part[j % 2]: it runs at most two chunks
	 * ahead of the writes.  The writing thread, which also formats
	 * chunks 0, 3, 6..., has the write calls to make: two to one
	 * evens their loads. */
	struct part part[2];
	int stop;               /* the writer gave up (a write failed) */
};

/* Chunk c of the metrics into sb, as the writer at v->at would; writes
 * nothing but sb, tmp and its stack (both threads call it). */
static void format_chunk(const struct json_view *v, size_t c,
			 struct strbuf *sb, struct strbuf *tmp)
{
	struct jw w = *v->at;
	size_t end = (c + 1) * CHUNK < v->r->n ? (c + 1) * CHUNK : v->r->n;

	w.sb = sb;
	w.tmp = tmp;
	w.first[w.depth] = c == 0;
	for (size_t i = c * CHUNK; i < end; i++)
		metric_json(&w, v->r, &v->r->m[i]);
}

static void *helper(void *arg)
{
	struct chunks *cs = arg;
	struct strbuf tmp = STRBUF_INIT;

	for (size_t j = 0, c; (c = HELPER_CHUNK(j)) < cs->view.n; j++) {
		struct part *p = &cs->part[j % 2];
		int stop;

		pthread_mutex_lock(&cs->mu);
		while (p->full && !cs->stop)
			pthread_cond_wait(&cs->cv, &cs->mu);
		stop = cs->stop;
		pthread_mutex_unlock(&cs->mu);
		if (stop)
			break;
		strbuf_reset(&p->sb);
		format_chunk(&cs->view, c, &p->sb, &tmp);
		pthread_mutex_lock(&cs->mu);
		p->full = 1;
		pthread_cond_broadcast(&cs->cv);
		pthread_mutex_unlock(&cs->mu);
	}
	strbuf_release(&tmp);
	return NULL;
}

/* Write the metrics of r after the writer's "[" in *w; the second
 * thread helps when there are CPUs and chunks to spare. */
static int metrics_json(struct jw *w, const struct pv_report *r, FILE *fp)
{
	struct chunks cs = {
		.view = { .r = r, .at = w, .n = (r->n + CHUNK - 1) / CHUNK },
		.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER,
		.part = { { STRBUF_INIT, 0 }, { STRBUF_INIT, 0 } },
	};
	pthread_t th;
	sigset_t all, saved;
	int threaded, rc;

	/* The helper starts with every signal blocked, so that signal
	 * handlers (util/atomic.c's cleanup) run on this thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &saved);
	threaded = cs.view.n > 2 && sysconf(_SC_NPROCESSORS_ONLN) > 1 &&
		   !pthread_create(&th, NULL, helper, &cs);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	rc = flush(w->sb, fp);

	for (size_t c = 0; c < cs.view.n && !rc; c++) {
		struct part *p;

		if (!threaded || c % 3 == 0) {
			format_chunk(&cs.view, c, w->sb, w->tmp);
			rc = flush(w->sb, fp);
			continue;
		}
		/* c is the helper's chunk j = c - c/3 - 1 (HELPER_CHUNK). */
		p = &cs.part[(c - c / 3 - 1) % 2];
		pthread_mutex_lock(&cs.mu);
		while (!p->full)
			pthread_cond_wait(&cs.cv, &cs.mu);
		pthread_mutex_unlock(&cs.mu);
		rc = flush(&p->sb, fp);
		pthread_mutex_lock(&cs.mu);
		p->full = 0;
		pthread_cond_broadcast(&cs.cv);
		pthread_mutex_unlock(&cs.mu);
	}
	if (threaded) {
		pthread_mutex_lock(&cs.mu);
		cs.stop = 1;
		pthread_cond_broadcast(&cs.cv);
		pthread_mutex_unlock(&cs.mu);
		pthread_join(th, NULL);
	}
	strbuf_release(&cs.part[0].sb);
	strbuf_release(&cs.part[1].sb);
	/* The writer continues after the last metric. */
	w->first[w->depth] = r->n == 0;
	return rc;
}

int pv_write_json(const struct pv_report *r, FILE *fp, struct pv_err *err)
{
	struct strbuf sb = STRBUF_INIT, tmp = STRBUF_INIT;
	struct jw w = { &sb, 0, { 1 }, 2, &tmp };
	int rc = 0;

	jw_open(&w, '{');
	KINT(&w, "schema_version", PV_SCHEMA_VERSION);
	jw_key(&w, "tool");
	jw_begin(&w, '{');
	KSTR(&w, "name", "perfverdict");
	KSTR(&w, "version", r->tool_version);
	jw_close(&w, '}');
	KSTR(&w, "generated_at", r->generated_at);
	config_json(&w, r);
	sidemeta_json(&w, "baseline", r, 0);
	sidemeta_json(&w, "candidate", r, 1);
	summary_json(&w, r);
	KSTR(&w, "verdict", r->fail ? "fail" : "pass");
	jw_key(&w, "warnings");
	jw_begin(&w, '[');
	for (size_t i = 0; i < r->nwarnings; i++) {
		const char *code = r->warning_codes && r->warning_codes[i] ?
				   r->warning_codes[i] :
				   pv_msg_code(PV_M_UNCODED);

		jw_begin(&w, '{');
		KSTR(&w, "code", code);
		KSTR(&w, "level", pv_level_name(PV_LEVEL_WARNING));
		KSTR(&w, "message", r->warnings[i]);
		jw_close(&w, '}');
	}
	jw_close(&w, ']');
	jw_key(&w, "metrics");
	jw_begin(&w, '[');
	rc = metrics_json(&w, r, fp);
	jw_close(&w, ']');
	jw_close(&w, '}');
	strbuf_addch(&sb, '\n');
	rc |= flush(&sb, fp);
	strbuf_release(&sb);
	strbuf_release(&tmp);
	if (rc || ferror(fp))
		return pv_error(err, PV_M_CANNOT_WRITE, "cannot write the JSON report");
	return 0;
}
