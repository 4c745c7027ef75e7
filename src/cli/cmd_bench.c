/* clothcheck bench: the standard scene, or bend_compare's cantilever strip, timed.
 *
 * The standard scene: a 1 m square cloth of N x N vertices, flat in the xy-plane, gravity
 * along -z, the two corners of the edge y = 1 pinned; 001 Table 1 parameters (k_stretch 5000,
 * k_shear 500, k_bend 1e-5, damping 0.2 x each, density 0.1, g 9.81), area power 0.75,
 * bend/pritchard, MPCG relative tolerance 1e-2 (multigrid preconditioner unless --precond),
 * backward Euler with fixed steps h = 0.02.
 * The strip (--scene strip): lua/scenarios/scene.lua's scene.strip, the bending-dominated
 * cantilever of bend_compare: 0.5 m x 0.1 m of NX x NY patches of the same cloth with k_bend
 * 0.02 (d_bend 0.2 k_bend), flat, its first two columns of vertices pinned, h = 0.01, 150
 * steps (bend_compare's 1.5 s).
 * The hanging cloth (--scene hanging): scale_invariance.lua's, 001's 1 m square started hanging
 * straight down from the two pinned corners of its top edge, Table 1 with the area power P and
 * stretch and shear stiffness and damping rescaled by a0^(1.5 - 2P), a0 the triangle area of
 * an 11 x 11-patch grid (so every P gives the same motion there), h = 0.01, 20 steps (0.2 s).
 * The drape (--scene drape): drape.lua's tablecloth, 003 Table 3.1 (alpha = a^0.5, air drag),
 * a 1.6 m square 2 cm above a round table of radius 0.5 m, h = 0.005, 240 steps (1.2 s). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "io/files.h"
#include "io/json.h"
#include "mesh/mesh.h"
#include "sim/sim.h"

static const char *const bench_help =
    "usage: clothcheck bench [--grid N] [--steps S] [--h H] [--bend VARIANT] [--precond P]\n"
    "                        [--scene standard|strip|hanging|drape] [--strip NXxNY]\n"
    "                        [--k-bend K] [--d-bend D] [--area-power P] [--seconds T]\n"
    "                        [--psd-project] [--stretch-hessian M] [--shear-hessian M]\n"
    "                        [--bend-hessian M] [--no-kernels] [--threads T] [--csv FILE]\n"
    "                        [--json]\n"
    "       clothcheck bench --audit [--repeat R] [--json]\n\n"
    "Time the simulator on the standard scene: a 1 m square cloth of N x N vertices (default\n"
    "66) starting flat in the xy-plane, gravity along -z, the two corners of one edge pinned,\n"
    "Pritchard's Table 1 parameters (001: k_stretch 5000, k_shear 500, k_bend 1e-5, damping\n"
    "0.2 x each, density 0.1, g 9.81), area power 0.75, bend/pritchard, MPCG relative\n"
    "tolerance 1e-2 with the aggregation multigrid preconditioner, backward Euler with S fixed\n"
    "steps (default 100) of H (default 0.02).\n\n"
    "With --scene strip, bend_compare's cantilever instead (lua/scenarios/scene.lua,\n"
    "scene.strip): a strip 0.5 m x 0.1 m of NX x NY patches (default 30x6) of the same cloth\n"
    "with k_bend 0.02 and d_bend 0.2 k_bend, flat, its first two columns of vertices pinned,\n"
    "S steps (default 150) of H (default 0.01): the bending-dominated regime.\n\n"
    "With --scene hanging, scale_invariance.lua's hanging cloth: the 1 m square of N x N\n"
    "vertices (default 89) started hanging straight down from the two corners of its top edge,\n"
    "Table 1 with the area weight alpha = a^P (--area-power, default 0.75) and the stretch and\n"
    "shear stiffness and damping times a0^(1.5 - 2P), a0 the triangles' area on an 11 x 11-patch\n"
    "grid, so every P moves alike there; 20 steps of 0.01 (its first 0.2 s): tension.\n"
    "With --scene drape, drape.lua's tablecloth: 003 Table 3.1 (alpha = sqrt(a), air drag), a\n"
    "1.6 m square of N x N vertices (default 67) 2 cm above a round table of radius 0.5 m,\n"
    "240 steps of 0.005 (1.2 s): contact.\n\n"
    "Prints the vertex count, the median wall time per step, MPCG iterations per step (mean),\n"
    "the median assembly and solve times per step, and whether the run stayed finite. A run\n"
    "that blows up stops at that step, says where, and exits 1.\n\n";

/* its options (a second string: ISO C promises literals of 4095 characters only) */
static const char *const bench_help_options =
    "  --grid N        vertices per side, 2..500 (default 66)\n"
    "  --scene S       standard (default), strip, hanging or drape\n"
    "  --strip NXxNY   the strip's patches along and across it, 1..1000 each (default\n"
    "                  30x6); implies --scene strip\n"
    "  --k-bend K      bending stiffness k_bend > 0, d_bend 0.2 K (default 1e-5 on the\n"
    "                  standard scene, 0.02 on the strip)\n"
    "  --d-bend D      bending damping d_bend >= 0 (default 0.2 k_bend; 0: none)\n"
    "  --area-power P  the hanging cloth's alpha = a^P, in (0, 2] (default 0.75)\n"
    "  --steps S       number of steps, 1..1000000 (default 100; strip 150)\n"
    "  --seconds T     simulated time instead: the steps of H that make T (at least one;\n"
    "                  --seconds 0.3 --h 0.01 is 30 steps, a scene's first 0.3 s)\n"
    "  --h H           time step in seconds, > 0 (default 0.02; strip 0.01)\n"
    "  --bend VARIANT  bend variant from the registry (default pritchard), or bridson-force\n"
    "                  for Bridson's bending force model (bend_condition, see sim.h)\n"
    "  --precond P     jacobi, block-jacobi, ascher-boxerman, block-ic0, multigrid (default) or\n"
    "                  auto (the blocks while their solves take at most 20 iterations a\n"
    "                  step on average and fewer than 60 in any one, then the multigrid)\n"
    "  --psd-project   project each element stiffness to positive semi-definite\n"
    "  --stretch-hessian M, --shear-hessian M, --bend-hessian M\n"
    "                  how that term's k C d2C enters the system matrix (sim.h,\n"
    "                  cc_hessian_mode): full (default), clamp (left out where the element\n"
    "                  pushes outwards: the exact PSD projection for stretch), gauss-newton\n"
    "                  (left out) or project (eigen-decomposition per element of that term)\n"
    "  --no-kernels    assemble every term element by element through the condition\n"
    "                  contract (the reference of the structured kernels, sim.h kernels)\n"
    "  --threads T     threads of the assembly and the multigrid preconditioner, 0..%d\n"
    "                  (default 0: one per CPU; sim.h threads); the motion is the same\n"
    "                  with any number\n"
    "  --csv FILE      also write one row per step to FILE (CSV: step, ms, assembly_ms,\n"
    "                  solve_ms, cg_iterations, psd_retries), the steps done if the run\n"
    "                  blows up\n"
    "  --json          one JSON object on stdout (keys: grid, vertices, steps, ms_per_step,\n"
    "                  cg_iterations_per_step, assembly_ms, solve_ms, finite, stretch_hessian,\n"
    "                  shear_hessian, bend_hessian, kernels, threads, scene, k_bend, d_bend,\n"
    "                  area_power; the strip\n"
    "                  also strip_nx, strip_ny)\n\n"
    "  --audit         instead of the scene, time the full audit matrix: R runs (--repeat,\n"
    "                  default 5) of what `clothcheck audit --plots DIR` does with its defaults\n"
    "                  (the table to /dev/null, the plots to a temporary directory); prints the\n"
    "                  median, fastest and slowest run (JSON keys: audit_runs, variants,\n"
    "                  samples, plots, audit_s_median, audit_s_min, audit_s_max)\n"
    "  --repeat R      runs for --audit, 1..100 (default 5)";


