/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The list of atime consumers, and what their sources share.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consumers.h"

void consumer_list_free(struct consumer_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->items[i].source);
		free(l->items[i].path);
		free(l->items[i].map_path);
	}
	free(l->items);
	l->items = NULL;
	l->n = l->size = 0;
}

int consumer_add(struct consumer_list *l, enum consumer_kind kind,
		 const char *source, const char *path, int64_t age)
{
	struct consumer *c;

	if (l->n == l->size) {
		size_t nsize = l->size ? l->size * 2 : 16;
		struct consumer *n = realloc(l->items, nsize * sizeof(*n));

		if (!n)
			return -ENOMEM;
		l->items = n;
		l->size = nsize;
	}
	c = &l->items[l->n];
	c->kind = kind;
	c->age = age;
	c->source = strdup(source);
	c->path = strdup(path);
	c->map_path = consumer_map_path(path);
	if (!c->source || !c->path || !c->map_path) {
		free(c->source);
		free(c->path);
		free(c->map_path);
		return -ENOMEM;
	}
	l->n++;
	return 0;
}

/* "atimectl: MESSAGE" on stderr */
__attribute__((format(printf, 1, 0)))
static void say(const char *fmt, va_list ap)
{
	fputs("atimectl: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void consumer_problem(struct consumer_list *l, const char *fmt, ...)
{
	va_list ap;

	l->problems++;
	if (l->quiet)
		return;
	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
}

void consumer_note(const struct consumer_list *l, const char *fmt, ...)
{
	va_list ap;

	if (l->quiet || !l->verbose)
		return;
	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
}

static const struct {
	const char *name;      /* as check shows the kind */
	const char *remover;   /* who removes the files */
} kinds[] = {
	[CONSUMER_TMPFILES]  = { "tmpfiles",  "systemd-tmpfiles" },
	[CONSUMER_TMPREAPER] = { "tmpreaper", "tmpreaper" },
	[CONSUMER_CRON]      = { "cron",      "find" },
	[CONSUMER_UNIT]      = { "unit",      "find" },
};

const char *consumer_kind_name(enum consumer_kind kind)
{
	return kinds[kind].name;
}

const char *consumer_remover_name(enum consumer_kind kind)
{
	return kinds[kind].remover;
}

bool quote_toggle(char *quote, char c)
{
	if (!*quote && (c == '\'' || c == '"')) {
		*quote = c;
		return true;
	}
	if (*quote && c == *quote) {
		*quote = 0;
		return true;
	}
	return false;
}

/*
 * The directory specifiers systemd-tmpfiles expands for the system
 * instance (tmpfiles.d(5), "Specifiers"): these name the directory a rule
 * is on.  Any other (%m, %b, %H, ...) names a file inside one.
 */
static const struct {
	char spec;
	const char *dir;
} dir_specifiers[] = {
	{ 't', "/run" },
	{ 'S', "/var/lib" },
	{ 'C', "/var/cache" },
	{ 'L', "/var/log" },
	{ 'T', "/tmp" },
	{ 'V', "/var/tmp" },
	{ 'E', "/etc" },
	{ 'h', "/root" },
};

static const char *dir_specifier(char c)
{
	for (size_t i = 0; i < sizeof(dir_specifiers) / sizeof(dir_specifiers[0]); i++)
		if (dir_specifiers[i].spec == c)
			return dir_specifiers[i].dir;
	return NULL;
}

char *consumer_map_path(const char *path)
{
	size_t len = strlen(path), cap = len + 64, used = 0, last_slash = 0;
	char *out = malloc(cap);

	if (!out)
		return NULL;
	for (const char *p = path; *p; p++) {
		const char *dir = NULL;

		if (*p == '%' && p[1] && (dir = dir_specifier(p[1]))) {
			size_t dlen = strlen(dir);

			if (used + dlen + 1 > cap) {
				char *n = realloc(out, cap + dlen + 64);

				if (!n) {
					free(out);
					return NULL;
				}
				out = n;
				cap += dlen + 64;
			}
			memcpy(out + used, dir, dlen);
			used += dlen;
			p++;
			continue;
		}
		if (*p == '%' || *p == '*' || *p == '?' || *p == '[' || *p == '$' ||
		    *p == '`') {
			used = last_slash;
			break;
		}
		if (used + 2 > cap) {
			char *n = realloc(out, cap + 64);

			if (!n) {
				free(out);
				return NULL;
			}
			out = n;
			cap += 64;
		}
		if (*p == '/')
			last_slash = used;
		out[used++] = *p;
	}
	/* "/" itself, or nothing literal: the root of what follows */
	if (used == 0 && path[0] == '/')
		out[used++] = '/';
	out[used] = '\0';
	return out;
}

const char *consumers_config_root(void)
{
	const char *root = getenv("ATIMECTL_CONFIG_ROOT");

	return root ? root : "";
}

int consumers_gather(struct consumer_list *l)
{
	int (*const sources[])(struct consumer_list *) = {
		consumers_gather_tmpfiles,
		consumers_gather_tmpreaper,
		consumers_gather_cron,
		consumers_gather_units,
	};

	for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++) {
		int r = sources[i](l);

		if (r < 0)
			return r;
	}
	return 0;
}
