/* Audit targets built from registered condition variants. */
#include <math.h>
#include <string.h>
#include "checks/target.h"
#include "math/cc_vec.h"

/* out = the variant's analytic derivatives at x */
static int cond_eval(void *ctx, const double *x, const cc_rest *r, int want, cc_eval *out)
{
    const cc_condition *c = ctx;
    return c->eval(x, r, want, out);
}

/* C through the variant's own value_hd with no seeds: one copy of each formula */
static int cond_value(void *ctx, const double *x, const double *xf, const cc_rest *r, double *C)
{
    const cc_condition *c = ctx;
    cc_condition_value(c, x, xf, r, C);
    for (int k = 0; k < c->ncomp; k++)
        if (isnan(C[k])) return -1;
    return 0;
}

/* C = the variant's value_hd at hyper-dual x */
static void cond_value_hd(void *ctx, const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *C)
{
    const cc_condition *c = ctx;
    c->value_hd(x, xf, r, C);
}

/* t = the target of registered variant c */
cc_target cc_target_from_condition(const cc_condition *c)
{
    cc_target t = {
        .condition = c->condition,
        .variant = c->variant,
        .source = c->source,
        .nv = c->nv,
        .ncomp = c->ncomp,
        .claim = c->claim,
        .frozen = 1,
        .period = strcmp(c->condition, "bend") == 0 && c->ncomp == 1 ? 2 * CC_PI : 0,
        .period_weighted = c->rest_shape,
        .ctx = (void *)c,
        .eval = cond_eval,
        .value = cond_value,
        .value_hd = c->value_hd ? cond_value_hd : NULL,
    };
    return t;
}

/* C = value at x (frozen at xf when given); 0 or -1 */
int cc_target_value(const cc_target *t, const double *x, const double *xf, const cc_rest *r,
                    double *C)
{
    if (xf && !t->frozen) return -1;
    return t->value(t->ctx, x, xf, r, C);
}

/* a - b, wrapped into (-p/2, p/2] for a periodic C of period p */
double cc_target_diff(const cc_target *t, const cc_rest *r, double a, double b)
{
    double d = a - b, p = t->period * (t->period_weighted ? r->rest_weight : 1.0);
    if (!(p > 0) || !isfinite(d)) return d;
    d -= p * floor(d / p + 0.5);
    return d <= -p / 2 ? d + p : d;
}

/* ell = min(|x_m - x_n|, heights of the element's triangles) */
double cc_target_length_scale(const cc_target *t, const double *x)
{
    double ell = INFINITY;
    for (int m = 0; m < t->nv; m++)
        for (int n = m + 1; n < t->nv; n++)
            ell = fmin(ell, cc_v3_norm(cc_v3_sub(cc_v3_load(x + 3 * m), cc_v3_load(x + 3 * n))));
    /* the element's triangles: the triangle itself, or a hinge's two wings (0,1,2), (1,2,3) */
    static const int tris[2][3] = {{0, 1, 2}, {1, 2, 3}};
    int ntri = t->nv == 3 ? 1 : t->nv == 4 ? 2 : 0;
    for (int q = 0; q < ntri; q++) {
        cc_v3 pa = cc_v3_load(x + 3 * tris[q][0]), pb = cc_v3_load(x + 3 * tris[q][1]);
        cc_v3 pc = cc_v3_load(x + 3 * tris[q][2]);
        cc_v3 ab = cc_v3_sub(pb, pa), ac = cc_v3_sub(pc, pa), bc = cc_v3_sub(pc, pb);
        double twice_area = cc_v3_norm(cc_v3_cross(ab, ac));
        double longest = fmax(cc_v3_norm(ab), fmax(cc_v3_norm(ac), cc_v3_norm(bc)));
        if (longest > 0) ell = fmin(ell, twice_area / longest);
    }
    return isfinite(ell) && ell > 0 ? ell : 1.0;
}

/* ell_f = clamp(max(|g|/|H|, sqrt(|C|/|H|)), ell, L) */
double cc_target_step_scale(const cc_target *t, const double *x, const cc_eval *e)
{
    double ell = cc_target_length_scale(t, x), big = 0, cmax = 0, gmax = 0, hmax = 0;
    int n = 3 * t->nv;
    for (int m = 0; m < t->nv; m++)
        for (int q = m + 1; q < t->nv; q++)
            big = fmax(big, cc_v3_norm(cc_v3_sub(cc_v3_load(x + 3 * m), cc_v3_load(x + 3 * q))));
    if (!e || !(big > ell)) return ell;
    for (int k = 0; k < t->ncomp; k++) {
        cmax = fmax(cmax, fabs(e->C[k]));
        for (int i = 0; i < n; i++) {
            gmax = fmax(gmax, fabs(e->dC[k][i]));
            for (int j = 0; j < n; j++) hmax = fmax(hmax, fabs(e->d2C[k][i][j]));
        }
    }
    double f = hmax > 0 ? fmax(gmax / hmax, sqrt(cmax / hmax)) : ell;   /* no curvature given: the safe end */
    return isfinite(f) ? fmin(fmax(f, ell), big) : ell;
}

int cc_target_pending(const cc_target *t) { return t->pending ? t->pending(t->ctx) : 0; }