/* the terms with a --TERM-hessian option, in the order of bench_opts.hessian */
static const char *const hessian_terms[3] = {"stretch", "shear", "bend"};
static const char *const hessian_opts[3] = {"stretch-hessian", "shear-hessian", "bend-hessian"};

/* the scenes, as --scene names them */
enum { SCENE_STANDARD, SCENE_STRIP, SCENE_HANGING, SCENE_DRAPE, SCENE_COUNT };
static const char *const scene_names[SCENE_COUNT] = {"standard", "strip", "hanging", "drape"};

typedef struct bench_opts {
    int grid;              /* vertices per side (standard, hanging, drape); 0 until set */
    int scene;             /* SCENE_* */
    int strip;             /* 1: the strip (--scene strip) */
    int nx, ny;            /* the strip's patches along and across */
    int steps;             /* steps to run; 0 until set: the scene's default */
    int json;              /* 1: JSON output */
    int psd;               /* 1: PSD projection */
    double h;              /* time step; 0 until set: the scene's default */
    double k_bend;         /* k_bend; 0 until set: the scene's default */
    double d_bend;         /* d_bend; negative until set: 0.2 k_bend */
    double seconds;        /* --seconds: simulated time (steps = T / h), 0 if not given */
    double area_power;     /* the hanging cloth's P; 0 until set: 0.75 */
    const char *bend;      /* bend variant */
    const char *precond;   /* preconditioner name */
    const char *hessian[3]; /* --stretch-hessian, --shear-hessian, --bend-hessian */
    int audit;             /* 1: time the audit matrix instead */
    int kernels;           /* 0: --no-kernels */
    int repeat;            /* audit runs */
    int threads;           /* the multigrid's threads (0: one per CPU) */
    const char *csv;       /* --csv: the per-step CSV, or NULL */
} bench_opts;

