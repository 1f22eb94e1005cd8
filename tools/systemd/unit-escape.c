/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The bits of systemd's unit name and unit file syntax the generator needs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "unit-escape.h"

#define UNIT_NAME_MAX 256

static bool escape_free(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == ':' || c == '_' || c == '.';
}

static char *escape_char(char *t, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";

	*t++ = '\\';
	*t++ = 'x';
	*t++ = hex[c >> 4];
	*t++ = hex[c & 15];
	return t;
}

char *unit_path_escape(const char *path)
{
	const char *p = path;
	char *out, *t;
	bool first = true;

	if (!path || path[0] != '/') {
		errno = EINVAL;
		return NULL;
	}
	/* every byte may become four */
	out = malloc(strlen(path) * 4 + 2);
	if (!out)
		return NULL;
	t = out;

	while (*p) {
		const char *c;
		size_t len;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		len = strcspn(p, "/");
		c = p;
		p += len;
		if (len == 1 && c[0] == '.')
			continue;
		if (len == 2 && c[0] == '.' && c[1] == '.') {
			free(out);
			errno = EINVAL;
			return NULL;
		}
		if (!first)
			*t++ = '-';
		for (size_t i = 0; i < len; i++) {
			/* no unit names with a leading ".", like for "/.dotdir" */
			if ((first && i == 0 && c[i] == '.') || !escape_free(c[i]))
				t = escape_char(t, (unsigned char) c[i]);
			else
				*t++ = c[i];
		}
		first = false;
	}
	if (first)
		*t++ = '-';  /* the root directory */
	*t = '\0';
	return out;
}

bool unit_name_chars_valid(const char *name)
{
	size_t len = strlen(name);

	if (len == 0 || len >= UNIT_NAME_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!escape_free(name[i]) && name[i] != '-' && name[i] != '\\' &&
		    name[i] != '@')
			return false;
	return true;
}

char *unit_env_quote(const char *name, const char *value)
{
	size_t n = strlen(name) + 4;
	char *out, *t;

	for (const char *v = value; *v; v++) {
		if ((unsigned char) *v < 0x20 || *v == 0x7f) {
			errno = EINVAL;
			return NULL;
		}
		n += (*v == '"' || *v == '\\' || *v == '%') ? 2 : 1;
	}
	out = malloc(n);
	if (!out)
		return NULL;
	t = out;
	*t++ = '"';
	t = stpcpy(t, name);
	*t++ = '=';
	for (const char *v = value; *v; v++) {
		if (*v == '"' || *v == '\\')
			*t++ = '\\';
		else if (*v == '%')
			*t++ = '%';
		*t++ = *v;
	}
	*t++ = '"';
	*t = '\0';
	return out;
}

char *unit_unpercent(const char *value)
{
	char *out = malloc(strlen(value) + 1), *t = out;

	if (!out)
		return NULL;
	for (const char *v = value; *v; v++) {
		if (*v == '%') {
			if (v[1] != '%') {
				free(out);
				errno = EINVAL;
				return NULL;
			}
			v++;
		}
		*t++ = *v;
	}
	*t = '\0';
	return out;
}
