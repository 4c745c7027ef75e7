/* The condition contract (docs/design.md "The condition contract").
 *
 * A condition variant is one module, src/conditions/<condition>_<variant>.c, that for one
 * element (2 vertices for a spring, 3 for stretch and shear, 4 for bend) and its rest data
 * gives the value C (ncomp components), the gradient dC and the Hessian d2C:
 *
 *   x             positions, 3*nv doubles: x[3*m+s] is axis s of vertex m
 *   C[k]          k < ncomp (2 for stretch: C_u, C_v; 3 for bend/quadratic; 1 otherwise)
 *   dC[k][3m+s]   dC_k / dx_{m,s}
 *   d2C[k][3m+s][3n+t]   d2C_k / dx_{m,s} dx_{n,t}
 *
 * Vertex labels follow Pritchard (001): a triangle is x0, x1, x2; a hinge is x0..x3 with
 * shared edge x1-x2, x0 in triangle A and x3 in triangle B.
 *
 * Each variant also gives its value code over hyper-dual numbers (value_hd). The references
 * in checks/ differentiate exactly that code, so there is one copy of each formula for C.
 */
#ifndef CC_CONDITION_H
#define CC_CONDITION_H

#include <stddef.h>
#include "io/error.h"
#include "math/cc_hd.h"

#define CC_MAX_NV   4              /* vertices per element, at most (a hinge) */
#define CC_MAX_DOF  (3 * CC_MAX_NV) /* 12 */
#define CC_MAX_COMP 3              /* components of C, at most (bend/quadratic) */

/* What the caller wants from cc_condition.eval; eval returns the bits it filled. */
enum {
    CC_WANT_VALUE = 1,
    CC_WANT_GRAD  = 2,
    CC_WANT_HESS  = 4,
    CC_WANT_ALL   = 7
};

/* What a variant's derivatives claim to be the derivatives of. */
typedef enum cc_claim {
    CC_CLAIM_EXACT,   /* of C itself: must agree with every exact reference */
    CC_CLAIM_FROZEN,  /* of C with vector magnitudes held constant (001 Section 4, (40)-(45)) */
    CC_CLAIM_NONE     /* reproduced as published, no claim (Macri, 001 Section 5.1) */
} cc_claim;

/* Rest data of one element, precomputed once (cc_rest_triangle, _hinge, _spring). */
typedef struct cc_rest {
    int nv;              /* vertices of the element: 2, 3 or 4 */
    /* triangle (stretch, shear): 001 (1)-(12) */
    double du1, dv1;     /* (u,v) edge u1-u0, v1-v0 */
    double du2, dv2;     /* (u,v) edge u2-u0, v2-v0 */
    double det;          /* du1 dv2 - du2 dv1, the denominator of (3)-(12) */
    double area;         /* a, (1): |det| / 2 */
    double area_power;   /* p in alpha = a^p */
    double alpha;        /* area weight a^p: p = 1 Baraff & Witkin, 0.75 Pritchard 001, 0.5 003 */
    double dwu[3];       /* dw_u/dx_m (a scalar times I), m = 0, 1, 2: (6)-(8) */
    double dwv[3];       /* dw_v/dx_m, (10)-(12) */
    double bu, bv;       /* rest stretch in u and v, (13) */
    /* spring */
    double rest_length;  /* L in C = |x0 - x1| - L (004) */
    /* hinge (cc_rest_hinge_shape): the rest positions and what bend variants read of them */
    double rest_angle;   /* theta0 = theta(x_rest): bend conditions give C = theta - theta0 */
    double rest_x[12];   /* x_rest, the rest positions x0..x3 */
    double rest_weight;  /* |e_rest| sqrt(3 / A_rest), A_rest the two rest triangle areas summed */
    double rest_K[4];    /* sqrt(3 / A_rest) K_m: the cotangent weights of bend/quadratic */
} cc_rest;

/* Result of one evaluation; only the parts named by the returned bits are meaningful. */
typedef struct cc_eval {
    int ncomp;                                      /* components of C */
    int ndof;                                       /* 3 * nv */
    double C[CC_MAX_COMP];                          /* C_k */
    double dC[CC_MAX_COMP][CC_MAX_DOF];             /* dC_k / dx_{m,s} */
    double d2C[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF]; /* d2C_k / dx_{m,s} dx_{n,t} */
} cc_eval;

