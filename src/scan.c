/*
 * scan.c - walking result trees and loading their files; see scan.h.
 */
#include "scan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "readers/reader.h"
#include "util/file.h"
#include "util/strbuf.h"
#include "util/banned.h"

struct walk {
	struct pv_scan *out;
	const struct pv_suite *suite;
	const struct pv_limits *lim;
	struct strbuf path;     /* root + "/" + relative path */
	size_t rootlen;
	size_t alloc;
	struct pv_err *err;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *xstrdup_printf(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static char *xstrdup_printf(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb, NULL);
}

static int cmp_file(const void *a, const void *b)
{
	return strcmp(((const struct pv_file *)a)->relpath,
		      ((const struct pv_file *)b)->relpath);
}

/*
 * w->path names something the suite would take that is not a regular
 * file.  Symlinks are never followed (no loops, nothing outside the
 * tree); the rest cannot be read as a file without blocking.
 */
static int skip(struct walk *w, const struct stat *st)
{
	const char *what = S_ISLNK(st->st_mode) ? "a symbolic link" :
			   S_ISFIFO(st->st_mode) ? "a FIFO" :
			   S_ISSOCK(st->st_mode) ? "a socket" : "a device";

	if (!S_ISLNK(st->st_mode) && w->suite->pattern)
		return pv_error(w->err, PV_EINPUT,
				"%s: %s, not a regular file: cannot read it as a result file (it matches result_file_pattern)",
				w->path.buf, what);
	w->out->skipped++;
	w->out->notes = pv_reallocarray(w->out->notes, w->out->nnotes + 1,
					sizeof(*w->out->notes));
	w->out->notes[w->out->nnotes++] = S_ISLNK(st->st_mode) ?
		xstrdup_printf("%s: ignoring a symbolic link: links are not followed",
				 w->path.buf) :
		xstrdup_printf("%s: ignoring %s: not a regular file",
				 w->path.buf, what);
	return 0;
}

static int walk_dir(struct walk *w, unsigned depth)
{
	DIR *d;
	struct dirent *de;
	size_t len = w->path.len;
	int rc = 0;

	if (depth > w->lim->max_depth)
		return pv_error(w->err, PV_EINPUT,
				"%s: deeper than %u directories (limits.max_depth)",
				w->path.buf, w->lim->max_depth);
	d = opendir(w->path.buf);
	if (!d)
		return pv_error(w->err, PV_EINPUT, "cannot read directory '%s': %s",
				w->path.buf, strerror(errno));
	while (!rc && (errno = 0, de = readdir(d))) {
		struct stat st;
		const char *rel;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		strbuf_setlen(&w->path, len);
		strbuf_addch(&w->path, '/');
		strbuf_addstr(&w->path, de->d_name);
		rel = w->path.buf + w->rootlen + 1;
		if (lstat(w->path.buf, &st)) {
			rc = pv_error(w->err, PV_EINPUT, "cannot stat '%s': %s",
				      w->path.buf, strerror(errno));
		} else if (S_ISDIR(st.st_mode)) {
			rc = walk_dir(w, depth + 1);
		} else if (!w->suite->pattern ||
			   !regexec(&w->suite->re, rel, 0, NULL, 0)) {
			struct pv_file *f;

			if (!S_ISREG(st.st_mode)) {
				rc = skip(w, &st);
				continue;
			}
			if (w->out->n == w->alloc) {
				w->alloc = w->alloc ? w->alloc * 2 : 64;
				w->out->f = pv_reallocarray(w->out->f, w->alloc,
							    sizeof(*w->out->f));
			}
			f = &w->out->f[w->out->n++];
			f->relpath = pv_strdup(rel);
			f->test = pv_test_id(rel, &w->suite->repeat_re);
		}
	}
	if (!rc && errno) {
		int e = errno;

		strbuf_setlen(&w->path, len);
		rc = pv_error(w->err, PV_EINPUT, "cannot read directory '%s': %s",
			      w->path.buf, strerror(e));
	}
	closedir(d);
	strbuf_setlen(&w->path, len);
	return rc;
}

int pv_scan_tree(const char *root, const struct pv_suite *suite,
		 const struct pv_limits *lim, struct pv_scan *out,
		 struct pv_err *err)
{
	struct walk w = { out, suite, lim, STRBUF_INIT, 0, 0, err };
	struct stat st;
	int rc;

