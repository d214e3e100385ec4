/*
 * text.h - making foreign text safe for the places we write it.
 */
#ifndef PV_TEXT_H
#define PV_TEXT_H

#include <stddef.h>
#include "strbuf.h"

/*
 * Append s[0..len) to sb as valid UTF-8 that XML 1.0, JSON and Markdown
 * can all carry: invalid sequences become U+FFFD, ANSI escape sequences
 * and bidirectional controls (U+202E and the like, which make a name
 * read as another) are dropped, and C0 controls other than tab become a
 * space.  Every writer of every command goes through here: one rule.
 */
void pv_text_clean(struct strbuf *sb, const char *s, size_t len);

/*
 * Copy s[0..len) into dst (size bytes, always NUL-terminated when size
 * > 0) for a one-line message on a terminal: valid UTF-8 stays as it is,
 * while control characters (tab and newline included, ESC, DEL, C1),
 * bidirectional controls and bytes that are not UTF-8 become "\xHH"
 * escapes, so foreign text can
 * neither break the line nor drive the terminal.  Backslashes are kept,
 * so escaping twice changes nothing.  A cut never splits an escape or a
 * character.  Returns the length written.
 */
size_t pv_text_escape_buf(char *dst, size_t size, const char *s, size_t len);

/* True when s is valid UTF-8 with no control characters but tab, and no
 * bidirectional controls. */
int pv_text_is_clean(const char *s, size_t len);

/* Does s end with suffix?  With icase, ASCII letters match either case
 * (whatever the locale: file names like "R.CSV" or "x.JSON.GZ"). */
int pv_ends_with(const char *s, const char *suffix, int icase);

/* Shell-style glob match (fnmatch without FNM_PATHNAME). */
int pv_glob_match(const char *pattern, const char *s);

#endif
