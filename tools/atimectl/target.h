/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_TARGET_H
#define ATIMECTL_TARGET_H

#include <stdbool.h>
#include <sys/types.h>
#include <libmount.h>

#include "devno.h"

/*
 * Find the mount a TARGET names: a mount point or any path inside a mounted
 * filesystem, a source device (/dev/vdb), a tag (UUID=, LABEL=, ...), or
 * MAJ:MIN.
 *
 * Returns 0 and the entry of tb in *ret (owned by tb), or a negative errno;
 * then *reason is a short static text for "atimectl: TARGET: reason".
 * -ENOTUNIQ: a source that other filesystems are mounted from too; *ret
 * is the first of its mounts, and no *reason.
 * cache may be NULL (tags are then only matched literally).
 */
int target_resolve(struct libmnt_table *tb, struct libmnt_cache *cache,
		   const char *spec, struct libmnt_fs **ret, const char **reason);

/*
 * Can spec name a TARGET at all: a path (it has a '/'), a tag (UUID=...),
 * MAJ:MIN, or an existing file?  A bare word that is none of these is no
 * target, so a mistyped verb is not reported as a missing mount.
 */
bool target_spec_is_plausible(const char *spec);

/*
 * The mount whose target is the longest prefix of the canonical path,
 * preferring entries with device number devno (pass has_devno = 0 to
 * ignore it).  Later entries win ties, so the topmost of stacked mounts is
 * picked.  NULL if none matches.
 */
struct libmnt_fs *mount_for_path(struct libmnt_table *tb, const char *path,
				 int has_devno, dev_t devno);

/* First mount with this device number, preferring one of its root "/". */
struct libmnt_fs *mount_for_devno(struct libmnt_table *tb, dev_t devno);

/*
 * The mount a file (already stat'ed into st) lives on: the longest mount
 * point prefix of its canonical path, among mounts with its device number
 * first.  Returns NULL and sets errno when there is none.
 */
struct stat;
struct libmnt_fs *mount_for_file(struct libmnt_table *tb, const char *path,
				 const struct stat *st);

#endif
