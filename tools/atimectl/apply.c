/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "atimectl apply": turn x-relatime-interval=DURATION mount options into
 * per-filesystem overrides.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <libmount.h>

#include "applied.h"
#include "atimectl.h"
#include "duration.h"
#include "escape.h"
#include "mounts.h"
#include "optstr.h"
#include "sysfs.h"
#include "target.h"
#include "utab-watch.h"
#include "verbs.h"

struct planned {
	struct libmnt_fs *fs;
	int64_t seconds;
	char *value;   /* as written in the options, for messages */
	size_t pos;    /* place in the mount table: later is more recent */
	bool lost;     /* not written: another mount of the superblock wins,
			  or it has no directory (any more) */
	struct planned *winner;	/* of the mounts of its superblock planned */
};

/* One run of "apply": what every phase reads. */
struct apply_run {
	const struct options *opts;
	struct kernel k;
	struct libmnt_table *tb;
	struct libmnt_table *fstab;	/* NULL: only utab (--options, --changes) */
	struct planned *plan;
	size_t nplan;
	struct planned **by_sb;		/* plan sorted by superblock, then age */
	bool fstab_errors;
	bool failed;
};

/*
 * --if-mounted: the topmost mount on the mount point path, or NULL when
 * nothing is mounted there (any more).  Only the mount point itself
 * counts: the filesystem that holds an unmounted mount point is not the
 * one the caller meant.
 */
static struct libmnt_fs *find_mount_point(struct libmnt_table *tb, const char *path)
{
	struct libmnt_fs *fs = mnt_table_find_target(tb, path, MNT_ITER_BACKWARD);
	char *canonical;

	if (fs)
		return fs;
	canonical = realpath(path, NULL);
	if (!canonical)
		return NULL;
	fs = mnt_table_find_target(tb, canonical, MNT_ITER_BACKWARD);
	free(canonical);
	return fs;
}

/*
 * --if-mounted, after the superblock's directory was missing or went away
 * under the write, and --changes before each write: is fs's mount point
 * still mounted with the same filesystem (and, for --changes, as the same
 * mount)?  A fresh look at the mount table; if it cannot be read, it is,
 * so that the failure is reported.
 */
static bool still_mounted(const struct options *opts, struct libmnt_fs *fs)
{
	struct libmnt_table *now = verbs_load_mounts(opts->tab_file, false);
	struct libmnt_fs *again;
	bool ret;

	if (!now)
		return true;
	again = mnt_table_find_target(now, mnt_fs_get_target(fs), MNT_ITER_BACKWARD);
	ret = again && mnt_fs_get_devno(again) == mnt_fs_get_devno(fs) &&
	      (!opts->changes || mnt_fs_get_id(again) == mnt_fs_get_id(fs));
	mnt_unref_table(now);
	return ret;
}

static void say_gone(const char *target, const char *when)
{
	char *esc;

	printf("%s: %s, nothing to apply\n", name_escape(target, &esc), when);
	free(esc);
}

/* A line libmount cannot parse: said once, skipped, and apply exits 1. */
static int fstab_errcb(struct libmnt_table *tb, const char *filename, int line)
{
	bool *errors = mnt_table_get_userdata(tb);
	char *esc;

	fprintf(stderr, "atimectl: %s: parse error at line %d -- ignored\n",
		name_escape(filename ? filename : "/etc/fstab", &esc), line);
	free(esc);
	*errors = true;
	return 1;
}

static struct libmnt_table *load_fstab(const char *file, bool *errors)
{
	struct libmnt_table *tb = mnt_new_table();
	int r;

	if (!tb) {
		fprintf(stderr, "atimectl: out of memory\n");
		return NULL;
	}
	mnt_table_set_userdata(tb, errors);
	mnt_table_set_parser_errcb(tb, fstab_errcb);
	r = mnt_table_parse_fstab(tb, file);
	/* no /etc/fstab at all is an empty one, an explicit file must exist */
	if (r < 0 && !(r == -ENOENT && !file)) {
		char *esc;

		fprintf(stderr, "atimectl: cannot read %s: %s\n",
			name_escape(file ? file : "/etc/fstab", &esc), strerror(-r));
		free(esc);
		mnt_unref_table(tb);
		return NULL;
	}
	return tb;
}

