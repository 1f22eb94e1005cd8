/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "atimectl explain FILE...": would the next read of FILE update its atime,
 * and if not, from when on it would.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>
#include <libmount.h>

#include "atime-rule.h"
#include "atimectl.h"
#include "duration.h"
#include "escape.h"
#include "granularity.h"
#include "interval.h"
#include "json.h"
#include "mounts.h"
#include "sysfs.h"
#include "target.h"

#define TIME_FORMAT_MAX 64

struct explanation {
	const char *file;
	struct libmnt_fs *fs;
	char majmin[DEVNO_FORMAT_MAX];
	struct atime_question q;
	struct atime_answer a;
	struct fs_kernel_state kstate;
	enum interval_origin origin;
};

/* "2024-05-01 12:00:00.123456789 +0200", local time */
static char *format_time(const struct timespec *ts, char *buf, size_t len)
{
	struct tm tm;
	char date[32], zone[8];

	if (!localtime_r(&ts->tv_sec, &tm)) {
		snprintf(buf, len, "@%" PRId64, (int64_t) ts->tv_sec);
		return buf;
	}
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &tm);
	strftime(zone, sizeof(zone), "%z", &tm);
	snprintf(buf, len, "%s.%09ld %s", date, (long) ts->tv_nsec, zone);
	return buf;
}

static char *format_time_sec(time_t t, char *buf, size_t len)
{
	struct tm tm;
	char date[32], zone[8];

	if (!localtime_r(&t, &tm)) {
		snprintf(buf, len, "@%" PRId64, (int64_t) t);
		return buf;
	}
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &tm);
	strftime(zone, sizeof(zone), "%z", &tm);
	snprintf(buf, len, "%s %s", date, zone);
	return buf;
}

/* The inode's own no-atime flag (chattr +A); false when unknown. */
static bool inode_has_noatime(const char *path, const struct stat *st)
{
	int fd, flags = 0;
	bool ret = false;

	if (!S_ISREG(st->st_mode) && !S_ISDIR(st->st_mode))
		return false;
	/* opening does not touch atime; only reads do */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0)
		ret = (flags & FS_NOATIME_FL) != 0;
	close(fd);
	return ret;
}

/* Mount flags: from the kernel for the real file, or from --tab-file. */
static int mount_flags(const struct options *opts, const char *path,
		       struct libmnt_fs *fs, struct atime_question *q)
{
	struct statvfs sv;

	if (opts->tab_file) {
		const char *vfs = mnt_fs_get_vfs_options(fs);

		q->mode = mount_atime_mode(fs);
		q->readonly = vfs && mnt_optstr_get_option(vfs, "ro", NULL, NULL) == 0;
		q->nodiratime = vfs && mnt_optstr_get_option(vfs, "nodiratime", NULL, NULL) == 0;
		return 0;
	}
	if (statvfs(path, &sv) < 0)
		return -errno;
	if (sv.f_flag & ST_NOATIME)
		q->mode = ATIME_NOATIME;
	else if (sv.f_flag & ST_RELATIME)
		q->mode = ATIME_RELATIME;
	else
		q->mode = ATIME_STRICTATIME;
	q->readonly = (sv.f_flag & ST_RDONLY) != 0;
	q->nodiratime = (sv.f_flag & ST_NODIRATIME) != 0;
	return 0;
}

