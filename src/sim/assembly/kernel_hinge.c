/* Structured assembly kernels for the bend formulations other than bend/pritchard (which has
 * its lane kernel, kernel_bend.c): one hinge at a time, the fused backward Euler contribution
 * (assemble.c, fused_nc) written from the gradient and the ten Hessian blocks directly, into
 * the lower triangle of A as the other kernels do.
 *
 * The exact-angle formulations -- bend/pritchard-exact, bend/bridson and
 * bend/discrete-shells -- share one kernel: C = w (theta - theta0), with w = 1 for the first
 * two and |e_rest| sqrt(3/A_rest) for Discrete Shells, and the gradient and Hessian of theta in
 * Tamstorf & Grinspun's closed form (conditions/hinge_tg.h). The three formulas of the
 * derivatives of theta (001's appendix, Bridson's directions, Tamstorf & Grinspun) are the
 * same numbers to round-off (test_bend.c measures 6e-15), so the kernel gives each variant's
 * own numbers at the cost of the cheapest formula; `--no-kernels` runs each variant's own
 * formulas (the condition contract), and test_sim_kernels compares the two.
 *
 * Bridson's bending force model (bend_condition "bridson-force", bend_force.c): the same
 * closed form of theta's gradient and Hessian gives its force, its symmetric Jacobian J_s and
 * its damping (force_hinge below).
 *
 * bend/quadratic: C = sum_m K_m (x_m - x_rest_m) (3 components), dC_c/dx_m = K_m e_c and
 * d2C = 0, so with w = -k C - kd Cdot (a 3-vector), the fused contribution is
 *   f_m += K_m w,  A_mn += (-cx k - cv kd) K_m K_n I,  (Jx dx)_m += -k K_m sum_n K_n dx_n,
 * the system matrix part a constant multiple of K_m K_n I per block: nothing is formed.
 *
 * With w the weight of the element (w = -k C - kd Cdot, Cdot = g . v summed over the hinge,
 * 001 (58)) and w' = w, or 0 where the bend_hessian mode drops C d2C (clamp: where w > 0;
 * gauss-newton: always), an exact-angle hinge adds
 *   f_m += w g_m,  A_mn += cx w' H_mn + (-cx k - cv kd) g_m g_n^T,
 *   (Jx dx)_m += w' (H dx)_m - k g_m (g . dx).
 */
#include <math.h>
#include <string.h>
#include "conditions/hinge_tg.h"
#include "conditions/variants.h"
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

/* w' of the bend_hessian mode (assemble.c, hessian.c) */
static double kept_weight(int hess, double w)
{
    if (hess == CC_HESSIAN_GAUSS_NEWTON) return 0.0;
    if (hess == CC_HESSIAN_CLAMP && w > 0) return 0.0;
    return w;
}

/* the six Hessian blocks of theta among vertices 0, 1, 3 (hinge_tg.h; H30 = 0), then the four
 * with vertex 2 by translation invariance (every block column sums to zero):
 * H2n = -(H0n + H1n + H3n), H22 = -(H20 + H21 + H23) */
static void angle_blocks(const cc_hinge_tg *g, cc_m3 H[4][4])
{
    const cc_v3 a = g->a, b = g->b;
    H[0][0] = H[1][0] = H[1][1] = H[1][3] = H[3][3] = cc_m3_zero();
    H[3][0] = H[0][3] = cc_m3_zero();
    cc_hinge_tg_sym(&H[0][0], -g->ih0, a, g->MA[0]);
    cc_hinge_tg_sym(&H[3][3], -g->ih3, b, g->MB[0]);
    cc_hinge_tg_acc(&H[1][0], g->gA[1], g->MA[0], a);
    cc_hinge_tg_acc(&H[1][0], -g->ih0, a, g->MA[1]);
    cc_hinge_tg_acc(&H[1][3], g->gB[1], g->MB[0], b);
    cc_hinge_tg_acc(&H[1][3], -g->ih3, b, g->MB[1]);
    cc_hinge_tg_sym(&H[1][1], g->gA[1], g->MA[1], a);
    cc_hinge_tg_sym(&H[1][1], g->gB[1], g->MB[1], b);
    cc_hinge_tg_acc(&H[1][1], -g->bA, a, g->MA[0]);
    cc_hinge_tg_acc(&H[1][1], -g->bB, b, g->MB[0]);
    H[0][1] = cc_m3_transpose(H[1][0]);
    H[3][1] = cc_m3_transpose(H[1][3]);
    for (int n = 0; n < 4; n++) {
        if (n == 2) continue;
        H[2][n] = cc_m3_scale(cc_m3_add(cc_m3_add(H[0][n], H[1][n]), H[3][n]), -1.0);
        H[n][2] = cc_m3_transpose(H[2][n]);
    }
    H[2][2] = cc_m3_scale(cc_m3_add(cc_m3_add(H[2][0], H[2][1]), H[2][3]), -1.0);
}