	memset(out, 0, sizeof(*out));
	if (stat(root, &st))
		return pv_error(err, PV_EINPUT, "cannot read tree '%s': %s",
				root, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return pv_error(err, PV_EINPUT,
				"'%s' is not a directory: expected a result tree",
				root);
	out->root = pv_strdup(root);
	strbuf_addstr(&w.path, root);
	while (w.path.len > 1 && w.path.buf[w.path.len - 1] == '/')
		strbuf_setlen(&w.path, w.path.len - 1);
	w.rootlen = w.path.len;
	rc = walk_dir(&w, 0);
	strbuf_release(&w.path);
	if (rc) {
		pv_scan_release(out);
		return -1;
	}
	/* Files, and warnings, in path order, never readdir order.
	 * (qsort's base may not be NULL, even for no elements.) */
	if (out->n)
		qsort(out->f, out->n, sizeof(*out->f), cmp_file);
	if (out->nnotes)
		qsort(out->notes, out->nnotes, sizeof(*out->notes), cmp_str);
	return 0;
}

void pv_scan_release(struct pv_scan *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->f[i].relpath);
		free(s->f[i].test);
	}
	free(s->f);
	for (size_t i = 0; i < s->nnotes; i++)
		free(s->notes[i]);
	free(s->notes);
	free(s->root);
	memset(s, 0, sizeof(*s));
}

static int is_sep(char c)
{
	return c == '.' || c == '_' || c == '-';
}

char *pv_test_id(const char *relpath, const regex_t *repeat_re)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = relpath;
	regmatch_t m;
	int flags = 0;

	while (*p && !regexec(repeat_re, p, 1, &m, flags) && m.rm_eo > 0) {
		const char *start = p + m.rm_so, *end = p + m.rm_eo;
		int before = start == relpath || start[-1] == '/' ||
			     is_sep(start[-1]);

		/* "repeat1/r.RHS" -> "r.RHS", "a/repeat1/r" -> "a/r": a
		 * whole path component goes with its slash. */
		if ((start == relpath || start[-1] == '/') && *end == '/')
			end++;
		/* "kvm.repeat1.smp2" -> "kvm.smp2": drop one separator. */
		else if (before && is_sep(*end))
			end++;
		else if (*end == '/' || !*end)
			while (start > p && is_sep(start[-1]))
				start--;
		strbuf_add(&sb, p, (size_t)(start - p));
		p = end;
		flags = REG_NOTBOL;
	}
	strbuf_addstr(&sb, p);
	return strbuf_detach(&sb, NULL);
}

/* Inflate a gzip buffer (pyperf's .json.gz) within the size limit. */
static int gunzip(const char *path, const struct strbuf *in, size_t max,
		  struct strbuf *out, struct pv_err *err)
{
	z_stream zs;
	unsigned char buf[65536];
	int rc;

	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, 15 + 16) != Z_OK)
		return pv_error(err, PV_EINPUT, "%s: cannot start gzip decoder",
				path);
	zs.next_in = (unsigned char *)in->buf;
	zs.avail_in = (uInt)in->len;
	do {
		zs.next_out = buf;
		zs.avail_out = sizeof(buf);
		rc = inflate(&zs, Z_NO_FLUSH);
		if (rc != Z_OK && rc != Z_STREAM_END) {
			inflateEnd(&zs);
			return pv_error(err, PV_EINPUT,
					"%s: corrupt gzip data: %s", path,
					zs.msg ? zs.msg : "unexpected end");
		}
		strbuf_add(out, buf, sizeof(buf) - zs.avail_out);
		if (out->len > max) {
			inflateEnd(&zs);
			return pv_error(err, PV_EINPUT,
					"%s: inflates to more than %zu bytes (limits.max_file_size)",
					path, max);
		}
	} while (rc != Z_STREAM_END);
	inflateEnd(&zs);
	return 0;
}

/* A file's test id beside its index: the comparator needs no context. */
struct file_test {
	const char *test;
	size_t i;
};

