/* Terminal table, JSON rows and gnuplot figures of audits (see report.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "checks/diagnose.h"
#include "checks/identify.h"
#include "checks/report.h"
#include "io/gnuplot.h"
#include "io/json.h"
#include "math/cc_vec.h"

#define ANGLES 180            /* bend angles in the angle figure */
#define LOG_FLOOR 1e-17       /* errors below this are drawn at it (log axes) */

static const char *const mode_names[] = {"trans-x", "trans-y", "trans-z", "rot-x", "rot-y", "rot-z"};

/* 1 if the row's worst entry is a Hessian entry (k, m, s, n, t) */
static int two_index(const cc_audit_row *w)
{
    return w->q == CC_Q_HESSIAN || w->q == CC_Q_HESS_GRADIENT || w->q == CC_Q_SYMMETRY ||
           (w->q == CC_Q_FINITE && w->worst.j >= 0);
}


/* "k m s [n t]" of the row's worst entry */
void cc_report_where(const cc_audit_row *w, char *buf, int len)
{
    const cc_diff *d = &w->worst;
    if (d->k < 0 || w->q == CC_Q_TAYLOR) snprintf(buf, (size_t)len, "-");
    else if (w->q == CC_Q_VALUE || (w->q == CC_Q_FINITE && d->i < 0)) snprintf(buf, (size_t)len, "k%d", d->k);
    else if (w->q == CC_Q_TRANSLATION || w->q == CC_Q_ROTATION) snprintf(buf, (size_t)len, "k%d s%d", d->k, d->i);
    else if (w->q == CC_Q_RIGID)
        snprintf(buf, (size_t)len, "k%d m%d s%d %s", d->k, d->i / 3, d->i % 3, mode_names[d->j % 6]);
    else if (two_index(w))
        snprintf(buf, (size_t)len, "k%d m%d s%d n%d t%d", d->k, d->i / 3, d->i % 3, d->j / 3, d->j % 3);
    else snprintf(buf, (size_t)len, "k%d m%d s%d", d->k, d->i / 3, d->i % 3);
}

/* PASS/FAIL for gating rows; agrees/differs for rows reported only; n/a when unavailable */
static const char *result(const cc_audit_row *w)
{
    if (!w->available) return "n/a";
    if (w->gates) return w->pass ? "PASS" : "FAIL";
    return w->pass ? "(agrees)" : "(differs)";
}

/* one table line of row w */
static void print_row(FILE *f, const cc_audit *a, const cc_audit_row *w)
{
    char where[64], label[48], err[16];
    cc_report_where(w, where, sizeof where);
    cc_case_label(a->target.nv, w->worst_case, label, sizeof label);
    if (!w->available) {
        fprintf(f, "  %-12s %-19s %s\n", cc_row_reference(w), cc_quantity_name(w->q), w->note);
        return;
    }
    if (w->q == CC_Q_TAYLOR) {
        const cc_taylor *t = &w->taylor;
        char o[3][12];
        for (int q = 0; q < 3; q++)
            if (t->roundoff[q]) snprintf(o[q], sizeof o[q], "round-off");
            else snprintf(o[q], sizeof o[q], "%.2f", t->order[q]);
        fprintf(f, "  %-12s %-19s orders %s %s %s (expect 1 2 3) over %d element%s, lowest r1 at %-14s %s\n",
                cc_row_reference(w), "taylor", o[0], o[1], o[2], w->samples, w->samples == 1 ? "" : "s", label, result(w));
        return;
    }
    if (w->q == CC_Q_FINITE) {   /* no comparison: how many elements gave numbers that are not all finite */
        fprintf(f, "  %-12s %-19s %s at %d of %d element%s", "target", "finite", w->pass ? "finite" : "NOT finite",
                w->pass ? w->samples : w->undefined, w->samples, w->samples == 1 ? "" : "s");
        if (!w->pass) fprintf(f, ", first %s at %s", where, label);
        fprintf(f, "%*s%s\n", w->pass ? 33 + (w->samples == 1) : 4, "", result(w));
        for (int i = 0; i < w->diag.n; i++)
            fprintf(f, "      %s %-16s %s\n", i ? " " : "^", cc_finding_name(w->diag.f[i].kind), w->diag.f[i].text);
        return;
    }
    if (w->samples == 0)   /* every element skipped: nothing to show but why */
        fprintf(f, "  %-12s %-19s %-10s %9s  %-18s %11s %11s  %-19s %s", cc_row_reference(w),
                cc_quantity_name(w->q), w->scheme, "-", "-", "-", "-", "no element compared", result(w));
    else {
        snprintf(err, sizeof err, isnan(w->max_rel) ? "NaN" : "%.2e", w->max_rel);
        fprintf(f, "  %-12s %-19s %-10s %9s  %-18s %11.4e %11.4e  %-19s %s", cc_row_reference(w),
                cc_quantity_name(w->q), w->scheme, err, where, w->worst.analytic, w->worst.reference,
                label, result(w));
    }
    if (w->undefined) fprintf(f, " [undefined at %d element%s%s]", w->undefined, w->undefined == 1 ? "" : "s",
                              w->ref_nonfinite ? ", the reference not finite there" : "");
    if (w->rough) fprintf(f, " [jumps within the step at %d element%s]", w->rough, w->rough == 1 ? "" : "s");
    if (w->rounded)
        fprintf(f, " [within its rounding at %d element%s]", w->rounded, w->rounded == 1 ? "" : "s");
    fputc('\n', f);
    for (int i = 0; i < w->diag.n; i++)
        fprintf(f, "      %s %-16s %s\n", i ? " " : "^", cc_finding_name(w->diag.f[i].kind), w->diag.f[i].text);
}

