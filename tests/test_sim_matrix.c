/* sim/bsr and assembly: block pattern, products, and the assembled Jacobians against
 * central differences of the assembled force. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cc_test.h"
#include "mesh/mesh.h"
#include "sim/algebra/bsr.h"
#include "sim/assembly/forces.h"
#include "sim/sim.h"

static unsigned long long rng = 88172645463325252ULL;
/* uniform in [-1, 1) from this suite's generator state */
static double rnd(void) { return cc_test_rnd(&rng); }

/* the pattern of a 3x3 grid: block (i,j) stored iff i, j share a triangle or hinge; minor iff
 * they share no triangle */
static void test_pattern(void)
{
    char err[CC_ERRLEN];
    cc_mesh *m = cc_mesh_grid(3, 3, 1, 1, 0, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    const int *elems[2] = {m->tri, m->hinge};
    int nel[2] = {m->nt, m->nh}, k[2] = {3, 4};
    cc_bsr *A = cc_bsr_pattern(m->nv, 2, elems, nel, k);
    CU_ASSERT_PTR_NOT_NULL_FATAL(A);
    int dense[9][9] = {{0}};
    for (int l = 0; l < 2; l++)
        for (int e = 0; e < nel[l]; e++)
            for (int a = 0; a < k[l]; a++)
                for (int b = 0; b < k[l]; b++) dense[elems[l][e * k[l] + a]][elems[l][e * k[l] + b]] = 1;
    int count = 0;
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 9; j++) {
            int expect = dense[i][j] || i == j;
            count += expect;
            CU_ASSERT_EQUAL(cc_bsr_slot(A, i, j) >= 0, expect);
        }
    CU_ASSERT_EQUAL(A->nnzb, count);
    for (int i = 0; i < 9; i++) {
        CU_ASSERT_EQUAL(A->col[A->diag[i]], i);
        for (int p = A->rowptr[i] + 1; p < A->rowptr[i + 1]; p++) CU_ASSERT(A->col[p] > A->col[p - 1]);
    }
    /* values: every slot its own place; the lower and diagonal blocks first, row after row */
    int seen[81] = {0}, next = 0, nlow = 0;
    for (int i = 0; i < 9; i++) nlow += A->diag[i] + 1 - A->rowptr[i];
    for (int i = 0; i < 9; i++)
        for (int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
            CU_ASSERT_FATAL(A->vpos[p] >= 0 && A->vpos[p] < A->nnzb);
            CU_ASSERT_EQUAL(seen[A->vpos[p]]++, 0);
            if (p <= A->diag[i]) {
                CU_ASSERT_EQUAL(A->vpos[p], next++);
            } else {
                CU_ASSERT(A->vpos[p] >= nlow);
            }
        }
    CU_ASSERT_EQUAL(next, nlow);
    /* minor blocks: those only the hinges couple, i.e. (i,j) not in one triangle */
    CU_ASSERT_EQUAL(cc_bsr_mark_minor(A, 1, elems, nel, k), 0);
    int nminor = 0;
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 9; j++) {
            int p = cc_bsr_slot(A, i, j), tri = i == j;
            for (int e = 0; e < m->nt; e++) {
                const int *t = m->tri + 3 * e;
                tri |= (t[0] == i || t[1] == i || t[2] == i) && (t[0] == j || t[1] == j || t[2] == j);
            }
            if (p < 0) continue;
            CU_ASSERT_EQUAL(A->minor[p], !tri);
            nminor += A->minor[p];
        }
    CU_ASSERT(nminor > 0);
    CU_ASSERT_PTR_NULL(cc_bsr_pattern(2, 1, elems, nel, k));   /* index 8 out of range for n = 2 */
    cc_bsr_free(A);
    cc_mesh_free(m);
}

