/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel side, globally: /proc/sys/fs/relatime_interval.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "kfile.h"
#include "procsys.h"

#define GLOBAL_FILE "relatime_interval"

/* Read the sysctl's text into buf. */
static int read_global(const struct kernel *k, char *buf, size_t len)
{
	int dirfd, r;

	dirfd = open(k->proc_sys_fs, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return -errno;
	r = kfile_read(dirfd, GLOBAL_FILE, buf, len);
	close(dirfd);
	return r;
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
	int dirfd, r;

	dirfd = open(k->proc_sys_fs, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return -errno;
	r = kfile_write_int(dirfd, GLOBAL_FILE, value);
	close(dirfd);
	return r;
}

void kernel_report_write_global(const struct kernel *k, const char *verb, int error)
{
	char path[PATH_MAX];

	if (error == -ENOENT) {
		fprintf(stderr, "atimectl: this kernel has no global relatime interval (no /proc/sys/fs/relatime_interval)\n");
		return;
	}
	snprintf(path, sizeof(path), "%s/" GLOBAL_FILE, k->proc_sys_fs);
	kfile_report_write(verb, path, error);
}
