/* Hinge geometry shared by every bend variant and by Bridson's bending force.
 * Internal to src/conditions: one copy of each hinge formula, used by bend_pritchard.c,
 * bend_pritchard_exact.c, bend_macri.c, bend_bridson.c and bridson_force.c.
 *
 * Labels and sign are Pritchard's (001 (24)-(36)): a hinge is x0..x3 with the shared edge
 * x1-x2, x0 in triangle A and x3 in triangle B,
 *
 *   nA = (x2 - x0) x (x1 - x0)                                         (25)
 *   nB = (x1 - x3) x (x2 - x3)                                         (26)
 *   e  = x1 - x2                                                       (27)
 *   cos theta = nA^ . nB^,  sin theta = (nA^ x nB^) . e^               (28), (29)
 *   theta = atan2(sin theta, cos theta)  in (-pi, pi]                  (30)
 *   dnA/dx_{m,s} = S_s(qA_m),  dnB/dx_{m,s} = S_s(qB_m),  de/dx_{m,s} = qe_m I_s   (31)-(33)
 *   qA = {x2 - x1, x0 - x2, x1 - x0, 0}                                (34)
 *   qB = {0, x2 - x3, x3 - x1, x1 - x2}                                (35)
 *   qe = {0, 1, -1, 0}                                                 (36)
 *   d2nA/dx_{m,s} dx_{n,t} = S_s(dqA_m/dx_{n,t})  (and B), d2e = 0     (37)-(39)
 *
 * with S_s(v) = e_s x v (cc_v3_skew_row). Since dq_m/dx_n is a scalar times I, the second
 * derivatives are S_s(k e_t) with k = cc_hinge_dqA(m, n) or cc_hinge_dqB(m, n).
 *
 * Degrees of freedom are numbered i = 3m + s (vertex m, axis s), as in the condition contract.
 * Arrays of 12 are "one entry per degree of freedom"; 12 x 12 arrays are [i][j] with
 * j = 3n + t the second differentiation.
 */
#ifndef CC_HINGE_H
#define CC_HINGE_H

#include "conditions/condition.h"
#include "math/cc_hd.h"
#include "math/cc_vec.h"

#define CC_HINGE_DOF 12

/* A hinge evaluated at plain positions. */
typedef struct cc_hinge {
    cc_v3 x[4];          /* positions x0..x3 */
    cc_v3 nA, nB, e;     /* (25)-(27), unnormalised */
    double lA, lB, le;   /* |nA|, |nB|, |e| */
    cc_v3 nAh, nBh, eh;  /* unit vectors (24) */
    cc_v3 qA[4], qB[4];  /* (34), (35) */
    double c, s;         /* cos theta, sin theta from the unit vectors (28), (29) */
    double theta;        /* atan2(s, c) (30) */
} cc_hinge;

/* Derivatives of the three unit vectors of (24), by whatever formulas a variant uses:
 * (40)-(45) with frozen magnitudes, or the appendix (A.8)-(A.13). About 11 KB. */
typedef struct cc_hinge_units {
    cc_v3 dA[CC_HINGE_DOF], dB[CC_HINGE_DOF], dE[CC_HINGE_DOF];  /* d(nA^, nB^, e^)/dx_i */
    cc_v3 d2A[CC_HINGE_DOF][CC_HINGE_DOF];                        /* d2 nA^ / dx_i dx_j */
    cc_v3 d2B[CC_HINGE_DOF][CC_HINGE_DOF];                        /* d2 nB^ / dx_i dx_j */
    cc_v3 d2E[CC_HINGE_DOF][CC_HINGE_DOF];                        /* d2 e^ / dx_i dx_j */
} cc_hinge_units;

/* Derivatives of cos theta and sin theta, (46)-(51). */
typedef struct cc_hinge_trig {
    double dc[CC_HINGE_DOF], ds[CC_HINGE_DOF];                            /* (47), (49) */
    double d2c[CC_HINGE_DOF][CC_HINGE_DOF], d2s[CC_HINGE_DOF][CC_HINGE_DOF]; /* (50), (51) */
} cc_hinge_trig;

