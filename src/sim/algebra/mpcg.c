/* MPCG: Baraff & Witkin 1998 Section 5.3, with Ascher & Boxerman's corrections (003 3.1).
 *
 * Baraff & Witkin's procedure, in their notation (P^-1 applied as the preconditioner):
 *   dv = z;  delta0 = filter(b)^T P filter(b);  r = filter(b - A dv);  c = filter(P^-1 r)
 *   delta = r^T c;  while delta > eps^2 delta0: q = filter(A c); alpha = delta / c^T q;
 *   dv += alpha c; r -= alpha q; s = P^-1 r; delta' = r^T s; c = filter(s + delta'/delta c)
 * Where this code departs from it, following Ascher & Boxerman:
 *   - delta0 is measured with the same operator as delta (P^-1, not P) and on the right-hand
 *     side of the reduced system S (b - A z) rather than on filter(b), so the stopping test
 *     is a true relative residual of the system that is solved even when z != 0;
 *   - the preconditioner is built from the filtered system, S_i A_ii S_i + (I - S_i), so it
 *     maps free directions to free directions (CC_PRECOND_AB); Baraff & Witkin's diagonal
 *     and plain block Jacobi stay selectable.
 * Beyond both papers: block IC(0) (CC_PRECOND_IC0) and aggregation multigrid
 * (CC_PRECOND_MG, sim/algebra/multigrid.c) precondition the whole filtered system S A S + (I - S),
 * and their output is filtered again. The stopping test stays delta = r^T P^-1 r <=
 * tol^2 delta0 in each preconditioner's own norm; r^T P^-1 r < 0 (possible only for a
 * multigrid cycle of an indefinite A) is reported like c^T A c <= 0.
 *
 * The multigrid loop (cg_loop4) keeps r, c, q, s 4 doubles per vertex, the cycle's layout.
 * Its products q = S A S c come, for tol >= CC_MPCG_SINGLE_TOL (CC_PRODUCT_AUTO), from the
 * multigrid's level 0 (cc_mg_product): the filtered diagonal blocks in double and the
 * filtered off-diagonal blocks as the smoother stores them, in single precision, which reads
 * about a quarter of the bytes of A in double. That is CG, exactly as above, on the matrix
 * At' = S (A + E) S with |E| <= 2^-24 |A| entrywise off the diagonal, E_ii = 0: symmetric,
 * and positive definite on the free space whenever A is and 2^-24 || |A| || is below its
 * smallest free eigenvalue, a relative margin of 6e-8 (where it fails, c^T q <= 0 is caught
 * as for A itself). The residuals r and delta are those of At'. The initial residual
 * S (b - A dv0) is taken with A in double, so at the end the true residual differs from
 * r by S E S (dv - dv0) only: at most 2^-24 || |A| |dv - dv0| ||, the change made in this
 * solve. On the bench scene (132 x 132, steps 2 to 100) that difference was 0.6e-6 to
 * 2.7e-6 of the initial residual and 3e-6 to 7e-6 of ||S b||, against true residuals of
 * 2e-2 to 1.3e-1 ||S b|| at tol 1e-2: the stopping test is unaffected by four orders of
 * magnitude, and by 40 at tol 1e-4, hence the threshold. Below it the products use A in
 * double (cc_bsr_mul4), as do the tests that solve to 1e-8 and beyond; w->product forces
 * either. From tol 1e-3 up (CC_MPCG_SINGLE_RES_TOL), and with z = 0, the initial residual
 * of a warm start is taken with the same single-precision product as the loop's (a third
 * of the bytes of A in double); the difference is then S E S dv, at most 2^-24 || |A| |dv| ||:
 * measured on the bench scene: 0.8e-6 to 4.6e-6 ||S b|| at 66 x 66 (steps
 * 10 to 90) and 3.7e-6 to 1.8e-5 at 132 x 132, against true residuals of 1.4e-2 to 9e-2
 * ||S b||: three orders of magnitude at tol 1e-2, about 50 at 1e-3.
 * The margin is not always there. Where stiff bending meets a light cloth (the strip of
 * docs/performance.md at 120 x 24, the quadratic model: the smallest eigenvalues of A near
 * the mass, its blocks 1e5 times larger), the single c^T q of the first iteration was off by
 * up to 3.8 times the double one, MPCG met c^T q <= 0 on a positive definite A and stopped
 * unconverged. So under CC_PRODUCT_AUTO the first product of a solve is also taken in double
 * at the first solve and at every CC_MPCG_SINGLE_CHECK-th one after, and at any product whose
 * single c^T q is not positive (check_single); where the two differ by more than
 * CC_MPCG_SINGLE_REL of the double one, the loop goes on with the double product, and so do
 * the later solves (w->single_lost). The first product's difference, the largest over a
 * run: bench scene 5e-6 (66 x 66), 5e-5 (132 x 132), 7.5e-4 (256 x 256); the strip 0.0016
 * to 0.06 at 30 x 6 (k_bend 0.02 to 2), 0.02 to 0.18 at 60 x 12, 0.3 to 3.8 at 120 x 24.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim/algebra/mpcg.h"
#include "sim/algebra/multigrid.h"

static inline void m3v(const double *M, double *x)
{
    double a = x[0], b = x[1], c = x[2];
    x[0] = M[0] * a + M[1] * b + M[2] * c;
    x[1] = M[3] * a + M[4] * b + M[5] * c;
    x[2] = M[6] * a + M[7] * b + M[8] * c;
}

/* work space for n vertices */
cc_mpcg_work *cc_mpcg_work_new(int n)
{
    if (n < 0) return NULL;
    cc_mpcg_work *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    size_t m = 3 * (size_t)n + 1;
    w->n = n;
    w->r = malloc(m * sizeof(double));
    w->c = malloc(m * sizeof(double));
    w->q = malloc(m * sizeof(double));
    w->s = malloc(m * sizeof(double));
    w->P = malloc(3 * m * sizeof(double));
    w->r4 = aligned_alloc(32, 4 * 32 * ((size_t)n + 1));
    if (w->r4) {
        memset(w->r4, 0, 4 * 32 * ((size_t)n + 1));
        w->c4 = w->r4 + 4 * ((size_t)n + 1);
        w->q4 = w->c4 + 4 * ((size_t)n + 1);
        w->s4 = w->q4 + 4 * ((size_t)n + 1);
    }
    if (!w->r || !w->c || !w->q || !w->s || !w->P || !w->r4) {
        cc_mpcg_work_free(w);
        return NULL;
    }
    return w;
}

