/* bend/bridson — the dihedral angle with Bridson et al.'s closed-form directions u_i as its
 * gradient (Bridson, Marino & Fedkiw 2003, as given in 002 "Force Directions" and in 004),
 * and the hand derivatives of those closed forms as its Hessian.
 *
 *   C = theta - theta0,  theta = atan2((nA^ x nB^).e^, nA^.nB^)        001 (24)-(30)
 *   dC/dx_m = -u_m                                                      (see the sign below)
 *   u0 = |e| nA/|nA|^2,   u3 = |e| nB/|nB|^2
 *   u1 = -((x0 - x2).e^) nA/|nA|^2 - ((x3 - x2).e^) nB/|nB|^2
 *   u2 =  ((x0 - x1).e^) nA/|nA|^2 + ((x3 - x1).e^) nB/|nB|^2
 *   d2C/dx_m dx_n = -du_m/dx_n, by the product rule with
 *     d(n/|n|^2) = (I - 2 n^ n^T)/|n|^2 dn,  d|e| = e^ . de,  d((x_a - x_b).e^) =
 *     (dx_a - dx_b).e^ + (x_a - x_b).(I - e^ e^T) de / |e|                  (hinge.h)
 *
 * Labelling maps (derived in docs/bend.md, both give N1 = nA, N2 = nB, E = e exactly):
 *   002: n1 = (xj - xh) x (xi - xh), n2 = (xi - xk) x (xj - xk), e = xi - xj,
 *        so h, i, j, k = 0, 1, 2, 3 (the identity map; u_h = u0, ..., u_k = u3).
 *   004: E = x4 - x3, N1 = (x1 - x3) x (x1 - x4), N2 = (x2 - x4) x (x2 - x3),
 *        so 004's x1, x2, x3, x4 = Pritchard's x0, x3, x2, x1.
 *
 * Sign: 004 states dtheta/dx_i = u_i. In Pritchard's sign of theta that is wrong by a sign:
 * u_i = -dtheta/dx_i (Bridson's angle is the negative of Pritchard's). test_bend.c checks this
 * against the exact derivative of atan2 and that +u_i is off by a factor -1. Departure from
 * the sources: the gradient here is -u_i, so that it is the derivative of C in our sign.
 *
 * Claim CC_CLAIM_EXACT: the u_i are known to be the exact gradient of the dihedral angle;
 * the tests check it and the Hessian's symmetry.
 */
#include "conditions/derivation.h"
#include "conditions/hinge.h"
#include "conditions/variants.h"

/* C = theta - theta0; dC = -u, d2C = -du/dx (Bridson's closed forms, hinge.h) */
static int bend_bridson_eval(const double *x, const cc_rest *r, int want, cc_eval *out)
{
    cc_hinge h;
    cc_v3 u[4];
    double du[CC_HINGE_DOF][CC_HINGE_DOF];
    out->ncomp = 1;
    out->ndof = CC_HINGE_DOF;
    if (cc_hinge_make(x, &h) < 0) return -1;
    out->C[0] = h.theta - r->rest_angle;
    if (want & CC_WANT_GRAD) {
        cc_hinge_bridson_u(&h, u);
        for (int i = 0; i < CC_HINGE_DOF; i++) out->dC[0][i] = CC_HINGE_BRIDSON_SIGN * u[i / 3].c[i % 3];
    }
    if (want & CC_WANT_HESS) {
        cc_hinge_bridson_du(&h, du);
        for (int i = 0; i < CC_HINGE_DOF; i++)
            for (int j = 0; j < CC_HINGE_DOF; j++) out->d2C[0][i][j] = CC_HINGE_BRIDSON_SIGN * du[i][j];
    }
    return want & CC_WANT_ALL;
}

/* C = atan2((nA^ x nB^).e^, nA^.nB^) - theta0, magnitudes frozen at xf when given */
static void bend_bridson_value_hd(const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *C)
{
    C[0] = cc_hd_sub(cc_hinge_theta_hd(x, xf), cc_hd_const(r->rest_angle));
}

/* The derivation, step by step: (25)-(27), the pieces of Bridson's directions, the directions
 * u_1..u_4 themselves (002 Force Directions, 004), then theta with -u as its gradient. */

