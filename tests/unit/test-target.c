/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * TARGET resolution against fixture mount tables.  mountinfo-paths.in is
 * instantiated in a temporary directory: @ROOT@ becomes that directory and
 * @DEV@ its real device number, so stat()-based resolution sees the
 * fixture's bind and stacked mounts.
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

#include "mounts.h"
#include "target.h"

struct fixture {
	char root[PATH_MAX];
	char table_path[PATH_MAX + 32];
	struct libmnt_table *tb;
	struct libmnt_cache *cache;
};

static const char *fixtures_dir(void)
{
	const char *d = getenv("FIXTURES_DIR");

	return d ? d : "tests/fixtures";
}

static void make_dir(const char *root, const char *rel)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		fail_msg("mkdir %s: %s", path, strerror(errno));
}

/* Copy the template, replacing @ROOT@ (escaped as mountinfo does not need:
 * the temp dir has no special characters) and @DEV@. */
static void instantiate(const char *template, const char *out, const char *root,
			const char *dev)
{
	FILE *in = fopen(template, "r"), *o = fopen(out, "w");
	char line[4096];

	assert_non_null(in);
	assert_non_null(o);
	while (fgets(line, sizeof(line), in)) {
		for (char *p = line; *p; p++) {
			if (strncmp(p, "@ROOT@", 6) == 0) {
				fputs(root, o);
				p += 5;
			} else if (strncmp(p, "@DEV@", 5) == 0) {
				fputs(dev, o);
				p += 4;
			} else {
				fputc(*p, o);
			}
		}
	}
	fclose(in);
	assert_int_equal(fclose(o), 0);
}

static int setup_paths(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char template[PATH_MAX], tmpl[] = "/tmp/atimectl-test-XXXXXX", dev[32];
	char *resolved;
	struct stat st;

	assert_non_null(f);
	assert_non_null(mkdtemp(tmpl));
	resolved = realpath(tmpl, NULL);
	assert_non_null(resolved);
	snprintf(f->root, sizeof(f->root), "%s", resolved);
	free(resolved);

	make_dir(f->root, "sub");
	make_dir(f->root, "bind");
	make_dir(f->root, "bind/deeper");
	make_dir(f->root, "stack");
	make_dir(f->root, "with space");
	make_dir(f->root, "tab\tand\\backslash");
	make_dir(f->root, "lower");
	make_dir(f->root, "elsewhere");
	make_dir(f->root, "bindish");

	assert_int_equal(stat(f->root, &st), 0);
	snprintf(dev, sizeof(dev), "%u:%u", major(st.st_dev), minor(st.st_dev));
	snprintf(template, sizeof(template), "%s/mountinfo-paths.in", fixtures_dir());
	snprintf(f->table_path, sizeof(f->table_path), "%s/mountinfo", f->root);
	instantiate(template, f->table_path, f->root, dev);

	assert_int_equal(mounts_load(f->table_path, false, &f->tb), 0);
	assert_non_null(f->tb);
	f->cache = mnt_new_cache();
	*state = f;
	return 0;
}

static int teardown_paths(void **state)
{
	struct fixture *f = *state;
	char cmd[PATH_MAX + 32];

	mnt_unref_table(f->tb);
	mnt_unref_cache(f->cache);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->root);
	if (system(cmd) != 0)
		return -1;
	free(f);
	return 0;
}

/* Resolve spec (relative specs get the temp root prepended) and return the
 * entry's mount ID, or -errno. */
static int resolve_id(struct fixture *f, const char *spec, bool under_root)
{
	char path[PATH_MAX + 128];
	struct libmnt_fs *fs = NULL;
	const char *reason = NULL;
	int r;

	if (under_root)
		snprintf(path, sizeof(path), "%s%s", f->root, spec);
	else
		snprintf(path, sizeof(path), "%s", spec);
	r = target_resolve(f->tb, f->cache, path, &fs, &reason);
	if (r < 0) {
		assert_non_null(reason);
		return r;
	}
	assert_non_null(fs);
	return mnt_fs_get_id(fs);
}

static void test_path_plain(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(resolve_id(f, "", true), 2);
	assert_int_equal(resolve_id(f, "/", true), 2);
	assert_int_equal(resolve_id(f, "/sub", true), 2);
	assert_int_equal(resolve_id(f, "/mountinfo", true), 2);
	/* prefix at a component boundary only */
	assert_int_equal(resolve_id(f, "/bindish", true), 2);
}

