/* Suite: the public C API (src/api/clothcheck.h.in, generated into clothcheck.h).
 *
 * Models are given as a user's program gives them: callbacks over plain arrays. Most wrap a
 * registered variant, rebuilding its rest data from the public clothcheck_rest (so the
 * conversion must carry everything the variant reads), with an optional planted mistake; the
 * force form wraps the energy k/2 C.C of a variant or Bridson's force model. Checked: correct
 * models hold their claims and planted mistakes fail them with the right diagnosis, a missing
 * energy or Jacobian makes its rows "not applicable", bad input gives NULL and a clear error,
 * and the engine is reentrant: audits in several threads at once, and an audit started from
 * inside a callback, give the same rows as the same audits run one at a time.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "api/api.h"
#include "api/clothcheck.h"
#include "cc_test.h"
#include "checks/diagnose.h"
#include "conditions/bridson_force.h"
#include "math/cc_vec.h"

#define SAMPLES 60
#define THREADS 4
#define SNAPLEN 16384

/* A registered variant as a user's model, with at most one planted mistake. */
typedef struct wrapped {
    const cc_condition *c;    /* the variant */
    double grad_scale;        /* the gradient (or force) times this: 1 right, -1 a sign mistake */
    int hess_unfilled;        /* 1: eval leaves the Hessian as it found it */
    double k;                 /* stiffness of the force form */
    int bridson;              /* 1: the force is cc_bridson_force, c unused */
    double fixed_power;       /* > 0: a triangle weighted by a^fixed_power, whatever the rest says */
    const clothcheck_model *inner;   /* a model to audit from inside the first callback, or NULL */
    const char *inner_claims; /* and its claims */
    int inner_done;           /* 1 once it ran */
    char inner_snap[SNAPLEN]; /* its rows, as snap() writes them */
} wrapped;

/* r = the variant's rest data rebuilt from the public rest (a triangle's area power
 * replaced by `power` when it is > 0); 0 or -1 */
static int rest_back(const clothcheck_rest *p, double power, cc_rest *r)
{
    char err[CC_ERRLEN];
    if (p->nv == 3) return cc_rest_triangle(r, p->uv, power > 0 ? power : p->area_power, p->bu, p->bv, err);
    if (p->nv == 4) return cc_rest_hinge_shape(r, p->x_rest, err);
    return cc_rest_spring(r, p->length, err);
}

static void snap(const clothcheck_result *r, char *out, int len);

/* the inner audit, once, from inside a callback */
static void run_inner(wrapped *w)
{
    if (!w->inner || w->inner_done) return;
    w->inner_done = 1;
    clothcheck_result *r = clothcheck_audit(w->inner, &(clothcheck_options){.samples = SAMPLES, .claims = w->inner_claims});
    snap(r, w->inner_snap, SNAPLEN);
    clothcheck_free(r);
}

/* the condition form: the variant's C, dC (times grad_scale) and d2C */
static int wrapped_eval(void *user, const double *x, const clothcheck_rest *rest, int want, double *C, double *dC,
                        double *d2C)
{
    wrapped *w = user;
    cc_rest r;
    cc_eval e;
    run_inner(w);
    if (rest_back(rest, w->fixed_power, &r) < 0 || w->c->eval(x, &r, CC_WANT_ALL, &e) < 0) return 1;
    int n = 3 * w->c->nv;
    for (int k = 0; k < w->c->ncomp; k++) {
        C[k] = e.C[k];
        for (int i = 0; i < n; i++) {
            if (want & CLOTHCHECK_WANT_GRADIENT) dC[k * n + i] = w->grad_scale * e.dC[k][i];
            for (int j = 0; j < n && (want & CLOTHCHECK_WANT_HESSIAN) && !w->hess_unfilled; j++)
                d2C[(k * n + i) * n + j] = e.d2C[k][i][j];
        }
    }
    return 0;
}

/* E = k/2 C.C of the variant, its force F = -k dC^T C (times grad_scale) and dF/dx */
static int energy_parts(wrapped *w, const double *x, const clothcheck_rest *rest, double *E, double *F, double *J)
{
    cc_rest r;
    cc_eval e;
    if (rest_back(rest, w->fixed_power, &r) < 0) return 1;
    if (w->bridson) return cc_bridson_force(x, &r, w->k, F, (double (*)[12])J) < 0;
    if (w->c->eval(x, &r, CC_WANT_ALL, &e) < 0) return 1;
    int n = 3 * w->c->nv;
    *E = 0;
    for (int i = 0; i < n; i++) F[i] = 0;
    for (int i = 0; i < n * n; i++) J[i] = 0;
    for (int k = 0; k < w->c->ncomp; k++) {
        *E += 0.5 * w->k * e.C[k] * e.C[k];
        for (int i = 0; i < n; i++) {
            F[i] -= w->grad_scale * w->k * e.C[k] * e.dC[k][i];
            for (int j = 0; j < n; j++) J[i * n + j] -= w->k * (e.dC[k][i] * e.dC[k][j] + e.C[k] * e.d2C[k][i][j]);
        }
    }
    return 0;
}

static int wrapped_force(void *user, const double *x, const clothcheck_rest *rest, double *F)
{
    double E, J[CC_MAX_DOF * CC_MAX_DOF];
    run_inner(user);
    return energy_parts(user, x, rest, &E, F, J);
}

static int wrapped_jacobian(void *user, const double *x, const clothcheck_rest *rest, double *dFdx)
{
    double E, F[CC_MAX_DOF];
    return energy_parts(user, x, rest, &E, F, dFdx);
}

