/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: a crontab or cron script, read by cron_parse_file()
 * and so by the find(1) command-line reader, find_parse_command().
 */
#include <errno.h>

#include "fuzz-consumers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int parse(struct consumer_list *l, const char *text)
{
	return cron_parse_file(l, "crontab", text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_consumers(data, size, parse);
}
