// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * atime-workload: the read-heavy workload of bench/run.sh, part 1.
 *
 *   atime-workload DIR NFILES NSTEPS STEP READS SEED INTERVAL LAZY DEV SYSFSDIR
 *
 * DIR is a freshly mounted filesystem.  The program
 *  1. creates NFILES 64-byte files at T0 = now, syncs, moves the clock to
 *     T0 + 1 and reads every file once ("priming": every file then has an
 *     atime later than its mtime and ctime, as a file in use would);
 *  2. measures what a bare sync() costs in write requests (five of them,
 *     the one that takes the first sample included), then samples
 *     block-device writes (fields 5 and 7 of /sys/block/DEV/stat)
 *     and the superblock's counters (SYSFSDIR/atime_updates, relatime_skips;
 *     SYSFSDIR "-" when there are none), each after sync();
 *  3. runs NSTEPS steps: step k sets the clock (clock_settime, as date -s
 *     does) to T0 + 1 + STEP * (k + 1), reads READS files chosen by a seeded
 *     xorshift64* generator (file = NFILES * u^2 for u uniform in [0,1):
 *     some files hot, every file read many times), each read being
 *     open + read(64) + close; then it models writeback (sync() every step,
 *     or with LAZY=1 only every 12 simulated hours: lazytime timestamps
 *     reach the disk after vm.dirtytime_expire_seconds = 12 h) and stats
 *     every file to answer "was this file read in the last I seconds?"
 *     both from the workload's own log (the truth) and from the recorded
 *     atime (now - atime < I), for I = INTERVAL and for I = 86400;
 *  4. samples again (after sync()) and prints one JSON object.
 *
 * It also keeps each file's atime history (sampled at every step) to check
 * that consecutive atime values of a file are at least INTERVAL apart
 * (INTERVAL 0: no check), i.e. at most one atime update per file per
 * INTERVAL.  The clock is left where the workload ended; the caller puts
 * it back.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "atime-workload: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t rng;
static uint64_t next_rand(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1DULL;
}

static void set_clock(time_t t)
{
	struct timespec ts = { .tv_sec = t, .tv_nsec = 0 };

	if (clock_settime(CLOCK_REALTIME, &ts))
		die("clock_settime");
}

static time_t now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec;
}

static void read_file(const char *path)
{
	char buf[64];
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		die(path);
	if (read(fd, buf, sizeof(buf)) < 0)
		die("read");
	close(fd);
}

struct sample { long long wreq, wsect, updates, skips; };

