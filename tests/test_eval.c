/* Suite: the `clothcheck eval` command and its JSON contract
 * (docs/design.md "The eval contract"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cc_test.h"
#include "math/cc_vec.h"

static char out[1 << 16], err[4096];

/* Parse the numbers of the JSON array that follows "key": in s into v (at most cap);
 * nested brackets are flattened. Returns the count, or -1 if the key is missing. */
static int json_numbers(const char *s, const char *key, double *v, int cap)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": [", key);
    const char *p = strstr(s, pat);
    if (!p) return -1;
    p += strlen(pat);
    int depth = 1, n = 0;
    while (*p && depth > 0) {
        if (*p == '[') depth++, p++;
        else if (*p == ']') depth--, p++;
        else if (*p == ',' || *p == ' ') p++;
        else {
            char *end;
            double d = strtod(p, &end);
            if (end == p) return -1;
            if (n < cap) v[n] = d;
            n++;
            p = end;
        }
    }
    return n;
}

/* stretch with --area-power 0.5: value, gradient (2 x 9) and Hessian (2 x 9 x 9), and the
 * value equals alpha (|w_u| - b_u, |w_v| - b_v) computed here by hand (001 (1)-(4), (13)). */
static void test_stretch_json(void)
{
    int st = cc_test_run_cli("eval stretch --x '0 0 0; 2 0 0; 0 0.5 0.5' --uv '0 0; 1 0; 0 1' "
                             "--area-power 0.5 --json", out, sizeof out, err, sizeof err);
    CU_ASSERT_EQUAL_FATAL(st, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"condition\": \"stretch\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"variant\": \"bw98\""));
    double v[400];
    CU_ASSERT_EQUAL(json_numbers(out, "value", v, 400), 2);
    double alpha = sqrt(0.5);   /* a = 1/2, p = 1/2 */
    CU_ASSERT_DOUBLE_EQUAL(v[0], alpha * (2.0 - 1.0), 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(v[1], alpha * (sqrt(0.5) - 1.0), 1e-15);
    CU_ASSERT_EQUAL(json_numbers(out, "gradient", v, 400), 2 * 9);
    /* dC_u/dx_1 = alpha dw_u/dx_1 w^_u = alpha * 1 * (1, 0, 0)   (7), (14) */
    CU_ASSERT_DOUBLE_EQUAL(v[3], alpha, 1e-15);
    CU_ASSERT_EQUAL(json_numbers(out, "hessian", v, 400), 2 * 9 * 9);
    CU_ASSERT_EQUAL(cc_test_count_lines(out), 1);
}

/* shear and spring print the contract with one component. */
static void test_shear_spring_json(void)
{
    double v[200];
    int st = cc_test_run_cli("eval shear --variant normalized --x '0 0 0; 1 0 0; 0.3 1 0' --uv '0 0; 1 0; 0 1' --json",
                             out, sizeof out, err, sizeof err);
    CU_ASSERT_EQUAL_FATAL(st, 0);
    CU_ASSERT_EQUAL(json_numbers(out, "value", v, 200), 1);
    CU_ASSERT_DOUBLE_EQUAL(v[0], 0.5 * 0.3 / sqrt(1.09), 1e-15);   /* a = 1/2, p = 1 */
    CU_ASSERT_EQUAL(json_numbers(out, "gradient", v, 200), 9);
    st = cc_test_run_cli("eval spring --x '0 0 0; 3 4 0' --rest 4 --json", out, sizeof out, err, sizeof err);
    CU_ASSERT_EQUAL_FATAL(st, 0);
    CU_ASSERT_EQUAL(json_numbers(out, "value", v, 200), 1);
    CU_ASSERT_DOUBLE_EQUAL(v[0], 1.0, 1e-15);
    CU_ASSERT_EQUAL(json_numbers(out, "gradient", v, 200), 6);
    CU_ASSERT_DOUBLE_EQUAL(v[0], -0.6, 1e-15);   /* d^ = (x0 - x1)/|x0 - x1| */
    CU_ASSERT_EQUAL(json_numbers(out, "hessian", v, 200), 36);
}

/* Bad input: exit status 2, exactly one line on stderr, nothing on stdout. */
static void expect_usage_error(const char *args, const char *needle)
{
    int st = cc_test_run_cli(args, out, sizeof out, err, sizeof err);
    CU_ASSERT_EQUAL(st, 2);
    CU_ASSERT_EQUAL(cc_test_count_lines(err), 1);
    CU_ASSERT_EQUAL(out[0], '\0');
    if (!strstr(err, needle)) printf("\n  expected '%s' in: %s", needle, err);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, needle));
}

