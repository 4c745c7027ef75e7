/* The curvature part of each term's stiffness in the backward Euler matrix (sim.h,
 * cc_hessian_mode): which mode a term uses, and the closed-form modes (clamp, Gauss-Newton),
 * applied to an element's evaluated d2C before the forces and Jacobians are formed from it.
 *
 * Why (docs/reliability.md, "Stability of the implicit step"): with Pritchard's
 * Table 1 stiffness at h = 0.02, h^2 k_stretch C d2C of a stretch element compressed by a
 * fraction of a percent outweighs the lumped mass of its vertices, so A = M - h df/dv -
 * h^2 df/dx becomes indefinite on the free DOFs; MPCG does not always meet the negative
 * curvature (so the PSD retry of step.c does not always start), and the step then blows up.
 *
 * The clamp in closed form: for stretch/bw98, C = alpha (|w| - b) (001 (13)) has
 *   dC = alpha dw w^,   d2C = alpha/|w| dw dw^T (I - w^ w^T)                001 (14), (15)
 * so the component's stiffness K = k dC dC^T - w_c d2C is the sum of two PSD parts on the
 * orthogonal subspaces w^ and (I - w^ w^T), with weights k alpha^2 |dw|^2 and -w_c alpha |dw|^2 /|w|.
 * Its eigenvalues are those weights (and zeros), and its projection onto the PSD cone drops
 * the second part exactly when w_c > 0. */
#include <string.h>
#include "sim/assembly/sim_internal.h"

/* the cc_hessian_mode of term t: CC_HESSIAN_PROJECT under psd_project or a step's PSD retry,
 * else the term's parameter (user conditions: full) */
int cc_term_hessian(const cc_sim *s, const cc_term *t)
{
    if (s->p.psd_project || s->psd_retry) return CC_HESSIAN_PROJECT;
    switch (t->kind) {
    case TERM_STRETCH: return s->p.stretch_hessian;
    case TERM_SHEAR: return s->p.shear_hessian;
    case TERM_BEND:
    case TERM_BEND_FORCE: return s->p.bend_hessian;
    default: return CC_HESSIAN_FULL;
    }
}

/* d2C_c = 0 for every component c with w_c = -k C_c - kd (dC_c . v) > 0 (clamp), or for every
 * c (Gauss-Newton); full and project leave ev as it is */
void cc_hessian_apply(int mode, cc_eval *ev, const double *v, double k, double kd)
{
    if (mode != CC_HESSIAN_CLAMP && mode != CC_HESSIAN_GAUSS_NEWTON) return;
    for (int c = 0; c < ev->ncomp; c++) {
        if (mode == CC_HESSIAN_CLAMP) {
            double cd = 0;
            for (int a = 0; a < ev->ndof; a++) cd += ev->dC[c][a] * v[a];
            if (!(-k * ev->C[c] - kd * cd > 0)) continue;
        }
        for (int a = 0; a < ev->ndof; a++) memset(ev->d2C[c][a], 0, (size_t)ev->ndof * sizeof(double));
    }
}
