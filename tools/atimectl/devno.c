/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MAJ:MIN, both ways.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "decimal.h"
#include "devno.h"

/* Called once per mount by "status": no printf. */
char *devno_format(dev_t devno, char *buf, size_t len)
{
	char maj[DECIMAL_MAX], min[DECIMAL_MAX];
	size_t lmaj = strlen(decimal_u64(major(devno), maj));
	size_t lmin = strlen(decimal_u64(minor(devno), min));

	if (lmaj + 1 + lmin + 1 > len) {
		if (len > 0)
			buf[0] = '\0';
		return buf;
	}
	memcpy(buf, maj, lmaj);
	buf[lmaj] = ':';
	memcpy(buf + lmaj + 1, min, lmin + 1);
	return buf;
}

int devno_parse(const char *s, dev_t *ret)
{
	unsigned long maj, min;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	maj = strtoul(s, &end, 10);
	if (errno || *end != ':' || end[1] < '0' || end[1] > '9')
		return -EINVAL;
	min = strtoul(end + 1, &end, 10);
	if (errno || *end != '\0')
		return -EINVAL;
	if (maj > 0xfff || min > 0xfffff)
		return -EINVAL;
	*ret = makedev(maj, min);
	return 0;
}
