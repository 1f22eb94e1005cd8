/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * access METHOD PATH [ARG]
 *
 * Access PATH exactly once, with exactly one system call of the kind
 * named by METHOD, so that a test can count how many times the kernel's
 * atime logic saw that access.  Getting a file descriptor (open, fstat,
 * close) never reads data and so does not count.
 *
 *   read            read(2) of 1 byte, or of ARG bytes
 *   pread           pread64(2) of 1 byte at offset 0
 *   readv           readv(2) of two 1-byte iovecs
 *   preadv2         preadv2(2) of 1 byte at offset 0, flags 0
 *   preadv2-nowait  preadv2(2) with RWF_NOWAIT; prints bytes or -errno,
 *                   and exits 0 on EAGAIN too, and on EOPNOTSUPP (a file
 *                   that cannot be read without waiting, as on FUSE)
 *   sendfile        sendfile(2) of the whole file (at least 1 byte) into
 *                   an unlinked file in /tmp, or in directory ARG
 *   splice          splice(2) of min(size, 64 KiB) (at least 1 byte) from
 *                   offset 0 into a pipe, which is then drained with read
 *   copy_file_range copy_file_range(2) of the whole file (at least 1 byte)
 *                   into an unlinked file in PATH's directory, or in
 *                   directory ARG (cross-filesystem copies fail EXDEV)
 *   mmap            mmap(2) PROT_READ MAP_PRIVATE of the first page, then
 *                   munmap without touching it
 *   getdents        getdents64(2) on directory PATH with a 32 KiB buffer;
 *                   prints the bytes returned
 *   readlink        readlink(2) of symlink PATH
 *   follow          open(PATH, O_PATH) of symlink PATH, following it once
 *   io_uring        one IORING_OP_READ of ARG bytes (default 4096) at
 *                   offset 0, through raw io_uring_setup/io_uring_enter;
 *                   prints the CQE result
 *   io_uring-direct the same on a file opened O_DIRECT
 *   rename          rename(2) of PATH to ARG (path walks only: no data)
 *   splice-eof      splice(2) of 1 byte from offset st_size (end of file)
 *                   into a pipe; prints the bytes spliced (0)
 *   copy_file_range-xdev
 *                   copy_file_range(2) of the whole file into an unlinked
 *                   file in directory ARG on another filesystem; prints
 *                   the bytes copied or -errno, and exits 0 on EXDEV too
 *   mmap-touch      mmap(2) PROT_READ MAP_SHARED of the first page, and
 *                   one load from it (a page fault), then munmap
 *   mmap-write      (not an access: how a test moves mtime behind the
 *                   page cache) open O_RDWR, mmap(2) PROT_WRITE MAP_SHARED
 *                   of the first page, one store of the byte it holds (a
 *                   write fault; the data stay), msync(MS_SYNC), munmap
 *   noatime         open with O_NOATIME, read(2) of 1 byte
 *   direct          open with O_DIRECT, pread64(2) of 4096 bytes at offset
 *                   0 into an aligned buffer; an open that the filesystem
 *                   refuses with EINVAL prints "n/a: ..." and exits 3
 *   execve-e2big    execve(2) of PATH in a child with more argv pointers
 *                   than the stack limit allows: it must fail with E2BIG
 *                   (a child that runs PATH instead is an error)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/io_uring.h>

#define MAX_COUNT (1UL << 30)

static int fail(const char *what)
{
	fprintf(stderr, "access: %s: %s\n", what, strerror(errno));
	return 1;
}

static int open_or_die(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);

	if (fd < 0) {
		fail("open");
		exit(1);
	}
	return fd;
}

/* Bytes to transfer for "whole file" methods: st_size, but at least 1
 * so that the kernel does not return early on a zero-length request. */
static size_t file_len(int fd, size_t cap)
{
	struct stat st;
	size_t len;

	if (fstat(fd, &st) < 0) {
		fail("fstat");
		exit(1);
	}
	len = st.st_size > 0 ? (size_t) st.st_size : 1;
	return len < cap ? len : cap;
}

