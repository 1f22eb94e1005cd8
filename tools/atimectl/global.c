/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "atimectl global [DURATION]": show or set fs.relatime_interval.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <libsmartcols.h>

#include "assess.h"
#include "atimectl.h"
#include "decimal.h"
#include "duration.h"
#include "interval.h"
#include "procsys.h"
#include "sysfs.h"
#include "verbs.h"

/*
 * global --json: {"global": [{"interval": N, "tunable": BOOL}]}, a table
 * of one line printed by libsmartcols, like every JSON atimectl prints.
 * Returns 0 or -ENOMEM; a write error is reported by close_stdout() at
 * exit.
 */
static int print_global_json(const struct global_interval *g)
{
	struct libscols_table *tb = scols_new_table();
	struct libscols_column *interval, *tunable;
	struct libscols_line *ln;
	char buf[DECIMAL_MAX];
	int r = -ENOMEM;

	if (!tb)
		return -ENOMEM;
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

	if (verbs_open_kernel(&k) < 0)
		return 1;
	r = verbs_read_global(&k, &g);
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
	if (verbs_parse_duration("global", argv[0], &seconds) < 0)
		return EXIT_USAGE;

	if (verbs_open_kernel(&k) < 0)
		return 1;
	r = kernel_write_global(&k, seconds);
	if (r < 0)
		kernel_report_write_global(&k, "global", r);
	kernel_close(&k);
	if (r < 0)
		return 1;
	warn_if_critical(opts, NULL, seconds);
	return 0;
}