/* 0, 1 for --help, or -1 after an error message */
static int parse(int argc, char **argv, bench_opts *o)
{
    static const cc_optspec specs[] = {{"grid", 1}, {"steps", 1}, {"h", 1}, {"json", 0}, {"bend", 1},
                                       {"precond", 1}, {"psd-project", 0}, {"help", 0}, {"audit", 0},
                                       {"repeat", 1}, {"stretch-hessian", 1}, {"shear-hessian", 1},
                                       {"bend-hessian", 1}, {"no-kernels", 0}, {"threads", 1}, {"csv", 1},
                                       {"scene", 1}, {"strip", 1}, {"k-bend", 1}, {"d-bend", 1},
                                       {"seconds", 1}, {"area-power", 1}, {NULL, 0}};
    cc_optparser p = {argc, argv, 1, specs, "bench"};
    cc_opt opt;
    int r;
    while ((r = cc_opt_next(&p, &opt)) > 0) {
        if (!opt.name) return cc_cli_error("bench", "unexpected argument '%s'", opt.value), -1;
        if (!strcmp(opt.name, "help")) return 1;
        if (!strcmp(opt.name, "grid") && cc_int_option("bench", "grid", opt.value, 2, 500, &o->grid) < 0) return -1;
        if (!strcmp(opt.name, "steps") && cc_int_option("bench", "steps", opt.value, 1, 1000000, &o->steps) < 0) return -1;
        if (!strcmp(opt.name, "h") && (cc_parse_double(opt.value, &o->h) < 0 || !(o->h > 0)))
            return cc_cli_error("bench", "--h needs a number > 0 (got '%s')", opt.value), -1;
        if (!strcmp(opt.name, "scene")) {
            int k = 0;
            while (k < SCENE_COUNT && strcmp(opt.value, scene_names[k])) k++;
            if (k == SCENE_COUNT)
                return cc_cli_error("bench", "--scene must be standard, strip, hanging or drape (got '%s')", opt.value), -1;
            o->scene = k;
        }
        if (!strcmp(opt.name, "area-power") &&
            (cc_parse_double(opt.value, &o->area_power) < 0 || !(o->area_power > 0 && o->area_power <= 2)))
            return cc_cli_error("bench", "--area-power needs a number in (0, 2] (got '%s')", opt.value), -1;
        if (!strcmp(opt.name, "strip")) {
            char tail;
            if (sscanf(opt.value, "%dx%d%c", &o->nx, &o->ny, &tail) != 2 || o->nx < 1 || o->nx > 1000 || o->ny < 1 ||
                o->ny > 1000)
                return cc_cli_error("bench", "--strip needs NXxNY with 1..1000 each (got '%s')", opt.value), -1;
            o->scene = SCENE_STRIP;
        }
        if (!strcmp(opt.name, "k-bend") && (cc_parse_double(opt.value, &o->k_bend) < 0 || !(o->k_bend > 0)))
            return cc_cli_error("bench", "--k-bend needs a number > 0 (got '%s')", opt.value), -1;
        if (!strcmp(opt.name, "d-bend") && (cc_parse_double(opt.value, &o->d_bend) < 0 || !(o->d_bend >= 0)))
            return cc_cli_error("bench", "--d-bend needs a number >= 0 (got '%s')", opt.value), -1;
        if (!strcmp(opt.name, "seconds") && (cc_parse_double(opt.value, &o->seconds) < 0 || !(o->seconds > 0) ||
                                             o->seconds > 1e4))
            return cc_cli_error("bench", "--seconds needs a simulated time in (0, 10000] (got '%s')", opt.value), -1;
        if (!strcmp(opt.name, "json")) o->json = 1;
        if (!strcmp(opt.name, "psd-project")) o->psd = 1;
        if (!strcmp(opt.name, "audit")) o->audit = 1;
        if (!strcmp(opt.name, "no-kernels")) o->kernels = 0;
        if (!strcmp(opt.name, "threads") && cc_int_option("bench", "threads", opt.value, 0, CC_SIM_MAX_THREADS, &o->threads) < 0)
            return -1;
        if (!strcmp(opt.name, "repeat") && cc_int_option("bench", "repeat", opt.value, 1, 100, &o->repeat) < 0) return -1;
        if (!strcmp(opt.name, "bend")) o->bend = opt.value;
        if (!strcmp(opt.name, "precond")) o->precond = opt.value;
        if (!strcmp(opt.name, "csv")) o->csv = opt.value;
        for (int k = 0; k < 3; k++)
            if (!strcmp(opt.name, hessian_opts[k])) o->hessian[k] = opt.value;
    }
    if (r < 0) return -1;
    if (strcmp(o->bend, CC_SIM_BEND_FORCE) && !cc_condition_find("bend", o->bend)) {
        char list[256] = "";
        for (int i = 0; i < cc_condition_count(); i++)
            if (!strcmp(cc_condition_at(i)->condition, "bend"))
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s, ", cc_condition_at(i)->variant);
        return cc_cli_error("bench", "--bend: unknown variant '%s' (%s" CC_SIM_BEND_FORCE ")", o->bend, list), -1;
    }
    return 0;
}

