/* Aggregation multigrid as a preconditioner for MPCG (CC_PRECOND_MG).
 *
 * The files: this one holds the method (this banner), the hierarchy's storage and the
 * aggregation, built once per pattern of A; mg_values.c the values (smoother blocks,
 * Galerkin coarse operators, the coarsest factor) at every setup; mg_modes.c the coarse
 * space with rotations or affine maps; mg_cycle.c the smoother, the cycle and MPCG's
 * product, with their memory layout and row order. docs/performance.md has the figures.
 *
 * The method. B is one cycle of algebraic multigrid by aggregation for the filtered system
 * At = S A S + (I - S) of mpcg.h, on the 3x3 blocks of A. The aggregates and the coarse basis
 * are those of smoothed aggregation (Vanek, Mandel & Brezina 1996, "Algebraic multigrid by
 * smoothed aggregation for second and fourth order elliptic problems", Computing 56); the
 * prolongator is left unsmoothed ("plain" aggregation, as in Braess 1995, Computing 55, and
 * Notay 2010, ETNA 37), which keeps every Galerkin product a sum of blocks, cheap enough to
 * redo at every solve:
 *   - level 0 is At; level l+1 has one node per aggregate of level l. Aggregates are grown on
 *     the graph of strong couplings, ||A_ik||_F^2 >= theta^2 ||A_ii||_F ||A_kk||_F, by Vanek's
 *     three passes (a root with all its strong neighbours while they are all free; left-over
 *     vertices join a neighbouring aggregate; the rest form new ones). A vertex without strong
 *     couplings (a pinned one: its filtered row is I) is left out of the coarse levels; the
 *     smoother solves it exactly.
 *   - the coarse space, chosen when the hierarchy is built (cc_mgi_choose_modes): the three
 *     translations of each aggregate, restricted to the free directions: P maps node I to its
 *     fine vertices i with block S_i (identity on levels >= 1 and on free vertices), so B maps
 *     free to free directions; or, where bending makes the diagonal, the rigid motions or the
 *     affine maps of each aggregate (mg_modes.c: nodes of two or four block rows).
 *   - coarse operators are Galerkin: A_{l+1} = P^T A_l P, with translations the sum of the
 *     blocks S_i A_ik S_k with i in I and k in K. Directions of an aggregate that every one of
 *     its vertices has constrained have a zero column in P; the coarse diagonal gets
 *     CC_MG_NULLFIX tr(A_ii)/3 (I - S_i) per constrained vertex so that those directions stay
 *     invertible and decoupled (they are multiplied by zero on the way back).
 *   - except, with translations, for the blocks level 0's smoother leaves out (W, below): one
 *     that couples two aggregates enters level 1 with weight 1 + gamma (CC_MG_GAMMA), and
 *     gamma times its lumps come off the two aggregates' diagonal blocks, so level 1 is the
 *     Galerkin operator of A + gamma (W - lump(W)). Translations keep their energy; a jump t
 *     between the two aggregates across the block loses gamma t^T sym(W_ik) t. On cloth the
 *     left-out blocks are the bend-only couplings of a hinge's wings, and piecewise constant
 *     coarse functions give bending too much energy at the aggregates' borders, kinks that
 *     smooth errors do not have. A level 1 that has a diagonal block that is not SPD with it,
 *     or a dense coarsest level that is indefinite (mg_values.c, dense_factor), is set up
 *     again without it (cc_mg_setup).
 *   - the smoother is block Gauss-Seidel on 3x3 vertex blocks: one forward sweep before the
 *     coarse correction, one backward sweep after it. With translations it runs on level 0 on
 *     A' = A - W + diag_i(sym(sum_k W_ik)), where W holds the weak couplings,
 *     ||A_ik||_F < CC_MG_WEAK sqrt(||A_ii||_F ||A_kk||_F), or CC_MG_MINOR times that for the
 *     blocks the pattern marks minor (cc_bsr.minor: on cloth, those no triangle or spring
 *     couples) (judged when the hierarchy is built; cc_mg_set_weak), each lumped onto the
 *     diagonal blocks of its two vertices (projected by their filters), so that A' x = A x
 *     still holds for every translation x_i = t. On cloth the weak blocks are the bend-only
 *     couplings of a hinge's two wing vertices, about half of the lower blocks, which grow
 *     against the diagonal as k_bend / l^3; leaving them out halves the work of a sweep, and
 *     the lumping keeps the out-of-plane stiffness they carry, most of it on a flat cloth.
 *     MPCG's products still use every block of A.
 *   - the coarse problem of every level but the last two is solved by two cycles of the next
 *     level (a W-cycle: the second on the residual of the first), and the coarse correction
 *     is scaled by alpha = CC_MG_ALPHA (over-correction, as Braess suggests for plain
 *     aggregation, whose piecewise constant coarse functions overestimate the energy of
 *     smooth errors; the bound below needs alpha < 2). The coarsest level is solved by a
 *     dense Cholesky factorisation (or, if coarsening stalls above that size, by one
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
 * (0, 2) (the residual between the two cycles takes A_c's lower blocks rounded to single
 * precision, as the sweeps do: A_c is then that symmetric matrix, 2^-24 from the Galerkin
 * one). For an SPD filtered system they do, by induction from the coarsest level up (the
 * error propagation I - B^-1 A is, in the A inner product, a contraction times
 * I - alpha (projection) times its adjoint, with eigenvalues in [1 - alpha, 1), so those
 * of B^-1 A lie in (0, alpha], alpha < 2; two cycles square I - B_c^-1 A_c). The coarsest
 * solve is a Cholesky factor with non-positive pivots replaced by the diagonal entry, or
 * M_c^-T D_c M_c^-1, SPD either way. Setup returns -1 when some D_i is not SPD; for an
 * indefinite A, MPCG checks r^T B^-1 r > 0 as it goes.
 * None of this needs level 1 to be A's Galerkin operator, only symmetric positive definite,
 * with the levels below it Galerkin of it. With gamma > 0 it is the Galerkin operator of
 * A + gamma (W - lump(W)), which is not SPD by construction: W - lump(W) is negative
 * semidefinite where each sym(W_ik) is positive semidefinite, and can take more energy than
 * A has in some direction. So the setup requires level 1's diagonal blocks to be SPD (else
 * it starts again with gamma = 0), and MPCG checks r^T B^-1 r > 0 as before.
 * Parts: level 0's sweeps (and level 1's, when its parts are large enough) run in parts of
 * consecutive rows side by side (mg_cycle.c), each part leaving its blocks into earlier parts
 * (the cross blocks C) out of its sweep: the forward sweep solves with M = D + L - C instead
 * of D + L ("hybrid" Gauss-Seidel), the backward one with M^T. The cycle stays symmetric,
 * with M^-T (M + M^T - A) M^-1 = M^-T (D - C - C^T) M^-1 as its first term, SPD when
 * D - C - C^T is; for two parts that is D + C + C^T with the second part's signs flipped,
 * i.e. the diagonal blocks with only the couplings across the cut, SPD where the cut's rows
 * are block diagonally dominant, as mass and stiffness make them on the bench cloth (MPCG's
 * check of r^T B^-1 r > 0 catches it otherwise). Stiff bending's rows are not: with rotations
 * or affine maps, a cut row that is not takes D_i + Delta_i in its sweep (an l1 smoother,
 * mg_values.c: cut_safe), the sweeps' residuals stay those of A, and then
 * M + M^T - A = D + 2 Delta - C - C^T is SPD. Level 0's aggregates do not cross the cut (the
 * strong graph leaves out the couplings across it, and the aggregates are numbered part by
 * part: cstart), so the restriction and the prolongation run in the same parts, as do
 * MPCG's vector updates (cc_mg_rows). What a part computes does not depend on the threads,
 * so neither does B.
 */
