/*
 * json.c - the archived JSON report (schemas/report.schema.json).
 *
 * jansson reads reports back (archive.c) but cannot print a double in
 * its shortest round-trip form: at 17 digits 0.05 becomes
 * 0.050000000000000003, and it would build the whole report as one tree
 * in memory.  So this writer streams the report through the
 * emitter of jw.h (which history's JSON uses too): strings are already clean UTF-8 (pv_text_clean), so
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
#include "jw.h"

#include <errno.h>
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

static void side_json(struct jw *w, const char *key,
		      const struct pv_side_result *s)
{
	struct pv_summary sum;

	pv_side_summary(s, &sum);
	jw_key(w, key);
	jw_begin(w, '{');
	JW_INT(w, "n", sum.n);
	JW_NUM(w, "mean", sum.mean);
	JW_NUM(w, "sd", sum.sd);
	JW_NUM(w, "cv", sum.cv);
	JW_NUM(w, "median", sum.median);
	JW_NUM(w, "min", sum.min);
	JW_NUM(w, "max", sum.max);
	JW_BOOL(w, "present", s->present);
	JW_INT(w, "files", s->files);
	JW_INT(w, "per_file", s->per_file);
	JW_STR(w, "note", s->note);
	if (s->summary_only)
		JW_BOOL(w, "summary_only", 1);
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
	jw_metric_name(w, pv_result_id(m, w->tmp), m->suite, m->test, m->group,
		       m->benchmark, m->metric, m->unit, m->direction,
		       m->dir_assumed);
	JW_BOOL(w, "gated", m->gated);
	if (m->ignored)
		JW_BOOL(w, "ignored", 1);
	JW_BOOL(w, "ratio", m->ratio);
	side_json(w, "baseline", &m->side[0]);
	side_json(w, "candidate", &m->side[1]);
	jw_key(w, "change");
	jw_begin(w, '{');
	JW_NUM(w, "abs", m->change_abs);
	JW_NUM(w, "rel", m->change_rel);
	JW_NUM(w, "ci_low", m->ci_low);
	JW_NUM(w, "ci_high", m->ci_high);
	JW_NUM(w, "ci_level", 1 - m->alpha);
	JW_NUM(w, "mde", m->mde);
	jw_close(w, '}');
	jw_key(w, "test");
	jw_begin(w, '{');
	JW_STR(w, "name", m->tested ? pv_test_name(m->test_used) : NULL);
	JW_STR(w, "sided", pv_sided_name(m->sided));
	JW_STR(w, "correction", pv_correction_name(r->settings.gate.correction));
	JW_NUM(w, "statistic", m->statistic);
	JW_NUM(w, "df", m->df);
	JW_NUM(w, "p_value", m->p);
	jw_close(w, '}');
	JW_NUM(w, "q_value", m->q);
	JW_NUM(w, "threshold", m->threshold);
	JW_NUM(w, "abs_threshold", m->abs_threshold);
	JW_NUM(w, "alpha", m->alpha);
	JW_STR(w, "verdict", pv_verdict_name(m->verdict));
	JW_STR(w, "reason", pv_result_reason(r, m, w->tmp));
	jw_close(w, '}');
}

static void config_json(struct jw *w, const struct pv_report *r)
{
	const struct pv_settings *s = &r->settings;
	const struct pv_gate *g = &s->gate;

	jw_key(w, "config");
	jw_begin(w, '{');
	JW_STR(w, "path", s->config_path);
	JW_STR(w, "suite", s->suite);
	JW_STR(w, "format", s->format ? s->format : "auto");
	JW_NUM(w, "alpha", g->alpha);
	JW_STR(w, "test", pv_test_name(g->test));
	JW_STR(w, "correction", pv_correction_name(g->correction));
	JW_STR(w, "sided", pv_sided_name(g->sided));
	JW_NUM(w, "threshold", g->threshold);
	JW_INT(w, "min_samples", g->min_samples);
	JW_NUM(w, "max_cv", g->max_cv);
	JW_STR(w, "missing", pv_policy_name(g->missing));
	JW_STR(w, "new", pv_policy_name(g->new_));
	JW_STR(w, "inconclusive", pv_policy_name(g->inconclusive));
	JW_STR(w, "insufficient", pv_policy_name(g->insufficient));
	JW_STR(w, "direction", pv_dir_name(g->direction));
	JW_INT(w, "markdown_limit", s->markdown_limit);
	jw_key(w, "waivers");
	jw_begin(w, '[');
	w->pretty++;            /* a line for each waiver, like metrics */
	for (size_t i = 0; i < s->nwaivers; i++) {
		jw_begin(w, '{');
		JW_STR(w, "glob", s->waivers[i].glob);
		JW_STR(w, "until", s->waivers[i].until);
		JW_STR(w, "reason", s->waivers[i].reason);
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
		JW_STR(w, "label", p->label);
		JW_STR(w, "commit", p->commit);
		JW_INT(w, "age", p->age);
		JW_INT(w, "metrics", p->metrics);
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
	JW_STR(w, "path", sm->path);
	JW_STR(w, "label", r->label[s]);
	JW_INT(w, "files", sm->files);
	JW_INT(w, "runs", sm->runs);
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
	JW_INT(w, "metrics", r->n);
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
		jw_key(w, keys[i].key), jw_int(w, r->count[keys[i].v]);
	jw_close(w, '}');
}

