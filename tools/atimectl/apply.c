/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "atimectl apply": turn x-relatime-interval=DURATION mount options into
 * per-filesystem overrides.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libmount.h>

#include "atimectl.h"
#include "duration.h"
#include "mounts.h"
#include "optstr.h"
#include "sysfs.h"
#include "target.h"

struct planned {
	struct libmnt_fs *fs;
	int64_t seconds;
	char *value;   /* as written in the options, for messages */
};

static struct libmnt_table *load_fstab(const char *file)
{
	struct libmnt_table *tb = mnt_new_table();
	int r;

	if (!tb) {
		fprintf(stderr, "atimectl: out of memory\n");
		return NULL;
	}
	r = mnt_table_parse_fstab(tb, file);
	/* no /etc/fstab at all is an empty one, an explicit file must exist */
	if (r < 0 && !(r == -ENOENT && !file)) {
		fprintf(stderr, "atimectl: cannot read %s: %s\n",
			file ? file : "/etc/fstab", strerror(-r));
		mnt_unref_table(tb);
		return NULL;
	}
	return tb;
}

/*
 * Look at one option string.  Returns 1 and fills p when the option is
 * there and valid, 0 when absent, -1 after reporting a bad value.
 */
static int examine(const char *name, const char *optstr, struct planned *p)
{
	char *value = NULL;
	int64_t seconds;
	int r;

	r = optstr_parse_relatime_interval(optstr, &seconds, &value);
	if (r == 0)
		return 0;
	if (r == -ENOMEM) {
		fprintf(stderr, "atimectl: out of memory\n");
		return -1;
	}
	if (r < 0 && !value) {
		fprintf(stderr, "atimectl: %s: cannot parse mount options '%s'\n",
			name, optstr);
		return -1;
	}
	if (r < 0) {
		fprintf(stderr, "atimectl: %s: invalid " RELATIME_OPTION "= value '%s': %s\n",
			name, value, duration_strerror(r));
		free(value);
		return -1;
	}

	/* keep the text for the message */
	r = optstr_find_relatime_interval(optstr, &p->value);
	if (r < 0) {
		fprintf(stderr, "atimectl: out of memory\n");
		return -1;
	}
	p->seconds = seconds;
	return 1;
}

/*
 * The options libmount knows for a mounted filesystem: its fstab entry
 * (matched by mount point) and the userspace options kept in utab.  The
 * utab ones come last, so they win.
 */
static int examine_mount(struct libmnt_table *tb, struct libmnt_table *fstab,
			 struct libmnt_fs *fs, struct planned *p)
{
	const char *target = mnt_fs_get_target(fs);
	struct libmnt_fs *entry = NULL;
	int found = 0, r;

	if (fstab && target)
		entry = mnt_table_find_target(fstab, target, MNT_ITER_FORWARD);
	/* of stacked mounts, the fstab line describes the topmost one */
	if (entry && mnt_table_find_target(tb, target, MNT_ITER_BACKWARD) != fs)
		entry = NULL;
	if (entry) {
		r = examine(target, mnt_fs_get_options(entry), p);
		if (r < 0)
			return r;
		found = r;
	}
	if (mnt_fs_get_user_options(fs)) {
		struct planned from_utab = { .fs = p->fs };

		r = examine(target, mnt_fs_get_user_options(fs), &from_utab);
		if (r < 0)
			return r;
		if (r > 0) {
			free(p->value);
			*p = from_utab;
			found = 1;
		}
	}
	return found;
}

static void free_plan(struct planned *plan, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(plan[i].value);
	free(plan);
}

