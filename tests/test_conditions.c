/* Suite: the triangle and spring conditions (and every registered variant through the
 * generic checks). Derivatives are checked against central finite differences and against
 * exact hyper-dual derivatives of each variant's own value code; closed forms are checked
 * against hand-computed values (001 (1)-(23), (A.5), 004). */
#include <math.h>
#include <string.h>
#include "cc_test.h"
#include "checks/reference.h"
#include "checks/sample.h"
#include "math/cc_vec.h"

#define SAMPLES 200
#define SEED 20261122u

static const cc_condition *find(const char *c, const char *v)
{
    const cc_condition *cond = cc_condition_find(c, v);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cond);
    return cond;
}

/* H[k][i][j] = (dC_k/dx_j (x + h e_i) - dC_k/dx_j (x - h e_i)) / 2h: central differences of
 * the analytic gradient, kept here so that this suite checks the conditions without checks/fd.c */
static void fd_hessian_of_gradient(const cc_condition *c, const double *x, const cc_rest *r,
                                   double h, double H[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF])
{
    int n = 3 * c->nv;
    for (int i = 0; i < n; i++) {
        double y[CC_MAX_DOF];
        cc_eval ep, em;
        memcpy(y, x, sizeof(double) * n);
        y[i] = x[i] + h;
        c->eval(y, r, CC_WANT_GRAD, &ep);
        y[i] = x[i] - h;
        c->eval(y, r, CC_WANT_GRAD, &em);
        for (int k = 0; k < c->ncomp; k++)
            for (int j = 0; j < n; j++) H[k][i][j] = (ep.dC[k][j] - em.dC[k][j]) / (2 * h);
    }
}

/* worst normwise errors of the analytic gradient (vs central differences of the value) and
 * Hessian (vs central differences of the gradient), h = 1e-6, over SAMPLES random elements */
static void fd_agreement(const cc_condition *c, double p, double *gerr, double *herr)
{
    static double g[CC_MAX_COMP][CC_MAX_DOF], H[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF];
    cc_sample_opts o = {p, 1.0, 1.0, NULL, 0};
    *gerr = *herr = 0;
    for (int i = 0; i < SAMPLES; i++) {
        double x[CC_MAX_DOF];
        cc_rest r;
        cc_eval e;
        CU_ASSERT_EQUAL_FATAL(cc_sample_element(c->nv, SEED, (uint64_t)i, &o, x, &r), 0);
        CU_ASSERT_EQUAL_FATAL(c->eval(x, &r, CC_WANT_ALL, &e), CC_WANT_ALL);
        cc_ref_fd_gradient(c, x, NULL, &r, 1e-6, g);
        *gerr = fmax(*gerr, cc_compare_gradient(e.dC, g, c->ncomp, 3 * c->nv).rel);
        fd_hessian_of_gradient(c, x, &r, 1e-6, H);
        *herr = fmax(*herr, cc_compare_hessian(e.d2C, H, c->ncomp, 3 * c->nv).rel);
    }
}

/* Every exact-claiming triangle/spring variant agrees with central differences on 200 random
 * elements, for Baraff & Witkin's, 001's and 003's area weights and an arbitrary one. */
static void test_fd_agreement(void)
{
    const double powers[] = {1.0, 0.75, 0.5, 1.3};
    const char *names[][2] = {{"stretch", "bw98"}, {"shear", "bw98"}, {"shear", "normalized"},
                              {"spring", "linear"}};
    for (size_t v = 0; v < 4; v++)
        for (size_t p = 0; p < 4; p++) {
            double ge, he;
            fd_agreement(find(names[v][0], names[v][1]), powers[p], &ge, &he);
            CU_ASSERT(ge < 1e-7);   /* O(h^2) + O(eps/h) at h = 1e-6: ~1e-9 */
            if (!(ge < 1e-7 && he < 1e-7))
                printf("\n  %s/%s p=%g: gradient %.3g Hessian %.3g\n", names[v][0], names[v][1], powers[p], ge, he);
            CU_ASSERT(he < 1e-7);   /* the same, one derivative higher */
        }
}

/* Exact-claiming variants agree with the hyper-dual derivatives of their own value code to
 * round-off; variants claiming frozen-magnitude derivatives agree with that reference. */
