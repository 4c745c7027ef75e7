/* Probing the backward Euler system: the smallest eigenvalue of
 *   A = M - h df/dv - h^2 df/dx
 * on the free degrees of freedom, as the step assembles it at the current state (with the
 * step's own constraint filter S of pins, sliding vertices and contacts: S A S + (I - S)), and
 * the same with one term's Hessian mode changed.
 * A negative value means the step's matrix is indefinite there: the C d2C parts of the
 * stiffness (stretch under compression, bend away from rest) can outweigh the mass.
 */
#ifndef CC_SIM_PROBE_H
#define CC_SIM_PROBE_H

#include "sim/sim.h"

/* lambda_min of the free-DOF A at s's state with s's parameters, except that when term is
 * "stretch", "shear" or "bend" that term is assembled with Hessian mode `mode` instead (term
 * NULL: as it stands); relative accuracy 1e-3. *mass_min (if not NULL) gets the smallest
 * vertex mass, the natural unit. 0, or -1 with err (assembly failed, no memory, or a bend
 * mode the force model does not take). The state of s (positions, velocities, contacts) is
 * not changed; the filter and scratch of the next step are set up as that step sets them up. */
int cc_sim_lambda_min(cc_sim *s, const char *term, cc_hessian_mode mode, double *lambda, double *mass_min, char *err);

#endif
