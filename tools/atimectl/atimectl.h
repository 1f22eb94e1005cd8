/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_H
#define ATIMECTL_H

#include <stdbool.h>

#define EXIT_USAGE 2
/* check: a consumer that cannot trust atime (0 ok, 1 warnings) */
#define EXIT_CRITICAL 3

/* Command-line options shared by the verbs. */
struct options {
	const char *tab_file;    /* -F or $ATIMECTL_MOUNTINFO: instead of /proc/self/mountinfo */
	const char *fstab_file;  /* --fstab: instead of /etc/fstab */
	const char *columns;     /* -o */
	const char *optstr;      /* -O: options for "apply" */
	const char *types;       /* -t: filesystem types, as mnt_match_fstype() takes them */
	const char *interval;    /* --interval: check, "what if" */
	bool output_all;      /* --output-all */
	bool noheadings;
	bool notruncate;      /* -u */
	bool raw;
	bool json;
	bool pairs;           /* -P: KEY="value" */
	bool all;
	bool verbose;
	bool list_targets;    /* --list-targets */
	bool if_mounted;      /* --if-mounted: apply, a TARGET not mounted is not an error */
	bool changes;         /* --changes: apply what utab declares anew */
	bool record_only;     /* --record-only: with --changes, apply nothing */
	bool follow;          /* --follow: with --changes, watch utab until killed */
	bool quiet;           /* -q: set, global DURATION: no warning about consumers */
};

/*
 * Errors, one way:
 *
 * - The lower layers (kernel files: sysfs.c, procsys.c, kfile.c,
 *   interval.c; mount tables and TARGETs: mounts.c, target.c, fsmap.c;
 *   text: duration.c, optstr.c, devno.c, decimal.c, escape.c; other
 *   programs: run-command.c) print nothing.  They return 0 (or a count, a
 *   pointer, true) on success and a negative errno on failure; a few say
 *   more through a documented out-parameter (target_resolve()'s reason,
 *   kernel_read_fs()'s errors).
 * - Their callers report, with the context only they have (the verb, the
 *   TARGET as typed).  Where the words need what only the lower layer
 *   knows (a kernel file's path, what it held), it offers a report
 *   function, kernel_report_*() and the like, that a caller calls when it
 *   decides to say it.  verbs.c pairs the calls every verb makes with
 *   their report, so each failure is said the same way everywhere.
 * - The verbs (verb_*()), and what they share in verbs.c, print their
 *   messages, "atimectl: ..." on stderr, and return an exit status: 0, 1
 *   (failure) or EXIT_USAGE, check also EXIT_CRITICAL.
 * - Lower layers that still print say why where they do: libmount's
 *   parser callback for a bad line of a mount table (mounts.c), and the
 *   readers of atime consumers' configuration (consumer_problem()).
 */

/*
 * The verbs.  argc counts the arguments after the verb, as many as the
 * verb takes: main() refuses any other count, and the options a verb does
 * not take.
 */
int verb_status(const struct options *opts, int argc, char **argv);
int verb_set(const struct options *opts, int argc, char **argv);
int verb_reset(const struct options *opts, int argc, char **argv);
int verb_global(const struct options *opts, int argc, char **argv);
int verb_apply(const struct options *opts, int argc, char **argv);
int verb_explain(const struct options *opts, int argc, char **argv);
int verb_check(const struct options *opts, int argc, char **argv);

#endif