/* free w (NULL is fine) */
void cc_mpcg_work_free(cc_mpcg_work *w)
{
    if (!w) return;
    free(w->r);
    free(w->c);
    free(w->q);
    free(w->s);
    free(w->P);
    free(w->r4);
    free(w->LW);
    free(w->cidx);
    cc_mg_free(w->mg);
    free(w);
}

/* Minv = M^-1 for a row-major 3x3 M by the adjugate; -1 if M is singular or not finite */
static int m3_inverse(const double *M, double *Minv)
{
    double c00 = M[4] * M[8] - M[5] * M[7], c01 = M[5] * M[6] - M[3] * M[8], c02 = M[3] * M[7] - M[4] * M[6];
    double det = M[0] * c00 + M[1] * c01 + M[2] * c02;
    if (!(fabs(det) > 0) || !isfinite(det)) return -1;
    double id = 1.0 / det;
    Minv[0] = c00 * id;
    Minv[1] = (M[2] * M[7] - M[1] * M[8]) * id;
    Minv[2] = (M[1] * M[5] - M[2] * M[4]) * id;
    Minv[3] = c01 * id;
    Minv[4] = (M[0] * M[8] - M[2] * M[6]) * id;
    Minv[5] = (M[2] * M[3] - M[0] * M[5]) * id;
    Minv[6] = c02 * id;
    Minv[7] = (M[1] * M[6] - M[0] * M[7]) * id;
    Minv[8] = (M[0] * M[4] - M[1] * M[3]) * id;
    return 0;
}

/* C = A B for row-major 3x3 */
static void m3m(const double *A, const double *B, double *C)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}

/* P_i^-1 = S_i (S_i A_ii S_i + I - S_i)^-1 S_i for a constrained vertex (Ascher & Boxerman) */
static int ab_block(const double *Aii, const double *S, double *Pinv)
{
    double T[9], M[9], Minv[9];
    m3m(S, Aii, T);
    m3m(T, S, M);
    for (int k = 0; k < 9; k++) M[k] += (k % 4 == 0 ? 1.0 : 0.0) - S[k];
    if (m3_inverse(M, Minv) < 0) return -1;
    m3m(S, Minv, T);
    m3m(T, S, Pinv);
    return 0;
}

/* w->P = inverse preconditioner blocks for A under filter F (block Jacobi kinds); -1 if a
 * block is singular */
