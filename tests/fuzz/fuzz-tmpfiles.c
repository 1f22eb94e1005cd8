/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: what "systemd-tmpfiles --cat-config" prints, read
 * by tmpfiles_parse_config(); and each line as an age field.
 */
#include <errno.h>

#include "fuzz-consumers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct consumer_list l = { .quiet = true };
	char *s = fuzz_text(data, size);
	const char *why = NULL;
	int64_t age = 0;
	bool by_atime;

	if (!s)
		return 0;
	fuzz_check_consumers(&l, tmpfiles_parse_config(&l, s));
	if (tmpfiles_parse_age(s, &age, &by_atime, &why) == 0) {
		if (age < -1)
			abort();
	} else if (!why || age != -1) {
		abort();
	}
	free(s);
	return 0;
}