static int wrapped_energy(void *user, const double *x, const clothcheck_rest *rest, double *E)
{
    double F[CC_MAX_DOF], J[CC_MAX_DOF * CC_MAX_DOF];
    return energy_parts(user, x, rest, E, F, J);
}

/* the condition-form model of w, for variant cond/variant */
static clothcheck_model condition_model(wrapped *w, const char *cond, const char *variant)
{
    w->c = cc_condition_find(cond, variant);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w->c);
    if (w->grad_scale == 0) w->grad_scale = 1;
    return (clothcheck_model){.name = variant, .nv = w->c->nv, .ncomp = w->c->ncomp, .user = w, .eval = wrapped_eval};
}

/* the force-form model of w: the energy of cond/variant, or Bridson's force (cond NULL) */
static clothcheck_model force_model(wrapped *w, const char *cond, const char *variant, int energy, int jacobian)
{
    w->bridson = cond == NULL;
    w->c = cond ? cc_condition_find(cond, variant) : NULL;
    if (w->grad_scale == 0) w->grad_scale = 1;
    if (w->k == 0) w->k = 1;
    return (clothcheck_model){.name = "force", .nv = w->bridson ? 4 : w->c->nv, .user = w, .force = wrapped_force,
                              .jacobian = jacobian ? wrapped_jacobian : NULL, .energy = energy ? wrapped_energy : NULL};
}

/* the row (reference, quantity) of r, or NULL */
static const clothcheck_row *row(const clothcheck_result *r, const char *ref, const char *q)
{
    for (int i = 0; i < clothcheck_row_count(r); i++) {
        const clothcheck_row *w = clothcheck_row_at(r, i);
        if (!strcmp(clothcheck_reference_name(w->reference), ref) && !strcmp(clothcheck_quantity_name(w->quantity), q)) return w;
    }
    return NULL;
}

/* 1 if row (ref, q) of r has a finding of this kind */
static int has_finding(const clothcheck_result *r, const char *ref, const char *q, const char *kind)
{
    const clothcheck_row *w = row(r, ref, q);
    for (int f = 0; w && f < w->nfindings; f++)
        if (!strcmp(clothcheck_kind_name(w->findings[f].kind), kind)) return 1;
    return 0;
}

/* out = every field of every row of r and its verdict, numbers to the bit ("null" if r is NULL) */
static void snap(const clothcheck_result *r, char *out, int len)
{
    int at = snprintf(out, (size_t)len, r ? "verdict %d\n" : "null\n", clothcheck_verdict(r));
    for (int i = 0; i < clothcheck_row_count(r) && at < len; i++) {
        const clothcheck_row *w = clothcheck_row_at(r, i);
        at += snprintf(out + at, (size_t)(len - at), "%s %s %s %d %a [%s] [%s]", clothcheck_reference_name(w->reference),
                       clothcheck_quantity_name(w->quantity), clothcheck_status_name(w->status),
                       w->gates, w->max_rel_error, w->worst, w->note);
        for (int f = 0; f < w->nfindings && at < len; f++)
            at += snprintf(out + at, (size_t)(len - at), " {%s: %s}", clothcheck_kind_name(w->findings[f].kind), w->findings[f].text);
        if (at < len) at += snprintf(out + at, (size_t)(len - at), "\n");
    }
    CU_ASSERT(at < len);
}

/* the audit of m under o, asserted to exist */
static clothcheck_result *audit(const clothcheck_model *m, const char *claims, double k)
{
    clothcheck_options o = {.samples = SAMPLES, .claims = claims, .k = k};
    clothcheck_result *r = clothcheck_audit(m, &o);
    if (!r) fprintf(stderr, "audit: %s\n", clothcheck_error());
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_STRING_EQUAL(clothcheck_error(), "");
    return r;
}

/* the public rest data carries what cc_rest holds for each kind of element */
static void test_rest(void)
{
    cc_rest r;
    clothcheck_rest p;
    char err[CC_ERRLEN];
    double uv[6] = {0.5, 0.25, 1.5, 0.25, 0.75, 1.25};
    CU_ASSERT_EQUAL_FATAL(cc_rest_triangle(&r, uv, 0.75, 1.1, 0.9, err), 0);
    cc_api_rest(&r, &p);
    double want_uv[6] = {0, 0, 1, 0, 0.25, 1};
    CU_ASSERT_EQUAL(p.nv, 3);
    CU_ASSERT(memcmp(p.uv, want_uv, sizeof want_uv) == 0);
    CU_ASSERT_DOUBLE_EQUAL(p.area, 0.5, 1e-15);
    CU_ASSERT(p.area_power == 0.75 && p.bu == 1.1 && p.bv == 0.9 && p.length == 0 && p.theta0 == 0);
    double xr[12] = {0, 1, 0, 0.5, 0, 0, -0.5, 0, 0, 0, -1, 0.5};
    CU_ASSERT_EQUAL_FATAL(cc_rest_hinge_shape(&r, xr, err), 0);
    cc_api_rest(&r, &p);
    CU_ASSERT(p.nv == 4 && memcmp(p.x_rest, xr, sizeof xr) == 0 && p.theta0 == r.rest_angle && p.theta0 != 0);
    CU_ASSERT(p.area == 0 && p.uv[2] == 0 && p.length == 0);
    CU_ASSERT_EQUAL_FATAL(cc_rest_spring(&r, 0.7, err), 0);
    cc_api_rest(&r, &p);
    CU_ASSERT(p.nv == 2 && p.length == 0.7 && p.area == 0 && p.x_rest[0] == 0);
}

