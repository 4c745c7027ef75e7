/* Assembly: total force, the system matrix A = cm M + cx df/dx + cv df/dv and the product
 * df/dx dx, in one pass over the elements of every term (Baraff & Witkin 1998 Section 5). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "conditions/variants.h"
#include "sim/algebra/multigrid.h"
#include "sim/assembly/sim_internal.h"

enum { KERNEL_NONE, KERNEL_TRIANGLE, KERNEL_BEND, KERNEL_HINGE };

/* the structured kernel (kernel_*.c) written for term t's variant, or KERNEL_NONE */
static int kernel_of(const cc_term *t)
{
    if ((t->kind == TERM_STRETCH && t->cond == &cc_stretch_bw98) || (t->kind == TERM_SHEAR && t->cond == &cc_shear_bw98))
        return KERNEL_TRIANGLE;
    if (t->kind == TERM_BEND && t->cond == &cc_bend_pritchard) return KERNEL_BEND;
    return cc_kernel_hinge_has(t) ? KERNEL_HINGE : KERNEL_NONE;
}

/* the bend kernel of term t over its batches b0 .. b1 - 1 */
static int bend_kernel(cc_sim *s, cc_term *t, int hess, int b0, int b1, const double *x, const double *v, double cx,
                       double cv, const double *dx, double *f, double *jdx, int *bad, const char **why)
{
    if (kernel_of(t) == KERNEL_BEND) return cc_kernel_bend_pritchard(s, t, hess, b0, b1, x, v, cx, cv, dx, f, jdx, bad, why);
    return cc_kernel_hinge(s, t, hess, b0, b1, x, v, cx, cv, dx, f, jdx, bad, why);
}

/* t->nbatch, bmax and smin (sim_internal.h) for the sweep of assemble_sweep; 0 or -1 */
static int batch_bounds(cc_term *t, int n)
{
    int nb = t->nbatch = (t->nel + CC_LANES - 1) / CC_LANES;
    free(t->bmax);
    free(t->smin);
    t->bmax = malloc(((size_t)nb + 1) * sizeof *t->bmax);
    t->smin = malloc(((size_t)nb + 1) * sizeof *t->smin);
    if (!t->bmax || !t->smin) return -1;
    t->smin[nb] = n;
    for (int b = nb - 1; b >= 0; b--) {
        int lo = n, hi = -1;
        for (int a = CC_LANES * b * t->nv; a < CC_LANES * (b + 1) * t->nv && a < t->nel * t->nv; a++) {
            if (t->elem[a] < lo) lo = t->elem[a];
            if (t->elem[a] > hi) hi = t->elem[a];
        }
        t->bmax[b] = hi;
        t->smin[b] = lo < t->smin[b + 1] ? lo : t->smin[b + 1];
    }
    return 0;
}

/* the BSR pattern of all terms and where every element's blocks lie in A->val (the vpos of
 * their slots), built once */
