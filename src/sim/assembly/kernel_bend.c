/* The structured assembly kernel of bend/pritchard (001 (24)-(57), constant magnitudes
 * (40)-(45)): the fused backward Euler contribution of every hinge, CC_LANES hinges at a
 * time (lanes.h), without forming the 12 x 12 Hessian.
 *
 * The formulas are those of bend_pritchard.c and conditions/hinge.h, rearranged. With
 * a = nA^, b = nB^, e^, c = cos theta, s = sin theta, QA_m = qA_m/|nA|, QB_m = qB_m/|nB|,
 * eps_m = qe_m/|e| (001 (25)-(36)), the blocks of (47), (49) (entry s: along axis s of vertex m) are
 *   dc_m = QA_m x b + QB_m x a,   ds_m = QA_m x (b x e^) + QB_m x (e^ x a) + eps_m (a x b),
 * (54) is g_m = c ds_m - s dc_m, and (57)'s last two terms are
 *   (s^2 - c^2)(ds dc^T + dc ds^T) + 2 s c (dc dc^T - ds ds^T) = -(g beta^T + beta g^T)
 * with beta_m = c dc_m + s ds_m. Then c d2s - s d2c from the block forms of (50), (51) in
 * hinge.h (above cc_hinge_trig_frozen) gives, for the vertex pair (m, n), with kA, kB the
 * constants of dqA_m/dx_n, dqB_m/dx_n, Eps(w)_st = (e_s x e_t) . w and (u v^T)_st = u_s v_t,
 *   H_mn = Eps(v_mn) + sigma_mn I
 *        + (s QB_n + c eps_n b) QA_m^T + (s QA_n - c eps_n a) QB_m^T
 *        - c e^ (QB_n x QA_m)^T - c (QB_m x QA_n) e^T
 *        + c eps_m (QA_n b^T - QB_n a^T) - beta_m g_n^T - g_m beta_n^T
 *   v_mn = kA/|nA| (c b x e^ - s b) + kB/|nB| (c e^ x a - s a) + pA_m QB_n - pA_n QB_m
 *   sigma_mn = -s (QB_n . QA_m + QA_n . QB_m) + c eps_n tau_m + c eps_m tau_n
 *   pA_m = c QA_m . e^,  tau_m = a . QB_m - QA_m . b.
 * A diagonal block is symmetric (v_mm = 0: kA = kB = 0 and the pA terms cancel); pairing each
 * term with its transpose, it is formed on its lower triangle and mirrored:
 *   H_mm = sigma_mm I + sym((s QB_m + c eps_m b) QA_m^T) - sym(c eps_m a QB_m^T)
 *        - sym(c e^ (QB_m x QA_m)^T) - sym(beta_m g_m^T),   sym(M) = M + M^T,
 *   sigma_mm = -2 s QB_m . QA_m + 2 c eps_m tau_m.
 * Terms that vanish identically (QA_3 = QB_0 = 0, eps_0 = eps_3 = 0) are skipped per vertex
 * and per block (the pairs are spelled out, so m, n are constants), and only the six blocks
 * among vertices 0, 1, 3 (the cheapest six: they have the fewest terms) are formed: translation
 * invariance gives the four with vertex 2 (cc_hinge_derive_vertex2). A batch is gathered by whole lane
 * vectors (cc_hinge_lane_vertex) and checked for NaN/inf on f, Jx dx and E_22 alone (E_22 sums every
 * entry of the other nine blocks); then
 * the ten blocks go to the lower triangle of A lane-major, block by block: per block two
 * 4 x 4 lane transposes (E^T first where the lane's vertex order asks for it), then per live
 * lane two 4-double additions and one scalar (cc_ln_scatter_block), straight from E.
 * test_sim_kernels compares the kernel with the condition-contract path of assemble.c.
 *
 * What the element adds (assemble.c, fused_nc): w = -k C - kd Cdot with Cdot = g . v
 * (001 (58)); f_m += w g_m; A_mn += cx w' H_mn + (-cx k - cv kd) g_m g_n^T; jdx_m +=
 * w' (H dx)_m - k g_m (g . dx), where w' = w, or 0 where the bend_hessian mode drops C d2C
 * (clamp: where w > 0; gauss-newton: always).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim/assembly/hinge_lanes.h"
#include "sim/assembly/lanes.h"
#include "sim/assembly/sim_internal.h"

/* one batch of hinges: the per-hinge quantities of the banner, lane-wise */
typedef struct hinge_ln {
    cc_lv3 QA[4], QB[4];   /* qA_m/|nA|, qB_m/|nB|, (34), (35) */
    cc_ln eps[4];          /* qe_m/|e|, (36) */
    cc_lv3 a, b, eh;       /* nA^, nB^, e^ */
    cc_ln c, s, theta;     /* cos, sin theta (28), (29); theta (30) */
    cc_ln ilA, ilB;        /* 1/|nA|, 1/|nB| */
    cc_lv3 wA, wB;         /* c b x e^ - s b, c e^ x a - s a */
    cc_ln pA[4], tau[4];   /* c QA_m . e^; a . QB_m - QA_m . b */
    cc_lv3 g[4], beta[4];  /* dC/dx_m (54); c dc_m + s ds_m */
    cc_lm ok;              /* true where |nA|, |nB|, |e| are finite and > 0 */
} hinge_ln;

