/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "atimectl set TARGET DURATION": a filesystem's own interval.
 */
#include <stdint.h>

#include "atimectl.h"
#include "verbs.h"

int verb_set(const struct options *opts, int argc, char **argv)
{
	int64_t seconds;

	if (verbs_parse_duration("set", argv[1], &seconds) < 0)
		return EXIT_USAGE;
	return verbs_write_targets(opts, "set", 1, argv, seconds);
}