static int block_setup(const cc_bsr *A, const cc_filter *F, cc_precond pc, cc_mpcg_work *w)
{
    for (int i = 0; i < A->n; i++) {
        const double *Aii = cc_bsr_block(A, A->diag[i]);
        double *P = w->P + 9 * i;
        if (pc == CC_PRECOND_JACOBI) {
            memset(P, 0, 9 * sizeof *P);
            for (int k = 0; k < 3; k++) {
                if (!(Aii[4 * k] > 0)) return -1;
                P[4 * k] = 1.0 / Aii[4 * k];
            }
        } else if (m3_inverse(Aii, P) < 0) {
            return -1;
        }
    }
    if (pc != CC_PRECOND_JACOBI && pc != CC_PRECOND_BLOCK)
        for (int c = 0; c < F->nc; c++) {
            int i = F->idx[c];
            if (ab_block(cc_bsr_block(A, A->diag[i]), F->S + 9 * c, w->P + 9 * i) < 0) return -1;
        }
    return 0;
}

/* T = block (i,k) of the filtered system: S_i A_ik S_k, plus I - S_i on the diagonal */
static void filtered_block(const cc_bsr *A, const cc_filter *F, int i, int k, int slot, double *T)
{
    double U[9];
    int pi = F->pos[i], pk = F->pos[k];
    memcpy(T, cc_bsr_block(A, slot), 9 * sizeof *T);
    if (pi >= 0) {
        m3m(F->S + 9 * pi, T, U);
        memcpy(T, U, sizeof U);
    }
    if (pk >= 0) {
        m3m(T, F->S + 9 * pk, U);
        memcpy(T, U, sizeof U);
    }
    if (i == k && pi >= 0)
        for (int q = 0; q < 9; q++) T[q] += (q % 4 == 0 ? 1.0 : 0.0) - F->S[9 * pi + q];
}

#define CC_IC0_SHIFT 0.1   /* relative diagonal shift of the IC(0) factorisation */

/* T -= X Y^T (3x3 row-major) */
static void m3_sub_abt(double *T, const double *X, const double *Y)
{
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) T[3 * a + b] -= X[3 * a] * Y[3 * b] + X[3 * a + 1] * Y[3 * b + 1] + X[3 * a + 2] * Y[3 * b + 2];
}

/* 1 if the symmetric 3x3 D is positive definite (leading minors, Sylvester) */
static int spd3(const double *D)
{
    double m2 = D[0] * D[4] - D[1] * D[3];
    double det = D[0] * (D[4] * D[8] - D[5] * D[7]) - D[1] * (D[3] * D[8] - D[5] * D[6]) + D[2] * (D[3] * D[7] - D[4] * D[6]);
    return D[0] > 0 && m2 > 0 && det > 0 && isfinite(det);
}

/* Block incomplete LDL^T with the pattern of A (IC(0)) of the filtered system At, with the
 * diagonal blocks scaled by 1 + CC_IC0_SHIFT (Manteuffel's shift: unshifted IC(0) of the
 * cloth matrix breaks down or grows without bound from about 40 x 40 on). For each row i and
 * k < i in its pattern, T_ik = L_ik D_k = At_ik - sum_{m<k} (L_im D_m) L_km^T over the m in
 * both patterns, and D_i = (1 + shift) At_ii - sum_k T_ik L_ik^T. L_ik, L_ik^T (stored at
 * the position of (k,i)) and T_ik go to three compact parts of LW, so the forward and the
 * backward sweep each stream one part in order; D_i^-1 goes to w->P. A pivot with D_i - 0.01 At_ii not SPD is
 * replaced by At_ii, so L D L^T stays SPD. -1 if even At_ii is not SPD, if a factor block
 * overflows (its products would carry inf and NaN into every later row), or no memory. */
