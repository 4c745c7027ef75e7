/* Aggregation multigrid as a preconditioner for MPCG (CC_PRECOND_MG).
 *
 * The method. B is one cycle of algebraic multigrid by aggregation for the filtered system
 * At = S A S + (I - S) of mpcg.h, on the 3x3 blocks of A. The aggregates and the
 * translations as coarse basis are those of smoothed aggregation (Vanek, Mandel & Brezina
 * 1996, "Algebraic multigrid by smoothed aggregation for second and fourth order elliptic
 * problems", Computing 56); the prolongator is left unsmoothed ("plain" aggregation, as in
 * Braess 1995, Computing 55, and Notay 2010, ETNA 37), which keeps every Galerkin product
 * a sum of blocks, cheap enough to redo at every solve:
 *   - level 0 is At; level l+1 has one block row per aggregate of level l. Aggregates are
 *     grown on the graph of strong couplings, ||A_ik||_F^2 >= theta^2 ||A_ii||_F ||A_kk||_F,
 *     by Vanek's three passes (a root with all its strong neighbours while they are all
 *     free; left-over vertices join a neighbouring aggregate; the rest form new ones). A
 *     vertex without strong couplings (a pinned one: its filtered row is I) is left out of
 *     the coarse levels; the smoother solves it exactly.
 *   - the prolongator P maps a coarse vertex I to its fine vertices i with block S_i
 *     (identity on levels >= 1 and on free vertices): the three translations of each
 *     aggregate, restricted to the free directions, so B maps free to free directions.
 *   - coarse operators are Galerkin: A_{l+1} = P^T A_l P, i.e. block (I,K) is the sum of
 *     the blocks S_i A_ik S_k with i in I and k in K. Directions of an aggregate that every
 *     one of its vertices has constrained have a zero column in P; the coarse diagonal
 *     gets 1e-8 tr(A_ii)/3 (I - S_i) per constrained vertex so that those directions stay
 *     invertible and decoupled (they are multiplied by zero on the way back).
 *   - the smoother is block Gauss-Seidel on 3x3 vertex blocks: one forward sweep before the
 *     coarse correction, one backward sweep after it. On level 0 it runs on A' = A - W +
 *     diag_i(sym(sum_k W_ik)), where W holds the weak couplings, ||A_ik||_F < 1e-2
 *     sqrt(||A_ii||_F ||A_kk||_F) (judged when the hierarchy is built; cc_mg_set_weak), and
 *     each is lumped onto the diagonal blocks of its two vertices (projected by their
 *     filters), so that A' x = A x still holds for every translation x_i = t. On cloth the
 *     weak blocks are the bend-only couplings of a hinge's two wing vertices, about half of
 *     the lower blocks: leaving them out halves the work of a sweep, and the lumping keeps
 *     the out-of-plane stiffness they carry, which is most of it on a flat cloth (dropped
 *     without lumping, the bench scene's MPCG went from 7.61 to 13.99 iterations a step at
 *     66 x 66; lumped, 8.10). MPCG's products still use every block of A.
 *   - the coarse problem of every level but the last two is solved by two cycles of the next
 *     level (a W-cycle: the second on the residual of the first), and the coarse correction
 *     is scaled by alpha = 1.7 (over-correction, as Braess suggests for plain aggregation,
 *     whose piecewise constant coarse functions overestimate the energy of smooth errors;
 *     the bound below needs alpha < 2). MPCG iterations a step on the bench scene, 66 x 66 /
 *     132 x 132, with the other settings of this file and the default warm start: alpha 1.2
 *     7.24 / 9.21, 1.3 7.12 / 8.84, 1.5 7.04 / 8.46, 1.7 7.04 / 8.05, 1.8 7.04 / 7.91,
 *     1.9 6.95 / 8.45. The coarsest level is solved
 *     by a dense Cholesky factorisation (or, if coarsening stalls above that size, by one
 *     symmetric Gauss-Seidel sweep).
 * Why B is symmetric, and positive definite, so CG stays valid: with M = D + L the forward
 * sweep (of A' on level 0: D its diagonal blocks with the lumps, L its lower blocks), one
 * level gives
 *   B^-1 = M^-T D M^-1 + alpha (I - M^-T A) P B_c^-1 P^T (I - A M^-1),
 * symmetric, with the first term SPD whenever every diagonal block D_i is SPD (whatever A
 * is; a lumped D_i that is not falls back to the unlumped one) and the second PSD whenever
 * the coarse B_c^-1 is SPD (with A replaced by A' in (I - M^-T A) on level 0: the cycle is
 * that of A' with the Galerkin coarse operators of A). Two coarse cycles give
 * B_c^-1 (2 B_c - A_c) B_c^-1, symmetric, and SPD when the eigenvalues of B_c^-1 A_c lie in
 * (0, 2). For an SPD filtered system they do, by induction from the coarsest level up
 * (the error propagation I - B^-1 A is, in the A inner product, a contraction times
 * I - alpha (projection) times its adjoint, with eigenvalues in [1 - alpha, 1), so those
 * of B^-1 A lie in (0, alpha], alpha < 2; two cycles square I - B_c^-1 A_c). The coarsest
 * solve is a Cholesky factor with non-positive pivots replaced by the diagonal entry, or
 * M_c^-T D_c M_c^-1, SPD either way. Setup returns -1 when some D_i is not SPD; for an
 * indefinite A, MPCG checks r^T B^-1 r > 0 as it goes.
 *
 * Memory traffic. The cycle's fine level reads only the strictly lower blocks of At, in
 * single precision (36 bytes a block, against 72 for each of the two triangles of A in
 * double): the forward sweep solves (D + L) x = b row by row and scatters -L_ik^T x_i to
 * the residual b - At x = -U x of the earlier rows k < i, and the backward sweep gathers
 * with L_ik and scatters L_ik^T x_i the same way; on level 0 the sweeps read the strong
 * blocks only (sf), kept apart from the weak ones (wf). The diagonal block inverses and all the
 * coarse Galerkin sums stay in double; coarse sums are taken from A in double, so the
 * cancellation in them (stiff blocks summing to small ones) costs no accuracy. MPCG's
 * products S A S c read the same single-precision lower blocks, strong and weak, and the filtered diagonal
 * blocks kept in double (cc_mg_product; mpcg.c argues the perturbation), so each CG
 * iteration's matrix traffic is about 3.8 + 1.7 MB at 132 x 132 instead of 16 MB for A.
 * The values of level 0 (and level 1's Galerkin sums) are taken row by row; the simulator's
 * assembly sweep hands over each row of A as it becomes final (cc_mg_prefill), while it is
 * still in the cache, so the setup that follows skips its own pass over A.
 *
 * Sweep order. A forward sweep in index order waits at almost every row for the row before
 * it, whose x it gathers (on a grid vertex i - 1 is a neighbour of i: 98.5 % of level 0's
 * rows and 87.5 % of level 1's on the 66 x 66 bench cloth); a backward sweep waits for the
 * row after it, whose scatter into g it reads. Each wait is a chain of about fifteen
 * dependent instructions and a store forwarded to a load, so the sweeps ran at the latency
 * of that chain (with the chains cut by reading a wrong vector, a cycle took 0.162 ms
 * instead of 0.198). The sweeps therefore take the rows in another order (sweep_order): any
 * order in which each row comes after the rows of its lower blocks solves the same
 * triangular systems, so the forward sweep gives the same x and the backward sweep (the
 * order reversed) the same update, up to the order of the additions scattered into one
 * row. Among the rows whose lower blocks' rows are all done, it takes the smallest that
 * does not couple to the row taken just before it; on a grid that walks two neighbouring
 * rows of vertices side by side, and 0.1 % of consecutive rows couple on level 0 at 66 x 66,
 * 1.9 % on level 1 (cc_mg_chained). The order alone took a cycle from 0.198 to 0.180 ms;
 * with it, keeping a row's blocks in registers from the gather to the scatter (widened to
 * double once; rows of up to four blocks, 97 % at level 0), which had not paid while the
 * chain set the pace, took it to 0.166 ms (the solve probe of docs/performance.md).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim/avx2.h"
#include "sim/multigrid.h"

#define CC_MG_MAXLEV 12      /* levels at most */
#define CC_MG_DENSE 40       /* the coarsest level is factored densely from this many block rows down */
#define CC_MG_THETA 0.08     /* strength threshold on level 0, halved on each coarser level */
#define CC_MG_NULLFIX 1e-8   /* relative weight of the constrained directions on level 1 */
#define CC_MG_ALPHA 1.7      /* over-correction: the coarse correction is scaled by this */
#define CC_MG_WEAK 1e-2      /* level 0's smoother drops L_ik when ||L_ik||_F < this sqrt(||A_ii||_F ||A_kk||_F) */

typedef float cc_mgf;        /* precision of the smoother's off-diagonal blocks */

typedef struct mg_level {
    int n;          /* block rows */
    int nlo;        /* strictly lower blocks */
    int *rowptr;    /* n+1: lower blocks of row i are rowptr[i] .. rowptr[i+1]-1 */
    int *col;       /* nlo: their columns, ascending */
    cc_mgf *lf;     /* 9 nlo (+ 4 zero pad): the lower blocks L_ik in single precision, row-major */
    int *srow, *scol;   /* the smoother's lower blocks, as rowptr, col and lf: the same arrays */
    cc_mgf *sf;     /* except on level 0 when it drops weak blocks (smoother0) */
    int *wrow, *wcol;   /* level 0 when it drops: the dropped (weak) blocks, as srow, scol, sf; */
    cc_mgf *wf;     /* lf is then not kept (sf and wf hold its blocks) */
    int *ord;       /* n: the order the smoother's forward sweep takes the rows in (backward: reversed) */
    int *slot0;     /* nlo (the same): block p of A's lower pattern is sf block v >= 0 or wf block -1 - v */
    double *lump;   /* 9n (the same): D_i with the dropped blocks lumped onto it, row-major */
    double *dinv;   /* 12 n: D_i^-1 by columns, each padded to 4 with a zero */
    double *dsys;   /* 12 n (level 0 only): S_i A_ii S_i by columns, padded as dinv (the product) */
    double *lv;     /* 9 (nlo + n + 1): Galerkin lower blocks, then the diagonal blocks dv, then a
                       scratch block (levels >= 1, and level 0 when it is the coarsest) */
    double *dv;     /* = lv + 9 nlo: Galerkin diagonal blocks */
    int *agg;       /* n: aggregate (block row of the next level) or -1; NULL on the coarsest */
    int *cslot;     /* nlo: 4 t + c, block (i,k) B adds (c & 1) B + (c >> 1) B^T to block t of the
                       next level's lv (a lower block, or nlo + I for the diagonal of I) */
    double *b, *x, *g;   /* 4n: right-hand side, solution, residual / upper sums */
    double *r, *e;  /* 4n: residual and correction of the second coarse cycle (levels >= 1) */
    double *d3;     /* 3n: the dense solve's right-hand side and solution (coarsest level only) */
    double *chol;   /* (3n)^2: dense Cholesky factor, coarsest level only */
} mg_level;

