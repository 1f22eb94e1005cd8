/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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
	assert_fails("+5", -EINVAL);
	assert_fails("1x", -EINVAL);
	assert_fails("1hx", -EINVAL);
	assert_fails("1h junk", -EINVAL);
	assert_fails("h", -EINVAL);
	assert_fails("1ms", -EINVAL);
	assert_fails("1us", -EINVAL);
	assert_fails("1mins", -EINVAL);
	assert_fails("1H", -EINVAL);
	assert_fails("1.", -EINVAL);
	assert_fails(".5h", -EINVAL);
	assert_fails("1..5", -EINVAL);
	assert_fails("1e3", -EINVAL);
	assert_fails("0x10", -EINVAL);
	assert_fails("1,5h", -EINVAL);
	assert_fails("infinity", -EINVAL);
	assert_fails("1h-5min", -EINVAL);
	assert_fails(NULL, -EINVAL);
}

static void test_sub_second(void **state)
{
	(void) state;
	assert_fails("0.5", -EDOM);
	assert_fails("0.5s", -EDOM);
	assert_fails("1.001min", -EDOM);
	assert_fails("1.0000000001s", -EDOM);
	assert_fails("0.1", -EDOM);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
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

	return cmocka_run_group_tests(tests, NULL, NULL);
}
