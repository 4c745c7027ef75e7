/* clothcheck check-system: a whole simulator's forces and matrices, checked from the outside
 * through the system protocol (checks/system.h, checks/exec_system.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "checks/exec_system.h"
#include "checks/sys_claims.h"
#include "checks/system.h"
#include "cli/cli.h"
#include "io/files.h"
#include "io/json.h"

static void usage(FILE *f)
{
    fputs("usage: clothcheck check-system --exec \"CMD\" (--mesh FILE.obj | --grid N) [--claims SPEC]\n"
          "                               [--h H] [--seed S] [--directions K] [--exec-timeout S]\n"
          "                               [--json FILE]\n"
          "\n"
          "Check a whole simulator's assembled forces and matrices from the outside, as a teaching\n"
          "assistant would: CMD is started once and spoken to in JSON lines (the system protocol,\n"
          "docs/your-code.md). It gets the rest mesh, answers which of energy, force, df_dx, df_dv,\n"
          "system (A and b) and external it provides, then one state (x, v) per request. The states:\n"
          "the rest mesh, two random perturbations of it, a folded and a compressed state, and a\n"
          "moving one (random velocities).\n"
          "\n"
          "Checks, each with a verdict, and where one fails the vertices, the 3x3 blocks and the\n"
          "elements it comes down to, and the kind (a sign, a term summed twice or missing, a\n"
          "transposed block, a block at the wrong vertex):\n"
          "  force = -grad E   at zero velocity, by directional differences of the energy\n"
          "  df/dx, df/dv      against directional differences of the force\n"
          "  symmetry          df/dx = df/dx^T (gated where the forces agree with an energy)\n"
          "  net force, net torque   of the internal forces (force minus external)\n"
          "  translation, rotation   df/dx t = 0 and df/dx (w x x) = w x f_internal\n"
          "  mass              A + h df/dv + h^2 df/dx is a positive lumped mass (Baraff & Witkin (15))\n"
          "  b                 b = h (f + h df/dx v) ((16))\n"
          "With --claims, what the program says it simulates is assembled by clothcheck's own\n"
          "simulator one term at a time, and its energy, force, df/dx and df/dv are compared with\n"
          "the terms summed; a difference that is one term alone is named (the bend term missing,\n"
          "summed twice, with the wrong sign).\n"
          "A check needs what it compares; one the program gives no part of says not applicable.\n"
          "\n"
          "  --exec \"CMD\"       the program (words split as a shell would, without one)\n"
          "  --mesh FILE.obj    the rest mesh (v, vt as (u,v), f); or\n"
          "  --grid N           a flat 1 m square cloth of N x N vertices in the plane z = 0\n"
          "  --claims SPEC      what it simulates, comma-separated: 'standard' (001 Table 1),\n"
          "                     terms as stretch:bw98:k=5000[:d=1000] (shear, bend too),\n"
          "                     gravity=9.81, and NAME=VALUE of the simulator's parameters\n"
          "                     (density=0.1, area_power=0.75, bend_variant=pritchard-exact, ...);\n"
          "                     alpha = a^1 unless area_power or 'standard' (a^0.75) says otherwise\n"
          "  --h H              the step sent with every state (default 0.01)\n"
          "  --seed S           random states and directions (default 1)\n"
          "  --directions K     random directions per state and check (default 3)\n"
          "  --exec-timeout S   seconds the program may take per request (default 30)\n"
          "  --json FILE        the checks as JSON ('-': on stdout instead of the table): {verdict,\n"
          "                     options, uv_from_xy, uv_mismatch, checks: [{check, status, gates,\n"
          "                     tests, max_rel_error, findings}], requests, answer_bytes,\n"
          "                     own_cpu_seconds, own_memory_mb, failed}\n"
          "\n"
          "Exit status: 0 every check holds, 1 one fails, 2 bad input or a program that misbehaves\n"
          "(exits, crashes, hangs, answers out of protocol: one line on stderr).\n",
          f);
}

typedef struct sys_args {
    const char *exec, *mesh, *json, *claims;
    double claim_area_power;   /* p of alpha = a^p in the claims' stretch or shear, 0 without one */
    int grid;
    double timeout;
    cc_sys_opts o;
} sys_args;

