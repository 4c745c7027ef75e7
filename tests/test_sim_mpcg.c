/* sim/mpcg: random SPD block systems solved to tolerance, constrained DOFs exactly as
 * prescribed, and agreement with a dense solve of the reduced system; the multigrid
 * preconditioner on cloth-like grid systems (tolerance, constraints, fewer iterations than
 * block Jacobi, symmetry) and in the simulator. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cc_test.h"
#include "mesh/mesh.h"
#include "sim/algebra/mpcg.h"
#include "sim/algebra/multigrid.h"
#include "sim/sim.h"
#include "sim/assembly/sim_internal.h"

static unsigned long long rng = 0x9E3779B97F4A7C15ULL;
/* uniform in [-1, 1) from this suite's generator state */
static double rnd(void) { return cc_test_rnd(&rng); }

#define NV 40          /* vertices */
#define N3 (3 * NV)
#define KB_MINOR 0.2   /* test_mg_minor's k_bend: the wing blocks between 1e-2 and 1e-1 of the diagonal */

/* a random SPD block matrix: element pairs with random PSD 6x6 blocks plus a mass diagonal;
 * the dense copy in D (N3 by N3) */
static cc_bsr *random_spd(double *D, double stiff)
{
    enum { NE = 120 };
    static int elem[2 * NE];
    for (int e = 0; e < NE; e++) {
        elem[2 * e] = e % NV;
        do elem[2 * e + 1] = (int)((rnd() + 1) * 0.5 * NV) % NV; while (elem[2 * e + 1] == elem[2 * e]);
    }
    const int *elems[1] = {elem};
    int nel[1] = {NE}, k[1] = {2};
    cc_bsr *A = cc_bsr_pattern(NV, 1, elems, nel, k);
    memset(D, 0, sizeof(double) * N3 * N3);
    for (int e = 0; e < NE; e++) {
        double G[6][6], K[6][6];
        for (int a = 0; a < 6; a++)
            for (int b = 0; b < 6; b++) G[a][b] = rnd();
        for (int a = 0; a < 6; a++)
            for (int b = 0; b < 6; b++) {
                K[a][b] = 0;
                for (int c = 0; c < 6; c++) K[a][b] += stiff * G[a][c] * G[b][c];
            }
        for (int a = 0; a < 6; a++)
            for (int b = 0; b < 6; b++) {
                int i = elem[2 * e + a / 3], j = elem[2 * e + b / 3];
                D[(3 * i + a % 3) * N3 + 3 * j + b % 3] += K[a][b];
                cc_bsr_block(A, cc_bsr_slot(A, i, j))[3 * (a % 3) + b % 3] += K[a][b];
            }
    }
    for (int i = 0; i < NV; i++) {
        double m = 1 + 0.5 * rnd();
        for (int s = 0; s < 3; s++) {
            D[(3 * i + s) * N3 + 3 * i + s] += m;
            cc_bsr_block(A, A->diag[i])[4 * s] += m;
        }
    }
    return A;
}

/* ||S (b - A x)||_2 / ||S (b - A z)||_2 with the dense copy */
static double rel_residual(const double *D, const cc_filter *F, const double *b, const double *x, const double *z)
{
    double r[N3], r0[N3];
    for (int a = 0; a < N3; a++) {
        r[a] = b[a];
        r0[a] = b[a];
        for (int c = 0; c < N3; c++) {
            r[a] -= D[a * N3 + c] * x[c];
            r0[a] -= D[a * N3 + c] * (z ? z[c] : 0.0);
        }
    }
    cc_filter_apply(F, r);
    cc_filter_apply(F, r0);
    double n = 0, n0 = 0;
    for (int a = 0; a < N3; a++) n += r[a] * r[a], n0 += r0[a] * r0[a];
    return sqrt(n / n0);
}

/* unconstrained: every preconditioner reaches the tolerance, in its own (P^-1) norm */
static void test_spd_tolerance(void)
{
    static double D[N3 * N3];
    double b[N3], x[N3];
    cc_bsr *A = random_spd(D, 50.0);
    cc_filter *F = cc_filter_new(NV);
    cc_mpcg_work *w = cc_mpcg_work_new(NV);
    CU_ASSERT_PTR_NOT_NULL_FATAL(A);
    for (int a = 0; a < N3; a++) b[a] = rnd();
    double tols[] = {1e-2, 1e-6, 1e-10};
    for (int pc = CC_PRECOND_JACOBI; pc <= CC_PRECOND_MG; pc++)
        for (int t = 0; t < 3; t++) {
            cc_mpcg_stats st;
            CU_ASSERT_EQUAL(cc_mpcg_solve(A, b, F, NULL, 0, (cc_precond)pc, tols[t], 1000, w, x, &st), 0);
            CU_ASSERT(st.converged);
            CU_ASSERT(st.rel_residual <= tols[t]);
            CU_ASSERT_EQUAL(st.ic_fallback, 0);
            if (t == 2) printf("\n    preconditioner %d: %d iterations to 1e-10", pc, st.iterations);
            CU_ASSERT(st.iterations > 0 && st.iterations < 1000);
            /* the 2-norm relative residual agrees within the conditioning of P */
            CU_ASSERT(rel_residual(D, F, b, x, NULL) < 30 * tols[t]);
        }
    /* an iteration cap too small to converge is reported */
    cc_mpcg_stats st;
    CU_ASSERT_EQUAL(cc_mpcg_solve(A, b, F, NULL, 0, CC_PRECOND_AB, 1e-12, 2, w, x, &st), 1);
    CU_ASSERT(!st.converged);
    CU_ASSERT_EQUAL(st.iterations, 2);
    cc_filter_free(F);
    cc_mpcg_work_free(w);
    cc_bsr_free(A);
}

/* dense Cholesky solve of the reduced system, with constrained DOFs given by a basis:
 * dv = z + B y, (B^T D B) y = B^T (b - D z); B spans range(S) */
static void dense_reduced(const double *D, const cc_filter *F, const double *b, const double *z, double *dv)
{
    static double B[N3 * N3], R[N3 * N3];
    int m = 0;
    /* columns of S (block diagonal) as a spanning set; Gram-Schmidt keeps independent ones */
    for (int i = 0; i < NV; i++) {
        double S[9];
        cc_filter_get(F, i, S);
        for (int c = 0; c < 3; c++) {
            double col[N3] = {0};
            for (int r = 0; r < 3; r++) col[3 * i + r] = S[3 * r + c];
            for (int k = 0; k < m; k++) {
                double d = 0;
                for (int a = 0; a < N3; a++) d += B[a * N3 + k] * col[a];
                for (int a = 0; a < N3; a++) col[a] -= d * B[a * N3 + k];
            }
            double n = 0;
            for (int a = 0; a < N3; a++) n += col[a] * col[a];
            if (n < 1e-20) continue;
            for (int a = 0; a < N3; a++) B[a * N3 + m] = col[a] / sqrt(n);
            m++;
        }
    }
    double rhs[N3], y[N3], Dz[N3];
    for (int a = 0; a < N3; a++) {
        Dz[a] = 0;
        for (int c = 0; c < N3; c++) Dz[a] += D[a * N3 + c] * z[c];
    }
    for (int k = 0; k < m; k++) {
        rhs[k] = 0;
        for (int a = 0; a < N3; a++) rhs[k] += B[a * N3 + k] * (b[a] - Dz[a]);
        for (int l = 0; l < m; l++) {
            double s = 0;
            for (int a = 0; a < N3; a++)
                for (int c = 0; c < N3; c++) s += B[a * N3 + k] * D[a * N3 + c] * B[c * N3 + l];
            R[k * N3 + l] = s;
        }
    }
    for (int k = 0; k < m; k++) {   /* Cholesky in place */
        for (int l = 0; l < k; l++) {
            double s = R[k * N3 + l];
            for (int q = 0; q < l; q++) s -= R[k * N3 + q] * R[l * N3 + q];
            R[k * N3 + l] = s / R[l * N3 + l];
        }
        double s = R[k * N3 + k];
        for (int q = 0; q < k; q++) s -= R[k * N3 + q] * R[k * N3 + q];
        R[k * N3 + k] = sqrt(s);
    }
    for (int k = 0; k < m; k++) {
        double s = rhs[k];
        for (int q = 0; q < k; q++) s -= R[k * N3 + q] * y[q];
        y[k] = s / R[k * N3 + k];
    }
    for (int k = m - 1; k >= 0; k--) {
        double s = y[k];
        for (int q = k + 1; q < m; q++) s -= R[q * N3 + k] * y[q];
        y[k] = s / R[k * N3 + k];
    }
    for (int a = 0; a < N3; a++) {
        dv[a] = z[a];
        for (int k = 0; k < m; k++) dv[a] += B[a * N3 + k] * y[k];
    }
}

/* a filter with pinned (0 DOF), plane (2 DOF) and line (1 DOF) vertices */
static void constrain(cc_filter *F, double *z)
{
    for (int i = 0; i < N3; i++) z[i] = 0;
    for (int i = 0; i < NV; i += 4) {
        double S[9], p[3] = {rnd(), rnd(), rnd()}, n = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        for (int k = 0; k < 3; k++) p[k] /= n;
        int kind = (i / 4) % 3;
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                S[3 * r + c] = kind == 0 ? 0.0 : kind == 1 ? (r == c) - p[r] * p[c] : p[r] * p[c];
        cc_filter_set(F, i, S);
        for (int k = 0; k < 3; k++) z[3 * i + k] = rnd();
        /* z only matters off the free directions: keep it there */
        double t[3];
        for (int r = 0; r < 3; r++) t[r] = z[3 * i + r] - (S[3 * r] * z[3 * i] + S[3 * r + 1] * z[3 * i + 1] + S[3 * r + 2] * z[3 * i + 2]);
        memcpy(z + 3 * i, t, sizeof t);
    }
}