#include "sim/algebra/mg_internal.h"

/* ---------- hierarchy storage ---------- */

/* free the arrays of level L and zero it */
void cc_mgi_level_free(mg_level *L)
{
    if (L->sbeg != L->srow) free(L->sbeg);   /* before the arrays they may alias */
    if (L->wbeg != L->wrow) free(L->wbeg);
    if (L->srow != L->rowptr) free(L->srow);
    if (L->scol != L->col) free(L->scol);
    if (L->sf != L->lf) free(L->sf);
    free(L->wrow);
    free(L->wcol);
    free(L->wf);
    free(L->slot0);
    free(L->ord);
    free(L->pstart);
    free(L->pord);
    free(L->cstart);
    free(L->xrow);
    free(L->shrow);
    free(L->shd);
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
    free(L->pv);
    free(L->nrow);
    free(L->ncol);
    free(L->gn);
    free(L->cen);
    free(L->rn);
    free(L->wn);
    free(L->drop);
    memset(L, 0, sizeof *L);
}

/* no hierarchy */
void cc_mgi_clear(cc_mg *mg)
{
    for (int l = 0; l < CC_MG_MAXLEV; l++) cc_mgi_level_free(mg->lev + l);
    mg->nlev = 0;
    mg->dense = 0;
    mg->n = mg->nnzb = -1;
    mg->id = 0;
    mg->pre = mg->tail = mg->tail_end = -1;   /* no rows filled ahead */
    mg->later_tail = -1;
    mg->modes = 3;
}

