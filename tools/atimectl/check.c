/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "atimectl check [--interval DURATION] [TARGET...]": the atime consumers
 * configured on this system (consumers.h), the filesystem each acts on,
 * and a verdict on each: can it trust the atimes it reads there?
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libmount.h>
#include <libsmartcols.h>

#include "assess.h"
#include "atimectl.h"
#include "decimal.h"
#include "duration.h"
#include "escape.h"
#include "interval.h"
#include "mounts.h"
#include "sysfs.h"
#include "target.h"
#include "verbs.h"
#include "verdict.h"

/* The findings table: for people, and the "findings" of JSON. */
enum {
	FC_VERDICT, FC_CONSUMER, FC_SOURCE, FC_PATH, FC_AGE, FC_TARGET, FC_MAJMIN,
	FC_MODE, FC_INTERVAL, FC_ORIGIN, FC_WINDOW, FC_N
};

static const struct {
	const char *name;
	int json_type;
	bool shown;        /* in the table for people */
	int flags;
} finding_columns[FC_N] = {
	[FC_VERDICT]  = { "VERDICT",  SCOLS_JSON_STRING, true,  0 },
	[FC_CONSUMER] = { "CONSUMER", SCOLS_JSON_STRING, true,  0 },
	[FC_SOURCE]   = { "SOURCE",   SCOLS_JSON_STRING, true,  SCOLS_FL_TRUNC },
	[FC_PATH]     = { "PATH",     SCOLS_JSON_STRING, true,  0 },
	[FC_AGE]      = { "AGE",      SCOLS_JSON_NUMBER, true,  SCOLS_FL_RIGHT },
	[FC_TARGET]   = { "TARGET",   SCOLS_JSON_STRING, true,  0 },
	[FC_MAJMIN]   = { "MAJ:MIN",  SCOLS_JSON_STRING, false, 0 },
	[FC_MODE]     = { "MODE",     SCOLS_JSON_STRING, true,  0 },
	[FC_INTERVAL] = { "INTERVAL", SCOLS_JSON_NUMBER, true,  SCOLS_FL_RIGHT },
	[FC_ORIGIN]   = { "ORIGIN",   SCOLS_JSON_STRING, false, 0 },
	[FC_WINDOW]   = { "WINDOW",   SCOLS_JSON_STRING, true,  0 },
};

/* The "filesystems" of JSON. */
enum {
	FS_TARGET, FS_SOURCE, FS_FSTYPE, FS_MAJMIN, FS_MODE, FS_INTERVAL, FS_ORIGIN,
	FS_OVERRIDE, FS_VERDICT, FS_N
};

static const struct {
	const char *name;
	int json_type;
} fs_columns[FS_N] = {
	[FS_TARGET]   = { "target",   SCOLS_JSON_STRING },
	[FS_SOURCE]   = { "source",   SCOLS_JSON_STRING },
	[FS_FSTYPE]   = { "fstype",   SCOLS_JSON_STRING },
	[FS_MAJMIN]   = { "maj:min",  SCOLS_JSON_STRING },
	[FS_MODE]     = { "mode",     SCOLS_JSON_STRING },
	[FS_INTERVAL] = { "interval", SCOLS_JSON_NUMBER },
	[FS_ORIGIN]   = { "origin",   SCOLS_JSON_STRING },
	[FS_OVERRIDE] = { "override", SCOLS_JSON_NUMBER },
	[FS_VERDICT]  = { "verdict",  SCOLS_JSON_STRING },
};

static const char *origin_of(const struct fs_view *v)
{
	return v->planned ? "planned" : interval_origin_name(v->origin);
}

_Static_assert(DURATION_FORMAT_MAX >= DECIMAL_MAX, "seconds_text() buffers hold both");

/* A number for JSON, a duration for people. */
static const char *seconds_text(int64_t s, bool json, char buf[static DURATION_FORMAT_MAX])
{
	return json ? decimal_i64(s, buf) : duration_format(s, buf, DURATION_FORMAT_MAX);
}

/* NULL text leaves the cell empty: null in JSON, "-" for people. */
static int set_cell(struct libscols_line *ln, int col, const char *text, bool json)
{
	if (!text && json)
		return 0;
	return scols_line_set_data(ln, (size_t) col, text ? text : "-");
}

