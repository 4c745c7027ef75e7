/* The audit of a program in any language through the element protocol (exec.h), optionally
 * against what it claims to implement, and what it computes when it claims nothing or its claim
 * fails (identify.h). `clothcheck audit --exec` and clothcheck_audit_exec both run it.
 *
 * The audit runs in passes over a table of the program's answers (memo.h): a first pass asks
 * for every element of the batch, the next ones for the points the finite differences, the
 * Taylor test and the diagnosis need around them, until a pass asks nothing new. It asks as
 * little as it can: a light audit first (with a claim, differences on a few elements; without,
 * two evaluations a coordinate), and the full one only where the light one fails.
 */
#ifndef CC_EXEC_AUDIT_H
#define CC_EXEC_AUDIT_H

#include <stdio.h>
#include "checks/audit.h"
#include "checks/identify.h"
#include "checks/memo.h"

/* what is said of the program's precision: detected from its numbers' decimals, or declared */
enum { CC_PRECISION_AUTO, CC_PRECISION_SINGLE, CC_PRECISION_DOUBLE };

typedef struct cc_exec_audit {
    const char *condition;   /* stretch, shear, bend, spring: the elements sent */
    const char *cmd;         /* the program's command line */
    int force;               /* 1: the force contract */
    cc_claim_spec claims;    /* what it claims to implement (none: cond NULL, bridson_force 0);
                                claims.k is the stiffness sent with every request */
    double timeout;          /* seconds per batch */
    int precision;           /* CC_PRECISION_*: what is said of the program */
    cc_audit_opts opts;      /* samples, seed, case, rest hinges, area power, ... */
    FILE *progress;          /* one line per pass here, or NULL */
} cc_exec_audit;

/* What one audit found. Its audit's target answers from its memo: keep it where it is. */
typedef struct cc_exec_run {
    cc_audit audit;          /* the engine's rows */
    cc_memo memo;            /* the program's answers */
    cc_identity id;          /* what it computes, when looked for and worth saying (id.any) */
    double k;                /* the stiffness the requests carried */
    int batches;             /* requests answered */
    long elements;           /* elements asked */
    int floats;              /* 1: every number it sent is a float's rounding */
    int max_digits;          /* the most significant digits it printed */
    int unsettled;           /* points the diagnosis asked for last and did not get: its search
                                did not converge on the program's rounding (0: it settled) */
    int widened;             /* 1: the light audit failed and the full one ran (exec_audit.c) */
} cc_exec_run;

/* the element protocol's defaults: 200 samples, fd-true with the structure checks, the Hessian
 * against differences of the gradient, finite differences on the first 100 elements, no sweeps,
 * 30 s a batch, the precision detected */
cc_exec_audit cc_exec_audit_defaults(void);

/* ea->claims = the claim spec ("bend/bridson", "bridson-force", ...) at stiffness k, checked
 * against ea's condition and contract; 0, or -1 with why in err */
int cc_exec_audit_claim(cc_exec_audit *ea, const char *spec, double k, char *err);

/* why a run failed */
enum { CC_EXEC_PROGRAM = -1, CC_EXEC_NO_MEMORY = -2, CC_EXEC_NO_ELEMENT = -3, CC_EXEC_MISUSE = -4 };

/* run the audit of ea into r (zeroed first); 0, or one of the codes above with a one-line reason
 * in err (the program could not start, misbehaved or passed on an error of its own; memory ran
 * out; no element could be built; ea names no condition), r then released. Release a run with
 * cc_exec_run_free. */
int cc_exec_audit_run(const cc_exec_audit *ea, cc_exec_run *r, char *err);

void cc_exec_run_free(cc_exec_run *r);

/* the lines the engine's table does not make, on f: the fields the program does not give, the
 * precision its numbers carry, what it computes, the requests it answered */
void cc_exec_report_extras(FILE *f, const cc_exec_audit *ea, const cc_exec_run *r);

#endif