/* the sweep lines of a: best step, min error, slope, floor, verdict */
static void print_sweeps(FILE *f, const cc_audit *a)
{
    if (!a->nsweeps) return;
    int ns = a->opts.only_case ? 1 : (a->opts.sweep_cases < a->ncases ? a->opts.sweep_cases : a->ncases);
    fprintf(f, "  step sweeps (steps 1e-1..1e-12 relative to the element's step scale, max over %d element%s):\n", ns,
            ns == 1 ? "" : "s");
    fprintf(f, "    %-7s %-19s %-9s %8s %10s %6s %9s  %s\n", "of", "quantity", "scheme", "best h",
            "min error", "slope", "floor", "verdict");
    for (int i = 0; i < a->nsweeps; i++) {
        const cc_sweep *s = &a->sweeps[i];
        double hb = s->best >= 0 ? s->h[s->best] : NAN, eb = s->best >= 0 ? s->err[s->best] : NAN;
        char slope[16] = "     -";   /* no slope: a plateau, or Ridders' extrapolation (no order to fit) */
        if (isfinite(s->slope)) snprintf(slope, sizeof slope, "%6.2f", s->slope);
        fprintf(f, "    %-7s %-19s %-9s %8.1e %10.2e %s %9.1e  %s", s->q == CC_FDQ_HESS_GRADIENT ? "grad" : s->frozen ? "frozen" : "C",
                cc_fdq_name(s->q), cc_scheme_name(s->scheme), hb, eb, slope, s->floor,
                cc_verdict_name(s->verdict));
        if (s->verdict == CC_VERDICT_WRONG) fprintf(f, " (plateau at %.1e)", s->plateau);
        fputc('\n', f);
    }
}

