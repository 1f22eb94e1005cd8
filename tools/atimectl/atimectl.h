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
	bool quiet;           /* -q: set, global DURATION: no warning about consumers */
};

/* Each verb returns the exit status: 0, 1 (failure) or EXIT_USAGE. */
int verb_status(const struct options *opts, int argc, char **argv);
int verb_set(const struct options *opts, int argc, char **argv);
int verb_reset(const struct options *opts, int argc, char **argv);
int verb_global(const struct options *opts, int argc, char **argv);
int verb_apply(const struct options *opts, int argc, char **argv);
int verb_explain(const struct options *opts, int argc, char **argv);
int verb_check(const struct options *opts, int argc, char **argv);

#endif
