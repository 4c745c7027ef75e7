/* The user's model as an audit target (see api.h).
 *
 * The condition form maps one to one onto the condition contract (condition.h): C, dC, d2C,
 * copied from the user's arrays of stride n = 3 nv into cc_eval's of stride CC_MAX_DOF. The
 * force form is one energy: value E, gradient -F, Hessian -dF/dx; what the user does not give
 * (energy, Jacobian) is left out of target.provides, and the engine marks the rows that need
 * it "not applicable". Entries the user was asked for start as NaN, so one left unfilled shows
 * in the table instead of reading uninitialised memory.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "api/api.h"
#include "checks/claim.h"

_Static_assert((int)CLOTHCHECK_WANT_VALUE == (int)CC_WANT_VALUE && (int)CLOTHCHECK_WANT_GRADIENT == (int)CC_WANT_GRAD &&
                   (int)CLOTHCHECK_WANT_HESSIAN == (int)CC_WANT_HESS,
               "the public want bits are the engine's");

/* the public rest data of r: the fields of its kind, the others 0 */
void cc_api_rest(const cc_rest *r, clothcheck_rest *out)
{
    memset(out, 0, sizeof *out);
    out->nv = r->nv;
    if (r->nv == 3) {
        out->uv[2] = r->du1, out->uv[3] = r->dv1;
        out->uv[4] = r->du2, out->uv[5] = r->dv2;
        out->area = r->area;
        out->area_power = r->area_power;
        out->bu = r->bu, out->bv = r->bv;
    } else if (r->nv == 4) {
        memcpy(out->x_rest, r->rest_x, sizeof out->x_rest);
        out->theta0 = r->rest_angle;
    } else if (r->nv == 2) {
        out->length = r->rest_length;
    }
}

/* v[0..n) = NaN */
static void poison(double *v, int n)
{
    for (int i = 0; i < n; i++) v[i] = NAN;
}

/* the condition form: the user's C, dC, d2C into out; the bits asked for, or -1 */
static int condition_eval(void *ctx, const double *x, const cc_rest *r, int want, cc_eval *out)
{
    const cc_api_model *am = ctx;
    int n = 3 * am->m.nv, nc = am->m.ncomp;
    double C[CC_MAX_COMP], dC[CC_MAX_COMP * CC_MAX_DOF], d2C[CC_MAX_COMP * CC_MAX_DOF * CC_MAX_DOF];
    clothcheck_rest rest;
    cc_api_rest(r, &rest);
    want &= CC_WANT_ALL;
    poison(C, nc);
    if (want & CC_WANT_GRAD) poison(dC, nc * n);
    if (want & CC_WANT_HESS) poison(d2C, nc * n * n);
    if (am->m.eval(am->m.user, x, &rest, want, C, dC, d2C) != 0) return -1;
    out->ncomp = nc, out->ndof = n;
    for (int k = 0; k < nc; k++) {
        out->C[k] = C[k];
        for (int i = 0; i < n && (want & CC_WANT_GRAD); i++) out->dC[k][i] = dC[k * n + i];
        for (int i = 0; i < n && (want & CC_WANT_HESS); i++)
            memcpy(out->d2C[k][i], d2C + (k * n + i) * n, sizeof(double) * (size_t)n);
    }
    return want;
}

/* the force form: value E, gradient -F, Hessian -dF/dx, as far as given and asked; the bits
 * filled, or -1 */
static int force_eval(void *ctx, const double *x, const cc_rest *r, int want, cc_eval *out)
{
    const clothcheck_model *m = &((const cc_api_model *)ctx)->m;
    int n = 3 * m->nv, got = 0;
    double F[CC_MAX_DOF], J[CC_MAX_DOF * CC_MAX_DOF], E = NAN;
    clothcheck_rest rest;
    cc_api_rest(r, &rest);
    out->ncomp = 1, out->ndof = n;
    out->C[0] = 0;   /* without an energy: what the engine's step scale reads as |E| */
    if ((want & CC_WANT_VALUE) && m->energy) {
        if (m->energy(m->user, x, &rest, &E) != 0) return -1;
        out->C[0] = E, got |= CC_WANT_VALUE;
    }
    if (want & CC_WANT_GRAD) {
        poison(F, n);
        if (m->force(m->user, x, &rest, F) != 0) return -1;
        for (int i = 0; i < n; i++) out->dC[0][i] = -F[i];
        got |= CC_WANT_GRAD;
    }
    if ((want & CC_WANT_HESS) && m->jacobian) {
        poison(J, n * n);
        if (m->jacobian(m->user, x, &rest, J) != 0) return -1;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) out->d2C[0][i][j] = -J[i * n + j];
        got |= CC_WANT_HESS;
    }
    return got;
}