/* the scene's mesh: its grid, placed as the scene starts; NULL after an error message */
static cc_mesh *scene_mesh(const bench_opts *o)
{
    char err[CC_ERRLEN];
    int strip = o->scene == SCENE_STRIP, nu = strip ? o->nx + 1 : o->grid, nv = strip ? o->ny + 1 : o->grid;
    double side = o->scene == SCENE_DRAPE ? 1.6 : 1.0;
    cc_mesh *m = cc_mesh_grid(nu, nv, strip ? 0.5 : side, strip ? 0.1 : side, 0, err);
    if (!m) return cc_cli_error("bench", "%s", err), NULL;
    if (o->scene != SCENE_HANGING && o->scene != SCENE_DRAPE) return m;   /* flat where the grid made it */
    for (int k = 0; k < m->nv; k++) {   /* centred on the z axis */
        double *x = &m->x[3 * k], cx = x[0] - side / 2, cy = x[1] - side / 2;
        if (o->scene == SCENE_DRAPE) x[0] = cx, x[1] = cy, x[2] = 0.02;   /* 2 cm above the table top */
        else x[0] = cx, x[1] = 0, x[2] = -(cy + 0.5);   /* hanging straight down from the row y = 0 */
    }
    return m;
}

/* p = the scene's parameters under o; 0, or -1 with err */
static int scene_params(const bench_opts *o, cc_sim_params *p, char *err)
{
    char hbuf[64], psd[8];
    snprintf(hbuf, sizeof hbuf, "%.17g", o->h);
    snprintf(psd, sizeof psd, "%d", o->psd);
    if (cc_sim_preset(o->scene == SCENE_DRAPE ? "thesis-table3.1" : "pritchard-table1", p, err) < 0 ||
        cc_sim_param_set(p, "h", hbuf, err) < 0 ||
        cc_sim_param_set(p, strcmp(o->bend, CC_SIM_BEND_FORCE) ? "bend_variant" : "bend_condition", o->bend, err) < 0 ||
        cc_sim_param_set(p, "psd_project", psd, err) < 0 || cc_sim_param_set(p, "precond", o->precond, err) < 0 ||
        cc_sim_param_set(p, "stretch_hessian", o->hessian[0], err) < 0 ||
        cc_sim_param_set(p, "shear_hessian", o->hessian[1], err) < 0 ||
        cc_sim_param_set(p, "bend_hessian", o->hessian[2], err) < 0)
        return -1;
    p->cg_tol = 1e-2;
    p->k_bend = o->k_bend;
    p->d_bend = o->d_bend;
    p->kernels = o->kernels;
    p->threads = o->threads;
    if (o->scene == SCENE_HANGING) {   /* every P moves alike on the 11 x 11-patch grid */
        double a0 = 0.5 / (11.0 * 11.0), scale = pow(a0, 1.5 - 2 * o->area_power);
        p->area_power = o->area_power;
        p->k_stretch *= scale, p->k_shear *= scale, p->d_stretch *= scale, p->d_shear *= scale;
    }
    return 0;
}

