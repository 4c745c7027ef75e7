/* References for a registered variant's derivatives, computed from its own value code
 * (value_hd) by the audit engine's schemes (fd.h) — a convenience for tests and the demo.
 *
 *   cc_ref_fd_*     central finite differences with absolute step h (truncation O(h^2))
 *   cc_ref_exact_*  hyper-dual evaluation: exact to round-off, no step
 * Where the variant is undefined at a point a stencil needs, the reference is NaN.
 *
 * xf selects the function differentiated: NULL for C itself, or positions at which the
 * magnitudes of normalised vectors are frozen (001 Section 4) for the frozen-magnitude
 * reference; pass xf = x to audit (40)-(45) style derivatives at x.
 * Output layouts follow cc_eval: grad[k][i], hess[k][i][j], i, j < 3*nv.
 */
#ifndef CC_REFERENCE_H
#define CC_REFERENCE_H

#include "conditions/condition.h"

void cc_ref_fd_gradient(const cc_condition *c, const double *x, const double *xf,
                        const cc_rest *r, double h, double grad[CC_MAX_COMP][CC_MAX_DOF]);
/* second differences of the value code */
void cc_ref_fd_hessian(const cc_condition *c, const double *x, const double *xf,
                       const cc_rest *r, double h,
                       double hess[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF]);
void cc_ref_exact_gradient(const cc_condition *c, const double *x, const double *xf,
                           const cc_rest *r, double grad[CC_MAX_COMP][CC_MAX_DOF]);
void cc_ref_exact_hessian(const cc_condition *c, const double *x, const double *xf,
                          const cc_rest *r, double hess[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF]);


/* The largest disagreement between an analytic and a reference array, normwise:
 * rel = max |a - r| / max(max |r|, max |a|) over all entries (0 when both are zero). */
typedef struct cc_diff {
    double rel;         /* normwise relative error */
    int k, i, j;        /* worst entry: component k, dof i = 3m+s, dof j = 3n+t (-1 for gradients) */
    double analytic;    /* its analytic value */
    double reference;   /* its reference value */
} cc_diff;

cc_diff cc_compare_gradient(double a[CC_MAX_COMP][CC_MAX_DOF],
                            double r[CC_MAX_COMP][CC_MAX_DOF], int ncomp, int ndof);
/* the same over two flat arrays of n entries (i = the entry's index, k = j = -1) */
cc_diff cc_compare_flat(const double *a, const double *r, int n);
cc_diff cc_compare_hessian(double a[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF],
                           double r[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF], int ncomp, int ndof);
/* the same with the denominator at least floor: a Hessian that is zero (C linear in x, as
 * bend/quadratic) is measured against the curvature scale its gradient sets, so the round-off
 * of a finite-difference estimate of zero is not read as a wrong Hessian */
cc_diff cc_compare_hessian_floor(double a[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF],
                                 double r[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF], int ncomp, int ndof,
                                 double floor);
/* that floor at x (nv vertices): max |dC| / (the largest distance between two vertices), with
 * dC the analytic gradient e->dC; 0 where the vertices coincide */
double cc_hessian_floor(const cc_eval *e, const double *x, int nv);

/* The natural sizes of a value and a gradient, below which their differences are round-off:
 * where C or its gradient vanishes (an element at its rest state, a force k C dC at a flat
 * hinge), what is left of them is the rounding of terms of the size the next derivative sets
 * over the element. With L the largest distance between two of the nv vertices of x:
 *   gradient  max |d2C| L
 *   value     max(max |dC| L, max |d2C| L^2)
 * (0 where the vertices coincide or the derivatives are not finite). */
double cc_gradient_floor(double H[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF], int ncomp, const double *x, int nv);
double cc_value_floor(double g[CC_MAX_COMP][CC_MAX_DOF], double H[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF], int ncomp,
                      const double *x, int nv);
/* cc_compare_gradient and cc_compare_flat with the denominator at least floor */
cc_diff cc_compare_gradient_floor(double a[CC_MAX_COMP][CC_MAX_DOF], double r[CC_MAX_COMP][CC_MAX_DOF], int ncomp,
                                  int ndof, double floor);
cc_diff cc_compare_flat_floor(const double *a, const double *r, int n, double floor);

/* P = the projection of the symmetric n x n matrix H (row-major, n <= CC_MAX_DOF) onto the
 * positive semi-definite matrices: its eigenvalues below 0 set to 0 (Jacobi rotations) */
void cc_psd_projection(const double *H, int n, double *P);

#endif
