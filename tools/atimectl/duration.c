/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Parse and format time spans as systemd does (parse_sec() and
 * format_timespan() of systemd.time(7)), for intervals of whole seconds.
 * No dependencies beyond libc so the parser can be fuzzed on its own.
 *
 * Parsing follows systemd's rules exactly and works, as systemd does, in
 * microseconds: "1000ms", ".5h" and "1.5s 500ms" are whole seconds and
 * accepted; "1500ms" is a valid time span but no whole number of seconds
 * (-EDOM).  The places where systemd reports an overflow are kept, so
 * every input systemd rejects is rejected here as well.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "duration.h"

#define USEC_PER_SEC    UINT64_C(1000000)
#define USEC_PER_MSEC   UINT64_C(1000)
#define USEC_PER_MINUTE (UINT64_C(60) * USEC_PER_SEC)
#define USEC_PER_HOUR   (UINT64_C(60) * USEC_PER_MINUTE)
#define USEC_PER_DAY    (UINT64_C(24) * USEC_PER_HOUR)
#define USEC_PER_WEEK   (UINT64_C(7) * USEC_PER_DAY)
#define USEC_PER_MONTH  (UINT64_C(2629800) * USEC_PER_SEC)   /* 30.44 days */
#define USEC_PER_YEAR   (UINT64_C(31557600) * USEC_PER_SEC)  /* 365.25 days */

/* systemd's "infinity": no time span reaches it. */
#define USEC_INFINITY   UINT64_MAX

struct unit {
	const char *name;
	uint64_t usec;
};

/*
 * systemd's suffix table, in its order: the first name that the text
 * starts with wins, whatever follows it ("1mins" is "1min" and then a
 * stray "s", an error; "1ms" is a millisecond, "1m" a minute).
 */
static const struct unit parse_units[] = {
	{ "seconds", USEC_PER_SEC },
	{ "second",  USEC_PER_SEC },
	{ "sec",     USEC_PER_SEC },
	{ "s",       USEC_PER_SEC },
	{ "minutes", USEC_PER_MINUTE },
	{ "minute",  USEC_PER_MINUTE },
	{ "min",     USEC_PER_MINUTE },
	{ "months",  USEC_PER_MONTH },
	{ "month",   USEC_PER_MONTH },
	{ "M",       USEC_PER_MONTH },
	{ "msec",    USEC_PER_MSEC },
	{ "ms",      USEC_PER_MSEC },
	{ "m",       USEC_PER_MINUTE },
	{ "hours",   USEC_PER_HOUR },
	{ "hour",    USEC_PER_HOUR },
	{ "hr",      USEC_PER_HOUR },
	{ "h",       USEC_PER_HOUR },
	{ "days",    USEC_PER_DAY },
	{ "day",     USEC_PER_DAY },
	{ "d",       USEC_PER_DAY },
	{ "weeks",   USEC_PER_WEEK },
	{ "week",    USEC_PER_WEEK },
	{ "w",       USEC_PER_WEEK },
	{ "years",   USEC_PER_YEAR },
	{ "year",    USEC_PER_YEAR },
	{ "y",       USEC_PER_YEAR },
	{ "usec",    1 },
	{ "us",      1 },
	{ "\xce\xbcs", 1 },  /* U+03BC GREEK SMALL LETTER MU, then s */
	{ "\xc2\xb5s", 1 },  /* U+00B5 MICRO SIGN, then s */
};

/* Whole seconds, largest first, as systemd's format_timespan(). */
static const struct {
	const char *name;
	int64_t seconds;
} format_units[] = {
	{ "y",     31557600 },
	{ "month", 2629800 },
	{ "w",     604800 },
	{ "d",     86400 },
	{ "h",     3600 },
	{ "min",   60 },
	{ "s",     1 },
};

