/* Derivations as data: the published derivation of each condition variant as an ordered list
 * of steps (docs/design.md "Finite-difference checks"; `clothcheck derive`).
 *
 * A step is one named intermediate quantity q(x) of the derivation, n numbers (a scalar, a
 * vector, a few scalars) as a function of the element's positions x (3*nv doubles), with
 *   - the seed equations it implements, exactly as printed ("001 (25), (31), (34)"), and the
 *     formula as the seed writes it, in plain text;
 *   - its value code over hyper-duals (value_hd), so checks/ can differentiate it exactly,
 *     and with the magnitudes of normalised vectors frozen at xf (001 Section 4);
 *   - its derivative as the variant computes it (derive): the variant's own formula for that
 *     step, not a recomputation. order 1 gives dq/dx, order 2 gives d2q/dx dx.
 * Layouts of derive's d (ndof = 3*nv):
 *   order 1:  d[c*ndof + i]            = dq_c / dx_i
 *   order 2:  d[(c*ndof + i)*ndof + j] = d2q_c / dx_i dx_j
 * with i = 3m + s (vertex m, axis s) as in the condition contract.
 *
 * Steps that depend on rest data only (the (u,v) edges, the area) have a zero derivative.
 */
#ifndef CC_DERIVATION_H
#define CC_DERIVATION_H

#include "conditions/condition.h"
#include "math/cc_hd.h"

#define CC_STEP_MAXQ 12    /* numbers in one step's quantity, at most */
#define CC_STEP_MAXD (CC_STEP_MAXQ * CC_MAX_DOF * CC_MAX_DOF)   /* doubles in its derivative */

typedef struct cc_step cc_step;

struct cc_step {
    const char *name;       /* short name, e.g. "n^A" */
    const char *equations;  /* seed equations as printed: "001 (25), (31), (34)" */
    const char *formula;    /* the formula as the seed writes it, plain text */
    const char *note;       /* for a student: what the step does and, if it departs from the
                               derivative, what it leaves out ("" if nothing to add) */
    int order;              /* 1: derive gives dq/dx; 2: d2q/dx dx */
    int n;                  /* numbers in q, 1..CC_STEP_MAXQ (order 2: n*ndof*ndof <= CC_STEP_MAXD) */
    int arg;                /* passed to the callbacks: which vector, component or formula */
    const void *ptr;        /* passed to the callbacks: a variant, a units formula, a context */
    /* q at hyper-dual x; magnitudes of normalised vectors frozen at plain xf when xf != NULL.
     * NULL for steps without hyper-dual code (written in Lua: checked by finite differences). */
    void (*value_hd)(const cc_step *s, const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *q);
    /* q at plain x, for finite differences when value_hd is NULL; 0, or -1 if undefined */
    int (*value)(const cc_step *s, const double *x, const cc_rest *r, double *q);
    /* q and its derivative as the variant computes it (layouts above); 0, or -1 where the
     * step is undefined at x (a zero-length vector) */
    int (*derive)(const cc_step *s, const double *x, const cc_rest *r, double *q, double *d);
};

/* The documented sample elements `clothcheck derive` uses without --x (Pritchard's labels). */
#define CC_SAMPLE_TRIANGLE    "0 0 0; 1.2 0.1 0.05; 0.2 0.9 0.3"
#define CC_SAMPLE_TRIANGLE_UV "0 0; 1 0; 0 1"
#define CC_SAMPLE_HINGE       "0.3 -0.9 0.1; 0 0 0; 1 0 0; 0.6 0.7 0.5"
#define CC_SAMPLE_HINGE_REST  "0.3 -0.9 0; 0 0 0; 1 0 0; 0.5 0.8 0"   /* flat, for rest-shape variants */
#define CC_SAMPLE_SPRING      "0 0 0; 1.3 0.4 -0.2"

/* The formulas of 001 (46)-(57) as printed, shared by the variants built on them. */
#define CC_FORMULA_COS  "cos theta = n^A^ . n^B^;  dcos/dx_{m_s} = dn^A^/dx_{m_s} . n^B^ + n^A^ . dn^B^/dx_{m_s}"
#define CC_FORMULA_COS2 "d2cos = d2n^A^ . n^B^ + dn^B^/dx_{n_t} . dn^A^/dx_{m_s} + dn^A^/dx_{n_t} . dn^B^/dx_{m_s} + n^A^ . d2n^B^"
#define CC_FORMULA_SIN  "sin theta = (n^A^ x n^B^) . e^;  dsin = (dn^A^ x n^B^ + n^A^ x dn^B^) . e^ + (n^A^ x n^B^) . de^"
#define CC_FORMULA_SIN2 \
    "d2sin = (d2n^A^ x n^B^ + dn^A^_m x dn^B^_n + dn^A^_n x dn^B^_m + n^A^ x d2n^B^) . e^ " \
    "+ (dn^A^_m x n^B^ + n^A^ x dn^B^_m) . de^_n + (dn^A^_n x n^B^ + n^A^ x dn^B^_n) . de^_m " \
    "+ (n^A^ x n^B^) . d2e^"
