/* Bridson et al.'s bending force (2003) as a force model of its own, not a condition
 * (docs/design.md "The condition contract", last paragraph; 004; 002 "Force Magnitude").
 *
 *   F_i = k |e|^2 / (|nA| + |nB|) (sin(theta/2) - sin(theta0/2)) u_i,   i = 0..3
 *
 * in Pritchard's labels and sign (hinge x0..x3, shared edge x1-x2, theta of 001 (30),
 * theta0 = r->rest_angle), with u_i Bridson's directions (hinge.h; 004's x1..x4 are x0, x3,
 * x2, x1 here). In this sign u_i = -dtheta/dx_i, and the literal formula is restoring: it does
 * negative work on |theta - theta0| (test_bridson_force.c).
 *
 * Arrays: x is 12 doubles (x[3m+s], vertex m, axis s); F[3i+r] is axis r of the force on
 * vertex i; dFdx[3i+r][3m+s] = dF_{i,r}/dx_{m,s}, 12 x 12.
 */
#ifndef CC_BRIDSON_FORCE_H
#define CC_BRIDSON_FORCE_H

#include "conditions/condition.h"
#include "math/cc_hd.h"

/* F and (if dFdx != NULL) its Jacobian at x; 0, or -1 where a triangle or the edge has zero
 * size (the force is undefined) */
int cc_bridson_force(const double *x, const cc_rest *r, double k, double F[12], double dFdx[12][12]);

/* the same closed form over hyper-dual positions x (12), so that checks can take the exact
 * Jacobian of this very formula; undefined hinges give inf or NaN parts */
void cc_bridson_force_hd(const cc_hd *x, const cc_rest *r, double k, cc_hd F[12]);

#endif