/* an empty preconditioner */
cc_mg *cc_mg_new(void)
{
    cc_mg *mg = calloc(1, sizeof *mg);
    if (mg) cc_mgi_clear(mg), mg->avx2 = cc_have_avx2(), mg->weak = CC_MG_WEAK, mg->reorder = 1,
                 mg->parts = CC_MG_PARTS, mg->far = CC_MG_FAR_ROWS, mg->gamma = CC_MG_GAMMA;
    return mg;
}

/* the coarse space: 3 translations per aggregate, 6 with the rotations, 12 the affine maps
 * (mg_modes.c), or 0:
 * chosen when the hierarchy is built (cc_mgi_choose_modes); the hierarchy is rebuilt at the
 * next setup */
void cc_mg_set_modes(cc_mg *mg, int modes)
{
    if (!mg || (modes != 0 && modes != 3 && modes != 6 && modes != 12)) return;
    mg->modes_req = modes;
    cc_mgi_clear(mg);
}

/* the coarse space of the current hierarchy: 3, 6 or 12 modes per aggregate, 0 if none */
int cc_mg_modes(const cc_mg *mg)
{
    return mg && mg->nlev > 0 ? mg->modes : 0;
}

/* the positions (3n, not owned) the rotations of the coarse space turn about, read at every
 * setup and prefill from now on; NULL: none (translations only) */
void cc_mg_set_points(cc_mg *mg, const double *x)
{
    if (mg) mg->x = x;
}

/* level 1 weighs each block level 0's smoother drops, between two aggregates, by 1 + g and
 * takes g times its lumps off their diagonal blocks (g = 0: the Galerkin operator); the
 * hierarchy is rebuilt at the next setup */
void cc_mg_set_gamma(cc_mg *mg, double g)
{
    if (!mg || !(g >= 0) || !isfinite(g)) return;
    mg->gamma = g;
    cc_mgi_clear(mg);
}

/* the levels of at least `rows` block rows prefetch (mg_cycle.c); the hierarchy is rebuilt at
 * the next setup */
void cc_mg_set_far(cc_mg *mg, int rows)
{
    if (!mg || rows < 1) return;
    mg->far = rows;
    cc_mgi_clear(mg);
}