/* qe_m of (36) */
static inline double cc_hinge_qe(int m) { return m == 1 ? 1.0 : m == 2 ? -1.0 : 0.0; }

/* k with dqA_m/dx_n = k I, from (34) */
static inline double cc_hinge_dqA(int m, int n)
{
    static const double k[4][4] = {{0, -1, 1, 0}, {1, 0, -1, 0}, {-1, 1, 0, 0}, {0, 0, 0, 0}};
    return k[m][n];
}

/* k with dqB_m/dx_n = k I, from (35) */
static inline double cc_hinge_dqB(int m, int n)
{
    static const double k[4][4] = {{0, 0, 0, 0}, {0, 0, 1, -1}, {0, -1, 0, 1}, {0, 1, -1, 0}};
    return k[m][n];
}

/* dn/dx_{m,s} = S_s(q_m)                                          (31), (32) */
static inline cc_v3 cc_hinge_dn(const cc_v3 q[4], int i) { return cc_v3_skew_row(q[i / 3], i % 3); }

/* d2n/dx_{m,s} dx_{n,t} = S_s(k e_t), k = dq_m/dx_n                (37), (38) */
static inline cc_v3 cc_hinge_d2n(double k, int i, int j)
{
    return cc_v3_skew_row(cc_v3_scale(cc_v3_axis(j % 3), k), i % 3);
}

/* h = the hinge at x (12 doubles); 0, or -1 if an edge or a triangle has zero size */
static inline int cc_hinge_make(const double *x, cc_hinge *h)
{
    for (int m = 0; m < 4; m++) h->x[m] = cc_v3_load(x + 3 * m);
    const cc_v3 *p = h->x;
    h->nA = cc_v3_cross(cc_v3_sub(p[2], p[0]), cc_v3_sub(p[1], p[0]));
    h->nB = cc_v3_cross(cc_v3_sub(p[1], p[3]), cc_v3_sub(p[2], p[3]));
    h->e = cc_v3_sub(p[1], p[2]);
    h->qA[0] = cc_v3_sub(p[2], p[1]);
    h->qA[1] = cc_v3_sub(p[0], p[2]);
    h->qA[2] = cc_v3_sub(p[1], p[0]);
    h->qA[3] = cc_v3_zero();
    h->qB[0] = cc_v3_zero();
    h->qB[1] = cc_v3_sub(p[2], p[3]);
    h->qB[2] = cc_v3_sub(p[3], p[1]);
    h->qB[3] = cc_v3_sub(p[1], p[2]);
    h->lA = cc_v3_norm(h->nA);
    h->lB = cc_v3_norm(h->nB);
    h->le = cc_v3_norm(h->e);
    if (!(h->lA > 0 && h->lB > 0 && h->le > 0) || !isfinite(h->lA + h->lB + h->le)) {
        h->nAh = h->nBh = h->eh = cc_v3_zero();   /* defined, though theta is not */
        h->c = h->s = h->theta = 0;
        return -1;
    }
    h->nAh = cc_v3_scale(h->nA, 1.0 / h->lA);
    h->nBh = cc_v3_scale(h->nB, 1.0 / h->lB);
    h->eh = cc_v3_scale(h->e, 1.0 / h->le);
    h->c = cc_v3_dot(h->nAh, h->nBh);
    h->s = cc_v3_dot(cc_v3_cross(h->nAh, h->nBh), h->eh);
    h->theta = atan2(h->s, h->c);
    return 0;
}

