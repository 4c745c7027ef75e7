/* stretch/bw98 — Baraff & Witkin's stretch condition, as written out by Pritchard.
 *
 *   C = (C_u, C_v) = alpha (|w_u| - b_u, |w_v| - b_v)                  001 (13)
 *   dC_u/dx_m = alpha dw_u/dx_m  w^_u                                   001 (14)
 *   d2C_u/dx_m dx_n = alpha/|w_u| dw_u/dx_m dw_u/dx_n (I - w^_u w^_u^T) 001 (15)
 *   and likewise for v, (16)-(17).
 *
 * alpha = a^p with p selectable: p = 1 is Baraff & Witkin's alpha = a, p = 0.75 is 001's
 * a^(3/4), p = 0.5 is the sqrt(a) of Pritchard's thesis (003 Section 3.1). No approximation
 * is made: these are the exact derivatives of (13).
 */
#include "conditions/triangle.h"
#include "conditions/variants.h"

/* one component: C = alpha (|w| - b), its gradient and Hessian into row k of out */
static int stretch_component(const double *x, const cc_rest *r, const double dw[3], double b,
                             int k, int want, cc_eval *out)
{
    cc_v3 w = cc_tri_w(x, dw);
    double len = cc_v3_norm(w);
    out->C[k] = r->alpha * (len - b);
    if (!(want & (CC_WANT_GRAD | CC_WANT_HESS))) return 0;
    if (!(len > 0)) return -1;
    cc_v3 wh = cc_v3_scale(w, 1.0 / len);
    cc_m3 P = cc_m3_perp(wh);
    for (int m = 0; m < 3; m++) {
        for (int s = 0; s < 3; s++) out->dC[k][3 * m + s] = r->alpha * dw[m] * wh.c[s];
        if (!(want & CC_WANT_HESS)) continue;
        for (int n = 0; n < 3; n++) {
            double f = r->alpha / len * dw[m] * dw[n];
            for (int s = 0; s < 3; s++)
                for (int t = 0; t < 3; t++) out->d2C[k][3 * m + s][3 * n + t] = f * P.a[s][t];
        }
    }
    return 0;
}

static int stretch_eval(const double *x, const cc_rest *r, int want, cc_eval *out)
{
    out->ncomp = 2;
    out->ndof = 9;
    if (stretch_component(x, r, r->dwu, r->bu, 0, want, out) < 0) return -1;
    if (stretch_component(x, r, r->dwv, r->bv, 1, want, out) < 0) return -1;
    return want & CC_WANT_ALL;
}

/* C = alpha (|w_u| - b_u, |w_v| - b_v); magnitudes are the value itself, so xf has no effect */
static void stretch_value_hd(const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *C)
{
    (void)xf;
    C[0] = cc_hd_scale(cc_hd_sub(cc_hv3_norm(cc_tri_w_hd(x, r->dwu)), cc_hd_const(r->bu)), r->alpha);
    C[1] = cc_hd_scale(cc_hd_sub(cc_hv3_norm(cc_tri_w_hd(x, r->dwv)), cc_hd_const(r->bv)), r->alpha);
}

const cc_condition cc_stretch_bw98 = {
    .condition = "stretch",
    .variant = "bw98",
    .source = "Pritchard (13)-(18)",
    .summary = "C = a^p (|w_u| - b_u, |w_v| - b_v), exact derivatives",
    .nv = 3,
    .ncomp = 2,
    .claim = CC_CLAIM_EXACT,
    .eval = stretch_eval,
    .value_hd = stretch_value_hd,
};
