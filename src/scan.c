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
#include <jansson.h>
#include "readers/reader.h"
#include "util/num.h"
#include "util/text.h"
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
		return pv_error(w->err, PV_M_NOT_REGULAR_FILE,
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
		return pv_error(w->err, PV_M_TOO_DEEP,
				"%s: deeper than %u directories (limits.max_depth)",
				w->path.buf, w->lim->max_depth);
	d = opendir(w->path.buf);
	if (!d)
		return pv_error(w->err, PV_M_CANNOT_READ, "cannot read directory '%s': %s",
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
			rc = pv_error(w->err, PV_M_CANNOT_READ, "cannot stat '%s': %s",
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
		rc = pv_error(w->err, PV_M_CANNOT_READ, "cannot read directory '%s': %s",
			      w->path.buf, strerror(e));
	}
	closedir(d);
	strbuf_setlen(&w->path, len);
	return rc;
}

/* compare FILE FILE: the one file, named by its base name. */
static int scan_file(const char *root, const struct pv_suite *suite,
		     struct pv_scan *out)
{
	const char *slash = strrchr(root, '/');
	const char *base = slash ? slash + 1 : root;

	out->root = pv_strdup(root);
	if (!slash)
		out->dir = pv_strdup(".");
	else if (slash == root)
		out->dir = pv_strdup("/");
	else
		out->dir = xstrdup_printf("%.*s", (int)(slash - root), root);
	out->f = pv_reallocarray(NULL, 1, sizeof(*out->f));
	out->f[0].relpath = pv_strdup(base);
	out->f[0].test = pv_test_id(base, &suite->repeat_re);
	out->n = 1;
	return 0;
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
		return pv_error(err, PV_M_CANNOT_READ, "cannot read tree '%s': %s",
				root, strerror(errno));
	if (S_ISREG(st.st_mode))
		return scan_file(root, suite, out);
	if (!S_ISDIR(st.st_mode))
		return pv_error(err, PV_M_NOT_A_TREE,
				"'%s' is not a directory or a regular file: expected a result tree or a result file",
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
	free(s->dir);
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

/* See scan.h.  Every member, as gunzip -c reads them; anything else
 * after the last one is an error, not silently dropped. */
int pv_gunzip(const char *path, const struct strbuf *in,
	      const struct pv_limits *l, struct strbuf *out, struct pv_err *err)
{
	z_stream zs;
	unsigned char buf[65536];
	size_t max = l->max_inflated_size < l->max_file_size ?
		     l->max_inflated_size : l->max_file_size;
	int rc;

	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, 15 + 16) != Z_OK)
		return pv_error(err, PV_M_BAD_GZIP, "%s: cannot start gzip decoder",
				path);
	zs.next_in = (unsigned char *)in->buf;
	zs.avail_in = (uInt)in->len;
	for (;;) {
		zs.next_out = buf;
		zs.avail_out = sizeof(buf);
		rc = inflate(&zs, Z_NO_FLUSH);
		if (rc != Z_OK && rc != Z_STREAM_END) {
			inflateEnd(&zs);
			return pv_error(err, PV_M_BAD_GZIP,
					"%s: corrupt gzip data: %s", path,
					zs.msg ? zs.msg : "unexpected end");
		}
		if (out->len + (sizeof(buf) - zs.avail_out) > max) {
			inflateEnd(&zs);
			if (max == l->max_file_size)
				return pv_error(err, PV_M_TOO_LARGE,
						"%s: inflates to more than %zu bytes (limits.max_file_size)",
						path, max);
			return pv_error(err, PV_M_TOO_LARGE,
					"%s: inflates past max_inflated_size (%zu bytes); raise [limits] max_inflated_size to read it",
					path, max);
		}
		strbuf_add(out, buf, sizeof(buf) - zs.avail_out);
		if (rc != Z_STREAM_END)
			continue;
		if (!zs.avail_in)
			break;
		if (zs.avail_in < 2 || zs.next_in[0] != 0x1f ||
		    zs.next_in[1] != 0x8b) {
			size_t at = in->len - zs.avail_in;

			inflateEnd(&zs);
			return pv_error(err, PV_M_BAD_GZIP,
					"%s: trailing data after the gzip data at byte %zu: expected another gzip member or the end of the file",
					path, at);
		}
		inflateReset(&zs);
	}
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

/* Text whose lines end in CR alone (classic Mac OS): no LF at all, and a
 * CR with more after it.  Every line reader sees one line.  JSON and XML
 * do not care, so files that start like them are not counted. */
static int cr_only(const char *buf, size_t len)
{
	const char *p = buf, *cr;

	while (p < buf + len && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	if (p == buf + len || *p == '{' || *p == '[' || *p == '<' ||
	    memchr(buf, '\n', len))
		return 0;
	cr = memchr(p, '\r', (size_t)(buf + len - p));
	while (cr && cr + 1 < buf + len && cr[1] == '\r')
		cr++;
	return cr && cr + 1 < buf + len;
}

/*
 * What is wrong with a file no reader recognised, in a few words, into
 * out: it is empty, blank, binary, not valid JSON, JSON of a shape no
 * reader knows, one endless line...  Quoted content is escaped.
 */
static void describe(const char *buf, size_t len, size_t max_line,
		     char *out, size_t size)
{
	const char *p = buf, *end = buf + len, *nl;
	char quote[128];

	if (len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3))
		p += 3;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' ||
			   *p == '\n'))
		p++;
	if (!len) {
		pv_snprintf(out, size, "the file is empty");
	} else if (p == end) {
		pv_snprintf(out, size, "the file holds only blank space");
	} else if ((nl = memchr(buf, '\0', len))) {
		pv_snprintf(out, size, "binary data (a NUL byte at offset %zu), not a text file",
			    (size_t)(nl - buf));
	} else if (*p == '{' || *p == '[') {
		json_error_t je;
		json_t *j = json_loadb(p, (size_t)(end - p), 0, &je);

		if (!j) {
			pv_text_escape_buf(quote, sizeof(quote), je.text,
					   strlen(je.text));
			pv_snprintf(out, size, "not valid JSON (line %d, column %d: %s)",
				    je.line, je.column, quote);
		} else if (json_is_array(j)) {
			pv_snprintf(out, size, "a JSON array of %zu elements that no reader knows (JMH writes an array of result objects, criterion 0.2 a pair of arrays)",
				    json_array_size(j));
		} else {
			struct strbuf keys = STRBUF_INIT;
			const char *k;
			json_t *v;
			size_t n = 0;

			json_object_foreach(j, k, v) {
				if (n++ < 4)
					strbuf_addf(&keys, "%s'%s'",
						    n > 1 ? ", " : "", k);
			}
			if (n > 4)
				strbuf_addstr(&keys, ", ...");
			pv_text_escape_buf(quote, sizeof(quote), keys.buf,
					   keys.len);
			pv_snprintf(out, size, "a JSON object %s%s that no reader knows",
				    n ? "with keys " : "with no keys",
				    n ? quote : "");
			strbuf_release(&keys);
		}
		json_decref(j);
	} else if (cr_only(buf, len)) {
		pv_snprintf(out, size, "CR-only line endings: the whole file is one line; expected LF or CRLF line ends");
	} else {
		const char *stop = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((stop ? stop : end) - p);

		if (max_line && n > max_line) {
			pv_snprintf(out, size, "a line longer than %zu bytes (limits.max_line)",
				    max_line);
			return;
		}
		if (n && p[n - 1] == '\r')
			n--;
		pv_text_escape_buf(quote, sizeof(quote), p, n > 40 ? 40 : n);
		pv_snprintf(out, size, "no reader knows its first line '%s%s'",
			    quote, n > 40 ? "..." : "");
	}
}

