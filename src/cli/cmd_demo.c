/* clothcheck demo: the main job as it stands — every registered condition variant checked
 * against the exact (hyper-dual) derivative of its own value and of its frozen-magnitude
 * value, and against central differences, over seeded random elements. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "checks/reference.h"
#include "checks/sample.h"
#include "cli/cli.h"

/* worst normwise relative error of the analytic gradient and Hessian over `samples` elements */
typedef struct demo_row {
    double grad_exact, hess_exact;     /* vs hyper-dual derivatives of C */
    double grad_frozen, hess_frozen;   /* vs hyper-dual derivatives with frozen magnitudes */
    double grad_fd;                    /* vs central differences of C, h = 1e-6 */
} demo_row;

/* text on lines of at most 88 columns, the continuation lines indented by 2 */
static void print_wrapped(const char *text)
{
    for (int indent = 0; *text; indent = 2) {
        int room = 88 - indent, cut = (int)strlen(text);
        if (cut > room) {
            cut = room;
            while (cut > 0 && text[cut] != ' ') cut--;
            if (cut == 0) cut = room;
        }
        printf("%*s%.*s\n", indent, "", cut, text);
        text += cut;
        while (*text == ' ') text++;
    }
}

#define ROUNDOFF 1e-12   /* a worst relative error at or below: agreement to round-off */

static double worse(double a, double b) { return (isnan(a) || isnan(b)) ? NAN : fmax(a, b); }

static int demo_variant(const cc_condition *c, int samples, demo_row *row)
{
    static double ref[CC_MAX_COMP][CC_MAX_DOF], refh[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF];
    memset(row, 0, sizeof *row);
    for (int s = 0; s < samples; s++) {
        double x[CC_MAX_DOF];
        cc_rest r;
        cc_eval e;
        if (cc_sample_element(c->nv, 1, (uint64_t)s, NULL, x, &r) < 0) return -1;
        if (c->eval(x, &r, CC_WANT_ALL, &e) < 0) continue;
        int n = 3 * c->nv;
        cc_ref_exact_gradient(c, x, NULL, &r, ref);
        row->grad_exact = worse(row->grad_exact, cc_compare_gradient(e.dC, ref, c->ncomp, n).rel);
        cc_ref_exact_hessian(c, x, NULL, &r, refh);
        row->hess_exact = worse(row->hess_exact, cc_compare_hessian(e.d2C, refh, c->ncomp, n).rel);
        cc_ref_exact_gradient(c, x, x, &r, ref);
        row->grad_frozen = worse(row->grad_frozen, cc_compare_gradient(e.dC, ref, c->ncomp, n).rel);
        cc_ref_exact_hessian(c, x, x, &r, refh);
        row->hess_frozen = worse(row->hess_frozen, cc_compare_hessian(e.d2C, refh, c->ncomp, n).rel);
        cc_ref_fd_gradient(c, x, NULL, &r, 1e-6, ref);
        row->grad_fd = worse(row->grad_fd, cc_compare_gradient(e.dC, ref, c->ncomp, n).rel);
    }
    return 0;
}

int cc_cmd_demo(int argc, char **argv)
{
    int samples = 200;
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        puts("usage: clothcheck demo\n\n"
             "Check every condition variant's analytic gradient and Hessian against the exact\n"
             "derivatives of its own value code (hyper-dual numbers), against the exact\n"
             "derivatives with vector magnitudes frozen (001 Section 4), and against central\n"
             "differences, on 200 seeded random elements each. Prints the worst normwise\n"
             "relative error per cell.");
        return CC_EXIT_OK;
    }
    if (argc > 1) return cc_cli_error("demo", "unexpected argument '%s'", argv[1]);
    char exact[512] = "", frozen[256] = "", neither[256] = "";   /* the variants by what they agree with */
    double frozen_off = 0, neither_off = 0;
    printf("Worst normwise relative error of each variant's derivatives over %d random elements\n\n", samples);
    printf("%-8s %-16s %-17s | %-21s | %-21s | %-9s\n", "", "", "", "exact reference", "frozen-magnitude", "central");
    printf("%-8s %-16s %-17s | %-9s  %-9s  | %-9s  %-9s  | %-9s\n", "cond", "variant", "claims",
           "gradient", "Hessian", "gradient", "Hessian", "gradient");
    for (int i = 0; i < cc_condition_count(); i++) {
        const cc_condition *c = cc_condition_at(i);
        demo_row row;
        if (demo_variant(c, samples, &row) < 0) continue;
        printf("%-8s %-16s %-17s | %9.2e  %9.2e  | %9.2e  %9.2e  | %9.2e\n", c->condition, c->variant,
               cc_claim_name(c->claim), row.grad_exact, row.hess_exact, row.grad_frozen,
               row.hess_frozen, row.grad_fd);
        double e = worse(row.grad_exact, row.hess_exact), fz = worse(row.grad_frozen, row.hess_frozen);
        char *list = e <= ROUNDOFF ? exact : fz <= ROUNDOFF ? frozen : neither;
        size_t cap = list == exact ? sizeof exact : list == frozen ? sizeof frozen : sizeof neither;
        snprintf(list + strlen(list), cap - strlen(list), "%s%s/%s", list[0] ? ", " : "", c->condition, c->variant);
        if (list == frozen) frozen_off = fmax(frozen_off, e);
        if (list == neither) neither_off = fmax(neither_off, fmin(e, fz));
    }
    printf("\nRound-off is ~1e-15; a variant's claim holds where its column is at round-off. Central\n"
           "differences agree only to ~1e-10: that is their own truncation and round-off, not an error.\n");
    /* what to see, from the numbers above */
    char text[1024];
    putchar('\n');
    if (exact[0]) {
        snprintf(text, sizeof text, "Exact derivatives (round-off against the exact reference): %s.", exact);
        print_wrapped(text);
    }
    if (frozen[0]) {
        snprintf(text, sizeof text, "Frozen-magnitude derivatives (round-off only with lengths held constant, 001 "
                 "Section 4): %s, off the true ones by up to %.0f %%: an approximation, as claimed.", frozen,
                 100 * frozen_off);
        print_wrapped(text);
    }
    if (neither[0]) {
        snprintf(text, sizeof text, "Neither: %s, off both by %.0f %% and more: wrong formulas. clothcheck derive "
                 "shows the step where each goes wrong; clothcheck run lua/scenarios/bend_compare.lua what a wrong "
                 "bend does to a cloth.", neither, 100 * neither_off);
        print_wrapped(text);
    }
    return CC_EXIT_OK;
}