/* Unit-vector derivatives under Baraff & Witkin's constant-magnitude assumption:
 *   dnA^/dx_i = (dnA/dx_i) / |nA|,  dnB^ likewise,  de^/dx_i = (de/dx_i) / |e|   (40)-(42)
 *   d2nA^/dx_i dx_j = (d2nA/dx_i dx_j) / |nA|,  nB^ likewise,  d2e^ = 0         (43)-(45)
 * (44) is misprinted in 001 and 000 as "dnB^/dx_{m_s} x_{n_t}", which reads like a first
 * derivative; it means d2nB^/dx_{m_s} dx_{n_t}, the twin of (43), and is implemented so.
 * These are the exact derivatives of the unit vectors with magnitudes frozen at x. */
static inline void cc_hinge_units_frozen(const cc_hinge *h, int want_hess, cc_hinge_units *u)
{
    for (int i = 0; i < CC_HINGE_DOF; i++) {
        int m = i / 3;
        u->dA[i] = cc_v3_scale(cc_hinge_dn(h->qA, i), 1.0 / h->lA);
        u->dB[i] = cc_v3_scale(cc_hinge_dn(h->qB, i), 1.0 / h->lB);
        u->dE[i] = cc_v3_scale(cc_v3_axis(i % 3), cc_hinge_qe(m) / h->le);
        if (!want_hess) continue;
        for (int j = 0; j < CC_HINGE_DOF; j++) {
            int n = j / 3;
            u->d2A[i][j] = cc_v3_scale(cc_hinge_d2n(cc_hinge_dqA(m, n), i, j), 1.0 / h->lA);
            u->d2B[i][j] = cc_v3_scale(cc_hinge_d2n(cc_hinge_dqB(m, n), i, j), 1.0 / h->lB);
            u->d2E[i][j] = cc_v3_zero();
        }
    }
}

/* d(nA^ x nB^)/dx_i = dA_i x nB^ + nA^ x dB_i  (the bracket of (49)) */
static inline cc_v3 cc_hinge_dcross(const cc_hinge *h, const cc_hinge_units *u, int i)
{
    return cc_v3_add(cc_v3_cross(u->dA[i], h->nBh), cc_v3_cross(h->nAh, u->dB[i]));
}

/* dc_i, ds_i and (if want_hess) d2c_ij, d2s_ij from unit-vector derivatives u:
 *   dc = dA . nB^ + nA^ . dB                                                  (47)
 *   ds = (dA x nB^ + nA^ x dB) . e^ + (nA^ x nB^) . dE                        (49)
 *   d2c = d2A . nB^ + dB_j . dA_i + dA_j . dB_i + nA^ . d2B                   (50)
 *   d2s = (d2A x nB^ + dA_i x dB_j + dA_j x dB_i + nA^ x d2B) . e^
 *         + (dA_i x nB^ + nA^ x dB_i) . dE_j + (dA_j x nB^ + nA^ x dB_j) . dE_i
 *         + (nA^ x nB^) . d2E                                                 (51)
 * (51)'s last term is printed "(nA^ x nB^) d2e^" without the dot; a dot is meant. */
static inline void cc_hinge_trig_derivs(const cc_hinge *h, const cc_hinge_units *u, int want_hess,
                                        cc_hinge_trig *t)
{
    cc_v3 axb = cc_v3_cross(h->nAh, h->nBh), dx[CC_HINGE_DOF];
    for (int i = 0; i < CC_HINGE_DOF; i++) {
        dx[i] = cc_hinge_dcross(h, u, i);
        t->dc[i] = cc_v3_dot(u->dA[i], h->nBh) + cc_v3_dot(h->nAh, u->dB[i]);
        t->ds[i] = cc_v3_dot(dx[i], h->eh) + cc_v3_dot(axb, u->dE[i]);
    }
    if (!want_hess) return;
    for (int i = 0; i < CC_HINGE_DOF; i++)
        for (int j = 0; j < CC_HINGE_DOF; j++) {
            t->d2c[i][j] = cc_v3_dot(u->d2A[i][j], h->nBh) + cc_v3_dot(u->dB[j], u->dA[i])
                         + cc_v3_dot(u->dA[j], u->dB[i]) + cc_v3_dot(h->nAh, u->d2B[i][j]);
            cc_v3 d2x = cc_v3_add(cc_v3_add(cc_v3_cross(u->d2A[i][j], h->nBh), cc_v3_cross(u->dA[i], u->dB[j])),
                                  cc_v3_add(cc_v3_cross(u->dA[j], u->dB[i]), cc_v3_cross(h->nAh, u->d2B[i][j])));
            t->d2s[i][j] = cc_v3_dot(d2x, h->eh) + cc_v3_dot(dx[i], u->dE[j]) + cc_v3_dot(dx[j], u->dE[i])
                         + cc_v3_dot(axb, u->d2E[i][j]);
        }
}

