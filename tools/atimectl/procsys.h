/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_PROCSYS_H
#define ATIMECTL_PROCSYS_H

#include <stddef.h>
#include <stdint.h>

#include "sysfs.h"

/*
 * The global sysctl, fs.relatime_interval: the file relatime_interval
 * of k->proc_sys_fs (/proc/sys/fs, or $ATIMECTL_PROC_SYS_FS).
 */

/*
 * Read fs.relatime_interval.  Returns 0, -ENOENT when the kernel has no such
 * sysctl, or another negative errno.
 */
int kernel_read_global(const struct kernel *k, int64_t *ret);

/*
 * The text of relatime_interval as read, for messages: up to len - 1
 * bytes, trailing newline removed.  Returns 0 or a negative errno.
 */
int kernel_read_global_text(const struct kernel *k, char *buf, size_t len);

/*
 * Write fs.relatime_interval.  Returns 0 or a negative errno: -ENOENT
 * when the kernel has no such sysctl.
 */
int kernel_write_global(const struct kernel *k, int64_t value);

/* Say why kernel_write_global() failed (error), for verb. */
void kernel_report_write_global(const struct kernel *k, const char *verb, int error);

#endif
