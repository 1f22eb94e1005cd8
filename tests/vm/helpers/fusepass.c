/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fusepass MOUNTPOINT BACKINGDIR [LOG]
 *
 * A FUSE filesystem with kernel passthrough (Linux 6.9 and later): its
 * root directory holds, by name, the regular files and the executables
 * of BACKINGDIR (one level, looked up at each access, so files made there
 * later appear), each opened with FOPEN_PASSTHROUGH on a backing file
 * the kernel reads itself.  It speaks the FUSE protocol on /dev/fuse
 * directly (no libfuse), mounts, and serves in a child process until the
 * filesystem is unmounted, its standard output and input /dev/null and
 * its error messages going to LOG (default /dev/null: a caller that waits
 * for the end of our output must not wait for the server); the parent
 * exits 0 once the kernel has
 * accepted passthrough in FUSE_INIT.  A kernel that offers no passthrough
 * in FUSE_INIT gets no filesystem: "n/a: ..." and exit status 3.  Nothing can be created, written or
 * listed through it: reads, mmap and exec of existing files are what the
 * tests need.
 *
 * Headers without FUSE passthrough (Debian 12's linux-libc-dev 6.1) build
 * a program that prints "n/a: ..." and exits 3.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/fuse.h>

#if defined(FUSE_PASSTHROUGH) && defined(FUSE_DEV_IOC_BACKING_OPEN)

#define MAX_NODES 8192
#define BUF_SIZE (1U << 20)

static char *names[MAX_NODES];	/* nodeid - 2 -> name in BACKINGDIR */
static unsigned int n_names;
/* The kernel refuses (EBUSY) a second backing file for an inode that is
 * open already: every open of a node shares one backing id, closed at
 * its last release. */
static int backing_ids[MAX_NODES];
static unsigned int open_counts[MAX_NODES];
static int dirfd_backing, devfd;

static void die(const char *what)
{
	fprintf(stderr, "fusepass: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int reply(uint64_t unique, int error, const void *arg, size_t len)
{
	struct fuse_out_header out = {
		.len = (uint32_t) (sizeof(out) + (error ? 0 : len)),
		.error = error,
		.unique = unique,
	};
	struct iovec iov[2] = {
		{ .iov_base = &out, .iov_len = sizeof(out) },
		{ .iov_base = (void *) arg, .iov_len = error ? 0 : len },
	};

	if (writev(devfd, iov, 2) < 0 && errno != ENOENT) {
		/* ENOENT: the request was interrupted, nobody waits for it. */
		fprintf(stderr, "fusepass: reply to request %llu: %s\n",
			(unsigned long long) unique, strerror(errno));
		return -1;
	}
	return 0;
}

static void fill_attr(struct fuse_attr *a, const struct stat *st, uint64_t nodeid)
{
	memset(a, 0, sizeof(*a));
	a->ino = nodeid;
	a->size = (uint64_t) st->st_size;
	a->blocks = (uint64_t) st->st_blocks;
	a->atime = (uint64_t) st->st_atim.tv_sec;
	a->atimensec = (uint32_t) st->st_atim.tv_nsec;
	a->mtime = (uint64_t) st->st_mtim.tv_sec;
	a->mtimensec = (uint32_t) st->st_mtim.tv_nsec;
	a->ctime = (uint64_t) st->st_ctim.tv_sec;
	a->ctimensec = (uint32_t) st->st_ctim.tv_nsec;
	a->mode = st->st_mode;
	a->nlink = (uint32_t) st->st_nlink;
	a->uid = st->st_uid;
	a->gid = st->st_gid;
	a->blksize = (uint32_t) st->st_blksize;
}

/* stat_node NODEID ST: the backing directory for the root, else the file. */
static int stat_node(uint64_t nodeid, struct stat *st)
{
	if (nodeid == FUSE_ROOT_ID)
		return fstat(dirfd_backing, st) < 0 ? -errno : 0;
	if (nodeid < 2 || nodeid - 2 >= n_names)
		return -ESTALE;
	return fstatat(dirfd_backing, names[nodeid - 2], st,
		       AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0;
}

static void do_lookup(const struct fuse_in_header *in, const char *name)
{
	struct fuse_entry_out e;
	struct stat st;
	unsigned int i;

	if (in->nodeid != FUSE_ROOT_ID) {
		reply(in->unique, -ENOTDIR, NULL, 0);
		return;
	}
	if (fstatat(dirfd_backing, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		reply(in->unique, -errno, NULL, 0);
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		reply(in->unique, -ENOENT, NULL, 0);
		return;
	}
	for (i = 0; i < n_names; i++)
		if (strcmp(names[i], name) == 0)
			break;
	if (i == n_names) {
		if (n_names == MAX_NODES) {
			reply(in->unique, -ENFILE, NULL, 0);
			return;
		}
		names[n_names] = strdup(name);
		if (!names[n_names])
			die("strdup");
		n_names++;
	}
	memset(&e, 0, sizeof(e));
	e.nodeid = i + 2;
	fill_attr(&e.attr, &st, e.nodeid);
	reply(in->unique, 0, &e, sizeof(e));
}

static void do_getattr(const struct fuse_in_header *in)
{
	struct fuse_attr_out a;
	struct stat st;
	int err = stat_node(in->nodeid, &st);

	if (err) {
		reply(in->unique, err, NULL, 0);
		return;
	}
	memset(&a, 0, sizeof(a));
	fill_attr(&a.attr, &st, in->nodeid);
	reply(in->unique, 0, &a, sizeof(a));
}

static void do_open(const struct fuse_in_header *in, const struct fuse_open_in *arg)
{
	struct fuse_backing_map map;
	struct fuse_open_out o;
	uint64_t i = in->nodeid - 2;
	int fd, id;

	if (in->nodeid < 2 || i >= n_names) {
		reply(in->unique, -ESTALE, NULL, 0);
		return;
	}
	if ((arg->flags & O_ACCMODE) != O_RDONLY) {
		reply(in->unique, -EROFS, NULL, 0);
		return;
	}
	if (open_counts[i] == 0) {
		fd = openat(dirfd_backing, names[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			reply(in->unique, -errno, NULL, 0);
			return;
		}
		memset(&map, 0, sizeof(map));
		map.fd = fd;
		id = ioctl(devfd, FUSE_DEV_IOC_BACKING_OPEN, &map);
		close(fd);
		if (id < 0) {
			fprintf(stderr, "fusepass: FUSE_DEV_IOC_BACKING_OPEN %s: %s\n",
				names[i], strerror(errno));
			reply(in->unique, -EIO, NULL, 0);
			return;
		}
		backing_ids[i] = id;
	}
	open_counts[i]++;
	memset(&o, 0, sizeof(o));
	o.fh = in->nodeid;
	o.open_flags = FOPEN_PASSTHROUGH;
	o.backing_id = backing_ids[i];
	reply(in->unique, 0, &o, sizeof(o));
}

static void do_release(const struct fuse_in_header *in, const struct fuse_release_in *arg)
{
	uint64_t i = arg->fh - 2;
	uint32_t id;

	if (arg->fh < 2 || i >= n_names || open_counts[i] == 0) {
		fprintf(stderr, "fusepass: release of a node not open: %llu\n",
			(unsigned long long) arg->fh);
		reply(in->unique, 0, NULL, 0);
		return;
	}
	/* The kernel's files hold the backing file; the id can go with the
	 * last of them. */
	if (--open_counts[i] == 0) {
		id = (uint32_t) backing_ids[i];
		if (ioctl(devfd, FUSE_DEV_IOC_BACKING_CLOSE, &id) < 0)
			fprintf(stderr, "fusepass: FUSE_DEV_IOC_BACKING_CLOSE %u: %s\n",
				id, strerror(errno));
	}
	reply(in->unique, 0, NULL, 0);
}

static int do_init(const struct fuse_in_header *in, const struct fuse_init_in *arg)
{
	struct fuse_init_out o;
	uint64_t want = FUSE_INIT_EXT | FUSE_PASSTHROUGH | FUSE_MAX_PAGES;
	uint64_t have = arg->flags;

	if (arg->major != FUSE_KERNEL_VERSION) {
		fprintf(stderr, "fusepass: kernel FUSE protocol %u, not %u\n",
			arg->major, FUSE_KERNEL_VERSION);
		reply(in->unique, -EPROTO, NULL, 0);
		return -1;
	}
	if (have & FUSE_INIT_EXT)
		have |= (uint64_t) arg->flags2 << 32;
	if (!(have & FUSE_PASSTHROUGH)) {
		reply(in->unique, -EPROTO, NULL, 0);
		return -2;
	}
	want &= have;
	memset(&o, 0, sizeof(o));
	o.major = FUSE_KERNEL_VERSION;
	o.minor = FUSE_KERNEL_MINOR_VERSION;
	o.max_readahead = arg->max_readahead;
	o.flags = (uint32_t) want;
	o.flags2 = (uint32_t) (want >> 32);
	o.max_background = 16;
	o.congestion_threshold = 12;
	o.max_write = 128 * 1024;
	o.time_gran = 1;
	o.max_pages = 32;
	o.max_stack_depth = 1;
	return reply(in->unique, 0, &o, sizeof(o));
}

/* serve READY: answer requests until the filesystem goes away; write one
 * byte to READY once FUSE_INIT is answered. */
static int serve(int ready)
{
	char *buf = malloc(BUF_SIZE);
	struct fuse_in_header *in;
	void *arg;
	ssize_t n;

	if (!buf)
		die("malloc");
	for (;;) {
		n = read(devfd, buf, BUF_SIZE);
		if (n < 0 && (errno == EINTR || errno == ENOENT || errno == EAGAIN))
			continue;
		if (n < 0 && errno == ENODEV)
			return 0;	/* unmounted */
		if (n < 0)
			die("read /dev/fuse");
		if ((size_t) n < sizeof(*in)) {
			fprintf(stderr, "fusepass: short request (%zd bytes)\n", n);
			return 1;
		}
		in = (struct fuse_in_header *) buf;
		arg = buf + sizeof(*in);
		switch (in->opcode) {
		case FUSE_INIT:
			switch (do_init(in, arg)) {
			case 0:
				break;
			case -2:
				return 3;	/* no passthrough */
			default:
				return 1;
			}
			if (ready >= 0) {
				if (write(ready, "y", 1) != 1)
					die("write to parent");
				close(ready);
				ready = -1;
			}
			break;
		case FUSE_LOOKUP:
			do_lookup(in, arg);
			break;
		case FUSE_GETATTR:
			do_getattr(in);
			break;
		case FUSE_OPEN:
			do_open(in, arg);
			break;
		case FUSE_RELEASE:
			do_release(in, arg);
			break;
		case FUSE_FLUSH:
			reply(in->unique, 0, NULL, 0);
			break;
		case FUSE_FORGET:
		case FUSE_BATCH_FORGET:
			break;	/* no reply; the names stay */
		case FUSE_DESTROY:
			reply(in->unique, 0, NULL, 0);
			return 0;
		case FUSE_READ:
			/* Passthrough reads never come here. */
			fprintf(stderr, "fusepass: FUSE_READ on a passthrough file\n");
			reply(in->unique, -EIO, NULL, 0);
			break;
		default:
			reply(in->unique, -ENOSYS, NULL, 0);
			break;
		}
	}
}

int main(int argc, char **argv)
{
	char opts[256], ok;
	int pfd[2], status, log, null;
	pid_t pid;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: fusepass MOUNTPOINT BACKINGDIR [LOG]\n");
		return 2;
	}
	log = open(argc == 4 ? argv[3] : "/dev/null",
		   O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (log < 0)
		die(argc == 4 ? argv[3] : "/dev/null");
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0)
		die("/dev/null");
	dirfd_backing = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd_backing < 0)
		die(argv[2]);
	devfd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (devfd < 0)
		die("/dev/fuse");
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=40000,user_id=0,group_id=0,allow_other", devfd);
	if (mount("fusepass", argv[1], "fuse.fusepass", MS_NOSUID | MS_NODEV, opts) < 0)
		die("mount");
	if (pipe2(pfd, O_CLOEXEC) < 0)
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(pfd[0]);
		if (setsid() < 0)
			die("setsid");
		if (dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(log, 2) < 0)
			die("dup2");
		_exit(serve(pfd[1]));
	}
	close(pfd[1]);
	close(devfd);
	/* The kernel sends FUSE_INIT as the mount ends: wait for the answer. */
	if (read(pfd[0], &ok, 1) == 1)
		return 0;
	if (waitpid(pid, &status, 0) < 0)
		die("waitpid");
	umount2(argv[1], MNT_DETACH);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
		printf("n/a: the kernel offers no FUSE passthrough\n");
		return 3;
	}
	fprintf(stderr, "fusepass: the server ended before FUSE_INIT was answered\n");
	return 1;
}

#else

int main(int argc, char **argv)
{
	(void) argc;
	(void) argv;
	printf("n/a: no FUSE passthrough in these kernel headers\n");
	return 3;
}

#endif
