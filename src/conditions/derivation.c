/* Steps shared by every variant's derivation (derivation.h): the plain value of a step and
 * the final step, C itself with the variant's own derivatives. */
#include <string.h>
#include "conditions/derivation.h"

/* q = the step's value_hd at plain x, keeping the real parts */
void cc_step_value(const cc_step *s, int nv, const double *x, const double *xf, const cc_rest *r,
                   double *q)
{
    cc_hd hx[CC_MAX_DOF], hq[CC_STEP_MAXQ];
    for (int i = 0; i < 3 * nv; i++) hx[i] = cc_hd_const(x[i]);
    s->value_hd(s, hx, xf, r, hq);
    for (int c = 0; c < s->n; c++) q[c] = hq[c].a;
}

/* q = C_k (k = arg) of the variant ptr; d = its dC_k (order 1) or d2C_k (order 2) from eval */
int cc_step_condition_derive(const cc_step *s, const double *x, const cc_rest *r, double *q, double *d)
{
    const cc_condition *c = s->ptr;
    cc_eval e;
    int k = s->arg, n = 3 * c->nv;
    int want = s->order == 1 ? CC_WANT_VALUE | CC_WANT_GRAD : CC_WANT_ALL;
    if (c->eval(x, r, want, &e) < 0) return -1;
    q[0] = e.C[k];
    for (int i = 0; i < n; i++) {
        if (s->order == 1) d[i] = e.dC[k][i];
        else memcpy(d + i * n, e.d2C[k][i], sizeof(double) * (size_t)n);
    }
    return 0;
}

/* q = C_k (k = arg) of the variant ptr over hyper-duals */
void cc_step_condition_value_hd(const cc_step *s, const cc_hd *x, const double *xf, const cc_rest *r,
                                cc_hd *q)
{
    const cc_condition *c = s->ptr;
    cc_hd C[CC_MAX_COMP];
    c->value_hd(x, xf, r, C);
    q[0] = C[s->arg];
}
