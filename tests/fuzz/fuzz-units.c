/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: what "systemctl show -p Id,Unit,ExecStart" prints,
 * read by units_parse_show().
 */
#include <errno.h>

#include "fuzz-consumers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int parse(struct consumer_list *l, const char *text)
{
	return units_parse_show(l, text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_consumers(data, size, parse);
}
