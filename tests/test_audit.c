/* Suite: the audit engine (checks/audit.h) and `clothcheck audit`.
 *
 * The engine must catch planted errors and say where they are. Each planted target wraps a
 * correct registered variant (its value code untouched) and changes one thing in its
 * analytic derivatives:
 *   a wrong sign in one Hessian block, a missing factor 2 in one vertex's gradient, a
 *   transposed off-diagonal Hessian block, and a dropped chain-rule term (the projector
 *   -w^ w^^T of d w^/dx in the stretch Hessian, 001 (15));
 * the audit must fail the exact and fd-true rows and locate the worst entry where the planted
 * difference is largest, in the planted block. Correct variants must hold their claims, step
 * sweeps must show slopes 2 and 4 for central and central4, the Taylor orders must be 1, 2, 3
 * (and 1 for a wrong gradient), targets without hyper-dual code must get "unavailable", and
 * the JSON rows and the command line must keep their contract.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cc_test.h"
#include "checks/audit.h"
#include "checks/report.h"
#include "conditions/triangle.h"
#include "io/gnuplot.h"

#define SAMPLES 100
#define SEED 7u

typedef enum defect {
    HESS_SIGN,        /* block (m, n) and its mirror (n, m) negated */
    GRAD_HALF,        /* gradient of vertex m halved (a missing factor 2) */
    HESS_TRANSPOSE,   /* block (m, n) stored transposed, its mirror (n, m) left as it was */
    HESS_SKEW,        /* S(x_n - x_m) added to blocks (m, n) and (n, m): a skew error E = -E^T,
                         as a cross-product term S(q) (001 (37)) taken with the wrong sign would */
    DROP_PROJECTOR    /* stretch: alpha/|w| dw_m dw_n w^ w^^T added back (the projector dropped) */
} defect;

/* A correct variant with one planted defect in its analytic derivatives. */
typedef struct planted {
    const cc_condition *base;   /* the correct variant */
    defect d;                   /* what is wrong */
    int m, n;                   /* the vertex (GRAD_HALF) or block (m, n) it is wrong in */
} planted;

static void plant(const planted *p, const double *x, const cc_rest *r, cc_eval *e)
{
    int nd = 3 * p->base->nv;
    for (int k = 0; k < e->ncomp; k++) {
        double (*H)[CC_MAX_DOF] = e->d2C[k];
        if (p->d == GRAD_HALF)
            for (int s = 0; s < 3; s++) e->dC[k][3 * p->m + s] *= 0.5;
        if (p->d == HESS_SIGN)
            for (int s = 0; s < 3; s++)
                for (int t = 0; t < 3; t++) {
                    H[3 * p->m + s][3 * p->n + t] *= -1;
                    if (p->m != p->n) H[3 * p->n + t][3 * p->m + s] *= -1;
                }
        if (p->d == HESS_TRANSPOSE) {
            double B[3][3];
            for (int s = 0; s < 3; s++)
                for (int t = 0; t < 3; t++) B[s][t] = H[3 * p->m + s][3 * p->n + t];
            for (int s = 0; s < 3; s++)
                for (int t = 0; t < 3; t++) H[3 * p->m + s][3 * p->n + t] = B[t][s];
        }
        if (p->d == HESS_SKEW) {
            cc_v3 q = cc_v3_sub(cc_v3_load(x + 3 * p->n), cc_v3_load(x + 3 * p->m));
            for (int s = 0; s < 3; s++)
                for (int t = 0; t < 3; t++) {
                    double sq = cc_v3_skew_row(q, s).c[t];   /* S(q)_{st} */
                    H[3 * p->m + s][3 * p->n + t] += sq;
                    H[3 * p->n + s][3 * p->m + t] += sq;
                }
        }
        if (p->d == DROP_PROJECTOR) {
            const double *dw = k == 0 ? r->dwu : r->dwv;
            cc_v3 w = cc_tri_w(x, dw);
            double len = cc_v3_norm(w);
            cc_v3 wh = cc_v3_scale(w, 1.0 / len);
            for (int i = 0; i < nd; i++)
                for (int j = 0; j < nd; j++)
                    H[i][j] += r->alpha / len * dw[i / 3] * dw[j / 3] * wh.c[i % 3] * wh.c[j % 3];
        }
    }
}

static int planted_eval(void *ctx, const double *x, const cc_rest *r, int want, cc_eval *out)
{
    const planted *p = ctx;
    int got = p->base->eval(x, r, want, out);
    if (got >= 0) plant(p, x, r, out);
    return got;
}

