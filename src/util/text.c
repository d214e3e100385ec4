/*
 * text.c - foreign text made safe for XML 1.0, JSON and Markdown.
 *
 * Names come from files written by other programs: they may hold ANSI
 * colour codes, control characters or bytes that are not UTF-8.  libxml2
 * 2.9 and jansson pass such bytes through (or refuse them), so every
 * writer cleans text through here first.
 */
#include "text.h"

#include <fnmatch.h>
#include <string.h>
#include "banned.h"

/* Length of a valid UTF-8 sequence at s (1..4) with its code point, or 0. */
static size_t utf8_seq(const unsigned char *s, size_t len, unsigned *cp)
{
	unsigned c = s[0], min;
	size_t n;

	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if (c >= 0xc2 && c <= 0xdf) {
		n = 2, c &= 0x1f, min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3, c &= 0x0f, min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4, c &= 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/* Characters XML 1.0 forbids, plus the C1 controls and DEL. */
static int is_unsafe(unsigned cp)
{
	return (cp < 0x20 && cp != '\t') || (cp >= 0x7f && cp <= 0x9f) ||
	       cp == 0xfffe || cp == 0xffff;
}

/*
 * The bidirectional controls (Unicode's Bidi_Control: ALM, LRM, RLM, the
 * embeddings and overrides U+202A..U+202E, the isolates U+2066..U+2069),
 * which make text display in another order than it is stored: a name
 * with U+202E reads as another name ("Trojan Source", CVE-2021-42574).
 * Every writer drops them (pv_text_clean) and messages escape them, so
 * compare, history and the CI comments show the same name.
 */
static int is_bidi(unsigned cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Length of an ANSI escape sequence starting with ESC at s. */
static size_t ansi_len(const unsigned char *s, size_t len)
{
	size_t i = 1;

	if (len < 2)
		return 1;
	if (s[1] == '[') {          /* CSI: parameters, then a final byte */
		for (i = 2; i < len; i++)
			if (s[i] >= 0x40 && s[i] <= 0x7e)
				return i + 1;
		return len;
	}
	if (s[1] == ']') {          /* OSC: up to BEL or ESC \ */
		for (i = 2; i < len; i++) {
			if (s[i] == 0x07)
				return i + 1;
			if (s[i] == 0x1b && i + 1 < len && s[i + 1] == '\\')
				return i + 2;
		}
		return len;
	}
	return 2;                   /* a two-byte escape */
}

void pv_text_clean(struct strbuf *sb, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, n;
	unsigned cp;

	strbuf_grow(sb, len);
	while (i < len) {
		if (s[i] == 0x1b) {
			i += ansi_len(s + i, len - i);
			continue;
		}
		n = utf8_seq(s + i, len - i, &cp);
		if (!n) {
			strbuf_add(sb, "\xef\xbf\xbd", 3);  /* U+FFFD */
			i++;
		} else if (is_unsafe(cp)) {
			strbuf_addch(sb, ' ');
			i += n;
		} else if (is_bidi(cp)) {
			i += n;
		} else {
			strbuf_add(sb, s + i, n);
			i += n;
		}
	}
}

size_t pv_text_escape_buf(char *dst, size_t size, const char *str,
			  size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, o = 0, n;
	unsigned cp;

	if (!size)
		return 0;
	while (i < len) {
		n = utf8_seq(s + i, len - i, &cp);
		if (n && !(cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
			   is_bidi(cp))) {
			if (o + n >= size)
				break;
			memcpy(dst + o, s + i, n);
			o += n;
			i += n;
			continue;
		}
		/* A control character, a bidirectional control or a byte
		 * that is not UTF-8: escape each of its bytes. */
		if (!n)
			n = 1;
		if (o + 4 * n >= size)
			break;
		for (size_t k = 0; k < n; k++, i++) {
			dst[o++] = '\\';
			dst[o++] = 'x';
			dst[o++] = hex[s[i] >> 4];
			dst[o++] = hex[s[i] & 15];
		}
	}
	dst[o] = '\0';
	return o;
}

int pv_text_is_clean(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, n;
	unsigned cp;

	while (i < len) {
		n = utf8_seq(s + i, len - i, &cp);
		if (!n || is_unsafe(cp) || is_bidi(cp))
			return 0;
		i += n;
	}
	return 1;
}

int pv_glob_match(const char *pattern, const char *s)
{
	return fnmatch(pattern, s, 0) == 0;
}

int pv_ends_with(const char *s, const char *suffix, int icase)
{
	size_t n = strlen(s), k = strlen(suffix);

	if (n < k)
		return 0;
	s += n - k;
	if (!icase)
		return !memcmp(s, suffix, k);
	for (size_t i = 0; i < k; i++) {
		unsigned char a = (unsigned char)s[i];
		unsigned char b = (unsigned char)suffix[i];

		if (a >= 'A' && a <= 'Z')
			a = (unsigned char)(a - 'A' + 'a');
		if (b >= 'A' && b <= 'Z')
			b = (unsigned char)(b - 'A' + 'a');
		if (a != b)
			return 0;
	}
	return 1;
}
