/* clothcheck audit COND --exec "CMD" (audit_exec.c). */
#ifndef CC_AUDIT_EXEC_H
#define CC_AUDIT_EXEC_H

#include <stdio.h>
#include "checks/audit.h"

/* --precision: detected from its numbers' decimals, or declared */
enum { CC_PRECISION_AUTO, CC_PRECISION_SINGLE, CC_PRECISION_DOUBLE };

typedef struct cc_exec_audit {
    const char *condition;   /* stretch, shear, bend, spring: the elements sent */
    const char *cmd;         /* the program's command line */
    int force;               /* 1: the force contract */
    cc_claim_spec claims;    /* what it claims to implement (none: cond NULL, bridson_force 0) */
    double timeout;          /* seconds per batch */
    int precision;           /* CC_PRECISION_*: what --precision says of the program */
    cc_audit_opts opts;      /* samples, seed, edges, ... */
    int json_stdout;         /* 1: the rows as JSON on stdout instead of the table (the rest on stderr) */
    FILE *json;              /* also write the rows as JSON here, or NULL */
    const char *plots;       /* folder for the plots (cc_report_plots), or NULL */
} cc_exec_audit;

/* run the audit and print its report; the exit status (0 pass, 1 fail, 2 bad input or a
 * misbehaving program, after one line on stderr) */
int cc_audit_exec(const cc_exec_audit *ea);

/* the plots of audits a[0..n) into dir (cc_report_plots), saying on stderr when gnuplot drew
 * none or fewer; 0, or CC_EXIT_USAGE when a file could not be written */
int cc_audit_write_plots(const char *dir, const cc_audit *a, int n);

#endif
