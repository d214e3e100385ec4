/*
 * strbuf.h - the one growable string of the program (after git's strbuf).
 *
 * Invariants: buf is never NULL and is always NUL-terminated; len is the
 * length without the NUL.  Start from STRBUF_INIT.  After strbuf_detach()
 * the caller owns the returned storage and the strbuf is empty again.
 * Allocation failure aborts, so appends cannot fail.
 */
#ifndef PV_STRBUF_H
#define PV_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

/* The empty buffer of every strbuf that owns none (alloc == 0).  It is
 * read-only, so that a write through an unallocated strbuf faults
 * instead of racing between threads; nothing writes to it, and buf is
 * char * only so that callers may write into an owned buffer. */
extern const char strbuf_slopbuf[];
#define STRBUF_INIT { 0, 0, (char *)strbuf_slopbuf }

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_grow_slow(struct strbuf *sb, size_t extra);
/* Room for extra more bytes and the NUL.  Inline: writers append
 * millions of short pieces, and the room is nearly always there. */
static inline void strbuf_grow(struct strbuf *sb, size_t extra)
{
	if (extra >= sb->alloc - sb->len)   /* alloc is 0 or > len */
		strbuf_grow_slow(sb, extra);
}
void strbuf_reset(struct strbuf *sb);
void strbuf_setlen(struct strbuf *sb, size_t len);

static inline void strbuf_add(struct strbuf *sb, const void *data,
			      size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

static inline void strbuf_addch(struct strbuf *sb, int c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);

/* Append a double in the C locale with printf format fmt ("%.3f"). */
void strbuf_addnum(struct strbuf *sb, const char *fmt, double v);
/* The same as "%.*f" (plus: "%+.*f") and "%g" print, digit for digit,
 * without printf for the usual values (reports print many). */
void strbuf_addfixed(struct strbuf *sb, double v, int prec, int plus);
void strbuf_addg(struct strbuf *sb, double v);

#endif
