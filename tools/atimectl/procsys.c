/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel side, globally: /proc/sys/fs/relatime_interval.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>

#include "kfile.h"
#include "procsys.h"

#define GLOBAL_FILE "relatime_interval"

/* The sysctl's file, k->proc_sys_fs/relatime_interval, into path. */
static int global_path(const struct kernel *k, char *path, size_t len)
{
	int n = snprintf(path, len, "%s/" GLOBAL_FILE, k->proc_sys_fs);

	return n < 0 || (size_t) n >= len ? -ENAMETOOLONG : 0;
}

/* Read the sysctl's text into buf. */
static int read_global(const struct kernel *k, char *buf, size_t len)
{
	char path[PATH_MAX];
	int r = global_path(k, path, sizeof(path));

	return r < 0 ? r : kfile_read(AT_FDCWD, path, buf, len);
}

int kernel_read_global(const struct kernel *k, int64_t *ret)
{
	char buf[KFILE_MAX];
	int r = read_global(k, buf, sizeof(buf));

	return r < 0 ? r : kfile_parse_int(buf, ret);
}

int kernel_read_global_text(const struct kernel *k, char *buf, size_t len)
{
	int r = read_global(k, buf, len);

	if (r == 0)
		kfile_chomp(buf);
	return r;
}

int kernel_write_global(const struct kernel *k, int64_t value)
{
	char path[PATH_MAX];
	int r = global_path(k, path, sizeof(path));

	return r < 0 ? r : kfile_write_int(AT_FDCWD, path, value);
}

void kernel_report_write_global(const struct kernel *k, const char *verb, int error)
{
	char path[PATH_MAX];

	if (error == -ENOENT) {
		fprintf(stderr, "atimectl: this kernel has no global relatime interval (no /proc/sys/fs/relatime_interval)\n");
		return;
	}
	global_path(k, path, sizeof(path));
	kfile_report_write(verb, path, error);
}
