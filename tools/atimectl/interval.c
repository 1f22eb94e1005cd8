/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which relatime interval applies to a filesystem, and where it comes from.
 */
#include "interval.h"

void global_interval_read(const struct kernel *k, struct global_interval *ret)
{
	int64_t v;

	ret->tunable = false;
	ret->seconds = UPSTREAM_RELATIME_INTERVAL;
	if (kernel_read_global(k, &v) == 0 && v >= 0) {
		ret->tunable = true;
		ret->seconds = v;
	}
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
	case ORIGIN_GLOBAL:
		return "global";
	case ORIGIN_KERNEL:
	default:
		return "kernel";
	}
}