static int planted_value(void *ctx, const double *x, const double *xf, const cc_rest *r, double *C)
{
    const planted *p = ctx;
    cc_condition_value(p->base, x, xf, r, C);
    return 0;
}

static void planted_value_hd(void *ctx, const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *C)
{
    const planted *p = ctx;
    p->base->value_hd(x, xf, r, C);
}

static const cc_condition *need(const char *cond, const char *variant)
{
    const cc_condition *c = cc_condition_find(cond, variant);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    return c;
}

static cc_target planted_target(planted *p)
{
    cc_target t = cc_target_from_condition(p->base);
    t.variant = "planted";
    t.ctx = p;
    t.eval = planted_eval;
    t.value = planted_value;
    t.value_hd = planted_value_hd;
    return t;
}

static cc_audit_opts small_opts(int samples)
{
    cc_audit_opts o = cc_audit_defaults();
    o.samples = samples;
    o.seed = SEED;
    return o;
}

/* |planted - correct| at entry (k, i, j) of the row's quantity, on element c */
static double planted_delta(const planted *p, const cc_case *c, int hess, int k, int i, int j)
{
    static cc_eval good, bad;
    p->base->eval(c->x, &c->r, CC_WANT_ALL, &good);
    planted_eval((void *)p, c->x, &c->r, CC_WANT_ALL, &bad);
    return hess ? fabs(bad.d2C[k][i][j] - good.d2C[k][i][j]) : fabs(bad.dC[k][i] - good.dC[k][i]);
}

/* the row fails, gates, and its worst entry is where the planted difference is largest
 * (up to ties) and inside the planted vertices or block */
static void assert_located(const planted *p, const cc_audit *a, cc_ref ref, cc_quantity q)
{
    const cc_audit_row *w = cc_audit_find(a, ref, q);
    int hess = q != CC_Q_GRADIENT, nd = 3 * p->base->nv;
    cc_case c;
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_FALSE(w->pass);
    CU_ASSERT_TRUE(w->gates);
    CU_ASSERT_FATAL(w->worst.k >= 0 && w->worst.i >= 0);
    CU_ASSERT_EQUAL_FATAL(cc_case_make(p->base->nv, SEED, w->worst_case, &a->opts.sample, &c), 0);
    double here = planted_delta(p, &c, hess, w->worst.k, w->worst.i, w->worst.j), most = 0;
    for (int k = 0; k < p->base->ncomp; k++)
        for (int i = 0; i < nd; i++)
            for (int j = 0; j < (hess ? nd : 1); j++) most = fmax(most, planted_delta(p, &c, hess, k, i, hess ? j : -1));
    CU_ASSERT(here >= (1 - 1e-6) * most);
    int m = w->worst.i / 3, n = hess ? w->worst.j / 3 : -1;
    if (p->d == GRAD_HALF) CU_ASSERT_EQUAL(m, p->m);
    if (p->d == HESS_SIGN || p->d == HESS_TRANSPOSE || p->d == HESS_SKEW)
        CU_ASSERT((m == p->m && n == p->n) || (m == p->n && n == p->m));
    if (p->d == HESS_TRANSPOSE || p->d == HESS_SKEW) CU_ASSERT_NOT_EQUAL(w->worst.i % 3, w->worst.j % 3);
}

static void test_correct_variants_hold_their_claims(void)
{
    static cc_audit a;
    cc_audit_opts o = small_opts(SAMPLES);
    for (int i = 0; i < cc_condition_count(); i++) {
        const cc_condition *c = cc_condition_at(i);
        cc_target t = cc_target_from_condition(c);
        CU_ASSERT_EQUAL_FATAL(cc_audit_run(&t, &o, &a), 0);
        if (cc_audit_failed(&a)) printf("\n  %s %s fails its claim\n", c->condition, c->variant);
        CU_ASSERT_FALSE(cc_audit_failed(&a));
        if (c->claim == CC_CLAIM_NONE)
            for (int r = 0; r < a.nrows; r++) CU_ASSERT_FALSE(a.rows[r].gates);
    }
}