/* the scene's pins and obstacles on s; 0, or -1 with err */
static int scene_constraints(const bench_opts *o, cc_sim *s, char *err)
{
    int nu = o->scene == SCENE_STRIP ? o->nx + 1 : o->grid, nv = o->scene == SCENE_STRIP ? o->ny + 1 : o->grid;
    switch (o->scene) {
    case SCENE_STRIP:   /* the clamp: the first two columns of vertices */
        for (int j = 0; j < nv; j++)
            for (int i = 0; i < 2; i++)
                if (cc_sim_pin(s, i + nu * j, NULL, err) < 0) return -1;
        return 0;
    case SCENE_HANGING:   /* the two corners of the top edge, the row it hangs from */
        return cc_sim_pin(s, 0, NULL, err) < 0 ? -1 : cc_sim_pin(s, nu - 1, NULL, err);
    case SCENE_DRAPE:   /* drape.lua's table: top at z = 0, radius 0.5 m, floor at -1 */
        return cc_sim_add_table(s, 0, 0, 0, -1, 0.5, err);
    default: {   /* the two corners of the edge y = 1 */
        int top = nu * (nv - 1);
        return cc_sim_pin(s, top, NULL, err) < 0 ? -1 : cc_sim_pin(s, top + nu - 1, NULL, err);
    }
    }
}

/* the scene's simulation; NULL after an error message */
static cc_sim *bench_scene(const bench_opts *o)
{
    char err[CC_ERRLEN];
    cc_sim_params p;
    cc_mesh *m = scene_mesh(o);
    if (!m) return NULL;
    cc_sim *s = scene_params(o, &p, err) == 0 ? cc_sim_new(m, &p, err) : NULL;
    if (s && scene_constraints(o, s, err) < 0) cc_sim_free(s), s = NULL;
    cc_mesh_free(m);
    if (!s) cc_cli_error("bench", "%s", err);
    return s;
}

