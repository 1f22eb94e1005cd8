/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "duration.h"

static void assert_parses(const char *s, int64_t expected)
{
	int64_t v = -42;
	int r = duration_parse(s, &v);

	if (r != 0 || v != expected)
		fail_msg("duration_parse(\"%s\"): r=%d value=%lld, expected %lld",
			 s, r, (long long) v, (long long) expected);
}

static void assert_fails(const char *s, int expected_error)
{
	int64_t v = -42;
	int r = duration_parse(s, &v);

	if (r != expected_error || v != -42)
		fail_msg("duration_parse(\"%s\"): r=%d value=%lld, expected error %d and no value",
			 s, r, (long long) v, expected_error);
}

/*
 * systemd as the oracle: each input with what "systemd-analyze timespan"
 * of systemd 254 says about it (microseconds, or the error), and what
 * duration_parse() makes of it.  Every time span systemd accepts that is
 * a whole number of seconds from 0 to DURATION_MAX is accepted with that
 * value and formatted as systemd's "Human:" line; a sub-second one is
 * -EDOM, a larger one (or infinity) -ERANGE; what systemd rejects is
 * rejected, negative numbers as -EINVAL where systemd says ERANGE.
 * tests/unit/duration-systemd.sh compares the "systemd" column with
 * systemd-analyze itself (test-duration --systemd-table prints it).
 */
struct systemd_case {
	const char *input;
	const char *systemd;  /* microseconds, "EINVAL" or "ERANGE" */
	int error;            /* duration_parse(): 0 or a negative errno */
	int64_t seconds;      /* when error is 0 */
	const char *human;    /* when error is 0: systemd's Human: line */
};

