/* The multigrid's coarse space with rotations (cc_mg.modes 6) or the affine maps (12)
 * (sim/algebra/mg_internal.h).
 *
 * Translations alone (modes 3, multigrid.c) give each aggregate three coarse functions,
 * constant over it. Bending's near-kernel is out-of-plane motion linear across the sheet,
 * which piecewise constant functions represent only with a jump at every aggregate's border,
 * at a cost in bending energy that grows with the square of the cloth's size in aggregates;
 * where bending makes the diagonal blocks, MPCG's iterations then grow with k_bend and with
 * refinement (docs/performance.md). So a node (an aggregate) may carry the near-null space of
 * elasticity instead, as in smoothed aggregation (Vanek, Mandel & Brezina 1996; PyAMG's
 * smoothed_aggregation_solver with B the rigid-body modes; AMGCL's elasticity tutorial):
 *   modes 6:  u = t + w x d,  the three translations and three rotations (the rigid motions);
 *   modes 12: u = t + M d,    the affine maps, for a bending energy that acts on all three
 *             coordinates alike (the quadratic model: its Hessian Q (x) I_3 annihilates every
 *             map affine in the rest coordinates, so in-plane stretches cost it nothing either);
 * d = x_i - c_I, the vertex's offset from the aggregate's centre at the current positions x.
 * Per vertex i of aggregate I, with the filter S_i of mpcg.h, u_i = S_i E_i a, E_i = [I | L(d)]
 * (3 x m, a = (t, b): b = w or M row by row), and B_I, the rows S_i E_i of I's vertices
 * stacked, is made orthonormal per aggregate: Gram-Schmidt in the inner product G_I = B_I^T
 * B_I, dropping a column whose remainder is below CC_MG_DROP of its own norm (a vertex alone
 * has no rotations, a row of vertices none about its line, a flat aggregate no affine maps
 * along its normal, a sliding vertex fewer translations). Then B_I = Q_I R_I, Q_I = B_I W_I
 * with W_I upper triangular and R_I = W_I^T G_I, and P's block of vertex i is S_i E_i W_I
 * (3 x m, pv): the columns of Q_I. Coarse levels repeat it with the nodes of the level above
 * as vertices: node I of a coarse aggregate J holds the global modes about J's centre c_J as
 *   y_I = R_I F(c_I - c_J) a,   F(d) a = (t + L(d) b, b)   (m x m),
 * the same modes about c_I in I's coordinates, so B_J stacks those blocks and the same
 * Gram-Schmidt gives W_J and R_J (the coarse near-null space of smoothed aggregation, R). By
 * construction P reproduces the modes exactly: u = S (t + L(x - c) b) on level 0 is P y for
 * the y of every aggregate, and so on down (tests/test_sim_multigrid.c checks it).
 * A node's m coordinates lie on m / 3 block rows of 3 (rI .. rI + r - 1, r = m / 3), so every
 * coarse level is a matrix of 3x3 blocks like level 0, and the smoother, the W-cycle, the
 * dense coarsest solve and the proof of symmetry (multigrid.c) are the same. The prolongator
 * is left unsmoothed as with translations: each Galerkin block is P_i^T A_ik P_k (galerkin_m),
 * summed per pair of nodes as m x m blocks (gn) and spread over the 3x3 blocks
 * (cc_mgi_expand_nodes). A column a node lacks is a zero column of P; its diagonal gets
 * CC_MG_NULLFIX of the node's mean diagonal, so it stays invertible and decoupled (multiplied
 * by zero on the way back). Such a hierarchy keeps every block of level 0 in the smoother
 * (the weak blocks multigrid.c leaves out are bending's, which is what it is for) and takes
 * level 1 as the Galerkin operator of A (the correction gamma of multigrid.c is for the
 * borders of piecewise constant functions).
 * Which coarse space, cc_mgi_choose_modes decides from the matrix when the hierarchy is built:
 * translations unless bending carries a large share of the diagonal blocks (the strength of the
 * bend-only blocks), then the affine maps if the bending blocks act alike on all three
 * coordinates, else the rigid motions.
 */