int pv_jw_flush(struct strbuf *sb, FILE *fp)
{
	int e = 0;

	if (sb->len) {
		errno = 0;
		if (fwrite(sb->buf, 1, sb->len, fp) != sb->len)
			e = errno ? errno : EIO;
	}
	strbuf_reset(sb);
	return e;
}

void pv_jw_warnings(struct jw *w, const char *const *msgs,
		    const char *const *codes, size_t n)
{
	jw_key(w, "warnings");
	jw_begin(w, '[');
	for (size_t i = 0; i < n; i++) {
		const char *code = codes && codes[i] ? codes[i] :
				   pv_msg_code(PV_M_UNCODED);

		jw_begin(w, '{');
		JW_STR(w, "code", code);
		JW_STR(w, "level", pv_level_name(pv_msg_listed_level(code)));
		JW_STR(w, "message", msgs[i]);
		jw_close(w, '}');
	}
	jw_close(w, ']');
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
	rc = pv_jw_flush(w->sb, fp);

	for (size_t c = 0; c < cs.view.n && !rc; c++) {
		struct part *p;

		if (!threaded || c % 3 == 0) {
			format_chunk(&cs.view, c, w->sb, w->tmp);
			rc = pv_jw_flush(w->sb, fp);
			continue;
		}
		/* c is the helper's chunk j = c - c/3 - 1 (HELPER_CHUNK). */
		p = &cs.part[(c - c / 3 - 1) % 2];
		pthread_mutex_lock(&cs.mu);
		while (!p->full)
			pthread_cond_wait(&cs.cv, &cs.mu);
		pthread_mutex_unlock(&cs.mu);
		rc = pv_jw_flush(&p->sb, fp);
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

int pv_write_json(const struct pv_report *r, const struct pv_write_opts *o,
		  FILE *fp, struct pv_err *err)
{
	struct strbuf sb = STRBUF_INIT, tmp = STRBUF_INIT;
	struct jw w = JW_INIT(&sb, &tmp, 2);
	int rc = 0;

	jw_open(&w, '{');
	JW_INT(&w, "schema_version", PV_SCHEMA_VERSION);
	jw_key(&w, "tool");
	jw_begin(&w, '{');
	JW_STR(&w, "name", "perfverdict");
	JW_STR(&w, "version", r->tool_version);
	jw_close(&w, '}');
	JW_STR(&w, "generated_at", r->generated_at);
	config_json(&w, r);
	sidemeta_json(&w, "baseline", r, 0);
	sidemeta_json(&w, "candidate", r, 1);
	summary_json(&w, r);
	JW_STR(&w, "verdict", r->fail ? "fail" : "pass");
	pv_jw_warnings(&w, r->warnings, r->warning_codes, r->nwarnings);
	jw_key(&w, "metrics");
	jw_begin(&w, '[');
	rc = metrics_json(&w, r, fp);
	jw_close(&w, ']');
	jw_close(&w, '}');
	strbuf_addch(&sb, '\n');
	if (!rc)
		rc = pv_jw_flush(&sb, fp);
	strbuf_release(&sb);
	strbuf_release(&tmp);
	if (!rc && ferror(fp))
		rc = EIO;
	if (rc)
		return pv_write_failed(o, rc, err);
	return 0;
}
