/* clothcheck audit COND --exec "CMD": the audit of a program in any language, spoken to in
 * the element protocol (exec.h), optionally against what it claims to implement.
 *
 * The audit runs in passes over a table of the program's answers (checks/memo.h): a first
 * pass asks for every element of the batch, the next ones for the points the finite
 * differences, the Taylor test and the diagnosis need around them, until a pass asks nothing
 * new. Then come the lines the engine's rows do not make: the fields it does not give, and the
 * precision its numbers carry.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "checks/identify.h"
#include "checks/report.h"
#include "cli/audit_exec.h"
#include "cli/cli.h"
#include "cli/exec.h"

#define MAX_PASSES 40   /* a Newton search for an element's rest shape asks one point a pass */

/* the components of what the program answers: the claim's, else COND's first variant's */
static int components(const cc_exec_audit *ea)
{
    if (ea->force) return 1;
    if (cc_claim_given(&ea->claims)) return cc_claim_ncomp(&ea->claims);
    return cc_condition_find(ea->condition, NULL)->ncomp;
}

/* the target answering from m: names, claim and period */
static cc_target exec_target(const cc_exec_audit *ea, cc_memo *m)
{
    cc_target t = {0};
    if (!ea->force && ea->claims.cond) {   /* the claimed variant's period, if its C is an angle */
        cc_target c = cc_target_from_condition(ea->claims.cond);
        t.period = c.period, t.period_weighted = c.period_weighted;
    }
    cc_memo_target(m, &t);
    t.condition = ea->condition;
    t.variant = ea->force ? "force" : "condition";
    t.source = ea->cmd;
    /* its derivatives are meant to be those of its value, unless it claims a variant whose
     * derivatives are not (Pritchard's frozen magnitudes): then only the claim rows gate */
    t.claim = ea->claims.cond ? ea->claims.cond->claim : CC_CLAIM_EXACT;
    t.provides = m->provides;
    return t;
}

/* the engine's options */
static cc_audit_opts pass_opts(const cc_exec_audit *ea, double precision)
{
    cc_audit_opts o = ea->opts;
    o.claims = ea->claims;
    o.precision = precision;
    return o;
}

/* the relative rounding of the program's numbers (cc_jdecimals_precision), and whether they are
 * taken for floats */
static double program_precision(const cc_exec_audit *ea, const cc_exec *x, int *floats)
{
    return cc_jdecimals_precision(&x->dec, ea->precision == CC_PRECISION_SINGLE, ea->precision == CC_PRECISION_DOUBLE,
                                  floats);
}

/* ask m for everything at each element of the batch (what the audit's first pass would ask
 * first; the points around them depend on the answers) */
static void ask_elements(const cc_exec_audit *ea, cc_memo *m)
{
    const cc_audit_opts *o = &ea->opts;
    int ne = o->edges ? cc_edge_count(m->nv) : 0;
    cc_target t = {0};
    cc_eval e;
    cc_memo_target(m, &t);
    for (int id = o->only_case ? o->case_id : -ne; id < (o->only_case ? o->case_id + 1 : o->samples); id++) {
        cc_case c;
        if (cc_case_make(m->nv, o->seed, id, &o->sample, &c) == 0) t.eval(t.ctx, c.x, &c.r, CC_WANT_ALL, &e);
    }
}

/* the CC_WANT_* bits of the fields the program answered with, checked; 0 or CC_EXIT_USAGE */
static int settle_provides(const cc_exec_audit *ea, const cc_exec *x, cc_memo *m)
{
    if (!x->seen)
        return cc_cli_error("audit", "the program's answers hold none of %s", ea->force ? "force, jacobian, energy"
                                                                                   : "value, gradient, hessian");
    m->provides = x->seen;
    return 0;
}

/* the passes: a = the audit of the program once it asks nothing new; 0 or CC_EXIT_USAGE */
static int run_passes(const cc_exec_audit *ea, cc_exec *x, cc_memo *m, cc_audit *a, double *precision)
{
    char err[768];
    ask_elements(ea, m);
    for (int pass = 1; pass <= MAX_PASSES; pass++) {
        int missing = cc_memo_missing_count(m);
        if (isatty(2))
            fprintf(stderr, "clothcheck audit: pass %d: %d elements to ask the program for\n", pass, missing);
        if (cc_exec_fetch(x, m, err, sizeof err) < 0) return cc_cli_error("audit", "%s: %s", ea->cmd, err);
        if (pass == 1) {
            int rc = settle_provides(ea, x, m);
            if (rc) return rc;
            int floats;
            *precision = program_precision(ea, x, &floats);
        }
        cc_target t = exec_target(ea, m);
        cc_audit_opts o = pass_opts(ea, *precision);
        if (cc_audit_run(&t, &o, a) < 0) return cc_cli_error("audit", "no element could be built");
        if (cc_memo_missing_count(m) == 0) return 0;
    }
    /* what is still missing is a search of the diagnosis (a rest shape, say) that the program's
     * rounding keeps from converging: the rows are settled, the findings hold what it reached */
    fprintf(stderr, "clothcheck audit: the diagnosis stopped asking after %d passes (%d points it asked for last are "
            "left out)\n", MAX_PASSES, cc_memo_missing_count(m));
    cc_memo_clear_missing(m);
    return 0;
}