/* constrained DOFs take z (pinned bit for bit), the rest solves the reduced system */
static void test_constraints(void)
{
    static double D[N3 * N3];
    double b[N3], x[N3], z[N3], ref[N3];
    cc_bsr *A = random_spd(D, 20.0);
    cc_filter *F = cc_filter_new(NV);
    cc_mpcg_work *w = cc_mpcg_work_new(NV);
    constrain(F, z);
    for (int a = 0; a < N3; a++) b[a] = rnd();
    dense_reduced(D, F, b, z, ref);
    for (int pc = CC_PRECOND_JACOBI; pc <= CC_PRECOND_MG; pc++)
        for (int warm = 0; warm < 2; warm++) {
            cc_mpcg_stats st;
            for (int a = 0; a < N3; a++) x[a] = warm ? rnd() : 0.0;
            CU_ASSERT_EQUAL(cc_mpcg_solve(A, b, F, z, warm, (cc_precond)pc, 1e-12, 2000, w, x, &st), 0);
            double err = 0, big = 0;
            for (int a = 0; a < N3; a++) err = fmax(err, fabs(x[a] - ref[a])), big = fmax(big, fabs(ref[a]));
            CU_ASSERT(err < 1e-9 * big);
            CU_ASSERT(rel_residual(D, F, b, x, z) < 1e-10);
            for (int c = 0; c < F->nc; c++) {
                int i = F->idx[c];
                const double *S = F->S + 9 * c;
                double Sx[3], Sz[3];
                for (int r = 0; r < 3; r++) {
                    Sx[r] = S[3 * r] * x[3 * i] + S[3 * r + 1] * x[3 * i + 1] + S[3 * r + 2] * x[3 * i + 2];
                    Sz[r] = S[3 * r] * z[3 * i] + S[3 * r + 1] * z[3 * i + 1] + S[3 * r + 2] * z[3 * i + 2];
                }
                int pinned = (i / 4) % 3 == 0;
                for (int r = 0; r < 3; r++) {
                    if (pinned) CU_ASSERT_EQUAL(x[3 * i + r], z[3 * i + r]);   /* exactly */
                    CU_ASSERT_DOUBLE_EQUAL(x[3 * i + r] - Sx[r], z[3 * i + r] - Sz[r], 1e-14);
                }
            }
        }
    cc_filter_free(F);
    cc_mpcg_work_free(w);
    cc_bsr_free(A);
}

/* bad arguments are refused, a zero right-hand side gives dv = z at once */
static void test_edges(void)
{
    static double D[N3 * N3];
    double b[N3] = {0}, x[N3], z[N3];
    cc_bsr *A = random_spd(D, 1.0);
    cc_filter *F = cc_filter_new(NV);
    cc_mpcg_work *w = cc_mpcg_work_new(NV), *w2 = cc_mpcg_work_new(NV - 1);
    cc_mpcg_stats st;
    CU_ASSERT_EQUAL(cc_mpcg_solve(A, b, F, NULL, 0, CC_PRECOND_AB, 1e-3, 10, w, x, &st), 0);
    CU_ASSERT_EQUAL(st.iterations, 0);
    for (int a = 0; a < N3; a++) CU_ASSERT_EQUAL(x[a], 0.0);
    CU_ASSERT_EQUAL(cc_mpcg_solve(A, b, F, NULL, 0, CC_PRECOND_AB, 1e-3, 10, w2, x, &st), -1);
    CU_ASSERT_EQUAL(cc_mpcg_solve(A, b, F, NULL, 0, CC_PRECOND_AB, -1, 10, w, x, &st), -1);
    constrain(F, z);
    /* b = A z: then dv = z solves it (S (b - A z) is round-off only) */
    for (int a = 0; a < N3; a++) {
        b[a] = 0;
        for (int c = 0; c < N3; c++) b[a] += D[a * N3 + c] * z[c];
    }
    CU_ASSERT_EQUAL(cc_mpcg_solve(A, b, F, z, 0, CC_PRECOND_AB, 1e-3, 10, w, x, &st), 0);
    CU_ASSERT(st.converged);
    for (int a = 0; a < N3; a++) CU_ASSERT_DOUBLE_EQUAL(x[a], z[a], 1e-12);
    double S[9] = {0};
    CU_ASSERT_EQUAL(cc_filter_set(F, NV, S), -1);
    CU_ASSERT_EQUAL(cc_filter_set(F, -1, S), -1);
    cc_filter_free(F);
    cc_mpcg_work_free(w);
    cc_mpcg_work_free(w2);
    cc_bsr_free(A);
}

/* A cloth-like system on a g x g grid of unit squares split along one diagonal (flip: the
 * other one): per triangle edge e = (a, b) with direction d, the block
 * K_e = k (d d^T + 0.01 (I - d d^T)) (stiff along the edge, weak across it, like stretch
 * with a little tension) enters as +K at (a,a), (b,b) and -K at (a,b), (b,a); the diagonal
 * gets a mass m I. The vertices are jittered out of the plane so the edge directions vary. */
static cc_bsr *grid_system(int g, double m, int flip)
{
    int n = g * g, nt = 2 * (g - 1) * (g - 1), *tri = malloc(3 * (size_t)nt * sizeof *tri), t = 0;
    double *x = malloc(3 * (size_t)n * sizeof *x);
    for (int j = 0; j < g; j++)
        for (int i = 0; i < g; i++) {
            double *xv = x + 3 * (j * g + i);
            xv[0] = i + 0.2 * rnd(), xv[1] = j + 0.2 * rnd(), xv[2] = 0.3 * rnd();
        }
    for (int j = 0; j + 1 < g; j++)
        for (int i = 0; i + 1 < g; i++) {
            int v00 = j * g + i, v10 = v00 + 1, v01 = v00 + g, v11 = v01 + 1;
            int a[6] = {v00, v10, v11, v00, v11, v01}, b[6] = {v00, v10, v01, v10, v11, v01};
            memcpy(tri + 3 * t, flip ? b : a, 6 * sizeof *tri);
            t += 2;
        }
    const int *elems[1] = {tri};
    int nel[1] = {nt}, k[1] = {3};
    cc_bsr *A = cc_bsr_pattern(n, 1, elems, nel, k);
    for (int e = 0; e < nt; e++)
        for (int u = 0; u < 3; u++) {   /* each interior edge is met twice: fine, it doubles k */
            int va = tri[3 * e + u], vb = tri[3 * e + (u + 1) % 3];
            double d[3], len = 0, K[9];
            for (int c = 0; c < 3; c++) d[c] = x[3 * vb + c] - x[3 * va + c], len += d[c] * d[c];
            for (int c = 0; c < 3; c++) d[c] /= sqrt(len);
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 3; c++) K[3 * r + c] = d[r] * d[c] + 0.01 * ((r == c) - d[r] * d[c]);
            int sab = cc_bsr_slot(A, va, vb), sba = cc_bsr_slot(A, vb, va);
            for (int q = 0; q < 9; q++) {
                cc_bsr_block(A, A->diag[va])[q] += K[q];
                cc_bsr_block(A, A->diag[vb])[q] += K[q];
                cc_bsr_block(A, sab)[q] -= K[q];
                cc_bsr_block(A, sba)[q] -= K[q];
            }
        }
    for (int v = 0; v < n; v++)
        for (int c = 0; c < 3; c++) cc_bsr_block(A, A->diag[v])[4 * c] += m;
    free(tri);
    free(x);
    return A;
}

/* ||S (b - A x)|| / ||S (b - A z)|| with the sparse A */
static double sparse_rel_residual(const cc_bsr *A, const cc_filter *F, const double *b, const double *x, const double *z)
{
    int n3 = 3 * A->n;
    double *r = malloc((size_t)n3 * sizeof *r), *r0 = malloc((size_t)n3 * sizeof *r0), nr = 0, n0 = 0;
    cc_bsr_mul(A, x, r);
    cc_bsr_mul(A, z, r0);
    for (int a = 0; a < n3; a++) r[a] = b[a] - r[a], r0[a] = b[a] - r0[a];
    cc_filter_apply(F, r);
    cc_filter_apply(F, r0);
    for (int a = 0; a < n3; a++) nr += r[a] * r[a], n0 += r0[a] * r0[a];
    free(r);
    free(r0);
    return sqrt(nr / n0);
}

/* a constraint on every 7th vertex of n, cycling pinned / plane (2 DOF) / line (1 DOF), with
 * a prescribed z off the free directions (z = 0 elsewhere) */
static void constrain_grid(cc_filter *F, int n, double *z)
{
    memset(z, 0, 3 * (size_t)n * sizeof *z);
    for (int i = 3, c = 0; i < n; i += 7, c++) {
        double S[9], p[3] = {rnd(), rnd(), rnd()}, len = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        for (int k = 0; k < 3; k++) p[k] /= len;
        for (int r = 0; r < 3; r++)
            for (int q = 0; q < 3; q++)
                S[3 * r + q] = c % 3 == 0 ? 0.0 : c % 3 == 1 ? (r == q) - p[r] * p[q] : p[r] * p[q];
        cc_filter_set(F, i, S);
        double zi[3] = {rnd(), rnd(), rnd()}, t[3];
        for (int r = 0; r < 3; r++) t[r] = zi[r] - (S[3 * r] * zi[0] + S[3 * r + 1] * zi[1] + S[3 * r + 2] * zi[2]);
        memcpy(z + 3 * i, t, sizeof t);
    }
}

/* multigrid on a 32 x 32 cloth-like grid: several levels, tolerance met (also in the 2-norm),
 * constrained DOFs exactly z (pinned) or z along the constrained directions, warm or cold */
static void test_mg_grid(void)
{
    int g = 32, n = g * g, n3 = 3 * n;
    cc_bsr *A = grid_system(g, 1e-3, 0);
    cc_filter *F = cc_filter_new(n);
    cc_mpcg_work *w = cc_mpcg_work_new(n);
    double *b = malloc((size_t)n3 * sizeof *b), *x = malloc((size_t)n3 * sizeof *x), *z = malloc((size_t)n3 * sizeof *z);
    CU_ASSERT_PTR_NOT_NULL_FATAL(A);
    for (int a = 0; a < n3; a++) b[a] = rnd();
    for (int constrained = 0; constrained < 2; constrained++) {
        if (constrained) constrain_grid(F, n, z);
        else memset(z, 0, (size_t)n3 * sizeof *z);
        double tols[] = {1e-2, 1e-6, 1e-10};
        for (int t = 0; t < 3; t++)
            for (int warm = 0; warm < 2; warm++) {
                cc_mpcg_stats st;
                for (int a = 0; a < n3; a++) x[a] = warm ? rnd() : 0.0;
                CU_ASSERT_EQUAL(cc_mpcg_solve(A, b, F, z, warm, CC_PRECOND_MG, tols[t], 500, w, x, &st), 0);
                CU_ASSERT(st.converged && !st.ic_fallback && !st.indefinite);
                CU_ASSERT(st.rel_residual <= tols[t]);
                CU_ASSERT(sparse_rel_residual(A, F, b, x, z) < 30 * tols[t]);
                for (int c = 0; c < F->nc; c++) {
                    int i = F->idx[c];
                    const double *S = F->S + 9 * c;
                    for (int r = 0; r < 3; r++) {
                        double Sx = S[3 * r] * x[3 * i] + S[3 * r + 1] * x[3 * i + 1] + S[3 * r + 2] * x[3 * i + 2];
                        double Sz = S[3 * r] * z[3 * i] + S[3 * r + 1] * z[3 * i + 1] + S[3 * r + 2] * z[3 * i + 2];
                        if (c % 3 == 0) CU_ASSERT_EQUAL(x[3 * i + r], z[3 * i + r]);   /* pinned: exactly */
                        CU_ASSERT_DOUBLE_EQUAL(x[3 * i + r] - Sx, z[3 * i + r] - Sz, 1e-14);
                    }
                }
            }
    }
    int nl = cc_mg_levels(w->mg, 0, NULL), n1;
    cc_mg_levels(w->mg, 1, &n1);
    CU_ASSERT(nl >= 3);
    CU_ASSERT(n1 > 0 && 3 * n1 < n);   /* level 1 coarsens by more than 3 */
    free(b);
    free(x);
    free(z);
    cc_filter_free(F);
    cc_mpcg_work_free(w);
    cc_bsr_free(A);
}

