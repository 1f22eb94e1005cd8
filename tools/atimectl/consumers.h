/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_CONSUMERS_H
#define ATIMECTL_CONSUMERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Atime consumers: programs configured on this system that decide by a
 * file's access time (atime) whether it is old enough to remove.  Each
 * source is read by its own file:
 *
 *   consumer-tmpfiles.c   systemd-tmpfiles rules, from --cat-config
 *   consumer-tmpreaper.c  /etc/tmpreaper.conf (Debian's tmpreaper)
 *   consumer-cron.c       find -atime/-amin in crontabs and cron.* scripts
 *   consumer-units.c      find -atime/-amin in ExecStart= of enabled units
 *   consumer-find.c       the find(1) command-line reader the last two share
 *
 * To add a source: write consumer-NAME.c with a parser that takes text
 * and adds to a consumer_list (so that it can be fuzzed without the
 * system), and a consumers_gather_NAME() that reads the system's
 * configuration, under consumers_config_root(); add a kind below, call it
 * from consumers_gather(), and list it in atimectl(8) under CHECK.
 */

enum consumer_kind {
	CONSUMER_TMPFILES,
	CONSUMER_TMPREAPER,
	CONSUMER_CRON,
	CONSUMER_UNIT,
};

struct consumer {
	enum consumer_kind kind;
	char *source;     /* where it is configured: "FILE:LINE" or a unit name */
	char *path;       /* the directory it cleans, as configured */
	char *map_path;   /* the literal part of path that decides the filesystem */
	int64_t age;      /* seconds: older by atime than this is removed */
};

struct consumer_list {
	struct consumer *items;
	size_t n, size;
	unsigned int problems;  /* bad input reported (or, quiet, not) */
	bool quiet;             /* report nothing (set/global, fuzzing) */
	bool verbose;           /* also say what is not a consumer, and why */
};

void consumer_list_free(struct consumer_list *l);

/* Add a consumer; the strings are copied.  Returns 0 or -ENOMEM. */
int consumer_add(struct consumer_list *l, enum consumer_kind kind,
		 const char *source, const char *path, int64_t age);

/*
 * Report bad input: "atimectl: " and the message on stderr, counted.
 * Deliberately said here, below the verb: a bad line of configuration is
 * told with its FILE:LINE as it is met, and reading goes on; quiet (the
 * warning of set and global, the fuzzers) only counts it.  Running out of
 * memory is not reported here: the functions return -ENOMEM, and the
 * verb says it.
 */
void consumer_problem(struct consumer_list *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A note for --verbose: what was read and is no consumer. */
void consumer_note(const struct consumer_list *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "tmpfiles", "tmpreaper", "cron", "unit" */
const char *consumer_kind_name(enum consumer_kind kind);

/* Who removes: "systemd-tmpfiles", "tmpreaper", "find" */
const char *consumer_remover_name(enum consumer_kind kind);

/*
 * Quoting as shells and systemd read it: a ' or " opens a quote that the
 * same character closes.  Returns true when c was such a quote (and
 * *quote, 0 outside quotes, follows it).
 */
bool quote_toggle(char *quote, char c);

/*
 * The directory whose filesystem a configured path is on: the path up to
 * the last '/' before the first component that holds a glob character
 * or a specifier that is not a directory ("/var/log/journal/%m" is on the
 * filesystem of /var/log/journal); "%t", "%T", ... are expanded first, as
 * systemd-tmpfiles expands them for the system.  Returns NULL when out of
 * memory.
 */
char *consumer_map_path(const char *path);

/*
 * Where configuration is read from: "" for the system, or the directory
 * $ATIMECTL_CONFIG_ROOT names (a test hook: systemd-tmpfiles gets it as
 * --root=, the other files are read below it).
 */
const char *consumers_config_root(void);

/* Every source, in the order above.  Returns 0 or -ENOMEM. */
int consumers_gather(struct consumer_list *l);

/* The sources one by one (each reports its own problems). */
int consumers_gather_tmpfiles(struct consumer_list *l);
int consumers_gather_tmpreaper(struct consumer_list *l);
int consumers_gather_cron(struct consumer_list *l);
int consumers_gather_units(struct consumer_list *l);

/*
 * The parsers, on text (for the gatherers and the fuzzers):
 *
 * tmpfiles_parse_config(): what "systemd-tmpfiles --cat-config" prints.
 * tmpfiles_parse_age(): one age field; returns 0 with *by_atime and *age
 * set (age -1: no cleaning), or -EINVAL with *why.
 * tmpreaper_parse_config(): tmpreaper.conf, with TMPTIME from rcs_text
 * (/etc/default/rcS, or NULL).
 * find_parse_command(): every "find ... -atime N" or "-amin N" in one
 * shell command line.
 * cron_parse_file(): a crontab or a cron script, line by line.
 * units_parse_show(): what "systemctl show -p Id,ExecStart" prints.
 *
 * Each returns 0 or -ENOMEM; bad input is reported (consumer_problem())
 * and counted.
 */
int tmpfiles_parse_config(struct consumer_list *l, const char *text);
int tmpfiles_parse_age(const char *field, int64_t *age, bool *by_atime,
		       const char **why);
int tmpreaper_parse_config(struct consumer_list *l, const char *file,
			   const char *text, const char *rcs_text);
int find_parse_command(struct consumer_list *l, enum consumer_kind kind,
		       const char *source, const char *command);
int cron_parse_file(struct consumer_list *l, const char *file, const char *text);
int units_parse_show(struct consumer_list *l, const char *text);

#endif
