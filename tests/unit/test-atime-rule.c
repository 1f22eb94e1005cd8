/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "atime-rule.h"

#define NOW 1700000000

static struct atime_question relatime_question(time_t atime, time_t mtime,
					       time_t ctime, int64_t interval)
{
	struct atime_question q = {
		.mode = ATIME_RELATIME,
		.atime = { atime, 500 },
		.mtime = { mtime, 0 },
		.ctime = { ctime, 0 },
		.now = { NOW, 123 },
		.interval = interval,
	};
	return q;
}

static void test_relatime_mtime(void **state)
{
	struct atime_question q = relatime_question(NOW - 100, NOW - 50, NOW - 1000, 86400);
	struct atime_answer a;

	(void) state;
	atime_predict(&q, &a);
	assert_true(a.update);
	assert_false(a.never);
	assert_string_equal(a.reason, "atime <= mtime (modified since the last recorded access)");

	/* equal seconds, nanoseconds decide: atime ns 500 > mtime ns 0 */
	q = relatime_question(NOW - 100, NOW - 100, NOW - 1000, 86400);
	atime_predict(&q, &a);
	assert_false(a.update);
	q.mtime.tv_nsec = 500;  /* equal: atime <= mtime */
	atime_predict(&q, &a);
	assert_true(a.update);
}

static void test_relatime_ctime(void **state)
{
	struct atime_question q = relatime_question(NOW - 100, NOW - 1000, NOW - 10, 86400);
	struct atime_answer a;

	(void) state;
	atime_predict(&q, &a);
	assert_true(a.update);
	assert_string_equal(a.reason, "atime <= ctime (inode changed since the last recorded access)");
}

static void test_relatime_interval(void **state)
{
	struct atime_question q;
	struct atime_answer a;

	(void) state;
	/* exactly one interval old: updates (>=) */
	q = relatime_question(NOW - 3600, NOW - 9000, NOW - 9000, 3600);
	atime_predict(&q, &a);
	assert_true(a.update);
	assert_string_equal(a.reason, "atime is at least one interval old");

	/* one second younger: no update, next at atime + interval */
	q = relatime_question(NOW - 3599, NOW - 9000, NOW - 9000, 3600);
	atime_predict(&q, &a);
	assert_false(a.update);
	assert_false(a.never);
	assert_true(a.has_next);
	assert_int_equal(a.next_update, NOW + 1);

	/* interval 0: any read updates */
	q = relatime_question(NOW - 1, NOW - 9000, NOW - 9000, 0);
	atime_predict(&q, &a);
	assert_true(a.update);

	/* upstream default */
	q = relatime_question(NOW - 3600, NOW - 9000, NOW - 9000, 86400);
	atime_predict(&q, &a);
	assert_false(a.update);
	assert_int_equal(a.next_update, NOW - 3600 + 86400);

	/* largest interval */
	q = relatime_question(NOW - 10, NOW - 9000, NOW - 9000, 2147483647);
	atime_predict(&q, &a);
	assert_false(a.update);
	assert_int_equal((int64_t) a.next_update, (int64_t) NOW - 10 + 2147483647);

	/* atime in the future */
	q = relatime_question(NOW + 100, NOW - 9000, NOW - 9000, 60);
	atime_predict(&q, &a);
	assert_false(a.update);
	assert_int_equal(a.next_update, NOW + 160);
}

static void test_strictatime(void **state)
{
	struct atime_question q = relatime_question(NOW - 1, NOW - 9000, NOW - 9000, 86400);
	struct atime_answer a;

	(void) state;
	q.mode = ATIME_STRICTATIME;
	atime_predict(&q, &a);
	assert_true(a.update);

	q.atime = q.now;
	atime_predict(&q, &a);
	assert_false(a.update);
	assert_false(a.never);
	assert_string_equal(a.reason, "atime already equals the current time");
}

static void test_never(void **state)
{
	struct atime_question q = relatime_question(NOW - 100, NOW - 50, NOW - 50, 0);
	struct atime_answer a;

	(void) state;
	q.mode = ATIME_NOATIME;
	atime_predict(&q, &a);
	assert_false(a.update);
	assert_true(a.never);
	assert_false(a.has_next);
	assert_string_equal(a.reason, "the filesystem is mounted noatime");

	q.mode = ATIME_STRICTATIME;
	q.readonly = true;
	atime_predict(&q, &a);
	assert_true(a.never);
	assert_string_equal(a.reason, "the filesystem is read-only");

	q.readonly = false;
	q.nodiratime = true;
	atime_predict(&q, &a);
	assert_true(a.update);  /* not a directory */
	q.is_dir = true;
	atime_predict(&q, &a);
	assert_true(a.never);
	assert_string_equal(a.reason, "directory on a nodiratime mount");

	q.is_dir = false;
	q.inode_noatime = true;
	atime_predict(&q, &a);
	assert_true(a.never);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_relatime_mtime),
		cmocka_unit_test(test_relatime_ctime),
		cmocka_unit_test(test_relatime_interval),
		cmocka_unit_test(test_strictatime),
		cmocka_unit_test(test_never),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