#include "sim/algebra/mg_internal.h"

#define CC_MG_DROP 1e-10   /* Gram-Schmidt drops a column whose squared remainder is below this of its own */

/* M (m x m row-major) = R F(d): the coordinates about a node's centre c_I of the global modes
 * about c_J = c_I - d, for R those about c_I. F(d) maps (t, b) about c_J to (t + L(d) b, b)
 * about c_I, with L(d) b = w x d for the rotations (m = 6: b = w) and M d for the affine maps
 * (m = 12: b = M row by row): so M's columns 0..2 are R's, and column 3 + k is R's column
 * 3 + k plus R's columns 0..2 times column k of L(d) */
static void times_f(const double *R, const double *d, double *M, int m)
{
    for (int r = 0; r < m; r++) {
        const double *a = R + m * r;
        double *o = M + m * r;
        memcpy(o, a, (size_t)m * sizeof *a);
        if (m == 6) {   /* a[0..2] L(d) = -a[0..2] [d]x = (a2 d1 - a1 d2, a0 d2 - a2 d0, a1 d0 - a0 d1) */
            o[3] += a[2] * d[1] - a[1] * d[2];
            o[4] += a[0] * d[2] - a[2] * d[0];
            o[5] += a[1] * d[0] - a[0] * d[1];
        } else {   /* L(d)[c][3 c + k] = d_k */
            for (int c = 0; c < 3; c++)
                for (int k = 0; k < 3; k++) o[3 + 3 * c + k] += a[c] * d[k];
        }
    }
}

/* E = S [I | L(d)] (3 x m row-major): the global modes about the centre on a vertex at
 * offset d from it, S a 3x3 filter block or NULL for I */
static void vertex_modes(const double *S, const double *d, double *E, int m)
{
    double U[3 * CC_MG_MAXM] = {0};
    for (int a = 0; a < 3; a++) U[m * a + a] = 1;
    if (m == 6) {   /* w x d = -[d]x w */
        U[4] = d[2], U[5] = -d[1];
        U[m + 3] = -d[2], U[m + 5] = d[0];
        U[2 * m + 3] = d[1], U[2 * m + 4] = -d[0];
    } else {
        for (int a = 0; a < 3; a++)
            for (int k = 0; k < 3; k++) U[m * a + 3 + 3 * a + k] = d[k];
    }
    if (!S) {
        memcpy(E, U, 3 * (size_t)m * sizeof *U);
        return;
    }
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < m; c++) E[m * a + c] = S[3 * a] * U[c] + S[3 * a + 1] * U[m + c] + S[3 * a + 2] * U[2 * m + c];
}

/* G += M^T M for M of k rows of m */
static void gram_add(double *G, const double *M, int k, int m)
{
    for (int a = 0; a < m; a++)
        for (int b = 0; b < m; b++) {
            double s = 0;
            for (int r = 0; r < k; r++) s += M[m * r + a] * M[m * r + b];
            G[m * a + b] += s;
        }
}

/* W (m x m row-major, upper triangular) with W^T G W = the identity on the kept columns and 0
 * elsewhere: column j is e_j made G-orthogonal to the kept columns before it (twice, as
 * modified Gram-Schmidt), kept and scaled to G-norm 1 when its squared G-norm is above
 * CC_MG_DROP G_jj, else zero; R = W^T G; returns the dropped columns as bits */
