/* Suite: the bend variants (pritchard, pritchard-exact, macri, bridson, discrete-shells,
 * quadratic).
 *
 * Each variant's gradient and Hessian are compared with
 *   (a) the exact hyper-dual derivatives of its own value code, magnitudes free (xf = NULL),
 *   (b) the same with magnitudes frozen at x (xf = x, 001 Section 4),
 *   (c) central finite differences of its value,
 * on SAMPLES seeded random hinges plus flat, nearly folded and nearly degenerate ones. Each
 * test asserts what the variant's source claims; where a claim is false, it asserts the
 * measured failure. Tolerances follow from the arithmetic:
 *   round-off, exact comparisons: TOL_RT = 1e-13 normwise relative (measured ~1e-15, and
 *     ~1e-14 on thin wings; docs/bend.md);
 *   finite differences: with l the hinge's smallest length (altitudes, edge) and X its
 *     largest coordinate, a position carries a relative round-off rho = eps max(X/l, 1), and
 *     the value C = theta - theta0, up to 6 in size at a folded rest, one of eps |C|:
 *     rho = eps max(X/l, 1, |C|).
 *     Central differences of the value have error ~ (h/l)^2 + rho l/h (gradient) and
 *     ~ (h/l)^2 + rho (l/h)^2 (Hessian), smallest at h = l rho^(1/3) and h = l rho^(1/4),
 *     where they are ~ rho^(2/3) and ~ rho^(1/2). Each hinge is checked at those steps
 *     against 10 rho^(2/3) and 10 rho^(1/2) (the 10 covers the derivative ratios of O(1));
 *   "fails": a relative error above TOL_WRONG = 1e-3, ten orders above round-off.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cc_test.h"
#include "checks/reference.h"
#include "checks/sample.h"
#include "conditions/hinge.h"
#include "math/cc_vec.h"

#define SAMPLES 500
#define SEED 3u
#define TOL_RT 1e-13
#define TOL_WRONG 1e-3
#define NSPECIAL 14

static const cc_condition *find(const char *v)
{
    const cc_condition *c = cc_condition_find("bend", v);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    return c;
}

/* a fixed rigid motion, so that special hinges have no axis-aligned coordinates */
static void move_rigidly(double *x)
{
    cc_v3 axis = cc_v3_unit(cc_v3_make(0.3, -0.5, 0.8));
    double cs = cos(0.7), sn = sin(0.7);
    for (int m = 0; m < 4; m++) {
        cc_v3 p = cc_v3_load(x + 3 * m);
        cc_v3 q = cc_v3_add(cc_v3_add(cc_v3_scale(p, cs), cc_v3_scale(cc_v3_cross(axis, p), sn)),
                            cc_v3_scale(axis, cc_v3_dot(axis, p) * (1 - cs)));
        cc_v3_store(x + 3 * m, cc_v3_add(q, cc_v3_make(0.2, -0.1, 0.4)));
    }
}

/* Special hinge k < NSPECIAL: flat (theta = 0), nearly folded (|theta| near pi), thin wings
 * (a vertex 1e-3 from the edge line) and an obtuse wing. *fd = 0 where a finite-difference
 * step would cross theta = +-pi. Returns the hinge's fold angle. */
static double special_hinge(int k, double *x, int *fd)
{
    static const double p[NSPECIAL][5] = {  /* theta, wa, wb, sa, sb */
        {0.0, 1.0, 1.0, 0.0, 0.0}, {0.0, 0.5, 1.2, 0.3, -0.4}, {0.0, 1.5, 0.3, -0.6, 0.6},
        {CC_PI - 1e-3, 1.0, 0.8, 0.1, -0.2}, {-(CC_PI - 1e-3), 0.7, 1.1, -0.3, 0.2},
        {CC_PI - 1e-7, 1.0, 0.8, 0.1, -0.2}, {-(CC_PI - 1e-7), 0.7, 1.1, -0.3, 0.2},
        {1.0, 1e-3, 1.0, 0.2, 0.1}, {-2.0, 1e-3, 0.6, -0.3, 0.3}, {0.5, 1.0, 1e-3, 0.1, 0.4},
        {-0.5, 0.9, 1e-3, 0.0, -0.2}, {2.5, 1e-3, 1e-3, 0.3, -0.3}, {1.2, 0.8, 0.9, 3.0, -0.2},
        {-0.8, 0.5, 0.6, -0.4, -2.5}};
    cc_sample_hinge_at_angle(p[k][0], p[k][1], p[k][2], p[k][3], p[k][4], x);
    move_rigidly(x);
    *fd = k != 5 && k != 6;
    return p[k][0];
}

/* the hinge's smallest length: |e| and the smallest altitude of each triangle,
 * |n| / (its longest edge) */
static double feature_length(const double *x)
{
    cc_hinge h;
    CU_ASSERT_EQUAL_FATAL(cc_hinge_make(x, &h), 0);
    const cc_v3 *p = h.x;
    double a = fmax(h.le, fmax(cc_v3_norm(cc_v3_sub(p[0], p[1])), cc_v3_norm(cc_v3_sub(p[0], p[2]))));
    double b = fmax(h.le, fmax(cc_v3_norm(cc_v3_sub(p[3], p[1])), cc_v3_norm(cc_v3_sub(p[3], p[2]))));
    return fmin(h.le, fmin(h.lA / a, h.lB / b));
}