/* level 0's smoother drops lower blocks with ||L_ik||_F < theta sqrt(||A_ii||_F ||A_kk||_F)
 * (0: none); the hierarchy is rebuilt at the next setup */
void cc_mg_set_weak(cc_mg *mg, double theta)
{
    if (!mg || !(theta >= 0)) return;
    mg->weak = theta;
    cc_mgi_clear(mg);
}

/* level 0 in np parts (when each has CC_MG_PART_ROWS rows); the hierarchy is rebuilt at the
 * next setup */
void cc_mg_set_parts(cc_mg *mg, int np)
{
    if (!mg || np < 1) return;
    mg->parts = np > CC_TEAM_MAX ? CC_TEAM_MAX : np;
    cc_mgi_clear(mg);
}

/* the parts of levels 0 and 1 run on team t (not owned; NULL: the caller alone) */
void cc_mg_set_team(cc_mg *mg, cc_team *t)
{
    if (mg) mg->team = t;
}

/* the sweeps take the rows in cc_mgi_sweep_order's order (on != 0) or in index order; the hierarchy
 * is rebuilt at the next setup */
void cc_mg_set_reorder(cc_mg *mg, int on)
{
    if (!mg) return;
    mg->reorder = on != 0;
    cc_mgi_clear(mg);
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
    cc_mgi_clear(mg);
    free(mg->amin);
    free(mg->later);
    free(mg->laterv);
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
double *cc_mgi_vec4_alloc(size_t n)
{
    double *v = aligned_alloc(32, 32 * (n + 1));
    if (v) memset(v, 0, 32 * (n + 1));
    return v;
}

/* n 3x3 blocks of doubles and 4 more (a 4-wide load of a block's last column reads one
 * past it), 32-byte aligned, zero; NULL if no memory */
double *cc_mgi_blocks_alloc(size_t n)
{
    size_t bytes = (9 * n + 4) * sizeof(double);
    double *v = aligned_alloc(32, (bytes + 31) / 32 * 32);
    if (v) memset(v, 0, bytes);
    return v;
}

/* the value arrays of level L for its n and nlo (vectors, smoother blocks); -1 if no memory */
int cc_mgi_level_alloc(mg_level *L, int coarse)
{
    size_t n = (size_t)L->n, nlo = (size_t)L->nlo;
    L->lf = calloc(9 * nlo + 4, sizeof *L->lf);   /* the pad: a row load of the last block reads one past it */
    L->dinv = cc_mgi_blocks_alloc(n);
    L->b = cc_mgi_vec4_alloc(n);
    L->x = cc_mgi_vec4_alloc(n);
    L->g = cc_mgi_vec4_alloc(n);
    if (!coarse) {
        L->dsys = cc_mgi_blocks_alloc(n);
        if (!L->dsys) return -1;
    }
    if (coarse) {
        L->lv = malloc(9 * (nlo + n + 1) * sizeof *L->lv);
        L->dv = L->lv ? L->lv + 9 * nlo : NULL;
        L->r = cc_mgi_vec4_alloc(n);
        L->e = cc_mgi_vec4_alloc(n);
        if (!L->lv || !L->dv || !L->r || !L->e) return -1;
    }
    L->srow = L->rowptr, L->scol = L->col, L->sf = L->lf;   /* the smoother's blocks: all of them */
    return L->lf && L->dinv && L->b && L->x && L->g ? 0 : -1;
}

/* 1 if level 0's smoother keeps lower block p of row i (see cc_mgi_smoother0) */
static int strong0(const mg_level *L, int i, int p, const double *nlo2, const double *nd, const unsigned char *minor,
                   double weak)
{
    double w = minor && minor[p] ? CC_MG_MINOR * weak : weak;
    return nlo2[p] >= w * w * nd[i] * nd[L->col[p]];
}

/* level 0's smoother blocks: the lower blocks with nlo2[p] >= weak^2 nd_i nd_k (squared
 * norms nlo2, diagonal norms nd, as for aggregate), or (CC_MG_MINOR weak)^2 nd_i nd_k for
 * the minor ones (minor[p] != 0; minor may be NULL); when some are weaker, they go to wrow,
 * wcol, wf and the strong ones to srow, scol, sf, in their own arrays; -1 if no memory */
int cc_mgi_smoother0(mg_level *L, const double *nlo2, const double *nd, const unsigned char *minor, double weak)
{
    int ns = 0, nw = 0;
    for (int i = 0; i < L->n; i++)
        for (int p = L->rowptr[i]; p < L->rowptr[i + 1]; p++) ns += strong0(L, i, p, nlo2, nd, minor, weak);
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
            if (strong0(L, i, p, nlo2, nd, minor, weak)) L->slot0[p] = ns, L->scol[ns++] = L->col[p];
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
int cc_mgi_sweep_order(mg_level *L, int reorder)
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

/* the first block of p0 .. p1-1 (columns col, ascending) in a column >= c */
static int first_from(const int *col, int p0, int p1, int c)
{
    while (p0 < p1 && col[p0] < c) p0++;
    return p0;
}

/* L in np parts of consecutive rows, about n/np each (np = 1: one part): np and pstart;
 * -1 if no memory */
int cc_mgi_cut(mg_level *L, int np)
{
    int n = L->n;
    if (np < 1 || n < np) np = 1;
    L->np = np;
    L->pstart = malloc(((size_t)np + 1) * sizeof *L->pstart);
    if (!L->pstart) return -1;
    for (int p = 0; p <= np; p++) L->pstart[p] = (int)((long long)n * p / np);
    return 0;
}

/* C, the level below F, in the parts of F's aggregates (F->cstart: C's rows are F's aggregates,
 * numbered part by part) when each has CC_MG_PART_ROWS rows, else in one part; -1 if no memory */
int cc_mgi_cut_as(mg_level *C, const mg_level *F)
{
    int small = F->np < 2;
    for (int p = 0; p < F->np && !small; p++) small = F->cstart[p + 1] - F->cstart[p] < CC_MG_PART_ROWS;
    if (small) return cc_mgi_cut(C, 1);
    C->np = F->np;
    C->pstart = malloc(((size_t)C->np + 1) * sizeof *C->pstart);
    if (!C->pstart) return -1;
    memcpy(C->pstart, F->cstart, ((size_t)C->np + 1) * sizeof *C->pstart);
    return 0;
}

/* part[i] = the part of row i (cc_mgi_cut's pstart), malloc'd; NULL if no memory */
static int *row_parts(const mg_level *L)
{
    int *part = malloc(((size_t)L->n + 1) * sizeof *part);
    for (int p = 0; part && p < L->np; p++)
        for (int i = L->pstart[p]; i < L->pstart[p + 1]; i++) part[i] = p;
    return part;
}

/* the rest of L's parts (cc_mgi_cut first; one part: sbeg = srow, wbeg = wrow): the sweep order stably
 * partitioned by part (pord; each part keeps the order of its rows, which still solves its
 * triangular system), each row's first block in its own part (sbeg, wbeg) and the rows
 * that have blocks into earlier parts (xrow); -1 if no memory */
int cc_mgi_parts(mg_level *L)
{
    int n = L->n, np = L->np;
    L->pord = malloc(((size_t)np + 1) * sizeof *L->pord);
    if (!L->pord) return -1;
    if (np == 1) {
        L->pord[0] = 0, L->pord[1] = n;
        L->sbeg = L->srow, L->wbeg = L->wrow;
        return 0;
    }
    int *part = row_parts(L), *tmp = malloc(((size_t)n + 1) * sizeof *tmp);
    L->sbeg = malloc(((size_t)n + 1) * sizeof *L->sbeg);
    L->wbeg = L->wrow ? malloc(((size_t)n + 1) * sizeof *L->wbeg) : NULL;
    L->xrow = malloc(((size_t)n + 1) * sizeof *L->xrow);
    int rc = part && tmp && L->sbeg && L->xrow && (L->wbeg || !L->wrow) ? 0 : -1;
    for (int p = 0, i = 0; rc == 0 && p < np; p++)
        for (; i < L->pstart[p + 1]; i++) {
            int c = L->pstart[p];
            L->sbeg[i] = first_from(L->scol, L->srow[i], L->srow[i + 1], c);
            int cross = L->sbeg[i] > L->srow[i];
            if (L->wrow) {
                L->wbeg[i] = first_from(L->wcol, L->wrow[i], L->wrow[i + 1], c);
                cross |= L->wbeg[i] > L->wrow[i];
            }
            if (cross) L->xrow[L->nx++] = i;
        }
    for (int p = 0, m = 0; rc == 0 && p < np; p++) {
        L->pord[p] = m;
        for (int q = 0; q < n; q++)
            if (part[L->ord[q]] == p) tmp[m++] = L->ord[q];
    }
    if (rc == 0) {
        L->pord[np] = n;
        memcpy(L->ord, tmp, (size_t)n * sizeof *L->ord);
    }
    free(part);
    free(tmp);
    return rc;
}

/* level 0's lower pattern = the strictly lower blocks of A; -1 if A is not symmetric in
 * pattern or has no diagonal block somewhere, or no memory */
int cc_mgi_level0_pattern(mg_level *L, const cc_bsr *A)
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
int cc_mgi_aggregate(mg_level *L, const double *nlo2, const double *nd, double theta, int *agg)
{
    int n = L->n, na = 0, np = L->np;
    int *part = np > 1 ? row_parts(L) : NULL;
    if (np > 1 && !part) return -1;
#define STRONG(i, p) (nlo2[p] >= t2 * nd[i] * nd[L->col[p]] && nlo2[p] > 0 && (!part || part[i] == part[L->col[p]]))
    int *deg = calloc((size_t)n + 1, sizeof *deg), *adj = malloc(2 * ((size_t)L->nlo + 1) * sizeof *adj);
    int *start = malloc(((size_t)n + 1) * sizeof *start), *tmp = malloc(((size_t)n + 1) * sizeof *tmp);
    if (!deg || !adj || !start || !tmp) {
        na = -1;
        goto done;
    }
    double t2 = theta * theta;
    for (int i = 0; i < n; i++)   /* strong graph within the parts, both directions, as CSR */
        for (int p = L->rowptr[i]; p < L->rowptr[i + 1]; p++)
            if (STRONG(i, p)) deg[i]++, deg[L->col[p]]++;
    start[0] = 0;
    for (int i = 0; i < n; i++) start[i + 1] = start[i] + deg[i], tmp[i] = start[i];
    for (int i = 0; i < n; i++)
        for (int p = L->rowptr[i]; p < L->rowptr[i + 1]; p++)
            if (STRONG(i, p)) {
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
    L->cstart = malloc(((size_t)np + 1) * sizeof *L->cstart);
    if (!L->cstart) {
        na = -1;
        goto done;
    }
    for (int p = 0; p <= np; p++) L->cstart[p] = p == np ? na : 0;
    if (part && na > 0) {   /* aggregates numbered part by part, each part's in their order */
        int *apart = deg, *label = start;   /* na <= n: reused */
        for (int i = 0; i < n; i++)
            if (agg[i] >= 0) apart[agg[i]] = part[i];
        for (int p = 0, m = 0; p < np; p++) {
            L->cstart[p] = m;
            for (int a = 0; a < na; a++)
                if (apart[a] == p) label[a] = m++;
        }
        for (int i = 0; i < n; i++)
            if (agg[i] >= 0) agg[i] = label[agg[i]];
    }
done:
#undef STRONG
    free(part);
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
int cc_mgi_coarse_pattern(mg_level *F, mg_level *C, int na)
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