int verb_apply(const struct options *opts, int argc, char **argv)
{
	struct libmnt_table *tb = NULL, *fstab = NULL;
	struct libmnt_cache *cache = NULL;
	struct libmnt_fs **fss = NULL;
	struct planned *plan = NULL;
	size_t nplan = 0, nmounts;
	bool failed = false;
	struct kernel k;
	int ret = 1;

	if (opts->optstr && argc == 0) {
		fprintf(stderr, "atimectl: apply: --options needs at least one TARGET\n");
		return EXIT_USAGE;
	}
	if (kernel_open(&k) < 0)
		return 1;

	tb = mounts_load(opts->tab_file, true);
	if (!tb)
		goto out;

	if (argc > 0) {
		nmounts = (size_t) argc;
		fss = calloc(nmounts, sizeof(*fss));
		if (!fss)
			goto oom;
		if (resolve_targets(tb, argc, argv, fss) < 0)
			goto out;
	} else {
		struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_FORWARD);
		struct libmnt_fs *fs;

		nmounts = (size_t) mnt_table_get_nents(tb);
		fss = calloc(nmounts ? nmounts : 1, sizeof(*fss));
		if (!fss || !itr) {
			mnt_free_iter(itr);
			goto oom;
		}
		nmounts = 0;
		while (mnt_table_next_fs(tb, itr, &fs) == 0)
			fss[nmounts++] = fs;
		mnt_free_iter(itr);
	}

	if (!opts->optstr) {
		fstab = load_fstab(opts->fstab_file);
		if (!fstab)
			goto out;
		cache = mnt_new_cache();
		if (cache)
			mnt_table_set_cache(fstab, cache);
	}

	plan = calloc(nmounts ? nmounts : 1, sizeof(*plan));
	if (!plan)
		goto oom;

	/* validate everything before the first write */
	for (size_t i = 0; i < nmounts; i++) {
		const char *target = mnt_fs_get_target(fss[i]);
		struct planned p = { .fs = fss[i] };
		int r;

		if (opts->optstr)
			r = examine(target, opts->optstr, &p);
		else
			r = examine_mount(tb, fstab, fss[i], &p);
		if (r < 0) {
			failed = true;
		} else if (r == 0) {
			if (opts->verbose)
				printf("%s: no " RELATIME_OPTION "= option, nothing to do\n", target);
		} else {
			plan[nplan++] = p;
		}
	}
	if (failed)
		goto out;
	if (nplan == 0) {
		ret = 0;
		goto out;
	}

	if (!kernel_has_fs_interval(&k)) {
		kernel_note_unsupported();
		goto out;
	}
	for (size_t i = 0; i < nplan; i++) {
		dev_t devno = mnt_fs_get_devno(plan[i].fs);
		char majmin[DEVNO_FORMAT_MAX];

		if (kernel_fs_has_dir(&k, devno))
			continue;
		fprintf(stderr, "atimectl: %s: %s on %s has no relatime interval (no %s/%s)\n",
			mnt_fs_get_target(plan[i].fs),
			mnt_fs_get_fstype(plan[i].fs) ? mnt_fs_get_fstype(plan[i].fs) : "filesystem",
			devno_format(devno, majmin, sizeof(majmin)), k.sysfs_root, majmin);
		failed = true;
	}
	if (failed)
		goto out;

	ret = 0;
	for (size_t i = 0; i < nplan; i++) {
		dev_t devno = mnt_fs_get_devno(plan[i].fs);
		char majmin[DEVNO_FORMAT_MAX], buf[DURATION_FORMAT_MAX];

		if (kernel_write_fs(&k, "apply", devno, plan[i].seconds) < 0) {
			ret = 1;
			continue;
		}
		printf("%s (%s): relatime interval %s (" RELATIME_OPTION "=%s)\n",
		       mnt_fs_get_target(plan[i].fs),
		       devno_format(devno, majmin, sizeof(majmin)),
		       duration_format(plan[i].seconds, buf, sizeof(buf)),
		       plan[i].value);
	}
	if (fflush(stdout) != 0)
		ret = 1;
	goto out;
oom:
	fprintf(stderr, "atimectl: out of memory\n");
out:
	free_plan(plan, nplan);
	free(fss);
	mnt_unref_table(fstab);
	mnt_unref_cache(cache);
	mnt_unref_table(tb);
	kernel_close(&k);
	return ret;
}
