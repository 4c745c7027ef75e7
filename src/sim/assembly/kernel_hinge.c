/* Structured assembly kernels for the bend formulations other than bend/pritchard (which has
 * its own lane kernel, kernel_bend.c): the fused backward Euler contribution (assemble.c,
 * fused_nc) written from the gradient and the ten Hessian blocks directly, into the lower
 * triangle of A as the other kernels do.
 *
 * The exact-angle formulations -- bend/pritchard-exact, bend/bridson and
 * bend/discrete-shells -- share one lane kernel, four hinges at a time: C = w (theta - theta0),
 * with w = 1 for the first two and |e_rest| sqrt(3/A_rest) for Discrete Shells, and the
 * gradient and Hessian of theta in Tamstorf & Grinspun's closed form (conditions/hinge_tg.h,
 * here lane-wise). The three formulas of the derivatives of theta (001's appendix, Bridson's
 * directions, Tamstorf & Grinspun) are the same numbers to round-off (test_bend.c measures
 * 6e-15), so the kernel gives each variant's own numbers at the cost of the cheapest formula;
 * `--no-kernels` runs each variant's own formulas (the condition contract), and
 * test_sim_kernels compares the two. As in kernel_bend.c, the six blocks among x0, x1, x3 are
 * formed (H03 = 0) and the four with x2 follow from translation invariance (hinge_lanes.h).
 *
 * With w' = w, or 0 where the bend_hessian mode drops C d2C (clamp: where w > 0; gauss-newton:
 * always), and w = -k C - kd Cdot (Cdot = g . v summed over the hinge, 001 (58)), an
 * exact-angle hinge adds
 *   f_m += w g_m,  A_mn += cx w' H_mn + (-cx k - cv kd) g_m g_n^T,
 *   (Jx dx)_m += w' (H dx)_m - k g_m (g . dx),
 * with g, H the derivatives of C (the weight times theta's).
 *
 * Bridson's bending force model (bend_condition "bridson-force", bend_force.c has the model,
 * its damping, the symmetric J_s and the work potential) goes through the same lanes: with
 * g = dtheta/dx (= -u), H = d2theta/dx2, w = |e|^2/(|nA| + |nB|), sigma = sin(theta/2) -
 * sin(theta0/2), c2 = cos(theta/2)/2,
 *   F_m = -k w sigma g_m - kd w (g.v) g_m,
 *   J_s,mn = -k sigma/2 (g_m dw_n^T + dw_m g_n^T) - k w c2 g_m g_n^T - k w sigma H_mn,
 *   Jv_mn = -kd w g_m g_n^T,
 *   dw/dx_m = (2 |e| qe_m e^ - w (qA_m x nA^ + qB_m x nB^)) / (|nA| + |nB|)
 * (d|n|/dx_m = qA_m x n^ from dn/dx_{m,s} = e_s x qA_m, 001 (31)); it adds f, J_s dx and
 * cx J_s + cv Jv. sin(theta/2) and cos(theta/2) come from cos theta and sin theta by the
 * half-angle formulas, each from the side where it is well conditioned (the root of
 * (1 + cos theta)/2 where cos theta >= 0, of (1 - cos theta)/2 otherwise, the other by
 * sin theta / (2 x)).
 *
 * bend/macri has a lane kernel of its own (macri_batch): Macri's quotients need cos theta's and
 * sin theta's second derivatives, not theta's.
 *
 * bend/quadratic, one hinge at a time: C = sum_m K_m (x_m - x_rest_m) (3 components),
 * dC_c/dx_m = K_m e_c and d2C = 0, so with w = -k C - kd Cdot (a 3-vector),
 *   f_m += K_m w,  A_mn += (-cx k - cv kd) K_m K_n I,  (Jx dx)_m += -k K_m sum_n K_n dx_n,
 * the system matrix part a constant multiple of K_m K_n I per block: nothing is formed.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "conditions/variants.h"
#include "sim/assembly/hinge_lanes.h"
#include "sim/assembly/lanes.h"
#include "sim/assembly/sim_internal.h"

/* add the 3x3 block E of the vertex pair (a, b) of hinge e to the lower triangle of A:
 * into slot (a, b) if vertex a > vertex b (or a = b), else E^T into slot (b, a); without a
 * branch on the vertex order (which side is up is a coin toss, and mispredicted often) */
static inline void add_lower(double *A, const cc_term *t, int e, int a, int b, const double E[9])
{
    const int *vid = t->elem + 4 * e, *slot = t->slot + 16 * e;
    double ET[9] = {E[0], E[3], E[6], E[1], E[4], E[7], E[2], E[5], E[8]};
    int up = vid[a] < vid[b];
    const double *src = up ? ET : E;
    double *blk = A + 9 * slot[up ? 4 * b + a : 4 * a + b];
    for (int q = 0; q < 9; q++) blk[q] += src[q];
}

