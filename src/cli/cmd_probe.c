/* clothcheck probe: why a backward Euler step fails, measured (sim/model/probe.h).
 *
 * Runs a scene step by step and prints, before each step, the smallest eigenvalue of the
 * step's matrix A = M - h df/dv - h^2 df/dx on the free DOFs in units of the smallest vertex
 * mass: as assembled, without the C d2C part of stretch, of shear and of bend (gauss-newton),
 * and with stretch clamped; after each step the energies, the fastest vertex, PSD retries and
 * MPCG iterations. With --copies it runs perturbed copies of one state instead and reports
 * how many blow up.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "mesh/mesh.h"
#include "sim/model/probe.h"
#include "sim/sim.h"

#define PROBE_MAXPARAM 16

static const char *const probe_help =
    "usage: clothcheck probe [--scene hang|table] [--grid N] [--h H] [--steps S] [--bend V]\n"
    "                        [--param NAME=VALUE]... [--every K]\n"
    "       clothcheck probe ... --copies C [--jitter E] [--from K]\n\n"
    "Look inside the backward Euler step. Before every K-th step it prints the smallest\n"
    "eigenvalue of the step's matrix A = M - h df/dv - h^2 df/dx on the free degrees of\n"
    "freedom, over the smallest vertex mass: as the step assembles it, then with the C d2C\n"
    "part of stretch, of shear and of bend left out (gauss-newton), and with stretch clamped.\n"
    "A negative value means A is indefinite there (the step then retries with each element\n"
    "projected to PSD). After each step: the fastest vertex, the stretch, shear, bend and\n"
    "kinetic energies, PSD retries so far and MPCG iterations.\n\n"
    "Scenes: hang (default): the bench scene (clothcheck bench), a 1 m cloth of N x N vertices\n"
    "hanging from two corners, 001 Table 1, MPCG tolerance 1e-2; table: 003's tablecloth, N x N\n"
    "vertices, side 1.6 m, 2 cm above a round table of radius 0.5 m, 003 Table 3.1 with\n"
    "k_bend 1e-3.\n\n"
    "  --scene S         hang or table (default hang)\n"
    "  --grid N          vertices per side, 3..200 (default 17)\n"
    "  --h H             time step in seconds, > 0 (default 0.02)\n"
    "  --steps S         steps, 1..100000 (default 10)\n"
    "  --bend V          bend variant (default pritchard), or bridson-force\n"
    "  --param N=V       any simulator parameter by name (repeatable), e.g. k_bend=1e-3,\n"
    "                    stretch_hessian=clamp\n"
    "  --every K         the eigenvalue line before every K-th step (default 1; 0: none)\n"
    "  --copies C        instead: run the scene --from K steps (default 0), then C copies of\n"
    "                    that state with every z moved by up to --jitter E (default 1e-6 m;\n"
    "                    a fixed seed) for --steps steps each; print how many blew up\n\n"
    "Exit status: 0 (a blow-up is a result), 2 bad input (one line on stderr).";

typedef struct probe_opts {
    int table, grid, steps, every, copies, from;
    double h, jitter;
    const char *bend;
    const char *param[PROBE_MAXPARAM];
    int nparam;
} probe_opts;

/* 0, 1 for --help, or -1 after an error message */
static int parse(int argc, char **argv, probe_opts *o)
{
    static const cc_optspec specs[] = {{"scene", 1}, {"grid", 1}, {"h", 1},      {"steps", 1},  {"bend", 1},
                                       {"param", 1}, {"every", 1}, {"copies", 1}, {"jitter", 1}, {"from", 1},
                                       {"help", 0},  {NULL, 0}};
    cc_optparser p = {argc, argv, 1, specs, "probe"};
    cc_opt opt;
    int r;
    while ((r = cc_opt_next(&p, &opt)) > 0) {
        const char *n = opt.name, *v = opt.value;
        if (!n) return cc_cli_error("probe", "unexpected argument '%s'", v), -1;
        if (!strcmp(n, "help")) return 1;
        if (!strcmp(n, "scene")) {
            if (strcmp(v, "hang") && strcmp(v, "table")) return cc_cli_error("probe", "--scene: hang or table (got '%s')", v), -1;
            o->table = !strcmp(v, "table");
        } else if (!strcmp(n, "grid") && cc_int_option("probe", n, v, 3, 200, &o->grid) < 0) return -1;
        else if (!strcmp(n, "steps") && cc_int_option("probe", n, v, 1, 100000, &o->steps) < 0) return -1;
        else if (!strcmp(n, "every") && cc_int_option("probe", n, v, 0, 100000, &o->every) < 0) return -1;
        else if (!strcmp(n, "copies") && cc_int_option("probe", n, v, 1, 100000, &o->copies) < 0) return -1;
        else if (!strcmp(n, "from") && cc_int_option("probe", n, v, 0, 100000, &o->from) < 0) return -1;
        else if (!strcmp(n, "h") && (cc_parse_double(v, &o->h) < 0 || !(o->h > 0) || o->h > 1))
            return cc_cli_error("probe", "--h needs a number in (0, 1] (got '%s')", v), -1;
        else if (!strcmp(n, "jitter") && (cc_parse_double(v, &o->jitter) < 0 || o->jitter < 0 || o->jitter > 1))
            return cc_cli_error("probe", "--jitter needs a number in [0, 1] (got '%s')", v), -1;
        else if (!strcmp(n, "bend")) o->bend = v;
        else if (!strcmp(n, "param")) {
            if (o->nparam == PROBE_MAXPARAM) return cc_cli_error("probe", "at most %d --param options", PROBE_MAXPARAM), -1;
            o->param[o->nparam++] = v;
        }
    }
    return r < 0 ? -1 : 0;
}