static unsigned short orthonormal(const double *G, double *W, double *R, int m)
{
    unsigned short drop = 0;
    memset(W, 0, (size_t)m * m * sizeof *W);
    for (int j = 0; j < m; j++) {
        double v[CC_MG_MAXM] = {0}, Gv[CC_MG_MAXM];
        v[j] = 1;
        for (int pass = 0; pass < 2; pass++)
            for (int k = 0; k < j; k++) {
                if (drop >> k & 1) continue;
                double c = 0;   /* w_k^T G v */
                for (int a = 0; a < m; a++)
                    for (int b = 0; b < m; b++) c += W[m * a + k] * G[m * a + b] * v[b];
                for (int a = 0; a < m; a++) v[a] -= c * W[m * a + k];
            }
        double n2 = 0;
        for (int a = 0; a < m; a++) {
            Gv[a] = 0;
            for (int b = 0; b < m; b++) Gv[a] += G[m * a + b] * v[b];
            n2 += v[a] * Gv[a];
        }
        if (!(G[(m + 1) * j] > 0) || !(n2 > CC_MG_DROP * G[(m + 1) * j]) || !isfinite(n2)) {
            drop |= (unsigned short)(1u << j);
            continue;
        }
        double s = 1 / sqrt(n2);
        for (int a = 0; a < m; a++) W[m * a + j] = s * v[a];
    }
    for (int r = 0; r < m; r++)   /* R = W^T G */
        for (int c = 0; c < m; c++) {
            double s = 0;
            for (int a = 0; a < m; a++) s += W[m * a + r] * G[m * a + c];
            R[m * r + c] = s;
        }
    return drop;
}

/* P = M W for M of 3 rows of m (row-major) */
static void times_w(const double *M, const double *W, double *P, int m)
{
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < m; c++) {
            double s = 0;
            for (int b = 0; b < m; b++) s += M[m * a + b] * W[m * b + c];
            P[m * a + c] = s;
        }
}

/* level 0's P (pv) for the positions mg->x and the filter F, and level 1's node centres,
 * W_I and R_I; level 1 must be a level of nodes */
void cc_mgi_modes0(cc_mg *mg, const cc_filter *F)
{
    mg_level *L = mg->lev, *C = mg->lev + 1;
    const double *x = mg->x;
    int nn = C->nn, m = C->nm;
    size_t mm = (size_t)m * m;
    memset(C->cen, 0, 3 * (size_t)nn * sizeof *C->cen);
    memset(C->rn, 0, mm * nn * sizeof *C->rn);   /* G_I first */
    int *cnt = (int *)C->r;   /* scratch: C->r has 4 C->n doubles, at least nn ints */
    memset(cnt, 0, (size_t)nn * sizeof *cnt);
    for (int i = 0; i < L->n; i++) {
        int I = L->agg[i];
        if (I < 0) continue;
        for (int a = 0; a < 3; a++) C->cen[3 * I + a] += x[3 * i + a];
        cnt[I]++;
    }
    for (int I = 0; I < nn; I++)
        for (int a = 0; a < 3; a++) C->cen[3 * I + a] /= cnt[I] > 0 ? cnt[I] : 1;
    for (int i = 0; i < L->n; i++) {
        int I = L->agg[i];
        if (I < 0) continue;
        double d[3] = {x[3 * i] - C->cen[3 * I], x[3 * i + 1] - C->cen[3 * I + 1], x[3 * i + 2] - C->cen[3 * I + 2]};
        double *E = L->pv + 3 * (size_t)m * i;   /* S_i E_i, made S_i E_i W_I below */
        vertex_modes(F->pos[i] >= 0 ? F->S + 9 * F->pos[i] : NULL, d, E, m);
        gram_add(C->rn + mm * I, E, 3, m);
    }
    for (int I = 0; I < nn; I++) {
        double G[CC_MG_MAXM * CC_MG_MAXM];
        memcpy(G, C->rn + mm * I, mm * sizeof *G);
        C->drop[I] = orthonormal(G, C->wn + mm * I, C->rn + mm * I, m);
    }
    for (int i = 0; i < L->n; i++) {
        int I = L->agg[i];
        double E[3 * CC_MG_MAXM];
        if (I < 0) continue;
        memcpy(E, L->pv + 3 * (size_t)m * i, 3 * (size_t)m * sizeof *E);
        times_w(E, C->wn + mm * I, L->pv + 3 * (size_t)m * i, m);
    }
}