/* ---- (46)-(51) with (40)-(45) substituted, in 3x3 blocks ----
 *
 * The same numbers as cc_hinge_units_frozen + cc_hinge_trig_derivs (test_bend.c compares them
 * entry by entry), worked out by hand so that a Hessian costs ten 3x3 blocks instead of 144
 * entries of cross products. With a = nA^, b = nB^, QA_m = qA_m/|nA|, QB_m = qB_m/|nB|,
 * dA_{m,s} = e_s x QA_m, dB_{m,s} = e_s x QB_m, dE_{m,s} = (qe_m/|e|) e_s and
 * Eps(w)_{st} = (e_s x e_t) . w (so Eps(w) = -[w]x), the vector identities
 * (e_t x U).(e_s x V) = d_st U.V - U_s V_t and ((e_s x U) x W).e^ = (U.e^)(e_s.W) - e^_s (U.W)
 * give, per vertex pair (m, n), with kA = dqA_m/dx_n, kB = dqB_m/dx_n:
 *   dc_m = QA_m x b + QB_m x a                                                    (47)
 *   ds_m = QA_m x (b x e^) + QB_m x (e^ x a) + (qe_m/|e|) (a x b)                 (49)
 *   d2c_mn = kA/|nA| Eps(b) + kB/|nB| Eps(a) + (QB_n.QA_m + QA_n.QB_m) I
 *            - QB_n QA_m^T - QA_n QB_m^T                                          (50)
 *   d2s_mn = kA/|nA| Eps(b x e^) + kB/|nB| Eps(e^ x a)
 *            + (QA_m.e^) Eps(QB_n) - e^ (QB_n x QA_m)^T
 *            + (QA_n.e^) Eps(QB_m)^T - (QB_m x QA_n) e^T
 *            + (qe_n/|e|) X_m + (qe_m/|e|) X_n^T                                  (51)
 * where X_m(s, t) = (d(nA^ x nB^)/dx_{m,s})_t = b QA_m^T - (QA_m.b) I + (a.QB_m) I - a QB_m^T. */

/* Eps(w): Eps(w)_{st} = (e_s x e_t) . w */
static inline cc_m3 cc_hinge_eps(cc_v3 w)
{
    cc_m3 m = {{{0, w.z, -w.y}, {-w.z, 0, w.x}, {w.y, -w.x, 0}}};
    return m;
}

/* M += s P */
static inline void cc_hinge_m3_axpy(cc_m3 *M, double s, cc_m3 P)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) M->a[i][j] += s * P.a[i][j];
}

/* M += s u v^T */
static inline void cc_hinge_m3_outer_add(cc_m3 *M, double s, cc_v3 u, cc_v3 v)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) M->a[i][j] += s * u.c[i] * v.c[j];
}

/* M += s I */
static inline void cc_hinge_m3_diag_add(cc_m3 *M, double s)
{
    for (int i = 0; i < 3; i++) M->a[i][i] += s;
}