static void test_bad_input(void)
{
    expect_usage_error("eval stretch --x '0 0 0; 1 0 0' --uv '0 0; 1 0; 0 1' --json", "needs 3 vertices, got 2");
    expect_usage_error("eval stretch --x '0 0 0; 1 0 0; 0 1 0; 1 1 1' --uv '0 0; 1 0; 0 1'", "needs 3 vertices, got 4");
    expect_usage_error("eval stretch --x '0 0 0; 1 zero 0; 0 1 0' --uv '0 0; 1 0; 0 1'", "not a finite number");
    expect_usage_error("eval stretch --x '0 0 0; 1 0; 0 1 0' --uv '0 0; 1 0; 0 1'", "has 2 numbers, expected 3");
    expect_usage_error("eval stretch --x '0 0 0; 1 0 0; 0 1 0' --uv '0 0; 1 1; 2 2'", "degenerate (u,v) triangle");
    expect_usage_error("eval shear --x '0 0 0; 1 0 0; 0 1 0'", "--uv is required");
    expect_usage_error("eval stretch --x '0 0 0; 1 0 0; 0 1 0' --uv '0 0; 1 0; 0 1' --area-power abc", "--area-power");
    expect_usage_error("eval stretch --x '0 0 0; 1 0 0; 0 1 0' --uv '0 0; 1 0; 0 1' --area-power -1", "area power");
    expect_usage_error("eval stretch --x '0 0 0; 1 0 0; 0 1 0' --uv '0 0; 1 0; 0 1' --x", "needs a value");
    expect_usage_error("eval twist --x '0 0 0'", "unknown condition");
    expect_usage_error("eval shear --variant nope --x '0 0 0'", "unknown variant");
    expect_usage_error("eval spring --x '0 0 0; 1 0 0' --bogus 1", "unknown option");
    /* quoted input stays on one line: control characters shown as \xHH or as spaces (found by
     * tests/fuzz/fuzz_points: tests/fuzz/regress/points/newline_in_point) */
    expect_usage_error("eval spring --x \"$(printf '0 0 0; 1 \\001 0')\"", "'\\x01' is not a finite number");
    expect_usage_error("eval \"$(printf 'spr\\ning')\" --x '0 0 0'", "unknown condition 'spr ing'");
    expect_usage_error("eval spring --x '0 0 0; 1 0 0'", "needs --rest");
    expect_usage_error("eval spring --x '1 1 1; 1 1 1' --rest 1", "undefined");
    expect_usage_error("eval stretch --x '0 0 0; 1 0 0; 0 1 nan' --uv '0 0; 1 0; 0 1'", "not a finite number");
    expect_usage_error("eval", "no condition");
    expect_usage_error("frobnicate", "unknown command");
}

/* An option that does not apply to the condition is refused, never ignored, and so is a value
 * that makes no sense: a rest angle beyond the range of theta, a negative rest stretch or
 * stiffness, a spring given both --rest and --uv. */
