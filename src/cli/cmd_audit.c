/* clothcheck audit: the audit engine of checks/ over registered condition variants. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "checks/diagnose.h"
#include "checks/report.h"
#include "cli/audit_exec.h"
#include "cli/cli.h"
#include "io/gnuplot.h"

/* the --help text, with the registered variants and their claims */
static void audit_usage(FILE *f)
{
    fputs("usage: clothcheck audit [CONDITION] [--variant V] [--reference R] [--samples N]\n"
          "                        [--seed S] [--case ID] [--area-power P] [--x-rest \"...\" | --flat-rest]\n"
          "                        [--json FILE] [--plots DIR]\n"
          "       clothcheck audit CONDITION --exec \"CMD\" [--claims C/V | bridson-force]\n"
          "                        [--contract condition|force] [--k K] [--exec-timeout S]\n"
          "                        [--precision single|double] [--samples N] [--seed S] [--json FILE]\n"
          "                        [--plots DIR]\n"
          "\n"
          "Audit the analytic gradients and Hessians of condition variants against references\n"
          "computed from each variant's own value code, over N seeded random elements plus edge\n"
          "cases (flat, folded and theta near +-pi hinges, near-degenerate triangles, ...).\n"
          "With no CONDITION: every registered condition and variant (the full matrix).\n"
          "\n"
          "  --variant V      only variant V (of CONDITION, or of every condition that has one)\n"
          "  --reference R    fd-true       finite differences of C\n"
          "                   fd-frozen     finite differences of C with the magnitudes of\n"
          "                                 normalised vectors frozen (Pritchard 001 Section 4)\n"
          "                   exact         hyper-dual derivatives of C (no step)\n"
          "                   exact-frozen  hyper-dual derivatives of the frozen-magnitude C\n"
          "                   all           all four, plus structure checks (symmetry, translation,\n"
          "                                 rotation, rigid modes) and the Taylor test (default)\n"
          "  --samples N      random elements per variant, 1..100000 (default 1000)\n"
          "  --seed S         random stream (default 1); a case replays from (seed, case id)\n"
          "  --case ID        audit only case ID as printed in reports: 17, #17 or e3 (edge case 3)\n"
          "  --area-power P   alpha = a^P for random stretch/shear triangles (default 1)\n"
          "  --x-rest \"...\"   the rest hinge of every random bend element, 4 points 'x y z'\n"
          "                   separated by ';' (default: a random rest hinge per element, flat\n"
          "                   for one in four, folded to an angle in (-3, 3) for the others)\n"
          "  --flat-rest      every rest hinge flat (rest angle 0), for a bend without theta0\n"
          "  --json FILE      write the report as JSON, {verdict, options, identified, rows} (FILE\n"
          "                   '-': to stdout, instead of the table)\n"
          "  --plots DIR      write V-curves and the bend-angle figure (.dat, .gp, .png) into DIR\n"
          "\n", f);
    fputs("Your own code, in any language (docs/your-code.md):\n"
          "  --exec \"CMD\"     start CMD (words split as a shell would, without one) and audit it\n"
          "                   through the element protocol: one JSON request per line on its stdin,\n"
          "                   one JSON answer per line on its stdout. CONDITION says which elements\n"
          "                   it gets and their rest data. Default 200 elements plus edge cases.\n"
          "                   It asks little first: with --claims, one evaluation an element and\n"
          "                   differences on 3; without, central differences; where that fails,\n"
          "                   the full audit (central4 on 100 and the edge cases) and its diagnosis\n"
          "  --claims C/V     compare its numbers, value included, with variant V of condition C\n"
          "                   (bend/bridson, stretch/bw98, ...; exact derivatives by hyper-duals),\n"
          "                   or with bridson-force, the force model of clothcheck force\n"
          "  --contract       condition: it answers value, gradient, hessian (default);\n"
          "                   force: force, jacobian, energy (E = k/2 C.C of the claimed variant)\n"
          "  --k K            stiffness sent with each request and used by the claim (default 1)\n"
          "  --exec-timeout S seconds the program may take per request (default 30)\n"
          "  --precision single|double  judge it as a program computing in floats, or in\n"
          "                   doubles (detected: single when every number it sends is a float's\n"
          "                   rounding, whatever its digits; numbers printed with fewer digits\n"
          "                   than a double's are judged to those digits)\n"
          "\n"
          "A variant passes where it agrees with what it claims: exact variants with fd-true and\n"
          "exact, frozen-magnitude variants with fd-frozen and exact-frozen; claim-none variants\n"
          "are reported only. Steps are relative to each element's scale, max|dC|/max|d2C|\n"
          "clamped between its smallest and largest length.\n"
          "Under each failing row, lines starting '^' diagnose the kind of mistake (docs/your-code.md,\n"
          "docs/derive.md):", f);
    for (int k = 0, col = 17; k < CC_FIND_COUNT; k++) {   /* every kind the engine names */
        const char *name = cc_finding_name((cc_finding_kind)k);
        col += (int)strlen(name) + 2;
        if (col > 92) fputs("\n", f), col = (int)strlen(name) + 2;
        fprintf(f, "%s%s%s", col == (int)strlen(name) + 2 ? "" : " ", name, k + 1 < CC_FIND_COUNT ? "," : ".\n");
    }
    fputs("A program audited without --claims, or whose claim fails, is identified: the registered\n"
          "formulation its numbers are (variant, derivatives, area power, k, labels), or the closest.\n"
          "\n"
          "Exit status: 0 every claim holds, 1 a variant (or the program) fails its claim, 2 bad\n"
          "input or a program that misbehaves (exits, hangs, answers out of protocol).\n"
          "\nConditions and variants (and what their derivatives claim):\n", f);
    for (int i = 0; i < cc_condition_count(); i++) {
        const cc_condition *c = cc_condition_at(i);
        fprintf(f, "  %-8s %-16s %-17s %s\n", c->condition, c->variant, cc_claim_name(c->claim), c->source);
    }
}