/* right models of each kind hold their claims, checked entry by entry against the variant */
static void test_condition_holds(void)
{
    static const char *const v[][2] = {{"spring", "linear"}, {"stretch", "bw98"}, {"shear", "bw98"}, {"bend", "bridson"}};
    for (int i = 0; i < 4; i++) {
        wrapped w = {0};
        char claim[40];
        clothcheck_model m = condition_model(&w, v[i][0], v[i][1]);
        snprintf(claim, sizeof claim, "%s/%s", v[i][0], v[i][1]);
        clothcheck_result *r = audit(&m, claim, 0);
        CU_ASSERT_EQUAL(clothcheck_verdict(r), 0);
        for (int q = 0; q < 3; q++) {
            const clothcheck_row *w3 = row(r, "claim", (const char *[]){"value", "gradient", "hessian"}[q]);
            CU_ASSERT(w3 && w3->status == CLOTHCHECK_PASS && w3->gates && w3->max_rel_error <= 1e-9);
        }
        const clothcheck_row *fd = row(r, "fd-true", "gradient");
        CU_ASSERT(fd && fd->status == CLOTHCHECK_PASS && fd->gates);
        CU_ASSERT_EQUAL(row(r, "exact", "gradient")->status, CLOTHCHECK_NOT_APPLICABLE);
        clothcheck_free(r);
    }
}

/* the report of r as text (malloc'd) */
static char *report_text(const clothcheck_result *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    clothcheck_print(f, r);
    fclose(f);
    return buf;
}

/* a bend angle is periodic: its finite differences near +-pi wrap with the model's period, or
 * the claim's; without either, the element whose differences cross the cut (random hinge #314
 * of seed 1, 9e-5 from pi) has no derivative there: skipped and counted, not failed */
static void test_condition_period(void)
{
    wrapped w = {0};
    clothcheck_model m = condition_model(&w, "bend", "bridson");
    clothcheck_options o = {.samples = 320, .seed = 1};
    clothcheck_result *r = clothcheck_audit(&m, &o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(clothcheck_verdict(r), 0);
    char *text = report_text(r);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "[jumps within the step at 1 element]"));
    free(text);
    clothcheck_free(r);
    m.period = 2 * CC_PI;
    r = clothcheck_audit(&m, &o);
    CU_ASSERT_EQUAL(clothcheck_verdict(r), 0);
    text = report_text(r);
    CU_ASSERT_PTR_NULL(strstr(text, "[jumps within the step"));   /* wrapped: #314 compared */
    free(text);
    clothcheck_free(r);
    m.period = 0, o.claims = "bend/bridson";
    r = clothcheck_audit(&m, &o);
    CU_ASSERT_EQUAL(clothcheck_verdict(r), 0);
    clothcheck_free(r);
}

/* a gradient with its sign flipped fails the claim and its own differences, diagnosed "sign" */
static void test_condition_sign(void)
{
    wrapped w = {.grad_scale = -1};
    clothcheck_model m = condition_model(&w, "stretch", "bw98");
    clothcheck_result *r = audit(&m, "stretch/bw98", 0);
    CU_ASSERT_EQUAL(clothcheck_verdict(r), 1);
    CU_ASSERT(has_finding(r, "claim", "gradient", "sign"));
    CU_ASSERT(has_finding(r, "fd-true", "gradient", "sign"));
    CU_ASSERT_EQUAL(row(r, "claim", "value")->status, CLOTHCHECK_PASS);
    CU_ASSERT_EQUAL(row(r, "claim", "hessian")->status, CLOTHCHECK_PASS);
    clothcheck_free(r);
}

/* a Hessian left unfilled reads as NaN, never as stale memory */
static void test_condition_unfilled(void)
{
    wrapped w = {.hess_unfilled = 1};
    clothcheck_model m = condition_model(&w, "spring", "linear");
    clothcheck_result *r = audit(&m, "spring/linear", 0);
    const clothcheck_row *h = row(r, "claim", "hessian");
    CU_ASSERT_EQUAL(clothcheck_verdict(r), 1);
    CU_ASSERT(h && h->status == CLOTHCHECK_FAIL);   /* no element has a Hessian to compare */
    CU_ASSERT_EQUAL(row(r, "target", "finite")->status, CLOTHCHECK_FAIL);
    CU_ASSERT_EQUAL(row(r, "claim", "gradient")->status, CLOTHCHECK_PASS);   /* the gradients are compared still */
    clothcheck_free(r);
}

/* the force form of an energy k/2 C.C: with energy and Jacobian every row applies; without
 * them the rows that need them say "not applicable"; a force off by its sign fails "sign" */
