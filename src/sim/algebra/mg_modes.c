/* The multigrid's coarse space with rotations (cc_mg.modes 6; sim/algebra/mg_internal.h).
 *
 * Translations alone (modes 3) give each aggregate three coarse functions, constant over it.
 * Bending's near-kernel is out-of-plane motion linear across the sheet, which piecewise
 * constant functions represent only with a jump at every aggregate's border, at a cost in
 * bending energy that grows as the square of the cloth's size in aggregates; the iterations
 * then grow with k_bend and with refinement (docs/performance.md). With modes 6 each
 * aggregate I also has the three rotations about its centre c_I: the near-null space of
 * elasticity, the rigid-body modes (Vanek, Mandel & Brezina 1996; PyAMG's
 * smoothed_aggregation_solver with B the rigid-body modes; AMGCL's elasticity tutorial). On a
 * vertex i of I, with d = x_i - c_I at the current positions x and the filter S_i of
 * mpcg.h,
 *   u_i = S_i E_i a,   E_i = [ I | -[d]x ]   (3 x 6; a = (t, w): u = t + w x d),
 * and B_I, the rows S_i E_i of I's vertices stacked, is made orthonormal per aggregate
 * (Gram-Schmidt in the inner product G_I = B_I^T B_I, columns whose remainder is below
 * CC_MG_DROP6 of their own norm dropped: a vertex alone has no rotations, a row of vertices
 * none about its line, a sliding vertex fewer translations): B_I = Q_I R_I with
 * Q_I = B_I W_I, W_I upper triangular, R_I = W_I^T G_I. P's block of vertex i is then
 * S_i E_i W_I (3 x 6, pv), its columns those of Q_I. Coarse levels repeat it with the
 * nodes of the level above as vertices: node I of a coarse aggregate J holds the rigid
 * motions (T, W) of J's centre c_J as
 *   y_I = R_I F(c_I - c_J) (T, W),   F(d) = [ I  -[d]x ; 0  I ]   (6 x 6),
 * so B_J stacks those 6 x 6 blocks and the same Gram-Schmidt gives W_J and R_J. By
 * construction P reproduces the rigid motions: u = S (t + w x (x - c)) on level 0 is P y for
 * the y of every aggregate (tests/test_sim_mpcg.c checks it).
 * The six coordinates of a node lie on two block rows of 3 (2I: the first three, 2I + 1:
 * the rest), so every coarse level is a matrix of 3x3 blocks like level 0 and the smoother,
 * the W-cycle, the dense coarsest solve and the proof of symmetry (multigrid.c) are the same.
 * The prolongator is left unsmoothed as with translations: each Galerkin block is
 * P_i^T A_ik P_k (galerkin6), summed per pair of nodes as 6x6 blocks (g6) and spread over
 * the 3x3 blocks (cc_mgi_expand6). A column a node lacks is a zero column of P; its
 * diagonal gets CC_MG_NULLFIX of the node's mean diagonal, so it stays invertible and
 * decoupled (multiplied by zero on the way back).
 */
#include "sim/algebra/mg_internal.h"

#define CC_MG_DROP6 1e-10   /* Gram-Schmidt drops a column whose squared remainder is below this of its own */

/* M (6x6 row-major) = R F(d), F(d) = [I -[d]x; 0 I]: columns 0..2 of R, then R's columns
 * 3..5 minus its columns 0..2 times [d]x */
static void times_f(const double *R, const double *d, double *M)
{
    for (int r = 0; r < 6; r++) {
        const double *a = R + 6 * r;   /* a[0..2] [d]x = (a1 d2 - a2 d1, a2 d0 - a0 d2, a0 d1 - a1 d0) */
        M[6 * r] = a[0], M[6 * r + 1] = a[1], M[6 * r + 2] = a[2];
        M[6 * r + 3] = a[3] - (a[1] * d[2] - a[2] * d[1]);
        M[6 * r + 4] = a[4] - (a[2] * d[0] - a[0] * d[2]);
        M[6 * r + 5] = a[5] - (a[0] * d[1] - a[1] * d[0]);
    }
}

/* E = S [I | -[d]x] (3 x 6 row-major), S a 3x3 filter block or NULL for I */
static void vertex_modes(const double *S, const double *d, double *E)
{
    double U[18] = {1, 0, 0, 0, d[2], -d[1], 0, 1, 0, -d[2], 0, d[0], 0, 0, 1, d[1], -d[0], 0};
    if (!S) {
        memcpy(E, U, sizeof U);
        return;
    }
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < 6; c++) E[6 * a + c] = S[3 * a] * U[c] + S[3 * a + 1] * U[6 + c] + S[3 * a + 2] * U[12 + c];
}