/* the results, as text or JSON */
static void report(const bench_opts *o, int nv, int done, double ms, double iters, double asm_ms,
                   double solve_ms, int finite, int unconverged, long psd_retries, long mg_from)
{
    if (o->json) {
        printf("{\"scene\": \"%s\", ", scene_names[o->scene]);
        if (o->strip) printf("\"strip_nx\": %d, \"strip_ny\": %d, ", o->nx, o->ny);
        else printf("\"grid\": %d, ", o->grid);
        printf("\"vertices\": %d, \"steps\": %d, \"steps_done\": %d, \"k_bend\": ", nv, o->steps, done);
        cc_json_number(stdout, o->k_bend);
        printf(", \"d_bend\": ");
        cc_json_number(stdout, o->d_bend);
        if (o->scene == SCENE_HANGING) printf(", \"area_power\": "), cc_json_number(stdout, o->area_power);
        printf(", \"h\": ");
        cc_json_number(stdout, o->h);
        printf(", \"ms_per_step\": ");
        cc_json_number(stdout, ms);
        printf(", \"cg_iterations_per_step\": ");
        cc_json_number(stdout, iters);
        printf(", \"assembly_ms\": ");
        cc_json_number(stdout, asm_ms);
        printf(", \"solve_ms\": ");
        cc_json_number(stdout, solve_ms);
        printf(", \"unconverged_steps\": %d, \"psd_retries\": %ld, \"finite\": %s, \"bend\": ", unconverged,
               psd_retries, finite ? "true" : "false");
        cc_json_string(stdout, o->bend);
        printf(", \"precond\": ");
        cc_json_string(stdout, o->precond);
        if (!strcmp(o->precond, "auto")) printf(", \"multigrid_from_step\": %ld", mg_from);
        for (int k = 0; k < 3; k++) {
            printf(", \"%s_hessian\": ", hessian_terms[k]);
            cc_json_string(stdout, o->hessian[k]);
        }
        printf(", \"kernels\": %s, \"threads\": %d}\n", o->kernels ? "true" : "false", o->threads);
        return;
    }
    if (o->strip)
        printf("strip: %d x %d patches, %d vertices, h = %g, k_bend = %g, d_bend = %g, bend/%s, preconditioner %s\n",
               o->nx, o->ny, nv, o->h, o->k_bend, o->d_bend, o->bend, o->precond);
    else if (o->scene == SCENE_HANGING)
        printf("hanging cloth: %d x %d grid, %d vertices, alpha = a^%g, h = %g, k_bend = %g, d_bend = %g, bend/%s, "
               "preconditioner %s\n", o->grid, o->grid, nv, o->area_power, o->h, o->k_bend, o->d_bend, o->bend, o->precond);
    else
        printf("%s: %d x %d grid, %d vertices, h = %g, k_bend = %g, d_bend = %g, bend/%s, preconditioner %s\n",
               o->scene == SCENE_DRAPE ? "drape over the table" : "standard scene", o->grid, o->grid, nv, o->h, o->k_bend,
               o->d_bend, o->bend, o->precond);
    printf("hessian          stretch %s, shear %s, bend %s\n", o->hessian[0], o->hessian[1], o->hessian[2]);
    printf("steps            %d of %d\n", done, o->steps);
    printf("ms per step      %.3f (median)\n", ms);
    printf("MPCG iterations  %.1f per step (%d steps not converged)\n", iters, unconverged);
    printf("PSD retries      %ld (steps solved again with element stiffness projected to PSD)\n", psd_retries);
    if (!strcmp(o->precond, "auto") && mg_from) printf("multigrid        from step %ld on (the blocks before)\n", mg_from);
    else if (!strcmp(o->precond, "auto")) printf("multigrid        not needed (the blocks throughout)\n");
    printf("assembly         %.3f ms per step (median), %s\n", asm_ms,
           o->kernels ? "structured kernels" : "element by element (--no-kernels)");
    printf("solve            %.3f ms per step (median)\n", solve_ms);
    if (o->threads) printf("threads          %d (assembly and multigrid)\n", o->threads);
    else printf("threads          one per CPU (assembly and multigrid)\n");
    printf("finite           %s\n", finite ? "yes" : "no");
}

/* 0 if path can be written (a temporary is created beside it and removed), else -1 after an
 * error message */
static int check_csv_path(const char *path)
{
    char err[CC_ERRLEN];
    cc_outfile f;
    if (cc_outfile_open(&f, path, err) < 0) return cc_cli_error("bench", "--csv: %s", err), -1;
    cc_outfile_abort(&f);
    return 0;
}

/* the first `done` steps' rows of t (5 columns by steps: ms, assembly, solve, iterations,
 * retries) as a CSV at path; 0, or -1 after an error message */
static int write_steps_csv(const char *path, const double *t, int steps, int done)
{
    static const char *const names[] = {"step", "ms", "assembly_ms", "solve_ms", "cg_iterations", "psd_retries"};
    char err[CC_ERRLEN];
    double *v = malloc(((size_t)done * 6 + 1) * sizeof *v);
    if (!v) return cc_cli_error("bench", "out of memory"), -1;
    for (int k = 0; k < done; k++) {
        v[6 * k] = k + 1;
        for (int c = 0; c < 5; c++) v[6 * k + 1 + c] = t[(size_t)c * steps + k];
    }
    int rc = cc_write_csv(path, names, 6, v, done, err);
    free(v);
    if (rc < 0) cc_cli_error("bench", "--csv: %s", err);
    return rc;
}