/* the table of n audits on f */
void cc_report_table(FILE *f, const cc_audit *a, int n)
{
    fputs("max rel: largest over the elements of max|analytic - reference| / max(|analytic|, |reference|);\n"
          "worst: component k, vertex m, axis s (, vertex n, axis t) of that entry, and its element.\n"
          "PASS/FAIL judge what the variant claims; (agrees)/(differs) are reported only.\n\n", f);
    for (int i = 0; i < n; i++) {
        const cc_target *t = &a[i].target;
        fprintf(f, "%s %s  [claims %s]  %s  (", t->condition, t->variant, cc_claim_name(t->claim),
                t->source ? t->source : "");
        int edges = a[i].opts.edges && !a[i].opts.only_case ? cc_edge_count(t->nv) : 0;
        if (edges > a[i].ncases) edges = a[i].ncases;
        if (a[i].opts.only_case) {
            char label[64];
            cc_case_label(t->nv, a[i].opts.case_id, label, sizeof label);
            fprintf(f, "the one element %s", label);
        } else {
            fprintf(f, "%d random element%s", a[i].ncases - edges, a[i].ncases - edges == 1 ? "" : "s");
            if (edges) fprintf(f, " + %d edge case%s", edges, edges == 1 ? "" : "s");
        }
        fprintf(f, ", seed %llu", (unsigned long long)a[i].opts.seed);
        if (t->nv == 3)   /* the area weight the triangles carry: alpha = a^P */
            fprintf(f, ", alpha = a^%g", a[i].opts.sample.area_power > 0 ? a[i].opts.sample.area_power : 1.0);
        if (t->nv == 4 && a[i].opts.sample.flat_rest) fputs(", flat rests", f);
        fputs(")\n", f);
        if (cc_claim_given(&t->claims)) {
            char label[96];
            cc_claim_label(&t->claims, label, sizeof label);
            fprintf(f, "  claims to implement %s: rows 'claim' compare its numbers with that, entry by entry\n", label);
        }
        fprintf(f, "  %-12s %-19s %-10s %9s  %-18s %11s %11s  %-19s %s\n", "reference", "quantity",
                "scheme", "max rel", "worst (k m s n t)", "analytic", "reference", "case", "result");
        for (int r = 0; r < a[i].nrows; r++) print_row(f, &a[i], &a[i].rows[r]);
        print_sweeps(f, &a[i]);
        fprintf(f, "  => %s\n\n", a[i].target.claim == CC_CLAIM_NONE ? "no claim: reported only"
                                   : cc_audit_failed(&a[i]) ? "FAILS its claim" : "holds its claim");
    }
}

/* , "key": "v" */
static void json_kv_string(FILE *f, const char *key, const char *v)
{
    fprintf(f, ", \"%s\": ", key);
    cc_json_string(f, v);
}

/* , "key": v (null if not finite) */
static void json_kv_number(FILE *f, const char *key, double v)
{
    fprintf(f, ", \"%s\": ", key);
    cc_json_number(f, v);
}

/* , "worst": {k, m, s[, n, t], analytic, reference} */
static void json_worst(FILE *f, const cc_audit_row *w)
{
    const cc_diff *d = &w->worst;
    fputs(", \"worst\": {", f);
    if (d->k >= 0 && w->q != CC_Q_TAYLOR) {
        if (w->q == CC_Q_TRANSLATION || w->q == CC_Q_ROTATION) fprintf(f, "\"k\": %d, \"s\": %d", d->k, d->i);
        else if (w->q == CC_Q_VALUE) fprintf(f, "\"k\": %d", d->k);
        else fprintf(f, "\"k\": %d, \"m\": %d, \"s\": %d", d->k, d->i / 3, d->i % 3);
        if (w->q == CC_Q_RIGID) fprintf(f, ", \"mode\": \"%s\"", mode_names[d->j % 6]);
        else if (two_index(w)) fprintf(f, ", \"n\": %d, \"t\": %d", d->j / 3, d->j % 3);
        json_kv_number(f, "analytic", d->analytic);
        json_kv_number(f, "reference", d->reference);
    }
    fputc('}', f);
}

/* , "sweep": {scheme, best_step, min_error, slope, floor, verdict, steps, errors} */
static void json_sweep(FILE *f, const cc_sweep *s)
{
    fputs(", \"sweep\": {\"scheme\": ", f);
    cc_json_string(f, cc_scheme_name(s->scheme));
    json_kv_number(f, "best_step", s->best >= 0 ? s->h[s->best] : NAN);
    json_kv_number(f, "min_error", s->best >= 0 ? s->err[s->best] : NAN);
    json_kv_number(f, "slope", s->slope);
    json_kv_number(f, "floor", s->floor);
    json_kv_string(f, "verdict", cc_verdict_name(s->verdict));
    fputs(", \"steps\": ", f);
    cc_json_array(f, s->h, CC_SWEEP_STEPS);
    fputs(", \"errors\": ", f);
    cc_json_array(f, s->err, CC_SWEEP_STEPS);
    fputc('}', f);
}