/* finite-difference steps and tolerances for hinge x (see the banner) */
static void fd_plan(const double *x, double C, double *hg, double *hh, double *tg, double *th)
{
    double l = feature_length(x), X = 0;
    for (int i = 0; i < 12; i++) X = fmax(X, fabs(x[i]));
    double rho = 0x1p-52 * fmax(fmax(X / l, 1.0), fabs(C));
    *hg = l * cbrt(rho);
    *hh = l * sqrt(sqrt(rho));
    *tg = 10 * pow(rho, 2.0 / 3.0);
    *th = 10 * sqrt(rho);
}

/* worst of a and b, NaN the worst of all */
static double worse(double a, double b) { return (isnan(a) || isnan(b)) ? NAN : fmax(a, b); }

/* The worst errors of one variant over a set of hinges. */
typedef struct agree {
    double g_true, h_true;     /* vs exact derivatives of C (xf = NULL) */
    double g_frozen, h_frozen; /* vs exact derivatives with magnitudes frozen at x */
    double g_fd, h_fd;         /* vs central differences of C */
    double g_fd_tol, h_fd_tol; /* the same, each divided by its hinge's tolerance (fd_plan) */
    double asym;               /* max |H - H^T| / max |H| */
    double gsum;               /* max_s |sum_m dC/dx_{m,s}| / max |dC| */
    int n;                     /* hinges seen */
} agree;

/* max |H - H^T| / max |H| */
static double asymmetry(double H[CC_MAX_DOF][CC_MAX_DOF])
{
    double a = 0, s = 0;
    for (int i = 0; i < CC_HINGE_DOF; i++)
        for (int j = 0; j < CC_HINGE_DOF; j++) {
            a = fmax(a, fabs(H[i][j] - H[j][i]));
            s = fmax(s, fabs(H[i][j]));
        }
    return s > 0 ? a / s : 0;
}

/* max_s |sum_m g_{m,s}| / max |g| (translation invariance) */
static double gradient_sum(const double *g)
{
    double worst = 0, scale = 0;
    for (int s = 0; s < 3; s++) worst = fmax(worst, fabs(g[s] + g[3 + s] + g[6 + s] + g[9 + s]));
    for (int i = 0; i < CC_HINGE_DOF; i++) scale = fmax(scale, fabs(g[i]));
    return scale > 0 ? worst / scale : 0;
}

/* fold the errors of variant c at hinge x into a; fd = 0 skips the finite differences */
static void agree_one(const cc_condition *c, const double *x, const cc_rest *r, int fd, agree *a)
{
    static double ref[CC_MAX_COMP][CC_MAX_DOF], refh[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF];
    static cc_eval e;
    CU_ASSERT_EQUAL_FATAL(c->eval(x, r, CC_WANT_ALL, &e), CC_WANT_ALL);
    cc_ref_exact_gradient(c, x, NULL, r, ref);
    a->g_true = worse(a->g_true, cc_compare_gradient(e.dC, ref, 1, 12).rel);
    cc_ref_exact_hessian(c, x, NULL, r, refh);
    a->h_true = worse(a->h_true, cc_compare_hessian(e.d2C, refh, 1, 12).rel);
    cc_ref_exact_gradient(c, x, x, r, ref);
    a->g_frozen = worse(a->g_frozen, cc_compare_gradient(e.dC, ref, 1, 12).rel);
    cc_ref_exact_hessian(c, x, x, r, refh);
    a->h_frozen = worse(a->h_frozen, cc_compare_hessian(e.d2C, refh, 1, 12).rel);
    if (fd) {
        double hg, hh, tg, th;
        fd_plan(x, e.C[0], &hg, &hh, &tg, &th);
        cc_ref_fd_gradient(c, x, NULL, r, hg, ref);
        double eg = cc_compare_gradient(e.dC, ref, 1, 12).rel;
        cc_ref_fd_hessian(c, x, NULL, r, hh, refh);
        double eh = cc_compare_hessian(e.d2C, refh, 1, 12).rel;
        a->g_fd = worse(a->g_fd, eg), a->g_fd_tol = worse(a->g_fd_tol, eg / tg);
        a->h_fd = worse(a->h_fd, eh), a->h_fd_tol = worse(a->h_fd_tol, eh / th);
    }
    a->asym = worse(a->asym, asymmetry(e.d2C[0]));
    a->gsum = worse(a->gsum, gradient_sum(e.dC[0]));
    a->n++;
}

static void agree_print(const cc_condition *c, const char *set, const agree *a)
{
    printf("\n    %-16s %-8s n=%-3d true %.2e %.2e  frozen %.2e %.2e  fd %.2e %.2e (%.2f %.2f of tol)"
           "  asym %.2e  sum %.2e", c->variant, set, a->n, a->g_true, a->h_true, a->g_frozen,
           a->h_frozen, a->g_fd, a->h_fd, a->g_fd_tol, a->h_fd_tol, a->asym, a->gsum);
}

/* the worst errors over SAMPLES seeded random hinges */
static agree agree_random(const cc_condition *c)
{
    agree a = {0};
    for (int i = 0; i < SAMPLES; i++) {
        double x[12];
        cc_rest r;
        CU_ASSERT_EQUAL_FATAL(cc_sample_element(4, SEED, (uint64_t)i, NULL, x, &r), 0);
        agree_one(c, x, &r, 1, &a);
    }
    agree_print(c, "random", &a);
    return a;
}