/* Parsed command line. */
typedef struct audit_args {
    const char *condition;    /* positional CONDITION or NULL */
    const char *variant;      /* --variant or NULL */
    unsigned refs;            /* reference bits */
    const char *json;         /* --json path or NULL */
    const char *plots;        /* --plots directory or NULL */
    const char *case_label;   /* --case or NULL */
    double x_rest[12];        /* --x-rest, when opts.sample.hinge_rest points here */
    cc_audit_opts opts;       /* engine options */
    const char *exec;         /* --exec command line, or NULL */
    const char *claims;       /* --claims, or NULL */
    int force;                /* --contract force */
    double k;                 /* --k (0: not given) */
    double timeout;           /* --exec-timeout */
    int precision;            /* --precision: CC_PRECISION_* */
    int samples_given;        /* --samples was given */
    int area_power_given;     /* --area-power was given */
} audit_args;

static const cc_optspec specs[] = {
    {"variant", 1}, {"reference", 1}, {"samples", 1}, {"seed", 1}, {"case", 1},
    {"area-power", 1}, {"x-rest", 1}, {"flat-rest", 0}, {"json", 1}, {"plots", 1}, {"help", 0},
    {"exec", 1}, {"claims", 1}, {"contract", 1}, {"k", 1}, {"exec-timeout", 1}, {"precision", 1}, {NULL, 0},
};

/* a whole decimal integer in [lo, hi]; 0 or -1 */
static int parse_count(const char *s, unsigned long long lo, unsigned long long hi, unsigned long long *v)
{
    char *end;
    if (!s || *s < '0' || *s > '9') return -1;
    errno = 0;
    unsigned long long u = strtoull(s, &end, 10);
    if (*end || errno || u < lo || u > hi) return -1;
    *v = u;
    return 0;
}

static int take_exec_option(audit_args *a, const cc_opt *o);