static void test_force_energy(void)
{
    wrapped w = {.k = 3};
    clothcheck_model m = force_model(&w, "spring", "linear", 1, 1);
    clothcheck_result *r = audit(&m, "spring/linear", 3);
    CU_ASSERT_EQUAL(clothcheck_verdict(r), 0);
    CU_ASSERT_EQUAL(row(r, "claim", "value")->status, CLOTHCHECK_PASS);
    CU_ASSERT_EQUAL(row(r, "fd-true", "hessian")->status, CLOTHCHECK_PASS);
    clothcheck_free(r);
    r = audit(&m, "spring/linear", 2);   /* the claim's k differs from the force's: "scale" */
    CU_ASSERT_EQUAL(clothcheck_verdict(r), 1);
    CU_ASSERT(has_finding(r, "claim", "gradient", "scale"));
    clothcheck_free(r);
    m.energy = NULL, m.jacobian = NULL;
    r = audit(&m, "spring/linear", 3);
    CU_ASSERT_EQUAL(clothcheck_verdict(r), 0);
    CU_ASSERT_EQUAL(row(r, "claim", "value")->status, CLOTHCHECK_NOT_APPLICABLE);
    CU_ASSERT_EQUAL(row(r, "claim", "hessian")->status, CLOTHCHECK_NOT_APPLICABLE);
    CU_ASSERT_EQUAL(row(r, "fd-true", "gradient")->status, CLOTHCHECK_NOT_APPLICABLE);
    CU_ASSERT_EQUAL(row(r, "claim", "gradient")->status, CLOTHCHECK_PASS);
    CU_ASSERT(strstr(row(r, "claim", "hessian")->note, "Jacobian") != NULL);
    clothcheck_free(r);
    w.grad_scale = -1;
    m.jacobian = wrapped_jacobian;
    r = audit(&m, "spring/linear", 3);
    CU_ASSERT_EQUAL(clothcheck_verdict(r), 1);
    CU_ASSERT(has_finding(r, "claim", "gradient", "sign"));
    clothcheck_free(r);
}

/* Bridson's force model given by callbacks holds the claim "bridson-force" with its k */
static void test_force_bridson(void)
{
    wrapped w = {.k = 1.7};
    clothcheck_model m = force_model(&w, NULL, NULL, 0, 1);
    clothcheck_result *r = audit(&m, "bridson-force", 1.7);
    CU_ASSERT_EQUAL(clothcheck_verdict(r), 0);
    CU_ASSERT_EQUAL(row(r, "claim", "hessian")->status, CLOTHCHECK_PASS);
    CU_ASSERT_EQUAL(row(r, "fd-true", "hessian-vs-gradient")->status, CLOTHCHECK_PASS);
    clothcheck_free(r);
}

/* what the table says, the same as the engine's own table for the same audit */
static void test_print(void)
{
    wrapped w = {.grad_scale = -1};
    clothcheck_model m = condition_model(&w, "spring", "linear");
    m.name = "my-spring";
    clothcheck_result *r = audit(&m, "spring/linear", 0);
    FILE *f = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    clothcheck_print(f, r);
    clothcheck_print(NULL, r);
    clothcheck_print(f, NULL);
    long len = ftell(f);
    char *text = calloc(1, (size_t)len + 1);
    rewind(f);
    CU_ASSERT_EQUAL(fread(text, 1, (size_t)len, f), (size_t)len);
    CU_ASSERT(strstr(text, "my-spring condition  [claims exact]") != NULL);
    CU_ASSERT(strstr(text, "^ sign") != NULL);
    CU_ASSERT(strstr(text, "=> FAILS its claim") != NULL);
    free(text);
    fclose(f);
    clothcheck_free(r);
}

/* bad input: NULL and a clear message, never a crash */
/* options.area_power: the power the random triangles are handed; a model hard-wired to
 * a^0.75 fails stretch/bw98 at the default a^1, the finding naming the power, and holds it at
 * area_power 0.75 */
static void test_area_power(void)
{
    wrapped w = {.fixed_power = 0.75};
    clothcheck_model m = condition_model(&w, "stretch", "bw98");
    clothcheck_result *r = audit(&m, "stretch/bw98", 0);
    CU_ASSERT_EQUAL(clothcheck_verdict(r), 1);
    CU_ASSERT(has_finding(r, "claim", "gradient", "proportional"));
    static char text[1 << 16];
    snap(r, text, sizeof text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "the area weight is a^0.75 where the requests carry area_power 1"));
    clothcheck_free(r);
    clothcheck_options o = {.samples = SAMPLES, .claims = "stretch/bw98", .area_power = 0.75};
    r = clothcheck_audit(&m, &o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(clothcheck_verdict(r), 0);
    clothcheck_free(r);
    o.area_power = -1;
    CU_ASSERT(!clothcheck_audit(&m, &o) && strstr(clothcheck_error(), "area_power must be"));
    o.area_power = NAN;
    CU_ASSERT(!clothcheck_audit(&m, &o) && strstr(clothcheck_error(), "area_power must be"));
    wrapped s = {0};
    clothcheck_model spring = condition_model(&s, "spring", "linear");
    o = (clothcheck_options){.area_power = 0.5};
    CU_ASSERT(!clothcheck_audit(&spring, &o) && strstr(clothcheck_error(), "area_power is the weight of triangles"));
}

