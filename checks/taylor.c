/* Taylor remainder test (see taylor.h). */
#include <float.h>
#include <math.h>
#include "checks/sample.h"
#include "checks/taylor.h"

#define ORDER_SLACK 0.3   /* an order may fall this far short of its expectation */
#define FIT_POINTS 4      /* steps in the fit of an order */

/* p = a random unit direction in R^n for (seed, id) */
static void direction(uint64_t seed, int id, int n, double *p)
{
    cc_rng g = cc_rng_make(seed ^ 0x7a7e5ull, (uint64_t)(int64_t)id);
    double len = 0;
    for (int i = 0; i < n; i++) p[i] = cc_rng_range(&g, -1, 1), len += p[i] * p[i];
    len = sqrt(len);
    for (int i = 0; i < n; i++) p[i] /= len;
}

/* slope of log rem against log eps over the FIT_POINTS smallest steps whose remainder is above
 * round-off (the asymptotic end: at large steps the next term can cancel the leading one);
 * NaN if fewer than 3 such steps */
static double fit(const double *eps, const double *rem, const double *noise)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int m = 0;
    for (int j = CC_TAYLOR_STEPS - 1; j >= 0 && m < FIT_POINTS; j--) {
        if (!(rem[j] > noise[j])) continue;
        double lx = log(eps[j]), ly = log(rem[j]);
        sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly, m++;
    }
    return m < 3 ? NAN : (m * sxy - sx * sy) / (m * sxx - sx * sx);
}

/* orders o[0..2] of one element; -1 if the target is undefined there */
static int one_case(const cc_target *t, const cc_case *c, uint64_t seed, int frozen, double *o)
{
    static cc_eval e;
    int n = 3 * t->nv;
    double p[CC_MAX_DOF], y[CC_MAX_DOF], C0[CC_MAX_COMP], C1[CC_MAX_COMP];
    double eps[CC_TAYLOR_STEPS], rem[3][CC_TAYLOR_STEPS], noise[CC_TAYLOR_STEPS];
    const double *xf = frozen ? c->x : NULL;
    int got = t->eval(t->ctx, c->x, &c->r, CC_WANT_ALL, &e);
    if (got < 0 || (got & (CC_WANT_GRAD | CC_WANT_HESS)) != (CC_WANT_GRAD | CC_WANT_HESS)) return -1;
    if (cc_target_value(t, c->x, xf, &c->r, C0) < 0) return -1;
    direction(seed, c->id, n, p);
    double ell = cc_target_step_scale(t, c->x, &e);
    for (int j = 0; j < CC_TAYLOR_STEPS; j++) {
        eps[j] = ell * ldexp(1.0, -(4 + j));
        for (int i = 0; i < n; i++) y[i] = c->x[i] + eps[j] * p[i];
        if (cc_target_value(t, y, xf, &c->r, C1) < 0) return -1;
        rem[0][j] = rem[1][j] = rem[2][j] = noise[j] = 0;
        for (int k = 0; k < t->ncomp; k++) {
            double gp = 0, pHp = 0;
            for (int i = 0; i < n; i++) {
                gp += e.dC[k][i] * p[i];
                for (int l = 0; l < n; l++) pHp += p[i] * e.d2C[k][i][l] * p[l];
            }
            double d0 = cc_target_diff(t, C1[k], C0[k]), d1 = d0 - eps[j] * gp, d2 = d1 - 0.5 * eps[j] * eps[j] * pHp;
            rem[0][j] = fmax(rem[0][j], fabs(d0));
            rem[1][j] = fmax(rem[1][j], fabs(d1));
            rem[2][j] = fmax(rem[2][j], fabs(d2));
            noise[j] = fmax(noise[j], 64 * DBL_EPSILON *
                            (fabs(C0[k]) + fabs(C1[k]) + fabs(eps[j] * gp) + fabs(eps[j] * eps[j] * pHp)));
        }
    }
    for (int q = 0; q < 3; q++) o[q] = fit(eps, rem[q], noise);
    return 0;
}

/* out.order[q] = lowest observed order of r_q over the elements */
void cc_taylor_run(const cc_target *t, const cc_case *cases, int n, uint64_t seed, int frozen,
                   cc_taylor *out)
{
    *out = (cc_taylor){{NAN, NAN, NAN}, {1, 1, 1}, {0, 0, 0}, 0};
    for (int c = 0; c < n; c++) {
        double o[3];
        if (one_case(t, &cases[c], seed, frozen, o) < 0) continue;
        out->defined = 1;
        for (int q = 0; q < 3; q++) {
            if (isnan(o[q])) continue;
            out->roundoff[q] = 0;
            if (isnan(out->order[q]) || o[q] < out->order[q]) out->order[q] = o[q], out->worst[q] = cases[c].id;
        }
    }
}

/* 1 if order[q] >= q + 1 - slack wherever r_q was fitted */
int cc_taylor_pass(const cc_taylor *t)
{
    if (!t->defined) return 0;
    for (int q = 0; q < 3; q++)
        if (!t->roundoff[q] && !(t->order[q] >= q + 1 - ORDER_SLACK)) return 0;
    return 1;
}
