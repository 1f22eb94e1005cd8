/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * find(1) commands that select files by atime, in a shell command line
 * (a crontab line, a cron script's line, a unit's ExecStart=).
 *
 * A command line is split into words as the shell splits it, without
 * running anything: blanks separate words; '...' and "..." quote, a
 * backslash escapes one character; an unquoted ;, &, |, ( or ) ends a
 * command and "#" at the start of a word a comment.  A word with an
 * unquoted $, ` or glob character is not literal: nothing can say which
 * directory it names without running the shell, so it is noted (-v) and
 * not judged.
 *
 * In each command whose word is "find" (or ends in "/find"), the start
 * points are the words after it (and after -H, -L, -P, -D LIST, -OLEVEL)
 * up to the first that starts with "-", "(" or "!"; the first -atime N or
 * -amin N of the expression gives the age, as find(1) counts it: -atime
 * +N matches files N+1 days old and older (the fraction of a day is
 * dropped), -atime N and -N the threshold N days, -amin [+-]N N minutes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consumers.h"
#include "duration.h"
#include "escape.h"

struct word {
	char *text;
	bool literal;     /* no expansion the shell would do */
	bool separator;   /* an unquoted ; & | ( ) */
};

struct words {
	struct word *w;
	size_t n, size;
};

static void words_free(struct words *ws)
{
	for (size_t i = 0; i < ws->n; i++)
		free(ws->w[i].text);
	free(ws->w);
}

static int words_add(struct words *ws, char *text, bool literal, bool separator)
{
	if (ws->n == ws->size) {
		size_t nsize = ws->size ? ws->size * 2 : 16;
		struct word *n = realloc(ws->w, nsize * sizeof(*n));

		if (!n) {
			free(text);
			return -ENOMEM;
		}
		ws->w = n;
		ws->size = nsize;
	}
	ws->w[ws->n].text = text;
	ws->w[ws->n].literal = literal;
	ws->w[ws->n].separator = separator;
	ws->n++;
	return 0;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static bool is_operator(char c)
{
	return c == ';' || c == '&' || c == '|' || c == '(' || c == ')';
}

/* Split command into words; an unbalanced quote ends the last word. */
static int split_words(const char *command, struct words *ws)
{
	const char *p = command;

	for (;;) {
		char quote = 0, *text, *out;
		bool literal = true;

		while (is_blank(*p))
			p++;
		if (!*p || *p == '#')
			return 0;
		if (is_operator(*p)) {
			text = strndup(p, 1);
			if (!text || words_add(ws, text, true, true) < 0)
				return -ENOMEM;
			p++;
			continue;
		}
		text = out = malloc(strlen(p) + 1);
		if (!text)
			return -ENOMEM;
		for (; *p; p++) {
			if (!quote && (is_blank(*p) || is_operator(*p)))
				break;
			if (quote != '\'' && *p == '\\' && p[1]) {
				*out++ = *++p;
				continue;
			}
			if (quote_toggle(&quote, *p))
				continue;
			if (quote != '\'' && (*p == '$' || *p == '`'))
				literal = false;
			if (!quote && (*p == '*' || *p == '?' || *p == '['))
				literal = false;
			*out++ = *p;
		}
		*out = '\0';
		if (words_add(ws, text, literal, false) < 0)
			return -ENOMEM;
	}
}

static bool is_find(const struct word *w)
{
	const char *base;

	if (w->separator || !w->literal)
		return false;
	base = strrchr(w->text, '/');
	return strcmp(base ? base + 1 : w->text, "find") == 0;
}

/*
 * "+N", "N" or "-N" of -atime (unit 86400) or -amin (60) as an age in
 * seconds; INT64_MAX when longer than any interval.  -EINVAL when not a
 * number.
 */
static int find_age(const char *arg, int64_t unit, int64_t *age)
{
	const char *p = arg;
	bool plus = false;
	int64_t n = 0;

	if (*p == '+' || *p == '-')
		plus = *p++ == '+';
	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		n = n * 10 + (*p - '0');
		if (n > DURATION_MAX) {
			*age = INT64_MAX;
			while (*p >= '0' && *p <= '9')
				p++;
			return *p ? -EINVAL : 0;
		}
	}
	if (*p)
		return -EINVAL;
	/* find drops the fraction of a day: +N is "at least N+1 days" */
	if (plus && unit == 86400)
		n++;
	*age = n * unit;
	return 0;
}

static int judge_find(struct consumer_list *l, enum consumer_kind kind,
		      const char *where, const struct words *ws, size_t at)
{
	size_t first_start, end, i;
	const char *test = NULL, *arg = NULL;
	int64_t age = -1;
	char *esc;
	int r;

	i = at + 1;
	/* options before the start points */
	while (i < ws->n && !ws->w[i].separator) {
		const char *t = ws->w[i].text;

		if (strcmp(t, "-H") == 0 || strcmp(t, "-L") == 0 || strcmp(t, "-P") == 0 ||
		    strncmp(t, "-O", 2) == 0)
			i++;
		else if (strcmp(t, "-D") == 0)
			i += 2;
		else
			break;
	}
	first_start = i;
	while (i < ws->n && !ws->w[i].separator && ws->w[i].text[0] != '-' &&
	       strcmp(ws->w[i].text, "!") != 0 && strcmp(ws->w[i].text, "(") != 0)
		i++;
	end = i;
	for (; i < ws->n && !ws->w[i].separator; i++) {
		if (strcmp(ws->w[i].text, "-atime") == 0 || strcmp(ws->w[i].text, "-amin") == 0) {
			test = ws->w[i].text;
			arg = i + 1 < ws->n && !ws->w[i + 1].separator ? ws->w[i + 1].text : "";
			break;
		}
	}
	if (!test)
		return 0;
	if (find_age(arg, strcmp(test, "-atime") == 0 ? 86400 : 60, &age) < 0) {
		consumer_problem(l, "%s: find %s '%s': not a number of %s", where, test,
				 name_escape(arg, &esc), strcmp(test, "-atime") == 0 ? "days" : "minutes");
		free(esc);
		return 0;
	}
	if (age == 0 || age == INT64_MAX) {
		consumer_note(l, "%s: find %s %s: %s", where, test, arg,
			      age == 0 ? "matches whatever the atime" : "longer than any interval");
		return 0;
	}
	if (first_start == end) {
		consumer_note(l, "%s: find %s %s without a start point: the working directory is not known",
			      where, test, arg);
		return 0;
	}
	for (i = first_start; i < end; i++) {
		const struct word *w = &ws->w[i];

		if (!w->literal || w->text[0] != '/') {
			consumer_note(l, "%s: find start point '%s' is not a literal absolute path",
				      where, name_escape(w->text, &esc));
			free(esc);
			continue;
		}
		r = consumer_add(l, kind, where, w->text, age);
		if (r < 0)
			return r;
	}
	return 0;
}

int find_parse_command(struct consumer_list *l, enum consumer_kind kind,
		       const char *source, const char *command)
{
	struct words ws = { 0 };
	char *esc;
	const char *where = name_escape(source, &esc);
	int r;

	r = split_words(command, &ws);
	for (size_t i = 0; r == 0 && i < ws.n; i++)
		if (is_find(&ws.w[i]))
			r = judge_find(l, kind, where, &ws, i);
	words_free(&ws);
	free(esc);
	return r;
}