/* the scene's simulation; NULL after an error message */
static cc_sim *scene(const probe_opts *o)
{
    char err[CC_ERRLEN];
    cc_sim_params p;
    int n = o->grid;
    double side = o->table ? 1.6 : 1.0;
    cc_mesh *m = cc_mesh_grid(n, n, side, side, 0, err);
    if (!m) return cc_cli_error("probe", "%s", err), NULL;
    if (o->table) {
        for (int i = 0; i < m->nv; i++) m->x[3 * i] -= 0.8, m->x[3 * i + 1] -= 0.8, m->x[3 * i + 2] = 0.02;
        cc_sim_preset("thesis-table3.1", &p, err);
        p.k_bend = 1e-3;
    } else {
        cc_sim_preset("pritchard-table1", &p, err);
        p.cg_tol = 1e-2;
    }
    p.h = o->h;
    int force = !strcmp(o->bend, "bridson-force");
    int bad = cc_sim_param_set(&p, force ? "bend_condition" : "bend_variant", o->bend, err) < 0;
    for (int k = 0; !bad && k < o->nparam; k++) {
        char name[64];
        const char *eq = strchr(o->param[k], '=');
        if (!eq || eq == o->param[k] || (size_t)(eq - o->param[k]) >= sizeof name) {
            cc_mesh_free(m);
            return cc_cli_error("probe", "--param needs NAME=VALUE (got '%s')", o->param[k]), NULL;
        }
        snprintf(name, sizeof name, "%.*s", (int)(eq - o->param[k]), o->param[k]);
        bad = cc_sim_param_set(&p, name, eq + 1, err) < 0;
    }
    cc_sim *s = bad ? NULL : cc_sim_new(m, &p, err);
    if (s && o->table && cc_sim_add_table(s, 0, 0, 0, -1, 0.5, err) < 0) cc_sim_free(s), s = NULL;
    if (s && !o->table && (cc_sim_pin(s, n * (n - 1), NULL, err) < 0 || cc_sim_pin(s, n * n - 1, NULL, err) < 0))
        cc_sim_free(s), s = NULL;
    cc_mesh_free(m);
    if (!s) cc_cli_error("probe", "%s", err);
    return s;
}

/* the eigenvalue line before step k; 0, or -1 after an error message */
static int eig_line(cc_sim *s, int k)
{
    static const char *const terms[] = {NULL, "stretch", "shear", "bend", "stretch"};
    static const cc_hessian_mode modes[] = {CC_HESSIAN_FULL, CC_HESSIAN_GAUSS_NEWTON, CC_HESSIAN_GAUSS_NEWTON,
                                            CC_HESSIAN_GAUSS_NEWTON, CC_HESSIAN_CLAMP};
    int force = !strcmp(cc_sim_get_params(s)->bend_condition, "bridson-force");
    printf("before step %4d: lambda_min(A)/m_min", k);
    for (int q = 0; q < 5; q++) {
        double l, mmin;
        char err[CC_ERRLEN];
        if (q == 3 && force) {
            printf(" %10s", "-");
            continue;
        }
        if (cc_sim_lambda_min(s, terms[q], modes[q], &l, &mmin, err) < 0) return cc_cli_error("probe", "%s", err), -1;
        printf(" %10.3g", l / mmin);
    }
    printf("\n");
    return 0;
}

