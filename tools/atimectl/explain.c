/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "atimectl explain FILE...": would the next read of FILE update its atime,
 * and if not, from when on it would.
 */
#include <errno.h>
#include <fcntl.h>
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
#include <libsmartcols.h>

#include "atime-rule.h"
#include "atimectl.h"
#include "decimal.h"
#include "duration.h"
#include "escape.h"
#include "granularity.h"
#include "interval.h"
#include "mounts.h"
#include "sysfs.h"
#include "target.h"
#include "verbs.h"

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

/*
 * "2024-05-01 12:00:00.123456789 +0200" in local time, without the
 * nanoseconds unless nsec: "2024-05-01 12:00:00 +0200".  "@SECONDS" for
 * a time localtime() cannot convert.
 */
static char *format_time(const struct timespec *ts, bool nsec, char *buf, size_t len)
{
	char date[32], zone[8], num[DECIMAL_MAX];
	struct tm tm;

	if (!localtime_r(&ts->tv_sec, &tm)) {
		snprintf(buf, len, "@%s", decimal_i64((int64_t) ts->tv_sec, num));
		return buf;
	}
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &tm);
	strftime(zone, sizeof(zone), "%z", &tm);
	if (nsec)
		snprintf(buf, len, "%s.%09ld %s", date, (long) ts->tv_nsec, zone);
	else
		snprintf(buf, len, "%s %s", date, zone);
	return buf;
}

/* When the next read updates atime, to the second. */
static char *format_next_update(const struct explanation *e, char *buf, size_t len)
{
	struct timespec ts = { .tv_sec = e->a.next_update };

	return format_time(&ts, false, buf, len);
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
		return -r;
	}
	e->fs = mount_for_file(tb, file, &st);
	if (!e->fs) {
		r = errno;
		fprintf(stderr, "atimectl: %s: cannot find its mount: %s\n", name_escape(file, &esc),
			r == ENOENT ? "not in the mount table" : strerror(r));
		free(esc);
		return -r;
	}
	r = mount_flags(opts, file, e->fs, &e->q);
	if (r < 0) {
		fprintf(stderr, "atimectl: %s: cannot read mount flags: %s\n",
			name_escape(file, &esc), strerror(-r));
		free(esc);
		return r;
	}

	devno_format(mnt_fs_get_devno(e->fs), e->majmin, sizeof(e->majmin));
	r = verbs_read_fs(k, mnt_fs_get_devno(e->fs), KERNEL_READ_OVERRIDE, &e->kstate);
	if (r < 0)
		return r;

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
	printf("      Atime: %s\n", format_time(&e->q.atime, true, t, sizeof(t)));
	printf("      Mtime: %s\n", format_time(&e->q.mtime, true, t, sizeof(t)));
	printf("      Ctime: %s\n", format_time(&e->q.ctime, true, t, sizeof(t)));
	printf("  Next read: %s atime (%s)\n",
	       e->a.update ? "updates" : "does not update", e->a.reason);
	if (e->a.never) {
		printf("    Updates: never, while mounted like this\n");
	} else if (e->a.has_next) {
		int64_t wait = (int64_t) e->a.next_update - (int64_t) e->q.now.tv_sec;

		printf("    Updates: on reads from %s on", format_next_update(e, t, sizeof(t)));
		if (wait > 0)
			printf(" (in %s)", duration_format(wait, d, sizeof(d)));
		if (e->q.mode == ATIME_RELATIME)
			printf(", or on the first read after the file changes");
		printf("\n");
	}
}

/*
 * explain --json: {"files": [...]}, one object per file, printed by
 * libsmartcols as a table of one line per file whose columns are the
 * keys, typed (a cell left empty is null).
 */
enum {
	XJ_FILE, XJ_MOUNT, XJ_FSTYPE, XJ_MAJMIN, XJ_MODE,
	XJ_READONLY, XJ_NODIRATIME, XJ_INODE_NOATIME,
	XJ_INTERVAL, XJ_RULE_INTERVAL, XJ_ORIGIN, XJ_ATIME_GRANULARITY, XJ_OVERRIDE,
	XJ_ATIME, XJ_ATIME_SEC, XJ_ATIME_NSEC,
	XJ_MTIME, XJ_MTIME_SEC, XJ_MTIME_NSEC,
	XJ_CTIME, XJ_CTIME_SEC, XJ_CTIME_NSEC,
	XJ_UPDATE, XJ_NEVER, XJ_REASON, XJ_NEXT_UPDATE, XJ_NEXT_UPDATE_SEC,
	XJ_N
};