struct cc_mg {
    int nlev;       /* levels, 0 before the first setup */
    int dense;      /* 1 if the coarsest level is factored densely */
    int n, nnzb;    /* the pattern the hierarchy was built for */
    unsigned long long id;   /* its identity (cc_bsr.id) */
    int avx2;       /* 1 if the smoother uses AVX2 and FMA (the CPU has them) */
    int reorder;    /* 1: the sweeps take the rows in sweep_order's order; 0: in index order */
    double weak;    /* level 0's smoother drops the blocks weaker than this (smoother0); 0: none */
    int pre;        /* level 0's rows filled ahead of the setup (cc_mg_prefill), -1 if none */
    int pre_bad;    /* 1 if one of them had a diagonal block that is not SPD */
    mg_level lev[CC_MG_MAXLEV];
};

/* ---------- 3x3 helpers ---------- */

/* C = A B (row-major 3x3) */
static void m3m(const double *A, const double *B, double *C)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}

/* T = Si B Sk, with a NULL filter standing for I */
static void filt(const double *B, const double *Si, const double *Sk, double *T)
{
    double U[9];
    memcpy(T, B, 9 * sizeof *T);
    if (Si) m3m(Si, T, U), memcpy(T, U, sizeof U);
    if (Sk) m3m(T, Sk, U), memcpy(T, U, sizeof U);
}

/* Dinv = D^-1 if the symmetric D is SPD (Sylvester's leading minors); else -1 */
static int spd_inverse(const double *D, double *Dinv)
{
    double c00 = D[4] * D[8] - D[5] * D[7], c01 = D[5] * D[6] - D[3] * D[8], c02 = D[3] * D[7] - D[4] * D[6];
    double det = D[0] * c00 + D[1] * c01 + D[2] * c02, m2 = D[0] * D[4] - D[1] * D[3];
    if (!(D[0] > 0 && m2 > 0 && det > 0) || !isfinite(det)) return -1;
    double id = 1.0 / det;
    Dinv[0] = c00 * id;
    Dinv[1] = (D[2] * D[7] - D[1] * D[8]) * id;
    Dinv[2] = (D[1] * D[5] - D[2] * D[4]) * id;
    Dinv[3] = c01 * id;
    Dinv[4] = (D[0] * D[8] - D[2] * D[6]) * id;
    Dinv[5] = (D[2] * D[3] - D[0] * D[5]) * id;
    Dinv[6] = c02 * id;
    Dinv[7] = (D[1] * D[6] - D[0] * D[7]) * id;
    Dinv[8] = (D[0] * D[4] - D[1] * D[3]) * id;
    return 0;
}

/* c = the columns of the row-major 3x3 M, each padded to 4 doubles with a zero */
static void set_cols(double *c, const double *M)
{
    for (int j = 0; j < 3; j++) {
        for (int a = 0; a < 3; a++) c[4 * j + a] = M[3 * a + j];
        c[4 * j + 3] = 0;
    }
}

/* level L's D_i^-1 (padded columns) from the symmetric block D; -1 if D is not SPD */
static int set_dinv(mg_level *L, int i, const double *D)
{
    double Dinv[9];
    if (spd_inverse(D, Dinv) < 0) return -1;
    set_cols(L->dinv + 12 * (size_t)i, Dinv);
    return 0;
}

/* ||B||_F^2 */
static double fro2(const double *B)
{
    double s = 0;
    for (int q = 0; q < 9; q++) s += B[q] * B[q];
    return s;
}

/* ---------- hierarchy storage ---------- */

/* free the arrays of level L and zero it */
static void level_free(mg_level *L)
{
    if (L->srow != L->rowptr) free(L->srow);
    if (L->scol != L->col) free(L->scol);
    if (L->sf != L->lf) free(L->sf);
    free(L->wrow);
    free(L->wcol);
    free(L->wf);
    free(L->slot0);
    free(L->ord);
    free(L->lump);
    free(L->rowptr);
    free(L->col);
    free(L->lf);
    free(L->dinv);
    free(L->dsys);
    free(L->lv);
    free(L->agg);
    free(L->cslot);
    free(L->b);
    free(L->x);
    free(L->g);
    free(L->chol);
    free(L->r);
    free(L->e);
    free(L->d3);
    memset(L, 0, sizeof *L);
}

/* no hierarchy */
static void mg_clear(cc_mg *mg)
{
    for (int l = 0; l < CC_MG_MAXLEV; l++) level_free(mg->lev + l);
    mg->nlev = 0;
    mg->dense = 0;
    mg->n = mg->nnzb = -1;
    mg->id = 0;
    mg->pre = -1;
}

/* an empty preconditioner */
cc_mg *cc_mg_new(void)
{
    cc_mg *mg = calloc(1, sizeof *mg);
    if (mg) mg_clear(mg), mg->avx2 = cc_have_avx2(), mg->weak = CC_MG_WEAK, mg->reorder = 1;
    return mg;
}

/* level 0's smoother drops lower blocks with ||L_ik||_F < theta sqrt(||A_ii||_F ||A_kk||_F)
 * (0: none); the hierarchy is rebuilt at the next setup */
void cc_mg_set_weak(cc_mg *mg, double theta)
{
    if (!mg || !(theta >= 0)) return;
    mg->weak = theta;
    mg_clear(mg);
}

/* the sweeps take the rows in sweep_order's order (on != 0) or in index order; the hierarchy
 * is rebuilt at the next setup */
void cc_mg_set_reorder(cc_mg *mg, int on)
{
    if (!mg) return;
    mg->reorder = on != 0;
    mg_clear(mg);
}

/* the fraction of consecutive rows of level l's sweep order where the later row has a
 * smoother block in the column of the earlier one (so its sweep step waits for it); -1 if
 * there is no such level or its order does not solve the triangular systems of index order
 * (a row before a row of one of its blocks, or not a permutation) */
double cc_mg_chained(const cc_mg *mg, int l)
{
    if (!mg || l < 0 || l >= mg->nlev || !mg->lev[l].ord) return -1;
    const mg_level *L = mg->lev + l;
    int *pos = malloc(((size_t)L->n + 1) * sizeof *pos), chained = 0, ok = pos != NULL;
    for (int i = 0; ok && i < L->n; i++) pos[i] = -1;
    for (int q = 0; ok && q < L->n; q++) {
        int i = L->ord[q];
        ok = i >= 0 && i < L->n && pos[i] < 0;
        if (ok) pos[i] = q;
    }
    for (int i = 0; ok && i < L->n; i++)
        for (int p = L->srow[i]; p < L->srow[i + 1]; p++) {
            ok &= pos[L->scol[p]] < pos[i];
            chained += pos[L->scol[p]] == pos[i] - 1;
        }
    free(pos);
    return ok ? (L->n > 1 ? (double)chained / (L->n - 1) : 0) : -1;
}

/* lower blocks of level 0 that the smoother leaves out (lumped onto the diagonal) */
int cc_mg_dropped(const cc_mg *mg)
{
    return mg && mg->nlev > 0 && mg->lev[0].wrow ? mg->lev[0].wrow[mg->lev[0].n] : 0;
}

/* use the AVX2 smoother when the CPU has it and on != 0, else the scalar one; returns 1 if AVX2 is used */
int cc_mg_set_simd(cc_mg *mg, int on)
{
    if (!mg) return 0;
    mg->avx2 = on && cc_have_avx2();
    return mg->avx2;
}

/* free mg (NULL is fine) */
void cc_mg_free(cc_mg *mg)
{
    if (!mg) return;
    mg_clear(mg);
    free(mg);
}

/* levels of the hierarchy, with *n = block rows of level l */
int cc_mg_levels(const cc_mg *mg, int l, int *n)
{
    if (!mg) return 0;
    if (n) *n = l >= 0 && l < mg->nlev ? mg->lev[l].n : 0;
    return mg->nlev;
}

/* n vectors of 4 doubles (the cycle's layout: x_i in lanes 0..2 of entry i, lane 3 zero),
 * 32-byte aligned and zeroed; NULL if no memory */
static double *vec4_alloc(size_t n)
{
    double *v = aligned_alloc(32, 32 * (n + 1));
    if (v) memset(v, 0, 32 * (n + 1));
    return v;
}

/* the value arrays of level L for its n and nlo (vectors, smoother blocks); -1 if no memory */
static int level_alloc(mg_level *L, int coarse)
{
    size_t n = (size_t)L->n, nlo = (size_t)L->nlo;
    L->lf = calloc(9 * nlo + 4, sizeof *L->lf);   /* the pad: a row load of the last block reads one past it */
    L->dinv = vec4_alloc(3 * n);
    L->b = vec4_alloc(n);
    L->x = vec4_alloc(n);
    L->g = vec4_alloc(n);
    if (!coarse) {
        L->dsys = vec4_alloc(3 * n);
        if (!L->dsys) return -1;
    }
    if (coarse) {
        L->lv = malloc(9 * (nlo + n + 1) * sizeof *L->lv);
        L->dv = L->lv ? L->lv + 9 * nlo : NULL;
        L->r = vec4_alloc(n);
        L->e = vec4_alloc(n);
        if (!L->lv || !L->dv || !L->r || !L->e) return -1;
    }
    L->srow = L->rowptr, L->scol = L->col, L->sf = L->lf;   /* the smoother's blocks: all of them */
    return L->lf && L->dinv && L->b && L->x && L->g ? 0 : -1;
}