/*
 * Look at one option string.  Returns 1 and fills p when the option is
 * there and valid, 0 when absent, -1 after reporting a bad value (quiet:
 * without reporting it; the mount's own apply does).
 */
static int examine(const char *name, const char *optstr, struct planned *p,
		   bool quiet)
{
	char *value = NULL, *e1, *e2;
	int64_t seconds;
	int r;

	r = optstr_parse_relatime_interval(optstr, &seconds, &value);
	if (r == 0)
		return 0;
	if (r == -ENOMEM) {
		fprintf(stderr, "atimectl: out of memory\n");
		return -1;
	}
	if (quiet && r < 0) {
		free(value);
		return -1;
	}
	if (r < 0 && !value) {
		fprintf(stderr, "atimectl: %s: cannot parse mount options '%s'\n",
			name_escape(name, &e1), name_escape(optstr, &e2));
		free(e1);
		free(e2);
		return -1;
	}
	if (r < 0) {
		fprintf(stderr, "atimectl: %s: invalid " RELATIME_OPTION "= value '%s': %s\n",
			name_escape(name, &e1), name_escape(value, &e2), duration_strerror(r));
		free(e1);
		free(e2);
		free(value);
		return -1;
	}

	/* keep the text for the message */
	r = optstr_find_relatime_interval(optstr, &p->value);
	if (r < 0) {
		fprintf(stderr, "atimectl: out of memory\n");
		return -1;
	}
	p->seconds = seconds;
	return 1;
}

/*
 * The root (the directory of its filesystem) a bind mount of path shows in
 * mountinfo, and that filesystem's mount, as mnt_table_is_fs_mounted()
 * works it out: path inside the mount that holds it.  NULL without one.
 */
static char *bind_root(struct libmnt_table *tb, struct libmnt_cache *cache,
		       const char *path, struct libmnt_fs **holder)
{
	const char *canonical = cache ? mnt_resolve_path(path, cache) : NULL;
	const char *target, *root, *rest;
	char *ret;

	if (canonical)	/* belongs to the cache */
		path = canonical;
	*holder = mount_for_path(tb, path, 0, 0);
	if (!*holder)
		return NULL;
	target = mnt_fs_get_target(*holder);
	root = mnt_fs_get_root(*holder);
	rest = path + (strcmp(target, "/") == 0 ? 0 : strlen(target));
	if (!root || strcmp(root, "/") == 0)
		root = "";
	if (!*root && !*rest)
		rest = "/";
	if (asprintf(&ret, "%s%s", root, rest) < 0)
		return NULL;
	return ret;
}

/*
 * Does the fstab line entry describe the mounted fs?  The question "mount
 * -a" asks (mnt_table_is_fs_mounted(), findmnt --fstab --evaluate): the
 * same mount point, and the same source, after tags and paths are
 * evaluated, or the same device number; for a bind mount the same
 * filesystem and directory in it, for a btrfs subvol= the same subvolume.
 */
static bool fstab_describes(struct libmnt_table *tb, struct libmnt_cache *cache,
			    struct libmnt_fs *entry, struct libmnt_fs *fs)
{
	const char *src = mnt_fs_get_source(entry), *root = mnt_fs_get_root(fs);
	const char *target = mnt_fs_get_target(entry);
	char *val;
	size_t len;

	if (!src || !target || !mnt_fs_match_target(fs, target, cache))
		return false;

	if (mnt_fs_get_option(entry, "bind", NULL, NULL) == 0 ||
	    mnt_fs_get_option(entry, "rbind", NULL, NULL) == 0) {
		struct libmnt_fs *holder;
		char *want = bind_root(tb, cache, src, &holder);
		bool same = want && root && strcmp(want, root) == 0 &&
			    mnt_fs_get_devno(holder) == mnt_fs_get_devno(fs);

		free(want);
		return same;
	}

	if (mnt_fs_get_option(entry, "subvol", &val, &len) == 0 && val) {
		while (len > 0 && *val == '/') {
			val++;
			len--;
		}
		if (!root || root[0] != '/' || strlen(root + 1) != len ||
		    strncmp(root + 1, val, len) != 0)
			return false;
	}

