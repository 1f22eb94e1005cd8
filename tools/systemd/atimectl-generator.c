/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * atimectl-generator: x-relatime-interval= applied whenever a filesystem
 * is mounted.
 *
 * For every mount in /etc/fstab and every *.mount unit file whose options
 * name x-relatime-interval=, it writes into the generator directory
 *
 *   NAME.mount.wants/atimectl-apply@NAME.service -> UNITDIR/atimectl-apply@.service
 *   atimectl-apply@NAME.service.d/50-options.conf  (ATIMECTL_MOUNT_OPTIONS=...)
 *
 * where NAME is the mount point escaped the way systemd names mount units.
 * Starting the mount unit (at boot, by an automount, by hand) then starts
 * the service, which runs "atimectl apply --options=... MOUNTPOINT".
 *
 * The value itself is not checked here: a malformed one still gets its
 * service, and "atimectl apply" reports it in that service's log.
 *
 * A generator must not hold up or fail the boot: problems with the
 * configuration are logged (kernel log, or stderr) and skipped.
 *
 * Environment, for tests: SYSTEMD_FSTAB (instead of /etc/fstab),
 * ATIMECTL_GENERATOR_ROOT (prefixed to the unit directories),
 * SYSTEMD_LOG_TARGET=console (log to stderr).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>
#include <libmount.h>

#include "unit-escape.h"

#ifndef ATIMECTL_UNITDIR
#define ATIMECTL_UNITDIR "/usr/lib/systemd/system"
#endif

#define OPTION "x-relatime-interval"
#define TEMPLATE "atimectl-apply@.service"
#define ENV_NAME "ATIMECTL_MOUNT_OPTIONS"

static FILE *log_file;
static bool log_kmsg;

static void log_open(void)
{
	const char *target = getenv("SYSTEMD_LOG_TARGET");
	int fd;

	log_file = stderr;
	if (target && (strcmp(target, "console") == 0 || strcmp(target, "stderr") == 0))
		return;
	if (isatty(STDERR_FILENO))
		return;
	fd = open("/dev/kmsg", O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return;
	log_file = fdopen(fd, "w");
	if (!log_file) {
		close(fd);
		log_file = stderr;
		return;
	}
	setvbuf(log_file, NULL, _IONBF, 0);
	log_kmsg = true;
}

__attribute__((format(printf, 2, 3)))
static void log_msg(int prio, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (log_kmsg)
		fprintf(log_file, "<%d>atimectl-generator[%d]: %s\n", prio, (int) getpid(), buf);
	else
		fprintf(log_file, "atimectl-generator: %s\n", buf);
}

/* Mount unit names already decided, by a higher-priority source. */
struct names {
	char **v;
	size_t n, cap;
};

static bool names_has(const struct names *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], name) == 0)
			return true;
	return false;
}

static int names_add(struct names *s, const char *name)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		char **v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n] = strdup(name);
	if (!s->v[s->n])
		return -ENOMEM;
	s->n++;
	return 0;
}