/* iterations to 1e-8 on a 48 x 48 grid with two pinned corners: multigrid needs under a
 * fifth of block Jacobi's and fewer than block IC(0)'s; then the same work space with a
 * new pattern of the same size (the other diagonal) rebuilds its hierarchy and converges */
static void test_mg_iterations(void)
{
    int g = 48, n = g * g, n3 = 3 * n, it[5] = {0};
    cc_bsr *A = grid_system(g, 1e-4, 0);
    cc_filter *F = cc_filter_new(n);
    cc_mpcg_work *w = cc_mpcg_work_new(n);
    double *b = malloc((size_t)n3 * sizeof *b), *x = malloc((size_t)n3 * sizeof *x), S0[9] = {0};
    for (int a = 0; a < n3; a++) b[a] = rnd();
    cc_filter_set(F, n - g, S0);
    cc_filter_set(F, n - 1, S0);
    for (int pc = CC_PRECOND_BLOCK; pc <= CC_PRECOND_MG; pc++) {
        cc_mpcg_stats st;
        CU_ASSERT_EQUAL(cc_mpcg_solve(A, b, F, NULL, 0, (cc_precond)pc, 1e-8, 5000, w, x, &st), 0);
        it[pc] = st.iterations;
    }
    printf("\n    48 x 48 grid to 1e-8: block Jacobi %d, block IC(0) %d, multigrid %d iterations",
           it[CC_PRECOND_BLOCK], it[CC_PRECOND_IC0], it[CC_PRECOND_MG]);
    CU_ASSERT(5 * it[CC_PRECOND_MG] < it[CC_PRECOND_BLOCK]);
    CU_ASSERT(it[CC_PRECOND_MG] < it[CC_PRECOND_IC0]);
    cc_bsr *A2 = grid_system(g, 1e-4, 1);
    cc_mpcg_stats st;
    CU_ASSERT_EQUAL(cc_mpcg_solve(A2, b, F, NULL, 0, CC_PRECOND_MG, 1e-8, 5000, w, x, &st), 0);
    CU_ASSERT(st.iterations <= 2 * it[CC_PRECOND_MG] && !st.ic_fallback);
    double *zero = calloc((size_t)n3, sizeof *zero);
    CU_ASSERT(sparse_rel_residual(A2, F, b, x, zero) < 3e-7);
    free(zero);
    free(b);
    free(x);
    cc_filter_free(F);
    cc_mpcg_work_free(w);
    cc_bsr_free(A);
    cc_bsr_free(A2);
}

/* CC_PRECOND_AUTO: where the blocks converge within CC_MPCG_AUTO_ITER iterations, the same
 * solves as CC_PRECOND_AB bit for bit and no multigrid, however many, but the multigrid where
 * the same solves come two a step (a retry: w->auto_again); then harder solves: the multigrid
 * from within the solve that would take the blocks' mean over the budget less
 * CC_MPCG_AUTO_RESERVE, or, before CC_MPCG_AUTO_MIN solves, from the solve after the one that
 * takes it over the budget; where one solve reaches CC_MPCG_AUTO_CAP, the multigrid
 * goes on from the blocks' iterate to the same tolerance of the same right-hand side, and the
 * work space keeps it; a cap at or under the blocks' never switches; an unknown
 * preconditioner is refused */
static void test_auto(void)
{
    int g = 48, n = g * g, n3 = 3 * n;
    cc_bsr *hard = grid_system(g, 1e-4, 0), *easy = grid_system(g, 1e-1, 0);
    cc_filter *F = cc_filter_new(n);
    cc_mpcg_work *w = cc_mpcg_work_new(n), *wa = cc_mpcg_work_new(n);
    double *b = malloc((size_t)n3 * sizeof *b), *x = malloc((size_t)n3 * sizeof *x);
    double *xa = malloc((size_t)n3 * sizeof *xa), *zero = calloc((size_t)n3, sizeof *zero), S0[9] = {0};
    for (int a = 0; a < n3; a++) b[a] = rnd();
    cc_filter_set(F, n - g, S0);
    cc_filter_set(F, n - 1, S0);
    cc_mpcg_stats st, sa;
    CU_ASSERT_EQUAL(cc_mpcg_solve(easy, b, F, NULL, 0, CC_PRECOND_AB, 3e-2, 500, w, x, &st), 0);
    int e = st.iterations, k, solves = 0, its = 0;
    CU_ASSERT(e <= CC_MPCG_AUTO_ITER);
    for (k = 0; k < 3 * CC_MPCG_AUTO_MIN; k++, solves++, its += e) {
        CU_ASSERT_EQUAL(cc_mpcg_solve(easy, b, F, NULL, 0, CC_PRECOND_AUTO, 3e-2, 500, wa, xa, &sa), 0);
        CU_ASSERT_EQUAL(sa.iterations, e);
        CU_ASSERT(!sa.switched && !wa->auto_mg && !wa->mg);
    }
    CU_ASSERT_EQUAL(memcmp(x, xa, (size_t)n3 * sizeof *x), 0);
    /* the same solves two a step (w->auto_again on the second): a step's mean is twice theirs */
    cc_mpcg_work *wr = cc_mpcg_work_new(n);
    CU_ASSERT(2 * e > CC_MPCG_AUTO_ITER);
    for (k = 0; k < 2 * CC_MPCG_AUTO_MIN - 1; k++) {   /* the 8th step's first solve decides */
        CU_ASSERT_EQUAL(wr->auto_mg, 0);
        wr->auto_again = k % 2;
        CU_ASSERT_EQUAL(cc_mpcg_solve(easy, b, F, NULL, 0, CC_PRECOND_AUTO, 3e-2, 500, wr, xa, &sa), 0);
        CU_ASSERT_EQUAL(sa.iterations, e);
    }
    CU_ASSERT_EQUAL(wr->auto_mg, 2);
    cc_mpcg_work_free(wr);
    /* the easy system to a tolerance the blocks need more than the budget for, less than
     * the cap: the blocks while their mean stays within the budget with the reserve to
     * spare; the solve that would take it over goes on with the multigrid at that point,
     * and the mean with it is within the budget */
    CU_ASSERT_EQUAL(cc_mpcg_solve(easy, b, F, NULL, 0, CC_PRECOND_AB, 1e-3, 500, w, x, &st), 0);
    int m = st.iterations;
    CU_ASSERT(m > CC_MPCG_AUTO_ITER && m < CC_MPCG_AUTO_CAP);
    for (k = 0; its + m <= CC_MPCG_AUTO_ITER * (solves + 1) - CC_MPCG_AUTO_RESERVE; k++, solves++, its += m) {
        CU_ASSERT_EQUAL(wa->auto_mg, 0);
        CU_ASSERT_EQUAL(cc_mpcg_solve(easy, b, F, NULL, 0, CC_PRECOND_AUTO, 1e-3, 500, wa, xa, &sa), 0);
        CU_ASSERT(!sa.switched && !wa->mg && sa.iterations == m);
    }
    CU_ASSERT(k > 1);   /* the easy solves kept the mean down for more than one hard one */
    CU_ASSERT_EQUAL(wa->auto_mg, 0);
    CU_ASSERT_EQUAL(cc_mpcg_solve(easy, b, F, NULL, 0, CC_PRECOND_AUTO, 1e-3, 500, wa, xa, &sa), 0);
    CU_ASSERT(sa.switched && wa->auto_mg == 1 && wa->mg && sa.converged);
    CU_ASSERT(sa.iterations < m && its + sa.iterations <= CC_MPCG_AUTO_ITER * (solves + 1));
    CU_ASSERT(sparse_rel_residual(easy, F, b, xa, zero) < 1e-2);
    /* a fresh work space: the first CC_MPCG_AUTO_MIN solves decide nothing */
    cc_mpcg_work_free(wa);
    wa = cc_mpcg_work_new(n);
    for (k = 0; k < CC_MPCG_AUTO_MIN; k++) {
        CU_ASSERT_EQUAL(wa->auto_mg, 0);
        CU_ASSERT_EQUAL(cc_mpcg_solve(easy, b, F, NULL, 0, CC_PRECOND_AUTO, 1e-3, 500, wa, xa, &sa), 0);
        CU_ASSERT(!sa.switched && !wa->mg && sa.iterations == m);
    }
    CU_ASSERT_EQUAL(wa->auto_mg, 2);
    CU_ASSERT_EQUAL(cc_mpcg_solve(easy, b, F, NULL, 0, CC_PRECOND_AUTO, 1e-3, 500, wa, xa, &sa), 0);
    CU_ASSERT(sa.switched && wa->auto_mg == 1 && wa->mg && sa.iterations < st.iterations);
    CU_ASSERT_EQUAL(cc_mpcg_solve(easy, b, F, NULL, 0, CC_PRECOND_AUTO, 1e-3, 500, wa, xa, &sa), 0);
    CU_ASSERT(!sa.switched && wa->auto_mg == 1);
    cc_mpcg_work_free(wa);
    wa = cc_mpcg_work_new(n);
    /* the hard system: the blocks alone need far more than the budget */
    CU_ASSERT_EQUAL(cc_mpcg_solve(hard, b, F, NULL, 0, CC_PRECOND_AB, 1e-6, 5000, w, x, &st), 0);
    CU_ASSERT(st.iterations > 5 * CC_MPCG_AUTO_ITER);
    CU_ASSERT_EQUAL(cc_mpcg_solve(hard, b, F, NULL, 0, CC_PRECOND_AUTO, 1e-6, 5000, wa, xa, &sa), 0);
    CU_ASSERT(sa.switched && wa->auto_mg == 1 && sa.converged);
    CU_ASSERT(sa.iterations > CC_MPCG_AUTO_CAP && sa.iterations < st.iterations / 2);
    CU_ASSERT(sparse_rel_residual(hard, F, b, xa, zero) < 1e-4);
    int first = sa.iterations;
    CU_ASSERT_EQUAL(cc_mpcg_solve(hard, b, F, NULL, 0, CC_PRECOND_AUTO, 1e-6, 5000, wa, xa, &sa), 0);
    CU_ASSERT(!sa.switched && sa.iterations < first - CC_MPCG_AUTO_CAP / 2);
    CU_ASSERT_EQUAL(cc_mpcg_solve(hard, b, F, NULL, 0, CC_PRECOND_MG, 1e-6, 5000, w, x, &st), 0);
    CU_ASSERT_EQUAL(sa.iterations, st.iterations);   /* the multigrid's solve, as from the start */
    cc_mpcg_work_free(wa);
    wa = cc_mpcg_work_new(n);
    CU_ASSERT_EQUAL(cc_mpcg_solve(hard, b, F, NULL, 0, CC_PRECOND_AUTO, 1e-6, CC_MPCG_AUTO_CAP, wa, xa, &sa), 1);
    CU_ASSERT(!sa.switched && !wa->auto_mg && sa.iterations == CC_MPCG_AUTO_CAP);
    CU_ASSERT_EQUAL(cc_mpcg_solve(hard, b, F, NULL, 0, (cc_precond)(CC_PRECOND_AUTO + 1), 1e-6, 50, wa, xa, &sa), -1);
    CU_ASSERT_EQUAL(cc_mpcg_solve(hard, b, F, NULL, 0, (cc_precond)-1, 1e-6, 50, wa, xa, &sa), -1);
    free(b);
    free(x);
    free(xa);
    free(zero);
    cc_filter_free(F);
    cc_mpcg_work_free(w);
    cc_mpcg_work_free(wa);
    cc_bsr_free(hard);
    cc_bsr_free(easy);
}