/* the quantities of vertex m in h from qA = qA_m, qB = qB_m (h's a, b, e^, c, s, eps, ilA, ilB
 * set): QA_m, QB_m, g_m, beta_m, pA_m, tau_m; the terms with QA_3 = QB_0 = 0 and
 * eps_0 = eps_3 = 0 skipped */
static inline __attribute__((always_inline)) void hinge_vertex(hinge_ln *h, int m, cc_lv3 qA, cc_lv3 qB, cc_lv3 axb,
                                                               cc_lv3 bxe, cc_lv3 exa)
{
    cc_lv3 dc = cc_lv3_zero(), ds = cc_lv3_zero();
    h->QA[m] = cc_lv3_scale(qA, h->ilA);
    h->QB[m] = cc_lv3_scale(qB, h->ilB);
    h->pA[m] = h->tau[m] = cc_ln_set(0.0);
    if (m != 3) {
        dc = cc_lv3_cross(h->QA[m], h->b);
        ds = cc_lv3_cross(h->QA[m], bxe);
        h->pA[m] = h->c * cc_lv3_dot(h->QA[m], h->eh);
        h->tau[m] = -cc_lv3_dot(h->QA[m], h->b);
    }
    if (m != 0) {
        dc = cc_lv3_add(dc, cc_lv3_cross(h->QB[m], h->a));
        ds = cc_lv3_add(ds, cc_lv3_cross(h->QB[m], exa));
        h->tau[m] = cc_lv3_dot(h->a, h->QB[m]) + h->tau[m];
    }
    if (m == 1 || m == 2) ds = cc_lv3_axpy(ds, h->eps[m], axb);
    h->g[m] = cc_lv3_sub(cc_lv3_scale(ds, h->c), cc_lv3_scale(dc, h->s));
    h->beta[m] = cc_lv3_add(cc_lv3_scale(dc, h->c), cc_lv3_scale(ds, h->s));
}

/* h from the positions p[4] of the batch: everything but the Hessian blocks */
static inline __attribute__((always_inline)) void hinge_setup(const cc_lv3 p[4], hinge_ln *h)
{
    cc_lv3 nA = cc_lv3_cross(cc_lv3_sub(p[2], p[0]), cc_lv3_sub(p[1], p[0]));
    cc_lv3 nB = cc_lv3_cross(cc_lv3_sub(p[1], p[3]), cc_lv3_sub(p[2], p[3]));
    cc_lv3 e = cc_lv3_sub(p[1], p[2]);
    cc_ln lA = cc_ln_sqrt(cc_lv3_dot(nA, nA)), lB = cc_ln_sqrt(cc_lv3_dot(nB, nB));
    cc_ln le = cc_ln_sqrt(cc_lv3_dot(e, e));
    h->ok = (lA > 0.0) & (lB > 0.0) & (le > 0.0) & (lA + lB + le <= DBL_MAX);   /* NaN compares false */
    cc_ln one = cc_ln_set(1.0), ile = one / le;
    h->ilA = one / lA;
    h->ilB = one / lB;
    h->a = cc_lv3_scale(nA, h->ilA);
    h->b = cc_lv3_scale(nB, h->ilB);
    h->eh = cc_lv3_scale(e, ile);
    cc_lv3 axb = cc_lv3_cross(h->a, h->b), bxe = cc_lv3_cross(h->b, h->eh), exa = cc_lv3_cross(h->eh, h->a);
    h->c = cc_lv3_dot(h->a, h->b);
    h->s = cc_lv3_dot(axb, h->eh);
    h->theta = cc_ln_atan2(h->s, h->c);   /* s^2 + c^2 = 1 */
    h->eps[0] = h->eps[3] = cc_ln_set(0.0);
    h->eps[1] = ile;
    h->eps[2] = -ile;
    h->wA = cc_lv3_sub(cc_lv3_scale(bxe, h->c), cc_lv3_scale(h->b, h->s));
    h->wB = cc_lv3_sub(cc_lv3_scale(exa, h->c), cc_lv3_scale(h->a, h->s));
    hinge_vertex(h, 0, cc_lv3_sub(p[2], p[1]), cc_lv3_zero(), axb, bxe, exa);   /* qA_m, qB_m: (34), (35) */
    hinge_vertex(h, 1, cc_lv3_sub(p[0], p[2]), cc_lv3_sub(p[2], p[3]), axb, bxe, exa);
    hinge_vertex(h, 2, cc_lv3_sub(p[1], p[0]), cc_lv3_sub(p[3], p[1]), axb, bxe, exa);
    hinge_vertex(h, 3, cc_lv3_zero(), cc_lv3_sub(p[1], p[2]), axb, bxe, exa);
}