/* , "diagnosis": [{"kind", "text"[, "factor"][, "vertices"][, "along"], "share", "of"}, ...] */
static void json_diagnosis(FILE *f, const cc_diagnosis *dg)
{
    fputs(", \"diagnosis\": [", f);
    for (int i = 0; i < dg->n; i++) {
        const cc_finding *g = &dg->f[i];
        fputs(i ? ", {\"kind\": " : "{\"kind\": ", f);
        cc_json_string(f, cc_finding_name(g->kind));
        json_kv_string(f, "text", g->text);
        if (g->kind == CC_FIND_SCALE || g->kind == CC_FIND_SIGN) json_kv_number(f, "factor", g->factor);
        if (g->vertices) {
            fputs(", \"vertices\": [", f);
            for (int m = 0, first = 1; m < CC_MAX_NV; m++)
                if (g->vertices & (1u << m)) fprintf(f, first ? "%d" : ", %d", m), first = 0;
            fputc(']', f);
        }
        if (g->along) json_kv_string(f, "along", g->along);
        fprintf(f, ", \"share\": %d, \"of\": %d}", g->share, g->of);
    }
    fputc(']', f);
}

/* one JSON row object */
static void json_row(FILE *f, const cc_audit *a, const cc_audit_row *w)
{
    char label[48];
    cc_case_label(a->target.nv, w->worst_case, label, sizeof label);
    fputs("{\"condition\": ", f);
    cc_json_string(f, a->target.condition);
    json_kv_string(f, "variant", a->target.variant);
    json_kv_string(f, "reference", cc_row_reference(w));
    json_kv_string(f, "quantity", cc_quantity_name(w->q));
    json_kv_number(f, "max_rel_error", w->available && (w->samples > 0 || w->q == CC_Q_FINITE) ? w->max_rel : NAN);
    fprintf(f, ", \"pass\": %s", w->available && w->pass ? "true" : "false");
    json_kv_string(f, "status", !w->available ? "not applicable" : w->pass ? "pass" : "fail");
    json_worst(f, w);
    fprintf(f, ", \"samples\": %d", w->samples);
    json_kv_string(f, "claim", cc_claim_name(a->target.claim));
    fprintf(f, ", \"gates\": %s, \"available\": %s", w->gates ? "true" : "false", w->available ? "true" : "false");
    json_kv_string(f, "scheme", w->scheme);
    json_kv_number(f, "step", w->step);
    json_kv_number(f, "tol", w->q == CC_Q_TAYLOR ? NAN : w->tol);
    json_kv_string(f, "case", label);
    fprintf(f, ", \"case_id\": %d, \"seed\": %llu, \"undefined\": %d, \"reference_nonfinite\": %d, \"rough\": %d"
            ", \"rounded\": %d",
            w->worst_case, (unsigned long long)a->opts.seed, w->undefined, w->ref_nonfinite, w->rough, w->rounded);
    json_kv_string(f, "note", w->note);
    if (w->sweep >= 0) json_sweep(f, &a->sweeps[w->sweep]);
    if (w->diag.n) json_diagnosis(f, &w->diag);
    if (w->q == CC_Q_TAYLOR) {
        fputs(", \"orders\": ", f);
        cc_json_array(f, w->taylor.order, 3);
    }
    fputc('}', f);
}

/* "pass", "fail" or "no claim" of n audits */
static const char *verdict_of(const cc_audit *a, int n)
{
    int claimed = 0;
    for (int i = 0; i < n; i++) {
        if (cc_audit_failed(&a[i])) return "fail";
        claimed |= a[i].target.claim != CC_CLAIM_NONE || cc_claim_given(&a[i].target.claims);
    }
    return claimed ? "pass" : "no claim";
}