static int ic0_setup(const cc_bsr *A, const cc_filter *F, cc_mpcg_work *w)
{
    size_t half = ((size_t)A->nnzb - (size_t)A->n) / 2;
    if (w->cap < A->nnzb) {
        double *LW = realloc(w->LW, (27 * half + 1) * sizeof *LW);
        if (LW) w->LW = LW;
        int *cidx = realloc(w->cidx, ((size_t)A->nnzb + 1) * sizeof *cidx);
        if (cidx) w->cidx = cidx;
        if (!LW || !cidx) return -1;
        w->cap = A->nnzb;
    }
    int nlo = 0, nup = 0, *cidx = w->cidx;
    for (int i = 0; i < A->n; i++)
        for (int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) cidx[p] = p < A->diag[i] ? nlo++ : p > A->diag[i] ? nup++ : -1;
    if ((size_t)nlo != half || (size_t)nup != half) return -1;   /* pattern not symmetric */
    double *L = w->LW, *Lt = w->LW + 9 * half, *W = w->LW + 18 * half, *Dinv = w->P;
    for (int i = 0; i < A->n; i++) {
        double D[9], T[9], Dii[9], E[9];
        filtered_block(A, F, i, i, A->diag[i], Dii);
        for (int q = 0; q < 9; q++) D[q] = (1 + CC_IC0_SHIFT) * Dii[q];
        for (int p = A->rowptr[i]; p < A->diag[i]; p++) {
            int k = A->col[p], q1 = A->rowptr[i], q2 = A->rowptr[k];
            filtered_block(A, F, i, k, p, T);
            while (q1 < p && q2 < A->diag[k]) {   /* m < k in rows i and k */
                int m1 = A->col[q1], m2 = A->col[q2];
                if (m1 == m2) m3_sub_abt(T, W + 9 * cidx[q1++], L + 9 * cidx[q2++]);
                else if (m1 < m2) q1++;
                else q2++;
            }
            memcpy(W + 9 * cidx[p], T, sizeof T);
            double *Lik = L + 9 * cidx[p], *Lki = Lt + 9 * cidx[A->tslot[p]];
            m3m(T, Dinv + 9 * k, Lik);
            for (int q = 0; q < 9; q++)   /* overflow in the elimination: no usable factor */
                if (!isfinite(Lik[q])) return -1;
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) Lki[3 * a + b] = Lik[3 * b + a];
            m3_sub_abt(D, T, Lik);
        }
        for (int q = 0; q < 9; q++) E[q] = D[q] - 1e-2 * Dii[q];
        if (!spd3(E)) memcpy(D, Dii, sizeof D);   /* (near) breakdown: keep At_ii */
        if (!spd3(D) || m3_inverse(D, Dinv + 9 * i) < 0) return -1;
    }
    return 0;
}

/* the preconditioner for this solve; -1 if no usable one can be built */
static int precond_setup(const cc_bsr *A, const cc_filter *F, cc_precond pc, cc_mpcg_work *w)
{
    w->ic_ok = w->mg_ok = 0;
    if (pc == CC_PRECOND_IC0) {
        if (ic0_setup(A, F, w) == 0) return w->ic_ok = 1, 0;
        pc = CC_PRECOND_AB;
    }
    if (pc == CC_PRECOND_MG) {
        if (!w->mg) w->mg = cc_mg_new();
        cc_mg_set_team(w->mg, w->team);
        cc_mg_set_points(w->mg, w->x);
        if (w->mg && cc_mg_setup(w->mg, A, F) == 0) return w->mg_ok = 1, 0;
        pc = CC_PRECOND_AB;
    }
    return block_setup(A, F, pc, w);
}

/* s = L^-T D^-1 L^-1 r (IC(0)), then filtered; returns r . s */
static double ic0_apply(const cc_bsr *A, const cc_filter *F, const cc_mpcg_work *w, const double *r, double *s)
{
    size_t half = ((size_t)A->nnzb - (size_t)A->n) / 2;
    const double *L = w->LW, *Lt = w->LW + 9 * half;
    for (int i = 0; i < A->n; i++) {   /* forward: u_i = r_i - sum_{k<i} L_ik u_k, then D^-1 */
        double t[3] = {r[3 * i], r[3 * i + 1], r[3 * i + 2]};
        for (int p = A->rowptr[i]; p < A->diag[i]; p++) {
            const double *l = L + 9 * w->cidx[p], *u = s + 3 * A->col[p];
            for (int a = 0; a < 3; a++) t[a] -= l[3 * a] * u[0] + l[3 * a + 1] * u[1] + l[3 * a + 2] * u[2];
        }
        for (int a = 0; a < 3; a++) s[3 * i + a] = t[a];
    }
    for (int i = 0; i < A->n; i++) m3v(w->P + 9 * i, s + 3 * i);
    for (int i = A->n - 1; i >= 0; i--) {   /* backward: s_i -= sum_{j>i} L_ji^T s_j */
        double t0 = s[3 * i], t1 = s[3 * i + 1], t2 = s[3 * i + 2];
        for (int p = A->diag[i] + 1; p < A->rowptr[i + 1]; p++) {
            const double *l = Lt + 9 * w->cidx[p], *sj = s + 3 * A->col[p];
            double a = sj[0], b = sj[1], c = sj[2];
            t0 -= l[0] * a + l[1] * b + l[2] * c;
            t1 -= l[3] * a + l[4] * b + l[5] * c;
            t2 -= l[6] * a + l[7] * b + l[8] * c;
        }
        s[3 * i] = t0;
        s[3 * i + 1] = t1;
        s[3 * i + 2] = t2;
    }
    cc_filter_apply(F, s);
    return cc_dot(r, s, 3 * A->n);
}

