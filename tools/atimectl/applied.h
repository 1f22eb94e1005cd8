/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_APPLIED_H
#define ATIMECTL_APPLIED_H

#include <stdbool.h>
#include <stddef.h>

/*
 * What "apply --changes" has already dealt with: one key per mount that
 * declares x-relatime-interval= in utab, made of the mount's ID, its
 * superblock's MAJ:MIN and the option's text.  A mount whose key is
 * known was applied (or reported) before; a new mount, or a remount that
 * changed the value, has a new key.  The file lives in /run, so a boot
 * starts with none.
 *
 * The file is locked (flock) from applied_open() to applied_close(): two
 * runs never interleave.
 */
struct applied {
	int fd;
	char **old;	/* keys read from the file */
	size_t nold;
	char **seen;	/* keys of the mounts present now */
	size_t nseen;
};

/* Default location; $ATIMECTL_APPLIED overrides it (tests). */
#define APPLIED_FILE "/run/atimectl/applied"

/* Open (creating it and its directory), lock and read.  Negative errno. */
int applied_open(struct applied *st, const char *path);
bool applied_known(const struct applied *st, const char *key);
/* Record a key as present now.  Negative errno. */
int applied_see(struct applied *st, const char *key);
/* Replace the file's keys with those seen, and start a new round. */
int applied_save(struct applied *st);
void applied_close(struct applied *st);

#endif