static void test_wrong_sign_in_hessian_block(void)
{
    static cc_audit a;
    planted p = {need("shear", "normalized"), HESS_SIGN, 1, 2};
    cc_target t = planted_target(&p);
    cc_audit_opts o = small_opts(SAMPLES);
    CU_ASSERT_EQUAL_FATAL(cc_audit_run(&t, &o, &a), 0);
    CU_ASSERT_TRUE(cc_audit_failed(&a));
    assert_located(&p, &a, CC_REF_EXACT, CC_Q_HESSIAN);
    assert_located(&p, &a, CC_REF_FD_TRUE, CC_Q_HESSIAN);
    assert_located(&p, &a, CC_REF_FD_TRUE, CC_Q_HESS_GRADIENT);
    CU_ASSERT_TRUE(cc_audit_find(&a, CC_REF_EXACT, CC_Q_GRADIENT)->pass);
    /* a symmetric error leaves symmetry intact but not the Taylor order of r2 */
    CU_ASSERT_TRUE(cc_audit_find(&a, CC_REF_EXACT, CC_Q_SYMMETRY)->pass);
    const cc_audit_row *ty = cc_audit_find(&a, CC_REF_FD_TRUE, CC_Q_TAYLOR);
    CU_ASSERT(ty->taylor.order[1] > 1.7);
    CU_ASSERT(ty->taylor.order[2] < 2.3);
}

static void test_missing_factor_two_in_gradient(void)
{
    static cc_audit a;
    planted p = {need("stretch", "bw98"), GRAD_HALF, 2, -1};
    cc_target t = planted_target(&p);
    cc_audit_opts o = small_opts(SAMPLES);
    CU_ASSERT_EQUAL_FATAL(cc_audit_run(&t, &o, &a), 0);
    assert_located(&p, &a, CC_REF_EXACT, CC_Q_GRADIENT);
    assert_located(&p, &a, CC_REF_FD_TRUE, CC_Q_GRADIENT);
    CU_ASSERT_TRUE(cc_audit_find(&a, CC_REF_EXACT, CC_Q_HESSIAN)->pass);
    /* a wrong gradient breaks translation invariance, and the Taylor order of r1 drops to 1 */
    CU_ASSERT_FALSE(cc_audit_find(&a, CC_REF_EXACT, CC_Q_TRANSLATION)->pass);
    const cc_audit_row *ty = cc_audit_find(&a, CC_REF_FD_TRUE, CC_Q_TAYLOR);
    CU_ASSERT(fabs(ty->taylor.order[1] - 1) < 0.3);
    CU_ASSERT_FALSE(ty->pass);
}

static void test_transposed_hessian_block(void)
{
    static cc_audit a;
    planted p = {need("shear", "normalized"), HESS_TRANSPOSE, 0, 1};
    cc_target t = planted_target(&p);
    cc_audit_opts o = small_opts(SAMPLES);
    CU_ASSERT_EQUAL_FATAL(cc_audit_run(&t, &o, &a), 0);
    assert_located(&p, &a, CC_REF_EXACT, CC_Q_HESSIAN);
    assert_located(&p, &a, CC_REF_FD_TRUE, CC_Q_HESSIAN);
    CU_ASSERT_FALSE(cc_audit_find(&a, CC_REF_EXACT, CC_Q_SYMMETRY)->pass);
}

/* a skew error E = -E^T: p^T E p = 0 for every direction p, so the Taylor test cannot see
 * it; the entrywise rows and the symmetry row do */
static void test_skew_hessian_error(void)
{
    static cc_audit a;
    planted p = {need("bend", "bridson"), HESS_SKEW, 1, 3};
    cc_target t = planted_target(&p);
    cc_audit_opts o = small_opts(SAMPLES);
    CU_ASSERT_EQUAL_FATAL(cc_audit_run(&t, &o, &a), 0);
    assert_located(&p, &a, CC_REF_EXACT, CC_Q_HESSIAN);
    assert_located(&p, &a, CC_REF_FD_TRUE, CC_Q_HESSIAN);
    CU_ASSERT_FALSE(cc_audit_find(&a, CC_REF_EXACT, CC_Q_SYMMETRY)->pass);
    const cc_audit_row *ty = cc_audit_find(&a, CC_REF_FD_TRUE, CC_Q_TAYLOR);
    CU_ASSERT(ty->taylor.order[2] > 2.7);
    CU_ASSERT_TRUE(ty->pass);
}

