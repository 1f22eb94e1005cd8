/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * find -atime/-amin in the ExecStart= of enabled systemd units: enabled
 * services, and the services enabled timers start (man-db.service, which
 * runs "find /var/cache/man ... -atime +6 -delete", is started by
 * man-db.timer and is itself static).
 *
 * systemd says which units are enabled and what they run, after drop-ins,
 * masks and the precedence of /etc, /run and /usr/lib: "systemctl
 * list-unit-files --state=enabled" and "systemctl show", never the unit
 * files read here.  "show" prints ExecStart= as
 *
 *   ExecStart={ path=/usr/bin/find ; argv[]=/usr/bin/find /var ... ; ignore_errors=no ; ... }
 *
 * one line per command, the same on systemd 252 and 257 (bookworm,
 * trixie) and since long before; argv[] is the words joined by spaces,
 * which is read as a command line by consumer-find.c.  The D-Bus API
 * (busctl --json) would give the words themselves, but needs a JSON or
 * D-Bus parser for a single property; a start point with a space in it is
 * what this costs (it then names a path that does not exist, reported as
 * such).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "consumers.h"
#include "escape.h"
#include "run-command.h"

struct names {
	char **v;
	size_t n, size;
};

static void names_free(struct names *ns)
{
	for (size_t i = 0; i < ns->n; i++)
		free(ns->v[i]);
	free(ns->v);
}

static bool names_has(const struct names *ns, const char *name)
{
	for (size_t i = 0; i < ns->n; i++)
		if (strcmp(ns->v[i], name) == 0)
			return true;
	return false;
}

static int names_add(struct names *ns, const char *name, size_t len)
{
	char *copy;

	if (ns->n == ns->size) {
		size_t nsize = ns->size ? ns->size * 2 : 16;
		char **n = realloc(ns->v, (nsize + 1) * sizeof(*n));

		if (!n)
			return -ENOMEM;
		ns->v = n;
		ns->size = nsize;
	}
	copy = strndup(name, len);
	if (!copy)
		return -ENOMEM;
	if (names_has(ns, copy)) {
		free(copy);
		return 0;
	}
	ns->v[ns->n++] = copy;
	ns->v[ns->n] = NULL;
	return 0;
}

/* The argv[]= of one ExecStart= value; NULL when it has none. */
static char *exec_argv(const char *value, size_t len)
{
	const char *start = memmem(value, len, "argv[]=", 7), *end;

	if (!start)
		return NULL;
	start += 7;
	end = memmem(start, len - (size_t) (start - value), " ; ", 3);
	if (!end)
		end = value + len;
	return strndup(start, (size_t) (end - start));
}

/*
 * One unit's block: systemctl prints the properties in its own order
 * (ExecStart= of the Service interface before Id= of the Unit one), so
 * the block is read to its end before its commands are.
 */
static int parse_block(struct consumer_list *l, const char *block, const char *end)
{
	const char *p, *id = "unit";
	size_t idlen = strlen(id);
	char *name;
	int r = 0;

	for (p = block; p < end; p = strchrnul(p, '\n') + 1) {
		if (strncmp(p, "Id=", 3) == 0) {
			id = p + 3;
			idlen = (size_t) (strchrnul(p, '\n') - id);
		}
	}
	name = strndup(id, idlen);
	if (!name)
		return -ENOMEM;
	for (p = block; r == 0 && p < end; p = strchrnul(p, '\n') + 1) {
		const char *eol = strchrnul(p, '\n');
		size_t len = (size_t) (eol - p);
		char *argv;

		if (strncmp(p, "ExecStart=", 10) != 0 || len == 10)
			continue;
		argv = exec_argv(p + 10, len - 10);
		if (argv)
			r = find_parse_command(l, CONSUMER_UNIT, name, argv);
		else
			consumer_problem(l, "%s: ExecStart= without argv[]=", name);
		free(argv);
	}
	free(name);
	return r;
}

int units_parse_show(struct consumer_list *l, const char *text)
{
	const char *p = text, *block = text;
	int r = 0;

	for (;;) {
		const char *eol = strchrnul(p, '\n');

		/* an empty line, or the end, ends a unit's block */
		if (eol == p || !*eol) {
			r = parse_block(l, block, eol);
			if (r < 0 || !*eol)
				break;
			block = eol + 1;
		}
		p = eol + 1;
	}
	return r;
}