static const char *side_name(enum pv_side side)
{
	return side == PV_BASE ? "baseline" : "candidate";
}

/* A file that should have held results but did not: an input error, or
 * a warning when [limits] empty_files = warn.  msg is the whole text. */
static int no_results(const struct pv_config *cfg, struct pv_diag *diag,
		      enum pv_msg id, const char *path, const char *msg,
		      struct pv_err *err)
{
	if (cfg->limits.empty_files_warn) {
		pv_diag_add_subj(diag, id, path, "%s", msg);
		return 0;
	}
	return pv_error(err, id, "%s ([limits] empty_files = warn allows such files)",
			msg);
}

static int cmp_finfo(const void *a, const void *b)
{
	const struct pv_fileinfo *x = *(const struct pv_fileinfo *const *)a;
	const struct pv_fileinfo *y = *(const struct pv_fileinfo *const *)b;
	int c = strcmp(x->test, y->test);

	/* Ties: the earlier file, by address (they are in one array). */
	return c ? c : (x < y ? -1 : x > y);
}

/* The files of sm that a reader read with results, sorted by test id
 * (*n of them; caller frees). */
static const struct pv_fileinfo **known_files(const struct pv_sidemeta *sm,
					      size_t *n)
{
	const struct pv_fileinfo **k =
		pv_reallocarray(NULL, sm->nfinfo + 1, sizeof(*k));

	*n = 0;
	for (size_t i = 0; i < sm->nfinfo; i++)
		if (sm->finfo[i].format && sm->finfo[i].results)
			k[(*n)++] = &sm->finfo[i];
	if (*n)
		qsort(k, *n, sizeof(*k), cmp_finfo);
	return k;
}