/* An unlinked, writable file in DIR: O_TMPFILE, else mkstemp + unlink. */
static int tmpfile_in(const char *dir)
{
	char name[PATH_MAX];
	int fd;

	fd = open(dir, O_RDWR | O_TMPFILE | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR))
		goto out;
	if (snprintf(name, sizeof(name), "%s/access.XXXXXX", dir) >=
	    (int) sizeof(name)) {
		errno = ENAMETOOLONG;
		goto out;
	}
	fd = mkostemp(name, O_CLOEXEC);
	if (fd >= 0)
		unlink(name);
out:
	if (fd < 0) {
		fail("output file");
		exit(1);
	}
	return fd;
}

static int parse_count(const char *s, size_t *out)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || v > MAX_COUNT) {
		fprintf(stderr, "access: bad byte count '%s'\n", s);
		return -1;
	}
	*out = v;
	return 0;
}

static int do_io_uring(int fd, size_t len)
{
	struct io_uring_params p;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	unsigned int *sq_tail, *cq_head, *cq_tail, tail, head;
	size_t sq_len, cq_len, sqes_len;
	void *sq, *cq;
	char *buf;
	long ret;
	int rfd, res;

	/* Page-aligned, so that an O_DIRECT file can be read into it. */
	if (posix_memalign((void **) &buf, 4096, len ? len : 1))
		return fail("posix_memalign");
	memset(&p, 0, sizeof(p));
	rfd = (int) syscall(SYS_io_uring_setup, 8, &p);
	if (rfd < 0)
		return fail("io_uring_setup");

	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (p.features & IORING_FEAT_SINGLE_MMAP) {
		if (cq_len > sq_len)
			sq_len = cq_len;
		cq_len = sq_len;
	}
	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_POPULATE, rfd, IORING_OFF_SQ_RING);
	if (sq == MAP_FAILED)
		return fail("mmap sq ring");
	if (p.features & IORING_FEAT_SINGLE_MMAP) {
		cq = sq;
	} else {
		cq = mmap(NULL, cq_len, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_POPULATE, rfd, IORING_OFF_CQ_RING);
		if (cq == MAP_FAILED)
			return fail("mmap cq ring");
	}
	sqes_len = p.sq_entries * sizeof(struct io_uring_sqe);
	sqe = mmap(NULL, sqes_len, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_POPULATE, rfd, IORING_OFF_SQES);
	if (sqe == MAP_FAILED)
		return fail("mmap sqes");

	/* Fill SQE 0 and publish it at the current SQ tail. */
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_READ;
	sqe->fd = fd;
	sqe->off = 0;
	sqe->addr = (unsigned long) buf;
	sqe->len = (unsigned int) len;
	sqe->user_data = 1;
	sq_tail = (unsigned int *) ((char *) sq + p.sq_off.tail);
	tail = *sq_tail;
	((unsigned int *) ((char *) sq + p.sq_off.array))
		[tail & *(unsigned int *) ((char *) sq + p.sq_off.ring_mask)] = 0;
	__atomic_store_n(sq_tail, tail + 1, __ATOMIC_RELEASE);

	ret = syscall(SYS_io_uring_enter, rfd, 1, 1, IORING_ENTER_GETEVENTS,
		      NULL, 0);
	if (ret < 0)
		return fail("io_uring_enter");
	if (ret != 1) {
		fprintf(stderr, "access: io_uring_enter: submitted %ld\n", ret);
		return 1;
	}

	cq_head = (unsigned int *) ((char *) cq + p.cq_off.head);
	cq_tail = (unsigned int *) ((char *) cq + p.cq_off.tail);
	head = *cq_head;
	if (head == __atomic_load_n(cq_tail, __ATOMIC_ACQUIRE)) {
		fprintf(stderr, "access: io_uring: no completion\n");
		return 1;
	}
	cqe = (struct io_uring_cqe *) ((char *) cq + p.cq_off.cqes) +
	      (head & *(unsigned int *) ((char *) cq + p.cq_off.ring_mask));
	res = cqe->res;
	__atomic_store_n(cq_head, head + 1, __ATOMIC_RELEASE);
	printf("%d\n", res);
	if (res < 0) {
		errno = -res;
		return fail("io_uring read");
	}

	munmap(sqe, sqes_len);
	if (cq != sq)
		munmap(cq, cq_len);
	munmap(sq, sq_len);
	close(rfd);
	free(buf);
	return 0;
}