/* level 0's smoother blocks: the lower blocks with nlo2[p] >= weak^2 nd_i nd_k (squared
 * norms nlo2, diagonal norms nd, as for aggregate); when some are weaker, they go to wrow,
 * wcol, wf and the strong ones to srow, scol, sf, in their own arrays; -1 if no memory */
static int smoother0(mg_level *L, const double *nlo2, const double *nd, double weak)
{
    double w2 = weak * weak;
    int ns = 0, nw = 0;
    for (int i = 0; i < L->n; i++)
        for (int p = L->rowptr[i]; p < L->rowptr[i + 1]; p++) ns += nlo2[p] >= w2 * nd[i] * nd[L->col[p]];
    if (ns == L->nlo) return 0;
    free(L->lf);
    L->lf = NULL;
    size_t n = (size_t)L->n, nlo = (size_t)L->nlo;
    L->srow = malloc((n + 1) * sizeof *L->srow);
    L->wrow = malloc((n + 1) * sizeof *L->wrow);
    L->scol = malloc(((size_t)ns + 1) * sizeof *L->scol);
    L->wcol = malloc((nlo - (size_t)ns + 1) * sizeof *L->wcol);
    L->sf = calloc(9 * (size_t)ns + 4, sizeof *L->sf);   /* padded as lf */
    L->wf = calloc(9 * (nlo - (size_t)ns) + 4, sizeof *L->wf);
    L->slot0 = malloc((nlo + 1) * sizeof *L->slot0);
    L->lump = malloc((9 * n + 1) * sizeof *L->lump);
    if (!L->srow || !L->wrow || !L->scol || !L->wcol || !L->sf || !L->wf || !L->slot0 || !L->lump) return -1;
    ns = 0;
    for (int i = 0; i < L->n; i++) {
        L->srow[i] = ns, L->wrow[i] = nw;
        for (int p = L->rowptr[i]; p < L->rowptr[i + 1]; p++)
            if (nlo2[p] >= w2 * nd[i] * nd[L->col[p]]) L->slot0[p] = ns, L->scol[ns++] = L->col[p];
            else L->slot0[p] = -1 - nw, L->wcol[nw++] = L->col[p];
    }
    L->srow[L->n] = ns, L->wrow[L->n] = nw;
    return 0;
}

/* push row i onto the min-heap h of m rows (smallest index on top) */
static void heap_push(int *h, int *m, int i)
{
    int c = (*m)++;
    for (; c > 0 && h[(c - 1) / 2] > i; c = (c - 1) / 2) h[c] = h[(c - 1) / 2];
    h[c] = i;
}

/* pop the smallest row of the min-heap h of m > 0 rows */
static int heap_pop(int *h, int *m)
{
    int top = h[0], last = h[--(*m)], c = 0;
    for (;;) {
        int k = 2 * c + 1;
        if (k >= *m) break;
        if (k + 1 < *m && h[k + 1] < h[k]) k++;
        if (h[k] >= last) break;
        h[c] = h[k], c = k;
    }
    h[c] = last;
    return top;
}

/* 1 if row i of L has a smoother block in column k */
static int gs_couples(const mg_level *L, int i, int k)
{
    for (int p = L->srow[i]; p < L->srow[i + 1]; p++)
        if (L->scol[p] == k) return 1;
    return 0;
}

/* L->ord: the rows in an order that solves the same triangular systems as the order 0 .. n-1
 * (each row after the rows of its smoother blocks), so that the sweeps give the same x, but
 * with consecutive rows independent where it can: among the rows whose smoother blocks' rows
 * are all taken, the smallest that has no block in the column of the row taken just before
 * it, else the smallest. A row of the sweep then need not wait for the one before it (whose
 * x_i it would otherwise read, or whose scatter it would), and on a grid the order walks two
 * neighbouring rows of vertices side by side. -1 if no memory */
static int sweep_order(mg_level *L, int reorder)
{
    int n = L->n, ns = L->srow[n], m = 0, prev = -1;
    L->ord = malloc(((size_t)n + 1) * sizeof *L->ord);
    if (!reorder) {   /* index order */
        for (int i = 0; L->ord && i < n; i++) L->ord[i] = i;
        return L->ord ? 0 : -1;
    }
    int *wait = calloc((size_t)n + 1, sizeof *wait), *dptr = calloc((size_t)n + 2, sizeof *dptr);
    int *dep = malloc(((size_t)ns + 1) * sizeof *dep), *heap = malloc(((size_t)n + 1) * sizeof *heap);
    int rc = L->ord && wait && dptr && dep && heap ? 0 : -1;
    if (rc == 0) {
        for (int p = 0; p < ns; p++) dptr[L->scol[p] + 2]++;   /* dependents of each row, by counting */
        for (int k = 0; k < n; k++) dptr[k + 2] += dptr[k + 1];
        for (int i = 0; i < n; i++) {
            wait[i] = L->srow[i + 1] - L->srow[i];
            for (int p = L->srow[i]; p < L->srow[i + 1]; p++) dep[dptr[L->scol[p] + 1]++] = i;
            if (wait[i] == 0) heap_push(heap, &m, i);
        }
        for (int q = 0; q < n; q++) {   /* dptr[k] .. dptr[k+1]-1: the rows with a block in column k */
            int i = heap_pop(heap, &m);
            if (m > 0 && prev >= 0 && gs_couples(L, i, prev)) {
                int j = heap_pop(heap, &m);
                if (gs_couples(L, j, prev)) heap_push(heap, &m, j);
                else heap_push(heap, &m, i), i = j;
            }
            L->ord[q] = prev = i;
            for (int d = dptr[i]; d < dptr[i + 1]; d++)
                if (--wait[dep[d]] == 0) heap_push(heap, &m, dep[d]);
        }
    }
    free(wait);
    free(dptr);
    free(dep);
    free(heap);
    return rc;
}

/* level 0's lower pattern = the strictly lower blocks of A; -1 if A is not symmetric in
 * pattern or has no diagonal block somewhere, or no memory */
static int level0_pattern(mg_level *L, const cc_bsr *A)
{
    L->n = A->n;
    L->rowptr = malloc(((size_t)A->n + 1) * sizeof *L->rowptr);
    if (!L->rowptr) return -1;
    int nlo = 0, nup = 0;
    for (int i = 0; i < A->n; i++) {
        if (A->diag[i] < A->rowptr[i] || A->diag[i] >= A->rowptr[i + 1] || A->col[A->diag[i]] != i) return -1;
        L->rowptr[i] = nlo;
        nlo += A->diag[i] - A->rowptr[i];
        nup += A->rowptr[i + 1] - A->diag[i] - 1;
    }
    L->rowptr[A->n] = nlo;
    if (nlo != nup) return -1;
    L->nlo = nlo;
    L->col = malloc(((size_t)nlo + 1) * sizeof *L->col);
    if (!L->col) return -1;
    for (int i = 0; i < A->n; i++)
        for (int p = A->rowptr[i], q = L->rowptr[i]; p < A->diag[i]; p++, q++) L->col[q] = A->col[p];
    return 0;
}

/* ---------- aggregation (once per pattern) ---------- */

/* agg = Vanek's aggregates of the strong graph (lower pattern of L, squared block norms
 * nlo2, diagonal norms nd): returns their number; isolated vertices get -1; -1 if no memory */
static int aggregate(const mg_level *L, const double *nlo2, const double *nd, double theta, int *agg)
{
    int n = L->n, na = 0;
    int *deg = calloc((size_t)n + 1, sizeof *deg), *adj = malloc(2 * ((size_t)L->nlo + 1) * sizeof *adj);
    int *start = malloc(((size_t)n + 1) * sizeof *start), *tmp = malloc(((size_t)n + 1) * sizeof *tmp);
    if (!deg || !adj || !start || !tmp) {
        na = -1;
        goto done;
    }
    double t2 = theta * theta;
    for (int i = 0; i < n; i++)   /* strong graph, both directions, as CSR */
        for (int p = L->rowptr[i]; p < L->rowptr[i + 1]; p++)
            if (nlo2[p] >= t2 * nd[i] * nd[L->col[p]] && nlo2[p] > 0) deg[i]++, deg[L->col[p]]++;
    start[0] = 0;
    for (int i = 0; i < n; i++) start[i + 1] = start[i] + deg[i], tmp[i] = start[i];
    for (int i = 0; i < n; i++)
        for (int p = L->rowptr[i]; p < L->rowptr[i + 1]; p++)
            if (nlo2[p] >= t2 * nd[i] * nd[L->col[p]] && nlo2[p] > 0) {
                int k = L->col[p];
                adj[tmp[i]++] = k;
                adj[tmp[k]++] = i;
            }
    for (int i = 0; i < n; i++) agg[i] = deg[i] ? -1 : -2;
    for (int i = 0; i < n; i++) {   /* pass 1: a root and all its strong neighbours, all free */
        if (agg[i] != -1) continue;
        int free_nbrs = 1;
        for (int e = start[i]; e < start[i + 1] && free_nbrs; e++) free_nbrs = agg[adj[e]] == -1;
        if (!free_nbrs) continue;
        agg[i] = na;
        for (int e = start[i]; e < start[i + 1]; e++) agg[adj[e]] = na;
        na++;
    }
    for (int i = 0; i < n; i++) {   /* pass 2: join a neighbouring pass-1 aggregate */
        tmp[i] = agg[i];
        if (agg[i] != -1) continue;
        for (int e = start[i]; e < start[i + 1]; e++)
            if (agg[adj[e]] >= 0) {
                tmp[i] = agg[adj[e]];
                break;
            }
    }
    memcpy(agg, tmp, (size_t)n * sizeof *agg);
    for (int i = 0; i < n; i++) {   /* pass 3: the rest, with their free strong neighbours */
        if (agg[i] != -1) continue;
        agg[i] = na;
        for (int e = start[i]; e < start[i + 1]; e++)
            if (agg[adj[e]] == -1) agg[adj[e]] = na;
        na++;
    }
    for (int i = 0; i < n; i++)
        if (agg[i] == -2) agg[i] = -1;
done:
    free(deg);
    free(adj);
    free(start);
    free(tmp);
    return na;
}