/* one option into a; 0, 1 for --help, or CC_EXIT_USAGE after printing why */
static int take_option(audit_args *a, const cc_opt *o)
{
    unsigned long long u;
    double d;
    if (!o->name) {
        if (a->condition) return cc_cli_error("audit", "unexpected argument '%s'", o->value);
        a->condition = o->value;
    } else if (!strcmp(o->name, "help")) {
        return 1;
    } else if (!strcmp(o->name, "variant")) {
        a->variant = o->value;
    } else if (!strcmp(o->name, "reference")) {
        int r = cc_ref_parse(o->value);
        if (r < 0 && strcmp(o->value, "all"))
            return cc_cli_error("audit", "unknown reference '%s' (fd-true, fd-frozen, exact, exact-frozen, all)", o->value);
        a->refs = r < 0 ? CC_REFS_ALL : 1u << r;
    } else if (!strcmp(o->name, "samples")) {
        if (parse_count(o->value, 1, 100000, &u) < 0)
            return cc_cli_error("audit", "--samples must be a whole number from 1 to 100000 (got '%s')", o->value);
        a->opts.samples = (int)u;
        a->samples_given = 1;
    } else if (!strcmp(o->name, "seed")) {
        if (parse_count(o->value, 0, UINT64_MAX, &u) < 0)
            return cc_cli_error("audit", "--seed must be a whole number >= 0 (got '%s')", o->value);
        a->opts.seed = u;
    } else if (!strcmp(o->name, "case")) {
        a->case_label = o->value;
    } else if (!strcmp(o->name, "area-power")) {
        if (cc_parse_double(o->value, &d) < 0 || !(d > 0 && d <= 4))
            return cc_cli_error("audit", "--area-power must be a number in (0, 4] (got '%s')", o->value);
        a->opts.sample.area_power = d;
        a->area_power_given = 1;
    } else if (!strcmp(o->name, "flat-rest")) {
        a->opts.sample.flat_rest = 1;
    } else if (!strcmp(o->name, "x-rest")) {
        cc_rest r;
        int rc = cc_rest_hinge_option("audit", o->value, a->x_rest, &r);
        if (rc) return rc;
        a->opts.sample.hinge_rest = a->x_rest;
    } else if (!strcmp(o->name, "json")) {
        a->json = o->value;
    } else if (!strcmp(o->name, "plots")) {
        a->plots = o->value;
    } else {
        return take_exec_option(a, o);
    }
    return 0;
}

/* an option of --exec into a; 0 or CC_EXIT_USAGE */
static int take_exec_option(audit_args *a, const cc_opt *o)
{
    double d;
    if (!strcmp(o->name, "exec")) {
        if (!*o->value) return cc_cli_error("audit", "--exec needs a command");
        a->exec = o->value;
    } else if (!strcmp(o->name, "claims")) {
        a->claims = o->value;
    } else if (!strcmp(o->name, "contract")) {
        if (strcmp(o->value, "condition") && strcmp(o->value, "force"))
            return cc_cli_error("audit", "--contract must be condition or force (got '%s')", o->value);
        a->force = !strcmp(o->value, "force");
    } else if (!strcmp(o->name, "k")) {
        if (cc_parse_double(o->value, &d) < 0 || !(d > 0))
            return cc_cli_error("audit", "--k must be a positive number (got '%s')", o->value);
        a->k = d;
    } else if (!strcmp(o->name, "exec-timeout")) {
        if (cc_parse_double(o->value, &d) < 0 || !(d > 0 && d <= 86400))
            return cc_cli_error("audit", "--exec-timeout must be a number of seconds in (0, 86400] (got '%s')", o->value);
        a->timeout = d;
    } else {
        if (strcmp(o->value, "single") && strcmp(o->value, "double"))
            return cc_cli_error("audit", "--precision must be single or double (got '%s')", o->value);
        a->precision = !strcmp(o->value, "single") ? CC_PRECISION_SINGLE : CC_PRECISION_DOUBLE;
    }
    return 0;
}

/* 1 if some condition has a variant of this name */
static int variant_known(const char *v)
{
    for (int i = 0; i < cc_condition_count(); i++)
        if (!strcmp(cc_condition_at(i)->variant, v)) return 1;
    return 0;
}