/* The first of the n sorted known files whose test id is test, or NULL. */
static const struct pv_fileinfo *find_known(const struct pv_fileinfo **k,
					    size_t n, const char *test)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(k[mid]->test, test) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(k[lo]->test, test) ? k[lo] : NULL;
}

/* Is a file of side sm's tree that held results? */
static int any_results(const struct pv_sidemeta *sm)
{
	for (size_t i = 0; i < sm->nfinfo; i++)
		if (sm->finfo[i].results)
			return 1;
	return 0;
}

/* "no result files found in candidate tree 'X'", with why. */
static int no_result_files(const struct pv_sidemeta *sm, enum pv_side side,
			   const struct pv_suite *suite, struct pv_err *err)
{
	size_t unknown = 0;

	for (size_t i = 0; i < sm->nfinfo; i++)
		unknown += !sm->finfo[i].format;
	if (!sm->nfinfo)
		return pv_error(err, PV_M_NO_RESULT_FILES, "no result files found in %s tree '%s'%s",
				side_name(side), sm->path,
				suite->pattern ? " (check result_file_pattern)" :
				": it holds no files");
	if (unknown == sm->nfinfo)
		return pv_error(err, PV_M_NO_RESULT_FILES, "no result files found in %s tree '%s': none of its %zu files is of a known format (see 'perfverdict formats')",
				side_name(side), sm->path, unknown);
	return pv_error(err, PV_M_NO_RESULT_FILES, "no result files found in %s tree '%s': none of its %zu files holds results",
			side_name(side), sm->path, sm->nfinfo);
}

/*
 * The files of side `side` that no reader knew, whose test id another
 * file of `side` read (a repeat of the same test), or with `other` a
 * file of the other side: each is what a crashed or broken run left in
 * place of its results.
 */
static int check_unread(struct pv_table *t, enum pv_side side, int other,
			const struct pv_config *cfg, struct pv_diag *diag,
			struct pv_err *err)
{
	const struct pv_sidemeta *sm = &t->side[side];
	const struct pv_fileinfo **mine, **theirs = NULL;
	size_t nmine, ntheirs = 0;
	int rc = 0;

	mine = known_files(sm, &nmine);
	if (other)
		theirs = known_files(&t->side[!side], &ntheirs);
	for (size_t i = 0; !rc && i < sm->nfinfo; i++) {
		const struct pv_fileinfo *u = &sm->finfo[i], *k;
		struct strbuf msg = STRBUF_INIT;

		if (u->format || u->reported)
			continue;
		k = find_known(mine, nmine, u->test);
		if (!k)
			k = find_known(theirs, ntheirs, u->test);
		if (!k)
			continue;
		strbuf_addf(&msg, "%s: cannot read it as any format: %s; expected %s results, as in '%s'",
			    u->path, u->why, k->format, k->path);
		rc = no_results(cfg, diag, PV_M_UNREADABLE_FILE, u->path, msg.buf, err);
		strbuf_release(&msg);
	}
	free(mine);
	free(theirs);
	return rc;
}

/* The baseline's only file, when the baseline scan found one file and
 * it held results. */
static const struct pv_fileinfo *only_file(const struct pv_sidemeta *sm)
{
	return sm->nfinfo == 1 && sm->finfo[0].format &&
	       sm->finfo[0].results ? &sm->finfo[0] : NULL;
}

/*
 * One file at a time, read whole into a buffer of its size (the last
 * one's goes first): raw, or text when raw is gzip; *content says
 * which, NUL-terminated even if empty.
 */
static int read_content(const char *path, const struct pv_config *cfg,
			struct strbuf *raw, struct strbuf *text,
			struct strbuf **content, struct pv_err *err)
{
	int rc;

