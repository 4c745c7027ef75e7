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
#include "conditions/derivation.h"
#include "conditions/variants.h"

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
    cc_tri_unit_gradient(uh, lu, r->dwu, du);
    cc_tri_unit_gradient(vh, lv, r->dwv, dv);
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

/* The derivation, step by step: w_u, w_v, the unit vectors and their second derivatives
 * (A.1)-(A.4), then (A.5)-(A.7). */

/* q = w^_u (arg 0) or w^_v (arg 1); d = d2w^/dx dx by (A.3), (A.4) */
static int unit2_derive(const cc_step *s, const double *x, const cc_rest *r, double *q, double *d)
{
    const double *g = s->arg ? r->dwv : r->dwu;
    cc_v3 w = cc_tri_w(x, g), du[3][3];
    double len = cc_v3_norm(w);
    if (!(len > 0)) return -1;
    cc_v3 wh = cc_v3_scale(w, 1.0 / len);
    cc_tri_unit_gradient(wh, len, g, du);
    for (int c = 0; c < 3; c++) {
        q[c] = wh.c[c];
        for (int i = 0; i < 9; i++)
            for (int j = 0; j < 9; j++)
                d[(c * 9 + i) * 9 + j] = unit_hessian_dot(wh, len, g, du, cc_v3_axis(c), i / 3, i % 3, j / 3, j % 3);
    }
    return 0;
}

/* w^_u or w^_v over hyper-duals, the magnitude frozen at xf if given */
static void unit2_value_hd(const cc_step *s, const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *q)
{
    const double *g = s->arg ? r->dwv : r->dwu;
    cc_hv3 w = cc_tri_w_hd(x, g);
    cc_hd len = xf ? cc_hd_const(cc_v3_norm(cc_tri_w(xf, g))) : cc_hv3_norm(w);
    w = cc_hv3_div(w, len);
    q[0] = w.x, q[1] = w.y, q[2] = w.z;
}

static const cc_step uh2 = {
    "w^_u''", "001 (A.3)",
    "d2w^_u/dx_{m_s} dx_{n_t} = -(1/|w_u|) dw_ux/dx_mx (w^_us dw^_u/dx_{n_t} + dw^_us/dx_{n_t} w^_u) "
    "- dw_ux/dx_mx dw_ux/dx_nx (I_s - w^_us w^_u) w^_ut / |w_u|^2",
    "(A.1) differentiated once more: both the projector and 1/|w_u| change.",
    2, 3, 0, NULL, unit2_value_hd, NULL, unit2_derive};
static const cc_step vh2 = {
    "w^_v''", "001 (A.4)", "as (A.3), with v for u", "", 2, 3, 1, NULL, unit2_value_hd, NULL, unit2_derive};
static const cc_step c1 = {
    "C", "001 (A.5)-(A.6)",
    "C = alpha w^_u . w^_v;  dC/dx_{m_s} = alpha (dw^_u/dx_{m_s} . w^_v + w^_u . dw^_v/dx_{m_s})",
    "(19) with unit vectors: a cosine even when the triangle is stretched.",
    1, 1, 0, &cc_shear_normalized, cc_step_condition_value_hd, NULL, cc_step_condition_derive};
static const cc_step c2 = {
    "C''", "001 (A.7)",
    "d2C = alpha (d2w^_u . w^_v + dw^_u_m . dw^_v_n + dw^_u_n . dw^_v_m + w^_u . d2w^_v)", "",
    2, 1, 0, &cc_shear_normalized, cc_step_condition_value_hd, NULL, cc_step_condition_derive};
static const cc_step *const steps[] = {
    &cc_step_tri_uv, &cc_step_tri_area, &cc_step_tri_alpha, &cc_step_tri_wu, &cc_step_tri_wv,
    &cc_step_tri_uh, &uh2, &cc_step_tri_vh, &vh2, &c1, &c2};
static const cc_derivation derivation = {
    sizeof steps / sizeof steps[0], steps, CC_SAMPLE_TRIANGLE, CC_SAMPLE_TRIANGLE_UV};

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
    .derivation = &derivation,
};
