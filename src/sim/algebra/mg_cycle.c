/* The multigrid smoother, cycle and single-precision product, per solve (sim/algebra/mg_internal.h;
 * the method and why the cycle is SPD: multigrid.c; the figures: docs/performance.md).
 *
 * Memory traffic. The cycle's fine level reads only the strictly lower blocks of At, in
 * single precision (36 bytes a block, against 72 for each of the two triangles of A in
 * double): the forward sweep solves (D + L) x = b row by row and scatters -L_ik^T x_i to the
 * residual b - At x = -U x of the earlier rows k < i, and the backward sweep gathers with L_ik
 * and scatters L_ik^T x_i the same way; on level 0 the sweeps read the smoother's blocks only
 * (sf), kept apart from the weak ones (wf). The diagonal block inverses and all the coarse
 * Galerkin sums stay in double, taken from A in double, so the cancellation in them (stiff
 * blocks summing to small ones) costs no accuracy. MPCG's products S A S c read the same
 * single-precision lower blocks, strong and weak, and the filtered diagonal blocks in double
 * (cc_mg_product; mpcg.c argues the perturbation). The values of level 0 (and level 1's
 * Galerkin sums) are taken row by row; the simulator's assembly hands over each row of A as
 * it becomes final (cc_mg_prefill), while it is still in the cache.
 *
 * Sweep order. A forward sweep in index order waits at almost every row for the row before
 * it, whose x it gathers (on a grid vertex i - 1 is a neighbour of i); a backward sweep
 * waits for the row after it, whose scatter into g it reads. Each wait is a chain of about
 * fifteen dependent instructions and a store forwarded to a load. So the sweeps take the
 * rows in another order (cc_mgi_sweep_order, multigrid.c): any order in which each row comes
 * after the rows of its lower blocks solves the same triangular systems, so the forward sweep
 * gives the same x and the backward sweep (the order reversed) the same update, up to the
 * order of the additions scattered into one row. Among the rows whose lower blocks' rows are
 * all done, it takes the smallest that does not couple to the row taken just before it; on a
 * grid that walks two neighbouring rows of vertices side by side (cc_mg_chained measures
 * it). With that order, a row's blocks (up to four) stay in registers from the gather to the
 * scatter (gs_row_fixed).
 *
 * Parts. Level 0's sweeps and the product run in two parts of consecutive rows, side by side
 * on two threads (team.h) when each part has CC_MG_PART_ROWS rows or more (cc_mg_set_parts),
 * and level 1's sweeps and restriction in the same two parts (its rows are level 0's
 * aggregates, numbered part by part: cc_mgi_cut_as) when each of those has as many rows too;
 * levels 2 and below in one part. The rows of the second part leave their blocks into the
 * first (the cross blocks, at the start of each such row: columns ascend) out of their
 * sweeps; the residual's cross terms are added after the forward parts, those of the old x
 * before the backward ones, and the product adds its cross blocks after its parts
 * (multigrid.c says why the cycle stays SPD). Each thread keeps working on its own half of
 * every level-0 vector, which matters where the two CPUs are far apart. */
#include "sim/algebra/mg_internal.h"

/* ---------- the cycle ---------- */

/* The cycle keeps its vectors 4 doubles per vertex (lanes 0..2, lane 3 zero), so a vertex is
 * one aligned AVX vector. With AVX2 and FMA (checked at run time) a block row of the
 * smoother is done with vectors: the gather accumulates the rows of L_ik (read as 4 floats,
 * the fourth belonging to the next row and meeting the zero lane 3 of x_k) times x_k lane by
 * lane and sums the lanes once per row; the scatter adds sum_a (row a of L_ik) x_ia, which is
 * L_ik^T x_i, with its fourth lane cleared. Otherwise the same sums are taken one by one. */

/* On a level too large for the near caches (ahead > 0: CC_MG_FAR_ROWS block rows or more) the
 * passes ask for a row's data that many rows before they reach it: the sweeps take the rows
 * in the sweep order, which walks two rows of the grid side by side, so each array is read in
 * two places at once and the hardware's own prefetch falls behind. On the bench scene at
 * 256 x 256 (one thread) a cycle took 2.4 ms instead of 3.6 with level 0 prefetching, and a
 * product 0.66 ms instead of 1.07; level 1 (11 000 rows) prefetching as well took a step from
 * 79.5 to 74.6 ms. At 66 x 66 (4356 rows on level 0) it cost 3 % of a cycle, at 132 x 132
 * and 160 x 160 it made no difference (docs/performance.md). The two helpers are always
 * inlined: GCC 12 judges a function of nothing but prefetches to have no effect and drops its
 * calls. */

