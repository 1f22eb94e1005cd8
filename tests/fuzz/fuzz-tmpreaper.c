/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: tmpreaper_parse_config() on a tmpreaper.conf, with
 * the same text as /etc/default/rcS too (where TMPTIME comes from).
 */
#include <errno.h>

#include "fuzz-consumers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int parse(struct consumer_list *l, const char *text)
{
	int r = tmpreaper_parse_config(l, "tmpreaper.conf", text, NULL);

	return r ? r : tmpreaper_parse_config(l, "tmpreaper.conf", text, text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_consumers(data, size, parse);
}