static const struct systemd_case systemd_cases[] = {
	{ "1000ms", "1000000", 0, 1, "1s" },
	{ ".5h", "1800000000", 0, 1800, "30min" },
	{ "1.5h", "5400000000", 0, 5400, "1h 30min" },
	{ "+5", "5000000", 0, 5, "5s" },
	{ "2000000us", "2000000", 0, 2, "2s" },
	{ "1.5s 500ms", "2000000", 0, 2, "2s" },
	{ "1d 12h", "129600000000", 0, 129600, "1d 12h" },
	{ "2w", "1209600000000", 0, 1209600, "2w" },
	{ "0", "0", 0, 0, "0" },
	{ "3600", "3600000000", 0, 3600, "1h" },
	{ "90s", "90000000", 0, 90, "1min 30s" },
	{ "30min", "1800000000", 0, 1800, "30min" },
	{ "1h30min", "5400000000", 0, 5400, "1h 30min" },
	{ "1h 30min", "5400000000", 0, 5400, "1h 30min" },
	{ "1h30", "3630000000", 0, 3630, "1h 30s" },
	{ "1 h", "3600000000", 0, 3600, "1h" },
	{ "1 2", "3000000", 0, 3, "3s" },
	{ "1s1", "2000000", 0, 2, "2s" },
	{ "1s+5", "6000000", 0, 6, "6s" },
	{ "1 +5", "6000000", 0, 6, "6s" },
	{ "+05", "5000000", 0, 5, "5s" },
	{ "01", "1000000", 0, 1, "1s" },
	{ "1w1d", "691200000000", 0, 691200, "1w 1d" },
	{ "1M", "2629800000000", 0, 2629800, "1month" },
	{ "1y", "31557600000000", 0, 31557600, "1y" },
	{ "1month", "2629800000000", 0, 2629800, "1month" },
	{ "1months", "2629800000000", 0, 2629800, "1month" },
	{ "1minute", "60000000", 0, 60, "1min" },
	{ "1hours", "3600000000", 0, 3600, "1h" },
	{ "1m", "60000000", 0, 60, "1min" },
	{ "1msec", "1000", -EDOM, 0, NULL },
	{ "1usec", "1", -EDOM, 0, NULL },
	{ "60000000us", "60000000", 0, 60, "1min" },
	{ "1000000\xc2\xb5" "s", "1000000", 0, 1, "1s" },
	{ "1000000\xce\xbc" "s", "1000000", 0, 1, "1s" },
	{ "0.5d", "43200000000", 0, 43200, "12h" },
	{ "1.5min", "90000000", 0, 90, "1min 30s" },
	{ "12.34 .56", "12900000", -EDOM, 0, NULL },
	{ "1.5s.5", "2000000", 0, 2, "2s" },
	{ "0.0000001s", "0", 0, 0, "0" },
	{ "1.0000000001s", "1000000", 0, 1, "1s" },
	{ "2147483647", "2147483647000000", 0, 2147483647, "68y 2w 4d 3h 14min 7s" },
	{ "2147483647000ms", "2147483647000000", 0, 2147483647, "68y 2w 4d 3h 14min 7s" },
	{ "68y 2w 4d 3h 14min 7s", "2147483647000000", 0, 2147483647, "68y 2w 4d 3h 14min 7s" },
	{ " 5s", "5000000", 0, 5, "5s" },
	{ "5s ", "5000000", 0, 5, "5s" },
	{ "\t1h\n", "3600000000", 0, 3600, "1h" },
	{ "\v5", "5000000", 0, 5, "5s" },
	{ "\f+5", "5000000", 0, 5, "5s" },
	{ "1 \v2", "3000000", 0, 3, "3s" },
	{ "1500ms", "1500000", -EDOM, 0, NULL },
	{ "0.5s", "500000", -EDOM, 0, NULL },
	{ "1us", "1", -EDOM, 0, NULL },
	{ "0.5", "500000", -EDOM, 0, NULL },
	{ ".5", "500000", -EDOM, 0, NULL },
	{ "1.5", "1500000", -EDOM, 0, NULL },
	{ "1.001min", "60060000", -EDOM, 0, NULL },
	{ "999ms", "999000", -EDOM, 0, NULL },
	{ "1.5us", "1", -EDOM, 0, NULL },
	{ "5.", "EINVAL", -EINVAL, 0, NULL },
	{ "1H", "EINVAL", -EINVAL, 0, NULL },
	{ "1mins", "EINVAL", -EINVAL, 0, NULL },
	{ "1secs", "EINVAL", -EINVAL, 0, NULL },
	{ "1hrs", "EINVAL", -EINVAL, 0, NULL },
	{ "1mo", "EINVAL", -EINVAL, 0, NULL },
	{ "1ns", "EINVAL", -EINVAL, 0, NULL },
	{ "1nsec", "EINVAL", -EINVAL, 0, NULL },
	{ "-1", "ERANGE", -EINVAL, 0, NULL },
	{ "-0", "ERANGE", -EINVAL, 0, NULL },
	{ " -1", "ERANGE", -EINVAL, 0, NULL },
	{ "1h -5", "ERANGE", -EINVAL, 0, NULL },
	{ "1h-5", "ERANGE", -EINVAL, 0, NULL },
	{ "\v-5", "ERANGE", -EINVAL, 0, NULL },
	{ "", "EINVAL", -EINVAL, 0, NULL },
	{ " ", "EINVAL", -EINVAL, 0, NULL },
	{ "\t\n", "EINVAL", -EINVAL, 0, NULL },
	{ "1 2x", "EINVAL", -EINVAL, 0, NULL },
	{ "1e3", "EINVAL", -EINVAL, 0, NULL },
	{ "0x10", "EINVAL", -EINVAL, 0, NULL },
	{ "1,5", "EINVAL", -EINVAL, 0, NULL },
	{ "1.h", "EINVAL", -EINVAL, 0, NULL },
	{ "3.s", "EINVAL", -EINVAL, 0, NULL },
	{ "5 .", "EINVAL", -EINVAL, 0, NULL },
	{ ".", "EINVAL", -EINVAL, 0, NULL },
	{ "+", "EINVAL", -EINVAL, 0, NULL },
	{ "++5", "EINVAL", -EINVAL, 0, NULL },
	{ "+ 5", "EINVAL", -EINVAL, 0, NULL },
	{ "1.5e", "EINVAL", -EINVAL, 0, NULL },
	{ "12.34.56", "EINVAL", -EINVAL, 0, NULL },
	{ "1x", "EINVAL", -EINVAL, 0, NULL },
	{ "1\v", "EINVAL", -EINVAL, 0, NULL },
	{ "5\vs", "EINVAL", -EINVAL, 0, NULL },
	{ "\v.5", "EINVAL", -EINVAL, 0, NULL },
	{ "fast", "EINVAL", -EINVAL, 0, NULL },
	{ "h", "EINVAL", -EINVAL, 0, NULL },
	{ "1h junk", "EINVAL", -EINVAL, 0, NULL },
	{ "infinityx", "EINVAL", -EINVAL, 0, NULL },
	{ "1 infinity", "EINVAL", -EINVAL, 0, NULL },
	{ "2147483648", "2147483648000000", -ERANGE, 0, NULL },
	{ "2147483647 1", "2147483648000000", -ERANGE, 0, NULL },
	{ "2147483647.5", "2147483647500000", -EDOM, 0, NULL },
	{ "68y 1M", "2148546600000000", -ERANGE, 0, NULL },
	{ "24856d", "2147558400000000", -ERANGE, 0, NULL },
	{ "99999999999999999999", "ERANGE", -ERANGE, 0, NULL },
	{ "9223372036854775808us", "ERANGE", -ERANGE, 0, NULL },
	{ "18446744073709s", "ERANGE", -ERANGE, 0, NULL },
	{ "9223372036854775807us", "9223372036854775807", -ERANGE, 0, NULL },
	{ "1.0000001s", "1000000", 0, 1, "1s" },
	{ "1.000001s", "1000001", -EDOM, 0, NULL },
	{ "infinity", "18446744073709551615", -ERANGE, 0, NULL },
	{ " infinity ", "18446744073709551615", -ERANGE, 0, NULL },
};

