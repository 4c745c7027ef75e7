/* Triangle steps shared by the stretch and shear derivations (derivation.h): the rest
 * quantities of 001 (1) and Section 3.1, w_u and w_v (3)-(12), their lengths and unit vectors
 * (2), (A.1)-(A.2). Derivatives by the formulas the variants use (triangle.h). */
#include "conditions/derivation.h"
#include "conditions/triangle.h"

#define DOF 9

/* arg 0: (du1, dv1, du2, dv2); 1: (det, a); 2: alpha — rest data, constant in x */
static void rest_value_hd(const cc_step *s, const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *q)
{
    const double v[3][4] = {{r->du1, r->dv1, r->du2, r->dv2}, {r->det, r->area}, {r->alpha}};
    (void)x, (void)xf;
    for (int c = 0; c < s->n; c++) q[c] = cc_hd_const(v[s->arg][c]);
}

/* the rest quantity and its derivative, zero */
static int rest_derive(const cc_step *s, const double *x, const cc_rest *r, double *q, double *d)
{
    cc_hd h[4], hx[DOF];
    for (int i = 0; i < DOF; i++) hx[i] = cc_hd_const(x[i]);
    rest_value_hd(s, hx, NULL, r, h);
    for (int c = 0; c < s->n; c++) {
        q[c] = h[c].a;
        for (int i = 0; i < DOF; i++) d[c * DOF + i] = 0.0;
    }
    return 0;
}

/* the dw table of w_u (arg even) or w_v (arg odd) */
static const double *dw_of(const cc_step *s, const cc_rest *r) { return s->arg % 2 ? r->dwv : r->dwu; }

/* arg 0, 1: w_u, w_v; 2, 3: |w_u|, |w_v|; 4, 5: w^_u, w^_v (magnitudes frozen at xf if given) */
static void w_value_hd(const cc_step *s, const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *q)
{
    const double *dw = dw_of(s, r);
    cc_hv3 w = cc_tri_w_hd(x, dw);
    if (s->arg >= 4) {
        cc_hd len = xf ? cc_hd_const(cc_v3_norm(cc_tri_w(xf, dw))) : cc_hv3_norm(w);
        w = cc_hv3_div(w, len);
    }
    if (s->arg / 2 == 1) q[0] = cc_hv3_norm(w);
    else q[0] = w.x, q[1] = w.y, q[2] = w.z;
}

/* the same with derivatives: dw/dx_{m,s} = dw_m e_s (5)-(12); d|w| = dw_m w^_s; dw^ by (A.1) */
static int w_derive(const cc_step *s, const double *x, const cc_rest *r, double *q, double *d)
{
    const double *dw = dw_of(s, r);
    cc_v3 w = cc_tri_w(x, dw), du[3][3];
    double len = cc_v3_norm(w);
    int kind = s->arg / 2;
    if (kind > 0 && !(len > 0)) return -1;
    cc_v3 wh = kind > 0 ? cc_v3_scale(w, 1.0 / len) : w;
    if (kind == 2) cc_tri_unit_gradient(wh, len, dw, du);
    if (kind == 1) q[0] = len;
    else
        for (int c = 0; c < 3; c++) q[c] = wh.c[c];
    for (int i = 0; i < DOF; i++) {
        int m = i / 3, a = i % 3;
        if (kind == 1) d[i] = dw[m] * wh.c[a];
        else
            for (int c = 0; c < 3; c++) d[c * DOF + i] = kind == 0 ? (c == a ? dw[m] : 0.0) : du[m][a].c[c];
    }
    return 0;
}

#define REST_STEP(nm, eq, form, note, n, arg) {nm, eq, form, note, 1, n, arg, NULL, rest_value_hd, NULL, rest_derive}
#define W_STEP(nm, eq, form, note, n, arg) {nm, eq, form, note, 1, n, arg, NULL, w_value_hd, NULL, w_derive}

const cc_step cc_step_tri_uv = REST_STEP("(u,v) edges", "001 Section 3.1",
    "du1 = u1 - u0, dv1 = v1 - v0, du2 = u2 - u0, dv2 = v2 - v0",
    "The triangle's edges in the cloth's rest (u,v) coordinates: fixed, so their derivative is zero.", 4, 0);
const cc_step cc_step_tri_area = REST_STEP("det, a", "001 (1)",
    "det = du1 dv2 - du2 dv1;  a = |(du1, dv1, 0) x (du2, dv2, 0)| / 2",
    "det is the denominator of (3)-(12); a is the rest area.", 2, 1);
const cc_step cc_step_tri_alpha = REST_STEP("alpha", "001 (13); 003 Section 3.1",
    "alpha = a^p  (p = 1 Baraff & Witkin, 0.75 Pritchard 2003, 0.5 Pritchard's thesis)",
    "The area weight; only p = 0.5 makes the energy independent of how finely the cloth is cut "
    "(lesson 104).", 1, 2);
const cc_step cc_step_tri_wu = W_STEP("w_u", "001 (3), (5)-(8)",
    "w_u = ((x1 - x0) dv2 - (x2 - x0) dv1) / det;  dw_u/dx_m = dw_ux/dx_mx I",
    "How far the world moves per unit u; linear in the positions, so each vertex's derivative is "
    "a number times the identity.", 3, 0);
const cc_step cc_step_tri_wv = W_STEP("w_v", "001 (4), (9)-(12)",
    "w_v = (-(x1 - x0) du2 + (x2 - x0) du1) / det;  dw_v/dx_m = dw_vx/dx_mx I", "", 3, 1);
const cc_step cc_step_tri_lu = W_STEP("|w_u|", "001 (2), (14)",
    "|w_u|;  d|w_u|/dx_m = dw_ux/dx_mx w^_u", "The stretch in u: the chain rule through the length.", 1, 2);
const cc_step cc_step_tri_lv = W_STEP("|w_v|", "001 (2), (16)",
    "|w_v|;  d|w_v|/dx_m = dw_vx/dx_mx w^_v", "", 1, 3);
const cc_step cc_step_tri_uh = W_STEP("w^_u", "001 (2), (A.1)",
    "w^_u = w_u / |w_u|;  dw^_u/dx_{m_s} = (1/|w_u|) dw_ux/dx_mx (I_s - w^_us w^_u)",
    "The projector I - w^ w^T: stretching w along itself does not turn w^.", 3, 4);
const cc_step cc_step_tri_vh = W_STEP("w^_v", "001 (2), (A.2)",
    "w^_v = w_v / |w_v|;  dw^_v/dx_{m_s} = (1/|w_v|) dw_vx/dx_mx (I_s - w^_vs w^_v)", "", 3, 5);
