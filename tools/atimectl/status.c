/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "atimectl status": one line per mounted filesystem, printed with
 * libsmartcols in list mode (never tree mode: that is quadratic), as a
 * table, raw or JSON.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <libmount.h>
#include <libsmartcols.h>

#include "atimectl.h"
#include "decimal.h"
#include "duration.h"
#include "escape.h"
#include "granularity.h"
#include "interval.h"
#include "mounts.h"
#include "optstr.h"
#include "status.h"
#include "sysfs.h"
#include "target.h"
#include "verbs.h"

enum {
	COL_TARGET,
	COL_SOURCE,
	COL_FSTYPE,
	COL_MAJMIN,
	COL_MODE,
	COL_INTERVAL,
	COL_ORIGIN,
	COL_OVERRIDE,
	COL_UPDATES,
	COL_SKIPS,
	N_COLUMNS
};

struct column_info {
	const char *name;
	int json_type;       /* SCOLS_JSON_* */
	double whint;
	int flags;
	const char *help;
};

static const struct column_info columns[N_COLUMNS] = {
	[COL_TARGET]   = { "TARGET",   SCOLS_JSON_STRING, 0.30, 0, "mount point" },
	[COL_SOURCE]   = { "SOURCE",   SCOLS_JSON_STRING, 0.25, SCOLS_FL_TRUNC, "source device" },
	[COL_FSTYPE]   = { "FSTYPE",   SCOLS_JSON_STRING, 0.10, SCOLS_FL_TRUNC, "filesystem type" },
	[COL_MAJMIN]   = { "MAJ:MIN",  SCOLS_JSON_STRING, 6, 0, "device number of the superblock (MAJ:MIN)" },
	[COL_MODE]     = { "MODE",     SCOLS_JSON_STRING, 6, 0, "atime mode: relatime, strictatime or noatime" },
	[COL_INTERVAL] = { "INTERVAL", SCOLS_JSON_NUMBER, 6, SCOLS_FL_RIGHT, "effective relatime interval (relatime mounts only; at least the filesystem's atime step)" },
	[COL_ORIGIN]   = { "ORIGIN",   SCOLS_JSON_STRING, 6, 0, "where the interval comes from: option, override, global, kernel, granularity" },
	[COL_OVERRIDE] = { "OVERRIDE", SCOLS_JSON_NUMBER, 6, SCOLS_FL_RIGHT, "per-filesystem override, if set" },
	[COL_UPDATES]  = { "UPDATES",  SCOLS_JSON_NUMBER, 6, SCOLS_FL_RIGHT, "atime updates since the superblock was created" },
	[COL_SKIPS]    = { "SKIPS",    SCOLS_JSON_NUMBER, 6, SCOLS_FL_RIGHT, "accesses the relatime rule did not turn into an update" },
};

static const int default_columns[] = {
	COL_TARGET, COL_SOURCE, COL_FSTYPE, COL_MODE, COL_INTERVAL,
	COL_ORIGIN, COL_UPDATES, COL_SKIPS,
};

/* the keys interface.md promises; add ORIGIN with -o +ORIGIN */
static const int default_json_columns[] = {
	COL_TARGET, COL_SOURCE, COL_FSTYPE, COL_MAJMIN, COL_MODE,
	COL_INTERVAL, COL_OVERRIDE, COL_UPDATES, COL_SKIPS,
};

void status_print_columns_help(FILE *out)
{
	fputs("\nAvailable output columns:\n", out);
	for (int i = 0; i < N_COLUMNS; i++)
		fprintf(out, " %9s  %s\n", columns[i].name, columns[i].help);
}

static int column_by_name(const char *name, size_t len)
{
	for (int i = 0; i < N_COLUMNS; i++)
		if (strlen(columns[i].name) == len &&
		    strncasecmp(columns[i].name, name, len) == 0)
			return i;
	return -1;
}

static bool memchr_int(const int *ids, size_t n, int id)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/*
 * "+LIST" appends to the defaults, "LIST" replaces them; all (--output-all)
 * takes every column.
 */
