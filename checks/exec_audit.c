/* The audit of a program through the element protocol (exec_audit.h): its passes, the
 * identification of what it computes, and the lines of its report below the engine's table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "checks/exec.h"
#include "checks/exec_audit.h"

#define MAX_PASSES 40   /* a Newton search for an element's rest shape asks one point a pass */

cc_exec_audit cc_exec_audit_defaults(void)
{
    cc_exec_audit ea = {0};
    ea.timeout = 30;
    ea.opts = cc_audit_defaults();
    ea.opts.samples = 200;
    ea.opts.refs = 1u << CC_REF_FD_TRUE;
    ea.opts.all_checks = 1;
    ea.opts.no_fd_hessian = 1;
    ea.opts.sweep_cases = 0;
    ea.opts.fd_cases = 100;
    return ea;
}

int cc_exec_audit_claim(cc_exec_audit *ea, const char *spec, double k, char *err)
{
    if (cc_claim_parse(spec, k, ea->force, &ea->claims, err) < 0) return -1;
    if (ea->claims.bridson_force && (!ea->force || strcmp(ea->condition, "bend")))
        return cc_fail(err, "bridson-force is a force on a hinge: it goes with bend and the force contract");
    if (ea->claims.cond && strcmp(ea->claims.cond->condition, ea->condition))
        return cc_fail(err, "%s is not a %s variant", spec, ea->condition);
    return 0;
}

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

/* the first request: every element of the batch; the fields it answers with and the precision
 * of its numbers; 0 or -1 with err */
static int first_fetch(const cc_exec_audit *ea, cc_exec *x, cc_exec_run *r, double *precision, char *err)
{
    cc_memo *m = &r->memo;
    ask_elements(ea, m);
    if (ea->progress)
        fprintf(ea->progress, "clothcheck audit: %d elements to ask the program for\n", cc_memo_missing_count(m));
    if (cc_exec_fetch(x, m, err) < 0) return -1;
    if (!x->seen)
        return cc_fail(err, "the program's answers hold none of %s",
                       ea->force ? "force, jacobian, energy" : "value, gradient, hessian");
    m->provides = x->seen;
    *precision = program_precision(ea, x, &r->floats);
    return 0;
}

/* the passes of the audit under o: r->audit = the audit of the program once a pass asks
 * nothing new (with the diagnosis of its failing rows if diagnose); 0 or -1 with err */
static int run_passes(const cc_exec_audit *ea, cc_exec *x, cc_exec_run *r, const cc_audit_opts *o, int diagnose,
                      char *err)
{
    cc_memo *m = &r->memo;
    for (int pass = 1; pass <= MAX_PASSES; pass++) {
        cc_target t = exec_target(ea, m);
        int built = diagnose ? cc_audit_run(&t, o, &r->audit) : cc_audit_rows(&t, o, &r->audit);
        if (built < 0) return cc_fail(err, "no element could be built"), CC_EXEC_NO_ELEMENT;
        int missing = cc_memo_missing_count(m);
        if (missing == 0) return 0;
        if (ea->progress)
            fprintf(ea->progress, "clothcheck audit: %s pass %d: %d elements to ask the program for\n",
                    diagnose ? "full" : "light", pass, missing);
        if (cc_exec_fetch(x, m, err) < 0) return -1;
    }
    /* what is still missing is a search of the diagnosis (a rest shape, say) that the program's
     * rounding keeps from converging: the rows are settled, the findings hold what it reached */
    r->unsettled = cc_memo_missing_count(m);
    cc_memo_clear_missing(m);
    return 0;
}

/* The light audit, which asks the program little: with a claim, the claim rows on every element
 * (one evaluation each) and the differences of its own numbers on the first LIGHT_FD_ELEMENTS
 * random elements; without one, central differences (two evaluations a coordinate) wherever
 * the full audit takes central4 ones (four); the Taylor test on LIGHT_TAYLOR elements. Where it
 * fails, the full audit runs (the program's answers so far are kept) and its rows, diagnosis
 * and verdict are the report's. */
#define LIGHT_FD_ELEMENTS 3
#define LIGHT_TAYLOR 1

/* the options of the light audit for ea's full ones o */
static cc_audit_opts light_opts(const cc_exec_audit *ea, const cc_audit_opts *o)
{
    cc_audit_opts l = *o;
    if (cc_claim_given(&ea->claims)) l.fd_cases = LIGHT_FD_ELEMENTS, l.fd_no_edges = 1;
    else l.fd_central = 1;
    if (l.taylor_cases > LIGHT_TAYLOR) l.taylor_cases = LIGHT_TAYLOR;
    return l;
}

/* the light audit, then the full one where it fails; 0 or -1 with err */
static int run_audits(const cc_exec_audit *ea, cc_exec *x, cc_exec_run *r, char *err)
{
    double precision = 0;
    if (first_fetch(ea, x, r, &precision, err) < 0) return -1;
    cc_audit_opts o = ea->opts;
    o.claims = ea->claims;
    o.precision = precision;
    if (!o.only_case) {   /* (one element: the full audit asks little) */
        cc_audit_opts l = light_opts(ea, &o);
        int rc = run_passes(ea, x, r, &l, 0, err);
        if (rc < 0 || !cc_audit_failed(&r->audit)) return rc;
        r->widened = 1;
    }
    return run_passes(ea, x, r, &o, 1, err);
}

