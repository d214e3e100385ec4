/* file.c - see file.h. */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "banned.h"

static int too_big(const char *shown, size_t max, struct pv_err *err)
{
	return pv_error(err, PV_EINPUT,
			"%s: larger than %zu bytes (limits.max_file_size)",
			shown, max);
}

int pv_read_file(const char *path, const char *shown, size_t max,
		 struct strbuf *out, struct pv_err *err)
{
	struct stat st;
	size_t start = out->len;
	ssize_t r;
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 1;
		return pv_error(err, PV_EINPUT, "cannot read '%s': %s", shown,
				errno == ELOOP ? "a symbolic link, not a regular file" :
				strerror(errno));
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return pv_error(err, PV_EINPUT,
				"cannot read '%s': not a regular file", shown);
	}
	if ((size_t)st.st_size > max) {
		close(fd);
		return too_big(shown, max, err);
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
			if (errno == EINTR)
				continue;
			close(fd);
			strbuf_setlen(out, start);
			return pv_error(err, PV_EINPUT, "cannot read '%s': %s",
					shown, strerror(errno));
		}
		if (out->len + (size_t)r > max) {
			close(fd);
			strbuf_setlen(out, start);
			return too_big(shown, max, err);
		}
		strbuf_setlen(out, out->len + (size_t)r);
	}
	close(fd);
	return 0;
}