/* What the lane kernel reads of a batch of hinges (hinge_tg.h's quantities, lane-wise). */
typedef struct tg_ln {
    cc_lv3 a, b, eh;          /* nA^, nB^, e^ */
    cc_ln le, lA, lB, c, s;   /* |e|, |nA|, |nB|, cos theta, sin theta */
    cc_ln theta;              /* atan2(s, c) (001 (30)) */
    cc_lv3 MA[3], MB[3];      /* m/h of the edges (hinge_tg.h) */
    cc_ln gA1, gA2, gB1, gB2; /* c/h */
    cc_ln ih0, ih3, bA, bB;   /* 1/h0, 1/h3, |nA|/|e|^3, |nB|/|e|^3 */
    cc_lv3 g[4];              /* dtheta/dx_m */
    cc_lm ok;                 /* |nA|, |nB|, |e| finite and > 0 */
} tg_ln;

/* h from the positions p[4] of the batch (hinge_tg.h, cc_hinge_tg_make and _grad, lane-wise) */
static inline __attribute__((always_inline)) void tg_setup(const cc_lv3 p[4], tg_ln *h)
{
    cc_lv3 nA = cc_lv3_cross(cc_lv3_sub(p[2], p[0]), cc_lv3_sub(p[1], p[0]));
    cc_lv3 nB = cc_lv3_cross(cc_lv3_sub(p[1], p[3]), cc_lv3_sub(p[2], p[3]));
    cc_lv3 e = cc_lv3_sub(p[1], p[2]);
    h->lA = cc_ln_sqrt(cc_lv3_dot(nA, nA)), h->lB = cc_ln_sqrt(cc_lv3_dot(nB, nB));
    h->le = cc_ln_sqrt(cc_lv3_dot(e, e));
    h->ok = (h->lA > 0.0) & (h->lB > 0.0) & (h->le > 0.0) & (h->lA + h->lB + h->le <= DBL_MAX);
    cc_ln one = cc_ln_set(1.0), ile = one / h->le, ilA = one / h->lA, ilB = one / h->lB;
    h->a = cc_lv3_scale(nA, ilA);
    h->b = cc_lv3_scale(nB, ilB);
    h->eh = cc_lv3_scale(e, ile);
    h->c = cc_lv3_dot(h->a, h->b);
    h->s = cc_lv3_dot(cc_lv3_cross(h->a, h->b), h->eh);
    h->theta = cc_ln_atan2(h->s, h->c);
    cc_ln iA = ile * ilA, iB = ile * ilB, ie3 = ile * ile * ile;
    h->gA1 = cc_lv3_dot(e, cc_lv3_sub(p[0], p[2])) * iA;
    h->gA2 = -cc_lv3_dot(e, cc_lv3_sub(p[0], p[1])) * iA;
    h->gB1 = cc_lv3_dot(e, cc_lv3_sub(p[3], p[2])) * iB;
    h->gB2 = -cc_lv3_dot(e, cc_lv3_sub(p[3], p[1])) * iB;
    h->ih0 = h->le * ilA, h->ih3 = h->le * ilB;
    h->bA = h->lA * ie3, h->bB = h->lB * ie3;
    h->MA[0] = cc_lv3_scale(cc_lv3_cross(e, h->a), ilA);
    h->MA[1] = cc_lv3_scale(cc_lv3_cross(cc_lv3_sub(p[2], p[0]), h->a), ilA);
    h->MA[2] = cc_lv3_scale(cc_lv3_cross(cc_lv3_sub(p[0], p[1]), h->a), ilA);
    h->MB[0] = cc_lv3_scale(cc_lv3_cross(cc_lv3_sub(p[2], p[1]), h->b), ilB);
    h->MB[1] = cc_lv3_scale(cc_lv3_cross(cc_lv3_sub(p[3], p[2]), h->b), ilB);
    h->MB[2] = cc_lv3_scale(cc_lv3_cross(cc_lv3_sub(p[1], p[3]), h->b), ilB);
    h->g[0] = cc_lv3_scale(h->a, -h->ih0);
    h->g[3] = cc_lv3_scale(h->b, -h->ih3);
    h->g[1] = cc_lv3_add(cc_lv3_scale(h->a, h->gA1), cc_lv3_scale(h->b, h->gB1));
    h->g[2] = cc_lv3_add(cc_lv3_scale(h->a, h->gA2), cc_lv3_scale(h->b, h->gB2));
}