static void test_dropped_chain_rule_term(void)
{
    static cc_audit a;
    planted p = {need("stretch", "bw98"), DROP_PROJECTOR, -1, -1};
    cc_target t = planted_target(&p);
    cc_audit_opts o = small_opts(SAMPLES);
    CU_ASSERT_EQUAL_FATAL(cc_audit_run(&t, &o, &a), 0);
    assert_located(&p, &a, CC_REF_EXACT, CC_Q_HESSIAN);
    assert_located(&p, &a, CC_REF_FD_TRUE, CC_Q_HESSIAN);
    /* the dropped term alpha/|w| (sum_m dw_m p_m . w^)^2 is invisible to the rigid modes (sum_m
     * dw_m = 0 and w^ . (e_a x w) = 0) but not to the Taylor remainder r2 */
    CU_ASSERT_TRUE(cc_audit_find(&a, CC_REF_EXACT, CC_Q_RIGID)->pass);
    CU_ASSERT(cc_audit_find(&a, CC_REF_FD_TRUE, CC_Q_TAYLOR)->taylor.order[2] < 2.3);
}

static void test_wrong_sign_in_bend_block(void)
{
    static cc_audit a;
    planted p = {need("bend", "pritchard-exact"), HESS_SIGN, 0, 1};
    cc_target t = planted_target(&p);
    cc_audit_opts o = small_opts(SAMPLES);
    CU_ASSERT_EQUAL_FATAL(cc_audit_run(&t, &o, &a), 0);
    assert_located(&p, &a, CC_REF_EXACT, CC_Q_HESSIAN);
    assert_located(&p, &a, CC_REF_FD_TRUE, CC_Q_HESSIAN);
}

/* the constant-magnitude gradient drops d|e|/dx: its error against C itself sits on the edge
 * vertices x1, x2 (001 (42) without the projector), and it holds against fd-frozen */
static void test_frozen_variant_located_on_the_edge(void)
{
    static cc_audit a;
    cc_target t = cc_target_from_condition(need("bend", "pritchard"));
    cc_audit_opts o = small_opts(SAMPLES);
    CU_ASSERT_EQUAL_FATAL(cc_audit_run(&t, &o, &a), 0);
    CU_ASSERT_FALSE(cc_audit_failed(&a));
    const cc_audit_row *w = cc_audit_find(&a, CC_REF_EXACT, CC_Q_GRADIENT);
    CU_ASSERT_FALSE(w->pass);
    CU_ASSERT_FALSE(w->gates);
    CU_ASSERT(w->worst.i / 3 == 1 || w->worst.i / 3 == 2);
    CU_ASSERT_TRUE(cc_audit_find(&a, CC_REF_FD_FROZEN, CC_Q_GRADIENT)->pass);
    CU_ASSERT_TRUE(cc_audit_find(&a, CC_REF_EXACT_FROZEN, CC_Q_HESSIAN)->pass);
}

/* the first n random cases of a condition */
static void first_cases(int nv, int n, cc_case *c)
{
    for (int i = 0; i < n; i++) CU_ASSERT_EQUAL_FATAL(cc_case_make(nv, SEED, i, NULL, &c[i]), 0);
}

static void test_sweep_slopes(void)
{
    cc_case c[3];
    cc_sweep s;
    cc_target t = cc_target_from_condition(need("stretch", "bw98"));
    first_cases(3, 3, c);
    static const struct { cc_fdq q; cc_scheme s; double slope; } want[] = {
        {CC_FDQ_GRADIENT, CC_FD_FORWARD, 1}, {CC_FDQ_GRADIENT, CC_FD_CENTRAL, 2},
        {CC_FDQ_GRADIENT, CC_FD_CENTRAL4, 4}, {CC_FDQ_HESS_VALUE, CC_FD_CENTRAL, 2},
        {CC_FDQ_HESS_VALUE, CC_FD_CENTRAL4, 4}, {CC_FDQ_HESS_GRADIENT, CC_FD_CENTRAL, 2},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        cc_sweep_run(&t, c, 3, want[i].q, want[i].s, 0, &s);
        if (fabs(s.slope - want[i].slope) >= 0.3)
            printf("\n  %s %s: slope %.2f\n", cc_fdq_name(want[i].q), cc_scheme_name(want[i].s), s.slope);
        CU_ASSERT(fabs(s.slope - want[i].slope) < 0.3);
        CU_ASSERT_EQUAL(s.verdict, CC_VERDICT_AGREES);
    }
    cc_sweep_run(&t, c, 3, CC_FDQ_GRADIENT, CC_FD_RIDDERS, 0, &s);
    CU_ASSERT(s.err[s.best] < 1e-11);
}

