/* The reference "claim" (see claim.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "checks/claim.h"
#include "conditions/bridson_force.h"

int cc_claim_given(const cc_claim_spec *s) { return s->cond != NULL || s->bridson_force; }

int cc_claim_ncomp(const cc_claim_spec *s) { return s->bridson_force || s->as_energy ? 1 : s->cond->ncomp; }

int cc_claim_nv(const cc_claim_spec *s) { return s->bridson_force ? 4 : s->cond->nv; }

void cc_claim_label(const cc_claim_spec *s, char *buf, int n)
{
    if (s->bridson_force) snprintf(buf, (size_t)n, "bridson-force (k = %g)", s->k);
    else if (s->as_energy) snprintf(buf, (size_t)n, "%s/%s as the energy k/2 C.C (k = %g)", s->cond->condition, s->cond->variant, s->k);
    else snprintf(buf, (size_t)n, "%s/%s", s->cond->condition, s->cond->variant);
}

int cc_claim_parse(const char *spec, double k, int as_energy, cc_claim_spec *s, char *err)
{
    memset(s, 0, sizeof *s);
    s->k = k;
    if (!strcmp(spec, "bridson-force")) {
        s->bridson_force = 1;
        return 0;
    }
    char cond[32];
    const char *slash = strchr(spec, '/');
    size_t len = slash ? (size_t)(slash - spec) : 0;
    if (!slash || len == 0 || len >= sizeof cond) {
        snprintf(err, CC_ERRLEN, "claim '%s' is not CONDITION/VARIANT (bend/bridson, stretch/bw98, ...) or bridson-force", spec);
        return -1;
    }
    memcpy(cond, spec, len);
    cond[len] = '\0';
    s->cond = cc_condition_find(cond, slash + 1);
    if (!s->cond) {
        snprintf(err, CC_ERRLEN, "claim '%s': no such variant (clothcheck eval --help lists them)", spec);
        return -1;
    }
    s->as_energy = as_energy;
    return 0;
}

/* C, dC, d2C of the claimed variant at (x, r): its value, and exact derivatives of it where it
 * claims them (or always, with exact), its own formulas otherwise; 0 or -1 */
static int variant_at(const cc_condition *c, const double *x, const cc_rest *r, int exact, cc_eval *e)
{
    if (c->eval(x, r, CC_WANT_ALL, e) < 0) return -1;
    if (!c->value_hd) return exact ? -1 : 0;
    if (c->claim != CC_CLAIM_EXACT && !exact) return 0;
    cc_target t = cc_target_from_condition(c);
    cc_deriv d;
    if (cc_exact_derivs(&t, x, NULL, r, 1, &d) < 0) return -1;
    memcpy(e->dC, d.g, sizeof e->dC);
    memcpy(e->d2C, d.H, sizeof e->d2C);
    return 0;
}

/* -F and -dF/dx of Bridson's force model at (x, r) into d: F by its closed form, the
 * Jacobian exact by hyper-duals of that form; 0 or -1 */
static int bridson_at(double k, const double *x, const cc_rest *r, cc_deriv *d)
{
    double F[12];
    if (cc_bridson_force(x, r, k, F, NULL) < 0) return -1;
    for (int j = 0; j < 12; j++) {
        cc_hd X[12], G[12];
        for (int i = 0; i < 12; i++) X[i] = (cc_hd){x[i], i == j ? 1 : 0, 0, 0};
        cc_bridson_force_hd(X, r, k, G);
        for (int i = 0; i < 12; i++) d->H[0][i][j] = -G[i].b;
    }
    for (int i = 0; i < 12; i++) d->g[0][i] = -F[i];
    return 0;
}

int cc_claim_has_exact(const cc_claim_spec *s)
{
    return s->cond && s->cond->claim != CC_CLAIM_EXACT && s->cond->value_hd;
}

/* C, dC, d2C of variant c at (x, r) with the magnitudes of its normalised vectors frozen at x
 * (001 Section 4): hyper-duals of its value code with xf = x; 0 or -1 */
static int variant_frozen_at(const cc_condition *c, const double *x, const cc_rest *r, cc_eval *e)
{
    cc_target t = cc_target_from_condition(c);
    cc_deriv d;
    if (!t.frozen || !c->value_hd || c->eval(x, r, CC_WANT_ALL, e) < 0 || cc_exact_derivs(&t, x, x, r, 1, &d) < 0)
        return -1;
    memcpy(e->dC, d.g, sizeof e->dC);
    memcpy(e->d2C, d.H, sizeof e->d2C);
    return 0;
}

/* cc_claim_eval, the derivatives exact when `exact` is 1, with frozen magnitudes when it is 2 */
static int claim_at(const cc_claim_spec *s, const double *x, const cc_rest *r, int exact, double *C, cc_deriv *d)
{
    memset(d, 0, sizeof *d);
    if (s->bridson_force) return exact || bridson_at(s->k, x, r, d) < 0 ? -1 : CC_CLAIM_HAS_DERIV;
    cc_eval e;
    if ((exact == 2 ? variant_frozen_at(s->cond, x, r, &e) : variant_at(s->cond, x, r, exact, &e)) < 0) return -1;
    int n = 3 * s->cond->nv, m = s->cond->ncomp;
    if (!s->as_energy) {
        memcpy(C, e.C, sizeof(double) * (size_t)m);
        memcpy(d->g, e.dC, sizeof d->g);
        memcpy(d->H, e.d2C, sizeof d->H);
    } else {
        C[0] = 0;
        for (int k = 0; k < m; k++) {
            C[0] += 0.5 * s->k * e.C[k] * e.C[k];
            for (int i = 0; i < n; i++) {
                d->g[0][i] += s->k * e.C[k] * e.dC[k][i];
                for (int j = 0; j < n; j++) d->H[0][i][j] += s->k * (e.dC[k][i] * e.dC[k][j] + e.C[k] * e.d2C[k][i][j]);
            }
        }
    }
    for (int k = 0; k < cc_claim_ncomp(s); k++)
        if (!isfinite(C[k])) return -1;
    return CC_CLAIM_HAS_VALUE | CC_CLAIM_HAS_DERIV;
}

int cc_claim_eval(const cc_claim_spec *s, const double *x, const cc_rest *r, double *C, cc_deriv *d)
{
    return claim_at(s, x, r, 0, C, d);
}

int cc_claim_eval_exact(const cc_claim_spec *s, const double *x, const cc_rest *r, double *C, cc_deriv *d)
{
    return claim_at(s, x, r, 1, C, d);
}

int cc_claim_eval_frozen(const cc_claim_spec *s, const double *x, const cc_rest *r, double *C, cc_deriv *d)
{
    return claim_at(s, x, r, 2, C, d);
}