/* level l's P (l >= 1, a level of nodes above another) from its nodes' centres and R_I, and
 * level l+1's centres, W_J and R_J */
void cc_mgi_modes(cc_mg *mg, int l)
{
    mg_level *L = mg->lev + l, *C = L + 1;
    int nn = C->nn, m = C->nm, r = m / 3;
    size_t mm = (size_t)m * m;
    double *Gs = C->rn;   /* G_J first */
    memset(C->cen, 0, 3 * (size_t)nn * sizeof *C->cen);
    memset(Gs, 0, mm * nn * sizeof *Gs);
    int *cnt = (int *)C->r;
    memset(cnt, 0, (size_t)nn * sizeof *cnt);
    for (int I = 0; I < L->nn; I++) {
        int J = L->agg[r * I];
        if (J < 0) continue;
        for (int a = 0; a < 3; a++) C->cen[3 * J + a] += L->cen[3 * I + a];
        cnt[J]++;
    }
    for (int J = 0; J < nn; J++)
        for (int a = 0; a < 3; a++) C->cen[3 * J + a] /= cnt[J] > 0 ? cnt[J] : 1;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1)
            for (int J = 0; J < nn; J++) {
                double G[CC_MG_MAXM * CC_MG_MAXM];
                memcpy(G, Gs + mm * J, mm * sizeof *G);
                C->drop[J] = orthonormal(G, C->wn + mm * J, C->rn + mm * J, m);
            }
        for (int I = 0; I < L->nn; I++) {
            int J = L->agg[r * I];
            if (J < 0) continue;
            double d[3], M[CC_MG_MAXM * CC_MG_MAXM];
            for (int a = 0; a < 3; a++) d[a] = L->cen[3 * I + a] - C->cen[3 * J + a];
            times_f(L->rn + mm * I, d, M, m);
            if (pass == 0) gram_add(Gs + mm * J, M, m, m);
            else
                for (int q = 0; q < r; q++) times_w(M + 3 * (size_t)m * q, C->wn + mm * J, L->pv + 3 * (size_t)m * (r * I + q), m);
        }
    }
}

/* level L's 3x3 Galerkin blocks (lv, dv) from its node sums (gn), with CC_MG_NULLFIX of the
 * node's mean kept diagonal entry on the diagonal of each column it lacks */
void cc_mgi_expand_nodes(mg_level *L)
{
    int m = L->nm, r = m / 3;
    size_t mm = (size_t)m * m;
    for (int I = 0; I < L->nn; I++) {
        double D[CC_MG_MAXM * CC_MG_MAXM];
        memcpy(D, L->gn + mm * ((size_t)L->nnlo + I), mm * sizeof *D);
        double tr = 0;
        int kept = 0;
        for (int j = 0; j < m; j++)
            if (!(L->drop[I] >> j & 1)) tr += D[(m + 1) * j], kept++;
        double eps = kept > 0 && tr > 0 ? CC_MG_NULLFIX * tr / kept : 1.0;
        for (int j = 0; j < m; j++)
            if (L->drop[I] >> j & 1) D[(m + 1) * j] += eps;
        for (int a = 0; a < m; a++)   /* exactly symmetric: the sums are, up to round-off */
            for (int b = 0; b < a; b++) D[m * a + b] = D[m * b + a] = 0.5 * (D[m * a + b] + D[m * b + a]);
        int own = r * (L->nrow[I + 1] - L->nrow[I]);   /* row r I + q: the pairs' blocks, then (q, 0 .. q-1) */
        for (int q = 0; q < r; q++)
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) {
                    L->dv[9 * (size_t)(r * I + q) + 3 * a + b] = D[m * (3 * q + a) + 3 * q + b];
                    for (int c = 0; c < q; c++)
                        L->lv[9 * (size_t)(L->rowptr[r * I + q] + own + c) + 3 * a + b] = D[m * (3 * q + a) + 3 * c + b];
                }
        for (int e = L->nrow[I]; e < L->nrow[I + 1]; e++) {
            const double *G = L->gn + mm * e;
            int o = r * (e - L->nrow[I]);
            for (int q = 0; q < r; q++)
                for (int c = 0; c < r; c++) {
                    double *t = L->lv + 9 * (size_t)(L->rowptr[r * I + q] + o + c);
                    for (int a = 0; a < 3; a++)
                        for (int b = 0; b < 3; b++) t[3 * a + b] = G[m * (3 * q + a) + 3 * c + b];
                }
        }
    }
}

