/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel interface against fake /proc/sys/fs and /sys/fs/relatime
 * trees in a temporary directory.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <cmocka.h>

#include "decimal.h"
#include "interval.h"
#include "procsys.h"
#include "sysfs.h"

struct fixture {
	char root[64];
	char proc[128];
	char sys[128];
};

static void write_file(const char *dir, const char *name, const char *content)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	assert_int_equal(fclose(f), 0);
}

static char *read_file(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void make_fs_dir(struct fixture *f, const char *majmin, const char *interval,
			const char *updates, const char *skips)
{
	char dir[256];

	snprintf(dir, sizeof(dir), "%s/%s", f->sys, majmin);
	assert_int_equal(mkdir(dir, 0755), 0);
	write_file(dir, "relatime_interval", interval);
	if (updates)
		write_file(dir, "atime_updates", updates);
	if (skips)
		write_file(dir, "relatime_skips", skips);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	snprintf(f->root, sizeof(f->root), "/tmp/atimectl-sysfs-XXXXXX");
	assert_non_null(mkdtemp(f->root));
	snprintf(f->proc, sizeof(f->proc), "%s/proc", f->root);
	snprintf(f->sys, sizeof(f->sys), "%s/sys", f->root);
	assert_int_equal(mkdir(f->proc, 0755), 0);
	assert_int_equal(mkdir(f->sys, 0755), 0);
	write_file(f->proc, "relatime_interval", "600\n");
	make_fs_dir(f, "8:16", "3600\n", "5\n", "7\n");
	make_fs_dir(f, "8:32", "-1\n", "18446744073709551615\n", "0\n");
	make_fs_dir(f, "8:48", "-1\n", NULL, NULL);
	setenv("ATIMECTL_PROC_SYS_FS", f->proc, 1);
	setenv("ATIMECTL_SYSFS_RELATIME", f->sys, 1);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->root);
	if (system(cmd) != 0)
		return -1;
	unsetenv("ATIMECTL_PROC_SYS_FS");
	unsetenv("ATIMECTL_SYSFS_RELATIME");
	free(f);
	return 0;
}

static void test_read(void **state)
{
	struct fs_read_errors errors;
	struct fs_kernel_state st;
	struct global_interval g;
	enum interval_origin origin;
	struct kernel k;
	int64_t v = 0;

	(void) state;
	assert_int_equal(kernel_open(&k), 0);
	assert_true(kernel_has_fs_interval(&k));
	assert_int_equal(kernel_read_global(&k, &v), 0);
	assert_int_equal(v, 600);

	kernel_read_fs(&k, makedev(8, 16), KERNEL_READ_OVERRIDE | KERNEL_READ_COUNTERS, &st, NULL);
	assert_true(st.has_dir);
	assert_true(st.has_override);
	assert_int_equal(st.override, 3600);
	assert_true(st.has_updates);
	assert_true(st.has_skips);
	assert_int_equal(st.updates, 5);
	assert_int_equal(st.skips, 7);

	global_interval_read(&k, &g);
	assert_true(g.tunable);
	assert_int_equal(effective_interval(&g, &st, &origin), 3600);
	assert_int_equal(origin, ORIGIN_OVERRIDE);

	kernel_read_fs(&k, makedev(8, 32), KERNEL_READ_OVERRIDE | KERNEL_READ_COUNTERS, &st, NULL);
	assert_true(st.has_dir);
	assert_false(st.has_override);
	assert_true(st.has_updates);
	assert_true(st.has_skips);
	assert_true(st.updates == UINT64_MAX);
	assert_int_equal(effective_interval(&g, &st, &origin), 600);
	assert_int_equal(origin, ORIGIN_GLOBAL);

	/* counters missing in a directory that exists: an error, not "none" */
	assert_int_equal(kernel_read_fs(&k, makedev(8, 48),
					KERNEL_READ_OVERRIDE | KERNEL_READ_COUNTERS, &st, &errors), -ENOENT);
	assert_int_equal(st.error, -ENOENT);
	/* each noted for the caller's report */
	assert_int_equal(errors.error[FS_FILE_INTERVAL], 0);
	assert_int_equal(errors.error[FS_FILE_UPDATES], -ENOENT);
	assert_int_equal(errors.error[FS_FILE_SKIPS], -ENOENT);
	assert_false(errors.malformed[FS_FILE_UPDATES]);
	assert_true(st.has_dir);
	assert_false(st.bad_override);
	assert_false(st.has_updates);
	assert_false(st.has_skips);

	/* no directory */
	kernel_read_fs(&k, makedev(8, 64), KERNEL_READ_OVERRIDE | KERNEL_READ_COUNTERS, &st, NULL);
	assert_false(st.has_dir);
	assert_false(st.has_override);
	assert_false(st.has_updates);
	assert_false(st.has_skips);
	assert_int_equal(st.error, 0);
	assert_false(kernel_fs_has_dir(&k, makedev(8, 64)));
	assert_true(kernel_fs_has_dir(&k, makedev(8, 16)));

	kernel_close(&k);
}

