/* Finite-difference schemes and the exact reference, for any audit target.
 *
 * Every estimate fills a cc_deriv with the cc_eval layouts (gradient ncomp x 3nv, Hessian
 * ncomp x 3nv x 3nv). Steps are absolute here; the audit makes them relative to the
 * element's step scale (cc_target_step_scale). xf selects the function differentiated: NULL
 * for C itself, or the positions at which the magnitudes of normalised vectors are frozen
 * (001 Section 4): pass xf = x to get the frozen-magnitude reference at x.
 *
 *   forward   (f(x + h) - f(x)) / h                          error O(h)
 *   central   (f(x + h) - f(x - h)) / 2h                     error O(h^2)
 *   central4  (4 D(h) - D(2h)) / 3, D the central estimate   error O(h^4) (one Richardson step)
 *   ridders   Ridders' extrapolation of the central estimate from h down by 1.4 per level,
 *             keeping per entry the estimate with the smallest error estimate
 *
 * Three quantities: the gradient from values, the Hessian from second differences of values,
 * and the Hessian from differences of the target's own analytic gradient (a consistency check
 * of the Hessian against the gradient, independent of the value).
 */
#ifndef CC_FD_H
#define CC_FD_H

#include "checks/target.h"

/* A gradient or a Hessian in the cc_eval layouts. */
typedef struct cc_deriv {
    double g[CC_MAX_COMP][CC_MAX_DOF];              /* g[k][i] = dC_k/dx_i */
    double H[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF];  /* H[k][i][j] = d2C_k/dx_i dx_j */
} cc_deriv;

typedef enum cc_scheme {
    CC_FD_FORWARD,
    CC_FD_CENTRAL,
    CC_FD_CENTRAL4,
    CC_FD_RIDDERS,
    CC_FD_NSCHEMES
} cc_scheme;

typedef enum cc_fdq {
    CC_FDQ_GRADIENT,        /* gradient from values */
    CC_FDQ_HESS_VALUE,      /* Hessian from second differences of values */
    CC_FDQ_HESS_GRADIENT,   /* Hessian from differences of the analytic gradient */
    CC_FDQ_COUNT
} cc_fdq;

const char *cc_scheme_name(cc_scheme s);
/* the truncation order of the scheme: 1, 2, 4 (ridders: 0, no single order) */
int cc_scheme_order(cc_scheme s);
const char *cc_fdq_name(cc_fdq q);

/* d = finite-difference estimate of quantity q with scheme s and absolute step h;
 * 0, or -1 if the target is undefined at a point the stencil needs */
int cc_fd_estimate(const cc_target *t, const double *x, const double *xf, const cc_rest *r,
                   cc_fdq q, cc_scheme s, double h, cc_deriv *d);

/* d.g (want_hess = 0) or d.g and d.H = exact derivatives of the target's value_hd at x
 * (hyper-dual, no step); -1 if the target has no value_hd or is undefined at x */
int cc_exact_derivs(const cc_target *t, const double *x, const double *xf, const cc_rest *r,
                    int want_hess, cc_deriv *d);

#endif
