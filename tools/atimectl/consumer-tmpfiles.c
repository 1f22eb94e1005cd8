/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * systemd-tmpfiles rules that clean by atime.
 *
 * Which files are read, in which order, and which of them an override or
 * a mask (a link to /dev/null) in /etc or /run hides, is systemd's to say:
 * "systemd-tmpfiles --cat-config" prints the files in effect, each after
 * a line "# PATH" (an empty one for a masked file), and nothing here walks
 * tmpfiles.d directories.  Of each rule only what decides whether and
 * when it removes a file by its atime is read:
 *
 *   - the type: only d, D, e, v, q, Q and C clean by age (tmpfiles.d(5);
 *     x and X exclude paths from cleaning); a "!" modifier makes the rule
 *     a boot-time one, which systemd-tmpfiles-clean.service never runs;
 *   - the path, as written (specifiers are mapped to their directory by
 *     consumer_map_path());
 *   - the age: "-" (no cleaning), or optional "~" (keep the first level),
 *     then optional age-by letters from "abcmABCM" and ":" (systemd 249
 *     and later), then a time span in systemd's grammar, which
 *     duration_parse() reads as systemd does.  Without age-by, systemd
 *     ages by "abcmABM": atime included.  A rule whose age-by has neither
 *     "a" (files) nor "A" (directories) does not look at atime and is no
 *     consumer; neither is age 0 ("clean unconditionally").
 *
 * Fields are split as systemd splits them: at whitespace, with "..." and
 * '...' quoting and C escapes (\\, \", \', \t, \n, \xHH; any other escaped
 * character stands for itself), which is all a path or an age needs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consumers.h"
#include "duration.h"
#include "escape.h"
#include "run-command.h"

#define TMPFILES_FIELDS 6	/* type path mode user group age */

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * The next field at *pp into out (of the line's length, so it always
 * fits).  Returns 1 for a field, 0 at the end of the line, -EINVAL for an
 * unbalanced quote.
 */
static int next_field(const char **pp, char *out)
{
	const char *p = *pp;
	char quote = 0;
	size_t n = 0;

	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	if (!*p)
		return 0;
	for (; *p; p++) {
		if (!quote && (*p == ' ' || *p == '\t' || *p == '\r'))
			break;
		if (quote_toggle(&quote, *p))
			continue;
		if (*p == '\\' && p[1]) {
			p++;
			switch (*p) {
			case 't':
				out[n++] = '\t';
				break;
			case 'n':
				out[n++] = '\n';
				break;
			case 'x':
				if (hex_value(p[1]) >= 0 && hex_value(p[2]) >= 0) {
					out[n++] = (char) (hex_value(p[1]) * 16 + hex_value(p[2]));
					p += 2;
					break;
				}
				/* fall through */
			default:
				out[n++] = *p;
				break;
			}
			continue;
		}
		out[n++] = *p;
	}
	out[n] = '\0';
	*pp = p;
	return quote ? -EINVAL : 1;
}

int tmpfiles_parse_age(const char *field, int64_t *age, bool *by_atime,
		       const char **why)
{
	const char *span = field, *colon;
	int r;

	*age = -1;
	*by_atime = false;
	if (strcmp(field, "-") == 0 || field[0] == '\0')
		return 0;
	if (*span == '~')
		span++;
	colon = strchr(span, ':');
	if (colon) {
		if (colon == span) {
			*why = "no age-by letter before ':'";
			return -EINVAL;
		}
		for (const char *p = span; p < colon; p++) {
			if (!strchr("abcmABCM", *p)) {
				*why = "age-by letters are a, b, c, m, A, B, C, M";
				return -EINVAL;
			}
			if (*p == 'a' || *p == 'A')
				*by_atime = true;
		}
		span = colon + 1;
	} else {
		*by_atime = true;	/* the default, "abcmABM" */
	}
	r = duration_parse(span, age);
	if (r == -ERANGE) {
		/* longer than any interval (or "infinity"): never misjudged */
		*age = INT64_MAX;
		return 0;
	}
	if (r < 0) {
		*age = -1;
		*why = duration_strerror(r);
		return -EINVAL;
	}
	return 0;
}

/* Report bad input of a rule, its text escaped. */
static void rule_problem(struct consumer_list *l, const char *where,
			 const char *what, const char *text, const char *why)
{
	char *esc;

	consumer_problem(l, "%s: %s '%s'%s%s", where, what, name_escape(text, &esc),
			 why ? ": " : "", why ? why : "");
	free(esc);
}

static void rule_note(struct consumer_list *l, const char *where,
		      const char *path, const char *why)
{
	char *esc;

	consumer_note(l, "%s: %s: %s", where, name_escape(path, &esc), why);
	free(esc);
}