/* one exact-angle hinge (banner); a sum of everything added (finite only if all is), or
 * -INFINITY where the hinge is degenerate (theta undefined) */
static double angle_hinge(const cc_term *t, int hess, int e, const double *x, const double *v, double cx, double cv,
                          const double *dx, double *f, double *jdx, double *A)
{
    const int *vid = t->elem + 4 * e;
    const cc_rest *r = &t->rest[e];
    double xe[12], wgt = t->cond == &cc_bend_discrete_shells ? r->rest_weight : 1.0;
    cc_hinge h;
    cc_hinge_tg g;
    cc_v3 gr[4], D[4];
    cc_m3 H[4][4];
    for (int m = 0; m < 4; m++) memcpy(xe + 3 * m, x + 3 * vid[m], 3 * sizeof *xe);
    if (cc_hinge_make(xe, &h) < 0) return -INFINITY;
    cc_hinge_tg_make(&h, &g);
    cc_hinge_tg_grad(&g, gr);
    angle_blocks(&g, H);
    double C = wgt * (h.theta - r->rest_angle), Cdot = 0, gD = 0, chk = 0;
    for (int m = 0; m < 4; m++) {
        gr[m] = cc_v3_scale(gr[m], wgt);
        D[m] = cc_v3_load(dx + 3 * vid[m]);
        Cdot += cc_v3_dot(gr[m], cc_v3_load(v + 3 * vid[m]));
        gD += cc_v3_dot(gr[m], D[m]);
    }
    double w = -t->k * C - t->kd * Cdot, wh = kept_weight(hess, w) * wgt, gg = -cx * t->k - cv * t->kd;
    cc_v3 Dr[4], y[4];
    for (int n = 0; n < 4; n++) Dr[n] = cc_v3_sub(D[n], D[2]);   /* H annihilates a common shift */
    for (int m = 0; m < 4; m++) {
        if (m == 2) continue;
        y[m] = cc_v3_zero();
        for (int n = 0; n < 4; n++)
            if (n != 2) y[m] = cc_v3_add(y[m], cc_m3_mul_v3(H[m][n], Dr[n]));
    }
    y[2] = cc_v3_scale(cc_v3_add(cc_v3_add(y[0], y[1]), y[3]), -1.0);
    for (int m = 0; m < 4; m++) {
        cc_v3 ym = cc_v3_axpy(cc_v3_scale(y[m], wh), -t->k * gD, gr[m]);
        for (int s = 0; s < 3; s++) {
            f[3 * vid[m] + s] += w * gr[m].c[s];
            jdx[3 * vid[m] + s] += ym.c[s];
            chk += w * gr[m].c[s] + ym.c[s];
        }
        for (int n = 0; n <= m; n++) {
            double E[9];
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) E[3 * i + j] = cx * wh * H[m][n].a[i][j] + gg * gr[m].c[i] * gr[n].c[j];
            add_lower(A, t, e, m, n, E);
            for (int q = 0; q < 9; q++) chk += E[q];
        }
    }
    t->C[e] = C;
    t->energy[e] = 0.5 * t->k * C * C;
    return chk;
}

/* one hinge of Bridson's force model (bend_force.c has the model, its damping, the symmetric
 * J_s and the work potential): with g = dtheta/dx (= -u), H = d2theta/dx2 (hinge_tg.h),
 * w = |e|^2/(|nA| + |nB|), sigma = sin(theta/2) - sin(theta0/2), c2 = cos(theta/2)/2,
 *   F_m = -k w sigma g_m - kd w (g.v) g_m,
 *   J_s,mn = -k sigma/2 (g_m dw_n^T + dw_m g_n^T) - k w c2 g_m g_n^T - k w sigma H_mn,
 *   Jv_mn = -kd w g_m g_n^T,
 *   dw/dx_m = (2 |e| qe_m e^ - w (qA_m x nA^ + qB_m x nB^)) / (|nA| + |nB|)
 * (d|n|/dx_m = qA_m x n^ from dn/dx_{m,s} = e_s x qA_m, 001 (31)); adds f, J_s dx and
 * cx J_s + cv Jv. A sum of everything added, or -INFINITY where the hinge is degenerate. */
