/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * atimectl-generator: says which /etc/fstab lines libmount cannot parse.
 *
 * It generates nothing.  x-relatime-interval= is applied by
 * atimectl-apply@.service, which every mount unit wants through the
 * mount.d/50-atimectl.conf drop-in, with the options systemd itself
 * resolved for the unit; so drop-ins, masking and the precedence of /etc,
 * /run and /usr/lib are systemd's own, and nothing here reads unit files.
 *
 * What would otherwise go unsaid at boot is an fstab line libmount skips
 * (mount -a, findmnt and "atimectl apply" all ignore it without a word):
 * each gets one line in the kernel log, which the journal keeps.  Being a
 * generator, it runs before any mount and again at every daemon-reload,
 * and never holds up or fails the boot.
 *
 * Environment, for tests: SYSTEMD_FSTAB (instead of /etc/fstab),
 * SYSTEMD_LOG_TARGET=console (log to stderr).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <libmount.h>

/* /dev/kmsg, or -1 for stderr. */
static int log_kmsg_fd = -1;

static void log_open(void)
{
	const char *target = getenv("SYSTEMD_LOG_TARGET");

	if (target && (strcmp(target, "console") == 0 || strcmp(target, "stderr") == 0))
		return;
	if (isatty(STDERR_FILENO))
		return;
	log_kmsg_fd = open("/dev/kmsg", O_WRONLY | O_NOCTTY | O_CLOEXEC);
}

__attribute__((format(printf, 2, 3)))
static void log_msg(int prio, const char *fmt, ...)
{
	char buf[1024], line[1100];
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (log_kmsg_fd < 0) {
		fprintf(stderr, "atimectl-generator: %s\n", buf);
		return;
	}
	/*
	 * The kernel makes one record of each write(2) to /dev/kmsg, so the
	 * line goes in one write: stdio may split it (glibc 2.37 and later
	 * write an unbuffered stream in pieces of 128 bytes).
	 */
	n = snprintf(line, sizeof(line), "<%d>atimectl-generator[%d]: %s\n",
		     prio, (int) getpid(), buf);
	if (n < 0)
		return;
	if ((size_t) n >= sizeof(line))
		n = sizeof(line) - 1;
	if (write(log_kmsg_fd, line, n) < 0)
		fprintf(stderr, "atimectl-generator: %s\n", buf);
}

static int errcb(struct libmnt_table *tb, const char *filename, int line)
{
	(void) tb;
	log_msg(LOG_WARNING, "%s:%d: libmount cannot parse this line; mount -a, findmnt "
		"and atimectl skip it, x-relatime-interval= in it included", filename, line);
	return 1;  /* skip the line, keep going */
}

int main(int argc, char **argv)
{
	const char *file = getenv("SYSTEMD_FSTAB");
	struct libmnt_table *tb;
	int r;

	(void) argv;
	log_open();
	if (argc != 2 && argc != 4) {
		log_msg(LOG_ERR, "expects one or three directory arguments");
		return 1;
	}
	/* the initrd's fstab is the initrd's business */
	if (!file && access("/etc/initrd-release", F_OK) == 0)
		return 0;
	if (!file || !*file)
		file = "/etc/fstab";

	tb = mnt_new_table();
	if (!tb) {
		log_msg(LOG_ERR, "out of memory");
		return 1;
	}
	mnt_table_set_parser_errcb(tb, errcb);
	r = mnt_table_parse_fstab(tb, file);
	if (r < 0 && r != -ENOENT)
		log_msg(LOG_WARNING, "cannot read %s: %s", file, strerror(-r));
	mnt_unref_table(tb);
	return 0;
}