/* Fork, and in the child execve(2) PATH with so many argv pointers that
 * the kernel refuses them with E2BIG before it reads PATH.  The child's
 * errno comes back through a close-on-exec pipe: a child that ran PATH
 * closes it without a word. */
static int do_execve_e2big(const char *path)
{
	struct rlimit rl;
	size_t n, i;
	char **args;
	int pfd[2], err = 0, status;
	ssize_t r;
	pid_t pid;

	if (getrlimit(RLIMIT_STACK, &rl) < 0)
		return fail("getrlimit RLIMIT_STACK");
	/* The kernel's limit on argv and envp: a quarter of the stack limit,
	 * at most 6 MiB (_STK_LIM / 4 * 3), at least ARG_MAX; pointers alone
	 * beyond it. */
	n = 6UL << 20;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / 4 < n)
		n = rl.rlim_cur / 4;
	if (n < 128UL << 10)
		n = 128UL << 10;
	n = n / sizeof(char *) + 1024;
	args = calloc(n + 1, sizeof(char *));
	if (!args)
		return fail("calloc argv");
	for (i = 0; i < n; i++)
		args[i] = (char *) "x";
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return fail("pipe");
	pid = fork();
	if (pid < 0)
		return fail("fork");
	if (pid == 0) {
		close(pfd[0]);
		execve(path, args, (char *[]){ NULL });
		err = errno;
		if (write(pfd[1], &err, sizeof(err)) != sizeof(err))
			_exit(126);
		_exit(127);
	}
	close(pfd[1]);
	r = read(pfd[0], &err, sizeof(err));
	close(pfd[0]);
	if (waitpid(pid, &status, 0) < 0)
		return fail("waitpid");
	free(args);
	if (r != sizeof(err)) {
		fprintf(stderr, "access: execve-e2big: the execve of %s with %zu "
			"arguments succeeded\n", path, n);
		return 1;
	}
	if (err != E2BIG) {
		errno = err;
		return fail("execve-e2big: execve failed, but not with E2BIG");
	}
	printf("-%d\n", err);
	return 0;
}

