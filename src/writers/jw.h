/*
 * jw.h - the one JSON emitter of every JSON the tool writes (compare's
 * report in json.c, history's in history_json.c).
 *
 * A struct jw appends to a strbuf and knows, for each open object or
 * array, whether an element was written yet: so the comma comes from
 * the emitter's state, never from looking at the buffer, and a writer
 * places no comma by hand.  Elements at a depth up to `pretty` start on
 * a line of their own, indented two spaces a level; deeper ones are
 * packed ("key":value).  Compare's report and history's both use
 * pretty 2: the top level indented, one line per metric.
 *
 * The functions are static inline because the metrics are nearly all
 * of a report (about 45 keys a metric): the key copy of JW_STR() and
 * friends is a few moves with its length known when compiling.  They
 * keep no state but the struct jw they are given, so two threads may
 * each use their own (json.c's helper thread does).
 *
 *	struct strbuf sb = STRBUF_INIT;
 *	struct jw w = JW_INIT(&sb, NULL, 2);
 *
 *	jw_open(&w, '{');
 *	JW_INT(&w, "schema_version", 3);
 *	jw_key(&w, "metrics");
 *	jw_begin(&w, '[');
 *	...
 *	jw_close(&w, ']');
 *	jw_close(&w, '}');
 *
 * Strings are written with pv_json_string() (cleaned to printable
 * UTF-8, '"', '\\' and tab escaped), numbers with pv_json_number()
 * (shortest round-trip digits; null when not finite).
 */
#ifndef PV_WRITERS_JW_H
#define PV_WRITERS_JW_H

#include <stdio.h>
#include <string.h>
#include "writers.h"
#include "../util/strbuf.h"

#define JW_MAX_DEPTH 31

struct jw {
	struct strbuf *sb;
	int depth;
	int first[JW_MAX_DEPTH + 1];  /* no element written yet at this depth;
				       * 2: a key was written, its value follows */
	int pretty;             /* depth up to which elements get newlines */
	struct strbuf *tmp;     /* scratch for a writer's ids and reasons */
};

#define JW_INIT(sb, tmp, pretty) { (sb), 0, { 1 }, (pretty), (tmp) }

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

static inline void jw_open(struct jw *w, int c)
{
	strbuf_addch(w->sb, (char)c);
	w->first[++w->depth] = 1;
}

static inline void jw_close(struct jw *w, int c)
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
static inline void jw_key_text(struct jw *w, const char *k)
{
	jw_sep(w);
	pv_json_string(w->sb, k);
	strbuf_addstr(w->sb, w->depth <= w->pretty ? ": " : ":");
	w->first[w->depth + 1] = 2;  /* the value follows: no separator */
}

/* One of the schema's own keys, of length len: plain ASCII, copied as
 * it is.  Always inlined, so that the length is a constant and the copy
 * a few moves. */
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

static inline void jw_key(struct jw *w, const char *k)
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

/* A string, or null for NULL. */
static inline void jw_str(struct jw *w, const char *s)
{
	jw_value_sep(w);
	if (s)
		pv_json_string(w->sb, s);
	else
		strbuf_addstr(w->sb, "null");
}

static inline void jw_num(struct jw *w, double v)
{
	jw_value_sep(w);
	pv_json_number(w->sb, v);
}

static inline void jw_int(struct jw *w, size_t v)
{
	char digits[24], *p = digits + sizeof(digits);

	jw_value_sep(w);
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	strbuf_add(w->sb, p, (size_t)(digits + sizeof(digits) - p));
}

static inline void jw_bool(struct jw *w, int v)
{
	jw_value_sep(w);
	strbuf_addstr(w->sb, v ? "true" : "false");
}

/* An object or array as a value: after its key, or as an element. */
static inline void jw_begin(struct jw *w, int c)
{
	jw_value_sep(w);
	jw_open(w, c);
}

/* "key": value, k a string literal: its length is known when compiling. */
#define JW_STR(w, k, v) (jw_keyn(w, k, sizeof(k) - 1), jw_str(w, v))
#define JW_NUM(w, k, v) (jw_keyn(w, k, sizeof(k) - 1), jw_num(w, v))
#define JW_INT(w, k, v) (jw_keyn(w, k, sizeof(k) - 1), jw_int(w, v))
#define JW_BOOL(w, k, v) (jw_keyn(w, k, sizeof(k) - 1), jw_bool(w, v))
/* "key": { or "key": [ -- the caller closes it. */
#define JW_OPEN(w, k, c) (jw_keyn(w, k, sizeof(k) - 1), jw_begin(w, c))

/* The keys that name a metric, in both reports' words: "id", "suite",
 * "test_id" (the tree path: "test" is compare's significance test),
 * "group", "benchmark", "metric", "unit", "direction" and whether the
 * direction was assumed. */
static inline void jw_metric_name(struct jw *w, const char *id,
				  const char *suite, const char *test_id,
				  const char *group, const char *benchmark,
				  const char *metric, const char *unit,
				  enum pv_dir dir, int dir_assumed)
{
	JW_STR(w, "id", id);
	JW_STR(w, "suite", suite);
	JW_STR(w, "test_id", test_id);
	JW_STR(w, "group", group);
	JW_STR(w, "benchmark", benchmark);
	JW_STR(w, "metric", metric);
	JW_STR(w, "unit", unit);
	JW_STR(w, "direction", pv_dir_name(dir));
	JW_BOOL(w, "direction_assumed", dir_assumed);
}

/*
 * The "warnings" array both reports carry: {code, level, message} per
 * warning, its level pv_msg_listed_level(code): note or warning (a code
 * this version does not know, from an older report, is a warning).  codes
 * may be NULL, and an entry NULL: "uncoded" (a schema_version 1
 * report's warnings had no codes).
 */
void pv_jw_warnings(struct jw *w, const char *const *msgs,
		    const char *const *codes, size_t n);

/* Write sb to fp and empty it; 0, or errno (EIO if the stream did not
 * set it) when the write failed. */
int pv_jw_flush(struct strbuf *sb, FILE *fp);

#endif
