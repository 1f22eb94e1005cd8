/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: what "systemctl show -p Id,Unit,ExecStart" prints,
 * read by units_parse_show().
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
	fuzz_check_consumers(&l, units_parse_show(&l, s));
	free(s);
	return 0;
}