/* the worst errors over the special hinges; skip_flat_fold leaves out theta = 0 and |theta|
 * near pi, where Macri's arccos value is not differentiable */
static agree agree_special(const cc_condition *c, int skip_flat_fold)
{
    agree a = {0};
    char err[CC_ERRLEN];
    cc_rest r;
    CU_ASSERT_EQUAL_FATAL(cc_rest_hinge(&r, 0.0, err), 0);
    for (int k = 0; k < NSPECIAL; k++) {
        double x[12];
        int fd;
        double th = special_hinge(k, x, &fd);
        if (skip_flat_fold && (th == 0 || fabs(th) > 3)) continue;
        agree_one(c, x, &r, fd, &a);
    }
    agree_print(c, "special", &a);
    return a;
}

/* ---- values ---- */

/* Flat hinges have theta = 0 in every variant (Macri's arccos included). */
static void test_flat_is_zero(void)
{
    const char *v[] = {"pritchard", "pritchard-exact", "macri", "bridson"};
    char err[CC_ERRLEN];
    cc_rest r;
    CU_ASSERT_EQUAL_FATAL(cc_rest_hinge(&r, 0.0, err), 0);
    for (int k = 0; k < 3; k++) {
        double x[12];
        int fd;
        special_hinge(k, x, &fd);
        for (int i = 0; i < 4; i++) {
            cc_eval e;
            CU_ASSERT_EQUAL(find(v[i])->eval(x, &r, CC_WANT_VALUE, &e), CC_WANT_VALUE);
            /* acos near 1 turns an ulp of cos into sqrt(2 ulp) ~ 2e-8 of angle */
            CU_ASSERT(fabs(e.C[0]) < (i == 2 ? 3e-8 : 1e-15));
        }
    }
}

/* cc_sample_hinge_at_angle(theta) gives C = theta - theta0 across (-pi, pi) for the
 * atan2 variants, and |theta| - theta0 for Macri's arccos. */
static void test_angle_sweep(void)
{
    const char *v[] = {"pritchard", "pritchard-exact", "bridson", "macri"};
    char err[CC_ERRLEN];
    cc_rest r;
    CU_ASSERT_EQUAL_FATAL(cc_rest_hinge(&r, 0.3, err), 0);
    for (int k = -200; k <= 200; k++) {
        double th = k * (CC_PI - 1e-6) / 200, x[12];
        cc_sample_hinge_at_angle(th, 0.8, 1.1, 0.2, -0.3, x);
        move_rigidly(x);
        for (int i = 0; i < 4; i++) {
            cc_eval e;
            CU_ASSERT_EQUAL_FATAL(find(v[i])->eval(x, &r, CC_WANT_VALUE, &e), CC_WANT_VALUE);
            double want = (i == 3 ? fabs(th) : th) - 0.3;
            /* atan2: a few ulps of pi; acos: an ulp of cos amplified by 1/|sin theta| */
            double tol = i == 3 ? 1e-15 / fmax(fabs(sin(th)), 1e-8) + 1e-14 : 1e-14;
            if (!(fabs(e.C[0] - want) < tol))
                printf("\n    %s theta=%.17g C=%.17g want %.17g", v[i], th, e.C[0], want);
            CU_ASSERT(fabs(e.C[0] - want) < tol);
        }
    }
}

/* ---- bend/pritchard: claims frozen-magnitude derivatives (001 (40)-(45), Section 4) ---- */

static void test_pritchard(void)
{
    const cc_condition *c = find("pritchard");
    CU_ASSERT_EQUAL(c->claim, CC_CLAIM_FROZEN);
    agree a = agree_random(c), b = agree_special(c, 0);
    /* the claim holds: exact derivatives of the frozen-magnitude theta, to round-off */
    CU_ASSERT(a.g_frozen < TOL_RT && a.h_frozen < TOL_RT);
    CU_ASSERT(b.g_frozen < TOL_RT && b.h_frozen < TOL_RT);
    /* and they are not the derivatives of theta: measured failure vs both true references */
    CU_ASSERT(a.g_true > TOL_WRONG && a.h_true > TOL_WRONG);
    CU_ASSERT(a.g_fd > TOL_WRONG && a.h_fd > TOL_WRONG);
    /* (57) is symmetric (001 Section 3.4 is right, the worry in 5.1 is not borne out) */
    CU_ASSERT(a.asym < TOL_RT && b.asym < TOL_RT);
    CU_ASSERT(a.gsum < TOL_RT && b.gsum < TOL_RT);
}

/* The whole error of (54) is cos sin d ln|e|: freezing |nA| and |nB| does not change atan2
 * (they scale sin and cos alike) but freezing |e| scales sin alone. */