/* y = A x against the dense product, all rows and a subset of rows */
static void test_mul(void)
{
    char err[CC_ERRLEN];
    cc_mesh *m = cc_mesh_grid(4, 3, 1, 1, 1, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    const int *elems[1] = {m->tri};
    int nel[1] = {m->nt}, k[1] = {3}, n = m->nv, n3 = 3 * n;
    cc_bsr *A = cc_bsr_pattern(n, 1, elems, nel, k);
    CU_ASSERT_PTR_NOT_NULL_FATAL(A);
    double *D = calloc((size_t)n3 * n3, sizeof *D), *x = malloc(n3 * sizeof *x), *y = malloc(n3 * sizeof *y);
    for (int i = 0; i < n; i++)
        for (int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
            for (int a = 0; a < 9; a++) {
                cc_bsr_block(A, p)[a] = rnd();
                D[(3 * i + a / 3) * n3 + 3 * A->col[p] + a % 3] = cc_bsr_block(A, p)[a];
            }
    for (int a = 0; a < n3; a++) x[a] = rnd();
    cc_bsr_mul(A, x, y);
    double worst = 0;
    for (int a = 0; a < n3; a++) {
        double ref = 0;
        for (int b = 0; b < n3; b++) ref += D[a * n3 + b] * x[b];
        worst = fmax(worst, fabs(ref - y[a]));
    }
    CU_ASSERT(worst < 1e-14);
    int rows[2] = {1, 7};
    double y2[3 * 12];
    for (int a = 0; a < n3; a++) y2[a] = 42;
    cc_bsr_mul_rows(A, rows, 2, x, y2);
    for (int r = 0; r < 2; r++)
        for (int s = 0; s < 3; s++) CU_ASSERT_DOUBLE_EQUAL(y2[3 * rows[r] + s], y[3 * rows[r] + s], 1e-15);
    CU_ASSERT_EQUAL(y2[0], 42);
    cc_bsr_zero(A);
    cc_bsr_mul(A, x, y);
    for (int a = 0; a < n3; a++) CU_ASSERT_EQUAL(y[a], 0.0);
    free(D);
    free(x);
    free(y);
    cc_bsr_free(A);
    cc_mesh_free(m);
}

/* a small 4x4 cloth, randomly crumpled, with exact-derivative variants */
static cc_sim *crumpled(const char *bend, double damp, double *scale)
{
    char err[CC_ERRLEN];
    cc_sim_params p;
    cc_mesh *m = cc_mesh_grid(4, 4, 0.3, 0.3, 1, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(cc_sim_preset("pritchard-table1", &p, err), 0);
    p.k_bend = 1e-2;   /* large enough to show in the comparison */
    p.d_stretch = damp * p.k_stretch;
    p.d_shear = damp * p.k_shear;
    p.d_bend = damp * p.k_bend;
    snprintf(p.bend_variant, CC_SIM_NAMELEN, "%s", bend);
    snprintf(p.shear_variant, CC_SIM_NAMELEN, "bw98");
    for (int i = 0; i < 3 * m->nv; i++) m->x[i] += 0.02 * rnd();
    cc_sim *s = cc_sim_new(m, &p, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    double *v = malloc(3 * (size_t)m->nv * sizeof *v);
    for (int i = 0; i < 3 * m->nv; i++) v[i] = 0.5 * rnd();
    cc_sim_set_state(s, NULL, v);
    free(v);
    *scale = 0.3 / 3;
    cc_mesh_free(m);
    return s;
}

/* largest |J - central difference of f| relative to the largest |J| entry; wrt = 0: x, 1: v */
static double jacobian_vs_fd(cc_sim *s, int wrt, double step)
{
    size_t n3 = 3 * (size_t)cc_sim_vertex_count(s);
    double *J = malloc(n3 * n3 * sizeof *J), *D = malloc(n3 * n3 * sizeof *D);
    cc_test_sim_jacobians(s, wrt, step, J, D);
    double worst = 0, big = 0;
    for (size_t k = 0; k < n3 * n3; k++) {
        worst = fmax(worst, fabs(J[k] - D[k]));
        big = fmax(big, fabs(J[k]));
    }
    free(J);
    free(D);
    return worst / big;
}

/* df/dx of stretch + shear + exact bend (no damping) and df/dv (with damping) match central
 * differences of the assembled force; the step is chosen near the round-off/truncation V */
static void test_jacobians_vs_fd(void)
{
    double scale;
    cc_sim *s = crumpled("pritchard-exact", 0.0, &scale);
    double ex = jacobian_vs_fd(s, 0, 1e-6 * scale);
    CU_ASSERT(ex < 1e-6);
    cc_sim_free(s);
    s = crumpled("pritchard-exact", 0.2, &scale);
    double ev = jacobian_vs_fd(s, 1, 1e-3);
    CU_ASSERT(ev < 1e-9);   /* the damping force is linear in v: only round-off remains */
    /* and with damping, df/dx is Baraff & Witkin's (it omits -kd dC^T d(Cdot)/dx): it must
     * differ from the true derivative, visibly */
    double bw = jacobian_vs_fd(s, 0, 1e-6 * scale);
    CU_ASSERT(bw > 1e-4);
    printf("\n    df/dx vs FD %.2e, df/dv vs FD %.2e, B&W damping df/dx vs FD %.2e ", ex, ev, bw);
    cc_sim_free(s);
}

/* the assembled Jacobians are symmetric and df/dv is negative semi-definite */
static void test_symmetry(void)
{
    double scale;
    cc_sim *s = crumpled("pritchard", 0.2, &scale);
    int n3 = 3 * cc_sim_vertex_count(s);
    double *J = malloc((size_t)n3 * n3 * sizeof *J);
    for (int which = 0; which < 2; which++) {
        CU_ASSERT_EQUAL_FATAL(cc_sim_jacobian_dense(s, which, J), 0);
        double asym = 0, big = 0;
        for (int a = 0; a < n3; a++)
            for (int b = 0; b < n3; b++) {
                asym = fmax(asym, fabs(J[a * n3 + b] - J[b * n3 + a]));
                big = fmax(big, fabs(J[a * n3 + b]));
            }
        CU_ASSERT(asym <= 1e-15 * big);
    }
    for (int t = 0; t < 20; t++) {   /* u^T (df/dv) u <= 0 */
        double q = 0, u[3 * 16];
        for (int a = 0; a < n3; a++) u[a] = rnd();
        for (int a = 0; a < n3; a++)
            for (int b = 0; b < n3; b++) q += u[a] * J[a * n3 + b] * u[b];
        CU_ASSERT(q <= 1e-12);
    }
    free(J);
    cc_sim_free(s);
}

/* PSD projection: a PSD matrix is unchanged, an indefinite one loses its negative part */
static void test_psd_projection(void)
{
    double H[CC_MAX_DOF][CC_MAX_DOF], G[CC_MAX_DOF][CC_MAX_DOF], K[CC_MAX_DOF][CC_MAX_DOF];
    int n = 12;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) G[a][b] = rnd();
    for (int a = 0; a < n; a++)   /* H = G G^T, PSD */
        for (int b = 0; b < n; b++) {
            H[a][b] = 0;
            for (int k = 0; k < n; k++) H[a][b] += G[a][k] * G[b][k];
        }
    memcpy(K, H, sizeof K);
    cc_psd_project(K, n);
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) CU_ASSERT_DOUBLE_EQUAL(K[a][b], H[a][b], 1e-12 * 12);
    for (int a = 0; a < n; a++)   /* H = G + G^T: indefinite */
        for (int b = 0; b < n; b++) H[a][b] = G[a][b] + G[b][a];
    memcpy(K, H, sizeof K);
    cc_psd_project(K, n);
    double minq = 0, trace_h = 0, trace_k = 0;
    for (int t = 0; t < 200; t++) {
        double u[CC_MAX_DOF], q = 0, uu = 0;
        for (int a = 0; a < n; a++) u[a] = rnd(), uu += u[a] * u[a];
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++) q += u[a] * K[a][b] * u[b];
        minq = fmin(minq, q / uu);
    }
    for (int a = 0; a < n; a++) trace_h += H[a][a], trace_k += K[a][a];
    CU_ASSERT(minq > -1e-12);
    CU_ASSERT(trace_k > trace_h);   /* the negative eigenvalues were removed */
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) CU_ASSERT_DOUBLE_EQUAL(K[a][b], K[b][a], 1e-12);
}

