/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "atimectl apply": turn x-relatime-interval=DURATION mount options into
 * per-filesystem overrides.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <libmount.h>

#include "atimectl.h"
#include "duration.h"
#include "escape.h"
#include "mounts.h"
#include "optstr.h"
#include "sysfs.h"
#include "target.h"

struct planned {
	struct libmnt_fs *fs;
	int64_t seconds;
	char *value;   /* as written in the options, for messages */
	size_t pos;    /* place in the mount table: later is more recent */
	bool lost;     /* not written: another mount of the superblock wins,
			  or it has no directory (any more) */
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
 * under the write: is fs's mount point still mounted with the same
 * filesystem?  A fresh look at the mount table; if it cannot be read, it
 * is, so that the failure is reported.
 */
static bool still_mounted(const struct options *opts, struct libmnt_fs *fs)
{
	struct libmnt_table *now = mounts_load(opts->tab_file, false);
	struct libmnt_fs *again;
	bool ret;

	if (!now)
		return true;
	again = mnt_table_find_target(now, mnt_fs_get_target(fs), MNT_ITER_BACKWARD);
	ret = again && mnt_fs_get_devno(again) == mnt_fs_get_devno(fs);
	mnt_unref_table(now);
	return ret;
}

static void say_gone(const char *target, const char *when)
{
	char *esc;

	printf("%s: %s, nothing to apply\n", name_escape(target, &esc), when);
	free(esc);
}

static bool fstab_errors;

/* A line libmount cannot parse: said once, skipped, and apply exits 1. */
static int fstab_errcb(struct libmnt_table *tb, const char *filename, int line)
{
	char *esc;

	(void) tb;
	fprintf(stderr, "atimectl: %s: parse error at line %d -- ignored\n",
		name_escape(filename ? filename : "/etc/fstab", &esc), line);
	free(esc);
	fstab_errors = true;
	return 1;
}

static struct libmnt_table *load_fstab(const char *file)
{
	struct libmnt_table *tb = mnt_new_table();
	int r;