static int add_finding_line(struct libscols_table *tb, const struct assessment *a,
			    const struct finding *f, bool json)
{
	const struct fs_view *v = &a->fss[f->fs];
	const struct consumer *c = f->consumer;
	bool relatime = v->mode == ATIME_RELATIME;
	bool known = !v->kstate.bad_override;
	char age[DURATION_FORMAT_MAX], iv[DURATION_FORMAT_MAX], mm[DEVNO_FORMAT_MAX];
	char window[VERDICT_WINDOW_MAX];
	struct libscols_line *ln = scols_table_new_line(tb, NULL);
	int r = 0, col = 0;
	const char *cells[FC_N];

	if (!ln)
		return -ENOMEM;
	cells[FC_VERDICT] = known ? verdict_name(f->verdict) : NULL;
	cells[FC_CONSUMER] = consumer_kind_name(c->kind);
	cells[FC_SOURCE] = c->source;
	cells[FC_PATH] = c->path;
	cells[FC_AGE] = seconds_text(c->age, json, age);
	cells[FC_TARGET] = mnt_fs_get_target(v->fs);
	cells[FC_MAJMIN] = devno_format(v->devno, mm, sizeof(mm));
	cells[FC_MODE] = atime_mode_name(v->mode);
	cells[FC_INTERVAL] = relatime && known ? seconds_text(v->interval, json, iv) : NULL;
	cells[FC_ORIGIN] = relatime && known ? origin_of(v) : NULL;
	cells[FC_WINDOW] = known ? verdict_window(v->mode, v->interval, c->age,
						  consumer_remover_name(c->kind),
						  window, sizeof(window)) : NULL;
	for (int i = 0; i < FC_N; i++) {
		if (!json && !finding_columns[i].shown)
			continue;
		r |= set_cell(ln, col++, cells[i], json);
	}
	return r < 0 ? -ENOMEM : 0;
}

static int add_fs_line(struct libscols_table *tb, const struct fs_view *v)
{
	bool relatime = v->mode == ATIME_RELATIME, known = !v->kstate.bad_override;
	char iv[DURATION_FORMAT_MAX], ov[DURATION_FORMAT_MAX], mm[DEVNO_FORMAT_MAX];
	struct libscols_line *ln = scols_table_new_line(tb, NULL);
	const char *cells[FS_N];
	int r = 0;

	if (!ln)
		return -ENOMEM;
	cells[FS_TARGET] = mnt_fs_get_target(v->fs);
	cells[FS_SOURCE] = mnt_fs_get_source(v->fs);
	cells[FS_FSTYPE] = mnt_fs_get_fstype(v->fs);
	cells[FS_MAJMIN] = devno_format(v->devno, mm, sizeof(mm));
	cells[FS_MODE] = atime_mode_name(v->mode);
	cells[FS_INTERVAL] = relatime && known ? seconds_text(v->interval, true, iv) : NULL;
	cells[FS_ORIGIN] = relatime && known ? origin_of(v) : NULL;
	cells[FS_OVERRIDE] = v->kstate.has_override ?
		seconds_text(v->kstate.override, true, ov) : NULL;
	cells[FS_VERDICT] = known ? verdict_name(v->worst) : NULL;
	for (int i = 0; i < FS_N; i++)
		r |= set_cell(ln, i, cells[i], true);
	return r < 0 ? -ENOMEM : 0;
}

static struct libscols_table *new_table(const char *name, bool json)
{
	struct libscols_table *tb = scols_new_table();

	if (!tb)
		return NULL;
	if (json) {
		scols_table_enable_json(tb, 1);
		if (scols_table_set_name(tb, name) < 0) {
			scols_unref_table(tb);
			return NULL;
		}
	}
	return tb;
}

static struct libscols_table *findings_table(const struct assessment *a, bool json)
{
	struct libscols_table *tb = new_table("findings", json);

	if (!tb)
		return NULL;
	for (int i = 0; i < FC_N; i++) {
		struct libscols_column *cl;
		char lower[16];

		if (!json && !finding_columns[i].shown)
			continue;
		/* JSON keys are the names in lower case, as status has them */
		for (size_t j = 0; j < sizeof(lower); j++) {
			char ch = finding_columns[i].name[j];

			lower[j] = (char) (ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
			if (!ch)
				break;
		}
		cl = scols_table_new_column(tb, json ? lower : finding_columns[i].name, 0,
					    finding_columns[i].flags);
		if (!cl || (json && scols_column_set_json_type(cl, finding_columns[i].json_type) < 0))
			goto fail;
	}
	for (size_t i = 0; i < a->nfindings; i++)
		if (add_finding_line(tb, a, &a->findings[i], json) < 0)
			goto fail;
	return tb;
fail:
	scols_unref_table(tb);
	return NULL;
}

static struct libscols_table *filesystems_table(const struct assessment *a)
{
	struct libscols_table *tb = new_table("filesystems", true);