/* s = P r (IC(0) when set up, else blockwise; the multigrid has its own path, solve_mg);
 * returns r . s */
static double precond_apply(const cc_bsr *A, const cc_filter *F, const cc_mpcg_work *w, const double *r, double *s)
{
    if (w->ic_ok) return ic0_apply(A, F, w, r, s);
    double d = 0;
    for (int i = 0; i < w->n; i++) {
        const double *P = w->P + 9 * i, *ri = r + 3 * i;
        double *si = s + 3 * i;
        si[0] = P[0] * ri[0] + P[1] * ri[1] + P[2] * ri[2];
        si[1] = P[3] * ri[0] + P[4] * ri[1] + P[5] * ri[2];
        si[2] = P[6] * ri[0] + P[7] * ri[1] + P[8] * ri[2];
        d += ri[0] * si[0] + ri[1] * si[1] + ri[2] * si[2];
    }
    return d;
}

/* dv = z on the constrained DOFs: dv_i = S_i dv_i + (I - S_i) z_i, with pinned DOFs copied */
static void impose(const cc_filter *F, const double *z, double *dv)
{
    for (int c = 0; c < F->nc; c++) {
        int i = F->idx[c];
        const double *S = F->S + 9 * c;
        double *d = dv + 3 * i, zi[3] = {0, 0, 0};
        if (z) memcpy(zi, z + 3 * i, sizeof zi);
        int pinned = 1;
        for (int k = 0; k < 9; k++) pinned &= S[k] == 0.0;
        if (pinned) {
            memcpy(d, zi, sizeof zi);
            continue;
        }
        double t[3] = {d[0] - zi[0], d[1] - zi[1], d[2] - zi[2]};
        m3v(S, t);   /* dv = z + S (dv - z) */
        for (int k = 0; k < 3; k++) d[k] = zi[k] + t[k];
    }
}

/* r = S (b - A x); uses q as scratch */
static void residual(const cc_bsr *A, const double *b, const cc_filter *F, const double *x,
                     double *q, double *r, int n3)
{
    cc_bsr_mul(A, x, q);
    for (int k = 0; k < n3; k++) r[k] = b[k] - q[k];
    cc_filter_apply(F, r);
}

/* v4 = v (3n to 4 doubles per vertex, lane 3 zero) */
static void to4(const double *v, double *v4, int n)
{
    for (int i = 0; i < n; i++) {
        for (int a = 0; a < 3; a++) v4[4 * i + a] = v[3 * i + a];
        v4[4 * i + 3] = 0;
    }
}

/* r4 = S (b - A x) (4-lane r4; b, x: 3n, x = S x) with cc_mg_product's single-precision
 * blocks (the loop's product): r4 is then the residual of the matrix CG works with (see the
 * banner) */
static void residual_single4(const cc_filter *F, cc_mpcg_work *w, const double *b, const double *x, double *r4)
{
    int n = w->n;
    to4(x, w->c4, n);
    cc_mg_product(w->mg, w->c4, w->q4);
    for (int i = 0; i < n; i++) {
        for (int a = 0; a < 3; a++) r4[4 * i + a] = b[3 * i + a] - w->q4[4 * i + a];
        r4[4 * i + 3] = 0;
    }
    cc_filter_apply4(F, r4);
}

/* what the parts of the CG loop's vector updates need (cc_mg_rows: each part's rows on the
 * thread that sweeps them) */
typedef struct {
    double *dv, *r, *c;
    const double *q, *s;
    double alpha, beta;
} update_job;

/* rows i0 .. i1-1 of dv += alpha c, r -= alpha q */
static void step_rows(void *arg, int i0, int i1)
{
    update_job *j = arg;
    for (int i = i0; i < i1; i++)
        for (int a = 0; a < 3; a++) {
            j->dv[3 * i + a] += j->alpha * j->c[4 * i + a];
            j->r[4 * i + a] -= j->alpha * j->q[4 * i + a];
        }
}

/* rows i0 .. i1-1 of c = s + beta c */
static void direction_rows(void *arg, int i0, int i1)
{
    update_job *j = arg;
    for (int k = 4 * i0; k < 4 * i1; k++) j->c[k] = j->s[k] + j->beta * j->c[k];
}

/* c^T q for q = A c: cq, that of the single-precision product in q, when it is within
 * CC_MPCG_SINGLE_REL of c^T A c in double (A itself may be indefinite; from A's lower
 * triangle, which the assembly leaves the upper one stale behind); else that in double, with
 * q = A c in double and w->single_lost set */