#define N_SYSTEMD_CASES (sizeof(systemd_cases) / sizeof(systemd_cases[0]))

/* Does the expectation follow from systemd's answer? */
static void check_case_against_systemd(const struct systemd_case *c)
{
	uint64_t usec;
	char *end;

	if (strcmp(c->systemd, "EINVAL") == 0 || strcmp(c->systemd, "ERANGE") == 0) {
		if (c->error == 0)
			fail_msg("\"%s\": systemd rejects it (%s), the table accepts it",
				 c->input, c->systemd);
		return;
	}
	errno = 0;
	usec = strtoull(c->systemd, &end, 10);
	assert_int_equal(errno, 0);
	assert_true(*end == '\0');
	if (usec / 1000000 > (uint64_t) DURATION_MAX)
		assert_int_equal(c->error, -ERANGE);
	else if (usec % 1000000 != 0)
		assert_int_equal(c->error, -EDOM);
	else if (c->error != 0 || c->seconds != (int64_t) (usec / 1000000))
		fail_msg("\"%s\": systemd says %s us, the table %d/%lld",
			 c->input, c->systemd, c->error, (long long) c->seconds);
}

static void test_systemd_table(void **state)
{
	char buf[DURATION_FORMAT_MAX];

	(void) state;
	assert_true(N_SYSTEMD_CASES >= 40);
	for (size_t i = 0; i < N_SYSTEMD_CASES; i++) {
		const struct systemd_case *c = &systemd_cases[i];

		check_case_against_systemd(c);
		if (c->error == 0) {
			assert_parses(c->input, c->seconds);
			assert_non_null(c->human);
			duration_format(c->seconds, buf, sizeof(buf));
			if (strcmp(buf, c->human) != 0)
				fail_msg("\"%s\": formatted as \"%s\", systemd says \"%s\"",
					 c->input, buf, c->human);
		} else {
			assert_fails(c->input, c->error);
		}
	}
}

