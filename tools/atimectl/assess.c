/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Atime consumers against the intervals of the filesystems they act on:
 * the findings of "check", and the warning of "set" and "global".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assess.h"
#include "atimectl.h"
#include "duration.h"
#include "escape.h"
#include "fsmap.h"
#include "granularity.h"
#include "verbs.h"

void assessment_free(struct assessment *a)
{
	free(a->fss);
	free(a->findings);
	a->fss = NULL;
	a->findings = NULL;
	a->nfs = a->nfindings = 0;
}

static bool devno_in(const dev_t *list, size_t n, dev_t devno)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == devno)
			return true;
	return false;
}

/* The interval a relatime mount of v's filesystem uses, or would. */
static void view_interval(struct fs_view *v, const struct global_interval *g,
			  const struct what_if *w)
{
	int64_t rule = effective_interval(g, &v->kstate, &v->origin);

	if (w && w->active) {
		bool set = w->ndevnos > 0 && devno_in(w->devnos, w->ndevnos, v->devno);
		bool global = w->ndevnos == 0 && !v->kstate.has_override;

		if (set || global) {
			rule = w->seconds;
			v->planned = true;
		}
	}
	v->interval = interval_kept(rule, atime_granularity(mnt_fs_get_fstype(v->fs)));
}

/* The view of fs, made on first use.  Returns its index, or -ENOMEM. */
static long view_for(struct assessment *a, struct libmnt_fs *fs, const struct kernel *k,
		     const struct global_interval *g, const struct what_if *w)
{
	struct fs_view *v, *n;

	for (size_t i = 0; i < a->nfs; i++)
		if (a->fss[i].fs == fs)
			return (long) i;
	n = realloc(a->fss, (a->nfs + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	a->fss = n;
	v = &a->fss[a->nfs];
	memset(v, 0, sizeof(*v));
	v->fs = fs;
	v->devno = mnt_fs_get_devno(fs);
	v->mode = mount_atime_mode(fs);
	v->worst = VERDICT_OK;
	if (verbs_read_fs(k, v->devno, KERNEL_READ_OVERRIDE, &v->kstate) < 0)
		a->problems++;
	view_interval(v, g, w);
	return (long) a->nfs++;
}

int assess(const struct consumer_list *l, struct libmnt_table *tb,
	   const struct kernel *k, const struct global_interval *g,
	   const struct what_if *w, const dev_t *only, size_t nonly, bool quiet,
	   struct assessment *ret)
{
	memset(ret, 0, sizeof(*ret));
	ret->findings = calloc(l->n ? l->n : 1, sizeof(*ret->findings));
	if (!ret->findings)
		return -ENOMEM;
	for (size_t i = 0; i < l->n; i++) {
		const struct consumer *c = &l->items[i];
		const char *why = NULL;
		struct libmnt_fs *fs = fsmap_lookup(tb, c->map_path, &why);
		struct finding *f;
		struct fs_view *v;
		long vi;

		if (!fs) {
			if (!quiet) {
				char *e1, *e2;

				fprintf(stderr, "atimectl: %s: %s %s: %s\n", name_escape(c->source, &e1),
					consumer_kind_name(c->kind), name_escape(c->path, &e2), why);
				free(e1);
				free(e2);
			}
			ret->problems++;
			continue;
		}
		if (nonly > 0 && !devno_in(only, nonly, mnt_fs_get_devno(fs)))
			continue;
		vi = view_for(ret, fs, k, g, w);
		if (vi < 0) {
			assessment_free(ret);
			return -ENOMEM;
		}
		v = &ret->fss[vi];
		f = &ret->findings[ret->nfindings++];
		f->consumer = c;
		f->fs = (size_t) vi;
		/* an override that cannot be read leaves the interval unknown */
		f->verdict = verdict_judge(v->mode, v->interval, c->age);
		if (f->verdict > v->worst)
			v->worst = f->verdict;
	}
	return 0;
}

void warn_if_critical(const struct options *opts, const dev_t *devno, int64_t seconds)
{
	struct consumer_list l = { .quiet = true };
	struct what_if w = { .active = true, .seconds = seconds,
			     .devnos = devno, .ndevnos = devno ? 1 : 0 };
	struct assessment a = { 0 };
	struct global_interval g;
	struct libmnt_table *tb = NULL;
	const struct finding *first = NULL;
	size_t critical = 0;
	struct kernel k;
	int r;

	if (opts->quiet || verbs_open_kernel(&k) < 0)
		return;
	r = consumers_gather(&l);
	if (r == -ENOMEM)
		fprintf(stderr, "atimectl: out of memory\n");
	if (r < 0 || l.n == 0)
		goto out;
	/* the verb read the same table and files: anything wrong is reported */
	tb = verbs_load_mounts(opts->tab_file, false);
	if (tb && verbs_read_global(&k, &g) == 0)
		assess(&l, tb, &k, &g, &w, devno, devno ? 1 : 0, true, &a);

	for (size_t i = 0; i < a.nfindings; i++) {
		const struct finding *f = &a.findings[i];

		/* what the new value makes critical, not a noatime mount */
		if (f->verdict != VERDICT_CRITICAL || !a.fss[f->fs].planned ||
		    a.fss[f->fs].mode != ATIME_RELATIME)
			continue;
		if (!first)
			first = f;
		critical++;
	}
	if (first) {
		const struct fs_view *v = &a.fss[first->fs];
		char i[DURATION_FORMAT_MAX], t[DURATION_FORMAT_MAX], *e1, *e2, *e3;

		char more[48] = "";

		if (critical > 1)
			snprintf(more, sizeof(more), ", and %zu more", critical - 1);
		fprintf(stderr, "atimectl: warning: with %s on %s, %s %s (age %s, %s) is critical%s "
			"(see atimectl check)\n",
			duration_format(v->interval, i, sizeof(i)),
			name_escape(mnt_fs_get_target(v->fs), &e1),
			consumer_kind_name(first->consumer->kind),
			name_escape(first->consumer->path, &e2),
			duration_format(first->consumer->age, t, sizeof(t)),
			name_escape(first->consumer->source, &e3),
			more);
		free(e1);
		free(e2);
		free(e3);
	}
out:
	assessment_free(&a);
	mnt_unref_table(tb);
	consumer_list_free(&l);
	kernel_close(&k);
}
