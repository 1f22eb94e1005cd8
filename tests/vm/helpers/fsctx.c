/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsctx create FSTYPE TARGET [PARAM]...
 * fsctx reconfigure TARGET [PARAM]...
 *
 * Drive a filesystem context of the new mount API with exactly the
 * parameters given, and nothing else:
 *
 *   create:      fsopen(FSTYPE), fsconfig() of each PARAM,
 *                FSCONFIG_CMD_CREATE, fsmount(), move_mount() to TARGET
 *   reconfigure: fspick(TARGET), fsconfig() of each PARAM,
 *                FSCONFIG_CMD_RECONFIGURE
 *
 * Between fsmount() and move_mount(), while the new mount is not yet
 * visible anywhere, create prints "detached MAJ:MIN VALUE" on stdout:
 * the superblock's /sys/fs/relatime/MAJ:MIN/relatime_interval (VALUE is
 * "none" if the file cannot be read).
 *
 * A PARAM KEY=VALUE is FSCONFIG_SET_STRING (VALUE may be empty), a bare
 * KEY is FSCONFIG_SET_FLAG.  When a call fails, fsctx names it and the
 * parameter on stderr, prints what the kernel wrote to the context's log
 * (one "e ..."/"w ..."/"i ..." line each), and exits 1; bad usage exits 2.
 * On success it prints the log too, so a test sees every message.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/mount.h>

/* Print and empty the context's message log. */
static void drain_log(int fd)
{
	char buf[4096];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf) - 1)) > 0) {
		buf[n] = '\0';
		fprintf(stderr, "%s\n", buf);
	}
}

static int fail(int fd, const char *what, const char *param)
{
	int err = errno;

	fprintf(stderr, "fsctx: %s%s%s: %s\n", what, param ? " " : "",
		param ? param : "", strerror(err));
	if (fd >= 0)
		drain_log(fd);
	return 1;
}

/* What the detached mount's superblock has as its relatime_interval. */
static void print_detached(int mfd)
{
	char path[64], value[32] = "none";
	struct stat st;
	FILE *f;

	if (fstat(mfd, &st) < 0) {
		perror("fsctx: fstat of the detached mount");
		return;
	}
	snprintf(path, sizeof(path), "/sys/fs/relatime/%u:%u/relatime_interval",
		 major(st.st_dev), minor(st.st_dev));
	f = fopen(path, "re");
	if (f) {
		if (!fgets(value, sizeof(value), f))
			strcpy(value, "none");
		value[strcspn(value, "\n")] = '\0';
		fclose(f);
	}
	printf("detached %u:%u %s\n", major(st.st_dev), minor(st.st_dev), value);
	fflush(stdout);
}

static int usage(void)
{
	fprintf(stderr, "usage: fsctx create FSTYPE TARGET [KEY[=VALUE]]...\n"
			"       fsctx reconfigure TARGET [KEY[=VALUE]]...\n");
	return 2;
}

static int set_params(int fd, char **params, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		char *key = params[i], *eq = strchr(key, '=');
		long ret;

		if (eq) {
			*eq = '\0';
			ret = syscall(SYS_fsconfig, fd, FSCONFIG_SET_STRING, key,
				      eq + 1, 0);
			*eq = '=';
		} else {
			ret = syscall(SYS_fsconfig, fd, FSCONFIG_SET_FLAG, key,
				      NULL, 0);
		}
		if (ret < 0)
			return fail(fd, "fsconfig", params[i]);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int fd, mfd;

	if (argc >= 4 && strcmp(argv[1], "create") == 0) {
		fd = (int)syscall(SYS_fsopen, argv[2], FSOPEN_CLOEXEC);
		if (fd < 0)
			return fail(-1, "fsopen", argv[2]);
		if (set_params(fd, argv + 4, argc - 4))
			return 1;
		if (syscall(SYS_fsconfig, fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
			return fail(fd, "fsconfig", "create");
		mfd = (int)syscall(SYS_fsmount, fd, FSMOUNT_CLOEXEC, 0);
		if (mfd < 0)
			return fail(fd, "fsmount", NULL);
		print_detached(mfd);
		if (syscall(SYS_move_mount, mfd, "", AT_FDCWD, argv[3],
			    MOVE_MOUNT_F_EMPTY_PATH) < 0)
			return fail(fd, "move_mount", argv[3]);
		close(mfd);
	} else if (argc >= 3 && strcmp(argv[1], "reconfigure") == 0) {
		fd = (int)syscall(SYS_fspick, AT_FDCWD, argv[2], FSPICK_CLOEXEC);
		if (fd < 0)
			return fail(-1, "fspick", argv[2]);
		if (set_params(fd, argv + 3, argc - 3))
			return 1;
		if (syscall(SYS_fsconfig, fd, FSCONFIG_CMD_RECONFIGURE, NULL,
			    NULL, 0) < 0)
			return fail(fd, "fsconfig", "reconfigure");
	} else {
		return usage();
	}
	drain_log(fd);
	close(fd);
	return 0;
}
