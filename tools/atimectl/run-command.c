/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Asking other programs (systemd-tmpfiles, systemctl) and reading whole
 * configuration files.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run-command.h"

extern char **environ;

/* Read fd to its end into a NUL-terminated buffer. */
static int read_all(int fd, char **out)
{
	size_t size = 4096, used = 0;
	char *buf = malloc(size);

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n;

		if (used + 1 == size) {
			char *nbuf;

			if (size >= TEXT_MAX) {
				free(buf);
				return -EFBIG;
			}
			nbuf = realloc(buf, size * 2);
			if (!nbuf) {
				free(buf);
				return -ENOMEM;
			}
			buf = nbuf;
			size *= 2;
		}
		n = read(fd, buf + used, size - used - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int r = -errno;

			free(buf);
			return r;
		}
		if (n == 0)
			break;
		used += (size_t) n;
	}
	buf[used] = '\0';
	*out = buf;
	return 0;
}

int run_capture(char *const argv[], bool quiet, char **out, int *status)
{
	posix_spawn_file_actions_t fa;
	int pipefd[2], r, wstatus;
	pid_t pid;

	*out = NULL;
	*status = 0;
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;
	r = posix_spawn_file_actions_init(&fa);
	if (r == 0)
		r = posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
	if (r == 0)
		r = posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	if (r == 0 && quiet)
		r = posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	if (r == 0)
		r = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (r != 0) {
		close(pipefd[0]);
		return -r;
	}

	r = read_all(pipefd[0], out);
	close(pipefd[0]);
	while (waitpid(pid, &wstatus, 0) < 0) {
		if (errno != EINTR) {
			r = r ? r : -errno;
			break;
		}
	}
	if (r < 0) {
		free(*out);
		*out = NULL;
		return r;
	}
	*status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
	return 0;
}

void describe_run_failure(int r, int status, char *buf, size_t len)
{
	/*
	 * posix_spawnp() says ENOENT, but where the exec fails in the
	 * child (under valgrind, which runs vfork as fork) the child exits
	 * with 127, the shell's "command not found": the same to the user.
	 */
	if (r == -ENOENT || (r == 0 && status == 127))
		snprintf(buf, len, "not found");
	else if (r < 0)
		snprintf(buf, len, "cannot run: %s", strerror(-r));
	else if (status > 128)
		snprintf(buf, len, "killed by signal %d", status - 128);
	else
		snprintf(buf, len, "exited with status %d", status);
}

int read_text_file(const char *path, char **out)
{
	struct stat st;
	int fd, r;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		r = -errno;
	} else if (S_ISDIR(st.st_mode)) {
		r = -EISDIR;
	} else {
		r = read_all(fd, out);
	}
	close(fd);
	return r;
}
