/*
 * jsonutil.c - helpers shared by the JSON readers; see jsonutil.h.
 */
#include "jsonutil.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "../util/strbuf.h"
#include "../util/text.h"
#include "../util/banned.h"

static const char *const nonfinite_tokens[] = {
	"-Infinity", "+Infinity", "Infinity", "-NaN", "+NaN", "NaN", NULL
};

static int is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.';
}

/* The bare token at p (outside strings), or NULL. */
static const char *nonfinite_at(const char *p, const char *end,
				const char *start)
{
	if (p > start && is_word(p[-1]))
		return NULL;
	for (size_t i = 0; nonfinite_tokens[i]; i++) {
		size_t n = strlen(nonfinite_tokens[i]);

		if ((size_t)(end - p) >= n &&
		    !memcmp(p, nonfinite_tokens[i], n) &&
		    (p + n == end || !is_word(p[n])))
			return nonfinite_tokens[i];
	}
	return NULL;
}

/*
 * Quote the bare non-finite tokens that lie outside strings.  Returns 0
 * when there are none (out untouched), 1 when out holds the new text.
 * One pass over the bytes, tracking only whether it is inside a string;
 * pv_json_parse() calls it only for files that mention NaN or Infinity.
 */
static int quote_nonfinite(struct strbuf *out, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *copied = buf;
	int in_str = 0, any = 0;

	for (; p < end; p++) {
		const char *tok;

		if (in_str) {
			if (*p == '\\' && p + 1 < end)
				p++;
			else if (*p == '"')
				in_str = 0;
			continue;
		}
		if (*p == '"') {
			in_str = 1;
			continue;
		}
		if (*p != 'N' && *p != 'I' && *p != '-' && *p != '+')
			continue;
		if (!(tok = nonfinite_at(p, end, buf)))
			continue;
		strbuf_add(out, copied, (size_t)(p - copied));
		strbuf_addch(out, '"');
		strbuf_addstr(out, tok);
		strbuf_addch(out, '"');
		p += strlen(tok) - 1;
		copied = p + 1;
		any = 1;
	}
	if (any)
		strbuf_add(out, copied, (size_t)(end - copied));
	return any;
}

void pv_jpathf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
}

/* memmem(3) is a GNU extension; the buffers here are small to search. */
static int contains(const char *buf, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	const char *p = buf, *end = buf + len;

	while ((size_t)(end - p) >= n &&
	       (p = memchr(p, needle[0], (size_t)(end - p) - n + 1))) {
		if (!memcmp(p, needle, n))
			return 1;
		p++;
	}
	return 0;
}

static int blank(const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\r' &&
		    buf[i] != '\n')
			return 0;
	return 1;
}

int pv_json_oom(const char *path, const json_error_t *je, struct pv_err *err)
{
	/* jansson 2.14 says so for a string it cannot copy, but returns
	 * from a failed json_array()/json_object()/json_real() with the
	 * error as initialised: no text, line -1.  Every syntax error has
	 * a text. */
	if (json_error_code(je) != json_error_out_of_memory && je->text[0])
		return 0;
	pv_error(err, PV_M_OUT_OF_MEMORY,
		 "%s: out of memory while parsing its JSON", path);
	return 1;
}

json_t *pv_json_parse(const char *path, const char *buf, size_t len,
		      struct pv_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	json_error_t jerr;
	json_t *root;

	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3)) {
		buf += 3;
		len -= 3;
	}
	/* The rewrite copies the file, so look for the tokens first. */
	if ((contains(buf, len, "NaN") || contains(buf, len, "Infinity")) &&
	    quote_nonfinite(&sb, buf, len)) {
		buf = sb.buf;
		len = sb.len;
	}
	root = json_loadb(buf, len, 0, &jerr);
	if (!root && pv_json_oom(path, &jerr, err))
		;
	else if (!root) {
		if (jerr.line > 0 && blank(buf, len))
			pv_error(err, PV_M_EMPTY_FILE, "%s:%d:%d: the file is empty; "
				 "expected a JSON object or array", path,
				 jerr.line, jerr.column);
		else if (jerr.line > 0)
			pv_error(err, PV_M_MALFORMED_JSON, "%s:%d:%d: %s", path,
				 jerr.line, jerr.column, jerr.text);
		else
			pv_error(err, PV_M_MALFORMED_JSON, "%s: %s", path, jerr.text);
	}
	strbuf_release(&sb);
	return root;
}

const char *pv_json_type(const json_t *v)
{
	switch (v ? json_typeof(v) : JSON_NULL) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER:
	case JSON_REAL: return "a number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	case JSON_NULL: break;
	}
	return "null";
}

int pv_json_expect(struct pv_err *err, const char *path, const char *jpath,
		   const char *what, const json_t *found)
{
	if (!found)
		return pv_error(err, PV_M_BAD_STRUCTURE, "%s: %s: expected %s, found "
				"nothing (the member is missing)", path, jpath,
				what);
	if (json_is_string(found)) {
		/* Quote a short string: it is usually the clue. */
		const char *s = json_string_value(found);

		if (strlen(s) <= 32 && pv_text_is_clean(s, strlen(s)))
			return pv_error(err, PV_M_BAD_STRUCTURE, "%s: %s: expected %s, "
					"found a string '%s'", path, jpath,
					what, s);
	}
	return pv_error(err, PV_M_BAD_STRUCTURE, "%s: %s: expected %s, found %s", path,
			jpath, what, pv_json_type(found));
}