static void test_sweep_verdict_on_wrong_gradient(void)
{
    cc_case c[3];
    cc_sweep s;
    planted p = {need("stretch", "bw98"), GRAD_HALF, 1, -1};
    cc_target t = planted_target(&p);
    first_cases(3, 3, c);
    for (int sc = CC_FD_FORWARD; sc <= CC_FD_CENTRAL4; sc++) {
        cc_sweep_run(&t, c, 3, CC_FDQ_GRADIENT, (cc_scheme)sc, 0, &s);
        CU_ASSERT_EQUAL(s.verdict, CC_VERDICT_WRONG);
        CU_ASSERT(s.plateau > 1e-3);
    }
    /* a correct gradient seen through a too-coarse scheme is noisy, not wrong */
    cc_sweep q = {0};
    q.q = CC_FDQ_GRADIENT, q.scheme = CC_FD_CENTRAL;
    for (int k = 0; k < CC_SWEEP_STEPS; k++) {
        q.h[k] = pow(10.0, -0.5 * (k + 2));
        q.err[k] = q.h[k] * q.h[k] + 1e-9 / q.h[k];   /* a V whose bottom is above the floor */
    }
    cc_sweep_analyse(&q);
    CU_ASSERT_EQUAL(q.verdict, CC_VERDICT_NOISY);
    CU_ASSERT(fabs(q.slope - 2) < 0.2);
}

static void test_taylor_orders(void)
{
    cc_case c[8];
    cc_taylor ty;
    cc_target t = cc_target_from_condition(need("stretch", "bw98"));
    first_cases(3, 8, c);
    cc_taylor_run(&t, c, 8, SEED, 0, &ty);
    for (int q = 0; q < 3; q++) CU_ASSERT(fabs(ty.order[q] - (q + 1)) < 0.3);
    CU_ASSERT_TRUE(cc_taylor_pass(&ty));
    planted p = {need("stretch", "bw98"), GRAD_HALF, 0, -1};
    cc_target bad = planted_target(&p);
    cc_taylor_run(&bad, c, 8, SEED, 0, &ty);
    CU_ASSERT(fabs(ty.order[1] - 1) < 0.3);
    CU_ASSERT_FALSE(cc_taylor_pass(&ty));
}

/* a target with plain-double callbacks only, as a Lua condition would be */
static int plain_value(void *ctx, const double *x, const double *xf, const cc_rest *r, double *C)
{
    if (xf) return -1;
    cc_condition_value(ctx, x, NULL, r, C);
    return 0;
}

static int plain_eval(void *ctx, const double *x, const cc_rest *r, int want, cc_eval *out)
{
    const cc_condition *c = ctx;
    return c->eval(x, r, want, out);
}

static void test_target_without_hyper_duals(void)
{
    static cc_audit a;
    const cc_condition *c = need("spring", "linear");
    cc_target t = {.condition = "spring", .variant = "plain", .source = "", .nv = 2, .ncomp = 1,
                   .claim = CC_CLAIM_EXACT, .frozen = 0, .ctx = (void *)c, .eval = plain_eval,
                   .value = plain_value, .value_hd = NULL};
    cc_audit_opts o = small_opts(50);
    CU_ASSERT_EQUAL_FATAL(cc_audit_run(&t, &o, &a), 0);
    CU_ASSERT_FALSE(cc_audit_failed(&a));
    const cc_audit_row *ex = cc_audit_find(&a, CC_REF_EXACT, CC_Q_GRADIENT);
    CU_ASSERT_FALSE(ex->available);
    CU_ASSERT_FALSE(ex->pass);
    CU_ASSERT_FALSE(ex->gates);
    CU_ASSERT_PTR_NOT_NULL(strstr(ex->note, "unavailable"));
    CU_ASSERT_FALSE(cc_audit_find(&a, CC_REF_FD_FROZEN, CC_Q_GRADIENT)->available);
    CU_ASSERT_TRUE(cc_audit_find(&a, CC_REF_FD_TRUE, CC_Q_GRADIENT)->pass);
    CU_ASSERT_TRUE(cc_audit_find(&a, CC_REF_FD_TRUE, CC_Q_HESSIAN)->pass);
    CU_ASSERT_TRUE(cc_audit_find(&a, CC_REF_FD_TRUE, CC_Q_ROTATION)->pass);
}

