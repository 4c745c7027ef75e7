/* shear/normalized — Pritchard's appendix shear, without the unit-magnitude assumption.
 *
 *   C = alpha w^_u . w^_v                                                   001 (A.5)
 *   dw^_u/dx_{m,s} = dw_u/dx_m / |w_u| (I_s - w^_{u,s} w^_u)                 001 (A.1)
 *   d2w^_u/dx_{m,s} dx_{n,t} = -dw_u/dx_m / |w_u| (w^_{u,s} dw^_u/dx_{n,t}
 *                                 + dw^_{u,s}/dx_{n,t} w^_u)
 *                              - dw_u/dx_m dw_u/dx_n (I_s - w^_{u,s} w^_u) w^_{u,t} / |w_u|^2
 *                                                                           001 (A.3)
 *   dC, d2C by the product rule                                             001 (A.6), (A.7)
 *   and likewise for v, (A.2), (A.4).
 *
 * Read as printed: (A.3) checks out term by term against differentiating (A.1) once more,
 * so these are exact derivatives of (A.5).
 */
#include "conditions/triangle.h"
#include "conditions/variants.h"

/* dw^/dx_{m,s} for all m, s: d[m][s] = g_m / len (e_s - wh_s wh)    (A.1), (A.2) */
static void unit_gradient(cc_v3 wh, double len, const double g[3], cc_v3 d[3][3])
{
    for (int m = 0; m < 3; m++)
        for (int s = 0; s < 3; s++)
            d[m][s] = cc_v3_scale(cc_v3_axpy(cc_v3_axis(s), -wh.c[s], wh), g[m] / len);
}

/* (d2w^/dx_{m,s} dx_{n,t}) . o for a fixed unit vector o     (A.3), (A.4) */
static double unit_hessian_dot(cc_v3 wh, double len, const double g[3], cc_v3 d[3][3],
                               cc_v3 o, int m, int s, int n, int t)
{
    double first = -g[m] / len * (wh.c[s] * cc_v3_dot(d[n][t], o) + d[n][t].c[s] * cc_v3_dot(wh, o));
    double second = -g[m] * g[n] * (o.c[s] - wh.c[s] * cc_v3_dot(wh, o)) * wh.c[t] / (len * len);
    return first + second;
}

static int shear_normalized_eval(const double *x, const cc_rest *r, int want, cc_eval *out)
{
    cc_v3 wu = cc_tri_w(x, r->dwu), wv = cc_tri_w(x, r->dwv);
    double lu = cc_v3_norm(wu), lv = cc_v3_norm(wv);
    out->ncomp = 1;
    out->ndof = 9;
    if (!(lu > 0 && lv > 0)) return -1;
    cc_v3 uh = cc_v3_scale(wu, 1.0 / lu), vh = cc_v3_scale(wv, 1.0 / lv);
    out->C[0] = r->alpha * cc_v3_dot(uh, vh);                           /* (A.5) */
    if (!(want & (CC_WANT_GRAD | CC_WANT_HESS))) return want & CC_WANT_ALL;
    cc_v3 du[3][3], dv[3][3];
    unit_gradient(uh, lu, r->dwu, du);
    unit_gradient(vh, lv, r->dwv, dv);
    for (int m = 0; m < 3; m++)
        for (int s = 0; s < 3; s++) {
            int i = 3 * m + s;
            out->dC[0][i] = r->alpha * (cc_v3_dot(du[m][s], vh) + cc_v3_dot(uh, dv[m][s])); /* (A.6) */
            if (!(want & CC_WANT_HESS)) continue;
            for (int n = 0; n < 3; n++)
                for (int t = 0; t < 3; t++)                                                 /* (A.7) */
                    out->d2C[0][i][3 * n + t] = r->alpha *
                        (unit_hessian_dot(uh, lu, r->dwu, du, vh, m, s, n, t)
                         + cc_v3_dot(du[m][s], dv[n][t]) + cc_v3_dot(du[n][t], dv[m][s])
                         + unit_hessian_dot(vh, lv, r->dwv, dv, uh, m, s, n, t));
        }
    return want & CC_WANT_ALL;
}

/* C = alpha (w_u / |w_u|) . (w_v / |w_v|), magnitudes from xf when given */
static void shear_normalized_value_hd(const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *C)
{
    cc_hv3 wu = cc_tri_w_hd(x, r->dwu), wv = cc_tri_w_hd(x, r->dwv);
    cc_hd lu = cc_hv3_norm(wu), lv = cc_hv3_norm(wv);
    if (xf) {
        lu = cc_hd_const(cc_v3_norm(cc_tri_w(xf, r->dwu)));
        lv = cc_hd_const(cc_v3_norm(cc_tri_w(xf, r->dwv)));
    }
    C[0] = cc_hd_scale(cc_hd_div(cc_hv3_dot(wu, wv), cc_hd_mul(lu, lv)), r->alpha);
}

const cc_condition cc_shear_normalized = {
    .condition = "shear",
    .variant = "normalized",
    .source = "Pritchard (A.1)-(A.7)",
    .summary = "C = a^p w^_u . w^_v (unit vectors), exact derivatives from the appendix",
    .nv = 3,
    .ncomp = 1,
    .claim = CC_CLAIM_EXACT,
    .eval = shear_normalized_eval,
    .value_hd = shear_normalized_value_hd,
};
