/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Write errors on stdout make the exit status, for every verb alike.
 */
#include <errno.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdio_ext.h>
#include <string.h>

#include "close-stdout.h"

/* 0, or EOF with errno set (0 when the error is older than fclose) */
static int close_stream(FILE *stream)
{
	bool pending = __fpending(stream) != 0;
	bool prev_fail = ferror(stream) != 0;
	bool close_fail = fclose(stream) != 0;

	if (prev_fail || (close_fail && (pending || errno != EBADF))) {
		if (!close_fail)
			errno = 0;
		return EOF;
	}
	return 0;
}

int close_stdout(int status)
{
	if (close_stream(stdout) != 0 && errno != EPIPE) {
		if (errno)
			fprintf(stderr, "atimectl: write error on standard output: %s\n",
				strerror(errno));
		else
			fprintf(stderr, "atimectl: write error on standard output\n");
		if (status == 0)
			status = 1;
	}
	if (close_stream(stderr) != 0 && status == 0)
		status = 1;
	return status;
}
