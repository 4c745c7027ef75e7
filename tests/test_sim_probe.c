/* Suite: sim/model/probe.h, the smallest eigenvalue of the backward Euler matrix on the free DOFs.
 *
 * Against a dense reference: A = M - h df/dv - h^2 df/dx from the simulator's dense Jacobians,
 * pinned rows and columns replaced by the identity, its eigenvalues by cyclic Jacobi rotations.
 * On a cloth compressed in its plane the full A is indefinite and leaving out the stretch
 * C d2C (gauss-newton) or clamping it makes it positive definite; with no forces A = M.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cc_test.h"
#include "mesh/mesh.h"
#include "sim/model/probe.h"
#include "sim/sim.h"

/* smallest eigenvalue of the symmetric n x n matrix S (destroyed) by cyclic Jacobi */
static double jacobi_min(double *S, int n)
{
    for (int sweep = 0; sweep < 100; sweep++) {
        double off = 0;
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++) off += S[p * n + q] * S[p * n + q];
        if (off < 1e-30) break;
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++) {
                double apq = S[p * n + q];
                if (fabs(apq) < 1e-300) continue;
                double theta = (S[q * n + q] - S[p * n + p]) / (2 * apq);
                double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
                double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < n; k++) {   /* columns p, q */
                    double kp = S[k * n + p], kq = S[k * n + q];
                    S[k * n + p] = c * kp - s * kq, S[k * n + q] = s * kp + c * kq;
                }
                for (int k = 0; k < n; k++) {   /* rows p, q */
                    double pk = S[p * n + k], qk = S[q * n + k];
                    S[p * n + k] = c * pk - s * qk, S[q * n + k] = s * pk + c * qk;
                }
            }
    }
    double m = INFINITY;
    for (int i = 0; i < n; i++) m = fmin(m, S[i * n + i]);
    return m;
}

