/* A unit test of the student's bending force, written the way a Ceres user tests a cost
 * function with GradientChecker: probe, assert the verdict, print the log on failure.
 *
 *   EXPECT_TRUE(checker.Probe(parameters, kRelativePrecision, &results)) << results.error_log;
 *
 * becomes
 *
 *   EXPECT(clothcheck_verdict(r) == 0, r);   -- on failure, every failing row and its findings
 *
 * `test_bend_force` tests the force as written and exits 0 when every test passes, 1 when one
 * fails. `test_bend_force --mistake sign` (or any mistake of bend_force.h) plants a mistake,
 * to see what a failing test prints.
 */
#include <stdio.h>
#include <string.h>
#include <clothcheck/clothcheck.h>
#include "bend_force.h"

static int failures;

/* every failing row of r with its findings, as a test log */
static void print_log(const clothcheck_result *r)
{
    for (int i = 0; i < clothcheck_row_count(r); i++) {
        const clothcheck_row *w = clothcheck_row_at(r, i);
        if (w->status != CLOTHCHECK_FAIL || !w->gates) continue;
        fprintf(stderr, "    %s %s: max rel error %.3g (%s)\n", clothcheck_reference_name(w->reference),
                clothcheck_quantity_name(w->quantity), w->max_rel_error, w->worst);
        for (int f = 0; f < w->nfindings; f++)
            fprintf(stderr, "      %s: %s\n", clothcheck_kind_name(w->findings[f].kind), w->findings[f].text);
    }
}

/* the check, failing with the log of audit r */
#define EXPECT(cond, r)                                                             \
    do {                                                                            \
        if (!(cond)) {                                                              \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);     \
            if (r) print_log(r);                                                    \
            failures++;                                                             \
        }                                                                           \
    } while (0)

static int force_cb(void *user, const double *x, const clothcheck_rest *rest, double *F)
{
    bend_params p = *(const bend_params *)user;
    p.theta0 = rest->theta0;
    return bend_force(&p, x, F, NULL);
}

static int jacobian_cb(void *user, const double *x, const clothcheck_rest *rest, double *dFdx)
{
    bend_params p = *(const bend_params *)user;
    double F[12];
    p.theta0 = rest->theta0;
    return bend_force(&p, x, F, dFdx);
}

/* the audit of force p against Bridson's force of the same stiffness */
static clothcheck_result *audit(bend_params *p)
{
    clothcheck_model m = {.name = "bend-force", .nv = 4, .user = p, .force = force_cb, .jacobian = jacobian_cb};
    clothcheck_options o = {.samples = 300, .seed = 1, .claims = "bridson-force", .k = p->k};   /* as audit_bend.c */
    clothcheck_result *r = clothcheck_audit(&m, &o);
    if (!r) fprintf(stderr, "%s\n", clothcheck_error());
    return r;
}

/* 1 if row (reference, quantity) of r has a finding of this kind */
static int has_finding(const clothcheck_result *r, clothcheck_reference reference, clothcheck_quantity quantity,
                       clothcheck_kind kind)
{
    for (int i = 0; i < clothcheck_row_count(r); i++) {
        const clothcheck_row *w = clothcheck_row_at(r, i);
        if (w->reference != reference || w->quantity != quantity) continue;
        for (int f = 0; f < w->nfindings; f++)
            if (w->findings[f].kind == kind) return 1;
    }
    return 0;
}

/* the force and its Jacobian are Bridson's */
static void test_force_is_bridsons(bend_mistake mistake)
{
    bend_params p = {.k = 2.5, .mistake = mistake};
    clothcheck_result *r = audit(&p);
    EXPECT(r != NULL, r);
    EXPECT(clothcheck_verdict(r) == 0, r);
    clothcheck_free(r);
}

/* the checker is awake: a flipped sign fails, diagnosed as a sign */
static void test_flipped_sign_is_caught(void)
{
    bend_params p = {.k = 2.5, .mistake = BEND_SIGN};
    clothcheck_result *r = audit(&p);
    EXPECT(r != NULL, r);
    EXPECT(clothcheck_verdict(r) == 1, r);
    EXPECT(has_finding(r, CLOTHCHECK_REF_CLAIM, CLOTHCHECK_Q_GRADIENT, CLOTHCHECK_KIND_SIGN), r);
    clothcheck_free(r);
}

int main(int argc, char **argv)
{
    int mistake = BEND_RIGHT;
    if (argc == 3 && !strcmp(argv[1], "--mistake")) mistake = bend_mistake_parse(argv[2]);
    if (mistake < 0 || (argc != 1 && argc != 3)) {
        fprintf(stderr, "usage: test_bend_force [--mistake sign|missing-term|relabelled|forgot-k|nan-flat]\n");
        return 2;
    }
    test_force_is_bridsons((bend_mistake)mistake);
    test_flipped_sign_is_caught();
    printf("test_bend_force: %s\n", failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
