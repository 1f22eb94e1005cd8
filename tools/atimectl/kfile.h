/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_KFILE_H
#define ATIMECTL_KFILE_H

#include <stddef.h>
#include <stdint.h>

/*
 * The kernel's small text files of one number each, under
 * /proc/sys/fs and /sys/fs/relatime: read, parsed and written whole.
 */

/* Buffer size for kfile_read(): more than any of them holds. */
#define KFILE_MAX 64

/*
 * dirfd/path (path alone with AT_FDCWD) into buf, NUL-terminated.
 * Returns 0 or a negative errno.
 */
int kfile_read(int dirfd, const char *path, char *buf, size_t len);

/* Drop one trailing newline, for messages that show what a file holds. */
void kfile_chomp(char *text);

/*
 * A decimal number followed by nothing but a newline (and spaces), as the
 * kernel writes it.  Returns 0 or -EINVAL; kfile_parse_uint() takes no
 * sign.
 */
int kfile_parse_int(const char *text, int64_t *ret);
int kfile_parse_uint(const char *text, uint64_t *ret);

/* Write "value\n" to dirfd/path.  Returns 0 or a negative errno. */
int kfile_write_int(int dirfd, const char *path, int64_t value);

/*
 * Say what a failure of kfile_write_int() (error) on path means, the way
 * users can act on it: "atimectl: VERB: permission denied writing PATH
 * (are you root?)".
 */
void kfile_report_write(const char *verb, const char *path, int error);

#endif
