/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * failmount N SOURCE TARGET FSTYPE [DATA]
 *
 * mount(2) SOURCE on TARGET with the kernel's fault injection told to
 * fail the Nth allocation this thread makes from then on
 * (/proc/thread-self/fail-nth; which allocations count is up to
 * /sys/kernel/debug/failslab and fail_page_alloc: their gfp and
 * stack-trace filters).  Nothing but the mount(2) call runs between
 * arming and disarming, so the allocations counted are the mount's.
 *
 * Prints "RET ERRNO INJECTED": what mount(2) returned, errno (0 on
 * success), and 1 if the Nth allocation came (and so failed) during the
 * call, 0 if the call made fewer than N.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(2);
}

int main(int argc, char **argv)
{
	char arm[32], left[32] = "";
	int fd, ret, err;
	ssize_t n;

	if (argc < 5 || argc > 6) {
		fprintf(stderr, "usage: failmount N SOURCE TARGET FSTYPE [DATA]\n");
		return 2;
	}
	fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fd < 0)
		die("/proc/thread-self/fail-nth");
	snprintf(arm, sizeof(arm), "%u", (unsigned int)strtoul(argv[1], NULL, 0));
	if (write(fd, arm, strlen(arm)) < 0)
		die("arming fail-nth");
	ret = mount(argv[2], argv[3], argv[4], 0, argc > 5 ? argv[5] : NULL);
	err = ret ? errno : 0;
	n = pread(fd, left, sizeof(left) - 1, 0);
	if (n < 0)
		die("reading fail-nth");
	left[n] = '\0';
	if (pwrite(fd, "0", 1, 0) < 0)
		die("disarming fail-nth");
	printf("%d %d %d\n", ret, err, atoi(left) == 0);
	return 0;
}
