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

/*
 * vfat stores the date only: an update within the day of the stored
 * atime changes nothing, whatever the rule says; the next one can come
 * when the day is over, or the interval if that is longer.
 */
static void test_coarse_granularity(void **state)
{
	const time_t day0 = NOW - 3600;	/* stored: the start of a FAT day */
	struct atime_question q = relatime_question(day0, NOW - 100000, NOW - 100000, 600);
	struct atime_answer a;

	(void) state;
	q.atime.tv_nsec = 0;
	q.granularity = 86400;
	atime_predict(&q, &a);	/* the rule: one hour >= 10 minutes */
	assert_false(a.update);
	assert_false(a.never);
	assert_true(a.has_next);
	assert_int_equal(a.next_update, day0 + 86400);
	assert_string_equal(a.reason,
			    "the filesystem stores only the date of the last access, and that date would not change");

	q.mtime.tv_sec = NOW - 10;	/* modified today: still the same date */
	atime_predict(&q, &a);
	assert_false(a.update);
	assert_int_equal(a.next_update, day0 + 86400);

	q.interval = 2 * 86400;	/* an interval longer than the step is kept */
	q.mtime.tv_sec = NOW - 100000;
	atime_predict(&q, &a);
	assert_false(a.update);
	assert_int_equal(a.next_update, day0 + 2 * 86400);
	assert_string_equal(a.reason, "atime is newer than mtime and ctime and younger than the interval");

	q.interval = 600;	/* the next day */
	q.now.tv_sec = day0 + 86400;
	atime_predict(&q, &a);
	assert_true(a.update);

	q.mode = ATIME_STRICTATIME;	/* the step holds for strictatime too */
	q.now.tv_sec = day0 + 5;
	atime_predict(&q, &a);
	assert_false(a.update);
	assert_int_equal(a.next_update, day0 + 86400);

	q.atime.tv_nsec = 1;	/* not a stored step: no assumption */
	atime_predict(&q, &a);
	assert_true(a.update);

	q.atime.tv_nsec = 0;	/* a step of 1 s is no step */
	q.granularity = 1;
	atime_predict(&q, &a);
	assert_true(a.update);

	q.mode = ATIME_RELATIME;	/* atime in the future: a new date is stored */
	q.granularity = 86400;
	q.now.tv_sec = day0 - 10;
	q.mtime.tv_sec = day0 + 5;	/* a clock set back: mtime after atime */
	atime_predict(&q, &a);
	assert_true(a.update);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_relatime_mtime),
		cmocka_unit_test(test_relatime_ctime),
		cmocka_unit_test(test_relatime_interval),
		cmocka_unit_test(test_strictatime),
		cmocka_unit_test(test_never),
		cmocka_unit_test(test_coarse_granularity),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