/* C (or E) at x; -1 where undefined, or when asked for frozen magnitudes (xf) */
static int model_value(void *ctx, const double *x, const double *xf, const cc_rest *r, double *C)
{
    const cc_api_model *am = ctx;
    cc_eval e;
    if (xf) return -1;
    int got = am->m.eval ? condition_eval(ctx, x, r, CC_WANT_VALUE, &e) : force_eval(ctx, x, r, CC_WANT_VALUE, &e);
    if (got < 0 || !(got & CC_WANT_VALUE)) return -1;
    memcpy(C, e.C, sizeof(double) * (size_t)e.ncomp);
    return 0;
}

/* 0 if m is well formed, else -1 with why in err */
int cc_api_check_model(const clothcheck_model *m, char *err)
{
    const char *why = NULL;
    if (!m) why = "no model (NULL)";
    else if (m->nv < 2 || m->nv > 4) why = "nv must be 2 (spring), 3 (triangle) or 4 (hinge)";
    else if (m->eval && m->force) why = "set eval (the condition form) or force (the force form), not both";
    else if (!m->eval && !m->force)
        why = m->jacobian || m->energy ? "the force form needs force (jacobian and energy alone are not a force)"
                                       : "set eval (the condition form) or force (the force form)";
    else if (m->eval && (m->jacobian || m->energy)) why = "jacobian and energy belong to the force form, not to eval";
    else if (m->eval && (m->ncomp < 1 || m->ncomp > CC_MAX_COMP)) why = "ncomp must be 1, 2 or 3 in the condition form";
    else if (m->force && m->ncomp != 0 && m->ncomp != 1) why = "ncomp belongs to the condition form (a force has one energy)";
    else if (m->force && m->period != 0) why = "period belongs to the condition form (an energy is not an angle)";
    else if (!(m->period >= 0 && isfinite(m->period))) why = "period must be 0 or a positive finite number";
    if (why) snprintf(err, CC_ERRLEN, "%s", why);
    return why ? -1 : 0;
}

/* 0 if claim s fits m's form, vertices and components, else -1 with why in err */
int cc_api_check_claim(const clothcheck_model *m, const cc_claim_spec *s, char *err)
{
    char label[96];
    if (!cc_claim_given(s)) return 0;
    if (s->bridson_force && !m->force) {
        snprintf(err, CC_ERRLEN, "claims 'bridson-force' is a force: give the model in the force form (force, jacobian)");
        return -1;
    }
    int nc = m->force ? 1 : m->ncomp;
    if (cc_claim_nv(s) == m->nv && cc_claim_ncomp(s) == nc) return 0;
    cc_claim_label(s, label, sizeof label);
    snprintf(err, CC_ERRLEN, "claims %s: an element of %d vertices and %d component%s; the model has %d and %d",
             label, cc_claim_nv(s), cc_claim_ncomp(s), cc_claim_ncomp(s) == 1 ? "" : "s", m->nv, nc);
    return -1;
}

/* what a force model's report says it gives */
static const char *force_source(const clothcheck_model *m)
{
    if (m->jacobian && m->energy) return "C API: force F, Jacobian dF/dx and energy E (value E, gradient -F, Hessian -dF/dx)";
    if (m->jacobian) return "C API: force F and Jacobian dF/dx, no energy (gradient -F, Hessian -dF/dx)";
    if (m->energy) return "C API: force F and energy E, no Jacobian (value E, gradient -F)";
    return "C API: force F only (gradient -F)";
}

/* am = m copied, t = the target calling m through am */
void cc_api_target(const clothcheck_model *m, const cc_claim_spec *s, cc_api_model *am, cc_target *t)
{
    am->m = *m;
    snprintf(am->name, sizeof am->name, "%s", m->name && *m->name ? m->name : "model");
    memset(t, 0, sizeof *t);
    t->condition = am->name;
    t->variant = m->force ? "force" : "condition";
    t->source = m->force ? force_source(m) : "C API: C, dC, d2C";
    t->nv = m->nv;
    t->ncomp = m->force ? 1 : m->ncomp;
    /* its derivatives are meant to be those of its value, unless it claims a variant whose
     * derivatives are not (Pritchard's frozen magnitudes): then only the claim rows gate, as in
     * the audit of a program */
    t->claim = s->cond ? s->cond->claim : CC_CLAIM_EXACT;
    t->ctx = am;
    t->eval = m->force ? force_eval : condition_eval;
    t->value = model_value;
    t->provides = m->force ? CC_WANT_GRAD | (m->energy ? CC_WANT_VALUE : 0) | (m->jacobian ? CC_WANT_HESS : 0)
                           : CC_WANT_ALL;
    t->period = m->period;
    if (m->period == 0 && m->eval && s->cond && !s->as_energy) {   /* the claimed variant's period */
        cc_target c = cc_target_from_condition(s->cond);
        t->period = c.period, t->period_weighted = c.period_weighted;
    }
}