/* the blocks (m, n) of (50) and (51) into t->d2c, t->d2s, and their transposes into (n, m) */
static inline void cc_hinge_trig_block(const cc_hinge *h, const cc_v3 *QA, const cc_v3 *QB, const cc_m3 *X,
                                       const cc_m3 E[4], int m, int n, cc_hinge_trig *t)
{
    double kA = cc_hinge_dqA(m, n) / h->lA, kB = cc_hinge_dqB(m, n) / h->lB;
    cc_m3 c2 = cc_m3_zero(), s2 = cc_m3_zero();
    if (kA != 0) cc_hinge_m3_axpy(&c2, kA, E[0]), cc_hinge_m3_axpy(&s2, kA, E[2]);
    if (kB != 0) cc_hinge_m3_axpy(&c2, kB, E[1]), cc_hinge_m3_axpy(&s2, kB, E[3]);
    cc_hinge_m3_diag_add(&c2, cc_v3_dot(QB[n], QA[m]) + cc_v3_dot(QA[n], QB[m]));
    cc_hinge_m3_outer_add(&c2, -1.0, QB[n], QA[m]);
    cc_hinge_m3_outer_add(&c2, -1.0, QA[n], QB[m]);
    cc_hinge_m3_axpy(&s2, cc_v3_dot(QA[m], h->eh), cc_hinge_eps(QB[n]));
    cc_hinge_m3_outer_add(&s2, -1.0, h->eh, cc_v3_cross(QB[n], QA[m]));
    cc_hinge_m3_axpy(&s2, cc_v3_dot(QA[n], h->eh), cc_m3_transpose(cc_hinge_eps(QB[m])));
    cc_hinge_m3_outer_add(&s2, -1.0, cc_v3_cross(QB[m], QA[n]), h->eh);
    if (cc_hinge_qe(n) != 0) cc_hinge_m3_axpy(&s2, cc_hinge_qe(n) / h->le, X[m]);
    if (cc_hinge_qe(m) != 0) cc_hinge_m3_axpy(&s2, cc_hinge_qe(m) / h->le, cc_m3_transpose(X[n]));
    for (int s = 0; s < 3; s++)
        for (int r = 0; r < 3; r++) {
            int i = 3 * m + s, j = 3 * n + r;
            t->d2c[i][j] = t->d2c[j][i] = m == n && r < s ? c2.a[r][s] : c2.a[s][r];
            t->d2s[i][j] = t->d2s[j][i] = m == n && r < s ? s2.a[r][s] : s2.a[s][r];
        }
}

/* dc, ds and (if want_hess) d2c, d2s of (46)-(51) with the frozen-magnitude (40)-(45), by the
 * block formulas above; the same numbers as cc_hinge_units_frozen + cc_hinge_trig_derivs */
static inline void cc_hinge_trig_frozen(const cc_hinge *h, int want_hess, cc_hinge_trig *t)
{
    const cc_v3 a = h->nAh, b = h->nBh, be = cc_v3_cross(b, h->eh), ea = cc_v3_cross(h->eh, a);
    const cc_v3 ab = cc_v3_cross(a, b);
    cc_v3 QA[4], QB[4];
    cc_m3 X[4];
    for (int m = 0; m < 4; m++) {
        QA[m] = cc_v3_scale(h->qA[m], 1.0 / h->lA);
        QB[m] = cc_v3_scale(h->qB[m], 1.0 / h->lB);
        cc_v3 dc = cc_v3_add(cc_v3_cross(QA[m], b), cc_v3_cross(QB[m], a));
        cc_v3 ds = cc_v3_add(cc_v3_cross(QA[m], be), cc_v3_cross(QB[m], ea));
        ds = cc_v3_axpy(ds, cc_hinge_qe(m) / h->le, ab);
        for (int s = 0; s < 3; s++) t->dc[3 * m + s] = dc.c[s], t->ds[3 * m + s] = ds.c[s];
    }
    if (!want_hess) return;
    for (int m = 0; m < 4; m++) {
        X[m] = cc_m3_outer(b, QA[m]);
        cc_hinge_m3_outer_add(&X[m], -1.0, a, QB[m]);
        cc_hinge_m3_diag_add(&X[m], cc_v3_dot(a, QB[m]) - cc_v3_dot(QA[m], b));
    }
    const cc_m3 E[4] = {cc_hinge_eps(b), cc_hinge_eps(a), cc_hinge_eps(be), cc_hinge_eps(ea)};
    for (int m = 0; m < 4; m++)
        for (int n = m; n < 4; n++) cc_hinge_trig_block(h, QA, QB, X, E, m, n, t);
}

