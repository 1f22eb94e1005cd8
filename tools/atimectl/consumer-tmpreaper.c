/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Debian's tmpreaper: its daily cron job sources /etc/tmpreaper.conf and
 * runs "tmpreaper $TMPREAPER_TIME $TMPREAPER_ADDITIONALOPTIONS ...
 * $TMPREAPER_DIRS", which removes files by atime, unless:
 *
 *   - SHOWWARNING=true (as the package installs it): the job only prints
 *     a warning and removes nothing;
 *   - --mtime (-m) is among the options: then it goes by mtime.  --ctime
 *     (-c) adds ctime to atime; atime still decides for a file that is
 *     only read, so it stays a consumer.
 *
 * TMPREAPER_TIME defaults to TMPTIME days (from /etc/default/rcS, as the
 * package's documentation says) or else 7d; its unit is hours when none is
 * given, or s, m, h, d.  TMPREAPER_DIRS defaults to "/tmp/.".
 *
 * The file is a shell fragment; only plain assignments are read
 * (NAME=value, "export" allowed, value unquoted, '...' or "..."), with
 * $TMPTIME and ${TMPTIME} expanded, which is all the shipped file and its
 * documented settings use.  Any other line is ignored.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consumers.h"
#include "duration.h"
#include "escape.h"
#include "run-command.h"

enum { V_SHOWWARNING, V_TIME, V_DIRS, V_OPTIONS, V_TMPTIME, V_N };

static const char *const var_names[V_N] = {
	[V_SHOWWARNING] = "SHOWWARNING",
	[V_TIME] = "TMPREAPER_TIME",
	[V_DIRS] = "TMPREAPER_DIRS",
	[V_OPTIONS] = "TMPREAPER_ADDITIONALOPTIONS",
	[V_TMPTIME] = "TMPTIME",
};

struct vars {
	char *v[V_N];
	unsigned int line[V_N];
};

static void vars_free(struct vars *vs)
{
	for (int i = 0; i < V_N; i++)
		free(vs->v[i]);
}

/* The value of an assignment, unquoted, $TMPTIME expanded. */
static char *assignment_value(const char *p, const struct vars *vs)
{
	const char *tmptime = vs->v[V_TMPTIME] ? vs->v[V_TMPTIME] : "";
	size_t cap = strlen(p) + strlen(tmptime) * 4 + 1, n = 0;
	char *out = malloc(cap), quote = 0;

	if (!out)
		return NULL;
	for (; *p; p++) {
		if (!quote && (*p == ' ' || *p == '\t' || *p == ';' || *p == '#'))
			break;
		if (quote_toggle(&quote, *p))
			continue;
		if (quote != '\'' && *p == '$') {
			size_t skip = strncmp(p, "${TMPTIME}", 10) == 0 ? 10 :
				      strncmp(p, "$TMPTIME", 8) == 0 ? 8 : 0;

			/* four times at most: cap holds it; more is no setting */
			if (skip && n + strlen(tmptime) < cap) {
				memcpy(out + n, tmptime, strlen(tmptime));
				n += strlen(tmptime);
				p += skip - 1;
				continue;
			}
		}
		if (n + 1 >= cap)
			break;
		out[n++] = *p;
	}
	out[n] = '\0';
	return out;
}

static int read_assignments(const char *text, struct vars *vs)
{
	unsigned int lineno = 0;
	const char *p = text;

	while (*p) {
		const char *eol = strchrnul(p, '\n'), *q = p;

		lineno++;
		while (*q == ' ' || *q == '\t')
			q++;
		if (strncmp(q, "export ", 7) == 0)
			q += 7;
		for (int i = 0; i < V_N; i++) {
			size_t len = strlen(var_names[i]);
			char *line, *value;

			if (strncmp(q, var_names[i], len) != 0 || q[len] != '=')
				continue;
			line = strndup(q + len + 1, (size_t) (eol - q) - len - 1);
			value = line ? assignment_value(line, vs) : NULL;
			free(line);
			if (!value)
				return -ENOMEM;
			free(vs->v[i]);
			vs->v[i] = value;
			vs->line[i] = lineno;
		}
		p = *eol ? eol + 1 : eol;
	}
	return 0;
}

/* tmpreaper's time spec: digits, then s, m, h or d (default h). */
static int tmpreaper_age(const char *spec, int64_t *age)
{
	int64_t n = 0, unit = 3600;
	const char *p = spec;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		n = n * 10 + (*p - '0');
		if (n > DURATION_MAX)
			return -ERANGE;
	}
	switch (*p) {
	case 's': unit = 1; p++; break;
	case 'm': unit = 60; p++; break;
	case 'h': unit = 3600; p++; break;
	case 'd': unit = 86400; p++; break;
	case '\0': break;
	default: return -EINVAL;
	}
	if (*p)
		return -EINVAL;
	*age = n * unit;
	return 0;
}

/* Is option (long, or its short letter) among the words of options? */
static bool has_option(const char *options, const char *lng, char shrt)
{
	const char *p = options;

	while (*p) {
		size_t len;

		while (*p == ' ' || *p == '\t')
			p++;
		len = strcspn(p, " \t");
		if (len == strlen(lng) && strncmp(p, lng, len) == 0)
			return true;
		/* a cluster of short options: -mc */
		if (len > 1 && p[0] == '-' && p[1] != '-' && memchr(p + 1, shrt, len - 1))
			return true;
		p += len;
	}
	return false;
}

