/* The derivation stepper: every step of a derivation (src/conditions/derivation.h) checked
 * on one element, with a verdict per step and the first departure.
 *
 * For each step, its derivative as the variant computes it is compared with
 *   exact    the derivative of the step's own value code, exactly (hyper-dual numbers), or
 *            by central4 finite differences of its value when it has no hyper-dual code (a
 *            step written in Lua);
 *   frozen   the same of the value with the magnitudes of normalised vectors frozen at x
 *            (001 Section 4; hyper-dual steps only).
 * Errors are normwise relative (reference.h). The verdict is
 *   exact    agrees with the exact derivative (to round-off: CC_AUDIT_TOL_EXACT; with finite
 *            differences, CC_AUDIT_TOL_FD_GRAD / _HESS)
 *   frozen   agrees only with the frozen-magnitude derivative
 *   differs  agrees with neither
 * The first departure is the first step whose verdict is not exact: where the derivation
 * stops being the derivative of what it claims. A derivation may depart twice: first by the
 * constant-magnitude approximation (frozen), later by a step that is not even that (differs);
 * the first step of each verdict is kept too.
 */
#ifndef CC_DERIVE_H
#define CC_DERIVE_H

#include "checks/reference.h"
#include "conditions/derivation.h"

#define CC_DERIVE_MAX_STEPS 32

typedef enum cc_step_verdict {
    CC_STEP_EXACT,
    CC_STEP_FROZEN,
    CC_STEP_DIFFERS,
    CC_STEP_UNDEFINED    /* the step or its reference is undefined at x */
} cc_step_verdict;

typedef struct cc_step_check {
    const cc_step *step;          /* the step checked */
    double value[CC_STEP_MAXQ];   /* q at x (step->n numbers) */
    double err_exact;             /* normwise relative error against the exact reference */
    double err_frozen;            /* against the frozen-magnitude reference (NaN: not available) */
    cc_diff worst_exact;          /* worst entries (i = flat index into derive's layout) */
    cc_diff worst_frozen;
    const char *reference;        /* how the exact reference was computed: "hyper-dual", "central4" */
    cc_step_verdict verdict;
} cc_step_check;

typedef struct cc_derive {
    const char *condition;        /* names, for reports */
    const char *variant;
    int nv;                       /* vertices of the element */
    double x[CC_MAX_DOF];         /* the element, 3*nv doubles */
    int nsteps;                   /* steps checked */
    cc_step_check steps[CC_DERIVE_MAX_STEPS];
    int first_departure;          /* index of the first step not exact (undefined ones skipped), or -1 */
    int first_frozen;             /* index of the first step with verdict frozen, or -1 */
    int first_differs;            /* index of the first step that differs from both references, or -1:
                                     where a frozen-magnitude derivation stops being even that */
} cc_derive;

const char *cc_step_verdict_name(cc_step_verdict v);

/* d = every step of `steps` checked at element (x, r) with nv vertices; 0, or -1 if there are
 * more than CC_DERIVE_MAX_STEPS steps */
int cc_derive_run(const char *condition, const char *variant, int nv, const cc_step *const *steps,
                  int nsteps, const double *x, const cc_rest *r, cc_derive *d);

/* the index of the first step whose value or exact error is not a finite number (an
 * overflow or an undefined step), or -1 if every number is finite */
int cc_derive_nonfinite(const cc_derive *d);

/* "q1 x0.y" (order 1) or "q1 x0.y x3.z" (order 2) of flat derivative index i of step s on
 * an element with nv vertices, into buf */
void cc_derive_where(const cc_step *s, int nv, int i, char *buf, int len);

#endif