/* G += M^T M for M of m rows of 6 */
static void gram_add(double *G, const double *M, int m)
{
    for (int a = 0; a < 6; a++)
        for (int b = 0; b < 6; b++) {
            double s = 0;
            for (int r = 0; r < m; r++) s += M[6 * r + a] * M[6 * r + b];
            G[6 * a + b] += s;
        }
}

/* W (6x6 row-major, upper triangular) with W^T G W = the identity on the kept columns and 0
 * elsewhere: column j is e_j made G-orthogonal to the kept columns before it (twice, as
 * modified Gram-Schmidt), kept and scaled to G-norm 1 when its squared G-norm is above
 * CC_MG_DROP6 G_jj, else zero; R = W^T G; returns the dropped columns as bits */
static unsigned char orthonormal6(const double *G, double *W, double *R)
{
    unsigned char drop = 0;
    memset(W, 0, 36 * sizeof *W);
    for (int j = 0; j < 6; j++) {
        double v[6] = {0, 0, 0, 0, 0, 0}, Gv[6];
        v[j] = 1;
        for (int pass = 0; pass < 2; pass++)
            for (int k = 0; k < j; k++) {
                if (drop >> k & 1) continue;
                double c = 0;   /* w_k^T G v */
                for (int a = 0; a < 6; a++)
                    for (int b = 0; b < 6; b++) c += W[6 * a + k] * G[6 * a + b] * v[b];
                for (int a = 0; a < 6; a++) v[a] -= c * W[6 * a + k];
            }
        double n2 = 0;
        for (int a = 0; a < 6; a++) {
            Gv[a] = 0;
            for (int b = 0; b < 6; b++) Gv[a] += G[6 * a + b] * v[b];
            n2 += v[a] * Gv[a];
        }
        if (!(G[7 * j] > 0) || !(n2 > CC_MG_DROP6 * G[7 * j]) || !isfinite(n2)) {
            drop |= (unsigned char)(1u << j);
            continue;
        }
        double s = 1 / sqrt(n2);
        for (int a = 0; a < 6; a++) W[6 * a + j] = s * v[a];
    }
    for (int r = 0; r < 6; r++)   /* R = W^T G */
        for (int c = 0; c < 6; c++) {
            double s = 0;
            for (int a = 0; a < 6; a++) s += W[6 * a + r] * G[6 * a + c];
            R[6 * r + c] = s;
        }
    return drop;
}

/* P = M W for M of 3 rows of 6 (row-major) */
static void times_w(const double *M, const double *W, double *P)
{
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < 6; c++) {
            double s = 0;
            for (int b = 0; b < 6; b++) s += M[6 * a + b] * W[6 * b + c];
            P[6 * a + c] = s;
        }
}

/* level 0's P (pv) for the positions mg->x and the filter F, and level 1's node centres,
 * W_I and R_I; level 1 must be a level with rotations */
void cc_mgi_modes0(cc_mg *mg, const cc_filter *F)
{
    mg_level *L = mg->lev, *C = mg->lev + 1;
    const double *x = mg->x;
    int nn = C->nn;
    memset(C->cen, 0, 3 * (size_t)nn * sizeof *C->cen);
    memset(C->rn, 0, 36 * (size_t)nn * sizeof *C->rn);   /* G_I first */
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
        double *E = L->pv + 18 * (size_t)i;   /* S_i E_i, made S_i E_i W_I below */
        vertex_modes(F->pos[i] >= 0 ? F->S + 9 * F->pos[i] : NULL, d, E);
        gram_add(C->rn + 36 * (size_t)I, E, 3);
    }
    for (int I = 0; I < nn; I++) {
        double G[36];
        memcpy(G, C->rn + 36 * (size_t)I, sizeof G);
        C->drop[I] = orthonormal6(G, C->wn + 36 * (size_t)I, C->rn + 36 * (size_t)I);
    }
    for (int i = 0; i < L->n; i++) {
        int I = L->agg[i];
        double E[18];
        if (I < 0) continue;
        memcpy(E, L->pv + 18 * (size_t)i, sizeof E);
        times_w(E, C->wn + 36 * (size_t)I, L->pv + 18 * (size_t)i);
    }
}

/* level l's P (l >= 1, a level with rotations above another) from its nodes' centres and
 * R_I, and level l+1's centres, W_J and R_J */
