/* Assembly: total force, the system matrix A = cm M + cx df/dx + cv df/dv and the product
 * df/dx dx, in one pass over the elements of every term (Baraff & Witkin 1998 Section 5). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "conditions/variants.h"
#include "sim/algebra/multigrid.h"
#include "sim/algebra/team.h"
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
static int bend_kernel(cc_sim *s, cc_term *t, int hess, int b0, int b1, const cc_assembly *a, int *bad,
                       const char **why)
{
    if (kernel_of(t) == KERNEL_BEND) return cc_kernel_bend_pritchard(s, t, hess, b0, b1, a, bad, why);
    return cc_kernel_hinge(s, t, hess, b0, b1, a, bad, why);
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

/* where assemble_sweep cuts the rows of n vertices in two (CC_MG_PARTS parts from
 * CC_MG_PART_ROWS rows each, as the multigrid cuts its level 0), or n for one part */
static int sweep_cut(int n)
{
    return n >= CC_MG_PARTS * CC_MG_PART_ROWS ? n / 2 : n;
}

/* the lowest vertex (xmin) and the highest (xmax) of t's batches that have vertices on both
 * sides of the cut; n and -1 if none */
static void cross_range(cc_term *t, int cut, int n)
{
    t->xmin = n, t->xmax = -1;
    for (int b = 0; b < t->nbatch && t->smin[b] < cut; b++)
        if (t->bmax[b] >= cut) {
            if (t->smin[b] < t->xmin) t->xmin = t->smin[b];
            if (t->bmax[b] > t->xmax) t->xmax = t->bmax[b];
        }
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
        if (pack >= 0) cross_range(tm, sweep_cut(s->nv), s->nv);
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
static int assemble_term(cc_sim *s, cc_term *t, const cc_assembly *a)
{
    const double *x = a->x, *v = a->v, *dx = a->dx;
    double cx = a->cx, cv = a->cv, *f = a->f, *jdx = a->jdx;
    int mat = a->mat;
    if (t->kind == TERM_BEND_FORCE) {   /* a force model, not a condition: bend_force.c */
        int bad = 0;
        const char *why = "";
        if (cc_bend_force_term(s, t, a, &bad, &why) < 0)
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
 * term-by-term path (round-off).
 *
 * With CC_MG_PARTS = 2 parts (a cloth of 512 vertices or more) the rows are cut in two
 * halves: the batches below the cut (part 0) and those from it (part 1) write disjoint rows
 * of A, f and jdx and run side by side on the team; the batches across the cut (part 2, a
 * strip about a grid row wide) follow on the caller. Part 0 hands its rows to the multigrid's
 * set-up as they become final (cc_mg_prefill), up to the lowest vertex of part 2; with more
 * than one thread part 1 does too (cc_mg_prefill_tail), from the first row above part 2's
 * vertices that touches part 1's values of the multigrid only (cc_mg_tail_row); the caller
 * the rows between. Neither the sums nor their order depend on the threads: the set-up's
 * values are those of one pass over the rows, bit for bit, however they were handed over. */

/* what the parts of an assembly sweep share */
typedef struct {
    cc_sim *s;
    cc_term *st, *sh, *hg, *tri;   /* tri: st, or sh without st */
    int st_hess, sh_hess, hg_hess;
    const cc_assembly *a;   /* the request */
    int cut;                /* part 0: batches with every vertex below it; 1: from it; 2: across */
    int xmin;               /* the lowest vertex of part 2's batches (n if none) */
    cc_mg *mg;              /* the multigrid to hand rows to, or NULL */
    int pf;                 /* part 0 has handed over the rows below pf (-1: it stopped) */
    int tail, tf;           /* part 1 hands over rows from tail on; those below tf are (-1: it stopped) */
    cc_term *bad_term[3];   /* a part's failure: the term, */
    int bad[3];             /* the element, */
    const char *why[3];     /* and why */
    int failed[3];          /* 1 if the part stopped at a fault */
} sweep_job;

/* 1 if batch b of t belongs to part p of j's sweep */
static int in_part(const sweep_job *j, const cc_term *t, int b, int p)
{
    if (p == 1) return t->smin[b] >= j->cut;
    return t->smin[b] < j->cut && (p == 0 ? t->bmax[b] < j->cut : t->bmax[b] >= j->cut);
}

/* the kernel of t over its batches b0 .. b1-1 that belong to part p (in runs); 0 or -1 */
static int run_batches(sweep_job *j, cc_term *t, int p, int b0, int b1)
{
    cc_sim *s = j->s;
    for (int b = b0; b < b1;) {
        if (!in_part(j, t, b, p)) {
            b++;
            continue;
        }
        int e = b;
        while (e < b1 && in_part(j, t, e, p)) e++;
        int rc = t == j->hg ? bend_kernel(s, t, j->hg_hess, b, e, j->a, &j->bad[p], &j->why[p])
                            : cc_kernel_triangles(s, j->st, j->st_hess, j->sh, j->sh_hess, b, e, j->a, &j->bad_term[p],
                                                  &j->bad[p], &j->why[p]);
        if (rc < 0) {
            if (t == j->hg) j->bad_term[p] = t;
            return j->failed[p] = 1, -1;
        }
        b = e;
    }
    return 0;
}

/* the first batch of t whose lowest vertex is at least c (smin ascends) */
static int first_batch_from(const cc_term *t, int c)
{
    int lo = 0, hi = t->nbatch;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (t->smin[mid] >= c) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

/* the rows below which part p's rows of A are final, its next batches being bt of tri and bh
 * of hg (of nbt, nbh) and its rows below zr set: those below its next batches' lowest
 * vertex, below part 2's for part 0 */
static int final_below(const sweep_job *j, int p, int bt, int nbt, int bh, int nbh, int zr)
{
    int fin = bt < nbt ? j->tri->smin[bt] : p == 0 ? j->cut : j->s->A->n;
    if (bh < nbh && j->hg->smin[bh] < fin) fin = j->hg->smin[bh];
    if (p == 0 && j->xmin < fin) fin = j->xmin;
    return fin < zr ? fin : zr;
}

/* part p's final rows below fin handed to the multigrid: part 0's from row 0, part 1's from
 * j->tail */
static void hand_over(sweep_job *j, int p, int fin)
{
    cc_sim *s = j->s;
    if (p == 0 && j->pf >= 0 && fin > j->pf) j->pf = cc_mg_prefill(j->mg, s->A, s->F, j->pf, fin) < 0 ? -1 : fin;
    if (p == 1 && j->tf >= 0 && fin > j->tf) j->tf = cc_mg_prefill_tail(j->mg, s->A, s->F, j->tf, fin) < 0 ? -1 : fin;
}

/* part p of the sweep (p = 0, 1 side by side, then 2) */
static void sweep_part(void *arg, int p)
{
    sweep_job *j = arg;
    cc_sim *s = j->s;
    cc_term *tri = j->tri, *hg = j->hg;
    int n = s->A->n, nbt = tri ? tri->nbatch : 0, nbh = hg ? hg->nbatch : 0, bt = 0, bh = 0;
    if (p == 1) {
        bt = tri ? first_batch_from(tri, j->cut) : 0;
        bh = hg ? first_batch_from(hg, j->cut) : 0;
    } else {   /* parts 0 and 2 end where part 1 begins */
        nbt = tri ? first_batch_from(tri, j->cut) : 0;
        nbh = hg ? first_batch_from(hg, j->cut) : 0;
    }
    int zr = p == 1 ? j->cut : 0, rend = p == 0 ? j->cut : n;   /* the part's rows: zr .. rend-1, zeroed below zr */
    while (bt < nbt || bh < nbh) {
        int use_tri = bh >= nbh || (bt < nbt && tri->smin[bt] <= hg->smin[bh]);
        cc_term *t = use_tri ? tri : hg;
        int b0 = use_tri ? bt : bh, nb = use_tri ? nbt : nbh, b1 = nb - b0 > CC_SWEEP_CHUNK ? b0 + CC_SWEEP_CHUNK : nb;
        if (p < 2) {
            int top = zr;
            for (int b = b0; b < b1; b++)
                if (in_part(j, t, b, p) && t->bmax[b] + 1 > top) top = t->bmax[b] + 1;
            if (top > zr) init_rows(s, j->a->cm, j->a->cv, zr, top), zr = top;
        }
        if (run_batches(j, t, p, b0, b1) < 0) return;
        if (use_tri) bt = b1;
        else bh = b1;
        if (p < 2) hand_over(j, p, final_below(j, p, bt, nbt, bh, nbh, zr));
    }
    if (p < 2 && zr < rend) init_rows(s, j->a->cm, j->a->cv, zr, rend);
    if (p == 1) hand_over(j, 1, n);
}

static int assemble_sweep(cc_sim *s, cc_term *st, cc_term *sh, cc_term *hg, const cc_assembly *a)
{
    cc_bsr *A = s->A;
    int n = A->n, cut = sweep_cut(n);
    cc_term *tri = st ? st : sh;
    int xmin = n, xmax = -1;   /* the vertices of part 2's batches */
    for (int k = 0; k < 2; k++) {
        const cc_term *t = k ? hg : tri;
        if (t && t->xmin < xmin) xmin = t->xmin;
        if (t && t->xmax > xmax) xmax = t->xmax;
    }
    int mg_on = s->W && (s->p.precond == CC_PRECOND_MG || (s->p.precond == CC_PRECOND_AUTO && s->W->auto_mg));
    sweep_job j = {.s = s, .st = st, .sh = sh, .hg = hg, .tri = tri,
                   .st_hess = st ? cc_term_hessian(s, st) : 0, .sh_hess = sh ? cc_term_hessian(s, sh) : 0,
                   .hg_hess = hg ? cc_term_hessian(s, hg) : 0, .a = a, .cut = cut, .xmin = xmin,
                   .mg = mg_on ? s->W->mg : NULL, .pf = -1, .tail = n, .tf = -1,
                   .bad = {-1, -1, -1}, .why = {"", "", ""}};
    if (j.mg && cut < n && cc_team_size(s->team) > 1) {   /* part 1's rows: above part 2's, its values only */
        int t = cc_mg_tail_row(j.mg, A);
        j.tail = t > xmax + 1 ? t : xmax + 1;
        if (j.tail < cut) j.tail = cut;
    }
    if (j.mg && cc_mg_prefill_begin(j.mg, A, s->F, j.tail) == 0) j.pf = 0, j.tf = j.tail;
    if (cut < n) {
        cc_team_run(s->team, sweep_part, &j, 2);
        if (!j.failed[0] && !j.failed[1]) sweep_part(&j, 2);
    } else {
        sweep_part(&j, 0);
    }
    for (int p = 0; p < 3; p++)
        if (j.failed[p]) return element_fault(s, j.bad_term[p], j.bad[p], j.why[p]);
    if (j.pf >= 0 && j.pf < j.tail) cc_mg_prefill(j.mg, A, s->F, j.pf, j.tail);
    A->lower = 1;
    return 0;
}

/* every term, into A set to its mass part: through its structured kernel if it has one, else element by
 * element; then the upper triangle from the lower one */
static int assemble_terms(cc_sim *s, const cc_assembly *a)
{
    int mat = a->mat;
    const double *dx = a->dx;
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
    if (mat && all) return assemble_sweep(s, st, sh, hg, a);
    if (mat) init_rows(s, a->cm, a->cv, 0, s->A->n);
    if ((st || sh) && cc_kernel_triangles(s, st, st ? cc_term_hessian(s, st) : 0, sh, sh ? cc_term_hessian(s, sh) : 0, 0,
                                          (st ? st : sh)->nbatch, a, &bad_term, &bad, &why) < 0)
        return element_fault(s, bad_term, bad, why);
    for (int t = 0; t < s->nterm; t++) {
        cc_term *tm = &s->term[t];
        int kernel = term_kernel(s, tm, mat, dx);
        if (kernel == KERNEL_TRIANGLE) continue;
        if (kernel == KERNEL_BEND || kernel == KERNEL_HINGE) {
            if (bend_kernel(s, tm, cc_term_hessian(s, tm), 0, tm->nbatch, a, &bad, &why) < 0)
                return element_fault(s, tm, bad, why);
            continue;
        }
        if (assemble_term(s, tm, a) < 0) return -1;
    }
    if (mat) s->A->lower = 1, cc_bsr_fill_upper(s->A);   /* the element path wrote both triangles, the kernels the lower */
    return 0;
}

/* f = f(x, v); A = cm M + cx df/dx + cv df/dv if mat; jdx = df/dx dx if dx (cc_assembly) */
int cc_sim_assemble(cc_sim *s, const cc_assembly *a)
{
    const double *v = a->v;
    double *f = a->f, *jdx = a->jdx;
    int mat = a->mat;
    size_t n3 = 3 * (size_t)s->nv;
    if (mat && s->W) cc_mg_prefill_reset(s->W->mg);   /* A changes: rows filled ahead are stale */
    if (mat && cc_sim_pattern(s) < 0) return -1;
    const double *g = s->p.gravity;
    for (int i = 0; i < s->nv; i++) {   /* f starts as gravity m g and air drag -k_a A_i v_i */
        double drag = s->p.air_drag * s->area[i];
        for (int k = 0; k < 3; k++) f[3 * i + k] = s->m[i] * g[k] - drag * v[3 * i + k];
    }
    if (jdx) memset(jdx, 0, n3 * sizeof *jdx);
    return assemble_terms(s, a);
}