static double check_single(const cc_bsr *A, cc_mpcg_work *w, const double *c, double *q, double cq)
{
    double cd = cc_bsr_quad4(A, c);
    if (fabs(cq - cd) <= CC_MPCG_SINGLE_REL * fabs(cd)) return cq;
    w->single_lost = 1;
    cc_bsr_mul4(A, c, q);
    return cc_dot(c, q, 4 * A->n);
}

/* The CG loop of cc_mpcg_solve with the multigrid preconditioner, on 4-lane vectors (the
 * cycle's layout, so r and s pass to it without copies): from r = w->r4, c = w->c4 = S B^-1 r
 * and delta = r . c, iterate until delta <= goal or maxit; returns the last delta (negative
 * after r^T B^-1 r < 0). With single != 0 the products are cc_mg_product's; with check != 0
 * checked against A in double (check_single) wherever c^T q <= 0, and at the first product
 * when check is 2: after a check they fail, in double (st->single_product 0). */
static double cg_loop4(const cc_bsr *A, const cc_filter *F, cc_mpcg_work *w, int single, int check, double delta,
                       double goal, int maxit, double *dv, cc_mpcg_stats *st)
{
    int n = A->n;
    double *r = w->r4, *c = w->c4, *q = w->q4, *s = w->s4;
    st->single_product = single;
    while (delta > goal && st->iterations < maxit) {
        double cq;
        if (single) {
            cq = cc_mg_product(w->mg, c, q);
            if (check && (check > 1 || !(cq > 0))) {
                cq = check_single(A, w, c, q, cq);
                single = st->single_product = !w->single_lost;
                check = 1;
            }
        } else {
            cc_bsr_mul4(A, c, q);
            cq = cc_dot(c, q, 4 * n);
        }
        st->iterations++;
        if (!(cq > 0)) {
            st->indefinite = 1;
            break;
        }
        cc_filter_apply4(F, q);
        update_job j = {dv, r, c, q, s, delta / cq, 0};
        cc_mg_rows(w->mg, n, step_rows, &j);
        double dold = delta;
        delta = cc_mg_begin4(w->mg, F, r, s);   /* r^T B^-1 r before the cycle's last sweep */
        if (delta < 0) {
            st->indefinite = 1;
            break;
        }
        if (delta <= goal || st->iterations >= maxit) break;   /* done: s is not needed */
        cc_mg_finish4(w->mg, F, r, s);
        j.beta = delta / dold;
        cc_mg_rows(w->mg, n, direction_rows, &j);
        cc_filter_apply4(F, c);
    }
    return delta;
}

/* dv = z, or 0 when z is NULL */
static void set_z(const double *z, double *dv, int n3)
{
    if (z) memcpy(dv, z, (size_t)n3 * sizeof *dv);
    else memset(dv, 0, (size_t)n3 * sizeof *dv);
}

/* cc_mpcg_solve with the multigrid set up (z NULL when it is zero), in the cycle's 4-lane
 * layout from the start; the same steps as the other preconditioners' path there */
static int solve_mg(const cc_bsr *A, const double *b, const cc_filter *F, const double *z, int warm, double tol,
                    int maxit, cc_mpcg_work *w, double *dv, cc_mpcg_stats *st)
{
    int n = A->n, n3 = 3 * n;
    double *r4 = w->r4, *s4 = w->s4;
    int autos = w->product == CC_PRODUCT_AUTO && tol >= CC_MPCG_SINGLE_TOL && !w->single_lost;
    int single = w->product == CC_PRODUCT_SINGLE || autos;
    if (!z) {   /* the reduced right-hand side S (b - A z) */
        to4(b, r4, n);
        cc_filter_apply4(F, r4);
    } else {
        residual(A, b, F, z, w->q, w->r, n3);
        to4(w->r, r4, n);
    }
    double delta0, delta;
    if (!warm) {
        set_z(z, dv, n3);
        delta0 = delta = cc_mg_apply4(w->mg, F, r4, s4);
    } else {   /* delta0 for about half a cycle (cc_mg_begin4), then the residual of the guess */
        delta0 = cc_mg_begin4(w->mg, F, r4, s4);
        impose(F, z, dv);
        if (single && !z && tol >= CC_MPCG_SINGLE_RES_TOL) {
            residual_single4(F, w, b, dv, r4);   /* dv = S dv here */
        } else {
            residual(A, b, F, dv, w->q, w->r, n3);
            to4(w->r, r4, n);
        }
        delta = cc_mg_apply4(w->mg, F, r4, s4);
    }
    if (delta0 < 0 || delta < 0) {   /* r^T B^-1 r < 0: B^-1 is not positive definite (multigrid of an indefinite A) */
        st->indefinite = 1;
        if (!warm || delta0 < 0) set_z(z, dv, n3);
        return 1;
    }
    if (!(delta0 > 0)) {   /* S (b - A z) = 0: dv = z solves it */
        if (warm) set_z(z, dv, n3);
        st->converged = isfinite(delta0) ? 1 : 0;
        return st->converged ? 0 : 1;
    }
    memcpy(w->c4, s4, 4 * (size_t)n * sizeof *s4);   /* c = S B^-1 r (cc_mg_apply4 filters) */
    int check = !autos ? 0 : w->single_solves++ % CC_MPCG_SINGLE_CHECK == 0 ? 2 : 1;
    delta = cg_loop4(A, F, w, single, check, delta, tol * tol * delta0, maxit, dv, st);
    st->rel_residual = sqrt(fmax(delta, 0.0) / delta0);
    st->converged = !st->indefinite && delta <= tol * tol * delta0 && isfinite(delta);
    return st->converged ? 0 : 1;
}