/* the enums' names: the engine's words, "?" outside the enum */
static void test_names(void)
{
    CU_ASSERT_STRING_EQUAL(clothcheck_status_name(CLOTHCHECK_PASS), "pass");
    CU_ASSERT_STRING_EQUAL(clothcheck_status_name(CLOTHCHECK_NOT_APPLICABLE), "not applicable");
    CU_ASSERT_STRING_EQUAL(clothcheck_reference_name(CLOTHCHECK_REF_FD_FROZEN), "fd-frozen");
    CU_ASSERT_STRING_EQUAL(clothcheck_reference_name(CLOTHCHECK_REF_CLAIM), "claim");
    CU_ASSERT_STRING_EQUAL(clothcheck_reference_name(CLOTHCHECK_REF_TARGET), "target");
    CU_ASSERT_STRING_EQUAL(clothcheck_quantity_name(CLOTHCHECK_Q_HESSIAN_VS_GRADIENT), "hessian-vs-gradient");
    CU_ASSERT_STRING_EQUAL(clothcheck_quantity_name(CLOTHCHECK_Q_FINITE), "finite");
    CU_ASSERT_STRING_EQUAL(clothcheck_kind_name(CLOTHCHECK_KIND_FROZEN), "frozen-magnitude");
    CU_ASSERT_STRING_EQUAL(clothcheck_kind_name(CLOTHCHECK_KIND_UNKNOWN), "unknown");
    CU_ASSERT_STRING_EQUAL(clothcheck_code_name(CLOTHCHECK_BAD_CLAIM), "bad-claim");
    for (int k = 0; k < CLOTHCHECK_KIND_COUNT; k++)   /* every public kind is the engine's */
        CU_ASSERT_STRING_EQUAL(clothcheck_kind_name((clothcheck_kind)k), cc_finding_name((cc_finding_kind)k));
    CU_ASSERT_STRING_EQUAL(clothcheck_kind_name(CLOTHCHECK_KIND_COUNT), "?");
    CU_ASSERT_STRING_EQUAL(clothcheck_status_name((clothcheck_status)-1), "?");
    CU_ASSERT_STRING_EQUAL(clothcheck_reference_name(CLOTHCHECK_REF_COUNT), "?");
    CU_ASSERT_STRING_EQUAL(clothcheck_quantity_name(CLOTHCHECK_Q_COUNT), "?");
    CU_ASSERT_STRING_EQUAL(clothcheck_code_name(CLOTHCHECK_CODE_COUNT), "?");
    CU_ASSERT_STRING_EQUAL(clothcheck_version(), CLOTHCHECK_VERSION);
    CU_ASSERT_EQUAL(clothcheck_version_number(), CLOTHCHECK_VERSION_NUMBER);
}

/* the code beside each message */
static void test_error_codes(void)
{
    wrapped w = {0};
    clothcheck_model spring = condition_model(&w, "spring", "linear"), bad = spring;
    bad.nv = 5;
    CU_ASSERT(!clothcheck_audit(&bad, NULL) && clothcheck_errcode() == CLOTHCHECK_MISUSE);
    CU_ASSERT(!clothcheck_audit(&spring, &(clothcheck_options){.samples = -1}) && clothcheck_errcode() == CLOTHCHECK_BAD_OPTION);
    CU_ASSERT(!clothcheck_audit(&spring, &(clothcheck_options){.claims = "spring/nope"}) &&
              clothcheck_errcode() == CLOTHCHECK_BAD_CLAIM);
    CU_ASSERT(!clothcheck_audit(&spring, &(clothcheck_options){.references = 1u << CLOTHCHECK_REF_CLAIM}) &&
              clothcheck_errcode() == CLOTHCHECK_BAD_OPTION && strstr(clothcheck_error(), "references holds bits"));
    CU_ASSERT(!clothcheck_audit(&spring, &(clothcheck_options){.exec_timeout = 5}) &&
              clothcheck_errcode() == CLOTHCHECK_BAD_OPTION && strstr(clothcheck_error(), "about a program"));
    CU_ASSERT(!clothcheck_audit(&spring, &(clothcheck_options){.only_case = "e99"}) &&
              clothcheck_errcode() == CLOTHCHECK_BAD_OPTION && strstr(clothcheck_error(), "only_case 'e99'"));
    CU_ASSERT(!clothcheck_audit(&spring, &(clothcheck_options){.flat_rest = 1}) &&
              clothcheck_errcode() == CLOTHCHECK_BAD_OPTION && strstr(clothcheck_error(), "flat_rest is about"));
    clothcheck_result *r = audit(&spring, "spring/linear", 0);
    CU_ASSERT_EQUAL(clothcheck_errcode(), CLOTHCHECK_OK);
    clothcheck_free(r);
}

/* the bend model's rest hinges as a callback sees them: the fold of each, and whether every
 * one is x_rest */
typedef struct rest_seen {
    wrapped w;
    const double *x_rest;    /* the rest hinge every call must carry, or NULL */
    int calls, other, folded;
} rest_seen;

static int rest_eval(void *user, const double *x, const clothcheck_rest *rest, int want, double *C, double *dC, double *d2C)
{
    rest_seen *s = user;
    s->calls++;
    if (s->x_rest && memcmp(rest->x_rest, s->x_rest, sizeof rest->x_rest)) s->other++;
    if (fabs(rest->theta0) > 1e-9) s->folded++;
    return wrapped_eval(&s->w, x, rest, want, C, dC, d2C);
}

/* x_rest: every element's rest hinge, its theta0 the hinge's angle; flat_rest: theta0 = 0;
 * a malformed x_rest is refused */