static int parse_columns(const char *list, bool json, bool all, int *ids, size_t *n)
{
	const int *defs = json ? default_json_columns : default_columns;
	size_t ndefs = json ? sizeof(default_json_columns) / sizeof(int)
			    : sizeof(default_columns) / sizeof(int);
	const char *whole = list, *p;

	*n = 0;
	if (all) {
		for (int i = 0; i < N_COLUMNS; i++)
			ids[(*n)++] = i;
		return 0;
	}
	if (!list || *list == '+') {
		memcpy(ids, defs, ndefs * sizeof(int));
		*n = ndefs;
		if (!list)
			return 0;
		list++;
	}

	p = list;
	for (;;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t) (end - p) : strlen(p);
		int id = column_by_name(p, len);

		if (len == 0) {
			char *esc;

			fprintf(stderr, "atimectl: empty column name in --output '%s'\n",
				name_escape(whole, &esc));
			free(esc);
			return -EINVAL;
		}
		if (id < 0) {
			char *name = strndup(p, len), *esc;

			fprintf(stderr, "atimectl: unknown column: %s\n",
				name ? name_escape(name, &esc) : "?");
			if (name)
				free(esc);
			free(name);
			return -EINVAL;
		}
		if (*n >= 2 * N_COLUMNS) {
			fprintf(stderr, "atimectl: too many columns\n");
			return -EINVAL;
		}
		/* each column once: JSON keys must be unique */
		if (!memchr_int(ids, *n, id))
			ids[(*n)++] = id;
		if (!end)
			break;
		p = end + 1;
	}
	return 0;
}

/*
 * Kernel state per superblock, read once even when a filesystem is
 * mounted many times (bind mounts): open addressing on the device number.
 */
struct devcache_slot {
	bool used;
	dev_t devno;
	struct fs_kernel_state state;
};

struct devcache {
	size_t mask;
	struct devcache_slot *slots;
	dev_t *present;      /* from kernel_list_fs() */
	size_t npresent;
};

static int devcache_init(struct devcache *c, size_t entries)
{
	size_t size = 16;

	while (size < 2 * entries)
		size *= 2;
	c->slots = calloc(size, sizeof(*c->slots));
	if (!c->slots)
		return -ENOMEM;
	c->mask = size - 1;
	return 0;
}

static const struct fs_kernel_state *devcache_get(struct devcache *c,
						  const struct kernel *k,
						  dev_t devno, unsigned int what)
{
	static const struct fs_kernel_state no_dir;
	uint64_t h = (uint64_t) devno * UINT64_C(0x9e3779b97f4a7c15);
	size_t i = (size_t) (h >> 32) & c->mask;

	if (!devno_list_contains(c->present, c->npresent, devno))
		return &no_dir;

	/* never full: twice as many slots as mounts */
	while (c->slots[i].used && c->slots[i].devno != devno)
		i = (i + 1) & c->mask;
	if (!c->slots[i].used) {
		c->slots[i].used = true;
		c->slots[i].devno = devno;
		verbs_read_fs(k, devno, what, &c->slots[i].state);
	}
	return &c->slots[i].state;
}

struct status_ctx {
	const struct options *opts;
	const struct kernel *kernel;
	struct global_interval global;
	struct libscols_table *table;
	int ids[2 * N_COLUMNS];
	size_t ncols;
	unsigned int read_what;
	struct devcache cache;
	bool bad;	/* a kernel file could not be read or held nonsense */
};

/* Everything one output line shows. */
struct row {
	struct libmnt_fs *fs;
	enum atime_mode mode;
	enum interval_origin origin;
	int64_t interval;                  /* relatime only, as the filesystem keeps it */
	bool coarse;                       /* the filesystem's atime step, not the interval */
	bool declared;                     /* the override is what the mount declares */
	const struct fs_kernel_state *st;
	char majmin[DEVNO_FORMAT_MAX];
};

/*
 * Does the mount declare this override: x-relatime-interval= of the same
 * value in its userspace options (utab), as fstab, a unit, systemd-mount
 * or mount -o put it there?  The kernel does not tell a value written to
 * the sysfs file from one given as relatime_interval= (it shows both as
 * the mount option): only the declaration atimectl applies is known.
 */
static bool mount_declares(struct libmnt_fs *fs, int64_t override)
{
	char *value = NULL;
	int64_t seconds;
	int r;

	r = optstr_parse_relatime_interval(mnt_fs_get_user_options(fs), &seconds, &value);
	free(value);
	return r == 1 && seconds == override;
}

static void fill_row(struct status_ctx *c, struct libmnt_fs *fs, struct row *r)
{
	static const struct fs_kernel_state none;

	r->fs = fs;
	r->mode = mount_atime_mode(fs);
	r->st = &none;
	r->interval = 0;
	r->origin = ORIGIN_GLOBAL;
	r->majmin[0] = '\0';
	if (c->read_what)
		r->st = devcache_get(&c->cache, c->kernel, mnt_fs_get_devno(fs), c->read_what);
	r->coarse = false;
	r->declared = r->st->has_override && mount_declares(fs, r->st->override);
	if (r->mode == ATIME_RELATIME) {
		int64_t rule = effective_interval(&c->global, r->st, &r->origin);

		if (r->origin == ORIGIN_OVERRIDE && r->declared)
			r->origin = ORIGIN_OPTION;

		r->interval = interval_kept(rule, atime_granularity(mnt_fs_get_fstype(fs)));
		r->coarse = r->interval != rule;
	}
}