/* For duration-systemd.sh: input, systemd's answer, Human: line, NUL each. */
static int print_systemd_table(void)
{
	for (size_t i = 0; i < N_SYSTEMD_CASES; i++) {
		const struct systemd_case *c = &systemd_cases[i];

		fputs(c->input, stdout);
		putchar('\0');
		fputs(c->systemd, stdout);
		putchar('\0');
		fputs(c->human ? c->human : "", stdout);
		putchar('\0');
	}
	return fflush(stdout) == 0 ? 0 : 1;
}

static void test_plain_seconds(void **state)
{
	(void) state;
	assert_parses("0", 0);
	assert_parses("1", 1);
	assert_parses("3600", 3600);
	assert_parses("007", 7);
	assert_parses("2147483647", 2147483647);
	assert_parses("02147483647", 2147483647);
}

static void test_units(void **state)
{
	(void) state;
	assert_parses("90s", 90);
	assert_parses("90sec", 90);
	assert_parses("1second", 1);
	assert_parses("2seconds", 2);
	assert_parses("30min", 1800);
	assert_parses("30m", 1800);
	assert_parses("1minute", 60);
	assert_parses("2minutes", 120);
	assert_parses("1h", 3600);
	assert_parses("1hr", 3600);
	assert_parses("1hour", 3600);
	assert_parses("3hours", 10800);
	assert_parses("1d", 86400);
	assert_parses("1day", 86400);
	assert_parses("2days", 172800);
	assert_parses("2w", 1209600);
	assert_parses("1week", 604800);
	assert_parses("2weeks", 1209600);
	assert_parses("1M", 2629800);
	assert_parses("1month", 2629800);
	assert_parses("2months", 5259600);
	assert_parses("1y", 31557600);
	assert_parses("1year", 31557600);
	assert_parses("2years", 63115200);
}

static void test_combinations(void **state)
{
	(void) state;
	assert_parses("1d 12h", 129600);
	assert_parses("1h30min", 5400);
	assert_parses("1h 30min", 5400);
	assert_parses("1h30m", 5400);
	assert_parses("5 min", 300);
	assert_parses("1h 30", 3630);
	assert_parses("1y 1M 1w 1d 1h 1min 1s",
		      31557600 + 2629800 + 604800 + 86400 + 3600 + 60 + 1);
	assert_parses("1.5h", 5400);
	assert_parses("1.5min", 90);
	assert_parses("0.5d", 43200);
	assert_parses("2.0", 2);
	assert_parses("1.000000000s", 1);
	assert_parses("1.0000000000000s", 1);  /* zeros beyond 9 digits */
}

static void test_whitespace(void **state)
{
	(void) state;
	assert_parses(" 3600", 3600);
	assert_parses("3600 ", 3600);
	assert_parses("\t1h\n", 3600);
	assert_parses("  1d   12h  ", 129600);
	assert_fails("", -EINVAL);
	assert_fails(" ", -EINVAL);
	assert_fails("\t\n", -EINVAL);
}

static void test_garbage(void **state)
{
	(void) state;
	assert_fails("fast", -EINVAL);
	assert_fails("-1", -EINVAL);
	assert_fails("-0", -EINVAL);
	assert_fails("1x", -EINVAL);
	assert_fails("1hx", -EINVAL);
	assert_fails("1h junk", -EINVAL);
	assert_fails("h", -EINVAL);
	assert_fails("1mins", -EINVAL);
	assert_fails("1H", -EINVAL);
	assert_fails("1.", -EINVAL);
	assert_fails("1..5", -EINVAL);
	assert_fails("1e3", -EINVAL);
	assert_fails("0x10", -EINVAL);
	assert_fails("1,5h", -EINVAL);
	assert_fails("1h-5min", -EINVAL);
	assert_fails("-9223372036854775809", -EINVAL);
	assert_fails("\v-99999999999999999999", -EINVAL);
	assert_fails("1\xce", -EINVAL);       /* half a mu */
	assert_fails("1\xce\xbc", -EINVAL);   /* mu without s */
	assert_fails(NULL, -EINVAL);
}