int cc_sim_pattern(cc_sim *s)
{
    if (s->A) return 0;
    int n = s->nterm;
    const int **elems = calloc((size_t)n + 1, sizeof *elems);
    int *nel = calloc((size_t)n + 1, sizeof *nel), *k = calloc((size_t)n + 1, sizeof *k);
    if (elems && nel && k) {
        for (int t = 0; t < n; t++) {
            elems[t] = s->term[t].elem;
            nel[t] = s->term[t].nel;
            k[t] = s->term[t].nv;
        }
        s->A = cc_bsr_pattern(s->nv, n, elems, nel, k);
        int np = 0;   /* the primary lists: elements of at most three vertices, the mesh's edges */
        for (int t = 0; t < n; t++)
            if (s->term[t].nv <= 3) elems[np] = s->term[t].elem, nel[np] = s->term[t].nel, k[np++] = s->term[t].nv;
        /* what only hinges couple (their wing vertices) is minor to the multigrid's smoother */
        if (s->A && cc_bsr_mark_minor(s->A, np, elems, nel, k) < 0) cc_bsr_free(s->A), s->A = NULL;
    }
    free(elems);
    free(nel);
    free(k);
    for (int t = 0; t < n && s->A; t++) {
        cc_term *tm = &s->term[t];
        int nv = tm->nv, kernel = kernel_of(tm), pack = 0;
        if (kernel == KERNEL_TRIANGLE) pack = cc_kernel_pack_triangles(tm);
        else if (kernel == KERNEL_BEND) pack = cc_kernel_pack_bend(tm);
        else if (kernel == KERNEL_HINGE) pack = cc_kernel_pack_hinge(tm);
        if (pack == 0) pack = batch_bounds(tm, s->nv);
        free(tm->slot);
        tm->slot = malloc(((size_t)tm->nel * nv * nv + 1) * sizeof *tm->slot);
        if (!tm->slot || pack < 0) {
            cc_bsr_free(s->A);
            s->A = NULL;
            break;
        }
        for (int e = 0; e < tm->nel; e++)
            for (int a = 0; a < nv; a++)
                for (int b = 0; b < nv; b++)
                    tm->slot[(e * nv + a) * nv + b] = s->A->vpos[cc_bsr_slot(s->A, tm->elem[e * nv + a], tm->elem[e * nv + b])];
    }
    if (!s->A) return snprintf(s->err, CC_ERRLEN, "out of memory for the system matrix"), -1;
    return 0;
}

/* the element's vertices as "a b c" for messages */
static void elem_vertices(const cc_term *t, int e, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int a = 0; a < t->nv && len < cap; a++)
        len += (size_t)snprintf(buf + len, cap - len, a ? " %d" : "%d", t->elem[e * t->nv + a]);
}

/* s->err = "step N: <term> element e (vertices ...): why" */
static int element_fault(cc_sim *s, const cc_term *t, int e, const char *why)
{
    char vs[64];
    elem_vertices(t, e, vs, sizeof vs);
    snprintf(s->err, CC_ERRLEN, "step %ld: %s element %d (vertices %s): %s", s->st.steps + 1, t->name, e, vs, why);
    s->fault = 1;
    return -1;
}

/* C, dC (and d2C when want asks) of element e at its positions xe; 0, or -1 */
static int eval_element(const cc_term *t, int e, const double *xe, int want, cc_eval *ev)
{
    ev->ncomp = t->ncomp;
    ev->ndof = 3 * t->nv;
    int got = t->cond ? t->cond->eval(xe, &t->rest[e], want, ev) : t->user.eval(t->user.ctx, e, xe, want, ev);
    if (got < 0 || (got & want) != want || ev->ncomp != t->ncomp || ev->ndof != 3 * t->nv) return -1;
    return 0;
}

/* sum of |entries| of f and the Jacobians, to test them for NaN/inf in one number */
static double element_norm(const cc_elem_force *o, int jac)
{
    double s = 0;
    for (int a = 0; a < o->ndof; a++) {
        s += fabs(o->f[a]);
        if (jac)
            for (int b = 0; b < o->ndof; b++) s += fabs(o->Jx[a][b]) + fabs(o->Jv[a][b]);
    }
    return s;
}

/* A blocks of one element: A_ab += cx Jx_ab + cv Jv_ab */
static void scatter_blocks(cc_bsr *A, const int *slot, int nv, const cc_elem_force *o, double cx, double cv)
{
    for (int a = 0; a < nv; a++)
        for (int b = 0; b < nv; b++) {
            double *blk = A->val + 9 * slot[a * nv + b];
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    blk[3 * i + j] += cx * o->Jx[3 * a + i][3 * b + j] + cv * o->Jv[3 * a + i][3 * b + j];
        }
}

/* The fused backward Euler kernel for summed damping without projection: with
 * w_c = -k C_c - kd Cdot_c, Jx = sum_c (-k g_c g_c^T + w_c sym(H_c)), Jv = -kd sum_c g_c g_c^T,
 * it adds f += sum_c w_c g_c, jdx += Jx dx and A += cx Jx + cv Jv in one pass over the
 * element's upper 3x3 blocks (a <= b), without forming Jx and Jv (the same numbers as
 * cc_elem_forces up to the order of additions). Returns a sum of everything added, for one
 * NaN/inf test. */