static void test_list(void **state)
{
	struct kernel k;
	dev_t *list = NULL;
	size_t n = 0;

	(void) state;
	assert_int_equal(kernel_open(&k), 0);
	assert_int_equal(kernel_list_fs(&k, &list, &n), 0);
	assert_int_equal(n, 3);
	assert_true(list[0] == makedev(8, 16));
	assert_true(list[2] == makedev(8, 48));
	assert_true(devno_list_contains(list, n, makedev(8, 32)));
	assert_false(devno_list_contains(list, n, makedev(8, 33)));
	free(list);
	kernel_close(&k);
}

static void test_write(void **state)
{
	struct fixture *f = *state;
	char dir[256], buf[64];
	struct kernel k;

	assert_int_equal(kernel_open(&k), 0);
	assert_int_equal(kernel_write_fs(&k, makedev(8, 32), 90), 0);
	snprintf(dir, sizeof(dir), "%s/8:32", f->sys);
	assert_string_equal(read_file(dir, "relatime_interval", buf, sizeof(buf)), "90\n");
	assert_int_equal(kernel_write_fs(&k, makedev(8, 32), -1), 0);
	assert_string_equal(read_file(dir, "relatime_interval", buf, sizeof(buf)), "-1\n");
	/* no directory: ENOENT, nothing created */
	assert_int_equal(kernel_write_fs(&k, makedev(8, 99), 5), -ENOENT);
	snprintf(dir, sizeof(dir), "%s/8:99", f->sys);
	assert_int_not_equal(access(dir, F_OK), 0);

	assert_int_equal(kernel_write_global(&k, 7200), 0);
	assert_string_equal(read_file(f->proc, "relatime_interval", buf, sizeof(buf)), "7200\n");
	kernel_close(&k);
}

static void test_unpatched(void **state)
{
	struct fixture *f = *state;
	struct fs_kernel_state st;
	struct global_interval g;
	enum interval_origin origin;
	char missing[256];
	struct kernel k;
	int64_t v;

	snprintf(missing, sizeof(missing), "%s/none", f->root);
	setenv("ATIMECTL_PROC_SYS_FS", missing, 1);
	setenv("ATIMECTL_SYSFS_RELATIME", missing, 1);

	assert_int_equal(kernel_open(&k), 0);
	assert_false(kernel_has_fs_interval(&k));
	assert_int_equal(kernel_read_global(&k, &v), -ENOENT);
	kernel_read_fs(&k, makedev(8, 16), KERNEL_READ_OVERRIDE, &st, NULL);
	assert_false(st.has_dir);
	global_interval_read(&k, &g);
	assert_false(g.tunable);
	assert_int_equal(effective_interval(&g, &st, &origin), 86400);
	assert_int_equal(origin, ORIGIN_KERNEL);
	assert_int_equal(kernel_write_fs(&k, makedev(8, 16), 5), -ENOTSUP);
	assert_int_equal(kernel_write_global(&k, 5), -ENOENT);
	kernel_close(&k);

	setenv("ATIMECTL_PROC_SYS_FS", f->proc, 1);
	setenv("ATIMECTL_SYSFS_RELATIME", f->sys, 1);
}