static void names_free(struct names *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

static bool has_option(const char *optstr)
{
	char *p = (char *) optstr, *name, *val;
	size_t namesz, valsz;

	if (!optstr)
		return false;
	/* mnt_optstr_next_option() only moves the cursor */
	while (mnt_optstr_next_option(&p, &name, &namesz, &val, &valsz) == 0)
		if (namesz == strlen(OPTION) && strncmp(name, OPTION, namesz) == 0)
			return true;
	return false;
}

static char *path_join(const char *a, const char *b)
{
	char *s;

	if (asprintf(&s, "%s/%s", a, b) < 0)
		return NULL;
	return s;
}

/* snprintf() that reports truncation instead of doing it */
__attribute__((format(printf, 3, 4)))
static int fmt(char *buf, size_t size, const char *format, ...)
{
	va_list ap;
	int n;

	va_start(ap, format);
	n = vsnprintf(buf, size, format, ap);
	va_end(ap);
	return n < 0 || (size_t) n >= size ? -ENAMETOOLONG : 0;
}

/* --- output -------------------------------------------------------- */

static int mkdir_at(int dfd, const char *name)
{
	if (mkdirat(dfd, name, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

static int link_wants(int dfd, const char *wanted_by, const char *service)
{
	char dir[PATH_MAX], link[PATH_MAX], old[PATH_MAX];
	const char *target = ATIMECTL_UNITDIR "/" TEMPLATE;
	ssize_t n;
	int r;

	if (fmt(dir, sizeof(dir), "%s.wants", wanted_by) < 0 ||
	    fmt(link, sizeof(link), "%s/%s", dir, service) < 0)
		return -ENAMETOOLONG;
	r = mkdir_at(dfd, dir);
	if (r < 0)
		return r;
	if (symlinkat(target, dfd, link) == 0)
		return 0;
	if (errno != EEXIST)
		return -errno;
	n = readlinkat(dfd, link, old, sizeof(old) - 1);
	if (n >= 0) {
		old[n] = '\0';
		if (strcmp(old, target) == 0)
			return 0;
	}
	return -EEXIST;
}

static int write_dropin(int dfd, const char *service, const char *origin,
			const char *quoted)
{
	char dir[PATH_MAX], file[PATH_MAX];
	FILE *f;
	int fd, r;

	if (fmt(dir, sizeof(dir), "%s.d", service) < 0 ||
	    fmt(file, sizeof(file), "%s/50-options.conf", dir) < 0)
		return -ENAMETOOLONG;
	r = mkdir_at(dfd, dir);
	if (r < 0)
		return r;
	fd = openat(dfd, file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		r = -errno;
		close(fd);
		return r;
	}
	fputs("# Automatically generated by atimectl-generator from ", f);
	for (const char *o = origin; *o; o++)
		fputc((unsigned char) *o < 0x20 ? '?' : *o, f);
	fprintf(f, "\n"
		   "\n"
		   "[Service]\n"
		   "Environment=%s\n", quoted);
	r = ferror(f) ? -EIO : 0;
	if (fclose(f) != 0 && r == 0)
		r = -errno;
	return r;
}

/*
 * Generate for mount unit INST.mount with options OPTIONS; origin names
 * where they came from, for messages.  Returns < 0 only on output errors.
 */
static int generate(int dfd, const char *inst, const char *options,
		    const char *origin)
{
	char mount_unit[PATH_MAX], service[PATH_MAX];
	char *quoted;
	int r;

	if (strlen("atimectl-apply@") + strlen(inst) + strlen(".service") > 255) {
		log_msg(LOG_WARNING, "%s: mount point name too long for a unit name, "
			OPTION "= not applied", origin);
		return 0;
	}
	quoted = unit_env_quote(ENV_NAME, options);
	if (!quoted) {
		if (errno == ENOMEM)
			return -ENOMEM;
		log_msg(LOG_WARNING, "%s: mount options contain control characters, "
			OPTION "= not applied", origin);
		return 0;
	}
	if (fmt(mount_unit, sizeof(mount_unit), "%s.mount", inst) < 0 ||
	    fmt(service, sizeof(service), "atimectl-apply@%s.service", inst) < 0) {
		free(quoted);
		return 0;  /* cannot happen: inst is at most 240 bytes */
	}

	r = write_dropin(dfd, service, origin, quoted);
	free(quoted);
	if (r >= 0)
		r = link_wants(dfd, mount_unit, service);
	/*
	 * The root file system is mounted before any transaction; make sure
	 * the boot pulls the service in even if nothing starts -.mount.
	 */
	if (r >= 0 && strcmp(inst, "-") == 0)
		r = link_wants(dfd, "local-fs.target", service);
	if (r < 0)
		log_msg(LOG_ERR, "%s: cannot write %s for %s: %s", origin, service,
			mount_unit, strerror(-r));
	return r;
}

/* --- unit files ---------------------------------------------------- */

struct mount_settings {
	char *options;
	char *where;
};

static void settings_free(struct mount_settings *s)
{
	free(s->options);
	free(s->where);
}

static void trim(char **s)
{
	char *p = *s, *end;

	while (*p == ' ' || *p == '\t')
		p++;
	end = p + strlen(p);
	while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' ||
			   end[-1] == '\r'))
		*--end = '\0';
	*s = p;
}

static int set_value(char **slot, const char *value)
{
	char *v = strdup(value);

	if (!v)
		return -ENOMEM;
	free(*slot);
	*slot = v;
	return 0;
}

/*
 * Options= and Where= of the [Mount] section of one unit file or drop-in;
 * later assignments override earlier ones.  A simple reader: sections,
 * comments, line continuations.
 */
static int parse_unit_file(const char *path, struct mount_settings *s)
{
	FILE *f = fopen(path, "re");
	char *line = NULL, *joined = NULL;
	size_t cap = 0;
	bool in_mount = false;
	int r = 0;

	if (!f)
		return -errno;
	while (getline(&line, &cap, f) >= 0) {
		char *l = line, *key, *value, *eq;
		size_t len;

		trim(&l);
		if (!joined && (*l == '#' || *l == ';'))
			continue;
		len = strlen(l);
		if (len > 0 && l[len - 1] == '\\') {
			/* continuation: the backslash becomes a space */
			char *n;

			l[len - 1] = ' ';
			if (asprintf(&n, "%s%s", joined ? joined : "", l) < 0) {
				r = -ENOMEM;
				break;
			}
			free(joined);
			joined = n;
			continue;
		}
		if (joined) {
			char *n;

			if (*l == '#' || *l == ';')
				l = (char *) "";
			if (asprintf(&n, "%s%s", joined, l) < 0) {
				r = -ENOMEM;
				break;
			}
			free(joined);
			joined = n;
			l = joined;
		}
		if (*l == '[') {
			in_mount = strcmp(l, "[Mount]") == 0;
		} else if (in_mount && (eq = strchr(l, '='))) {
			*eq = '\0';
			key = l;
			value = eq + 1;
			trim(&key);
			trim(&value);
			if (strcmp(key, "Options") == 0)
				r = set_value(&s->options, value);
			else if (strcmp(key, "Where") == 0)
				r = set_value(&s->where, value);
		}
		free(joined);
		joined = NULL;
		if (r < 0)
			break;
	}
	free(joined);
	free(line);
	fclose(f);
	return r;
}

/* empty or a symlink to /dev/null: a masked unit */
static bool is_masked(const char *path)
{
	char buf[16];
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);
	struct stat st;

	if (n > 0) {
		buf[n] = '\0';
		if (strcmp(buf, "/dev/null") == 0)
			return true;
	}
	return stat(path, &st) == 0 && (S_ISCHR(st.st_mode) || st.st_size == 0);
}

struct dropin {
	char *name;
	char *path;
};

static int cmp_dropin(const void *a, const void *b)
{
	return strcmp(((const struct dropin *) a)->name, ((const struct dropin *) b)->name);
}

static int add_dropins_from(const char *dir, struct dropin **v, size_t *n, size_t *cap)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int r = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		bool dup = false;

		if (len < 6 || strcmp(de->d_name + len - 5, ".conf") != 0 || de->d_name[0] == '.')
			continue;
		for (size_t i = 0; i < *n; i++)
			if (strcmp((*v)[i].name, de->d_name) == 0)
				dup = true;
		if (dup)
			continue;  /* a higher-priority one of the same name wins */
		if (*n == *cap) {
			size_t c = *cap ? *cap * 2 : 8;
			struct dropin *nv = realloc(*v, c * sizeof(**v));

			if (!nv) {
				r = -ENOMEM;
				break;
			}
			*v = nv;
			*cap = c;
		}
		(*v)[*n].name = strdup(de->d_name);
		(*v)[*n].path = path_join(dir, de->d_name);
		if (!(*v)[*n].name || !(*v)[*n].path) {
			free((*v)[*n].name);
			free((*v)[*n].path);
			r = -ENOMEM;
			break;
		}
		(*n)++;
	}
	closedir(d);
	return r;
}