/* the magnitudes of x's hinge vectors (frozen at xf when given) as hyper-duals */
static void lengths_hd(const cc_hd *x, const double *xf, cc_hv3 *nA, cc_hv3 *nB, cc_hv3 *e, cc_hd l[3])
{
    cc_hinge_vectors_hd(x, nA, nB, e);
    l[0] = cc_hv3_norm(*nA), l[1] = cc_hv3_norm(*nB), l[2] = cc_hv3_norm(*e);
    if (xf) {
        cc_hinge f;
        (void)cc_hinge_make(xf, &f);
        l[0] = cc_hd_const(f.lA), l[1] = cc_hd_const(f.lB), l[2] = cc_hd_const(f.le);
    }
}

/* arg 0, 1: n/|n|^2 for nA, nB; arg 2: |e|; arg 3: the four projections kA_1, kB_1, kA_2, kB_2 */
static void piece_value_hd(const cc_step *s, const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *q)
{
    cc_hv3 nA, nB, e;
    cc_hd l[3];
    (void)r;
    lengths_hd(x, xf, &nA, &nB, &e, l);
    if (s->arg < 2) {
        cc_hv3 v = cc_hv3_div(s->arg ? nB : nA, cc_hd_mul(l[s->arg], l[s->arg]));
        q[0] = v.x, q[1] = v.y, q[2] = v.z;
    } else if (s->arg == 2) {
        q[0] = l[2];
    } else {
        static const int pairs[4][2] = {{0, 2}, {3, 2}, {0, 1}, {3, 1}};
        cc_hv3 eh = cc_hv3_div(e, l[2]);
        for (int k = 0; k < 4; k++) {
            cc_hv3 d = cc_hv3_sub(cc_hv3_load(x + 3 * pairs[k][0]), cc_hv3_load(x + 3 * pairs[k][1]));
            q[k] = cc_hv3_dot(d, eh);
            if (k < 2) q[k] = cc_hd_neg(q[k]);
        }
    }
}

/* the same pieces and their derivatives by hinge.h's formulas (cc_hinge_dinvn, cc_hinge_dproj) */
static int piece_derive(const cc_step *s, const double *x, const cc_rest *r, double *q, double *d)
{
    cc_hinge h;
    double kA[4], kB[4], dkA[4][CC_HINGE_DOF], dkB[4][CC_HINGE_DOF];
    (void)r;
    if (cc_hinge_make(x, &h) < 0) return -1;
    if (s->arg < 2) {
        cc_v3 n = s->arg ? h.nB : h.nA, nh = s->arg ? h.nBh : h.nAh;
        double l = s->arg ? h.lB : h.lA;
        cc_v3 v = cc_v3_scale(n, 1.0 / (l * l));
        for (int c = 0; c < 3; c++) q[c] = v.c[c];
        for (int i = 0; i < CC_HINGE_DOF; i++) {
            cc_v3 dv = cc_hinge_dinvn(nh, l, cc_hinge_dn(s->arg ? h.qB : h.qA, i));
            for (int c = 0; c < 3; c++) d[c * CC_HINGE_DOF + i] = dv.c[c];
        }
        return 0;
    }
    cc_hinge_bridson_coef(&h, kA, kB);
    cc_hinge_bridson_dcoef(&h, dkA, dkB);
    if (s->arg == 2) {
        q[0] = kA[0];
        for (int i = 0; i < CC_HINGE_DOF; i++) d[i] = dkA[0][i];
        return 0;
    }
    const double *k[4] = {&kA[1], &kB[1], &kA[2], &kB[2]};
    const double *dk[4] = {dkA[1], dkB[1], dkA[2], dkB[2]};
    for (int c = 0; c < 4; c++) {
        q[c] = *k[c];
        for (int i = 0; i < CC_HINGE_DOF; i++) d[c * CC_HINGE_DOF + i] = dk[c][i];
    }
    return 0;
}

/* u_0..u_3 over hyper-duals (hinge.h; magnitudes are never frozen here) */
static void u_value_hd(const cc_step *s, const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *q)
{
    cc_hv3 u[4];
    (void)s, (void)xf, (void)r;
    cc_hinge_bridson_u_hd(x, u);
    for (int m = 0; m < 4; m++) q[3 * m] = u[m].x, q[3 * m + 1] = u[m].y, q[3 * m + 2] = u[m].z;
}