static void test_pritchard_error_is_edge_length(void)
{
    const cc_condition *c = find("pritchard");
    static double ref[CC_MAX_COMP][CC_MAX_DOF];
    double worst = 0;
    for (int i = 0; i < SAMPLES; i++) {
        double x[12], pred[CC_MAX_COMP][CC_MAX_DOF];
        cc_rest r;
        cc_eval e;
        cc_hinge h;
        CU_ASSERT_EQUAL_FATAL(cc_sample_element(4, SEED, (uint64_t)i, NULL, x, &r), 0);
        CU_ASSERT_EQUAL_FATAL(c->eval(x, &r, CC_WANT_GRAD, &e), CC_WANT_GRAD);
        CU_ASSERT_EQUAL_FATAL(cc_hinge_make(x, &h), 0);
        cc_ref_exact_gradient(c, x, NULL, &r, ref);
        for (int j = 0; j < 12; j++)   /* dtheta + cos sin qe_m e^_s / |e| */
            pred[0][j] = ref[0][j] + h.c * h.s * cc_hinge_qe(j / 3) * h.eh.c[j % 3] / h.le;
        worst = fmax(worst, cc_compare_gradient(e.dC, pred, 1, 12).rel);
    }
    printf("\n    pritchard gradient = dtheta + cos sin dln|e|: worst %.2e", worst);
    CU_ASSERT(worst < TOL_RT);
}

/* ---- bend/pritchard-exact: claims exact derivatives (001 appendix (A.8)-(A.13)) ---- */

/* what an exact variant must show on the random hinges a and the special ones b: the exact
 * reference to round-off, finite differences within their bound, a symmetric Hessian and a
 * gradient that sums to zero */
static void assert_exact(const agree *a, const agree *b)
{
    CU_ASSERT(a->g_true < TOL_RT && a->h_true < TOL_RT);
    CU_ASSERT(b->g_true < TOL_RT && b->h_true < TOL_RT);
    CU_ASSERT(a->g_fd_tol < 1 && a->h_fd_tol < 1);
    CU_ASSERT(b->g_fd_tol < 1 && b->h_fd_tol < 1);
    CU_ASSERT(a->asym < TOL_RT && b->asym < TOL_RT);
    CU_ASSERT(a->gsum < TOL_RT && b->gsum < TOL_RT);
}

static void test_pritchard_exact(void)
{
    const cc_condition *c = find("pritchard-exact");
    CU_ASSERT_EQUAL(c->claim, CC_CLAIM_EXACT);
    agree a = agree_random(c), b = agree_special(c, 0);
    assert_exact(&a, &b);
    /* exact derivatives are not the frozen ones */
    CU_ASSERT(a.g_frozen > TOL_WRONG && a.h_frozen > TOL_WRONG);
}

/* ---- bend/bridson: claims exact derivatives (u_i, 002 and 004) ---- */

static void test_bridson(void)
{
    const cc_condition *c = find("bridson");
    CU_ASSERT_EQUAL(c->claim, CC_CLAIM_EXACT);
    agree a = agree_random(c), b = agree_special(c, 0);
    assert_exact(&a, &b);
    CU_ASSERT(a.g_frozen > TOL_WRONG);
}

/* The sign that makes Bridson's u_i a derivative of Pritchard's theta: u_i = -dtheta/dx_i.
 * With +u_i the normwise error is 2 (the opposite vector), with -u_i it is round-off. */
static void test_bridson_sign(void)
{
    const cc_condition *c = find("pritchard-exact");
    static double ref[CC_MAX_COMP][CC_MAX_DOF];
    double plus = 0, minus = 1e300;
    double err_minus = 0;
    for (int i = 0; i < SAMPLES; i++) {
        double x[12], up[CC_MAX_COMP][CC_MAX_DOF], um[CC_MAX_COMP][CC_MAX_DOF];
        cc_rest r;
        cc_hinge h;
        cc_v3 u[4];
        CU_ASSERT_EQUAL_FATAL(cc_sample_element(4, SEED, (uint64_t)i, NULL, x, &r), 0);
        CU_ASSERT_EQUAL_FATAL(cc_hinge_make(x, &h), 0);
        cc_hinge_bridson_u(&h, u);
        for (int j = 0; j < 12; j++) up[0][j] = u[j / 3].c[j % 3], um[0][j] = -up[0][j];
        cc_ref_exact_gradient(c, x, NULL, &r, ref);
        double ep = cc_compare_gradient(up, ref, 1, 12).rel, em = cc_compare_gradient(um, ref, 1, 12).rel;
        plus = fmax(plus, ep);
        minus = fmin(minus, ep);
        err_minus = fmax(err_minus, em);
    }
    printf("\n    +u vs dtheta: %.3g..%.3g;  -u vs dtheta: %.2e", minus, plus, err_minus);
    CU_ASSERT(err_minus < TOL_RT);
    CU_ASSERT(minus > 2 - 1e-12);   /* +u is exactly -dtheta: error |2 dtheta| / |dtheta| */
    CU_ASSERT_EQUAL(CC_HINGE_BRIDSON_SIGN, -1.0);
}

/* ---- bend/macri: no claim; reproduced as published so that it can be shown wrong ---- */

static void test_macri_fails(void)
{
    const cc_condition *c = find("macri");
    CU_ASSERT_EQUAL(c->claim, CC_CLAIM_NONE);
    agree a = agree_random(c), b = agree_special(c, 1);
    /* wrong against the true derivatives of its own value |theta| and of the frozen one */
    CU_ASSERT(a.g_true > TOL_WRONG && a.h_true > TOL_WRONG);
    CU_ASSERT(a.g_frozen > TOL_WRONG && a.h_frozen > TOL_WRONG);
    CU_ASSERT(a.g_fd > TOL_WRONG && a.h_fd > TOL_WRONG);
    CU_ASSERT(b.g_true > TOL_WRONG);
    /* and its Hessian is not symmetric (001 5.1) */
    CU_ASSERT(a.asym > TOL_WRONG);
    /* translation invariance survives: (31)-(36) sum to zero over the vertices */
    CU_ASSERT(a.gsum < TOL_RT);
}

