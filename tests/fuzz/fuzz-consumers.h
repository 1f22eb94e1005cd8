/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every consumer parser's fuzz target checks: each consumer it
 * found removes by a positive age, names where it is configured and a
 * path, and is freed without a leak (the sanitizers watch that).
 */
#ifndef FUZZ_CONSUMERS_H
#define FUZZ_CONSUMERS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "consumers.h"

/* A NUL-terminated copy of the input, or NULL. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}

static inline void fuzz_check_consumers(struct consumer_list *l, int r)
{
	if (r != 0 && r != -ENOMEM)
		abort();
	for (size_t i = 0; i < l->n; i++) {
		const struct consumer *c = &l->items[i];

		if (c->age <= 0 || !c->source || !c->path || !c->map_path)
			abort();
		if (c->path[0] == '/' && c->map_path[0] != '/')
			abort();
	}
	consumer_list_free(l);
}

/*
 * The whole of a target: parse the input with parse, check what it
 * found, free it all.
 */
static inline int fuzz_consumers(const uint8_t *data, size_t size,
				 int (*parse)(struct consumer_list *l, const char *text))
{
	struct consumer_list l = { .quiet = true };
	char *s = fuzz_text(data, size);

	if (s)
		fuzz_check_consumers(&l, parse(&l, s));
	free(s);
	return 0;
}

#endif
