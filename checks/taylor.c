/* Taylor remainder test (see taylor.h). */
#include <float.h>
#include <math.h>
#include "checks/sample.h"
#include "checks/taylor.h"

#define ORDER_SLACK 0.3   /* an order may fall this far short of its expectation */
#define FIT_POINTS 4      /* steps in the fit of an order */
#define RESOLVED 1000.0   /* a remainder is fitted only this far above its round-off */
#define TAYLOR_DIRS 3     /* random directions per element */

/* p = random unit direction d in R^n for (seed, id) */
static void direction(uint64_t seed, int id, int d, int n, double *p)
{
    cc_rng g = cc_rng_make(seed ^ (0x7a7e5ull + (uint64_t)d), (uint64_t)(int64_t)id);
    double len = 0;
    for (int i = 0; i < n; i++) p[i] = cc_rng_range(&g, -1, 1), len += p[i] * p[i];
    len = sqrt(len);
    for (int i = 0; i < n; i++) p[i] /= len;
}

/* slope of log rem against log eps over the FIT_POINTS smallest steps whose remainder is
 * RESOLVED times above its round-off (the asymptotic end: at large steps the next term can
 * cancel the leading one; near round-off the noise flattens the slope); NaN if fewer than 3 */
static double fit(const double *eps, const double *rem, const double *noise)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int m = 0;
    for (int j = CC_TAYLOR_STEPS - 1; j >= 0 && m < FIT_POINTS; j--) {
        if (!(rem[j] > RESOLVED * noise[j])) continue;
        double lx = log(eps[j]), ly = log(rem[j]);
        sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly, m++;
    }
    return m < 3 ? NAN : (m * sxy - sx * sy) / (m * sxx - sx * sx);
}

/* the smaller of two orders, NaN only if both are */
static double lower(double a, double b) { return isnan(a) ? b : isnan(b) ? a : fmin(a, b); }

/* Remainders of one element along one direction p, split into their odd and even parts in
 * eps, (R(eps) -+ R(-eps)) / 2: each part has a single leading power (the odd part of r2 is
 * c3 eps^3 + c5 eps^5 ...), so neighbouring terms cannot cancel it, and a wrong g or H shows
 * up in the odd (eps g.p) or even (eps^2 p^T H p) part. o[q] = the lower of the two orders. */
static int along(const cc_target *t, const cc_case *c, const double *xf, const cc_eval *e,
                 const double *p, const double *C0, const double *gx, double ell, double *o)
{
    int n = 3 * t->nv;
    double y[CC_MAX_DOF], Cp[CC_MAX_COMP], Cm[CC_MAX_COMP];
    double eps[CC_TAYLOR_STEPS], rem[3][2][CC_TAYLOR_STEPS], noise[CC_TAYLOR_STEPS];
    for (int j = 0; j < CC_TAYLOR_STEPS; j++) {
        eps[j] = ell * ldexp(1.0, -(4 + j));
        for (int i = 0; i < n; i++) y[i] = c->x[i] + eps[j] * p[i];
        if (cc_target_value(t, y, xf, &c->r, Cp) < 0) return -1;
        for (int i = 0; i < n; i++) y[i] = c->x[i] - eps[j] * p[i];
        if (cc_target_value(t, y, xf, &c->r, Cm) < 0) return -1;
        noise[j] = 0;
        for (int q = 0; q < 3; q++) rem[q][0][j] = rem[q][1][j] = 0;
        for (int k = 0; k < t->ncomp; k++) {
            double gp = 0, pHp = 0, h = eps[j];
            for (int i = 0; i < n; i++) {
                gp += e->dC[k][i] * p[i];
                for (int l = 0; l < n; l++) pHp += p[i] * e->d2C[k][i][l] * p[l];
            }
            double dp = cc_target_diff(t, &c->r, Cp[k], C0[k]), dm = cc_target_diff(t, &c->r, Cm[k], C0[k]);
            double r[3][2] = {{dp, dm}, {dp - h * gp, dm + h * gp},
                              {dp - h * gp - 0.5 * h * h * pHp, dm + h * gp - 0.5 * h * h * pHp}};
            for (int q = 0; q < 3; q++) {
                rem[q][0][j] = fmax(rem[q][0][j], fabs(0.5 * (r[q][0] - r[q][1])));   /* odd */
                rem[q][1][j] = fmax(rem[q][1][j], fabs(0.5 * (r[q][0] + r[q][1])));   /* even */
            }
            noise[j] = fmax(noise[j], 64 * DBL_EPSILON * (fabs(C0[k]) + fabs(Cp[k]) + fabs(Cm[k]) + gx[k] +
                                                          fabs(h * gp) + fabs(h * h * pHp)));
        }
    }
    for (int q = 0; q < 3; q++) o[q] = lower(fit(eps, rem[q][0], noise), fit(eps, rem[q][1], noise));
    return 0;
}

/* orders o[0..2] of one element: per remainder the best over TAYLOR_DIRS directions (a
 * wrong derivative lowers the order along almost every direction, a direction that happens
 * to be special does not hide a correct one); -1 if the target is undefined there */
static int one_case(const cc_target *t, const cc_case *c, uint64_t seed, int frozen, double *o)
{
    cc_eval e;
    int n = 3 * t->nv;
    double p[CC_MAX_DOF], C0[CC_MAX_COMP], gx[CC_MAX_COMP] = {0}, od[3];
    const double *xf = frozen ? c->x : NULL;
    int got = t->eval(t->ctx, c->x, &c->r, CC_WANT_ALL, &e);
    if (got < 0 || (got & (CC_WANT_GRAD | CC_WANT_HESS)) != (CC_WANT_GRAD | CC_WANT_HESS)) return -1;
    if (cc_target_value(t, c->x, xf, &c->r, C0) < 0) return -1;
    for (int k = 0; k < t->ncomp; k++)   /* C's round-off from its inputs: sum_i |g_i x_i| eps */
        for (int i = 0; i < n; i++) gx[k] += fabs(e.dC[k][i] * c->x[i]);
    double ell = cc_target_step_scale(t, c->x, &e);
    o[0] = o[1] = o[2] = NAN;
    for (int d = 0; d < TAYLOR_DIRS; d++) {
        direction(seed, c->id, d, n, p);
        if (along(t, c, xf, &e, p, C0, gx, ell, od) < 0) return -1;
        for (int q = 0; q < 3; q++)
            if (!isnan(od[q]) && (isnan(o[q]) || od[q] > o[q])) o[q] = od[q];
    }
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