/* , "identified": {...} */
static void json_identified(FILE *f, const cc_identity *id, const cc_audit_opts *o, double k_request)
{
    char claim[64];
    if (id->bridson_force) snprintf(claim, sizeof claim, "bridson-force");
    else snprintf(claim, sizeof claim, "%s/%s", id->cond->condition, id->cond->variant);
    fputs(", \"identified\": {\"claims\": ", f);
    cc_json_string(f, claim);
    json_kv_string(f, "hessian", cc_identity_hessian(id));
    int nv = id->bridson_force ? 4 : id->cond->nv;
    double P0 = o->sample.area_power > 0 ? o->sample.area_power : 1.0;
    if (nv == 3 && id->area_power != P0) json_kv_number(f, "area_power", id->area_power);
    if (id->k > 0 && fabs(id->k - k_request) > 1e-6 * fabs(k_request)) json_kv_number(f, "k", id->k);
    int ident = 1;
    for (int m = 0; m < nv; m++) ident &= id->perm[m] == m;
    if (!ident) {
        fputs(", \"vertex_map\": [", f);
        for (int m = 0; m < nv; m++) fprintf(f, m ? ", %d" : "%d", id->perm[m]);
        fputc(']', f);
        if (id->rest_as_given) fputs(", \"rest_as_given\": true", f);
    }
    if (id->same_as) {
        char same[64];
        snprintf(same, sizeof same, "%s/%s", id->same_as->condition, id->same_as->variant);
        json_kv_string(f, "same_as", same);
    }
    json_kv_number(f, "max_rel_error", id->max_rel);
    fprintf(f, ", \"matches\": %s, \"elements\": %d}", id->found ? "true" : "false", id->elements);
}

void cc_report_json_identified(FILE *f, const cc_audit *a, int n, const cc_identity *id, double k_request)
{
    int first = 1;
    fputs("{\"verdict\": ", f);
    cc_json_string(f, verdict_of(a, n));
    if (n > 0) {
        const cc_audit_opts *o = &a[0].opts;
        fprintf(f, ", \"options\": {\"samples\": %d, \"seed\": %llu, \"edges\": %s", o->samples,
                (unsigned long long)o->seed, o->edges ? "true" : "false");
        json_kv_number(f, "area_power", o->sample.area_power > 0 ? o->sample.area_power : 1.0);
        json_kv_number(f, "precision", o->precision);
        fputc('}', f);
        if (id && id->any) json_identified(f, id, o, k_request);
    }
    fputs(", \"rows\": [\n", f);
    for (int i = 0; i < n; i++)
        for (int r = 0; r < a[i].nrows; r++) {
            fputs(first ? "  " : ",\n  ", f);
            json_row(f, &a[i], &a[i].rows[r]);
            first = 0;
        }
    fputs("\n]}\n", f);
}

void cc_report_json(FILE *f, const cc_audit *a, int n) { cc_report_json_identified(f, a, n, NULL, 0); }

/* ---- plots ---- */

/* the sweeps drawn in a V-curve, with their titles */
static int vcurve_pick(const cc_audit *a, int *idx, const char **title)
{
    static const struct {
        cc_fdq q;            /* quantity */
        cc_scheme s;         /* scheme */
        int other;           /* 1: against the function the variant does not claim */
        const char *title;   /* legend */
    } want[] = {
        {CC_FDQ_GRADIENT, CC_FD_FORWARD, 0, "gradient, forward"},
        {CC_FDQ_GRADIENT, CC_FD_CENTRAL, 0, "gradient, central"},
        {CC_FDQ_GRADIENT, CC_FD_CENTRAL4, 0, "gradient, central4"},
        {CC_FDQ_GRADIENT, CC_FD_RIDDERS, 0, "gradient, Ridders"},
        {CC_FDQ_HESS_VALUE, CC_FD_CENTRAL, 0, "Hessian, 2nd diff. central"},
        {CC_FDQ_HESS_VALUE, CC_FD_CENTRAL4, 0, "Hessian, 2nd diff. central4"},
        {CC_FDQ_HESS_GRADIENT, CC_FD_CENTRAL4, 0, "Hessian vs diff. of gradient"},
        {CC_FDQ_GRADIENT, CC_FD_CENTRAL4, 1, "gradient, central4, other function"},
    };
    int fr = a->target.claim == CC_CLAIM_FROZEN && a->target.frozen, m = 0;
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++)
        for (int i = 0; i < a->nsweeps; i++) {
            const cc_sweep *s = &a->sweeps[i];
            int other = s->q != CC_FDQ_HESS_GRADIENT && s->frozen != fr;
            if (s->q == want[w].q && s->scheme == want[w].s && other == want[w].other) {
                idx[m] = i;
                title[m++] = want[w].other ? (fr ? "gradient vs C itself (central4)" : "gradient vs frozen C (central4)")
                                           : want[w].title;
                break;
            }
        }
    return m;
}

