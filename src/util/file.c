/* file.c - see file.h. */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "banned.h"

/* A configuration file's errors are usage errors, with codes of their
 * own; the others are input errors. */
static enum pv_msg unreadable(const struct pv_read_spec *s)
{
	return s->status == PV_EUSAGE ? PV_M_CONFIG_UNREADABLE : PV_M_CANNOT_READ;
}

static int too_big(const struct pv_read_spec *s, const char *shown,
		   struct pv_err *err)
{
	enum pv_msg id = s->status == PV_EUSAGE ? PV_M_CONFIG_TOO_LARGE :
			 PV_M_TOO_LARGE;

	if (s->limit)
		return pv_error(err, id, "%s: larger than %zu bytes (%s)",
				shown, s->max, s->limit);
	return pv_error(err, id, "%s: larger than %zu bytes", shown,
			s->max);
}

static int cannot(const struct pv_read_spec *s, const char *shown,
		  const char *why, struct pv_err *err)
{
	return pv_error(err, unreadable(s), "cannot read %s'%s': %s%s%s%s",
			s->what ? s->what : "", shown, why,
			s->expect ? " (expected " : "",
			s->expect ? s->expect : "", s->expect ? ")" : "");
}

int pv_read_file_spec(const char *path, const struct pv_read_spec *spec,
		      struct strbuf *out, struct pv_err *err)
{
	const char *shown = spec->shown ? spec->shown : path;
	size_t max = spec->max ? spec->max : (size_t)-1;
	size_t start = out->len;
	struct stat st;
	ssize_t r;
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC |
			    (spec->nofollow ? O_NOFOLLOW : 0));

	if (fd < 0) {
		int e = errno;

		if (spec->missing_ok && (e == ENOENT || e == ENOTDIR))
			return 1;
		if (e == ELOOP && spec->nofollow)
			return pv_error(err, unreadable(spec),
					"cannot read %s'%s': a symbolic link, not a regular file",
					spec->what ? spec->what : "", shown);
		return pv_error(err, unreadable(spec), "cannot read %s'%s': %s",
				spec->what ? spec->what : "", shown,
				strerror(e));
	}
	if (fstat(fd, &st)) {
		int e = errno;

		close(fd);
		return cannot(spec, shown, strerror(e), err);
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return cannot(spec, shown, S_ISDIR(st.st_mode) ?
			      "it is a directory" : "not a regular file", err);
	}
	if ((size_t)st.st_size > max) {
		close(fd);
		return too_big(spec, shown, err);
	}
	/*
	 * Straight into the buffer, sized by fstat() with a byte to spare:
	 * one read() for the file and one that sees its end.  A file that
	 * grew meanwhile is still read whole, up to max.
	 */
	strbuf_grow(out, (size_t)st.st_size + 1);
	for (;;) {
		size_t room = out->alloc - out->len - 1;

		if (!room) {
			strbuf_grow(out, 65536);
			room = out->alloc - out->len - 1;
		}
		r = read(fd, out->buf + out->len, room);
		if (r == 0)
			break;
		if (r < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			close(fd);
			strbuf_setlen(out, start);
			return pv_error(err, unreadable(spec),
					"cannot read %s'%s': %s",
					spec->what ? spec->what : "", shown,
					strerror(e));
		}
		if (out->len - start + (size_t)r > max) {
			close(fd);
			strbuf_setlen(out, start);
			return too_big(spec, shown, err);
		}
		strbuf_setlen(out, out->len + (size_t)r);
	}
	close(fd);
	return 0;
}

int pv_read_file(const char *path, const char *shown, size_t max,
		 struct strbuf *out, struct pv_err *err)
{
	const struct pv_read_spec spec = {
		.shown = shown, .limit = "limits.max_file_size", .max = max,
		.status = PV_EINPUT, .nofollow = 1, .missing_ok = 1,
	};

	return pv_read_file_spec(path, &spec, out, err);
}
