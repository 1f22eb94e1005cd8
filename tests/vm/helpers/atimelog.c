/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * atimelog CPU SECONDS FILE...
 *
 * A reader that knows what each of its accesses did to the access time.
 * Pinned to CPU, for SECONDS it picks one of its FILEs at random (files
 * nobody else touches), sometimes first sets its atime far into the past
 * (utimensat, which is not an access), reads one byte with pread(2), and
 * compares the atime before and after: changed is an update, unchanged a
 * relatime skip.  That is exact only if the access could not have found
 * the atime already equal to the current time, so before each read it
 * waits until the coarse real-time clock, the one the kernel stamps
 * atimes with, is past the file's atime.  The mount must be relatime and
 * nothing else may access the files.  After each access it sleeps 2 ms,
 * leaving some CPU time to whatever runs beside it.
 *
 * Prints "UPDATES SKIPS".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static int ts_cmp(const struct timespec *a, const struct timespec *b)
{
	if (a->tv_sec != b->tv_sec)
		return a->tv_sec < b->tv_sec ? -1 : 1;
	if (a->tv_nsec != b->tv_nsec)
		return a->tv_nsec < b->tv_nsec ? -1 : 1;
	return 0;
}

int main(int argc, char **argv)
{
	struct timespec now, end, pause = { 0, 1000000 }, breath = { 0, 2000000 };
	unsigned long updates = 0, skips = 0;
	int nfiles = argc - 3, *fds, i;
	cpu_set_t cpus;

	if (argc < 4) {
		fprintf(stderr, "usage: atimelog CPU SECONDS FILE...\n");
		return 2;
	}
	CPU_ZERO(&cpus);
	CPU_SET(atoi(argv[1]), &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus))
		die("sched_setaffinity");
	fds = calloc(nfiles, sizeof(*fds));
	if (!fds)
		die("calloc");
	for (i = 0; i < nfiles; i++) {
		fds[i] = open(argv[3 + i], O_RDONLY);
		if (fds[i] < 0)
			die(argv[3 + i]);
	}
	srandom(getpid());
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += atoi(argv[2]);
	for (;;) {
		int fd = fds[random() % nfiles];
		struct stat before, after;
		char c;

		clock_gettime(CLOCK_MONOTONIC, &now);
		if (ts_cmp(&now, &end) >= 0)
			break;
		if (random() % 4 == 0) {
			/* atime <= mtime: relatime updates whatever the interval */
			struct timespec t[2] = { { 1000000000, 0 }, { 0, UTIME_OMIT } };

			if (futimens(fd, t))
				die("futimens");
		}
		if (fstat(fd, &before))
			die("fstat");
		for (;;) {
			clock_gettime(CLOCK_REALTIME_COARSE, &now);
			if (ts_cmp(&now, &before.st_atim) > 0)
				break;
			nanosleep(&pause, NULL);
		}
		if (pread(fd, &c, 1, 0) != 1)
			die("pread");
		if (fstat(fd, &after))
			die("fstat");
		if (ts_cmp(&before.st_atim, &after.st_atim))
			updates++;
		else
			skips++;
		nanosleep(&breath, NULL);
	}
	printf("%lu %lu\n", updates, skips);
	return 0;
}