/* one trial of the cycle B on random filtered u, v (3n = n3; Bu, Bv: the outputs): u^T B^-1 u
 * and v^T B^-1 v positive, u^T B^-1 v = v^T B^-1 u to round-off (the scale set by
 * |u^T B^-1 v| <= sqrt(uBu vBv), Cauchy-Schwarz), and cc_mg_norm, without the backward sweep,
 * the same number as u^T B^-1 u; returns |u B v - v B u| / sqrt(u B u v B v) */
static double cycle_trial(cc_mg *mg, const cc_filter *F, double *u, double *v, double *Bu, double *Bv, int n3)
{
    for (int a = 0; a < n3; a++) u[a] = rnd(), v[a] = rnd();
    cc_filter_apply(F, u);
    cc_filter_apply(F, v);
    double uBu = cc_mg_apply(mg, F, u, Bu), vBv = cc_mg_apply(mg, F, v, Bv), uBv = 0, vBu = 0;
    for (int a = 0; a < n3; a++) uBv += u[a] * Bv[a], vBu += v[a] * Bu[a];
    CU_ASSERT(uBu > 0 && vBv > 0);
    CU_ASSERT(fabs(cc_mg_norm(mg, F, u) - uBu) <= 1e-12 * uBu);
    CU_ASSERT(fabs(uBv - vBu) <= 1e-12 * sqrt(uBu * vBv));
    return fabs(uBv - vBu) / sqrt(uBu * vBv);
}

/* the cycle is a symmetric positive definite operator on the free space:
 * u^T B^-1 v = v^T B^-1 u to round-off and u^T B^-1 u > 0, for random filtered u, v, with
 * level 0 in one part and in two and three (their sweeps side by side on a team of two);
 * with two, level 1 runs in two parts as well (each of them has 256 rows or more) */
static void test_mg_symmetric(void)
{
    int g = 64, n = g * g, n3 = 3 * n;
    cc_bsr *A = grid_system(g, 1e-3, 0);
    cc_filter *F = cc_filter_new(n);
    cc_mg *mg = cc_mg_new();
    cc_team *team = cc_team_new(2);
    double *u = malloc((size_t)n3 * sizeof *u), *v = malloc((size_t)n3 * sizeof *v);
    double *Bu = malloc((size_t)n3 * sizeof *Bu), *Bv = malloc((size_t)n3 * sizeof *Bv), *z = malloc((size_t)n3 * sizeof *z);
    constrain_grid(F, n, z);
    cc_mg_set_team(mg, team);
    for (int np = 1; np <= 3; np++) {   /* level 0 in one, two and three parts (hybrid Gauss-Seidel) */
        cc_mg_set_parts(mg, np);
        CU_ASSERT_EQUAL_FATAL(cc_mg_setup(mg, A, F), 0);
        CU_ASSERT(cc_mg_levels(mg, 0, NULL) >= 3);
        double worst = 0;
        for (int trial = 0; trial < 5; trial++) {
            worst = fmax(worst, cycle_trial(mg, F, u, v, Bu, Bv, n3));
            for (int c = 0; c < F->nc; c++)   /* the output lies in the free directions */
                if (c % 3 == 0)
                    for (int k = 0; k < 3; k++) CU_ASSERT_EQUAL(Bu[3 * F->idx[c] + k], 0.0);
        }
        printf("\n    %d part%s: |u B v - v B u| / sqrt(u B u v B v) = %.1e", np, np > 1 ? "s" : "", worst);
    }
    /* bad input is refused without a crash */
    CU_ASSERT_EQUAL(cc_mg_setup(NULL, A, F), -1);
    CU_ASSERT_EQUAL(cc_mg_setup(mg, NULL, F), -1);
    free(u);
    free(v);
    free(Bu);
    free(Bv);
    free(z);
    cc_mg_free(mg);
    cc_team_free(team);
    cc_filter_free(F);
    cc_bsr_free(A);
}

/* a diagonal block that is not SPD: multigrid cannot be built, MPCG falls back to Ascher &
 * Boxerman's blocks and says so */
static void test_mg_fallback(void)
{
    int g = 12, n = g * g, n3 = 3 * n;
    cc_bsr *A = grid_system(g, 1e-2, 0);
    cc_filter *F = cc_filter_new(n);
    cc_mpcg_work *w = cc_mpcg_work_new(n);
    double *b = malloc((size_t)n3 * sizeof *b), *x = malloc((size_t)n3 * sizeof *x);
    for (int a = 0; a < n3; a++) b[a] = rnd();
    cc_bsr_block(A, A->diag[5])[4] = -cc_bsr_block(A, A->diag[5])[4];
    cc_mpcg_stats st;
    int rc = cc_mpcg_solve(A, b, F, NULL, 0, CC_PRECOND_MG, 1e-6, 200, w, x, &st);
    CU_ASSERT(rc == 0 || rc == 1);
    CU_ASSERT_EQUAL(st.ic_fallback, 1);
    free(b);
    free(x);
    cc_filter_free(F);
    cc_mpcg_work_free(w);
    cc_bsr_free(A);
}

/* no couplings at all (a block diagonal A of 100 vertices): nothing to coarsen, the cycle is
 * one symmetric Gauss-Seidel sweep, exact here: one iteration */
static void test_mg_no_coarsening(void)
{
    int n = 100, n3 = 3 * n, *elem = malloc((size_t)n * sizeof *elem);
    for (int i = 0; i < n; i++) elem[i] = i;
    const int *elems[1] = {elem};
    int nel[1] = {n}, k[1] = {1};
    cc_bsr *A = cc_bsr_pattern(n, 1, elems, nel, k);
    CU_ASSERT_PTR_NOT_NULL_FATAL(A);
    for (int i = 0; i < n; i++) {
        double *D = cc_bsr_block(A, A->diag[i]);
        D[0] = D[4] = D[8] = 2 + rnd();
        D[1] = D[3] = 0.3 * rnd();
    }
    cc_filter *F = cc_filter_new(n);
    cc_mpcg_work *w = cc_mpcg_work_new(n);
    double *b = malloc((size_t)n3 * sizeof *b), *x = malloc((size_t)n3 * sizeof *x);
    for (int a = 0; a < n3; a++) b[a] = rnd();
    cc_mpcg_stats st;
    CU_ASSERT_EQUAL(cc_mpcg_solve(A, b, F, NULL, 0, CC_PRECOND_MG, 1e-10, 10, w, x, &st), 0);
    CU_ASSERT_EQUAL(st.iterations, 1);
    CU_ASSERT_EQUAL(cc_mg_levels(w->mg, 0, NULL), 1);
    free(elem);
    free(b);
    free(x);
    cc_filter_free(F);
    cc_mpcg_work_free(w);
    cc_bsr_free(A);
}

/* the bench scene, smaller: a g x g cloth with 001 Table 1's parameters, MPCG to 1e-2 with
 * the preconditioner precond (NULL: the preset's) and warm start ws (-1: the default), the
 * two corners of the edge y = 1 pinned; *m is its mesh, to free after the simulator */
