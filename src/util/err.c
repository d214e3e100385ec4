/* err.c - filling struct pv_err, and allocation that cannot return NULL. */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "atomic.h"
#include "text.h"
#include "banned.h"

/* Messages quote foreign text (names, cells, parser context): make them
 * one line of valid UTF-8 with no control characters, whatever it held. */
static void make_printable(struct pv_err *err)
{
	char raw[sizeof(err->msg)];
	size_t n = strlen(err->msg);

	memcpy(raw, err->msg, n + 1);
	pv_text_escape_buf(err->msg, sizeof(err->msg), raw, n);
}

/* The status of an error of message id; a warning's code used as an
 * error (files without results, unless empty_files = warn) is an input
 * error. */
static void set_id(struct pv_err *err, enum pv_msg id)
{
	int st = pv_level_status(pv_msg_level(id));

	err->id = id;
	err->status = st ? (enum pv_status)st : PV_EINPUT;
}

int pv_error(struct pv_err *err, enum pv_msg id, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	set_id(err, id);
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	make_printable(err);
	return -1;
}

int pv_error_at(struct pv_err *err, enum pv_msg id, const char *file,
		unsigned long line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!err)
		return -1;
	set_id(err, id);
	if (line)
		n = snprintf(err->msg, sizeof(err->msg), "%s:%lu: ", file, line);
	else
		n = snprintf(err->msg, sizeof(err->msg), "%s: ", file);
	if (n < 0 || (size_t)n >= sizeof(err->msg)) {
		make_printable(err);
		return -1;
	}
	va_start(ap, fmt);
	vsnprintf(err->msg + n, sizeof(err->msg) - (size_t)n, fmt, ap);
	va_end(ap);
	make_printable(err);
	return -1;
}

/* The one exit outside main.c: an allocation cannot fail back to its
 * caller.  exit() rather than abort(): a documented status and one line,
 * not a core dump and status 134.  Reports in progress are temporary
 * files that are never renamed into place, so none is left half-written. */
static void *die_oom(size_t n)
{
	pv_atomic_remove_temps();
	fprintf(stderr, "perfverdict: error: out of memory allocating %zu bytes [%s]\n",
		n, pv_msg_code(PV_M_OUT_OF_MEMORY));
	exit(PV_ENOMEM);
}

void pv_die_size_overflow(size_t a, size_t b, char op)
{
	pv_atomic_remove_temps();
	fprintf(stderr, "perfverdict: error: out of memory: %zu %c %zu bytes overflows [%s]\n",
		a, op, b, pv_msg_code(PV_M_OUT_OF_MEMORY));
	exit(PV_ENOMEM);
}

void *pv_malloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	return p ? p : die_oom(n);
}

void *pv_calloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	return p ? p : die_oom(n * size);
}

void *pv_realloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	return q ? q : die_oom(n);
}

void *pv_reallocarray(void *p, size_t n, size_t size)
{
	return pv_realloc(p, st_mult(n, size));
}

char *pv_strdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(pv_malloc(n), s, n);
}
