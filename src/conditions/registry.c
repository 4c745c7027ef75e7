/* The registry of condition variants: one table, looked up by (condition, variant). */
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

/* C = value code at plain x: seed no derivatives, keep the real parts */
void cc_condition_value(const cc_condition *cond, const double *x, const double *xf,
                        const cc_rest *r, double *C)
{
    cc_hd hx[CC_MAX_DOF], hc[CC_MAX_COMP];
    for (int i = 0; i < 3 * cond->nv; i++) hx[i] = cc_hd_const(x[i]);
    cond->value_hd(hx, xf, r, hc);
    for (int k = 0; k < cond->ncomp; k++) C[k] = hc[k].a;
}
