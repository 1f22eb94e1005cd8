/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * remount TARGET [relatime|noatime|strictatime|nodiratime]...
 *
 * One mount(2) call with MS_REMOUNT and exactly the flags named, nothing
 * else: unlike mount(8), which adds the options it finds in fstab or
 * mountinfo, it shows what the kernel does with a remount that names no
 * atime mode.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

int main(int argc, char **argv)
{
	unsigned long flags = MS_REMOUNT;
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: remount TARGET [relatime|noatime|strictatime|nodiratime]...\n");
		return 2;
	}
	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "relatime") == 0)
			flags |= MS_RELATIME;
		else if (strcmp(argv[i], "noatime") == 0)
			flags |= MS_NOATIME;
		else if (strcmp(argv[i], "strictatime") == 0)
			flags |= MS_STRICTATIME;
		else if (strcmp(argv[i], "nodiratime") == 0)
			flags |= MS_NODIRATIME;
		else {
			fprintf(stderr, "remount: unknown flag '%s'\n", argv[i]);
			return 2;
		}
	}
	if (mount(NULL, argv[1], NULL, flags, NULL) < 0) {
		fprintf(stderr, "remount: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	return 0;
}
