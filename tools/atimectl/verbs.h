/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_VERBS_H
#define ATIMECTL_VERBS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <libmount.h>

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
 * The mount table, as mounts_load() loads it, or NULL after saying why
 * not.
 */
struct libmnt_table *verbs_load_mounts(const char *file, bool with_utab);

/*
 * Resolve every TARGET before anything is changed.  Reports each one that
 * fails ("atimectl: TARGET: reason"); on success fills fss[0..n-1] and
 * returns 0.  A source that other filesystems are mounted from too names
 * no one filesystem: its mounts are listed, and -ENOTUNIQ is returned (a
 * usage error) if any TARGET was such; otherwise the first failure's
 * negative errno.
 */
int resolve_targets(struct libmnt_table *tb, int n, char **specs,
		    struct libmnt_fs **fss);

/*
 * The mount table (-F, or the kernel's) and the mount of each of the n
 * TARGETs in specs (*fss is NULL when n is 0), as the verbs that take
 * TARGETs start.  Returns 0, or a negative errno after saying what failed;
 * verbs_exit_status() turns it into the exit status.  The caller frees *fss
 * and unrefs *tb, failed or not.
 */
int verbs_load_targets(const struct options *opts, int n, char **specs,
		       struct libmnt_table **tb, struct libmnt_fs ***fss);

/*
 * The exit status for a failure a verb reported: EXIT_USAGE for a TARGET
 * that names no one filesystem (-ENOTUNIQ), 1 for any other.
 */
int verbs_exit_status(int error);

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
