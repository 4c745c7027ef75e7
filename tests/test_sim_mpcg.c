/* sim/mpcg: random SPD block systems solved to tolerance, constrained DOFs exactly as
 * prescribed, and agreement with a dense solve of the reduced system. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cc_test.h"
#include "sim/mpcg.h"

static unsigned long long rng = 0x9E3779B97F4A7C15ULL;
static double rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

#define NV 40          /* vertices */
#define N3 (3 * NV)

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
                A->val[9 * cc_bsr_slot(A, i, j) + 3 * (a % 3) + b % 3] += K[a][b];
            }
    }
    for (int i = 0; i < NV; i++) {
        double m = 1 + 0.5 * rnd();
        for (int s = 0; s < 3; s++) {
            D[(3 * i + s) * N3 + 3 * i + s] += m;
            A->val[9 * A->diag[i] + 4 * s] += m;
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
    for (int pc = CC_PRECOND_JACOBI; pc <= CC_PRECOND_IC0; pc++)
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
    for (int pc = CC_PRECOND_JACOBI; pc <= CC_PRECOND_IC0; pc++)
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

int main(void)
{
    static const cc_test_case tests[] = {
        {"random SPD block systems solved to tolerance, every preconditioner", test_spd_tolerance},
        {"constrained DOFs as prescribed; free DOFs solve the reduced system", test_constraints},
        {"edge cases and bad arguments", test_edges},
        {NULL, NULL},
    };
    return cc_test_main("sim_mpcg", tests);
}
