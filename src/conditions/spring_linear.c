/* spring/linear — the mass-spring spring of 004, as a condition.
 *
 *   C = |x0 - x1| - L                              (004, Hooke's law: E = k/2 C^2)
 *   dC/dx0 = d^,  dC/dx1 = -d^,  with d = x0 - x1
 *   d2C/dx_m dx_n = +-(I - d^ d^^T) / |d|  (+ for m = n, - otherwise)
 *
 * Exact derivatives; undefined where the two vertices coincide.
 */
#include "conditions/variants.h"
#include "math/cc_vec.h"

static int spring_eval(const double *x, const cc_rest *r, int want, cc_eval *out)
{
    cc_v3 d = cc_v3_sub(cc_v3_load(x), cc_v3_load(x + 3));
    double len = cc_v3_norm(d);
    out->ncomp = 1;
    out->ndof = 6;
    out->C[0] = len - r->rest_length;
    if (!(want & (CC_WANT_GRAD | CC_WANT_HESS))) return want & CC_WANT_ALL;
    if (!(len > 0)) return -1;
    cc_v3 dh = cc_v3_scale(d, 1.0 / len);
    cc_m3 P = cc_m3_scale(cc_m3_perp(dh), 1.0 / len);
    for (int m = 0; m < 2; m++) {
        double sm = m == 0 ? 1.0 : -1.0;
        for (int s = 0; s < 3; s++) out->dC[0][3 * m + s] = sm * dh.c[s];
        if (!(want & CC_WANT_HESS)) continue;
        for (int n = 0; n < 2; n++) {
            double sn = n == 0 ? 1.0 : -1.0;
            for (int s = 0; s < 3; s++)
                for (int t = 0; t < 3; t++) out->d2C[0][3 * m + s][3 * n + t] = sm * sn * P.a[s][t];
        }
    }
    return want & CC_WANT_ALL;
}

/* C = |x0 - x1| - L; the length is the value itself, so xf has no effect */
static void spring_value_hd(const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *C)
{
    (void)xf;
    cc_hv3 d = cc_hv3_sub(cc_hv3_load(x), cc_hv3_load(x + 3));
    C[0] = cc_hd_sub(cc_hv3_norm(d), cc_hd_const(r->rest_length));
}

const cc_condition cc_spring_linear = {
    .condition = "spring",
    .variant = "linear",
    .source = "004 (Hooke spring, C = |x0 - x1| - L)",
    .summary = "C = |x0 - x1| - L, exact derivatives",
    .nv = 2,
    .ncomp = 1,
    .claim = CC_CLAIM_EXACT,
    .eval = spring_eval,
    .value_hd = spring_value_hd,
};
