/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the verbs share, each with its message: opening and reading the
 * kernel interface, loading the mount table and resolving TARGETs,
 * writing an interval, taking a DURATION.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <libmount.h>

#include "assess.h"
#include "atimectl.h"
#include "duration.h"
#include "escape.h"
#include "interval.h"
#include "mounts.h"
#include "sysfs.h"
#include "target.h"
#include "verbs.h"

int verbs_open_kernel(struct kernel *k)
{
	int r = kernel_open(k);

	if (r < 0)
		kernel_report_open(r);
	return r;
}

int verbs_read_global(const struct kernel *k, struct global_interval *g)
{
	int r = global_interval_read(k, g);

	if (r < 0)
		global_interval_report(k, r);
	return r;
}

int verbs_read_fs(const struct kernel *k, dev_t devno, unsigned int what,
		  struct fs_kernel_state *ret)
{
	struct fs_read_errors errors;
	int r = kernel_read_fs(k, devno, what, ret, &errors);

	if (r < 0)
		kernel_report_read_fs(k, devno, &errors);
	return r;
}

static int write_fs(const struct kernel *k, const char *verb, dev_t devno,
		    int64_t value, bool report_gone)
{
	int r = kernel_write_fs(k, devno, value);

	if (r < 0 && (report_gone || (r != -ENOENT && r != -ENODEV)))
		kernel_report_fs_write(k, verb, devno, r);
	return r;
}

int verbs_write_fs(const struct kernel *k, const char *verb, dev_t devno,
		   int64_t value)
{
	return write_fs(k, verb, devno, value, true);
}

int verbs_write_fs_unless_gone(const struct kernel *k, const char *verb,
			       dev_t devno, int64_t value)
{
	return write_fs(k, verb, devno, value, false);
}

struct libmnt_table *verbs_load_mounts(const char *file, bool with_utab)
{
	struct libmnt_table *tb;
	int r = mounts_load(file, with_utab, &tb);

	if (r < 0)
		mounts_report_load(file, r);
	return tb;
}

/* "atimectl: SPEC: ambiguous: mounted from it are /run (0:25), /tmp (0:26); ..." */
static void report_ambiguous(struct libmnt_table *tb, const char *spec,
			     struct libmnt_fs *fs)
{
	const char *source = mnt_fs_get_source(fs);
	struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *other;
	const char *sep = "";
	char *esc;

	fprintf(stderr, "atimectl: %s: ambiguous: mounted from it are ", name_escape(spec, &esc));
	free(esc);
	while (itr && mnt_table_next_fs(tb, itr, &other) == 0) {
		char majmin[DEVNO_FORMAT_MAX];

		if (!mnt_fs_streq_srcpath(other, source))
			continue;
		fprintf(stderr, "%s%s (%s)", sep, name_escape(mnt_fs_get_target(other), &esc),
			devno_format(mnt_fs_get_devno(other), majmin, sizeof(majmin)));
		free(esc);
		sep = ", ";
	}
	mnt_free_iter(itr);
	fputs("; name one by mount point or MAJ:MIN\n", stderr);
}

int resolve_targets(struct libmnt_table *tb, int n, char **specs,
		    struct libmnt_fs **fss)
{
	struct libmnt_cache *cache = mnt_new_cache();
	int ret = 0;

	for (int i = 0; i < n; i++) {
		const char *reason = NULL;
		char *esc;
		int r = target_resolve(tb, cache, specs[i], &fss[i], &reason);

		if (r == -ENOTUNIQ) {
			report_ambiguous(tb, specs[i], fss[i]);
			ret = r;
		} else if (r < 0) {
			fprintf(stderr, "atimectl: %s: %s\n", name_escape(specs[i], &esc),
				reason ? reason : "cannot resolve");
			free(esc);
			if (ret == 0)
				ret = r;
		}
	}
	mnt_unref_cache(cache);
	return ret;
}

int verbs_load_targets(const struct options *opts, int n, char **specs,
		       struct libmnt_table **tb, struct libmnt_fs ***fss)
{
	int r;

	*fss = NULL;
	/* with utab: status tells a declared interval from another */
	r = mounts_load(opts->tab_file, true, tb);
	if (r < 0) {
		mounts_report_load(opts->tab_file, r);
		return r;
	}
	if (n == 0)
		return 0;
	*fss = calloc((size_t) n, sizeof(**fss));
	if (!*fss) {
		fprintf(stderr, "atimectl: out of memory\n");
		return -ENOMEM;
	}
	return resolve_targets(*tb, n, specs, *fss);
}

int verbs_exit_status(int error)
{
	return error == -ENOTUNIQ ? EXIT_USAGE : 1;
}

/*
 * Does every resolved mount have a per-filesystem directory?  Reports each
 * one that does not.
 */
static bool all_have_dirs(const struct kernel *k, int n, char **specs,
			  struct libmnt_fs **fss)
{
	bool ret = true;

	for (int i = 0; i < n; i++) {
		dev_t devno = mnt_fs_get_devno(fss[i]);
		char majmin[DEVNO_FORMAT_MAX], *e1, *e2;

		if (kernel_fs_has_dir(k, devno))
			continue;
		fprintf(stderr, "atimectl: %s: %s on %s has no relatime interval (no %s/%s)\n",
			name_escape(specs[i], &e1),
			mnt_fs_get_fstype(fss[i]) ? mnt_fs_get_fstype(fss[i]) : "filesystem",
			devno_format(devno, majmin, sizeof(majmin)),
			name_escape(k->sysfs_root, &e2), majmin);
		free(e1);
		free(e2);
		ret = false;
	}
	return ret;
}

/* Write value (-1 = inherit) to every target, after validating them all. */
int verbs_write_targets(const struct options *opts, const char *verb,
			 int n, char **specs, int64_t value)
{
	struct libmnt_table *tb = NULL;
	struct libmnt_fs **fss = NULL;
	struct kernel k;
	int ret = 1, r;

	if (verbs_open_kernel(&k) < 0)
		return 1;
	if (!kernel_has_fs_interval(&k)) {
		kernel_note_unsupported();
		goto out;
	}

	r = verbs_load_targets(opts, n, specs, &tb, &fss);
	if (r < 0) {
		ret = verbs_exit_status(r);
		goto out;
	}
	if (!all_have_dirs(&k, n, specs, fss))
		goto out;

	ret = 0;
	for (int i = 0; i < n; i++) {
		char majmin[DEVNO_FORMAT_MAX], buf[DURATION_FORMAT_MAX];
		dev_t devno = mnt_fs_get_devno(fss[i]);

		if (verbs_write_fs(&k, verb, devno, value) < 0) {
			ret = 1;
			continue;
		}
		if (value >= 0)
			warn_if_critical(opts, &devno, value);
		if (opts->verbose) {
			char *esc;

			printf("%s (%s): relatime interval %s\n",
			       name_escape(mnt_fs_get_target(fss[i]), &esc),
			       devno_format(devno, majmin, sizeof(majmin)),
			       value < 0 ? "inherits the global value"
					 : duration_format(value, buf, sizeof(buf)));
			free(esc);
		}
	}
out:
	free(fss);
	mnt_unref_table(tb);
	kernel_close(&k);
	return ret;
}

/* A DURATION given on the command line; a bad one is a usage error. */
int verbs_parse_duration(const char *verb, const char *arg, int64_t *seconds)
{
	int r = duration_parse(arg, seconds);
	char *esc;

	if (r < 0) {
		fprintf(stderr, "atimectl: %s: invalid duration '%s': %s\n",
			verb, name_escape(arg, &esc), duration_strerror(r));
		free(esc);
	}
	return r;
}
