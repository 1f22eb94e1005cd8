/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "atimectl reset TARGET...": back to the global interval.
 */
#include <stdio.h>

#include "atimectl.h"
#include "verbs.h"

int verb_reset(const struct options *opts, int argc, char **argv)
{
	if (argc < 1) {
		fprintf(stderr, "atimectl: reset: expected at least one TARGET (see --help)\n");
		return EXIT_USAGE;
	}
	return verbs_write_targets(opts, "reset", argc, argv, -1);
}
