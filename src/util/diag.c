/* diag.c - the list of warnings of one run, and how stderr shows it. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "err.h"
#include "strbuf.h"
#include "text.h"
#include "banned.h"

static void add(struct pv_diag *d, enum pv_msg id, int collapse,
		const char *subj, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT, out = STRBUF_INIT;

	strbuf_vaddf(&sb, fmt, ap);
	/* One printable line, whatever foreign text it quotes. */
	strbuf_grow(&out, 4 * sb.len);
	out.len = pv_text_escape_buf(out.buf, out.alloc, sb.buf, sb.len);
	strbuf_release(&sb);
	if (d->n == d->alloc) {
		d->alloc = d->alloc ? d->alloc * 2 : 8;
		d->msg = pv_reallocarray(d->msg, d->alloc, sizeof(*d->msg));
		d->code = pv_reallocarray(d->code, d->alloc, sizeof(*d->code));
		d->subj = pv_reallocarray(d->subj, d->alloc, sizeof(*d->subj));
	}
	d->code[d->n] = pv_msg_code(id);
	d->subj[d->n] = collapse ? pv_strdup(subj ? subj : "") : NULL;
	d->msg[d->n++] = strbuf_detach(&out, NULL);
}

void pv_diag_add(struct pv_diag *d, enum pv_msg id, const char *fmt, ...)
{
	va_list ap;

	if (!d)
		return;
	va_start(ap, fmt);
	add(d, id, 0, NULL, fmt, ap);
	va_end(ap);
}

void pv_diag_add_subj(struct pv_diag *d, enum pv_msg id, const char *subj,
		      const char *fmt, ...)
{
	va_list ap;

	if (!d)
		return;
	va_start(ap, fmt);
	add(d, id, 1, subj, fmt, ap);
	va_end(ap);
}

void pv_diag_take(struct pv_diag *to, struct pv_diag *from)
{
	for (size_t i = 0; i < from->n; i++) {
		if (to->n == to->alloc) {
			to->alloc = to->alloc ? to->alloc * 2 : 8;
			to->msg = pv_reallocarray(to->msg, to->alloc, sizeof(*to->msg));
			to->code = pv_reallocarray(to->code, to->alloc, sizeof(*to->code));
			to->subj = pv_reallocarray(to->subj, to->alloc, sizeof(*to->subj));
		}
		to->msg[to->n] = from->msg[i];
		to->code[to->n] = from->code[i];
		to->subj[to->n++] = from->subj[i];
	}
	free(from->msg);
	free(from->code);
	free(from->subj);
	from->msg = NULL;
	from->code = NULL;
	from->subj = NULL;
	from->n = from->alloc = 0;
}

/* Warnings about files collapse by code; the others stand alone. */
static int same_kind(const struct pv_diag *d, size_t i, size_t j)
{
	return d->subj[i] && d->subj[j] && !strcmp(d->code[i], d->code[j]);
}

void pv_diag_print(const struct pv_diag *d, FILE *fp, const char *prefix,
		   size_t max)
{
	unsigned char *done = pv_reallocarray(NULL, d->n + 1, 1);
	size_t lines = 0, shown = 0;

	memset(done, 0, d->n + 1);
	for (size_t i = 0; i < d->n; i++) {
		size_t more = 0, files = 0;

		if (done[i])
			continue;
		/* Others of its kind, and how many other files they are
		 * about (files come in order: a change of file is one). */
		for (size_t j = i + 1, prev = i; j < d->n; j++) {
			if (!same_kind(d, i, j))
				continue;
			done[j] = 1;
			more++;
			files += !*d->subj[j] || !*d->subj[prev] ||
				 strcmp(d->subj[j], d->subj[prev]);
			prev = j;
		}
		/* The last line allowed, and more would follow: a tally. */
		if (max && lines + 1 == max && shown + more + 1 < d->n) {
			fprintf(fp, "%swarning: %zu more warning%s not shown (the JSON report lists every one)\n",
				prefix, d->n - shown,
				d->n - shown == 1 ? "" : "s");
			break;
		}
		fprintf(fp, "%s%s: %s", prefix,
			pv_level_name(pv_msg_listed_level(d->code[i])), d->msg[i]);
		if (more && files == more)
			fprintf(fp, " (and %zu more file%s like it)", more,
				more == 1 ? "" : "s");
		else if (more)
			fprintf(fp, " (and %zu more like it)", more);
		fprintf(fp, " [%s]\n", d->code[i]);
		lines++;
		shown += more + 1;
	}
	free(done);
}

void pv_diag_release(struct pv_diag *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->msg[i]);
		free(d->subj[i]);
	}
	free(d->msg);
	free(d->code);
	free(d->subj);
	d->msg = NULL;
	d->code = NULL;
	d->subj = NULL;
	d->n = d->alloc = 0;
}