static int cmp_file_test(const void *pa, const void *pb)
{
	const struct file_test *a = pa, *b = pb;
	int c = strcmp(a->test, b->test);

	return c ? c : (a->i < b->i ? -1 : 1);
}

/* How many files each file's test has (its repeats); returns the most. */
static size_t count_runs(const struct pv_scan *sc, uint32_t *runs)
{
	struct file_test *idx;
	size_t best = 0;

	ALLOC_ARRAY(idx, st_add(sc->n, 1));
	for (size_t i = 0; i < sc->n; i++) {
		idx[i].test = sc->f[i].test;
		idx[i].i = i;
	}
	qsort(idx, sc->n, sizeof(*idx), cmp_file_test);
	for (size_t i = 0, j; i < sc->n; i = j) {
		for (j = i; j < sc->n && !strcmp(idx[j].test, idx[i].test); j++)
			;
		for (size_t k = i; k < j; k++)
			runs[idx[k].i] = (uint32_t)(j - i);
		if (j - i > best)
			best = j - i;
	}
	free(idx);
	return best;
}

int pv_load_side(struct pv_table *t, enum pv_side side,
		 const struct pv_scan *sc, const struct pv_suite *suite,
		 const char *format, const struct pv_config *cfg,
		 struct pv_diag *diag, struct pv_err *err)
{
	const struct pv_reader *forced = NULL;
	struct strbuf path = STRBUF_INIT, raw = STRBUF_INIT, text = STRBUF_INIT;
	struct pv_sidemeta *sm = &t->side[side];
	uint32_t file = 0, *runs;
	int rc = 0;

	if (format && strcmp(format, "auto")) {
		forced = pv_reader_by_name(format);
		if (!forced)
			return pv_error(err, PV_EUSAGE,
					"unknown format '%s' (see 'perfverdict formats')",
					format);
	}
	sm->path = arena_strdup(&t->arena, sc->root);
	ALLOC_ARRAY(runs, st_add(sc->n, 1));
	sm->runs = count_runs(sc, runs);
	for (size_t i = 0; i < sc->nnotes; i++)
		pv_diag_add(diag, "%s", sc->notes[i]);
	for (size_t i = 0; !rc && i < sc->n; i++) {
		const struct pv_file *f = &sc->f[i];
		const struct pv_reader *rd = forced;
		struct strbuf *content = &raw;
		struct pv_read_ctx ctx;

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", sc->root, f->relpath);
		/* One file at a time, read whole into a buffer of its size:
		 * the last one's goes first. */
		strbuf_release(&raw);
		strbuf_release(&text);
		/* The scan saw it a moment ago: gone now is an error too. */
		rc = pv_read_file(path.buf, path.buf, cfg->limits.max_file_size,
				  &raw, err);
		if (rc > 0)
			rc = pv_error(err, PV_EINPUT, "cannot read '%s': %s",
				      path.buf, strerror(ENOENT));
		if (rc)
			break;
		if (raw.len >= 2 && (unsigned char)raw.buf[0] == 0x1f &&
		    (unsigned char)raw.buf[1] == 0x8b) {
			if (gunzip(path.buf, &raw, cfg->limits.max_file_size,
				   &text, err)) {
				rc = -1;
				break;
			}
			content = &text;
		}
		strbuf_grow(content, 0);  /* NUL-terminated even if empty */
		if (!rd)
			rd = pv_reader_detect(f->relpath, content->buf,
					      content->len);
		if (!rd) {
			if (!suite->pattern)
				continue;
			rc = pv_error(err, PV_EINPUT,
				      "%s: cannot tell the format of this file: expected one of 'perfverdict formats' (set format = in the suite or use -f)",
				      path.buf);
			break;
		}
		ctx = (struct pv_read_ctx){
			.table = t, .side = side, .suite = suite, .cfg = cfg,
			.test = f->test, .path = path.buf, .relpath = f->relpath,
			.root = sc->root, .file = file, .diag = diag,
		};
		pv_table_hint(t, runs[i]);
		rc = rd->read(&ctx, content->buf, content->len, err);
		file++;
	}
	sm->files = file;
	free(runs);
	strbuf_release(&path);
	strbuf_release(&raw);
	strbuf_release(&text);
	return rc;
}
