/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Loading the mount table with libmount, and the few facts atimectl needs
 * about each mount.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "escape.h"
#include "mounts.h"

/*
 * The one message a lower layer prints, deliberately: libmount calls this
 * for each bad line while it parses, the only time the line is known, and
 * goes on with the next.  Like findmnt, atimectl says so and uses the rest.
 */
static int parser_errcb(struct libmnt_table *tb, const char *filename, int line)
{
	char *esc;

	(void) tb;
	fprintf(stderr, "atimectl: %s: parse error at line %d -- ignored\n",
		filename ? name_escape(filename, &esc) : "mount table", line);
	if (filename)
		free(esc);
	return 1;  /* skip the line, keep going */
}

static const char *table_name(const char *file)
{
	return file ? file : "/proc/self/mountinfo";
}

int mounts_load(const char *file, bool with_utab, struct libmnt_table **ret)
{
	struct libmnt_table *tb;
	struct stat st;
	int r;

	*ret = NULL;
	tb = mnt_new_table();
	if (!tb)
		return -ENOMEM;
	mnt_table_set_parser_errcb(tb, parser_errcb);

	/*
	 * A table from -F gets utab only when $LIBMOUNT_UTAB names one (a
	 * test hook, see atimectl(8)): this system's utab describes its own
	 * mounts, not those of the file.
	 */
	if (with_utab && (!file || getenv("LIBMOUNT_UTAB")))
		r = mnt_table_parse_mtab(tb, file);
	else
		r = mnt_table_parse_file(tb, table_name(file));
	if (r < 0) {
		/* libmount says EINVAL for a directory; findmnt says what it is */
		if (stat(table_name(file), &st) == 0 && S_ISDIR(st.st_mode))
			r = -EISDIR;
		mnt_unref_table(tb);
		return r;
	}
	*ret = tb;
	return 0;
}

void mounts_report_load(const char *file, int error)
{
	char *esc;

	if (error == -ENOMEM) {
		fprintf(stderr, "atimectl: out of memory\n");
		return;
	}
	fprintf(stderr, "atimectl: cannot read %s: %s\n",
		name_escape(table_name(file), &esc), strerror(-error));
	free(esc);
}

/* Is name (length len) one of the comma-separated options in optstr? */
static bool has_flag_option(const char *optstr, const char *name, size_t len)
{
	const char *p = optstr;

	while ((p = strstr(p, name))) {
		bool starts = p == optstr || p[-1] == ',';
		bool ends = p[len] == '\0' || p[len] == ',';

		if (starts && ends)
			return true;
		p += len;
	}
	return false;
}

/*
 * The VFS options of a mountinfo entry are the kernel's flag list
 * ("rw,nosuid,relatime"): no values, no quoting, so a plain token search
 * is exact.  This runs once per mount, so it avoids re-parsing the string
 * with mnt_optstr_get_option() twice.
 */
enum atime_mode mount_atime_mode(struct libmnt_fs *fs)
{
	const char *opts = mnt_fs_get_vfs_options(fs);

	if (!opts)
		return ATIME_STRICTATIME;
	if (has_flag_option(opts, "noatime", strlen("noatime")))
		return ATIME_NOATIME;
	if (has_flag_option(opts, "relatime", strlen("relatime")))
		return ATIME_RELATIME;
	return ATIME_STRICTATIME;
}

const char *atime_mode_name(enum atime_mode mode)
{
	switch (mode) {
	case ATIME_RELATIME:
		return "relatime";
	case ATIME_NOATIME:
		return "noatime";
	case ATIME_STRICTATIME:
	default:
		return "strictatime";
	}
}

bool mount_is_shown_by_default(struct libmnt_fs *fs)
{
	const char *type = mnt_fs_get_fstype(fs);

	if (type && strcmp(type, "tmpfs") == 0)
		return true;
	return !mnt_fs_is_pseudofs(fs);
}

bool mount_type_matches(struct libmnt_fs *fs, const char *types)
{
	const char *type = mnt_fs_get_fstype(fs);

	return !types || mnt_match_fstype(type ? type : "", types);
}

bool mount_is_listed(struct libmnt_fs *fs, bool all, const char *types)
{
	if (!mount_type_matches(fs, types))
		return false;
	/* a type named (not after "no") is asked for, pseudo or not */
	if (all || (types && strncmp(types, "no", 2) != 0))
		return true;
	return mount_is_shown_by_default(fs);
}
