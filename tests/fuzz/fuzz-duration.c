/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: duration_parse() and duration_format().  Every accepted
 * input must be in range and survive a format/parse round trip.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char buf[DURATION_FORMAT_MAX];
	int64_t value = -1, again = -1;
	char *s;
	int r;

	s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';

	r = duration_parse(s, &value);
	if (r == 0) {
		if (value < 0 || value > DURATION_MAX)
			abort();
		duration_format(value, buf, sizeof(buf));
		if (duration_parse(buf, &again) != 0 || again != value)
			abort();
	} else if (r != -EINVAL && r != -ERANGE && r != -EDOM) {
		abort();
	} else if (value != -1) {
		abort();  /* must not be touched on error */
	}

	free(s);
	return 0;
}
