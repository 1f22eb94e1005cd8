/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_ATIME_RULE_H
#define ATIMECTL_ATIME_RULE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "mounts.h"

/* Everything the kernel looks at when a read may update atime. */
struct atime_question {
	enum atime_mode mode;
	bool readonly;         /* read-only mount or filesystem */
	bool nodiratime;       /* mount has nodiratime */
	bool is_dir;
	bool inode_noatime;    /* chattr +A */
	struct timespec atime, mtime, ctime, now;
	int64_t interval;      /* seconds, relatime only */
	int64_t granularity;   /* seconds the filesystem stores atime to; 0 or 1: finer */
};

struct atime_answer {
	bool update;           /* the next read updates atime */
	bool never;            /* no read will, whatever happens */
	const char *reason;
	bool has_next;         /* a read from next_update on will update */
	time_t next_update;
};

/*
 * Linux 6.1 atime_needs_update() and relatime_need_update() with a tunable
 * interval: noatime, read-only and nodiratime never update; strictatime
 * updates unless atime already equals now; relatime updates when
 * atime <= mtime, atime <= ctime or now - atime >= interval (seconds).
 * On a filesystem that stores atime in steps of granularity seconds
 * (FAT: a day), an update whose truncated value equals the stored atime
 * changes nothing, so none happens before the next step begins.
 */
void atime_predict(const struct atime_question *q, struct atime_answer *a);

#endif
