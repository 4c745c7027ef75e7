/* Suite: Bridson et al.'s bending force (src/conditions/bridson_force.h, 004, 002).
 *
 * The analytic Jacobian is compared with the exact hyper-dual Jacobian of the same closed
 * form (cc_bridson_force_hd) and with central differences of the force; the force is checked
 * to be internal (no net force, no net torque), restoring, and finite on flat and folded
 * hinges where 004's square roots fail. Tolerances as in test_bend.c: TOL_RT = 1e-13
 * normwise for exact comparisons; central differences at h = l rho^(1/3), tolerance
 * 10 rho^(2/3), with l the hinge's smallest length and rho = eps max(X/l, 1).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cc_test.h"
#include "checks/sample.h"
#include "conditions/bridson_force.h"
#include "conditions/hinge.h"
#include "math/cc_vec.h"

#define SAMPLES 500
#define SEED 5u
#define TOL_RT 1e-13
#define TOL_WRONG 1e-3
#define K 1.7

/* rest angle used with random sample i: 0 (Baraff & Witkin), or a spread in (-pi, pi) */
static double rest_of(int i) { return (i % 3 == 0) ? 0.0 : -3.0 + 6.0 * ((i * 37) % 101) / 100.0; }

/* random hinge i with its rest angle */
static void sample(int i, double *x, cc_rest *r)
{
    char err[CC_ERRLEN];
    CU_ASSERT_EQUAL_FATAL(cc_sample_element(4, SEED, (uint64_t)i, NULL, x, r), 0);
    CU_ASSERT_EQUAL_FATAL(cc_rest_hinge(r, rest_of(i), err), 0);
}

/* normwise max |a - b| / max(|a|, |b|) over n entries */
static double rel_diff(const double *a, const double *b, int n)
{
    double d = 0, s = 0;
    for (int i = 0; i < n; i++) {
        d = fmax(d, fabs(a[i] - b[i]));
        s = fmax(s, fmax(fabs(a[i]), fabs(b[i])));
    }
    return s > 0 ? d / s : d;
}

/* J[i][j] = e1 part of F_i(x + e1 e_j): the exact Jacobian of cc_bridson_force_hd */
static void jacobian_hd(const double *x, const cc_rest *r, double J[12][12], double F[12])
{
    for (int j = 0; j < 12; j++) {
        cc_hd hx[12], hF[12];
        for (int q = 0; q < 12; q++) hx[q] = cc_hd_const(x[q]);
        hx[j].b = 1.0;
        cc_bridson_force_hd(hx, r, K, hF);
        for (int i = 0; i < 12; i++) J[i][j] = hF[i].b, F[i] = hF[i].a;
    }
}

/* the hinge's smallest length: |e| and each triangle's smallest altitude */
static double feature_length(const double *x)
{
    cc_hinge h;
    CU_ASSERT_EQUAL_FATAL(cc_hinge_make(x, &h), 0);
    const cc_v3 *p = h.x;
    double a = fmax(h.le, fmax(cc_v3_norm(cc_v3_sub(p[0], p[1])), cc_v3_norm(cc_v3_sub(p[0], p[2]))));
    double b = fmax(h.le, fmax(cc_v3_norm(cc_v3_sub(p[3], p[1])), cc_v3_norm(cc_v3_sub(p[3], p[2]))));
    return fmin(h.le, fmin(h.lA / a, h.lB / b));
}

/* J[i][j] = (F_i(x + h e_j) - F_i(x - h e_j)) / 2h at the step of the banner; *tol its bound */
static void jacobian_fd(const double *x, const cc_rest *r, double J[12][12], double *tol)
{
    double l = feature_length(x), X = 0;
    for (int i = 0; i < 12; i++) X = fmax(X, fabs(x[i]));
    double rho = 0x1p-52 * fmax(X / l, 1.0), h = l * cbrt(rho);
    *tol = 10 * pow(rho, 2.0 / 3.0);
    for (int j = 0; j < 12; j++) {
        double y[12], Fp[12], Fm[12];
        memcpy(y, x, sizeof y);
        y[j] = x[j] + h;
        CU_ASSERT_EQUAL_FATAL(cc_bridson_force(y, r, K, Fp, NULL), 0);
        y[j] = x[j] - h;
        CU_ASSERT_EQUAL_FATAL(cc_bridson_force(y, r, K, Fm, NULL), 0);
        for (int i = 0; i < 12; i++) J[i][j] = (Fp[i] - Fm[i]) / (2 * h);
    }
}

