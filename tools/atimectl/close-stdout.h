/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ATIMECTL_CLOSE_STDOUT_H
#define ATIMECTL_CLOSE_STDOUT_H

/*
 * Flush and close stdout and stderr at exit, as util-linux's
 * close_stdout() does: a write error on stdout (a full disk, a closed
 * pipe's EIO) is reported on stderr.  Every verb ends here, so none can
 * lose output silently.
 *
 * Returns the exit status: status, or 1 when status was 0 and writing
 * failed.
 */
int close_stdout(int status);

#endif