/* a = the parsed command line; 0, 1 for --help, or CC_EXIT_USAGE */
static int parse_args(int argc, char **argv, audit_args *a)
{
    cc_optparser p = {argc, argv, 1, specs, "audit"};
    cc_opt o;
    int got, rc;
    memset(a, 0, sizeof *a);
    a->opts = cc_audit_defaults();
    a->refs = CC_REFS_ALL;
    while ((got = cc_opt_next(&p, &o)) > 0)
        if ((rc = take_option(a, &o)) != 0) return rc;
    if (got < 0) return CC_EXIT_USAGE;
    a->opts.refs = a->refs;
    if (a->condition && !cc_condition_known(a->condition))
        return cc_cli_error("audit", "unknown condition '%s' (see clothcheck audit --help)", a->condition);
    if (a->variant && a->condition && !cc_condition_find(a->condition, a->variant))
        return cc_cli_error("audit", "unknown variant '%s' of %s", a->variant, a->condition);
    if (a->variant && !a->condition && !variant_known(a->variant))
        return cc_cli_error("audit", "unknown variant '%s' (see clothcheck audit --help)", a->variant);
    int nv = a->condition ? cc_condition_find(a->condition, NULL)->nv : 0;
    if (a->opts.sample.hinge_rest && nv && nv != 4)
        return cc_cli_error("audit", "--x-rest is the rest hinge of bend elements; it does not apply to %s", a->condition);
    if (a->opts.sample.flat_rest && nv && nv != 4)
        return cc_cli_error("audit", "--flat-rest is about bend elements' rest hinges; it does not apply to %s", a->condition);
    if (a->opts.sample.flat_rest && a->opts.sample.hinge_rest)
        return cc_cli_error("audit", "--flat-rest and --x-rest both say what the rest hinge is: give one");
    if (a->area_power_given && nv && nv != 3)
        return cc_cli_error("audit", "--area-power applies to the triangle conditions (stretch, shear), not to %s",
                            a->condition);
    if (a->json && !*a->json) return cc_cli_error("audit", "--json needs a file name");
    if (a->plots && !*a->plots) return cc_cli_error("audit", "--plots needs a directory");
    if (!a->exec && (a->claims || a->force || a->k > 0 || a->timeout > 0 || a->precision))
        return cc_cli_error("audit", "--claims, --contract, --k, --exec-timeout and --precision go with --exec "
                                     "(a registered variant is audited against its own claim)");
    return 0;
}

/* make sure dir exists (mkdir -p); 0 or CC_EXIT_USAGE */
static int plots_dir(const char *dir)
{
    char err[CC_ERRLEN];
    if (cc_mkdir_p(dir, err) < 0) return cc_cli_error("audit", "--plots: %s", err);
    return 0;
}

/* the --exec audit of a's program; the exit status */
static int audit_program(const audit_args *a)
{
    cc_exec_audit ea = cc_exec_audit_defaults();
    char err[CC_ERRLEN];
    if (!a->condition)
        return cc_cli_error("audit", "--exec needs the CONDITION its program computes (stretch, shear, bend, spring)");
    if (a->variant) return cc_cli_error("audit", "--variant does not apply to --exec: say what it implements with --claims");
    if (a->refs != CC_REFS_ALL) return cc_cli_error("audit", "--reference does not apply to --exec");
    ea.condition = a->condition, ea.cmd = a->exec, ea.force = a->force;
    if (a->timeout > 0) ea.timeout = a->timeout;
    ea.precision = a->precision;
    ea.progress = isatty(2) ? stderr : NULL;
    double k = a->k > 0 ? a->k : 1.0;
    if (a->claims && cc_exec_audit_claim(&ea, a->claims, k, err) < 0)
        return cc_cli_error("audit", "--claims: %s", err);
    if (!a->claims) ea.claims.k = k;
    if (a->samples_given) ea.opts.samples = a->opts.samples;
    ea.opts.seed = a->opts.seed;
    ea.opts.sample = a->opts.sample;
    if (a->case_label) {
        if (cc_case_parse(cc_condition_find(a->condition, NULL)->nv, a->case_label, &ea.opts.case_id) < 0)
            return cc_cli_error("audit", "--case '%s' is not a case of %s", a->case_label, a->condition);
        ea.opts.only_case = 1;
    }
    cc_outfile jf = {0};
    int rc;
    if (a->json && strcmp(a->json, "-") && cc_outfile_open(&jf, a->json, err) < 0)
        return cc_cli_error("audit", "%s", err);
    cc_exec_output out = {a->json && !strcmp(a->json, "-"), jf.f, a->plots};
    if (a->plots && (rc = plots_dir(a->plots)) != 0) {
        if (jf.f) cc_outfile_abort(&jf);
        return rc;
    }
    rc = cc_audit_exec(&ea, &out);
    if (jf.f && rc != CC_EXIT_USAGE) {
        if (cc_outfile_commit(&jf, err) < 0) return cc_cli_error("audit", "%s", err);
    } else if (jf.f) {
        cc_outfile_abort(&jf);
    }
    return rc;
}

