/*
 * jsonutil.h - what the JSON readers (gbench, pyperf, hyperfine, pytest,
 * criterion, jmh) share: parsing with positions in the error, naming the
 * JSON path of a value that has the wrong type, numbers that may be
 * spelled as non-finite strings, arrays of samples, and content probes.
 *
 * JSON paths in messages look like "benchmarks[3].real_time": object
 * members joined with '.', array elements as [i], the top level as "$"
 * only when nothing else can be named.
 */
#ifndef PV_JSONUTIL_H
#define PV_JSONUTIL_H

#include <stddef.h>
#include <jansson.h>
#include "reader.h"

/* Room for one JSON path; longer paths are cut, which only shortens a
 * message. */
#define PV_JPATH_MAX 256

/* snprintf that may cut: JSON paths and names in messages are allowed
 * to be shortened.  (A function of its own so that the compiler does not
 * warn about the truncation each call intends.) */
void pv_jpathf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Parse buf[0..len) as one JSON object or array.  A leading UTF-8 byte
 * order mark is skipped.  Bare NaN, Infinity and -Infinity tokens
 * outside strings (Google Benchmark and Python's json module print them;
 * they are not JSON) are first rewritten as the strings "NaN",
 * "Infinity" and "-Infinity", so that pv_json_num() can name them; line
 * numbers are kept, and a column after such a token on the same line is
 * off by two per token.  On a syntax error fills err with
 * "path:line:col: <jansson's text>" (PV_EINPUT) and returns NULL.  The
 * caller owns the result (json_decref).
 */
json_t *pv_json_parse(const char *path, const char *buf, size_t len,
		      struct pv_err *err);

/*
 * After json_loadb() failed with je: when jansson ran out of memory
 * (json_error_code() is json_error_out_of_memory, or it failed with no
 * text at all, as its failed allocations do), fill err with the out-of-memory error naming path (exit
 * status 4, never "malformed") and return 1; otherwise return 0.
 */
int pv_json_oom(const char *path, const json_error_t *je, struct pv_err *err);

/* pv_json_parse() of a document whose top level must be an object. */
json_t *pv_json_parse_object(const char *path, const char *buf, size_t len,
			     struct pv_err *err);

/*
 * obj[key], which must be an array (NULL with err filled otherwise).  An
 * empty one is allowed, with the warning "no <key> in the file".
 */
const json_t *pv_json_array_member(struct pv_read_ctx *ctx, const json_t *obj,
				   const char *key, struct pv_err *err);

/* "an object", "an array", "a string", "a number", "a boolean", "null". */
const char *pv_json_type(const json_t *v);

/* Fill err with "path: jpath: expected <what>, found <type>" (PV_EINPUT)
 * and return -1. */
int pv_json_expect(struct pv_err *err, const char *path, const char *jpath,
		   const char *what, const json_t *found);

enum pv_jnum {
	PV_JNUM_OK = 0,
	PV_JNUM_NONFINITE,      /* "NaN", "Infinity", "+INF", "-INF"... */
	PV_JNUM_NULL,           /* JSON null */
	PV_JNUM_BAD,            /* anything else: a shape error */
};

/*
 * A sample value.  Numbers are PV_JNUM_OK (*out set); the strings
 * NaN, -NaN, Infinity, +Infinity, -Infinity, INF, +INF, -INF (any case)
 * are PV_JNUM_NONFINITE (*out set to NaN or +-inf).
 */
enum pv_jnum pv_json_num(const json_t *v, double *out);

/* A string member of obj, or NULL when absent or not a string. */
const char *pv_json_str(const json_t *obj, const char *key);

/*
 * Skipped sample values of one metric, counted while its arrays are
 * emitted and reported once by pv_jskip_finish().
 */
struct pv_jskip {
	size_t good;            /* samples emitted */
	size_t skipped;         /* non-finite or null values */
	char first[PV_JPATH_MAX + 32]; /* "jpath (NaN)" of the first skip */
};

/*
 * Emit every element of the array arr (found at jpath) as one sample s
 * (s->value is overwritten).  Non-finite and null elements are counted
 * in skip and left out; any other non-number is an error naming
 * jpath[i].  arr must be an array.
 */
int pv_json_emit_array(struct pv_read_ctx *ctx, const json_t *arr,
		       const char *jpath, struct pv_sample *s,
		       struct pv_jskip *skip, struct pv_err *err);

/* Note one skipped value (what: "NaN", "null"...) at jpath. */
void pv_jskip_add(struct pv_jskip *skip, const char *jpath,
		  const json_t *v);

/*
 * After the last sample of metric s: warn about the skipped values and,
 * when none of the metric's values was usable, declare it with a note so
 * that its verdict is insufficient rather than missing.  label names the
 * metric in the warning.
 */
int pv_jskip_finish(struct pv_read_ctx *ctx, const struct pv_sample *s,
		    const char *label, const struct pv_jskip *skip,
		    struct pv_err *err);

/*
 * Content probes.  pv_probe_first() is the first character of head that
 * is not blank (after a UTF-8 BOM), or 0.  pv_probe_key() is true when
 * head has the member name "key" followed by a colon; it only looks at
 * text, so a key inside a string value can match too, which is why every
 * probe asks for two or more keys.  Both stop after PV_PROBE_MAX bytes:
 * the loader hands probes the whole file, and the keys that tell the
 * formats apart are all near the top.
 */
#define PV_PROBE_MAX 65536  /* probes look at most this far into a file */

int pv_probe_first(const char *head);
int pv_probe_key(const char *head, const char *key);

#endif
