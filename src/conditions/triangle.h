/* Per-triangle quantities shared by the stretch and shear variants: 001 (2)-(4).
 *
 *   w_u = ((x1 - x0) dv2 - (x2 - x0) dv1) / det      (3)
 *   w_v = (-(x1 - x0) du2 + (x2 - x0) du1) / det     (4)
 *
 * Written with the precomputed derivatives of (6)-(8), (10)-(12): w = sum_m dw[m] x_m,
 * which is the same linear map (the dw[m] sum to zero).
 */
#ifndef CC_TRIANGLE_H
#define CC_TRIANGLE_H

#include "conditions/condition.h"
#include "math/cc_vec.h"

/* w = sum_m dw[m] x_m */
static inline cc_v3 cc_tri_w(const double *x, const double dw[3])
{
    cc_v3 w = cc_v3_zero();
    for (int m = 0; m < 3; m++) w = cc_v3_axpy(w, dw[m], cc_v3_load(x + 3 * m));
    return w;
}

/* the same over hyper-duals */
static inline cc_hv3 cc_tri_w_hd(const cc_hd *x, const double dw[3])
{
    cc_hv3 w = cc_hv3_const(0, 0, 0);
    for (int m = 0; m < 3; m++) w = cc_hv3_add(w, cc_hv3_scale(cc_hv3_load(x + 3 * m), dw[m]));
    return w;
}

/* dw^/dx_{m,s} for w^ = w/|w|, m, s < 3: d[m][s] = g_m (e_s - w^_s w^) / |w|, with
 * g_m = dw/dx_m (a scalar times I)                                        001 (A.1), (A.2) */
static inline void cc_tri_unit_gradient(cc_v3 wh, double len, const double g[3], cc_v3 d[3][3])
{
    for (int m = 0; m < 3; m++)
        for (int s = 0; s < 3; s++)
            d[m][s] = cc_v3_scale(cc_v3_axpy(cc_v3_axis(s), -wh.c[s], wh), g[m] / len);
}

#endif