/* (I, K) pairs, for qsort */
static int pair_cmp(const void *p, const void *q)
{
    const int *a = p, *b = q;
    return a[0] != b[0] ? (a[0] > b[0]) - (a[0] < b[0]) : (a[1] > b[1]) - (a[1] < b[1]);
}

/* C's lower pattern = the pairs (I, K), I > K, of aggregates coupled by a block of F's
 * lower pattern; F->cslot = where each block of F goes in C; -1 if no memory */
static int coarse_pattern(mg_level *F, mg_level *C, int na)
{
    int *pairs = malloc(2 * ((size_t)F->nlo + 1) * sizeof *pairs), np = 0;
    F->cslot = malloc(((size_t)F->nlo + 1) * sizeof *F->cslot);
    C->n = na;
    C->rowptr = calloc((size_t)na + 1, sizeof *C->rowptr);
    if (!pairs || !F->cslot || !C->rowptr) return free(pairs), -1;
    for (int i = 0; i < F->n; i++)
        for (int p = F->rowptr[i]; p < F->rowptr[i + 1]; p++) {
            int I = F->agg[i], K = F->agg[F->col[p]];
            if (I < 0 || K < 0 || I == K) continue;
            pairs[2 * np] = I > K ? I : K;
            pairs[2 * np + 1] = I > K ? K : I;
            np++;
        }
    qsort(pairs, (size_t)np, 2 * sizeof *pairs, pair_cmp);
    int nlo = 0;
    for (int e = 0; e < np; e++)
        if (e == 0 || pair_cmp(pairs + 2 * e, pairs + 2 * (e - 1)) != 0) {
            pairs[2 * nlo] = pairs[2 * e];
            pairs[2 * nlo + 1] = pairs[2 * e + 1];
            C->rowptr[pairs[2 * e] + 1]++;
            nlo++;
        }
    for (int I = 0; I < na; I++) C->rowptr[I + 1] += C->rowptr[I];
    C->nlo = nlo;
    C->col = malloc(((size_t)nlo + 1) * sizeof *C->col);
    if (!C->col) return free(pairs), -1;
    for (int e = 0; e < nlo; e++) C->col[e] = pairs[2 * e + 1];
    free(pairs);
    for (int i = 0; i < F->n; i++)
        for (int p = F->rowptr[i]; p < F->rowptr[i + 1]; p++) {
            int I = F->agg[i], K = F->agg[F->col[p]];
            F->cslot[p] = 0;   /* nothing (0 times block 0) when a vertex has no aggregate */
            if (I < 0 || K < 0) continue;
            if (I == K) F->cslot[p] = 4 * (nlo + I) + 3;
            else {
                int r = I > K ? I : K, c = I > K ? K : I, lo = C->rowptr[r], hi = C->rowptr[r + 1] - 1;
                while (lo < hi) {   /* the pair is there: binary search for it */
                    int mid = (lo + hi) / 2;
                    if (C->col[mid] < c) lo = mid + 1;
                    else hi = mid;
                }
                F->cslot[p] = 4 * lo + (I > K ? 1 : 2);
            }
        }
    return 0;
}

/* ---------- values (every setup) ---------- */

/* block t of lv += (c & 1) B + (c >> 1) B^T for code = 4 t + c (see cslot) */
static inline void add_coarse(double *restrict lv, int code, const double *restrict B)
{
    double *t = lv + 9 * (size_t)(code >> 2);
    if (code & 1)
        for (int k = 0; k < 9; k++) t[k] += B[k];
    if (code & 2)
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) t[3 * a + b] += B[3 * b + a];
}

/* zero the Galerkin sums of level C (NULL is fine) */
static void coarse_zero(mg_level *C)
{
    if (C) memset(C->lv, 0, ((size_t)C->nlo + C->n + 1) * 9 * sizeof *C->lv);
}

/* Di += Si Y Si and Dk += Sk Y Sk for Y = (T + T^T)/2, a NULL filter block standing for I */
static inline void lump_pair(double *restrict Di, double *restrict Dk, const double *T, const double *Si, const double *Sk)
{
    double Y[9];
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) Y[3 * a + b] = 0.5 * (T[3 * a + b] + T[3 * b + a]);
    if (!Si && !Sk) {
        for (int c = 0; c < 9; c++) Di[c] += Y[c], Dk[c] += Y[c];
        return;
    }
    double U[9], V[9];
    filt(Y, Si, Si, U);
    filt(Y, Sk, Sk, V);
    for (int c = 0; c < 9; c++) Di[c] += U[c], Dk[c] += V[c];
}

/* level 0's values, begun: level 1's Galerkin sums and the lumps zeroed */
static void fill0_begin(cc_mg *mg)
{
    mg_level *L = mg->lev;
    coarse_zero(mg->nlev > 1 ? mg->lev + 1 : NULL);
    if (L->lump) memset(L->lump, 0, 9 * (size_t)L->n * sizeof *L->lump);
}

/* level 0's rows from <= i < to from A and F: L_ik = (S A S)_ik in single precision, the
 * product's diagonal blocks, D_i^-1 of S_i A_ii S_i + I - S_i (after fill0_end when the
 * smoother lumps), their parts of level 1's Galerkin sums (or level 0's own double copy when
 * it is the coarsest); the rows before from must be done. -1 if some D_i is not SPD */
static int fill0_rows(cc_mg *mg, const cc_bsr *A, const cc_filter *F, int from, int to)
{
    mg_level *L = mg->lev, *C = mg->nlev > 1 ? mg->lev + 1 : NULL;
    int self = mg->nlev == 1 && mg->dense;   /* level 0 is factored densely: keep its values in double */
    for (int i = from, q = from < L->n ? L->rowptr[from] : 0; i < to; i++) {
        int pi = F->pos[i], I = C ? L->agg[i] : -1, own = I >= 0 ? 4 * (C->nlo + I) + 3 : -1;
        const double *Si = pi >= 0 ? F->S + 9 * pi : NULL;
        double cd[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
        for (int p = A->rowptr[i]; p < A->diag[i]; p++, q++) {
            int k = A->col[p], pk = F->pos[k];
            const double *B = cc_bsr_block(A, p), *Sk = pk >= 0 ? F->S + 9 * pk : NULL;
            double T[9];
            if (Si || Sk) filt(B, Si, Sk, T), B = T;
            int v = L->slot0 ? L->slot0[q] : q;
            cc_mgf *dst = v >= 0 ? L->sf + 9 * (size_t)v : L->wf + 9 * (size_t)(-1 - v);
            for (int c = 0; c < 9; c++) dst[c] = (cc_mgf)B[c];
            if (v < 0) lump_pair(L->lump + 9 * (size_t)i, L->lump + 9 * (size_t)k, B, Si, Sk);
            if (C && L->cslot[q] == own)   /* within row i's aggregate: summed here, added once */
                for (int a = 0; a < 3; a++)
                    for (int b = 0; b < 3; b++) cd[3 * a + b] += B[3 * a + b] + B[3 * b + a];
            else if (C)
                add_coarse(C->lv, L->cslot[q], B);
            if (self) memcpy(L->lv + 9 * q, B, 9 * sizeof *B);
        }
        double D[9];
        const double *Aii = cc_bsr_block(A, A->diag[i]);
        filt(Aii, Si, Si, D);
        set_cols(L->dsys + 12 * (size_t)i, D);
        if (I >= 0) {
            double *t = C->dv + 9 * I, eps = CC_MG_NULLFIX * fabs(Aii[0] + Aii[4] + Aii[8]) / 3;
            for (int c = 0; c < 9; c++) t[c] += D[c] + cd[c];
            if (Si)
                for (int c = 0; c < 9; c++) t[c] += eps * ((c % 4 == 0 ? 1.0 : 0.0) - Si[c]);
        }
        if (Si)
            for (int c = 0; c < 9; c++) D[c] += (c % 4 == 0 ? 1.0 : 0.0) - Si[c];
        if (self) memcpy(L->dv + 9 * i, D, sizeof D);
        if (L->lump)
            for (int c = 0; c < 9; c++) L->lump[9 * (size_t)i + c] += D[c];   /* complete once the later rows have lumped */
        else if (set_dinv(L, i, D) < 0) return -1;
    }
    return 0;
}

/* level 0's values, ended: D_i^-1 of the lumped D_i, or of the unlumped one where that is
 * not SPD; -1 if neither is */
static int fill0_end(cc_mg *mg, const cc_bsr *A, const cc_filter *F)
{
    mg_level *L = mg->lev;
    for (int i = 0; L->lump && i < A->n; i++)
        if (set_dinv(L, i, L->lump + 9 * (size_t)i) < 0) {
            double D[9];
            const double *Si = F->pos[i] >= 0 ? F->S + 9 * F->pos[i] : NULL;
            filt(cc_bsr_block(A, A->diag[i]), Si, Si, D);
            if (Si)
                for (int c = 0; c < 9; c++) D[c] += (c % 4 == 0 ? 1.0 : 0.0) - Si[c];
            if (set_dinv(L, i, D) < 0) return -1;
        }
    return 0;
}

/* level 0 from A and F (fill0_begin, fill0_rows over all rows, fill0_end); -1 if some D_i is
 * not SPD */
static int fill0(cc_mg *mg, const cc_bsr *A, const cc_filter *F)
{
    fill0_begin(mg);
    return fill0_rows(mg, A, F, 0, A->n) < 0 ? -1 : fill0_end(mg, A, F);
}

/* level l >= 1 from its Galerkin sums: smoother blocks and the next level's sums; -1 if
 * some D_i is not SPD */
static int fill(cc_mg *mg, int l)
{
    mg_level *L = mg->lev + l, *C = l + 1 < mg->nlev ? L + 1 : NULL;
    coarse_zero(C);
    for (int i = 0; i < L->n; i++) {
        for (int p = L->rowptr[i]; p < L->rowptr[i + 1]; p++) {
            const double *B = L->lv + 9 * p;
            for (int k = 0; k < 9; k++) L->lf[9 * p + k] = (cc_mgf)B[k];
            if (C) add_coarse(C->lv, L->cslot[p], B);
        }
        const double *D = L->dv + 9 * i;
        if (C && L->agg[i] >= 0)
            for (int k = 0; k < 9; k++) C->dv[9 * L->agg[i] + k] += D[k];
        if (set_dinv(L, i, D) < 0) return -1;
    }
    return 0;
}

/* the coarsest level's dense Cholesky factor L L^T of its Galerkin matrix, a pivot that is
 * not above 1e-12 of its diagonal entry replaced by that entry (so L L^T is SPD); -1 if a
 * diagonal entry is not positive */
static int dense_factor(mg_level *L)
{
    int m = 3 * L->n;
    double *R = L->chol;
    memset(R, 0, (size_t)m * m * sizeof *R);
    for (int i = 0; i < L->n; i++) {
        for (int a = 0; a < 3; a++)
            for (int b = 0; b <= a; b++) R[(3 * i + a) * m + 3 * i + b] = L->dv[9 * i + 3 * a + b];
        for (int p = L->rowptr[i]; p < L->rowptr[i + 1]; p++)
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) R[(3 * i + a) * m + 3 * L->col[p] + b] = L->lv[9 * p + 3 * a + b];
    }
    for (int j = 0; j < m; j++) {
        double orig = R[j * m + j], d = orig;
        for (int k = 0; k < j; k++) d -= R[j * m + k] * R[j * m + k];
        if (!(orig > 0) || !isfinite(orig)) return -1;
        if (!(d > 1e-12 * orig)) d = orig;
        double ljj = sqrt(d);
        R[j * m + j] = ljj;
        for (int i = j + 1; i < m; i++) {
            double s = R[i * m + j];
            for (int k = 0; k < j; k++) s -= R[i * m + k] * R[j * m + k];
            R[i * m + j] = s / ljj;
        }
    }
    return 0;
}