static const cc_optspec specs[] = {{"exec", 1}, {"mesh", 1}, {"grid", 1}, {"claims", 1}, {"h", 1}, {"seed", 1}, {"directions", 1},
                                   {"exec-timeout", 1}, {"json", 1}, {"help", 0}, {NULL, 0}};

/* one option into a; 0, 1 for --help, or CC_EXIT_USAGE */
static int take(sys_args *a, const cc_opt *o)
{
    const char *cmd = "check-system";
    double d;
    int k;
    if (!o->name) return cc_cli_error(cmd, "unexpected argument '%s'", o->value);
    if (!strcmp(o->name, "help")) return 1;
    if (!strcmp(o->name, "exec")) {
        if (!*o->value) return cc_cli_error(cmd, "--exec needs a command");
        a->exec = o->value;
    } else if (!strcmp(o->name, "mesh")) {
        a->mesh = o->value;
    } else if (!strcmp(o->name, "claims")) {
        a->claims = o->value;
    } else if (!strcmp(o->name, "json")) {
        if (!*o->value) return cc_cli_error(cmd, "--json needs a file name");
        a->json = o->value;
    } else if (!strcmp(o->name, "grid")) {
        if (cc_int_option(cmd, "grid", o->value, 2, 1000, &k) < 0) return CC_EXIT_USAGE;
        a->grid = k;
    } else if (!strcmp(o->name, "seed")) {
        if (cc_int_option(cmd, "seed", o->value, 0, 2147483647, &k) < 0) return CC_EXIT_USAGE;
        a->o.seed = (unsigned long long)k;
    } else if (!strcmp(o->name, "directions")) {
        if (cc_int_option(cmd, "directions", o->value, 1, 100, &k) < 0) return CC_EXIT_USAGE;
        a->o.directions = k;
    } else {
        int is_h = !strcmp(o->name, "h");
        if (cc_parse_double(o->value, &d) < 0 || !(d > 0) || d > (is_h ? 1.0 : 86400.0))
            return cc_cli_error(cmd, "--%s must be a number in (0, %s] (got '%s')", o->name, is_h ? "1" : "86400", o->value);
        if (is_h) a->o.h = d;
        else a->timeout = d;
    }
    return 0;
}

/* the mesh of a; NULL after printing why */
static cc_mesh *load_mesh(const sys_args *a)
{
    char err[CC_ERRLEN];
    cc_mesh *m = a->mesh ? cc_mesh_read_obj(a->mesh, err) : cc_mesh_grid(a->grid, a->grid, 1.0, 1.0, 1, err);
    if (!m) cc_cli_error("check-system", "%s", err);
    else if (cc_mesh_check_rest(m, err) < 0) {   /* degenerate for the conditions: no program sees it */
        cc_cli_error("check-system", "%s: %s", a->mesh ? a->mesh : "--grid", err);
        cc_mesh_free(m);
        m = NULL;
    }
    return m;
}

static const char *const want_names[6] = {"energy", "force", "df_dx", "df_dv", "system", "external"};

/* clothcheck's own CPU time (user and system, seconds) and peak memory (MB) so far: the
 * program's are not counted */
static void own_cost(double *cpu, double *mb)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    *cpu = (double)u.ru_utime.tv_sec + 1e-6 * (double)u.ru_utime.tv_usec + (double)u.ru_stime.tv_sec +
           1e-6 * (double)u.ru_stime.tv_usec;
    *mb = (double)u.ru_maxrss / 1024;   /* Linux: KB */
}

