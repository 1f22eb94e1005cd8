/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_MOUNTS_H
#define ATIMECTL_MOUNTS_H

#include <stdbool.h>
#include <libmount.h>

enum atime_mode {
	ATIME_RELATIME,
	ATIME_STRICTATIME,
	ATIME_NOATIME,
};

/*
 * Load a mount table.  file is a mountinfo (or fstab/mtab format) file, or
 * NULL for the kernel's /proc/self/mountinfo; with_utab merges the
 * userspace options libmount keeps in /run/mount/utab (only for NULL).
 * Returns 0 and the table in *ret, or a negative errno (-EISDIR for a
 * directory) that mounts_report_load() says.  A line that cannot be parsed
 * is said at once, and left out.
 */
int mounts_load(const char *file, bool with_utab, struct libmnt_table **ret);
void mounts_report_load(const char *file, int error);

/* relatime, strictatime or noatime, from the mount's VFS options. */
enum atime_mode mount_atime_mode(struct libmnt_fs *fs);
const char *atime_mode_name(enum atime_mode mode);

/*
 * Shown by "status" without --all: filesystems with storage behind them
 * (block devices, network filesystems, ...) and tmpfs, not proc, sysfs,
 * cgroup and the like.
 */
bool mount_is_shown_by_default(struct libmnt_fs *fs);

/*
 * Whether a listing shows fs: of type types (-t, NULL for any), and shown
 * by default unless all (-A) or types names its type without "no".
 */
bool mount_is_listed(struct libmnt_fs *fs, bool all, const char *types);

/* Whether fs is of type types (-t; NULL: any). */
bool mount_type_matches(struct libmnt_fs *fs, const char *types);

#endif
