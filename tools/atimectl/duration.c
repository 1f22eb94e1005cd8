/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Parse and format time spans, seconds granularity, compatible with the
 * units systemd.time(7) documents.  No dependencies beyond libc so the
 * parser can be fuzzed on its own.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "duration.h"

#define SEC_PER_MINUTE INT64_C(60)
#define SEC_PER_HOUR   INT64_C(3600)
#define SEC_PER_DAY    INT64_C(86400)
#define SEC_PER_WEEK   INT64_C(604800)
#define SEC_PER_MONTH  INT64_C(2629800)   /* 30.44 days, as systemd */
#define SEC_PER_YEAR   INT64_C(31557600)  /* 365.25 days, as systemd */

/* At most this many digits after the decimal point. */
#define MAX_FRACTION_DIGITS 9

struct unit {
	const char *name;
	int64_t seconds;
};

/*
 * Every name systemd accepts at or above second granularity.  The parser
 * picks the longest name that matches, so order does not matter.
 */
static const struct unit parse_units[] = {
	{ "seconds", 1 },
	{ "second",  1 },
	{ "sec",     1 },
	{ "s",       1 },
	{ "minutes", SEC_PER_MINUTE },
	{ "minute",  SEC_PER_MINUTE },
	{ "min",     SEC_PER_MINUTE },
	{ "m",       SEC_PER_MINUTE },
	{ "hours",   SEC_PER_HOUR },
	{ "hour",    SEC_PER_HOUR },
	{ "hr",      SEC_PER_HOUR },
	{ "h",       SEC_PER_HOUR },
	{ "days",    SEC_PER_DAY },
	{ "day",     SEC_PER_DAY },
	{ "d",       SEC_PER_DAY },
	{ "weeks",   SEC_PER_WEEK },
	{ "week",    SEC_PER_WEEK },
	{ "w",       SEC_PER_WEEK },
	{ "months",  SEC_PER_MONTH },
	{ "month",   SEC_PER_MONTH },
	{ "M",       SEC_PER_MONTH },
	{ "years",   SEC_PER_YEAR },
	{ "year",    SEC_PER_YEAR },
	{ "y",       SEC_PER_YEAR },
};

/* Largest first, as systemd's format_timespan(). */
static const struct unit format_units[] = {
	{ "y",     SEC_PER_YEAR },
	{ "month", SEC_PER_MONTH },
	{ "w",     SEC_PER_WEEK },
	{ "d",     SEC_PER_DAY },
	{ "h",     SEC_PER_HOUR },
	{ "min",   SEC_PER_MINUTE },
	{ "s",     1 },
};

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static const char *skip_space(const char *p)
{
	while (is_space(*p))
		p++;
	return p;
}

/*
 * Match the longest unit name at p that is not followed by another letter.
 * Returns its length (0 if none) and the unit size in *seconds.
 */
static size_t match_unit(const char *p, int64_t *seconds)
{
	size_t best = 0;

	for (size_t i = 0; i < sizeof(parse_units) / sizeof(parse_units[0]); i++) {
		size_t len = strlen(parse_units[i].name);

		if (len <= best || strncmp(p, parse_units[i].name, len) != 0)
			continue;
		if (is_alpha(p[len]))
			continue;
		best = len;
		*seconds = parse_units[i].seconds;
	}
	return best;
}

/* Parse one "NUMBER[.FRACTION] [UNIT]" component and add it to *total. */
static int parse_component(const char **pp, int64_t *total)
{
	const char *p = *pp;
	int64_t whole = 0, fraction = 0, scale = 1, unit = 1, value;
	bool too_big = false, too_precise = false;
	size_t unit_len;
	int digits = 0;

	if (!is_digit(*p))
		return -EINVAL;
	for (; is_digit(*p); p++) {
		whole = whole * 10 + (*p - '0');
		if (whole > DURATION_MAX) {
			too_big = true;
			whole = DURATION_MAX + 1;
		}
	}
	if (*p == '.') {
		p++;
		if (!is_digit(*p))
			return -EINVAL;
		for (; is_digit(*p); p++) {
			if (digits < MAX_FRACTION_DIGITS) {
				fraction = fraction * 10 + (*p - '0');
				scale *= 10;
				digits++;
			} else if (*p != '0') {
				too_precise = true;
			}
		}
	}

	p = skip_space(p);
	unit_len = match_unit(p, &unit);
	if (unit_len == 0 && is_alpha(*p))
		return -EINVAL;
	p += unit_len;
	if (*p != '\0' && !is_space(*p) && !is_digit(*p))
		return -EINVAL;

	if (too_big)
		return -ERANGE;
	/* whole <= DURATION_MAX and unit <= SEC_PER_YEAR: no overflow */
	value = whole * unit;
	if (value > DURATION_MAX)
		return -ERANGE;
	if (too_precise)
		return -EDOM;
	/* fraction < 10^9 and unit < 2^25: no overflow */
	if ((fraction * unit) % scale != 0)
		return -EDOM;
	value += fraction * unit / scale;
	if (value > DURATION_MAX - *total)
		return -ERANGE;

	*total += value;
	*pp = p;
	return 0;
}

int duration_parse(const char *s, int64_t *ret)
{
	const char *p;
	int64_t total = 0;
	int components = 0;

	if (!s)
		return -EINVAL;

	p = s;
	for (;;) {
		int r;

		p = skip_space(p);
		if (*p == '\0')
			break;
		r = parse_component(&p, &total);
		if (r < 0)
			return r;
		components++;
	}
	if (components == 0)
		return -EINVAL;

	*ret = total;
	return 0;
}

const char *duration_strerror(int error)
{
	switch (error < 0 ? -error : error) {
	case ERANGE:
		return "out of range (at most 2147483647 seconds, about 68 years)";
	case EDOM:
		return "not a whole number of seconds";
	default:
		return "not a duration (expected seconds or a time span such as 90s, 30min, 1h, 1d 12h)";
	}
}

char *duration_format(int64_t seconds, char *buf, size_t len)
{
	size_t used = 0;

	if (len == 0)
		return buf;
	buf[0] = '\0';

	if (seconds <= 0) {
		snprintf(buf, len, "%" PRId64, seconds);
		return buf;
	}

	for (size_t i = 0; i < sizeof(format_units) / sizeof(format_units[0]); i++) {
		int64_t n;
		int w;

		if (seconds < format_units[i].seconds)
			continue;
		n = seconds / format_units[i].seconds;
		seconds %= format_units[i].seconds;

		w = snprintf(buf + used, len - used, "%s%" PRId64 "%s",
			     used > 0 ? " " : "", n, format_units[i].name);
		if (w < 0 || (size_t) w >= len - used) {
			buf[used] = '\0';  /* drop the partial component */
			break;
		}
		used += (size_t) w;
	}
	return buf;
}
