/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The file --learn writes (FILE): checked and opened before the command
 * runs, merged at the end with what other runs wrote into it meanwhile,
 * and put in place by a rename (scmp-run(1), WRITING A PROFILE FOR A
 * PROGRAM).
 */
#pragma once

#include <sys/types.h>

#include "diag.h"
#include "learn.h"

struct learn_file {
	const char *path;    /* FILE, as given; borrowed */
	struct learn *learn; /* FILE's records, then the run's too */
	char *base;	     /* -p BASE: its real path, fit for an include line; or NULL */
	mode_t mode;	     /* of the file written: 0644 less the umask, never more than FILE's */
	int fd;		     /* the file written, or -1 */
	char *tmp;	     /* its name; NULL while it has none (O_TMPFILE) */
	const struct learn_header *h; /* this run's; borrowed */
};

/*
 * Everything --learn checks before the command runs, into *lf: the base
 * (base, the -p path, or NULL without one) can be named by an include
 * line, and h->base is set to its real path (owned by lf); FILE, if it
 * exists, is a learned profile that this run may replace, written under
 * the same header h (its records read into lf->learn); the file written
 * beside FILE is opened, unnamed where the file system allows. h, this
 * run's header, must outlive lf. Returns 0, or -errno with the error in
 * d; learn_file_clear() either way.
 */
int learn_file_start(struct learn_file *lf, const char *path, const char *base,
		     struct learn_header *h, struct diag *d);

/*
 * The end of a run: unless err (an error of the run's recording, such as
 * -E2BIG or -ENOMEM) says that nothing is to be written, FILE is locked
 * and read again (its header still the run's), the profile written into
 * the file opened by learn_file_start() and renamed onto FILE; done again
 * if another run wrote FILE first. Says the outcome on stderr, or the
 * error in d. Returns 0 or -errno.
 */
int learn_file_finish(struct learn_file *lf, int err, struct diag *d);

/* Close and free what lf holds; the file written is removed unless it
 * was renamed onto FILE. lf is left empty (fd -1). */
void learn_file_clear(struct learn_file *lf);