/* Every value of NAME= in text, into ns. */
static int collect_property(const char *text, const char *name, struct names *ns)
{
	size_t nlen = strlen(name);
	const char *p = text;

	while (*p) {
		const char *eol = strchrnul(p, '\n');

		if (strncmp(p, name, nlen) == 0 && p[nlen] == '=' && eol > p + nlen + 1 &&
		    names_add(ns, p + nlen + 1, (size_t) (eol - p) - nlen - 1) < 0)
			return -ENOMEM;
		p = *eol ? eol + 1 : eol;
	}
	return 0;
}

/* Run systemctl with args and then names; problem reported, *out NULL. */
static int systemctl(struct consumer_list *l, const char *program,
		     const char *const *args, const struct names *units, char **out)
{
	size_t nargs = 0, n = 0;
	char **argv, why[128];
	int r, status;

	while (args[nargs])
		nargs++;
	argv = calloc(1 + nargs + 1 + (units ? units->n : 0) + 1, sizeof(*argv));
	if (!argv)
		return -ENOMEM;
	argv[n++] = (char *) program;
	for (size_t i = 0; i < nargs; i++)
		argv[n++] = (char *) args[i];
	if (units) {
		argv[n++] = (char *) "--";
		for (size_t i = 0; i < units->n; i++)
			argv[n++] = units->v[i];
	}
	argv[n] = NULL;
	r = run_capture(argv, l->quiet, out, &status);
	free(argv);
	if (r == -ENOMEM)
		return r;
	if (r < 0 || status != 0) {
		describe_run_failure(r, status, why, sizeof(why));
		consumer_problem(l, "units: %s %s: %s; unit commands are not checked",
				 program, args[0], why);
		free(*out);
		*out = NULL;
	}
	return 0;
}

int consumers_gather_units(struct consumer_list *l)
{
	static const char *const list_args[] = {
		"list-unit-files", "--type=service,timer", "--state=enabled,enabled-runtime",
		"--no-legend", "--no-pager", NULL,
	};
	static const char *const show_args[] = {
		"show", "--property=Id,Unit,ExecStart", "--no-pager", NULL,
	};
	const char *program = getenv("ATIMECTL_SYSTEMCTL");
	struct names enabled = { 0 }, services = { 0 }, timed = { 0 };
	char *text = NULL;
	int r;

	if (!program || !*program) {
		/* sd_booted(): without systemd running there is nothing to ask */
		if (access("/run/systemd/system", F_OK) < 0) {
			consumer_note(l, "units: systemd is not running; no unit is checked");
			return 0;
		}
		program = "systemctl";
	}
	r = systemctl(l, program, list_args, NULL, &text);
	if (r < 0 || !text)
		goto out;
	for (const char *p = text; *p;) {
		const char *eol = strchrnul(p, '\n');
		size_t len = strcspn(p, " \t\n");

		/* "NAME STATE [PRESET]"; a template ("x@.service") runs only as instances */
		if (len > 0 && !memmem(p, len, "@.", 2)) {
			r = names_add(&enabled, p, len);
			if (r < 0)
				goto out;
		}
		p = *eol ? eol + 1 : eol;
	}
	free(text);
	text = NULL;
	if (enabled.n == 0)
		goto out;

	r = systemctl(l, program, show_args, &enabled, &text);
	if (r < 0 || !text)
		goto out;
	r = units_parse_show(l, text);
	if (r == 0)
		r = collect_property(text, "Unit", &timed);
	free(text);
	text = NULL;
	if (r < 0)
		goto out;
	/* the services of timers, unless enabled themselves */
	for (size_t i = 0; i < timed.n; i++) {
		if (!names_has(&enabled, timed.v[i]) && (r = names_add(&services, timed.v[i], strlen(timed.v[i]))) < 0)
			goto out;
	}
	if (services.n > 0) {
		r = systemctl(l, program, show_args, &services, &text);
		if (r == 0 && text)
			r = units_parse_show(l, text);
	}
out:
	free(text);
	names_free(&enabled);
	names_free(&services);
	names_free(&timed);
	return r;
}
