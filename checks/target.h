/* Audit targets: anything whose derivatives the audit engine can check.
 *
 * A target is a context pointer and callbacks in plain doubles, so the same engine audits a
 * registered C variant (cc_target_from_condition), a wrapped one with a planted defect (the
 * tests), or a condition written later in Lua. Layouts follow cc_eval (condition.h):
 *   x        3*nv doubles, x[3*m+s] is axis s of vertex m
 *   C[k]     k < ncomp
 *   dC[k][3m+s], d2C[k][3m+s][3n+t]
 * value_hd is optional: without it the exact (hyper-dual) references are unavailable and
 * the engine says so instead of substituting anything.
 */
#ifndef CC_TARGET_H
#define CC_TARGET_H

#include "conditions/condition.h"

/* What a target says it implements, to be compared with it entry by entry (the reference
 * "claim" of the audit): a registered variant, taken as the target's own condition or, with
 * as_energy, as the energy E = k/2 C.C of a force (value E, gradient -F, Hessian -dF/dx); or
 * Bridson's force model (cc_bridson_force, stiffness k), which has no energy. */
typedef struct cc_claim_spec {
    const cc_condition *cond;   /* the claimed variant, or NULL (with bridson_force 0: no claim) */
    int as_energy;              /* 1: the target is E = k/2 C.C of cond, in the force form */
    double k;                   /* stiffness of the force form */
    int bridson_force;          /* 1: the claimed force is Bridson's model, cond unused */
} cc_claim_spec;

typedef struct cc_target {
    const char *condition;  /* name for reports, e.g. "bend" */
    const char *variant;    /* name for reports, e.g. "pritchard" */
    const char *source;     /* equations implemented, for reports (may be "") */
    int nv;                 /* vertices per element, 2..CC_MAX_NV */
    int ncomp;              /* components of C, 1..CC_MAX_COMP */
    cc_claim claim;         /* what the analytic derivatives claim to be the derivatives of */
    int frozen;             /* 1 if value/value_hd honour xf (frozen magnitudes), else 0 */
    double period;          /* C is an angle modulo period (2 pi for bend), 0 if not: differences
                               of values are wrapped into (-period/2, period/2] */
    int period_weighted;    /* 1 if C is the angle times the rest weight (bend/discrete-shells):
                               the period is period * r->rest_weight */
    void *ctx;              /* passed unchanged to every callback */
    /* analytic derivatives: as cc_condition.eval; the CC_WANT_* bits filled, or -1 */
    int (*eval)(void *ctx, const double *x, const cc_rest *r, int want, cc_eval *out);
    /* C at x (xf as in cc_condition.value_hd, NULL for C itself); 0, or -1 if undefined */
    int (*value)(void *ctx, const double *x, const double *xf, const cc_rest *r, double *C);
    /* C over hyper-duals, or NULL when the target has no such code */
    void (*value_hd)(void *ctx, const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *C);
    cc_claim_spec claims;   /* what it says it implements (cc_audit_run sets it from the options) */
    int provides;           /* CC_WANT_* bits its eval can fill, and value gives (0: all of them) */
    /* questions it has recorded and cannot answer yet (a table of a program's answers between
     * fetches, memo.h): what it gives meanwhile are stand-ins, and the engine asks nothing
     * that depends on them (a check at half the step, a diagnosis); NULL: none ever */
    int (*pending)(const void *ctx);
} cc_target;

/* the questions t has outstanding (0 for a target that answers at once) */
int cc_target_pending(const cc_target *t);

/* the target auditing registered variant c through its own eval and value_hd (period 2 pi
 * for the one-component bend variants, whose C is the signed angle of atan2, 001 (30), or a
 * multiple of it) */
cc_target cc_target_from_condition(const cc_condition *c);

/* C = value at x, or -1 (also when xf is given to a target that cannot freeze magnitudes) */
int cc_target_value(const cc_target *t, const double *x, const double *xf, const cc_rest *r,
                    double *C);

/* a - b, wrapped into (-period/2, period/2] when the target's C is periodic (rest data r) */
double cc_target_diff(const cc_target *t, const cc_rest *r, double a, double b);

/* ell = smallest length of the element: min over vertex pairs of |x_m - x_n| and over its
 * triangles (a triangle; a hinge's wings x0x1x2, x1x2x3) of the height on the longest side.
 * Finite-difference steps are relative to it, so small or thin elements get small steps. */
double cc_target_length_scale(const cc_target *t, const double *x);

/* the step scale of one element: from the analytic value and derivatives in e,
 * ell_f = max(max|dC| / max|d2C|, sqrt(max|C| / max|d2C|)) (the lengths over which the
 * gradient changes by itself, and over which second differences rise out of the round-off
 * of C), clamped to [ell, L] with ell as above and L the largest vertex distance; ell alone
 * when e is NULL. Finite-difference steps and Taylor steps are relative to it. */
double cc_target_step_scale(const cc_target *t, const double *x, const cc_eval *e);

#endif
