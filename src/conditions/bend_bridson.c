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
};