/*
 * Apply the drop-ins of mount unit INST.mount: UNIT.d/, the dash-prefix
 * directories ("srv-.mount.d/" for srv-cache.mount) and "mount.d/", in
 * every unit directory.  Of drop-ins with the same file name the one from
 * the higher-priority directory counts; all are applied sorted by name.
 */
static int apply_dropins(char *const *dirs, size_t ndirs, const char *inst,
			 struct mount_settings *s)
{
	struct dropin *v = NULL;
	size_t n = 0, cap = 0;
	char **subs;
	size_t nsubs = 0, ilen = strlen(inst);
	int r = 0;

	/* most specific first: "a-b-c.mount.d", "a-b-.mount.d", "a-.mount.d", "mount.d" */
	subs = calloc(ilen + 2, sizeof(*subs));
	if (!subs)
		return -ENOMEM;
	if (asprintf(&subs[nsubs], "%s.mount.d", inst) >= 0)
		nsubs++;
	for (size_t len = ilen - 1; len > 0; len--)
		if (inst[len - 1] == '-' && asprintf(&subs[nsubs], "%.*s.mount.d", (int) len, inst) >= 0)
			nsubs++;
	subs[nsubs] = strdup("mount.d");
	if (subs[nsubs])
		nsubs++;

	for (size_t i = 0; i < ndirs && r >= 0; i++) {
		for (size_t j = 0; j < nsubs && r >= 0; j++) {
			char *path = path_join(dirs[i], subs[j]);

			if (!path) {
				r = -ENOMEM;
				break;
			}
			r = add_dropins_from(path, &v, &n, &cap);
			free(path);
		}
	}
	for (size_t j = 0; j < nsubs; j++)
		free(subs[j]);
	free(subs);
	if (r >= 0 && n > 1)
		qsort(v, n, sizeof(*v), cmp_dropin);
	for (size_t i = 0; i < n; i++) {
		if (r >= 0) {
			int k = parse_unit_file(v[i].path, s);

			if (k == -ENOMEM)
				r = k;
			else if (k < 0)
				log_msg(LOG_WARNING, "cannot read %s: %s", v[i].path, strerror(-k));
		}
		free(v[i].name);
		free(v[i].path);
	}
	free(v);
	return r;
}

