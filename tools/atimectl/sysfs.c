/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel side, per superblock: /sys/fs/relatime/MAJ:MIN/.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "escape.h"
#include "kfile.h"
#include "sysfs.h"

#define DEFAULT_PROC_SYS_FS "/proc/sys/fs"
#define DEFAULT_SYSFS_RELATIME "/sys/fs/relatime"

static const char *env_or(const char *name, const char *fallback)
{
	const char *v = getenv(name);

	return v && *v ? v : fallback;
}

int kernel_open(struct kernel *k)
{
	k->sysfs_fd = -1;
	k->proc_sys_fs = strdup(env_or("ATIMECTL_PROC_SYS_FS", DEFAULT_PROC_SYS_FS));
	k->sysfs_root = strdup(env_or("ATIMECTL_SYSFS_RELATIME", DEFAULT_SYSFS_RELATIME));
	if (!k->proc_sys_fs || !k->sysfs_root) {
		fprintf(stderr, "atimectl: out of memory\n");
		kernel_close(k);
		return -ENOMEM;
	}

	k->sysfs_fd = open(k->sysfs_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (k->sysfs_fd < 0 && errno != ENOENT) {
		int r = -errno;

		fprintf(stderr, "atimectl: cannot open %s: %s\n",
			k->sysfs_root, strerror(errno));
		kernel_close(k);
		return r;
	}
	return 0;
}

void kernel_close(struct kernel *k)
{
	if (k->sysfs_fd >= 0)
		close(k->sysfs_fd);
	k->sysfs_fd = -1;
	free(k->proc_sys_fs);
	free(k->sysfs_root);
	k->proc_sys_fs = NULL;
	k->sysfs_root = NULL;
}

bool kernel_has_fs_interval(const struct kernel *k)
{
	return k->sysfs_fd >= 0;
}

void kernel_note_unsupported(void)
{
	fprintf(stderr, "atimectl: this kernel has no per-filesystem relatime interval (no /sys/fs/relatime)\n");
}

/*
 * A file of the directory that holds what the kernel cannot have written:
 * say which, what it holds (escaped, without its newline) and what it
 * should hold.  Returns -EINVAL.
 */
static int report_bad_content(const struct kernel *k, const char *rel,
			      char *text, const char *want)
{
	char *esc;

	kfile_chomp(text);
	fprintf(stderr, "atimectl: %s/%s holds '%s', not %s\n",
		k->sysfs_root, rel, name_escape(text, &esc), want);
	free(esc);
	return -EINVAL;
}

/*
 * An override the kernel cannot have written: say what the file holds, as
 * global_interval_read() does for the sysctl.
 */
static int report_bad_override(const struct kernel *k, const char *rel,
			       char *text, int error)
{
	if (error) {
		fprintf(stderr, "atimectl: cannot read %s/%s: %s\n",
			k->sysfs_root, rel, strerror(error));
		return -error;
	}
	return report_bad_content(k, rel, text,
				  "-1 or a number of seconds (0 to 2147483647)");
}

/*
 * One counter, or a message that says which file and why.  Returns 1 when
 * the whole directory went away (the filesystem was unmounted meanwhile).
 */
static int read_counter(const struct kernel *k, dev_t devno, const char *rel,
			uint64_t *ret)
{
	char buf[KFILE_MAX];
	int r;

	r = kfile_read(k->sysfs_fd, rel, buf, sizeof(buf));
	if ((r == -ENOENT || r == -ENODEV) && !kernel_fs_has_dir(k, devno))
		return 1;
	if (r < 0) {
		fprintf(stderr, "atimectl: cannot read %s/%s: %s\n",
			k->sysfs_root, rel, strerror(-r));
		return r;
	}
	if (kfile_parse_uint(buf, ret) == 0)
		return 0;
	return report_bad_content(k, rel, buf, "a count");
}

int kernel_read_fs(const struct kernel *k, dev_t devno, unsigned int what,
		   struct fs_kernel_state *ret)
{
	char path[DEVNO_FORMAT_MAX + 32], buf[KFILE_MAX];
	int64_t interval;
	size_t dirlen;
	int r;

	memset(ret, 0, sizeof(*ret));
	if (k->sysfs_fd < 0)
		return 0;

	devno_format(devno, path, DEVNO_FORMAT_MAX);
	dirlen = strlen(path);

	/* The first file read also tells whether the directory exists. */
	memcpy(path + dirlen, "/relatime_interval", sizeof("/relatime_interval"));
	r = kfile_read(k->sysfs_fd, path, buf, sizeof(buf));
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	ret->has_dir = true;
	if (what & KERNEL_READ_OVERRIDE) {
		/* -1: none; anything else but 0..INT_MAX is not the kernel's */
		if (r < 0 || kfile_parse_int(buf, &interval) < 0 ||
		    interval < -1 || interval > INT_MAX) {
			ret->error = report_bad_override(k, path, buf, -r);
			ret->bad_override = true;
		} else if (interval >= 0) {
			ret->has_override = true;
			ret->override = interval;
		}
	}

	if (what & KERNEL_READ_COUNTERS) {
		memcpy(path + dirlen, "/atime_updates", sizeof("/atime_updates"));
		r = read_counter(k, devno, path, &ret->updates);
		ret->has_updates = r == 0;
		if (r < 0 && !ret->error)
			ret->error = r;
		memcpy(path + dirlen, "/relatime_skips", sizeof("/relatime_skips"));
		if (r <= 0)
			r = read_counter(k, devno, path, &ret->skips);
		ret->has_skips = r == 0;
		if (r < 0 && !ret->error)
			ret->error = r;
		if (r > 0 && !ret->error)	/* gone: as if never there */
			memset(ret, 0, sizeof(*ret));
	}
	return ret->error;
}

static int compare_devno(const void *a, const void *b)
{
	dev_t x = *(const dev_t *) a, y = *(const dev_t *) b;

	return x < y ? -1 : x > y;
}

int kernel_list_fs(const struct kernel *k, dev_t **ret, size_t *n)
{
	size_t size = 0, count = 0;
	dev_t *list = NULL;
	struct dirent *de;
	DIR *dir;
	int fd;

	*ret = NULL;
	*n = 0;
	if (k->sysfs_fd < 0)
		return 0;

	fd = openat(k->sysfs_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	dir = fdopendir(fd);
	if (!dir) {
		int r = -errno;

		close(fd);
		return r;
	}
	while ((de = readdir(dir))) {
		dev_t devno;

		if (devno_parse(de->d_name, &devno) < 0)
			continue;
		if (count == size) {
			size_t nsize = size ? size * 2 : 64;
			dev_t *nlist = realloc(list, nsize * sizeof(*list));

			if (!nlist) {
				free(list);
				closedir(dir);
				return -ENOMEM;
			}
			list = nlist;
			size = nsize;
		}
		list[count++] = devno;
	}
	closedir(dir);

	if (count > 1)
		qsort(list, count, sizeof(*list), compare_devno);
	*ret = list;
	*n = count;
	return 0;
}

bool devno_list_contains(const dev_t *list, size_t n, dev_t devno)
{
	return n > 0 && bsearch(&devno, list, n, sizeof(*list), compare_devno) != NULL;
}

bool kernel_fs_has_dir(const struct kernel *k, dev_t devno)
{
	char name[DEVNO_FORMAT_MAX];

	if (k->sysfs_fd < 0)
		return false;
	devno_format(devno, name, sizeof(name));
	return faccessat(k->sysfs_fd, name, F_OK, 0) == 0;
}

static int write_fs(const struct kernel *k, const char *verb, dev_t devno,
		    int64_t value, bool report_gone)
{
	char rel[DEVNO_FORMAT_MAX + 32], path[PATH_MAX];
	int r;

	devno_format(devno, rel, DEVNO_FORMAT_MAX);
	strcat(rel, "/relatime_interval");
	snprintf(path, sizeof(path), "%s/%s", k->sysfs_root, rel);

	if (k->sysfs_fd < 0) {
		kernel_note_unsupported();
		return -ENOTSUP;
	}
	r = kfile_write_int(k->sysfs_fd, rel, value);
	if (r < 0 && (report_gone || (r != -ENOENT && r != -ENODEV)))
		kfile_report_write(verb, path, r);
	return r;
}

int kernel_write_fs(const struct kernel *k, const char *verb, dev_t devno,
		    int64_t value)
{
	return write_fs(k, verb, devno, value, true);
}

int kernel_write_fs_unless_gone(const struct kernel *k, const char *verb,
				dev_t devno, int64_t value)
{
	return write_fs(k, verb, devno, value, false);
}

void kernel_report_write_fs(const struct kernel *k, const char *verb, dev_t devno,
			    int error)
{
	char path[PATH_MAX], majmin[DEVNO_FORMAT_MAX];

	snprintf(path, sizeof(path), "%s/%s/relatime_interval", k->sysfs_root,
		 devno_format(devno, majmin, sizeof(majmin)));
	kfile_report_write(verb, path, -error);
}