	if (!tb) {
		fprintf(stderr, "atimectl: out of memory\n");
		return NULL;
	}
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
			    const char *winner, const struct planned *w)
{
	char majmin[DEVNO_FORMAT_MAX], buf[DURATION_FORMAT_MAX];
	char *e1, *e2, *e3, *e4;

	fprintf(stderr, "atimectl: conflict on %s: %s asks for " RELATIME_OPTION "=%s, "
		"%s for " RELATIME_OPTION "=%s; the one applied last wins: %s\n",
		devno_format(devno, majmin, sizeof(majmin)),
		name_escape(loser, &e1), name_escape(lost_value, &e2),
		name_escape(winner, &e3), name_escape(w->value, &e4),
		duration_format(w->seconds, buf, sizeof(buf)));
	free(e1);
	free(e2);
	free(e3);
	free(e4);
}

/*
 * Mounts of one superblock share its interval.  Of planned mounts that ask
 * for different values, the most recent one (latest in the mount table)
 * wins, as it would if each were applied when it was made; each loser is
 * reported instead of applied.
 */
static void plan_conflicts(struct planned *plan, size_t nplan)
{
	for (size_t i = 0; i < nplan; i++) {
		dev_t devno = mnt_fs_get_devno(plan[i].fs);
		struct planned *w = &plan[i];

		for (size_t j = 0; j < nplan; j++)
			if (mnt_fs_get_devno(plan[j].fs) == devno && plan[j].pos > w->pos)
				w = &plan[j];
		if (w == &plan[i])
			continue;
		plan[i].lost = true;
		if (w->seconds != plan[i].seconds)
			report_conflict(devno, mnt_fs_get_target(plan[i].fs), plan[i].value,
					mnt_fs_get_target(w->fs), w);
	}
}

/*
 * With TARGETs, the other mounts of a target's superblock are not applied,
 * but a different value one of them asks for is reported: the target's
 * value is applied, so it is the one applied last.  Only utab counts for
 * them when the options came from --options (the caller knows the
 * target's, libmount the rest).
 */
static void other_conflicts(struct libmnt_table *tb, struct libmnt_table *fstab,
			    const struct planned *plan, size_t nplan)
{
	struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;

	if (!itr)
		return;
	while (mnt_table_next_fs(tb, itr, &fs) == 0) {
		const struct planned *w = NULL;
		struct planned other = { .fs = fs };
		int r;

		for (size_t i = 0; i < nplan; i++) {
			if (plan[i].fs == fs) {
				w = NULL;
				break;
			}
			if (!plan[i].lost && mnt_fs_get_devno(plan[i].fs) == mnt_fs_get_devno(fs))
				w = &plan[i];
		}
		if (!w)
			continue;
		if (fstab)
			r = examine_mount(tb, fstab, fs, &other, true);
		else
			r = examine(mnt_fs_get_target(fs), mnt_fs_get_user_options(fs), &other, true);
		if (r > 0 && other.seconds != w->seconds)
			report_conflict(mnt_fs_get_devno(fs), mnt_fs_get_target(fs), other.value,
					mnt_fs_get_target(w->fs), w);
		free(other.value);
	}
	mnt_free_iter(itr);
}

static void free_plan(struct planned *plan, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(plan[i].value);
	free(plan);
}

int verb_apply(const struct options *opts, int argc, char **argv)
{
	struct libmnt_table *tb = NULL, *fstab = NULL;
	struct libmnt_cache *cache = NULL;
	struct libmnt_fs **fss = NULL;
	struct planned *plan = NULL;
	size_t nplan = 0, nmounts;
	bool failed = false;
	struct kernel k;
	int ret = 1;

	if (opts->optstr && argc == 0) {
		fprintf(stderr, "atimectl: apply: --options needs at least one TARGET\n");
		return EXIT_USAGE;
	}
	if (opts->if_mounted && argc == 0) {
		fprintf(stderr, "atimectl: apply: --if-mounted needs at least one TARGET\n");
		return EXIT_USAGE;
	}
	if (kernel_open(&k) < 0)
		return 1;

	tb = mounts_load(opts->tab_file, true);
	if (!tb)
		goto out;

	if (argc > 0) {
		nmounts = (size_t) argc;
		fss = calloc(nmounts, sizeof(*fss));
		if (!fss)
			goto oom;
		if (opts->if_mounted) {
			for (int i = 0; i < argc; i++)
				fss[i] = find_mount_point(tb, argv[i]);
		} else {
			int r = resolve_targets(tb, argc, argv, fss);

			if (r < 0) {
				if (r == -ENOTUNIQ)
					ret = EXIT_USAGE;
				goto out;
			}
		}
	} else {
		struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_FORWARD);
		struct libmnt_fs *fs;

		nmounts = (size_t) mnt_table_get_nents(tb);
		fss = calloc(nmounts ? nmounts : 1, sizeof(*fss));
		if (!fss || !itr) {
			mnt_free_iter(itr);
			goto oom;
		}
		nmounts = 0;
		while (mnt_table_next_fs(tb, itr, &fs) == 0)
			fss[nmounts++] = fs;
		mnt_free_iter(itr);
	}

	if (!opts->optstr) {
		fstab = load_fstab(opts->fstab_file);
		if (!fstab)
			goto out;
		cache = mnt_new_cache();
		if (cache)
			mnt_table_set_cache(fstab, cache);
	}

	plan = calloc(nmounts ? nmounts : 1, sizeof(*plan));
	if (!plan)
		goto oom;