void cc_mgi_modes(cc_mg *mg, int l)
{
    mg_level *L = mg->lev + l, *C = L + 1;
    int nn = C->nn;
    double *Gs = C->rn;   /* G_J first */
    memset(C->cen, 0, 3 * (size_t)nn * sizeof *C->cen);
    memset(Gs, 0, 36 * (size_t)nn * sizeof *Gs);
    int *cnt = (int *)C->r;
    memset(cnt, 0, (size_t)nn * sizeof *cnt);
    for (int I = 0; I < L->nn; I++) {
        int J = L->agg[2 * I];
        if (J < 0) continue;
        for (int a = 0; a < 3; a++) C->cen[3 * J + a] += L->cen[3 * I + a];
        cnt[J]++;
    }
    for (int J = 0; J < nn; J++)
        for (int a = 0; a < 3; a++) C->cen[3 * J + a] /= cnt[J] > 0 ? cnt[J] : 1;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1)
            for (int J = 0; J < nn; J++) {
                double G[36];
                memcpy(G, Gs + 36 * (size_t)J, sizeof G);
                C->drop[J] = orthonormal6(G, C->wn + 36 * (size_t)J, C->rn + 36 * (size_t)J);
            }
        for (int I = 0; I < L->nn; I++) {
            int J = L->agg[2 * I];
            if (J < 0) continue;
            double d[3], M[36];
            for (int a = 0; a < 3; a++) d[a] = L->cen[3 * I + a] - C->cen[3 * J + a];
            times_f(L->rn + 36 * (size_t)I, d, M);
            if (pass == 0) gram_add(Gs + 36 * (size_t)J, M, 6);
            else {
                times_w(M, C->wn + 36 * (size_t)J, L->pv + 18 * (size_t)(2 * I));
                times_w(M + 18, C->wn + 36 * (size_t)J, L->pv + 18 * (size_t)(2 * I + 1));
            }
        }
    }
}

/* level L's 3x3 Galerkin blocks (lv, dv) from its 6x6 node sums (g6), with CC_MG_NULLFIX of
 * the node's mean kept diagonal entry on the diagonal of each column it lacks */
void cc_mgi_expand6(mg_level *L)
{
    for (int I = 0; I < L->nn; I++) {
        double D[36];
        memcpy(D, L->g6 + 36 * ((size_t)L->nnlo + I), sizeof D);
        double tr = 0;
        int kept = 0;
        for (int j = 0; j < 6; j++)
            if (!(L->drop[I] >> j & 1)) tr += D[7 * j], kept++;
        double eps = kept > 0 && tr > 0 ? CC_MG_NULLFIX * tr / kept : 1.0;
        for (int j = 0; j < 6; j++)
            if (L->drop[I] >> j & 1) D[7 * j] += eps;
        for (int a = 0; a < 6; a++)   /* exactly symmetric: the sums are, up to round-off */
            for (int b = 0; b < a; b++) D[6 * a + b] = D[6 * b + a] = 0.5 * (D[6 * a + b] + D[6 * b + a]);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                L->dv[9 * (size_t)(2 * I) + 3 * a + b] = D[6 * a + b];
                L->dv[9 * (size_t)(2 * I + 1) + 3 * a + b] = D[6 * (3 + a) + 3 + b];
                L->lv[9 * (size_t)(L->rowptr[2 * I + 2] - 1) + 3 * a + b] = D[6 * (3 + a) + b];
            }
        for (int e = L->nrow[I]; e < L->nrow[I + 1]; e++) {
            const double *G = L->g6 + 36 * (size_t)e;
            int o = 2 * (e - L->nrow[I]);
            for (int r = 0; r < 2; r++)
                for (int c = 0; c < 2; c++) {
                    double *t = L->lv + 9 * (size_t)(L->rowptr[2 * I + r] + o + c);
                    for (int a = 0; a < 3; a++)
                        for (int b = 0; b < 3; b++) t[3 * a + b] = G[6 * (3 * r + a) + 3 * c + b];
                }
        }
    }
}

/* C, the level below F with rotations: its node pattern (nrow, ncol: the pairs of F's
 * aggregates coupled by a block of F, cc_mgi_coarse_pattern's pattern one node per row) and
 * F->cslot's codes into it, then its block rows: row 2I has blocks (2I, 2K) and (2I, 2K+1)
 * for each pair (I, K), row 2I+1 the same and (2I+1, 2I) last; -1 if no memory */
int cc_mgi_coarse_pattern6(mg_level *F, mg_level *C, int na)
{
    mg_level N = {0};
    if (cc_mgi_coarse_pattern(F, &N, na) < 0) return free(N.rowptr), free(N.col), -1;
    C->nn = na, C->nnlo = N.nlo, C->nrow = N.rowptr, C->ncol = N.col;
    C->n = 2 * na;
    C->nlo = 4 * N.nlo + na;
    C->rowptr = malloc(((size_t)C->n + 1) * sizeof *C->rowptr);
    C->col = malloc(((size_t)C->nlo + 1) * sizeof *C->col);
    if (!C->rowptr || !C->col) return -1;
    int q = 0;
    for (int I = 0; I < na; I++)
        for (int r = 0; r < 2; r++) {
            C->rowptr[2 * I + r] = q;
            for (int e = N.rowptr[I]; e < N.rowptr[I + 1]; e++) C->col[q++] = 2 * N.col[e], C->col[q++] = 2 * N.col[e] + 1;
            if (r == 1) C->col[q++] = 2 * I;
        }
    C->rowptr[C->n] = q;
    return 0;
}