/* Absolute once the directory specifiers are expanded ("%t/x") */
static bool path_is_absolute(const char *path)
{
	char *map = consumer_map_path(path);
	bool ret = map && map[0] == '/';

	free(map);
	return ret;
}

static int parse_rule(struct consumer_list *l, const char *file, unsigned int line,
		      const char *text, char *buf)
{
	char *fields[TMPFILES_FIELDS] = { 0 };
	const char *p = text, *why = NULL;
	char where[4096], *esc;
	int64_t age;
	bool by_atime;
	int n = 0, r;
	char *out = buf;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0' || *p == '#')
		return 0;
	snprintf(where, sizeof(where), "%s:%u", name_escape(file, &esc), line);
	free(esc);
	while (n < TMPFILES_FIELDS) {
		r = next_field(&p, out);
		if (r < 0) {
			rule_problem(l, where, "unbalanced quote in", text, NULL);
			return 0;
		}
		if (r == 0)
			break;
		fields[n++] = out;
		out += strlen(out) + 1;
	}
	/* a line of blanks, or only what cleans by age is read further */
	if (n == 0 || !strchr("dDevqQC", fields[0][0]))
		return 0;
	if (n < 2) {
		rule_problem(l, where, "no path in rule", text, NULL);
		return 0;
	}
	if (n < 6)
		return 0;	/* no age: no cleaning */
	if (tmpfiles_parse_age(fields[5], &age, &by_atime, &why) < 0) {
		rule_problem(l, where, "invalid age", fields[5], why);
		return 0;
	}
	if (age < 0)
		return 0;
	if (strchr(fields[0], '!'))
		rule_note(l, where, fields[1], "a boot-time rule: cleaning does not run it");
	else if (!by_atime)
		rule_note(l, where, fields[1], "ages by other times than atime");
	else if (age == 0)
		rule_note(l, where, fields[1], "age 0 cleans whatever the atime");
	else if (age == INT64_MAX)
		rule_note(l, where, fields[1], "an age longer than any interval");
	else if (!path_is_absolute(fields[1]))
		rule_problem(l, where, "path", fields[1], "not absolute");
	else
		return consumer_add(l, CONSUMER_TMPFILES, where, fields[1], age);
	return 0;
}

/* "# /PATH" after an empty line (or first): the file that follows */
static bool is_file_header(const char *line, bool after_blank)
{
	return after_blank && strncmp(line, "# /", 3) == 0;
}

int tmpfiles_parse_config(struct consumer_list *l, const char *text)
{
	const char *p = text;
	char *file = NULL, *line = NULL, *buf = NULL;
	unsigned int lineno = 0;
	bool after_blank = true;
	int r = 0;

	while (*p && r == 0) {
		const char *eol = strchrnul(p, '\n');
		size_t len = (size_t) (eol - p);

		line = strndup(p, len);
		buf = malloc(len + TMPFILES_FIELDS + 1);
		if (!line || !buf) {
			r = -ENOMEM;
			break;
		}
		if (is_file_header(line, after_blank)) {
			free(file);
			file = strdup(line + 2);
			if (!file) {
				r = -ENOMEM;
				break;
			}
			lineno = 0;
		} else {
			lineno++;
			r = parse_rule(l, file ? file : "systemd-tmpfiles --cat-config",
				       lineno, line, buf);
		}
		after_blank = len == 0;
		free(line);
		free(buf);
		line = buf = NULL;
		p = *eol ? eol + 1 : eol;
	}
	free(line);
	free(buf);
	free(file);
	return r;
}

int consumers_gather_tmpfiles(struct consumer_list *l)
{
	const char *program = getenv("ATIMECTL_SYSTEMD_TMPFILES");
	const char *root = consumers_config_root();
	char *root_arg = NULL, *text = NULL, why[128];
	char *argv[4];
	int r, status, n = 0;

	if (!program || !*program)
		program = "systemd-tmpfiles";
	argv[n++] = (char *) program;
	argv[n++] = (char *) "--cat-config";
	if (*root) {
		if (asprintf(&root_arg, "--root=%s", root) < 0)
			return -ENOMEM;
		argv[n++] = root_arg;
	}
	argv[n] = NULL;

	r = run_capture(argv, l->quiet, &text, &status);
	free(root_arg);
	if (r == -ENOMEM)
		return r;
	if (r < 0 || status != 0) {
		describe_run_failure(r, status, why, sizeof(why));
		consumer_problem(l, "tmpfiles: %s --cat-config: %s; its rules are not checked",
				 program, why);
		free(text);
		return 0;
	}
	r = tmpfiles_parse_config(l, text);
	free(text);
	return r;
}