/* M += s (u v^T + v u^T) */
static inline void sym_add(cc_ln M[9], cc_ln s, cc_lv3 u, cc_lv3 v)
{
    cc_lm3_outer(M, cc_lv3_scale(u, s), v);
    cc_lm3_outer(M, cc_lv3_scale(v, s), u);
}

/* H = the Hessian block of theta for pair q of vertices 0, 1, 3 (0: (0,0), 1: (0,1), 4: (1,1),
 * 6: (1,3), 9: (3,3); (0,3) is zero) */
static inline __attribute__((always_inline)) void tg_block(const tg_ln *h, int q, cc_ln H[9])
{
    for (int r = 0; r < 9; r++) H[r] = cc_ln_set(0.0);
    switch (q) {
    case 0: sym_add(H, -h->ih0, h->a, h->MA[0]); break;
    case 9: sym_add(H, -h->ih3, h->b, h->MB[0]); break;
    case 1:   /* H01 = H10^T = gA1 a MA0^T - (1/h0) MA1 a^T */
        cc_lm3_outer(H, cc_lv3_scale(h->a, h->gA1), h->MA[0]);
        cc_lm3_outer(H, cc_lv3_scale(h->MA[1], -h->ih0), h->a);
        break;
    case 6:   /* H13 = gB1 MB0 b^T - (1/h3) b MB1^T */
        cc_lm3_outer(H, cc_lv3_scale(h->MB[0], h->gB1), h->b);
        cc_lm3_outer(H, cc_lv3_scale(h->b, -h->ih3), h->MB[1]);
        break;
    case 4:   /* H11 = gA1 sym(MA1 a^T) + gB1 sym(MB1 b^T) - bA a MA0^T - bB b MB0^T */
        sym_add(H, h->gA1, h->MA[1], h->a);
        sym_add(H, h->gB1, h->MB[1], h->b);
        cc_lm3_outer(H, cc_lv3_scale(h->a, -h->bA), h->MA[0]);
        cc_lm3_outer(H, cc_lv3_scale(h->b, -h->bB), h->MB[0]);
        break;
    default: break;
    }
}

/* The per-batch weights of E_mn = al H_mn + be g_m g_n^T + ga (g_m u_n^T + u_m g_n^T) (u = dw
 * for the force model, unused otherwise) and of (Jx dx)_m = hy (H dx)_m + gy g_m + uy u_m. */
typedef struct tg_weights {
    cc_ln al, be, ga, hy;
    cc_ln gy, uy;
} tg_weights;

/* the ten blocks E (pair order, hinge_lanes.h) and y = H (D - D_2) from the six among 0, 1, 3 */
static inline __attribute__((always_inline)) void tg_blocks(const tg_ln *h, const tg_weights *w, const cc_lv3 *u,
                                                            const cc_lv3 Dr[4], cc_lv3 y[4], cc_ln E[10][9])
{
    static const int pairs[6][3] = {{0, 0, 0}, {1, 0, 1}, {3, 0, 3}, {4, 1, 1}, {6, 1, 3}, {9, 3, 3}};
    for (int m = 0; m < 4; m++) y[m] = cc_lv3_zero();
    for (int k = 0; k < 6; k++) {
        int q = pairs[k][0], m = pairs[k][1], n = pairs[k][2];
        cc_ln H[9];
        tg_block(h, q, H);
        if (q != 3) {
            y[m] = cc_lm3_mul_add(y[m], H, Dr[n], 0);
            if (m != n) y[n] = cc_lm3_mul_add(y[n], H, Dr[m], 1);
        }
        for (int r = 0; r < 9; r++) E[q][r] = w->al * H[r];
        cc_lm3_outer(E[q], cc_lv3_scale(h->g[m], w->be), h->g[n]);
        if (u) {
            cc_lm3_outer(E[q], cc_lv3_scale(h->g[m], w->ga), u[n]);
            cc_lm3_outer(E[q], cc_lv3_scale(u[m], w->ga), h->g[n]);
        }
    }
    cc_hinge_derive_vertex2(E, y);
}

/* the batch of hinges e0 .. e0 + live - 1 of t (dead lanes repeat the last live one): forces fo,
 * y = (Jx dx), blocks E, C and the energy; returns a sum finite only if all is (E_22 sums every
 * entry of the other blocks, hinge_lanes.h) */
