/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The x-relatime-interval= mount option.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <libmount.h>

#include "duration.h"
#include "optstr.h"

int optstr_find_relatime_interval(const char *optstr, char **value)
{
	const char *found = NULL;
	size_t found_len = 0;
	char *p, *name, *val, *copy;
	size_t namesz, valsz;
	int r;

	*value = NULL;
	if (!optstr)
		return 0;
	/* libmount ends the list silently at an unbalanced quote, dropping
	 * the option it is in: that is an option string it cannot split */
	if (strchr(optstr, '"')) {
		size_t quotes = 0;

		for (const char *q = optstr; *q; q++)
			quotes += *q == '"';
		if (quotes % 2)
			return -EINVAL;
	}

	/* mnt_optstr_next_option() wants a writable cursor; it does not
	 * modify the string */
	p = (char *) optstr;
	while ((r = mnt_optstr_next_option(&p, &name, &namesz, &val, &valsz)) == 0) {
		if (namesz != strlen(RELATIME_OPTION) ||
		    strncmp(name, RELATIME_OPTION, namesz) != 0)
			continue;
		found = val ? val : "";
		found_len = val ? valsz : 0;
	}
	if (r < 0)
		return -EINVAL;
	if (!found)
		return 0;

	if (found_len >= 2 && found[0] == '"' && found[found_len - 1] == '"') {
		found++;
		found_len -= 2;
	}
	copy = strndup(found, found_len);
	if (!copy)
		return -ENOMEM;
	*value = copy;
	return 1;
}

int optstr_parse_relatime_interval(const char *optstr, int64_t *seconds,
				   char **value)
{
	char *raw = NULL;
	int r;

	*value = NULL;
	r = optstr_find_relatime_interval(optstr, &raw);
	if (r <= 0)
		return r;

	r = duration_parse(raw, seconds);
	if (r < 0) {
		*value = raw;
		return r;
	}
	free(raw);
	return 1;
}
