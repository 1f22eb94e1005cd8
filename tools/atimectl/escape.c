/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Escaping names for one-line messages, the way findmnt does.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "escape.h"

/*
 * The length of the well-formed UTF-8 sequence at p (1 to 4), with its code
 * point in *cp; 0 when p starts no such sequence (a stray continuation
 * byte, a sequence cut short, an overlong form, a surrogate, beyond
 * U+10FFFF).  p[0] is not ASCII.
 */
static size_t utf8_sequence(const unsigned char *p, uint32_t *cp)
{
	static const uint32_t min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t len;
	uint32_t c;

	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		len = 2;
		c = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		len = 3;
		c = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		len = 4;
		c = p[0] & 0x07;
	} else {
		return 0;
	}
	/* the string's NUL is no continuation byte: never read past it */
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (p[i] & 0x3f);
	}
	if (c < min[len] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/*
 * How many bytes at p to escape (each as \xHH), or, as a negative number,
 * how many to copy as they are.
 */
static ssize_t escape_span(const char *p)
{
	unsigned char c = (unsigned char) *p;
	uint32_t cp;
	size_t len;

	if (c < 0x20 || c == 0x7f || (c == '\\' && p[1] == 'x'))
		return 1;
	if (c < 0x80)
		return -1;
	len = utf8_sequence((const unsigned char *) p, &cp);
	if (len == 0)
		return 1;		/* no UTF-8: the byte alone */
	if (cp <= 0x9f)
		return (ssize_t) len;	/* a C1 control, e.g. CSI (U+009B) */
	return -(ssize_t) len;
}

const char *name_escape(const char *s, char **buf)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;
	ssize_t span;
	char *out, *q;

	*buf = NULL;
	if (!s)
		return "(null)";
	for (const char *p = s; *p; p += span < 0 ? -span : span) {
		span = escape_span(p);
		if (span > 0)
			n += (size_t) span;
	}
	if (n == 0)
		return s;

	out = malloc(strlen(s) + 3 * n + 1);
	if (!out)
		return "?";
	q = out;
	for (const char *p = s; *p;) {
		span = escape_span(p);
		if (span < 0) {
			memcpy(q, p, (size_t) -span);
			q += -span;
			p += -span;
			continue;
		}
		for (; span > 0; span--, p++) {
			unsigned char c = (unsigned char) *p;

			*q++ = '\\';
			*q++ = 'x';
			*q++ = hex[c >> 4];
			*q++ = hex[c & 0xf];
		}
	}
	*q = '\0';
	*buf = out;
	return out;
}
