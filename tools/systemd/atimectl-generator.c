/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * atimectl-generator: makes x-relatime-interval= in /etc/fstab reach the
 * kernel as the relatime_interval= mount option, and says which fstab
 * lines would otherwise lose it without a word.
 *
 * For each fstab line with a valid x-relatime-interval=DURATION, on a
 * kernel that takes relatime_interval= (asked once: fsconfig() on a
 * tmpfs context that is never created), it writes a drop-in for the mount
 * unit systemd-fstab-generator makes of the line:
 *
 *   <unit>.d/50-atimectl-relatime-interval.conf
 *   [Mount]
 *   Options=<the line's options>,relatime_interval=SECONDS
 *
 * so that the interval is in force before the mount is visible.  The
 * x- option stays in Options= (mount(8) keeps it in utab, where
 * "atimectl apply --changes" finds it; the value is the one already in
 * force).  Lines it leaves to that run instead, applied as soon as the
 * mount appears: "/" (mounted before any generator runs), bind mounts
 * (no superblock is made), filesystems mount(8) hands to a helper
 * (/sbin/mount.TYPE, FUSE: the helper may refuse an option it does not
 * know), a mount point named by two lines, a line that also names
 * relatime_interval= itself, and every line on a kernel without the
 * option.  An invalid value is left alone here and reported by that run.
 *
 * What would otherwise go unsaid: an fstab line libmount skips (mount -a,
 * findmnt and "atimectl apply" all ignore it), and an option string with
 * an unbalanced quote, from which mount(8) drops x-relatime-interval=
 * without a word.  Each gets one line in the kernel log (the journal
 * keeps it), at boot and at every daemon-reload.  Being a generator, it
 * runs before any mount and never holds up or fails the boot.
 *
 * Environment, for tests: SYSTEMD_FSTAB (instead of /etc/fstab),
 * SYSTEMD_LOG_TARGET=console (log to stderr),
 * ATIMECTL_GENERATOR_MOUNT_OPTION=yes|no (instead of asking the kernel),
 * ATIMECTL_GENERATOR_HELPERS (directories of mount helpers, instead of
 * /sbin:/usr/sbin).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <libmount.h>

#include "duration.h"
#include "optstr.h"

#define KERNEL_OPTION "relatime_interval"
#define DROPIN_NAME "50-atimectl-relatime-interval.conf"

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

/* Does the running kernel take relatime_interval= (patch 11)? */
static bool kernel_has_option(void)
{
	const char *force = getenv("ATIMECTL_GENERATOR_MOUNT_OPTION");
	long fd;
	bool ret;

	if (force && *force)
		return strcmp(force, "yes") == 0;
#if defined(SYS_fsopen) && defined(SYS_fsconfig)
	/* a context only: nothing is created, nothing mounted */
	fd = syscall(SYS_fsopen, "tmpfs", 1 /* FSOPEN_CLOEXEC */);
	if (fd < 0)
		return false;
	ret = syscall(SYS_fsconfig, (int) fd, 1 /* FSCONFIG_SET_STRING */,
		      KERNEL_OPTION, "-1", 0) == 0;
	close((int) fd);
	return ret;
#else
	(void) fd;
	(void) ret;
	return false;
#endif
}

/*
 * Does mount(8) hand this type to a helper, or FUSE to its daemon?  Those
 * may refuse an option they do not know; the kernel never sees it.
 */
static bool has_helper(const char *fstype)
{
	const char *dirs = getenv("ATIMECTL_GENERATOR_HELPERS");
	char *copy, *dir, *save = NULL;
	bool found = false;

	if (!fstype || strncmp(fstype, "fuse", 4) == 0)
		return true;
	if (!dirs || !*dirs)
		dirs = "/sbin:/usr/sbin";
	copy = strdup(dirs);
	if (!copy)
		return true;
	for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		char *path;

		if (asprintf(&path, "%s/mount.%s", dir, fstype) < 0)
			break;
		found = access(path, X_OK) == 0;
		free(path);
	}
	free(copy);
	return found;
}

/* Is target the mount point of another line of tb too? */
static bool target_named_twice(struct libmnt_table *tb, const char *target)
{
	struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	int n = 0;

	if (!itr)
		return true;
	while (mnt_table_next_fs(tb, itr, &fs) == 0) {
		const char *t = mnt_fs_get_target(fs);

		n += t && strcmp(t, target) == 0;
	}
	mnt_free_iter(itr);
	return n > 1;
}

/*
 * The mount unit's name, by systemd's own escaping (systemd-escape), of
 * the mount point with symlinks resolved, as systemd-fstab-generator
 * names it.  NULL on failure, logged.
 */
