/* The registry of condition variants: one table, looked up by (condition, variant). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "conditions/condition.h"
#include "conditions/variants.h"

static const cc_condition *const registry[] = {
    &cc_stretch_bw98,
    &cc_shear_bw98,
    &cc_shear_normalized,
    &cc_bend_pritchard,
    &cc_bend_pritchard_exact,
    &cc_bend_macri,
    &cc_bend_bridson,
    &cc_bend_discrete_shells,
    &cc_bend_quadratic,
    &cc_spring_linear,
};

int cc_condition_count(void) { return (int)(sizeof registry / sizeof registry[0]); }

const cc_condition *cc_condition_at(int i)
{
    return (i >= 0 && i < cc_condition_count()) ? registry[i] : NULL;
}

const cc_condition *cc_condition_find(const char *condition, const char *variant)
{
    for (int i = 0; i < cc_condition_count(); i++) {
        const cc_condition *c = registry[i];
        if (strcmp(c->condition, condition) == 0 && (!variant || strcmp(c->variant, variant) == 0))
            return c;
    }
    return NULL;
}

int cc_condition_known(const char *condition) { return cc_condition_find(condition, NULL) != NULL; }

const char *cc_claim_name(cc_claim c)
{
    switch (c) {
    case CC_CLAIM_EXACT: return "exact";
    case CC_CLAIM_FROZEN: return "frozen-magnitude";
    default: return "none";
    }
}

int cc_positions_in_range(const double *x, int nv, char *err)
{
    for (int i = 0; i < 3 * nv; i++) {
        if (!isfinite(x[i]))   /* "nan", "inf": %g of a NaN prints its sign bit as "-nan" */
            return snprintf(err, CC_ERRLEN, "coordinate %c of vertex %d is %s, not a finite number", "xyz"[i % 3], i / 3,
                            isnan(x[i]) ? "nan" : x[i] > 0 ? "inf" : "-inf"), -1;
        if (fabs(x[i]) > CC_COORD_MAX)
            return snprintf(err, CC_ERRLEN, "coordinate %g is beyond %g in magnitude (scale the element down)", x[i],
                            CC_COORD_MAX), -1;
    }
    for (int a = 0; a < nv; a++)
        for (int b = a + 1; b < nv; b++) {
            double d = 0;
            for (int s = 0; s < 3; s++) d = fmax(d, fabs(x[3 * a + s] - x[3 * b + s]));
            if (d > 0 && d < CC_LENGTH_MIN)
                return snprintf(err, CC_ERRLEN, "vertices %d and %d are %g apart, closer than %g (scale the element up)",
                                a, b, d, CC_LENGTH_MIN), -1;
        }
    return 0;
}

static int all_finite(const double *v, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i])) return 0;
    return 1;
}

int cc_eval_finite(const cc_eval *e, int want)
{
    int n = e->ndof;
    for (int k = 0; k < e->ncomp; k++) {
        if (!isfinite(e->C[k])) return 0;
        if ((want & CC_WANT_GRAD) && !all_finite(e->dC[k], n)) return 0;
        for (int i = 0; (want & CC_WANT_HESS) && i < n; i++)
            if (!all_finite(e->d2C[k][i], n)) return 0;
    }
    return 1;
}

/* C = value code at plain x: seed no derivatives, keep the real parts */
void cc_condition_value(const cc_condition *cond, const double *x, const double *xf,
                        const cc_rest *r, double *C)
{
    cc_hd hx[CC_MAX_DOF], hc[CC_MAX_COMP];
    for (int i = 0; i < 3 * cond->nv; i++) hx[i] = cc_hd_const(x[i]);
    cond->value_hd(hx, xf, r, hc);
    for (int k = 0; k < cond->ncomp; k++) C[k] = hc[k].a;
}
