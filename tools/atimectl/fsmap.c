/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * From a path to its mount the way the kernel does it: statx()'s mount
 * ID (STATX_MNT_ID, Linux 5.8), the ID of field 1 of mountinfo, which
 * libmount gives as mnt_fs_get_id().  st_dev would not do: a btrfs
 * subvolume has a device number of its own and overlayfs files show the
 * device of the layer they come from, neither of them the superblock's
 * number in mountinfo.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "fsmap.h"
#include "target.h"

static struct libmnt_fs *mount_by_id(struct libmnt_table *tb, uint64_t id)
{
	struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs, *found = NULL;

	if (!itr)
		return NULL;
	while (!found && mnt_table_next_fs(tb, itr, &fs) == 0)
		if (mnt_fs_get_id(fs) >= 0 && (uint64_t) mnt_fs_get_id(fs) == id)
			found = fs;
	mnt_free_iter(itr);
	return found;
}

/* Is fs's mount point the path or one of its parents? */
static bool mount_holds(struct libmnt_fs *fs, const char *path)
{
	const char *target = mnt_fs_get_target(fs);
	char *canonical = realpath(path, NULL);
	size_t len = target ? strlen(target) : 0;
	bool ret = false;

	if (canonical && target && target[0] == '/')
		ret = strcmp(target, "/") == 0 ||
		      (strncmp(canonical, target, len) == 0 &&
		       (canonical[len] == '\0' || canonical[len] == '/'));
	free(canonical);
	return ret;
}

struct libmnt_fs *fsmap_lookup(struct libmnt_table *tb, const char *path,
			       const char **why)
{
	struct libmnt_fs *fs = NULL;
	struct statx stx;
	struct stat st;
	char *p;

	if (path[0] != '/') {
		*why = "not an absolute path";
		return NULL;
	}
	p = strdup(path);
	if (!p) {
		*why = "out of memory";
		return NULL;
	}
	/* the path, or the parent its files would be made in */
	for (;;) {
		char *slash;

		if (statx(AT_FDCWD, p, 0, STATX_INO | STATX_MNT_ID, &stx) == 0)
			break;
		if (errno != ENOENT && errno != ENOTDIR) {
			*why = strerror(errno);
			free(p);
			return NULL;
		}
		slash = strrchr(p, '/');
		if (!slash || slash == p) {
			if (p[1] == '\0') {	/* not even "/" */
				*why = strerror(errno);
				free(p);
				return NULL;
			}
			p[1] = '\0';
		} else {
			*slash = '\0';
		}
	}

	if (stx.stx_mask & STATX_MNT_ID) {
		fs = mount_by_id(tb, stx.stx_mnt_id);
		/* the mount of the ID holds the path, unless the table (-F)
		 * is another system's, whose IDs mean nothing here */
		if (fs && !mount_holds(fs, p))
			fs = NULL;
	}
	/*
	 * No such ID: a kernel before 5.8 (no STATX_MNT_ID), or a table from
	 * -F whose IDs are not this system's.  Then, as "explain" does, the
	 * mount whose mount point is the longest prefix of the canonical
	 * path, preferring those with the file's device number.
	 */
	if (!fs) {
		memset(&st, 0, sizeof(st));
		st.st_dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
		fs = mount_for_file(tb, p, &st);
	}
	free(p);
	if (!fs)
		*why = "on no mounted filesystem (not in the mount table)";
	return fs;
}