/* u_0..u_3 and du/dx by the product rule (hinge.h's cc_hinge_bridson_du) */
static int u_derive(const cc_step *s, const double *x, const cc_rest *r, double *q, double *d)
{
    cc_hinge h;
    cc_v3 u[4];
    double du[CC_HINGE_DOF][CC_HINGE_DOF];
    (void)s, (void)r;
    if (cc_hinge_make(x, &h) < 0) return -1;
    cc_hinge_bridson_u(&h, u);
    cc_hinge_bridson_du(&h, du);
    for (int c = 0; c < CC_HINGE_DOF; c++) {
        q[c] = u[c / 3].c[c % 3];
        for (int j = 0; j < CC_HINGE_DOF; j++) d[c * CC_HINGE_DOF + j] = du[c][j];
    }
    return 0;
}

static const cc_step piece_a = {
    "a = n^A/|n^A|^2", "002 Force Directions; 004",
    "a = n^A/|n^A|^2;  da/dx = (I - 2 n^A^ n^A^T) dn^A/dx / |n^A|^2",
    "Bridson's directions are built from the normals divided by their squared lengths.",
    1, 3, 0, NULL, piece_value_hd, NULL, piece_derive};
static const cc_step piece_b = {
    "b = n^B/|n^B|^2", "002 Force Directions; 004",
    "b = n^B/|n^B|^2;  db/dx = (I - 2 n^B^ n^B^T) dn^B/dx / |n^B|^2", "", 1, 3, 1, NULL, piece_value_hd,
    NULL, piece_derive};
static const cc_step piece_le = {
    "|e|", "002 Force Directions; 004", "|e| = |x1 - x2|;  d|e|/dx_{m_s} = q^e_m e^_s", "",
    1, 1, 2, NULL, piece_value_hd, NULL, piece_derive};
static const cc_step piece_proj = {
    "projections", "002 Force Directions; 004",
    "-(x0 - x2).e^, -(x3 - x2).e^, (x0 - x1).e^, (x3 - x1).e^;  d((x_a - x_b).e^) = (dx_a - dx_b).e^ "
    "+ (x_a - x_b).(I - e^ e^T) de/|e|",
    "Where the wing tips x0, x3 project onto the edge: the weights of a and b in u_1 and u_2.",
    1, 4, 3, NULL, piece_value_hd, NULL, piece_derive};
static const cc_step directions = {
    "u_1..u_4", "002 Force Directions; 004",
    "u1 = |e| a, u4 = |e| b, u2 = -((x0 - x2).e^) a - ((x3 - x2).e^) b, u3 = ((x0 - x1).e^) a + ((x3 - x1).e^) b "
    "(002/004 numbering; here u_0..u_3 at x0..x3)",
    "The closed-form directions, and their derivatives by the product rule (the Hessian below).",
    1, 12, 0, NULL, u_value_hd, NULL, u_derive};
static const cc_step theta = {
    "theta", "001 (30); 002 Force Directions; 004",
    "theta = atan2((n^A^ x n^B^).e^, n^A^.n^B^) - theta0;  dtheta/dx_m = -u_m",
    "004 states dtheta/dx_i = u_i; in Pritchard's sign of theta it is -u_i (Bridson's angle is "
    "the negative of Pritchard's).",
    1, 1, 0, &cc_bend_bridson, cc_step_condition_value_hd, NULL, cc_step_condition_derive};
static const cc_step theta2 = {
    "theta''", "002 Force Directions; 004", "d2theta/dx_m dx_n = -du_m/dx_n", "",
    2, 1, 0, &cc_bend_bridson, cc_step_condition_value_hd, NULL, cc_step_condition_derive};
static const cc_step *const steps[] = {
    &cc_step_hinge_nA, &cc_step_hinge_nB, &cc_step_hinge_e, &piece_a, &piece_b, &piece_le,
    &piece_proj, &directions, &theta, &theta2};
static const cc_derivation derivation = {
    sizeof steps / sizeof steps[0], steps, CC_SAMPLE_HINGE, NULL};

const cc_condition cc_bend_bridson = {
    .condition = "bend",
    .variant = "bridson",
    .source = "Bridson et al. 2003 via 002 (Force Directions), 004; value 001 (30)",
    .summary = "C = theta - theta0, gradient -u_i (Bridson's directions), Hessian -du_i/dx",
    .nv = 4,
    .ncomp = 1,
    .claim = CC_CLAIM_EXACT,
    .eval = bend_bridson_eval,
    .value_hd = bend_bridson_value_hd,
    .derivation = &derivation,
};