static cc_ln tg_batch(const cc_term *t, int hess, int force, int e0, int live, const double *x, const double *v,
                      const double *dx, double cx, double cv, cc_lv3 fo[4], cc_lv3 y[4], cc_ln E[10][9],
                      cc_ln *C, cc_ln *energy, cc_lm *ok)
{
    _Static_assert(CC_LANES == 4, "tg_batch gathers four lanes");
    cc_lv3 p[4], V[4], D[4], Dr[4], dw[4];
    cc_ln kdat[3];   /* theta0 and the packed rest data (cc_kernel_pack_hinge) */
    cc_hinge_gather(t->elem, t->kdata, 3, e0, live, x, v, dx, p, V, D, kdat);
    cc_ln th0 = kdat[0], kw = kdat[1], kw2 = kdat[2];
    tg_ln h;
    tg_setup(p, &h);
    *ok = h.ok;
    cc_ln k = cc_ln_set(t->k), kd = cc_ln_set(t->kd), thdot = cc_ln_set(0.0), gD = cc_ln_set(0.0);
    for (int m = 0; m < 4; m++) {
        thdot += cc_lv3_dot(h.g[m], V[m]);
        gD += cc_lv3_dot(h.g[m], D[m]);
        Dr[m] = cc_lv3_sub(D[m], D[2]);
    }
    tg_weights w;
    cc_ln fg;   /* f_m = fg g_m */
    if (!force) {   /* C = kw (theta - theta0): g and H scale by kw */
        *C = kw * (h.theta - th0);
        cc_ln wt = -k * *C - kd * kw * thdot, wh = wt;   /* 001 (58): Cdot summed over the hinge */
        if (hess == CC_HESSIAN_GAUSS_NEWTON) wh = cc_ln_set(0.0);
        else if (hess == CC_HESSIAN_CLAMP) wh = cc_ln_and(~(wt > 0.0), wt);
        w.al = cx * wh * kw, w.be = (-cx * t->k - cv * t->kd) * kw * kw, w.ga = cc_ln_set(0.0);
        w.hy = wh * kw, w.gy = -k * kw * kw * gD, w.uy = cc_ln_set(0.0);
        fg = wt * kw;
        *energy = 0.5 * k * *C * *C;
    } else {   /* Bridson's force model (banner; kw = sin(theta0/2), kw2 = cos(theta0/2)) */
        cc_ln half = cc_ln_set(0.5), one = cc_ln_set(1.0), den = h.lA + h.lB, wf = h.le * h.le / den;
        cc_lm pos = h.c >= 0.0;   /* half angles from c and s, each from the well-conditioned side */
        cc_ln ch = cc_ln_sqrt(half * (one + cc_ln_select(pos, h.c, -one)));
        cc_ln sh = cc_ln_sqrt(half * (one - cc_ln_select(pos, one, h.c)));
        sh = (cc_ln)((cc_lm)sh | ((cc_lm)h.s & ((cc_lm){0} + (long long)(1ull << 63))));   /* sign of s */
        cc_ln sin_half = cc_ln_select(pos, h.s * half / ch, sh);
        cc_ln cos_half = cc_ln_select(pos, ch, h.s * half / sh);
        cc_ln sig = sin_half - kw;
        static const double qe[4] = {0, 1, -1, 0};
        cc_lv3 qA[4] = {cc_lv3_sub(p[2], p[1]), cc_lv3_sub(p[0], p[2]), cc_lv3_sub(p[1], p[0]), cc_lv3_zero()};
        cc_lv3 qB[4] = {cc_lv3_zero(), cc_lv3_sub(p[2], p[3]), cc_lv3_sub(p[3], p[1]), cc_lv3_sub(p[1], p[2])};
        cc_ln wD = cc_ln_set(0.0);
        for (int m = 0; m < 4; m++) {
            cc_lv3 dl = cc_lv3_add(cc_lv3_cross(qA[m], h.a), cc_lv3_cross(qB[m], h.b));
            dw[m] = cc_lv3_scale(cc_lv3_axpy(cc_lv3_scale(h.eh, 2.0 * qe[m] * h.le), -wf, dl), one / den);
            wD += cc_lv3_dot(dw[m], D[m]);
        }
        cc_ln s2 = -0.5 * k * sig, gg2 = -0.5 * k * wf * cos_half, hh = -k * wf * sig;
        w.al = cx * hh, w.be = cx * gg2 - cv * kd * wf, w.ga = cx * s2;
        w.hy = hh, w.gy = s2 * wD + gg2 * gD, w.uy = s2 * gD;
        fg = -k * wf * sig - kd * wf * thdot;
        *C = h.theta - th0;
        *energy = k * wf * (2.0 * kw2 - 2.0 * cos_half - kw * (h.theta - th0));
    }
    tg_blocks(&h, &w, force ? dw : NULL, Dr, y, E);
    cc_ln chk = ((E[7][0] + E[7][1]) + (E[7][2] + E[7][3])) + ((E[7][4] + E[7][5]) + (E[7][6] + E[7][7])) + E[7][8];
    for (int m = 0; m < 4; m++) {
        fo[m] = cc_lv3_scale(h.g[m], fg);
        y[m] = cc_lv3_add(cc_lv3_scale(y[m], w.hy), cc_lv3_scale(h.g[m], w.gy));
        if (force) y[m] = cc_lv3_axpy(y[m], w.uy, dw[m]);
        chk += (fo[m].x + fo[m].y) + (fo[m].z + y[m].x) + (y[m].y + y[m].z);
    }
    return chk;
}