static cc_sim *hanging_cloth_kb(int g, const char *precond, int ws, double k_bend, cc_mesh **m)
{
    char err[CC_ERRLEN];
    cc_sim_params p;
    *m = cc_mesh_grid(g, g, 1.0, 1.0, 0, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(*m);
    CU_ASSERT_EQUAL_FATAL(cc_sim_preset("pritchard-table1", &p, err), 0);
    if (precond) CU_ASSERT_EQUAL_FATAL(cc_sim_param_set(&p, "precond", precond, err), 0);
    p.cg_tol = 1e-2;
    if (ws >= 0) p.cg_warm_start = ws;
    if (k_bend > 0) p.k_bend = k_bend;
    cc_sim *s = cc_sim_new(*m, &p, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(cc_sim_pin(s, g * (g - 1), NULL, err), 0);
    CU_ASSERT_EQUAL(cc_sim_pin(s, g * g - 1, NULL, err), 0);
    return s;
}

/* hanging_cloth_kb with Table 1's k_bend */
static cc_sim *hanging_cloth(int g, const char *precond, int ws, cc_mesh **m)
{
    return hanging_cloth_kb(g, precond, ws, 0, m);
}

/* hanging_cloth (default warm start) after `steps` steps, each of which must succeed */
static cc_sim *stepped_cloth(int g, const char *precond, int steps, cc_mesh **m)
{
    cc_sim *s = hanging_cloth(g, precond, -1, m);
    for (int step = 0; step < steps; step++) CU_ASSERT_EQUAL_FATAL(cc_sim_step(s), 0);
    return s;
}

/* the simulator with precond = multigrid: a 30 x 30 cloth hanging from two corners (the
 * bench scene, smaller) stays finite, every step converges, with fewer MPCG iterations
 * than block IC(0) */
static void test_mg_sim(void)
{
    long iters[2] = {0, 0};
    const char *names[2] = {"block-ic0", "multigrid"};
    for (int k = 0; k < 2; k++) {
        cc_mesh *m;
        cc_sim *s = hanging_cloth(30, names[k], -1, &m);
        cc_sim_stats st;
        for (int step = 0; step < 30; step++) {
            CU_ASSERT_EQUAL_FATAL(cc_sim_step(s), 0);
            cc_sim_get_stats(s, &st);
            CU_ASSERT(st.last_cg_converged);
        }
        iters[k] = st.cg_iterations;
        const double *x = cc_sim_positions(s);
        for (int i = 0; i < 3 * 900; i++) CU_ASSERT(isfinite(x[i]));
        cc_sim_free(s);
        cc_mesh_free(m);
    }
    printf("\n    30 x 30 cloth, 30 steps: block IC(0) %ld, multigrid %ld MPCG iterations", iters[0], iters[1]);
    CU_ASSERT(iters[1] < iters[0]);
}

/* the simulator with precond = multigrid on a 60 x 60 cloth, large enough for level 1 to run
 * in two parts too (multigrid.c, "Parts"; their W-cycle residual is summed part by part):
 * 20 steps, every one converged without a PSD retry, in about 6 MPCG iterations a step (5.85;
 * a level-1 residual summed over the wrong rows made every step indefinite) */
static void test_mg_sim_parts(void)
{
    cc_mesh *m;
    cc_sim *s = hanging_cloth(60, "multigrid", -1, &m);
    cc_sim_stats st;
    for (int step = 0; step < 20; step++) {
        CU_ASSERT_EQUAL_FATAL(cc_sim_step(s), 0);
        cc_sim_get_stats(s, &st);
        CU_ASSERT(st.last_cg_converged);
    }
    double per_step = (double)st.cg_iterations / st.steps;
    printf("\n    60 x 60 cloth, 20 steps: %.2f MPCG iterations a step, %ld PSD retries", per_step, (long)st.psd_retries);
    CU_ASSERT_EQUAL(st.psd_retries, 0);
    CU_ASSERT(per_step >= 3 && per_step <= 10);
    cc_sim_free(s);
    cc_mesh_free(m);
}

/* Level 1's correction for the blocks level 0's smoother leaves out (cc_mg_set_gamma,
 * multigrid.c): on a 132 x 132 hanging cloth, 40 steps, fewer MPCG iterations than with the
 * Galerkin operator, every step converged; and a correction so large that level 1 loses a
 * positive definite diagonal block (g = 5) is refused: the setup falls back to g = 0, and gives
 * that cycle bit for bit (while g = 0.25 gives another) */
static void test_mg_gamma(void)
{
    long iters[2] = {0, 0};
    for (int k = 0; k < 2; k++) {   /* the default, then g = 0 from the second step on */
        cc_mesh *m;
        cc_sim *s = hanging_cloth(132, "multigrid", -1, &m);
        cc_sim_stats st;
        for (int step = 0; step < 40; step++) {
            CU_ASSERT_EQUAL_FATAL(cc_sim_step(s), 0);
            if (step == 0 && k == 1) cc_mg_set_gamma(s->W->mg, 0);
            cc_sim_get_stats(s, &st);
            CU_ASSERT(st.last_cg_converged);
        }
        iters[k] = st.cg_iterations;
        cc_sim_free(s);
        cc_mesh_free(m);
    }
    printf("\n    132 x 132 cloth, 40 steps: %ld MPCG iterations with the correction, %ld without", iters[0], iters[1]);
    CU_ASSERT(iters[0] < iters[1]);

    cc_mesh *m;
    cc_sim *s = stepped_cloth(60, NULL, 10, &m);
    const cc_bsr *A = s->A;
    const cc_filter *F = s->F;
    int n3 = 3 * A->n;
    const double g[3] = {0, 5, 0.25};
    cc_mg *mg[3];
    double *u = malloc((size_t)n3 * sizeof *u), *Bu[3];
    for (int a = 0; a < n3; a++) u[a] = rnd();
    cc_filter_apply(F, u);
    for (int k = 0; k < 3; k++) {
        mg[k] = cc_mg_new();
        cc_mg_set_gamma(mg[k], g[k]);
        CU_ASSERT_EQUAL_FATAL(cc_mg_setup(mg[k], A, F), 0);
        Bu[k] = malloc((size_t)n3 * sizeof *Bu[k]);
        CU_ASSERT(cc_mg_apply(mg[k], F, u, Bu[k]) > 0);
    }
    CU_ASSERT(memcmp(Bu[1], Bu[0], (size_t)n3 * sizeof *u) == 0);   /* g = 5 refused: g = 0's cycle */
    CU_ASSERT(memcmp(Bu[2], Bu[0], (size_t)n3 * sizeof *u) != 0);   /* g = 0.25 kept */
    for (int k = 0; k < 3; k++) {
        free(Bu[k]);
        cc_mg_free(mg[k]);
    }
    free(u);
    cc_sim_free(s);
    cc_mesh_free(m);
}

/* MPCG's first guess (cg_warm_start) on a 48 x 48 hanging cloth (the bench scene, smaller),
 * 30 steps: the velocity change alternates from step to step, so starting from the last
 * step's (1) saves nothing over starting from zero (0) here (198 against 196 iterations),
 * while the default (2: the last step's, or the guess from the last three that follows the
 * alternation, step.c) takes fewer than either (186); every solve meets the tolerance
 * whatever it starts from */
static void test_warm_start(void)
{
    long iters[3] = {0, 0, 0};
    int g = 48;
    for (int k = 0; k < 3; k++) {
        cc_mesh *m;
        cc_sim *s = hanging_cloth(g, "multigrid", k, &m);
        cc_sim_stats st;
        for (int step = 0; step < 30; step++) {
            CU_ASSERT_EQUAL_FATAL(cc_sim_step(s), 0);
            cc_sim_get_stats(s, &st);
            CU_ASSERT(st.last_cg_converged);
        }
        iters[k] = st.cg_iterations;
        cc_sim_free(s);
        cc_mesh_free(m);
    }
    printf("\n    %d x %d cloth, 30 steps: MPCG iterations %ld from zero, %ld from the last step, %ld from the last three",
           g, g, iters[0], iters[1], iters[2]);
    CU_ASSERT(iters[2] < iters[1]);
    CU_ASSERT(iters[2] < iters[0]);
    char err[CC_ERRLEN];
    cc_sim_params p;
    cc_sim_preset("pritchard-table1", &p, err);
    CU_ASSERT_EQUAL(cc_sim_param_set(&p, "cg_warm_start", "3", err), 0);
    CU_ASSERT_EQUAL(cc_sim_params_check(&p, err), -1);   /* only 0, 1 and 2 */
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "cg_warm_start"));
}

/* cc_bsr_mul (AVX2 rows where the CPU has it, scalar rows next to the last column) equals
 * the dense product to round-off, on random patterns that couple many rows to the last vertex;
 * so do cc_bsr_mul_rows and cc_bsr_mul with the upper blocks stale (A->lower) */
static void test_bsr_mul(void)
{
    static double D[N3 * N3];
    double x[N3], y[N3];
    for (int trial = 0; trial < 5; trial++) {
        cc_bsr *A = random_spd(D, 1.0 + trial);
        CU_ASSERT_FATAL(A != NULL);
        for (int a = 0; a < N3; a++) x[a] = rnd();
        cc_bsr_mul(A, x, y);
        double worst = 0;
        for (int a = 0; a < N3; a++) {
            double ref = 0, scale = 0;
            for (int c = 0; c < N3; c++) ref += D[a * N3 + c] * x[c], scale += fabs(D[a * N3 + c] * x[c]);
            worst = fmax(worst, fabs(y[a] - ref) / scale);
        }
        CU_ASSERT(worst <= 1e-14);
        /* the same with stale upper blocks (A->lower): the rows by the transposed lower blocks,
         * the whole product after the mirror it makes */
        int rows[NV];
        for (int i = 0; i < NV; i++) {
            rows[i] = i;
            for (int p = A->diag[i] + 1; p < A->rowptr[i + 1]; p++)
                for (int q = 0; q < 9; q++) cc_bsr_block(A, p)[q] = NAN;
        }
        A->lower = 1;
        double yr[N3];
        cc_bsr_mul_rows(A, rows, NV, x, yr);
        CU_ASSERT_EQUAL(A->lower, 1);   /* the rows did not need the mirror */
        cc_bsr_mul(A, x, y);
        CU_ASSERT_EQUAL(A->lower, 0);
        int bad_rows = 0, bad_mul = 0;   /* a stale (NaN) block read would fail both */
        for (int a = 0; a < N3; a++) {
            double ref = 0, scale = 0;
            for (int c = 0; c < N3; c++) ref += D[a * N3 + c] * x[c], scale += fabs(D[a * N3 + c] * x[c]);
            bad_rows += !(fabs(yr[a] - ref) <= 1e-14 * scale);
            bad_mul += !(fabs(y[a] - ref) <= 1e-14 * scale);
        }
        CU_ASSERT_EQUAL(bad_rows, 0);
        CU_ASSERT_EQUAL(bad_mul, 0);
        cc_bsr_free(A);
    }
}

/* the AVX2 and the scalar smoother (and coarse residual, sym_residual) give the same cycle
 * to round-off, and the scalar one is symmetric too */
static void test_mg_simd(void)
{
    int g = 40, n = g * g, n3 = 3 * n;
    cc_bsr *A = grid_system(g, 1e-3, 0);
    cc_filter *F = cc_filter_new(n);
    cc_mg *mg = cc_mg_new();
    double *u = malloc((size_t)n3 * sizeof *u), *v = malloc((size_t)n3 * sizeof *v), *z = malloc((size_t)n3 * sizeof *z);
    double *Bs = malloc((size_t)n3 * sizeof *Bs), *Bv = malloc((size_t)n3 * sizeof *Bv), *Bu = malloc((size_t)n3 * sizeof *Bu);
    constrain_grid(F, n, z);
    CU_ASSERT_EQUAL_FATAL(cc_mg_setup(mg, A, F), 0);
    int simd = cc_mg_set_simd(mg, 1);
    printf("\n    AVX2 smoother %s", simd ? "available: compared with the scalar one" : "not available: scalar only");
    for (int trial = 0; trial < 3; trial++) {
        for (int a = 0; a < n3; a++) u[a] = rnd(), v[a] = rnd();
        cc_filter_apply(F, u);
        cc_filter_apply(F, v);
        cc_mg_set_simd(mg, 1);
        cc_mg_apply(mg, F, u, Bs);
        CU_ASSERT_EQUAL(cc_mg_set_simd(mg, 0), 0);
        double uBu = cc_mg_apply(mg, F, u, Bu), vBv = cc_mg_apply(mg, F, v, Bv), uBv = 0, vBu = 0, d2 = 0, n2 = 0;
        for (int a = 0; a < n3; a++) {
            uBv += u[a] * Bv[a], vBu += v[a] * Bu[a];
            d2 += (Bs[a] - Bu[a]) * (Bs[a] - Bu[a]), n2 += Bu[a] * Bu[a];
        }
        CU_ASSERT(uBu > 0 && vBv > 0);
        CU_ASSERT(fabs(uBv - vBu) <= 1e-12 * sqrt(uBu * vBv));
        CU_ASSERT(n2 > 0 && d2 <= 1e-24 * n2);   /* ||B_avx u - B_scalar u|| <= 1e-12 ||B u|| */
        if (trial == 0) printf("; ||B_avx2 u - B_scalar u|| / ||B u|| = %.1e", sqrt(d2 / n2));
    }
    free(u);
    free(v);
    free(z);
    free(Bs);
    free(Bu);
    free(Bv);
    cc_mg_free(mg);
    cc_filter_free(F);
    cc_bsr_free(A);
}

