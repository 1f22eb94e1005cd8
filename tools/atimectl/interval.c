/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which relatime interval applies to a filesystem, and where it comes from.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "interval.h"
#include "kfile.h"
#include "procsys.h"

int global_interval_read(const struct kernel *k, struct global_interval *ret)
{
	int64_t v;
	int r;

	ret->tunable = false;
	ret->seconds = UPSTREAM_RELATIME_INTERVAL;
	r = kernel_read_global(k, &v);
	if (r == 0 && v >= 0) {
		ret->tunable = true;
		ret->seconds = v;
		return 0;
	}
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	return r == 0 ? -EINVAL : r;
}

void global_interval_report(const struct kernel *k, int error)
{
	char text[KFILE_MAX], *esc;

	/* what it holds, read again: it can be read, and is no number */
	if (error == -EINVAL)
		error = kernel_read_global_text(k, text, sizeof(text));
	if (error < 0) {
		fprintf(stderr, "atimectl: cannot read %s/relatime_interval: %s\n",
			k->proc_sys_fs, strerror(-error));
		return;
	}
	fprintf(stderr, "atimectl: %s/relatime_interval holds '%s', not a number of seconds (0 to 2147483647)\n",
		k->proc_sys_fs, name_escape(text, &esc));
	free(esc);
}

int64_t effective_interval(const struct global_interval *g,
			   const struct fs_kernel_state *fs,
			   enum interval_origin *origin)
{
	if (fs && fs->has_override) {
		*origin = ORIGIN_OVERRIDE;
		return fs->override;
	}
	*origin = g->tunable ? ORIGIN_GLOBAL : ORIGIN_KERNEL;
	return g->seconds;
}

const char *interval_origin_name(enum interval_origin origin)
{
	switch (origin) {
	case ORIGIN_OVERRIDE:
		return "override";
	case ORIGIN_OPTION:
		return "option";
	case ORIGIN_GLOBAL:
		return "global";
	case ORIGIN_KERNEL:
	default:
		return "kernel";
	}
}