/*
 * The text of one cell for people; NULL for a missing value.  buf holds
 * formatted values.
 */
static const char *cell_text(const struct row *r, int col, bool json,
			     char *buf, size_t len)
{
	bool relatime = r->mode == ATIME_RELATIME;

	switch (col) {
	case COL_TARGET:
		return mnt_fs_get_target(r->fs);
	case COL_SOURCE:
		return mnt_fs_get_source(r->fs);
	case COL_FSTYPE:
		return mnt_fs_get_fstype(r->fs);
	case COL_MAJMIN:
		return devno_format(mnt_fs_get_devno(r->fs), buf, len);
	case COL_MODE:
		return atime_mode_name(r->mode);
	case COL_INTERVAL:
	case COL_ORIGIN:
	case COL_OVERRIDE:
		/* the override file could not be read: none of them is known */
		if (r->st->bad_override)
			return NULL;
		break;
	}

	switch (col) {
	case COL_INTERVAL:
		/* an override the mount does not use: "(1h)" */
		if (!relatime && !json && r->st->has_override) {
			char d[DURATION_FORMAT_MAX];

			snprintf(buf, len, "(%s)", duration_format(r->st->override, d, sizeof(d)));
			return buf;
		}
		if (!relatime)
			return NULL;
		if (json)	/* seconds, as a JSON number */
			return len >= DECIMAL_MAX ? decimal_i64(r->interval, buf) : NULL;
		return duration_format(r->interval, buf, len);
	case COL_ORIGIN:
		if (!relatime && !json && r->st->has_override)
			return interval_origin_name(r->declared ? ORIGIN_OPTION : ORIGIN_OVERRIDE);
		if (relatime && r->coarse)
			return "granularity";
		return relatime ? interval_origin_name(r->origin) : NULL;
	case COL_OVERRIDE:
		if (!r->st->has_override)
			return NULL;
		if (json)
			return len >= DECIMAL_MAX ? decimal_i64(r->st->override, buf) : NULL;
		return duration_format(r->st->override, buf, len);
	case COL_UPDATES:
		return r->st->has_updates && len >= DECIMAL_MAX ? decimal_u64(r->st->updates, buf) : NULL;
	case COL_SKIPS:
		return r->st->has_skips && len >= DECIMAL_MAX ? decimal_u64(r->st->skips, buf) : NULL;
	}
	return NULL;
}

/*
 * Returns 0 or -ENOMEM.  When a kernel file for the mount could not be
 * read or holds what the kernel cannot have written (reported once per
 * superblock by verbs_read_fs()), c->bad is set and the line is added all
 * the same, with what is not known missing.
 */
static int add_line(struct status_ctx *c, struct libmnt_fs *fs)
{
	bool json = c->opts->json;
	struct libscols_line *ln;
	struct row r;

	fill_row(c, fs, &r);
	ln = scols_table_new_line(c->table, NULL);
	if (!ln)
		return -ENOMEM;
	for (size_t i = 0; i < c->ncols; i++) {
		char buf[DURATION_FORMAT_MAX];
		const char *text = cell_text(&r, c->ids[i], json, buf, sizeof(buf));

		/*
		 * JSON shows a missing value as null (libsmartcols prints null
		 * for an empty cell), --pairs as KEY=""; "-" keeps --raw and
		 * the table parseable.
		 */
		if (!text && !json && !c->opts->pairs)
			text = "-";
		if (text && scols_line_set_data(ln, i, text) < 0)
			return -ENOMEM;
	}
	c->bad |= r.st->error != 0;
	return 0;
}

/* Which kernel files the columns need. */
static unsigned int kernel_files_needed(const int *ids, size_t n)
{
	unsigned int what = 0;

	for (size_t i = 0; i < n; i++) {
		switch (ids[i]) {
		case COL_INTERVAL:
		case COL_ORIGIN:
		case COL_OVERRIDE:
			what |= KERNEL_READ_OVERRIDE;
			break;
		case COL_UPDATES:
		case COL_SKIPS:
			what |= KERNEL_READ_COUNTERS;
			break;
		}
	}
	return what;
}

