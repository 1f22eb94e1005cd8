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

/*
 * C1 controls (U+0080 to U+009F) are controls too: UTF-8 "\302\233" is
 * CSI, which a terminal takes as ESC [.  findmnt shows them as \xc2\x9b.
 * Bytes that are no UTF-8 are shown as \xHH, as findmnt shows them in a
 * UTF-8 locale; printable characters beyond ASCII stay.
 */
static void test_c1_controls(void **state)
{
	(void) state;
	assert_escapes("/mnt/\xc2\x9b" "2J", "/mnt/\\xc2\\x9b2J");
	assert_escapes("\xc2\x80\xc2\x9f", "\\xc2\\x80\\xc2\\x9f");
	assert_escapes("\xc2\xa0\xc2\xbf", "\xc2\xa0\xc2\xbf");	/* NBSP, inverted ? */
	assert_escapes("\xe2\x9b\x84", "\xe2\x9b\x84");	/* U+26C4 holds 0x9b */
	assert_escapes("\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80");	/* U+1F600 */
	assert_escapes("a\x9b" "b", "a\\x9bb");	/* a lone byte */
	assert_escapes("\xc2", "\\xc2");	/* cut short */
	assert_escapes("\xc0\x9b", "\\xc0\\x9b");	/* overlong */
	assert_escapes("\xed\xa0\x80", "\\xed\\xa0\\x80");	/* a surrogate */
	assert_escapes("\xe4" "rger", "\\xe4rger");	/* Latin-1 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_controls),
		cmocka_unit_test(test_c1_controls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