static long long read_num(const char *path)
{
	long long v = -1;
	FILE *f = fopen(path, "r");

	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static void take_sample(struct sample *s, const char *dev, const char *sysfs)
{
	char path[512];
	long long f[7];
	FILE *st;

	sync();
	snprintf(path, sizeof(path), "/sys/block/%s/stat", dev);
	st = fopen(path, "r");
	if (!st)
		die(path);
	for (int i = 0; i < 7; i++)
		if (fscanf(st, "%lld", &f[i]) != 1)
			die("block stat");
	fclose(st);
	s->wreq = f[4];
	s->wsect = f[6];
	s->updates = s->skips = -1;
	if (strcmp(sysfs, "-")) {
		snprintf(path, sizeof(path), "%s/atime_updates", sysfs);
		s->updates = read_num(path);
		snprintf(path, sizeof(path), "%s/relatime_skips", sysfs);
		s->skips = read_num(path);
	}
}

int main(int argc, char **argv)
{
	if (argc != 11) {
		fprintf(stderr, "usage: atime-workload DIR NFILES NSTEPS STEP READS SEED INTERVAL LAZY DEV SYSFSDIR\n");
		return 2;
	}
	const char *dir = argv[1];
	int n = atoi(argv[2]), nsteps = atoi(argv[3]), step = atoi(argv[4]);
	int reads = atoi(argv[5]);
	uint64_t seed = strtoull(argv[6], NULL, 0);
	long interval = atol(argv[7]);
	int lazy = atoi(argv[8]);
	const char *dev = argv[9], *sysfs = argv[10];
	char path[4096];
	time_t *last_read = calloc(n, sizeof(*last_read));
	time_t *prev_atime = calloc(n, sizeof(*prev_atime));
	long *changes_per_file = calloc(n, sizeof(long));
	long *reads_per_file = calloc(n, sizeof(long));
	long qi = 0, qi_ok = 0, qd = 0, qd_ok = 0, changes = 0, violations = 0;
	long min_gap = -1, fn_i = 0, fp_i = 0, nreads = 0;
	struct sample before, after;
	time_t t0 = now_sec();

	if (!last_read || !prev_atime || !changes_per_file || !reads_per_file)
		die("calloc");
	rng = seed ? seed : 1;

	/* 1. create, then prime */
	set_clock(t0);
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/f%05d", dir, i);
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || write(fd, "0123456789abcdef0123456789abcdef"
				    "0123456789abcdef0123456789abcdef", 64) != 64)
			die(path);
		close(fd);
	}
	sync();
	set_clock(t0 + 1);
	for (int i = 0; i < n; i++) {
		struct stat st;

		snprintf(path, sizeof(path), "%s/f%05d", dir, i);
		last_read[i] = now_sec();
		read_file(path);
		if (stat(path, &st))
			die(path);
		prev_atime[i] = st.st_atime;
	}

	/* 2. What does a sync() with nothing to write cost?  (On virtio-blk
	 * it is one empty write request: the cache flush.) */
	struct sample s0, s1;
	take_sample(&s0, dev, sysfs);
	for (int i = 0; i < 4; i++)
		sync();
	take_sample(&s1, dev, sysfs);
	double per_sync = (double)(s1.wreq - s0.wreq) / 5.0;
	long syncs = 1;		/* the one in take_sample(&after) */

	take_sample(&before, dev, sysfs);

	/* 3. */
	time_t base = t0 + 1;
	long next_lazy_sync = 43200;
	for (int k = 0; k < nsteps; k++) {
		long offset = (long)step * (k + 1);

		set_clock(base + offset);
		for (int r = 0; r < reads; r++) {
			double u = (double)(next_rand() >> 11) / (double)(1ULL << 53);
			int i = (int)(n * u * u);

			if (i >= n)
				i = n - 1;
			snprintf(path, sizeof(path), "%s/f%05d", dir, i);
			last_read[i] = now_sec();
			read_file(path);
			reads_per_file[i]++;
			nreads++;
		}
		if (!lazy) {
			sync();
			syncs++;
		} else if (offset >= next_lazy_sync) {
			sync();
			syncs++;
			next_lazy_sync += 43200;
		}
		time_t now = now_sec();
		for (int i = 0; i < n; i++) {
			struct stat st;

			snprintf(path, sizeof(path), "%s/f%05d", dir, i);
			if (stat(path, &st))
				die(path);
			time_t a = st.st_atime;
			if (a != prev_atime[i]) {
				long gap = (long)(a - prev_atime[i]);
				changes++;
				changes_per_file[i]++;
				if (min_gap < 0 || gap < min_gap)
					min_gap = gap;
				if (interval > 0 && gap < interval)
					violations++;
				prev_atime[i] = a;
			}
			if (interval > 0) {
				int truth = now - last_read[i] < interval;
				int answer = now - a < interval;
				qi++;
				qi_ok += truth == answer;
				fn_i += truth && !answer;
				fp_i += !truth && answer;
			}
			int truth = now - last_read[i] < 86400;
			int answer = now - a < 86400;
			qd++;
			qd_ok += truth == answer;
		}
	}

	/* 4. */
	take_sample(&after, dev, sysfs);
	long minr = -1, maxc = 0;
	for (int i = 0; i < n; i++) {
		if (minr < 0 || reads_per_file[i] < minr)
			minr = reads_per_file[i];
		if (changes_per_file[i] > maxc)
			maxc = changes_per_file[i];
	}
	printf("{\"files\":%d,\"steps\":%d,\"step_s\":%d,\"reads\":%ld,"
	       "\"min_reads_per_file\":%ld,\"interval\":%ld,\"lazy_sync\":%d,"
	       "\"write_requests\":%lld,\"write_sectors\":%lld,"
	       "\"syncs\":%ld,\"requests_per_bare_sync\":%.2f,"
	       "\"data_write_requests\":%.0f,",
	       n, nsteps, step, nreads, minr, interval, lazy,
	       after.wreq - before.wreq, after.wsect - before.wsect,
	       syncs, per_sync, (double)(after.wreq - before.wreq) - per_sync * syncs);
	if (before.updates >= 0)
		printf("\"atime_updates\":%lld,\"relatime_skips\":%lld,",
		       after.updates - before.updates, after.skips - before.skips);
	else
		printf("\"atime_updates\":null,\"relatime_skips\":null,");
	printf("\"atime_changes_seen\":%ld,\"max_changes_per_file\":%ld,"
	       "\"min_gap_s\":%ld,\"interval_violations\":%ld,",
	       changes, maxc, min_gap, violations);
	if (interval > 0)
		printf("\"q_interval\":%ld,\"q_interval_ok\":%ld,"
		       "\"q_interval_false_neg\":%ld,\"q_interval_false_pos\":%ld,",
		       qi, qi_ok, fn_i, fp_i);
	else
		printf("\"q_interval\":null,\"q_interval_ok\":null,"
		       "\"q_interval_false_neg\":null,\"q_interval_false_pos\":null,");
	printf("\"q_day\":%ld,\"q_day_ok\":%ld}\n", qd, qd_ok);
	return 0;
}
