/* Structure checks on one element's derivatives: properties every derivative of a
 * rigid-motion-invariant C has, whatever the formula.
 *
 *   symmetry     H_k = H_k^T                              max |H - H^T| / max |H|
 *   translation  sum_m dC/dx_m = 0                        |sum_m g_m| / nv max_m |g_m|
 *   rotation     sum_m (x_m - c) x dC/dx_m = 0            |torque| / sum_m |x_m - c| |g_m|
 *                (|g_m| at least the gradient's natural size, cc_gradient_floor of H: a
 *                gradient that vanishes, as k C dC at a flat hinge, is round-off, and
 *                round-off over round-off says nothing)
 *   rigid modes  H T_a = 0 for the translations T_a, and (H R_a)_n + g_n x e_a = 0 for the
 *                rotations (R_a)_m = e_a x (x_m - c), c the centroid (differentiate
 *                sum_m g_m . (w x (x_m - c)) = 0 once more): the rigid modes in the Hessian's
 *                null space, exactly so at rest (g = 0)
 *
 * Each returns a cc_diff: rel is the relative residual, (k, i, j) where it is worst
 * (i = 3m+s a dof or, for the sums, the axis s with m = -1; j the second dof or the mode),
 * analytic the residual there, reference 0.
 */
#ifndef CC_STRUCTURE_H
#define CC_STRUCTURE_H

#include "checks/fd.h"
#include "checks/reference.h"

typedef enum cc_structure_check {
    CC_CHECK_SYMMETRY,
    CC_CHECK_TRANSLATION,
    CC_CHECK_ROTATION,
    CC_CHECK_RIGID,
    CC_CHECK_COUNT
} cc_structure_check;

const char *cc_structure_name(cc_structure_check c);

/* residual of check c for gradient g and Hessian H of an element with nv vertices at x */
cc_diff cc_structure(cc_structure_check c, const double *x, int nv, int ncomp,
                     double g[CC_MAX_COMP][CC_MAX_DOF],
                     double H[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF]);

/* the rigid-mode residual of (g, H) split into the translation modes and the rotation modes */
void cc_structure_rigid_parts(const double *x, int nv, int ncomp, double g[CC_MAX_COMP][CC_MAX_DOF],
                              double H[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF], cc_diff *trans, cc_diff *rot);

#endif
