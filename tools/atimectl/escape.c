/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Escaping names for one-line messages, the way findmnt does.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"

static bool needs_escape(const char *p)
{
	unsigned char c = (unsigned char) *p;

	return c < 0x20 || c == 0x7f || (c == '\\' && p[1] == 'x');
}

const char *name_escape(const char *s, char **buf)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;
	char *out, *q;

	*buf = NULL;
	if (!s)
		return "(null)";
	for (const char *p = s; *p; p++)
		if (needs_escape(p))
			n++;
	if (n == 0)
		return s;

	out = malloc(strlen(s) + 3 * n + 1);
	if (!out)
		return "?";
	q = out;
	for (const char *p = s; *p; p++) {
		unsigned char c = (unsigned char) *p;

		if (!needs_escape(p)) {
			*q++ = *p;
			continue;
		}
		*q++ = '\\';
		*q++ = 'x';
		*q++ = hex[c >> 4];
		*q++ = hex[c & 0xf];
	}
	*q = '\0';
	*buf = out;
	return out;
}
