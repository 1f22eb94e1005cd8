/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: what "systemd-tmpfiles --cat-config" prints, read
 * by tmpfiles_parse_config(); and the whole input as one age field.
 */
#include <errno.h>

#include "fuzz-consumers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int parse(struct consumer_list *l, const char *text)
{
	const char *why = NULL;
	int64_t age = 0;
	bool by_atime;

	if (tmpfiles_parse_age(text, &age, &by_atime, &why) == 0) {
		if (age < -1)
			abort();
	} else if (!why || age != -1) {
		abort();
	}
	return tmpfiles_parse_config(l, text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_consumers(data, size, parse);
}
