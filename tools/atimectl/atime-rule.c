/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's rule for updating atime on a read, as a pure function.
 */
#include <string.h>

#include "atime-rule.h"

/* <0, 0, >0 like the kernel's timespec64_compare() */
static int ts_compare(const struct timespec *a, const struct timespec *b)
{
	if (a->tv_sec != b->tv_sec)
		return a->tv_sec < b->tv_sec ? -1 : 1;
	if (a->tv_nsec != b->tv_nsec)
		return a->tv_nsec < b->tv_nsec ? -1 : 1;
	return 0;
}

static void never(struct atime_answer *a, const char *reason)
{
	a->update = false;
	a->never = true;
	a->reason = reason;
}

/*
 * The filesystem truncates the new atime to its step (FAT: the date), so
 * within the step that holds the stored value nothing changes.  A stored
 * value is the start of its step, and the step ends one granularity
 * later; nanoseconds show a value that was not stored so.  Returns true
 * when an update turned out to change nothing.
 */
static bool coarse_step(const struct atime_question *q, struct atime_answer *a)
{
	int64_t end;

	if (q->granularity <= 1 || q->atime.tv_nsec != 0)
		return false;
	end = (int64_t) q->atime.tv_sec + q->granularity;
	if (a->update && q->now.tv_sec >= q->atime.tv_sec && q->now.tv_sec < end) {
		a->update = false;
		a->reason = q->granularity >= 86400 ?
			"the filesystem stores only the date of the last access, and that date would not change" :
			"the filesystem stores atime in steps of seconds, and the stored value would not change";
		a->has_next = true;
		a->next_update = (time_t) end;
		return true;
	}
	if (!a->update && a->has_next && (int64_t) a->next_update < end)
		a->next_update = (time_t) end;
	return false;
}

void atime_predict(const struct atime_question *q, struct atime_answer *a)
{
	memset(a, 0, sizeof(*a));

	if (q->inode_noatime) {
		never(a, "the file has the no-atime attribute (chattr +A)");
		return;
	}
	if (q->mode == ATIME_NOATIME) {
		never(a, "the filesystem is mounted noatime");
		return;
	}
	if (q->readonly) {
		never(a, "the filesystem is read-only");
		return;
	}
	if (q->is_dir && q->nodiratime) {
		never(a, "directory on a nodiratime mount");
		return;
	}

	if (q->mode == ATIME_RELATIME) {
		if (ts_compare(&q->mtime, &q->atime) >= 0) {
			a->update = true;
			a->reason = "atime <= mtime (modified since the last recorded access)";
		} else if (ts_compare(&q->ctime, &q->atime) >= 0) {
			a->update = true;
			a->reason = "atime <= ctime (inode changed since the last recorded access)";
		} else if ((int64_t) q->now.tv_sec - (int64_t) q->atime.tv_sec >= q->interval) {
			a->update = true;
			a->reason = "atime is at least one interval old";
		} else {
			a->update = false;
			a->reason = "atime is newer than mtime and ctime and younger than the interval";
			a->has_next = true;
			a->next_update = (time_t) ((int64_t) q->atime.tv_sec + q->interval);
			coarse_step(q, a);
			return;
		}
	} else {
		a->update = true;
		a->reason = "strictatime: every read updates atime";
	}

	if (coarse_step(q, a))
		return;

	/* the kernel skips the write when nothing would change */
	if (ts_compare(&q->atime, &q->now) == 0) {
		a->update = false;
		a->reason = "atime already equals the current time";
		a->has_next = true;
		a->next_update = q->now.tv_sec + 1;
	}
}