static void test_case_replays(void)
{
    static cc_audit a, one;
    planted p = {need("shear", "normalized"), HESS_SIGN, 0, 2};
    cc_target t = planted_target(&p);
    cc_audit_opts o = small_opts(SAMPLES);
    CU_ASSERT_EQUAL_FATAL(cc_audit_run(&t, &o, &a), 0);
    const cc_audit_row *w = cc_audit_find(&a, CC_REF_EXACT, CC_Q_HESSIAN);
    o.only_case = 1;
    o.case_id = w->worst_case;
    CU_ASSERT_EQUAL_FATAL(cc_audit_run(&t, &o, &one), 0);
    const cc_audit_row *v = cc_audit_find(&one, CC_REF_EXACT, CC_Q_HESSIAN);
    CU_ASSERT_EQUAL(one.ncases, 1);
    CU_ASSERT_DOUBLE_EQUAL(v->max_rel, w->max_rel, 0);
    CU_ASSERT_EQUAL(v->worst.i, w->worst.i);
    CU_ASSERT_EQUAL(v->worst.j, w->worst.j);
    char label[48];
    int id;
    for (int e = 0; e < cc_edge_count(4); e++) {
        cc_case_label(4, -e - 1, label, sizeof label);
        CU_ASSERT_EQUAL(cc_case_parse(4, label, &id), 0);
        CU_ASSERT_EQUAL(id, -e - 1);
    }
    CU_ASSERT_EQUAL(cc_case_parse(4, "#17", &id), 0);
    CU_ASSERT_EQUAL(id, 17);
    CU_ASSERT_EQUAL(cc_case_parse(4, "e99", &id), -1);
    CU_ASSERT_EQUAL(cc_case_parse(4, "x3", &id), -1);
}

/* n occurrences of needle in s */
static int count(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

static void test_json_rows(void)
{
    static cc_audit a;
    static char buf[1 << 20];
    cc_target t = cc_target_from_condition(need("bend", "pritchard"));
    cc_audit_opts o = small_opts(20);
    CU_ASSERT_EQUAL_FATAL(cc_audit_run(&t, &o, &a), 0);
    FILE *f = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    cc_report_json(f, &a, 1);
    rewind(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    /* one object: the verdict, the options, the rows */
    CU_ASSERT(!strncmp(buf, "{\"verdict\": \"pass\", \"options\": {\"samples\": 20, \"seed\": ", 48));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"area_power\": 1, \"precision\": 0}, \"rows\": [\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "]}\n"));
    static const char *const keys[] = {"\"condition\": \"bend\"", "\"variant\": \"pritchard\"",
                                       "\"reference\": \"", "\"quantity\": ", "\"max_rel_error\": ",
                                       "\"pass\": ", "\"worst\": {", "\"case\": "};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) CU_ASSERT_EQUAL(count(buf, keys[k]), a.nrows);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"reference\": \"exact\", \"quantity\": \"gradient\", \"max_rel_error\": "));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"worst\": {\"k\": 0, \"m\": "));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"reference\": \"fd-frozen\", \"quantity\": \"hessian\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"quantity\": \"symmetry\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"orders\": ["));
}

static void test_cli(void)
{
    static char out[1 << 18], err[4096];
    char dir[] = "/tmp/cc_audit_testXXXXXX", args[512], path[600];
    struct stat sb;
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    snprintf(args, sizeof args, "audit spring --samples 30 --json %s/a.json", dir);
    CU_ASSERT_EQUAL(cc_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "spring linear"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "holds its claim"));
    snprintf(path, sizeof path, "%s/a.json", dir);
    CU_ASSERT_EQUAL(stat(path, &sb), 0);
    CU_ASSERT_EQUAL(cc_test_run_cli("audit --help", out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "fd-frozen"));
    CU_ASSERT_EQUAL(cc_test_run_cli("audit bend --variant macri --samples 30 --json -", out, sizeof out, err,
                                    sizeof err), 0);
    CU_ASSERT(!strncmp(out, "{\"verdict\": ", 12));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"claim\": \"none\""));
    /* bad input: one line on stderr, exit 2, and no output file */
    static const char *const bad[] = {
        "audit nosuch", "audit bend --variant nosuch", "audit --variant nosuch", "audit spring --variant macri",
        "audit spring --samples 0", "audit spring --samples x", "audit spring --reference nosuch",
        "audit spring --seed -1", "audit spring --case e99", "audit spring --bogus", "audit spring extra",
        "audit --case e6", "audit spring --plots /dev/null", "audit spring --samples 100001",
        "audit stretch --area-power 1e300",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(args, sizeof args, "%s --json %s/bad.json", bad[i], dir);
        CU_ASSERT_EQUAL(cc_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
        CU_ASSERT_EQUAL(cc_test_count_lines(err), 1);
        snprintf(path, sizeof path, "%s/bad.json", dir);
        CU_ASSERT_NOT_EQUAL(stat(path, &sb), 0);
    }
    snprintf(args, sizeof args, "rm -rf '%s'", dir);
    CU_ASSERT_EQUAL(system(args), 0);
}