static void test_exact_agreement(void)
{
    static double g[CC_MAX_COMP][CC_MAX_DOF], H[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF];
    for (int v = 0; v < cc_condition_count(); v++) {
        const cc_condition *c = cc_condition_at(v);
        if (c->claim == CC_CLAIM_NONE) continue;
        double ge = 0, he = 0;
        for (int i = 0; i < SAMPLES; i++) {
            double x[CC_MAX_DOF];
            cc_rest r;
            cc_eval e;
            const double *xf = c->claim == CC_CLAIM_FROZEN ? x : NULL;
            CU_ASSERT_EQUAL_FATAL(cc_sample_element(c->nv, SEED, (uint64_t)i, NULL, x, &r), 0);
            if (c->eval(x, &r, CC_WANT_ALL, &e) < 0) continue;
            cc_ref_exact_gradient(c, x, xf, &r, g);
            ge = fmax(ge, cc_compare_gradient(e.dC, g, c->ncomp, 3 * c->nv).rel);
            cc_ref_exact_hessian(c, x, xf, &r, H);
            he = fmax(he, cc_compare_hessian(e.d2C, H, c->ncomp, 3 * c->nv).rel);
        }
        if (!(ge < 1e-12 && he < 1e-12))
            printf("\n  %s/%s: gradient %.3g, Hessian %.3g vs its claimed reference\n", c->condition,
                   c->variant, ge, he);
        CU_ASSERT(ge < 1e-12);
        CU_ASSERT(he < 1e-12);
    }
}

/* The eval's C agrees with the value code the references differentiate. */
static void test_value_matches_value_code(void)
{
    for (int v = 0; v < cc_condition_count(); v++) {
        const cc_condition *c = cc_condition_at(v);
        for (int i = 0; i < 50; i++) {
            double x[CC_MAX_DOF], C[CC_MAX_COMP];
            cc_rest r;
            cc_eval e;
            cc_sample_element(c->nv, SEED, (uint64_t)i, NULL, x, &r);
            CU_ASSERT_EQUAL(c->eval(x, &r, CC_WANT_VALUE, &e) & CC_WANT_VALUE, CC_WANT_VALUE);
            cc_condition_value(c, x, NULL, &r, C);
            for (int k = 0; k < c->ncomp; k++) CU_ASSERT_DOUBLE_EQUAL(e.C[k], C[k], 1e-12 * (1 + fabs(C[k])));
        }
    }
}

/* Translation invariance: sum over vertices of dC/dx_m = 0; Hessian symmetry where claimed. */
static void test_structure(void)
{
    for (int v = 0; v < cc_condition_count(); v++) {
        const cc_condition *c = cc_condition_at(v);
        double worst_sum = 0, worst_asym = 0;
        for (int i = 0; i < SAMPLES; i++) {
            double x[CC_MAX_DOF];
            cc_rest r;
            cc_eval e;
            cc_sample_element(c->nv, SEED, (uint64_t)i, NULL, x, &r);
            if (c->eval(x, &r, CC_WANT_ALL, &e) < 0) continue;
            for (int k = 0; k < c->ncomp; k++) {
                double scale = 0;
                for (int j = 0; j < 3 * c->nv; j++) scale = fmax(scale, fabs(e.dC[k][j]));
                for (int s = 0; s < 3; s++) {
                    double sum = 0;
                    for (int m = 0; m < c->nv; m++) sum += e.dC[k][3 * m + s];
                    worst_sum = fmax(worst_sum, fabs(sum) / scale);
                }
                double hs = 0;
                for (int a = 0; a < 3 * c->nv; a++)
                    for (int b = 0; b < 3 * c->nv; b++) hs = fmax(hs, fabs(e.d2C[k][a][b]));
                for (int a = 0; a < 3 * c->nv; a++)
                    for (int b = 0; b < 3 * c->nv; b++)
                        worst_asym = fmax(worst_asym, fabs(e.d2C[k][a][b] - e.d2C[k][b][a]) / hs);
            }
        }
        CU_ASSERT(worst_sum < 1e-12);
        if (c->claim != CC_CLAIM_NONE) CU_ASSERT(worst_asym < 1e-12);
    }
}

/* the rest data of the right triangle (0,0) (1,0) (0,1) scaled by L, with area power p */
static cc_rest right_triangle(double L, double p, double bu, double bv)
{
    double uv[6] = {0, 0, L, 0, 0, L};
    char err[CC_ERRLEN];
    cc_rest r;
    CU_ASSERT_EQUAL_FATAL(cc_rest_triangle(&r, uv, p, bu, bv, err), 0);
    return r;
}

/* x_m = F (u_m, v_m) for a 3x2 deformation gradient F given by columns fu, fv */
static void deform(const cc_rest *r, double L, cc_v3 fu, cc_v3 fv, double *x)
{
    (void)r;
    double uv[6] = {0, 0, L, 0, 0, L};
    for (int m = 0; m < 3; m++)
        cc_v3_store(x + 3 * m, cc_v3_add(cc_v3_scale(fu, uv[2 * m]), cc_v3_scale(fv, uv[2 * m + 1])));
}

