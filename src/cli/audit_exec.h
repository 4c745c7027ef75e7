/* clothcheck audit COND --exec "CMD" (audit_exec.c): the report of checks/exec_audit.h's run. */
#ifndef CC_AUDIT_EXEC_H
#define CC_AUDIT_EXEC_H

#include <stdio.h>
#include "checks/exec_audit.h"

typedef struct cc_exec_output {
    int json_stdout;         /* 1: the rows as JSON on stdout instead of the table (the rest on stderr) */
    FILE *json;              /* also write the rows as JSON here, or NULL */
    const char *plots;       /* folder for the plots (cc_report_plots), or NULL */
} cc_exec_output;

/* run the audit ea and print its report as out says; the exit status (0 pass, 1 fail, 2 bad
 * input or a misbehaving program, after one line on stderr) */
int cc_audit_exec(const cc_exec_audit *ea, const cc_exec_output *out);

/* the plots of audits a[0..n) into dir (cc_report_plots), saying on stderr when gnuplot drew
 * none or fewer; 0, or CC_EXIT_USAGE when a file could not be written */
int cc_audit_write_plots(const char *dir, const cc_audit *a, int n);

#endif
