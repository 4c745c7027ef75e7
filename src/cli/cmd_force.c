/* clothcheck force: Bridson et al.'s bending force on one hinge, and its Jacobian
 * (src/conditions/bridson_force.h). */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "conditions/bridson_force.h"
#include "io/json.h"

/* the --help text */
static void force_usage(FILE *f)
{
    fputs("usage: clothcheck force --x \"x0 y0 z0; x1 y1 z1; x2 y2 z2; x3 y3 z3\" [--rest THETA0]\n"
          "                        [--k K] [--json]\n"
          "\n"
          "Bridson et al.'s bending force on one hinge (004, 002):\n"
          "  F_i = k |e|^2/(|nA| + |nB|) (sin(theta/2) - sin(theta0/2)) u_i\n"
          "and its Jacobian dF/dx. Pritchard's labels: shared edge x1-x2, x0 in triangle A,\n"
          "x3 in triangle B; theta = atan2((nA^ x nB^).e^, nA^.nB^).\n"
          "\n"
          "  --x \"...\"      the four vertices, 'x y z' each, separated by ';'\n"
          "  --rest THETA0  rest angle in radians, in [-pi, pi] (default 0)\n"
          "  --k K          stiffness, positive (default 1)\n"
          "  --json         print {\"model\": \"bridson\", \"force\": [12], \"jacobian\": [12 x 12]}\n"
          "                 with force[3i+r] on vertex i, axis r and jacobian[3i+r][3m+s] =\n"
          "                 dF_{i,r}/dx_{m,s}\n"
          "\n"
          "Exit status: 0 success, 2 bad input (one line on stderr).\n", f);
}

/* {"model": "bridson", "force": [12], "jacobian": [12 x 12]} with %.17g numbers */
static void print_json(const double F[12], double J[12][12])
{
    printf("{\"model\": \"bridson\", \"force\": ");
    cc_json_array(stdout, F, 12);
    printf(", \"jacobian\": [");
    for (int i = 0; i < 12; i++) {
        if (i) printf(", ");
        cc_json_array(stdout, J[i], 12);
    }
    printf("]}\n");
}

/* the force per vertex and the Jacobian as a table */
static void print_text(const double F[12], double J[12][12])
{
    printf("Bridson bending force (004)\nF_m          x                  y                  z\n");
    for (int m = 0; m < 4; m++)
        printf("  vertex %d  %18.10e %18.10e %18.10e\n", m, F[3 * m], F[3 * m + 1], F[3 * m + 2]);
    printf("dF/dx (rows F_0x F_0y ... F_3z, columns x0 y0 z0 x1 ...)\n");
    for (int i = 0; i < 12; i++) {
        printf(" ");
        for (int j = 0; j < 12; j++) printf(" %11.4e", J[i][j]);
        printf("\n");
    }
}

/* clothcheck force: parse, evaluate, print; exit 0, or 2 on bad input */
int cc_cmd_force(int argc, char **argv)
{
    static const cc_optspec specs[] = {{"x", 1}, {"rest", 1}, {"k", 1}, {"json", 0}, {"help", 0}, {NULL, 0}};
    cc_optparser p = {argc, argv, 1, specs, "force"};
    const char *xs = NULL;
    double rest = 0.0, k = 1.0;
    int json = 0, r;
    cc_opt o;
    while ((r = cc_opt_next(&p, &o)) > 0) {
        double *target = NULL;
        if (!o.name) return cc_cli_error("force", "unexpected argument '%s'", o.value);
        if (!strcmp(o.name, "help")) {
            force_usage(stdout);
            return CC_EXIT_OK;
        }
        if (!strcmp(o.name, "json")) json = 1;
        else if (!strcmp(o.name, "x")) xs = o.value;
        else if (!strcmp(o.name, "rest")) target = &rest;
        else if (!strcmp(o.name, "k")) target = &k;
        if (target && cc_parse_double(o.value, target) < 0)
            return cc_cli_error("force", "--%s: '%s' is not a finite number", o.name, o.value);
    }
    if (r < 0) return CC_EXIT_USAGE;
    if (!xs) return cc_cli_error("force", "--x is required: 4 vertices, \"x y z\" each, separated by ';'");
    if (!(k > 0)) return cc_cli_error("force", "--k must be a positive stiffness (got %g)", k);

    char err[CC_ERRLEN];
    double x[3 * 5], F[12], J[12][12];
    int nx = cc_parse_points(xs, 3, x, 5, err);
    if (nx < 0) return cc_cli_error("force", "--x: %s", err);
    if (nx != 4) return cc_cli_error("force", "--x: a hinge needs 4 vertices, got %d", nx);
    cc_rest rd;
    if (cc_rest_hinge(&rd, rest, err) < 0) return cc_cli_error("force", "--rest: %s", err);
    if (cc_positions_in_range(x, 4, err) < 0) return cc_cli_error("force", "--x: %s", err);
    if (cc_bridson_force(x, &rd, k, F, J) < 0)
        return cc_cli_error("force", "the force is undefined at these positions (a zero-length edge or zero-area triangle)");
    for (int i = 0; i < 12; i++)
        for (int j = 0; j <= 12; j++)
            if (!isfinite(j < 12 ? J[i][j] : F[i]))
                return cc_cli_error("force", "the force overflows at these positions (an entry is not a finite number; is --k huge?)");
    if (json) print_json(F, J);
    else print_text(F, J);
    return CC_EXIT_OK;
}