typedef struct cc_condition {
    const char *condition;  /* command-line name: "stretch", "shear", "bend", "spring" */
    const char *variant;    /* command-line name: "bw98", "normalized", "pritchard", ... */
    const char *source;     /* the equations it implements, e.g. "Pritchard (13)-(18)" */
    const char *summary;    /* one line for help and reports */
    int nv;                 /* vertices per element */
    int ncomp;              /* components of C */
    cc_claim claim;         /* what its derivatives are the derivatives of */
    int rest_shape;         /* 1 if C reads the rest hinge's shape, not only its angle */
    /* Fill what `want` asks for; return the CC_WANT_* bits filled, or -1 where C or its
     * derivatives are undefined at x (a zero-length edge, a zero-area world triangle). */
    int (*eval)(const double *x, const cc_rest *r, int want, cc_eval *out);
    /* C at hyper-dual positions x (3*nv). If xf != NULL, every vector that C normalises is
     * divided by its magnitude at positions xf instead (001 Section 4, frozen magnitudes). */
    void (*value_hd)(const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *C);
    /* the published derivation, step by step (derivation.h), or NULL */
    const struct cc_derivation *derivation;
} cc_condition;

/* The registry: every variant, in a fixed order (the first of a condition is its default). */
int cc_condition_count(void);
const cc_condition *cc_condition_at(int i);
/* the variant, or the condition's default when variant is NULL; NULL if unknown */
const cc_condition *cc_condition_find(const char *condition, const char *variant);
/* 1 if some variant has this condition name */
int cc_condition_known(const char *condition);
const char *cc_claim_name(cc_claim c);

/* C at plain positions x through the variant's own value code; xf as in value_hd. */
void cc_condition_value(const cc_condition *cond, const double *x, const double *xf,
                        const cc_rest *r, double *C);

/* The scales at which the conditions are computed to full precision: coordinates up to
 * CC_COORD_MAX in magnitude and vertices at least CC_LENGTH_MIN apart. The formulas square
 * lengths and areas (up to the 8th power of a length in the bend Hessians); outside these
 * bounds such powers leave the range of normal doubles. */
#define CC_COORD_MAX  1e30
#define CC_LENGTH_MIN 1e-30
/* 0 if the nv positions x lie within those scales (coincident vertices pass: the element's
 * eval refuses them), else -1 with the reason in err (CC_ERRLEN bytes) */
int cc_positions_in_range(const double *x, int nv, char *err);
/* 1 if every value, gradient and Hessian entry of e (as far as want asked) is finite: an
 * evaluation at coordinates so large that a square overflows is refused, not printed */
int cc_eval_finite(const cc_eval *e, int want);

/* Rest data. Each returns 0, or -1 with a message in err (CC_ERRLEN bytes) that the caller
 * prefixes with the element's name. uv is (u0 v0 u1 v1 u2 v2). */
int cc_rest_triangle(cc_rest *r, const double *uv, double area_power, double bu, double bv,
                     char *err);
/* cc_rest_hinge_shape: the hinge at rest positions x_rest (12 doubles); -1 if an edge or a
 * triangle of x_rest has zero size. cc_rest_hinge: the hinge of rest angle theta0 on the
 * canonical rest shape, edge x1 = (1/2, 0, 0), x2 = (-1/2, 0, 0), wings of height 1 (so
 * |e_rest| = 1, A_rest = 1) with x0 = (0, 1, 0) and x3 folded about the edge to theta0, which
 * must lie in [-pi, pi] (the range of theta). cc_rest_triangle: b_u, b_v must be positive. */
int cc_rest_hinge_shape(cc_rest *r, const double *x_rest, char *err);
/* the flat rest hinge of (u,v) points uv = (u0 v0 ... u3 v3) at z = 0 (a mesh's rest shape):
 * cc_rest_hinge_shape with the rest angle exactly 0 */
int cc_rest_hinge_flat(cc_rest *r, const double *uv, char *err);
int cc_rest_hinge(cc_rest *r, double rest_angle, char *err);
int cc_rest_spring(cc_rest *r, double rest_length, char *err);

#endif