static inline double fused_nc(const cc_eval *ev, const int *vid, const int *slot, int nv, int nc,
                              const double *ve, double k, double kd, double cx, double cv,
                              const double *dx, double *f, double *jdx, double *val, double *energy)
{
    int n = 3 * nv;
    double w[CC_MAX_COMP], gd[CC_MAX_COMP], dxe[CC_MAX_DOF], je[CC_MAX_DOF] = {0};
    double check = 0, gg = -cx * k - cv * kd;
    *energy = 0;
    for (int a = 0; a < n; a++) dxe[a] = dx ? dx[3 * vid[a / 3] + a % 3] : 0.0;
    for (int c = 0; c < nc; c++) {
        const double *g = ev->dC[c];
        double cd = 0;
        gd[c] = 0;
        for (int a = 0; a < n; a++) {
            cd += g[a] * ve[a];
            gd[c] += g[a] * dxe[a];
        }
        w[c] = -k * ev->C[c] - kd * cd;
        *energy += 0.5 * k * ev->C[c] * ev->C[c];
    }
    for (int a = 0; a < nv; a++)
        for (int b = a; b < nv; b++) {   /* block (a, b) of Jx and A; (b, a) is its transpose */
            double J[9], E[9];
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) {
                    int I = 3 * a + i, K = 3 * b + j;
                    double jx = 0, outer = 0;
                    for (int c = 0; c < nc; c++) {
                        jx += w[c] * 0.5 * (ev->d2C[c][I][K] + ev->d2C[c][K][I]);
                        outer += ev->dC[c][I] * ev->dC[c][K];
                    }
                    J[3 * i + j] = jx;
                    E[3 * i + j] = cx * jx + gg * outer;
                }
            double *ab = val + 9 * slot[a * nv + b];
            for (int q = 0; q < 9; q++) ab[q] += E[q], check += E[q];
            for (int i = 0; i < 3; i++)
                je[3 * a + i] += J[3 * i] * dxe[3 * b] + J[3 * i + 1] * dxe[3 * b + 1] + J[3 * i + 2] * dxe[3 * b + 2];
            if (b == a) continue;
            double *ba = val + 9 * slot[b * nv + a];
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) ba[3 * j + i] += E[3 * i + j];
            for (int j = 0; j < 3; j++)
                je[3 * b + j] += J[j] * dxe[3 * a] + J[3 + j] * dxe[3 * a + 1] + J[6 + j] * dxe[3 * a + 2];
        }
    for (int a = 0; a < n; a++) {
        double fa = 0;
        for (int c = 0; c < nc; c++) {
            fa += w[c] * ev->dC[c][a];
            je[a] -= k * ev->dC[c][a] * gd[c];
        }
        f[3 * vid[a / 3] + a % 3] += fa;
        if (jdx) jdx[3 * vid[a / 3] + a % 3] += je[a];
        check += fa + je[a];
    }
    return check;
}

/* the kernel with the component count fixed, so the compiler can unroll it */
static double fused_element(const cc_eval *ev, const int *vid, const int *slot, int nv, const double *ve,
                            double k, double kd, double cx, double cv, const double *dx, double *f,
                            double *jdx, double *val, double *energy)
{
    if (ev->ncomp == 1) return fused_nc(ev, vid, slot, nv, 1, ve, k, kd, cx, cv, dx, f, jdx, val, energy);
    if (ev->ncomp == 2) return fused_nc(ev, vid, slot, nv, 2, ve, k, kd, cx, cv, dx, f, jdx, val, energy);
    return fused_nc(ev, vid, slot, nv, 3, ve, k, kd, cx, cv, dx, f, jdx, val, energy);
}