/* Where Macri is right and where not, by regime: with |sin| > |cos| and theta > 0 his
 * -dcos/sin is exactly the frozen-magnitude derivative of arccos; with theta < 0 it is its
 * negative (the value is |theta|, the formula differentiates the signed theta); with
 * |sin| <= |cos| the dsin/cos formula matches neither. */
static void test_macri_regimes(void)
{
    const cc_condition *c = find("macri");
    static double ref[CC_MAX_COMP][CC_MAX_DOF];
    double cos_pos = 0, cos_neg = 0, sin_min = 1e300;
    int n_cos_pos = 0, n_cos_neg = 0, n_sin = 0;
    for (int i = 0; i < SAMPLES; i++) {
        double x[12], neg[CC_MAX_COMP][CC_MAX_DOF];
        cc_rest r;
        cc_eval e;
        cc_hinge h;
        CU_ASSERT_EQUAL_FATAL(cc_sample_element(4, SEED, (uint64_t)i, NULL, x, &r), 0);
        CU_ASSERT_EQUAL_FATAL(cc_hinge_make(x, &h), 0);
        CU_ASSERT_EQUAL_FATAL(c->eval(x, &r, CC_WANT_GRAD, &e), CC_WANT_GRAD);
        cc_ref_exact_gradient(c, x, x, &r, ref);
        for (int j = 0; j < 12; j++) neg[0][j] = -ref[0][j];
        if (fabs(h.s) > fabs(h.c) && h.s > 0) {
            cos_pos = fmax(cos_pos, cc_compare_gradient(e.dC, ref, 1, 12).rel), n_cos_pos++;
        } else if (fabs(h.s) > fabs(h.c)) {
            cos_neg = fmax(cos_neg, cc_compare_gradient(e.dC, neg, 1, 12).rel), n_cos_neg++;
        } else {
            sin_min = fmin(sin_min, cc_compare_gradient(e.dC, ref, 1, 12).rel), n_sin++;
        }
    }
    printf("\n    macri -dcos/sin, theta>0 (%d): %.2e vs frozen; theta<0 (%d): %.2e vs -frozen;"
           " dsin/cos (%d): best %.2e", n_cos_pos, cos_pos, n_cos_neg, cos_neg, n_sin, sin_min);
    CU_ASSERT(n_cos_pos > 50 && n_cos_neg > 50 && n_sin > 50);
    CU_ASSERT(cos_pos < TOL_RT);
    CU_ASSERT(cos_neg < TOL_RT);
    CU_ASSERT(sin_min > TOL_WRONG);   /* wrong on every one of these hinges, not just on some */
}

/* The two formulas disagree at the switch |sin| = |cos| (001 5.1: "not evident that there
 * exists any changeover point where the two formulas are equal"): the gradient jumps. */
static void test_macri_switch_jump(void)
{
    const cc_condition *c = find("macri");
    char err[CC_ERRLEN];
    cc_rest r;
    CU_ASSERT_EQUAL_FATAL(cc_rest_hinge(&r, 0.0, err), 0);
    const double at[] = {CC_PI / 4, 3 * CC_PI / 4};
    for (int k = 0; k < 2; k++) {
        double xl[12], xr[12];
        cc_eval el, er;
        cc_sample_hinge_at_angle(at[k] - 1e-9, 0.8, 1.1, 0.2, -0.3, xl);
        cc_sample_hinge_at_angle(at[k] + 1e-9, 0.8, 1.1, 0.2, -0.3, xr);
        CU_ASSERT_EQUAL_FATAL(c->eval(xl, &r, CC_WANT_GRAD, &el), CC_WANT_GRAD);
        CU_ASSERT_EQUAL_FATAL(c->eval(xr, &r, CC_WANT_GRAD, &er), CC_WANT_GRAD);
        double jump = cc_compare_gradient(el.dC, er.dC, 1, 12).rel;
        printf("\n    macri gradient jump across theta = %.4f: %.3g", at[k], jump);
        CU_ASSERT(jump > TOL_WRONG);   /* a smooth function would change by ~1e-9 */
    }
}

/* On flat hinges the arccos value |theta| has a kink: its exact references are not finite
 * there, while Macri's (1/cos) dsin formula gives a finite gradient. */
static void test_macri_flat(void)
{
    const cc_condition *c = find("macri");
    static double ref[CC_MAX_COMP][CC_MAX_DOF];
    char err[CC_ERRLEN];
    cc_rest r;
    CU_ASSERT_EQUAL_FATAL(cc_rest_hinge(&r, 0.0, err), 0);
    for (int k = 0; k < 3; k++) {
        double x[12];
        int fd, finite_ref = 1, finite_g = 1;
        cc_eval e;
        special_hinge(k, x, &fd);
        CU_ASSERT_EQUAL_FATAL(c->eval(x, &r, CC_WANT_ALL, &e), CC_WANT_ALL);
        cc_ref_exact_gradient(c, x, NULL, &r, ref);
        for (int j = 0; j < 12; j++) finite_ref &= isfinite(ref[0][j]) != 0, finite_g &= isfinite(e.dC[0][j]) != 0;
        CU_ASSERT(finite_g);
        CU_ASSERT(!finite_ref);
    }
}