static double force_hinge(const cc_term *t, int e, const double *x, const double *v, double cx, double cv,
                          const double *dx, double *f, double *jdx, double *A)
{
    const int *vid = t->elem + 4 * e;
    const cc_rest *r = &t->rest[e];
    double xe[12];
    cc_hinge h;
    cc_hinge_tg g;
    cc_v3 gr[4], D[4], dw[4], y[4], Dr[4];
    cc_m3 H[4][4];
    for (int m = 0; m < 4; m++) memcpy(xe + 3 * m, x + 3 * vid[m], 3 * sizeof *xe);
    if (cc_hinge_make(xe, &h) < 0) return -INFINITY;
    cc_hinge_tg_make(&h, &g);
    cc_hinge_tg_grad(&g, gr);
    angle_blocks(&g, H);
    double den = h.lA + h.lB, w = h.le * h.le / den;
    double sig = sin(0.5 * h.theta) - sin(0.5 * r->rest_angle), c2 = 0.5 * cos(0.5 * h.theta);
    double thdot = 0, gD = 0, wD = 0, chk = 0, k = t->k, kd = t->kd;
    for (int m = 0; m < 4; m++) {
        cc_v3 dl = cc_v3_add(cc_v3_cross(h.qA[m], h.nAh), cc_v3_cross(h.qB[m], h.nBh));
        dw[m] = cc_v3_scale(cc_v3_axpy(cc_v3_scale(h.eh, 2.0 * h.le * cc_hinge_qe(m)), -w, dl), 1.0 / den);
        D[m] = cc_v3_load(dx + 3 * vid[m]);
        thdot += cc_v3_dot(gr[m], cc_v3_load(v + 3 * vid[m]));
        gD += cc_v3_dot(gr[m], D[m]);
        wD += cc_v3_dot(dw[m], D[m]);
    }
    for (int n = 0; n < 4; n++) Dr[n] = cc_v3_sub(D[n], D[2]);
    for (int m = 0; m < 4; m++) {
        if (m == 2) continue;
        y[m] = cc_v3_zero();
        for (int n = 0; n < 4; n++)
            if (n != 2) y[m] = cc_v3_add(y[m], cc_m3_mul_v3(H[m][n], Dr[n]));
    }
    y[2] = cc_v3_scale(cc_v3_add(cc_v3_add(y[0], y[1]), y[3]), -1.0);
    double fg = -k * w * sig - kd * w * thdot, sh = -0.5 * k * sig, gg = -k * w * c2, hh = -k * w * sig;
    for (int m = 0; m < 4; m++) {
        cc_v3 jm = cc_v3_add(cc_v3_scale(gr[m], sh * wD + gg * gD), cc_v3_scale(dw[m], sh * gD));
        jm = cc_v3_axpy(jm, hh, y[m]);
        for (int s = 0; s < 3; s++) {
            f[3 * vid[m] + s] += fg * gr[m].c[s];
            jdx[3 * vid[m] + s] += jm.c[s];
            chk += fg * gr[m].c[s] + jm.c[s];
        }
        for (int n = 0; n <= m; n++) {
            double E[9];
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    E[3 * i + j] = cx * (sh * (gr[m].c[i] * dw[n].c[j] + dw[m].c[i] * gr[n].c[j]) + hh * H[m][n].a[i][j])
                                 + (cx * gg - cv * kd * w) * gr[m].c[i] * gr[n].c[j];
            add_lower(A, t, e, m, n, E);
            for (int q = 0; q < 9; q++) chk += E[q];
        }
    }
    t->C[e] = h.theta - r->rest_angle;
    t->energy[e] = k * w * (2.0 * cos(0.5 * r->rest_angle) - 2.0 * cos(0.5 * h.theta) -
                            sin(0.5 * r->rest_angle) * (h.theta - r->rest_angle));
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
    return t->kind == TERM_BEND && (c == &cc_bend_pritchard_exact || c == &cc_bend_bridson ||
                                    c == &cc_bend_discrete_shells || c == &cc_bend_quadratic);
}

int cc_kernel_hinge(cc_sim *s, cc_term *t, int hess, int b0, int b1, const double *x, const double *v,
                    double cx, double cv, const double *dx, double *f, double *jdx, int *bad, const char **why)
{
    double *A = s->A->val;
    int quad = t->kind == TERM_BEND && t->cond == &cc_bend_quadratic, force = t->kind == TERM_BEND_FORCE;
    for (int e = CC_LANES * b0; e < t->nel && e < CC_LANES * b1; e++) {
        double chk = quad    ? quadratic_hinge(t, e, x, v, cx, cv, dx, f, jdx, A)
                   : force ? force_hinge(t, e, x, v, cx, cv, dx, f, jdx, A)
                           : angle_hinge(t, hess, e, x, v, cx, cv, dx, f, jdx, A);
        if (!isfinite(chk)) {
            *bad = e;
            *why = chk != -INFINITY ? "non-finite force or Jacobian"
                   : force ? "the bending force is undefined here (degenerate hinge)"
                           : "the condition is undefined here (degenerate element)";
            return -1;
        }
    }
    return 0;
}