/* dtheta_i = cos dsin_i - sin dcos_i                                              (54)
 * d2theta_ij = cos d2sin - sin d2cos + (sin^2 - cos^2)(dsin_i dcos_j + dcos_i dsin_j)
 *              + 2 sin cos (dcos_i dcos_j - dsin_i dsin_j)                         (57)
 * (57) is (55)/(56) (printed in full only in 000) with sin^2 + cos^2 = 1 at x. */
static inline void cc_hinge_theta_derivs(const cc_hinge *h, const cc_hinge_trig *t, int want_hess,
                                         double g[CC_HINGE_DOF], double H[CC_HINGE_DOF][CC_HINGE_DOF])
{
    double c = h->c, s = h->s;
    for (int i = 0; i < CC_HINGE_DOF; i++) g[i] = c * t->ds[i] - s * t->dc[i];
    if (!want_hess) return;
    for (int i = 0; i < CC_HINGE_DOF; i++)
        for (int j = 0; j < CC_HINGE_DOF; j++)
            H[i][j] = c * t->d2s[i][j] - s * t->d2c[i][j]
                    + (s * s - c * c) * (t->ds[i] * t->dc[j] + t->dc[i] * t->ds[j])
                    + 2 * s * c * (t->dc[i] * t->dc[j] - t->ds[i] * t->ds[j]);
}

/* ---- hyper-dual value code (the references in checks/ differentiate exactly this) ---- */

/* nA, nB, e of (25)-(27) at hyper-dual positions x (12) */
static inline void cc_hinge_vectors_hd(const cc_hd *x, cc_hv3 *nA, cc_hv3 *nB, cc_hv3 *e)
{
    cc_hv3 p0 = cc_hv3_load(x), p1 = cc_hv3_load(x + 3), p2 = cc_hv3_load(x + 6), p3 = cc_hv3_load(x + 9);
    *nA = cc_hv3_cross(cc_hv3_sub(p2, p0), cc_hv3_sub(p1, p0));
    *nB = cc_hv3_cross(cc_hv3_sub(p1, p3), cc_hv3_sub(p2, p3));
    *e = cc_hv3_sub(p1, p2);
}

/* nA^, nB^, e^ at hyper-dual x: each vector divided by its own magnitude (xf == NULL), or by
 * its magnitude at plain positions xf, held constant (001 Section 4 frozen reference) */
static inline void cc_hinge_units_hd(const cc_hd *x, const double *xf, cc_hv3 *a, cc_hv3 *b, cc_hv3 *e)
{
    cc_hv3 nA, nB, ev;
    cc_hinge_vectors_hd(x, &nA, &nB, &ev);
    cc_hd lA = cc_hv3_norm(nA), lB = cc_hv3_norm(nB), le = cc_hv3_norm(ev);
    if (xf) {
        cc_hinge f;
        (void)cc_hinge_make(xf, &f);   /* sets lA, lB, le even where one is zero (C undefined) */
        lA = cc_hd_const(f.lA), lB = cc_hd_const(f.lB), le = cc_hd_const(f.le);
    }
    *a = cc_hv3_div(nA, lA);
    *b = cc_hv3_div(nB, lB);
    *e = cc_hv3_div(ev, le);
}

/* cos theta = nA^ . nB^ and sin theta = (nA^ x nB^) . e^ at hyper-dual x        (28), (29) */
static inline void cc_hinge_trig_hd(const cc_hd *x, const double *xf, cc_hd *c, cc_hd *s)
{
    cc_hv3 a, b, e;
    cc_hinge_units_hd(x, xf, &a, &b, &e);
    *c = cc_hv3_dot(a, b);
    *s = cc_hv3_dot(cc_hv3_cross(a, b), e);
}