/* ---- bend/discrete-shells: claims exact derivatives (Tamstorf & Grinspun's Hessian) ---- */

static void test_discrete_shells(void)
{
    const cc_condition *c = find("discrete-shells");
    CU_ASSERT_EQUAL(c->claim, CC_CLAIM_EXACT);
    agree a = agree_random(c), b = agree_special(c, 0);
    assert_exact(&a, &b);
}

/* d2theta by the three exact formulas -- 001's appendix (pritchard-exact), Bridson's
 * directions (bridson) and Tamstorf & Grinspun's closed form (discrete-shells, divided by its
 * weight) -- agree entry by entry to round-off, and so do the gradients */
static double pair_error(const double *a, const double *b, int n)
{
    double d = 0, s = 0;
    for (int i = 0; i < n; i++) d = fmax(d, fabs(a[i] - b[i])), s = fmax(s, fmax(fabs(a[i]), fabs(b[i])));
    return s > 0 ? d / s : 0;
}

static void test_three_hessians(void)
{
    static cc_eval e[3];
    static double H[3][144];
    const cc_condition *c[3] = {find("pritchard-exact"), find("bridson"), find("discrete-shells")};
    double worst_g = 0, worst_h = 0, x[12];
    cc_rest r;
    int fd;
    for (int i = 0; i < SAMPLES + NSPECIAL; i++) {
        if (i < SAMPLES) {
            CU_ASSERT_EQUAL_FATAL(cc_sample_element(4, SEED, (uint64_t)i, NULL, x, &r), 0);
        } else {
            special_hinge(i - SAMPLES, x, &fd);
        }
        for (int k = 0; k < 3; k++) {
            CU_ASSERT_EQUAL_FATAL(c[k]->eval(x, &r, CC_WANT_ALL, &e[k]), CC_WANT_ALL);
            double w = k == 2 ? r.rest_weight : 1.0;
            for (int j = 0; j < 12; j++) e[k].dC[0][j] /= w;
            for (int j = 0; j < 144; j++) H[k][j] = e[k].d2C[0][j / 12][j % 12] / w;
        }
        for (int k = 0; k < 3; k++) {
            int l = (k + 1) % 3;
            worst_g = worse(worst_g, pair_error(e[k].dC[0], e[l].dC[0], 12));
            worst_h = worse(worst_h, pair_error(H[k], H[l], 144));
        }
    }
    printf("\n    appendix / Bridson / Tamstorf-Grinspun, pairwise max-norm relative: gradient %.2e, Hessian %.2e",
           worst_g, worst_h);
    CU_ASSERT(worst_g < TOL_RT);
    CU_ASSERT(worst_h < TOL_RT);
}

/* the weight |e_rest| sqrt(3/A_rest), computed by hand for a rest hinge with edge 2 and wings of
 * heights 0.5 and 1.5 (A_rest = 0.5 + 1.5 = 2), and k/2 C^2 = Discrete Shells' 3k|e|^2/(2A) (theta - theta0)^2 */
static void test_discrete_shells_weight(void)
{
    const cc_condition *c = find("discrete-shells");
    double xr[12] = {0.3, 0.5, 0, 1, 0, 0, -1, 0, 0, -0.2, -1.5 * cos(0.4), -1.5 * sin(0.4)}, x[12];
    char err[CC_ERRLEN];
    cc_rest r;
    cc_eval e;
    CU_ASSERT_EQUAL_FATAL(cc_rest_hinge_shape(&r, xr, err), 0);
    CU_ASSERT_DOUBLE_EQUAL(r.rest_weight, 2 * sqrt(3.0 / 2.0), 1e-14);
    CU_ASSERT_DOUBLE_EQUAL(r.rest_angle, 0.4, 1e-14);
    CU_ASSERT_EQUAL_FATAL(c->eval(xr, &r, CC_WANT_VALUE, &e), CC_WANT_VALUE);
    CU_ASSERT(fabs(e.C[0]) < 1e-14);                 /* the rest hinge has no energy */
    memcpy(x, xr, sizeof x);
    x[11] = 1.5 * sin(0.1), x[10] = -1.5 * cos(0.1);   /* folded to theta = 0.1 */
    CU_ASSERT_EQUAL_FATAL(c->eval(x, &r, CC_WANT_VALUE, &e), CC_WANT_VALUE);
    double k = 3.0, E = 0.5 * k * e.C[0] * e.C[0], E_paper = 3 * k * 4.0 / (2 * 2.0) * 0.5 * 0.5;
    CU_ASSERT_DOUBLE_EQUAL(E, E_paper, 1e-13);
}

/* ---- bend/quadratic: cotangent weights, the label map, and agreement with Discrete Shells ---- */

/* On a flat rest hinge sum K x_rest = 0 and sum K = 0 (the weights annihilate affine
 * functions); folding it isometrically by phi gives |C| = w 2 sin(phi/2), w the Discrete
 * Shells weight: |C_quadratic| = |C_discrete-shells| 2 sin(phi/2) / phi. A wrong label map
 * (weights on the wrong vertices) breaks both. */
