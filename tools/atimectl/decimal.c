/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Numbers in decimal.
 */
#include <stdbool.h>
#include <string.h>

#include "decimal.h"

/* The magnitude v, with a '-' when negative, into buf. */
static char *format(uint64_t v, bool negative, char *buf)
{
	char tmp[DECIMAL_MAX], *end = tmp + sizeof(tmp), *p = end;

	*--p = '\0';
	do {
		*--p = (char) ('0' + v % 10);
		v /= 10;
	} while (v);
	if (negative)
		*--p = '-';
	memcpy(buf, p, (size_t) (end - p));
	return buf;
}

char *decimal_u64(uint64_t v, char buf[static DECIMAL_MAX])
{
	return format(v, false, buf);
}

char *decimal_i64(int64_t v, char buf[static DECIMAL_MAX])
{
	/* unsigned negation: INT64_MIN has no positive int64_t */
	return format(v < 0 ? -(uint64_t) v : (uint64_t) v, v < 0, buf);
}