/* max |J - J^T| / max |J| */
static double asymmetry(double J[12][12])
{
    double a = 0, s = 0;
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 12; j++) a = fmax(a, fabs(J[i][j] - J[j][i])), s = fmax(s, fabs(J[i][j]));
    return s > 0 ? a / s : 0;
}

/* theta at plain x (001 (30)), through the shared hinge code */
static double theta_at(const double *x)
{
    cc_hinge h;
    CU_ASSERT_EQUAL_FATAL(cc_hinge_make(x, &h), 0);
    return h.theta;
}

/* The analytic Jacobian is the exact derivative of the force's own closed form, and the
 * plain and hyper-dual forces agree. */
static void test_jacobian_exact(void)
{
    double worst_J = 0, worst_F = 0;
    for (int i = 0; i < SAMPLES; i++) {
        double x[12], F[12], J[12][12], Fh[12], Jh[12][12];
        cc_rest r;
        sample(i, x, &r);
        CU_ASSERT_EQUAL_FATAL(cc_bridson_force(x, &r, K, F, J), 0);
        jacobian_hd(x, &r, Jh, Fh);
        worst_J = fmax(worst_J, rel_diff(&J[0][0], &Jh[0][0], 144));
        worst_F = fmax(worst_F, rel_diff(F, Fh, 12));
    }
    printf("\n    Jacobian vs hyper-dual: %.2e;  force plain vs hyper-dual: %.2e", worst_J, worst_F);
    CU_ASSERT(worst_J < TOL_RT);
    CU_ASSERT(worst_F < TOL_RT);
}

/* The Jacobian against central differences of the force. */
static void test_jacobian_fd(void)
{
    double worst = 0, worst_ratio = 0;
    for (int i = 0; i < SAMPLES; i++) {
        double x[12], F[12], J[12][12], Jf[12][12], tol;
        cc_rest r;
        sample(i, x, &r);
        /* keep the difference stencil off the jump of sin(theta/2) at theta = +-pi */
        if (fabs(theta_at(x)) > 3.1) continue;
        CU_ASSERT_EQUAL_FATAL(cc_bridson_force(x, &r, K, F, J), 0);
        jacobian_fd(x, &r, Jf, &tol);
        double e = rel_diff(&J[0][0], &Jf[0][0], 144);
        worst = fmax(worst, e);
        worst_ratio = fmax(worst_ratio, e / tol);
    }
    printf("\n    Jacobian vs central differences: %.2e (%.2f of tolerance)", worst, worst_ratio);
    CU_ASSERT(worst_ratio < 1);
}

/* Internal force: sum_i F_i = 0 and sum_i x_i x F_i = 0, and the same for the Jacobian's
 * columns (translation and rotation invariance survive differentiation). */
static void test_internal(void)
{
    double wf = 0, wt = 0, wj = 0;
    for (int i = 0; i < SAMPLES; i++) {
        double x[12], F[12], J[12][12], fmax_ = 0, xmax = 0;
        cc_rest r;
        sample(i, x, &r);
        CU_ASSERT_EQUAL_FATAL(cc_bridson_force(x, &r, K, F, J), 0);
        cc_v3 sum = cc_v3_zero(), torque = cc_v3_zero();
        for (int m = 0; m < 4; m++) {
            cc_v3 f = cc_v3_load(F + 3 * m), p = cc_v3_load(x + 3 * m);
            sum = cc_v3_add(sum, f);
            torque = cc_v3_add(torque, cc_v3_cross(p, f));
            fmax_ = fmax(fmax_, cc_v3_norm(f));
            xmax = fmax(xmax, cc_v3_norm(p));
        }
        if (fmax_ == 0) continue;
        wf = fmax(wf, cc_v3_norm(sum) / fmax_);
        wt = fmax(wt, cc_v3_norm(torque) / (fmax_ * xmax));
        double jmax = 0, jsum = 0;
        for (int a = 0; a < 12; a++)
            for (int j = 0; j < 12; j++) jmax = fmax(jmax, fabs(J[a][j]));
        for (int s = 0; s < 3; s++)
            for (int j = 0; j < 12; j++) jsum = fmax(jsum, fabs(J[s][j] + J[3 + s][j] + J[6 + s][j] + J[9 + s][j]));
        wj = fmax(wj, jsum / jmax);
    }
    printf("\n    |sum F| %.2e, |sum x x F| %.2e, Jacobian column sums %.2e (relative)", wf, wt, wj);
    CU_ASSERT(wf < TOL_RT);
    CU_ASSERT(wt < TOL_RT);
    CU_ASSERT(wj < TOL_RT);
}

/* Restoring: the force moves theta towards theta0. Its exact rate of change of theta is
 * dtheta/dx . F = -k A (sin(theta/2) - sin(theta0/2)) |u|^2, of the sign opposite to
 * theta - theta0; a small step along F reduces |theta - theta0|. */
