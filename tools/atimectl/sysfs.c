/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel side: the global sysctl and the per-superblock directories.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decimal.h"
#include "escape.h"
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

/* Read a small file at dirfd/path into buf, NUL-terminated. */
static int read_small(int dirfd, const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	close(fd);
	buf[n] = '\0';
	return 0;
}

/* Did strto*() consume a number, followed by nothing but a newline? */
static bool number_ends_well(const char *s, const char *end)
{
	if (errno != 0 || end == s)
		return false;
	while (*end == '\n' || *end == ' ')
		end++;
	return *end == '\0';
}

/* Parse a decimal integer with optional trailing newline. */
static int parse_int64(const char *s, int64_t *ret)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (!number_ends_well(s, end))
		return -EINVAL;
	*ret = v;
	return 0;
}

static int parse_uint64(const char *s, uint64_t *ret)
{
	char *end;
	unsigned long long v;

	if (*s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (!number_ends_well(s, end))
		return -EINVAL;
	*ret = v;
	return 0;
}

int kernel_read_global(const struct kernel *k, int64_t *ret)
{
	char buf[64];
	int dirfd, r;

	dirfd = open(k->proc_sys_fs, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return -errno;
	r = read_small(dirfd, "relatime_interval", buf, sizeof(buf));
	close(dirfd);
	if (r < 0)
		return r;
	return parse_int64(buf, ret);
}

int kernel_read_global_text(const struct kernel *k, char *buf, size_t len)
{
	int dirfd, r;
	size_t n;

	dirfd = open(k->proc_sys_fs, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return -errno;
	r = read_small(dirfd, "relatime_interval", buf, len);
	close(dirfd);
	if (r < 0)
		return r;
	n = strlen(buf);
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

/* Print a write failure the way users can act on it. */
static void report_write_error(const char *verb, const char *rawpath, int error)
{
	char *esc;
	const char *path = name_escape(rawpath, &esc);

	switch (error) {
	case EACCES:
	case EPERM:
		fprintf(stderr, "atimectl: %s: permission denied writing %s (are you root?)\n",
			verb, path);
		break;
	case EINVAL:
		fprintf(stderr, "atimectl: %s: the kernel rejected the value written to %s\n",
			verb, path);
		break;
	case ENOENT:
	case ENODEV:
		fprintf(stderr, "atimectl: %s: %s is gone (filesystem no longer mounted?)\n",
			verb, path);
		break;
	case EROFS:
		fprintf(stderr, "atimectl: %s: %s is on a read-only filesystem\n",
			verb, path);
		break;
	default:
		fprintf(stderr, "atimectl: %s: cannot write %s: %s\n",
			verb, path, strerror(error));
		break;
	}
	free(esc);
}

/* Write "value\n" to dirfd/name; returns 0 or a positive errno. */
static int write_value(int dirfd, const char *name, int64_t value)
{
	char buf[DECIMAL_MAX + 1];
	int fd, len, error = 0;
	ssize_t n;

	len = (int) strlen(decimal_i64(value, buf));
	buf[len++] = '\n';
	fd = openat(dirfd, name, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return errno;
	n = write(fd, buf, (size_t) len);
	if (n < 0)
		error = errno;
	else if (n != len)
		error = EIO;
	if (close(fd) < 0 && error == 0)
		error = errno;
	return error;
}

int kernel_write_global(const struct kernel *k, const char *verb, int64_t value)
{
	char path[PATH_MAX];
	int dirfd, error;

	snprintf(path, sizeof(path), "%s/relatime_interval", k->proc_sys_fs);
	dirfd = open(k->proc_sys_fs, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		error = errno;
	} else {
		error = write_value(dirfd, "relatime_interval", value);
		close(dirfd);
	}
	if (error == ENOENT) {
		fprintf(stderr, "atimectl: this kernel has no global relatime interval (no /proc/sys/fs/relatime_interval)\n");
		return -ENOENT;
	}
	if (error) {
		report_write_error(verb, path, error);
		return -error;
	}
	return 0;
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
	size_t n = strlen(text);

	if (n > 0 && text[n - 1] == '\n')
		text[n - 1] = '\0';
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
	char buf[64];
	int r;

	r = read_small(k->sysfs_fd, rel, buf, sizeof(buf));
	if ((r == -ENOENT || r == -ENODEV) && !kernel_fs_has_dir(k, devno))
		return 1;
	if (r < 0) {
		fprintf(stderr, "atimectl: cannot read %s/%s: %s\n",
			k->sysfs_root, rel, strerror(-r));
		return r;
	}
	if (parse_uint64(buf, ret) == 0)
		return 0;
	return report_bad_content(k, rel, buf, "a count");
}

int kernel_read_fs(const struct kernel *k, dev_t devno, unsigned int what,
		   struct fs_kernel_state *ret)
{
	char path[DEVNO_FORMAT_MAX + 32], buf[64];
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
	r = read_small(k->sysfs_fd, path, buf, sizeof(buf));
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	ret->has_dir = true;
	if (what & KERNEL_READ_OVERRIDE) {
		/* -1: none; anything else but 0..INT_MAX is not the kernel's */
		if (r < 0 || parse_int64(buf, &interval) < 0 ||
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
	int error;

	devno_format(devno, rel, DEVNO_FORMAT_MAX);
	strcat(rel, "/relatime_interval");
	snprintf(path, sizeof(path), "%s/%s", k->sysfs_root, rel);

	if (k->sysfs_fd < 0) {
		kernel_note_unsupported();
		return -ENOTSUP;
	}
	error = write_value(k->sysfs_fd, rel, value);
	if (error && (report_gone || (error != ENOENT && error != ENODEV)))
		report_write_error(verb, path, error);
	return -error;
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
	report_write_error(verb, path, error);
}