static int setup_table(struct status_ctx *c)
{
	const struct options *o = c->opts;

	c->table = scols_new_table();
	if (!c->table)
		return -ENOMEM;
	scols_table_enable_noheadings(c->table, o->noheadings);
	scols_table_enable_raw(c->table, o->raw);
	scols_table_enable_export(c->table, o->pairs);
	if (o->json) {
		scols_table_enable_json(c->table, 1);
		if (scols_table_set_name(c->table, "filesystems") < 0)
			return -ENOMEM;
	}

	for (size_t i = 0; i < c->ncols; i++) {
		const struct column_info *ci = &columns[c->ids[i]];
		struct libscols_column *cl;

		cl = scols_table_new_column(c->table, ci->name, ci->whint,
					    o->notruncate ? ci->flags & ~SCOLS_FL_TRUNC : ci->flags);
		if (!cl)
			return -ENOMEM;
		if (o->json)
			scols_column_set_json_type(cl, ci->json_type);
	}
	return 0;
}

/*
 * What the columns need of each superblock, and the list of those that
 * have a directory.  Returns 0, or a negative errno (said, but for
 * -ENOMEM).
 */
static int setup_kernel_reads(struct status_ctx *c, size_t nlines)
{
	int r;

	/* without /sys/fs/relatime there is nothing to read per superblock */
	if (kernel_has_fs_interval(c->kernel))
		c->read_what = kernel_files_needed(c->ids, c->ncols);
	if (!c->read_what)
		return 0;
	if (devcache_init(&c->cache, nlines) < 0)
		return -ENOMEM;
	r = kernel_list_fs(c->kernel, &c->cache.present, &c->cache.npresent);
	if (r < 0 && r != -ENOMEM)
		fprintf(stderr, "atimectl: cannot list %s: %s\n",
			c->kernel->sysfs_root, strerror(-r));
	return r;
}

/*
 * A line for each TARGET of the types asked for, or without TARGETs for
 * each mount listed.  Every line is made, so that each bad superblock is
 * reported.  Returns 0 or -ENOMEM.
 */
static int add_lines(struct status_ctx *c, struct libmnt_table *tb,
		     int ntargets, struct libmnt_fs **targets)
{
	const struct options *opts = c->opts;
	struct libmnt_iter *itr;
	struct libmnt_fs *fs;
	int r = 0;

	for (int i = 0; i < ntargets && r == 0; i++)
		if (mount_type_matches(targets[i], opts->types))
			r = add_line(c, targets[i]);
	if (ntargets > 0)
		return r;

	itr = mnt_new_iter(MNT_ITER_FORWARD);
	if (!itr)
		return -ENOMEM;
	while (r == 0 && mnt_table_next_fs(tb, itr, &fs) == 0)
		if (mount_is_listed(fs, opts->all, opts->types))
			r = add_line(c, fs);
	mnt_free_iter(itr);
	return r;
}

int verb_status(const struct options *opts, int argc, char **argv)
{
	struct status_ctx c = { .opts = opts };
	struct libmnt_table *tb = NULL;
	struct libmnt_fs **targets = NULL;
	struct kernel k;
	int ret = 1, r;

	if (parse_columns(opts->columns, opts->json, opts->output_all, c.ids, &c.ncols) < 0)
		return EXIT_USAGE;

	if (verbs_open_kernel(&k) < 0)
		return 1;
	c.kernel = &k;

	r = verbs_load_targets(opts, argc, argv, &tb, &targets);
	if (r < 0) {
		ret = verbs_exit_status(r);
		goto out;
	}

	if (!kernel_has_fs_interval(&k))
		kernel_note_unsupported();
	if (verbs_read_global(&k, &c.global) < 0)
		goto out;

	if (setup_table(&c) < 0)
		goto oom;
	r = setup_kernel_reads(&c, argc > 0 ? (size_t) argc : (size_t) mnt_table_get_nents(tb));
	if (r == -ENOMEM)
		goto oom;
	if (r < 0)
		goto out;
	if (add_lines(&c, tb, argc, targets) < 0)
		goto oom;
	/* a write error is reported by close_stdout() at exit */
	if (scols_print_table(c.table) < 0 && !ferror(stdout)) {
		fprintf(stderr, "atimectl: cannot print the table\n");
		goto out;
	}
	ret = c.bad ? 1 : 0;
	goto out;
oom:
	fprintf(stderr, "atimectl: out of memory\n");
out:
	free(c.cache.slots);
	free(c.cache.present);
	scols_unref_table(c.table);
	free(targets);
	mnt_unref_table(tb);
	kernel_close(&k);
	return ret;
}