static void test_quadratic_weights(void)
{
    const cc_condition *q = find("quadratic"), *d = find("discrete-shells");
    double worst_flat = 0, worst_ratio = 0;
    for (int i = 0; i < 100; i++) {
        cc_rng g = cc_rng_make(SEED, (uint64_t)i);
        double wa = cc_rng_range(&g, 0.2, 1.5), wb = cc_rng_range(&g, 0.2, 1.5);
        double sa = cc_rng_range(&g, -0.8, 0.8), sb = cc_rng_range(&g, -0.8, 0.8), phi = cc_rng_range(&g, -2.5, 2.5);
        double xr[12], x[12];
        char err[CC_ERRLEN];
        cc_rest r;
        cc_eval eq, ed;
        cc_sample_hinge_at_angle(0.0, wa, wb, sa, sb, xr);
        move_rigidly(xr);
        CU_ASSERT_EQUAL_FATAL(cc_rest_hinge_shape(&r, xr, err), 0);
        double ksum = r.rest_K[0] + r.rest_K[1] + r.rest_K[2] + r.rest_K[3], kmax = 0;
        for (int m = 0; m < 4; m++) kmax = fmax(kmax, fabs(r.rest_K[m]));
        worst_flat = fmax(worst_flat, fabs(ksum) / kmax);
        for (int s = 0; s < 3; s++) {
            double v = 0;
            for (int m = 0; m < 4; m++) v += r.rest_K[m] * xr[3 * m + s];
            worst_flat = fmax(worst_flat, fabs(v) / kmax);
        }
        cc_sample_hinge_at_angle(phi, wa, wb, sa, sb, x);
        move_rigidly(x);
        CU_ASSERT_EQUAL_FATAL(q->eval(x, &r, CC_WANT_VALUE, &eq), CC_WANT_VALUE);
        CU_ASSERT_EQUAL_FATAL(d->eval(x, &r, CC_WANT_VALUE, &ed), CC_WANT_VALUE);
        double cq = sqrt(eq.C[0] * eq.C[0] + eq.C[1] * eq.C[1] + eq.C[2] * eq.C[2]);
        worst_ratio = fmax(worst_ratio, fabs(cq - fabs(ed.C[0]) * 2 * sin(fabs(phi) / 2) / fabs(phi)) / cq);
    }
    printf("\n    quadratic: flat |sum K x_rest|, |sum K| %.2e; |C| = w 2 sin(phi/2): %.2e", worst_flat, worst_ratio);
    CU_ASSERT(worst_flat < TOL_RT);
    CU_ASSERT(worst_ratio < TOL_RT);
}

/* any rest shape is free of energy; the gradient is the same at every x; the Hessian is zero */
static void test_quadratic_linear(void)
{
    const cc_condition *q = find("quadratic");
    static cc_eval a, b;
    double xr[12], x[12];
    cc_rest r;
    for (int i = 0; i < 50; i++) {
        CU_ASSERT_EQUAL_FATAL(cc_sample_element(4, SEED, (uint64_t)i, NULL, xr, &r), 0);
        char err[CC_ERRLEN];
        CU_ASSERT_EQUAL_FATAL(cc_rest_hinge_shape(&r, xr, err), 0);   /* a bent rest hinge */
        CU_ASSERT_EQUAL_FATAL(q->eval(xr, &r, CC_WANT_ALL, &a), CC_WANT_ALL);
        CU_ASSERT_EQUAL_FATAL(cc_sample_element(4, SEED, (uint64_t)i + 1000, NULL, x, &r), 0);
        CU_ASSERT_EQUAL_FATAL(cc_rest_hinge_shape(&r, xr, err), 0);
        CU_ASSERT_EQUAL_FATAL(q->eval(x, &r, CC_WANT_ALL, &b), CC_WANT_ALL);
        for (int c = 0; c < 3; c++) {
            CU_ASSERT(fabs(a.C[c]) < 1e-14);
            for (int j = 0; j < 12; j++) {
                CU_ASSERT_EQUAL(a.dC[c][j], b.dC[c][j]);
                for (int k = 0; k < 12; k++) CU_ASSERT_EQUAL(b.d2C[c][j][k], 0.0);
            }
        }
    }
}

/* ---- the command line ---- */

