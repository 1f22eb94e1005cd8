/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The keys "apply --changes" has dealt with, kept in a small file in /run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "applied.h"

static void free_keys(char **keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
}

static int push_key(char ***keys, size_t *n, const char *key)
{
	char **grown = realloc(*keys, (*n + 1) * sizeof(**keys));

	if (!grown)
		return -ENOMEM;
	*keys = grown;
	grown[*n] = strdup(key);
	if (!grown[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

/* mkdir -p of path's directory (one level suffices for /run/atimectl) */
static int make_parent(const char *path)
{
	char *dir = strdup(path), *slash;
	int r = 0;

	if (!dir)
		return -ENOMEM;
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			r = -errno;
	}
	free(dir);
	return r;
}

static int read_keys(struct applied *st)
{
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int fd, r = 0;

	fd = dup(st->fd);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "r");
	if (!f) {
		r = -errno;
		close(fd);
		return r;
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		if (*line && (r = push_key(&st->old, &st->nold, line)) < 0)
			break;
	}
	if (!r && ferror(f))
		r = -EIO;
	free(line);
	fclose(f);
	return r;
}

int applied_open(struct applied *st, const char *path)
{
	int r;

	memset(st, 0, sizeof(*st));
	st->fd = -1;
	r = make_parent(path);
	if (r < 0)
		return r;
	st->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY, 0644);
	if (st->fd < 0)
		return -errno;
	if (flock(st->fd, LOCK_EX) < 0)
		return -errno;
	return read_keys(st);
}

bool applied_known(const struct applied *st, const char *key)
{
	for (size_t i = 0; i < st->nold; i++)
		if (strcmp(st->old[i], key) == 0)
			return true;
	return false;
}

int applied_see(struct applied *st, const char *key)
{
	return push_key(&st->seen, &st->nseen, key);
}

int applied_save(struct applied *st)
{
	size_t len = 0, off = 0;
	char *buf;
	int r = 0;

	for (size_t i = 0; i < st->nseen; i++)
		len += strlen(st->seen[i]) + 1;
	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	for (size_t i = 0; i < st->nseen; i++)
		off += sprintf(buf + off, "%s\n", st->seen[i]);
	/* in place: the lock is on this file, a rename would drop it */
	if (ftruncate(st->fd, 0) < 0) {
		r = -errno;
	} else {
		ssize_t n = pwrite(st->fd, buf, len, 0);

		if (n < 0)
			r = -errno;
		else if ((size_t) n != len)
			r = -EIO;
	}
	free(buf);
	free_keys(st->old, st->nold);
	st->old = st->seen;
	st->nold = st->nseen;
	st->seen = NULL;
	st->nseen = 0;
	return r;
}

void applied_close(struct applied *st)
{
	free_keys(st->old, st->nold);
	free_keys(st->seen, st->nseen);
	if (st->fd >= 0)
		close(st->fd);
	st->fd = -1;
}