static void test_options_that_do_not_apply(void)
{
    const char *tri = "--x '0 0 0; 1 0 0; 0 1 0' --uv '0 0; 1 0; 0 1'";
    const char *hinge = "--x '0 1 0; 0.5 0 0; -0.5 0 0; 0 -1 0.3'";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "eval stretch %s --rest 1", tri);
    expect_usage_error(cmd, "--rest does not apply to stretch: a triangle's rest shape is its --uv");
    snprintf(cmd, sizeof cmd, "derive shear %s --rest 1", tri);
    expect_usage_error(cmd, "--rest does not apply to shear");
    snprintf(cmd, sizeof cmd, "eval stretch %s --bu -1", tri);
    expect_usage_error(cmd, "rest stretch b_u, b_v must be positive numbers (got -1, 1)");
    snprintf(cmd, sizeof cmd, "eval bend %s --uv '0 0; 1 0; 0 1; 1 1'", hinge);
    expect_usage_error(cmd, "--uv does not apply to bend");
    snprintf(cmd, sizeof cmd, "eval bend %s --area-power 0.5", hinge);
    expect_usage_error(cmd, "--area-power applies to the triangle conditions (stretch, shear), not to bend");
    snprintf(cmd, sizeof cmd, "eval bend %s --rest 100", hinge);
    expect_usage_error(cmd, "--rest: rest angle 100 is outside [-pi, pi]");
    snprintf(cmd, sizeof cmd, "derive bend --variant macri %s --rest -3.2", hinge);
    expect_usage_error(cmd, "outside [-pi, pi]");
    expect_usage_error("eval spring --x '0 0 0; 1 0 0' --rest 1 --uv '0 0; 2 0'", "give --rest (the rest length) or --uv");
    expect_usage_error("eval spring --x '0 0 0; 1 0 0' --rest 1 --bv 2", "--bv applies to the triangle conditions");
    expect_usage_error("eval stretch --x '0 0 0; 1 0 0; 0 1 0' --x-rest '0 0 0; 1 0 0; 0 1 0; 1 1 0'", "--x-rest");
    snprintf(cmd, sizeof cmd, "force %s --k -5", hinge);
    expect_usage_error(cmd, "--k must be a positive stiffness (got -5)");
    snprintf(cmd, sizeof cmd, "force %s --rest 4", hinge);
    expect_usage_error(cmd, "--rest: rest angle 4 is outside [-pi, pi]");
    expect_usage_error("audit stretch --x-rest '0 1 0; 0.5 0 0; -0.5 0 0; 0 -1 0'",
                       "--x-rest is the rest hinge of bend elements; it does not apply to stretch");
    expect_usage_error("audit bend --area-power 0.5", "--area-power applies to the triangle conditions");
    /* what applies still works: the spring's L from --uv, theta0 = pi exactly */
    CU_ASSERT_EQUAL(cc_test_run_cli("eval spring --x '0 0 0; 1 0 0' --uv '0 0; 2 0' --json", out, sizeof out, err,
                                    sizeof err), 0);
    snprintf(cmd, sizeof cmd, "eval bend %s --rest 3.141592653589793 --json", hinge);
    CU_ASSERT_EQUAL(cc_test_run_cli(cmd, out, sizeof out, err, sizeof err), 0);
}

/* A zero prints as 0, never as -0 or -0.0000e+00, in the text and in the JSON. */
static void test_no_negative_zero(void)
{
    CU_ASSERT_EQUAL(cc_test_run_cli("eval spring --x '0 0 0; 1 0 0' --rest 1", out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "C[0] = 0\n"));
    CU_ASSERT_PTR_NULL(strstr(out, "-0.0"));
    CU_ASSERT_EQUAL(cc_test_run_cli("eval spring --x '0 0 0; 1 0 0' --rest 1 --json", out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"value\": [0]"));
    CU_ASSERT_PTR_NULL(strstr(out, "-0,"));
    CU_ASSERT_PTR_NULL(strstr(out, "-0]"));
}

/* --help on the command and the subcommand: exit 0, usage on stdout. */
static void test_help(void)
{
    CU_ASSERT_EQUAL(cc_test_run_cli("--help", out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "eval"));
    CU_ASSERT_EQUAL(cc_test_run_cli("eval --help", out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "usage: clothcheck eval"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "Pritchard (13)-(18)"));
}

/* At coordinates of 1e200 or edges of 1e-200 every command refuses the element with one line
 * naming the scale; nothing prints null, inf or NaN. */