static int explain_one(const struct options *opts, const struct kernel *k,
		       const struct global_interval *g, struct libmnt_table *tb,
		       const char *file, struct explanation *e)
{
	struct stat st;
	char *esc;
	int r;

	memset(e, 0, sizeof(*e));
	e->file = file;
	if (stat(file, &st) < 0) {
		r = errno;
		fprintf(stderr, "atimectl: %s: %s\n", name_escape(file, &esc),
			r == ENOENT ? "no such file or directory" : strerror(r));
		free(esc);
		return -1;
	}
	e->fs = mount_for_file(tb, file, &st);
	if (!e->fs) {
		r = errno;
		fprintf(stderr, "atimectl: %s: cannot find its mount: %s\n", name_escape(file, &esc),
			r == ENOENT ? "not in the mount table" : strerror(r));
		free(esc);
		return -1;
	}
	r = mount_flags(opts, file, e->fs, &e->q);
	if (r < 0) {
		fprintf(stderr, "atimectl: %s: cannot read mount flags: %s\n",
			name_escape(file, &esc), strerror(-r));
		free(esc);
		return -1;
	}

	devno_format(mnt_fs_get_devno(e->fs), e->majmin, sizeof(e->majmin));
	if (kernel_read_fs(k, mnt_fs_get_devno(e->fs), KERNEL_READ_OVERRIDE, &e->kstate) < 0)
		return -1;

	e->q.is_dir = S_ISDIR(st.st_mode);
	e->q.inode_noatime = inode_has_noatime(file, &st);
	e->q.atime = st.st_atim;
	e->q.mtime = st.st_mtim;
	e->q.ctime = st.st_ctim;
	e->q.interval = effective_interval(g, &e->kstate, &e->origin);
	e->q.granularity = atime_granularity(mnt_fs_get_fstype(e->fs));
	clock_gettime(CLOCK_REALTIME, &e->q.now);

	atime_predict(&e->q, &e->a);
	return 0;
}

static const char *origin_text(const struct explanation *e, char *buf, size_t len)
{
	switch (e->origin) {
	case ORIGIN_OVERRIDE:
		snprintf(buf, len, "override on %s", e->majmin);
		break;
	case ORIGIN_GLOBAL:
		snprintf(buf, len, "global fs.relatime_interval");
		break;
	case ORIGIN_KERNEL:
	default:
		snprintf(buf, len, "upstream default; this kernel has no relatime interval setting");
		break;
	}
	return buf;
}

/* The interval as the filesystem can keep it: never below its atime step. */
static int64_t kept_interval(const struct explanation *e)
{
	return interval_kept(e->q.interval, e->q.granularity);
}

static void print_human(const struct explanation *e)
{
	char t[TIME_FORMAT_MAX], d[DURATION_FORMAT_MAX], o[128], *e1, *e2;

	printf("       File: %s\n", name_escape(e->file, &e1));
	printf("      Mount: %s (%s on %s)\n", name_escape(mnt_fs_get_target(e->fs), &e2),
	       mnt_fs_get_fstype(e->fs) ? mnt_fs_get_fstype(e->fs) : "?", e->majmin);
	free(e1);
	free(e2);
	printf("       Mode: %s%s%s%s\n", atime_mode_name(e->q.mode),
	       e->q.nodiratime ? ", nodiratime" : "",
	       e->q.readonly ? ", read-only" : "",
	       e->q.inode_noatime ? ", file has no-atime attribute" : "");
	if (e->q.mode == ATIME_RELATIME && kept_interval(e) != e->q.interval) {
		char step[DURATION_FORMAT_MAX], set[DURATION_FORMAT_MAX];

		printf("   Interval: %s in effect: %s stores atime to %s (set: %s, %s)\n",
		       duration_format(kept_interval(e), d, sizeof(d)),
		       mnt_fs_get_fstype(e->fs),
		       duration_format(e->q.granularity, step, sizeof(step)),
		       duration_format(e->q.interval, set, sizeof(set)),
		       origin_text(e, o, sizeof(o)));
	} else if (e->q.mode == ATIME_RELATIME)
		printf("   Interval: %s (%s)\n", duration_format(e->q.interval, d, sizeof(d)),
		       origin_text(e, o, sizeof(o)));
	else
		printf("   Interval: not used by %s\n", atime_mode_name(e->q.mode));
	printf("      Atime: %s\n", format_time(&e->q.atime, t, sizeof(t)));
	printf("      Mtime: %s\n", format_time(&e->q.mtime, t, sizeof(t)));
	printf("      Ctime: %s\n", format_time(&e->q.ctime, t, sizeof(t)));
	printf("  Next read: %s atime (%s)\n",
	       e->a.update ? "updates" : "does not update", e->a.reason);
	if (e->a.never) {
		printf("    Updates: never, while mounted like this\n");
	} else if (e->a.has_next) {
		int64_t wait = (int64_t) e->a.next_update - (int64_t) e->q.now.tv_sec;

		printf("    Updates: on reads from %s on", format_time_sec(e->a.next_update, t, sizeof(t)));
		if (wait > 0)
			printf(" (in %s)", duration_format(wait, d, sizeof(d)));
		if (e->q.mode == ATIME_RELATIME)
			printf(", or on the first read after the file changes");
		printf("\n");
	}
}

