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
 *
 * Computed without square roots beyond |nA|, |nB|, |e|: with M = m/h (the edge normal over the
 * height of the vertex opposite the edge, = (edge vector x n^)/|n| with the edge traversed in
 * the triangle's own orientation, since n^ is normal to the edge) and gamma = c/h (= the edge's dot product with the side, over |e| |n|), every block is
 * a sum of products p q^T of a, b and the M's with such coefficients; e.g.
 * H10 = gammaA1 MA0 a - (1/h0) a MA1, H21 = gammaA2 MA1 a + gammaA1 a MA2 + BA + (B likewise),
 * BA = (|nA|/|e|^3) a MA0.
 */
#ifndef CC_HINGE_TG_H
#define CC_HINGE_TG_H

#include "conditions/hinge.h"

/* What the closed forms read of a hinge (notation above), in the square-root-free form. */
typedef struct cc_hinge_tg {
    cc_v3 a, b;                 /* nA^, nB^ */
    cc_v3 MA[3], MB[3];         /* mA0/h0, mA1/hA1, mA2/hA2; mB0/h3, mB1/hB1, mB2/hB2 */
    double gA[3], gB[3];        /* [1], [2]: cA1/hA1, cA2/hA2, cB1/hB1, cB2/hB2 ([0] unused, 0) */
    double ih0, ih3;            /* 1/h0 = |e|/|nA|, 1/h3 = |e|/|nB| */
    double bA, bB;              /* |nA|/|e|^3, |nB|/|e|^3: BA = bA a MA0^T, BB = bB b MB0^T */
} cc_hinge_tg;

/* g = the closed-form quantities of hinge h (cc_hinge_make must have succeeded) */
static inline void cc_hinge_tg_make(const cc_hinge *h, cc_hinge_tg *g)
{
    const cc_v3 *x = h->x;
    double iA = 1.0 / (h->le * h->lA), iB = 1.0 / (h->le * h->lB), ie3 = 1.0 / (h->le * h->le * h->le);
    g->a = h->nAh, g->b = h->nBh;
    g->ih0 = h->le / h->lA, g->ih3 = h->le / h->lB;
    g->bA = h->lA * ie3, g->bB = h->lB * ie3;
    /* cos at x2 between e = x1 - x2 and x0 - x2, over hA1 = |nA|/|x0 - x2|; at x1 with -e */
    g->gA[0] = g->gB[0] = 0.0;
    g->gA[1] = cc_v3_dot(h->e, cc_v3_sub(x[0], x[2])) * iA;
    g->gA[2] = -cc_v3_dot(h->e, cc_v3_sub(x[0], x[1])) * iA;
    g->gB[1] = cc_v3_dot(h->e, cc_v3_sub(x[3], x[2])) * iB;
    g->gB[2] = -cc_v3_dot(h->e, cc_v3_sub(x[3], x[1])) * iB;
    /* m/h = (edge vector x n^)/|n|, the edge traversed so that the result points away from the
     * third vertex: for nA = (x2 - x0) x (x1 - x0) that is x2 -> x1 (= e), x0 -> x2, x1 -> x0;
     * for nB = (x1 - x3) x (x2 - x3) it is x1 -> x2, x2 -> x3, x3 -> x1 (the triangles' own
     * orientation, so it holds for every nondegenerate hinge) */
    double iA2 = 1.0 / h->lA, iB2 = 1.0 / h->lB;
    g->MA[0] = cc_v3_scale(cc_v3_cross(h->e, g->a), iA2);
    g->MA[1] = cc_v3_scale(cc_v3_cross(cc_v3_sub(x[2], x[0]), g->a), iA2);
    g->MA[2] = cc_v3_scale(cc_v3_cross(cc_v3_sub(x[0], x[1]), g->a), iA2);
    g->MB[0] = cc_v3_scale(cc_v3_cross(cc_v3_sub(x[2], x[1]), g->b), iB2);
    g->MB[1] = cc_v3_scale(cc_v3_cross(cc_v3_sub(x[3], x[2]), g->b), iB2);
    g->MB[2] = cc_v3_scale(cc_v3_cross(cc_v3_sub(x[1], x[3]), g->b), iB2);
}

/* d theta/dx_m, m = 0..3 (banner) */
static inline void cc_hinge_tg_grad(const cc_hinge_tg *g, cc_v3 d[4])
{
    d[0] = cc_v3_scale(g->a, -g->ih0);
    d[3] = cc_v3_scale(g->b, -g->ih3);
    for (int m = 1; m <= 2; m++) d[m] = cc_v3_add(cc_v3_scale(g->a, g->gA[m]), cc_v3_scale(g->b, g->gB[m]));
}

/* s (P Q^T), accumulated into M */
static inline void cc_hinge_tg_acc(cc_m3 *M, double s, cc_v3 p, cc_v3 q)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) M->a[i][j] += s * p.c[i] * q.c[j];
}

/* s (P Q^T + Q P^T), accumulated into M */
static inline void cc_hinge_tg_sym(cc_m3 *M, double s, cc_v3 p, cc_v3 q)
{
    cc_hinge_tg_acc(M, s, p, q);
    cc_hinge_tg_acc(M, s, q, p);
}

/* the Hessian blocks H[m][n] = d2theta/dx_m dx_n^T, m, n = 0..3 (banner) */
static inline void cc_hinge_tg_hess(const cc_hinge_tg *g, cc_m3 H[4][4])
{
    const cc_v3 a = g->a, b = g->b;
    for (int m = 0; m < 4; m++)
        for (int n = 0; n < 4; n++) H[m][n] = cc_m3_zero();
    cc_hinge_tg_sym(&H[0][0], -g->ih0, a, g->MA[0]);   /* wing-wing */
    cc_hinge_tg_sym(&H[3][3], -g->ih3, b, g->MB[0]);
    for (int m = 1; m <= 2; m++) {                     /* edge vertex m with a wing, and with itself */
        cc_hinge_tg_acc(&H[m][0], g->gA[m], g->MA[0], a);
        cc_hinge_tg_acc(&H[m][0], -g->ih0, a, g->MA[m]);
        cc_hinge_tg_acc(&H[m][3], g->gB[m], g->MB[0], b);
        cc_hinge_tg_acc(&H[m][3], -g->ih3, b, g->MB[m]);
        cc_hinge_tg_sym(&H[m][m], g->gA[m], g->MA[m], a);
        cc_hinge_tg_sym(&H[m][m], g->gB[m], g->MB[m], b);
        cc_hinge_tg_acc(&H[m][m], -g->bA, a, g->MA[0]);
        cc_hinge_tg_acc(&H[m][m], -g->bB, b, g->MB[0]);
    }
    cc_hinge_tg_acc(&H[2][1], g->gA[2], g->MA[1], a);  /* edge-edge */
    cc_hinge_tg_acc(&H[2][1], g->gA[1], a, g->MA[2]);
    cc_hinge_tg_acc(&H[2][1], g->bA, a, g->MA[0]);
    cc_hinge_tg_acc(&H[2][1], g->gB[2], g->MB[1], b);
    cc_hinge_tg_acc(&H[2][1], g->gB[1], b, g->MB[2]);
    cc_hinge_tg_acc(&H[2][1], g->bB, b, g->MB[0]);
    /* the rest by symmetry */
    H[0][1] = cc_m3_transpose(H[1][0]), H[0][2] = cc_m3_transpose(H[2][0]);
    H[1][2] = cc_m3_transpose(H[2][1]);
    H[3][1] = cc_m3_transpose(H[1][3]), H[3][2] = cc_m3_transpose(H[2][3]);
}

#endif