/* the field names of the contract, by CC_WANT_* bit */
static const char *field_name(const cc_exec_audit *ea, int bit)
{
    if (bit == CC_WANT_VALUE) return ea->force ? "energy" : "value";
    if (bit == CC_WANT_GRAD) return ea->force ? "force" : "gradient";
    return ea->force ? "jacobian" : "hessian";
}

/* the parts the program gives, in the contract's words ("value, gradient and Hessian") into buf */
static void given_parts(const cc_exec_audit *ea, int provides, char *buf, int len)
{
    const char *p[3];
    int n = 0;
    for (int b = CC_WANT_VALUE; b <= CC_WANT_HESS; b <<= 1)
        if (provides & b) p[n++] = field_name(ea, b);
    if (n == 3) snprintf(buf, (size_t)len, "%s, %s and %s", p[0], p[1], p[2]);
    else if (n == 2) snprintf(buf, (size_t)len, "%s and %s", p[0], p[1]);
    else snprintf(buf, (size_t)len, "%s", n ? p[0] : "numbers");
}

/* the identification's line: what the program computes, or what it is closest to */
static void report_identity(FILE *f, const cc_exec_audit *ea, const cc_memo *m, const cc_audit *a, const cc_identity *id)
{
    char label[160], parts[64];
    double k = ea->claims.k > 0 ? ea->claims.k : 1.0;
    if (!id->any) return;
    cc_identity_label(id, &a->opts, k, label, sizeof label);
    given_parts(ea, m->provides, parts, sizeof parts);
    if (id->found && cc_identity_is_claim(id, &ea->claims, &a->opts)) {   /* its formulation is the claim's */
        fprintf(f, "  => its numbers are %s's on the random elements (to %.1e): what fails above is elsewhere (an "
                "edge case, a number that is not finite, the checks of its own numbers)\n", label, id->max_rel);
        return;
    }
    if (!id->found && !(id->max_rel < 0.5)) {
        fprintf(f, "  => it matches no registered formulation (none comes within 50 %%)\n");
        return;
    }
    if (!id->found) {
        fprintf(f, "  => it matches no registered formulation: the closest is %s, which differs by %.2g\n", label,
                id->max_rel);
        return;
    }
    fprintf(f, "  => identified: %s: %s agree with it to %.1e (%d elements)", label, parts, id->max_rel, id->elements);
    int nv = id->bridson_force ? 4 : id->cond->nv, ident = 1;
    for (int q = 0; q < nv; q++) ident &= id->perm[q] == q;
    if (id->form == CC_FORM_OWN && ident) {   /* a claim that holds as it is */
        char again[96] = "";
        if (nv == 3 && id->area_power != (a->opts.sample.area_power > 0 ? a->opts.sample.area_power : 1.0))
            snprintf(again, sizeof again, " --area-power %g", id->area_power);
        if (id->k > 0 && fabs(id->k - k) > 1e-6 * k) snprintf(again + strlen(again), sizeof again - strlen(again), " --k %.6g", id->k);
        if (id->bridson_force) fprintf(f, "; audit it as that with --claims bridson-force%s", again);
        else fprintf(f, "; audit it as that with --claims %s/%s%s", id->cond->condition, id->cond->variant, again);
    }
    fputc('\n', f);
}