/* 4 doubles per vertex (lane 3 zero) from 3n, in a 32-byte aligned array */
static double *vec4_from(const double *v, int n)
{
    double *v4 = aligned_alloc(32, 32 * ((size_t)n + 1));
    for (int i = 0; i < n; i++) {
        for (int a = 0; a < 3; a++) v4[4 * i + a] = v[3 * i + a];
        v4[4 * i + 3] = 0;
    }
    return v4;
}

/* cc_bsr_mul4 equals cc_bsr_mul to round-off on random patterns (rows touching the last
 * vertex included), and leaves lane 3 zero; cc_bsr_quad4 is x . A x from the lower triangle */
static void test_bsr_mul4(void)
{
    static double D[N3 * N3];
    double x[N3], y[N3];
    for (int trial = 0; trial < 5; trial++) {
        cc_bsr *A = random_spd(D, 1.0 + trial);
        CU_ASSERT_FATAL(A != NULL);
        for (int a = 0; a < N3; a++) x[a] = rnd();
        double *x4 = vec4_from(x, NV), *y4 = vec4_from(x, NV);
        cc_bsr_mul(A, x, y);
        cc_bsr_mul4(A, x4, y4);
        double worst = 0, lane3 = 0;
        for (int i = 0; i < NV; i++) {
            lane3 = fmax(lane3, fabs(y4[4 * i + 3]));
            for (int a = 0; a < 3; a++) worst = fmax(worst, fabs(y4[4 * i + a] - y[3 * i + a]) / (fabs(y[3 * i + a]) + 1));
        }
        CU_ASSERT(worst <= 1e-13);
        CU_ASSERT_EQUAL(lane3, 0.0);
        double xy = 0, xay = 0;   /* cc_bsr_quad4: x^T A x from the lower triangle, upper stale or not */
        for (int a = 0; a < N3; a++) xy += x[a] * y[a], xay += fabs(x[a] * y[a]);
        CU_ASSERT(fabs(cc_bsr_quad4(A, x4) - xy) <= 1e-13 * xay);
        for (int i = 0; i < NV; i++)   /* the upper blocks made stale: garbage */
            for (int p = A->diag[i] + 1; p < A->rowptr[i + 1]; p++) cc_bsr_block(A, p)[4] = 1e30;
        A->lower = 1;
        CU_ASSERT(fabs(cc_bsr_quad4(A, x4) - xy) <= 1e-13 * xay);
        free(x4);
        free(y4);
        cc_bsr_free(A);
    }
}

/* cc_mg_product = S A S c for filtered c, with the error of single-precision off-diagonal
 * blocks only: ||q - S A c|| <= 2^-23 || |A| |c| || (AVX2 and scalar), c . q returned to
 * round-off, lane 3 zero; constrained vertices of every kind included */
