/* diag.c - the list of warnings of one run. */
#include "../diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "err.h"
#include "strbuf.h"
#include "text.h"
#include "banned.h"

void pv_diag_add(struct pv_diag *d, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!d)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	/* One printable line, whatever foreign text it quotes. */
	{
		struct strbuf out = STRBUF_INIT;

		strbuf_grow(&out, 4 * sb.len);
		out.len = pv_text_escape_buf(out.buf, out.alloc, sb.buf,
					     sb.len);
		strbuf_release(&sb);
		sb = out;
	}
	if (d->n == d->alloc) {
		d->alloc = d->alloc ? d->alloc * 2 : 8;
		d->msg = pv_reallocarray(d->msg, d->alloc, sizeof(*d->msg));
	}
	d->msg[d->n++] = strbuf_detach(&sb, NULL);
}

void pv_diag_release(struct pv_diag *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->msg[i]);
	free(d->msg);
	d->msg = NULL;
	d->n = d->alloc = 0;
}