/* the arrays of F (pv) and C (g6, cen, rn, wn, drop) for a level C with rotations below F;
 * -1 if no memory */
int cc_mgi_alloc6(mg_level *F, mg_level *C)
{
    size_t nn = (size_t)C->nn + 1;
    F->pv = calloc(18 * (size_t)F->n + 1, sizeof *F->pv);
    C->g6 = calloc(36 * ((size_t)C->nnlo + nn), sizeof *C->g6);
    C->cen = calloc(3 * nn, sizeof *C->cen);
    C->rn = calloc(36 * nn, sizeof *C->rn);
    C->wn = calloc(36 * nn, sizeof *C->wn);
    C->drop = calloc(nn, 1);
    return F->pv && C->g6 && C->cen && C->rn && C->wn && C->drop ? 0 : -1;
}

/* L->agg for a level with rotations (>= 1): Vanek's aggregates of its nodes (cc_mgi_aggregate
 * on the node pattern, the strength of a pair or a node the Frobenius norm of its 6x6 block
 * of g6), both rows of a node in the node's aggregate, L->cstart in the next level's rows;
 * returns the aggregates' number, or -1 if no memory */
int cc_mgi_aggregate6(mg_level *L, double theta)
{
    mg_level N = {.n = L->nn, .nlo = L->nnlo, .rowptr = L->nrow, .col = L->ncol, .np = L->np};
    double *nlo2 = malloc(((size_t)L->nnlo + 1) * sizeof *nlo2), *nd = malloc(((size_t)L->nn + 1) * sizeof *nd);
    int *agg = malloc(((size_t)L->nn + 1) * sizeof *agg), *pstart = malloc(((size_t)L->np + 1) * sizeof *pstart);
    int na = nlo2 && nd && agg && pstart ? 0 : -1;
    if (na == 0) {
        for (int p = 0; p <= L->np; p++) pstart[p] = L->pstart[p] / 2;   /* a node's two rows lie in one part */
        N.pstart = pstart;
        for (int e = 0; e < L->nnlo; e++) {
            double s = 0;
            for (int k = 0; k < 36; k++) s += L->g6[36 * (size_t)e + k] * L->g6[36 * (size_t)e + k];
            nlo2[e] = s;
        }
        for (int I = 0; I < L->nn; I++) {
            double s = 0;
            for (int k = 0; k < 36; k++) s += L->g6[36 * ((size_t)L->nnlo + I) + k] * L->g6[36 * ((size_t)L->nnlo + I) + k];
            nd[I] = sqrt(s);
        }
        na = cc_mgi_aggregate(&N, nlo2, nd, theta, agg);
    }
    if (na >= 0) {
        for (int I = 0; I < L->nn; I++) L->agg[2 * I] = L->agg[2 * I + 1] = agg[I];
        L->cstart = N.cstart;
        for (int p = 0; p <= L->np; p++) L->cstart[p] *= 2;
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
 * them): 6 modes when bending carries a large share of the diagonal, i.e. when at least half
 * of the minor blocks (cc_bsr.minor: on cloth the couplings of a hinge's two wing vertices,
 * which only bending makes) have ||A_ik||_F >= CC_MG_BENDING sqrt(||A_ii||_F ||A_kk||_F);
 * else 3. That ratio grows as h^2 k_bend / l^3 against the mass and the stretch, and levels
 * off (about 0.06 to 0.09 on a grid) where bending makes the diagonal blocks: on the bench
 * scene 2.5e-4 at 66 x 66 and 1.5e-2 at 256 x 256, on bend_compare's strip (30 x 6)
 * 5.5e-3 at k_bend 2e-4 and 4.8e-2 at 2e-3 (docs/performance.md). */
int cc_mgi_choose_modes(const cc_mg *mg, const cc_bsr *A, const cc_filter *F, const double *nlo2, const double *nd)
{
    (void)mg, (void)F;
    if (!A->minor) return 3;
    long minor = 0, bending = 0;
    double b2 = CC_MG_BENDING * CC_MG_BENDING;
    for (int i = 0, q = 0; i < A->n; i++)
        for (int p = A->rowptr[i]; p < A->diag[i]; p++, q++)
            if (A->minor[p]) minor++, bending += nlo2[q] >= b2 * nd[i] * nd[A->col[p]] && nlo2[q] > 0;
    return minor > 0 && 2 * bending >= minor ? 6 : 3;
}