/* clothcheck bench: run the standard scene and report timings */
int cc_cmd_bench(int argc, char **argv)
{
    bench_opts o = {.nx = 30, .ny = 6, .bend = "pritchard", .precond = "multigrid",
                    .hessian = {"full", "full", "full"}, .kernels = 1, .repeat = 5, .d_bend = -1};
    int r = parse(argc, argv, &o);
    if (r < 0) return CC_EXIT_USAGE;
    if (r > 0) return fputs(bench_help, stdout), printf(bench_help_options, CC_SIM_MAX_THREADS), putchar('\n'), CC_EXIT_OK;
    if (o.steps && o.seconds > 0) return cc_cli_error("bench", "give --steps or --seconds, not both");
    /* the scene's defaults */
    static const int grids[SCENE_COUNT] = {66, 0, 89, 67}, steps[SCENE_COUNT] = {100, 150, 20, 240};
    static const double hs[SCENE_COUNT] = {0.02, 0.01, 0.01, 0.005}, kb[SCENE_COUNT] = {1e-5, 0.02, 1e-5, 1e-5};
    o.strip = o.scene == SCENE_STRIP;
    if (o.grid && o.strip) return cc_cli_error("bench", "--grid is the size of the other scenes: the strip's is --strip");
    if (o.area_power > 0 && o.scene != SCENE_HANGING) return cc_cli_error("bench", "--area-power goes with --scene hanging");
    if (!o.grid) o.grid = grids[o.scene];
    if (!(o.area_power > 0)) o.area_power = 0.75;
    if (!o.steps) o.steps = steps[o.scene];
    if (!(o.h > 0)) o.h = hs[o.scene];
    if (!(o.k_bend > 0)) o.k_bend = kb[o.scene];
    if (o.d_bend < 0) o.d_bend = 0.2 * o.k_bend;
    if (o.seconds > 0) {   /* the steps of h that make the simulated time, at least one */
        double n = floor(o.seconds / o.h + 0.5);
        if (n > 1000000) return cc_cli_error("bench", "--seconds %g at --h %g is more than 1000000 steps", o.seconds, o.h);
        o.steps = n < 1 ? 1 : (int)n;
    }
    if (o.audit) return cc_bench_audit(o.repeat, o.json);
    if (o.csv && check_csv_path(o.csv) < 0) return CC_EXIT_USAGE;
    cc_sim *s = bench_scene(&o);
    if (!s) return CC_EXIT_USAGE;
    /* per step: wall ms, assembly ms, solve ms, MPCG iterations, PSD retries */
    double *t = malloc((size_t)o.steps * 5 * sizeof *t), *ta = t + o.steps, *ts = t + 2 * o.steps;
    double *ti = t + 3 * o.steps, *tr = t + 4 * o.steps;
    if (!t) {
        cc_sim_free(s);
        return cc_cli_error("bench", "out of memory");
    }
    int done = 0, finite = 1, unconverged = 0;
    cc_sim_stats st;
    cc_sim_get_stats(s, &st);
    for (; done < o.steps; done++) {
        double t0 = cc_cli_wall(), a0 = st.assembly_s, s0 = st.solve_s;
        long i0 = st.cg_iterations, r0 = st.psd_retries;
        if (cc_sim_step(s) < 0) {
            fprintf(stderr, "clothcheck bench: %s\n", cc_sim_error(s));
            finite = 0;
            break;
        }
        t[done] = 1e3 * (cc_cli_wall() - t0);
        cc_sim_get_stats(s, &st);
        ta[done] = 1e3 * (st.assembly_s - a0);
        ts[done] = 1e3 * (st.solve_s - s0);
        ti[done] = (double)(st.cg_iterations - i0);
        tr[done] = (double)(st.psd_retries - r0);
        unconverged += !st.last_cg_converged;
        cc_progress("bench", done + 1, o.steps);
    }
    int n = done > 0 ? done : 1;
    int csv_rc = o.csv ? write_steps_csv(o.csv, t, o.steps, done) : 0;   /* before the medians sort the columns */
    report(&o, cc_sim_vertex_count(s), done, cc_cli_median(t, done), (double)st.cg_iterations / n, cc_cli_median(ta, done),
           cc_cli_median(ts, done), finite, unconverged, st.psd_retries, st.multigrid_from);
    free(t);
    cc_sim_free(s);
    if (csv_rc < 0) return CC_EXIT_USAGE;
    return finite ? CC_EXIT_OK : CC_EXIT_FAIL;
}
