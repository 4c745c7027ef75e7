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
};