static void test_path_bind(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(resolve_id(f, "/bind", true), 3);
	assert_int_equal(resolve_id(f, "/bind/deeper", true), 3);
	assert_int_equal(resolve_id(f, "/bind/deeper/../deeper/", true), 3);
}

static void test_path_stacked(void **state)
{
	struct fixture *f = *state;

	/* 4 (250:3) is covered by 5, which has the path's device number */
	assert_int_equal(resolve_id(f, "/stack", true), 5);
	/* 8 and 9 both match; the later (topmost) one wins */
	assert_int_equal(resolve_id(f, "/lower", true), 9);
}

static void test_path_escapes(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(resolve_id(f, "/with space", true), 6);
	assert_int_equal(resolve_id(f, "/tab\tand\\backslash", true), 7);
}

static void test_path_other_device(void **state)
{
	struct fixture *f = *state;

	/* entry 10 has another device number than the directory really has:
	 * the entries with the path's device number win */
	assert_int_equal(resolve_id(f, "/elsewhere", true), 2);
}

static void test_devno(void **state)
{
	struct fixture *f = *state;
	char dev[32];
	struct stat st;

	assert_int_equal(resolve_id(f, "250:3", false), 4);
	assert_int_equal(resolve_id(f, "250:1", false), 1);
	assert_int_equal(resolve_id(f, "250:99", false), -ENOENT);
	/* several entries: the one with root "/" */
	assert_int_equal(stat(f->root, &st), 0);
	snprintf(dev, sizeof(dev), "%u:%u", major(st.st_dev), minor(st.st_dev));
	assert_int_equal(resolve_id(f, dev, false), 2);
}

static void test_source(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(resolve_id(f, "/dev/fake3", false), 4);
	assert_int_equal(resolve_id(f, "/dev/fake8", false), 10);
}

static void test_errors(void **state)
{
	struct fixture *f = *state;
	struct libmnt_fs *fs = NULL;
	const char *reason = NULL;

	assert_int_equal(target_resolve(f->tb, f->cache, "/nonexistent/atimectl", &fs, &reason), -ENOENT);
	assert_string_equal(reason, "no such file or directory");
	assert_int_equal(target_resolve(f->tb, f->cache, "bogus-source", &fs, &reason), -ENOENT);
	assert_string_equal(reason, "no such mount");
	assert_int_equal(target_resolve(f->tb, f->cache, "UUID=00000000-dead-beef-0000-000000000000", &fs, &reason), -ENODEV);
	assert_string_equal(reason, "no such device");
	assert_int_equal(target_resolve(f->tb, f->cache, "", &fs, &reason), -EINVAL);
	assert_null(fs);
}

static void test_plausible(void **state)
{
	(void) state;
	assert_true(target_spec_is_plausible("/srv/data"));
	assert_true(target_spec_is_plausible("./x"));
	assert_true(target_spec_is_plausible("server:/export"));
	assert_true(target_spec_is_plausible("UUID=1234"));
	assert_true(target_spec_is_plausible("LABEL=data"));
	assert_true(target_spec_is_plausible("8:16"));
	assert_true(target_spec_is_plausible("."));          /* exists */
	assert_false(target_spec_is_plausible("frobnicate"));
	assert_false(target_spec_is_plausible("8:"));
	assert_false(target_spec_is_plausible("stauts"));
	assert_false(target_spec_is_plausible(""));
}

static void test_devno_parse(void **state)
{
	dev_t d;

	(void) state;
	assert_int_equal(devno_parse("8:16", &d), 0);
	assert_int_equal(major(d), 8);
	assert_int_equal(minor(d), 16);
	assert_int_equal(devno_parse("0:0", &d), 0);
	assert_int_equal(devno_parse("4095:1048575", &d), 0);
	assert_int_equal(devno_parse("4096:0", &d), -EINVAL);
	assert_int_equal(devno_parse("8:", &d), -EINVAL);
	assert_int_equal(devno_parse(":8", &d), -EINVAL);
	assert_int_equal(devno_parse("8:16x", &d), -EINVAL);
	assert_int_equal(devno_parse("8:-1", &d), -EINVAL);
	assert_int_equal(devno_parse("/dev/sda", &d), -EINVAL);
}