int main(int argc, char **argv)
{
	const char *method, *path, *arg;
	static char dents[32768];
	char one[2], pathbuf[PATH_MAX], *buf;
	struct iovec iov[2] = {
		{ .iov_base = &one[0], .iov_len = 1 },
		{ .iov_base = &one[1], .iov_len = 1 },
	};
	size_t len = 1;
	ssize_t r;
	loff_t off = 0;
	int fd, out, pfd[2], ret = 0;
	void *map;
	long pg;

	if (argc != 3 && argc != 4)
		goto usage;
	method = argv[1];
	path = argv[2];
	arg = argc == 4 ? argv[3] : NULL;
	/* Only read and io_uring (count), sendfile, copy_file_range (dir) take ARG. */
	if (arg && strcmp(method, "read") && strcmp(method, "io_uring") &&
	    strcmp(method, "io_uring-direct") && strcmp(method, "rename") &&
	    strcmp(method, "sendfile") && strcmp(method, "copy_file_range") &&
	    strcmp(method, "copy_file_range-xdev"))
		goto usage;
	if (!arg && (strcmp(method, "copy_file_range-xdev") == 0 ||
		     strcmp(method, "rename") == 0))
		goto usage;

	if (strcmp(method, "read") == 0) {
		if (arg && parse_count(arg, &len) < 0)
			return 2;
		buf = malloc(len ? len : 1);
		if (!buf)
			return fail("malloc");
		fd = open_or_die(path, O_RDONLY);
		if (read(fd, buf, len) < 0)
			return fail("read");
		free(buf);
	} else if (strcmp(method, "pread") == 0) {
		fd = open_or_die(path, O_RDONLY);
		if (pread(fd, one, 1, 0) < 0)
			return fail("pread");
	} else if (strcmp(method, "readv") == 0) {
		fd = open_or_die(path, O_RDONLY);
		if (readv(fd, iov, 2) < 0)
			return fail("readv");
	} else if (strcmp(method, "preadv2") == 0) {
		fd = open_or_die(path, O_RDONLY);
		if (preadv2(fd, iov, 1, 0, 0) < 0)
			return fail("preadv2");
	} else if (strcmp(method, "preadv2-nowait") == 0) {
		fd = open_or_die(path, O_RDONLY);
		r = preadv2(fd, iov, 1, 0, RWF_NOWAIT);
		if (r < 0) {
			int err = errno;

			printf("-%d\n", err);
			if (err != EAGAIN && err != EOPNOTSUPP) {
				fflush(stdout);
				errno = err;
				return fail("preadv2 RWF_NOWAIT");
			}
		} else {
			printf("%zd\n", r);
		}
	} else if (strcmp(method, "sendfile") == 0) {
		fd = open_or_die(path, O_RDONLY);
		len = file_len(fd, MAX_COUNT);
		out = tmpfile_in(arg ? arg : "/tmp");
		if (sendfile(out, fd, &off, len) < 0)
			return fail("sendfile");
		close(out);
	} else if (strcmp(method, "splice") == 0) {
		fd = open_or_die(path, O_RDONLY);
		len = file_len(fd, 65536);
		if (pipe2(pfd, O_CLOEXEC) < 0)
			return fail("pipe");
		r = splice(fd, &off, pfd[1], NULL, len, 0);
		if (r < 0)
			return fail("splice");
		close(pfd[1]);
		while (r > 0) {
			ssize_t n = read(pfd[0], dents, sizeof(dents));

			if (n <= 0)
				return fail("read pipe");
			r -= n;
		}
		close(pfd[0]);
	} else if (strcmp(method, "copy_file_range") == 0) {
		fd = open_or_die(path, O_RDONLY);
		len = file_len(fd, MAX_COUNT);
		if (!arg) {
			snprintf(pathbuf, sizeof(pathbuf), "%s", path);
			arg = dirname(pathbuf);
		}
		out = tmpfile_in(arg);
		if (copy_file_range(fd, &off, out, NULL, len, 0) < 0)
			return fail("copy_file_range");
		close(out);
	} else if (strcmp(method, "splice-eof") == 0) {
		struct stat st;

		fd = open_or_die(path, O_RDONLY);
		if (fstat(fd, &st) < 0)
			return fail("fstat");
		off = st.st_size;
		if (pipe2(pfd, O_CLOEXEC) < 0)
			return fail("pipe");
		r = splice(fd, &off, pfd[1], NULL, 1, 0);
		if (r < 0)
			return fail("splice at end of file");
		printf("%zd\n", r);
		close(pfd[1]);
		close(pfd[0]);
	} else if (strcmp(method, "copy_file_range-xdev") == 0) {
		fd = open_or_die(path, O_RDONLY);
		len = file_len(fd, MAX_COUNT);
		out = tmpfile_in(arg);
		r = copy_file_range(fd, &off, out, NULL, len, 0);
		if (r < 0 && errno != EXDEV)
			return fail("copy_file_range to another filesystem");
		printf("%zd\n", r < 0 ? (ssize_t) -errno : r);
		close(out);
	} else if (strcmp(method, "mmap-touch") == 0 ||
		   strcmp(method, "mmap-write") == 0) {
		int w = strcmp(method, "mmap-write") == 0;

		fd = open_or_die(path, w ? O_RDWR : O_RDONLY);
		pg = sysconf(_SC_PAGESIZE);
		map = mmap(NULL, (size_t) pg, w ? PROT_READ | PROT_WRITE : PROT_READ,
			   MAP_SHARED, fd, 0);
		if (map == MAP_FAILED)
			return fail("mmap");
		if (w) {
			/* The byte it holds: a write fault, same data. */
			((volatile char *) map)[0] = ((volatile char *) map)[0];
			if (msync(map, (size_t) pg, MS_SYNC) < 0)
				return fail("msync");
		} else {
			one[0] = ((volatile char *) map)[0];
		}
		munmap(map, (size_t) pg);
	} else if (strcmp(method, "noatime") == 0) {
		fd = open_or_die(path, O_RDONLY | O_NOATIME);
		if (read(fd, one, 1) < 0)
			return fail("read O_NOATIME");
	} else if (strcmp(method, "direct") == 0) {
		void *abuf;

		fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
		if (fd < 0 && errno == EINVAL) {
			printf("n/a: O_DIRECT open: %s\n", strerror(errno));
			return 3;
		}
		if (fd < 0)
			return fail("open O_DIRECT");
		if (posix_memalign(&abuf, 4096, 4096)) {
			errno = ENOMEM;
			return fail("posix_memalign");
		}
		if (pread(fd, abuf, 4096, 0) < 0)
			return fail("pread O_DIRECT");
		free(abuf);
	} else if (strcmp(method, "execve-e2big") == 0) {
		return do_execve_e2big(path);
	} else if (strcmp(method, "mmap") == 0) {
		fd = open_or_die(path, O_RDONLY);
		pg = sysconf(_SC_PAGESIZE);
		map = mmap(NULL, (size_t) pg, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map == MAP_FAILED)
			return fail("mmap");
		munmap(map, (size_t) pg);
	} else if (strcmp(method, "getdents") == 0) {
		fd = open_or_die(path, O_RDONLY | O_DIRECTORY);
		r = syscall(SYS_getdents64, fd, dents, sizeof(dents));
		if (r < 0)
			return fail("getdents64");
		printf("%zd\n", r);
	} else if (strcmp(method, "readlink") == 0) {
		if (readlink(path, pathbuf, sizeof(pathbuf)) < 0)
			return fail("readlink");
		return 0;
	} else if (strcmp(method, "rename") == 0) {
		if (rename(path, arg) < 0)
			return fail("rename");
		return 0;
	} else if (strcmp(method, "follow") == 0) {
		fd = open_or_die(path, O_RDONLY | O_PATH);
	} else if (strcmp(method, "io_uring") == 0 ||
		   strcmp(method, "io_uring-direct") == 0) {
		len = 4096;
		if (arg && parse_count(arg, &len) < 0)
			return 2;
		fd = open_or_die(path, strcmp(method, "io_uring") == 0 ?
				 O_RDONLY : O_RDONLY | O_DIRECT);
		ret = do_io_uring(fd, len);
	} else {
		fprintf(stderr, "access: unknown method '%s'\n", method);
		return 2;
	}
	close(fd);
	return ret;

usage:
	fprintf(stderr, "usage: access METHOD PATH [ARG]\n"
		"methods: read [BYTES], pread, readv, preadv2, preadv2-nowait,\n"
		"  sendfile [OUTDIR], splice, copy_file_range [OUTDIR], mmap,\n"
		"  getdents, readlink, follow, io_uring [BYTES], splice-eof,\n"
		"  copy_file_range-xdev OUTDIR, mmap-touch, mmap-write, noatime,\n"
		"  direct, execve-e2big, io_uring-direct [BYTES], rename NEWPATH\n");
	return 2;
}
