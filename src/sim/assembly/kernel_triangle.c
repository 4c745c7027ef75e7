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
 * A (a = -cx k - cv kd, b = cx w'), where w = -k C - kd Cdot (001 (58), Cdot = dC . v) and
 * w' = w, or 0 where the term's *_hessian mode drops C d2C. Then f_m = dwu_m F_u + dwv_m F_v
 * with F_u = w_u alpha w^_u + w_s beta w_v (and v likewise), and
 * (Jx dx)_m = dwu_m (P dU + R dV) + dwv_m (Q dV + R^T dU) with dU = sum_n dwu_n dx_n,
 * dV = sum_n dwv_n dx_n, and P, Q, R those of Jx (a = -k, b = w'), applied term by term
 * (P dU = b_u alpha/|w_u| dU + (a_u alpha^2 - b_u alpha/|w_u|) (w^_u . dU) w^_u + ..., dots
 * and vectors: Jx's matrices are never formed). Since sum_m dwu_m = sum_m dwv_m = 0, the blocks
 * of a row sum to zero, and three of the six are formed from the other three; the diagonal
 * ones (symmetric: P, Q are) on their lower triangle, mirrored. A batch is checked for NaN/inf
 * on f, Jx dx, E_02, E_12 and E_22 alone (their sums hold every entry of the other blocks);
 * then the six blocks go to the lower triangle of A lane-major, block by block straight from
 * E, as in kernel_bend.c: per block two 4 x 4 lane transposes (E^T first where the lane's
 * vertex order asks for it), then per triangle two 4-double additions and one scalar
 * (scatter_blocks, cc_ln_scatter_block). A batch is gathered by whole lane vectors, and its
 * state is not zeroed as a whole (only what an absent term would set).
 * test_sim_kernels compares the kernel with the condition-contract path of assemble.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim/assembly/lanes.h"
#include "sim/assembly/sim_internal.h"

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

/* entry (i, j) of dwu_m^2 P + dwv_m^2 Q + dwu_m dwv_m (R + R^T) (uu = dwu_m^2, ...) */
static inline cc_ln pqr_diag_entry(const tri_pqr *M, cc_ln uu, cc_ln vv, cc_ln uv, int i, int j)
{
    return uu * M->P[3 * i + j] + vv * M->Q[3 * i + j] + uv * M->R[3 * i + j] + uv * M->R[3 * j + i];
}

/* out = pqr_block for m = n: symmetric (P, Q are), formed on its lower triangle and mirrored */
static inline void pqr_diag(const tri_pqr *M, cc_ln um, cc_ln vm, cc_ln out[9])
{
    cc_ln uu = um * um, vv = vm * vm, uv = um * vm;
    out[0] = pqr_diag_entry(M, uu, vv, uv, 0, 0);
    out[3] = out[1] = pqr_diag_entry(M, uu, vv, uv, 1, 0);
    out[4] = pqr_diag_entry(M, uu, vv, uv, 1, 1);
    out[6] = out[2] = pqr_diag_entry(M, uu, vv, uv, 2, 0);
    out[7] = out[5] = pqr_diag_entry(M, uu, vv, uv, 2, 1);
    out[8] = pqr_diag_entry(M, uu, vv, uv, 2, 2);
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

/* one batch of triangles: rest data, the w-combinations of positions, velocities and dx, and
 * what the two terms add (the banner's P, Q, R for Jx and A, F_u and F_v) */
typedef struct tri_ln {
    cc_ln du[3], dv[3];            /* dwu_m, dwv_m */
    cc_ln al, be, bu, bv;          /* alpha (stretch), beta (shear), b_u, b_v */
    cc_lv3 wu, wv, vu, vv, dU, dV; /* sum_m dw_m x_m, ... v_m, ... dx_m for u and v */
    tri_pqr M;                     /* A's */
    cc_lv3 JU, JV;                 /* P dU + R dV, Q dV + R^T dU of Jx */
    cc_lv3 Fu, Fv;                 /* f_m = dwu_m F_u + dwv_m F_v */
    cc_ln Cu, Cv, Cs;              /* C of stretch (u, v) and shear */
} tri_ln;

/* a[0..3] */
static inline cc_ln load4(const double *a)
{
    cc_ln t;
    memcpy(&t, a, sizeof t);
    return t;
}

/* the 3-vectors in a (3 doubles a vertex) of vertex m of the four lanes' elements vid[l] */
static inline cc_lv3 lane_vertex(const double *a, const int *const vid[4], int m)
{
    const double *p0 = a + 3 * vid[0][m], *p1 = a + 3 * vid[1][m], *p2 = a + 3 * vid[2][m], *p3 = a + 3 * vid[3][m];
    return (cc_lv3){{p0[0], p1[0], p2[0], p3[0]}, {p0[1], p1[1], p2[1], p3[1]}, {p0[2], p1[2], p2[2], p3[2]}};
}

/* T's rest data and w-combinations for the triangles e0 .. e0 + live - 1 of t (dead lanes
 * repeat the last live triangle); sh gives beta (else 0). The rest of T is left to the terms
 * (tri_batch zeroes what an absent term would have set) */
static void tri_gather(const cc_term *t, const cc_term *sh, int e0, int live, const double *x, const double *v,
                       const double *dx, tri_ln *T)
{
    _Static_assert(CC_LANES == 4, "tri_gather is written for four lanes");
    const int *vid[CC_LANES];   /* the lanes' vertices and rest data */
    const double *r[CC_LANES];
    int e[CC_LANES];
    for (int l = 0; l < CC_LANES; l++) {
        e[l] = e0 + (l < live ? l : live - 1);
        vid[l] = t->elem + 3 * e[l];
        r[l] = t->kdata + CC_KTRI * e[l];
    }
    cc_ln R[CC_LANES];   /* r[l][0..3], then r[l][4..7], as lanes */
    cc_ln_transpose4(load4(r[0]), load4(r[1]), load4(r[2]), load4(r[3]), R);
    T->du[0] = R[0], T->du[1] = R[1], T->du[2] = R[2], T->dv[0] = R[3];
    cc_ln_transpose4(load4(r[0] + 4), load4(r[1] + 4), load4(r[2] + 4), load4(r[3] + 4), R);
    T->dv[1] = R[0], T->dv[2] = R[1], T->al = R[2], T->bu = R[3];
    T->bv = (cc_ln){r[0][8], r[1][8], r[2][8], r[3][8]};
    T->be = cc_ln_set(0.0);
    if (sh) {
        const double *b = sh->kdata + 6;
        T->be = (cc_ln){b[CC_KTRI * e[0]], b[CC_KTRI * e[1]], b[CC_KTRI * e[2]], b[CC_KTRI * e[3]]};
    }
    cc_lv3 X[3], V[3], D[3];
    for (int m = 0; m < 3; m++) {
        X[m] = lane_vertex(x, vid, m);
        V[m] = lane_vertex(v, vid, m);
        D[m] = lane_vertex(dx, vid, m);
    }
    T->wu = combine(T->du, X), T->wv = combine(T->dv, X);
    T->vu = combine(T->du, V), T->vv = combine(T->dv, V);
    T->dU = combine(T->du, D), T->dV = combine(T->dv, D);
}

/* stretch/bw98 (001 (13)-(15)) with stiffness k, damping kd into T; the first live lane where
 * |w_u| or |w_v| is not > 0 (stretch_bw98.c: w^ undefined), or -1 */
static int stretch_add(tri_ln *T, double k, double kd, int hess, double cx, double cv, int live)
{
    cc_ln al = T->al, gg = cc_ln_set(-cx * k - cv * kd), a2 = al * al;
    cc_ln lu = cc_ln_sqrt(cc_lv3_dot(T->wu, T->wu)), lv = cc_ln_sqrt(cc_lv3_dot(T->wv, T->wv));
    cc_lm ok = (lu > 0) & (lv > 0);   /* dead lanes repeat a live one */
    if (!(ok[0] & ok[1] & ok[2] & ok[3]))
        for (int l = 0; l < live; l++)
            if (!ok[l]) return l;
    cc_lv3 uh = cc_lv3_scale(T->wu, 1.0 / lu), vh = cc_lv3_scale(T->wv, 1.0 / lv);
    T->Cu = al * (lu - T->bu);
    T->Cv = al * (lv - T->bv);
    cc_ln wcu = -k * T->Cu - kd * al * cc_lv3_dot(uh, T->vu), wcv = -k * T->Cv - kd * al * cc_lv3_dot(vh, T->vv);
    cc_ln hu = curvature_weight(hess, wcu) * al / lu, hv = curvature_weight(hess, wcv) * al / lv;
    T->JU = cc_lv3_axpy(cc_lv3_scale(T->dU, hu), (-k * a2 - hu) * cc_lv3_dot(uh, T->dU), uh);   /* P dU, Q dV */
    T->JV = cc_lv3_axpy(cc_lv3_scale(T->dV, hv), (-k * a2 - hv) * cc_lv3_dot(vh, T->dV), vh);
    stretch_part(T->M.P, uh, gg * a2, cx * hu);
    stretch_part(T->M.Q, vh, gg * a2, cx * hv);
    T->Fu = cc_lv3_scale(uh, wcu * al);
    T->Fv = cc_lv3_scale(vh, wcv * al);
    return -1;
}

/* M = u v^T */
static void outer_set(cc_ln M[9], cc_lv3 u, cc_lv3 v)
{
    M[0] = u.x * v.x, M[1] = u.x * v.y, M[2] = u.x * v.z;
    M[3] = u.y * v.x, M[4] = u.y * v.y, M[5] = u.y * v.z;
    M[6] = u.z * v.x, M[7] = u.z * v.y, M[8] = u.z * v.z;
}

/* shear/bw98 (001 (19)-(23)) with stiffness k, damping kd added into T (P, Q, JU, JV, F_u, F_v
 * as stretch_add or tri_batch left them; R set) */
static void shear_add(tri_ln *T, double k, double kd, int hess, double cx, double cv)
{
    cc_ln be = T->be, b2 = be * be, ja = -k * b2, ma = (-cx * k - cv * kd) * b2;
    T->Cs = be * cc_lv3_dot(T->wu, T->wv);
    cc_ln ws = -k * T->Cs - kd * be * (cc_lv3_dot(T->wv, T->vu) + cc_lv3_dot(T->wu, T->vv));
    cc_ln hs = curvature_weight(hess, ws) * be;
    cc_ln x = ja * (cc_lv3_dot(T->wv, T->dU) + cc_lv3_dot(T->wu, T->dV));   /* shear's P dU + R dV: */
    T->JU = cc_lv3_axpy(cc_lv3_axpy(T->JU, hs, T->dV), x, T->wv);           /* ja wv (wv.dU + wu.dV) + hs dV */
    T->JV = cc_lv3_axpy(cc_lv3_axpy(T->JV, hs, T->dU), x, T->wu);
    cc_lm3_outer(T->M.P, cc_lv3_scale(T->wv, ma), T->wv);
    cc_lm3_outer(T->M.Q, cc_lv3_scale(T->wu, ma), T->wu);
    outer_set(T->M.R, cc_lv3_scale(T->wv, ma), T->wu);
    for (int i = 0; i < 3; i++) T->M.R[4 * i] += cx * hs;
    T->Fu = cc_lv3_axpy(T->Fu, ws * be, T->wv);
    T->Fv = cc_lv3_axpy(T->Fv, ws * be, T->wu);
}

/* fo_m = f_m, jo_m = (Jx dx)_m and the blocks E of A for the pairs (0,0), (0,1), (0,2),
 * (1,1), (1,2), (2,2); returns a sum that is finite only if all of them are, for one NaN/inf
 * test */
static cc_ln tri_blocks(const tri_ln *T, cc_lv3 fo[3], cc_lv3 jo[3], cc_ln E[6][9])
{
    const cc_ln *du = T->du, *dv = T->dv;
    /* (Jx dx)_m = dwu_m (P dU + R dV) + dwv_m (Q dV + R^T dU) */
    cc_lv3 JU = T->JU, JV = T->JV;
    cc_ln chk = cc_ln_set(0.0);
    for (int m = 0; m < 3; m++) {
        fo[m] = cc_lv3_axpy(cc_lv3_scale(T->Fu, du[m]), dv[m], T->Fv);
        jo[m] = cc_lv3_axpy(cc_lv3_scale(JU, du[m]), dv[m], JV);
        chk += fo[m].x + fo[m].y + fo[m].z + jo[m].x + jo[m].y + jo[m].z;
    }
    /* the pairs (0,0), (0,1), (1,1) formed; sum_m dw_m = 0 (translation invariance) gives
     * E_02 = -(E_00 + E_01), E_12 = -(E_01^T + E_11), E_22 = -(E_02^T + E_12^T); the
     * diagonal blocks on their lower triangle, mirrored */
    pqr_diag(&T->M, du[0], dv[0], E[0]);
    pqr_block(&T->M, du[0], dv[0], du[1], dv[1], E[1]);
    pqr_diag(&T->M, du[1], dv[1], E[3]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            E[2][3 * i + j] = -(E[0][3 * i + j] + E[1][3 * i + j]);
            E[4][3 * i + j] = -(E[1][3 * j + i] + E[3][3 * i + j]);
        }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j <= i; j++) E[5][3 * j + i] = E[5][3 * i + j] = -(E[2][3 * j + i] + E[4][3 * j + i]);
    /* E_02 holds every entry of E_00 and E_01 in one of its sums, E_12 every entry of E_11,
     * and E_22 is the sum of those two: so the blocks are finite if E_02, E_12 and E_22's
     * lower triangle are */
    cc_ln c2 = ((E[2][0] + E[2][1]) + (E[2][2] + E[2][3])) + ((E[2][4] + E[2][5]) + (E[2][6] + E[2][7])) + E[2][8];
    cc_ln c4 = ((E[4][0] + E[4][1]) + (E[4][2] + E[4][3])) + ((E[4][4] + E[4][5]) + (E[4][6] + E[4][7])) + E[4][8];
    cc_ln c5 = ((E[5][0] + E[5][3]) + (E[5][4] + E[5][6])) + (E[5][7] + E[5][8]);
    return chk + ((c2 + c4) + c5);
}

/* the blocks E (pairs (0,0), (0,1), (0,2), (1,1), (1,2), (2,2)) of the live lanes of the
 * triangles vid (3 vertices each) into A, block by block straight from E
 * (cc_ln_scatter_block; slot: the batch's slots, 9 a triangle) */
static inline __attribute__((always_inline)) void scatter_blocks(double *A, const int *slot, const int *vid, int live,
                                                                 const cc_ln E[6][9])
{
    cc_lm V[3];   /* V[m][l] = vertex m of lane l */
    cc_ln_lane_vertices(vid, 3, live, V);
    cc_ln_scatter_block(A, slot, 3, E[0], V, 0, 0, live);
    cc_ln_scatter_block(A, slot, 3, E[1], V, 0, 1, live);
    cc_ln_scatter_block(A, slot, 3, E[2], V, 0, 2, live);
    cc_ln_scatter_block(A, slot, 3, E[3], V, 1, 1, live);
    cc_ln_scatter_block(A, slot, 3, E[4], V, 1, 2, live);
    cc_ln_scatter_block(A, slot, 3, E[5], V, 2, 2, live);
}

/* the stretch and shear of one batch; the element index where C is undefined or the result
 * not finite (*nonfinite = 1), or -1 */
static int tri_batch(cc_term *st, int st_hess, cc_term *sh, int sh_hess, int e0, int live, const double *x,
                     const double *v, const double *dx, double cx, double cv, double *A, double *f, double *jdx,
                     int *nonfinite)
{
    const cc_term *t = st ? st : sh;
    tri_ln T;
    cc_lv3 fo[3], jo[3];
    cc_ln E[6][9];
    tri_gather(t, sh, e0, live, x, v, dx, &T);
    if (st) {
        int l = stretch_add(&T, st->k, st->kd, st_hess, cx, cv, live);
        if (l >= 0) return e0 + l;
    } else {
        memset(&T.M.P, 0, sizeof T.M.P), memset(&T.M.Q, 0, sizeof T.M.Q);
        T.JU = T.JV = T.Fu = T.Fv = cc_lv3_zero();
    }
    if (sh) shear_add(&T, sh->k, sh->kd, sh_hess, cx, cv);
    else memset(&T.M.R, 0, sizeof T.M.R);
    cc_ln chk = tri_blocks(&T, fo, jo, E);
    cc_lm fin = chk - chk == 0;   /* isfinite, lane-wise */
    if (!(fin[0] & fin[1] & fin[2] & fin[3]))
        for (int l = 0; l < live; l++)
            if (!isfinite(chk[l])) return *nonfinite = 1, e0 + l;
    if (live == CC_LANES) scatter_blocks(A, t->slot + 9 * e0, t->elem + 3 * e0, CC_LANES, (const cc_ln(*)[9])E);
    else scatter_blocks(A, t->slot + 9 * e0, t->elem + 3 * e0, live, (const cc_ln(*)[9])E);
    cc_lv3_add_lanes(f, t->elem + 3 * e0, 3, fo, live);
    cc_lv3_add_lanes(jdx, t->elem + 3 * e0, 3, jo, live);
    if (live == CC_LANES) {   /* C and energy of a full batch by whole lanes */
        if (st) {
            cc_ln Cuv[2] = {CC_LN_SHUFFLE(T.Cu, T.Cv, 0, 4, 1, 5), CC_LN_SHUFFLE(T.Cu, T.Cv, 2, 6, 3, 7)};
            cc_ln en = 0.5 * st->k * (T.Cu * T.Cu + T.Cv * T.Cv);
            memcpy(st->C + 2 * e0, Cuv, sizeof Cuv);
            memcpy(st->energy + e0, &en, sizeof en);
        }
        if (sh) {
            cc_ln en = 0.5 * sh->k * T.Cs * T.Cs;
            memcpy(sh->C + e0, &T.Cs, sizeof T.Cs);
            memcpy(sh->energy + e0, &en, sizeof en);
        }
        return -1;
    }
    for (int l = 0; l < live; l++) {
        int e = e0 + l;
        if (st) {
            st->C[2 * e] = T.Cu[l], st->C[2 * e + 1] = T.Cv[l];
            st->energy[e] = 0.5 * st->k * (T.Cu[l] * T.Cu[l] + T.Cv[l] * T.Cv[l]);
        }
        if (sh) {
            sh->C[e] = T.Cs[l];
            sh->energy[e] = 0.5 * sh->k * T.Cs[l] * T.Cs[l];
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
                        const cc_assembly *a, cc_term **bad_term, int *bad, const char **why)
{
    const double *x = a->x, *v = a->v, *dx = a->dx;
    double cx = a->cx, cv = a->cv, *f = a->f, *jdx = a->jdx;
    const cc_term *t = st ? st : sh;
    for (int e0 = CC_LANES * b0; e0 < t->nel && e0 < CC_LANES * b1; e0 += CC_LANES) {
        int live = t->nel - e0 < CC_LANES ? t->nel - e0 : CC_LANES, nonfinite = 0;
        int e = tri_batch(st, st_hess, sh, sh_hess, e0, live, x, v, dx, cx, cv, s->A->val, f, jdx, &nonfinite);
        if (e < 0) continue;
        *bad_term = st ? st : sh;
        *bad = e;
        *why = nonfinite ? "non-finite force or Jacobian" : "the condition is undefined here (degenerate element)";
        return -1;
    }
    return 0;
}