/* The 10,000-entry table from gen-mountinfo.py, built at test time. */
static void test_big_table(void **state)
{
	const char *big = getenv("BIG_MOUNTINFO");
	struct libmnt_table *tb;
	struct libmnt_cache *cache = mnt_new_cache();
	struct libmnt_fs *fs = NULL;
	const char *reason = NULL;

	(void) state;
	if (!big)
		skip();
	assert_int_equal(mounts_load(big, false, &tb), 0);
	assert_non_null(tb);
	assert_int_equal(mnt_table_get_nents(tb), 10000);

	/* generated entry i has mount ID i + 8; the last is i = 9992, kind 2
	 * (container proc) on 0:(100 + i) */
	assert_int_equal(target_resolve(tb, cache, "0:10092", &fs, &reason), 0);
	assert_int_equal(mnt_fs_get_id(fs), 10000);
	assert_string_equal(mnt_fs_get_target(fs), "/var/lib/containers/c9992/proc");

	/* i = 9983 is kind 3, a bind mount of a directory of 8:1 */
	assert_int_equal(target_resolve(tb, cache, "/srv/bind/9983", &fs, &reason), 0);
	assert_int_equal(mnt_fs_get_id(fs), 9991);
	assert_string_equal(mnt_fs_get_root(fs), "/var/lib/data/9983");

	/* 8:1 is mounted 1000 times; MAJ:MIN picks the root "/" entry */
	assert_int_equal(target_resolve(tb, cache, "8:1", &fs, &reason), 0);
	assert_int_equal(mnt_fs_get_id(fs), 1);

	assert_int_equal(target_resolve(tb, cache, "/mnt/space dir/9986", &fs, &reason), 0);
	assert_string_equal(mnt_fs_get_fstype(fs), "tmpfs");

	assert_int_equal(target_resolve(tb, cache, "server9989:/export", &fs, &reason), 0);
	assert_string_equal(mnt_fs_get_target(fs), "/net/host9989");

	assert_int_equal(target_resolve(tb, cache, "/dev/nvme9984n1", &fs, &reason), 0);
	assert_string_equal(mnt_fs_get_target(fs), "/mnt/disk9984");

	assert_int_equal(mount_atime_mode(fs), ATIME_RELATIME);
	assert_int_equal(target_resolve(tb, cache, "/data/vol9987", &fs, &reason), 0);
	assert_int_equal(mount_atime_mode(fs), ATIME_NOATIME);

	mnt_unref_table(tb);
	mnt_unref_cache(cache);
}

static void test_basic_modes(void **state)
{
	char path[PATH_MAX];
	struct libmnt_table *tb;
	struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	int shown = 0, relatime = 0, noatime = 0, strict = 0;

	(void) state;
	snprintf(path, sizeof(path), "%s/mountinfo-basic", fixtures_dir());
	assert_int_equal(mounts_load(path, false, &tb), 0);
	assert_non_null(tb);
	while (mnt_table_next_fs(tb, itr, &fs) == 0) {
		shown += mount_is_shown_by_default(fs);
		switch (mount_atime_mode(fs)) {
		case ATIME_RELATIME: relatime++; break;
		case ATIME_NOATIME: noatime++; break;
		case ATIME_STRICTATIME: strict++; break;
		}
	}
	assert_int_equal(mnt_table_get_nents(tb), 14);
	assert_int_equal(shown, 9);
	assert_int_equal(noatime, 2);
	assert_int_equal(strict, 1);
	assert_int_equal(relatime, 11);
	mnt_free_iter(itr);
	mnt_unref_table(tb);
}

/* A table that cannot be loaded: the error, and no table. */
static void test_load_errors(void **state)
{
	struct libmnt_table *tb;

	(void) state;
	assert_int_equal(mounts_load("/", false, &tb), -EISDIR);
	assert_null(tb);
	assert_int_equal(mounts_load("/nonexistent/atimectl-test", false, &tb), -ENOENT);
	assert_null(tb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plausible),
		cmocka_unit_test(test_path_plain),
		cmocka_unit_test(test_path_bind),
		cmocka_unit_test(test_path_stacked),
		cmocka_unit_test(test_path_escapes),
		cmocka_unit_test(test_path_other_device),
		cmocka_unit_test(test_devno),
		cmocka_unit_test(test_source),
		cmocka_unit_test(test_errors),
	};
	const struct CMUnitTest standalone[] = {
		cmocka_unit_test(test_devno_parse),
		cmocka_unit_test(test_basic_modes),
		cmocka_unit_test(test_big_table),
		cmocka_unit_test(test_load_errors),
	};
	int failed;

	failed = cmocka_run_group_tests_name("paths", tests, setup_paths, teardown_paths);
	failed += cmocka_run_group_tests_name("tables", standalone, NULL, NULL);
	return failed;
}