/* An override the kernel cannot have written is an error, not "none". */
static void test_bad_override(void **state)
{
	static const char *const bad[] = {
		"garbage\n", "-5\n", "-2\n", "2147483648\n", "", "\n", "1h\n", "12 34\n",
	};
	struct fixture *f = *state;
	struct fs_read_errors errors;
	struct fs_kernel_state st;
	char dir[256], cmd[300];
	struct kernel k;

	make_fs_dir(f, "8:80", "-1\n", "1\n", "2\n");
	snprintf(dir, sizeof(dir), "%s/8:80", f->sys);
	assert_int_equal(kernel_open(&k), 0);

	assert_int_equal(kernel_read_fs(&k, makedev(8, 80), KERNEL_READ_OVERRIDE, &st, NULL), 0);
	assert_false(st.has_override);
	assert_int_equal(st.error, 0);
	write_file(dir, "relatime_interval", "2147483647\n");
	assert_int_equal(kernel_read_fs(&k, makedev(8, 80), KERNEL_READ_OVERRIDE, &st, NULL), 0);
	assert_true(st.has_override);
	assert_int_equal(st.override, 2147483647);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_file(dir, "relatime_interval", bad[i]);
		assert_int_equal(kernel_read_fs(&k, makedev(8, 80),
						KERNEL_READ_OVERRIDE | KERNEL_READ_COUNTERS, &st, &errors),
				 -EINVAL);
		/* what it holds, without its newline, for the report */
		assert_true(errors.malformed[FS_FILE_INTERVAL]);
		assert_int_equal(strncmp(errors.text[FS_FILE_INTERVAL], bad[i],
					 strcspn(bad[i], "\n")), 0);
		assert_null(strchr(errors.text[FS_FILE_INTERVAL], '\n'));
		assert_false(errors.malformed[FS_FILE_UPDATES]);
		assert_int_equal(st.error, -EINVAL);
		assert_true(st.has_dir);
		assert_false(st.has_override);
		assert_true(st.bad_override);
		/* the counters are read all the same */
		assert_true(st.has_updates);
		assert_true(st.has_skips);
		/* only asked for the counters: no complaint */
		assert_int_equal(kernel_read_fs(&k, makedev(8, 80), KERNEL_READ_COUNTERS, &st, NULL), 0);
		assert_true(st.has_updates);
		assert_int_equal(st.updates, 1);
	}
	kernel_close(&k);

	/* the other tests know three directories */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_devno_format(void **state)
{
	char buf[DEVNO_FORMAT_MAX], small[4];

	(void) state;
	assert_string_equal(devno_format(makedev(8, 16), buf, sizeof(buf)), "8:16");
	assert_string_equal(devno_format(makedev(0, 0), buf, sizeof(buf)), "0:0");
	assert_string_equal(devno_format(makedev(4095, 1048575), buf, sizeof(buf)), "4095:1048575");
	assert_string_equal(devno_format(makedev(259, 10), small, sizeof(small)), "");
}

static void test_decimal(void **state)
{
	char buf[DECIMAL_MAX];

	(void) state;
	assert_string_equal(decimal_u64(0, buf), "0");
	assert_string_equal(decimal_u64(UINT64_MAX, buf), "18446744073709551615");
	assert_string_equal(decimal_i64(-1, buf), "-1");
	assert_string_equal(decimal_i64(86400, buf), "86400");
	assert_string_equal(decimal_i64(INT64_MIN, buf), "-9223372036854775808");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_write),
		cmocka_unit_test(test_unpatched),
		cmocka_unit_test(test_bad_override),
		cmocka_unit_test(test_devno_format),
		cmocka_unit_test(test_decimal),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
