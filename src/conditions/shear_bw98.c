/* shear/bw98 — Baraff & Witkin's shear condition with unnormalised w_u, w_v.
 *
 *   C = alpha w_u . w_v                                                001 (19)
 *   dC/dx_{m,s} = alpha (dw_u/dx_m w_{v,s} + w_{u,s} dw_v/dx_m)        001 (21)
 *   d2C/dx_{m,s} dx_{n,t} = alpha (dw_u/dx_m dw_v/dx_n
 *                                + dw_u/dx_n dw_v/dx_m) if s = t, else 0   001 (23)
 *
 * Baraff & Witkin assume |w_u|, |w_v| near 1 so that C approximates a cosine (001 3.3);
 * the derivatives are nevertheless the exact derivatives of (19) itself.
 */
#include "conditions/triangle.h"
#include "conditions/derivation.h"
#include "conditions/variants.h"

static int shear_eval(const double *x, const cc_rest *r, int want, cc_eval *out)
{
    cc_v3 wu = cc_tri_w(x, r->dwu), wv = cc_tri_w(x, r->dwv);
    out->ncomp = 1;
    out->ndof = 9;
    out->C[0] = r->alpha * cc_v3_dot(wu, wv);
    for (int m = 0; m < 3; m++) {
        if (want & CC_WANT_GRAD)
            for (int s = 0; s < 3; s++)
                out->dC[0][3 * m + s] = r->alpha * (r->dwu[m] * wv.c[s] + wu.c[s] * r->dwv[m]);
        if (!(want & CC_WANT_HESS)) continue;
        for (int n = 0; n < 3; n++) {
            double f = r->alpha * (r->dwu[m] * r->dwv[n] + r->dwu[n] * r->dwv[m]);
            for (int s = 0; s < 3; s++)
                for (int t = 0; t < 3; t++) out->d2C[0][3 * m + s][3 * n + t] = (s == t) ? f : 0.0;
        }
    }
    return want & CC_WANT_ALL;
}

/* C = alpha w_u . w_v (nothing is normalised, so xf has no effect) */
static void shear_value_hd(const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *C)
{
    (void)xf;
    C[0] = cc_hd_scale(cc_hv3_dot(cc_tri_w_hd(x, r->dwu), cc_tri_w_hd(x, r->dwv)), r->alpha);
}

/* The derivation, step by step: w_u, w_v (3)-(12), then (19)-(23). */
static const cc_step c1 = {
    "C", "001 (19)-(21)",
    "C = alpha w_u . w_v;  dC/dx_{m_s} = alpha (dw_ux/dx_mx w_vs + w_us dw_vx/dx_mx)",
    "The product rule; w_u and w_v are linear in x, so nothing else enters.",
    1, 1, 0, &cc_shear_bw98, cc_step_condition_value_hd, NULL, cc_step_condition_derive};
static const cc_step c2 = {
    "C''", "001 (22)-(23)",
    "d2C/dx_{m_s} dx_{n_t} = alpha (dw_ux/dx_mx dw_vx/dx_nx + dw_ux/dx_nx dw_vx/dx_mx) if s = t, else 0",
    "A number times the identity per vertex pair: d2w = 0, and only the cross terms remain.",
    2, 1, 0, &cc_shear_bw98, cc_step_condition_value_hd, NULL, cc_step_condition_derive};
static const cc_step *const steps[] = {
    &cc_step_tri_uv, &cc_step_tri_area, &cc_step_tri_alpha, &cc_step_tri_wu, &cc_step_tri_wv, &c1, &c2};
static const cc_derivation derivation = {
    sizeof steps / sizeof steps[0], steps, CC_SAMPLE_TRIANGLE, CC_SAMPLE_TRIANGLE_UV};

const cc_condition cc_shear_bw98 = {
    .condition = "shear",
    .variant = "bw98",
    .source = "Pritchard (19)-(23)",
    .summary = "C = a^p w_u . w_v (unnormalised), exact derivatives",
    .nv = 3,
    .ncomp = 1,
    .claim = CC_CLAIM_EXACT,
    .eval = shear_eval,
    .value_hd = shear_value_hd,
    .derivation = &derivation,
};
