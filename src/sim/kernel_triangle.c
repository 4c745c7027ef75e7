/* The structured assembly kernel of stretch/bw98 and shear/bw98 (001 (13)-(23)) on the same
 * triangles: the fused backward Euler contribution of both terms, CC_LANES triangles at a
 * time (lanes.h), without forming a 9 x 9 Hessian.
 *
 * With w_u = sum_m dwu_m x_m, w_v = sum_m dwv_m x_m (001 (3), (4)), every derivative of both
 * conditions is a scalar dw of the vertex times a vector of the triangle:
 *   stretch, (14), (15):  dC_u/dx_m = alpha dwu_m w^_u,
 *                         d2C_u/dx_m dx_n = alpha/|w_u| dwu_m dwu_n (I - w^_u w^_u^T), v likewise
 *   shear, (21), (23):    dC/dx_m = beta (dwu_m w_v + dwv_m w_u),
 *                         d2C/dx_m dx_n = beta (dwu_m dwv_n + dwv_m dwu_n) I
 * (alpha, beta the area weights of the two terms). So any combination M_mn = sum over
 * components of (a g_m g_n^T + b d2C_mn) has the form
 *   M_mn = dwu_m dwu_n P + dwv_m dwv_n Q + dwu_m dwv_n R + dwv_m dwu_n R^T
 * with three 3 x 3 matrices per triangle:
 *   P = b_u alpha/|w_u| (I - w^_u w^_u^T) + a_u alpha^2 w^_u w^_u^T + a_s beta^2 w_v w_v^T
 *   Q = (the same with u and v exchanged)
 *   R = b_s beta I + a_s beta^2 w_v w_u^T
 * for weights a, b per component (u, v: stretch; s: shear). The kernel forms P, Q, R for
 * Jx (a = -k, b = w') and for A (a = -cx k - cv kd, b = cx w'), where w = -k C - kd Cdot
 * (001 (58), Cdot = dC . v) and w' = w, or 0 where the term's *_hessian mode drops C d2C.
 * Then f_m = dwu_m F_u + dwv_m F_v with F_u = w_u alpha w^_u + w_s beta w_v (and v
 * likewise), and (Jx dx)_m = dwu_m (P dU + R dV) + dwv_m (Q dV + R^T dU) with
 * dU = sum_n dwu_n dx_n, dV = sum_n dwv_n dx_n. Since sum_m dwu_m = sum_m dwv_m = 0, the blocks
 * of a row sum to zero, and three of the six are formed from the other three. test_sim_kernels compares the kernel with
 * the condition-contract path of assemble.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim/lanes.h"
#include "sim/sim_internal.h"

/* the three matrices of the banner for one weighting of the components */
typedef struct tri_pqr {
    cc_ln P[9], Q[9], R[9];
} tri_pqr;

/* M = b (I - u u^T) + a u u^T, u a unit vector (a stretch component's part of P or Q) */
static void stretch_part(cc_ln M[9], cc_lv3 u, cc_ln a, cc_ln b)
{
    cc_ln d = a - b;
    M[0] = b + d * u.x * u.x, M[1] = d * u.x * u.y, M[2] = d * u.x * u.z;
    M[3] = M[1], M[4] = b + d * u.y * u.y, M[5] = d * u.y * u.z;
    M[6] = M[2], M[7] = M[5], M[8] = b + d * u.z * u.z;
}

/* out = dwu_m dwu_n P + dwv_m dwv_n Q + dwu_m dwv_n R + dwv_m dwu_n R^T */
static inline void pqr_block(const tri_pqr *M, cc_ln um, cc_ln vm, cc_ln un, cc_ln vn, cc_ln out[9])
{
    cc_ln uu = um * un, vv = vm * vn, uv = um * vn, vu = vm * un;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            out[3 * i + j] = uu * M->P[3 * i + j] + vv * M->Q[3 * i + j] + uv * M->R[3 * i + j] + vu * M->R[3 * j + i];
}

/* lane l of vertex m of the triangle vid from a (3 per vertex) into q */
static inline void gather(const double *a, const int *vid, int m, cc_lv3 *q, int l)
{
    const double *p = a + 3 * vid[m];
    q->x[l] = p[0], q->y[l] = p[1], q->z[l] = p[2];
}

/* sum_m dw_m q_m */
static inline cc_lv3 combine(const cc_ln dw[3], const cc_lv3 q[3])
{
    return cc_lv3_axpy(cc_lv3_axpy(cc_lv3_scale(q[0], dw[0]), dw[1], q[1]), dw[2], q[2]);
}

/* w' of a component: w, or 0 where the mode drops its C d2C (hessian.c) */
static inline cc_ln curvature_weight(int hess, cc_ln w)
{
    if (hess == CC_HESSIAN_GAUSS_NEWTON) return cc_ln_set(0.0);
    if (hess == CC_HESSIAN_CLAMP) return cc_ln_and(~(w > 0.0), w);
    return w;
}

