/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_RUN_COMMAND_H
#define ATIMECTL_RUN_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

/* Files and command output larger than this are refused (-EFBIG). */
#define TEXT_MAX (16 * 1024 * 1024)

/*
 * Run argv[0] (searched in $PATH) with argv, and capture its standard
 * output, NUL-terminated, in *out (the caller frees it).  Its standard
 * error is ours, or /dev/null when quiet.  Returns 0 and its exit status
 * in *status (128 + N when killed by signal N), or a negative errno when
 * it could not be run or read (nothing is then allocated).
 */
int run_capture(char *const argv[], bool quiet, char **out, int *status);

/* Say what run_capture() failed on: "cannot run", "exited with status 1". */
void describe_run_failure(int r, int status, char *buf, size_t len);

/*
 * Read a whole text file into *out (NUL-terminated; free it).  Returns 0
 * or a negative errno: -EISDIR for a directory, -EFBIG above TEXT_MAX.
 */
int read_text_file(const char *path, char **out);

#endif