/* a 5 x 5 cloth of side 0.4 m squeezed to 85 % in x, rippled in z, two corners pinned */
static cc_sim *squeezed(const char *stretch_mode)
{
    char err[CC_ERRLEN];
    cc_mesh *m = cc_mesh_grid(5, 5, 0.4, 0.4, 0, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    for (int i = 0; i < m->nv; i++) {
        m->x[3 * i] *= 0.85;
        m->x[3 * i + 2] = 0.01 * sin(7.0 * m->x[3 * i] + 3.0 * m->x[3 * i + 1]);
    }
    cc_sim_params p;
    CU_ASSERT_EQUAL_FATAL(cc_sim_preset("pritchard-table1", &p, err), 0);
    CU_ASSERT_EQUAL_FATAL(cc_sim_param_set(&p, "kernels", "0", err), 0);
    if (stretch_mode) CU_ASSERT_EQUAL_FATAL(cc_sim_param_set(&p, "stretch_hessian", stretch_mode, err), 0);
    cc_sim *s = cc_sim_new(m, &p, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(cc_sim_pin(s, 20, NULL, err), 0);
    CU_ASSERT_EQUAL(cc_sim_pin(s, 24, NULL, err), 0);
    cc_mesh_free(m);
    return s;
}

/* per-vertex filter blocks of the dense reference: 0 for the two pins, I elsewhere, and
 * S[v] where slide[v] gives one (a vertex sliding in a plane) */
static const double *slide[25];

/* the dense reference lambda_min of s's free-DOF A: S A S + (I - S) */
static double dense_lambda_min(cc_sim *s)
{
    int n3 = 3 * cc_sim_vertex_count(s);
    double h = cc_sim_get_params(s)->h;
    double *Jx = malloc(sizeof(double) * n3 * n3), *Jv = malloc(sizeof(double) * n3 * n3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(Jx);
    CU_ASSERT_PTR_NOT_NULL_FATAL(Jv);
    CU_ASSERT_EQUAL_FATAL(cc_sim_jacobian_dense(s, 0, Jx), 0);
    CU_ASSERT_EQUAL_FATAL(cc_sim_jacobian_dense(s, 1, Jv), 0);
    const double *m = cc_sim_masses(s);
    double *A = malloc(sizeof(double) * n3 * n3), S[25][9];
    CU_ASSERT_PTR_NOT_NULL_FATAL(A);
    for (int v = 0; v < 25; v++)
        for (int k = 0; k < 9; k++) S[v][k] = slide[v] ? slide[v][k] : (v == 20 || v == 24) ? 0 : (k % 4 == 0);
    for (int a = 0; a < n3; a++)
        for (int b = 0; b < n3; b++) A[a * n3 + b] = (a == b ? m[a / 3] : 0) - h * Jv[a * n3 + b] - h * h * Jx[a * n3 + b];
    for (int a = 0; a < n3; a++)       /* S A S + (I - S), S block diagonal */
        for (int b = 0; b < n3; b++) {
            int va = a / 3, vb = b / 3;
            double sum = 0;
            for (int p = 0; p < 3; p++)
                for (int q = 0; q < 3; q++)
                    sum += S[va][3 * (a % 3) + p] * A[(3 * va + p) * n3 + 3 * vb + q] * S[vb][3 * q + b % 3];
            if (va == vb) sum += (a == b) - S[va][3 * (a % 3) + b % 3];
            Jx[a * n3 + b] = sum;
        }
    free(A);
    for (int a = 0; a < n3; a++)   /* symmetrise the round-off */
        for (int b = a + 1; b < n3; b++) Jx[a * n3 + b] = Jx[b * n3 + a] = 0.5 * (Jx[a * n3 + b] + Jx[b * n3 + a]);
    double l = jacobi_min(Jx, n3);
    free(Jx);
    free(Jv);
    return l;
}

static void test_against_dense(void)
{
    char err[CC_ERRLEN];
    const char *modes[] = {NULL, "gauss-newton", "clamp"};
    double got[3];
    for (int k = 0; k < 3; k++) {
        cc_sim *s = squeezed(modes[k]);
        double l, mmin, ref = dense_lambda_min(s);
        CU_ASSERT_EQUAL_FATAL(cc_sim_lambda_min(s, NULL, CC_HESSIAN_FULL, &l, &mmin, err), 0);
        if (fabs(l - ref) > 2e-3 * fabs(ref)) fprintf(stderr, "mode %s: probe %.6g, dense %.6g\n", modes[k], l, ref);
        CU_ASSERT(fabs(l - ref) <= 2e-3 * fabs(ref));
        CU_ASSERT(mmin > 0);
        got[k] = l;
        cc_sim_free(s);
    }
    CU_ASSERT(got[0] < 0);                  /* compressed: the full A is indefinite */
    CU_ASSERT(got[1] > 0 && got[2] > 0);    /* without the stretch C d2C, or clamped, it is not */

    /* the term/mode arguments give what a sim built with that mode gives */
    cc_sim *s = squeezed(NULL);
    double l;
    CU_ASSERT_EQUAL(cc_sim_lambda_min(s, "stretch", CC_HESSIAN_GAUSS_NEWTON, &l, NULL, err), 0);
    CU_ASSERT(fabs(l - got[1]) <= 1e-12 * fabs(got[1]));
    CU_ASSERT_EQUAL(cc_sim_lambda_min(s, "stretch", CC_HESSIAN_CLAMP, &l, NULL, err), 0);
    CU_ASSERT(fabs(l - got[2]) <= 1e-12 * fabs(got[2]));
    CU_ASSERT_EQUAL(cc_sim_lambda_min(s, NULL, CC_HESSIAN_FULL, &l, NULL, err), 0);   /* the mode was restored */
    CU_ASSERT(fabs(l - got[0]) <= 1e-12 * fabs(got[0]));
    CU_ASSERT_EQUAL(cc_sim_lambda_min(s, "drape", CC_HESSIAN_FULL, &l, NULL, err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown term 'drape'"));
    cc_sim_free(s);
}

/* a vertex sliding in a slanted plane is filtered as the step filters it: probe and dense
 * reference agree, and differ from the unconstrained vertex's */
static void test_sliding_vertex(void)
{
    char err[CC_ERRLEN];
    static const double n[3] = {0, 0.6, 0.8}, P[9] = {1, 0, 0, 0, 0.64, -0.48, 0, -0.48, 0.36};
    cc_sim *s = squeezed(NULL);
    double free_l, l, ref;
    CU_ASSERT_EQUAL_FATAL(cc_sim_lambda_min(s, NULL, CC_HESSIAN_FULL, &free_l, NULL, err), 0);
    for (int v = 0; v < 20; v += 2) {
        CU_ASSERT_EQUAL_FATAL(cc_sim_slide_plane(s, v, n, err), 0);
        slide[v] = P;
    }
    ref = dense_lambda_min(s);
    CU_ASSERT_EQUAL_FATAL(cc_sim_lambda_min(s, NULL, CC_HESSIAN_FULL, &l, NULL, err), 0);
    if (fabs(l - ref) > 2e-3 * fabs(ref)) fprintf(stderr, "sliding: probe %.6g, dense %.6g\n", l, ref);
    CU_ASSERT(fabs(l - ref) <= 2e-3 * fabs(ref));
    CU_ASSERT(fabs(l - free_l) > 1e-3 * fabs(free_l));
    for (int v = 0; v < 25; v++) slide[v] = NULL;
    cc_sim_free(s);
}

/* no forces: A = M on the free DOFs and 1 on the pinned ones */
static void test_mass_only(void)
{
    char err[CC_ERRLEN];
    cc_mesh *m = cc_mesh_grid(4, 4, 0.3, 0.3, 0, err);
    cc_sim_params p;
    CU_ASSERT_EQUAL_FATAL(cc_sim_preset("pritchard-table1", &p, err), 0);
    p.k_stretch = p.k_shear = p.k_bend = p.d_stretch = p.d_shear = p.d_bend = 0;
    cc_sim *s = cc_sim_new(m, &p, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    double l, mmin;
    CU_ASSERT_EQUAL(cc_sim_lambda_min(s, NULL, CC_HESSIAN_FULL, &l, &mmin, err), 0);
    CU_ASSERT(fabs(l - mmin) <= 1e-3 * mmin);
    cc_sim_free(s);
    cc_mesh_free(m);
}

/* clothcheck probe: an eigenvalue line before each step and a state line after, the ensemble,
 * and bad input refused with one line */
static void test_cli(void)
{
    static char out[1 << 14], err[1 << 12];
    CU_ASSERT_EQUAL(cc_test_run_cli("probe --grid 9 --steps 3", out, sizeof out, err, sizeof err), 0);
    int eig = 0, steps = 0;
    for (const char *p = out; (p = strstr(p, "before step")); p++) eig++;
    for (const char *p = out; (p = strstr(p, "\nstep   ")); p++) steps++;
    CU_ASSERT_EQUAL(eig, 3);
    CU_ASSERT_EQUAL(steps, 3);
    CU_ASSERT_EQUAL(cc_test_run_cli("probe --grid 9 --copies 3 --from 1 --steps 2", out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "0 of 3 copies blew up in steps 2..3"));
    CU_ASSERT_PTR_NULL(strstr(out, "blew up at step:"));   /* the list of steps only when one blew up */
    const char *bad[] = {"probe --grid 2", "probe --scene sky", "probe --param k_bend", "probe --param nosuch=1",
                         "probe --bend nosuch", "probe --h 0", "probe extra"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = cc_test_run_cli(bad[i], out, sizeof out, err, sizeof err);
        if (rc != 2) fprintf(stderr, "'%s' exited %d\n", bad[i], rc);
        CU_ASSERT_EQUAL(rc, 2);
        CU_ASSERT_EQUAL(cc_test_count_lines(err), 1);
    }
}

int main(void)
{
    static const cc_test_case tests[] = {{"lambda_min against a dense eigenvalue solve", test_against_dense},
                                         {"no forces: lambda_min is the smallest mass", test_mass_only},
                                         {"sliding vertices filtered as the step filters them", test_sliding_vertex},
                                         {"clothcheck probe", test_cli},
                                         {NULL, NULL}};
    return cc_test_main("sim_probe", tests);
}