static const struct {
	const char *name;
	int json_type;	/* SCOLS_JSON_* */
} json_columns[XJ_N] = {
	[XJ_FILE]              = { "file",              SCOLS_JSON_STRING },
	[XJ_MOUNT]             = { "mount",             SCOLS_JSON_STRING },
	[XJ_FSTYPE]            = { "fstype",            SCOLS_JSON_STRING },
	[XJ_MAJMIN]            = { "maj:min",           SCOLS_JSON_STRING },
	[XJ_MODE]              = { "mode",              SCOLS_JSON_STRING },
	[XJ_READONLY]          = { "readonly",          SCOLS_JSON_BOOLEAN },
	[XJ_NODIRATIME]        = { "nodiratime",        SCOLS_JSON_BOOLEAN },
	[XJ_INODE_NOATIME]     = { "inode_noatime",     SCOLS_JSON_BOOLEAN },
	[XJ_INTERVAL]          = { "interval",          SCOLS_JSON_NUMBER },
	[XJ_RULE_INTERVAL]     = { "rule_interval",     SCOLS_JSON_NUMBER },
	[XJ_ORIGIN]            = { "origin",            SCOLS_JSON_STRING },
	[XJ_ATIME_GRANULARITY] = { "atime_granularity", SCOLS_JSON_NUMBER },
	[XJ_OVERRIDE]          = { "override",          SCOLS_JSON_NUMBER },
	[XJ_ATIME]             = { "atime",             SCOLS_JSON_STRING },
	[XJ_ATIME_SEC]         = { "atime_sec",         SCOLS_JSON_NUMBER },
	[XJ_ATIME_NSEC]        = { "atime_nsec",        SCOLS_JSON_NUMBER },
	[XJ_MTIME]             = { "mtime",             SCOLS_JSON_STRING },
	[XJ_MTIME_SEC]         = { "mtime_sec",         SCOLS_JSON_NUMBER },
	[XJ_MTIME_NSEC]        = { "mtime_nsec",        SCOLS_JSON_NUMBER },
	[XJ_CTIME]             = { "ctime",             SCOLS_JSON_STRING },
	[XJ_CTIME_SEC]         = { "ctime_sec",         SCOLS_JSON_NUMBER },
	[XJ_CTIME_NSEC]        = { "ctime_nsec",        SCOLS_JSON_NUMBER },
	[XJ_UPDATE]            = { "update",            SCOLS_JSON_BOOLEAN },
	[XJ_NEVER]             = { "never",             SCOLS_JSON_BOOLEAN },
	[XJ_REASON]            = { "reason",            SCOLS_JSON_STRING },
	[XJ_NEXT_UPDATE]       = { "next_update",       SCOLS_JSON_STRING },
	[XJ_NEXT_UPDATE_SEC]   = { "next_update_sec",   SCOLS_JSON_NUMBER },
};

static struct libscols_table *json_table_new(void)
{
	struct libscols_table *tb = scols_new_table();

	if (!tb)
		return NULL;
	scols_table_enable_json(tb, 1);
	if (scols_table_set_name(tb, "files") < 0)
		goto fail;
	for (int i = 0; i < XJ_N; i++) {
		struct libscols_column *cl = scols_table_new_column(tb, json_columns[i].name, 0, 0);

		if (!cl || scols_column_set_json_type(cl, json_columns[i].json_type) < 0)
			goto fail;
	}
	return tb;
fail:
	scols_unref_table(tb);
	return NULL;
}

/* Cell setters: NULL text stays empty, which libsmartcols prints as null. */
static int cell_str(struct libscols_line *ln, int col, const char *text)
{
	return text ? scols_line_set_data(ln, (size_t) col, text) : 0;
}

static int cell_int(struct libscols_line *ln, int col, int64_t v)
{
	char buf[DECIMAL_MAX];

	return scols_line_set_data(ln, (size_t) col, decimal_i64(v, buf));
}

/* libsmartcols reads "0" (and an empty cell) as false, anything else as true */
static int cell_bool(struct libscols_line *ln, int col, bool v)
{
	return scols_line_set_data(ln, (size_t) col, v ? "1" : "0");
}