/* theta = atan2(sin theta, cos theta) at hyper-dual x                              (30) */
static inline cc_hd cc_hinge_theta_hd(const cc_hd *x, const double *xf)
{
    cc_hd c, s;
    cc_hinge_trig_hd(x, xf, &c, &s);
    return cc_hd_atan2(s, c);
}

/* ---- Bridson et al.'s closed-form directions (002 "Force Directions", 004) ----
 *
 * In Pritchard's labels (002's h, i, j, k are x0, x1, x2, x3; 004's x1, x2, x3, x4 are
 * x0, x3, x2, x1; both maps give N1 = nA, N2 = nB, E = e exactly):
 *   u0 = |e| nA/|nA|^2,  u3 = |e| nB/|nB|^2
 *   u1 = -((x0 - x2).e^) nA/|nA|^2 - ((x3 - x2).e^) nB/|nB|^2
 *   u2 =  ((x0 - x1).e^) nA/|nA|^2 + ((x3 - x1).e^) nB/|nB|^2
 * written u_i = kA_i a + kB_i b with a = nA/|nA|^2, b = nB/|nB|^2.
 * In Pritchard's sign of theta, u_i = -dtheta/dx_i (bend_bridson.c, test_bend.c). */

/* dtheta/dx_m = CC_HINGE_BRIDSON_SIGN u_m in Pritchard's sign of theta (found by test_bend.c) */
#define CC_HINGE_BRIDSON_SIGN (-1.0)

/* p = (x_a - x_b) . e^ */
static inline double cc_hinge_proj(const cc_hinge *h, int a, int b)
{
    return cc_v3_dot(cc_v3_sub(h->x[a], h->x[b]), h->eh);
}

/* dp/dx_{m,s} for p = (x_a - x_b).e^: (d_ma - d_mb) e^_s + qe_m ((x_a - x_b)_s - p e^_s) / |e| */
static inline double cc_hinge_dproj(const cc_hinge *h, int a, int b, int i)
{
    int m = i / 3, s = i % 3;
    double p = cc_hinge_proj(h, a, b), d = h->x[a].c[s] - h->x[b].c[s];
    return ((m == a) - (m == b)) * h->eh.c[s] + cc_hinge_qe(m) * (d - p * h->eh.c[s]) / h->le;
}

/* the coefficients kA_i, kB_i of u_i = kA_i a + kB_i b */
static inline void cc_hinge_bridson_coef(const cc_hinge *h, double kA[4], double kB[4])
{
    kA[0] = h->le, kB[0] = 0;
    kA[1] = -cc_hinge_proj(h, 0, 2), kB[1] = -cc_hinge_proj(h, 3, 2);
    kA[2] = cc_hinge_proj(h, 0, 1), kB[2] = cc_hinge_proj(h, 3, 1);
    kA[3] = 0, kB[3] = h->le;
}

/* dkA_i/dx_j, dkB_i/dx_j; d|e|/dx_{m,s} = qe_m e^_s */
static inline void cc_hinge_bridson_dcoef(const cc_hinge *h, double dkA[4][CC_HINGE_DOF],
                                          double dkB[4][CC_HINGE_DOF])
{
    for (int j = 0; j < CC_HINGE_DOF; j++) {
        double dle = cc_hinge_qe(j / 3) * h->eh.c[j % 3];
        dkA[0][j] = dle, dkB[0][j] = 0;
        dkA[1][j] = -cc_hinge_dproj(h, 0, 2, j), dkB[1][j] = -cc_hinge_dproj(h, 3, 2, j);
        dkA[2][j] = cc_hinge_dproj(h, 0, 1, j), dkB[2][j] = cc_hinge_dproj(h, 3, 1, j);
        dkA[3][j] = 0, dkB[3][j] = dle;
    }
}

