/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * equivobj NOW KIND|- STATE|- PATH
 *
 * The set-up of one case of t/stock-equiv.sh, in one process: under TCG
 * every process costs a large part of a second, and a case started about
 * nine (date, head or cp, touch, ln, stat) before its one access.  It
 * does what those commands did to the object, in the same order, by the
 * same system calls, and it reads no data of the object.  What it leaves
 * out touches no time of the object: touch's futimens(2) on the new
 * "entry" and ".target" files, cp's attempts to clone or copy_file_range
 * across filesystems (which fail: it then reads and writes, as here), and
 * head's reads of /dev/urandom (getrandom(2) here).
 *
 * KIND (unless "-"): set the clock to NOW - 900 s, then make a new object
 * at PATH, which must not exist:
 *   file  65536 random bytes, written 8192 at a time (as head(1) did)
 *   dir   a directory holding an empty file "entry"
 *   link  an empty file PATH.target and a symlink PATH to its name
 *   exe   a copy of /usr/bin/true, mode 0755 (less the umask)
 *
 * STATE (unless "-"): set the times by the clock and utimensat(2) on PATH
 * itself (a symlink is not followed), as touch -h -a -d did:
 *   old    clock NOW; atime NOW - 3 days; then atime must be older
 *          than mtime and ctime
 *   fresh  clock NOW - 600 s; atime NOW - 300 s; clock NOW; then atime
 *          must be newer than mtime and ctime
 * and print PATH's atime as stat -c %.9X prints it.
 *
 * The caller records that the clock moved.  Exit status 0, 1 on failure
 * (with a message), 2 for bad arguments.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *path;

static int fail(const char *what)
{
	fprintf(stderr, "equivobj: %s: %s: %s\n", path, what, strerror(errno));
	return 1;
}

static int clock_to(long long t)
{
	struct timespec ts = { .tv_sec = t, .tv_nsec = 0 };

	if (clock_settime(CLOCK_REALTIME, &ts) < 0)
		return fail("clock_settime");
	return 0;
}

static int write_all(int fd, const char *buf, size_t len)
{
	ssize_t r;

	while (len > 0) {
		r = write(fd, buf, len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0) {
			errno = EIO;
			return -1;
		}
		buf += r;
		len -= (size_t) r;
	}
	return 0;
}

/* An empty regular file NAME, opened as touch(1) opens one. */
static int make_empty(const char *name)
{
	int fd = open(name, O_WRONLY | O_CREAT | O_NOCTTY | O_NONBLOCK |
		      O_CLOEXEC, 0666);

	if (fd < 0)
		return -1;
	return close(fd);
}

static int make_file(void)
{
	char buf[8192];
	int fd, i;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0)
		return fail("create");
	for (i = 0; i < 8; i++) {
		ssize_t got = getrandom(buf, sizeof(buf), 0);

		if (got != (ssize_t) sizeof(buf)) {
			if (got >= 0)
				errno = EIO;	/* short: cannot happen for 8 KiB */
			return fail("getrandom");
		}
		if (write_all(fd, buf, sizeof(buf)) < 0)
			return fail("write");
	}
	if (close(fd) < 0)
		return fail("close");
	return 0;
}

static int make_dir(void)
{
	char entry[4096];

	if (mkdir(path, 0777) < 0)
		return fail("mkdir");
	if (snprintf(entry, sizeof(entry), "%s/entry", path) >=
	    (int) sizeof(entry)) {
		errno = ENAMETOOLONG;
		return fail("entry");
	}
	if (make_empty(entry) < 0)
		return fail("create entry");
	return 0;
}

static int make_link(void)
{
	char target[4096];
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if (snprintf(target, sizeof(target), "%s.target", path) >=
	    (int) sizeof(target)) {
		errno = ENAMETOOLONG;
		return fail("target");
	}
	if (make_empty(target) < 0)
		return fail("create target");
	/* The link holds the target's name, relative to its directory. */
	if (snprintf(target, sizeof(target), "%s.target", base) >=
	    (int) sizeof(target)) {
		errno = ENAMETOOLONG;
		return fail("target");
	}
	if (symlink(target, path) < 0)
		return fail("symlink");
	return 0;
}

