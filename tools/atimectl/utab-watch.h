/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_UTAB_WATCH_H
#define ATIMECTL_UTAB_WATCH_H

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

/* Negative errno when the directory cannot be watched (w->fd is -1). */
int utab_watch_open(struct utab_watch *w);
/*
 * Wait up to timeout_ms for utab to change (a change since the last call
 * returns at once).  1 changed, 0 quiet for timeout_ms, negative errno.
 */
int utab_watch_wait(struct utab_watch *w, int timeout_ms);
void utab_watch_close(struct utab_watch *w);

#endif