/* u^T A u for u = S u: through the multigrid's single-precision product when the last solve
 * set it up for this A (relative error about 2^-24) and no check found that product too
 * coarse (w->single_lost), else in double */
double cc_mpcg_quad(const cc_bsr *A, cc_mpcg_work *w, const double *u)
{
    if (!A || !w || !u || A->n != w->n) return NAN;
    if (w->mg_ok && !w->single_lost) {
        to4(u, w->c4, w->n);
        return cc_mg_product(w->mg, w->c4, w->q4);
    }
    cc_bsr_mul(A, u, w->q);
    return cc_dot(u, w->q, 3 * w->n);
}

/* dv: S A S y = S (b - A z), dv = z + y, by CG preconditioned with pc (not
 * CC_PRECOND_AUTO) to relative tolerance tol */
static int solve_with(const cc_bsr *A, const double *b, const cc_filter *F, const double *z, int warm,
                      cc_precond pc, double tol, int maxit, cc_mpcg_work *w, double *dv, cc_mpcg_stats *st)
{
    int n3 = 3 * A->n;
    double *r = w->r, *c = w->c, *q = w->q, *s = w->s;
    memset(st, 0, sizeof *st);
    if (precond_setup(A, F, pc, w) < 0) return -1;
    st->ic_fallback = (pc == CC_PRECOND_IC0 && !w->ic_ok) || (pc == CC_PRECOND_MG && !w->mg_ok);
    int zero_z = 1;
    if (z)
        for (int k = 0; k < n3 && zero_z; k++) zero_z = z[k] == 0.0;
    if (w->mg_ok) return solve_mg(A, b, F, zero_z ? NULL : z, warm, tol, maxit, w, dv, st);
    /* delta0 = r^T P^-1 r on the reduced right-hand side r = S (b - A z) */
    if (zero_z) {
        memcpy(r, b, (size_t)n3 * sizeof *r);
        cc_filter_apply(F, r);
    } else {
        residual(A, b, F, z, q, r, n3);
    }
    double delta0 = precond_apply(A, F, w, r, s), delta = delta0;
    if (!warm) {   /* r and s as they are */
        set_z(zero_z ? NULL : z, dv, n3);
    } else {
        impose(F, zero_z ? NULL : z, dv);
        residual(A, b, F, dv, q, r, n3);
        delta = precond_apply(A, F, w, r, s);
    }
    if (delta0 < 0 || delta < 0) {   /* r^T P^-1 r < 0: P^-1 is not positive definite (an indefinite diagonal block) */
        st->indefinite = 1;
        if (!warm || delta0 < 0) set_z(zero_z ? NULL : z, dv, n3);
        return 1;
    }
    if (!(delta0 > 0)) {   /* S (b - A z) = 0: dv = z solves it */
        if (warm) set_z(zero_z ? NULL : z, dv, n3);
        st->converged = isfinite(delta0) ? 1 : 0;
        return st->converged ? 0 : 1;
    }
    memcpy(c, s, (size_t)n3 * sizeof *c);
    cc_filter_apply(F, c);
    delta = cc_dot(r, c, n3);
    double goal = tol * tol * delta0;
    while (delta > goal && st->iterations < maxit) {
        cc_bsr_mul(A, c, q);
        double cq = cc_dot(c, q, n3);   /* c = S c, so c^T S q = c^T q */
        st->iterations++;
        if (!(cq > 0)) {
            st->indefinite = 1;
            break;
        }
        cc_filter_apply(F, q);
        double alpha = delta / cq;
        for (int k = 0; k < n3; k++) {
            dv[k] += alpha * c[k];
            r[k] -= alpha * q[k];
        }
        double dold = delta;
        delta = precond_apply(A, F, w, r, s);
        if (delta < 0) {
            st->indefinite = 1;
            break;
        }
        double beta = delta / dold;
        for (int k = 0; k < n3; k++) c[k] = s[k] + beta * c[k];
        cc_filter_apply(F, c);
    }
    st->rel_residual = sqrt(fmax(delta, 0.0) / delta0);
    st->converged = !st->indefinite && delta <= goal && isfinite(delta);
    return st->converged ? 0 : 1;
}