/* prefetch row i of a sweep: its smoother blocks (up to four: 3 cache lines), D_i^-1, b_i,
 * and the vectors it writes (x_i, and out_i: res zeroed forward, g read backward) */
static inline __attribute__((always_inline)) void sweep_prefetch(const mg_level *L, int i, const double *b, const double *x, const double *out)
{
    const char *B = (const char *)(L->sf + 9 * (size_t)L->sbeg[i]), *D = (const char *)(L->dinv + 9 * (size_t)i);
    __builtin_prefetch(B), __builtin_prefetch(B + 64), __builtin_prefetch(B + 128);
    __builtin_prefetch(D), __builtin_prefetch(D + 64);
    __builtin_prefetch(b + 4 * (size_t)i);
    __builtin_prefetch(x + 4 * (size_t)i, 1), __builtin_prefetch(out + 4 * (size_t)i, 1);
}

/* prefetch row i of the product: its strong and weak blocks and its diagonal block */
static inline __attribute__((always_inline)) void product_prefetch(const mg_level *L, int i)
{
    const char *B = (const char *)(L->sf + 9 * (size_t)L->sbeg[i]), *D = (const char *)(L->dsys + 9 * (size_t)i);
    __builtin_prefetch(B), __builtin_prefetch(B + 64);
    if (L->wrow) {
        const char *W = (const char *)(L->wf + 9 * (size_t)L->wbeg[i]);
        __builtin_prefetch(W), __builtin_prefetch(W + 64);
    }
    __builtin_prefetch(D), __builtin_prefetch(D + 64);
}

/* x_i = D_i^-1 (t - sum_p L_p x_col(p)) over the stored lower blocks of row i; then
 * out_col(p) += sign L_p^T x_i (the transposed blocks, i.e. the upper part of A, applied);
 * *tx += x_i . D_i x_i when tx is not NULL */