	/*
	 * One rule for every bad line (an invalid value, options libmount
	 * cannot split, a line it cannot parse, a mount without a
	 * directory): each is reported, the valid ones are applied, and
	 * apply exits 1.
	 */
	for (size_t i = 0; i < nmounts; i++) {
		const char *target;
		struct planned p = { .fs = fss[i] };
		int r;

		if (!fss[i]) {
			/* --if-mounted: gone before atimectl looked */
			say_gone(argv[i], "not mounted");
			continue;
		}
		target = mnt_fs_get_target(fss[i]);
		if (opts->optstr)
			r = examine(target, opts->optstr, &p, false);
		else
			r = examine_mount(tb, fstab, fss[i], &p, false);
		if (r < 0) {
			failed = true;
		} else if (r == 0) {
			char *esc;

			if (opts->verbose) {
				printf("%s: no " RELATIME_OPTION "= option, nothing to do\n",
				       name_escape(target, &esc));
				free(esc);
			}
		} else {
			p.pos = argc > 0 ? table_pos(tb, fss[i]) : i;
			plan[nplan++] = p;
		}
	}
	plan_conflicts(plan, nplan);
	if (argc > 0)
		other_conflicts(tb, fstab, plan, nplan);
	if (nplan == 0) {
		ret = fstab_errors || failed ? 1 : 0;
		goto out;
	}

	if (!kernel_has_fs_interval(&k)) {
		kernel_note_unsupported();
		goto out;
	}
	for (size_t i = 0; i < nplan; i++) {
		dev_t devno = mnt_fs_get_devno(plan[i].fs);
		const char *fstype = mnt_fs_get_fstype(plan[i].fs);
		char majmin[DEVNO_FORMAT_MAX], *e1, *e2, *e3;

		if (plan[i].lost || kernel_fs_has_dir(&k, devno))
			continue;
		if (opts->if_mounted && !still_mounted(opts, plan[i].fs)) {
			say_gone(mnt_fs_get_target(plan[i].fs), "unmounted");
			plan[i].lost = true;
			continue;
		}
		fprintf(stderr, "atimectl: %s: %s on %s has no relatime interval (no %s/%s)\n",
			name_escape(mnt_fs_get_target(plan[i].fs), &e1),
			name_escape(fstype ? fstype : "filesystem", &e2),
			devno_format(devno, majmin, sizeof(majmin)),
			name_escape(k.sysfs_root, &e3), majmin);
		free(e1);
		free(e2);
		free(e3);
		plan[i].lost = true;
		failed = true;
	}

	ret = failed ? 1 : 0;
	for (size_t i = 0; i < nplan; i++) {
		dev_t devno = mnt_fs_get_devno(plan[i].fs);
		char majmin[DEVNO_FORMAT_MAX], buf[DURATION_FORMAT_MAX], *e1, *e2;

		if (plan[i].lost)
			continue;
		if (opts->if_mounted) {
			int r = kernel_write_fs_unless_gone(&k, "apply", devno, plan[i].seconds);

			if (r == -ENOENT || r == -ENODEV) {
				if (!still_mounted(opts, plan[i].fs)) {
					say_gone(mnt_fs_get_target(plan[i].fs), "unmounted");
					continue;
				}
				kernel_report_write_fs(&k, "apply", devno, -r);
			}
			if (r < 0) {
				ret = 1;
				continue;
			}
		} else if (kernel_write_fs(&k, "apply", devno, plan[i].seconds) < 0) {
			ret = 1;
			continue;
		}
		printf("%s (%s): relatime interval %s (" RELATIME_OPTION "=%s)\n",
		       name_escape(mnt_fs_get_target(plan[i].fs), &e1),
		       devno_format(devno, majmin, sizeof(majmin)),
		       duration_format(plan[i].seconds, buf, sizeof(buf)),
		       name_escape(plan[i].value, &e2));
		free(e1);
		free(e2);
	}
	if (fflush(stdout) != 0 || fstab_errors)
		ret = 1;
	goto out;
oom:
	fprintf(stderr, "atimectl: out of memory\n");
out:
	free_plan(plan, nplan);
	free(fss);
	mnt_unref_table(fstab);
	mnt_unref_cache(cache);
	mnt_unref_table(tb);
	kernel_close(&k);
	return ret;
}