/* TIME as text, TIME_sec and TIME_nsec: three columns from col on. */
static int cell_time(struct libscols_line *ln, int col, const struct timespec *ts)
{
	char buf[TIME_FORMAT_MAX];
	int r;

	r = cell_str(ln, col, format_time(ts, true, buf, sizeof(buf)));
	if (r == 0)
		r = cell_int(ln, col + 1, (int64_t) ts->tv_sec);
	if (r == 0)
		r = cell_int(ln, col + 2, (int64_t) ts->tv_nsec);
	return r;
}

/* One line of the table.  Returns 0 or -ENOMEM. */
static int add_json_line(struct libscols_table *tb, const struct explanation *e)
{
	bool relatime = e->q.mode == ATIME_RELATIME;
	struct libscols_line *ln = scols_table_new_line(tb, NULL);
	char buf[TIME_FORMAT_MAX];
	int r = 0;

	if (!ln)
		return -ENOMEM;
	r |= cell_str(ln, XJ_FILE, e->file);
	r |= cell_str(ln, XJ_MOUNT, mnt_fs_get_target(e->fs));
	r |= cell_str(ln, XJ_FSTYPE, mnt_fs_get_fstype(e->fs));
	r |= cell_str(ln, XJ_MAJMIN, e->majmin);
	r |= cell_str(ln, XJ_MODE, atime_mode_name(e->q.mode));
	r |= cell_bool(ln, XJ_READONLY, e->q.readonly);
	r |= cell_bool(ln, XJ_NODIRATIME, e->q.nodiratime);
	r |= cell_bool(ln, XJ_INODE_NOATIME, e->q.inode_noatime);
	if (relatime) {
		r |= cell_int(ln, XJ_INTERVAL, kept_interval(e));
		r |= cell_int(ln, XJ_RULE_INTERVAL, e->q.interval);
		r |= cell_str(ln, XJ_ORIGIN, interval_origin_name(e->origin));
	}
	r |= cell_int(ln, XJ_ATIME_GRANULARITY, e->q.granularity > 1 ? e->q.granularity : 1);
	if (e->kstate.has_override)
		r |= cell_int(ln, XJ_OVERRIDE, e->kstate.override);
	r |= cell_time(ln, XJ_ATIME, &e->q.atime);
	r |= cell_time(ln, XJ_MTIME, &e->q.mtime);
	r |= cell_time(ln, XJ_CTIME, &e->q.ctime);
	r |= cell_bool(ln, XJ_UPDATE, e->a.update);
	r |= cell_bool(ln, XJ_NEVER, e->a.never);
	r |= cell_str(ln, XJ_REASON, e->a.reason);
	if (e->a.has_next) {
		r |= cell_str(ln, XJ_NEXT_UPDATE, format_next_update(e, buf, sizeof(buf)));
		r |= cell_int(ln, XJ_NEXT_UPDATE_SEC, (int64_t) e->a.next_update);
	}
	return r < 0 ? -ENOMEM : 0;
}

int verb_explain(const struct options *opts, int argc, char **argv)
{
	struct libmnt_table *tb;
	struct global_interval g;
	struct libscols_table *json = NULL;
	struct kernel k;
	int ret = 1, printed = 0;

	if (verbs_open_kernel(&k) < 0)
		return 1;
	tb = verbs_load_mounts(opts->tab_file, false);
	if (!tb || verbs_read_global(&k, &g) < 0)
		goto out;
	if (opts->json) {
		json = json_table_new();
		if (!json)
			goto oom;
	}
	ret = 0;
	for (int i = 0; i < argc; i++) {
		struct explanation e;

		if (explain_one(opts, &k, &g, tb, argv[i], &e) < 0) {
			ret = 1;
			continue;
		}
		if (json) {
			if (add_json_line(json, &e) < 0)
				goto oom;
		} else {
			if (printed)
				putchar('\n');
			print_human(&e);
		}
		printed++;
	}
	/* a write error is reported by close_stdout() at exit */
	if (json && scols_print_table(json) < 0 && !ferror(stdout)) {
		fprintf(stderr, "atimectl: cannot print the table\n");
		ret = 1;
	}
	goto out;
oom:
	fprintf(stderr, "atimectl: out of memory\n");
	ret = 1;
out:
	scols_unref_table(json);
	mnt_unref_table(tb);
	kernel_close(&k);
	return ret;
}