static void test_extreme_scales_refused(void)
{
    static const char *const cmds[] = {
        "eval stretch --x '1e200 0 0; 1 0 0; 0 1 0' --uv '0 0; 1 0; 0 1' --json",
        "eval shear --x '0 0 0; 1e-200 0 0; 0 1e-200 0' --uv '0 0; 1 0; 0 1' --json",
        "eval bend --x '0 0 0; 1e200 0 0; 0 1e200 0; 1e200 1e200 1e200' --json",
        "eval spring --x '0 0 0; 1e-200 0 0' --rest 1 --json",
        "derive stretch --x '1e200 0 0; 1 0 0; 0 1 0' --uv '0 0; 1 0; 0 1' --json",
        "derive bend --variant macri --x '0 0 0; 1e-200 0 0; 0 1e-200 0; 1e-200 1e-200 1e-200'",
        "force --x '0 0 0; 1e200 0 0; 0 1e200 0; 1e200 1e200 1e200' --json",
        "force --x '0 0 0; 1e-200 0 0; 0 1e-200 0; 1e-200 1e-200 1e-200'"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        expect_usage_error(cmds[i], strstr(cmds[i], "e200") ? "beyond 1e+30 in magnitude" : "closer than 1e-30");
}

/* At the ends of the range every variant is right: its gradient and Hessian are homogeneous in
 * the scale s of the element, dC(s x) = s^d dC(x) and d2C(s x) = s^(d-1) d2C(x), with d = 0 for
 * stretch and springs (unit directions), 1 for the bw98 shear (a product of two w), -1 for the
 * normalised shear and the bend angles, 0 for bend/quadratic (linear in x: its gradient is
 * constant, its Hessian zero) -- checked to 1e-12 at s = 1e29 and 1e-29. */
static void test_extreme_scales_right(void)
{
    static const double xt[9] = {0.1, -0.2, 0.05, 1.3, 0.1, 0.4, 0.2, 1.1, -0.3};
    static const double xh[12] = {0.1, 0.2, 0.3, 1.1, -0.2, 0.1, -0.1, 1.2, 0.2, 0.9, 1.1, -0.6};
    static const double xs[6] = {0.2, -0.1, 0.4, 1.1, 0.7, -0.5};
    static const double uv[6] = {0, 0, 1, 0.2, 0.3, 0.9};
    char e[CC_ERRLEN];
    for (int i = 0; i < cc_condition_count(); i++) {
        const cc_condition *c = cc_condition_at(i);
        const double *x0 = c->nv == 3 ? xt : c->nv == 4 ? xh : xs;
        cc_rest r;
        CU_ASSERT_EQUAL_FATAL(c->nv == 3 ? cc_rest_triangle(&r, uv, 1, 1, 1, e)
                              : c->nv == 4 ? cc_rest_hinge(&r, 0.3, e) : cc_rest_spring(&r, 1.5, e), 0);
        /* C scales as s^(d+1) near x0, here seen through dC ~ s^d: bend/quadratic is linear in x
         * (constant gradient), the other bend variants are angles */
        int d = !strcmp(c->condition, "shear") ? (!strcmp(c->variant, "bw98") ? 1 : -1)
              : !strcmp(c->condition, "bend") ? (c->ncomp == 3 ? 0 : -1) : 0;
        static cc_eval a, b;
        CU_ASSERT_FATAL(c->eval(x0, &r, CC_WANT_ALL, &a) >= 0);
        for (int k = -1; k <= 1; k += 2) {
            double s = pow(10, 29 * k), x[12];
            for (int j = 0; j < 3 * c->nv; j++) x[j] = s * x0[j];
            CU_ASSERT_EQUAL(cc_positions_in_range(x, c->nv, e), 0);
            CU_ASSERT_FATAL(c->eval(x, &r, CC_WANT_ALL, &b) >= 0);
            CU_ASSERT(cc_eval_finite(&b, CC_WANT_ALL));
            double eg = 0, ng = 0, eh = 0, nh = 0;
            for (int q = 0; q < a.ncomp; q++)
                for (int m = 0; m < a.ndof; m++) {
                    eg = fmax(eg, fabs(b.dC[q][m] / pow(s, d) - a.dC[q][m])), ng = fmax(ng, fabs(a.dC[q][m]));
                    for (int n = 0; n < a.ndof; n++)
                        eh = fmax(eh, fabs(b.d2C[q][m][n] / pow(s, d - 1) - a.d2C[q][m][n])),
                        nh = fmax(nh, fabs(a.d2C[q][m][n]));
                }
            if (eg > 1e-12 * ng || eh > 1e-12 * nh)
                printf("\n  %s/%s at scale %g: gradient %.2g, Hessian %.2g (relative)", c->condition, c->variant, s,
                       eg / ng, eh / nh);
            CU_ASSERT(eg <= 1e-12 * ng && eh <= 1e-12 * nh);
        }
    }
}

int main(void)
{
    static const cc_test_case tests[] = {
        {"stretch JSON with area power 0.5", test_stretch_json},
        {"shear and spring JSON", test_shear_spring_json},
        {"bad input exits 2 with one line", test_bad_input},
        {"options that do not apply, values that make no sense", test_options_that_do_not_apply},
        {"no negative zero", test_no_negative_zero},
        {"--help", test_help},
        {"extreme scales refused with one line", test_extreme_scales_refused},
        {"every variant right at 1e29 and 1e-29", test_extreme_scales_right},
        {NULL, NULL}};
    return cc_test_main("eval", tests);
}