/* B's values for this A and F in the hierarchy mg already has; 0 or -1 */
static int fill_all(cc_mg *mg, const cc_bsr *A, const cc_filter *F)
{
    int pre = mg->pre == A->n, bad = mg->pre_bad;   /* level 0's rows filled ahead: used once */
    mg->pre = -1;
    if (pre ? bad || fill0_end(mg, A, F) < 0 : fill0(mg, A, F) < 0) return -1;
    for (int l = 1; l < mg->nlev; l++)
        if (fill(mg, l) < 0) return -1;
    return mg->dense ? dense_factor(mg->lev + mg->nlev - 1) : 0;
}

/* squared Frobenius norms of level 0's lower blocks (nlo2) and diagonal blocks (nd, not
 * squared) of the filtered A */
static void strength0(const cc_bsr *A, const cc_filter *F, double *nlo2, double *nd)
{
    for (int i = 0, q = 0; i < A->n; i++) {
        int pi = F->pos[i];
        const double *Si = pi >= 0 ? F->S + 9 * pi : NULL;
        double T[9];
        for (int p = A->rowptr[i]; p < A->diag[i]; p++, q++) {
            int pk = F->pos[A->col[p]];
            filt(cc_bsr_block(A, p), Si, pk >= 0 ? F->S + 9 * pk : NULL, T);
            nlo2[q] = fro2(T);
        }
        filt(cc_bsr_block(A, A->diag[i]), Si, Si, T);
        nd[i] = sqrt(fro2(T));
    }
}

/* the same from level l's Galerkin sums */
static void strength(const mg_level *L, double *nlo2, double *nd)
{
    for (int p = 0; p < L->nlo; p++) nlo2[p] = fro2(L->lv + 9 * p);
    for (int i = 0; i < L->n; i++) nd[i] = sqrt(fro2(L->dv + 9 * i));
}

/* the hierarchy for the pattern of A (values of A and F decide the aggregates); -1 if no
 * memory, an unsymmetric pattern, or a block that is not SPD */
static int build(cc_mg *mg, const cc_bsr *A, const cc_filter *F)
{
    mg_clear(mg);
    mg_level *L = mg->lev;
    if (level0_pattern(L, A) < 0 || level_alloc(L, 0) < 0) return -1;
    int rc = 0;
    double *nlo2 = malloc(((size_t)L->nlo + 1) * sizeof *nlo2), *nd = malloc(((size_t)L->n + 1) * sizeof *nd);
    if (!nlo2 || !nd) rc = -1;
    else strength0(A, F, nlo2, nd);
    if (rc == 0 && smoother0(L, nlo2, nd, mg->weak) < 0) rc = -1;
    double theta = CC_MG_THETA;
    int l = 0;
    for (; rc == 0; l++, theta *= 0.5) {
        L = mg->lev + l;
        if (L->n <= CC_MG_DENSE || l == CC_MG_MAXLEV - 1) break;
        L->agg = malloc(((size_t)L->n + 1) * sizeof *L->agg);
        int na = L->agg ? aggregate(L, nlo2, nd, theta, L->agg) : -1;
        if (na < 0) rc = -1;
        if (na <= 0 || 5 * na > 4 * L->n) break;   /* no coarsening, or too little */
        mg_level *C = L + 1;
        if (coarse_pattern(L, C, na) < 0 || level_alloc(C, 1) < 0) {
            rc = -1;
            break;
        }
        mg->nlev = l + 2;
        if ((l == 0 ? fill0(mg, A, F) : fill(mg, l)) < 0) {
            rc = -1;
            break;
        }
        double *t2 = realloc(nlo2, ((size_t)C->nlo + 1) * sizeof *nlo2), *t1 = realloc(nd, ((size_t)C->n + 1) * sizeof *nd);
        if (t2) nlo2 = t2;
        if (t1) nd = t1;
        if (!t1 || !t2) {
            rc = -1;
            break;
        }
        strength(C, nlo2, nd);
    }
    free(nlo2);
    free(nd);
    if (rc < 0) return mg_clear(mg), -1;
    for (int k = 0; k <= l; k++)
        if (sweep_order(mg->lev + k, mg->reorder) < 0) return mg_clear(mg), -1;
    L = mg->lev + l;
    free(L->agg);   /* the coarsest level has no aggregates */
    L->agg = NULL;
    mg->nlev = l + 1;
    if (L->n <= CC_MG_DENSE) {
        mg->dense = 1;
        size_t m = 3 * (size_t)L->n;
        L->chol = malloc((m * m + 1) * sizeof *L->chol);
        L->d3 = malloc((m + 1) * sizeof *L->d3);
        if (!L->chol || !L->d3) return mg_clear(mg), -1;
        if (l == 0) {   /* a small system: level 0 is solved directly */
            L->lv = malloc(9 * ((size_t)L->nlo + L->n + 1) * sizeof *L->lv);
            if (!L->lv) return mg_clear(mg), -1;
            L->dv = L->lv + 9 * (size_t)L->nlo;
        }
    }
    mg->n = A->n;
    mg->nnzb = A->nnzb;
    mg->id = A->id;
    return 0;
}

/* B for this A and F: the hierarchy when the pattern is new, then the values */
int cc_mg_setup(cc_mg *mg, const cc_bsr *A, const cc_filter *F)
{
    if (!mg || !A || !F || A->n != F->n || A->n < 1) return -1;
    if (mg->nlev == 0 || mg->n != A->n || mg->nnzb != A->nnzb || mg->id != A->id)
        if (build(mg, A, F) < 0) return -1;
    if (fill_all(mg, A, F) < 0) {
        mg_clear(mg);   /* values only, but the aggregates were chosen from them: start over next time */
        return -1;
    }
    return 0;
}

/* rows from <= i < to of level 0's values for A and F, ahead of cc_mg_setup (as an assembly
 * finishes them, in order from row 0); the next setup with A then skips its pass over A. 0,
 * or -1 (nothing done, and no rows kept) when the hierarchy is not A's or the rows are out
 * of order */
int cc_mg_prefill(cc_mg *mg, const cc_bsr *A, const cc_filter *F, int from, int to)
{
    if (!mg || !A || !F || mg->nlev == 0 || mg->id != A->id || mg->n != A->n || F->n != A->n) return -1;
    if (from == 0) fill0_begin(mg), mg->pre = 0, mg->pre_bad = 0;
    if (from != mg->pre || to < from || to > A->n) {
        mg->pre = -1;
        return -1;
    }
    if (!mg->pre_bad && fill0_rows(mg, A, F, from, to) < 0) mg->pre_bad = 1;
    mg->pre = to;
    return 0;
}

/* forget rows filled ahead (A is about to change) */
void cc_mg_prefill_reset(cc_mg *mg)
{
    if (mg) mg->pre = -1;
}

/* ---------- the cycle ---------- */

/* The cycle keeps its vectors 4 doubles per vertex (lanes 0..2, lane 3 zero), so a vertex is
 * one aligned AVX vector. With AVX2 and FMA (checked at run time) a block row of the
 * smoother is done with vectors: the gather accumulates the rows of L_ik (read as 4 floats,
 * the fourth belonging to the next row and meeting the zero lane 3 of x_k) times x_k lane by
 * lane and sums the lanes once per row; the scatter adds sum_a (row a of L_ik) x_ia, which is
 * L_ik^T x_i, with its fourth lane cleared. Otherwise the same sums are taken one by one. */

/* x_i = D_i^-1 (t - sum_p L_p x_col(p)) over the stored lower blocks of row i; then
 * out_col(p) += sign L_p^T x_i (the transposed blocks, i.e. the upper part of A, applied);
 * *tx += x_i . D_i x_i when tx is not NULL */
static inline void gs_row(const mg_level *L, int i, const double *t, double *x, double *out, double sign, double *tx)
{
    int p0 = L->srow[i], p1 = L->srow[i + 1];
    double t0 = t[0], t1 = t[1], t2 = t[2];
    for (int p = p0; p < p1; p++) {
        const cc_mgf *B = L->sf + 9 * p;
        const double *xk = x + 4 * L->scol[p];
        t0 -= B[0] * xk[0] + B[1] * xk[1] + B[2] * xk[2];
        t1 -= B[3] * xk[0] + B[4] * xk[1] + B[5] * xk[2];
        t2 -= B[6] * xk[0] + B[7] * xk[1] + B[8] * xk[2];
    }
    const double *Di = L->dinv + 12 * i;
    double x0 = Di[0] * t0 + Di[4] * t1 + Di[8] * t2;
    double x1 = Di[1] * t0 + Di[5] * t1 + Di[9] * t2;
    double x2 = Di[2] * t0 + Di[6] * t1 + Di[10] * t2;
    x[4 * i] = x0, x[4 * i + 1] = x1, x[4 * i + 2] = x2;
    if (tx) *tx += t0 * x0 + t1 * x1 + t2 * x2;
    for (int p = p0; p < p1; p++) {
        const cc_mgf *B = L->sf + 9 * p;
        double *ok = out + 4 * L->scol[p];
        ok[0] += sign * (B[0] * x0 + B[3] * x1 + B[6] * x2);
        ok[1] += sign * (B[1] * x0 + B[4] * x1 + B[7] * x2);
        ok[2] += sign * (B[2] * x0 + B[5] * x1 + B[8] * x2);
    }
}