int cc_exec_audit_run(const cc_exec_audit *ea, cc_exec_run *r, char *err)
{
    cc_exec x = {0};
    memset(r, 0, sizeof *r);
    r->k = ea->claims.k > 0 ? ea->claims.k : 1.0;
    x.force = ea->force, x.condition = ea->condition, x.k = r->k;
    x.variant = ea->claims.bridson_force ? "bridson-force" : ea->claims.cond ? ea->claims.cond->variant : NULL;
    x.timeout = ea->timeout > 0 ? ea->timeout : 30;
    x.free_ncomp = !ea->force && !cc_claim_given(&ea->claims);   /* bend/quadratic has 3 */
    const cc_condition *c = ea->condition ? cc_condition_find(ea->condition, NULL) : NULL;
    if (!c)
        return cc_fail(err, "unknown condition '%s' (stretch, shear, bend, spring)",
                            ea->condition ? ea->condition : "(none)"), CC_EXEC_MISUSE;
    if (!ea->cmd || !*ea->cmd) return cc_fail(err, "no command given"), CC_EXEC_MISUSE;
    if (cc_memo_init(&r->memo, c->nv, components(ea)) < 0) return cc_fail(err, "out of memory"), CC_EXEC_NO_MEMORY;
    char why[CC_ERRLEN];
    if (cc_exec_start(&x, ea->cmd, why) < 0) {
        cc_memo_free(&r->memo);
        return cc_fail(err, "the command: %s", why), CC_EXEC_PROGRAM;
    }
    int rc = run_audits(ea, &x, r, why);
    cc_exec_close(&x);
    if (rc == 0) program_precision(ea, &x, &r->floats);   /* over every number it sent */
    r->batches = x.batches, r->elements = x.elements, r->max_digits = x.dec.max_digits;
    if (rc < 0) {
        cc_exec_run_free(r);
        cc_fail(err, "%s: %s", ea->cmd, why);
        return rc;
    }
    cc_identify_audit(&r->audit, ea->force, r->k, &r->id);
    return 0;
}

void cc_exec_run_free(cc_exec_run *r)
{
    cc_memo_free(&r->memo);
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
static void report_identity(FILE *f, const cc_exec_audit *ea, const cc_exec_run *r)
{
    const cc_identity *id = &r->id;
    const cc_audit *a = &r->audit;
    char label[160], parts[64];
    if (!id->any) return;
    cc_identity_label(id, &a->opts, r->k, label, sizeof label);
    given_parts(ea, r->memo.provides, parts, sizeof parts);
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
        if (id->k > 0 && fabs(id->k - r->k) > 1e-6 * r->k)
            snprintf(again + strlen(again), sizeof again - strlen(again), " --k %.6g", id->k);
        if (id->bridson_force) fprintf(f, "; audit it as that with --claims bridson-force%s", again);
        else fprintf(f, "; audit it as that with --claims %s/%s%s", id->cond->condition, id->cond->variant, again);
    }
    fputc('\n', f);
}

/* the precision line of a program whose numbers carry fewer digits than a double's */
static void report_precision(FILE *f, const cc_exec_audit *ea, const cc_exec_run *r)
{
    const cc_audit *a = &r->audit;
    const cc_audit_row *c = cc_audit_find(a, CC_REF_CLAIM, CC_Q_GRADIENT);
    char agrees[64] = "", why[96];
    if (c && c->available && c->pass) snprintf(agrees, sizeof agrees, "agrees with its claim to %.1e: ", c->max_rel);
    if (ea->precision == CC_PRECISION_SINGLE) snprintf(why, sizeof why, "--precision single");
    else if (r->floats) snprintf(why, sizeof why, "single: every number it sent is a float's rounding");
    else snprintf(why, sizeof why, "it prints %d significant digits", r->max_digits);
    double p = a->opts.precision;
    fprintf(f, "  precision: %sjudged to %.1e (%s): tolerances %.2g, %.2g for differences of its gradient%s\n", agrees, p,
            why, CC_AUDIT_TOL_LIMITED * p, CC_AUDIT_TOL_LIMITED_FD * p,
            CC_AUDIT_TOL_LIMITED_FD * p > 0.01 && !r->floats
                ? " -- too few digits for a sharp audit: print %.17g (%.9g for floats)" : "");
}

void cc_exec_report_extras(FILE *f, const cc_exec_audit *ea, const cc_exec_run *r)
{
    int missing = (CC_WANT_VALUE | CC_WANT_GRAD | CC_WANT_HESS) & ~r->memo.provides;
    for (int b = CC_WANT_VALUE; b <= CC_WANT_HESS; b <<= 1)
        if (missing & b)
            fprintf(f, "  missing: the program gives no %s; the rows that need it are not applicable\n",
                    field_name(ea, b));
    if (cc_audit_limited(&r->audit.opts)) report_precision(f, ea, r);
    report_identity(f, ea, r);
    const cc_audit_opts *o = &r->audit.opts;
    fprintf(f, "  the program answered %d requests, %ld elements: %.1f an audited element", r->batches, r->elements,
            r->audit.ncases > 0 ? (double)r->elements / r->audit.ncases : 0.0);
    if (r->widened) fputs(" (the light audit failed: the full one ran)", f);
    else if (o->fd_central) fputs(" (central differences: the light audit held)", f);
    else if (o->fd_no_edges) fprintf(f, " (differences on %d elements: the light audit held)", o->fd_cases);
    fputc('\n', f);
}