static int make_exe(void)
{
	char buf[65536];
	ssize_t r;
	int in, out;

	in = open("/usr/bin/true", O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return fail("open /usr/bin/true");
	out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	if (out < 0)
		return fail("create");
	while ((r = read(in, buf, sizeof(buf))) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return fail("read /usr/bin/true");
		}
		if (write_all(out, buf, (size_t) r) < 0)
			return fail("write");
	}
	close(in);
	if (close(out) < 0)
		return fail("close");
	return 0;
}

static int stamps(struct statx *stx)
{
	if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW,
		  STATX_ATIME | STATX_MTIME | STATX_CTIME, stx) < 0)
		return fail("statx");
	return 0;
}

static int cmp_ts(const struct statx_timestamp *a,
		  const struct statx_timestamp *b)
{
	if (a->tv_sec != b->tv_sec)
		return a->tv_sec < b->tv_sec ? -1 : 1;
	if (a->tv_nsec != b->tv_nsec)
		return a->tv_nsec < b->tv_nsec ? -1 : 1;
	return 0;
}

static int set_atime(long long t)
{
	struct timespec ts[2] = {
		{ .tv_sec = t, .tv_nsec = 0 },
		{ .tv_sec = 0, .tv_nsec = UTIME_OMIT },
	};

	if (utimensat(AT_FDCWD, path, ts, AT_SYMLINK_NOFOLLOW) < 0)
		return fail("utimensat");
	return 0;
}

static int set_state(const char *state, long long now)
{
	struct statx stx;
	int old = strcmp(state, "old") == 0, sign;

	if (old) {
		if (clock_to(now) || set_atime(now - 3 * 86400))
			return 1;
	} else {
		if (clock_to(now - 600) || set_atime(now - 300) ||
		    clock_to(now))
			return 1;
	}
	if (stamps(&stx))
		return 1;
	sign = old ? -1 : 1;
	if (cmp_ts(&stx.stx_atime, &stx.stx_mtime) != sign ||
	    cmp_ts(&stx.stx_atime, &stx.stx_ctime) != sign) {
		fprintf(stderr,
			"equivobj: %s: could not make its atime %s (%lld.%09u, mtime %lld.%09u, ctime %lld.%09u)\n",
			path, state,
			(long long) stx.stx_atime.tv_sec, stx.stx_atime.tv_nsec,
			(long long) stx.stx_mtime.tv_sec, stx.stx_mtime.tv_nsec,
			(long long) stx.stx_ctime.tv_sec, stx.stx_ctime.tv_nsec);
		return 1;
	}
	printf("%lld.%09u\n", (long long) stx.stx_atime.tv_sec,
	       stx.stx_atime.tv_nsec);
	return fflush(stdout) == EOF ? fail("stdout") : 0;
}

int main(int argc, char **argv)
{
	const char *kind, *state;
	long long now;
	char *end;
	int r = 0;

	if (argc != 5)
		goto usage;
	errno = 0;
	now = strtoll(argv[1], &end, 10);
	if (errno || end == argv[1] || *end || now < 3 * 86400)
		goto usage;
	kind = argv[2];
	state = argv[3];
	path = argv[4];
	if (strcmp(state, "-") && strcmp(state, "old") && strcmp(state, "fresh"))
		goto usage;
	if (strcmp(kind, "-") && strcmp(kind, "file") && strcmp(kind, "dir") &&
	    strcmp(kind, "link") && strcmp(kind, "exe"))
		goto usage;

	if (strcmp(kind, "-")) {
		if (clock_to(now - 900))
			return 1;
		if (strcmp(kind, "file") == 0)
			r = make_file();
		else if (strcmp(kind, "dir") == 0)
			r = make_dir();
		else if (strcmp(kind, "link") == 0)
			r = make_link();
		else
			r = make_exe();
		if (r)
			return r;
	}
	if (strcmp(state, "-"))
		return set_state(state, now);
	return 0;
usage:
	fprintf(stderr, "usage: equivobj NOW file|dir|link|exe|- old|fresh|- PATH\n");
	return 2;
}