/* C, the level of nodes of nm coordinates below F: its node pattern (nrow, ncol: the pairs
 * of F's aggregates coupled by a block of F, cc_mgi_coarse_pattern's pattern with one node a
 * row) and F->cslot's codes into it, then its block rows, r = nm / 3 a node: row r I + q has
 * blocks (r I + q, r K + c) for each pair (I, K) and c < r, then (r I + q, r I + c) for
 * c < q; -1 if no memory */
int cc_mgi_coarse_pattern_nodes(mg_level *F, mg_level *C, int na, int nm)
{
    mg_level N = {0};
    if (cc_mgi_coarse_pattern(F, &N, na) < 0) return free(N.rowptr), free(N.col), -1;
    int r = nm / 3;
    C->nm = nm, C->nn = na, C->nnlo = N.nlo, C->nrow = N.rowptr, C->ncol = N.col;
    C->n = r * na;
    C->nlo = r * r * N.nlo + na * r * (r - 1) / 2;
    C->rowptr = malloc(((size_t)C->n + 1) * sizeof *C->rowptr);
    C->col = malloc(((size_t)C->nlo + 1) * sizeof *C->col);
    if (!C->rowptr || !C->col) return -1;
    int p = 0;
    for (int I = 0; I < na; I++)
        for (int q = 0; q < r; q++) {
            C->rowptr[r * I + q] = p;
            for (int e = N.rowptr[I]; e < N.rowptr[I + 1]; e++)
                for (int c = 0; c < r; c++) C->col[p++] = r * N.col[e] + c;
            for (int c = 0; c < q; c++) C->col[p++] = r * I + c;
        }
    C->rowptr[C->n] = p;
    return 0;
}

/* the arrays of F (pv) and C (gn, cen, rn, wn, drop) for a level of nodes C below F; -1 if
 * no memory */
int cc_mgi_alloc_nodes(mg_level *F, mg_level *C)
{
    size_t nn = (size_t)C->nn + 1, mm = (size_t)C->nm * C->nm;
    F->pm = C->nm;
    F->pv = calloc(3 * (size_t)C->nm * F->n + 1, sizeof *F->pv);
    C->gn = calloc(mm * ((size_t)C->nnlo + nn), sizeof *C->gn);
    C->cen = calloc(3 * nn, sizeof *C->cen);
    C->rn = calloc(mm * nn, sizeof *C->rn);
    C->wn = calloc(mm * nn, sizeof *C->wn);
    C->drop = calloc(nn, sizeof *C->drop);
    return F->pv && C->gn && C->cen && C->rn && C->wn && C->drop ? 0 : -1;
}

/* L->agg for a level of nodes (>= 1): Vanek's aggregates of its nodes (cc_mgi_aggregate on
 * the node pattern, the strength of a pair or a node the Frobenius norm of its block of gn),
 * every row of a node in the node's aggregate, L->cstart in the next level's rows (which has
 * as many a node as L); returns the aggregates' number, or -1 if no memory */
