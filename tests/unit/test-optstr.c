/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "optstr.h"

static void assert_found(const char *optstr, const char *expected)
{
	char *value = NULL;

	assert_int_equal(optstr_find_relatime_interval(optstr, &value), 1);
	assert_non_null(value);
	assert_string_equal(value, expected);
	free(value);
}

static void assert_absent(const char *optstr)
{
	char *value = (char *) "untouched";

	assert_int_equal(optstr_find_relatime_interval(optstr, &value), 0);
	assert_null(value);
}

static void test_find(void **state)
{
	(void) state;
	assert_found("x-relatime-interval=1h", "1h");
	assert_found("rw,noatime,x-relatime-interval=30min,nofail", "30min");
	assert_found("defaults,x-relatime-interval=\"1d 12h\"", "1d 12h");
	assert_found("x-relatime-interval=1h,x-relatime-interval=2h", "2h");
	assert_found("x-relatime-interval", "");
	assert_found("x-relatime-interval=", "");
	assert_found("x-relatime-interval=fast", "fast");
}

static void test_absent(void **state)
{
	(void) state;
	assert_absent(NULL);
	assert_absent("");
	assert_absent("rw,relatime");
	assert_absent("x-relatime-intervals=1h");
	assert_absent("x-relatime=1h");
	assert_absent("X-relatime-interval-foo=1h");
	assert_absent("context=\"x-relatime-interval=1h\"");
}

static void test_parse(void **state)
{
	char *value = NULL;
	int64_t sec = -1;

	(void) state;
	assert_int_equal(optstr_parse_relatime_interval("rw,x-relatime-interval=1d 12h", &sec, &value), 1);
	assert_int_equal(sec, 129600);
	assert_null(value);

	assert_int_equal(optstr_parse_relatime_interval("rw,x-relatime-interval=0", &sec, &value), 1);
	assert_int_equal(sec, 0);

	assert_int_equal(optstr_parse_relatime_interval("rw", &sec, &value), 0);
	assert_null(value);

	assert_int_equal(optstr_parse_relatime_interval("x-relatime-interval=fast", &sec, &value), -EINVAL);
	assert_string_equal(value, "fast");
	free(value);

	assert_int_equal(optstr_parse_relatime_interval("x-relatime-interval=100y", &sec, &value), -ERANGE);
	assert_string_equal(value, "100y");
	free(value);

	assert_int_equal(optstr_parse_relatime_interval("x-relatime-interval=0.5", &sec, &value), -EDOM);
	assert_string_equal(value, "0.5");
	free(value);

	assert_int_equal(optstr_parse_relatime_interval("x-relatime-interval", &sec, &value), -EINVAL);
	assert_string_equal(value, "");
	free(value);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_absent),
		cmocka_unit_test(test_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
