/*
 * err.h - the error value every library function fills on failure.
 *
 * Library functions return a negative value and fill a caller-supplied
 * struct pv_err; the message is complete enough to print as it is
 * ("file:line: what went wrong").  On success the struct is not touched.
 * Only main.c prints errors and turns the status into an exit code.
 */
#ifndef PV_ERR_H
#define PV_ERR_H

#include <stddef.h>
#include "msg.h"

/* Exit statuses, as documented in perfverdict.1 (EXIT STATUS). */
enum pv_status {
	PV_OK = 0,
	PV_FAIL = 1,    /* the gate failed: a regression */
	PV_EUSAGE = 2,  /* usage or config error */
	PV_EINPUT = 3,  /* unreadable or malformed input */
	PV_ENOMEM = 4,  /* out of memory (pv_malloc() and friends exit) */
};

struct pv_err {
	enum pv_status status;  /* PV_EUSAGE or PV_EINPUT: id's level */
	enum pv_msg id;         /* which message of msg.h's table */
	char msg[1024];
};

/* Fill err (if not NULL) with message id (an error of msg.h's table,
 * whose level sets the status) worded printf-style; returns -1. */
int pv_error(struct pv_err *err, enum pv_msg id, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Same, prefixed with "file:line: " (line 0 omits the line). */
int pv_error_at(struct pv_err *err, enum pv_msg id, const char *file,
		unsigned long line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* On allocation failure these print one line ("perfverdict: error: out
 * of memory ...") and exit with PV_ENOMEM: callers never see NULL. */
void *pv_malloc(size_t n);
void *pv_calloc(size_t n, size_t size);
void *pv_realloc(void *p, size_t n);
void *pv_reallocarray(void *p, size_t n, size_t size);
char *pv_strdup(const char *s);

/*
 * Checked size arithmetic (git's st_add()/st_mult()): a size that would
 * wrap around is treated like an allocation that failed, never passed
 * on small.  Use them wherever a count times a size is allocated, or
 * ALLOC_ARRAY/REALLOC_ARRAY/CALLOC_ARRAY, which take the element size
 * from the pointer.
 */
void pv_die_size_overflow(size_t a, size_t b, char op)
	__attribute__((noreturn));

static inline size_t st_add(size_t a, size_t b)
{
	if (a > (size_t)-1 - b)
		pv_die_size_overflow(a, b, '+');
	return a + b;
}

static inline size_t st_mult(size_t a, size_t b)
{
	if (b && a > (size_t)-1 / b)
		pv_die_size_overflow(a, b, '*');
	return a * b;
}

#define ALLOC_ARRAY(x, n) ((x) = pv_malloc(st_mult(sizeof(*(x)), (n))))
#define CALLOC_ARRAY(x, n) ((x) = pv_calloc((n), sizeof(*(x))))
#define REALLOC_ARRAY(x, n) ((x) = pv_reallocarray((x), (n), sizeof(*(x))))

#endif