/* Macri's formulas (bend_macri.c), lane-wise: the frozen-magnitude dcos, dsin and the blocks of
 * their second derivatives (001 (47), (49), (50), (51), in hinge.h's block form above
 * cc_hinge_trig_frozen), then per lane whichever of the two quotients is in force:
 *   |sin| > |cos|:  g = -dc/s,  H = dc ds^T/s^2 - d2c/s;   else  g = ds/c,  H = -ds dc^T/c^2 + d2s/c,
 * symmetrised as the contract path does (assemble.c, fused_nc): (dc ds^T + ds dc^T)/2 in place
 * of the outer product (d2c and d2s are symmetric). So H = mu2 sym(dc ds^T)/2 + nu2 d2c + xi2 d2s
 * with per-lane coefficients. cos, sin and the frozen derivatives are translation invariant,
 * so the four blocks with x2 follow from the other six as in the other kernels. */
typedef struct macri_ln {
    cc_lv3 a, b, eh, be, ea, ab;   /* nA^, nB^, e^, b x e^, e^ x a, a x b */
    cc_lv3 QA[4], QB[4];           /* qA_m/|nA|, qB_m/|nB| (001 (34), (35)) */
    cc_lv3 dc[4], ds[4];           /* (47), (49) per vertex */
    cc_ln ilA, ilB, ile, c, s;
    cc_lm ok;
} macri_ln;

/* Eps(w) (hinge.h: Eps(w)_st = (e_s x e_t) . w) times k, added to M */
static inline void eps_add(cc_ln M[9], cc_ln k, cc_lv3 w)
{
    M[1] += k * w.z, M[2] -= k * w.y, M[3] -= k * w.z, M[5] += k * w.x, M[6] += k * w.y, M[7] -= k * w.x;
}

/* Eps(w)^T times k, added to M */
static inline void eps_t_add(cc_ln M[9], cc_ln k, cc_lv3 w) { eps_add(M, -k, w); }

/* M += k I */
static inline void diag_add(cc_ln M[9], cc_ln k) { M[0] += k, M[4] += k, M[8] += k; }

/* the blocks (m, n) of d2c and d2s (hinge.h, cc_hinge_trig_block, lane-wise) */
static inline __attribute__((always_inline)) void macri_trig_block(const macri_ln *h, int m, int n, cc_ln c2[9],
                                                                   cc_ln s2[9])
{
    static const double kA[4][4] = {{0, -1, 1, 0}, {1, 0, -1, 0}, {-1, 1, 0, 0}, {0, 0, 0, 0}};   /* (34) */
    static const double kB[4][4] = {{0, 0, 0, 0}, {0, 0, 1, -1}, {0, -1, 0, 1}, {0, 1, -1, 0}};   /* (35) */
    static const double qe[4] = {0, 1, -1, 0};                                                     /* (36) */
    for (int r = 0; r < 9; r++) c2[r] = s2[r] = cc_ln_set(0.0);
    if (kA[m][n] != 0) eps_add(c2, kA[m][n] * h->ilA, h->b), eps_add(s2, kA[m][n] * h->ilA, h->be);
    if (kB[m][n] != 0) eps_add(c2, kB[m][n] * h->ilB, h->a), eps_add(s2, kB[m][n] * h->ilB, h->ea);
    diag_add(c2, cc_lv3_dot(h->QB[n], h->QA[m]) + cc_lv3_dot(h->QA[n], h->QB[m]));
    cc_lm3_outer(c2, cc_lv3_scale(h->QB[n], cc_ln_set(-1.0)), h->QA[m]);
    cc_lm3_outer(c2, cc_lv3_scale(h->QA[n], cc_ln_set(-1.0)), h->QB[m]);
    eps_add(s2, cc_lv3_dot(h->QA[m], h->eh), h->QB[n]);
    cc_lm3_outer(s2, cc_lv3_scale(h->eh, cc_ln_set(-1.0)), cc_lv3_cross(h->QB[n], h->QA[m]));
    eps_t_add(s2, cc_lv3_dot(h->QA[n], h->eh), h->QB[m]);
    cc_lm3_outer(s2, cc_lv3_scale(cc_lv3_cross(h->QB[m], h->QA[n]), cc_ln_set(-1.0)), h->eh);
    for (int side = 0; side < 2; side++) {   /* (qe_n/|e|) X_m + (qe_m/|e|) X_n^T */
        int p = side ? n : m;
        double q = side ? qe[m] : qe[n];
        if (q == 0) continue;
        cc_ln k = q * h->ile, X[9];   /* X_p = b QA_p^T - a QB_p^T + (a.QB_p - QA_p.b) I */
        for (int r = 0; r < 9; r++) X[r] = cc_ln_set(0.0);
        cc_lm3_outer(X, h->b, h->QA[p]);
        cc_lm3_outer(X, cc_lv3_scale(h->a, cc_ln_set(-1.0)), h->QB[p]);
        diag_add(X, cc_lv3_dot(h->a, h->QB[p]) - cc_lv3_dot(h->QA[p], h->b));
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) s2[3 * i + j] += k * (side ? X[3 * j + i] : X[3 * i + j]);
    }
}

