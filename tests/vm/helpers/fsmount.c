/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsmount [-o OPTIONS] FSTYPE SOURCE TARGET
 *
 * Mount SOURCE on TARGET with exactly the system calls util-linux 2.41's
 * mount(8) makes through the new mount API (libmount's hook_mount.c, as
 * Debian 13 ships it):
 *
 *   fsopen(FSTYPE, FSOPEN_CLOEXEC)
 *   fsconfig(FSCONFIG_SET_STRING, "source", SOURCE)
 *   fsconfig(FSCONFIG_SET_FLAG, "ro")               only with "ro"
 *   fsconfig(FSCONFIG_CMD_CREATE)
 *   fsmount(FSMOUNT_CLOEXEC, 0)                     attr_flags always 0
 *   mount_setattr(AT_EMPTY_PATH, set, clr)          only if set or clr
 *   move_mount(MOVE_MOUNT_F_EMPTY_PATH)
 *
 * OPTIONS is a comma-separated list of relatime, noatime, strictatime,
 * nodiratime and ro.  As in libmount's mnt_optlist_get_attrs(), an atime
 * mode puts MOUNT_ATTR__ATIME in attr_clr and the mode (the last one
 * given) in attr_set; nodiratime and ro only add to attr_set.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/mount.h>

static int fail(const char *what)
{
	fprintf(stderr, "fsmount: %s: %s\n", what, strerror(errno));
	return 1;
}

static int usage(void)
{
	fprintf(stderr, "usage: fsmount [-o relatime|noatime|strictatime|nodiratime|ro,...] FSTYPE SOURCE TARGET\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct mount_attr attr = { 0 };
	char *opts = NULL, *opt, *save = NULL;
	int ro = 0, fsfd, mfd, i = 1;

	if (argc > 2 && strcmp(argv[1], "-o") == 0) {
		opts = argv[2];
		i = 3;
	}
	if (argc - i != 3)
		return usage();

	for (opt = opts ? strtok_r(opts, ",", &save) : NULL; opt;
	     opt = strtok_r(NULL, ",", &save)) {
		if (strcmp(opt, "relatime") == 0 || strcmp(opt, "noatime") == 0 ||
		    strcmp(opt, "strictatime") == 0) {
			attr.attr_clr |= MOUNT_ATTR__ATIME;
			attr.attr_set &= ~(uint64_t)MOUNT_ATTR__ATIME;
			attr.attr_set |= opt[0] == 'r' ? MOUNT_ATTR_RELATIME :
					 opt[0] == 'n' ? MOUNT_ATTR_NOATIME :
							 MOUNT_ATTR_STRICTATIME;
		} else if (strcmp(opt, "nodiratime") == 0) {
			attr.attr_set |= MOUNT_ATTR_NODIRATIME;
		} else if (strcmp(opt, "ro") == 0) {
			attr.attr_set |= MOUNT_ATTR_RDONLY;
			ro = 1;
		} else {
			fprintf(stderr, "fsmount: unknown option '%s'\n", opt);
			return 2;
		}
	}

	fsfd = (int)syscall(SYS_fsopen, argv[i], FSOPEN_CLOEXEC);
	if (fsfd < 0)
		return fail("fsopen");
	if (syscall(SYS_fsconfig, fsfd, FSCONFIG_SET_STRING, "source",
		    argv[i + 1], 0) < 0)
		return fail("fsconfig source");
	if (ro && syscall(SYS_fsconfig, fsfd, FSCONFIG_SET_FLAG, "ro", NULL, 0) < 0)
		return fail("fsconfig ro");
	if (syscall(SYS_fsconfig, fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return fail("fsconfig create");
	mfd = (int)syscall(SYS_fsmount, fsfd, FSMOUNT_CLOEXEC, 0);
	if (mfd < 0)
		return fail("fsmount");
	if ((attr.attr_set || attr.attr_clr) &&
	    syscall(SYS_mount_setattr, mfd, "", AT_EMPTY_PATH, &attr,
		    sizeof(attr)) < 0)
		return fail("mount_setattr");
	if (syscall(SYS_move_mount, mfd, "", AT_FDCWD, argv[i + 2],
		    MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return fail("move_mount");
	close(mfd);
	close(fsfd);
	return 0;
}
