/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: x-relatime-interval= extraction from a mount option
 * string (libmount's option splitter plus duration_parse()).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"
#include "optstr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int64_t seconds = -1;
	char *s, *value = NULL, *raw = NULL;
	int r;

	s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';

	r = optstr_parse_relatime_interval(s, &seconds, &value);
	if (r == 1) {
		if (value || seconds < 0 || seconds > DURATION_MAX)
			abort();
	} else if (r == 0) {
		if (value)
			abort();
	} else if (r == -EINVAL || r == -ERANGE || r == -EDOM) {
		/* a bad value comes with its text, a broken string without */
		if (value && optstr_find_relatime_interval(s, &raw) != 1)
			abort();
		if (value && strcmp(value, raw) != 0)
			abort();
	} else if (r != -ENOMEM) {
		abort();
	}

	free(raw);
	free(value);
	free(s);
	return 0;
}
