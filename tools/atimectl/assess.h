/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_ASSESS_H
#define ATIMECTL_ASSESS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <libmount.h>

#include "consumers.h"
#include "interval.h"
#include "mounts.h"
#include "sysfs.h"
#include "verdict.h"

struct options;

/* One mounted filesystem that consumers act on. */
struct fs_view {
	struct libmnt_fs *fs;
	dev_t devno;
	enum atime_mode mode;
	struct fs_kernel_state kstate;
	int64_t interval;            /* in effect (at least the atime step); relatime only */
	enum interval_origin origin;
	bool planned;                /* the interval is the one asked about (--interval) */
	enum verdict worst;          /* of its findings */
};

/* One consumer on one filesystem. */
struct finding {
	const struct consumer *consumer;
	size_t fs;                   /* index into fss */
	enum verdict verdict;
};

struct assessment {
	struct fs_view *fss;
	size_t nfs;
	struct finding *findings;
	size_t nfindings;
	unsigned int problems;       /* consumers on no filesystem, unreadable sysfs files */
};

/*
 * "What if" the interval were seconds: as "set" would make it on the
 * filesystems of devnos, or (ndevnos 0) as "global" would make it for
 * every filesystem without an override.
 */
struct what_if {
	bool active;
	int64_t seconds;
	const dev_t *devnos;
	size_t ndevnos;
};

/*
 * Judge every consumer of l against the filesystem its path is on (of
 * those of only[], when nonly > 0).  A consumer on no filesystem of tb is
 * reported (unless quiet) and counted in problems.  Returns 0 or -ENOMEM.
 */
int assess(const struct consumer_list *l, struct libmnt_table *tb,
	   const struct kernel *k, const struct global_interval *g,
	   const struct what_if *w, const dev_t *only, size_t nonly, bool quiet,
	   struct assessment *ret);
void assessment_free(struct assessment *a);

/*
 * After "set" (one filesystem, devno) or "global" (devno NULL) wrote
 * seconds: one line on stderr when that makes a known consumer critical.
 * Reads the configuration quietly: what cannot be read is for "check"
 * to report.
 */
void warn_if_critical(const struct options *opts, const dev_t *devno, int64_t seconds);

#endif
