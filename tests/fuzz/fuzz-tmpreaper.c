/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: tmpreaper_parse_config() on a tmpreaper.conf, with
 * the same text as /etc/default/rcS too (where TMPTIME comes from).
 */
#include <errno.h>

#include "fuzz-consumers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct consumer_list l = { .quiet = true };
	char *s = fuzz_text(data, size);

	if (!s)
		return 0;
	fuzz_check_consumers(&l, tmpreaper_parse_config(&l, "tmpreaper.conf", s, NULL));
	fuzz_check_consumers(&l, tmpreaper_parse_config(&l, "tmpreaper.conf", s, s));
	free(s);
	return 0;
}