/* x = (D + L)^-1 b (forward block Gauss-Seidel from x = 0) and res = b - A x = -U x; res_i
 * is zeroed at row i, before the later rows scatter into it; *tx = x . D x if tx is not NULL */
static void gs_forward_scalar(const mg_level *L, const double *b, double *x, double *res, double *tx)
{
    for (int q = 0; q < L->n; q++) {
        int i = L->ord[q];
        memset(res + 4 * i, 0, 4 * sizeof *res);
        gs_row(L, i, b + 4 * i, x, res, -1.0, tx);
    }
}

/* x = x + (D + U)^-1 (b - A x) (backward block Gauss-Seidel); g is scratch, zero on entry */
static void gs_backward_scalar(const mg_level *L, const double *b, double *x, double *g)
{
    for (int q = L->n - 1; q >= 0; q--) {
        int i = L->ord[q];
        double t[3] = {b[4 * i] - g[4 * i], b[4 * i + 1] - g[4 * i + 1], b[4 * i + 2] - g[4 * i + 2]};
        gs_row(L, i, t, x, g, 1.0, NULL);
    }
}

#if CC_AVX2
/* x_i = D_i^-1 t (lanes 0..2 of t; lane 3 of x_i is 0, the padded columns of D_i^-1), stored;
 * lane by lane *tx += t D_i^-1 t when tx is not NULL */
CC_TARGET_AVX2 static inline __m256d gs_solve_avx2(const mg_level *L, int i, __m256d t, double *x, __m256d *tx)
{
    const double *D = L->dinv + 12 * i;
    __m256d xi = _mm256_mul_pd(_mm256_load_pd(D), _mm256_permute4x64_pd(t, 0x00));
    xi = _mm256_fmadd_pd(_mm256_load_pd(D + 4), _mm256_permute4x64_pd(t, 0x55), xi);
    xi = _mm256_fmadd_pd(_mm256_load_pd(D + 8), _mm256_permute4x64_pd(t, 0xAA), xi);
    _mm256_store_pd(x + 4 * i, xi);
    if (tx) *tx = _mm256_fmadd_pd(t, xi, *tx);   /* t = D_i x_i in lanes 0..2 */
    return xi;
}

/* lanes 0..2: the sums of lanes of a0, a1, a2 (row r of sum_p L_p x_col(p) from its lane-wise
 * products); lane 3: 0 + 0 */
CC_TARGET_AVX2 static inline __m256d gs_hsum3(__m256d a0, __m256d a1, __m256d a2)
{
    __m256d h01 = _mm256_hadd_pd(a0, a1), h22 = _mm256_hadd_pd(a2, a2);
    return _mm256_add_pd(_mm256_permute2f128_pd(h01, h22, 0x20), _mm256_permute2f128_pd(h01, h22, 0x31));
}

/* out_k += (row 0 of B) x0 + (row 1) x1 + (row 2) x2 = B^T x for the rows b0, b1, b2 of a
 * block read as 4 floats (lane 3 held the next row's first entry, and is cleared) */
CC_TARGET_AVX2 static inline void gs_scatter_avx2(double *ok, __m256d b0, __m256d b1, __m256d b2, __m256d x0,
                                                  __m256d x1, __m256d x2)
{
    __m256d v = _mm256_fmadd_pd(b2, x2, _mm256_fmadd_pd(b1, x1, _mm256_mul_pd(b0, x0)));
    v = _mm256_blend_pd(v, _mm256_setzero_pd(), 8);
    _mm256_store_pd(ok, _mm256_add_pd(_mm256_load_pd(ok), v));
}

/* gs_row_avx2 for a row of exactly nb <= 4 blocks (nb a constant where it is inlined): each
 * block is read and widened to double once, and kept in registers from the gather to the
 * scatter */
CC_TARGET_AVX2 static inline __attribute__((always_inline)) void gs_row_fixed(const mg_level *L, int i, int p0, int nb,
                                                                              __m256d t, double *x, double *out,
                                                                              __m256d sign, __m256d *tx)
{
    const int *col = L->scol + p0;
    const cc_mgf *lf = L->sf + 9 * (size_t)p0;
    __m256d b[4][3], a0 = _mm256_setzero_pd(), a1 = a0, a2 = a0;
    for (int q = 0; q < nb; q++) {
        for (int r = 0; r < 3; r++) b[q][r] = _mm256_cvtps_pd(_mm_loadu_ps(lf + 9 * q + 3 * r));
        __m256d xk = _mm256_load_pd(x + 4 * col[q]);
        a0 = _mm256_fmadd_pd(b[q][0], xk, a0);
        a1 = _mm256_fmadd_pd(b[q][1], xk, a1);
        a2 = _mm256_fmadd_pd(b[q][2], xk, a2);
    }
    __m256d xi = _mm256_mul_pd(gs_solve_avx2(L, i, _mm256_sub_pd(t, gs_hsum3(a0, a1, a2)), x, tx), sign);
    __m256d x0 = _mm256_permute4x64_pd(xi, 0x00), x1 = _mm256_permute4x64_pd(xi, 0x55);
    __m256d x2 = _mm256_permute4x64_pd(xi, 0xAA);
    for (int q = 0; q < nb; q++) gs_scatter_avx2(out + 4 * col[q], b[q][0], b[q][1], b[q][2], x0, x1, x2);
}

/* gs_row with AVX2: x_i = D_i^-1 (t - sum_p L_p x_col(p)), out_col(p) += sign L_p^T x_i,
 * lane by lane *tx += x_i D_i x_i when tx is not NULL */
CC_TARGET_AVX2 static inline __attribute__((always_inline)) void gs_row_avx2(const mg_level *L, int i, __m256d t, double *x, double *out,
                                              __m256d sign, __m256d *tx)
{
    int p0 = L->srow[i], p1 = L->srow[i + 1];
    switch (p1 - p0) {   /* the common lengths with their blocks in registers */
    case 0: gs_solve_avx2(L, i, t, x, tx); return;
    case 1: gs_row_fixed(L, i, p0, 1, t, x, out, sign, tx); return;
    case 2: gs_row_fixed(L, i, p0, 2, t, x, out, sign, tx); return;
    case 3: gs_row_fixed(L, i, p0, 3, t, x, out, sign, tx); return;
    case 4: gs_row_fixed(L, i, p0, 4, t, x, out, sign, tx); return;
    default: break;
    }
    const int *col = L->scol;
    const cc_mgf *lf = L->sf;
    __m256d a0 = _mm256_setzero_pd(), a1 = a0, a2 = a0;
    for (int p = p0; p < p1; p++) {   /* lane j of a_r: sum_p (L_p)_rj (x_col(p))_j */
        const cc_mgf *B = lf + 9 * p;
        __m256d xk = _mm256_load_pd(x + 4 * col[p]);
        a0 = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm_loadu_ps(B)), xk, a0);
        a1 = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm_loadu_ps(B + 3)), xk, a1);
        a2 = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm_loadu_ps(B + 6)), xk, a2);
    }
    __m256d xi = _mm256_mul_pd(gs_solve_avx2(L, i, _mm256_sub_pd(t, gs_hsum3(a0, a1, a2)), x, tx), sign);
    __m256d x0 = _mm256_permute4x64_pd(xi, 0x00), x1 = _mm256_permute4x64_pd(xi, 0x55);
    __m256d x2 = _mm256_permute4x64_pd(xi, 0xAA);
    for (int p = p0; p < p1; p++) {
        const cc_mgf *B = lf + 9 * p;
        gs_scatter_avx2(out + 4 * col[p], _mm256_cvtps_pd(_mm_loadu_ps(B)), _mm256_cvtps_pd(_mm_loadu_ps(B + 3)),
                        _mm256_cvtps_pd(_mm_loadu_ps(B + 6)), x0, x1, x2);
    }
}

/* gs_forward_scalar with AVX2 */
CC_TARGET_AVX2 static void gs_forward_avx2(const mg_level *L, const double *b, double *x, double *res, double *tx)
{
    __m256d sign = _mm256_set1_pd(-1.0), zero = _mm256_setzero_pd(), acc = zero;
    for (int q = 0; q < L->n; q++) {
        int i = L->ord[q];
        _mm256_store_pd(res + 4 * i, zero);
        gs_row_avx2(L, i, _mm256_load_pd(b + 4 * i), x, res, sign, tx ? &acc : NULL);
    }
    if (tx) {
        double a[4];
        _mm256_storeu_pd(a, acc);
        *tx = (a[0] + a[1]) + a[2];
    }
}

/* gs_backward_scalar with AVX2 */
CC_TARGET_AVX2 static void gs_backward_avx2(const mg_level *L, const double *b, double *x, double *g)
{
    __m256d sign = _mm256_set1_pd(1.0);
    for (int q = L->n - 1; q >= 0; q--) {
        int i = L->ord[q];
        gs_row_avx2(L, i, _mm256_sub_pd(_mm256_load_pd(b + 4 * i), _mm256_load_pd(g + 4 * i)), x, g, sign, NULL);
    }
}
#endif

/* x = (D + L)^-1 b and res = b - A x = -U x (4-lane vectors); *tx = x . D x if tx is not NULL */
static void gs_forward(const cc_mg *mg, const mg_level *L, const double *b, double *x, double *res, double *tx)
{
    if (tx) *tx = 0;
#if CC_AVX2
    if (mg->avx2) {
        gs_forward_avx2(L, b, x, res, tx);
        return;
    }
#endif
    (void)mg;
    gs_forward_scalar(L, b, x, res, tx);
}

