/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * find -atime/-amin in cron jobs: /etc/crontab, /etc/cron.d/, the
 * scripts of /etc/cron.{hourly,daily,weekly,monthly}/ and the users'
 * crontabs in /var/spool/cron/crontabs/ (Debian's cron and cronie put
 * them there).  man-db's daily cleanup, "find /var/cache/man ... -atime
 * +6", is one (on systemd, man-db.service runs the same find: see
 * consumer-units.c).
 *
 * Each line is read as a shell command line by consumer-find.c; a line
 * ending in a backslash goes on on the next one.  The schedule fields of
 * a crontab line need no parsing: they hold no "find" word.  As cron and
 * run-parts do, files whose names are not made of letters, digits, "_"
 * and "-" (package manager leftovers such as "*.dpkg-old") are skipped.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consumers.h"
#include "escape.h"
#include "run-command.h"

int cron_parse_file(struct consumer_list *l, const char *file, const char *text)
{
	const char *p = text;
	unsigned int lineno = 0;
	char *logical = NULL, *source = NULL;
	size_t llen = 0;
	unsigned int first = 0;
	int r = 0;

	while (*p && r == 0) {
		const char *eol = strchrnul(p, '\n');
		size_t len = (size_t) (eol - p);
		bool continued = len > 0 && p[len - 1] == '\\';
		char *n;

		lineno++;
		if (!logical)
			first = lineno;
		n = realloc(logical, llen + len + 2);
		if (!n) {
			r = -ENOMEM;
			break;
		}
		logical = n;
		memcpy(logical + llen, p, continued ? len - 1 : len);
		llen += continued ? len - 1 : len;
		logical[llen] = '\0';
		p = *eol ? eol + 1 : eol;
		if (continued && *p) {
			logical[llen++] = ' ';
			logical[llen] = '\0';
			continue;
		}
		if (asprintf(&source, "%s:%u", file, first) < 0) {
			source = NULL;
			r = -ENOMEM;
			break;
		}
		r = find_parse_command(l, CONSUMER_CRON, source, logical);
		free(source);
		source = NULL;
		free(logical);
		logical = NULL;
		llen = 0;
	}
	free(logical);
	return r;
}

/* One file; a missing one is no cron job, anything else is reported. */
static int cron_read(struct consumer_list *l, const char *path, bool must_exist)
{
	char *text, *esc;
	int r = read_text_file(path, &text);

	if (r == -ENOENT && !must_exist)
		return 0;
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		consumer_problem(l, "cron: cannot read %s: %s", name_escape(path, &esc), strerror(-r));
		free(esc);
		return 0;
	}
	r = cron_parse_file(l, path, text);
	free(text);
	return r;
}

static bool run_parts_name(const char *name)
{
	if (!*name)
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			return false;
	return true;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* Every file of a directory, in name order, as run-parts runs them. */
static int cron_read_dir(struct consumer_list *l, const char *dir)
{
	char **names = NULL, *esc;
	size_t n = 0, size = 0;
	struct dirent *de;
	DIR *d = opendir(dir);
	int r = 0;

	if (!d && errno == ENOENT)
		return 0;
	if (!d) {
		consumer_problem(l, "cron: cannot read %s: %s", name_escape(dir, &esc), strerror(errno));
		free(esc);
		return 0;
	}
	while ((de = readdir(d))) {
		if (!run_parts_name(de->d_name))
			continue;
		if (n == size) {
			size_t nsize = size ? size * 2 : 16;
			char **nn = realloc(names, nsize * sizeof(*nn));

			if (!nn) {
				r = -ENOMEM;
				break;
			}
			names = nn;
			size = nsize;
		}
		if (asprintf(&names[n], "%s/%s", dir, de->d_name) < 0) {
			r = -ENOMEM;
			break;
		}
		n++;
	}
	closedir(d);
	if (r == 0 && n > 1)
		qsort(names, n, sizeof(*names), compare_names);
	for (size_t i = 0; i < n; i++) {
		if (r == 0)
			r = cron_read(l, names[i], true);
		free(names[i]);
	}
	free(names);
	return r;
}

int consumers_gather_cron(struct consumer_list *l)
{
	static const char *const dirs[] = {
		"/etc/cron.d", "/etc/cron.hourly", "/etc/cron.daily",
		"/etc/cron.weekly", "/etc/cron.monthly", "/var/spool/cron/crontabs",
	};
	const char *root = consumers_config_root();
	char *path;
	int r;

	if (asprintf(&path, "%s/etc/crontab", root) < 0)
		return -ENOMEM;
	r = cron_read(l, path, false);
	free(path);
	for (size_t i = 0; r == 0 && i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if (asprintf(&path, "%s%s", root, dirs[i]) < 0)
			return -ENOMEM;
		r = cron_read_dir(l, path);
		free(path);
	}
	return r;
}