/* one term's elements: forces into f, blocks into A, df/dx dx into jdx */
static int assemble_term(cc_sim *s, cc_term *t, const double *x, const double *v, int mat, double cx,
                         double cv, const double *dx, double *f, double *jdx)
{
    if (t->kind == TERM_BEND_FORCE) {   /* a force model, not a condition: bend_force.c */
        int bad = 0;
        const char *why = "";
        if (cc_bend_force_term(s, t, x, v, mat, cx, cv, dx, f, jdx, &bad, &why) < 0)
            return element_fault(s, t, bad, why);
        return 0;
    }
    int nv = t->nv, n = 3 * nv, jac = mat || jdx;
    int want = jac ? CC_WANT_ALL : (CC_WANT_VALUE | CC_WANT_GRAD);
    int hess = cc_term_hessian(s, t);   /* full unless a *_hessian parameter or psd_project (hessian.c) */
    int fused = mat && s->p.damping == 0 && hess != CC_HESSIAN_PROJECT;
    cc_eval ev;
    cc_elem_force o;
    double xe[CC_MAX_DOF], ve[CC_MAX_DOF];
    for (int e = 0; e < t->nel; e++) {
        const int *vid = t->elem + e * nv;
        for (int a = 0; a < nv; a++)
            for (int k = 0; k < 3; k++) {
                xe[3 * a + k] = x[3 * vid[a] + k];
                ve[3 * a + k] = v[3 * vid[a] + k];
            }
        if (eval_element(t, e, xe, want, &ev) < 0)
            return element_fault(s, t, e, "the condition is undefined here (degenerate element)");
        if (jac && hess != CC_HESSIAN_FULL) cc_hessian_apply(hess, &ev, ve, t->k, t->kd);
        if (fused) {
            double chk = fused_element(&ev, vid, t->slot + e * nv * nv, nv, ve, t->k, t->kd, cx, cv, dx, f,
                                       jdx, s->A->val, &t->energy[e]);
            if (!isfinite(chk)) return element_fault(s, t, e, "non-finite force or Jacobian");
            for (int c = 0; c < t->ncomp; c++) t->C[e * t->ncomp + c] = ev.C[c];
            continue;
        }
        cc_elem_forces(&ev, ve, t->k, t->kd, s->p.damping, jac, &o);
        if (jac && hess == CC_HESSIAN_PROJECT) {
            double H[CC_MAX_DOF][CC_MAX_DOF];
            for (int a = 0; a < n; a++)
                for (int b = 0; b < n; b++) H[a][b] = -o.Jx[a][b];
            cc_psd_project(H, n);
            for (int a = 0; a < n; a++)
                for (int b = 0; b < n; b++) o.Jx[a][b] = -H[a][b];
        }
        if (!isfinite(element_norm(&o, jac))) return element_fault(s, t, e, "non-finite force or Jacobian");
        t->energy[e] = o.energy;
        for (int c = 0; c < t->ncomp; c++) t->C[e * t->ncomp + c] = ev.C[c];
        for (int a = 0; a < n; a++) f[3 * vid[a / 3] + a % 3] += o.f[a];
        if (jdx)
            for (int a = 0; a < n; a++) {
                double sum = 0;
                for (int b = 0; b < n; b++) sum += o.Jx[a][b] * dx[3 * vid[b / 3] + b % 3];
                jdx[3 * vid[a / 3] + a % 3] += sum;
            }
        if (mat) scatter_blocks(s->A, t->slot + e * nv * nv, nv, &o, cx, cv);
    }
    return 0;
}

/* the structured kernel (kernel_*.c) that assembles term t, or KERNEL_NONE: backward Euler
 * assembly (mat and dx) with summed damping, a mode other than project, and a variant that
 * has one */
static int term_kernel(const cc_sim *s, const cc_term *t, int mat, const double *dx)
{
    if (!s->p.kernels || !mat || !dx || s->p.damping != 0 || cc_term_hessian(s, t) == CC_HESSIAN_PROJECT)
        return KERNEL_NONE;
    return kernel_of(t);
}

