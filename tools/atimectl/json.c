/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Streaming JSON output in the libsmartcols layout.
 */
#include <string.h>

#include "json.h"

void json_init(struct json_writer *w, FILE *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
}

static void indent(struct json_writer *w)
{
	static const char spaces[] = "                                                ";
	size_t n = (size_t) w->depth * 3;

	if (n > sizeof(spaces) - 1)
		n = sizeof(spaces) - 1;
	fwrite(spaces, 1, n, w->out);
}

/* Write s as a JSON string body: escape quotes, backslashes, controls. */
static void write_escaped(FILE *out, const char *s)
{
	const char *run = s;

	for (const char *p = s; *p; p++) {
		unsigned char c = (unsigned char) *p;
		const char *esc;
		char hex[8];

		if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f)
			continue;
		fwrite(run, 1, (size_t) (p - run), out);
		run = p + 1;
		switch (c) {
		case '"':  esc = "\\\""; break;
		case '\\': esc = "\\\\"; break;
		case '\n': esc = "\\n"; break;
		case '\t': esc = "\\t"; break;
		case '\r': esc = "\\r"; break;
		case '\b': esc = "\\b"; break;
		case '\f': esc = "\\f"; break;
		default:
			snprintf(hex, sizeof(hex), "\\u%04x", c);
			esc = hex;
			break;
		}
		fputs(esc, out);
	}
	fwrite(run, 1, strlen(run), out);
}

/* Separator, newline and indentation before a value; then "key": */
static void begin_value(struct json_writer *w, const char *key, bool is_object)
{
	if (w->depth > 0) {
		bool joined = w->in_array[w->depth] && is_object && w->has_items[w->depth];

		if (joined) {
			/* libsmartcols joins array objects as "},{" */
			fputc(',', w->out);
		} else {
			if (w->has_items[w->depth])
				fputc(',', w->out);
			fputc('\n', w->out);
			indent(w);
		}
		w->has_items[w->depth] = true;
	}
	if (key) {
		fputc('"', w->out);
		write_escaped(w->out, key);
		fputs("\": ", w->out);
	}
}

static void open_level(struct json_writer *w, bool array)
{
	if (w->depth + 1 < JSON_MAX_DEPTH)
		w->depth++;
	w->has_items[w->depth] = false;
	w->in_array[w->depth] = array;
}

static void close_level(struct json_writer *w, char c)
{
	bool had_items = w->has_items[w->depth];

	if (w->depth > 0)
		w->depth--;
	if (had_items) {
		fputc('\n', w->out);
		indent(w);
	}
	fputc(c, w->out);
}

void json_object_open(struct json_writer *w, const char *key)
{
	begin_value(w, key, true);
	fputc('{', w->out);
	open_level(w, false);
}

void json_object_close(struct json_writer *w)
{
	close_level(w, '}');
}

void json_array_open(struct json_writer *w, const char *key)
{
	begin_value(w, key, false);
	fputc('[', w->out);
	open_level(w, true);
}

void json_array_close(struct json_writer *w)
{
	close_level(w, ']');
}

void json_string(struct json_writer *w, const char *key, const char *value)
{
	begin_value(w, key, false);
	if (!value) {
		fputs("null", w->out);
		return;
	}
	fputc('"', w->out);
	write_escaped(w->out, value);
	fputc('"', w->out);
}

void json_uint(struct json_writer *w, const char *key, uint64_t value)
{
	char buf[24], *p = buf + sizeof(buf);

	begin_value(w, key, false);
	do {
		*--p = (char) ('0' + value % 10);
		value /= 10;
	} while (value);
	fwrite(p, 1, (size_t) (buf + sizeof(buf) - p), w->out);
}

void json_int(struct json_writer *w, const char *key, int64_t value)
{
	if (value >= 0) {
		json_uint(w, key, (uint64_t) value);
		return;
	}
	begin_value(w, key, false);
	fprintf(w->out, "%lld", (long long) value);
}

void json_bool(struct json_writer *w, const char *key, bool value)
{
	begin_value(w, key, false);
	fputs(value ? "true" : "false", w->out);
}

void json_null(struct json_writer *w, const char *key)
{
	begin_value(w, key, false);
	fputs("null", w->out);
}

void json_finish(struct json_writer *w)
{
	fputc('\n', w->out);
}
