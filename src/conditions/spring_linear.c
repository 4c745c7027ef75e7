/* spring/linear — the mass-spring spring of 004, as a condition.
 *
 *   C = |x0 - x1| - L                              (004, Hooke's law: E = k/2 C^2)
 *   dC/dx0 = d^,  dC/dx1 = -d^,  with d = x0 - x1
 *   d2C/dx_m dx_n = +-(I - d^ d^^T) / |d|  (+ for m = n, - otherwise)
 *
 * Exact derivatives; undefined where the two vertices coincide.
 */
#include "conditions/derivation.h"
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

/* The derivation, step by step: d, |d|, d^, then C and its Hessian. */

/* arg 0: d = x0 - x1; 1: |d|; 2: d^ (|d| frozen at xf if given) */
static void d_value_hd(const cc_step *s, const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *q)
{
    cc_hv3 d = cc_hv3_sub(cc_hv3_load(x), cc_hv3_load(x + 3));
    (void)r;
    if (s->arg == 1) {
        q[0] = cc_hv3_norm(d);
        return;
    }
    if (s->arg == 2)
        d = cc_hv3_div(d, xf ? cc_hd_const(cc_v3_norm(cc_v3_sub(cc_v3_load(xf), cc_v3_load(xf + 3)))) : cc_hv3_norm(d));
    q[0] = d.x, q[1] = d.y, q[2] = d.z;
}

/* the same with derivatives: dd/dx_m = +-I; d|d| = +-d^; dd^ = +-(I - d^ d^T)/|d| */
static int d_derive(const cc_step *s, const double *x, const cc_rest *r, double *q, double *dq)
{
    cc_v3 d = cc_v3_sub(cc_v3_load(x), cc_v3_load(x + 3));
    double len = cc_v3_norm(d);
    (void)r;
    if (s->arg > 0 && !(len > 0)) return -1;
    cc_v3 dh = s->arg > 0 ? cc_v3_scale(d, 1.0 / len) : d;
    cc_m3 P = s->arg == 2 ? cc_m3_scale(cc_m3_perp(dh), 1.0 / len) : cc_m3_identity();
    if (s->arg == 1) q[0] = len;
    else cc_v3_store(q, dh);
    for (int i = 0; i < 6; i++) {
        double sign = i < 3 ? 1.0 : -1.0;
        if (s->arg == 1) dq[i] = sign * dh.c[i % 3];
        else
            for (int c = 0; c < 3; c++) dq[c * 6 + i] = sign * P.a[c][i % 3];
    }
    return 0;
}

static const cc_step dvec = {
    "d", "004 (spring)", "d = x0 - x1;  dd/dx0 = I, dd/dx1 = -I", "", 1, 3, 0, NULL, d_value_hd, NULL, d_derive};
static const cc_step dlen = {
    "|d|", "004 (spring)", "|d|;  d|d|/dx0 = d^, d|d|/dx1 = -d^", "The chain rule through the length.",
    1, 1, 1, NULL, d_value_hd, NULL, d_derive};
static const cc_step dunit = {
    "d^", "004 (spring)", "d^ = d/|d|;  dd^/dx0 = (I - d^ d^T)/|d|, dd^/dx1 = -(I - d^ d^T)/|d|",
    "The projector removes the change of length, as (A.1) does for w^.",
    1, 3, 2, NULL, d_value_hd, NULL, d_derive};
static const cc_step c1 = {
    "C", "004 (spring)", "C = |x0 - x1| - L;  dC/dx0 = d^, dC/dx1 = -d^", "",
    1, 1, 0, &cc_spring_linear, cc_step_condition_value_hd, NULL, cc_step_condition_derive};
static const cc_step c2 = {
    "C''", "004 (spring)", "d2C/dx_m dx_n = +-(I - d^ d^T)/|d|  (+ for m = n)", "",
    2, 1, 0, &cc_spring_linear, cc_step_condition_value_hd, NULL, cc_step_condition_derive};
static const cc_step *const steps[] = {&dvec, &dlen, &dunit, &c1, &c2};
static const cc_derivation derivation = {sizeof steps / sizeof steps[0], steps, CC_SAMPLE_SPRING, NULL};

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
    .derivation = &derivation,
};