/* H = H_mn of the banner: the (m, n) block of the frozen-magnitude Hessian (57) */
static inline __attribute__((always_inline)) void hess_block(const hinge_ln *h, int m, int n, cc_ln H[9])
{
    static const double kA[4][4] = {{0, -1, 1, 0}, {1, 0, -1, 0}, {-1, 1, 0, 0}, {0, 0, 0, 0}};   /* (34) */
    static const double kB[4][4] = {{0, 0, 0, 0}, {0, 0, 1, -1}, {0, -1, 0, 1}, {0, 1, -1, 0}};   /* (35) */
    int am = m != 3, bm = m != 0, an = n != 3, bn = n != 0;   /* QA_m, QB_m, QA_n, QB_n nonzero */
    int em = m == 1 || m == 2, en = n == 1 || n == 2;         /* eps_m, eps_n nonzero */
    cc_ln s = h->s, c = h->c, cem = c * h->eps[m], cen = c * h->eps[n], sig = cc_ln_set(0.0);
    cc_lv3 v = cc_lv3_zero();
    if (kA[m][n] != 0) v = cc_lv3_axpy(v, kA[m][n] * h->ilA, h->wA);
    if (kB[m][n] != 0) v = cc_lv3_axpy(v, kB[m][n] * h->ilB, h->wB);
    if (am && bn) {
        v = cc_lv3_axpy(v, h->pA[m], h->QB[n]);
        sig -= s * cc_lv3_dot(h->QB[n], h->QA[m]);
    }
    if (an && bm) {
        v = cc_lv3_axpy(v, -h->pA[n], h->QB[m]);
        sig -= s * cc_lv3_dot(h->QA[n], h->QB[m]);
    }
    if (en) sig += cen * h->tau[m];
    if (em) sig += cem * h->tau[n];
    H[0] = sig, H[1] = v.z, H[2] = -v.y;   /* Eps(v) + sigma I */
    H[3] = -v.z, H[4] = sig, H[5] = v.x;
    H[6] = v.y, H[7] = -v.x, H[8] = sig;
    if (am && (bn || en)) cc_lm3_outer(H, cc_lv3_axpy(cc_lv3_scale(h->QB[n], s), cen, h->b), h->QA[m]);
    if (bm && (an || en)) cc_lm3_outer(H, cc_lv3_sub(cc_lv3_scale(h->QA[n], s), cc_lv3_scale(h->a, cen)), h->QB[m]);
    if (am && bn) cc_lm3_outer(H, cc_lv3_scale(h->eh, -c), cc_lv3_cross(h->QB[n], h->QA[m]));
    if (bm && an) cc_lm3_outer(H, cc_lv3_scale(cc_lv3_cross(h->QB[m], h->QA[n]), -c), h->eh);
    if (em && an) cc_lm3_outer(H, cc_lv3_scale(h->QA[n], cem), h->b);
    if (em && bn) cc_lm3_outer(H, cc_lv3_scale(h->QB[n], -cem), h->a);
    cc_lm3_outer(H, cc_lv3_scale(h->beta[m], cc_ln_set(-1.0)), h->g[n]);
    cc_lm3_outer(H, cc_lv3_scale(h->g[m], cc_ln_set(-1.0)), h->beta[n]);
}

/* M_ij += u_i w_j + w_i u_j for i >= j: the lower triangle of M += u w^T + w u^T */
static inline void sym_lower(cc_ln M[9], cc_lv3 u, cc_lv3 w)
{
    M[0] += u.x * w.x, M[0] += w.x * u.x;
    M[3] += u.y * w.x, M[3] += w.y * u.x, M[4] += u.y * w.y, M[4] += w.y * u.y;
    M[6] += u.z * w.x, M[6] += w.z * u.x, M[7] += u.z * w.y, M[7] += w.z * u.y, M[8] += u.z * w.z, M[8] += w.z * u.z;
}