/* the lower and diagonal blocks of rows from <= i < to of A = 0 but the diagonal blocks =
 * (cm m_i - cv k_a A_i) I, the mass and air drag parts of A; the upper blocks are left as
 * they are (stale until cc_bsr_fill_upper: A->lower) */
static void init_rows(cc_sim *s, double cm, double cv, int from, int to)
{
    cc_bsr *A = s->A;
    if (from >= to) return;
    double *lo = cc_bsr_block(A, A->rowptr[from]), *hi = cc_bsr_block(A, A->diag[to - 1]) + 9;
    memset(lo, 0, (size_t)(hi - lo) * sizeof *lo);   /* their lower triangles lie in one run (bsr.h) */
    for (int i = from; i < to; i++) {
        double *d = cc_bsr_block(A, A->diag[i]), md = cm * s->m[i] - cv * s->p.air_drag * s->area[i];
        d[0] = d[4] = d[8] = md;
    }
}

#define CC_SWEEP_CHUNK 64   /* batches per kernel call in assemble_sweep (16: 132x132 assembly 12.8 ms, 64-1024: 11.6-12.0) */

/* A (with f and jdx) from the kernels alone, in one sweep over its rows: batches of the
 * triangle kernel (st, sh) and of the bend kernel (hg) are taken in the order of their lowest
 * vertex, and a row is set to its mass part (init_rows) just before the first batch that
 * reaches it, so each row is loaded into the cache about once instead of once for zeroing,
 * once per term and once for the mass. The kernels write the lower triangle only and the
 * upper one is left stale (A->lower; the multigrid path never reads it, cc_bsr_mul mirrors it
 * when it does: zeroing and mirroring it every step was 1.4 % of a 66 x 66 step). Every
 * order of batches gives the same sums; only the order of additions differs from the
 * term-by-term path (round-off). */
static int assemble_sweep(cc_sim *s, cc_term *st, cc_term *sh, cc_term *hg, const double *x, const double *v,
                          double cm, double cx, double cv, const double *dx, double *f, double *jdx)
{
    cc_bsr *A = s->A;
    cc_term *tri = st ? st : sh, *bad_term = NULL;
    int n = A->n, nbt = tri ? tri->nbatch : 0, nbh = hg ? hg->nbatch : 0, bt = 0, bh = 0, zr = 0, bad = -1;
    int st_hess = st ? cc_term_hessian(s, st) : 0, sh_hess = sh ? cc_term_hessian(s, sh) : 0;
    int hg_hess = hg ? cc_term_hessian(s, hg) : 0;
    cc_mg *mg = s->p.precond == CC_PRECOND_MG ? s->W->mg : NULL;
    int pf = mg ? 0 : -1;   /* rows of A handed to the multigrid's set-up (cc_mg_prefill), -1: none */
    const char *why = "";
    while (bt < nbt || bh < nbh) {
        int use_tri = bh >= nbh || (bt < nbt && tri->smin[bt] <= hg->smin[bh]);
        cc_term *t = use_tri ? tri : hg;
        int b0 = use_tri ? bt : bh, nb = use_tri ? nbt : nbh, b1 = nb - b0 > CC_SWEEP_CHUNK ? b0 + CC_SWEEP_CHUNK : nb;
        int top = zr;   /* rows below top are zeroed */
        for (int b = b0; b < b1; b++)
            if (t->bmax[b] + 1 > top) top = t->bmax[b] + 1;
        if (top > zr) init_rows(s, cm, cv, zr, top), zr = top;
        if (use_tri) {
            if (cc_kernel_triangles(s, st, st_hess, sh, sh_hess, b0, b1, x, v, cx, cv, dx, f, jdx, &bad_term, &bad, &why) < 0)
                return element_fault(s, bad_term, bad, why);
            bt = b1;
        } else {
            if (bend_kernel(s, hg, hg_hess, b0, b1, x, v, cx, cv, dx, f, jdx, &bad, &why) < 0)
                return element_fault(s, hg, bad, why);
            bh = b1;
        }
        int fin = bt < nbt ? tri->smin[bt] : n;   /* rows below fin are final */
        if (bh < nbh && hg->smin[bh] < fin) fin = hg->smin[bh];
        if (fin > zr) fin = zr;
        if (pf >= 0 && fin > pf) pf = cc_mg_prefill(mg, A, s->F, pf, fin) < 0 ? -1 : fin;
    }
    if (zr < n) init_rows(s, cm, cv, zr, n);
    if (pf >= 0 && pf < n) cc_mg_prefill(mg, A, s->F, pf, n);
    A->lower = 1;
    return 0;
}