enum pv_jnum pv_json_num(const json_t *v, double *out)
{
	static const struct {
		const char *s;
		int sign;       /* 0: NaN */
	} names[] = {
		{ "nan", 0 }, { "-nan", 0 }, { "+nan", 0 },
		{ "infinity", 1 }, { "+infinity", 1 }, { "-infinity", -1 },
		{ "inf", 1 }, { "+inf", 1 }, { "-inf", -1 },
	};

	if (json_is_integer(v)) {
		*out = (double)json_integer_value(v);
		return PV_JNUM_OK;
	}
	if (json_is_real(v)) {
		*out = json_real_value(v);
		return PV_JNUM_OK;
	}
	if (json_is_null(v))
		return PV_JNUM_NULL;
	if (!json_is_string(v))
		return PV_JNUM_BAD;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcasecmp(json_string_value(v), names[i].s))
			continue;
		*out = names[i].sign ? names[i].sign * (double)INFINITY : NAN;
		return PV_JNUM_NONFINITE;
	}
	return PV_JNUM_BAD;
}

const char *pv_json_str(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

void pv_jskip_add(struct pv_jskip *skip, const char *jpath, const json_t *v)
{
	if (!skip->skipped++)
		pv_jpathf(skip->first, sizeof(skip->first), "%s = %s", jpath,
			 json_is_string(v) ? json_string_value(v) : "null");
}

int pv_json_emit_array(struct pv_read_ctx *ctx, const json_t *arr,
		       const char *jpath, struct pv_sample *s,
		       struct pv_jskip *skip, struct pv_err *err)
{
	char jp[PV_JPATH_MAX];
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v) {
		switch (pv_json_num(v, &s->value)) {
		case PV_JNUM_OK:
			if (pv_emit(ctx, s, err) < 0)
				return -1;
			skip->good++;
			break;
		case PV_JNUM_NONFINITE:
		case PV_JNUM_NULL:
			if (!skip->skipped)
				pv_jpathf(jp, sizeof(jp), "%s[%zu]", jpath, i);
			pv_jskip_add(skip, jp, v);
			break;
		case PV_JNUM_BAD:
			pv_jpathf(jp, sizeof(jp), "%s[%zu]", jpath, i);
			return pv_json_expect(err, ctx->path, jp, "a number", v);
		}
	}
	return 0;
}

int pv_jskip_finish(struct pv_read_ctx *ctx, const struct pv_sample *s,
		    const char *label, const struct pv_jskip *skip,
		    struct pv_err *err)
{
	if (!skip->skipped)
		return 0;
	pv_warn(ctx, PV_M_SKIPPED_NONFINITE, 0, "%s: skipped %zu non-finite or null value%s "
		"(first: %s)", label, skip->skipped,
		skip->skipped == 1 ? "" : "s", skip->first);
	if (!skip->good)
		return pv_emit_note(ctx, s, "every value was NaN, infinite or "
				    "null, so there is nothing to compare",
				    err);
	return 0;
}

int pv_probe_first(const char *head)
{
	if (!strncmp(head, "\xef\xbb\xbf", 3))
		head += 3;
	while (*head == ' ' || *head == '\t' || *head == '\r' ||
	       *head == '\n')
		head++;
	return (unsigned char)*head;
}

int pv_probe_key(const char *head, const char *key)
{
	size_t n = strlen(key), len = strnlen(head, PV_PROBE_MAX);
	const char *p = head, *end = head + len;

	while ((p = memchr(p, '"', (size_t)(end - p)))) {
		const char *q = p + n + 1;

		if (q < end && *q == '"' && !memcmp(p + 1, key, n)) {
			for (q++; q < end && (*q == ' ' || *q == '\t' ||
					      *q == '\r' || *q == '\n'); q++)
				;
			if (q < end && *q == ':')
				return 1;
		}
		p++;
	}
	return 0;
}

json_t *pv_json_parse_object(const char *path, const char *buf, size_t len,
			     struct pv_err *err)
{
	json_t *root = pv_json_parse(path, buf, len, err);

	if (root && !json_is_object(root)) {
		pv_json_expect(err, path, "$", "an object", root);
		json_decref(root);
		return NULL;
	}
	return root;
}

const json_t *pv_json_array_member(struct pv_read_ctx *ctx, const json_t *obj,
				   const char *key, struct pv_err *err)
{
	const json_t *a = json_object_get(obj, key);

	if (!json_is_array(a)) {
		pv_json_expect(err, ctx->path, key, "an array", a);
		return NULL;
	}
	if (!json_array_size(a))
		pv_no_results(ctx, 0, "no %s in the file: the array is "
			      "empty", key);
	return a;
}
