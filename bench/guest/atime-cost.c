// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * atime-cost: the read-path cost of bench/run.sh, part 2.
 *
 *   atime-cost FILE N REPS
 *
 * FILE must exist on the mount under test.  The program first makes sure
 * no atime update is due on relatime (it reads FILE once after a pause, so
 * that atime is later than mtime and ctime), then, REPS times:
 *   - N cached 1-byte pread()s of FILE at offset 0,
 *   - N/4 rounds of stat() + open() + close() of FILE,
 *   - N getppid() calls (the bare cost of entering the kernel),
 * each after a warm-up of N/10, timed with clock_gettime(CLOCK_MONOTONIC).
 * Under QEMU's -icount shift=0 one guest instruction is one nanosecond, so
 * elapsed ns / calls is the number of instructions per call (loop and
 * libc wrapper included).  Prints one JSON object.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "atime-cost: %s: %s\n", what, strerror(errno));
	exit(1);
}

static long long ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static const char *file;
static int fd;

static void do_pread(long n)
{
	char c;

	for (long i = 0; i < n; i++)
		if (pread(fd, &c, 1, 0) != 1)
			die("pread");
}

static void do_soc(long n)
{
	struct stat st;

	for (long i = 0; i < n; i++) {
		if (stat(file, &st))
			die("stat");
		int f = open(file, O_RDONLY);
		if (f < 0)
			die("open");
		close(f);
	}
}

static void do_getppid(long n)
{
	for (long i = 0; i < n; i++)
		getppid();
}

static double measure(void (*fn)(long), long n)
{
	fn(n / 10);
	long long t0 = ns();
	fn(n);
	long long t1 = ns();
	return (double)(t1 - t0) / (double)n;
}

static void print_list(const char *name, const double *v, int reps, int last)
{
	printf("\"%s\":[", name);
	for (int r = 0; r < reps; r++)
		printf("%s%.2f", r ? "," : "", v[r]);
	printf("]%s", last ? "" : ",");
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: atime-cost FILE N REPS\n");
		return 2;
	}
	file = argv[1];
	long n = atol(argv[2]);
	int reps = atoi(argv[3]);
	double pr[16], soc[16], gp[16];
	struct stat before, after;
	struct timespec pause = { 0, 50 * 1000 * 1000 };
	char c;

	if (reps < 1 || reps > 16)
		reps = 3;
	fd = open(file, O_RDONLY);
	if (fd < 0)
		die(file);
	nanosleep(&pause, NULL);
	if (pread(fd, &c, 1, 0) != 1)
		die("pread");
	if (fstat(fd, &before))
		die("fstat");
	for (int r = 0; r < reps; r++) {
		pr[r] = measure(do_pread, n);
		soc[r] = measure(do_soc, n / 4);
		gp[r] = measure(do_getppid, n);
	}
	if (fstat(fd, &after))
		die("fstat");
	printf("{\"n\":%ld,\"reps\":%d,", n, reps);
	print_list("pread", pr, reps, 0);
	print_list("stat_open_close", soc, reps, 0);
	print_list("getppid", gp, reps, 0);
	/* was atime later than mtime/ctime (no relatime update due), and
	 * did it move during the measurement? */
	printf("\"atime_after_mtime\":%s,\"atime_moved\":%s}\n",
	       (before.st_atim.tv_sec > before.st_mtim.tv_sec ||
		(before.st_atim.tv_sec == before.st_mtim.tv_sec &&
		 before.st_atim.tv_nsec > before.st_mtim.tv_nsec)) ? "true" : "false",
	       (after.st_atim.tv_sec != before.st_atim.tv_sec ||
		after.st_atim.tv_nsec != before.st_atim.tv_nsec) ? "true" : "false");
	return 0;
}
