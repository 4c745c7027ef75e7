/* The audit engine: one target's analytic derivatives against every reference, over a batch
 * of seeded random elements and edge cases, with step sweeps, structure checks and the
 * Taylor remainder test.
 *
 * References (what the analytic derivatives are compared with):
 *   fd-true       finite differences of C itself (value code only)
 *   fd-frozen     finite differences of C with the magnitudes of normalised vectors frozen
 *                 at the unshifted positions (001 Section 4; xf = x)
 *   exact         hyper-dual derivatives of C (no step; needs the target's value_hd)
 *   exact-frozen  hyper-dual derivatives of the frozen-magnitude C
 * Quantities per row: finite (the target's own value, gradient and Hessian are finite numbers
 * at every element: a NaN or an infinity fails, named by element, part and entry, and the
 * element is left out of the other rows), gradient, hessian, hessian-vs-gradient (the Hessian
 * against differences of the target's own analytic gradient), the structure checks symmetry,
 * translation, rotation, rigid-modes, and taylor.
 *
 * Pass is judged against what the target claims: exact claims against fd-true and exact
 * (and the structure and Taylor checks of C), frozen claims against fd-frozen and
 * exact-frozen (and structure and Taylor of the frozen function); rows of claim-none
 * targets, and rows about a function the target does not claim, are reported but never gate.
 */
#ifndef CC_AUDIT_H
#define CC_AUDIT_H

#include <stdint.h>
#include "checks/cases.h"
#include "checks/claim.h"
#include "checks/finding.h"
#include "checks/structure.h"
#include "checks/taylor.h"

typedef enum cc_ref {
    CC_REF_FD_TRUE,
    CC_REF_FD_FROZEN,
    CC_REF_EXACT,
    CC_REF_EXACT_FROZEN,
    CC_REF_CLAIM,         /* what the target claims to implement (opts.claims, claim.h) */
    CC_REF_CLAIM_EXACT,   /* the claimed variant's value differentiated exactly (a frozen-magnitude
                             or claim-none variant: what the exact derivatives would give) */
    CC_REF_COUNT
} cc_ref;

typedef enum cc_quantity {
    CC_Q_GRADIENT,
    CC_Q_HESSIAN,
    CC_Q_HESS_GRADIENT,   /* the Hessian against differences of the analytic gradient */
    CC_Q_SYMMETRY,
    CC_Q_TRANSLATION,
    CC_Q_ROTATION,
    CC_Q_RIGID,
    CC_Q_TAYLOR,
    CC_Q_VALUE,           /* C itself against the claim's */
    CC_Q_FINITE,          /* the target's own numbers are finite (always kept, always gates) */
    CC_Q_COUNT
} cc_quantity;

#define CC_REFS_ALL ((1u << CC_REF_COUNT) - 1)   /* every reference, with structure and Taylor */
#define CC_QS_ALL ((1u << CC_Q_COUNT) - 1)       /* every quantity */
#define CC_AUDIT_MAX_ROWS 24
#define CC_AUDIT_MAX_SWEEPS 16

/* Batch steps of the central4 scheme, relative to each element's step scale
 * (cc_target_step_scale). */
#define CC_AUDIT_STEP_GRAD 1e-3   /* gradient from values, and hessian-vs-gradient */
#define CC_AUDIT_STEP_HESS 1e-3   /* Hessian from second differences of values */

/* Tolerances on the normwise relative error (docs/audit.md: derivation and measured margins;
 * planted defects give errors of 1e-3 and more). */
