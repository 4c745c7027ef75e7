/* The element protocol (docs/your-code.md): clothcheck asks a program for the value, gradient
 * and Hessian (condition contract) or the force, Jacobian and energy (force contract) of
 * elements, one JSON line per batch, and reads one JSON line back per batch.
 *
 *   request   {"protocol": 1, "contract": "condition", "condition": "bend", "variant": "bridson",
 *              "k": 1.0, "want": ["value", "gradient", "hessian"],
 *              "elements": [{"x": [3nv numbers], "rest": {...}}, ...]}
 *   answer    {"elements": [{"value": [...], "gradient": [[...]], "hessian": [[[...]]]}, ...]}
 *             or {"force": [3nv], "jacobian": [[3nv] x 3nv], "energy": E} per element;
 *             or {"error": "..."}
 *
 * Answers are stored in a cc_memo in the condition form (a force as E, -F, -dF/dx).
 */
#ifndef CC_EXEC_H
#define CC_EXEC_H

#include "checks/memo.h"
#include "io/jsonr.h"
#include "io/proc.h"

#define CC_EXEC_BATCH 256   /* elements per request, at most */

typedef struct cc_exec {
    cc_proc proc;
    const char *cmd;         /* the command line, for messages */
    int force;               /* 1: the force contract */
    const char *condition;   /* "bend", ... */
    const char *variant;     /* the claimed variant, or NULL */
    double k;                /* stiffness sent with each request */
    double timeout;          /* seconds per batch */
    int batches;             /* requests sent so far */
    long elements;           /* elements asked so far */
    int seen;                /* CC_WANT_* bits of the fields any answer held */
    cc_jdecimals dec;        /* the decimals of every number received */
    int free_ncomp;          /* 1: no claim says how many components C has; its first answer does */
    char last[96];           /* the start of the last line received, for messages */
} cc_exec;

/* start the program of command line cmd; 0, or -1 with why in err */
int cc_exec_start(cc_exec *x, const char *cmd, char *err);

/* ask the program what m is missing, in batches of at most CC_EXEC_BATCH elements of the same
 * want, and store its answers; 0, or -1 with a one-line reason in err (the program misbehaved
 * or passed on an error of its own) */
int cc_exec_fetch(cc_exec *x, cc_memo *m, char *err);

/* close the program's stdin and wait for it (killing it after a grace period) */
void cc_exec_close(cc_exec *x);

#endif
