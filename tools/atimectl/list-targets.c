/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "atimectl --list-targets": the mount points status would show, each
 * followed by a NUL byte, as they are (no escaping).  For shell
 * completion, which must never read a name as shell code.
 */
#include <stdio.h>
#include <libmount.h>

#include "atimectl.h"
#include "list-targets.h"
#include "mounts.h"
#include "verbs.h"

int list_targets(const struct options *opts)
{
	struct libmnt_table *tb = verbs_load_mounts(opts->tab_file, false);
	struct libmnt_iter *itr;
	struct libmnt_fs *fs;

	if (!tb)
		return 1;
	itr = mnt_new_iter(MNT_ITER_FORWARD);
	if (!itr) {
		fprintf(stderr, "atimectl: out of memory\n");
		mnt_unref_table(tb);
		return 1;
	}
	while (mnt_table_next_fs(tb, itr, &fs) == 0) {
		const char *target = mnt_fs_get_target(fs);

		if (!target || !mount_is_listed(fs, opts->all, opts->types))
			continue;
		fputs(target, stdout);
		putchar('\0');
	}
	mnt_free_iter(itr);
	mnt_unref_table(tb);
	return 0;
}
