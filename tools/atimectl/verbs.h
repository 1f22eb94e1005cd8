/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_VERBS_H
#define ATIMECTL_VERBS_H

#include <stdint.h>

struct options;

/*
 * A DURATION given on the command line to verb: 0, or a negative errno
 * after saying why it is none ("atimectl: VERB: invalid duration ...",
 * a usage error).
 */
int verbs_parse_duration(const char *verb, const char *arg, int64_t *seconds);

/*
 * "set" and "reset": write value (-1 = inherit) to the filesystem of
 * each of the n TARGETs in specs, after checking that all of them can
 * take it.  Returns the verb's exit status, every failure reported.
 */
int verbs_write_targets(const struct options *opts, const char *verb,
			int n, char **specs, int64_t value);

#endif