/* the batch of hinges e0 .. e0 + live - 1 of a bend/macri term: as tg_batch */
static cc_ln macri_batch(const cc_term *t, int hess, int e0, int live, const double *x, const double *v,
                         const double *dx, double cx, double cv, cc_lv3 fo[4], cc_lv3 y[4], cc_ln E[10][9],
                         cc_ln *C, cc_ln *energy, cc_lm *ok)
{
    static const double qe[4] = {0, 1, -1, 0};
    cc_lv3 p[4], V[4], D[4], Dr[4], g[4];
    cc_ln kdat[3];
    cc_hinge_gather(t->elem, t->kdata, 3, e0, live, x, v, dx, p, V, D, kdat);
    cc_ln th0 = kdat[0];
    macri_ln h;
    cc_lv3 nA = cc_lv3_cross(cc_lv3_sub(p[2], p[0]), cc_lv3_sub(p[1], p[0]));
    cc_lv3 nB = cc_lv3_cross(cc_lv3_sub(p[1], p[3]), cc_lv3_sub(p[2], p[3]));
    cc_lv3 e = cc_lv3_sub(p[1], p[2]);
    cc_ln lA = cc_ln_sqrt(cc_lv3_dot(nA, nA)), lB = cc_ln_sqrt(cc_lv3_dot(nB, nB)), le = cc_ln_sqrt(cc_lv3_dot(e, e));
    h.ok = (lA > 0.0) & (lB > 0.0) & (le > 0.0) & (lA + lB + le <= DBL_MAX);
    *ok = h.ok;
    cc_ln one = cc_ln_set(1.0);
    h.ilA = one / lA, h.ilB = one / lB, h.ile = one / le;
    h.a = cc_lv3_scale(nA, h.ilA), h.b = cc_lv3_scale(nB, h.ilB), h.eh = cc_lv3_scale(e, h.ile);
    h.be = cc_lv3_cross(h.b, h.eh), h.ea = cc_lv3_cross(h.eh, h.a), h.ab = cc_lv3_cross(h.a, h.b);
    h.c = cc_lv3_dot(h.a, h.b);
    h.s = cc_lv3_dot(h.ab, h.eh);
    cc_lv3 qA[4] = {cc_lv3_sub(p[2], p[1]), cc_lv3_sub(p[0], p[2]), cc_lv3_sub(p[1], p[0]), cc_lv3_zero()};
    cc_lv3 qB[4] = {cc_lv3_zero(), cc_lv3_sub(p[2], p[3]), cc_lv3_sub(p[3], p[1]), cc_lv3_sub(p[1], p[2])};
    /* the quotient in force, per lane (bend_macri.c, macri_derivs) */
    const cc_lm sign = (cc_lm){0} + (long long)(1ull << 63);
    cc_lm by_cos = (cc_ln)((cc_lm)h.s & ~sign) > (cc_ln)((cc_lm)h.c & ~sign);   /* |sin| > |cos| */
    cc_ln zero = cc_ln_set(0.0);
    cc_ln mu = cc_ln_select(by_cos, -one / h.s, zero), nu = cc_ln_select(by_cos, zero, one / h.c);
    cc_ln mu2 = cc_ln_select(by_cos, one / (h.s * h.s), -one / (h.c * h.c));   /* times sym(dc ds^T)/2 */
    cc_ln nu2 = cc_ln_select(by_cos, -one / h.s, zero), xi2 = cc_ln_select(by_cos, zero, one / h.c);
    cc_ln thdot = cc_ln_set(0.0), gD = cc_ln_set(0.0);
    for (int m = 0; m < 4; m++) {
        h.QA[m] = cc_lv3_scale(qA[m], h.ilA), h.QB[m] = cc_lv3_scale(qB[m], h.ilB);
        h.dc[m] = cc_lv3_add(cc_lv3_cross(h.QA[m], h.b), cc_lv3_cross(h.QB[m], h.a));
        h.ds[m] = cc_lv3_axpy(cc_lv3_add(cc_lv3_cross(h.QA[m], h.be), cc_lv3_cross(h.QB[m], h.ea)), qe[m] * h.ile, h.ab);
        g[m] = cc_lv3_add(cc_lv3_scale(h.dc[m], mu), cc_lv3_scale(h.ds[m], nu));
        thdot += cc_lv3_dot(g[m], V[m]);
        gD += cc_lv3_dot(g[m], D[m]);
        Dr[m] = cc_lv3_sub(D[m], D[2]);
    }
    for (int l = 0; l < CC_LANES; l++) {   /* C = arccos(cos theta) - theta0, the contract's value */
        double cl = h.c[l] > 1.0 ? 1.0 : h.c[l] < -1.0 ? -1.0 : h.c[l];
        (*C)[l] = acos(cl) - th0[l];
    }
    cc_ln k = cc_ln_set(t->k), kd = cc_ln_set(t->kd);
    cc_ln wt = -k * *C - kd * thdot, wh = wt;
    if (hess == CC_HESSIAN_GAUSS_NEWTON) wh = zero;
    else if (hess == CC_HESSIAN_CLAMP) wh = cc_ln_and(~(wt > 0.0), wt);
    cc_ln cw = cx * wh, gg = cc_ln_set(-cx * t->k - cv * t->kd);
    static const int pairs[6][3] = {{0, 0, 0}, {1, 0, 1}, {3, 0, 3}, {4, 1, 1}, {6, 1, 3}, {9, 3, 3}};
    for (int m = 0; m < 4; m++) y[m] = cc_lv3_zero();
    for (int q6 = 0; q6 < 6; q6++) {
        int q = pairs[q6][0], m = pairs[q6][1], n = pairs[q6][2];
        cc_ln c2[9], s2[9], H[9];
        macri_trig_block(&h, m, n, c2, s2);
        for (int r = 0; r < 9; r++) H[r] = nu2 * c2[r] + xi2 * s2[r];
        cc_ln half = 0.5 * mu2;
        cc_lm3_outer(H, cc_lv3_scale(h.dc[m], half), h.ds[n]);
        cc_lm3_outer(H, cc_lv3_scale(h.ds[m], half), h.dc[n]);
        if (m == n)   /* exactly symmetric, as the contract path's (H + H^T)/2 */
            H[1] = H[3] = 0.5 * (H[1] + H[3]), H[2] = H[6] = 0.5 * (H[2] + H[6]), H[5] = H[7] = 0.5 * (H[5] + H[7]);
        y[m] = cc_lm3_mul_add(y[m], H, Dr[n], 0);
        if (m != n) y[n] = cc_lm3_mul_add(y[n], H, Dr[m], 1);
        for (int r = 0; r < 9; r++) E[q][r] = cw * H[r];
        cc_lm3_outer(E[q], cc_lv3_scale(g[m], gg), g[n]);
    }
    cc_hinge_derive_vertex2(E, y);
    cc_ln chk = ((E[7][0] + E[7][1]) + (E[7][2] + E[7][3])) + ((E[7][4] + E[7][5]) + (E[7][6] + E[7][7])) + E[7][8];
    for (int m = 0; m < 4; m++) {
        fo[m] = cc_lv3_scale(g[m], wt);
        y[m] = cc_lv3_sub(cc_lv3_scale(y[m], wh), cc_lv3_scale(g[m], k * gD));
        chk += (fo[m].x + fo[m].y) + (fo[m].z + y[m].x) + (y[m].y + y[m].z);
    }
    *energy = 0.5 * k * *C * *C;
    return chk;
}

