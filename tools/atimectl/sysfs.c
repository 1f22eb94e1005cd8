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

static const char *sysfs_root(void)
{
	return env_or("ATIMECTL_SYSFS_RELATIME", DEFAULT_SYSFS_RELATIME);
}

int kernel_open(struct kernel *k)
{
	k->sysfs_fd = -1;
	k->proc_sys_fs = strdup(env_or("ATIMECTL_PROC_SYS_FS", DEFAULT_PROC_SYS_FS));
	k->sysfs_root = strdup(sysfs_root());
	if (!k->proc_sys_fs || !k->sysfs_root) {
		kernel_close(k);
		return -ENOMEM;
	}

	k->sysfs_fd = open(k->sysfs_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (k->sysfs_fd < 0 && errno != ENOENT) {
		int r = -errno;

		kernel_close(k);
		return r;
	}
	return 0;
}

void kernel_report_open(int error)
{
	if (error == -ENOMEM)
		fprintf(stderr, "atimectl: out of memory\n");
	else
		fprintf(stderr, "atimectl: cannot open %s: %s\n", sysfs_root(), strerror(-error));
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

static const struct {
	const char *name;
	const char *holds;	/* what the kernel writes there */
} fs_files[FS_NFILES] = {
	[FS_FILE_INTERVAL] = { "relatime_interval", "-1 or a number of seconds (0 to 2147483647)" },
	[FS_FILE_UPDATES]  = { "atime_updates",     "a count" },
	[FS_FILE_SKIPS]    = { "relatime_skips",    "a count" },
};

/* "MAJ:MIN/FILE", relative to sysfs_fd; no printf: status reads thousands. */
struct fs_path {
	char s[DEVNO_FORMAT_MAX + 32];
	size_t dirlen;
};

static void fs_path_init(struct fs_path *p, dev_t devno)
{
	devno_format(devno, p->s, DEVNO_FORMAT_MAX);
	p->dirlen = strlen(p->s);
}

static const char *fs_path_of(struct fs_path *p, enum fs_file f)
{
	p->s[p->dirlen] = '/';
	strcpy(p->s + p->dirlen + 1, fs_files[f].name);
	return p->s;
}

/*
 * Note what is wrong with file f for the report: error, and what it holds
 * when that is not what the kernel writes (text).  Returns error.
 */
static int note_error(struct fs_read_errors *e, enum fs_file f, int error,
		      const char *text)
{
	e->error[f] = error;
	e->malformed[f] = text != NULL;
	if (text) {
		snprintf(e->text[f], sizeof(e->text[f]), "%s", text);
		kfile_chomp(e->text[f]);
	}
	return error;
}

/* The override, from what reading relatime_interval (r) put in buf. */
static void take_override(struct fs_kernel_state *ret, int r, const char *buf,
			  struct fs_read_errors *e)
{
	int64_t interval;

	/* -1: none; anything else but 0..INT_MAX is not the kernel's */
	if (r == 0 && kfile_parse_int(buf, &interval) == 0 &&
	    interval >= -1 && interval <= INT_MAX) {
		ret->has_override = interval >= 0;
		if (ret->has_override)
			ret->override = interval;
		return;
	}
	ret->bad_override = true;
	if (r < 0)
		ret->error = note_error(e, FS_FILE_INTERVAL, r, NULL);
	else
		ret->error = note_error(e, FS_FILE_INTERVAL, -EINVAL, buf);
}

/*
 * One counter.  *gone when the whole directory went away (the filesystem
 * was unmounted meanwhile): then it is no error.
 */
static int read_counter(const struct kernel *k, dev_t devno, struct fs_path *p,
			enum fs_file f, uint64_t *ret, struct fs_read_errors *e,
			bool *gone)
{
	char buf[KFILE_MAX];
	int r;

	r = kfile_read(k->sysfs_fd, fs_path_of(p, f), buf, sizeof(buf));
	*gone = (r == -ENOENT || r == -ENODEV) && !kernel_fs_has_dir(k, devno);
	if (*gone)
		return 0;
	if (r < 0)
		return note_error(e, f, r, NULL);
	if (kfile_parse_uint(buf, ret) < 0)
		return note_error(e, f, -EINVAL, buf);
	return 0;
}

/* Both counters; a superblock gone meanwhile is as if never there. */
static void take_counters(const struct kernel *k, dev_t devno, struct fs_path *p,
			  struct fs_kernel_state *ret, struct fs_read_errors *e)
{
	bool gone;
	int r;

	r = read_counter(k, devno, p, FS_FILE_UPDATES, &ret->updates, e, &gone);
	ret->has_updates = r == 0 && !gone;
	if (r < 0 && !ret->error)
		ret->error = r;
	if (!gone)
		r = read_counter(k, devno, p, FS_FILE_SKIPS, &ret->skips, e, &gone);
	ret->has_skips = r == 0 && !gone;
	if (r < 0 && !ret->error)
		ret->error = r;
	if (gone && !ret->error)
		memset(ret, 0, sizeof(*ret));
}

int kernel_read_fs(const struct kernel *k, dev_t devno, unsigned int what,
		   struct fs_kernel_state *ret, struct fs_read_errors *errors)
{
	struct fs_read_errors unused;
	char buf[KFILE_MAX];
	struct fs_path p;
	int r;

	memset(ret, 0, sizeof(*ret));
	if (!errors)
		errors = &unused;
	memset(errors->error, 0, sizeof(errors->error));
	memset(errors->malformed, 0, sizeof(errors->malformed));
	if (k->sysfs_fd < 0)
		return 0;

	fs_path_init(&p, devno);
	/* The first file read also tells whether the directory exists. */
	r = kfile_read(k->sysfs_fd, fs_path_of(&p, FS_FILE_INTERVAL), buf, sizeof(buf));
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	ret->has_dir = true;
	if (what & KERNEL_READ_OVERRIDE)
		take_override(ret, r, buf, errors);
	if (what & KERNEL_READ_COUNTERS)
		take_counters(k, devno, &p, ret, errors);
	return ret->error;
}

void kernel_report_read_fs(const struct kernel *k, dev_t devno,
			   const struct fs_read_errors *e)
{
	char majmin[DEVNO_FORMAT_MAX], *esc;

	devno_format(devno, majmin, sizeof(majmin));
	for (int f = 0; f < FS_NFILES; f++) {
		if (e->malformed[f]) {
			fprintf(stderr, "atimectl: %s/%s/%s holds '%s', not %s\n",
				k->sysfs_root, majmin, fs_files[f].name,
				name_escape(e->text[f], &esc), fs_files[f].holds);
			free(esc);
		} else if (e->error[f]) {
			fprintf(stderr, "atimectl: cannot read %s/%s/%s: %s\n",
				k->sysfs_root, majmin, fs_files[f].name, strerror(-e->error[f]));
		}
	}
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

int kernel_write_fs(const struct kernel *k, dev_t devno, int64_t value)
{
	struct fs_path p;

	if (k->sysfs_fd < 0)
		return -ENOTSUP;
	fs_path_init(&p, devno);
	return kfile_write_int(k->sysfs_fd, fs_path_of(&p, FS_FILE_INTERVAL), value);
}

void kernel_report_fs_write(const struct kernel *k, const char *verb, dev_t devno,
			    int error)
{
	char path[PATH_MAX], majmin[DEVNO_FORMAT_MAX];

	if (error == -ENOTSUP) {
		kernel_note_unsupported();
		return;
	}
	snprintf(path, sizeof(path), "%s/%s/%s", k->sysfs_root,
		 devno_format(devno, majmin, sizeof(majmin)), fs_files[FS_FILE_INTERVAL].name);
	kfile_report_write(verb, path, error);
}