/* fastest vertex speed */
static double vmax(const cc_sim *s)
{
    const double *v = cc_sim_velocities(s);
    double w = 0;
    for (int i = 0; i < cc_sim_vertex_count(s); i++)
        w = fmax(w, sqrt(v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] + v[3 * i + 2] * v[3 * i + 2]));
    return w;
}

static int trace(const probe_opts *o)
{
    cc_sim *s = scene(o);
    if (!s) return CC_EXIT_USAGE;
    printf("columns of lambda_min(A)/m_min: as assembled | no stretch C d2C | no shear C d2C | no bend C d2C | "
           "stretch clamp\n");
    printf("step columns: step, vmax (m/s), E_stretch, E_shear, E_bend, E_kinetic (J), PSD retries, MPCG iterations\n");
    int rc = CC_EXIT_OK;
    for (int k = 1; k <= o->steps; k++) {
        if (o->every && (k - 1) % o->every == 0 && eig_line(s, k) < 0) {
            rc = CC_EXIT_USAGE;
            break;
        }
        int bad = cc_sim_step(s) < 0;
        cc_sim_energy e;
        cc_sim_stats st;
        cc_sim_energies(s, &e);
        cc_sim_get_stats(s, &st);
        printf("step %4d: %9.3g %10.4g %10.4g %10.4g %10.4g %4ld %4d\n", k, vmax(s), e.stretch, e.shear, e.bend,
               e.kinetic, st.psd_retries, st.last_cg_iterations);
        if (bad) {
            printf("step %d failed: %s\n", k, cc_sim_error(s));
            break;
        }
    }
    cc_sim_free(s);
    return rc;
}

/* uniform in [-1, 1) (xorshift, fixed seed) */
static double rnd(unsigned long long *r)
{
    *r ^= *r << 13;
    *r ^= *r >> 7;
    *r ^= *r << 17;
    return (double)(*r >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static int ensemble(const probe_opts *o)
{
    cc_sim *base = scene(o);
    if (!base) return CC_EXIT_USAGE;
    for (int k = 0; k < o->from; k++)
        if (cc_sim_step(base) < 0) {
            printf("the base run failed at step %d: %s\n", k + 1, cc_sim_error(base));
            cc_sim_free(base);
            return CC_EXIT_OK;
        }
    int n3 = 3 * cc_sim_vertex_count(base), failed = 0;
    double *x = malloc((size_t)n3 * sizeof *x);
    int *at = malloc((size_t)o->copies * sizeof *at);   /* the step each failed copy blew up at */
    unsigned long long r = 0x9E3779B97F4A7C15ULL;
    if (!x || !at) {
        free(x), free(at);
        cc_sim_free(base);
        return cc_cli_error("probe", "out of memory");
    }
    for (int c = 0; c < o->copies; c++) {
        cc_sim *s = scene(o);
        if (!s) break;
        memcpy(x, cc_sim_positions(base), (size_t)n3 * sizeof *x);
        for (int i = 2; i < n3; i += 3) x[i] += o->jitter * rnd(&r);
        cc_sim_set_state(s, x, cc_sim_velocities(base));
        int k = 0;
        while (k < o->steps && cc_sim_step(s) == 0) k++;
        if (k < o->steps) at[failed++] = o->from + k + 1;
        cc_sim_free(s);
    }
    printf("%d of %d copies blew up in steps %d..%d\n", failed, o->copies, o->from + 1, o->from + o->steps);
    if (failed) {
        printf("blew up at step:");
        for (int c = 0; c < failed; c++) printf(" %d", at[c]);
        printf("\n");
    }
    free(x), free(at);
    cc_sim_free(base);
    return CC_EXIT_OK;
}

int cc_cmd_probe(int argc, char **argv)
{
    probe_opts o = {0, 17, 10, 1, 0, 0, 0.02, 1e-6, "pritchard", {NULL}, 0};
    int r = parse(argc, argv, &o);
    if (r > 0) {
        puts(probe_help);
        return CC_EXIT_OK;
    }
    if (r < 0) return CC_EXIT_USAGE;
    return o.copies ? ensemble(&o) : trace(&o);
}
