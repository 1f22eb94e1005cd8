/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "json.h"

static void test_layout(void **state)
{
	struct json_writer w;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void) state;
	assert_non_null(f);
	json_init(&w, f);
	json_object_open(&w, NULL);
	json_array_open(&w, "filesystems");
	json_object_open(&w, NULL);
	json_string(&w, "target", "/");
	json_int(&w, "interval", 86400);
	json_null(&w, "override");
	json_object_close(&w);
	json_object_open(&w, NULL);
	json_uint(&w, "updates", UINT64_MAX);
	json_int(&w, "override", -1);
	json_bool(&w, "ok", true);
	json_string(&w, "none", NULL);
	json_object_close(&w);
	json_array_close(&w);
	json_array_open(&w, "empty");
	json_array_close(&w);
	json_object_close(&w);
	json_finish(&w);
	fclose(f);

	/* the libsmartcols layout, as findmnt --json prints it */
	assert_string_equal(text,
		"{\n"
		"   \"filesystems\": [\n"
		"      {\n"
		"         \"target\": \"/\",\n"
		"         \"interval\": 86400,\n"
		"         \"override\": null\n"
		"      },{\n"
		"         \"updates\": 18446744073709551615,\n"
		"         \"override\": -1,\n"
		"         \"ok\": true,\n"
		"         \"none\": null\n"
		"      }\n"
		"   ],\n"
		"   \"empty\": []\n"
		"}\n");
	free(text);
}

static void test_escapes(void **state)
{
	struct json_writer w;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void) state;
	json_init(&w, f);
	json_object_open(&w, NULL);
	json_string(&w, "k\"ey", "a\"b\\c\nd\te\x01" "f\x7f" "g \xc3\xa9");
	json_object_close(&w);
	fclose(f);
	assert_string_equal(text,
		"{\n   \"k\\\"ey\": \"a\\\"b\\\\c\\nd\\te\\u0001f\\u007fg \xc3\xa9\"\n}");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_escapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