/* (1): a = |det| / 2, and alpha = a^p. */
static void test_area_weight(void)
{
    cc_rest r = right_triangle(2.0, 0.75, 1, 1);
    CU_ASSERT_DOUBLE_EQUAL(r.area, 2.0, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(r.alpha, pow(2.0, 0.75), 1e-15);
    r = right_triangle(2.0, 0.5, 1, 1);
    CU_ASSERT_DOUBLE_EQUAL(r.alpha, sqrt(2.0), 1e-15);
}

/* An undeformed triangle (rotated rigidly into 3-D) gives C = 0 for stretch and shear, so its
 * energy gradient dC^T C (the force direction) is zero. */
static void test_undeformed(void)
{
    const char *names[][2] = {{"stretch", "bw98"}, {"shear", "bw98"}, {"shear", "normalized"}};
    cc_v3 fu = cc_v3_make(0.6, 0.8, 0), fv = cc_v3_make(0, 0, 1);   /* orthonormal columns */
    for (int v = 0; v < 3; v++) {
        const cc_condition *c = find(names[v][0], names[v][1]);
        cc_rest r = right_triangle(0.3, 1.0, 1, 1);
        double x[9];
        cc_eval e;
        deform(&r, 0.3, fu, fv, x);
        CU_ASSERT_EQUAL(c->eval(x, &r, CC_WANT_ALL, &e), CC_WANT_ALL);
        for (int k = 0; k < c->ncomp; k++) CU_ASSERT_DOUBLE_EQUAL(e.C[k], 0.0, 1e-15);
        for (int j = 0; j < 9; j++) {
            double f = 0;
            for (int k = 0; k < c->ncomp; k++) f += e.dC[k][j] * e.C[k];
            CU_ASSERT_DOUBLE_EQUAL(f, 0.0, 1e-15);
        }
    }
}

/* A stretch by s_u along u and s_v along v gives C = alpha (s_u - b_u, s_v - b_v), (13). */
static void test_uniform_stretch(void)
{
    const cc_condition *c = find("stretch", "bw98");
    const double ps[] = {1.0, 0.75, 0.5};
    for (int i = 0; i < 3; i++) {
        cc_rest r = right_triangle(0.5, ps[i], 1.0, 0.9);
        double x[9];
        cc_eval e;
        deform(&r, 0.5, cc_v3_make(0, 1.25, 0), cc_v3_make(0, 0, 0.8), x);
        c->eval(x, &r, CC_WANT_VALUE, &e);
        CU_ASSERT_DOUBLE_EQUAL(e.C[0], r.alpha * (1.25 - 1.0), 1e-14);
        CU_ASSERT_DOUBLE_EQUAL(e.C[1], r.alpha * (0.8 - 0.9), 1e-14);
        CU_ASSERT_DOUBLE_EQUAL(r.alpha, pow(0.125, ps[i]), 1e-15);
    }
    /* the spring: C = |x0 - x1| - L */
    const cc_condition *sp = find("spring", "linear");
    cc_rest r;
    char err[CC_ERRLEN];
    double x[6] = {1, 2, 3, 1 + 0.6, 2 + 0.8, 3};
    cc_eval e;
    CU_ASSERT_EQUAL(cc_rest_spring(&r, 0.7, err), 0);
    sp->eval(x, &r, CC_WANT_VALUE, &e);
    CU_ASSERT_DOUBLE_EQUAL(e.C[0], 1.0 - 0.7, 1e-15);
}

/* A pure shear x = (u + g v, v): w_u = (1,0,0), w_v = (g,1,0). bw98 gives alpha w_u.w_v =
 * alpha g (19); normalized gives alpha cos(angle between the axes) = alpha g / sqrt(1 + g^2) (A.5). */
static void test_pure_shear(void)
{
    const double g = 0.3;
    cc_rest r = right_triangle(1.0, 0.5, 1, 1);
    double x[9];
    cc_eval e;
    deform(&r, 1.0, cc_v3_make(1, 0, 0), cc_v3_make(g, 1, 0), x);
    find("shear", "bw98")->eval(x, &r, CC_WANT_VALUE, &e);
    CU_ASSERT_DOUBLE_EQUAL(e.C[0], r.alpha * g, 1e-15);
    find("shear", "normalized")->eval(x, &r, CC_WANT_VALUE, &e);
    CU_ASSERT_DOUBLE_EQUAL(e.C[0], r.alpha * g / sqrt(1 + g * g), 1e-15);
    /* and stretch sees |w_v| = sqrt(1 + g^2) */
    find("stretch", "bw98")->eval(x, &r, CC_WANT_VALUE, &e);
    CU_ASSERT_DOUBLE_EQUAL(e.C[1], r.alpha * (sqrt(1 + g * g) - 1), 1e-15);
}

/* (6)-(12): the dw/dx_m sum to zero and reproduce w_u = dx/du, w_v = dx/dv exactly. */
static void test_per_triangle_quantities(void)
{
    double uv[6] = {0.1, 0.2, 0.9, 0.3, 0.4, 1.1};
    char err[CC_ERRLEN];
    cc_rest r;
    CU_ASSERT_EQUAL_FATAL(cc_rest_triangle(&r, uv, 1, 1, 1, err), 0);
    CU_ASSERT_DOUBLE_EQUAL(r.dwu[0] + r.dwu[1] + r.dwu[2], 0, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(r.dwv[0] + r.dwv[1] + r.dwv[2], 0, 1e-15);
    /* x = (u, v, 0) gives w_u = (1, 0, 0) and w_v = (0, 1, 0) */
    double su = 0, sv = 0, cu = 0, cv = 0;
    for (int m = 0; m < 3; m++) {
        su += r.dwu[m] * uv[2 * m], sv += r.dwv[m] * uv[2 * m + 1];
        cu += r.dwu[m] * uv[2 * m + 1], cv += r.dwv[m] * uv[2 * m];
    }
    CU_ASSERT_DOUBLE_EQUAL(su, 1, 1e-14);
    CU_ASSERT_DOUBLE_EQUAL(sv, 1, 1e-14);
    CU_ASSERT_DOUBLE_EQUAL(cu, 0, 1e-14);
    CU_ASSERT_DOUBLE_EQUAL(cv, 0, 1e-14);
}

/* Degenerate (u,v) triangles are rejected when the element is built. */
static void test_degenerate_rejected(void)
{
    double line[6] = {0, 0, 1, 1, 2, 2}, point[6] = {1, 1, 1, 1, 1, 1}, nan_uv[6] = {0, 0, 1, 0, NAN, 1};
    char err[CC_ERRLEN];
    cc_rest r;
    CU_ASSERT_EQUAL(cc_rest_triangle(&r, line, 1, 1, 1, err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "degenerate"));
    CU_ASSERT_EQUAL(cc_rest_triangle(&r, point, 1, 1, 1, err), -1);
    CU_ASSERT_EQUAL(cc_rest_triangle(&r, nan_uv, 1, 1, 1, err), -1);
    CU_ASSERT_EQUAL(cc_rest_triangle(&r, (double[6]){0, 0, 1, 0, 0, 1}, 0.0, 1, 1, err), -1);
    CU_ASSERT_EQUAL(cc_rest_spring(&r, -1, err), -1);
}

/* The registry finds every variant by name and a condition's default, and nothing else. */
static void test_registry(void)
{
    CU_ASSERT_PTR_EQUAL(cc_condition_find("stretch", NULL), cc_condition_find("stretch", "bw98"));
    CU_ASSERT_PTR_EQUAL(cc_condition_find("shear", NULL), cc_condition_find("shear", "bw98"));
    CU_ASSERT_PTR_NULL(cc_condition_find("shear", "nonsense"));
    CU_ASSERT_PTR_NULL(cc_condition_find("twist", NULL));
    for (int i = 0; i < cc_condition_count(); i++) {
        const cc_condition *c = cc_condition_at(i);
        CU_ASSERT_PTR_EQUAL(cc_condition_find(c->condition, c->variant), c);
        CU_ASSERT(c->source && c->source[0]);
        CU_ASSERT(c->nv >= 2 && c->nv <= CC_MAX_NV && c->ncomp >= 1 && c->ncomp <= CC_MAX_COMP);
    }
}

int main(void)
{
    static const cc_test_case tests[] = {
        {"central differences agree (200 elements x 4 area powers)", test_fd_agreement},
        {"claimed reference agrees to round-off", test_exact_agreement},
        {"eval value equals the value code", test_value_matches_value_code},
        {"gradient sums to zero, Hessian symmetric", test_structure},
        {"area weight a^p", test_area_weight},
        {"undeformed triangle: C = 0, no force", test_undeformed},
        {"uniform stretch: C = alpha (s - b)", test_uniform_stretch},
        {"pure shear: expected cosine", test_pure_shear},
        {"per-triangle quantities (6)-(12)", test_per_triangle_quantities},
        {"degenerate elements rejected", test_degenerate_rejected},
        {"registry lookup", test_registry},
        {NULL, NULL}};
    return cc_test_main("conditions", tests);
}
