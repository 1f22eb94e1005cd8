/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_STATUS_H
#define ATIMECTL_STATUS_H

#include <stdio.h>

/* The "Available output columns" part of --help. */
void status_print_columns_help(FILE *out);

#endif