/* one bend/quadratic hinge (banner); a sum of everything added */
static double quadratic_hinge(const cc_term *t, int e, const double *x, const double *v, double cx, double cv,
                              const double *dx, double *f, double *jdx, double *A)
{
    const int *vid = t->elem + 4 * e;
    const cc_rest *r = &t->rest[e];
    const double *K = r->rest_K;
    double C[3] = {0, 0, 0}, Cdot[3] = {0, 0, 0}, KD[3] = {0, 0, 0}, chk = 0, energy = 0;
    double gg = -cx * t->k - cv * t->kd;
    for (int m = 0; m < 4; m++)
        for (int s = 0; s < 3; s++) {
            int i = 3 * vid[m] + s;
            C[s] += K[m] * (x[i] - r->rest_x[3 * m + s]);
            Cdot[s] += K[m] * v[i];
            KD[s] += K[m] * dx[i];
        }
    for (int s = 0; s < 3; s++) {
        double w = -t->k * C[s] - t->kd * Cdot[s];
        for (int m = 0; m < 4; m++) {
            f[3 * vid[m] + s] += K[m] * w;
            jdx[3 * vid[m] + s] -= t->k * K[m] * KD[s];
            chk += K[m] * (w - t->k * KD[s]);
        }
        t->C[3 * e + s] = C[s];
        energy += 0.5 * t->k * C[s] * C[s];
    }
    for (int m = 0; m < 4; m++)
        for (int n = 0; n <= m; n++) {
            double d = gg * K[m] * K[n], E[9] = {d, 0, 0, 0, d, 0, 0, 0, d};
            add_lower(A, t, e, m, n, E);
            chk += d;
        }
    t->energy[e] = energy;
    return chk;
}

