/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A file named on the command line, opened for writing as a careful root
 * opens a log: in a directory another user could change, no symbolic link
 * is followed and no file of another user is written.
 */
#pragma once

/*
 * Open path for writing, created (mode 0666 less the umask) or truncated,
 * close-on-exec, as scmp-run(1) TRUST, "Files written" says. Returns the
 * descriptor, or -errno; -EMLINK (a symbolic link) and -EPERM (not a new
 * file, nor a FIFO or a regular file with one link of the caller's) are the
 * refusals of a directory others may write, -EAGAIN an entry that changed
 * while it was opened.
 */
int outfile_open(const char *path);
