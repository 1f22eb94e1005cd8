/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Watching libmount's utab for changes.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <time.h>
#include <unistd.h>

#include "utab-watch.h"

const char *utab_watch_path(void)
{
	const char *path = getenv("LIBMOUNT_UTAB");

	return path && *path ? path : "/run/mount/utab";
}

int utab_watch_open(struct utab_watch *w)
{
	char *dir = strdup(utab_watch_path()), *slash;
	int r = 0;

	w->fd = -1;
	w->name = NULL;
	if (!dir)
		return -ENOMEM;
	slash = strrchr(dir, '/');
	if (!slash || !slash[1]) {
		free(dir);
		return -EINVAL;
	}
	w->name = strdup(slash + 1);
	*slash = '\0';
	w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (!w->name || w->fd < 0 ||
	    inotify_add_watch(w->fd, *dir ? dir : "/", IN_CLOSE_WRITE | IN_MOVED_TO |
			      IN_MOVED_FROM | IN_CREATE | IN_DELETE |
			      IN_DELETE_SELF | IN_MOVE_SELF) < 0) {
		r = w->name ? -errno : -ENOMEM;
		utab_watch_close(w);
	}
	free(dir);
	return r;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Read what is queued: 1 if an event names utab, or events were lost (the
 * queue overflowed: utab may have changed), 0 if none does; -ENOENT once
 * the directory is gone or moved, since nothing in it can be seen then.
 */
static int drain(struct utab_watch *w)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	int changed = 0, gone = 0;
	ssize_t n;

	while ((n = read(w->fd, buf, sizeof(buf))) > 0) {
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *) p;

			if (ev->mask & IN_Q_OVERFLOW)
				changed = 1;
			if (ev->mask & (IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF))
				gone = 1;
			if (ev->len && strcmp(ev->name, w->name) == 0)
				changed = 1;
			p += sizeof(*ev) + ev->len;
		}
	}
	if (n < 0 && errno != EAGAIN)
		return -errno;
	return gone ? -ENOENT : changed;
}

int utab_watch_wait(struct utab_watch *w, int timeout_ms, const sigset_t *sigmask)
{
	long long deadline = now_ms() + timeout_ms;

	for (;;) {
		struct pollfd pfd = { .fd = w->fd, .events = POLLIN };
		long long left = deadline - now_ms();
		struct timespec ts, *tsp = NULL;
		int r = drain(w);

		if (r != 0)
			return r;
		if (timeout_ms >= 0) {
			if (left <= 0)
				return 0;
			ts.tv_sec = left / 1000;
			ts.tv_nsec = (left % 1000) * 1000000;
			tsp = &ts;
		}
		r = ppoll(&pfd, 1, tsp, sigmask);
		if (r < 0 && errno != EINTR)
			return -errno;
		if (r < 0 && sigmask)
			return -EINTR;
	}
}

void utab_watch_close(struct utab_watch *w)
{
	if (w->fd >= 0)
		close(w->fd);
	free(w->name);
	w->fd = -1;
	w->name = NULL;
}