#define CC_AUDIT_TOL_EXACT 1e-9       /* analytic vs hyper-dual, both at round-off (seen: 3e-14) */
#define CC_AUDIT_TOL_FD_GRAD 1e-7     /* central4 at 1e-3: h^4 + eps/h ~ 3e-13 (seen: 7e-10) */
#define CC_AUDIT_TOL_FD_HESS 1e-6     /* central4 second differences at 1e-3: h^4 + eps/h^2 ~ 2e-10 (seen: 6e-8) */
#define CC_AUDIT_TOL_STRUCTURE 1e-9   /* identities of exact derivatives, at round-off (seen: 3e-15) */
/* A target whose numbers carry fewer digits than a double's (it computes in floats, or prints
 * fewer digits): its precision p is the relative size of its rounding (2^-24 for floats, half a
 * unit of the last digit printed). Computed comparisons (claim, structure) then take the
 * tolerance CC_AUDIT_TOL_LIMITED p, differences of its gradient and of its values for its
 * gradient (central4 at 1e-3: p / 1e-3) CC_AUDIT_TOL_LIMITED_FD p, except at an element where
 * its rounding alone can move the latter by more (audit.c, rounding_error: skipped); second
 * differences of its values and the Taylor test, which lose their digits to its rounding, are
 * left out. At p = 2^-24 that is 1e-5 and 1e-3. */
#define CC_AUDIT_PREC_SINGLE 5.9604644775390625e-08   /* 2^-24: a float's rounding */
#define CC_AUDIT_PREC_LIMITED 1e-12                    /* numbers coarser than this are limited */
#define CC_AUDIT_TOL_LIMITED 170.0
#define CC_AUDIT_TOL_LIMITED_FD 1.7e4

typedef struct cc_audit_opts {
    int samples;              /* random elements, case ids 0..samples-1 */
    uint64_t seed;            /* random stream */
    int edges;                /* 1: add the edge cases of cases.h */
    int only_case;            /* 1: audit only the case `case_id` */
    int case_id;              /* the case replayed when only_case */
    unsigned refs;            /* bit 1 << cc_ref per reference; CC_REFS_ALL adds structure and Taylor */
    int sweep_cases;          /* elements per step sweep (0: no sweeps) */
    int taylor_cases;         /* elements in the Taylor test (0: none) */
    unsigned quantities;      /* bit 1 << cc_quantity per kind of row kept (CC_QS_ALL: every row) */
    int fd_cases;             /* finite-difference rows on the first fd_cases random elements and
                                 the edge cases only (0: on every element) */
    int fd_no_edges;          /* 1: with fd_cases, not on the edge cases either */
    int fd_central;           /* 1: the differences of the rows are central ones, two evaluations
                                 a coordinate, at the step cc_audit_fd_step fits to the target's
                                 precision (an audit that must ask a program little); 0: central4
                                 at CC_AUDIT_STEP_GRAD */
    cc_claim_spec claims;     /* what the target claims to implement: rows against the
                                 reference "claim" (cond NULL and bridson_force 0: none) */
    double claim_tol;         /* tolerance of those rows (0: CC_AUDIT_TOL_EXACT) */
    int all_checks;           /* 1: the structure rows and the Taylor test even when refs names
                                 some references only */
    int no_fd_hessian;        /* 1: no Hessian rows from finite differences of values (the
                                 Hessian is checked against differences of the gradient) */
    double precision;         /* the relative rounding of the target's numbers, 0 for a double
                                 computation printed in full; above CC_AUDIT_PREC_LIMITED the
                                 tolerances of CC_AUDIT_TOL_LIMITED(_FD), no second differences
                                 of its values, no Taylor test (both lose their digits to its
                                 rounding) */
    cc_sample_opts sample;    /* area power and rest stretch of random triangles */
} cc_audit_opts;

/* defaults: 1000 samples, seed 1, edge cases, every reference and quantity, 3 sweep and 16
 * Taylor elements */
cc_audit_opts cc_audit_defaults(void);

/* the relative step of central differences (fd_central) for numbers of relative rounding
 * `precision` (0: doubles in full): the cube root of the rounding, which balances the scheme's
 * h^2 against the rounding's p / h, kept within [1e-5, 1e-3] */
double cc_audit_fd_step(double precision);

