/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * TARGET resolution: from what the user typed to one mountinfo entry.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "target.h"

/* Is the mount point target a prefix of path, at a component boundary? */
static size_t target_prefix_len(const char *target, const char *path)
{
	size_t len;

	if (!target || target[0] != '/')
		return 0;
	if (target[1] == '\0')
		return 1;  /* "/" covers everything */
	len = strlen(target);
	if (strncmp(target, path, len) != 0)
		return 0;
	if (path[len] != '\0' && path[len] != '/')
		return 0;
	return len;
}

struct libmnt_fs *mount_for_path(struct libmnt_table *tb, const char *path,
				 int has_devno, dev_t devno)
{
	struct libmnt_iter *itr;
	struct libmnt_fs *fs, *best = NULL;
	size_t best_len = 0;

	itr = mnt_new_iter(MNT_ITER_FORWARD);
	if (!itr)
		return NULL;
	while (mnt_table_next_fs(tb, itr, &fs) == 0) {
		size_t len;

		if (has_devno && mnt_fs_get_devno(fs) != devno)
			continue;
		len = target_prefix_len(mnt_fs_get_target(fs), path);
		if (len > 0 && len >= best_len) {
			best = fs;
			best_len = len;
		}
	}
	mnt_free_iter(itr);
	return best;
}

struct libmnt_fs *mount_for_devno(struct libmnt_table *tb, dev_t devno)
{
	struct libmnt_iter *itr;
	struct libmnt_fs *fs, *first = NULL, *found = NULL;

	itr = mnt_new_iter(MNT_ITER_FORWARD);
	if (!itr)
		return NULL;
	while (mnt_table_next_fs(tb, itr, &fs) == 0) {
		const char *root;

		if (mnt_fs_get_devno(fs) != devno)
			continue;
		if (!first)
			first = fs;
		root = mnt_fs_get_root(fs);
		if (root && strcmp(root, "/") == 0) {
			found = fs;
			break;
		}
	}
	mnt_free_iter(itr);
	return found ? found : first;
}

/* NAME=value with a tag name libmount resolves. */
static bool is_tag(const char *spec)
{
	static const char *const tags[] = { "UUID=", "LABEL=", "PARTUUID=", "PARTLABEL=", "ID=" };

	for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++)
		if (strncmp(spec, tags[i], strlen(tags[i])) == 0)
			return true;
	return false;
}

bool target_spec_is_plausible(const char *spec)
{
	struct stat st;
	dev_t devno;

	return strchr(spec, '/') || is_tag(spec) || devno_parse(spec, &devno) == 0 ||
	       stat(spec, &st) == 0;
}

/*
 * Is a mount of another filesystem than fs's mounted from the same source?
 * Then a source names no one filesystem.  Mounts of one filesystem (bind
 * mounts, btrfs subvolumes) share its device number and are not others.
 */
static bool source_is_ambiguous(struct libmnt_table *tb, struct libmnt_fs *fs)
{
	const char *source = mnt_fs_get_source(fs);
	struct libmnt_iter *itr;
	struct libmnt_fs *other;
	bool ret = false;

	if (!source)
		return false;
	itr = mnt_new_iter(MNT_ITER_FORWARD);
	if (!itr)
		return false;
	while (!ret && mnt_table_next_fs(tb, itr, &other) == 0)
		ret = mnt_fs_get_devno(other) != mnt_fs_get_devno(fs) &&
		      mnt_fs_streq_srcpath(other, source);
	mnt_free_iter(itr);
	return ret;
}

/*
 * The mount of a source, or NULL; -ENOTUNIQ in *error when other
 * filesystems are mounted from it too.
 */
static struct libmnt_fs *mount_for_source(struct libmnt_table *tb, const char *source,
					  int *error)
{
	struct libmnt_fs *fs = mnt_table_find_source(tb, source, MNT_ITER_FORWARD);

	*error = fs && source_is_ambiguous(tb, fs) ? -ENOTUNIQ : 0;
	return fs;
}