	strbuf_release(raw);
	strbuf_release(text);
	*content = raw;
	/* The scan saw it a moment ago: gone now is an error too. */
	rc = pv_read_file(path, path, cfg->limits.max_file_size, raw, err);
	if (rc > 0)
		rc = pv_error(err, PV_M_CANNOT_READ, "cannot read '%s': %s",
			      path, strerror(ENOENT));
	if (rc)
		return rc;
	if (raw->len >= 2 && (unsigned char)raw->buf[0] == 0x1f &&
	    (unsigned char)raw->buf[1] == 0x8b) {
		if (pv_gunzip(path, raw, &cfg->limits, text, err))
			return -1;
		*content = text;
	}
	strbuf_grow(*content, 0);
	return 0;
}

/* Only blanks (and no NUL) in buf[0..len). */
static int is_blank(const char *buf, size_t len)
{
	const char *p = buf;

	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	return !*p && (size_t)(p - buf) == len;
}

/* After a reader: a file that gave no sample (and is no companion
 * file) is reported; the reader's note otherwise becomes a warning. */
static int after_read(struct pv_read_ctx *ctx, struct strbuf *msg,
		      struct pv_err *err)
{
	if (!ctx->emitted && !ctx->companion) {
		strbuf_reset(msg);
		if (ctx->why_line)
			strbuf_addf(msg, "%s:%lu: ", ctx->path, ctx->why_line);
		else
			strbuf_addf(msg, "%s: ", ctx->path);
		strbuf_addf(msg, "%s: the file holds no results",
			    ctx->why[0] ? ctx->why :
			    "no benchmark in it gave a sample");
		return no_results(ctx->cfg, ctx->diag, PV_M_NO_RESULTS,
				  ctx->path, msg->buf, err);
	}
	if (ctx->why[0])
		pv_warn(ctx, PV_M_PARTLY_EMPTY, ctx->why_line, "%s", ctx->why);
	return 0;
}

/* -f FORMAT (or the suite's format =): NULL for auto. */
static int forced_reader(const char *format, const struct pv_reader **out,
			 struct pv_err *err)
{
	*out = NULL;
	if (!format || !strcmp(format, "auto"))
		return 0;
	*out = pv_reader_by_name(format);
	if (!*out)
		return pv_error(err, PV_M_UNKNOWN_FORMAT,
				"unknown format '%s' (see 'perfverdict formats')",
				format);
	return 0;
}

/* Where scan file f is: the root itself when the side is one file. */
static void file_path(struct strbuf *path, const struct pv_scan *sc,
		      const struct pv_file *f)
{
	strbuf_reset(path);
	if (sc->dir)
		strbuf_addstr(path, sc->root);
	else
		strbuf_addf(path, "%s/%s", sc->root, f->relpath);
}

/* A file no reader takes: its test, and what it holds in why. */
static void note_why(struct pv_table *t, struct pv_fileinfo *fi,
		     const char *test, const struct strbuf *content,
		     const struct pv_config *cfg, char why[256])
{
	describe(content->buf, content->len, cfg->limits.max_line, why, 256);
	fi->test = arena_strdup(&t->arena, test);
	fi->why = arena_strdup(&t->arena, why);
}

/* A side read: the files of a known format that gave nothing; once both
 * sides are read, a side without results (so that a broken candidate
 * file is named first).  history reads a point as a candidate alone: a
 * baseline that was never read is not empty. */
static int check_side(struct pv_table *t, enum pv_side side,
		      const struct pv_suite *suite,
		      const struct pv_config *cfg, struct pv_diag *diag,
		      struct pv_err *err)
{
	int rc = check_unread(t, side, side == PV_CAND, cfg, diag, err);

	if (!rc && side == PV_CAND)
		rc = check_unread(t, PV_BASE, 1, cfg, diag, err);
	for (int s = 0; !rc && side == PV_CAND && s < 2; s++)
		if ((s == PV_CAND || t->side[PV_BASE].path) &&
		    !any_results(&t->side[s]))
			rc = no_result_files(&t->side[s], (enum pv_side)s,
					     suite, err);
	return rc;
}

int pv_load_side(struct pv_table *t, enum pv_side side,
		 const struct pv_scan *sc, const struct pv_suite *suite,
		 const char *format, const struct pv_config *cfg,
		 struct pv_diag *diag, struct pv_err *err)
{
	const struct pv_reader *forced = NULL;
	struct strbuf path = STRBUF_INIT, raw = STRBUF_INIT, text = STRBUF_INIT;
	struct strbuf msg = STRBUF_INIT;
	struct pv_sidemeta *sm = &t->side[side];
	const struct pv_fileinfo **base_known = NULL;
	uint32_t file = 0, *runs;
	size_t nbase_known = 0;
	int rc = 0;

