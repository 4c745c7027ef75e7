/* The public audit (clothcheck.h): options, the engine's run, its rows read back, the names of
 * its enums, the library's version.
 *
 * A result owns everything its rows point to: the engine's run (the audit's rows, diagnoses and
 * sweeps, a program's answers), the copy of the model the target calls, the rest hinge it was
 * given, and the text of each row's worst entry. The only state outside a result is the calling
 * thread's last error, set in one place (fail).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "api/api.h"
#include "checks/audit.h"
#include "checks/diagnose.h"
#include "checks/exec_audit.h"
#include "checks/kinds.h"
#include "checks/report.h"

#define WORSTLEN 128

/* The public enums are the engine's, value for value. */
_Static_assert((int)CLOTHCHECK_REF_FD_TRUE == (int)CC_REF_FD_TRUE && (int)CLOTHCHECK_REF_FD_FROZEN == (int)CC_REF_FD_FROZEN &&
                   (int)CLOTHCHECK_REF_EXACT == (int)CC_REF_EXACT &&
                   (int)CLOTHCHECK_REF_EXACT_FROZEN == (int)CC_REF_EXACT_FROZEN &&
                   (int)CLOTHCHECK_REF_CLAIM == (int)CC_REF_CLAIM && (int)CLOTHCHECK_REF_CLAIM_EXACT == (int)CC_REF_CLAIM_EXACT &&
                   (int)CLOTHCHECK_REF_TARGET == (int)CC_REF_COUNT,
               "the public references are the engine's, then target");
_Static_assert((int)CLOTHCHECK_Q_GRADIENT == (int)CC_Q_GRADIENT && (int)CLOTHCHECK_Q_HESSIAN == (int)CC_Q_HESSIAN &&
                   (int)CLOTHCHECK_Q_HESSIAN_VS_GRADIENT == (int)CC_Q_HESS_GRADIENT &&
                   (int)CLOTHCHECK_Q_SYMMETRY == (int)CC_Q_SYMMETRY && (int)CLOTHCHECK_Q_TRANSLATION == (int)CC_Q_TRANSLATION &&
                   (int)CLOTHCHECK_Q_ROTATION == (int)CC_Q_ROTATION && (int)CLOTHCHECK_Q_RIGID_MODES == (int)CC_Q_RIGID &&
                   (int)CLOTHCHECK_Q_TAYLOR == (int)CC_Q_TAYLOR && (int)CLOTHCHECK_Q_VALUE == (int)CC_Q_VALUE &&
                   (int)CLOTHCHECK_Q_FINITE == (int)CC_Q_FINITE && (int)CLOTHCHECK_Q_COUNT == (int)CC_Q_COUNT,
               "the public quantities are the engine's");
