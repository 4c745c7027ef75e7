/* The hinge angle's gradient and Hessian in Tamstorf & Grinspun's closed form (R. Tamstorf,
 * E. Grinspun 2013, "Discrete bending forces and their Jacobians", Graphical Models 75(6)):
 * a third exact formula for the derivatives of theta, beside the appendix of 001
 * (bend/pritchard-exact) and Bridson's directions (bend/bridson). Used by
 * bend_discrete_shells.c; internal to src/conditions and the simulator's kernels.
 *
 * Label map. Tamstorf & Grinspun number the hinge v0, v1 (the shared edge) and v2, v3 (the
 * wings), with e0 = v1 - v0, e1 = v2 - v0, e2 = v3 - v0, e3 = v2 - v1, e4 = v3 - v1,
 * n1 = e0 x e1, n2 = e2 x e0. With v0, v1, v2, v3 = Pritchard's x2, x1, x0, x3 (001 (25)-(27)):
 *   e0 = x1 - x2 = e,  n1 = (x1 - x2) x (x0 - x2) = nA,  n2 = (x3 - x2) x (x1 - x2) = nB
 * (expand both sides), and their theta is Pritchard's (test_bend.c checks it against atan2).
 *
 * In Pritchard's labels, with triangle A = (x0, x1, x2) and B = (x3, x1, x2):
 *   heights   h0 = |nA|/|e| (x0 over the edge), h3 = |nB|/|e| (x3 over the edge),
 *             hA1 = |nA|/|x0 - x2| (x1 over x0x2), hA2 = |nA|/|x0 - x1| (x2 over x0x1),
 *             hB1 = |nB|/|x3 - x2|, hB2 = |nB|/|x3 - x1|;
 *   cosines   cA1, cA2 = cos of the angles of A at x2 and at x1, cB1, cB2 of B at x2, x1
 *             (cA1 sits with hA1: both belong to the edge x0x2, the side of x1);
 *   m vectors the in-plane unit normal of an edge pointing away from the triangle's third
 *             vertex: mA0 (edge x1x2 in A), mA1 (x0x2), mA2 (x0x1), mB0, mB1 (x3x2), mB2 (x3x1);
 *   a = nA^, b = nB^.
 * The gradient (their Section 3, in this notation):
 *   dtheta/dx0 = -a/h0,   dtheta/dx3 = -b/h3,
 *   dtheta/dx1 = cA1/hA1 a + cB1/hB1 b,   dtheta/dx2 = cA2/hA2 a + cB2/hB2 b.
 * The Hessian, block (m, n) = d2theta/dx_m dx_n^T, with P Q^T written PQ, sym(M) = M + M^T,
 * BA = a mA0/|e|^2, BB = b mB0/|e|^2 (their M, N and B matrices):
 *   H00 = -sym(a mA0)/h0^2                       H33 = -sym(b mB0)/h3^2
 *   H10 = cA1/(hA1 h0) mA0 a - a mA1/(h0 hA1)    H13 = cB1/(hB1 h3) mB0 b - b mB1/(h3 hB1)
 *   H20 = cA2/(hA2 h0) mA0 a - a mA2/(h0 hA2)    H23 = cB2/(hB2 h3) mB0 b - b mB2/(h3 hB2)
 *   H11 = cA1/hA1^2 sym(mA1 a) - BA + cB1/hB1^2 sym(mB1 b) - BB
 *   H22 = cA2/hA2^2 sym(mA2 a) - BA + cB2/hB2^2 sym(mB2 b) - BB
 *   H21 = cA2/(hA2 hA1) mA1 a + cA1/(hA1 hA2) a mA2 + BA
 *       + cB2/(hB2 hB1) mB1 b + cB1/(hB1 hB2) b mB2 + BB
 *   H30 = 0, and H_nm = H_mn^T.
 * BA + BB is symmetric though neither term is (a, mA0, b, mB0 all lie in the plane normal to e).
 */