	if (forced_reader(format, &forced, err))
		return -1;
	sm->path = arena_strdup(&t->arena, sc->root);
	ALLOC_ARRAY(runs, st_add(sc->n, 1));
	sm->runs = count_runs(sc, runs);
	free(sm->finfo);
	sm->finfo = pv_reallocarray(NULL, sc->n + 1, sizeof(*sm->finfo));
	sm->nfinfo = 0;
	for (size_t i = 0; i < sc->nnotes; i++)
		pv_diag_add(diag, PV_M_IGNORED_FILE, "%s", sc->notes[i]);
	if (side == PV_CAND && !forced)
		base_known = known_files(&t->side[PV_BASE], &nbase_known);
	for (size_t i = 0; !rc && i < sc->n; i++) {
		const struct pv_file *f = &sc->f[i];
		const struct pv_reader *rd = forced;
		const struct pv_fileinfo *peer;
		struct strbuf *content;
		struct pv_fileinfo *fi;
		struct pv_read_ctx ctx;
		const char *test = f->test;
		char why[256];

		file_path(&path, sc, f);
		rc = read_content(path.buf, cfg, &raw, &text, &content, err);
		if (rc)
			break;
		if (!rd)
			rd = pv_reader_detect(f->relpath, content->buf,
					      content->len);
		fi = &sm->finfo[sm->nfinfo++];
		memset(fi, 0, sizeof(*fi));
		fi->path = arena_strdup(&t->arena, path.buf);
		if (!rd && (peer = find_known(base_known, nbase_known, test))) {
			/* The baseline read this path: read it the same way,
			 * so that the reader says what is wrong, or say it is
			 * empty. */
			if (is_blank(content->buf, content->len)) {
				note_why(t, fi, test, content, cfg, why);
				strbuf_reset(&msg);
				strbuf_addf(&msg, "%s: %s: the file holds no results; expected %s results, as in '%s'",
					    path.buf, why, peer->format,
					    peer->path);
				fi->reported = 1;
				rc = no_results(cfg, diag, PV_M_EMPTY_FILE, path.buf,
						msg.buf, err);
				continue;
			}
			rd = pv_reader_by_name(peer->format);
		}
		if (!rd) {
			note_why(t, fi, test, content, cfg, why);
			if (!suite->pattern && !sc->dir)
				continue;
			strbuf_reset(&msg);
			strbuf_addf(&msg, "%s: cannot tell the format of this file (%s): expected one of 'perfverdict formats' (set format = in the suite or use -f)",
				    path.buf, why);
			fi->reported = 1;
			rc = no_results(cfg, diag, PV_M_UNKNOWN_FILE_FORMAT, path.buf,
					msg.buf, err);
			continue;
		}
		/* benchstat's habit: old.txt against new.txt. */
		if (side == PV_CAND && sc->n == 1 &&
		    (peer = only_file(&t->side[PV_BASE])) &&
		    !strcmp(peer->format, rd->name) && strcmp(peer->test, test))
			test = peer->test;
		fi->test = arena_strdup(&t->arena, test);
		fi->format = rd->name;
		if (cr_only(content->buf, content->len)) {
			strbuf_reset(&msg);
			strbuf_addf(&msg, "%s: CR-only line endings (classic Mac OS text): %s would read the whole file as one line; expected LF or CRLF line ends",
				    path.buf, rd->name);
			fi->format = NULL;
			fi->why = "CR-only line endings";
			fi->reported = 1;
			rc = no_results(cfg, diag, PV_M_CR_ONLY, path.buf, msg.buf,
					err);
			continue;
		}
		ctx = (struct pv_read_ctx){
			.table = t, .side = side, .suite = suite, .cfg = cfg,
			.test = fi->test, .path = path.buf,
			.relpath = f->relpath,
			.root = sc->dir ? sc->dir : sc->root, .file = file,
			.diag = diag,
		};
		pv_table_hint(t, runs[i]);
		rc = rd->read(&ctx, content->buf, content->len, err);
		file++;
		if (rc)
			break;
		fi->results = ctx.emitted > 0;
		rc = after_read(&ctx, &msg, err);
	}
	sm->files = file;
	free(runs);
	strbuf_release(&path);
	strbuf_release(&raw);
	strbuf_release(&text);
	strbuf_release(&msg);
	free(base_known);
	return rc ? rc : check_side(t, side, suite, cfg, diag, err);
}