/* What systemd skips between components and before a unit. */
static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* What strtoll() skips before a number (C locale): also \v and \f. */
static bool is_number_space(char c)
{
	return is_space(c) || c == '\v' || c == '\f';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static const char *skip_space(const char *p)
{
	while (is_space(*p))
		p++;
	return p;
}

static const char *skip_digits(const char *p)
{
	while (is_digit(*p))
		p++;
	return p;
}

static const char *starts_with(const char *s, const char *prefix)
{
	size_t len = strlen(prefix);

	return strncmp(s, prefix, len) == 0 ? s + len : NULL;
}

/*
 * The integer part of a component, read as systemd reads it with
 * strtoll(..., 10): optional space and sign, then digits.  Without digits
 * nothing is read (*end = p, value 0).  Returns 0, -ERANGE when the number
 * does not fit a long long, or -EINVAL when it is negative (systemd says
 * -ERANGE; to a user "-1" is no duration, not a large one).
 */
static int parse_integer(const char *p, uint64_t *value, const char **end)
{
	const char *q = p;
	bool negative = false, overflow = false;
	uint64_t v = 0;

	while (is_number_space(*q))
		q++;
	if (*q == '+' || *q == '-')
		negative = *q++ == '-';
	*value = 0;
	if (!is_digit(*q)) {
		*end = p;
		return 0;
	}
	for (; is_digit(*q); q++) {
		unsigned int d = (unsigned int) (*q - '0');

		if (v > ((uint64_t) INT64_MAX - d) / 10)
			overflow = true;
		else
			v = v * 10 + d;
	}
	*end = q;
	/* "-0" after a \v or \f is 0 to strtoll(), and so to systemd */
	if (negative && (v != 0 || overflow))
		return -EINVAL;
	if (overflow)
		return -ERANGE;
	*value = v;
	return 0;
}

/* The unit at p, first match in table order; NULL when none. */
static const char *match_unit(const char *p, uint64_t *usec)
{
	for (size_t i = 0; i < sizeof(parse_units) / sizeof(parse_units[0]); i++) {
		const char *e = starts_with(p, parse_units[i].name);

		if (e) {
			*usec = parse_units[i].usec;
			return e;
		}
	}
	return NULL;
}

/* *total += n, unless that reaches USEC_INFINITY. */
static int add_usec(uint64_t *total, uint64_t n)
{
	if (n >= USEC_INFINITY - *total)
		return -ERANGE;
	*total += n;
	return 0;
}

/*
 * One component at *pp (spaces already skipped): "NUMBER[.DIGITS]", then
 * optional spaces and a unit (default: seconds).  Adds it to *total in
 * microseconds and moves *pp past it.
 */
static int parse_component(const char **pp, uint64_t *total)
{
	const char *p = *pp, *number_end, *fraction = NULL, *q, *unit_start, *e;
	uint64_t whole, unit = USEC_PER_SEC, scale;
	int r;

	if (*p == '-')
		return -EINVAL;  /* systemd: -ERANGE, see parse_integer() */
	r = parse_integer(p, &whole, &number_end);
	if (r < 0)
		return r;
	if (*number_end == '.') {
		/* "1.5" and ".5"; the digits are added once the unit is known */
		fraction = number_end + 1;
		q = skip_digits(fraction);
	} else if (number_end == p) {
		return -EINVAL;
	} else {
		q = number_end;
	}

	/*
	 * A unit may follow after spaces.  Without spaces between them,
	 * something that is no unit ends the input ("12.34.56", "1x"); after
	 * spaces it starts the next component ("12.34 .56").
	 */
	unit_start = skip_space(q);
	e = match_unit(unit_start, &unit);
	if (!e) {
		if (unit_start == q && *q != '\0')
			return -EINVAL;
		e = unit_start;
	}

	if (whole >= USEC_INFINITY / unit)
		return -ERANGE;
	r = add_usec(total, whole * unit);
	if (r < 0)
		return r;

	if (fraction) {
		/* digits below the unit's resolution count for nothing */
		scale = unit / 10;
		for (q = fraction; is_digit(*q); q++, scale /= 10) {
			r = add_usec(total, (uint64_t) (*q - '0') * scale);
			if (r < 0)
				return r;
		}
		/* "5.", "3.s", "3. 1" */
		if (q == fraction)
			return -EINVAL;
	}

	*pp = e;
	return 0;
}

int duration_parse(const char *s, int64_t *ret)
{
	uint64_t usec = 0;
	bool any = false;
	const char *p, *e;

	if (!s)
		return -EINVAL;

	p = skip_space(s);
	e = starts_with(p, "infinity");
	if (e)
		/* a valid time span to systemd, but never an interval */
		return *skip_space(e) == '\0' ? -ERANGE : -EINVAL;

	for (;;) {
		int r;

		p = skip_space(p);
		if (*p == '\0')
			break;
		r = parse_component(&p, &usec);
		if (r < 0)
			return r;
		any = true;
	}
	if (!any)
		return -EINVAL;

	if (usec / USEC_PER_SEC > (uint64_t) DURATION_MAX)
		return -ERANGE;
	if (usec % USEC_PER_SEC != 0)
		return -EDOM;

	*ret = (int64_t) (usec / USEC_PER_SEC);
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
