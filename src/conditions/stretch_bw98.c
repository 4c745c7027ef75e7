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
#include "conditions/derivation.h"
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

/* The derivation, step by step: the rest quantities, w_u, w_v (3)-(12), then each component
 * through |w|, w^ and (13)-(17). */
#define C_STEP(nm, eq, form, note, order, k) \
    {nm, eq, form, note, order, 1, k, &cc_stretch_bw98, cc_step_condition_value_hd, NULL, cc_step_condition_derive}
static const cc_step cu = C_STEP("C_u", "001 (13)-(14)",
    "C_u = alpha (|w_u| - b_u);  dC_u/dx_m = alpha dw_ux/dx_mx w^_u",
    "The chain rule through |w_u|: only the direction of w_u matters for the gradient.", 1, 0);
static const cc_step cu2 = C_STEP("C_u''", "001 (15)",
    "d2C_u/dx_m dx_n = alpha/|w_u| dw_ux/dx_mx dw_ux/dx_nx (I - w^_u w^_u^T)",
    "The derivative of w^_u in (14), by (A.1): the projector.", 2, 0);
static const cc_step cv = C_STEP("C_v", "001 (13), (16)",
    "C_v = alpha (|w_v| - b_v);  dC_v/dx_m = alpha dw_vx/dx_mx w^_v", "", 1, 1);
static const cc_step cv2 = C_STEP("C_v''", "001 (17)",
    "d2C_v/dx_m dx_n = alpha/|w_v| dw_vx/dx_mx dw_vx/dx_nx (I - w^_v w^_v^T)", "", 2, 1);
static const cc_step *const steps[] = {
    &cc_step_tri_uv, &cc_step_tri_area, &cc_step_tri_alpha, &cc_step_tri_wu, &cc_step_tri_wv,
    &cc_step_tri_lu, &cc_step_tri_uh, &cu, &cu2, &cc_step_tri_lv, &cc_step_tri_vh, &cv, &cv2};
static const cc_derivation derivation = {
    sizeof steps / sizeof steps[0], steps, CC_SAMPLE_TRIANGLE, CC_SAMPLE_TRIANGLE_UV};

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
    .derivation = &derivation,
};