static void print_table(FILE *f, const sys_args *a, const cc_mesh *m, const cc_exec_system *x, const cc_sys_report *r)
{
    fprintf(f, "check-system: %s on %s (%d vertices, %d triangles, %d hinges), h = %g, seed %llu\n", a->exec,
            a->mesh ? a->mesh : "a square grid", m->nv, m->nt, m->nh, a->o.h, a->o.seed);
    int et;
    double off = m->uv_from_xy ? cc_mesh_uv_mismatch(m, &et) : 0;
    if (off > 1e-6)   /* (u,v) taken from (x,y) for want of vt, on a rest that is not flat in x-y */
        fprintf(f, "  note: the mesh has no vt for %d vertices, so their (u, v) are the rest (x, y); the rest is not "
                "flat in the x-y plane: (u, v) lengths are up to %.3g %% off the rest lengths (triangle %d). A program "
                "that takes its rest from the positions in space disagrees with it; give vt\n", m->uv_from_xy,
                100 * off, et + a->o.base);
    if (a->claims)
        fprintf(f, "  claims: %s%s", a->claims, a->claim_area_power > 0 ? "" : "\n");
    if (a->claims && a->claim_area_power > 0) fprintf(f, "  (alpha = a^%g)\n", a->claim_area_power);
    fputs("  it provides:", f);
    for (int k = 0; k < 6; k++)
        if (x->provides & (1 << k)) fprintf(f, " %s", want_names[k]);
    fputs("\n  states:", f);
    for (int s = 0; s < r->nstates; s++) fprintf(f, "%s %s", s ? "," : "", r->state_name[s]);
    fprintf(f, "\n  %-16s %-8s %9s %6s\n", "check", "result", "max rel", "tests");
    for (int c = 0; c < CC_SYS_CHECKS; c++) {
        const cc_sys_check *k = &r->c[c];
        if (!k->applies || !k->tests) {
            fprintf(f, "  %-16s %s\n", k->name, k->note);
            continue;
        }
        const char *res = k->gates ? (k->pass ? "PASS" : "FAIL") : (k->pass ? "(agrees)" : "(differs)");
        fprintf(f, "  %-16s %-8s %9.2e %6d%s%s\n", k->name, res, k->max_rel, k->tests, k->note[0] ? "  " : "", k->note);
        for (int i = 0; i < k->nfind; i++) fprintf(f, "      %s %s\n", i ? " " : "^", k->find[i]);
    }
    if (x->provides & CC_SYS_SYSTEM) fprintf(f, "  the mass it implies: %.6g in all\n", r->total_mass);
    if (r->precision > 0) {
        int floats;
        cc_jdecimals_precision(&x->dec, 0, 0, &floats);
        fprintf(f, "  precision: judged to %.1e (%s): differences at %.2g of an edge, tolerances to match\n", r->precision,
                floats ? "single: every number it sent is a float's rounding" : "its numbers' digits",
                fmax(1e-3, pow(r->precision, 0.2)));
    }
    double cpu, mb;
    own_cost(&cpu, &mb);
    fprintf(f, "  the program answered %d requests\n", x->requests);
    fprintf(f, "  cost: %.1f MB of answers read; clothcheck's own time %.2f s (CPU), memory %.0f MB at most\n",
            (double)x->received / 1e6, cpu, mb);
    fprintf(f, "  => %s\n", cc_sys_failed(r) ? "FAILS" : "every check holds");
}

/* {"verdict", "options": {...}, "uv_from_xy", "uv_mismatch", "checks": [...], "requests",
 * "answer_bytes", "own_cpu_seconds", "own_memory_mb", "failed"} */