/* CC_PRECOND_AUTO: a block iteration costs about a third of a multigrid one, and the blocks
 * nothing to set up; they are the cheaper solve while they take up to CC_MPCG_AUTO_ITER
 * iterations (on the drape, 67 x 67, the blocks' 34 a step take as long as the multigrid's
 * 10). Where the mesh is fine, the tension stiff or the cloth in contact, their iterations
 * grow with the mesh and the multigrid's hardly do. The decision is on the mean over all the
 * blocks' solves so far: the iterations of one solve swing with the motion (on stiffness.lua's
 * 22 x 22 cloth, means of 8 consecutive steps from 0 to 38 around a run's 16), so a short
 * window would give the blocks up where they are the cheaper solve over the run; and the mean
 * is what a run's iterations a step are held to (a retry of the same step, w->auto_again, adds
 * its iterations to that step's). Once the mean is taken, a solve gets from the blocks only
 * the iterations that keep it within the goal with CC_MPCG_AUTO_RESERVE to spare, so a run
 * that ends soon after its mean reaches the goal still ends within it (explicit_vs_implicit's
 * 21 x 21 cloth, 10 steps at h = 0.01: the blocks' 2 4 13 49 8 8 51 12 30 54 a step). A solve
 * that reaches that budget or CC_MPCG_AUTO_CAP goes on with the multigrid from its last
 * iterate (a warm start of the same right-hand side: the stopping test stays relative to
 * S (b - A z)). Either way the work space keeps the multigrid. */
int cc_mpcg_solve(const cc_bsr *A, const double *b, const cc_filter *F, const double *z, int warm,
                  cc_precond pc, double tol, int maxit, cc_mpcg_work *w, double *dv,
                  cc_mpcg_stats *st)
{
    if (!A || !b || !F || !w || !dv || !st || A->n != F->n || A->n != w->n || !(tol >= 0) || maxit < 0 ||
        pc < CC_PRECOND_JACOBI || pc > CC_PRECOND_AUTO)
        return -1;
    if (pc != CC_PRECOND_AUTO) return solve_with(A, b, F, z, warm, pc, tol, maxit, w, dv, st);
    int cap = maxit < CC_MPCG_AUTO_CAP ? maxit : CC_MPCG_AUTO_CAP;
    if (!w->auto_mg && w->auto_solves >= CC_MPCG_AUTO_MIN) {   /* what keeps the mean within the goal */
        long budget = CC_MPCG_AUTO_ITER * (w->auto_solves + !w->auto_again) - w->auto_its -
                      CC_MPCG_AUTO_RESERVE;
        if (budget < cap) cap = (int)budget;
        if (cap <= 0) w->auto_mg = 2;
    }
    if (w->auto_mg) {   /* 2: decided at the last solve or now, this is the first with the multigrid */
        int rc = solve_with(A, b, F, z, warm, CC_PRECOND_MG, tol, maxit, w, dv, st);
        st->switched = w->auto_mg == 2;
        w->auto_mg = 1;
        return rc;
    }
    int rc = solve_with(A, b, F, z, warm, CC_PRECOND_AB, tol, cap, w, dv, st);
    if (rc == 1 && !st->indefinite && st->iterations == cap && cap < maxit) {
        int done = st->iterations;
        w->auto_mg = 1;
        rc = solve_with(A, b, F, z, 1, CC_PRECOND_MG, tol, maxit - done, w, dv, st);
        st->iterations += done;
        st->switched = 1;
        return rc;
    }
    if (rc < 0) return rc;
    w->auto_solves += !w->auto_again;
    w->auto_its += st->iterations;
    if (w->auto_solves >= CC_MPCG_AUTO_MIN && w->auto_its > CC_MPCG_AUTO_ITER * w->auto_solves) w->auto_mg = 2;
    return rc;
}