/* the stretch and shear of one batch; the element index where C is undefined, or -1 */
static int tri_batch(const cc_term *st, int st_hess, const cc_term *sh, int sh_hess, int e0, int live,
                     const double *x, const double *v, const double *dx, double cx, double cv, double *A,
                     double *f, double *jdx, int *nonfinite)
{
    const cc_term *t = st ? st : sh;
    cc_lv3 X[3], V[3], D[3];
    cc_ln du[3], dv[3], al = {0}, be = {0}, bu = {0}, bv = {0};
    for (int l = 0; l < CC_LANES; l++) {   /* dead lanes repeat the last live triangle */
        int e = e0 + (l < live ? l : live - 1);
        const int *vid = t->elem + 3 * e;
        const double *r = t->kdata + CC_KTRI * e;
        for (int m = 0; m < 3; m++) {
            gather(x, vid, m, &X[m], l);
            gather(v, vid, m, &V[m], l);
            gather(dx, vid, m, &D[m], l);
            du[m][l] = r[m];
            dv[m][l] = r[3 + m];
        }
        if (st) al[l] = r[6], bu[l] = r[7], bv[l] = r[8];
        if (sh) be[l] = sh->kdata[CC_KTRI * e + 6];
    }
    cc_lv3 wu = combine(du, X), wv = combine(dv, X), vu = combine(du, V), vv = combine(dv, V);
    cc_lv3 dU = combine(du, D), dV = combine(dv, D);
    cc_lv3 Fu = cc_lv3_zero(), Fv = cc_lv3_zero();
    tri_pqr J, M;   /* Jx and A */
    memset(&J, 0, sizeof J);
    memset(&M, 0, sizeof M);
    cc_ln Cu = {0}, Cv = {0}, Cs = {0};
    if (st) {
        cc_ln k = cc_ln_set(st->k), kd = cc_ln_set(st->kd), gg = cc_ln_set(-cx * st->k - cv * st->kd);
        cc_ln lu = cc_ln_sqrt(cc_lv3_dot(wu, wu)), lv = cc_ln_sqrt(cc_lv3_dot(wv, wv));
        for (int l = 0; l < live; l++)
            if (!(lu[l] > 0 && lv[l] > 0)) return e0 + l;   /* stretch_bw98.c: w^ undefined */
        cc_lv3 uh = cc_lv3_scale(wu, 1.0 / lu), vh = cc_lv3_scale(wv, 1.0 / lv);
        Cu = al * (lu - bu);
        Cv = al * (lv - bv);
        cc_ln wcu = -k * Cu - kd * al * cc_lv3_dot(uh, vu), wcv = -k * Cv - kd * al * cc_lv3_dot(vh, vv);
        cc_ln hu = curvature_weight(st_hess, wcu) * al / lu, hv = curvature_weight(st_hess, wcv) * al / lv;
        cc_ln a2 = al * al;
        stretch_part(J.P, uh, -k * a2, hu);
        stretch_part(J.Q, vh, -k * a2, hv);
        stretch_part(M.P, uh, gg * a2, cx * hu);
        stretch_part(M.Q, vh, gg * a2, cx * hv);
        Fu = cc_lv3_scale(uh, wcu * al);
        Fv = cc_lv3_scale(vh, wcv * al);
    }
    if (sh) {
        cc_ln k = cc_ln_set(sh->k), kd = cc_ln_set(sh->kd), gg = cc_ln_set(-cx * sh->k - cv * sh->kd);
        Cs = be * cc_lv3_dot(wu, wv);
        cc_ln ws = -k * Cs - kd * be * (cc_lv3_dot(wv, vu) + cc_lv3_dot(wu, vv));
        cc_ln hs = curvature_weight(sh_hess, ws) * be, b2 = be * be, ja = -k * b2, ma = gg * b2;
        cc_lm3_outer(J.P, cc_lv3_scale(wv, ja), wv);
        cc_lm3_outer(J.Q, cc_lv3_scale(wu, ja), wu);
        cc_lm3_outer(J.R, cc_lv3_scale(wv, ja), wu);
        cc_lm3_outer(M.P, cc_lv3_scale(wv, ma), wv);
        cc_lm3_outer(M.Q, cc_lv3_scale(wu, ma), wu);
        cc_lm3_outer(M.R, cc_lv3_scale(wv, ma), wu);
        for (int i = 0; i < 3; i++) J.R[4 * i] += hs, M.R[4 * i] += cx * hs;
        Fu = cc_lv3_axpy(Fu, ws * be, wv);
        Fv = cc_lv3_axpy(Fv, ws * be, wu);
    }
    /* (Jx dx)_m = dwu_m (P dU + R dV) + dwv_m (Q dV + R^T dU) */
    cc_lv3 JU = cc_lm3_mul_add(cc_lm3_mul_add(cc_lv3_zero(), J.P, dU, 0), J.R, dV, 0);
    cc_lv3 JV = cc_lm3_mul_add(cc_lm3_mul_add(cc_lv3_zero(), J.Q, dV, 0), J.R, dU, 1);
    cc_lv3 fo[3], jo[3];
    cc_ln E[6][9], chk = cc_ln_set(0.0), part[9] = {{0}};   /* nine independent sums */
    for (int m = 0; m < 3; m++) {
        fo[m] = cc_lv3_axpy(cc_lv3_scale(Fu, du[m]), dv[m], Fv);
        jo[m] = cc_lv3_axpy(cc_lv3_scale(JU, du[m]), dv[m], JV);
        chk += fo[m].x + fo[m].y + fo[m].z + jo[m].x + jo[m].y + jo[m].z;
    }
    /* the pairs (0,0), (0,1), (1,1) formed; sum_m dw_m = 0 (translation invariance) gives
     * E_02 = -(E_00 + E_01), E_12 = -(E_01^T + E_11), E_22 = -(E_02^T + E_12^T) */
    pqr_block(&M, du[0], dv[0], du[0], dv[0], E[0]);
    pqr_block(&M, du[0], dv[0], du[1], dv[1], E[1]);
    pqr_block(&M, du[1], dv[1], du[1], dv[1], E[3]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            E[2][3 * i + j] = -(E[0][3 * i + j] + E[1][3 * i + j]);
            E[4][3 * i + j] = -(E[1][3 * j + i] + E[3][3 * i + j]);
        }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) E[5][3 * i + j] = -(E[2][3 * j + i] + E[4][3 * j + i]);
    for (int q = 0; q < 6; q++)
        for (int r = 0; r < 9; r++) part[r] += E[q][r];
    for (int r = 0; r < 9; r++) chk += part[r];
    for (int l = 0; l < live; l++)
        if (!isfinite(chk[l])) return *nonfinite = 1, e0 + l;
    for (int l = 0; l < live; l++) {
        int e = e0 + l;
        const int *vid = t->elem + 3 * e, *slot = t->slot + 9 * e;
        for (int m = 0, q = 0; m < 3; m++) {
            double *fm = f + 3 * vid[m], *jm = jdx + 3 * vid[m];
            fm[0] += fo[m].x[l], fm[1] += fo[m].y[l], fm[2] += fo[m].z[l];
            jm[0] += jo[m].x[l], jm[1] += jo[m].y[l], jm[2] += jo[m].z[l];
            for (int n = m; n < 3; n++, q++) cc_ln_scatter_lower(A, vid, slot, 3, m, n, E[q], l);
        }
        if (st) {
            st->C[2 * e] = Cu[l], st->C[2 * e + 1] = Cv[l];
            st->energy[e] = 0.5 * st->k * (Cu[l] * Cu[l] + Cv[l] * Cv[l]);
        }
        if (sh) {
            sh->C[e] = Cs[l];
            sh->energy[e] = 0.5 * sh->k * Cs[l] * Cs[l];
        }
    }
    return -1;
}

