/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The verdict on one atime consumer and one filesystem, and the window
 * of reads it misjudges.
 */
#include <stdio.h>

#include "duration.h"
#include "verdict.h"

enum verdict verdict_judge(enum atime_mode mode, int64_t interval, int64_t age)
{
	switch (mode) {
	case ATIME_NOATIME:
		return VERDICT_CRITICAL;
	case ATIME_STRICTATIME:
		return VERDICT_OK;
	case ATIME_RELATIME:
	default:
		break;
	}
	/* both at most 2^31 - 1 seconds: no overflow */
	if (interval >= age)
		return VERDICT_CRITICAL;
	if (4 * interval <= age)
		return VERDICT_OK;
	return VERDICT_WARN;
}

const char *verdict_name(enum verdict v)
{
	switch (v) {
	case VERDICT_OK:
		return "ok";
	case VERDICT_WARN:
		return "warn";
	case VERDICT_CRITICAL:
	default:
		return "critical";
	}
}

char *verdict_window(enum atime_mode mode, int64_t interval, int64_t age,
		     const char *remover, char *buf, size_t len)
{
	char t[DURATION_FORMAT_MAX], i[DURATION_FORMAT_MAX], d[DURATION_FORMAT_MAX];

	duration_format(age, t, sizeof(t));
	duration_format(interval, i, sizeof(i));
	if (mode == ATIME_NOATIME)
		snprintf(buf, len, "noatime: reads never update atime, a file read just now looks "
			 "unread since it was created: %s would remove it %s after that", remover, t);
	else if (mode == ATIME_STRICTATIME || interval == 0)
		snprintf(buf, len, "every read updates atime: %s sees every read", remover);
	else if (interval >= age)
		snprintf(buf, len, "a file read just now can look unread for up to %s, "
			 "longer than %s: %s would remove it", i, t, remover);
	else
		snprintf(buf, len, "a file read %s ago can look unread for up to %s: "
			 "%s would remove it", duration_format(age - interval, d, sizeof(d)),
			 t, remover);
	return buf;
}