int cc_mgi_aggregate_nodes(mg_level *L, double theta)
{
    int r = L->nm / 3;
    size_t mm = (size_t)L->nm * L->nm;
    mg_level N = {.n = L->nn, .nlo = L->nnlo, .rowptr = L->nrow, .col = L->ncol, .np = L->np};
    double *nlo2 = malloc(((size_t)L->nnlo + 1) * sizeof *nlo2), *nd = malloc(((size_t)L->nn + 1) * sizeof *nd);
    int *agg = malloc(((size_t)L->nn + 1) * sizeof *agg), *pstart = malloc(((size_t)L->np + 1) * sizeof *pstart);
    int na = nlo2 && nd && agg && pstart ? 0 : -1;
    if (na == 0) {
        for (int p = 0; p <= L->np; p++) pstart[p] = L->pstart[p] / r;   /* a node's rows lie in one part */
        N.pstart = pstart;
        for (int e = 0; e < L->nnlo; e++) {
            double s = 0;
            for (size_t k = 0; k < mm; k++) s += L->gn[mm * e + k] * L->gn[mm * e + k];
            nlo2[e] = s;
        }
        for (int I = 0; I < L->nn; I++) {
            double s = 0;
            for (size_t k = 0; k < mm; k++) s += L->gn[mm * ((size_t)L->nnlo + I) + k] * L->gn[mm * ((size_t)L->nnlo + I) + k];
            nd[I] = sqrt(s);
        }
        na = cc_mgi_aggregate(&N, nlo2, nd, theta, agg);
    }
    if (na >= 0) {
        for (int I = 0; I < L->nn; I++)
            for (int q = 0; q < r; q++) L->agg[r * I + q] = agg[I];
        L->cstart = N.cstart;
        for (int p = 0; p <= L->np; p++) L->cstart[p] *= r;
    } else {
        free(N.cstart);
    }
    free(nlo2);
    free(nd);
    free(agg);
    free(pstart);
    return na;
}

/* the coarse space for a new hierarchy of A and F (nlo2, nd: the squared norms of level 0's
 * lower blocks and the norms of its diagonal blocks, filtered, as cc_mgi_aggregate reads
 * them). Bending carries a large share of the diagonal when at least half of the minor blocks
 * (cc_bsr.minor: on cloth the couplings of a hinge's two wing vertices, which only bending
 * makes) have ||A_ik||_F >= CC_MG_BENDING sqrt(||A_ii||_F ||A_kk||_F); that ratio grows as
 * h^2 k_bend / l^3 against the mass and the stretch, and levels off (about 0.06 to 0.09 on a
 * grid) where bending makes the diagonal blocks (docs/performance.md has it for the bench
 * scene and the strip). Then 12 modes if at least half of those strong minor blocks (between
 * free vertices) are near a multiple of I, (tr B)^2 >= CC_MG_ISOTROPIC 3 ||B||_F^2 (the
 * quadratic model: 1; a dihedral angle's n n^T-like blocks: about 1/3), else 6; otherwise 3. */
int cc_mgi_choose_modes(const cc_mg *mg, const cc_bsr *A, const cc_filter *F, const double *nlo2, const double *nd)
{
    (void)mg;
    if (!A->minor) return 3;
    long minor = 0, bending = 0, iso = 0;
    double b2 = CC_MG_BENDING * CC_MG_BENDING;
    for (int i = 0, q = 0; i < A->n; i++)
        for (int p = A->rowptr[i]; p < A->diag[i]; p++, q++) {
            if (!A->minor[p]) continue;
            minor++;
            if (!(nlo2[q] >= b2 * nd[i] * nd[A->col[p]] && nlo2[q] > 0)) continue;
            bending++;
            const double *B = cc_bsr_block(A, p);
            double tr = B[0] + B[4] + B[8];
            if (F->pos[i] < 0 && F->pos[A->col[p]] < 0 && tr * tr >= CC_MG_ISOTROPIC * 3 * nlo2[q]) iso++;
        }
    if (!(minor > 0 && 2 * bending >= minor)) return 3;
    return 2 * iso >= bending ? 12 : 6;
}