/* y for a log axis: the error, floored; NaN stays NaN (gnuplot skips it) */
static double logy(double e) { return isnan(e) ? NAN : fmax(e, LOG_FLOOR); }

/* " v", or " NaN" (a gap for gnuplot) */
static void dat_number(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, " %.6e", v);
    else fputs(" NaN", f);
}

/* vcurve_<condition>_<variant>.dat and .gp in dir; name gets the stem; 0 or -1 */
static int write_vcurve(const char *dir, const cc_audit *a, char *name, char *err)
{
    int idx[8];
    const char *title[8];
    int m = vcurve_pick(a, idx, title);
    cc_outfile df, gf;
    snprintf(name, 96, "vcurve_%s_%s", a->target.condition, a->target.variant);
    if (cc_gp_data_open(&df, dir, name, err) < 0) return -1;
    fprintf(df.f, "# step sweep of %s %s: normwise relative error of the analytic derivative\n"
                  "# against each finite-difference estimate; column 1 the relative step h\n#", a->target.condition,
            a->target.variant);
    for (int c = 0; c < m; c++) fprintf(df.f, " [%d] %s;", c + 2, title[c]);
    fputc('\n', df.f);
    for (int k = 0; k < CC_SWEEP_STEPS; k++) {
        fprintf(df.f, "%.6e", a->sweeps[0].h[k]);
        for (int c = 0; c < m; c++) dat_number(df.f, logy(a->sweeps[idx[c]].err[k]));
        fputc('\n', df.f);
    }
    if (cc_outfile_commit(&df, err) < 0 || cc_gp_script_open(&gf, dir, name, 760, 560, err) < 0)
        return -1;
    fprintf(gf.f, "set title \"%s %s (claims %s): error against finite differences\"\n"
                  "set logscale xy\nset format xy \"10^{%%L}\"\nset xrange [1e-12:0.1]\n"
                  "set yrange [1e-17:10]\nset xlabel \"relative step h\"\n"
                  "set ylabel \"normwise relative error\"\nset key below maxrows 3 font \",8\"\nset grid\nplot \\\n",
            a->target.condition, a->target.variant, cc_claim_name(a->target.claim));
    for (int c = 0; c < m; c++)
        fprintf(gf.f, "  \"%s.dat\" using 1:%d with linespoints pt %d ps 0.6 title \"%s\"%s\n", name, c + 2,
                c + 4, title[c], c + 1 < m ? ", \\" : "");
    return cc_gp_script_close(&gf, err);
}

/* at bend angle theta: C, and the gradient and Hessian errors against the exact reference */
static void angle_point(const cc_target *t, double theta, double *out)
{
    cc_eval e;
    cc_deriv d;
    double x[CC_MAX_DOF], C[CC_MAX_COMP];
    cc_rest r;
    char msg[CC_ERRLEN];
    out[0] = out[1] = out[2] = NAN;
    cc_sample_hinge_at_angle(theta, 0.8, 0.6, 0.1, -0.2, x);
    if (cc_rest_hinge(&r, 0.0, msg) < 0) return;
    if (cc_target_value(t, x, NULL, &r, C) == 0) out[0] = C[0];
    int got = t->eval(t->ctx, x, &r, CC_WANT_ALL, &e);
    if (got < 0 || cc_exact_derivs(t, x, NULL, &r, 1, &d) < 0) return;
    if (got & CC_WANT_GRAD) out[1] = logy(cc_compare_gradient(e.dC, d.g, t->ncomp, 12).rel);
    if (got & CC_WANT_HESS) out[2] = logy(cc_compare_hessian(e.d2C, d.H, t->ncomp, 12).rel);
}

