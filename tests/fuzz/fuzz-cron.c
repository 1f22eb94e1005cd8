/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: a crontab or cron script, read by cron_parse_file()
 * and so by the find(1) command-line reader, find_parse_command().
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
	fuzz_check_consumers(&l, cron_parse_file(&l, "crontab", s));
	free(s);
	return 0;
}