/* the quick test: a PSD matrix with the three translations in its null space (an element
 * stiffness) comes back bitwise unchanged; one eigenvalue of -1e-9 max|H_aa| is removed */
static void test_psd_quick(void)
{
    int n = 12;
    double H[CC_MAX_DOF][CC_MAX_DOF], K[CC_MAX_DOF][CC_MAX_DOF], g[4][CC_MAX_DOF];
    for (int r = 0; r < 4; r++) {   /* g_r with sum over vertices zero: translation-free */
        for (int a = 0; a < n; a++) g[r][a] = rnd();
        for (int s = 0; s < 3; s++) g[r][9 + s] = -(g[r][s] + g[r][3 + s] + g[r][6 + s]);
    }
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            H[a][b] = 0;
            for (int r = 0; r < 4; r++) H[a][b] += g[r][a] * g[r][b];
        }
    memcpy(K, H, sizeof K);
    cc_psd_project(K, n);
    CU_ASSERT(memcmp(K, H, sizeof K) == 0);
    double big = 0, u[CC_MAX_DOF], uu = 0;
    for (int a = 0; a < n; a++) big = fmax(big, fabs(H[a][a]));
    for (int s = 0; s < 3; s++) u[s] = u[3 + s] = u[6 + s] = u[9 + s] = s == 0 ? 1.0 : 0.0;   /* x translation */
    for (int a = 0; a < n; a++) uu += u[a] * u[a];
    for (int a = 0; a < n; a++)   /* H - 1e-9 big u u^T / |u|^2: one eigenvalue -1e-9 big */
        for (int b = 0; b < n; b++) K[a][b] = H[a][b] - 1e-9 * big * u[a] * u[b] / uu;
    cc_psd_project(K, n);
    double q = 0;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) q += u[a] * K[a][b] * u[b] / uu;
    CU_ASSERT(fabs(q) < 1e-13 * big);   /* the negative eigenvalue is clamped to zero */
}