int cc_kernel_pack_triangles(cc_term *t)
{
    free(t->kdata);
    if (!(t->kdata = malloc(((size_t)t->nel * CC_KTRI + 1) * sizeof *t->kdata))) return -1;
    for (int e = 0; e < t->nel; e++) {
        const cc_rest *r = &t->rest[e];
        double *k = t->kdata + CC_KTRI * e;
        for (int m = 0; m < 3; m++) k[m] = r->dwu[m], k[3 + m] = r->dwv[m];
        k[6] = r->alpha, k[7] = r->bu, k[8] = r->bv;
    }
    return 0;
}

int cc_kernel_triangles(cc_sim *s, cc_term *st, int st_hess, cc_term *sh, int sh_hess, int b0, int b1,
                        const double *x, const double *v, double cx, double cv, const double *dx, double *f,
                        double *jdx, cc_term **bad_term, int *bad, const char **why)
{
    const cc_term *t = st ? st : sh;
    for (int e0 = CC_LANES * b0; e0 < t->nel && e0 < CC_LANES * b1; e0 += CC_LANES) {
        int live = t->nel - e0 < CC_LANES ? t->nel - e0 : CC_LANES, nonfinite = 0;
        int e = tri_batch(st, st_hess, sh, sh_hess, e0, live, x, v, dx, cx, cv, s->A->val, f, jdx, &nonfinite);
        if (e < 0) continue;
        *bad_term = nonfinite || !st ? (st ? st : sh) : st;
        *bad = e;
        *why = nonfinite ? "non-finite force or Jacobian" : "the condition is undefined here (degenerate element)";
        return -1;
    }
    return 0;
}