/* every term, into A set to its mass part: through its structured kernel if it has one, else element by
 * element; then the upper triangle from the lower one */
static int assemble_terms(cc_sim *s, const double *x, const double *v, int mat, double cm, double cx, double cv,
                          const double *dx, double *f, double *jdx)
{
    cc_term *st = NULL, *sh = NULL, *hg = NULL, *bad_term = NULL;
    int bad = -1, all = 1;
    const char *why = "";
    for (int t = 0; t < s->nterm; t++) {   /* stretch and shear share one pass over the triangles */
        cc_term *tm = &s->term[t];
        int kernel = term_kernel(s, tm, mat, dx);
        if (kernel == KERNEL_TRIANGLE && tm->kind == TERM_STRETCH) st = tm;
        else if (kernel == KERNEL_TRIANGLE) sh = tm;
        else if (kernel == KERNEL_BEND || kernel == KERNEL_HINGE) hg = tm;
        all = all && kernel != KERNEL_NONE;
    }
    if (mat && all) return assemble_sweep(s, st, sh, hg, x, v, cm, cx, cv, dx, f, jdx);
    if (mat) init_rows(s, cm, cv, 0, s->A->n);
    if ((st || sh) && cc_kernel_triangles(s, st, st ? cc_term_hessian(s, st) : 0, sh, sh ? cc_term_hessian(s, sh) : 0, 0,
                                          (st ? st : sh)->nbatch, x, v, cx, cv, dx, f, jdx, &bad_term, &bad, &why) < 0)
        return element_fault(s, bad_term, bad, why);
    for (int t = 0; t < s->nterm; t++) {
        cc_term *tm = &s->term[t];
        int kernel = term_kernel(s, tm, mat, dx);
        if (kernel == KERNEL_TRIANGLE) continue;
        if (kernel == KERNEL_BEND || kernel == KERNEL_HINGE) {
            if (bend_kernel(s, tm, cc_term_hessian(s, tm), 0, tm->nbatch, x, v, cx, cv, dx, f, jdx, &bad, &why) < 0)
                return element_fault(s, tm, bad, why);
            continue;
        }
        if (assemble_term(s, tm, x, v, mat, cx, cv, dx, f, jdx) < 0) return -1;
    }
    if (mat) s->A->lower = 1, cc_bsr_fill_upper(s->A);   /* the element path wrote both triangles, the kernels the lower */
    return 0;
}

/* f = f(x, v); A = cm M + cx df/dx + cv df/dv if mat; jdx = df/dx dx if dx */
int cc_sim_assemble(cc_sim *s, const double *x, const double *v, int mat, double cm, double cx,
                    double cv, const double *dx, double *f, double *jdx)
{
    size_t n3 = 3 * (size_t)s->nv;
    if (mat && s->W) cc_mg_prefill_reset(s->W->mg);   /* A changes: rows filled ahead are stale */
    if (mat && cc_sim_pattern(s) < 0) return -1;
    const double *g = s->p.gravity;
    for (int i = 0; i < s->nv; i++) {   /* f starts as gravity m g and air drag -k_a A_i v_i */
        double drag = s->p.air_drag * s->area[i];
        for (int k = 0; k < 3; k++) f[3 * i + k] = s->m[i] * g[k] - drag * v[3 * i + k];
    }
    if (jdx) memset(jdx, 0, n3 * sizeof *jdx);
    return assemble_terms(s, x, v, mat, cm, cx, cv, dx, f, jdx);
}
