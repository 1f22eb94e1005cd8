/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_LIST_TARGETS_H
#define ATIMECTL_LIST_TARGETS_H

#include "atimectl.h"

/* Print the mount points, NUL-terminated; returns the exit status. */
int list_targets(const struct options *opts);

#endif