	if (mnt_fs_match_source(fs, src, cache))
		return true;
	/* a device by another name: /dev/disk/by-..., /dev/mapper/... */
	if (cache && !mnt_fs_is_pseudofs(entry) && !mnt_fs_is_netfs(entry)) {
		const char *dev = mnt_resolve_spec(src, cache);
		struct stat st;

		if (dev && stat(dev, &st) == 0 && S_ISBLK(st.st_mode) &&
		    st.st_rdev == mnt_fs_get_devno(fs))
			return true;
	}
	return false;
}

/*
 * The fstab line of a mounted filesystem: the first one that describes
 * it.  Of stacked mounts a line describes both of (a tmpfs on a tmpfs),
 * it is the topmost one's.
 */
static struct libmnt_fs *fstab_entry(struct libmnt_table *tb, struct libmnt_table *fstab,
				     struct libmnt_fs *fs)
{
	struct libmnt_cache *cache = mnt_table_get_cache(fstab);
	struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *entry, *found = NULL, *other;
	bool later = false;

	if (!itr)
		return NULL;
	while (!found && mnt_table_next_fs(fstab, itr, &entry) == 0)
		if (fstab_describes(tb, cache, entry, fs))
			found = entry;
	if (!found)
		goto out;
	mnt_reset_iter(itr, MNT_ITER_FORWARD);
	while (mnt_table_next_fs(tb, itr, &other) == 0) {
		if (other == fs)
			later = true;
		else if (later && fstab_describes(tb, cache, found, other))
			found = NULL;
	}
out:
	mnt_free_iter(itr);
	return found;
}

/*
 * The options libmount knows for a mounted filesystem: its fstab entry
 * (matched by source and mount point) and the userspace options kept in
 * utab.  The utab ones come last, so they win.
 */
static int examine_mount(struct libmnt_table *tb, struct libmnt_table *fstab,
			 struct libmnt_fs *fs, struct planned *p, bool quiet)
{
	const char *target = mnt_fs_get_target(fs);
	struct libmnt_fs *entry = NULL;
	int found = 0, r;

	if (fstab && target)
		entry = fstab_entry(tb, fstab, fs);
	if (entry) {
		r = examine(target, mnt_fs_get_options(entry), p, quiet);
		if (r < 0)
			return r;
		found = r;
	}
	if (mnt_fs_get_user_options(fs)) {
		struct planned from_utab = { .fs = p->fs };

		r = examine(target, mnt_fs_get_user_options(fs), &from_utab, quiet);
		if (r < 0)
			return r;
		if (r > 0) {
			free(p->value);
			*p = from_utab;
			found = 1;
		}
	}
	return found;
}

/* fs's place in tb: mount tables list older mounts first */
static size_t table_pos(struct libmnt_table *tb, struct libmnt_fs *fs)
{
	struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *f;
	size_t pos = 0;

	if (!itr)
		return 0;
	while (mnt_table_next_fs(tb, itr, &f) == 0 && f != fs)
		pos++;
	mnt_free_iter(itr);
	return pos;
}

static void report_conflict(dev_t devno, const char *loser, const char *lost_value,
			    const struct planned *w)
{
	char majmin[DEVNO_FORMAT_MAX], buf[DURATION_FORMAT_MAX];
	char *e1, *e2, *e3, *e4;

	fprintf(stderr, "atimectl: conflict on %s: %s asks for " RELATIME_OPTION "=%s, "
		"%s for " RELATIME_OPTION "=%s; the one applied last wins: %s\n",
		devno_format(devno, majmin, sizeof(majmin)),
		name_escape(loser, &e1), name_escape(lost_value, &e2),
		name_escape(mnt_fs_get_target(w->fs), &e3), name_escape(w->value, &e4),
		duration_format(w->seconds, buf, sizeof(buf)));
	free(e1);
	free(e2);
	free(e3);
	free(e4);
}

