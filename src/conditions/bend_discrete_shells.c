/* bend/discrete-shells — the hinge energy of Grinspun, Hirani, Desbrun & Schröder 2003,
 * "Discrete Shells", as a condition, with the Hessian of the hinge angle in the closed form
 * of Tamstorf & Grinspun 2013, "Discrete bending forces and their Jacobians".
 *
 *   C = w (theta - theta0),  w = |e_rest| sqrt(3 / A_rest)
 *   E = k/2 C^2 = (3k/2) |e_rest|^2 / A_rest (theta - theta0)^2       (Discrete Shells' hinge term)
 *   dC = w dtheta,  d2C = w d2theta                                    (Tamstorf & Grinspun: hinge_tg.h)
 *
 * with theta = atan2((nA^ x nB^).e^, nA^.nB^) in Pritchard's labels and sign (001 (24)-(30)),
 * e_rest the rest shared edge, A_rest the two rest triangle areas summed and theta0 the rest
 * angle (cc_rest_hinge_shape). The weight makes the energy of a uniformly bent sheet
 * independent of how finely it is meshed: |e|^2/A is the ratio of edge length to the width of
 * the strip the hinge stands for, and theta/width the curvature across the edge.
 *
 * The gradient and Hessian of theta are Tamstorf & Grinspun's heights, cosines and in-plane
 * edge normals (hinge_tg.h has the label map); they are the third exact formula for them in
 * the project, beside 001's appendix (bend/pritchard-exact) and Bridson's directions
 * (bend/bridson): test_bend.c compares the three entry by entry. Claim CC_CLAIM_EXACT.
 */
#include "conditions/derivation.h"
#include "conditions/hinge_tg.h"
#include "conditions/variants.h"

/* C = w (theta - theta0); dC = w dtheta, d2C = w d2theta (hinge_tg.h) */
static int bend_discrete_shells_eval(const double *x, const cc_rest *r, int want, cc_eval *out)
{
    cc_hinge h;
    cc_hinge_tg g;
    double w = r->rest_weight;
    out->ncomp = 1;
    out->ndof = CC_HINGE_DOF;
    if (cc_hinge_make(x, &h) < 0) return -1;
    out->C[0] = w * (h.theta - r->rest_angle);
    if (!(want & (CC_WANT_GRAD | CC_WANT_HESS))) return want & CC_WANT_ALL;
    cc_hinge_tg_make(&h, &g);
    if (want & CC_WANT_GRAD) {
        cc_v3 d[4];
        cc_hinge_tg_grad(&g, d);
        for (int i = 0; i < CC_HINGE_DOF; i++) out->dC[0][i] = w * d[i / 3].c[i % 3];
    }
    if (want & CC_WANT_HESS) {
        cc_m3 H[4][4];
        cc_hinge_tg_hess(&g, H);
        for (int i = 0; i < CC_HINGE_DOF; i++)
            for (int j = 0; j < CC_HINGE_DOF; j++) out->d2C[0][i][j] = w * H[i / 3][j / 3].a[i % 3][j % 3];
    }
    return want & CC_WANT_ALL;
}

/* C = w (atan2((nA^ x nB^).e^, nA^.nB^) - theta0), magnitudes frozen at xf when given */
static void bend_discrete_shells_value_hd(const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *C)
{
    C[0] = cc_hd_scale(cc_hd_sub(cc_hinge_theta_hd(x, xf), cc_hd_const(r->rest_angle)), r->rest_weight);
}

/* The derivation, step by step: the hinge vectors (001 (25)-(27)), the unit normals with
 * Tamstorf & Grinspun's derivative (a vertex moved off its triangle's plane tilts the normal
 * away from it, by one over its height), theta's gradient and Hessian, then C. */

/* nA^ (arg 0) or nB^ (arg 1) over hyper-duals */
static void unit_value_hd(const cc_step *s, const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *q)
{
    cc_hv3 n[3];
    (void)xf, (void)r;
    cc_hinge_vectors_hd(x, &n[0], &n[1], &n[2]);
    cc_hv3 u = cc_hv3_div(n[s->arg], cc_hv3_norm(n[s->arg]));
    q[0] = u.x, q[1] = u.y, q[2] = u.z;
}

/* dnA^/dx_m = mA_m' nA^T / h_m': vertex x0, x1, x2 of A moves its normal by the edge normal
 * opposite it over its height (mA0/h0, mA1/hA1, mA2/hA2, with the index of hinge_tg.h's
 * tables: x0 -> 0, x1 -> 1, x2 -> 2); x3 does not move it. B likewise with x3 -> 0. */
static int unit_derive(const cc_step *s, const double *x, const cc_rest *r, double *q, double *d)
{
    cc_hinge h;
    cc_hinge_tg g;
    (void)r;
    if (cc_hinge_make(x, &h) < 0) return -1;
    cc_hinge_tg_make(&h, &g);
    cc_v3 n = s->arg ? g.b : g.a;
    static const int slotA[4] = {0, 1, 2, -1}, slotB[4] = {-1, 1, 2, 0};
    for (int c = 0; c < 3; c++) q[c] = n.c[c];
    for (int m = 0; m < 4; m++) {
        int k = s->arg ? slotB[m] : slotA[m];
        cc_v3 mv = k < 0 ? cc_v3_zero() : s->arg ? g.MB[k] : g.MA[k];   /* m/h */
        for (int c = 0; c < 3; c++)
            for (int t = 0; t < 3; t++) d[c * CC_HINGE_DOF + 3 * m + t] = mv.c[c] * n.c[t];
    }
    return 0;
}

