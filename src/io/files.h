/* Output files that are never half-written, and progress on long runs.
 *
 * A cc_outfile writes to a temporary file beside its target and renames it into place on
 * cc_outfile_commit; cc_outfile_abort (or a failed write) removes the temporary, so a reader
 * sees either the old file or the whole new one.
 */
#ifndef CC_FILES_H
#define CC_FILES_H

#include "io/error.h"

#include <stdio.h>

typedef struct cc_outfile {
    FILE *f;          /* the open temporary file; write here */
    char *path;       /* the target path (owned) */
    char *tmp;        /* the temporary path (owned) */
} cc_outfile;

/* open a temporary file for path; 0, or -1 with err */
int cc_outfile_open(cc_outfile *o, const char *path, char *err);
/* close and rename into place; 0, or -1 with err (the temporary is removed) */
int cc_outfile_commit(cc_outfile *o, char *err);
/* close and remove the temporary */
void cc_outfile_abort(cc_outfile *o);

/* mkdir -p path; 0, or -1 with err */
int cc_mkdir_p(const char *path, char *err);

/* Write a CSV file atomically: a header line of ncol names, then nrow rows of ncol numbers
 * (row-major in v, 17 significant digits, non-finite numbers as nan/inf). 0 or -1 with err. */
int cc_write_csv(const char *path, const char *const *names, int ncol, const double *v, int nrow,
                 char *err);

/* Progress on stderr for long runs: "label: done/total (pct%)", redrawn at most every 0.2 s
 * and only when stderr is a terminal or CC_PROGRESS is set; a final newline on done == total. */
void cc_progress(const char *label, long done, long total);

#endif
