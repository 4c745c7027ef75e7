/* clothcheck eval: one condition on one element, value, gradient and Hessian.
 * The JSON form is a contract other tools rely on (docs/design.md "The eval contract"). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "conditions/condition.h"
#include "io/json.h"

static void eval_usage(FILE *f)
{
    fputs("usage: clothcheck eval CONDITION [--variant V] [--area-power P] [--bu B] [--bv B]\n"
          "                       [--rest R | --x-rest \"...\"] --x \"x0 y0 z0; x1 y1 z1; ...\" [--uv \"u0 v0; ...\"]\n"
          "                       [--json]\n"
          "\n"
          "Evaluate one condition on one element: its value C, gradient dC/dx and Hessian.\n"
          "Vertices follow Pritchard's labels: a triangle is x0 x1 x2, a hinge x0..x3 with the\n"
          "shared edge x1-x2, a spring x0 x1.\n"
          "\n"
          "  --variant V      formulation (default: the first listed below)\n"
          "  --x \"...\"        world positions, one 'x y z' per vertex, separated by ';' (the\n"
          "                   numbers of a point may also be separated by commas: '0,0,0; 1,0,0');\n"
          "                   coordinates up to 1e30 in magnitude, vertices at least 1e-30 apart\n"
          "  --uv \"...\"       rest (u,v) per vertex (triangles; for a spring, sets L instead of --rest)\n"
          "  --area-power P   alpha = a^P for stretch/shear (1 Baraff & Witkin, 0.75 001, 0.5 003)\n"
          "  --bu B, --bv B   stretch/shear: rest stretch in u and v, positive (default 1)\n"
          "  --rest R         bend rest angle theta0 in [-pi, pi] (default 0) or spring rest\n"
          "                   length L >= 0\n"
          "  --x-rest \"...\"   bend: the rest hinge, 4 points as --x; theta0 is its angle, and\n"
          "                   discrete-shells and quadratic (which require it) take their weights\n"
          "                   from it\n"
          "  --json           print {\"condition\", \"variant\", \"value\", \"gradient\", \"hessian\"}\n"
          "                   with gradient ncomp x 3nv and hessian ncomp x 3nv x 3nv\n"
          "An option that does not apply to the condition's element (--rest for stretch, --uv\n"
          "for bend, --area-power for a spring, ...) is refused, as is a value that makes no sense.\n"
          "\n"
          "Conditions and variants:\n", f);
    for (int i = 0; i < cc_condition_count(); i++) {
        const cc_condition *c = cc_condition_at(i);
        fprintf(f, "  %-8s %-16s %d vertices  %s  [%s]\n", c->condition, c->variant, c->nv,
                c->source, cc_claim_name(c->claim));
    }
    fputs("\nExit status: 0 success, 2 bad input (one line on stderr).\n", f);
}

static void print_json(const cc_condition *c, const cc_eval *e)
{
    int n = e->ndof;
    printf("{\"condition\": ");
    cc_json_string(stdout, c->condition);
    printf(", \"variant\": ");
    cc_json_string(stdout, c->variant);
    printf(", \"value\": ");
    cc_json_array(stdout, e->C, e->ncomp);
    printf(", \"gradient\": [");
    for (int k = 0; k < e->ncomp; k++) {
        if (k) printf(", ");
        cc_json_array(stdout, e->dC[k], n);
    }
    printf("], \"hessian\": [");
    for (int k = 0; k < e->ncomp; k++) {
        printf(k ? ", [" : "[");
        for (int i = 0; i < n; i++) {
            if (i) printf(", ");
            cc_json_array(stdout, e->d2C[k][i], n);
        }
        printf("]");
    }
    printf("]}\n");
}

/* v, with -0 printed as 0 */
static double nz(double v)
{
    return v == 0 ? 0.0 : v;
}

static void print_text(const cc_condition *c, const cc_eval *e)
{
    int n = e->ndof;
    printf("%s/%s  %s  (derivatives: %s)\n", c->condition, c->variant, c->source, cc_claim_name(c->claim));
    for (int k = 0; k < e->ncomp; k++) {
        printf("\nC[%d] = %.17g\n", k, nz(e->C[k]));
        printf("dC[%d]/dx_m     x                  y                  z\n", k);
        for (int m = 0; m < n / 3; m++)
            printf("  vertex %d  %18.10e %18.10e %18.10e\n", m, nz(e->dC[k][3 * m]), nz(e->dC[k][3 * m + 1]),
                   nz(e->dC[k][3 * m + 2]));
        printf("d2C[%d]/dx dx (rows and columns x0 y0 z0 x1 ...)\n", k);
        for (int i = 0; i < n; i++) {
            printf(" ");
            for (int j = 0; j < n; j++) printf(" %11.4e", nz(e->d2C[k][i][j]));
            printf("\n");
        }
    }
}

int cc_cmd_eval(int argc, char **argv)
{
    static const cc_optspec specs[] = {
        {"variant", 1}, {"area-power", 1}, {"bu", 1}, {"bv", 1}, {"rest", 1}, {"x-rest", 1},
        {"x", 1}, {"uv", 1}, {"json", 0}, {"help", 0}, {NULL, 0}};
    cc_optparser p = {argc, argv, 1, specs, "eval"};
    const char *cname = NULL, *variant = NULL;
    cc_element_opts el = cc_element_defaults();
    int json = 0, r, k;
    cc_opt o;
    while ((r = cc_opt_next(&p, &o)) > 0) {
        if ((k = cc_element_option("eval", &o, &el)) < 0) return CC_EXIT_USAGE;
        if (k > 0) continue;
        if (!o.name) {
            if (cname) return cc_cli_error("eval", "unexpected argument '%s'", o.value);
            cname = o.value;
        } else if (!strcmp(o.name, "help")) {
            eval_usage(stdout);
            return CC_EXIT_OK;
        } else if (!strcmp(o.name, "json")) json = 1;
        else if (!strcmp(o.name, "variant")) variant = o.value;
    }
    if (r < 0) return CC_EXIT_USAGE;
    if (!cname) return cc_cli_error("eval", "no condition given (see clothcheck eval --help)");
    if (!cc_condition_known(cname))
        return cc_cli_error("eval", "unknown condition '%s' (stretch, shear, bend, spring)", cname);
    const cc_condition *c = cc_condition_find(cname, variant);
    if (!c) return cc_cli_error("eval", "unknown variant '%s' of %s (see clothcheck eval --help)", variant, cname);
    if (!el.x) return cc_cli_error("eval", "--x is required: %d vertices, \"x y z\" each, separated by ';'", c->nv);

    double x[CC_MAX_DOF];
    cc_rest rd;
    cc_eval e;
    int rc = cc_element_build("eval", c, &el, x, &rd, &e);
    if (rc) return rc;
    if (json) print_json(c, &e);
    else print_text(c, &e);
    return CC_EXIT_OK;
}