/* the lower triangle of H = H_mm of the banner's diagonal form (the (m, m) block of (57),
 * symmetric) */
static inline __attribute__((always_inline)) void hess_diag(const hinge_ln *h, int m, cc_ln H[9])
{
    int ab = m == 1 || m == 2, em = ab;   /* QA_m, QB_m both nonzero; eps_m nonzero */
    cc_ln s = h->s, c = h->c, cem = c * h->eps[m], sig = cc_ln_set(0.0);
    if (ab) sig -= 2.0 * s * cc_lv3_dot(h->QB[m], h->QA[m]);
    if (em) sig += 2.0 * cem * h->tau[m];
    H[0] = H[4] = H[8] = sig;
    H[3] = H[6] = H[7] = cc_ln_set(0.0);
    if (ab) {
        sym_lower(H, cc_lv3_axpy(cc_lv3_scale(h->QB[m], s), cem, h->b), h->QA[m]);
        sym_lower(H, cc_lv3_scale(h->a, -cem), h->QB[m]);
        sym_lower(H, cc_lv3_scale(h->eh, -c), cc_lv3_cross(h->QB[m], h->QA[m]));
    }
    sym_lower(H, cc_lv3_scale(h->beta[m], cc_ln_set(-1.0)), h->g[m]);
}

/* E[q] of a batch is the block of the vertex pair q = (m, n), m <= n, in the order (0, 0),
 * (0, 1), (0, 2), (0, 3), (1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (3, 3); the functions below
 * spell the pairs out, so that m, n are constants and the terms that vanish drop out */

/* E[p] = cx w' H_mn + gg g_m g_n^T for pair p = (m, n) of vertices 0, 1, 3; y_m += H_mn D_n,
 * y_n += H_mn^T D_m (D relative to vertex 2: see derive_vertex2) */
static inline __attribute__((always_inline)) void pair_block(const hinge_ln *h, int m, int n, cc_ln cw, cc_ln gg,
                                                             const cc_lv3 *D, cc_lv3 y[4], cc_ln E[9])
{
    cc_ln H[9];
    if (m == n) {   /* symmetric: the lower triangle, mirrored */
        hess_diag(h, m, H);
        H[1] = H[3], H[2] = H[6], H[5] = H[7];
        y[m] = cc_lm3_mul_add(y[m], H, D[m], 0);
        cc_lv3 u = cc_lv3_scale(h->g[m], gg);
        E[0] = cw * H[0] + u.x * h->g[m].x;
        E[3] = cw * H[3] + u.y * h->g[m].x, E[4] = cw * H[4] + u.y * h->g[m].y;
        E[6] = cw * H[6] + u.z * h->g[m].x, E[7] = cw * H[7] + u.z * h->g[m].y, E[8] = cw * H[8] + u.z * h->g[m].z;
        E[1] = E[3], E[2] = E[6], E[5] = E[7];
        return;
    }
    hess_block(h, m, n, H);
    y[m] = cc_lm3_mul_add(y[m], H, D[n], 0);
    y[n] = cc_lm3_mul_add(y[n], H, D[m], 1);
    for (int q = 0; q < 9; q++) E[q] = cw * H[q];
    cc_lm3_outer(E, cc_lv3_scale(h->g[m], gg), h->g[n]);
}

int cc_kernel_pack_bend(cc_term *t)
{
    free(t->kdata);
    if (!(t->kdata = malloc(((size_t)t->nel + 1) * sizeof *t->kdata))) return -1;
    for (int e = 0; e < t->nel; e++) t->kdata[e] = t->rest[e].rest_angle;
    return 0;
}

/* the hinges e0 .. e0 + live - 1 of t: fo_m = f_m, y_m = (Jx dx)_m and the blocks E of A of
 * the ten vertex pairs, C = theta - theta0; returns a sum that is finite only if everything
 * added is, for one NaN/inf test (dead lanes repeat the last live hinge) */
