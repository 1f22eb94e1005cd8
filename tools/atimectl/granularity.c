/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Filesystems that store atime more coarsely than the relatime interval
 * is counted.  The kernel truncates the new atime in the filesystem
 * (fat_truncate_atime(), exfat_truncate_atime()), after the relatime rule
 * has said "update": an interval shorter than the step cannot be kept.
 */
#include <string.h>

#include "granularity.h"

static const struct {
	const char *fstype;
	int64_t seconds;
} coarse[] = {
	{ "vfat",  86400 },	/* the date only, as on disk */
	{ "msdos", 86400 },
	{ "exfat", 2 },		/* 2 s, no 10 ms field for atime */
};

int64_t atime_granularity(const char *fstype)
{
	if (!fstype)
		return 1;
	for (size_t i = 0; i < sizeof(coarse) / sizeof(coarse[0]); i++)
		if (strcmp(coarse[i].fstype, fstype) == 0)
			return coarse[i].seconds;
	return 1;
}

int64_t interval_kept(int64_t interval, int64_t granularity)
{
	return interval < granularity ? granularity : interval;
}