/* The table says what it audited: N random elements + the edge cases, or the one case of
 * --case, whose diagnoses then speak of that element alone; a sweep without a fitted slope
 * (Ridders', a plateau) shows '-', not nan. */
static void test_table_counts(void)
{
    static char out[1 << 18], err[4096];
    CU_ASSERT_EQUAL(cc_test_run_cli("audit stretch --samples 100", out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "(100 random elements + 5 edge cases, seed 1, alpha = a^1)"));
    CU_ASSERT_PTR_NULL(strstr(out, "nan"));
    const char *r = strstr(out, " ridders ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "      -   "));
    CU_ASSERT_EQUAL(cc_test_run_cli("audit bend --variant macri --case e3", out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "(the one element e3:theta=-pi/4, seed 1)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "^ "));              /* still diagnosed */
    CU_ASSERT_PTR_NULL(strstr(out, "failing elements"));    /* of that element, not of 16 others */
    CU_ASSERT_PTR_NULL(strstr(out, "nan"));
    CU_ASSERT_PTR_NULL(strstr(out, "1 elements"));
}

/* Macri's exact reference at a flat hinge is not finite (acos' derivative is infinite at 1):
 * its rows count the element as undefined, say why, print no nan and no finding of their own. */
static void test_reference_not_finite(void)
{
    static char out[1 << 16], err[4096], js[1 << 18];
    CU_ASSERT_EQUAL(cc_test_run_cli("audit bend --variant macri --case e0", out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_PTR_NULL(strstr(out, "nan"));
    const char *ex = strstr(out, "  exact        gradient ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(ex);
    const char *eol = strchr(ex, '\n');
    CU_ASSERT_PTR_NOT_NULL_FATAL(eol);
    const char *why = strstr(ex, "[undefined at 1 element, the reference not finite there]");
    CU_ASSERT_TRUE(why && why < eol);
    const char *nc = strstr(ex, "no element compared");
    CU_ASSERT_TRUE(nc && nc < eol);
    CU_ASSERT_NOT_EQUAL(strncmp(eol + 1, "      ^", 7), 0);   /* no finding under it */
    CU_ASSERT_EQUAL(cc_test_run_cli("audit bend --variant macri --case e0 --json -", js, sizeof js, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(js, "\"reference_nonfinite\": 1"));
    const char *row = strstr(js, "\"reference\": \"exact\", \"quantity\": \"gradient\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(row);
    CU_ASSERT_EQUAL(strncmp(strstr(row, "\"max_rel_error\": "), "\"max_rel_error\": null", 21), 0);
}

/* clothcheck demo ends with what to see in its table: which variants are exact, which only
 * frozen-magnitude, which neither, worked out from the numbers. */
static void test_demo_summary(void)
{
    static char out[1 << 14], err[4096];
    CU_ASSERT_EQUAL_FATAL(cc_test_run_cli("demo", out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "Exact derivatives (round-off against the exact reference): stretch/bw98,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "bend/pritchard, off the true ones by up to"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "Neither: bend/macri, off both by"));
    const char *e = strstr(out, "Exact derivatives"), *f = strstr(out, "Frozen-magnitude derivatives");
    CU_ASSERT_FATAL(e && f && f > e);
    char exact[1024];   /* the exact list alone */
    snprintf(exact, sizeof exact, "%.*s", (int)(f - e), e);
    CU_ASSERT_PTR_NULL(strstr(exact, "macri"));
    CU_ASSERT_PTR_NULL(strstr(exact, "pritchard,"));
}

/* plots: .dat and .gp always; PNGs when gnuplot is on PATH, and a note when it is not */
static void test_plots(void)
{
    static char out[1 << 18], err[4096];
    char dir[] = "/tmp/cc_audit_plotXXXXXX", args[512], path[600];
    struct stat sb;
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    snprintf(args, sizeof args, "audit bend --variant bridson --samples 10 --plots %s/p", dir);
    CU_ASSERT_EQUAL(cc_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
    static const char *const files[] = {"vcurve_bend_bridson.dat", "vcurve_bend_bridson.gp",
                                        "bend_angle.dat", "bend_angle.gp"};
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/p/%s", dir, files[i]);
        CU_ASSERT_EQUAL(stat(path, &sb), 0);
    }
    snprintf(path, sizeof path, "%s/p/bend_angle.png", dir);
    int have_png = stat(path, &sb) == 0 && sb.st_size > 0;
    CU_ASSERT_EQUAL(have_png, cc_gp_terminal() != NULL);
    /* PATH without gnuplot (the CLI itself runs from its absolute path) */
    const char *old = getenv("PATH");
    char *saved = strdup(old ? old : "/usr/bin:/bin");
    CU_ASSERT_PTR_NOT_NULL_FATAL(saved);
    snprintf(args, sizeof args, "audit spring --samples 10 --plots %s/q", dir);
    setenv("PATH", "/nonexistent", 1);
    CU_ASSERT_EQUAL(cc_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
    setenv("PATH", saved, 1);
    free(saved);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "gnuplot"));
    snprintf(path, sizeof path, "%s/q/vcurve_spring_linear.gp", dir);
    CU_ASSERT_EQUAL(stat(path, &sb), 0);
    snprintf(path, sizeof path, "%s/q/vcurve_spring_linear.png", dir);
    CU_ASSERT_NOT_EQUAL(stat(path, &sb), 0);
    snprintf(args, sizeof args, "rm -rf '%s'", dir);
    CU_ASSERT_EQUAL(system(args), 0);
}

/* clothcheck bench --audit: one timed run of the full matrix, its JSON keys, bad --repeat */
static void test_bench_audit(void)
{
    static char out[4096], err[4096];
    CU_ASSERT_EQUAL(cc_test_run_cli("bench --audit --repeat 1 --json", out, sizeof out, err, sizeof err), 0);
    static const char *const keys[] = {"\"audit_runs\": 1", "\"variants\": ", "\"samples\": 1000",
                                       "\"audit_s_median\": ", "\"audit_s_min\": ", "\"audit_s_max\": "};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) CU_ASSERT_PTR_NOT_NULL(strstr(out, keys[k]));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, cc_gp_terminal() ? "\"plots\": true" : "\"plots\": false"));
    double s = -1;
    const char *m = strstr(out, "\"audit_s_median\": ");
    if (m) s = atof(m + strlen("\"audit_s_median\": "));
    CU_ASSERT(s > 0);
    CU_ASSERT_EQUAL(cc_test_run_cli("bench --audit --repeat 0", out, sizeof out, err, sizeof err), 2);
    CU_ASSERT_EQUAL(cc_test_count_lines(err), 1);
}

static const cc_test_case tests[] = {
    {"correct variants hold their claims", test_correct_variants_hold_their_claims},
    {"wrong sign in a Hessian block", test_wrong_sign_in_hessian_block},
    {"missing factor 2 in a gradient", test_missing_factor_two_in_gradient},
    {"transposed Hessian block", test_transposed_hessian_block},
    {"skew Hessian error (Taylor-blind)", test_skew_hessian_error},
    {"dropped chain-rule term", test_dropped_chain_rule_term},
    {"wrong sign in a bend Hessian block", test_wrong_sign_in_bend_block},
    {"frozen variant: error on the edge vertices", test_frozen_variant_located_on_the_edge},
    {"sweep slopes 1, 2, 4", test_sweep_slopes},
    {"sweep verdict: wrong vs noisy", test_sweep_verdict_on_wrong_gradient},
    {"Taylor orders 1, 2, 3 and a wrong gradient", test_taylor_orders},
    {"target without hyper-dual code", test_target_without_hyper_duals},
    {"cases replay from their id", test_case_replays},
    {"JSON rows and keys", test_json_rows},
    {"command line", test_cli},
    {"plots with and without gnuplot", test_plots},
    {"bench --audit", test_bench_audit},
    {"table: elements counted, one case, no nan", test_table_counts},
    {"a reference not finite: undefined, with its reason", test_reference_not_finite},
    {"demo: what to see", test_demo_summary},
    {NULL, NULL},
};

int main(void) { return cc_test_main("audit", tests); }