/* theta over hyper-duals */
static void theta_value_hd(const cc_step *s, const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *q)
{
    (void)s, (void)xf, (void)r;
    q[0] = cc_hinge_theta_hd(x, NULL);
}

/* theta with its gradient (order 1) or Hessian (order 2) in the closed form */
static int theta_derive(const cc_step *s, const double *x, const cc_rest *r, double *q, double *d)
{
    cc_hinge h;
    cc_hinge_tg g;
    (void)r;
    if (cc_hinge_make(x, &h) < 0) return -1;
    cc_hinge_tg_make(&h, &g);
    q[0] = h.theta;
    if (s->order == 1) {
        cc_v3 v[4];
        cc_hinge_tg_grad(&g, v);
        for (int i = 0; i < CC_HINGE_DOF; i++) d[i] = v[i / 3].c[i % 3];
    } else {
        cc_m3 H[4][4];
        cc_hinge_tg_hess(&g, H);
        for (int i = 0; i < CC_HINGE_DOF; i++)
            for (int j = 0; j < CC_HINGE_DOF; j++) d[i * CC_HINGE_DOF + j] = H[i / 3][j / 3].a[i % 3][j % 3];
    }
    return 0;
}

static const cc_step unit_a = {
    "n^A^", "Tamstorf & Grinspun 2013 (normal derivatives)",
    "dn^A^/dx_m = m^A_m n^A^T / h^A_m, m = 0, 1, 2 (the edge normal opposite x_m over x_m's height); 0 for x3",
    "Moving a vertex within its triangle's plane leaves the normal alone; moving it off the "
    "plane tilts the normal away from it, by the angle the vertex rises over its height.",
    1, 3, 0, NULL, unit_value_hd, NULL, unit_derive};
static const cc_step unit_b = {
    "n^B^", "Tamstorf & Grinspun 2013 (normal derivatives)",
    "dn^B^/dx_m = m^B_m n^B^T / h^B_m for x3, x1, x2; 0 for x0", "",
    1, 3, 1, NULL, unit_value_hd, NULL, unit_derive};
static const cc_step theta1 = {
    "theta", "001 (30); Tamstorf & Grinspun 2013 (gradient of theta)",
    "dtheta/dx0 = -n^A^/h0, dtheta/dx3 = -n^B^/h3, dtheta/dx1 = cA1/hA1 n^A^ + cB1/hB1 n^B^, "
    "dtheta/dx2 = cA2/hA2 n^A^ + cB2/hB2 n^B^",
    "The wings move theta along their normals, by one over their height above the edge; the "
    "edge vertices share the opposite reaction, weighted by the cosines of the base angles.",
    1, 1, 0, NULL, theta_value_hd, NULL, theta_derive};
static const cc_step theta2 = {
    "theta''", "Tamstorf & Grinspun 2013 (Hessian of theta: M, N and B matrices)",
    "H00 = -sym(n^A^ m^A_0)/h0^2, H10 = cA1/(hA1 h0) m^A_0 n^A^ - n^A^ m^A_1/(h0 hA1), ..., "
    "H21 = ... + (n^A^ m^A_0 + n^B^ m^B_0)/|e|^2 (hinge_tg.h lists all ten blocks)",
    "Each block differentiates one gradient term: the normal turns (dn^ = m n^T/h) and the "
    "heights and cosines change. H30 = 0: the wings never meet.",
    2, 1, 0, NULL, theta_value_hd, NULL, theta_derive};
static const cc_step cond1 = {
    "C", "Grinspun et al. 2003 (hinge energy)",
    "C = |e_rest| sqrt(3/A_rest) (theta - theta0);  dC = |e_rest| sqrt(3/A_rest) dtheta",
    "k/2 C^2 is Discrete Shells' 3k |e_rest|^2 / (2 A_rest) (theta - theta0)^2.",
    1, 1, 0, &cc_bend_discrete_shells, cc_step_condition_value_hd, NULL, cc_step_condition_derive};
static const cc_step cond2 = {
    "C''", "Grinspun et al. 2003; Tamstorf & Grinspun 2013",
    "d2C = |e_rest| sqrt(3/A_rest) d2theta", "",
    2, 1, 0, &cc_bend_discrete_shells, cc_step_condition_value_hd, NULL, cc_step_condition_derive};
static const cc_step *const steps[] = {
    CC_STEPS_HINGE_VECTORS, &unit_a, &unit_b, &theta1, &theta2, &cond1, &cond2};
static const cc_derivation derivation = {
    sizeof steps / sizeof steps[0], steps, CC_SAMPLE_HINGE, NULL};

const cc_condition cc_bend_discrete_shells = {
    .condition = "bend",
    .variant = "discrete-shells",
    .source = "Grinspun et al. 2003 (Discrete Shells); Hessian Tamstorf & Grinspun 2013",
    .summary = "C = |e_rest| sqrt(3/A_rest) (theta - theta0), Tamstorf & Grinspun's closed-form Hessian",
    .nv = 4,
    .ncomp = 1,
    .claim = CC_CLAIM_EXACT,
    .rest_shape = 1,
    .eval = bend_discrete_shells_eval,
    .value_hd = bend_discrete_shells_value_hd,
    .derivation = &derivation,
};
