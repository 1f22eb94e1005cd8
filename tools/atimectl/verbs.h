/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_VERBS_H
#define ATIMECTL_VERBS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "interval.h"
#include "sysfs.h"

struct options;

/*
 * The verbs' side of the lower layers: each calls one, and when it fails
 * says so the one way every verb says it (with the lower layer's report
 * function).  Each returns what the lower layer returned: 0 or a negative
 * errno.
 */
int verbs_open_kernel(struct kernel *k);
int verbs_read_global(const struct kernel *k, struct global_interval *g);
int verbs_read_fs(const struct kernel *k, dev_t devno, unsigned int what,
		  struct fs_kernel_state *ret);
int verbs_write_fs(const struct kernel *k, const char *verb, dev_t devno,
		   int64_t value);

/*
 * verbs_write_fs(), but silent when the superblock's directory is gone
 * (-ENOENT, -ENODEV: it was unmounted), for a caller that may expect it;
 * kernel_report_fs_write() says it if the caller does not.
 */
int verbs_write_fs_unless_gone(const struct kernel *k, const char *verb,
			       dev_t devno, int64_t value);

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