static void test_rest_hinge(void)
{
    static const double fold[12] = {0, 1, 0.3, 0, 0, 0, 1, 0, 0, 0, -1, 0.3};   /* wings up: folded */
    rest_seen s = {.w = {.c = cc_condition_find("bend", "bridson"), .grad_scale = 1}, .x_rest = fold};
    clothcheck_model m = {.name = "bend", .nv = 4, .ncomp = 1, .user = &s, .eval = rest_eval};
    clothcheck_options o = {.samples = SAMPLES, .claims = "bend/bridson", .x_rest = fold};
    clothcheck_result *r = clothcheck_audit(&m, &o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(clothcheck_verdict(r), 0);
    CU_ASSERT(s.calls > 0 && s.other == 0 && s.folded == s.calls);
    clothcheck_free(r);
    s = (rest_seen){.w = s.w};
    o.x_rest = NULL, o.flat_rest = 1;
    r = clothcheck_audit(&m, &o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT(s.calls > 0 && s.folded == 0);
    clothcheck_free(r);
    s = (rest_seen){.w = s.w};
    o.flat_rest = 0;   /* by default most random rests are folded */
    r = clothcheck_audit(&m, &o);
    CU_ASSERT(r && s.folded > s.calls / 2);
    clothcheck_free(r);
    double degenerate[12] = {0, 1, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0};   /* the shared edge has length 0 */
    o.x_rest = degenerate;
    CU_ASSERT(!clothcheck_audit(&m, &o) && clothcheck_errcode() == CLOTHCHECK_BAD_OPTION && strstr(clothcheck_error(), "x_rest: "));
    o.flat_rest = 1, o.x_rest = fold;
    CU_ASSERT(!clothcheck_audit(&m, &o) && strstr(clothcheck_error(), "give one"));
}

/* only_case, references and precision as the command line's --case, --reference, --precision */
static void test_options(void)
{
    wrapped w = {0};
    clothcheck_model m = condition_model(&w, "stretch", "bw98");
    clothcheck_options o = {.samples = SAMPLES, .claims = "stretch/bw98", .only_case = "#7"};
    clothcheck_result *r = clothcheck_audit(&m, &o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    const clothcheck_row *g = row(r, "claim", "gradient");
    CU_ASSERT(g && strstr(g->worst, "at #7"));
    clothcheck_free(r);
    o = (clothcheck_options){.samples = SAMPLES, .references = 1u << CLOTHCHECK_REF_EXACT};
    r = clothcheck_audit(&m, &o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    for (int i = 0; i < clothcheck_row_count(r); i++) {
        clothcheck_reference ref = clothcheck_row_at(r, i)->reference;
        CU_ASSERT(ref == CLOTHCHECK_REF_EXACT || ref == CLOTHCHECK_REF_TARGET);
    }
    CU_ASSERT_PTR_NOT_NULL(row(r, "exact", "hessian"));
    CU_ASSERT_PTR_NULL(row(r, "fd-true", "gradient"));
    clothcheck_free(r);
    /* a gradient off by 1e-6 relative: a double's audit fails it, a float's passes it */
    w.grad_scale = 1 + 1e-6;
    o = (clothcheck_options){.samples = SAMPLES, .claims = "stretch/bw98"};
    r = clothcheck_audit(&m, &o);
    CU_ASSERT(r && clothcheck_verdict(r) == 1);
    clothcheck_free(r);
    o.precision = CLOTHCHECK_PRECISION_SINGLE;
    r = clothcheck_audit(&m, &o);
    CU_ASSERT(r && row(r, "claim", "gradient") && row(r, "claim", "gradient")->status == CLOTHCHECK_PASS);
    clothcheck_free(r);
}

/* without a claim, what the model computes: a wrapped bend/pritchard is named */
static void test_identified(void)
{
    wrapped w = {0};
    clothcheck_model m = condition_model(&w, "bend", "pritchard");
    clothcheck_result *r = clothcheck_audit(&m, &(clothcheck_options){.samples = SAMPLES});
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    const clothcheck_identity *id = clothcheck_identified(r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(id);
    CU_ASSERT(id->matches == 1);
    CU_ASSERT_STRING_EQUAL(id->claims, "bend/pritchard");
    CU_ASSERT_STRING_EQUAL(id->hessian, "frozen-magnitude");
    CU_ASSERT(id->vertex_map[0] == 0 && id->vertex_map[3] == 3 && id->elements > 0 && id->max_rel_error < 1e-6);
    clothcheck_free(r);
    r = audit(&m, "bend/pritchard", 0);   /* a claim that holds: nothing to identify */
    CU_ASSERT_PTR_NULL(clothcheck_identified(r));
    clothcheck_free(r);
}

/* a program through the element protocol: tests/exec/spring.py, right and with a sign mistake,
 * and programs that cannot answer */
static void test_audit_exec(void)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "python3 %s/tests/exec/spring.py", CC_SOURCE_DIR);
    clothcheck_options o = {.samples = 40, .claims = "spring/linear"};
    clothcheck_result *r = clothcheck_audit_exec("spring", cmd, &o);
    if (!r) fprintf(stderr, "audit_exec: %s\n", clothcheck_error());
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(clothcheck_verdict(r), 0);
    CU_ASSERT(row(r, "claim", "gradient") && row(r, "claim", "gradient")->status == CLOTHCHECK_PASS);
    CU_ASSERT_PTR_NULL(clothcheck_identified(r));
    clothcheck_free(r);
    snprintf(cmd, sizeof cmd, "python3 %s/tests/exec/spring.py sign", CC_SOURCE_DIR);   /* -C and its derivatives */
    r = clothcheck_audit_exec("spring", cmd, &o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(clothcheck_verdict(r), 1);
    CU_ASSERT(has_finding(r, "claim", "gradient", "sign"));
    clothcheck_free(r);
    o.claims = NULL;   /* consistent with itself: it holds, and the report says what it is closest to */
    r = clothcheck_audit_exec("spring", cmd, &o);
    CU_ASSERT(r && clothcheck_verdict(r) == 0 && clothcheck_identified(r) && !clothcheck_identified(r)->matches);
    clothcheck_free(r);
    snprintf(cmd, sizeof cmd, "python3 %s/tests/exec/spring.py exit", CC_SOURCE_DIR);
    CU_ASSERT(!clothcheck_audit_exec("spring", cmd, &o) && clothcheck_errcode() == CLOTHCHECK_PROGRAM);
    CU_ASSERT(!clothcheck_audit_exec("spring", "/nonexistent/program", &o) && clothcheck_errcode() == CLOTHCHECK_PROGRAM &&
              strstr(clothcheck_error(), "cannot start"));
    CU_ASSERT(!clothcheck_audit_exec("twist", cmd, &o) && clothcheck_errcode() == CLOTHCHECK_MISUSE);
    CU_ASSERT(!clothcheck_audit_exec("spring", "", &o) && clothcheck_errcode() == CLOTHCHECK_MISUSE);
    o.claims = "bend/bridson";
    CU_ASSERT(!clothcheck_audit_exec("spring", cmd, &o) && clothcheck_errcode() == CLOTHCHECK_BAD_CLAIM &&
              strstr(clothcheck_error(), "is not a spring variant"));
    o.claims = NULL, o.references = 1;
    CU_ASSERT(!clothcheck_audit_exec("spring", cmd, &o) && clothcheck_errcode() == CLOTHCHECK_BAD_OPTION);
}

static void test_bad_input(void)
{
    wrapped w = {0};
    clothcheck_model good = condition_model(&w, "spring", "linear"), m;
    static const struct {
        const char *claims;
        int samples;
        double k;
        const char *says;
    } opts[] = {
        {NULL, -1, 0, "samples must be"}, {NULL, 100001, 0, "samples must be"}, {NULL, 0, -1, "k must be"},
        {NULL, 0, NAN, "k must be"}, {NULL, 0, INFINITY, "k must be"}, {"spring", 0, 0, "is not CONDITION/VARIANT"},
        {"spring/nope", 0, 0, "no such variant"}, {"stretch/bw98", 0, 0, "3 vertices and 2 components; the model has 2 and 1"},
        {"bridson-force", 0, 0, "give the model in the force form"},
    };
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
        clothcheck_options o = {.samples = opts[i].samples, .claims = opts[i].claims, .k = opts[i].k};
        CU_ASSERT_PTR_NULL(clothcheck_audit(&good, &o));
        CU_ASSERT(strstr(clothcheck_error(), opts[i].says) != NULL);
    }
    CU_ASSERT_PTR_NULL(clothcheck_audit(NULL, NULL));
    CU_ASSERT(strstr(clothcheck_error(), "no model") != NULL);
    m = good, m.nv = 5;
    CU_ASSERT(!clothcheck_audit(&m, NULL) && strstr(clothcheck_error(), "nv must be"));
    m = good, m.ncomp = 0;
    CU_ASSERT(!clothcheck_audit(&m, NULL) && strstr(clothcheck_error(), "ncomp must be"));
    m = good, m.ncomp = 4;
    CU_ASSERT(!clothcheck_audit(&m, NULL) && strstr(clothcheck_error(), "ncomp must be"));
    m = good, m.force = wrapped_force;
    CU_ASSERT(!clothcheck_audit(&m, NULL) && strstr(clothcheck_error(), "not both"));
    m = good, m.eval = NULL;
    CU_ASSERT(!clothcheck_audit(&m, NULL) && strstr(clothcheck_error(), "set eval"));
    m = good, m.eval = NULL, m.jacobian = wrapped_jacobian;
    CU_ASSERT(!clothcheck_audit(&m, NULL) && strstr(clothcheck_error(), "needs force"));
    m = good, m.energy = wrapped_energy;
    CU_ASSERT(!clothcheck_audit(&m, NULL) && strstr(clothcheck_error(), "belong to the force form"));
    m = good, m.period = -1;
    CU_ASSERT(!clothcheck_audit(&m, NULL) && strstr(clothcheck_error(), "period must be"));
    m = good, m.period = NAN;
    CU_ASSERT(!clothcheck_audit(&m, NULL) && strstr(clothcheck_error(), "period must be"));
    m = good, m.eval = NULL, m.force = wrapped_force, m.ncomp = 2;
    CU_ASSERT(!clothcheck_audit(&m, NULL) && strstr(clothcheck_error(), "ncomp belongs to the condition form"));
    m.ncomp = 1, m.period = 1;
    CU_ASSERT(!clothcheck_audit(&m, NULL) && strstr(clothcheck_error(), "period belongs to the condition form"));
    CU_ASSERT_EQUAL(clothcheck_verdict(NULL), -1);
    CU_ASSERT_EQUAL(clothcheck_row_count(NULL), 0);
    CU_ASSERT_PTR_NULL(clothcheck_row_at(NULL, 0));
    clothcheck_free(NULL);
    clothcheck_result *r = audit(&good, NULL, 0);
    CU_ASSERT_PTR_NULL(clothcheck_row_at(r, -1));
    CU_ASSERT_PTR_NULL(clothcheck_row_at(r, clothcheck_row_count(r)));
    CU_ASSERT_PTR_NOT_NULL(clothcheck_row_at(r, clothcheck_row_count(r) - 1));
    clothcheck_free(r);
}

/* One audit job of the reentrancy tests: a model, its claim, and the rows it gave. */
typedef struct job {
    wrapped w;
    clothcheck_model m;
    const char *claims;
    double k;
    char got[SNAPLEN];
} job;

/* jobs[0..3]: a right spring, a stretch with a sign mistake, Bridson's force with the wrong k,
 * a right bend condition */
static void make_jobs(job *jobs)
{
    memset(jobs, 0, sizeof *jobs * 4);
    jobs[0].m = condition_model(&jobs[0].w, "spring", "linear"), jobs[0].claims = "spring/linear";
    jobs[1].w.grad_scale = -1;
    jobs[1].m = condition_model(&jobs[1].w, "stretch", "bw98"), jobs[1].claims = "stretch/bw98";
    jobs[2].w.k = 1.0;
    jobs[2].m = force_model(&jobs[2].w, NULL, NULL, 0, 1), jobs[2].claims = "bridson-force", jobs[2].k = 2.0;
    jobs[3].m = condition_model(&jobs[3].w, "bend", "bridson"), jobs[3].claims = "bend/bridson";
}

/* j->got = the rows of j's audit */
static void run_job(job *j)
{
    clothcheck_options o = {.samples = SAMPLES, .claims = j->claims, .k = j->k};
    clothcheck_result *r = clothcheck_audit(&j->m, &o);
    snap(r, j->got, SNAPLEN);
    clothcheck_free(r);
}

/* A thread's four jobs and the one it starts with. */
typedef struct thread_arg {
    job jobs[4];
    int start;
} thread_arg;

static void *thread_main(void *arg)
{
    thread_arg *a = arg;
    for (int i = 0; i < 4; i++) run_job(&a->jobs[(i + a->start) % 4]);
    return NULL;
}

/* THREADS threads running the four audits at once, each in another order, give the rows the
 * same audits give one at a time */
static void test_threads(void)
{
    static job serial[4];
    static thread_arg each[THREADS];
    pthread_t tid[THREADS];
    make_jobs(serial);
    for (int i = 0; i < 4; i++) run_job(&serial[i]);
    CU_ASSERT(strncmp(serial[0].got, "verdict 0", 9) == 0 && strncmp(serial[1].got, "verdict 1", 9) == 0);
    CU_ASSERT(strncmp(serial[2].got, "verdict 1", 9) == 0 && strstr(serial[2].got, "{scale:") != NULL);
    CU_ASSERT(strncmp(serial[3].got, "verdict 0", 9) == 0);
    for (int t = 0; t < THREADS; t++) {
        make_jobs(each[t].jobs);
        each[t].start = t;
        CU_ASSERT_EQUAL_FATAL(pthread_create(&tid[t], NULL, thread_main, &each[t]), 0);
    }
    for (int t = 0; t < THREADS; t++) pthread_join(tid[t], NULL);
    for (int t = 0; t < THREADS; t++)
        for (int i = 0; i < 4; i++) CU_ASSERT_STRING_EQUAL(each[t].jobs[i].got, serial[i].got);
}

/* each thread has its own last error */
static void *bad_audit(void *arg)
{
    clothcheck_audit(NULL, NULL);
    snprintf(arg, 64, "%s", clothcheck_error());
    return NULL;
}

static void test_thread_errors(void)
{
    char theirs[64];
    pthread_t tid;
    wrapped w = {0};
    clothcheck_model m = condition_model(&w, "spring", "linear");
    clothcheck_result *r = audit(&m, NULL, 0);
    CU_ASSERT_EQUAL_FATAL(pthread_create(&tid, NULL, bad_audit, theirs), 0);
    pthread_join(tid, NULL);
    CU_ASSERT(strstr(theirs, "no model") != NULL);
    CU_ASSERT_STRING_EQUAL(clothcheck_error(), "");
    clothcheck_free(r);
}

/* an audit started from inside a callback (condition and force form) gives the rows it gives
 * on its own, and the outer audit the rows it gives without it */
static void test_nested(void)
{
    job alone[4];
    make_jobs(alone);
    for (int i = 0; i < 4; i++) run_job(&alone[i]);
    for (int outer = 1; outer <= 2; outer++) {   /* the stretch condition, Bridson's force */
        job with[4];
        make_jobs(with);
        with[outer].w.inner = &with[3].m, with[outer].w.inner_claims = with[3].claims;
        run_job(&with[outer]);
        CU_ASSERT_EQUAL(with[outer].w.inner_done, 1);
        CU_ASSERT_STRING_EQUAL(with[outer].got, alone[outer].got);
        char inner_alone[SNAPLEN];
        clothcheck_result *r = clothcheck_audit(&with[3].m, &(clothcheck_options){.samples = SAMPLES, .claims = with[3].claims});
        snap(r, inner_alone, SNAPLEN);
        clothcheck_free(r);
        CU_ASSERT_STRING_EQUAL(with[outer].w.inner_snap, inner_alone);
        CU_ASSERT(strncmp(inner_alone, "verdict 0", 9) == 0);
    }
}

int main(void)
{
    static const cc_test_case tests[] = {
        {"rest data: the public fields of each kind", test_rest},
        {"condition form: right variants hold their claims", test_condition_holds},
        {"condition form: a bend angle's period", test_condition_period},
        {"condition form: a flipped gradient fails 'sign'", test_condition_sign},
        {"condition form: an unfilled Hessian reads NaN", test_condition_unfilled},
        {"force form: energy k/2 C.C, missing energy and Jacobian, sign", test_force_energy},
        {"force form: Bridson's force model", test_force_bridson},
        {"print: the engine's table", test_print},
        {"options: the area power of the random triangles", test_area_power},
        {"bad input: NULL and a clear error", test_bad_input},
        {"names of the enums, the version", test_names},
        {"an error code beside every message", test_error_codes},
        {"options: x_rest and flat_rest, the rest hinges", test_rest_hinge},
        {"options: only_case, references, precision", test_options},
        {"identification: what an unclaimed model computes", test_identified},
        {"clothcheck_audit_exec: a program through the element protocol", test_audit_exec},
        {"reentrant: audits in threads at once", test_threads},
        {"reentrant: each thread's own error", test_thread_errors},
        {"reentrant: an audit from inside a callback", test_nested},
        {NULL, NULL}};
    return cc_test_main("api", tests);
}