#ifndef CC_HINGE_TG_H
#define CC_HINGE_TG_H

#include "conditions/hinge.h"

/* What the closed forms read of a hinge (notation above). */
typedef struct cc_hinge_tg {
    cc_v3 a, b;                 /* nA^, nB^ */
    cc_v3 mA[3], mB[3];         /* mA0 mA1 mA2, mB0 mB1 mB2 */
    double h0, h3;              /* heights of the wings over the edge */
    double hA[3], hB[3];        /* [1], [2]: hA1 hA2, hB1 hB2 ([0] = h0, h3) */
    double cA[3], cB[3];        /* [1], [2]: cA1 cA2, cB1 cB2 ([0] unused, 0) */
    double ie2;                 /* 1/|e|^2 */
} cc_hinge_tg;

/* the unit normal of edge p-q in the plane with unit normal n, pointing away from w: the cross
 * product u x n (u = (q - p)/|q - p|), turned to the side away from w (no cancellation, unlike
 * projecting w - p off the edge) */
static inline cc_v3 cc_hinge_tg_m(cc_v3 p, cc_v3 q, cc_v3 w, cc_v3 n)
{
    cc_v3 m = cc_v3_unit(cc_v3_cross(cc_v3_sub(q, p), n));
    return cc_v3_dot(m, cc_v3_sub(w, p)) > 0 ? cc_v3_scale(m, -1.0) : m;
}

/* cos of the angle at p between p->q and p->w */
static inline double cc_hinge_tg_cos(cc_v3 p, cc_v3 q, cc_v3 w)
{
    cc_v3 u = cc_v3_sub(q, p), v = cc_v3_sub(w, p);
    return cc_v3_dot(u, v) / (cc_v3_norm(u) * cc_v3_norm(v));
}

/* g = the closed-form quantities of hinge h (cc_hinge_make must have succeeded) */
static inline void cc_hinge_tg_make(const cc_hinge *h, cc_hinge_tg *g)
{
    const cc_v3 *x = h->x;
    g->a = h->nAh, g->b = h->nBh;
    g->ie2 = 1.0 / (h->le * h->le);
    g->h0 = h->lA / h->le, g->h3 = h->lB / h->le;
    g->hA[0] = g->h0, g->hB[0] = g->h3;
    g->hA[1] = h->lA / cc_v3_norm(cc_v3_sub(x[0], x[2]));
    g->hA[2] = h->lA / cc_v3_norm(cc_v3_sub(x[0], x[1]));
    g->hB[1] = h->lB / cc_v3_norm(cc_v3_sub(x[3], x[2]));
    g->hB[2] = h->lB / cc_v3_norm(cc_v3_sub(x[3], x[1]));
    g->cA[0] = g->cB[0] = 0.0;
    g->cA[1] = cc_hinge_tg_cos(x[2], x[1], x[0]);
    g->cA[2] = cc_hinge_tg_cos(x[1], x[2], x[0]);
    g->cB[1] = cc_hinge_tg_cos(x[2], x[1], x[3]);
    g->cB[2] = cc_hinge_tg_cos(x[1], x[2], x[3]);
    g->mA[0] = cc_hinge_tg_m(x[1], x[2], x[0], g->a);
    g->mA[1] = cc_hinge_tg_m(x[0], x[2], x[1], g->a);
    g->mA[2] = cc_hinge_tg_m(x[0], x[1], x[2], g->a);
    g->mB[0] = cc_hinge_tg_m(x[1], x[2], x[3], g->b);
    g->mB[1] = cc_hinge_tg_m(x[3], x[2], x[1], g->b);
    g->mB[2] = cc_hinge_tg_m(x[3], x[1], x[2], g->b);
}

/* d theta/dx_m, m = 0..3 (banner) */
static inline void cc_hinge_tg_grad(const cc_hinge_tg *g, cc_v3 d[4])
{
    d[0] = cc_v3_scale(g->a, -1.0 / g->h0);
    d[3] = cc_v3_scale(g->b, -1.0 / g->h3);
    for (int m = 1; m <= 2; m++)
        d[m] = cc_v3_add(cc_v3_scale(g->a, g->cA[m] / g->hA[m]), cc_v3_scale(g->b, g->cB[m] / g->hB[m]));
}

