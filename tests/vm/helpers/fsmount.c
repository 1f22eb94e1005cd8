/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsmount FSTYPE PATH relatime|strictatime|noatime
 *
 * Mount a new FSTYPE superblock on PATH through the new mount API
 * (fsopen, fsconfig FSCONFIG_CMD_CREATE, fsmount with the given atime
 * attribute, move_mount), which mount(8) in bookworm does not use.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/mount.h>

static int fail(const char *what)
{
	fprintf(stderr, "fsmount: %s: %s\n", what, strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	unsigned int attr;
	int fsfd, mfd;

	if (argc != 4) {
		fprintf(stderr, "usage: fsmount FSTYPE PATH relatime|strictatime|noatime\n");
		return 2;
	}
	if (strcmp(argv[3], "relatime") == 0)
		attr = MOUNT_ATTR_RELATIME;
	else if (strcmp(argv[3], "strictatime") == 0)
		attr = MOUNT_ATTR_STRICTATIME;
	else if (strcmp(argv[3], "noatime") == 0)
		attr = MOUNT_ATTR_NOATIME;
	else {
		fprintf(stderr, "fsmount: unknown atime mode '%s'\n", argv[3]);
		return 2;
	}

	fsfd = (int) syscall(SYS_fsopen, argv[1], FSOPEN_CLOEXEC);
	if (fsfd < 0)
		return fail("fsopen");
	if (syscall(SYS_fsconfig, fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return fail("fsconfig create");
	mfd = (int) syscall(SYS_fsmount, fsfd, FSMOUNT_CLOEXEC, attr);
	if (mfd < 0)
		return fail("fsmount");
	if (syscall(SYS_move_mount, mfd, "", AT_FDCWD, argv[2],
		    MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return fail("move_mount");
	close(mfd);
	close(fsfd);
	return 0;
}
