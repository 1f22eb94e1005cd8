/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading and writing the kernel's one-number files.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decimal.h"
#include "escape.h"
#include "kfile.h"

int kfile_read(int dirfd, const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd, r = 0;

	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		r = -errno;
	else
		buf[n] = '\0';
	close(fd);
	return r;
}

void kfile_chomp(char *text)
{
	size_t n = strlen(text);

	if (n > 0 && text[n - 1] == '\n')
		text[n - 1] = '\0';
}

/* Did strto*() consume a number, followed by nothing but a newline? */
static bool number_ends_well(const char *s, const char *end)
{
	if (errno != 0 || end == s)
		return false;
	while (*end == '\n' || *end == ' ')
		end++;
	return *end == '\0';
}

int kfile_parse_int(const char *text, int64_t *ret)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(text, &end, 10);
	if (!number_ends_well(text, end))
		return -EINVAL;
	*ret = v;
	return 0;
}

int kfile_parse_uint(const char *text, uint64_t *ret)
{
	char *end;
	unsigned long long v;

	if (*text == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (!number_ends_well(text, end))
		return -EINVAL;
	*ret = v;
	return 0;
}

int kfile_write_int(int dirfd, const char *path, int64_t value)
{
	char buf[DECIMAL_MAX + 1];
	size_t len = strlen(decimal_i64(value, buf));
	ssize_t n;
	int fd, r = 0;

	buf[len++] = '\n';
	fd = openat(dirfd, path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	if (n < 0)
		r = -errno;
	else if ((size_t) n != len)
		r = -EIO;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

void kfile_report_write(const char *verb, const char *rawpath, int error)
{
	char *esc;
	const char *path = name_escape(rawpath, &esc);

	switch (-error) {
	case EACCES:
	case EPERM:
		fprintf(stderr, "atimectl: %s: permission denied writing %s (are you root?)\n",
			verb, path);
		break;
	case EINVAL:
		fprintf(stderr, "atimectl: %s: the kernel rejected the value written to %s\n",
			verb, path);
		break;
	case ENOENT:
	case ENODEV:
		fprintf(stderr, "atimectl: %s: %s is gone (filesystem no longer mounted?)\n",
			verb, path);
		break;
	case EROFS:
		fprintf(stderr, "atimectl: %s: %s is on a read-only filesystem\n",
			verb, path);
		break;
	default:
		fprintf(stderr, "atimectl: %s: cannot write %s: %s\n",
			verb, path, strerror(-error));
		break;
	}
	free(esc);
}
