/* Suite: the `clothcheck eval` command and its JSON contract (DESIGN "The eval contract"). */
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
    expect_usage_error("eval spring --x '0 0 0; 1 0 0'", "needs --rest");
    expect_usage_error("eval spring --x '1 1 1; 1 1 1' --rest 1", "undefined");
    expect_usage_error("eval stretch --x '0 0 0; 1 0 0; 0 1 nan' --uv '0 0; 1 0; 0 1'", "not a finite number");
    expect_usage_error("eval", "no condition");
    expect_usage_error("frobnicate", "unknown command");
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

int main(void)
{
    static const cc_test_case tests[] = {
        {"stretch JSON with area power 0.5", test_stretch_json},
        {"shear and spring JSON", test_shear_spring_json},
        {"bad input exits 2 with one line", test_bad_input},
        {"--help", test_help},
        {NULL, NULL}};
    return cc_test_main("eval", tests);
}