static int cmp_by_sb(const void *a, const void *b)
{
	const struct planned *x = *(struct planned *const *) a;
	const struct planned *y = *(struct planned *const *) b;
	dev_t dx = mnt_fs_get_devno(x->fs), dy = mnt_fs_get_devno(y->fs);

	if (dx != dy)
		return dx < dy ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* The planned mount that wins for devno, or NULL: by_sb is sorted. */
static struct planned *sb_winner(const struct apply_run *run, dev_t devno)
{
	size_t lo = 0, hi = run->nplan;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		dev_t d = mnt_fs_get_devno(run->by_sb[mid]->fs);

		if (d == devno)
			return run->by_sb[mid]->winner;
		if (d < devno)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/*
 * Mounts of one superblock share its interval.  Of planned mounts that ask
 * for different values, the most recent one (latest in the mount table)
 * wins, as it would if each were applied when it was made; each loser is
 * reported instead of applied.
 */
static int plan_conflicts(struct apply_run *run)
{
	run->by_sb = calloc(run->nplan ? run->nplan : 1, sizeof(*run->by_sb));
	if (!run->by_sb)
		return -ENOMEM;
	for (size_t i = 0; i < run->nplan; i++)
		run->by_sb[i] = &run->plan[i];
	qsort(run->by_sb, run->nplan, sizeof(*run->by_sb), cmp_by_sb);
	/* the last of each run of one superblock is the most recent */
	for (size_t i = run->nplan; i-- > 0;) {
		struct planned *p = run->by_sb[i];

		if (i + 1 < run->nplan &&
		    mnt_fs_get_devno(run->by_sb[i + 1]->fs) == mnt_fs_get_devno(p->fs))
			p->winner = run->by_sb[i + 1]->winner;
		else
			p->winner = p;
	}
	for (size_t i = 0; i < run->nplan; i++) {
		struct planned *p = &run->plan[i];

		if (p->winner == p)
			continue;
		p->lost = true;
		if (p->winner->seconds != p->seconds)
			report_conflict(mnt_fs_get_devno(p->fs), mnt_fs_get_target(p->fs),
					p->value, p->winner);
	}
	return 0;
}

static bool is_planned(const struct apply_run *run, struct libmnt_fs *fs)
{
	struct planned *w = sb_winner(run, mnt_fs_get_devno(fs));

	if (!w)
		return false;
	for (size_t i = 0; i < run->nplan; i++)
		if (run->plan[i].fs == fs)
			return true;
	return false;
}

/*
 * With TARGETs (or --changes), the other mounts of a planned superblock
 * are not applied, but a different value one of them asks for is
 * reported: the planned value is applied, so it is the one applied last.
 * Only utab counts for them when there is no fstab (--options: the caller
 * knows the target's options, libmount the rest).
 */
static void other_conflicts(const struct apply_run *run)
{
	struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;

	if (!itr)
		return;
	while (mnt_table_next_fs(run->tb, itr, &fs) == 0) {
		struct planned *w = sb_winner(run, mnt_fs_get_devno(fs));
		struct planned other = { .fs = fs };
		int r;

		if (!w || is_planned(run, fs))
			continue;
		if (run->fstab)
			r = examine_mount(run->tb, run->fstab, fs, &other, true);
		else
			r = examine(mnt_fs_get_target(fs), mnt_fs_get_user_options(fs), &other, true);
		if (r > 0 && other.seconds != w->seconds)
			report_conflict(mnt_fs_get_devno(fs), mnt_fs_get_target(fs), other.value, w);
		free(other.value);
	}
	mnt_free_iter(itr);
}

static int add_to_plan(struct apply_run *run, const struct planned *p)
{
	struct planned *grown = realloc(run->plan, (run->nplan + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	run->plan = grown;
	run->plan[run->nplan++] = *p;
	return 0;
}

/*
 * Plan one mount: its option (from opts->optstr, or what libmount knows
 * for it), reported when bad.  pos is its place in the mount table.
 */
static int plan_mount(struct apply_run *run, struct libmnt_fs *fs, size_t pos)
{
	const char *target = mnt_fs_get_target(fs);
	struct planned p = { .fs = fs, .pos = pos };
	int r;

	if (run->opts->optstr)
		r = examine(target, run->opts->optstr, &p, false);
	else
		r = examine_mount(run->tb, run->fstab, fs, &p, false);
	if (r < 0) {
		run->failed = true;
	} else if (r == 0) {
		char *esc;

		if (run->opts->verbose) {
			printf("%s: no " RELATIME_OPTION "= option, nothing to do\n",
			       name_escape(target, &esc));
			free(esc);
		}
	} else if (add_to_plan(run, &p) < 0) {
		free(p.value);
		return -ENOMEM;
	}
	return 0;
}

/* A planned superblock without a directory: said, and a failure. */
static void check_dirs(struct apply_run *run)
{
	for (size_t i = 0; i < run->nplan; i++) {
		struct planned *p = &run->plan[i];
		dev_t devno = mnt_fs_get_devno(p->fs);
		const char *fstype = mnt_fs_get_fstype(p->fs);
		char majmin[DEVNO_FORMAT_MAX], *e1, *e2, *e3;

		if (p->lost || kernel_fs_has_dir(&run->k, devno))
			continue;
		p->lost = true;
		if ((run->opts->if_mounted || run->opts->changes) &&
		    !still_mounted(run->opts, p->fs)) {
			say_gone(mnt_fs_get_target(p->fs), "unmounted");
			continue;
		}
		fprintf(stderr, "atimectl: %s: %s on %s has no relatime interval (no %s/%s)\n",
			name_escape(mnt_fs_get_target(p->fs), &e1),
			name_escape(fstype ? fstype : "filesystem", &e2),
			devno_format(devno, majmin, sizeof(majmin)),
			name_escape(run->k.sysfs_root, &e3), majmin);
		free(e1);
		free(e2);
		free(e3);
		run->failed = true;
	}
}

/*
 * Write one planned value.  A mount that went away under the write is not
 * a failure where the caller said so (--if-mounted, --changes).
 */
static void write_planned(struct apply_run *run, const struct planned *p, bool gone_ok)
{
	dev_t devno = mnt_fs_get_devno(p->fs);
	char majmin[DEVNO_FORMAT_MAX], buf[DURATION_FORMAT_MAX], *e1, *e2;
	int r;

	/*
	 * --changes runs while mounts come and go: a mount gone since the
	 * table was read may have left its anonymous MAJ:MIN to another
	 * filesystem, which must not get this value.  Look again just before
	 * the write (what is left is the time between the two).
	 */
	if (run->opts->changes && !still_mounted(run->opts, p->fs)) {
		say_gone(mnt_fs_get_target(p->fs), "unmounted");
		return;
	}
	if (gone_ok) {
		r = verbs_write_fs_unless_gone(&run->k, "apply", devno, p->seconds);
		if (r == -ENOENT || r == -ENODEV) {
			if (!still_mounted(run->opts, p->fs)) {
				say_gone(mnt_fs_get_target(p->fs), "unmounted");
				return;
			}
			kernel_report_fs_write(&run->k, "apply", devno, r);
		}
	} else {
		r = verbs_write_fs(&run->k, "apply", devno, p->seconds);
	}
	if (r < 0) {
		run->failed = true;
		return;
	}
	printf("%s (%s): relatime interval %s (" RELATIME_OPTION "=%s)\n",
	       name_escape(mnt_fs_get_target(p->fs), &e1),
	       devno_format(devno, majmin, sizeof(majmin)),
	       duration_format(p->seconds, buf, sizeof(buf)),
	       name_escape(p->value, &e2));
	free(e1);
	free(e2);
}

static void free_plan(struct apply_run *run)
{
	for (size_t i = 0; i < run->nplan; i++)
		free(run->plan[i].value);
	free(run->plan);
	free(run->by_sb);
	run->plan = NULL;
	run->by_sb = NULL;
	run->nplan = 0;
}

/* Plan the TARGETs (--if-mounted: mount points), or every mount. */
static int plan_targets(struct apply_run *run, int argc, char **argv)
{
	struct libmnt_iter *itr;
	struct libmnt_fs *fs, **fss;
	size_t pos = 0;
	int r = 0;

	if (argc == 0) {
		itr = mnt_new_iter(MNT_ITER_FORWARD);
		if (!itr)
			return -ENOMEM;
		while (r == 0 && mnt_table_next_fs(run->tb, itr, &fs) == 0)
			r = plan_mount(run, fs, pos++);
		mnt_free_iter(itr);
		return r;
	}

	fss = calloc((size_t) argc, sizeof(*fss));
	if (!fss)
		return -ENOMEM;
	if (run->opts->if_mounted) {
		for (int i = 0; i < argc; i++)
			fss[i] = find_mount_point(run->tb, argv[i]);
	} else {
		r = resolve_targets(run->tb, argc, argv, fss);
		if (r < 0) {
			free(fss);
			return r == -ENOTUNIQ ? -ENOTUNIQ : -EINVAL;
		}
	}
	for (int i = 0; r == 0 && i < argc; i++) {
		if (!fss[i])	/* --if-mounted: gone before atimectl looked */
			say_gone(argv[i], "not mounted");
		else
			r = plan_mount(run, fss[i], table_pos(run->tb, fss[i]));
	}
	free(fss);
	return r;
}

/* "apply [TARGET...]" and "apply --options=... TARGET...". */
static int apply_targets(struct apply_run *run, int argc, char **argv)
{
	int r;

	if (!run->opts->optstr) {
		struct libmnt_cache *cache;

		run->fstab = load_fstab(run->opts->fstab_file, &run->fstab_errors);
		if (!run->fstab)
			return 1;
		cache = mnt_new_cache();
		if (cache) {
			mnt_table_set_cache(run->fstab, cache);
			mnt_unref_cache(cache);	/* the table holds it */
		}
	}

	/*
	 * One rule for every bad line (an invalid value, options libmount
	 * cannot split, a line it cannot parse, a mount without a
	 * directory): each is reported, the valid ones are applied, and
	 * apply exits 1.
	 */
	r = plan_targets(run, argc, argv);
	if (r == -ENOTUNIQ)
		return EXIT_USAGE;
	if (r == -EINVAL)
		return 1;
	if (r < 0 || plan_conflicts(run) < 0)
		goto oom;
	if (argc > 0)
		other_conflicts(run);
	if (run->nplan == 0)
		return run->fstab_errors || run->failed ? 1 : 0;

	if (!kernel_has_fs_interval(&run->k)) {
		kernel_note_unsupported();
		return 1;
	}
	check_dirs(run);
	for (size_t i = 0; i < run->nplan; i++)
		if (!run->plan[i].lost)
			write_planned(run, &run->plan[i], run->opts->if_mounted);
	if (fflush(stdout) != 0 || run->fstab_errors || run->failed)
		return 1;
	return 0;
oom:
	fprintf(stderr, "atimectl: out of memory\n");
	return 1;
}

/*
 * The identity of the superblock behind devno, as far as it can be told:
 * the inode number of its /sys/fs/relatime/MAJ:MIN directory, which the
 * kernel makes anew (kernfs numbers do not repeat) for each superblock that
 * takes the number.  A block device unmounted and mounted again keeps its
 * MAJ:MIN, and the new mount may get the old one's mount ID; its directory
 * is new.  0 without one.
 */
static unsigned long long sb_instance(const struct kernel *k, dev_t devno)
{
	char majmin[DEVNO_FORMAT_MAX];
	struct stat st;

	if (k->sysfs_fd < 0 ||
	    fstatat(k->sysfs_fd, devno_format(devno, majmin, sizeof(majmin)), &st, 0) < 0)
		return 0;
	return (unsigned long long) st.st_ino;
}

/*
 * --changes: the key of a mount's declaration (see applied.h): mount ID,
 * MAJ:MIN, superblock instance and the option's text; NULL when the mount
 * declares nothing in utab.  *r is set to a negative errno on failure.
 */
static char *declaration_key(const struct kernel *k, struct libmnt_fs *fs, int *r)
{
	const char *user = mnt_fs_get_user_options(fs);
	char *value = NULL, *mangled, *key;
	dev_t devno = mnt_fs_get_devno(fs);

	*r = 0;
	if (!user)
		return NULL;
	*r = optstr_find_relatime_interval(user, &value);
	if (*r == 0)
		return NULL;
	/* options libmount cannot split: the whole string is the key */
	mangled = mnt_mangle(*r > 0 ? value : user);
	free(value);
	*r = 0;
	if (!mangled ||
	    asprintf(&key, "%d %u:%u %llu %s", mnt_fs_get_id(fs), major(devno), minor(devno),
		     sb_instance(k, devno), mangled) < 0) {
		free(mangled);
		*r = -ENOMEM;
		return NULL;
	}
	free(mangled);
	return key;
}

/* One pass of --changes over the mount table as it is now. */
static int changes_pass(struct apply_run *run, struct applied *st)
{
	struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	size_t pos = 0;
	int r = 0;

	run->tb = verbs_load_mounts(run->opts->tab_file, true);
	if (!run->tb || !itr) {
		mnt_free_iter(itr);
		return run->tb ? -ENOMEM : -EIO;
	}
	while (r == 0 && mnt_table_next_fs(run->tb, itr, &fs) == 0) {
		char *key = declaration_key(&run->k, fs, &r);

		pos++;
		if (!key)
			continue;
		r = applied_see(st, key);
		if (r == 0 && !applied_known(st, key) && !run->opts->record_only)
			r = plan_mount(run, fs, pos);
		free(key);
	}
	mnt_free_iter(itr);
	if (r < 0 || plan_conflicts(run) < 0)
		return -ENOMEM;
	other_conflicts(run);

	if (run->nplan > 0 && !kernel_has_fs_interval(&run->k)) {
		/* one line per mount, and nothing fails: see atimectl(8) */
		for (size_t i = 0; i < run->nplan; i++) {
			char *e1, *e2;

			if (run->plan[i].lost)
				continue;
			fprintf(stderr, "atimectl: %s: " RELATIME_OPTION "=%s not applied: "
				"this kernel has no per-filesystem relatime interval\n",
				name_escape(mnt_fs_get_target(run->plan[i].fs), &e1),
				name_escape(run->plan[i].value, &e2));
			free(e1);
			free(e2);
		}
		return 0;
	}
	check_dirs(run);
	for (size_t i = 0; i < run->nplan; i++)
		if (!run->plan[i].lost)
			write_planned(run, &run->plan[i], true);
	return 0;
}

/*
 * How long "apply --changes" without --follow waits for utab to stay
 * unchanged before it ends, so that a mount made right after another is
 * this run's to take.  $ATIMECTL_APPLY_QUIET_MS (tests).
 */
static int quiet_ms(void)
{
	const char *env = getenv("ATIMECTL_APPLY_QUIET_MS");

	return env && *env ? atoi(env) : 1000;
}

static volatile sig_atomic_t follow_stop;

static void on_stop_signal(int sig)
{
	(void) sig;
	follow_stop = 1;
}

/*
 * --follow ends on SIGTERM (systemctl stop, shutdown) or SIGINT, between
 * passes only: the two are blocked while a pass runs and let through
 * (waitmask) while it waits for utab, so that the state file is never
 * left half written.
 */
static int follow_signals(sigset_t *waitmask)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	if (sigaction(SIGTERM, &sa, NULL) < 0 || sigaction(SIGINT, &sa, NULL) < 0 ||
	    sigprocmask(SIG_BLOCK, &block, waitmask) < 0)
		return -errno;
	sigdelset(waitmask, SIGTERM);
	sigdelset(waitmask, SIGINT);
	return 0;
}

/*
 * One pass of "apply --changes", with the state file locked for its
 * length only (a --follow run holds no lock while it waits).  0, or a
 * negative errno after saying what failed.
 */
static int changes_locked_pass(struct apply_run *run, const char *path)
{
	struct applied st;
	char *esc;
	int r;

	r = applied_open(&st, path);
	if (r < 0) {
		fprintf(stderr, "atimectl: apply: cannot use %s: %s\n",
			name_escape(path, &esc), strerror(-r));
		free(esc);
		applied_close(&st);
		return r;
	}
	r = changes_pass(run, &st);
	free_plan(run);
	mnt_unref_table(run->tb);
	run->tb = NULL;
	if (r == 0) {
		r = applied_save(&st);
		if (r < 0) {
			fprintf(stderr, "atimectl: apply: cannot write %s: %s\n",
				name_escape(path, &esc), strerror(-r));
			free(esc);
		}
	} else if (r == -ENOMEM) {
		fprintf(stderr, "atimectl: out of memory\n");
	}
	applied_close(&st);
	/* each pass's lines reach the journal as it ends */
	fflush(stdout);
	return r;
}

/*
 * "apply --changes": apply the x-relatime-interval= of each mount that
 * declares it in utab and was not dealt with before (a new mount, or a
 * remount that changed the value), and nothing else, so that a value set
 * since with "atimectl set" stays.  utab is watched from before the first
 * look, and what changes is taken in another pass.
 *
 * Without --follow the run ends once utab has been quiet for a while (the
 * package's own run after an install).  With --follow it never does:
 * atimectl-apply.service, which atimectl-apply.path starts at the first
 * change of utab, keeps watching, because a run that ends leaves a gap
 * between its last look and the moment systemd watches utab again, in
 * which a remount goes unapplied.  A failure of one mount is reported and
 * the next pass comes; SIGTERM ends it, with status 0.
 *
 * With --record-only, what mounts declare now is recorded as dealt with
 * and nothing is applied: the package does that on an upgrade from a
 * version that kept no record, so that the intervals in force stay.
 */
static int apply_changes(struct apply_run *run)
{
	const char *path = getenv("ATIMECTL_APPLIED");
	bool follow = run->opts->follow;
	struct utab_watch watch;
	sigset_t waitmask;
	int r, w;

	if (!path || !*path)
		path = APPLIED_FILE;
	/* without --follow, no directory to watch (no utab yet): one pass */
	r = utab_watch_open(&watch);
	if (follow && r == 0)
		r = follow_signals(&waitmask);
	if (follow && r < 0) {
		fprintf(stderr, "atimectl: apply: cannot watch %s: %s\n",
			utab_watch_path(), strerror(-r));
		utab_watch_close(&watch);
		return 1;
	}
	for (;;) {
		if (follow)
			run->failed = false;
		r = changes_locked_pass(run, path);
		if (r < 0 || watch.fd < 0)
			break;
		w = utab_watch_wait(&watch, follow ? -1 : quiet_ms(),
				    follow ? &waitmask : NULL);
		if (w > 0)
			continue;
		if (w == -EINTR && follow_stop) {
			/* terminated: what the passes reported is said */
			run->failed = false;
			break;
		}
		/* without --follow, a watch that fails ends the run as quiet does */
		if (w < 0 && follow) {
			fprintf(stderr, "atimectl: apply: cannot watch %s: %s\n",
				utab_watch_path(), strerror(-w));
			r = w;
		}
		break;
	}
	utab_watch_close(&watch);
	if (r < 0 || run->failed || fflush(stdout) != 0)
		return 1;
	return 0;
}

int verb_apply(const struct options *opts, int argc, char **argv)
{
	struct apply_run run = { .opts = opts };
	int ret = 1;

	if (opts->record_only && !opts->changes) {
		fprintf(stderr, "atimectl: apply: --record-only needs --changes\n");
		return EXIT_USAGE;
	}
	if (opts->follow && (!opts->changes || opts->record_only)) {
		fprintf(stderr, "atimectl: apply: --follow needs --changes, "
			"and takes no --record-only\n");
		return EXIT_USAGE;
	}
	if (opts->changes && (argc > 0 || opts->optstr || opts->if_mounted || opts->fstab_file)) {
		fprintf(stderr, "atimectl: apply: --changes takes no TARGET, --options, "
			"--if-mounted or --fstab\n");
		return EXIT_USAGE;
	}
	if (opts->optstr && argc == 0) {
		fprintf(stderr, "atimectl: apply: --options needs at least one TARGET\n");
		return EXIT_USAGE;
	}
	if (opts->if_mounted && argc == 0) {
		fprintf(stderr, "atimectl: apply: --if-mounted needs at least one TARGET\n");
		return EXIT_USAGE;
	}
	if (verbs_open_kernel(&run.k) < 0)
		return 1;
	if (opts->changes) {
		ret = apply_changes(&run);
	} else {
		run.tb = verbs_load_mounts(opts->tab_file, true);
		if (run.tb)
			ret = apply_targets(&run, argc, argv);
	}
	free_plan(&run);
	mnt_unref_table(run.fstab);
	mnt_unref_table(run.tb);
	kernel_close(&run.k);
	return ret;
}