/* A block device: its device number, or its name as a mount source. */
static struct libmnt_fs *mount_for_blockdev(struct libmnt_table *tb,
					    const char *devname, dev_t rdev,
					    int *error)
{
	struct libmnt_fs *fs = mount_for_devno(tb, rdev);

	*error = 0;
	/* btrfs and friends show an anonymous device number in mountinfo */
	if (!fs)
		fs = mount_for_source(tb, devname, error);
	return fs;
}

static int resolve_tag(struct libmnt_table *tb, struct libmnt_cache *cache,
		       const char *spec, struct libmnt_fs **ret, const char **reason)
{
	struct libmnt_fs *fs;
	struct stat st;
	char *devname;
	int error;

	/* a table in fstab format may name the tag literally */
	fs = mount_for_source(tb, spec, &error);
	if (fs) {
		*ret = fs;
		return error;
	}

	devname = cache ? mnt_resolve_spec(spec, cache) : NULL;
	if (!devname) {
		*reason = "no such device";
		return -ENODEV;
	}
	if (stat(devname, &st) == 0 && S_ISBLK(st.st_mode))
		fs = mount_for_blockdev(tb, devname, st.st_rdev, &error);
	else
		fs = mount_for_source(tb, devname, &error);
	/* devname belongs to the cache */
	if (!fs) {
		*reason = "not mounted";
		return -ENOENT;
	}
	*ret = fs;
	return error;
}

static const char *stat_reason(int error)
{
	switch (error) {
	case ENOENT:
		return "no such file or directory";
	case ENOTDIR:
		return "not a directory";
	case EACCES:
		return "permission denied";
	case ELOOP:
		return "too many levels of symbolic links";
	default:
		return strerror(error);
	}
}

int target_resolve(struct libmnt_table *tb, struct libmnt_cache *cache,
		   const char *spec, struct libmnt_fs **ret, const char **reason)
{
	struct libmnt_fs *fs = NULL;
	struct stat st;
	dev_t devno;
	int r = 0;

	*reason = NULL;
	if (!spec || !*spec) {
		*reason = "empty target";
		return -EINVAL;
	}

	if (devno_parse(spec, &devno) == 0) {
		fs = mount_for_devno(tb, devno);
		if (!fs) {
			*reason = "no such mount";
			return -ENOENT;
		}
		*ret = fs;
		return 0;
	}

	if (is_tag(spec))
		return resolve_tag(tb, cache, spec, ret, reason);

	if (stat(spec, &st) < 0) {
		int error = errno;

		/* not a local path: a source ("server:/export", "tmpfs") or
		 * a mount point of a table given with --tab-file */
		fs = mnt_table_find_target(tb, spec, MNT_ITER_BACKWARD);
		if (!fs)
			fs = mount_for_source(tb, spec, &r);
		if (fs) {
			*ret = fs;
			return r;
		}
		*reason = (spec[0] == '/' || spec[0] == '.') ?
			stat_reason(error) : "no such mount";
		return -error;
	}

	if (S_ISBLK(st.st_mode)) {
		fs = mount_for_blockdev(tb, spec, st.st_rdev, &r);
		if (!fs) {
			*reason = "block device is not mounted";
			return -ENOENT;
		}
		*ret = fs;
		return r;
	}

	/* without a device number match: btrfs subvolumes, or a table
	 * from --tab-file */
	fs = mount_for_file(tb, spec, &st);
	if (!fs) {
		int error = errno;

		*reason = error == ENOENT ? "no such mount" : stat_reason(error);
		return -error;
	}
	*ret = fs;
	return 0;
}

struct libmnt_fs *mount_for_file(struct libmnt_table *tb, const char *path,
				 const struct stat *st)
{
	struct libmnt_fs *fs;
	char *canonical = realpath(path, NULL);

	if (!canonical)
		return NULL;
	fs = mount_for_path(tb, canonical, 1, st->st_dev);
	if (!fs)
		fs = mount_for_path(tb, canonical, 0, 0);
	free(canonical);
	if (!fs)
		errno = ENOENT;
	return fs;
}