static cc_ln bend_batch(const cc_term *t, int hess, int e0, int live, const double *x, const double *v,
                        const double *dx, double cx, double cv, cc_lv3 fo[4], cc_lv3 y[4], cc_ln E[10][9],
                        cc_ln *C, cc_lm *ok)
{
    _Static_assert(CC_LANES == 4, "bend_batch gathers four lanes");
    cc_lv3 p[4], V[4], D[4], Dr[4];
    cc_ln k = cc_ln_set(t->k), kd = cc_ln_set(t->kd), gg = cc_ln_set(-cx * t->k - cv * t->kd);
    cc_ln theta0;
    cc_hinge_gather(t->elem, t->kdata, 1, e0, live, x, v, dx, p, V, D, &theta0);
    hinge_ln h;
    hinge_setup(p, &h);
    *ok = h.ok;
    *C = h.theta - theta0;
    cc_ln Cdot = cc_ln_set(0.0), gD = cc_ln_set(0.0);
    for (int m = 0; m < 4; m++) {
        Cdot += cc_lv3_dot(h.g[m], V[m]);
        gD += cc_lv3_dot(h.g[m], D[m]);
        y[m] = cc_lv3_zero();
    }
    cc_ln w = -k * *C - kd * Cdot, wh = w;   /* 001 (58): Cdot summed over the hinge */
    if (hess == CC_HESSIAN_GAUSS_NEWTON) wh = cc_ln_set(0.0);
    else if (hess == CC_HESSIAN_CLAMP) wh = cc_ln_and(~(w > 0.0), w);   /* hessian.c: kept unless w > 0 */
    for (int m = 0; m < 4; m++) Dr[m] = cc_lv3_sub(D[m], D[2]);
    cc_ln cw = cx * wh;   /* the pairs among vertices 0, 1, 3 */
    pair_block(&h, 0, 0, cw, gg, Dr, y, E[0]);
    pair_block(&h, 0, 1, cw, gg, Dr, y, E[1]);
    pair_block(&h, 0, 3, cw, gg, Dr, y, E[3]);
    pair_block(&h, 1, 1, cw, gg, Dr, y, E[4]);
    pair_block(&h, 1, 3, cw, gg, Dr, y, E[6]);
    pair_block(&h, 3, 3, cw, gg, Dr, y, E[9]);
    cc_hinge_derive_vertex2(E, y);
    /* E_22 holds a sum with every entry of the other nine blocks (derive_vertex2), so it is
     * finite only if they all are */
    cc_ln chk = ((E[7][0] + E[7][1]) + (E[7][2] + E[7][3])) + ((E[7][4] + E[7][5]) + (E[7][6] + E[7][7])) + E[7][8];
    for (int m = 0; m < 4; m++) {
        fo[m] = cc_lv3_scale(h.g[m], w);
        y[m] = cc_lv3_sub(cc_lv3_scale(y[m], wh), cc_lv3_scale(h.g[m], k * gD));
        chk += (fo[m].x + fo[m].y) + (fo[m].z + y[m].x) + (y[m].y + y[m].z);
    }
    return chk;
}

int cc_kernel_bend_pritchard(cc_sim *s, cc_term *t, int hess, int b0, int b1, const cc_assembly *a, int *bad,
                             const char **why)
{
    const double *x = a->x, *v = a->v, *dx = a->dx;
    double cx = a->cx, cv = a->cv, *f = a->f, *jdx = a->jdx;
    double *A = s->A->val;
    for (int e0 = CC_LANES * b0; e0 < t->nel && e0 < CC_LANES * b1; e0 += CC_LANES) {
        int live = t->nel - e0 < CC_LANES ? t->nel - e0 : CC_LANES;
        cc_lv3 fo[4], y[4];
        cc_ln E[10][9], C;
        cc_lm ok;
        cc_ln chk = bend_batch(t, hess, e0, live, x, v, dx, cx, cv, fo, y, E, &C, &ok);
        for (int l = 0; l < live; l++)
            if (!ok[l] || !isfinite(chk[l])) {
                *bad = e0 + l;
                *why = ok[l] ? "non-finite force or Jacobian" : "the condition is undefined here (degenerate element)";
                return -1;
            }
        if (live == CC_LANES) cc_hinge_scatter_full(A, t->slot + 16 * e0, t->elem + 4 * e0, (const cc_ln(*)[9])E);
        else cc_hinge_scatter_part(A, t->slot + 16 * e0, t->elem + 4 * e0, live, (const cc_ln(*)[9])E);
        cc_lv3_add_lanes(f, t->elem + 4 * e0, 4, fo, live);
        cc_lv3_add_lanes(jdx, t->elem + 4 * e0, 4, y, live);
        for (int l = 0; l < live; l++) {
            int e = e0 + l;
            t->C[e] = C[l];
            t->energy[e] = 0.5 * t->k * C[l] * C[l];
        }
    }
    return 0;
}