/* bend_angle.dat and .gp over the 4-vertex targets: 1 written, 0 none, -1 error */
static int write_angle(const char *dir, const cc_audit *a, int n, char *err)
{
    const char *name = "bend_angle";
    int bends[32], nb = 0;
    for (int i = 0; i < n && nb < 32; i++)
        if (a[i].target.nv == 4 && a[i].target.ncomp == 1 && a[i].target.value_hd) bends[nb++] = i;
    if (!nb) return 0;
    cc_outfile df, gf;
    if (cc_gp_data_open(&df, dir, name, err) < 0) return -1;
    fprintf(df.f, "# bend variants on one hinge (wings 0.8, 0.6) across theta in (-pi, pi); per variant\n"
                  "# three columns: C, gradient and Hessian normwise relative error against the exact\n"
                  "# (hyper-dual) derivatives of C itself\n# theta");
    for (int b = 0; b < nb; b++) fprintf(df.f, " | %s: C grad hess", a[bends[b]].target.variant);
    fputc('\n', df.f);
    for (int j = 0; j < ANGLES; j++) {
        double theta = -CC_PI + 2 * CC_PI * (j + 0.5) / ANGLES, v[3];
        fprintf(df.f, "%.6e", theta);
        for (int b = 0; b < nb; b++) {
            angle_point(&a[bends[b]].target, theta, v);
            for (int c = 0; c < 3; c++) dat_number(df.f, v[c]);
        }
        fputc('\n', df.f);
    }
    if (cc_outfile_commit(&df, err) < 0 || cc_gp_script_open(&gf, dir, name, 760, 900, err) < 0)
        return -1;
    fputs("set multiplot layout 3,1 title \"bend variants across the bend angle (one hinge, rest angle 0)\"\n"
          "set xrange [-pi:pi]\nset xtics (\"-pi\" -pi, \"-3pi/4\" -3*pi/4, \"-pi/2\" -pi/2, \"-pi/4\" -pi/4, "
          "\"0\" 0, \"pi/4\" pi/4, \"pi/2\" pi/2, \"3pi/4\" 3*pi/4, \"pi\" pi)\nset grid\n"
          "set key outside right font \",8\"\n", gf.f);
    const char *panel[3] = {"set ylabel \"C\"\nunset logscale y\nset format y \"%g\"\n",
                            "set ylabel \"gradient error vs exact\"\nset logscale y\nset format y \"10^{%L}\"\nset yrange [1e-17:10]\n",
                            "set ylabel \"Hessian error vs exact\"\nset xlabel \"theta\"\n"};
    for (int p = 0; p < 3; p++) {
        fputs(panel[p], gf.f);
        fputs("plot \\\n", gf.f);
        for (int b = 0; b < nb; b++)
            fprintf(gf.f, "  \"%s.dat\" using 1:%d with lines lw 1.5 title \"%s\"%s\n", name, 2 + 3 * b + p,
                    a[bends[b]].target.variant, b + 1 < nb ? ", \\" : "");
    }
    fputs("unset multiplot\n", gf.f);
    return cc_gp_script_close(&gf, err) < 0 ? -1 : 1;
}

/* every plot of n audits into dir; PNGs made, -1 without gnuplot, -2 on error */
/* 1 if row w was diagnosed grows-with */
static int has_growth(const cc_audit_row *w)
{
    for (int i = 0; i < w->diag.n; i++)
        if (w->diag.f[i].kind == CC_FIND_GROWS) return 1;
    return 0;
}

/* the error of row w of a against the feature it grows with: NAME.dat and NAME.gp; 1 written,
 * 0 nothing to plot, -1 with err */
