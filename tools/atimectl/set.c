/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "set", "reset" and "global": writing the kernel's intervals.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libmount.h>
#include <libsmartcols.h>

#include "assess.h"
#include "atimectl.h"
#include "decimal.h"
#include "duration.h"
#include "escape.h"
#include "interval.h"
#include "mounts.h"
#include "procsys.h"
#include "sysfs.h"
#include "target.h"

/*
 * Check that every resolved mount has a per-filesystem directory; report
 * each one that does not.  Returns -1 if any is missing.
 */
static int check_fs_dirs(const struct kernel *k, int n, char **specs,
			 struct libmnt_fs **fss)
{
	int failed = 0;

	for (int i = 0; i < n; i++) {
		dev_t devno = mnt_fs_get_devno(fss[i]);
		char majmin[DEVNO_FORMAT_MAX], *e1, *e2;

		if (kernel_fs_has_dir(k, devno))
			continue;
		fprintf(stderr, "atimectl: %s: %s on %s has no relatime interval (no %s/%s)\n",
			name_escape(specs[i], &e1),
			mnt_fs_get_fstype(fss[i]) ? mnt_fs_get_fstype(fss[i]) : "filesystem",
			devno_format(devno, majmin, sizeof(majmin)),
			name_escape(k->sysfs_root, &e2), majmin);
		free(e1);
		free(e2);
		failed = 1;
	}
	return failed ? -1 : 0;
}

/* Write value (-1 = inherit) to every target, after validating them all. */
static int write_targets(const struct options *opts, const char *verb,
			 int n, char **specs, int64_t value)
{
	struct libmnt_table *tb = NULL;
	struct libmnt_fs **fss = NULL;
	struct kernel k;
	int ret = 1, r;

	if (kernel_open(&k) < 0)
		return 1;
	if (!kernel_has_fs_interval(&k)) {
		kernel_note_unsupported();
		goto out;
	}

	tb = mounts_load(opts->tab_file, false);
	if (!tb)
		goto out;
	fss = calloc((size_t) n, sizeof(*fss));
	if (!fss) {
		fprintf(stderr, "atimectl: out of memory\n");
		goto out;
	}
	r = resolve_targets(tb, n, specs, fss);
	if (r < 0) {
		if (r == -ENOTUNIQ)
			ret = EXIT_USAGE;
		goto out;
	}
	if (check_fs_dirs(&k, n, specs, fss) < 0)
		goto out;

	ret = 0;
	for (int i = 0; i < n; i++) {
		char majmin[DEVNO_FORMAT_MAX], buf[DURATION_FORMAT_MAX];
		dev_t devno = mnt_fs_get_devno(fss[i]);

		if (kernel_write_fs(&k, verb, devno, value) < 0) {
			ret = 1;
			continue;
		}
		if (value >= 0)
			warn_if_critical(opts, &devno, value);
		if (opts->verbose) {
			char *esc;

			printf("%s (%s): relatime interval %s\n",
			       name_escape(mnt_fs_get_target(fss[i]), &esc),
			       devno_format(devno, majmin, sizeof(majmin)),
			       value < 0 ? "inherits the global value"
					 : duration_format(value, buf, sizeof(buf)));
			free(esc);
		}
	}
out:
	free(fss);
	mnt_unref_table(tb);
	kernel_close(&k);
	return ret;
}

/* A DURATION given on the command line; a bad one is a usage error. */
static int parse_duration_arg(const char *verb, const char *arg, int64_t *seconds)
{
	int r = duration_parse(arg, seconds);
	char *esc;

	if (r < 0) {
		fprintf(stderr, "atimectl: %s: invalid duration '%s': %s\n",
			verb, name_escape(arg, &esc), duration_strerror(r));
		free(esc);
	}
	return r;
}

int verb_set(const struct options *opts, int argc, char **argv)
{
	int64_t seconds;

	if (argc != 2) {
		fprintf(stderr, "atimectl: set: expected TARGET DURATION (see --help)\n");
		return EXIT_USAGE;
	}
	if (parse_duration_arg("set", argv[1], &seconds) < 0)
		return EXIT_USAGE;
	return write_targets(opts, "set", 1, argv, seconds);
}

int verb_reset(const struct options *opts, int argc, char **argv)
{
	if (argc < 1) {
		fprintf(stderr, "atimectl: reset: expected at least one TARGET (see --help)\n");
		return EXIT_USAGE;
	}
	return write_targets(opts, "reset", argc, argv, -1);
}

/*
 * global --json: {"global": [{"interval": N, "tunable": BOOL}]}, a table
 * of one line printed by libsmartcols, like every JSON atimectl prints.
 * Returns < 0 when out of memory; a write error is reported by
 * close_stdout() at exit.
 */
static int print_global_json(const struct global_interval *g)
{
	struct libscols_table *tb = scols_new_table();
	struct libscols_column *interval, *tunable;
	struct libscols_line *ln;
	char buf[DECIMAL_MAX];
	int r = -1;

	if (!tb)
		return -1;
	scols_table_enable_json(tb, 1);
	if (scols_table_set_name(tb, "global") < 0)
		goto out;
	interval = scols_table_new_column(tb, "interval", 0, 0);
	tunable = scols_table_new_column(tb, "tunable", 0, 0);
	if (!interval || !tunable ||
	    scols_column_set_json_type(interval, SCOLS_JSON_NUMBER) < 0 ||
	    scols_column_set_json_type(tunable, SCOLS_JSON_BOOLEAN) < 0)
		goto out;
	ln = scols_table_new_line(tb, NULL);
	/* libsmartcols reads "0" as false, anything else as true */
	if (!ln || scols_line_set_data(ln, 0, decimal_i64(g->seconds, buf)) < 0 ||
	    scols_line_set_data(ln, 1, g->tunable ? "1" : "0") < 0)
		goto out;
	r = 0;
	if (scols_print_table(tb) < 0 && !ferror(stdout))
		fprintf(stderr, "atimectl: cannot print the table\n");
out:
	scols_unref_table(tb);
	return r;
}

static int show_global(const struct options *opts)
{
	struct global_interval g;
	char buf[DURATION_FORMAT_MAX], num[DECIMAL_MAX];
	struct kernel k;
	int r;

	if (kernel_open(&k) < 0)
		return 1;
	r = global_interval_read(&k, &g);
	kernel_close(&k);
	if (r < 0)
		return 1;

	if (opts->json) {
		if (print_global_json(&g) < 0) {
			fprintf(stderr, "atimectl: out of memory\n");
			return 1;
		}
	} else if (opts->raw)
		printf("%s\n", decimal_i64(g.seconds, num));
	else
		printf("%s\n", duration_format(g.seconds, buf, sizeof(buf)));

	if (!g.tunable)
		fprintf(stderr, "atimectl: this kernel has no global relatime interval (no /proc/sys/fs/relatime_interval); the built-in 1d applies\n");
	return 0;
}

int verb_global(const struct options *opts, int argc, char **argv)
{
	struct kernel k;
	int64_t seconds;
	int r;

	if (argc == 0)
		return show_global(opts);
	if (argc > 1) {
		fprintf(stderr, "atimectl: global: expected at most one DURATION (see --help)\n");
		return EXIT_USAGE;
	}
	if (parse_duration_arg("global", argv[0], &seconds) < 0)
		return EXIT_USAGE;

	if (kernel_open(&k) < 0)
		return 1;
	r = kernel_write_global(&k, "global", seconds);
	kernel_close(&k);
	if (r < 0)
		return 1;
	warn_if_critical(opts, NULL, seconds);
	return 0;
}