static void test_restoring(void)
{
    int checked = 0, wrong_rate = 0, wrong_step = 0;
    const cc_condition *bend = cc_condition_find("bend", "bridson");
    CU_ASSERT_PTR_NOT_NULL_FATAL(bend);
    for (int i = 0; i < SAMPLES; i++) {
        double x[12], F[12], y[12], fn = 0;
        cc_rest r;
        cc_eval e;
        sample(i, x, &r);
        double th = theta_at(x), d = th - r.rest_angle;
        if (fabs(d) < 1e-3 || fabs(th) > 3.1) continue;
        CU_ASSERT_EQUAL_FATAL(cc_bridson_force(x, &r, K, F, NULL), 0);
        CU_ASSERT_EQUAL_FATAL(bend->eval(x, &r, CC_WANT_GRAD, &e), CC_WANT_GRAD);
        double rate = 0;
        for (int j = 0; j < 12; j++) rate += e.dC[0][j] * F[j], fn = fmax(fn, fabs(F[j]));
        wrong_rate += !(rate * d < 0);
        double step = 1e-4 * feature_length(x) / fn;   /* moves a vertex by 1e-4 l at most */
        for (int j = 0; j < 12; j++) y[j] = x[j] + step * F[j];
        wrong_step += !(fabs(theta_at(y) - r.rest_angle) < fabs(d));
        checked++;
    }
    printf("\n    restoring on %d hinges: wrong rate %d, wrong step %d", checked, wrong_rate, wrong_step);
    CU_ASSERT(checked > 400);
    CU_ASSERT_EQUAL(wrong_rate, 0);
    CU_ASSERT_EQUAL(wrong_step, 0);
}

/* Not conservative: away from rest the Jacobian is not symmetric (the rank-one term
 * u d(A sigma)^T is not), so the force is not the gradient of any energy; at rest
 * (theta = theta0) only the symmetric term -k A cos(theta/2)/2 u u^T is left. */
static void test_symmetry(void)
{
    double away = 1e300, at_rest = 0;
    char err[CC_ERRLEN];
    for (int i = 0; i < SAMPLES; i++) {
        double x[12], F[12], J[12][12];
        cc_rest r;
        sample(i, x, &r);
        double th = theta_at(x);
        if (fabs(th - r.rest_angle) > 0.1 && fabs(th) < 3.1) {
            CU_ASSERT_EQUAL_FATAL(cc_bridson_force(x, &r, K, F, J), 0);
            away = fmin(away, asymmetry(J));
        }
        CU_ASSERT_EQUAL_FATAL(cc_rest_hinge(&r, th, err), 0);
        CU_ASSERT_EQUAL_FATAL(cc_bridson_force(x, &r, K, F, J), 0);
        at_rest = fmax(at_rest, asymmetry(J));
    }
    printf("\n    Jacobian asymmetry: away from rest at least %.2e; at rest at most %.2e", away, at_rest);
    CU_ASSERT(away > TOL_WRONG);
    CU_ASSERT(at_rest < TOL_RT);
}

/* No NaN where 004's square roots give NaN: flat hinges and hinges folded to theta = +-pi
 * (within 1e-9 and exactly), for several rest angles. */
static void test_flat_and_folded_finite(void)
{
    const double th[] = {0.0, 1e-12, -1e-12, CC_PI - 1e-9, -(CC_PI - 1e-9), CC_PI, -CC_PI,
                         CC_PI - 1e-12};
    const double rest[] = {0.0, 0.5, -2.0, CC_PI};
    char err[CC_ERRLEN];
    for (size_t a = 0; a < sizeof th / sizeof th[0]; a++)
        for (size_t b = 0; b < sizeof rest / sizeof rest[0]; b++) {
            double x[12], F[12], J[12][12];
            cc_rest r;
            int finite = 1;
            cc_sample_hinge_at_angle(th[a], 0.9, 1.2, 0.1, -0.3, x);
            CU_ASSERT_EQUAL_FATAL(cc_rest_hinge(&r, rest[b], err), 0);
            CU_ASSERT_EQUAL_FATAL(cc_bridson_force(x, &r, K, F, J), 0);
            for (int i = 0; i < 12; i++) {
                finite &= isfinite(F[i]) != 0;
                for (int j = 0; j < 12; j++) finite &= isfinite(J[i][j]) != 0;
            }
            CU_ASSERT(finite);
            /* the Jacobian is still exact there (theta = +-pi itself excepted: a jump) */
            if (fabs(th[a]) < 3) {
                double Jh[12][12], Fh[12];
                jacobian_hd(x, &r, Jh, Fh);
                CU_ASSERT(rel_diff(&J[0][0], &Jh[0][0], 144) < TOL_RT);
            }
        }
}

