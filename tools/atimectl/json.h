/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_JSON_H
#define ATIMECTL_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * A small streaming JSON writer.  The layout is the one libsmartcols
 * (findmnt --json) prints: three spaces per level, objects of an array
 * joined with "},{".  Streaming keeps "status --json" linear and cheap
 * for tens of thousands of mounts, where building a libsmartcols table
 * costs more than parsing the mount table (see tests/bench-status.sh).
 */
#define JSON_MAX_DEPTH 8

struct json_writer {
	FILE *out;
	int depth;
	bool has_items[JSON_MAX_DEPTH];   /* per level: something written */
	bool in_array[JSON_MAX_DEPTH];
};

void json_init(struct json_writer *w, FILE *out);

/* key is NULL inside arrays and for the top-level object */
void json_object_open(struct json_writer *w, const char *key);
void json_object_close(struct json_writer *w);
void json_array_open(struct json_writer *w, const char *key);
void json_array_close(struct json_writer *w);

void json_string(struct json_writer *w, const char *key, const char *value);  /* NULL: null */
void json_int(struct json_writer *w, const char *key, int64_t value);
void json_uint(struct json_writer *w, const char *key, uint64_t value);
void json_bool(struct json_writer *w, const char *key, bool value);
void json_null(struct json_writer *w, const char *key);

/* Finish the document (newline after the top-level object). */
void json_finish(struct json_writer *w);

#endif
