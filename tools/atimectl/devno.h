/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_DEVNO_H
#define ATIMECTL_DEVNO_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Device numbers as the kernel names them, "MAJ:MIN": in mountinfo, as
 * the directories of /sys/fs/relatime, and as a TARGET.
 */
#define DEVNO_FORMAT_MAX 32

/* "MAJ:MIN" of devno into buf; "" when len is too small.  Returns buf. */
char *devno_format(dev_t devno, char *buf, size_t len);

/*
 * Parse "MAJ:MIN" strictly: decimal digits only, and numbers the
 * kernel's dev_t can hold (12 bits of major, 20 of minor).  Returns 0 or
 * -EINVAL.
 */
int devno_parse(const char *s, dev_t *ret);

#endif