static void print_json(FILE *f, const sys_args *a, const cc_mesh *m, const cc_exec_system *x, const cc_sys_report *r)
{
    fprintf(f, "{\"verdict\": \"%s\", \"options\": {", cc_sys_failed(r) ? "fail" : "pass");
    if (a->mesh) fputs("\"mesh\": ", f), cc_json_string(f, a->mesh);
    else fprintf(f, "\"grid\": %d", a->grid);
    fputs(", \"claims\": ", f);
    if (a->claims) cc_json_string(f, a->claims);
    else fputs("null", f);
    fputs(", \"area_power\": ", f);
    if (a->claim_area_power > 0) cc_json_number(f, a->claim_area_power);
    else fputs("null", f);
    fprintf(f, ", \"h\": ");
    cc_json_number(f, a->o.h);
    fprintf(f, ", \"seed\": %llu, \"directions\": %d, \"precision\": ", a->o.seed, a->o.directions);
    cc_json_number(f, r->precision);
    int et;
    fprintf(f, "}, \"uv_from_xy\": %d, \"uv_mismatch\": ", m->uv_from_xy);
    cc_json_number(f, cc_mesh_uv_mismatch(m, &et));
    fputs(", \"checks\": [", f);
    for (int c = 0; c < CC_SYS_CHECKS; c++) {
        const cc_sys_check *k = &r->c[c];
        const char *status = !k->applies || !k->tests ? "not applicable" : k->pass ? "pass" : "fail";
        fprintf(f, "%s\n  {\"check\": \"%s\", \"status\": \"%s\", \"gates\": %s, \"tests\": %d, \"max_rel_error\": ", c ? "," : "",
                k->name, status, k->gates ? "true" : "false", k->tests);
        if (k->tests) cc_json_number(f, k->max_rel);   /* null where it is not finite (a NaN met) */
        else fputs("null", f);
        fputs(", \"findings\": [", f);
        for (int i = 0; i < k->nfind; i++) {
            if (i) fputs(", ", f);
            cc_json_string(f, k->find[i]);
        }
        fputs("]}", f);
    }
    double cpu, mb;
    own_cost(&cpu, &mb);
    fprintf(f, "\n], \"requests\": %d, \"answer_bytes\": %lld, \"own_cpu_seconds\": %.3f, \"own_memory_mb\": %.1f, "
            "\"failed\": %s}\n", x->requests, x->received, cpu, mb, cc_sys_failed(r) ? "true" : "false");
}

int cc_cmd_check_system(int argc, char **argv)
{
    sys_args a = {0};
    a.o = cc_sys_defaults();
    cc_optparser p = {argc, argv, 1, specs, "check-system"};
    cc_opt o;
    int got, rc;
    while ((got = cc_opt_next(&p, &o)) > 0)
        if ((rc = take(&a, &o)) != 0) {
            if (rc == 1) usage(stdout);
            return rc == 1 ? CC_EXIT_OK : rc;
        }
    if (got < 0) return CC_EXIT_USAGE;
    if (!a.exec) return cc_cli_error("check-system", "--exec \"CMD\" is required (see clothcheck check-system --help)");
    if (!a.mesh == !a.grid) return cc_cli_error("check-system", "give the mesh: --mesh FILE.obj or --grid N (one of them)");
    cc_mesh *m = load_mesh(&a);
    if (!m) return CC_EXIT_USAGE;
    cc_outfile jf = {0};
    char err[CC_ERRLEN];
    if (a.json && strcmp(a.json, "-") && cc_outfile_open(&jf, a.json, err) < 0) {
        cc_mesh_free(m);
        return cc_cli_error("check-system", "%s", err);
    }
    cc_exec_system x;
    cc_sys_report *r = calloc(1, sizeof *r);
    rc = !r ? cc_cli_error("check-system", "out of memory") : 0;
    cc_sim_params claimed;   /* --claims, parsed before the program starts */
    if (!rc && a.claims && cc_sys_claims_parse(a.claims, &claimed, err) < 0) rc = cc_cli_error("check-system", "--claims: %s", err);
    if (!rc && a.claims) a.claim_area_power = claimed.k_stretch > 0 || claimed.k_shear > 0 ? claimed.area_power : 0;
    if (!rc && cc_exec_system_check(a.exec, m, a.claims ? &claimed : NULL, a.timeout, a.o, &x, r, err) < 0)
        rc = cc_cli_error("check-system", "%s", err);
    if (!rc) {
        if (a.json && !strcmp(a.json, "-")) print_json(stdout, &a, m, &x, r);
        else print_table(stdout, &a, m, &x, r);
        if (jf.f) {
            print_json(jf.f, &a, m, &x, r);
            if (cc_outfile_commit(&jf, err) < 0) rc = cc_cli_error("check-system", "%s", err);
        }
        if (!rc) rc = cc_sys_failed(r) ? CC_EXIT_FAIL : CC_EXIT_OK;
    }
    if (jf.f) cc_outfile_abort(&jf);
    free(r);
    cc_mesh_free(m);
    return rc;
}