/* The force is zero at rest and undefined (-1) on degenerate hinges. */
static void test_rest_and_degenerate(void)
{
    char err[CC_ERRLEN];
    double x[12], F[12], J[12][12];
    cc_rest r;
    cc_sample_hinge_at_angle(0.7, 0.9, 1.2, 0.1, -0.3, x);
    CU_ASSERT_EQUAL_FATAL(cc_rest_hinge(&r, 0.7, err), 0);
    CU_ASSERT_EQUAL_FATAL(cc_bridson_force(x, &r, K, F, J), 0);
    for (int i = 0; i < 12; i++) CU_ASSERT(fabs(F[i]) < 1e-15);
    double zero_edge[12] = {0, 1, 0, 0.5, 0, 0, 0.5, 0, 0, 0, -1, 0};
    CU_ASSERT_EQUAL(cc_bridson_force(zero_edge, &r, K, F, J), -1);
    double flat_wing[12] = {2, 0, 0, 0.5, 0, 0, -0.5, 0, 0, 0, -1, 0};
    CU_ASSERT_EQUAL(cc_bridson_force(flat_wing, &r, K, F, NULL), -1);
}

/* clothcheck force --json prints the force and Jacobian of cc_bridson_force digit for digit */
static void test_cli_force(void)
{
    static char out[1 << 16], err[4096];
    const char *pts = "0.1 1 0.2; 0.5 0 0; -0.5 0 0; 0.3 -1 0.6";
    char args[256];
    snprintf(args, sizeof args, "force --x '%s' --rest 0.25 --k 2.5 --json", pts);
    CU_ASSERT_EQUAL_FATAL(cc_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"model\": \"bridson\""));
    double x[12] = {0.1, 1, 0.2, 0.5, 0, 0, -0.5, 0, 0, 0.3, -1, 0.6}, F[12], J[12][12];
    cc_rest r;
    CU_ASSERT_EQUAL_FATAL(cc_rest_hinge(&r, 0.25, err), 0);
    CU_ASSERT_EQUAL_FATAL(cc_bridson_force(x, &r, 2.5, F, J), 0);
    /* read back the 12 + 144 numbers in order */
    const char *p = strstr(out, "\"force\": [");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    p += strlen("\"force\": [");
    int n = 0, same = 1;
    while (*p && n < 156) {
        char *end;
        double v = strtod(p, &end);
        if (end == p) {
            p++;
            continue;
        }
        same &= v == (n < 12 ? F[n] : J[(n - 12) / 12][(n - 12) % 12]);
        n++;
        p = end;
    }
    CU_ASSERT_EQUAL(n, 156);
    CU_ASSERT(same);
    CU_ASSERT_EQUAL(cc_test_run_cli("force --help", out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "usage: clothcheck force"));
    const char *bad[] = {
        "force --x '0 1 0; 0.5 0 0; -0.5 0 0'",              /* 3 vertices */
        "force --x '0 1 0; 0.5 0 0; -0.5 0 0; 0 -1 q'",      /* not a number */
        "force --x '0 1 0; 0.5 0 0; 0.5 0 0; 0 -1 0'",       /* zero-length edge */
        "force --x '0 1 0; 0.5 0 0; -0.5 0 0; 0 -1 0' --k x", /* bad stiffness */
        "force --x '0 1 0; 0.5 0 0; -0.5 0 0; 0 -1 0' --rest inf",
        "force --frobnicate",
        "force",
        "force stray",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CU_ASSERT_EQUAL(cc_test_run_cli(bad[i], out, sizeof out, err, sizeof err), 2);
        CU_ASSERT_EQUAL(cc_test_count_lines(err), 1);
        CU_ASSERT_EQUAL(out[0], '\0');
    }
}

int main(void)
{
    static const cc_test_case tests[] = {
        {"Jacobian is exact (vs hyper-dual of the same closed form)", test_jacobian_exact},
        {"Jacobian vs central differences of the force", test_jacobian_fd},
        {"internal: no net force or torque", test_internal},
        {"restoring: negative work on |theta - theta0|", test_restoring},
        {"Jacobian not symmetric away from rest, symmetric at rest", test_symmetry},
        {"finite on flat and folded hinges", test_flat_and_folded_finite},
        {"zero at rest, undefined on degenerate hinges", test_rest_and_degenerate},
        {"cli: force --json and bad input", test_cli_force},
        {NULL, NULL}};
    return cc_test_main("bridson_force", tests);
}