int tmpreaper_parse_config(struct consumer_list *l, const char *file,
			   const char *text, const char *rcs_text)
{
	struct vars vs = { 0 };
	const char *time, *dirs, *p;
	char *fallback = NULL, *where = NULL, *esc;
	int64_t age;
	int r;

	/* TMPTIME first, from rcS, then what the file says */
	r = rcs_text ? read_assignments(rcs_text, &vs) : 0;
	if (r == 0) {
		/* only TMPTIME counts from rcS */
		for (int i = 0; i < V_N; i++) {
			if (i == V_TMPTIME)
				continue;
			free(vs.v[i]);
			vs.v[i] = NULL;
		}
		r = read_assignments(text, &vs);
	}
	if (r < 0)
		goto oom;

	if (vs.v[V_SHOWWARNING] && strcmp(vs.v[V_SHOWWARNING], "true") == 0) {
		consumer_note(l, "%s:%u: SHOWWARNING=true: tmpreaper removes nothing",
			      name_escape(file, &esc), vs.line[V_SHOWWARNING]);
		free(esc);
		goto out;
	}
	if (vs.v[V_OPTIONS] && has_option(vs.v[V_OPTIONS], "--mtime", 'm')) {
		consumer_note(l, "%s:%u: tmpreaper --mtime goes by mtime, not atime",
			      name_escape(file, &esc), vs.line[V_OPTIONS]);
		free(esc);
		goto out;
	}

	time = vs.v[V_TIME] && *vs.v[V_TIME] ? vs.v[V_TIME] : NULL;
	if (!time) {
		if (asprintf(&fallback, "%sd", vs.v[V_TMPTIME] && *vs.v[V_TMPTIME] ?
			     vs.v[V_TMPTIME] : "7") < 0) {
			fallback = NULL;
			goto oom;
		}
		time = fallback;
	}
	/* the line that sets the time, or the file that does not */
	if ((vs.v[V_TIME] ? asprintf(&where, "%s:%u", name_escape(file, &esc), vs.line[V_TIME])
			  : asprintf(&where, "%s", name_escape(file, &esc))) < 0) {
		where = NULL;
		free(esc);
		goto oom;
	}
	free(esc);
	r = tmpreaper_age(time, &age);
	if (r < 0) {
		consumer_problem(l, "%s: invalid TMPREAPER_TIME '%s': %s", where,
				 name_escape(time, &esc),
				 r == -ERANGE ? "too long" :
				 "expected a number of hours, or a number and s, m, h or d");
		free(esc);
		r = 0;	/* reported: the rest is checked */
		goto out;
	}
	if (age == 0) {
		consumer_note(l, "%s: TMPREAPER_TIME 0 removes whatever the atime", where);
		goto out;
	}

	dirs = vs.v[V_DIRS] && *vs.v[V_DIRS] ? vs.v[V_DIRS] : "/tmp/.";
	for (p = dirs; *p;) {
		size_t len;
		char *dir;

		while (*p == ' ' || *p == '\t')
			p++;
		len = strcspn(p, " \t");
		if (len == 0)
			break;
		dir = strndup(p, len);
		if (!dir)
			goto oom;
		if (dir[0] != '/') {
			consumer_problem(l, "%s: TMPREAPER_DIRS: '%s' is not an absolute path",
					 where, name_escape(dir, &esc));
			free(esc);
			free(dir);
			p += len;
			continue;
		}
		r = consumer_add(l, CONSUMER_TMPREAPER, where, dir, age);
		free(dir);
		if (r < 0)
			goto out;
		p += len;
	}
	r = 0;
	goto out;
oom:
	r = -ENOMEM;
out:
	free(fallback);
	free(where);
	vars_free(&vs);
	return r;
}

int consumers_gather_tmpreaper(struct consumer_list *l)
{
	const char *root = consumers_config_root();
	char *conf = NULL, *rcs = NULL, *text = NULL, *rcs_text = NULL, *esc;
	int r;

	if (asprintf(&conf, "%s/etc/tmpreaper.conf", root) < 0 ||
	    asprintf(&rcs, "%s/etc/default/rcS", root) < 0) {
		free(conf);
		return -ENOMEM;
	}
	r = read_text_file(conf, &text);
	if (r == -ENOENT) {	/* not installed */
		r = 0;
		goto out;
	}
	if (r < 0 && r != -ENOMEM) {
		consumer_problem(l, "tmpreaper: cannot read %s: %s", name_escape(conf, &esc),
				 strerror(-r));
		free(esc);
		r = 0;
		goto out;
	}
	if (r == 0) {
		r = read_text_file(rcs, &rcs_text);
		if (r < 0 && r != -ENOENT && r != -ENOMEM) {
			consumer_problem(l, "tmpreaper: cannot read %s: %s", name_escape(rcs, &esc),
					 strerror(-r));
			free(esc);
		}
		if (r != -ENOMEM)
			r = tmpreaper_parse_config(l, conf, text, rcs_text);
	}
out:
	free(text);
	free(rcs_text);
	free(conf);
	free(rcs);
	return r;
}