typedef struct cc_audit_row {
    cc_ref ref;               /* the reference (for structure: the baseline; taylor: the function) */
    cc_quantity q;            /* what is compared */
    int available;            /* 0: the reference cannot be computed for this target */
    const char *note;         /* why unavailable, or what the row measures ("" if nothing) */
    const char *scheme;       /* finite-difference scheme ("central4", ...) or "hyper-dual", "" */
    double step;              /* relative step of the scheme (0 if none) */
    double max_rel;           /* largest normwise relative error over the batch (NaN: a NaN met) */
    cc_diff worst;            /* its worst entry (k, i = 3m+s, j = 3n+t), analytic and reference */
    int worst_case;           /* case id of the element where max_rel occurred */
    int samples;              /* elements compared */
    int undefined;            /* elements where the target or the reference was undefined */
    int ref_nonfinite;        /* of them, those where the reference is not finite (a formula singular
                                 there, as Macri's acos at a flat hinge) */
    int rough;                /* elements skipped: the differenced function jumps within the step
                                 (its differences at half the step do not settle) */
    int rounded;              /* elements skipped: a gradient that differs from differences of
                                 values of limited precision by no more than their rounding can
                                 make them differ there (a short spring's energy in floats) */
    double tol;               /* pass threshold on max_rel */
    int pass;                 /* max_rel <= tol (taylor: orders reached) */
    int gates;                /* 1 if a failure here fails the target's claim */
    int sweep;                /* index into cc_audit.sweeps of the matching sweep, or -1 */
    cc_taylor taylor;         /* the Taylor orders (quantity taylor only) */
    double offset;            /* value of an energy (the force form): the constant by which the
                                 target's energies exceed the claim's at every element, taken off
                                 before they are compared (an energy is defined up to one) */
    cc_diagnosis diag;        /* what kind of mistake, for failing rows that are diagnosed
                                 (cc_diagnose_wanted); n = 0 otherwise */
} cc_audit_row;

typedef struct cc_audit {
    cc_target target;                        /* what was audited */
    cc_audit_opts opts;                      /* how */
    cc_audit_row rows[CC_AUDIT_MAX_ROWS];    /* one per (reference, quantity) */
    int nrows;                               /* rows in use */
    cc_sweep sweeps[CC_AUDIT_MAX_SWEEPS];    /* step sweeps, see sweep.h */
    int nsweeps;                             /* sweeps in use */
    int ncases;                              /* elements in the batch */
} cc_audit;

const char *cc_ref_name(cc_ref r);
/* the name of row w's reference as reports print it: "target" for the finite row (the target's
 * own numbers), else cc_ref_name */
struct cc_audit_row;
const char *cc_row_reference(const struct cc_audit_row *w);
const char *cc_quantity_name(cc_quantity q);
/* the reference named s, or -1 */
int cc_ref_parse(const char *s);
/* the quantity named s ("gradient", "hessian-vs-gradient", "taylor", ...), or -1 */
int cc_quantity_parse(const char *s);

/* a = audit of target t with options o: its rows, not yet diagnosed; 0, or -1 if not one
 * element could be built */
int cc_audit_rows(const cc_target *t, const cc_audit_opts *o, cc_audit *a);

/* a = audit of target t with options o, its failing rows diagnosed (cc_audit_rows, then
 * cc_diagnose_row on each row cc_diagnose_wanted; run.c); 0, or -1 if not one element could be
 * built */
int cc_audit_run(const cc_target *t, const cc_audit_opts *o, cc_audit *a);

/* 1 if o's target has numbers of limited precision (o->precision > CC_AUDIT_PREC_LIMITED) */
int cc_audit_limited(const cc_audit_opts *o);

/* 1 if some gating row of a failed (the target fails its claim) */
int cc_audit_failed(const cc_audit *a);

/* d = reference `ref` at element (x, r) as the rows of quantity q (gradient, hessian,
 * hessian-vs-gradient) compute it, with steps scaled by the element's step scale from the
 * analytic derivatives e; 0, or -1 if undefined or unavailable */
int cc_audit_reference(const cc_target *t, const double *x, const cc_rest *r, cc_ref ref, cc_quantity q,
                       const cc_eval *e, cc_deriv *d);

/* the row of a for (ref, q), or NULL */
const cc_audit_row *cc_audit_find(const cc_audit *a, cc_ref ref, cc_quantity q);

#endif
