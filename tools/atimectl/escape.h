/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_ESCAPE_H
#define ATIMECTL_ESCAPE_H

/*
 * Names (paths, mount points, arguments) in messages and in text output
 * are shown as findmnt and libsmartcols show them in a UTF-8 locale: a
 * control character as \xHH (a newline is \x0a), C1 controls too (CSI,
 * U+009B, is \xc2\x9b), each byte that is not part of well-formed UTF-8
 * as \xHH, and a backslash that would read as such an escape as \x5c.
 * Everything else, printable UTF-8 included, is shown as it is.
 *
 * Returns s itself when nothing needs escaping; otherwise an escaped copy
 * stored in *buf, which the caller frees (free(NULL) when s was returned).
 * Never NULL: without memory for the copy, "?" stands for the name.
 */
const char *name_escape(const char *s, char **buf);

#endif
