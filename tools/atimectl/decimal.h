/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_DECIMAL_H
#define ATIMECTL_DECIMAL_H

#include <stdint.h>

/* Holds any 64-bit integer in decimal, sign and NUL included. */
#define DECIMAL_MAX 21

/*
 * v in decimal, into buf; returns buf.  The one way atimectl writes a
 * number: JSON cells, MAJ:MIN, the values written to the kernel.  No
 * printf: "status" formats every number of a table of thousands of
 * mounts with it.
 */
char *decimal_u64(uint64_t v, char buf[static DECIMAL_MAX]);
char *decimal_i64(int64_t v, char buf[static DECIMAL_MAX]);

#endif
