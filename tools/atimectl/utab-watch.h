/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_UTAB_WATCH_H
#define ATIMECTL_UTAB_WATCH_H

#include <signal.h>

/*
 * Changes of libmount's utab ($LIBMOUNT_UTAB, or /run/mount/utab), seen
 * with inotify on its directory: libmount replaces the file by renaming a
 * new one over it.  "apply --changes" opens the watch before it reads the
 * mount table, so that no change made while it works goes unseen.
 */
struct utab_watch {
	int fd;		/* inotify, or -1 */
	char *name;	/* utab's name in its directory */
};

/* utab's path: $LIBMOUNT_UTAB, or /run/mount/utab. */
const char *utab_watch_path(void);
/* Negative errno when the directory cannot be watched (w->fd is -1). */
int utab_watch_open(struct utab_watch *w);
/*
 * Wait up to timeout_ms (negative: for as long as it takes) for utab to
 * change (a change since the last call returns at once), with the signal
 * mask sigmask while waiting, as ppoll(2) has it (NULL: the caller's).
 * 1 changed (or events were lost), 0 quiet for timeout_ms, -EINTR when
 * a signal came in while sigmask was in force, -ENOENT when utab's
 * directory went away or moved, other negative errno.
 */
int utab_watch_wait(struct utab_watch *w, int timeout_ms, const sigset_t *sigmask);
void utab_watch_close(struct utab_watch *w);

#endif
