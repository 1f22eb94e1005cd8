/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "escape.h"

static void assert_escapes(const char *in, const char *expected)
{
	char *buf = NULL;
	const char *out = name_escape(in, &buf);

	assert_string_equal(out, expected);
	if (!buf)
		assert_ptr_equal(out, in);  /* nothing to escape: no copy */
	free(buf);
}

static void test_plain(void **state)
{
	(void) state;
	assert_escapes("/srv/data", "/srv/data");
	assert_escapes("", "");
	assert_escapes("/mnt/with space/$HOME/'q\"", "/mnt/with space/$HOME/'q\"");
	assert_escapes("a\\b", "a\\b");              /* a lone backslash stays */
	assert_escapes("/m\xc3\xa4h", "/m\xc3\xa4h"); /* UTF-8 stays */
}

static void test_controls(void **state)
{
	(void) state;
	assert_escapes("/tmp\n", "/tmp\\x0a");
	assert_escapes("\t\r\x1b[31m", "\\x09\\x0d\\x1b[31m");
	assert_escapes("a\x7f", "a\\x7f");
	assert_escapes("a\\x0a", "a\\x5cx0a");       /* reads as an escape */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_controls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