#define CC_FORMULA_THETA \
    "theta = atan2(sin theta, cos theta) - theta0;  dtheta/dx_{m_s} = cos theta dsin/dx_{m_s} - sin theta dcos/dx_{m_s}"
#define CC_FORMULA_THETA2 \
    "d2theta = cos d2sin - sin d2cos + (sin^2 - cos^2)(dsin_m dcos_n + dcos_m dsin_n) " \
    "+ 2 sin cos (dcos_m dcos_n - dsin_m dsin_n)"

/* A variant's derivation: steps in the order of the published derivation. */
typedef struct cc_derivation {
    int nsteps;                       /* steps */
    const cc_step *const *steps;      /* each step */
    const char *sample;               /* the documented sample element: "x0; x1; ..." */
    const char *sample_uv;            /* its (u,v) for triangles, NULL otherwise */
} cc_derivation;

/* q at plain x through the step's value_hd with no seeds (xf as in value_hd) */
void cc_step_value(const cc_step *s, int nv, const double *x, const double *xf, const cc_rest *r,
                   double *q);

/* Steps shared by several variants (derivation.c, derive_hinge.c, derive_triangle.c). */

/* a step whose q is component `arg` of the variant `ptr` (a cc_condition), with the variant's
 * own eval as its derivative: dC (order 1) or d2C (order 2) */
int cc_step_condition_derive(const cc_step *s, const double *x, const cc_rest *r, double *q, double *d);
void cc_step_condition_value_hd(const cc_step *s, const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *q);

/* Hinge steps (001 (25)-(51)), in Pritchard's labels (hinge.h). */
extern const cc_step cc_step_hinge_nA, cc_step_hinge_nA2;   /* (25), (31); (37) */
extern const cc_step cc_step_hinge_nB, cc_step_hinge_nB2;   /* (26), (32); (38) */
extern const cc_step cc_step_hinge_e, cc_step_hinge_e2;     /* (27), (33); (39) */
/* A formula for the unit-vector derivatives of a hinge (hinge.h's cc_hinge_units): the
 * frozen-magnitude (40)-(45) or the appendix (A.8)-(A.13). */
struct cc_hinge;
struct cc_hinge_units;
typedef struct cc_hinge_formula {
    void (*units)(const struct cc_hinge *h, int want_hess, struct cc_hinge_units *u);
} cc_hinge_formula;

/* Steps built on a cc_hinge_formula (ptr), arg selecting the quantity:
 *   0 nA^, 1 nA^ (order 2), 2 nB^, 3 nB^ (order 2), 4 e^, 5 e^ (order 2),
 *   6 cos theta, 7 cos theta (order 2), 8 sin theta, 9 sin theta (order 2)
 * derivatives by the formula and (46)-(51) (cc_hinge_trig_derivs) */
int cc_step_hinge_units_derive(const cc_step *s, const double *x, const cc_rest *r, double *q, double *d);
void cc_step_hinge_units_value_hd(const cc_step *s, const cc_hd *x, const double *xf, const cc_rest *r,
                                  cc_hd *q);
/* the ten steps above with the frozen-magnitude (40)-(45), for bend/pritchard and bend/macri */
extern const cc_step cc_step_hinge_frozen[10];

/* step lists for a derivation's table: (25)-(39), and the frozen-magnitude (40)-(51) */
#define CC_STEPS_HINGE_VECTORS \
    &cc_step_hinge_nA, &cc_step_hinge_nA2, &cc_step_hinge_nB, &cc_step_hinge_nB2, &cc_step_hinge_e, \
    &cc_step_hinge_e2
#define CC_STEPS_HINGE_FROZEN \
    &cc_step_hinge_frozen[0], &cc_step_hinge_frozen[1], &cc_step_hinge_frozen[2], &cc_step_hinge_frozen[3], \
    &cc_step_hinge_frozen[4], &cc_step_hinge_frozen[5], &cc_step_hinge_frozen[6], &cc_step_hinge_frozen[7], \
    &cc_step_hinge_frozen[8], &cc_step_hinge_frozen[9]

/* Triangle steps (001 (1)-(12), (2), (A.1)): rest quantities, w_u, w_v, their lengths and
 * unit vectors. */
extern const cc_step cc_step_tri_uv, cc_step_tri_area, cc_step_tri_alpha;
extern const cc_step cc_step_tri_wu, cc_step_tri_wv;
extern const cc_step cc_step_tri_lu, cc_step_tri_lv;     /* |w_u|, |w_v| */
extern const cc_step cc_step_tri_uh, cc_step_tri_vh;     /* w^_u, w^_v */

#endif
