/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_DURATION_H
#define ATIMECTL_DURATION_H

#include <stddef.h>
#include <stdint.h>

/* Largest interval the kernel accepts, in seconds (INT_MAX). */
#define DURATION_MAX INT64_C(2147483647)

/* Buffer size that always holds duration_format() output. */
#define DURATION_FORMAT_MAX 64

/*
 * Parse a duration: what systemd's parse_sec() accepts ("3600", "90s",
 * "1h30min", "1d 12h", ".5h", "1000ms", "+5"; see systemd.time(7)), when
 * it is a whole number of seconds in 0..DURATION_MAX.  Like systemd it
 * computes in microseconds: "1.5s 500ms" is 2, "1.0000001s" is 1.
 *
 * Returns 0 and stores the seconds in *ret, or a negative errno:
 *   -EINVAL  not a duration (empty, unknown unit, junk, negative)
 *   -ERANGE  larger than DURATION_MAX, or "infinity"
 *   -EDOM    a time span, but not a whole number of seconds ("0.5s",
 *            "1500ms", "1us")
 * *ret is untouched on error.
 */
int duration_parse(const char *s, int64_t *ret);

/* Human-readable reason for a duration_parse() error code. */
const char *duration_strerror(int error);

/*
 * Format seconds the way systemd prints time spans: "0", "45s", "1min 30s",
 * "1d 12h", "1y 2month".  Negative values are printed as plain numbers.
 * Returns buf.
 */
char *duration_format(int64_t seconds, char *buf, size_t len);

#endif
