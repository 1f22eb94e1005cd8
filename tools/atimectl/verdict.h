/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_VERDICT_H
#define ATIMECTL_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "mounts.h"

/*
 * How well an atime consumer that removes files older than age T (by
 * atime) can trust the atimes of a filesystem whose relatime interval is
 * I: on relatime a read leaves atime alone while it is younger than I,
 * so a file read a moment ago can show an atime up to I old.
 *
 *   ok        I <= T/4, strictatime (every read updates atime)
 *   warn      T/4 < I < T
 *   critical  I >= T, or noatime (reads never update atime): the worst case
 */
enum verdict {
	VERDICT_OK,
	VERDICT_WARN,
	VERDICT_CRITICAL,
};

enum verdict verdict_judge(enum atime_mode mode, int64_t interval, int64_t age);

/* "ok", "warn", "critical" */
const char *verdict_name(enum verdict v);

/*
 * The misjudged window in words, for remover (who removes: "tmpreaper"):
 * "a file read 5d ago can look unread for up to 1w: tmpreaper would
 * remove it".  Returns buf.
 */
char *verdict_window(enum atime_mode mode, int64_t interval, int64_t age,
		     const char *remover, char *buf, size_t len);

#define VERDICT_WINDOW_MAX 256

#endif