static char *unit_name(const char *target)
{
	char *canonical = realpath(target, NULL), buf[4096];
	const char *where = canonical ? canonical : target;
	int pipefd[2], status;
	ssize_t n, len = 0;
	pid_t pid;

	if (pipe(pipefd) < 0) {
		free(canonical);
		return NULL;
	}
	pid = fork();
	if (pid == 0) {
		dup2(pipefd[1], STDOUT_FILENO);
		close(pipefd[0]);
		close(pipefd[1]);
		execlp("systemd-escape", "systemd-escape", "--path", "--suffix=mount",
		       "--", where, (char *) NULL);
		_exit(127);
	}
	close(pipefd[1]);
	while (pid > 0 && (n = read(pipefd[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(pipefd[0]);
	free(canonical);
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0 || len == 0) {
		log_msg(LOG_WARNING, "cannot name the mount unit of %s with systemd-escape", target);
		return NULL;
	}
	buf[len] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return strdup(buf);
}

/*
 * s with each % doubled (systemd specifiers), or NULL; also NULL for a
 * control character (a newline would end the setting) or a backslash at
 * the end (it would continue the setting on the next line).  Elsewhere a
 * backslash is itself in Options=, as systemd-fstab-generator writes it.
 */
static char *escape_specifiers(const char *s)
{
	size_t len = strlen(s);
	char *ret, *p;

	for (const char *c = s; *c; c++)
		if ((unsigned char) *c < 0x20 || *c == 0x7f)
			return NULL;
	if (len > 0 && s[len - 1] == '\\')
		return NULL;
	ret = malloc(2 * strlen(s) + 1);
	p = ret;
	if (!ret)
		return NULL;
	for (; *s; s++) {
		*p++ = *s;
		if (*s == '%')
			*p++ = '%';
	}
	*p = '\0';
	return ret;
}

/*
 * The unit's Options=: the line's options as systemd-fstab-generator
 * writes them (without x-systemd.device-timeout=, which it takes for
 * itself), and the kernel option.
 */
static char *unit_options(const char *optstr, int64_t seconds)
{
	char *opts = strdup(optstr ? optstr : ""), *ret = NULL, *escaped;
	char value[32];

	if (!opts)
		return NULL;
	mnt_optstr_remove_option(&opts, "x-systemd.device-timeout");
	mnt_optstr_remove_option(&opts, "comment=systemd.device-timeout");
	snprintf(value, sizeof(value), "%lld", (long long) seconds);
	if (mnt_optstr_append_option(&opts, KERNEL_OPTION, value) == 0)
		ret = opts;
	else
		free(opts);
	if (!ret)
		return NULL;
	escaped = escape_specifiers(ret);
	free(ret);
	return escaped;
}

static int write_dropin(const char *dir, const char *unit, const char *options)
{
	char *path;
	FILE *f;
	int r = 0;

	if (asprintf(&path, "%s/%s.d", dir, unit) < 0)
		return -ENOMEM;
	if (mkdir(path, 0755) < 0 && errno != EEXIST) {
		r = -errno;
		goto out;
	}
	free(path);
	if (asprintf(&path, "%s/%s.d/" DROPIN_NAME, dir, unit) < 0)
		return -ENOMEM;
	f = fopen(path, "we");
	if (!f) {
		r = -errno;
		goto out;
	}
	fprintf(f, "# Written by atimectl-generator: x-relatime-interval= of this\n"
		"# fstab line reaches the kernel as " KERNEL_OPTION "=, in force before\n"
		"# the mount is visible.  See atimectl-apply.service(8).\n"
		"[Mount]\nOptions=%s\n", options);
	if (fclose(f) != 0)
		r = -errno;
out:
	if (r < 0)
		log_msg(LOG_WARNING, "cannot write %s: %s", path, strerror(-r));
	free(path);
	return r;
}

/* One fstab line. */
static void generate(struct libmnt_table *tb, struct libmnt_fs *fs, const char *file,
		     const char *dir, bool kernel_option)
{
	const char *target = mnt_fs_get_target(fs), *optstr = mnt_fs_get_options(fs);
	char *value = NULL, *unit = NULL, *options = NULL;
	int64_t seconds;
	int r;

	if (!target || target[0] != '/' || mnt_fs_is_swaparea(fs))
		return;
	r = optstr_find_relatime_interval(optstr, &value);
	if (r == -EINVAL) {
		log_msg(LOG_WARNING, "%s: %s: an unbalanced quote in the options '%s': mount(8) "
			"drops the option it is in without a word, so " RELATIME_OPTION
			"= is not applied", file, target, optstr);
		return;
	}
	if (r <= 0)
		goto out;
	if (!kernel_option || strcmp(target, "/") == 0 ||
	    duration_parse(value, &seconds) < 0 ||
	    mnt_optstr_get_option(optstr, KERNEL_OPTION, NULL, NULL) == 0 ||
	    mnt_optstr_get_option(optstr, "bind", NULL, NULL) == 0 ||
	    mnt_optstr_get_option(optstr, "rbind", NULL, NULL) == 0 ||
	    has_helper(mnt_fs_get_fstype(fs)) || target_named_twice(tb, target))
		goto out;
	unit = unit_name(target);
	options = unit_options(optstr, seconds);
	if (unit && options)
		write_dropin(dir, unit, options);
out:
	free(value);
	free(unit);
	free(options);
}

int main(int argc, char **argv)
{
	const char *file = getenv("SYSTEMD_FSTAB");
	struct libmnt_table *tb;
	int r;

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
	if (r < 0 && r != -ENOENT) {
		log_msg(LOG_WARNING, "cannot read %s: %s", file, strerror(-r));
	} else {
		struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_FORWARD);
		bool kernel_option = kernel_has_option();
		struct libmnt_fs *fs;

		while (itr && mnt_table_next_fs(tb, itr, &fs) == 0)
			generate(tb, fs, file, argv[1], kernel_option);
		mnt_free_iter(itr);
	}
	mnt_unref_table(tb);
	return 0;
}