/* x = x + (D + U)^-1 (b - A x) (4-lane vectors); g is scratch, zero on entry */
static void gs_backward(const cc_mg *mg, const mg_level *L, const double *b, double *x, double *g)
{
#if CC_AVX2
    if (mg->avx2) {
        gs_backward_avx2(L, b, x, g);
        return;
    }
#endif
    (void)mg;
    gs_backward_scalar(L, b, x, g);
}

/* x = (R R^T)^-1 b with the dense Cholesky factor R of the coarsest level (4-lane b, x) */
static void dense_solve(const mg_level *L, const double *b, double *x)
{
    int m = 3 * L->n;
    const double *R = L->chol;
    double *y = L->d3;
    for (int i = 0; i < m; i++) {
        double s = b[4 * (i / 3) + i % 3];
        for (int k = 0; k < i; k++) s -= R[i * m + k] * y[k];
        y[i] = s / R[i * m + i];
    }
    for (int i = m - 1; i >= 0; i--) {
        double s = y[i];
        for (int k = i + 1; k < m; k++) s -= R[k * m + i] * y[k];
        y[i] = s / R[i * m + i];
    }
    for (int i = 0; i < L->n; i++) {
        for (int a = 0; a < 3; a++) x[4 * i + a] = y[3 * i + a];
        x[4 * i + 3] = 0;
    }
}

#if CC_AVX2
/* sym_residual_scalar with AVX2: row i gathers D_i x_i + sum_k L_ik x_k lane by lane and
 * scatters -L_ik^T x_i to the earlier rows k < i, already stored (a block row load reads one
 * double past the block, the next block's or the scratch block's, which meets lane 3 of x) */
CC_TARGET_AVX2 static void sym_residual_avx2(const mg_level *L, const double *b, const double *x, double *r)
{
    const int *col = L->col;
    __m256d zero = _mm256_setzero_pd();
    for (int i = 0; i < L->n; i++) {
        __m256d xi = _mm256_load_pd(x + 4 * (size_t)i);
        __m256d x0 = _mm256_permute4x64_pd(xi, 0x00), x1 = _mm256_permute4x64_pd(xi, 0x55);
        __m256d x2 = _mm256_permute4x64_pd(xi, 0xAA);
        const double *D = L->dv + 9 * (size_t)i;
        __m256d a0 = _mm256_mul_pd(_mm256_loadu_pd(D), xi), a1 = _mm256_mul_pd(_mm256_loadu_pd(D + 3), xi);
        __m256d a2 = _mm256_mul_pd(_mm256_loadu_pd(D + 6), xi);
        for (int p = L->rowptr[i]; p < L->rowptr[i + 1]; p++) {
            const double *B = L->lv + 9 * (size_t)p;
            __m256d b0 = _mm256_loadu_pd(B), b1 = _mm256_loadu_pd(B + 3), b2 = _mm256_loadu_pd(B + 6);
            __m256d xk = _mm256_load_pd(x + 4 * (size_t)col[p]);
            double *rk = r + 4 * (size_t)col[p];
            a0 = _mm256_fmadd_pd(b0, xk, a0);
            a1 = _mm256_fmadd_pd(b1, xk, a1);
            a2 = _mm256_fmadd_pd(b2, xk, a2);
            __m256d v = _mm256_fmadd_pd(b2, x2, _mm256_fmadd_pd(b1, x1, _mm256_mul_pd(b0, x0)));
            _mm256_store_pd(rk, _mm256_sub_pd(_mm256_load_pd(rk), _mm256_blend_pd(v, zero, 8)));
        }
        __m256d h01 = _mm256_hadd_pd(a0, a1), h22 = _mm256_hadd_pd(a2, a2);
        __m256d g = _mm256_add_pd(_mm256_permute2f128_pd(h01, h22, 0x20), _mm256_permute2f128_pd(h01, h22, 0x31));
        _mm256_store_pd(r + 4 * (size_t)i, _mm256_blend_pd(_mm256_sub_pd(_mm256_load_pd(b + 4 * (size_t)i), g), zero, 8));
    }
}
#endif

/* r = b - A x on a level >= 1, with its Galerkin matrix in double (D + L + L^T); 4-lane vectors */
static void sym_residual_scalar(const mg_level *L, const double *b, const double *x, double *r)
{
    for (int i = 0; i < L->n; i++) {
        const double *D = L->dv + 9 * i, *xi = x + 4 * i;
        for (int a = 0; a < 3; a++) r[4 * i + a] = b[4 * i + a] - (D[3 * a] * xi[0] + D[3 * a + 1] * xi[1] + D[3 * a + 2] * xi[2]);
        r[4 * i + 3] = 0;
    }
    for (int i = 0; i < L->n; i++)
        for (int p = L->rowptr[i]; p < L->rowptr[i + 1]; p++) {
            const double *B = L->lv + 9 * p, *xk = x + 4 * L->col[p], *xi = x + 4 * i;
            double *ri = r + 4 * i, *rk = r + 4 * L->col[p];
            for (int a = 0; a < 3; a++) {
                ri[a] -= B[3 * a] * xk[0] + B[3 * a + 1] * xk[1] + B[3 * a + 2] * xk[2];
                rk[a] -= B[a] * xi[0] + B[3 + a] * xi[1] + B[6 + a] * xi[2];
            }
        }
}

/* r = b - A x on a level >= 1 (4-lane vectors) */
static void sym_residual(const cc_mg *mg, const mg_level *L, const double *b, const double *x, double *r)
{
#if CC_AVX2
    if (mg->avx2) {
        sym_residual_avx2(L, b, x, r);
        return;
    }
#endif
    (void)mg;
    sym_residual_scalar(L, b, x, r);
}

/* bc = P^T g (nc coarse rows; F: the filter blocks of level 0's prolongator, NULL above it),
 * and g = 0 for the backward sweep. A run of rows in one aggregate (the usual case: they are
 * neighbours) is summed in registers and added to bc once, not through memory row by row. */
static void restrict_residual(const mg_level *L, const cc_filter *F, double *restrict g, double *restrict bc, int nc)
{
    memset(bc, 0, (size_t)nc * 4 * sizeof *bc);
    double t[4] = {0, 0, 0, 0};   /* the run's sum so far; lane 3: 0 + 0 */
    for (int i = 0, cur = -1; i <= L->n; i++) {
        int I = i < L->n ? L->agg[i] : -1;
        if (I != cur) {
            if (cur >= 0)
                for (int a = 0; a < 4; a++) bc[4 * cur + a] += t[a], t[a] = 0;
            cur = I;
        }
        if (i == L->n) break;
        double *restrict gi = g + 4 * i;
        if (I >= 0 && F && F->pos[i] >= 0) {
            const double *S = F->S + 9 * F->pos[i];
            for (int a = 0; a < 3; a++) t[a] += S[3 * a] * gi[0] + S[3 * a + 1] * gi[1] + S[3 * a + 2] * gi[2];
        } else if (I >= 0) {
            for (int a = 0; a < 4; a++) t[a] += gi[a];
        }
        for (int a = 0; a < 4; a++) gi[a] = 0;
    }
}

/* x += P xc */
static void prolong(const mg_level *L, const cc_filter *F, const double *restrict xc, double *restrict x)
{
    for (int i = 0; i < L->n; i++) {
        int I = L->agg[i];
        if (I < 0) continue;
        const double *restrict c = xc + 4 * I;
        double *restrict xi = x + 4 * i;
        if (F && F->pos[i] >= 0) {
            const double *S = F->S + 9 * F->pos[i];
            for (int a = 0; a < 3; a++) xi[a] += S[3 * a] * c[0] + S[3 * a + 1] * c[1] + S[3 * a + 2] * c[2];
        } else {
            for (int a = 0; a < 4; a++) xi[a] += c[a];   /* lane 3: 0 + 0 */
        }
    }
}

static void vcycle(cc_mg *mg, int l, const cc_filter *F, const double *b, double *x);

/* C->x = alpha B_c^-1 C->b on level c >= 1: one cycle, or two (the second on the residual of
 * the first) below the coarsest two levels, so B_c^-1 = B^-1 (2 B - A_c) B^-1 there */
static void coarse_solve(cc_mg *mg, int c, const cc_filter *F)
{
    mg_level *C = mg->lev + c;
    vcycle(mg, c, F, C->b, C->x);
    if (c + 1 < mg->nlev) {   /* W-cycle: a second coarse cycle on the coarse residual */
        sym_residual(mg, C, C->b, C->x, C->r);
        vcycle(mg, c, F, C->r, C->e);
        for (int k = 0; k < 4 * C->n; k++) C->x[k] = CC_MG_ALPHA * (C->x[k] + C->e[k]);
    } else {
        for (int k = 0; k < 4 * C->n; k++) C->x[k] *= CC_MG_ALPHA;
    }
}

/* x = B_l^-1 b on level l (the cycle from there down: forward sweep, coarse correction,
 * backward sweep); 4-lane vectors */
static void vcycle(cc_mg *mg, int l, const cc_filter *F, const double *b, double *x)
{
    mg_level *L = mg->lev + l;
    if (l == mg->nlev - 1) {
        if (mg->dense) {
            dense_solve(L, b, x);
        } else {
            gs_forward(mg, L, b, x, L->g, NULL);
            memset(L->g, 0, (size_t)L->n * 4 * sizeof *L->g);
            gs_backward(mg, L, b, x, L->g);
        }
        return;
    }
    mg_level *C = L + 1;
    gs_forward(mg, L, b, x, L->g, NULL);
    restrict_residual(L, l == 0 ? F : NULL, L->g, C->b, C->n);
    coarse_solve(mg, l + 1, F);
    prolong(L, l == 0 ? F : NULL, C->x, x);
    gs_backward(mg, L, b, x, L->g);
}

/* the first half of s = S B^-1 r (4-lane r, s): level 0's forward sweep into s and the coarse
 * correction, kept for cc_mg_finish4; returns r^T B^-1 r from them. With y = M^-1 r from the
 * forward sweep, the formula for B^-1 of the banner gives
 *   r^T B^-1 r = y^T D y + alpha u^T B_c^-1 u,   u = P^T (r - A y),
 * with y_i^T D_i y_i = y_i . t_i for the t_i = D_i y_i the sweep solves, and alpha B_c^-1 u
 * what the coarse correction computes: the same number as r . s after cc_mg_finish4, up to
 * round-off, for a little over half a cycle. On a single level the whole of s. */