static void json_time(struct json_writer *w, const char *name, const struct timespec *ts)
{
	char key[32], buf[TIME_FORMAT_MAX];

	json_string(w, name, format_time(ts, buf, sizeof(buf)));
	snprintf(key, sizeof(key), "%s_sec", name);
	json_int(w, key, (int64_t) ts->tv_sec);
	snprintf(key, sizeof(key), "%s_nsec", name);
	json_int(w, key, (int64_t) ts->tv_nsec);
}

static void print_json(struct json_writer *w, const struct explanation *e)
{
	bool relatime = e->q.mode == ATIME_RELATIME;
	char buf[TIME_FORMAT_MAX];

	json_object_open(w, NULL);
	json_string(w, "file", e->file);
	json_string(w, "mount", mnt_fs_get_target(e->fs));
	json_string(w, "fstype", mnt_fs_get_fstype(e->fs));
	json_string(w, "maj:min", e->majmin);
	json_string(w, "mode", atime_mode_name(e->q.mode));
	json_bool(w, "readonly", e->q.readonly);
	json_bool(w, "nodiratime", e->q.nodiratime);
	json_bool(w, "inode_noatime", e->q.inode_noatime);
	if (relatime) {
		json_int(w, "interval", kept_interval(e));
		json_int(w, "rule_interval", e->q.interval);
	} else {
		json_null(w, "interval");
		json_null(w, "rule_interval");
	}
	json_string(w, "origin", relatime ? interval_origin_name(e->origin) : NULL);
	json_int(w, "atime_granularity", e->q.granularity > 1 ? e->q.granularity : 1);
	if (e->kstate.has_override)
		json_int(w, "override", e->kstate.override);
	else
		json_null(w, "override");
	json_time(w, "atime", &e->q.atime);
	json_time(w, "mtime", &e->q.mtime);
	json_time(w, "ctime", &e->q.ctime);
	json_bool(w, "update", e->a.update);
	json_bool(w, "never", e->a.never);
	json_string(w, "reason", e->a.reason);
	if (e->a.has_next) {
		json_string(w, "next_update", format_time_sec(e->a.next_update, buf, sizeof(buf)));
		json_int(w, "next_update_sec", (int64_t) e->a.next_update);
	} else {
		json_null(w, "next_update");
		json_null(w, "next_update_sec");
	}
	json_object_close(w);
}

int verb_explain(const struct options *opts, int argc, char **argv)
{
	struct libmnt_table *tb;
	struct global_interval g;
	struct json_writer w;
	struct kernel k;
	int ret = 0, printed = 0;

	if (argc < 1) {
		fprintf(stderr, "atimectl: explain: expected at least one FILE (see --help)\n");
		return EXIT_USAGE;
	}
	if (kernel_open(&k) < 0)
		return 1;
	tb = mounts_load(opts->tab_file, false);
	if (!tb) {
		kernel_close(&k);
		return 1;
	}
	if (global_interval_read(&k, &g) < 0) {
		mnt_unref_table(tb);
		kernel_close(&k);
		return 1;
	}

	if (opts->json) {
		json_init(&w, stdout);
		json_object_open(&w, NULL);
		json_array_open(&w, "files");
	}
	for (int i = 0; i < argc; i++) {
		struct explanation e;

		if (explain_one(opts, &k, &g, tb, argv[i], &e) < 0) {
			ret = 1;
			continue;
		}
		if (opts->json) {
			print_json(&w, &e);
		} else {
			if (printed)
				putchar('\n');
			print_human(&e);
		}
		printed++;
	}
	if (opts->json) {
		json_array_close(&w);
		json_object_close(&w);
		json_finish(&w);
	}

	mnt_unref_table(tb);
	kernel_close(&k);
	return ret;
}