static int write_growth(const char *dir, const cc_audit *a, const cc_audit_row *w, char *name, char *err)
{
    double feat[CC_DIAG_GROWTH], e[CC_DIAG_GROWTH];
    const char *fname;
    int m = cc_diagnose_growth(a, w, feat, e, &fname);
    if (m <= 0) return 0;
    cc_outfile df, gf;
    snprintf(name, 96, "growth_%s_%s_%s_%s", a->target.condition, a->target.variant, cc_row_reference(w),
             cc_quantity_name(w->q));
    for (char *c = name; *c; c++)
        if (*c == '-') *c = '_';
    if (cc_gp_data_open(&df, dir, name, err) < 0) return -1;
    fprintf(df.f, "# %s %s, %s %s: normwise relative error of each element against %s\n", a->target.condition,
            a->target.variant, cc_row_reference(w), cc_quantity_name(w->q), fname);
    for (int i = 0; i < m; i++) fprintf(df.f, "%.9e %.9e\n", feat[i], e[i]);
    if (cc_outfile_commit(&df, err) < 0 || cc_gp_script_open(&gf, dir, name, 760, 560, err) < 0)
        return -1;
    double lo = feat[0], hi = feat[0];
    for (int i = 1; i < m; i++) lo = fmin(lo, feat[i]), hi = fmax(hi, feat[i]);
    fprintf(gf.f, "set title \"%s %s: %s %s error of each element against %s\" noenhanced\n"
                  "set logscale y\nset format y \"10^{%%L}\"\n%s"
                  "set xlabel \"%s\" noenhanced\nset ylabel \"normwise relative error\"\nunset key\nset grid\n"
                  "plot \"%s.dat\" using 1:2 with points pt 7 ps 0.8\n",
            a->target.condition, a->target.variant, cc_row_reference(w), cc_quantity_name(w->q), fname,
            lo > 0 && hi > 30 * lo ? "set logscale x\n" : "", fname, name);
    return cc_gp_script_close(&gf, err) < 0 ? -1 : 1;
}

int cc_report_plots(const char *dir, const cc_audit *a, int n, char *err)
{
    char (*names)[96] = malloc(sizeof *names * (size_t)(n + 1));
    const char **list = calloc((size_t)(n + 1), sizeof *list);
    int m = 0, rc = 0;
    err[0] = '\0';
    if (!names || !list) {
        free(names), free(list);
        return snprintf(err, CC_ERRLEN, "out of memory"), -2;
    }
    int cap = n + 1;
    for (int i = 0; i < n; i++)
        for (int r = 0; r < a[i].nrows; r++) cap += has_growth(&a[i].rows[r]);
    if (cap > n + 1) {
        char (*more)[96] = realloc(names, sizeof *names * (size_t)cap);
        if (more) names = more;
        const char **ml = more ? realloc(list, sizeof *list * (size_t)cap) : NULL;
        if (ml) list = ml;
        if (!more || !ml) {
            free(names), free(list);
            return snprintf(err, CC_ERRLEN, "out of memory"), -2;
        }
    }
    for (int i = 0; i < n && rc == 0; i++) {
        if (a[i].nsweeps) {
            if (write_vcurve(dir, &a[i], names[m], err) < 0) rc = -2;
            else list[m] = names[m], m++;
        }
        for (int r = 0; r < a[i].nrows && rc == 0; r++) {
            if (!has_growth(&a[i].rows[r])) continue;
            int g = write_growth(dir, &a[i], &a[i].rows[r], names[m], err);
            if (g < 0) rc = -2;
            else if (g > 0) list[m] = names[m], m++;
        }
    }
    if (rc == 0) {
        int w = write_angle(dir, a, n, err);
        if (w < 0) rc = -2;
        else if (w > 0) strcpy(names[m], "bend_angle"), list[m] = names[m], m++;
    }
    if (rc == 0) rc = cc_gp_run(dir, list, m);
    if (rc >= 0 && rc < m) snprintf(err, CC_ERRLEN, "gnuplot drew %d of %d plots (see its messages above)", rc, m);
    free(names), free(list);
    return rc;
}
