/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_FSMAP_H
#define ATIMECTL_FSMAP_H

#include <libmount.h>

/*
 * The mount of tb a path is on, as the kernel resolves it: the path, or
 * (when it does not exist yet) its nearest existing parent, where the
 * files would be made.  Returns NULL with a reason in *why.
 */
struct libmnt_fs *fsmap_lookup(struct libmnt_table *tb, const char *path,
			       const char **why);

#endif
