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
 * Prints "RET ERRNO INJECTED WARNINGS": what mount(2) returned, errno (0
 * on success), 1 if the Nth allocation came (and so failed) during the
 * call, 0 if the call made fewer than N, and how many kernel log records
 * saying "relatime: cannot create sysfs directory" came while it ran
 * (from its start to after the call; read from /dev/kmsg, so that the
 * caller needs no dmesg); then a second line with the text of the last
 * such record (empty if none came).  Records lost to the ring buffer
 * wrapping in that time make it fail: the count would be wrong.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#define WARNING "relatime: cannot create sysfs directory"

static void die(const char *what)
{
	perror(what);
	exit(2);
}

/*
 * The records of /dev/kmsg (opened at its end) that came since, counted
 * if they hold WARNING; the last one's text in LAST.
 */
static int count_warnings(int kfd, char *last, size_t size)
{
	char rec[8192], *text, *end;
	int count = 0;
	ssize_t n;

	last[0] = '\0';
	for (;;) {
		n = read(kfd, rec, sizeof(rec) - 1);
		if (n < 0) {
			if (errno == EAGAIN)
				break;
			if (errno == EINTR)
				continue;
			/* EPIPE: records were overwritten before we read them */
			die("reading /dev/kmsg");
		}
		rec[n] = '\0';
		/* "PRIO,SEQ,USEC,FLAGS;TEXT\n" and then " KEY=VALUE" lines */
		text = strchr(rec, ';');
		if (!text)
			continue;
		text++;
		end = strchr(text, '\n');
		if (end)
			*end = '\0';
		if (strstr(text, WARNING)) {
			count++;
			snprintf(last, size, "%s", text);
		}
	}
	return count;
}

int main(int argc, char **argv)
{
	char arm[32], left[32] = "", last[1024];
	int fd, kfd, ret, err, warnings;
	ssize_t n;

	if (argc < 5 || argc > 6) {
		fprintf(stderr, "usage: failmount N SOURCE TARGET FSTYPE [DATA]\n");
		return 2;
	}
	kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kfd < 0)
		die("/dev/kmsg");
	if (lseek(kfd, 0, SEEK_END) < 0)
		die("seeking to the end of /dev/kmsg");
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
	warnings = count_warnings(kfd, last, sizeof(last));
	printf("%d %d %d %d\n%s\n", ret, err, atoi(left) == 0, warnings, last);
	return 0;
}