/* u[m] = Bridson's direction at vertex m */
static inline void cc_hinge_bridson_u(const cc_hinge *h, cc_v3 u[4])
{
    double kA[4], kB[4];
    cc_v3 a = cc_v3_scale(h->nA, 1.0 / (h->lA * h->lA)), b = cc_v3_scale(h->nB, 1.0 / (h->lB * h->lB));
    cc_hinge_bridson_coef(h, kA, kB);
    for (int m = 0; m < 4; m++) u[m] = cc_v3_add(cc_v3_scale(a, kA[m]), cc_v3_scale(b, kB[m]));
}

/* d(n/|n|^2)/dx_j = (I - 2 n^ n^^T) (dn/dx_j) / |n|^2 */
static inline cc_v3 cc_hinge_dinvn(cc_v3 nh, double l, cc_v3 dn)
{
    return cc_v3_scale(cc_v3_axpy(dn, -2.0 * cc_v3_dot(nh, dn), nh), 1.0 / (l * l));
}

/* du[3m+r][j] = d(u_m)_r / dx_j, by the product rule on u_m = kA_m a + kB_m b */
static inline void cc_hinge_bridson_du(const cc_hinge *h, double du[CC_HINGE_DOF][CC_HINGE_DOF])
{
    double kA[4], kB[4], dkA[4][CC_HINGE_DOF], dkB[4][CC_HINGE_DOF];
    cc_v3 a = cc_v3_scale(h->nA, 1.0 / (h->lA * h->lA)), b = cc_v3_scale(h->nB, 1.0 / (h->lB * h->lB));
    cc_hinge_bridson_coef(h, kA, kB);
    cc_hinge_bridson_dcoef(h, dkA, dkB);
    for (int j = 0; j < CC_HINGE_DOF; j++) {
        cc_v3 da = cc_hinge_dinvn(h->nAh, h->lA, cc_hinge_dn(h->qA, j));
        cc_v3 db = cc_hinge_dinvn(h->nBh, h->lB, cc_hinge_dn(h->qB, j));
        for (int m = 0; m < 4; m++) {
            cc_v3 d = cc_v3_add(cc_v3_add(cc_v3_scale(a, dkA[m][j]), cc_v3_scale(da, kA[m])),
                                cc_v3_add(cc_v3_scale(b, dkB[m][j]), cc_v3_scale(db, kB[m])));
            for (int r = 0; r < 3; r++) du[3 * m + r][j] = d.c[r];
        }
    }
}

/* the same u over hyper-duals (for the exact Jacobian of Bridson's force) */
static inline void cc_hinge_bridson_u_hd(const cc_hd *x, cc_hv3 u[4])
{
    cc_hv3 nA, nB, e, p[4];
    cc_hinge_vectors_hd(x, &nA, &nB, &e);
    for (int m = 0; m < 4; m++) p[m] = cc_hv3_load(x + 3 * m);
    cc_hd le = cc_hv3_norm(e);
    cc_hv3 eh = cc_hv3_div(e, le);
    cc_hv3 a = cc_hv3_div(nA, cc_hv3_dot(nA, nA)), b = cc_hv3_div(nB, cc_hv3_dot(nB, nB));
    cc_hd kA1 = cc_hd_neg(cc_hv3_dot(cc_hv3_sub(p[0], p[2]), eh));
    cc_hd kB1 = cc_hd_neg(cc_hv3_dot(cc_hv3_sub(p[3], p[2]), eh));
    cc_hd kA2 = cc_hv3_dot(cc_hv3_sub(p[0], p[1]), eh);
    cc_hd kB2 = cc_hv3_dot(cc_hv3_sub(p[3], p[1]), eh);
    u[0] = cc_hv3_mul(a, le);
    u[1] = cc_hv3_add(cc_hv3_mul(a, kA1), cc_hv3_mul(b, kB1));
    u[2] = cc_hv3_add(cc_hv3_mul(a, kA2), cc_hv3_mul(b, kB2));
    u[3] = cc_hv3_mul(b, le);
}

#endif