static inline void gs_row(const mg_level *L, int i, const double *t, double *x, double *out, double sign, double *tx)
{
    int p0 = L->sbeg[i], p1 = L->srow[i + 1];
    double t0 = t[0], t1 = t[1], t2 = t[2];
    for (int p = p0; p < p1; p++) {
        const cc_mgf *B = L->sf + 9 * p;
        const double *xk = x + 4 * L->scol[p];
        t0 -= B[0] * xk[0] + B[1] * xk[1] + B[2] * xk[2];
        t1 -= B[3] * xk[0] + B[4] * xk[1] + B[5] * xk[2];
        t2 -= B[6] * xk[0] + B[7] * xk[1] + B[8] * xk[2];
    }
    const double *Di = L->dinv + 9 * i;
    double x0 = Di[0] * t0 + Di[3] * t1 + Di[6] * t2;
    double x1 = Di[1] * t0 + Di[4] * t1 + Di[7] * t2;
    double x2 = Di[2] * t0 + Di[5] * t1 + Di[8] * t2;
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

/* the rows ord[q0] .. ord[q1-1] of x = (D + L)^-1 b (forward block Gauss-Seidel from x = 0)
 * and res = b - A x = -U x, the blocks of the rows' own part (sbeg); res_i is zeroed at row
 * i, before the later rows scatter into it; *tx += x_i . D x_i if tx is not NULL */
static void gs_forward_scalar(const mg_level *L, int q0, int q1, const double *b, double *x, double *res, double *tx)
{
    for (int q = q0; q < q1; q++) {
        int i = L->ord[q];
        if (L->ahead && q + L->ahead < q1) sweep_prefetch(L, L->ord[q + L->ahead], b, x, res);
        memset(res + 4 * i, 0, 4 * sizeof *res);
        gs_row(L, i, b + 4 * i, x, res, -1.0, tx);
    }
}

/* the rows ord[q1-1] .. ord[q0] of x = x + (D + U)^-1 (b - A x) (backward block
 * Gauss-Seidel), the blocks of the rows' own part; g holds the sums of the other blocks */
static void gs_backward_scalar(const mg_level *L, int q0, int q1, const double *b, double *x, double *g)
{
    for (int q = q1 - 1; q >= q0; q--) {
        int i = L->ord[q];
        if (L->ahead && q - L->ahead >= q0) sweep_prefetch(L, L->ord[q - L->ahead], b, x, g);
        double t[3] = {b[4 * i] - g[4 * i], b[4 * i + 1] - g[4 * i + 1], b[4 * i + 2] - g[4 * i + 2]};
        gs_row(L, i, t, x, g, 1.0, NULL);
    }
}

#if CC_AVX2
/* x_i = D_i^-1 t (lanes 0..2 of t; lane 3 of x_i is 0: each column load of D_i^-1 reads one
 * double past the column, and that lane is cleared), stored; lane by lane *tx += t D_i^-1 t
 * when tx is not NULL */
CC_TARGET_AVX2 static inline __m256d gs_solve_avx2(const mg_level *L, int i, __m256d t, double *x, __m256d *tx)
{
    const double *D = L->dinv + 9 * (size_t)i;
    __m256d xi = _mm256_mul_pd(_mm256_loadu_pd(D), _mm256_permute4x64_pd(t, 0x00));
    xi = _mm256_fmadd_pd(_mm256_loadu_pd(D + 3), _mm256_permute4x64_pd(t, 0x55), xi);
    xi = _mm256_fmadd_pd(_mm256_loadu_pd(D + 6), _mm256_permute4x64_pd(t, 0xAA), xi);
    xi = _mm256_blend_pd(xi, _mm256_setzero_pd(), 8);
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
    int p0 = L->sbeg[i], p1 = L->srow[i + 1];
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
CC_TARGET_AVX2 static void gs_forward_avx2(const mg_level *L, int q0, int q1, const double *b, double *x, double *res,
                                           double *tx)
{
    __m256d sign = _mm256_set1_pd(-1.0), zero = _mm256_setzero_pd(), acc = zero;
    for (int q = q0; q < q1; q++) {
        int i = L->ord[q];
        if (L->ahead && q + L->ahead < q1) sweep_prefetch(L, L->ord[q + L->ahead], b, x, res);
        _mm256_store_pd(res + 4 * i, zero);
        gs_row_avx2(L, i, _mm256_load_pd(b + 4 * i), x, res, sign, tx ? &acc : NULL);
    }
    if (tx) {
        double a[4];
        _mm256_storeu_pd(a, acc);
        *tx += (a[0] + a[1]) + a[2];
    }
}

/* gs_backward_scalar with AVX2 */
CC_TARGET_AVX2 static void gs_backward_avx2(const mg_level *L, int q0, int q1, const double *b, double *x, double *g)
{
    __m256d sign = _mm256_set1_pd(1.0);
    for (int q = q1 - 1; q >= q0; q--) {
        int i = L->ord[q];
        if (L->ahead && q - L->ahead >= q0) sweep_prefetch(L, L->ord[q - L->ahead], b, x, g);
        gs_row_avx2(L, i, _mm256_sub_pd(_mm256_load_pd(b + 4 * i), _mm256_load_pd(g + 4 * i)), x, g, sign, NULL);
    }
}
#endif

/* ---------- the sweeps by parts ---------- */

/* A level in several parts (level 0, cc_mgi_parts) sweeps each part on its own, the parts
 * side by side: a part's rows leave out their cross blocks L_ik (k in an earlier part). The
 * forward sweep is then x = M^-1 b with M = D + L - C (C: the cross blocks), and the
 * residual b - A x gets the cross terms after the parts are done; the backward sweep
 * solves with M^T, the cross terms of the old x added before the parts start. Where the
 * sweep's D_i is A's plus a shift Delta_i (the rows of the cut that mg_values.c's cut_safe
 * shifts), M = D + Delta + L - C, and the same two places add Delta_i x_i (shift_terms),
 * so that the residuals are those of A. */

/* what a part of a sweep needs */
typedef struct {
    const cc_mg *mg;
    const mg_level *L;
    const double *b;
    double *x, *out;      /* out: res (forward) or g (backward) */
    int backward, want_tx;
    double tx[CC_TEAM_MAX];
} sweep_job;

/* the sweep over part p of j's level */
static void sweep_part(void *arg, int p)
{
    sweep_job *j = arg;
    const mg_level *L = j->L;
    int q0 = L->pord[p], q1 = L->pord[p + 1];
    double *tx = j->want_tx ? j->tx + p : NULL;
#if CC_AVX2
    if (j->mg->avx2) {
        if (j->backward) gs_backward_avx2(L, q0, q1, j->b, j->x, j->out);
        else gs_forward_avx2(L, q0, q1, j->b, j->x, j->out, tx);
        return;
    }
#endif
    if (j->backward) gs_backward_scalar(L, q0, q1, j->b, j->x, j->out);
    else gs_forward_scalar(L, q0, q1, j->b, j->x, j->out, tx);
}

/* for every cross block L_ik (i in xrow): out_i += sign L_ik x_k and out_k += sign L_ik^T x_i;
 * returns x^T C x, the sum of x_i . L_ik x_k */
static double cross_terms(const mg_level *L, const double *x, double *out, double sign)
{
    double xcx = 0;
    for (int c = 0; c < L->nx; c++) {
        int i = L->xrow[c];
        const double *xi = x + 4 * (size_t)i;
        double *oi = out + 4 * (size_t)i;
        for (int p = L->srow[i]; p < L->sbeg[i]; p++) {
            const cc_mgf *B = L->sf + 9 * (size_t)p;
            const double *xk = x + 4 * (size_t)L->scol[p];
            double *ok = out + 4 * (size_t)L->scol[p];
            for (int a = 0; a < 3; a++) {
                double bx = B[3 * a] * xk[0] + B[3 * a + 1] * xk[1] + B[3 * a + 2] * xk[2];
                oi[a] += sign * bx;
                ok[a] += sign * (B[a] * xi[0] + B[3 + a] * xi[1] + B[6 + a] * xi[2]);
                xcx += xi[a] * bx;
            }
        }
    }
    return xcx;
}

/* for every row i with a shifted diagonal (shrow; the sweep's D_i is D_i + Delta_i,
 * mg_values.c): out_i += sign Delta_i x_i; returns the sum of x_i . Delta_i x_i */
static double shift_terms(const mg_level *L, const double *x, double *out, double sign)
{
    double xdx = 0;
    for (int c = 0; c < L->nsh; c++) {
        int i = L->shrow[c];
        const double *d = L->shd + 9 * (size_t)c, *xi = x + 4 * (size_t)i;
        for (int a = 0; a < 3; a++) {
            double dx = d[3 * a] * xi[0] + d[3 * a + 1] * xi[1] + d[3 * a + 2] * xi[2];
            out[4 * (size_t)i + a] += sign * dx;
            xdx += xi[a] * dx;
        }
    }
    return xdx;
}

/* x = M^-1 b and res = b - A x (4-lane vectors); *tx = x^T (M + M^T - A) x = x . D x - 2 x^T C x
 * + x^T Delta x if tx is not NULL (the cycle's first term, multigrid.c; D with the shifts) */
static void gs_forward(const cc_mg *mg, const mg_level *L, const double *b, double *x, double *res, double *tx)
{
    sweep_job j = {mg, L, b, x, res, 0, tx != NULL, {0}};
    cc_team_run(L->np > 1 ? mg->team : NULL, sweep_part, &j, L->np);
    double xcx = L->np > 1 ? cross_terms(L, x, res, -1.0) : 0;
    double xdx = L->nsh ? shift_terms(L, x, res, 1.0) : 0;   /* A's D_i, not the sweep's */
    if (tx) {
        *tx = xdx;
        for (int p = 0; p < L->np; p++) *tx += j.tx[p];
        if (L->np > 1) *tx -= 2 * xcx;
    }
}

/* x = x + M^-T (b - A x) (4-lane vectors); g is scratch, zero on entry */
static void gs_backward(const cc_mg *mg, const mg_level *L, const double *b, double *x, double *g)
{
    if (L->np > 1) (void)cross_terms(L, x, g, 1.0);
    if (L->nsh) (void)shift_terms(L, x, g, -1.0);   /* (D + Delta + U) x' = b - (L - Delta) x */
    sweep_job j = {mg, L, b, x, g, 1, 0, {0}};
    cc_team_run(L->np > 1 ? mg->team : NULL, sweep_part, &j, L->np);
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
 * scatters -L_ik^T x_i to the earlier rows k < i of its part, already stored (a block row
 * load reads 4 floats, the fourth the next row's or lf's zero pad, which meets lane 3 of x;
 * a row of D_i reads one double past it, the next row's or the scratch block's) */
CC_TARGET_AVX2 static void sym_residual_avx2(const mg_level *L, int i0, int i1, const double *b, const double *x, double *r)
{
    const int *col = L->col;
    __m256d zero = _mm256_setzero_pd();
    for (int i = i0; i < i1; i++) {
        __m256d xi = _mm256_load_pd(x + 4 * (size_t)i);
        __m256d x0 = _mm256_permute4x64_pd(xi, 0x00), x1 = _mm256_permute4x64_pd(xi, 0x55);
        __m256d x2 = _mm256_permute4x64_pd(xi, 0xAA);
        const double *D = L->dv + 9 * (size_t)i;
        __m256d a0 = _mm256_mul_pd(_mm256_loadu_pd(D), xi), a1 = _mm256_mul_pd(_mm256_loadu_pd(D + 3), xi);
        __m256d a2 = _mm256_mul_pd(_mm256_loadu_pd(D + 6), xi);
        for (int p = L->sbeg[i]; p < L->rowptr[i + 1]; p++) {
            const cc_mgf *B = L->lf + 9 * (size_t)p;
            __m256d b0 = _mm256_cvtps_pd(_mm_loadu_ps(B)), b1 = _mm256_cvtps_pd(_mm_loadu_ps(B + 3));
            __m256d b2 = _mm256_cvtps_pd(_mm_loadu_ps(B + 6));
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

/* rows i0 .. i1-1 of r = b - A x on a level >= 1, with A = D + L + L^T from the Galerkin
 * diagonal blocks in double and the smoother's single-precision lower blocks (lf, the
 * blocks of the rows' own part: sbeg); 4-lane vectors */
static void sym_residual_scalar(const mg_level *L, int i0, int i1, const double *b, const double *x, double *r)
{
    for (int i = i0; i < i1; i++) {
        const double *D = L->dv + 9 * i, *xi = x + 4 * i;
        for (int a = 0; a < 3; a++) r[4 * i + a] = b[4 * i + a] - (D[3 * a] * xi[0] + D[3 * a + 1] * xi[1] + D[3 * a + 2] * xi[2]);
        r[4 * i + 3] = 0;
    }
    for (int i = i0; i < i1; i++)
        for (int p = L->sbeg[i]; p < L->rowptr[i + 1]; p++) {
            const cc_mgf *B = L->lf + 9 * p;
            const double *xk = x + 4 * L->col[p], *xi = x + 4 * i;
            double *ri = r + 4 * i, *rk = r + 4 * L->col[p];
            for (int a = 0; a < 3; a++) {
                ri[a] -= B[3 * a] * xk[0] + B[3 * a + 1] * xk[1] + B[3 * a + 2] * xk[2];
                rk[a] -= B[a] * xi[0] + B[3 + a] * xi[1] + B[6 + a] * xi[2];
            }
        }
}

/* what the parts of a residual need */
typedef struct {
    const cc_mg *mg;
    const mg_level *L;
    const double *b, *x;
    double *r;
} residual_job;

/* the residual's rows of part p */
static void residual_part(void *arg, int p)
{
    residual_job *j = arg;
    int i0 = j->L->pstart[p], i1 = j->L->pstart[p + 1];
#if CC_AVX2
    if (j->mg->avx2) {
        sym_residual_avx2(j->L, i0, i1, j->b, j->x, j->r);
        return;
    }
#endif
    sym_residual_scalar(j->L, i0, i1, j->b, j->x, j->r);
}

/* r = b - A x on a level >= 1 (4-lane vectors; A as in sym_residual_scalar): its parts side
 * by side, then the terms of the blocks across them. The lower blocks in single precision,
 * as the sweeps read them, halve what a residual reads; on the bench scene (gamma 0) the
 * iterations stayed the same (7.21 / 8.22 / 10.77 at 66 / 132 / 256) and 256 x 256 took
 * 43.3 ms a step instead of 44.5 */
static void sym_residual(const cc_mg *mg, const mg_level *L, const double *b, const double *x, double *r)
{
    residual_job j = {mg, L, b, x, r};
    cc_team_run(L->np > 1 ? mg->team : NULL, residual_part, &j, L->np);
    if (L->np > 1) (void)cross_terms(L, x, r, -1.0);   /* the smoother's blocks are all of them here */
}

/* restrict_rows on a level whose next level has nodes (mg_modes.c): bc_(rows of node I) +=
 * P_i^T g_i (S_i inside P_i on level 0), g = 0; bc's rows of the part zeroed by the caller.
 * Out of line, so that the translations' loops keep their code. */
static __attribute__((noinline)) void restrict_rows_nodes(const mg_level *L, double *restrict g, double *restrict bc,
                                                          int i0, int i1)
{
    int m = L->pm;
    for (int i = i0; i < i1; i++) {
        int I = L->agg[i];
        double *restrict gi = g + 4 * (size_t)i;
        if (I >= 0) {
            const double *P = L->pv + 3 * (size_t)m * i;
            double *b0 = bc + 4 * (size_t)(m / 3) * I;
            for (int c = 0; c < m; c++) b0[c + c / 3] += P[c] * gi[0] + P[m + c] * gi[1] + P[2 * m + c] * gi[2];
        }
        for (int a = 0; a < 4; a++) gi[a] = 0;
    }
}

/* prolong_rows on a level whose next level has nodes: x_i += P_i xc_(rows of node I) */
static __attribute__((noinline)) void prolong_rows_nodes(const mg_level *L, const double *restrict xc,
                                                         double *restrict x, int i0, int i1)
{
    int m = L->pm;
    for (int i = i0; i < i1; i++) {
        int I = L->agg[i];
        if (I < 0) continue;
        const double *P = L->pv + 3 * (size_t)m * i, *c = xc + 4 * (size_t)(m / 3) * I;
        double *restrict xi = x + 4 * (size_t)i;
        for (int a = 0; a < 3; a++) {
            double s = 0;
            for (int k = 0; k < m; k++) s += P[m * a + k] * c[k + k / 3];
            xi[a] += s;
        }
    }
}

/* the rows c0 .. c1-1 of bc = P^T g from the rows i0 .. i1-1 of g, which hold all of those
 * aggregates' rows (F: the filter blocks of level 0's prolongator, NULL above it), and
 * g = 0 there for the backward sweep. A run of rows in one aggregate (the usual case: they
 * are neighbours) is summed in registers and added to bc once, not through memory row by
 * row. */
static void restrict_rows(const mg_level *L, const cc_filter *F, double *restrict g, double *restrict bc, int i0,
                          int i1, int c0, int c1)
{
    memset(bc + 4 * (size_t)c0, 0, (size_t)(c1 - c0) * 4 * sizeof *bc);
    if (L->pv) {
        restrict_rows_nodes(L, g, bc, i0, i1);
        return;
    }
    double t[4] = {0, 0, 0, 0};   /* the run's sum so far; lane 3: 0 + 0 */
    for (int i = i0, cur = -1; i <= i1; i++) {
        int I = i < i1 ? L->agg[i] : -1;
        if (I != cur) {
            if (cur >= 0)
                for (int a = 0; a < 4; a++) bc[4 * cur + a] += t[a], t[a] = 0;
            cur = I;
        }
        if (i == i1) break;
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

/* rows i0 .. i1-1 of x += P xc */
static void prolong_rows(const mg_level *L, const cc_filter *F, const double *restrict xc, double *restrict x, int i0,
                         int i1)
{
    if (L->pv) {
        prolong_rows_nodes(L, xc, x, i0, i1);
        return;
    }
    for (int i = i0; i < i1; i++) {
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

/* what the parts of level 0's restriction need */
typedef struct {
    const mg_level *L;
    const cc_filter *F;
    double *g, *bc;
} restrict_job;

static void restrict_part(void *arg, int p)
{
    restrict_job *j = arg;
    const mg_level *L = j->L;
    restrict_rows(L, j->F, j->g, j->bc, L->pstart[p], L->pstart[p + 1], L->cstart[p], L->cstart[p + 1]);
}

/* bc = P^T g (nc = the next level's rows), and g = 0; a level's parts side by side (their
 * aggregates do not cross the cut, cc_mgi_aggregate) */
static void restrict_residual(const cc_mg *mg, const mg_level *L, const cc_filter *F, double *g, double *bc, int nc)
{
    if (L->np < 2) {
        restrict_rows(L, F, g, bc, 0, L->n, 0, nc);
        return;
    }
    restrict_job j = {L, F, g, bc};
    cc_team_run(mg->team, restrict_part, &j, L->np);
}

/* x += P xc on a level >= 1 (no filter) */
static void prolong(const mg_level *L, const double *restrict xc, double *restrict x)
{
    prolong_rows(L, NULL, xc, x, 0, L->n);
}

/* what the parts of level 0's prolongation need */
typedef struct {
    const mg_level *L;
    const cc_filter *F;
    const double *xc;
    double *x;
} prolong_job;

static void prolong_part(void *arg, int i0, int i1)
{
    prolong_job *j = arg;
    prolong_rows(j->L, j->F, j->xc, j->x, i0, i1);
}

/* run state of cc_mg_rows */
typedef struct {
    const mg_level *L;
    void (*fn)(void *, int, int);
    void *arg;
} rows_job;

static void rows_part(void *arg, int p)
{
    rows_job *j = arg;
    j->fn(j->arg, j->L->pstart[p], j->L->pstart[p + 1]);
}

void cc_mg_rows(const cc_mg *mg, int n, void (*fn)(void *arg, int i0, int i1), void *arg)
{
    if (!mg || mg->nlev == 0 || mg->lev[0].n != n || mg->lev[0].np < 2) {
        fn(arg, 0, n);
        return;
    }
    rows_job j = {mg->lev, fn, arg};
    cc_team_run(mg->team, rows_part, &j, mg->lev[0].np);
}

static void vcycle(cc_mg *mg, int l, const double *b, double *x);

/* C->x = alpha B_c^-1 C->b on level c >= 1: one cycle, or two (the second on the residual of
 * the first) below the coarsest two levels, so B_c^-1 = B^-1 (2 B - A_c) B^-1 there */
static void coarse_solve(cc_mg *mg, int c)
{
    mg_level *C = mg->lev + c;
    vcycle(mg, c, C->b, C->x);
    if (c + 1 < mg->nlev) {   /* W-cycle: a second coarse cycle on the coarse residual */
        sym_residual(mg, C, C->b, C->x, C->r);
        vcycle(mg, c, C->r, C->e);
        for (int k = 0; k < 4 * C->n; k++) C->x[k] = CC_MG_ALPHA * (C->x[k] + C->e[k]);
    } else {
        for (int k = 0; k < 4 * C->n; k++) C->x[k] *= CC_MG_ALPHA;
    }
}

/* x = B_l^-1 b on a level l >= 1 (the cycle from there down: forward sweep, coarse
 * correction, backward sweep; level 0 is cc_mg_begin4 and cc_mg_finish4); 4-lane vectors */
static void vcycle(cc_mg *mg, int l, const double *b, double *x)
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
    restrict_residual(mg, L, NULL, L->g, C->b, C->n);
    coarse_solve(mg, l + 1);
    prolong(L, C->x, x);
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
    restrict_residual(mg, L, F, L->g, C->b, C->n);
    coarse_solve(mg, 1);
    return ydy + cc_dot(C->b, C->x, 4 * C->n);
}

/* the rest of s = S B^-1 r after cc_mg_begin4 with the same r and s: the coarse correction
 * added and level 0's backward sweep */
void cc_mg_finish4(cc_mg *mg, const cc_filter *F, const double *r, double *s)
{
    if (!mg || mg->nlev == 0 || !F || F->n != mg->lev[0].n || (mg->nlev == 1 && mg->dense)) return;
    mg_level *L = mg->lev;
    if (mg->nlev > 1) {
        prolong_job j = {L, F, L[1].x, s};
        cc_mg_rows(mg, L->n, prolong_part, &j);
    }
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

/* rows i0 .. i1-1 of q = (D + L + L^T) c and their part of c . q, scalar (L: the smoother's
 * blocks and the dropped ones, those of the rows' own part) */
static double product_scalar(const mg_level *L, int i0, int i1, const double *c, double *q)
{
    double cq = 0;
    for (int i = i0; i < i1; i++) {
        if (L->ahead && i + L->ahead < i1) product_prefetch(L, i + L->ahead);
        const double *D = L->dsys + 9 * (size_t)i, *ci = c + 4 * (size_t)i;
        double g[3] = {0, 0, 0};
        product_blocks(L->scol, L->sf, L->sbeg[i], L->srow[i + 1], ci, c, q, g);
        if (L->wrow) product_blocks(L->wcol, L->wf, L->wbeg[i], L->wrow[i + 1], ci, c, q, g);
        double *qi = q + 4 * (size_t)i;
        for (int a = 0; a < 3; a++) {
            double d = D[a] * ci[0] + D[3 + a] * ci[1] + D[6 + a] * ci[2];
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
CC_TARGET_AVX2 static double product_avx2(const mg_level *L, int i0, int i1, const double *c, double *q)
{
    __m256d zero = _mm256_setzero_pd(), cq = zero;
    for (int i = i0; i < i1; i++) {
        if (L->ahead && i + L->ahead < i1) product_prefetch(L, i + L->ahead);
        __m256d ci = _mm256_load_pd(c + 4 * (size_t)i);
        __m256d x0 = _mm256_permute4x64_pd(ci, 0x00), x1 = _mm256_permute4x64_pd(ci, 0x55);
        __m256d x2 = _mm256_permute4x64_pd(ci, 0xAA), a0 = zero, a1 = zero, a2 = zero;
        product_blocks_avx2(L->scol, L->sf, L->sbeg[i], L->srow[i + 1], x0, x1, x2, c, q, &a0, &a1, &a2);
        if (L->wrow)
            product_blocks_avx2(L->wcol, L->wf, L->wbeg[i], L->wrow[i + 1], x0, x1, x2, c, q,
                                &a0, &a1, &a2);
        __m256d h01 = _mm256_hadd_pd(a0, a1), h22 = _mm256_hadd_pd(a2, a2);
        __m256d g = _mm256_add_pd(_mm256_permute2f128_pd(h01, h22, 0x20), _mm256_permute2f128_pd(h01, h22, 0x31));
        g = _mm256_blend_pd(g, zero, 8);
        const double *D = L->dsys + 9 * (size_t)i;   /* columns read 4 wide: lane 3 cleared */
        __m256d d = _mm256_mul_pd(_mm256_loadu_pd(D), x0);
        d = _mm256_fmadd_pd(_mm256_loadu_pd(D + 3), x1, d);
        d = _mm256_fmadd_pd(_mm256_loadu_pd(D + 6), x2, d);
        d = _mm256_blend_pd(d, zero, 8);
        _mm256_store_pd(q + 4 * (size_t)i, _mm256_add_pd(d, g));
        cq = _mm256_fmadd_pd(ci, _mm256_add_pd(d, _mm256_add_pd(g, g)), cq);
    }
    __m128d h = _mm_add_pd(_mm256_castpd256_pd128(cq), _mm256_extractf128_pd(cq, 1));
    return _mm_cvtsd_f64(_mm_add_sd(h, _mm_unpackhi_pd(h, h)));
}
#endif

/* what a part of the product needs */
typedef struct {
    const cc_mg *mg;
    const double *c;
    double *q;
    double cq[CC_TEAM_MAX];
} product_job;

/* the product's rows of part p */
static void product_part(void *arg, int p)
{
    product_job *j = arg;
    const mg_level *L = j->mg->lev;
    int i0 = L->pstart[p], i1 = L->pstart[p + 1];
#if CC_AVX2
    if (j->mg->avx2) {
        j->cq[p] = product_avx2(L, i0, i1, j->c, j->q);
        return;
    }
#endif
    j->cq[p] = product_scalar(L, i0, i1, j->c, j->q);
}

/* the cross blocks' part of q = (D + L + L^T) c, added; returns their part of c . q */
static double product_cross(const mg_level *L, const double *c, double *q)
{
    double cq = 0;
    for (int k = 0; k < L->nx; k++) {
        int i = L->xrow[k];
        double g[3] = {0, 0, 0};
        const double *ci = c + 4 * (size_t)i;
        product_blocks(L->scol, L->sf, L->srow[i], L->sbeg[i], ci, c, q, g);
        if (L->wrow) product_blocks(L->wcol, L->wf, L->wrow[i], L->wbeg[i], ci, c, q, g);
        for (int a = 0; a < 3; a++) q[4 * (size_t)i + a] += g[a], cq += 2 * ci[a] * g[a];
    }
    return cq;
}

/* q = S A S c from level 0 (4-lane c = S c); returns c . q */
double cc_mg_product(const cc_mg *mg, const double *c, double *q)
{
    if (!mg || mg->nlev == 0) return 0;
    const mg_level *L = mg->lev;
    product_job j = {mg, c, q, {0}};
    cc_team_run(L->np > 1 ? mg->team : NULL, product_part, &j, L->np);
    double cq = 0;
    for (int p = 0; p < L->np; p++) cq += j.cq[p];
    return L->np > 1 ? cq + product_cross(L, c, q) : cq;
}
