/* The public audit (clothcheck.h): options, the engine's run, its rows read back, the table.
 *
 * A result owns everything its rows point to: the engine's cc_audit (rows, diagnoses, sweeps),
 * the copy of the model the target calls, and the text of each row's worst entry. The only
 * state outside a result is the calling thread's last error message.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "api/api.h"
#include "checks/audit.h"
#include "checks/diagnose.h"
#include "checks/report.h"

#define ERRLEN 256
#define WORSTLEN 128

struct clothcheck_result {
    cc_audit audit;                                         /* the engine's result */
    cc_api_model model;                                     /* the target's context */
    clothcheck_row rows[CC_AUDIT_MAX_ROWS];                 /* audit.rows, public */
    clothcheck_finding findings[CC_AUDIT_MAX_ROWS][CC_DIAG_MAX];   /* their diagnoses */
    char worst[CC_AUDIT_MAX_ROWS][WORSTLEN];                /* "k0 m1 s2 at #17" per row */
};

static _Thread_local char last_error[ERRLEN + 32];   /* per thread: why clothcheck_audit gave NULL */

/* the calling thread's last error ("" after a successful audit) */
const char *clothcheck_error(void) { return last_error; }

/* NULL, with the thread's error set to msg */
static clothcheck_result *fail(const char *msg)
{
    snprintf(last_error, sizeof last_error, "clothcheck_audit: %s", msg);
    return NULL;
}

/* o = the engine's options for the public ones p (NULL: defaults), the claim parsed for model
 * m; 0, or -1 with why in err */
static int engine_options(const clothcheck_model *m, const clothcheck_options *p, cc_audit_opts *o, char *err,
                          int nerr)
{
    clothcheck_options d = {0};
    if (!p) p = &d;
    *o = cc_audit_defaults();
    if (p->samples < 0 || p->samples > 100000) {
        snprintf(err, (size_t)nerr, "samples must be 0 (default 1000) or 1..100000 (got %d)", p->samples);
        return -1;
    }
    if (!(p->k >= 0 && isfinite(p->k))) {
        snprintf(err, (size_t)nerr, "k must be 0 (default 1) or a positive finite stiffness (got %g)", p->k);
        return -1;
    }
    if (!(p->area_power >= 0 && p->area_power <= 4)) {
        snprintf(err, (size_t)nerr, "area_power must be 0 (default 1) or in (0, 4] (got %g)", p->area_power);
        return -1;
    }
    if (p->area_power > 0 && m->nv != 3) {
        snprintf(err, (size_t)nerr, "area_power is the weight of triangles (nv 3); this model has nv %d", m->nv);
        return -1;
    }
    if (p->area_power > 0) o->sample.area_power = p->area_power;
    if (p->samples) o->samples = p->samples;
    if (p->seed) o->seed = p->seed;
    if (!p->claims) return 0;
    if (cc_claim_parse(p->claims, p->k > 0 ? p->k : 1.0, m->force != NULL, &o->claims, err, nerr) < 0) return -1;
    return cc_api_check_claim(m, &o->claims, err, nerr);
}

/* "pass", "fail" or "not applicable", as the JSON report's status */
static const char *status_of(const cc_audit_row *w)
{
    return !w->available ? "not applicable" : w->pass ? "pass" : "fail";
}

/* r->rows[i] = the public form of engine row i */
static void publish_row(clothcheck_result *r, int i)
{
    const cc_audit_row *w = &r->audit.rows[i];
    clothcheck_row *p = &r->rows[i];
    char where[64], label[48];
    p->reference = cc_row_reference(w);
    p->quantity = cc_quantity_name(w->q);
    p->status = status_of(w);
    p->gates = w->gates;
    p->max_rel_error = w->available ? w->max_rel : NAN;
    p->note = w->note ? w->note : "";
    r->worst[i][0] = '\0';
    if (w->available && w->samples > 0 && w->q != CC_Q_TAYLOR) {
        cc_report_where(w, where, sizeof where);
        cc_case_label(r->audit.target.nv, w->worst_case, label, sizeof label);
        snprintf(r->worst[i], WORSTLEN, "%s at %s", where, label);
    }
    p->worst = r->worst[i];
    p->nfindings = w->diag.n;
    for (int f = 0; f < w->diag.n; f++)
        r->findings[i][f] = (clothcheck_finding){cc_finding_name(w->diag.f[f].kind), w->diag.f[f].text};
    p->findings = r->findings[i];
}

/* the engine's audit of m under o, its rows made public; NULL with the error set */
clothcheck_result *clothcheck_audit(const clothcheck_model *m, const clothcheck_options *o)
{
    char err[ERRLEN];
    cc_audit_opts opts;
    cc_target t;
    last_error[0] = '\0';
    if (cc_api_check_model(m, err, sizeof err) < 0 || engine_options(m, o, &opts, err, sizeof err) < 0)
        return fail(err);
    clothcheck_result *r = calloc(1, sizeof *r);
    if (!r) return fail("out of memory");
    cc_api_target(m, &opts.claims, &r->model, &t);
    if (cc_audit_run(&t, &opts, &r->audit) < 0) {
        free(r);
        return fail("no element could be built for this model");
    }
    for (int i = 0; i < r->audit.nrows; i++) publish_row(r, i);
    return r;
}

/* 1 if a gating row failed, 0 if none, -1 without an audit */
int clothcheck_verdict(const clothcheck_result *r) { return r ? cc_audit_failed(&r->audit) : -1; }

/* rows of r, 0 without an audit */
int clothcheck_row_count(const clothcheck_result *r) { return r ? r->audit.nrows : 0; }

/* row i of r, or NULL */
const clothcheck_row *clothcheck_row_at(const clothcheck_result *r, int i)
{
    return r && i >= 0 && i < r->audit.nrows ? &r->rows[i] : NULL;
}

/* the engine's table of r on f */
void clothcheck_print(FILE *f, const clothcheck_result *r)
{
    if (f && r) cc_report_table(f, &r->audit, 1);
}

/* r released (it owns every row and string it gave) */
void clothcheck_free(clothcheck_result *r) { free(r); }