	if (!tb)
		return NULL;
	for (int i = 0; i < FS_N; i++) {
		struct libscols_column *cl = scols_table_new_column(tb, fs_columns[i].name, 0, 0);

		if (!cl || scols_column_set_json_type(cl, fs_columns[i].json_type) < 0)
			goto fail;
	}
	for (size_t i = 0; i < a->nfs; i++)
		if (add_fs_line(tb, &a->fss[i]) < 0)
			goto fail;
	return tb;
fail:
	scols_unref_table(tb);
	return NULL;
}

/*
 * The text of a JSON table without its outer braces: libsmartcols prints
 * each table as one object holding one named array, and check's schema
 * is one object with two ("filesystems" and "findings").  Each array is
 * libsmartcols' own text, every value escaped by it.
 */
static char *json_members(struct libscols_table *tb)
{
	char *text = NULL, *open, *close;

	if (scols_print_table_to_string(tb, &text) < 0 || !text)
		return NULL;
	open = strchr(text, '{');
	close = strrchr(text, '}');
	if (!open || !close || close < open) {
		free(text);
		return NULL;
	}
	*close = '\0';
	while (close > open + 1 && (close[-1] == '\n' || close[-1] == ' '))
		*--close = '\0';
	memmove(text, open + 1, strlen(open + 1) + 1);
	return text;
}

static int print_json(const struct assessment *a)
{
	struct libscols_table *fs = filesystems_table(a), *fi = findings_table(a, true);
	char *m1 = fs ? json_members(fs) : NULL, *m2 = fi ? json_members(fi) : NULL;
	int r = -ENOMEM;

	if (m1 && m2) {
		printf("{%s,%s\n}\n", m1, m2);
		r = 0;
	}
	free(m1);
	free(m2);
	scols_unref_table(fs);
	scols_unref_table(fi);
	return r;
}

static int print_table(const struct assessment *a)
{
	struct libscols_table *tb = findings_table(a, false);

	if (!tb)
		return -ENOMEM;
	/* a write error is reported by close_stdout() at exit */
	if (scols_print_table(tb) < 0 && !ferror(stdout))
		fprintf(stderr, "atimectl: cannot print the table\n");
	scols_unref_table(tb);
	return 0;
}

/* Exit status: 0 all ok, 1 a warning or a problem, EXIT_CRITICAL. */
static int exit_status(const struct assessment *a, unsigned int problems)
{
	bool warn = problems > 0;

	for (size_t i = 0; i < a->nfindings; i++) {
		const struct fs_view *v = &a->fss[a->findings[i].fs];

		if (v->kstate.bad_override)
			continue;	/* unknown: counted as a problem */
		if (a->findings[i].verdict == VERDICT_CRITICAL)
			return EXIT_CRITICAL;
		if (a->findings[i].verdict == VERDICT_WARN)
			warn = true;
	}
	return warn ? 1 : 0;
}

int verb_check(const struct options *opts, int argc, char **argv)
{
	struct consumer_list l = { .verbose = opts->verbose };
	struct what_if w = { 0 };
	struct assessment a = { 0 };
	struct global_interval g;
	struct libmnt_table *tb = NULL;
	struct libmnt_fs **targets = NULL;
	dev_t *devnos = NULL;
	struct kernel k;
	int ret = 1, r;

	if (opts->interval) {
		r = duration_parse(opts->interval, &w.seconds);
		if (r < 0) {
			char *esc;

			fprintf(stderr, "atimectl: check: invalid --interval '%s': %s\n",
				name_escape(opts->interval, &esc), duration_strerror(r));
			free(esc);
			return EXIT_USAGE;
		}
		w.active = true;
	}
	if (verbs_open_kernel(&k) < 0)
		return 1;
	r = verbs_load_targets(opts, argc, argv, &tb, &targets);
	if (r < 0) {
		ret = verbs_exit_status(r);
		goto out;
	}
	if (argc > 0) {
		devnos = calloc((size_t) argc, sizeof(*devnos));
		if (!devnos)
			goto oom;
		for (int i = 0; i < argc; i++)
			devnos[i] = mnt_fs_get_devno(targets[i]);
		/* "what if" on the TARGETs: as "set" would make it */
		w.devnos = devnos;
		w.ndevnos = (size_t) argc;
	}
	if (verbs_read_global(&k, &g) < 0)
		goto out;

	if (consumers_gather(&l) < 0)
		goto oom;
	if (assess(&l, tb, &k, &g, &w, devnos, (size_t) argc, false, &a) < 0)
		goto oom;
	if ((opts->json ? print_json(&a) : print_table(&a)) < 0)
		goto oom;
	ret = exit_status(&a, l.problems + a.problems);
	goto out;
oom:
	fprintf(stderr, "atimectl: out of memory\n");
	ret = 1;
out:
	assessment_free(&a);
	consumer_list_free(&l);
	free(targets);
	free(devnos);
	mnt_unref_table(tb);
	kernel_close(&k);
	return ret;
}
