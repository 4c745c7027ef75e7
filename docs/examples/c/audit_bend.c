/* Audit a student's Bridson bending force (bend_force.c) with the installed clothcheck
 * library: is it Bridson's force with stiffness k, and is its Jacobian its derivative?
 *
 *   audit_bend [--mistake sign|missing-term|relabelled|forgot-k|nan-flat] [--k K] [--samples N]
 *
 * Prints clothcheck's table (a line starting '^' under a failing row names the kind of
 * mistake) and exits 0 when the force holds its claim, 1 when it does not, 2 on bad usage.
 * Level: you have written a force and its Jacobian and want a test that says which is wrong.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <clothcheck/clothcheck.h>
#include "bend_force.h"

/* clothcheck's force callback: F at x, for the hinge's rest angle */
static int force_cb(void *user, const double *x, const clothcheck_rest *rest, double *F)
{
    bend_params p = *(const bend_params *)user;
    p.theta0 = rest->theta0;
    return bend_force(&p, x, F, NULL);
}

/* clothcheck's Jacobian callback: dFdx[12 i + j] = dF_i/dx_j */
static int jacobian_cb(void *user, const double *x, const clothcheck_rest *rest, double *dFdx)
{
    bend_params p = *(const bend_params *)user;
    double F[12];
    p.theta0 = rest->theta0;
    return bend_force(&p, x, F, dFdx);
}

/* the usage line on stderr; exit status 2 */
static int usage(const char *why)
{
    fprintf(stderr, "audit_bend: %s\nusage: audit_bend [--mistake sign|missing-term|relabelled|forgot-k|nan-flat] "
                    "[--k K] [--samples N]\n", why);
    return 2;
}

int main(int argc, char **argv)
{
    bend_params p = {.k = 2.5, .theta0 = 0, .mistake = BEND_RIGHT};
    /* 300 random hinges and the edge cases: a run of about 0.01 s. (Bridson's force jumps at the
     * fold theta = +-pi; an element whose differences cross the jump has no derivative there,
     * and the audit counts it undefined.) */
    clothcheck_options opts = {.samples = 300, .seed = 1, .claims = "bridson-force"};
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc) return usage("every option takes a value");
        const char *name = argv[i], *value = argv[++i];
        if (!strcmp(name, "--mistake")) {
            int m = bend_mistake_parse(value);
            if (m < 0) return usage("unknown mistake");
            p.mistake = (bend_mistake)m;
        } else if (!strcmp(name, "--k")) {
            p.k = atof(value);
        } else if (!strcmp(name, "--samples")) {
            opts.samples = atoi(value);
        } else {
            return usage("unknown option");
        }
    }
    opts.k = p.k;
    clothcheck_model model = {.name = "student-bend", .nv = 4, .user = &p, .force = force_cb, .jacobian = jacobian_cb};
    clothcheck_result *r = clothcheck_audit(&model, &opts);
    if (!r) return usage(clothcheck_error());
    clothcheck_print(stdout, r);
    int verdict = clothcheck_verdict(r);
    printf("audit_bend: %s\n", verdict == 0 ? "the force is Bridson's and its Jacobian is its derivative"
                                            : "the force fails its claim (rows marked FAIL above)");
    clothcheck_free(r);
    return verdict == 0 ? 0 : 1;
}
