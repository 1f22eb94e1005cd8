/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_GRANULARITY_H
#define ATIMECTL_GRANULARITY_H

#include <stdint.h>

/*
 * The step, in seconds, in which a filesystem type stores atime, when it
 * is coarser than the second the interval is counted in: FAT (vfat,
 * msdos) keeps the date of the last access only (a day), exFAT keeps
 * atime to 2 seconds.  1 for every other type, and for NULL.
 */
int64_t atime_granularity(const char *fstype);

/*
 * What a relatime interval amounts to on a filesystem with that
 * granularity: atime cannot change more often than once a step, so an
 * interval below it acts as the step.
 */
int64_t interval_kept(int64_t interval, int64_t granularity);

#endif