/* a matrix of known spectrum Q diag(lambda) Q^T projects to Q diag(max(lambda, 0)) Q^T */
static void test_psd_known_spectrum(void)
{
    int sizes[3] = {9, 12, 4};
    for (int t = 0; t < 3; t++) {
        int n = sizes[t];
        double Q[CC_MAX_DOF][CC_MAX_DOF], lam[CC_MAX_DOF], H[CC_MAX_DOF][CC_MAX_DOF], R[CC_MAX_DOF][CC_MAX_DOF];
        for (int c = 0; c < n; c++) {   /* random orthonormal columns by Gram-Schmidt */
            for (int a = 0; a < n; a++) Q[a][c] = rnd();
            for (int k = 0; k < c; k++) {
                double d = 0;
                for (int a = 0; a < n; a++) d += Q[a][k] * Q[a][c];
                for (int a = 0; a < n; a++) Q[a][c] -= d * Q[a][k];
            }
            double nn = 0;
            for (int a = 0; a < n; a++) nn += Q[a][c] * Q[a][c];
            for (int a = 0; a < n; a++) Q[a][c] /= sqrt(nn);
            lam[c] = c % 4 == 3 ? 0.0 : rnd();   /* some exact zeros, as rigid modes give */
        }
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++) {
                H[a][b] = R[a][b] = 0;
                for (int k = 0; k < n; k++) {
                    H[a][b] += Q[a][k] * lam[k] * Q[b][k];
                    R[a][b] += Q[a][k] * fmax(lam[k], 0.0) * Q[b][k];
                }
            }
        for (int a = 0; a < n; a++)   /* exactly symmetric input */
            for (int b = 0; b < a; b++) H[a][b] = H[b][a];
        const double scales[3] = {1.0, 1e-150, 1e150};   /* the same relative result at any scale */
        for (int sc = 0; sc < 3; sc++) {
            double S[CC_MAX_DOF][CC_MAX_DOF];
            for (int a = 0; a < n; a++)
                for (int b = 0; b < n; b++) S[a][b] = scales[sc] * H[a][b];
            cc_psd_project(S, n);
            double worst = 0;
            for (int a = 0; a < n; a++)
                for (int b = 0; b < n; b++) worst = fmax(worst, fabs(S[a][b] / scales[sc] - R[a][b]));
            CU_ASSERT(worst < 1e-13);
        }
    }
}

int main(void)
{
    static const cc_test_case tests[] = {
        {"block pattern from triangles and hinges", test_pattern},
        {"block product against the dense product", test_mul},
        {"assembled Jacobians against central differences", test_jacobians_vs_fd},
        {"assembled Jacobians are symmetric, df/dv negative semi-definite", test_symmetry},
        {"PSD projection of element blocks", test_psd_projection},
        {"PSD projection: PSD blocks pass the quick test unchanged", test_psd_quick},
        {"PSD projection of a matrix of known spectrum", test_psd_known_spectrum},
        {NULL, NULL},
    };
    return cc_test_main("sim_matrix", tests);
}