/*
 * One mount unit's final settings decided: generate if it has the option.
 */
static int consider(int dfd, char *const *dirs, size_t ndirs, const char *inst,
		    struct mount_settings *s, const char *origin)
{
	char *options;
	int r;

	r = apply_dropins(dirs, ndirs, inst, s);
	if (r < 0)
		return r;
	if (!has_option(s->options))
		return 0;

	if (s->where) {
		char *where = unit_unpercent(s->where), *esc = NULL;

		if (where)
			esc = unit_path_escape(where);
		if (esc && strcmp(esc, inst) != 0) {
			log_msg(LOG_WARNING, "%s: Where=%s does not match the unit name, skipped",
				origin, where);
			free(esc);
			free(where);
			return 0;
		}
		free(esc);
		free(where);
	}

	options = unit_unpercent(s->options);
	if (!options) {
		if (errno == ENOMEM)
			return -ENOMEM;
		/* other specifiers: pass the options on unexpanded */
		options = strdup(s->options);
		if (!options)
			return -ENOMEM;
	}
	r = generate(dfd, inst, options, origin);
	free(options);
	return r;
}

/* Every NAME.mount in one unit directory, unless a higher one had it. */
static int scan_unit_dir(int dfd, char *const *dirs, size_t ndirs, size_t idx,
			 struct names *seen)
{
	DIR *d = opendir(dirs[idx]);
	struct dirent *de;
	char **found = NULL;
	size_t n = 0;
	int r = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		char **nv;

		if (len <= 6 || strcmp(de->d_name + len - 6, ".mount") != 0)
			continue;
		if (!unit_name_chars_valid(de->d_name) || strchr(de->d_name, '@'))
			continue;
		nv = realloc(found, (n + 1) * sizeof(*found));
		if (!nv) {
			r = -ENOMEM;
			break;
		}
		found = nv;
		found[n] = strdup(de->d_name);
		if (!found[n]) {
			r = -ENOMEM;
			break;
		}
		n++;
	}
	closedir(d);
	if (r >= 0 && n > 1)
		qsort(found, n, sizeof(*found), cmp_str);

	for (size_t i = 0; i < n; i++) {
		char *path = NULL, *inst = NULL;
		struct mount_settings s = { 0 };

		if (r < 0 || names_has(seen, found[i]))
			goto next;
		r = names_add(seen, found[i]);
		if (r < 0)
			goto next;
		path = path_join(dirs[idx], found[i]);
		inst = strndup(found[i], strlen(found[i]) - strlen(".mount"));
		if (!path || !inst) {
			r = -ENOMEM;
			goto next;
		}
		if (is_masked(path))
			goto next;
		{
			int k = parse_unit_file(path, &s);

			if (k == -ENOMEM) {
				r = k;
				goto next;
			}
			if (k < 0) {
				log_msg(LOG_WARNING, "cannot read %s: %s", path, strerror(-k));
				goto next;
			}
		}
		r = consider(dfd, dirs, ndirs, inst, &s, path);
next:
		settings_free(&s);
		free(path);
		free(inst);
		free(found[i]);
	}
	free(found);
	return r;
}

/* --- fstab --------------------------------------------------------- */

/*
 * The mount point as systemd-fstab-generator names its unit: symlinks
 * followed as far as the path exists.
 */
static char *canonical_where(const char *where)
{
	char *copy = strdup(where), *resolved = NULL, *out = NULL;
	size_t len;

	if (!copy)
		return NULL;
	len = strlen(copy);
	for (;;) {
		resolved = realpath(copy, NULL);
		if (resolved || errno != ENOENT)
			break;
		/* drop the last component and try again */
		while (len > 1 && copy[len - 1] != '/')
			len--;
		if (len <= 1)
			break;
		copy[--len] = '\0';
	}
	if (resolved) {
		const char *rest = where + strlen(copy);

		/* where's remainder after the existing prefix */
		if (asprintf(&out, "%s%s", resolved, rest) < 0)
			out = NULL;
	} else {
		out = strdup(where);
	}
	free(resolved);
	free(copy);
	return out;
}