static void test_mg_product(void)
{
    int g = 40, n = g * g, n3 = 3 * n;
    cc_bsr *A = grid_system(g, 1e-3, 0);
    cc_filter *F = cc_filter_new(n);
    cc_mg *mg = cc_mg_new();
    double *c = malloc((size_t)n3 * sizeof *c), *y = malloc((size_t)n3 * sizeof *y), *z = malloc((size_t)n3 * sizeof *z);
    double *ac = malloc((size_t)n3 * sizeof *ac);
    constrain_grid(F, n, z);
    CU_ASSERT_EQUAL_FATAL(cc_mg_setup(mg, A, F), 0);
    for (int a = 0; a < n3; a++) c[a] = rnd();
    cc_filter_apply(F, c);
    cc_bsr_mul(A, c, y);   /* S A S c = S A c */
    cc_filter_apply(F, y);
    for (int i = 0; i < n; i++)   /* |A| |c| */
        for (int a = 0; a < 3; a++) {
            ac[3 * i + a] = 0;
            for (int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
                for (int b = 0; b < 3; b++) ac[3 * i + a] += fabs(cc_bsr_block(A, p)[3 * a + b] * c[3 * A->col[p] + b]);
        }
    double *c4 = vec4_from(c, n), *q4 = vec4_from(c, n);
    for (int simd = 1; simd >= 0; simd--) {
        cc_mg_set_simd(mg, simd);
        double cq = cc_mg_product(mg, c4, q4), d2 = 0, s2 = 0, y2 = 0, cq4 = 0, cy = 0, lane3 = 0;
        for (int i = 0; i < n; i++) {
            lane3 = fmax(lane3, fabs(q4[4 * i + 3]));
            for (int a = 0; a < 3; a++) {
                double d = q4[4 * i + a] - y[3 * i + a];
                d2 += d * d, s2 += ac[3 * i + a] * ac[3 * i + a], y2 += y[3 * i + a] * y[3 * i + a];
                cq4 += c[3 * i + a] * q4[4 * i + a], cy += c[3 * i + a] * y[3 * i + a];
            }
        }
        CU_ASSERT(d2 > 0 && d2 <= ldexp(s2, -46));
        CU_ASSERT(fabs(cq - cq4) <= 1e-12 * fabs(cq4));
        CU_ASSERT(fabs(cq - cy) <= 1e-5 * fabs(cy));
        CU_ASSERT_EQUAL(lane3, 0.0);
        if (simd) printf("\n    ||q - S A c|| = %.1e ||S A c||, %.1e || |A| |c| ||", sqrt(d2 / y2), sqrt(d2 / s2));
    }
    free(c4);
    free(q4);
    free(c);
    free(y);
    free(z);
    free(ac);
    cc_mg_free(mg);
    cc_filter_free(F);
    cc_bsr_free(A);
}

/* The bench scene's system, smaller: a 24 x 24 cloth after 10 steps, two corners pinned.
 * Its weak blocks are the couplings of each hinge's two wing vertices (bend only, about
 * 1e-4 of the diagonal): level 0's smoother leaves out exactly those and lumps them; the
 * cycle stays symmetric positive definite, the product keeps them, and MPCG needs about
 * as many iterations as with every block in the smoother (dropped without the lumping, many
 * more: 7.61 -> 13.99 a step on the 66 x 66 bench scene) */
static void test_mg_weak(void)
{
    int g = 24;
    cc_mesh *m;
    cc_sim *s = stepped_cloth(g, NULL, 10, &m);
    const cc_bsr *A = s->A;
    const cc_filter *F = s->F;
    int n = A->n, n3 = 3 * n;
    cc_mg *mg = cc_mg_new();
    CU_ASSERT_EQUAL_FATAL(cc_mg_setup(mg, A, F), 0);
    printf("\n    24 x 24 cloth: %d of %d lower blocks left out of the smoother (%d hinges)", cc_mg_dropped(mg),
           (A->nnzb - n) / 2, m->nh);
    int pairs = 0;   /* one wing pair per hinge; a pinned wing's blocks filter to zero and stay */
    for (int h = 0; h < m->nh; h++) {
        int w0 = m->hinge[4 * h], w3 = m->hinge[4 * h + 3];
        pairs += w0 != g * (g - 1) && w0 != g * g - 1 && w3 != g * (g - 1) && w3 != g * g - 1;
    }
    CU_ASSERT_EQUAL(cc_mg_dropped(mg), pairs);
    double *u = malloc((size_t)n3 * sizeof *u), *v = malloc((size_t)n3 * sizeof *v), *Bu = malloc((size_t)n3 * sizeof *Bu);
    double *Bv = malloc((size_t)n3 * sizeof *Bv), *y = malloc((size_t)n3 * sizeof *y), *ac = malloc((size_t)n3 * sizeof *ac);
    for (int trial = 0; trial < 3; trial++) cycle_trial(mg, F, u, v, Bu, Bv, n3);   /* lumped D in y^T D y */
    cc_mg_set_simd(mg, 0);   /* the scalar smoother gives the same cycle */
    CU_ASSERT(fabs(cc_mg_norm(mg, F, u) - cc_dot(u, Bu, n3)) <= 1e-12 * cc_dot(u, Bu, n3));
    cc_mg_apply(mg, F, u, Bv);
    cc_mg_set_simd(mg, 1);
    double e2 = 0, b2 = 0;
    for (int a = 0; a < n3; a++) e2 += (Bu[a] - Bv[a]) * (Bu[a] - Bv[a]), b2 += Bu[a] * Bu[a];
    CU_ASSERT(b2 > 0 && e2 <= 1e-24 * b2);
    cc_bsr_mul(A, u, y);   /* the product: S A S u with the weak blocks, to single precision */
    cc_filter_apply(F, y);
    for (int i = 0; i < n; i++)
        for (int a = 0; a < 3; a++) {
            ac[3 * i + a] = 0;
            for (int q = A->rowptr[i]; q < A->rowptr[i + 1]; q++)
                for (int b = 0; b < 3; b++) ac[3 * i + a] += fabs(cc_bsr_block(A, q)[3 * a + b] * u[3 * A->col[q] + b]);
        }
    double *u4 = vec4_from(u, n), *q4 = vec4_from(u, n), d2 = 0, s2 = 0;
    cc_mg_product(mg, u4, q4);
    for (int i = 0; i < n; i++)
        for (int a = 0; a < 3; a++) {
            double d = q4[4 * i + a] - y[3 * i + a];
            d2 += d * d, s2 += ac[3 * i + a] * ac[3 * i + a];
        }
    CU_ASSERT(d2 <= ldexp(s2, -46));
    int it[2] = {0, 0};   /* MPCG iterations to 1e-6 from zero: weak blocks left out, then kept */
    cc_mpcg_work *w = cc_mpcg_work_new(n);
    for (int k = 0; k < 2; k++) {
        cc_mpcg_stats st;
        memset(u, 0, (size_t)n3 * sizeof *u);
        CU_ASSERT_EQUAL(cc_mpcg_solve(A, s->b, F, NULL, 0, CC_PRECOND_MG, 1e-6, 500, w, u, &st), 0);
        CU_ASSERT(st.converged && !st.ic_fallback);
        CU_ASSERT_EQUAL(cc_mg_dropped(w->mg), k ? 0 : pairs);
        it[k] = st.iterations;
        cc_mg_set_weak(w->mg, 0);
    }
    printf("; MPCG to 1e-6: %d iterations, %d with every block", it[0], it[1]);
    CU_ASSERT(10 * it[0] <= 11 * it[1]);   /* at most 10 % more (36 against 29 without the lumping) */
    free(u4);
    free(q4);
    free(u);
    free(v);
    free(Bu);
    free(Bv);
    free(y);
    free(ac);
    cc_mpcg_work_free(w);
    cc_mg_free(mg);
    cc_sim_free(s);
    cc_mesh_free(m);
}

/* On finer grids bending couples a hinge's wing vertices more strongly against the
 * diagonal (their blocks scale as k_bend / l^2, the diagonal's stretch part as l): at
 * 256 x 256 on the bench scene they reach 1.2e-2 to 3.2e-2 of it, above the weak threshold,
 * where a sweep would carry all six lower blocks of a row instead of three. The pattern marks
 * them minor (only hinges couple them, cc_bsr_mark_minor), and the smoother leaves out minor
 * blocks up to ten times the threshold. The same here with k_bend raised: every wing pair is
 * left out with the marks, none without them (they are all above the threshold), and MPCG
 * needs at most 10 % more iterations than with every block in the smoother */
static void test_mg_minor(void)
{
    int g = 24;
    cc_mesh *m;
    cc_sim *s = hanging_cloth_kb(g, NULL, -1, KB_MINOR, &m);
    for (int step = 0; step < 10; step++) CU_ASSERT_EQUAL_FATAL(cc_sim_step(s), 0);
    cc_bsr *A = s->A;
    int n = A->n, pairs = 0;
    for (int h = 0; h < m->nh; h++) {   /* as test_mg_weak */
        int w0 = m->hinge[4 * h], w3 = m->hinge[4 * h + 3];
        pairs += w0 != g * (g - 1) && w0 != g * g - 1 && w3 != g * (g - 1) && w3 != g * g - 1;
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(A->minor);
    int it[2] = {0, 0}, dropped[2] = {0, 0};   /* with the marks, without */
    double *u = malloc(3 * (size_t)n * sizeof *u);
    unsigned char *minor = A->minor;
    for (int k = 0; k < 2; k++) {
        cc_mpcg_work *w = cc_mpcg_work_new(n);
        cc_mpcg_stats st;
        A->minor = k == 0 ? minor : NULL;
        memset(u, 0, 3 * (size_t)n * sizeof *u);
        CU_ASSERT_EQUAL(cc_mpcg_solve(A, s->b, s->F, NULL, 0, CC_PRECOND_MG, 1e-6, 500, w, u, &st), 0);
        CU_ASSERT(st.converged && !st.ic_fallback);
        it[k] = st.iterations, dropped[k] = cc_mg_dropped(w->mg);
        cc_mpcg_work_free(w);
    }
    A->minor = minor;
    printf("\n    24 x 24 cloth, k_bend %g: %d and %d blocks left out (%d wing pairs), MPCG to 1e-6 in %d and %d"
           " iterations (with the minor marks, without)", KB_MINOR, dropped[0], dropped[1], pairs, it[0], it[1]);
    CU_ASSERT_EQUAL(dropped[0], pairs);
    CU_ASSERT_EQUAL(dropped[1], 0);   /* every block kept */
    CU_ASSERT(10 * it[0] <= 11 * it[1]);
    free(u);
    cc_sim_free(s);
    cc_mesh_free(m);
}

/* B with level 0 filled ahead by the assembly (cc_mg_prefill, the simulator's path) equals B
 * from a full setup bit for bit, and so does B filled ahead by hand in two chunks; rows out
 * of order are refused (the setup then makes the full pass), and a reset after A changes
 * makes the setup see the new A */
static void test_mg_prefill(void)
{
    int g = 20;
    cc_mesh *m;
    cc_sim *s = stepped_cloth(g, "multigrid", 5, &m);
    cc_bsr *A = s->A;
    const cc_filter *F = s->F;
    cc_mg *mg = s->W->mg;
    int n = A->n, n3 = 3 * n;
    double *u = malloc((size_t)n3 * sizeof *u), *b0 = malloc((size_t)n3 * sizeof *b0), *b1 = malloc((size_t)n3 * sizeof *b1);
    for (int a = 0; a < n3; a++) u[a] = rnd();
    cc_filter_apply(F, u);
    cc_mg_apply(mg, F, u, b0);   /* the last step's B: level 0 from the assembly sweep */
    CU_ASSERT_EQUAL(cc_mg_setup(mg, A, F), 0);   /* nothing filled ahead now: the full pass */
    cc_mg_apply(mg, F, u, b1);
    CU_ASSERT_EQUAL(memcmp(b0, b1, (size_t)n3 * sizeof *b0), 0);
    CU_ASSERT_EQUAL(cc_mg_tail_row(mg, A), n);   /* 400 rows: one part, no tail */
    CU_ASSERT_EQUAL(cc_mg_prefill(mg, A, F, 0, n / 3), -1);   /* not begun */
    CU_ASSERT_EQUAL(cc_mg_prefill_begin(mg, A, F, n), 0);
    CU_ASSERT_EQUAL(cc_mg_prefill(mg, A, F, 0, n / 3), 0);   /* by hand, in two chunks */
    CU_ASSERT_EQUAL(cc_mg_prefill(mg, A, F, n / 3, n), 0);
    CU_ASSERT_EQUAL(cc_mg_setup(mg, A, F), 0);
    cc_mg_apply(mg, F, u, b1);
    CU_ASSERT_EQUAL(memcmp(b0, b1, (size_t)n3 * sizeof *b0), 0);
    CU_ASSERT_EQUAL(cc_mg_prefill_begin(mg, A, F, n), 0);
    CU_ASSERT_EQUAL(cc_mg_prefill(mg, A, F, 0, 10), 0);   /* out of order: refused */
    CU_ASSERT_EQUAL(cc_mg_prefill(mg, A, F, 20, 30), -1);
    CU_ASSERT_EQUAL(cc_mg_prefill(mg, A, F, 30, n), -1);
    CU_ASSERT_EQUAL(cc_mg_setup(mg, A, F), 0);
    cc_mg_apply(mg, F, u, b1);
    CU_ASSERT_EQUAL(memcmp(b0, b1, (size_t)n3 * sizeof *b0), 0);
    CU_ASSERT_EQUAL(cc_mg_prefill_begin(mg, A, F, n), 0);   /* filled ahead, then A changes */
    CU_ASSERT_EQUAL(cc_mg_prefill(mg, A, F, 0, n), 0);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 9; k += 4) cc_bsr_block(A, A->diag[i])[k] *= 2;
    cc_mg_prefill_reset(mg);
    CU_ASSERT_EQUAL(cc_mg_setup(mg, A, F), 0);
    cc_mg_apply(mg, F, u, b1);
    cc_mg *fresh = cc_mg_new();   /* the same hierarchy would need the old values: compare norms */
    CU_ASSERT_EQUAL(cc_mg_setup(fresh, A, F), 0);
    cc_mg_apply(fresh, F, u, b0);
    double d0 = cc_dot(u, b0, n3), d1 = cc_dot(u, b1, n3);
    CU_ASSERT(fabs(d1 - d0) <= 0.2 * d0);   /* both B of the new A (the stale one was ~2x off) */
    CU_ASSERT_EQUAL(cc_mg_prefill(NULL, A, F, 0, n), -1);
    CU_ASSERT_EQUAL(cc_mg_prefill_begin(NULL, A, F, n), -1);
    cc_mg_free(fresh);
    free(u);
    free(b0);
    free(b1);
    cc_sim_free(s);
    cc_mesh_free(m);
}

/* B filled ahead in two fronts, head and tail (the assembly's two parts), in whichever order
 * their calls come, is the full setup's B bit for bit (the tail's additions into values the
 * head's rows share are made after them); a tail that starts too low, a head that goes past
 * the tail's first row and calls out of order are refused */
static void test_mg_prefill_tail(void)
{
    int g = 30;
    cc_mesh *m;
    cc_sim *s = stepped_cloth(g, "multigrid", 5, &m);
    cc_bsr *A = s->A;
    const cc_filter *F = s->F;
    cc_mg *mg = s->W->mg;
    int n = A->n, n3 = 3 * n, t = cc_mg_tail_row(mg, A);
    CU_ASSERT(t > n / 2 && t <= n / 2 + 2 * g + 2);   /* two parts: the cut, then two grid rows (hinges) */
    double *u = malloc((size_t)n3 * sizeof *u), *b[5];
    for (int k = 0; k < 5; k++) b[k] = malloc((size_t)n3 * sizeof *b[k]);
    for (int a = 0; a < n3; a++) u[a] = rnd();
    cc_filter_apply(F, u);
    CU_ASSERT_EQUAL(cc_mg_setup(mg, A, F), 0);   /* the full pass */
    cc_mg_apply(mg, F, u, b[0]);
    /* the tail first; the head below the cut first (the assembly's order); interleaved; the head first */
    for (int order = 0; order < 4; order++) {
        CU_ASSERT_EQUAL(cc_mg_prefill_begin(mg, A, F, t), 0);
        if (order == 0) CU_ASSERT_EQUAL(cc_mg_prefill_tail(mg, A, F, t, n), 0);
        CU_ASSERT_EQUAL(cc_mg_prefill(mg, A, F, 0, n / 4), 0);
        if (order == 2) CU_ASSERT_EQUAL(cc_mg_prefill_tail(mg, A, F, t, t + 7), 0);
        CU_ASSERT_EQUAL(cc_mg_prefill(mg, A, F, n / 4, n / 2), 0);
        if (order == 2) CU_ASSERT_EQUAL(cc_mg_prefill_tail(mg, A, F, t + 7, n), 0);
        if (order == 1) CU_ASSERT_EQUAL(cc_mg_prefill_tail(mg, A, F, t, n), 0);
        CU_ASSERT_EQUAL(cc_mg_prefill(mg, A, F, n / 2, t), 0);
        if (order == 3) CU_ASSERT_EQUAL(cc_mg_prefill_tail(mg, A, F, t, n), 0);
        CU_ASSERT_EQUAL(cc_mg_setup(mg, A, F), 0);
        cc_mg_apply(mg, F, u, b[1 + order]);
    }
    for (int k = 1; k < 5; k++) CU_ASSERT_EQUAL(memcmp(b[0], b[k], (size_t)n3 * sizeof *b[0]), 0);
    CU_ASSERT_EQUAL(cc_mg_prefill_begin(mg, A, F, t - 1), -1);   /* a row of the tail touches part 0 */
    CU_ASSERT_EQUAL(cc_mg_prefill_begin(mg, A, F, t), 0);
    CU_ASSERT_EQUAL(cc_mg_prefill(mg, A, F, 0, t + 1), -1);   /* past the tail's first row */
    CU_ASSERT_EQUAL(cc_mg_prefill_begin(mg, A, F, t), 0);
    CU_ASSERT_EQUAL(cc_mg_prefill_tail(mg, A, F, t + 1, n), -1);   /* the tail out of order */
    CU_ASSERT_EQUAL(cc_mg_prefill(mg, A, F, 0, t), 0);
    CU_ASSERT_EQUAL(cc_mg_setup(mg, A, F), 0);   /* without its tail: the full pass */
    cc_mg_apply(mg, F, u, b[1]);
    CU_ASSERT_EQUAL(memcmp(b[0], b[1], (size_t)n3 * sizeof *b[0]), 0);
    for (int k = 0; k < 5; k++) free(b[k]);
    free(u);
    cc_sim_free(s);
    cc_mesh_free(m);
}

/* which product the multigrid loop takes: single precision from tol 1e-4 up under
 * CC_PRODUCT_AUTO, double below, and as forced; every choice meets its tolerance in the
 * 2-norm of the true residual, and single and double take about as many iterations */
static void test_mg_product_choice(void)
{
    int g = 40, n = g * g, n3 = 3 * n;
    cc_bsr *A = grid_system(g, 1e-3, 0);
    cc_filter *F = cc_filter_new(n);
    cc_mpcg_work *w = cc_mpcg_work_new(n);
    double *b = malloc((size_t)n3 * sizeof *b), *x = malloc((size_t)n3 * sizeof *x), *z = malloc((size_t)n3 * sizeof *z);
    for (int a = 0; a < n3; a++) b[a] = rnd();
    constrain_grid(F, n, z);
    struct { cc_mpcg_product pr; double tol; int single; } cases[] = {
        {CC_PRODUCT_AUTO, 1e-2, 1}, {CC_PRODUCT_AUTO, CC_MPCG_SINGLE_TOL, 1}, {CC_PRODUCT_AUTO, 1e-6, 0},
        {CC_PRODUCT_DOUBLE, 1e-2, 0}, {CC_PRODUCT_SINGLE, 1e-5, 1}, {CC_PRODUCT_DOUBLE, 1e-5, 0},
    };
    int it[6];
    for (int k = 0; k < 6; k++) {
        cc_mpcg_stats st;
        w->product = cases[k].pr;
        CU_ASSERT_EQUAL(cc_mpcg_solve(A, b, F, z, 0, CC_PRECOND_MG, cases[k].tol, 500, w, x, &st), 0);
        CU_ASSERT_EQUAL(st.single_product, cases[k].single);
        CU_ASSERT(sparse_rel_residual(A, F, b, x, z) < 30 * cases[k].tol);
        it[k] = st.iterations;
    }
    printf("\n    iterations single / double: %d / %d at 1e-2, %d / %d at 1e-5", it[0], it[3], it[4], it[5]);
    CU_ASSERT(abs(it[0] - it[3]) <= 1 && abs(it[4] - it[5]) <= 1);
    cc_mpcg_stats st;   /* another preconditioner never takes it */
    w->product = CC_PRODUCT_SINGLE;
    CU_ASSERT_EQUAL(cc_mpcg_solve(A, b, F, z, 0, CC_PRECOND_AB, 1e-2, 5000, w, x, &st), 0);
    CU_ASSERT_EQUAL(st.single_product, 0);
    free(b);
    free(x);
    free(z);
    cc_filter_free(F);
    cc_mpcg_work_free(w);
    cc_bsr_free(A);
}

/* the sweeps' row order (cc_mgi_sweep_order): on the bench cloth every level's order solves the
 * triangular systems of index order (cc_mg_chained >= 0), B is the same up to round-off with
 * either order and either smoother, and far fewer consecutive rows of level 0 wait for the
 * row before them than in index order */
static void test_mg_order(void)
{
    int g = 30;
    cc_mesh *m;
    cc_sim *s = stepped_cloth(g, NULL, 10, &m);
    const cc_bsr *A = s->A;
    const cc_filter *F = s->F;
    int n3 = 3 * A->n;
    cc_mg *mg[2] = {cc_mg_new(), cc_mg_new()};   /* index order, reordered */
    double chained[2] = {0, 0};
    cc_mg_set_reorder(mg[0], 0);
    for (int k = 0; k < 2; k++) {
        CU_ASSERT_EQUAL_FATAL(cc_mg_setup(mg[k], A, F), 0);
        int nl = cc_mg_levels(mg[k], 0, NULL);
        CU_ASSERT(nl >= 3);
        for (int l = 0; l < nl; l++) CU_ASSERT(cc_mg_chained(mg[k], l) >= 0);
        chained[k] = cc_mg_chained(mg[k], 0);
    }
    CU_ASSERT_EQUAL(cc_mg_chained(mg[1], cc_mg_levels(mg[1], 0, NULL)), -1);   /* no such level */
    printf("\n    level 0: %.3f of consecutive rows coupled in index order, %.3f reordered", chained[0], chained[1]);
    CU_ASSERT(chained[0] > 0.9);
    CU_ASSERT(chained[1] < 0.1);
    double *u = malloc((size_t)n3 * sizeof *u), *B0 = malloc((size_t)n3 * sizeof *B0), *B1 = malloc((size_t)n3 * sizeof *B1);
    for (int simd = 0; simd < 2; simd++)
        for (int trial = 0; trial < 3; trial++) {
            for (int a = 0; a < n3; a++) u[a] = rnd();
            cc_filter_apply(F, u);
            cc_mg_set_simd(mg[0], simd);
            cc_mg_set_simd(mg[1], simd);
            double uBu0 = cc_mg_apply(mg[0], F, u, B0), uBu1 = cc_mg_apply(mg[1], F, u, B1), d2 = 0, n2 = 0;
            for (int a = 0; a < n3; a++) d2 += (B0[a] - B1[a]) * (B0[a] - B1[a]), n2 += B0[a] * B0[a];
            CU_ASSERT(uBu0 > 0 && fabs(uBu1 - uBu0) <= 1e-12 * uBu0);
            CU_ASSERT(n2 > 0 && d2 <= 1e-24 * n2);   /* ||B_reordered u - B_index u|| <= 1e-12 ||B u|| */
            CU_ASSERT(fabs(cc_mg_norm(mg[1], F, u) - uBu1) <= 1e-12 * uBu1);
            if (trial == 0) printf("; %s: ||B_re u - B u|| / ||B u|| = %.1e", simd ? "AVX2" : "scalar", sqrt(d2 / n2));
        }
    free(u);
    free(B0);
    free(B1);
    cc_mg_free(mg[0]);
    cc_mg_free(mg[1]);
    cc_sim_free(s);
    cc_mesh_free(m);
}

/* Levels that prefetch (cc_mg_set_far; here every level of a 30 x 30 cloth, in two parts, with
 * weak blocks) give the same cycle and product bit for bit, AVX2 and scalar; under
 * AddressSanitizer this also checks that the prefetching reads stay inside the arrays */
static void test_mg_far(void)
{
    int g = 30;
    cc_mesh *m;
    cc_sim *s = stepped_cloth(g, NULL, 10, &m);
    const cc_bsr *A = s->A;
    const cc_filter *F = s->F;
    int n = A->n, n3 = 3 * n;
    cc_mg *mg[2] = {cc_mg_new(), cc_mg_new()};   /* the default (no level that large), every level */
    cc_mg_set_far(mg[1], 1);
    for (int k = 0; k < 2; k++) CU_ASSERT_EQUAL_FATAL(cc_mg_setup(mg[k], A, F), 0);
    CU_ASSERT(cc_mg_levels(mg[1], 0, NULL) >= 3);
    double *u = malloc((size_t)n3 * sizeof *u), *B0 = malloc((size_t)n3 * sizeof *B0), *B1 = malloc((size_t)n3 * sizeof *B1);
    int same_cycle = 1, same_product = 1;
    for (int simd = 0; simd < 2; simd++) {
        for (int a = 0; a < n3; a++) u[a] = rnd();
        cc_filter_apply(F, u);
        cc_mg_set_simd(mg[0], simd);
        cc_mg_set_simd(mg[1], simd);
        double uBu0 = cc_mg_apply(mg[0], F, u, B0), uBu1 = cc_mg_apply(mg[1], F, u, B1);
        CU_ASSERT(uBu0 > 0);
        same_cycle &= uBu0 == uBu1 && memcmp(B0, B1, (size_t)n3 * sizeof *B0) == 0;
        double *c4 = vec4_from(u, n), *q0 = vec4_from(u, n), *q1 = vec4_from(u, n);
        double cq0 = cc_mg_product(mg[0], c4, q0), cq1 = cc_mg_product(mg[1], c4, q1);
        CU_ASSERT(cq0 > 0);
        same_product &= cq0 == cq1 && memcmp(q0, q1, 4 * (size_t)n * sizeof *q0) == 0;
        free(c4);
        free(q0);
        free(q1);
    }
    CU_ASSERT(same_cycle);
    CU_ASSERT(same_product);
    free(u);
    free(B0);
    free(B1);
    cc_mg_free(mg[0]);
    cc_mg_free(mg[1]);
    cc_sim_free(s);
    cc_mesh_free(m);
}

int main(void)
{
    static const cc_test_case tests[] = {
        {"random SPD block systems solved to tolerance, every preconditioner", test_spd_tolerance},
        {"constrained DOFs as prescribed; free DOFs solve the reduced system", test_constraints},
        {"edge cases and bad arguments", test_edges},
        {"multigrid on a cloth-like grid: tolerance, constraints, several levels", test_mg_grid},
        {"multigrid needs far fewer iterations than block Jacobi; new pattern, new hierarchy", test_mg_iterations},
        {"auto: the blocks while their solves take 20 on average, then the multigrid, kept", test_auto},
        {"multigrid cycle is symmetric positive definite on the free space, in 1, 2, 3 parts", test_mg_symmetric},
        {"multigrid that cannot be built falls back to Ascher & Boxerman", test_mg_fallback},
        {"multigrid with nothing to coarsen is one symmetric Gauss-Seidel sweep", test_mg_no_coarsening},
        {"simulator with the multigrid preconditioner", test_mg_sim},
        {"simulator with the multigrid, level 1 in two parts", test_mg_sim_parts},
        {"level 1's correction for the dropped blocks: fewer iterations; refused when not SPD", test_mg_gamma},
        {"warm start guessed from the last three steps: fewer iterations", test_warm_start},
        {"block product equals the dense product to round-off", test_bsr_mul},
        {"AVX2 and scalar multigrid smoothers agree; both cycles symmetric", test_mg_simd},
        {"4-lane block product equals the 3n one", test_bsr_mul4},
        {"multigrid level-0 product = S A S c up to single-precision blocks", test_mg_product},
        {"multigrid smoother leaves weak couplings out, lumped: same cycle quality", test_mg_weak},
        {"multigrid smoother leaves minor couplings out up to ten times the threshold", test_mg_minor},
        {"multigrid level 0 filled ahead by the assembly: the same B; refused out of order", test_mg_prefill},
        {"multigrid level 0 filled ahead in two fronts: one B whatever the order of calls", test_mg_prefill_tail},
        {"single-precision products from tol 1e-4 up, double below; both meet tol", test_mg_product_choice},
        {"multigrid sweeps in a reordered row order: valid, same B, rows rarely wait", test_mg_order},
        {"multigrid levels that prefetch: the same cycle and product bit for bit", test_mg_far},
        {NULL, NULL},
    };
    return cc_test_main("sim_mpcg", tests);
}
