/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * badbytes: write arbitrary bytes to a sysctl or sysfs attribute.
 *
 *   badbytes write FILE OFFSET PAYLOAD [CHUNK]
 *	Open FILE for writing once and write the bytes of the file PAYLOAD
 *	to it in write(2) calls of CHUNK bytes (default: one call for all),
 *	or with pwrite(2) from OFFSET on if OFFSET is not -1.  Prints one
 *	line per call: the value returned and errno (0 on success).  A call
 *	that returns 0 or fails ends the writing.
 *
 *   badbytes fuzz FILE SEED COUNT
 *	COUNT rounds of random bytes that are not an integer: each round
 *	opens FILE, writes 1 to 3 chunks (write(2), or pwrite(2) at a
 *	random offset), each of a random length up to 3 pages, each
 *	starting with a byte that no integer parser accepts (NUL, a letter,
 *	punctuation, a byte >= 0x80), and the rest anything: NULs, digits,
 *	newlines, spaces.  Before and after every call the value of FILE is
 *	read back: it must never change, and a call at file offset 0 must
 *	fail (one at another offset may report success: a sysctl ignores
 *	it).  Prints what the calls returned; exits 1 at the first change or
 *	wrongly accepted call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAXLEN (3 * 4096 + 17)

static void die(const char *what)
{
	perror(what);
	exit(2);
}

/* The value of @path as text, without the newline. */
static void value(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		die(path);
	n = read(fd, buf, size - 1);
	if (n < 0)
		die(path);
	close(fd);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

static int cmd_write(const char *path, long long off, const char *payload,
		     size_t chunk)
{
	static char buf[1 << 20];
	size_t len, done = 0;
	ssize_t n;
	int fd;

	fd = open(payload, O_RDONLY);
	if (fd < 0)
		die(payload);
	n = read(fd, buf, sizeof(buf));
	if (n < 0)
		die(payload);
	len = n;
	close(fd);
	if (!chunk)
		chunk = len ? len : 1;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		die(path);
	do {
		size_t c = len - done < chunk ? len - done : chunk;

		errno = 0;
		if (off >= 0)
			n = pwrite(fd, buf + done, c, off + done);
		else
			n = write(fd, buf + done, c);
		printf("%zd %d\n", n, n < 0 ? errno : 0);
		if (n <= 0)
			break;
		done += n;
	} while (done < len);
	close(fd);
	return 0;
}

/* A byte that starts no integer: not a digit, sign or space of any kind. */
static unsigned char bad_first(void)
{
	static const char pick[] = "\0abcxyzXZ_.,;:#!?/\\*\"'()[]{}~^%$@=|&<>`";
	unsigned char c;

	if (random() % 2)
		return pick[random() % (sizeof(pick) - 1)];
	do
		c = 0x80 + random() % 0x80;
	while (c == 0x85 || c == 0xa0);
	return c;
}

static unsigned char any_byte(void)
{
	static const char pick[] = "0123456789 \n\t-+x";

	switch (random() % 4) {
	case 0:
		return 0;
	case 1:
	case 2:
		return pick[random() % (sizeof(pick) - 1)];
	default:
		return random() % 256;
	}
}

static size_t any_len(void)
{
	switch (random() % 4) {
	case 0:
		return 1 + random() % 8;
	case 1:
		return 1 + random() % 64;
	case 2:	/* around a page */
		return 4096 - 8 + random() % 16;
	default:
		return 1 + random() % (MAXLEN - 1);
	}
}

static int cmd_fuzz(const char *path, unsigned int seed, long count)
{
	static unsigned char buf[MAXLEN];
	char before[256], after[256];
	long i, calls = 0, refused = 0, zero = 0, positional = 0, ignored = 0;
	int errnos[256] = { 0 };

	srandom(seed);
	value(path, before, sizeof(before));
	for (i = 0; i < count; i++) {
		int chunks = 1 + random() % 3, k, fd;
		long long off = random() % 3 ? -1 : random() % 8192;

		fd = open(path, O_WRONLY);
		if (fd < 0)
			die(path);
		for (k = 0; k < chunks; k++) {
			size_t len = any_len(), j;
			long long pos = off >= 0 ? off : lseek(fd, 0, SEEK_CUR);
			ssize_t n;

			buf[0] = bad_first();
			for (j = 1; j < len; j++)
				buf[j] = any_byte();
			errno = 0;
			if (off >= 0) {
				n = pwrite(fd, buf, len, off);
				positional++;
				off += len;
			} else {
				n = write(fd, buf, len);
			}
			calls++;
			if (n < 0) {
				refused++;
				errnos[errno & 255]++;
			} else if (n == 0) {
				zero++;
			}
			value(path, after, sizeof(after));
			if (strcmp(before, after)) {
				fprintf(stderr,
					"%s: round %ld (seed %u), call %d of %zu bytes%s returned %zd errno %d: value '%s' became '%s'\n",
					path, i, seed, k, len,
					off >= 0 ? " (pwrite)" : "", n,
					n < 0 ? errno : 0, before, after);
				return 1;
			}
			if (n > 0 && pos == 0) {
				fprintf(stderr, "%s: round %ld (seed %u): %zu bytes that are no integer were accepted (%zd)\n",
					path, i, seed, len, n);
				return 1;
			}
			if (n > 0)
				ignored++;
		}
		close(fd);
	}
	printf("%ld calls (%ld pwrite): %ld refused, %ld returned 0, %ld at an offset ignored;",
	       calls, positional, refused, zero, ignored);
	for (i = 0; i < 256; i++)
		if (errnos[i])
			printf(" %s x%d", strerrorname_np(i) ? strerrorname_np(i) : "?",
			       errnos[i]);
	printf("; value stayed '%s'\n", before);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 5 && !strcmp(argv[1], "write"))
		return cmd_write(argv[2], atoll(argv[3]), argv[4],
				 argc > 5 ? strtoul(argv[5], NULL, 0) : 0);
	if (argc == 5 && !strcmp(argv[1], "fuzz"))
		return cmd_fuzz(argv[2], strtoul(argv[3], NULL, 0),
				strtol(argv[4], NULL, 0));
	fprintf(stderr, "usage: badbytes write FILE OFFSET PAYLOAD [CHUNK]\n"
			"       badbytes fuzz FILE SEED COUNT\n");
	return 2;
}