#define SAME_KIND(ID, name, rank, detector, summary) \
    _Static_assert((int)CLOTHCHECK_KIND_##ID == (int)CC_FIND_##ID, "kind " #ID " has the engine's value");
CC_FINDING_KINDS(SAME_KIND)
#undef SAME_KIND
_Static_assert((int)CLOTHCHECK_KIND_COUNT == (int)CC_FIND_COUNT, "as many public kinds as the engine's");
_Static_assert((int)CLOTHCHECK_PRECISION_SINGLE == (int)CC_PRECISION_SINGLE &&
                   (int)CLOTHCHECK_PRECISION_DOUBLE == (int)CC_PRECISION_DOUBLE,
               "the public precisions are the engine's");

struct clothcheck_result {
    cc_exec_run run;                                        /* run.audit: the engine's result */
    cc_api_model model;                                     /* a model's target context */
    double x_rest[12];                                      /* options.x_rest, which run.audit reads */
    clothcheck_row rows[CC_AUDIT_MAX_ROWS];                 /* run.audit.rows, public */
    clothcheck_finding findings[CC_AUDIT_MAX_ROWS][CC_DIAG_MAX];   /* their diagnoses */
    char worst[CC_AUDIT_MAX_ROWS][WORSTLEN];                /* "k0 m1 s2 at #17" per row */
    clothcheck_identity identity;                           /* run.id, public (when run.id.any) */
    char identity_claims[64];                               /* its "COND/VARIANT" */
    int exec;                                               /* 1: a program's audit, run under ea */
    cc_exec_audit ea;                                       /* its options; ea.cmd is command */
    char *command;                                          /* the program's command line, copied */
};

/* per thread: the last error, its code and why */
static _Thread_local clothcheck_code last_code;
static _Thread_local char last_error[CC_ERRLEN + 64];

/* The version, from the generated header. */
const char *clothcheck_version(void) { return CLOTHCHECK_VERSION; }
int clothcheck_version_number(void) { return CLOTHCHECK_VERSION_NUMBER; }

clothcheck_code clothcheck_errcode(void) { return last_code; }
const char *clothcheck_error(void) { return last_error; }

/* NULL, with the thread's error set: code and "fn: message" */
#ifdef __GNUC__
static clothcheck_result *fail(clothcheck_code code, const char *fn, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#endif
static clothcheck_result *fail(clothcheck_code code, const char *fn, const char *fmt, ...)
{
    char msg[CC_ERRLEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    last_code = code;
    snprintf(last_error, sizeof last_error, "%s: %s", fn, msg);
    return NULL;
}

/* the names of the public enums, as reports and JSON write them */
static const char *name_of(const char *const *names, int n, int i) { return i >= 0 && i < n ? names[i] : "?"; }

const char *clothcheck_code_name(clothcheck_code c)
{
    static const char *const names[CLOTHCHECK_CODE_COUNT] = {"ok", "misuse", "bad-option", "bad-claim", "no-memory",
                                                             "no-element", "program"};
    return name_of(names, CLOTHCHECK_CODE_COUNT, (int)c);
}

const char *clothcheck_status_name(clothcheck_status s)
{
    static const char *const names[CLOTHCHECK_STATUS_COUNT] = {"pass", "fail", "not applicable"};
    return name_of(names, CLOTHCHECK_STATUS_COUNT, (int)s);
}

const char *clothcheck_reference_name(clothcheck_reference r)
{
    if (r == CLOTHCHECK_REF_TARGET) return "target";
    return r >= 0 && (int)r < CC_REF_COUNT ? cc_ref_name((cc_ref)r) : "?";
}

const char *clothcheck_quantity_name(clothcheck_quantity q)
{
    return q >= 0 && q < CLOTHCHECK_Q_COUNT ? cc_quantity_name((cc_quantity)q) : "?";
}

const char *clothcheck_kind_name(clothcheck_kind k)
{
    return k >= 0 && k < CLOTHCHECK_KIND_COUNT ? cc_finding_name((cc_finding_kind)k) : "?";
}

/* The options. Each check returns CLOTHCHECK_OK, or a code with why in err. */

/* the options every audit shares (samples, seed, k, area power, rest hinges, case, precision)
 * into o, for elements of nv vertices; x_rest: where to keep options.x_rest */
static clothcheck_code common_options(int nv, const clothcheck_options *p, cc_audit_opts *o, double *x_rest, char *err)
{
    cc_rest r;
    if (p->samples < 0 || p->samples > 100000)
        return snprintf(err, CC_ERRLEN, "samples must be 0 (default) or 1..100000 (got %d)", p->samples), CLOTHCHECK_BAD_OPTION;
    if (!(p->k >= 0 && isfinite(p->k)))
        return snprintf(err, CC_ERRLEN, "k must be 0 (default 1) or a positive finite stiffness (got %g)", p->k),
               CLOTHCHECK_BAD_OPTION;
    if (!(p->area_power >= 0 && p->area_power <= 4))
        return snprintf(err, CC_ERRLEN, "area_power must be 0 (default 1) or in (0, 4] (got %g)", p->area_power),
               CLOTHCHECK_BAD_OPTION;
    if (p->area_power > 0 && nv != 3)
        return snprintf(err, CC_ERRLEN, "area_power is the weight of triangles (nv 3); these elements have nv %d", nv),
               CLOTHCHECK_BAD_OPTION;
    if ((p->x_rest || p->flat_rest) && nv != 4)
        return snprintf(err, CC_ERRLEN, "%s is about the rest hinge of bend elements (nv 4); these have nv %d",
                        p->x_rest ? "x_rest" : "flat_rest", nv), CLOTHCHECK_BAD_OPTION;
    if (p->x_rest && p->flat_rest)
        return snprintf(err, CC_ERRLEN, "x_rest and flat_rest both say what the rest hinge is: give one"), CLOTHCHECK_BAD_OPTION;
    if (p->x_rest) {
        char why[CC_ERRLEN];
        memcpy(x_rest, p->x_rest, 12 * sizeof *x_rest);
        if (cc_positions_in_range(x_rest, 4, why) < 0 || cc_rest_hinge_shape(&r, x_rest, why) < 0)
            return snprintf(err, CC_ERRLEN, "x_rest: %.400s", why), CLOTHCHECK_BAD_OPTION;
        o->sample.hinge_rest = x_rest;
    }
    if ((unsigned)p->precision > CLOTHCHECK_PRECISION_DOUBLE)
        return snprintf(err, CC_ERRLEN, "precision must be CLOTHCHECK_PRECISION_AUTO, _SINGLE or _DOUBLE (got %d)",
                        (int)p->precision), CLOTHCHECK_BAD_OPTION;
    o->sample.flat_rest = p->flat_rest != 0;
    if (p->area_power > 0) o->sample.area_power = p->area_power;
    if (p->samples) o->samples = p->samples;
    if (p->seed) o->seed = p->seed;
    if (p->only_case) {
        if (cc_case_parse(nv, p->only_case, &o->case_id) < 0)
            return snprintf(err, CC_ERRLEN, "only_case '%s' is not a case (a number, #N or e0..e%d)", p->only_case,
                            cc_edge_count(nv) - 1), CLOTHCHECK_BAD_OPTION;
        o->only_case = 1;
    }
    return CLOTHCHECK_OK;
}

/* o = the engine's options for auditing model m under p */
static clothcheck_code model_options(const clothcheck_model *m, const clothcheck_options *p, cc_audit_opts *o,
                                     double *x_rest, char *err)
{
    *o = cc_audit_defaults();
    clothcheck_code c = common_options(m->nv, p, o, x_rest, err);
    if (c != CLOTHCHECK_OK) return c;
    unsigned refs = (1u << CLOTHCHECK_REF_CLAIM) - 1;   /* fd-true .. exact-frozen */
    if (p->references & ~refs)
        return snprintf(err, CC_ERRLEN, "references holds bits of 1u << CLOTHCHECK_REF_FD_TRUE .. _EXACT_FROZEN only (got %#x)",
                        p->references), CLOTHCHECK_BAD_OPTION;
    if (p->references) o->refs = p->references | (1u << CC_REF_CLAIM) | (1u << CC_REF_CLAIM_EXACT);
    if (p->precision == CLOTHCHECK_PRECISION_SINGLE) o->precision = CC_AUDIT_PREC_SINGLE;
    if (p->contract || p->exec_timeout)
        return snprintf(err, CC_ERRLEN, "contract and exec_timeout are about a program (clothcheck_audit_exec)"),
               CLOTHCHECK_BAD_OPTION;
    if (!p->claims) return CLOTHCHECK_OK;
    if (cc_claim_parse(p->claims, p->k > 0 ? p->k : 1.0, m->force != NULL, &o->claims, err) < 0 ||
        cc_api_check_claim(m, &o->claims, err) < 0)
        return CLOTHCHECK_BAD_CLAIM;
    return CLOTHCHECK_OK;
}

/* The results. */

/* r->rows[i] = the public form of engine row i */
static void publish_row(clothcheck_result *r, int i)
{
    const cc_audit *a = &r->run.audit;
    const cc_audit_row *w = &a->rows[i];
    clothcheck_row *p = &r->rows[i];
    char where[64], label[48];
    p->reference = w->q == CC_Q_FINITE ? CLOTHCHECK_REF_TARGET : (clothcheck_reference)w->ref;
    p->quantity = (clothcheck_quantity)w->q;
    p->status = !w->available ? CLOTHCHECK_NOT_APPLICABLE : w->pass ? CLOTHCHECK_PASS : CLOTHCHECK_FAIL;
    p->gates = w->gates;
    p->max_rel_error = w->available ? w->max_rel : NAN;
    p->note = w->note ? w->note : "";
    r->worst[i][0] = '\0';
    if (w->available && w->samples > 0 && w->q != CC_Q_TAYLOR) {
        cc_report_where(w, where, sizeof where);
        cc_case_label(a->target.nv, w->worst_case, label, sizeof label);
        snprintf(r->worst[i], WORSTLEN, "%s at %s", where, label);
    }
    p->worst = r->worst[i];
    p->nfindings = w->diag.n;
    for (int f = 0; f < w->diag.n; f++)
        r->findings[i][f] = (clothcheck_finding){(clothcheck_kind)w->diag.f[f].kind, w->diag.f[f].text};
    p->findings = r->findings[i];
}

/* r->identity = the public form of r->run.id */
static void publish_identity(clothcheck_result *r)
{
    const cc_identity *id = &r->run.id;
    clothcheck_identity *p = &r->identity;
    int nv = id->bridson_force ? 4 : id->cond ? id->cond->nv : 0;
    if (id->bridson_force) snprintf(r->identity_claims, sizeof r->identity_claims, "bridson-force");
    else if (id->cond) snprintf(r->identity_claims, sizeof r->identity_claims, "%s/%s", id->cond->condition, id->cond->variant);
    p->matches = id->found;
    p->claims = r->identity_claims;
    p->hessian = cc_identity_hessian(id);
    p->area_power = nv == 3 ? id->area_power : 0;
    p->k = id->k;
    for (int m = 0; m < 4; m++) p->vertex_map[m] = m < nv ? id->perm[m] : m;
    p->max_rel_error = id->max_rel;
    p->elements = id->elements;
}

/* r with its rows and identification made public */
static clothcheck_result *publish(clothcheck_result *r)
{
    for (int i = 0; i < r->run.audit.nrows; i++) publish_row(r, i);
    if (r->run.id.any) publish_identity(r);
    last_code = CLOTHCHECK_OK;
    last_error[0] = '\0';
    return r;
}

clothcheck_result *clothcheck_audit(const clothcheck_model *m, const clothcheck_options *o)
{
    static const char fn[] = "clothcheck_audit";
    char err[CC_ERRLEN];
    clothcheck_options d = {0};
    if (!o) o = &d;
    if (cc_api_check_model(m, err) < 0) return fail(CLOTHCHECK_MISUSE, fn, "%s", err);
    clothcheck_result *r = calloc(1, sizeof *r);
    if (!r) return fail(CLOTHCHECK_NO_MEMORY, fn, "out of memory");
    cc_audit_opts opts;
    clothcheck_code c = model_options(m, o, &opts, r->x_rest, err);
    if (c != CLOTHCHECK_OK) {
        free(r);
        return fail(c, fn, "%s", err);
    }
    cc_target t;
    cc_api_target(m, &opts.claims, &r->model, &t);
    if (cc_audit_run(&t, &opts, &r->run.audit) < 0) {
        free(r);
        return fail(CLOTHCHECK_NO_ELEMENT, fn, "no element could be built for this model");
    }
    r->run.k = o->k > 0 ? o->k : 1.0;
    cc_identify_audit(&r->run.audit, m->force != NULL, r->run.k, &r->run.id);
    return publish(r);
}

/* the code of a failed run of the element protocol's audit */
static clothcheck_code exec_code(int rc)
{
    return rc == CC_EXEC_NO_MEMORY ? CLOTHCHECK_NO_MEMORY : rc == CC_EXEC_NO_ELEMENT ? CLOTHCHECK_NO_ELEMENT
           : rc == CC_EXEC_MISUSE ? CLOTHCHECK_MISUSE : CLOTHCHECK_PROGRAM;
}

clothcheck_result *clothcheck_audit_exec(const char *condition, const char *command, const clothcheck_options *o)
{
    static const char fn[] = "clothcheck_audit_exec";
    char err[CC_ERRLEN];
    clothcheck_options d = {0};
    if (!o) o = &d;
    const cc_condition *cond = condition ? cc_condition_find(condition, NULL) : NULL;
    if (!cond) return fail(CLOTHCHECK_MISUSE, fn, "condition must be stretch, shear, bend or spring (got %s)",
                           condition ? condition : "NULL");
    if (!command || !*command) return fail(CLOTHCHECK_MISUSE, fn, "no command given");
    if ((unsigned)o->contract > CLOTHCHECK_CONTRACT_FORCE)
        return fail(CLOTHCHECK_BAD_OPTION, fn, "contract must be CLOTHCHECK_CONTRACT_CONDITION or _FORCE (got %d)",
                    (int)o->contract);
    if (!(o->exec_timeout >= 0 && o->exec_timeout <= 86400))
        return fail(CLOTHCHECK_BAD_OPTION, fn, "exec_timeout must be 0 (default 30) or seconds in (0, 86400] (got %g)",
                    o->exec_timeout);
    if (o->references) return fail(CLOTHCHECK_BAD_OPTION, fn, "references does not apply to a program");
    cc_exec_audit ea = cc_exec_audit_defaults();
    ea.condition = cond->condition, ea.cmd = command;
    ea.force = o->contract == CLOTHCHECK_CONTRACT_FORCE;
    ea.precision = (int)o->precision;
    if (o->exec_timeout > 0) ea.timeout = o->exec_timeout;
    clothcheck_result *r = calloc(1, sizeof *r);
    if (!r) return fail(CLOTHCHECK_NO_MEMORY, fn, "out of memory");
    clothcheck_code c = common_options(cond->nv, o, &ea.opts, r->x_rest, err);
    double k = o->k > 0 ? o->k : 1.0;
    if (c == CLOTHCHECK_OK && o->claims && cc_exec_audit_claim(&ea, o->claims, k, err) < 0)
        c = CLOTHCHECK_BAD_CLAIM;
    if (c != CLOTHCHECK_OK) {
        free(r);
        return fail(c, fn, "%s", err);
    }
    if (!o->claims) ea.claims.k = k;
    size_t len = strlen(command) + 1;
    if (!(r->command = malloc(len))) {
        free(r);
        return fail(CLOTHCHECK_NO_MEMORY, fn, "out of memory");
    }
    ea.cmd = memcpy(r->command, command, len);
    int rc = cc_exec_audit_run(&ea, &r->run, err);
    if (rc < 0) {
        free(r->command);
        free(r);
        return fail(exec_code(rc), fn, "%s", err);
    }
    r->exec = 1, r->ea = ea;
    return publish(r);
}

int clothcheck_verdict(const clothcheck_result *r) { return r ? cc_audit_failed(&r->run.audit) : -1; }

int clothcheck_row_count(const clothcheck_result *r) { return r ? r->run.audit.nrows : 0; }

const clothcheck_row *clothcheck_row_at(const clothcheck_result *r, int i)
{
    return r && i >= 0 && i < r->run.audit.nrows ? &r->rows[i] : NULL;
}

const clothcheck_identity *clothcheck_identified(const clothcheck_result *r)
{
    return r && r->run.id.any ? &r->identity : NULL;
}

void clothcheck_print(FILE *f, const clothcheck_result *r)
{
    if (!f || !r) return;
    cc_report_table(f, &r->run.audit, 1);
    if (r->exec) cc_exec_report_extras(f, &r->ea, &r->run);
}

void clothcheck_free(clothcheck_result *r)
{
    if (!r) return;
    cc_exec_run_free(&r->run);
    free(r->command);
    free(r);
}
