/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_SYSFS_H
#define ATIMECTL_SYSFS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "devno.h"
#include "kfile.h"

/* Interval the kernel uses when it has no relatime_interval patches. */
#define UPSTREAM_RELATIME_INTERVAL INT64_C(86400)

/*
 * The kernel interface: /proc/sys/fs/relatime_interval (procsys.h) and
 * /sys/fs/relatime/MAJ:MIN/ (the rest of this file), opened together by
 * kernel_open().  Both roots can be redirected for tests with
 * $ATIMECTL_PROC_SYS_FS and $ATIMECTL_SYSFS_RELATIME.
 */
struct kernel {
	char *proc_sys_fs;   /* directory holding relatime_interval */
	char *sysfs_root;    /* /sys/fs/relatime */
	int sysfs_fd;        /* open directory, or -1 when it does not exist */
};

/* What /sys/fs/relatime/MAJ:MIN says about one superblock. */
struct fs_kernel_state {
	bool has_dir;        /* the MAJ:MIN directory exists */
	bool has_override;   /* relatime_interval read and >= 0 */
	bool bad_override;   /* relatime_interval unreadable or no number */
	int error;           /* the first file that was unreadable or malformed */
	int64_t override;    /* seconds, valid when has_override */
	bool has_updates;    /* atime_updates read */
	bool has_skips;      /* relatime_skips read */
	uint64_t updates;
	uint64_t skips;
};

enum {
	KERNEL_READ_OVERRIDE = 1 << 0,
	KERNEL_READ_COUNTERS = 1 << 1,
};

/* The files of /sys/fs/relatime/MAJ:MIN/ that kernel_read_fs() reads. */
enum fs_file {
	FS_FILE_INTERVAL,    /* relatime_interval */
	FS_FILE_UPDATES,     /* atime_updates */
	FS_FILE_SKIPS,       /* relatime_skips */
	FS_NFILES
};

/* What kernel_read_fs() found wrong, file by file. */
struct fs_read_errors {
	int error[FS_NFILES];           /* reading it failed: a negative errno */
	bool malformed[FS_NFILES];      /* it holds text, not what the kernel writes */
	char text[FS_NFILES][KFILE_MAX];
};

/*
 * Open the kernel interface.  Returns 0, or a negative errno: -ENOMEM,
 * or why /sys/fs/relatime (which may be missing) could not be opened;
 * kernel_report_open() says which.
 */
int kernel_open(struct kernel *k);
void kernel_close(struct kernel *k);
void kernel_report_open(int error);

/* True when /sys/fs/relatime exists, i.e. the kernel has the patches. */
bool kernel_has_fs_interval(const struct kernel *k);

/* Print the one-line "this kernel has no ..." note. */
void kernel_note_unsupported(void);

/*
 * Read the files selected by what (KERNEL_READ_*) for one superblock.  A
 * missing directory is not an error (has_dir = false).  In a directory
 * that exists, a file that cannot be read, a relatime_interval that holds
 * anything but -1 or 0..2147483647 (bad_override), a counter that holds no
 * count, are errors: the files that could be read are filled in, the first
 * error is returned (a negative errno), also in ret->error, and each one
 * is noted in *errors (unless NULL) for kernel_report_read_fs(), which
 * names the file and says why or what it holds.
 */
int kernel_read_fs(const struct kernel *k, dev_t devno, unsigned int what,
		   struct fs_kernel_state *ret, struct fs_read_errors *errors);
void kernel_report_read_fs(const struct kernel *k, dev_t devno,
			   const struct fs_read_errors *errors);

/*
 * The device numbers that have a directory under /sys/fs/relatime, sorted,
 * from one directory listing: lets "status" skip the superblocks that have
 * none without a system call each.  Returns 0 (an empty list without the
 * directory) or a negative errno.  Free *ret.
 */
int kernel_list_fs(const struct kernel *k, dev_t **ret, size_t *n);
bool devno_list_contains(const dev_t *list, size_t n, dev_t devno);

/* Does /sys/fs/relatime/MAJ:MIN exist? */
bool kernel_fs_has_dir(const struct kernel *k, dev_t devno);

/*
 * Write relatime_interval of one superblock (-1 = inherit).  Returns 0 or
 * a negative errno: -ENOTSUP without /sys/fs/relatime, -ENOENT or -ENODEV
 * when the superblock's directory is gone (it was unmounted).
 */
int kernel_write_fs(const struct kernel *k, dev_t devno, int64_t value);

/*
 * Say why kernel_write_fs() failed (error, a negative errno), for verb:
 * "atimectl: VERB: permission denied writing PATH (are you root?)".
 */
void kernel_report_fs_write(const struct kernel *k, const char *verb, dev_t devno,
			    int error);

#endif
