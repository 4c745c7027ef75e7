/* Bridson et al.'s bending force and its Jacobian (004, 002 "Force Magnitude").
 *
 *   F_i = k A (sin(theta/2) - sin(theta0/2)) u_i,   A = |e|^2 / (|nA| + |nB|)
 *   dF_i/dx_j = k [ (sigma - sigma0) u_i dA/dx_j^T + A u_i dsigma/dx_j^T + A (sigma - sigma0) du_i/dx_j ]
 *   dA/dx_j = (2 |e| d|e|/dx_j - A (d|nA|/dx_j + d|nB|/dx_j)) / (|nA| + |nB|),  d|n| = n^ . dn
 *   dsigma/dx_j = cos(theta/2)/2 dtheta/dx_j = -cos(theta/2)/2 u_j      (004's route, our sign)
 *
 * 004 writes d sin(theta/2)/dx_j = cos(theta/2)/2 u_j, taking dtheta/dx_j = u_j; in
 * Pritchard's sign dtheta/dx_j = -u_j (see hinge.h), hence the minus above. With the minus,
 * -dF/dx has the positive term k A cos(theta/2)/2 u u^T, as a restoring force's stiffness should.
 *
 * The square-root trap (004, 002): the sources compute sin(theta/2) = +-sqrt((1 - n1^.n2^)/2)
 * and cos(theta/2) = +sqrt((1 + n1^.n2^)/2). Round-off can push n1^.n2^ an ulp past +-1, so the
 * root of a tiny negative number is NaN at a flat hinge (theta = 0) or a folded one
 * (theta = +-pi), and the derivative of sqrt is infinite there even when the argument is
 * exactly 0. Here theta comes from atan2(sin theta, cos theta) (001 (30)), which is defined
 * and smooth for every hinge with nonzero triangles and edge, and sin(theta/2), cos(theta/2)
 * are taken of that theta: finite everywhere, with the sign of sin(theta/2) that of theta
 * and no separate sign choice.
 */
#include <math.h>
#include "conditions/bridson_force.h"
#include "conditions/hinge.h"

/* A = |e|^2 / (|nA| + |nB|) and dA/dx_j */
static double force_area(const cc_hinge *h, double dA[CC_HINGE_DOF])
{
    double den = h->lA + h->lB, A = h->le * h->le / den;
    for (int j = 0; j < CC_HINGE_DOF; j++) {
        double dle = cc_hinge_qe(j / 3) * h->eh.c[j % 3];
        double dl = cc_v3_dot(h->nAh, cc_hinge_dn(h->qA, j)) + cc_v3_dot(h->nBh, cc_hinge_dn(h->qB, j));
        dA[j] = (2.0 * h->le * dle - A * dl) / den;
    }
    return A;
}

/* F_i = k A (sin(theta/2) - sin(theta0/2)) u_i and dF_i/dx_j by the product rule */
int cc_bridson_force(const double *x, const cc_rest *r, double k, double F[12], double dFdx[12][12])
{
    cc_hinge h;
    cc_v3 u[4];
    double dA[CC_HINGE_DOF], du[CC_HINGE_DOF][CC_HINGE_DOF];
    if (cc_hinge_make(x, &h) < 0) return -1;
    double A = force_area(&h, dA);
    double sig = sin(0.5 * h.theta) - sin(0.5 * r->rest_angle), half_cos = 0.5 * cos(0.5 * h.theta);
    cc_hinge_bridson_u(&h, u);
    for (int i = 0; i < CC_HINGE_DOF; i++) F[i] = k * A * sig * u[i / 3].c[i % 3];
    if (!dFdx) return 0;
    cc_hinge_bridson_du(&h, du);
    for (int i = 0; i < CC_HINGE_DOF; i++) {
        double ui = u[i / 3].c[i % 3];
        for (int j = 0; j < CC_HINGE_DOF; j++) {
            double dsig = half_cos * CC_HINGE_BRIDSON_SIGN * u[j / 3].c[j % 3];
            dFdx[i][j] = k * (sig * ui * dA[j] + A * ui * dsig + A * sig * du[i][j]);
        }
    }
    return 0;
}

/* the same F_i with every quantity a hyper-dual number */
void cc_bridson_force_hd(const cc_hd *x, const cc_rest *r, double k, cc_hd F[12])
{
    cc_hv3 nA, nB, e, u[4];
    cc_hinge_vectors_hd(x, &nA, &nB, &e);
    cc_hd le = cc_hv3_norm(e);
    cc_hd A = cc_hd_div(cc_hd_mul(le, le), cc_hd_add(cc_hv3_norm(nA), cc_hv3_norm(nB)));
    cc_hd theta = cc_hinge_theta_hd(x, NULL);
    cc_hd sig = cc_hd_sub(cc_hd_sin(cc_hd_scale(theta, 0.5)), cc_hd_const(sin(0.5 * r->rest_angle)));
    cc_hd mag = cc_hd_scale(cc_hd_mul(A, sig), k);
    cc_hinge_bridson_u_hd(x, u);
    for (int m = 0; m < 4; m++) {
        cc_hv3 f = cc_hv3_mul(u[m], mag);
        F[3 * m] = f.x, F[3 * m + 1] = f.y, F[3 * m + 2] = f.z;
    }
}