/* s (P Q^T), accumulated into M */
static inline void cc_hinge_tg_acc(cc_m3 *M, double s, cc_v3 p, cc_v3 q)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) M->a[i][j] += s * p.c[i] * q.c[j];
}

/* the Hessian blocks H[m][n] = d2theta/dx_m dx_n^T, m, n = 0..3 (banner) */
static inline void cc_hinge_tg_hess(const cc_hinge_tg *g, cc_m3 H[4][4])
{
    const cc_v3 a = g->a, b = g->b;
    for (int m = 0; m < 4; m++)
        for (int n = 0; n < 4; n++) H[m][n] = cc_m3_zero();
    /* wing-wing */
    cc_hinge_tg_acc(&H[0][0], -1.0 / (g->h0 * g->h0), a, g->mA[0]);
    cc_hinge_tg_acc(&H[0][0], -1.0 / (g->h0 * g->h0), g->mA[0], a);
    cc_hinge_tg_acc(&H[3][3], -1.0 / (g->h3 * g->h3), b, g->mB[0]);
    cc_hinge_tg_acc(&H[3][3], -1.0 / (g->h3 * g->h3), g->mB[0], b);
    /* edge vertex m = 1, 2 with a wing */
    for (int m = 1; m <= 2; m++) {
        cc_hinge_tg_acc(&H[m][0], g->cA[m] / (g->hA[m] * g->h0), g->mA[0], a);
        cc_hinge_tg_acc(&H[m][0], -1.0 / (g->h0 * g->hA[m]), a, g->mA[m]);
        cc_hinge_tg_acc(&H[m][3], g->cB[m] / (g->hB[m] * g->h3), g->mB[0], b);
        cc_hinge_tg_acc(&H[m][3], -1.0 / (g->h3 * g->hB[m]), b, g->mB[m]);
        /* diagonal */
        double sA = g->cA[m] / (g->hA[m] * g->hA[m]), sB = g->cB[m] / (g->hB[m] * g->hB[m]);
        cc_hinge_tg_acc(&H[m][m], sA, g->mA[m], a);
        cc_hinge_tg_acc(&H[m][m], sA, a, g->mA[m]);
        cc_hinge_tg_acc(&H[m][m], sB, g->mB[m], b);
        cc_hinge_tg_acc(&H[m][m], sB, b, g->mB[m]);
        cc_hinge_tg_acc(&H[m][m], -g->ie2, a, g->mA[0]);
        cc_hinge_tg_acc(&H[m][m], -g->ie2, b, g->mB[0]);
    }
    /* edge-edge */
    cc_hinge_tg_acc(&H[2][1], g->cA[2] / (g->hA[2] * g->hA[1]), g->mA[1], a);
    cc_hinge_tg_acc(&H[2][1], g->cA[1] / (g->hA[1] * g->hA[2]), a, g->mA[2]);
    cc_hinge_tg_acc(&H[2][1], g->ie2, a, g->mA[0]);
    cc_hinge_tg_acc(&H[2][1], g->cB[2] / (g->hB[2] * g->hB[1]), g->mB[1], b);
    cc_hinge_tg_acc(&H[2][1], g->cB[1] / (g->hB[1] * g->hB[2]), b, g->mB[2]);
    cc_hinge_tg_acc(&H[2][1], g->ie2, b, g->mB[0]);
    /* the rest by symmetry */
    H[0][1] = cc_m3_transpose(H[1][0]), H[0][2] = cc_m3_transpose(H[2][0]);
    H[1][2] = cc_m3_transpose(H[2][1]);
    H[3][1] = cc_m3_transpose(H[1][3]), H[3][2] = cc_m3_transpose(H[2][3]);
}

#endif
