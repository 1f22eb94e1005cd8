/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_UNIT_ESCAPE_H
#define ATIMECTL_UNIT_ESCAPE_H

#include <stdbool.h>

/*
 * systemd's unit_name_path_escape(): "/srv/my-data" -> "srv-my\x2ddata",
 * "/" -> "-".  Slashes are collapsed and trimmed and "." components
 * dropped; bytes outside [A-Za-z0-9:_.] and a leading "." become \xNN.
 * Returns a malloc'ed string, or NULL with errno EINVAL (not an absolute
 * path, or a ".." component) or ENOMEM.
 */
char *unit_path_escape(const char *path);

/* Is name a plausible unit name: [A-Za-z0-9:_.\@-]+, at most 255 bytes? */
bool unit_name_chars_valid(const char *name);

/*
 * NAME=value as one double-quoted item for Environment= in a unit file:
 * '"' and '\' get a backslash, '%' is doubled (specifiers).  "$" has no
 * special meaning in Environment=.  NULL with errno EINVAL when value has
 * control characters (systemd rejects those in environment values) or
 * ENOMEM.
 */
char *unit_env_quote(const char *name, const char *value);

/*
 * Specifier expansion of a unit file value, as far as this generator
 * needs it: "%%" -> "%".  Returns NULL with errno EINVAL on any other
 * specifier, ENOMEM.
 */
char *unit_unpercent(const char *value);

#endif
