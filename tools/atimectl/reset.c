/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "atimectl reset TARGET...": back to the global interval.
 */
#include "atimectl.h"
#include "verbs.h"

int verb_reset(const struct options *opts, int argc, char **argv)
{
	return verbs_write_targets(opts, "reset", argc, argv, -1);
}