/* what the report adds below the engine's table; 1 if that fails the audit */
static int report_extras(FILE *f, const cc_exec_audit *ea, const cc_exec *x, const cc_memo *m, const cc_audit *a,
                         const cc_identity *id)
{
    int missing = (CC_WANT_VALUE | CC_WANT_GRAD | CC_WANT_HESS) & ~m->provides;
    for (int b = CC_WANT_VALUE; b <= CC_WANT_HESS; b <<= 1)
        if (missing & b)
            fprintf(f, "  missing: the program gives no %s; the rows that need it are not applicable\n",
                    field_name(ea, b));
    if (cc_audit_limited(&a->opts)) {
        const cc_audit_row *c = cc_audit_find(a, CC_REF_CLAIM, CC_Q_GRADIENT);
        char agrees[64] = "", why[96];
        if (c && c->available && c->pass) snprintf(agrees, sizeof agrees, "agrees with its claim to %.1e: ", c->max_rel);
        int floats;
        program_precision(ea, x, &floats);
        if (ea->precision == CC_PRECISION_SINGLE) snprintf(why, sizeof why, "--precision single");
        else if (floats) snprintf(why, sizeof why, "single: every number it sent is a float's rounding");
        else snprintf(why, sizeof why, "it prints %d significant digits", x->dec.max_digits);
        fprintf(f, "  precision: %sjudged to %.1e (%s): tolerances %.2g, %.2g for differences of its gradient%s\n",
                agrees, a->opts.precision, why, CC_AUDIT_TOL_LIMITED * a->opts.precision,
                CC_AUDIT_TOL_LIMITED_FD * a->opts.precision,
                CC_AUDIT_TOL_LIMITED_FD * a->opts.precision > 0.01 && !floats
                    ? " -- too few digits for a sharp audit: print %.17g (%.9g for floats)" : "");
    }
    report_identity(f, ea, m, a, id);
    fprintf(f, "  the program answered %d requests, %ld elements\n", x->batches, x->elements);
    return 0;
}

int cc_audit_write_plots(const char *dir, const cc_audit *a, int n)
{
    char err[CC_ERRLEN];
    int made = cc_report_plots(dir, a, n, err);
    if (made == -2) return cc_cli_error("audit", "%s", err);
    if (made == -1)
        fprintf(stderr, "clothcheck audit: gnuplot with a png terminal not found: wrote the .dat and .gp files to %s, "
                        "no PNGs\n", dir);
    else if (err[0])
        fprintf(stderr, "clothcheck audit: %s\n", err);
    return 0;
}

int cc_audit_exec(const cc_exec_audit *ea)
{
    cc_exec x = {0};
    cc_memo m;
    char err[768];
    x.force = ea->force, x.condition = ea->condition, x.k = ea->claims.k > 0 ? ea->claims.k : 1.0;
    x.variant = ea->claims.bridson_force ? "bridson-force" : ea->claims.cond ? ea->claims.cond->variant : NULL;
    x.timeout = ea->timeout;
    x.free_ncomp = !ea->force && !cc_claim_given(&ea->claims);   /* bend/quadratic has 3 */
    int nv = cc_condition_find(ea->condition, NULL)->nv;
    if (cc_memo_init(&m, nv, components(ea)) < 0) return cc_cli_error("audit", "out of memory");
    cc_audit *a = calloc(1, sizeof *a);
    if (!a || cc_exec_start(&x, ea->cmd, err, sizeof err) < 0) {
        cc_memo_free(&m);
        free(a);
        return a ? cc_cli_error("audit", "--exec: %s", err) : cc_cli_error("audit", "out of memory");
    }
    double precision = 0;
    int rc = run_passes(ea, &x, &m, a, &precision);
    cc_exec_close(&x);
    if (!rc) {
        FILE *out = ea->json_stdout ? stderr : stdout;
        double k = ea->claims.k > 0 ? ea->claims.k : 1.0;
        cc_identity id = {0};
        if (!cc_claim_given(&ea->claims) || cc_audit_failed(a)) {   /* what it computes, if not what it claims */
            cc_target t = a->target;
            t.claims.as_energy = ea->force && !ea->claims.bridson_force, t.claims.k = k;
            if (cc_identify(&t, &a->opts, &id) < 0) id.any = 0;
            if (id.any && cc_identity_is_claim(&id, &ea->claims, &a->opts) && !id.found) id.any = 0;   /* the rows say it */
        }
        if (ea->json_stdout) cc_report_json_identified(stdout, a, 1, &id, k);
        else cc_report_table(stdout, a, 1);
        if (ea->json) cc_report_json_identified(ea->json, a, 1, &id, k);
        int extra_fail = report_extras(out, ea, &x, &m, a, &id);
        if (ea->plots) rc = cc_audit_write_plots(ea->plots, a, 1);   /* while the table still holds the answers */
        if (!rc) rc = cc_audit_failed(a) || extra_fail ? CC_EXIT_FAIL : CC_EXIT_OK;
    }
    cc_memo_free(&m);
    free(a);
    return rc;
}