/* the selected variants into list (at most cap); their count */
static int select_variants(const audit_args *a, const cc_condition **list, int cap)
{
    int n = 0;
    for (int i = 0; i < cc_condition_count() && n < cap; i++) {
        const cc_condition *c = cc_condition_at(i);
        if (a->condition && strcmp(c->condition, a->condition)) continue;
        if (a->variant && strcmp(c->variant, a->variant)) continue;
        list[n++] = c;
    }
    return n;
}

/* out[i] = audit of list[i]; 0 or CC_EXIT_USAGE (a bad --case) */
static int run_audits(const audit_args *a, const cc_condition **list, int n, cc_audit *out)
{
    for (int i = 0; i < n; i++) {
        cc_audit_opts o = a->opts;
        cc_target t = cc_target_from_condition(list[i]);
        if (a->case_label) {
            if (cc_case_parse(t.nv, a->case_label, &o.case_id) < 0)
                return cc_cli_error("audit", "--case '%s' is not a case of %s (a number, #N or e0..e%d)",
                                    a->case_label, t.condition, cc_edge_count(t.nv) - 1);
            o.only_case = 1;
        }
        if (cc_audit_run(&t, &o, &out[i]) < 0)
            return cc_cli_error("audit", "%s %s: no element could be built for this case", t.condition, t.variant);
    }
    return 0;
}

/* the table (or JSON on stdout), the JSON file, the plots; 0 or CC_EXIT_USAGE */
static int write_outputs(const audit_args *a, cc_audit *au, int n, cc_outfile *jf)
{
    char err[CC_ERRLEN];
    if (a->json && !strcmp(a->json, "-")) cc_report_json(stdout, au, n);
    else cc_report_table(stdout, au, n);
    if (jf->f) {
        cc_report_json(jf->f, au, n);
        if (cc_outfile_commit(jf, err) < 0) return cc_cli_error("audit", "%s", err);
    }
    return a->plots ? cc_audit_write_plots(a->plots, au, n) : 0;
}

/* clothcheck audit: 0 every claim holds, 1 a claim fails, 2 bad input */
int cc_cmd_audit(int argc, char **argv)
{
    audit_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc == 1) {
        audit_usage(stdout);
        return CC_EXIT_OK;
    }
    if (rc) return rc;
    if (a.exec) return audit_program(&a);
    const cc_condition *list[64];
    int n = select_variants(&a, list, 64);
    if (a.plots && (rc = plots_dir(a.plots)) != 0) return rc;
    cc_outfile jf = {0};
    char err[CC_ERRLEN];
    if (a.json && strcmp(a.json, "-") && cc_outfile_open(&jf, a.json, err) < 0)
        return cc_cli_error("audit", "%s", err);
    cc_audit *au = calloc((size_t)(n > 0 ? n : 1), sizeof *au);
    if (!au) {
        if (jf.f) cc_outfile_abort(&jf);
        return cc_cli_error("audit", "out of memory");
    }
    rc = run_audits(&a, list, n, au);
    if (!rc) rc = write_outputs(&a, au, n, &jf);
    if (jf.f) cc_outfile_abort(&jf);
    int failed = 0;
    for (int i = 0; i < n && !rc; i++) failed |= cc_audit_failed(&au[i]);
    free(au);
    return rc ? rc : failed ? CC_EXIT_FAIL : CC_EXIT_OK;
}