static void test_sub_second(void **state)
{
	(void) state;
	assert_fails("0.5", -EDOM);
	assert_fails("0.5s", -EDOM);
	assert_fails("1.001min", -EDOM);
	assert_fails("0.1", -EDOM);
	assert_fails("1ms", -EDOM);
	assert_fails("1us", -EDOM);
	assert_fails("1h 1us", -EDOM);
	/* microseconds, as systemd: finer digits count for nothing */
	assert_parses("1.0000009s", 1);
	assert_fails("1.000001s", -EDOM);
	assert_parses("0.5s 500ms", 1);
	assert_parses("0.5s 0.5", 1);
}

static void test_overflow(void **state)
{
	(void) state;
	assert_fails("2147483648", -ERANGE);
	assert_fails("99999999999999999999999999", -ERANGE);
	assert_fails("68y 1M", -ERANGE);
	assert_fails("69y", -ERANGE);
	assert_fails("24856d", -ERANGE);
	assert_fails("2147483647 1", -ERANGE);
	assert_fails("2147483647s 1s", -ERANGE);
	assert_parses("24855d", 24855LL * 86400);
	assert_parses("2147483646 1", 2147483647);
	/* where systemd's microseconds overflow */
	assert_fails("9223372036854775808", -ERANGE);
	assert_fails("18446744073709s", -ERANGE);
}

static void assert_formats(int64_t v, const char *expected)
{
	char buf[DURATION_FORMAT_MAX];

	duration_format(v, buf, sizeof(buf));
	assert_string_equal(buf, expected);
}

static void test_format(void **state)
{
	(void) state;
	assert_formats(0, "0");
	assert_formats(1, "1s");
	assert_formats(59, "59s");
	assert_formats(60, "1min");
	assert_formats(90, "1min 30s");
	assert_formats(1800, "30min");
	assert_formats(3600, "1h");
	assert_formats(5400, "1h 30min");
	assert_formats(86400, "1d");
	assert_formats(129600, "1d 12h");
	assert_formats(1209600, "2w");
	assert_formats(2629800, "1month");
	assert_formats(31557600, "1y");
	assert_formats(2147483647, "68y 2w 4d 3h 14min 7s");
	assert_formats(-1, "-1");
}

static void test_format_small_buffer(void **state)
{
	char buf[8];

	(void) state;
	memset(buf, 'X', sizeof(buf));
	duration_format(2147483647, buf, sizeof(buf));
	assert_true(strlen(buf) < sizeof(buf));
	assert_string_equal(buf, "68y 2w");
}

static void test_round_trip(void **state)
{
	static const int64_t values[] = {
		0, 1, 59, 60, 61, 3599, 3600, 3601, 86399, 86400, 86401,
		604799, 604800, 2629799, 2629800, 2629801, 31557599, 31557600,
		31557601, 123456789, 2147483646, 2147483647,
	};
	char buf[DURATION_FORMAT_MAX];

	(void) state;
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		int64_t back = -1;

		duration_format(values[i], buf, sizeof(buf));
		assert_int_equal(duration_parse(buf, &back), 0);
		assert_int_equal(back, values[i]);
	}
	/* and a sweep with a prime stride */
	for (int64_t v = 0; v <= 2147483647 - 7919 * 1031; v += 7919 * 1031) {
		int64_t back = -1;

		duration_format(v, buf, sizeof(buf));
		assert_int_equal(duration_parse(buf, &back), 0);
		assert_int_equal(back, v);
	}
}

static void test_strerror(void **state)
{
	(void) state;
	assert_non_null(strstr(duration_strerror(-ERANGE), "2147483647"));
	assert_non_null(strstr(duration_strerror(-EDOM), "whole number"));
	assert_non_null(strstr(duration_strerror(-EINVAL), "not a duration"));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_systemd_table),
		cmocka_unit_test(test_plain_seconds),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_combinations),
		cmocka_unit_test(test_whitespace),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_sub_second),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_format_small_buffer),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_strerror),
	};

	if (argc == 2 && strcmp(argv[1], "--systemd-table") == 0)
		return print_systemd_table();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
