/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_OPTSTR_H
#define ATIMECTL_OPTSTR_H

#include <stdint.h>

#define RELATIME_OPTION "x-relatime-interval"

/*
 * Find x-relatime-interval=VALUE in a mount option string (the last one
 * wins, as with other mount options).  Surrounding double quotes are
 * removed.  An option without "=" yields an empty value.
 *
 * Returns 1 and a malloc'd *value when found, 0 when absent, -EINVAL for an
 * option string libmount cannot split, -ENOMEM.
 */
int optstr_find_relatime_interval(const char *optstr, char **value);

/*
 * Find and parse the option.  Returns 1 and the seconds in *seconds when
 * present and valid, 0 when absent, or a negative errno: duration_parse()
 * errors (then *value holds the offending text, malloc'd, for the message),
 * -EINVAL for a broken option string, -ENOMEM.
 */
int optstr_parse_relatime_interval(const char *optstr, int64_t *seconds,
				   char **value);

#endif