/* clothcheck eval bend: every registered variant answers; bad input exits 2 with one line */
static void test_cli_eval_bend(void)
{
    static char out[1 << 16], err[4096];
    const char *good = "--x '0 1 0; 0.5 0 0; -0.5 0 0; 0 -1 0.3' --json";
    const char *v[] = {"pritchard", "pritchard-exact", "macri", "bridson", "discrete-shells", "quadratic"};
    for (int i = 0; i < 6; i++) {
        char args[320];
        snprintf(args, sizeof args, "eval bend --variant %s %s %s", v[i], good,
                 i < 4 ? "--rest 0.1" : "--x-rest '0 1 0; 0.5 0 0; -0.5 0 0; 0 -1 0.1'");
        CU_ASSERT_EQUAL(cc_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"variant\": \""));
        CU_ASSERT_PTR_NOT_NULL(strstr(out, v[i]));
    }
    const char *bad[] = {
        "eval bend --x '0 1 0; 0.5 0 0; -0.5 0 0' --json",                 /* 3 vertices */
        "eval bend --x '0 1 0; 0.5 0 0; -0.5 0 0; 0 -1 0; 1 1 1' --json",  /* 5 vertices */
        "eval bend --x '0 1 0; 0.5 0 0; -0.5 0 0; 0 -1 zz' --json",        /* not a number */
        "eval bend --x '0 1 0; 0.5 0 0; 0.5 0 0; 0 -1 0' --json",          /* zero-length edge */
        "eval bend --x '1 0 0; 0.5 0 0; -0.5 0 0; 0 -1 0' --json",         /* zero-area wing */
        "eval bend --variant nope --x '0 1 0; 0.5 0 0; -0.5 0 0; 0 -1 0'", /* unknown variant */
        "eval bend --x '0 1 0; 0.5 0 0; -0.5 0 0; 0 -1 0' --rest abc",     /* bad rest angle */
        "eval bend --variant bridson",                                      /* no --x */
        "eval bend --variant discrete-shells --x '0 1 0; 0.5 0 0; -0.5 0 0; 0 -1 0.3'",  /* no --x-rest */
        "eval bend --variant quadratic --x '0 1 0; 0.5 0 0; -0.5 0 0; 0 -1 0.3' --x-rest '0 1 0; 0.5 0 0'",
        "eval bend --x '0 1 0; 0.5 0 0; -0.5 0 0; 0 -1 0.3' --x-rest '0 1 0; 0.5 0 0; 0.5 0 0; 0 -1 0'",
        "eval bend --x '0 1 0; 0.5 0 0; -0.5 0 0; 0 -1 0.3' --rest 0.1 --x-rest '0 1 0; 0.5 0 0; -0.5 0 0; 0 -1 0'",
        "eval spring --x '0 0 0; 1 0 0' --rest 1 --x-rest '0 1 0; 0.5 0 0; -0.5 0 0; 0 -1 0'",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int st = cc_test_run_cli(bad[i], out, sizeof out, err, sizeof err);
        CU_ASSERT_EQUAL(st, 2);
        CU_ASSERT_EQUAL(cc_test_count_lines(err), 1);
        CU_ASSERT_EQUAL(out[0], '\0');
    }
}

/* ---- the block form of (46)-(51) is the entry-by-entry reading, to round-off ---- */

/* max |lit - blk| / max |lit| over dc, ds, d2c, d2s of the hinge x */
static double trig_block_error(const double *x)
{
    static cc_hinge_units u;   /* 11 KB */
    cc_hinge h;
    cc_hinge_trig lit, blk;
    if (cc_hinge_make(x, &h) < 0) return 0;
    cc_hinge_units_frozen(&h, 1, &u);
    cc_hinge_trig_derivs(&h, &u, 1, &lit);
    cc_hinge_trig_frozen(&h, 1, &blk);
    double scale = 0, diff = 0;
    for (int i = 0; i < 12; i++) {
        scale = fmax(scale, fmax(fabs(lit.dc[i]), fabs(lit.ds[i])));
        diff = fmax(diff, fmax(fabs(lit.dc[i] - blk.dc[i]), fabs(lit.ds[i] - blk.ds[i])));
        for (int j = 0; j < 12; j++) {
            scale = fmax(scale, fmax(fabs(lit.d2c[i][j]), fabs(lit.d2s[i][j])));
            diff = fmax(diff, fmax(fabs(lit.d2c[i][j] - blk.d2c[i][j]), fabs(lit.d2s[i][j] - blk.d2s[i][j])));
        }
    }
    return diff / scale;
}

static void test_trig_blocks(void)
{
    double worst = 0, x[12];
    cc_rest r;
    int fd;
    for (int i = 0; i < SAMPLES; i++) {
        CU_ASSERT_EQUAL_FATAL(cc_sample_element(4, SEED, (uint64_t)i, NULL, x, &r), 0);
        worst = worse(worst, trig_block_error(x));
    }
    for (int k = 0; k < NSPECIAL; k++) {
        special_hinge(k, x, &fd);
        worst = worse(worst, trig_block_error(x));
    }
    printf("\n    block vs entry-by-entry (46)-(51), max-norm relative: %.2e", worst);
    CU_ASSERT(worst < TOL_RT);
}

int main(void)
{
    static const cc_test_case tests[] = {
        {"flat hinges have theta = 0", test_flat_is_zero},
        {"fold-angle sweep: signed theta, Macri |theta|", test_angle_sweep},
        {"frozen (46)-(51): 3x3 blocks equal the entry-by-entry reading", test_trig_blocks},
        {"pritchard: frozen claim holds, true derivative fails", test_pritchard},
        {"pritchard: its whole error is cos sin dln|e|", test_pritchard_error_is_edge_length},
        {"pritchard-exact: exact claim holds", test_pritchard_exact},
        {"bridson: exact claim holds", test_bridson},
        {"bridson: u_i = -dtheta/dx_i in Pritchard's sign", test_bridson_sign},
        {"macri: wrong against every reference, Hessian not symmetric", test_macri_fails},
        {"macri: right only for |sin|>|cos|, theta>0, frozen", test_macri_regimes},
        {"macri: gradient jumps where the formulas switch", test_macri_switch_jump},
        {"macri: flat hinge, kink in |theta|", test_macri_flat},
        {"discrete-shells: exact claim holds", test_discrete_shells},
        {"three exact formulas for theta's derivatives agree to round-off", test_three_hessians},
        {"discrete-shells: the weight and the paper's energy", test_discrete_shells_weight},
        {"quadratic: cotangent weights, label map, |C| = w 2 sin(phi/2)", test_quadratic_weights},
        {"quadratic: C linear, zero at any rest shape", test_quadratic_linear},
        {"cli: eval bend, bad input exits 2", test_cli_eval_bend},
        {NULL, NULL}};
    return cc_test_main("bend", tests);
}