double cc_mg_begin4(cc_mg *mg, const cc_filter *F, const double *r, double *s)
{
    if (!mg || mg->nlev == 0 || !F || F->n != mg->lev[0].n) return 0;   /* no usable B: s untouched */
    mg_level *L = mg->lev;
    if (mg->nlev == 1 && mg->dense) {   /* B is A: the dense solve */
        dense_solve(L, r, s);
        cc_filter_apply4(F, s);
        return cc_dot(r, s, 4 * L->n);
    }
    double ydy;
    gs_forward(mg, L, r, s, L->g, &ydy);
    if (mg->nlev == 1) {
        memset(L->g, 0, (size_t)L->n * 4 * sizeof *L->g);
        return ydy;
    }
    mg_level *C = L + 1;
    restrict_residual(L, F, L->g, C->b, C->n);
    coarse_solve(mg, 1, F);
    return ydy + cc_dot(C->b, C->x, 4 * C->n);
}

/* the rest of s = S B^-1 r after cc_mg_begin4 with the same r and s: the coarse correction
 * added and level 0's backward sweep */
void cc_mg_finish4(cc_mg *mg, const cc_filter *F, const double *r, double *s)
{
    if (!mg || mg->nlev == 0 || !F || F->n != mg->lev[0].n || (mg->nlev == 1 && mg->dense)) return;
    mg_level *L = mg->lev;
    if (mg->nlev > 1) prolong(L, F, L[1].x, s);
    gs_backward(mg, L, r, s, L->g);
    cc_filter_apply4(F, s);
}

/* s = S B^-1 r for 4-lane r, s; returns r . s */
double cc_mg_apply4(cc_mg *mg, const cc_filter *F, const double *r, double *s)
{
    if (!mg || mg->nlev == 0 || !F || F->n != mg->lev[0].n) return 0;   /* no usable B: s untouched */
    cc_mg_begin4(mg, F, r, s);
    cc_mg_finish4(mg, F, r, s);
    return cc_dot(r, s, 4 * mg->lev[0].n);
}

/* L->b = r (3n) in the cycle's 4-lane layout */
static void load_rhs(mg_level *L, const double *r)
{
    for (int i = 0; i < L->n; i++) {
        for (int a = 0; a < 3; a++) L->b[4 * i + a] = r[3 * i + a];
        L->b[4 * i + 3] = 0;
    }
}

/* r^T B^-1 r for r = S r (3n): cc_mg_begin4's number */
double cc_mg_norm(cc_mg *mg, const cc_filter *F, const double *r)
{
    if (!mg || mg->nlev == 0 || !F || F->n != mg->lev[0].n) return 0;
    load_rhs(mg->lev, r);
    return cc_mg_begin4(mg, F, mg->lev[0].b, mg->lev[0].x);
}

/* s = S B^-1 r; returns r . s */
double cc_mg_apply(cc_mg *mg, const cc_filter *F, const double *r, double *s)
{
    if (!mg || mg->nlev == 0 || !F || F->n != mg->lev[0].n) return 0;   /* no usable B: s untouched */
    mg_level *L = mg->lev;
    int n = L->n;
    load_rhs(L, r);
    cc_mg_apply4(mg, F, L->b, L->x);
    for (int i = 0; i < n; i++)
        for (int a = 0; a < 3; a++) s[3 * i + a] = L->x[4 * i + a];
    return cc_dot(r, s, 3 * n);
}

/* ---------- the product ---------- */

/* The product q = S A S c that CG needs (c = S c) is taken from level 0's storage: the
 * filtered diagonal blocks in double (dsys) and the smoother's single-precision lower blocks
 * L_ik = fl(S_i A_ik S_k) with their transposes, i.e. q = (D + L + L^T) c. Row i gathers
 * g_i = sum_k L_ik c_k and scatters L_ik^T c_i to the earlier rows k < i, which are already
 * stored, so q_i = D_i c_i + g_i is stored at row i and complete once every later row has
 * scattered into it. c . q = sum_i c_i . (D_i c_i + 2 g_i) is summed on the way. */

/* g += sum_p L_p c_col(p) and q_col(p) += L_p^T c_i over the blocks p0 .. p1-1 of (col, lf) */
static inline void product_blocks(const int *col, const cc_mgf *lf, int p0, int p1, const double *ci, const double *c,
                                  double *q, double g[3])
{
    for (int p = p0; p < p1; p++) {
        const cc_mgf *B = lf + 9 * (size_t)p;
        const double *ck = c + 4 * (size_t)col[p];
        double *qk = q + 4 * (size_t)col[p];
        for (int a = 0; a < 3; a++) {
            g[a] += B[3 * a] * ck[0] + B[3 * a + 1] * ck[1] + B[3 * a + 2] * ck[2];
            qk[a] += B[a] * ci[0] + B[3 + a] * ci[1] + B[6 + a] * ci[2];
        }
    }
}

/* q = (D + L + L^T) c and c . q, scalar (L: the smoother's blocks and the dropped ones) */
static double product_scalar(const mg_level *L, const double *c, double *q)
{
    double cq = 0;
    for (int i = 0; i < L->n; i++) {
        const double *D = L->dsys + 12 * (size_t)i, *ci = c + 4 * (size_t)i;
        double g[3] = {0, 0, 0};
        product_blocks(L->scol, L->sf, L->srow[i], L->srow[i + 1], ci, c, q, g);
        if (L->wrow) product_blocks(L->wcol, L->wf, L->wrow[i], L->wrow[i + 1], ci, c, q, g);
        double *qi = q + 4 * (size_t)i;
        for (int a = 0; a < 3; a++) {
            double d = D[a] * ci[0] + D[4 + a] * ci[1] + D[8 + a] * ci[2];
            qi[a] = d + g[a];
            cq += ci[a] * (d + 2 * g[a]);
        }
        qi[3] = 0;
    }
    return cq;
}

#if CC_AVX2
/* product_blocks with AVX2: lane j of a_r += (L_p)_rj (c_col(p))_j, q_col(p) += L_p^T c_i */
CC_TARGET_AVX2 static inline void product_blocks_avx2(const int *col, const cc_mgf *lf, int p0, int p1, __m256d x0,
                                                      __m256d x1, __m256d x2, const double *c, double *q,
                                                      __m256d *a0, __m256d *a1, __m256d *a2)
{
    __m256d zero = _mm256_setzero_pd();
    for (int p = p0; p < p1; p++) {
        const cc_mgf *B = lf + 9 * (size_t)p;
        __m256d b0 = _mm256_cvtps_pd(_mm_loadu_ps(B)), b1 = _mm256_cvtps_pd(_mm_loadu_ps(B + 3));
        __m256d b2 = _mm256_cvtps_pd(_mm_loadu_ps(B + 6)), ck = _mm256_load_pd(c + 4 * (size_t)col[p]);
        double *qk = q + 4 * (size_t)col[p];
        *a0 = _mm256_fmadd_pd(b0, ck, *a0);
        *a1 = _mm256_fmadd_pd(b1, ck, *a1);
        *a2 = _mm256_fmadd_pd(b2, ck, *a2);
        __m256d v = _mm256_fmadd_pd(b2, x2, _mm256_fmadd_pd(b1, x1, _mm256_mul_pd(b0, x0)));
        _mm256_store_pd(qk, _mm256_add_pd(_mm256_load_pd(qk), _mm256_blend_pd(v, zero, 8)));
    }
}

/* product_scalar with AVX2 (the block loads as in gs_row_avx2) */
CC_TARGET_AVX2 static double product_avx2(const mg_level *L, const double *c, double *q)
{
    __m256d zero = _mm256_setzero_pd(), cq = zero;
    for (int i = 0; i < L->n; i++) {
        __m256d ci = _mm256_load_pd(c + 4 * (size_t)i);
        __m256d x0 = _mm256_permute4x64_pd(ci, 0x00), x1 = _mm256_permute4x64_pd(ci, 0x55);
        __m256d x2 = _mm256_permute4x64_pd(ci, 0xAA), a0 = zero, a1 = zero, a2 = zero;
        product_blocks_avx2(L->scol, L->sf, L->srow[i], L->srow[i + 1], x0, x1, x2, c, q, &a0, &a1, &a2);
        if (L->wrow) product_blocks_avx2(L->wcol, L->wf, L->wrow[i], L->wrow[i + 1], x0, x1, x2, c, q, &a0, &a1, &a2);
        __m256d h01 = _mm256_hadd_pd(a0, a1), h22 = _mm256_hadd_pd(a2, a2);
        __m256d g = _mm256_add_pd(_mm256_permute2f128_pd(h01, h22, 0x20), _mm256_permute2f128_pd(h01, h22, 0x31));
        g = _mm256_blend_pd(g, zero, 8);
        const double *D = L->dsys + 12 * (size_t)i;
        __m256d d = _mm256_mul_pd(_mm256_load_pd(D), x0);
        d = _mm256_fmadd_pd(_mm256_load_pd(D + 4), x1, d);
        d = _mm256_fmadd_pd(_mm256_load_pd(D + 8), x2, d);
        _mm256_store_pd(q + 4 * (size_t)i, _mm256_add_pd(d, g));
        cq = _mm256_fmadd_pd(ci, _mm256_add_pd(d, _mm256_add_pd(g, g)), cq);
    }
    __m128d h = _mm_add_pd(_mm256_castpd256_pd128(cq), _mm256_extractf128_pd(cq, 1));
    return _mm_cvtsd_f64(_mm_add_sd(h, _mm_unpackhi_pd(h, h)));
}
#endif

/* q = S A S c from level 0 (4-lane c = S c); returns c . q */
double cc_mg_product(const cc_mg *mg, const double *c, double *q)
{
    if (!mg || mg->nlev == 0) return 0;
#if CC_AVX2
    if (mg->avx2) return product_avx2(mg->lev, c, q);
#endif
    return product_scalar(mg->lev, c, q);
}
