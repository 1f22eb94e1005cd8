/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_INTERVAL_H
#define ATIMECTL_INTERVAL_H

#include <stdbool.h>
#include <stdint.h>

#include "sysfs.h"

enum interval_origin {
	ORIGIN_OVERRIDE,   /* /sys/fs/relatime/MAJ:MIN/relatime_interval */
	ORIGIN_OPTION,     /* the same, the value the mount declares */
	ORIGIN_GLOBAL,     /* fs.relatime_interval */
	ORIGIN_KERNEL,     /* built-in 24h of a kernel without the patches */
};

/* The global half of the answer, read once. */
struct global_interval {
	bool tunable;      /* fs.relatime_interval exists and was read */
	int64_t seconds;
};

/*
 * Returns 0 (a kernel without the sysctl is not tunable, with 1d), or a
 * negative errno when the file exists but cannot be read, -EINVAL when it
 * holds no number of seconds; global_interval_report() says which, and
 * what was read.
 */
int global_interval_read(const struct kernel *k, struct global_interval *ret);
void global_interval_report(const struct kernel *k, int error);

/* The interval a relatime mount of this superblock uses, and why. */
int64_t effective_interval(const struct global_interval *g,
			   const struct fs_kernel_state *fs,
			   enum interval_origin *origin);

/* "override", "option", "global", "kernel" */
const char *interval_origin_name(enum interval_origin origin);

#endif