int cc_kernel_hinge_has(const cc_term *t)
{
    if (t->kind == TERM_BEND_FORCE) return 1;
    const cc_condition *c = t->cond;
    return t->kind == TERM_BEND && (c == &cc_bend_pritchard_exact || c == &cc_bend_bridson || c == &cc_bend_macri ||
                                    c == &cc_bend_discrete_shells || c == &cc_bend_quadratic);
}

int cc_kernel_pack_hinge(cc_term *t)
{
    free(t->kdata);
    if (!(t->kdata = malloc((3 * (size_t)t->nel + 1) * sizeof *t->kdata))) return -1;
    for (int e = 0; e < t->nel; e++) {
        const cc_rest *r = &t->rest[e];
        double *k = t->kdata + 3 * e;
        k[0] = r->rest_angle;
        if (t->kind == TERM_BEND_FORCE) k[1] = sin(0.5 * r->rest_angle), k[2] = cos(0.5 * r->rest_angle);
        else k[1] = t->cond == &cc_bend_discrete_shells ? r->rest_weight : 1.0, k[2] = 0.0;
    }
    return 0;
}

int cc_kernel_hinge(cc_sim *s, cc_term *t, int hess, int b0, int b1, const cc_assembly *a, int *bad,
                    const char **why)
{
    const double *x = a->x, *v = a->v, *dx = a->dx;
    double cx = a->cx, cv = a->cv, *f = a->f, *jdx = a->jdx;
    double *A = s->A->val;
    int force = t->kind == TERM_BEND_FORCE, macri = t->kind == TERM_BEND && t->cond == &cc_bend_macri;
    if (t->kind == TERM_BEND && t->cond == &cc_bend_quadratic) {
        for (int e = CC_LANES * b0; e < t->nel && e < CC_LANES * b1; e++)
            if (!isfinite(quadratic_hinge(t, e, x, v, cx, cv, dx, f, jdx, A))) {
                *bad = e;
                *why = "non-finite force or Jacobian";
                return -1;
            }
        return 0;
    }
    for (int e0 = CC_LANES * b0; e0 < t->nel && e0 < CC_LANES * b1; e0 += CC_LANES) {
        int live = t->nel - e0 < CC_LANES ? t->nel - e0 : CC_LANES;
        cc_lv3 fo[4], y[4];
        cc_ln E[10][9], C, energy;
        cc_lm ok;
        cc_ln chk = macri ? macri_batch(t, hess, e0, live, x, v, dx, cx, cv, fo, y, E, &C, &energy, &ok)
                          : tg_batch(t, hess, force, e0, live, x, v, dx, cx, cv, fo, y, E, &C, &energy, &ok);
        for (int l = 0; l < live; l++)
            if (!ok[l] || !isfinite(chk[l])) {
                *bad = e0 + l;
                *why = ok[l] ? "non-finite force or Jacobian"
                     : force ? "the bending force is undefined here (degenerate hinge)"
                             : "the condition is undefined here (degenerate element)";
                return -1;
            }
        if (live == CC_LANES) cc_hinge_scatter_full(A, t->slot + 16 * e0, t->elem + 4 * e0, (const cc_ln(*)[9])E);
        else cc_hinge_scatter_part(A, t->slot + 16 * e0, t->elem + 4 * e0, live, (const cc_ln(*)[9])E);
        cc_lv3_add_lanes(f, t->elem + 4 * e0, 4, fo, live);
        cc_lv3_add_lanes(jdx, t->elem + 4 * e0, 4, y, live);
        for (int l = 0; l < live; l++) t->C[e0 + l] = C[l], t->energy[e0 + l] = energy[l];
    }
    return 0;
}
