/* Forces and force Jacobians of one element from any condition
 * (docs/design.md "The condition contract"; Baraff & Witkin 1998 Section 4, with 001 (58)
 * for dC/dt).
 *
 *   E  = k/2 C.C
 *   f  = -k dC^T C
 *   df/dx = -k (dC^T dC + sum_k C_k d2C_k)
 *   d  = -kd dC^T Cdot,   Cdot = sum_m dC/dx_m . v_m       (001 (58), summed over particles)
 *   dd/dv = -kd dC^T dC
 *   dd/dx = -kd sum_k d2C_k Cdot_k                          (as Baraff & Witkin give it)
 * With CC_DAMP_PER_PARTICLE each vertex m sees its own Cdot_m = dC/dx_m . v_m (Pritchard's
 * first implementation, 001 5.2): d_m = -kd dC_m^T Cdot_m, dd_m/dv_m = -kd dC_m^T dC_m,
 * dd_m/dx_n = -kd sum_k d2C_k[m][n] Cdot_{k,m}.
 * Jacobians are symmetrised ((J + J^T)/2), as the solver needs a symmetric matrix; for a
 * variant whose Hessian is not symmetric (001 5.1 remarks on (57)) this is a departure.
 */
#ifndef CC_FORCES_H
#define CC_FORCES_H

#include "conditions/condition.h"

/* What one element contributes. */
typedef struct cc_elem_force {
    int ndof;                            /* 3 * vertices */
    double energy;                       /* k/2 C.C */
    double f[CC_MAX_DOF];                /* elastic + damping force, ndof */
    double Jx[CC_MAX_DOF][CC_MAX_DOF];   /* d(f + d)/dx, ndof by ndof, symmetric */
    double Jv[CC_MAX_DOF][CC_MAX_DOF];   /* dd/dv, ndof by ndof, symmetric */
} cc_elem_force;

/* o = forces of an evaluated element e at velocities v (ndof), stiffness k, damping kd;
 * damping is 0 for summed Cdot (001 (58)), 1 for per-particle Cdot; jac != 0 fills Jx, Jv
 * (e must then hold d2C). */
void cc_elem_forces(const cc_eval *e, const double *v, double k, double kd, int damping, int jac,
                    cc_elem_force *o);

/* H = the projection of the symmetric n by n matrix H (row stride CC_MAX_DOF) onto the
 * positive semi-definite cone: eigen-decompose (Householder tridiagonalisation and implicit
 * QL) and clamp negative eigenvalues to zero. A matrix whose eigenvalues all exceed
 * -1e-12 max|H_aa| (a shifted Cholesky test, about 1/30 of the cost) is left as it is. */
void cc_psd_project(double H[CC_MAX_DOF][CC_MAX_DOF], int n);

#endif