static int scan_fstab(int dfd, char *const *dirs, size_t ndirs, struct names *seen)
{
	const char *file = getenv("SYSTEMD_FSTAB");
	struct libmnt_table *tb = mnt_new_table();
	struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	int r = 0, k;

	if (!file || !*file)
		file = "/etc/fstab";
	if (!tb || !itr) {
		r = -ENOMEM;
		goto out;
	}
	k = mnt_table_parse_fstab(tb, file);
	if (k < 0) {
		if (k != -ENOENT && access(file, F_OK) == 0)
			log_msg(LOG_WARNING, "cannot parse %s: %s", file, strerror(-k));
		goto out;
	}
	while (r >= 0 && mnt_table_next_fs(tb, itr, &fs) == 0) {
		const char *target = mnt_fs_get_target(fs);
		const char *options = mnt_fs_get_options(fs);
		struct mount_settings s = { 0 };
		char *where = NULL, *inst = NULL, *name = NULL, origin[PATH_MAX];

		if (mnt_fs_is_swaparea(fs) || !target || target[0] != '/')
			continue;
		where = canonical_where(target);
		if (!where) {
			r = -ENOMEM;
			break;
		}
		inst = unit_path_escape(where);
		if (!inst) {
			if (errno == ENOMEM)
				r = -ENOMEM;
			else if (has_option(options))
				log_msg(LOG_WARNING, "%s: mount point %s is not a valid path, "
					OPTION "= not applied", file, target);
			goto next;
		}
		if (asprintf(&name, "%s.mount", inst) < 0) {
			name = NULL;
			r = -ENOMEM;
			goto next;
		}
		/* the first of duplicate lines counts, as for systemd */
		if (names_has(seen, name))
			goto next;
		r = names_add(seen, name);
		if (r < 0)
			goto next;
		if (options && set_value(&s.options, options) < 0) {
			r = -ENOMEM;
			goto next;
		}
		if (fmt(origin, sizeof(origin), "%s (%s)", file, target) < 0)
			strcpy(origin, "/etc/fstab");
		r = consider(dfd, dirs, ndirs, inst, &s, origin);
next:
		settings_free(&s);
		free(name);
		free(inst);
		free(where);
	}
out:
	mnt_free_iter(itr);
	mnt_unref_table(tb);
	return r;
}

int main(int argc, char **argv)
{
	static const char *const unit_dirs[] = {
		"/etc/systemd/system",
		"/run/systemd/system",
		"/usr/local/lib/systemd/system",
		"/usr/lib/systemd/system",
	};
	const size_t ndirs = sizeof(unit_dirs) / sizeof(unit_dirs[0]);
	const char *root = getenv("ATIMECTL_GENERATOR_ROOT");
	char *dirs[sizeof(unit_dirs) / sizeof(unit_dirs[0])] = { 0 };
	struct names seen = { 0 };
	int dfd, r = 0;

	log_open();
	if (argc != 2 && argc != 4) {
		log_msg(LOG_ERR, "expects one or three directory arguments");
		return 1;
	}
	umask(022);

	/*
	 * In the initrd, /etc/fstab is the initrd's own; mounts made there
	 * are picked up again when the generators run on the real root.
	 */
	if (!getenv("ATIMECTL_GENERATOR_ROOT") && access("/etc/initrd-release", F_OK) == 0)
		return 0;

	dfd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		log_msg(LOG_ERR, "cannot open %s: %s", argv[1], strerror(errno));
		return 1;
	}
	for (size_t i = 0; i < ndirs; i++) {
		if (asprintf(&dirs[i], "%s%s", root ? root : "", unit_dirs[i]) < 0) {
			dirs[i] = NULL;
			r = -ENOMEM;
			goto out;
		}
	}

	/*
	 * Which definition of a mount unit counts, highest first: /etc,
	 * /run, then /etc/fstab (systemd-fstab-generator writes to the normal
	 * generator directory), then /usr/local/lib and /usr/lib.
	 */
	for (size_t i = 0; i < 2 && r >= 0; i++)
		r = scan_unit_dir(dfd, dirs, ndirs, i, &seen);
	if (r >= 0)
		r = scan_fstab(dfd, dirs, ndirs, &seen);
	for (size_t i = 2; i < ndirs && r >= 0; i++)
		r = scan_unit_dir(dfd, dirs, ndirs, i, &seen);
out:
	if (r == -ENOMEM)
		log_msg(LOG_ERR, "out of memory");
	for (size_t i = 0; i < ndirs; i++)
		free(dirs[i]);
	names_free(&seen);
	close(dfd);
	return r < 0 ? 1 : 0;
}
