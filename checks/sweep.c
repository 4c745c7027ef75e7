/* Step sweeps and their verdict (see sweep.h). */
#include <float.h>
#include <math.h>
#include "checks/reference.h"
#include "checks/sweep.h"

#define FLAT_POINTS 5        /* two decades of half-decade steps */
#define FLAT_RATIO 3.0       /* max/min within a flat stretch */
#define ROUNDOFF_LIMIT 1e-4  /* eps/h^d above this: round-off may dominate */

const char *cc_verdict_name(cc_verdict v)
{
    static const char *const names[] = {"agrees", "wrong", "noisy", "undefined"};
    return v >= 0 && v <= CC_VERDICT_UNDEFINED ? names[v] : "?";
}

/* d of the quantity: 2 for second differences of values, else 1 */
static int diff_order(cc_fdq q) { return q == CC_FDQ_HESS_VALUE ? 2 : 1; }

/* normwise relative error of the analytic quantity against an estimate */
static double quantity_error(const cc_target *t, cc_fdq q, const double *x, cc_eval *e, cc_deriv *d)
{
    int n = 3 * t->nv;
    if (q == CC_FDQ_GRADIENT) return cc_compare_gradient(e->dC, d->g, t->ncomp, n).rel;
    return cc_compare_hessian_floor(e->d2C, d->H, t->ncomp, n, cc_hessian_floor(e, x, t->nv)).rel;
}

/* s.err[k] = max over elements of rel |analytic - estimate(h_k)| */
void cc_sweep_run(const cc_target *t, const cc_case *cases, int n, cc_fdq q, cc_scheme scheme,
                  int frozen, cc_sweep *s)
{
    cc_eval e;
    cc_deriv d;
    s->q = q;
    s->scheme = scheme;
    s->frozen = frozen;
    for (int k = 0; k < CC_SWEEP_STEPS; k++) {
        s->h[k] = pow(10.0, -0.5 * (k + 2));
        s->err[k] = 0;
    }
    for (int c = 0; c < n; c++) {
        const double *x = cases[c].x;
        int got = t->eval(t->ctx, x, &cases[c].r, CC_WANT_ALL, &e);
        int need = q == CC_FDQ_GRADIENT ? CC_WANT_GRAD : CC_WANT_HESS;
        double ell = cc_target_step_scale(t, x, got >= 0 && (got & CC_WANT_HESS) ? &e : NULL);
        for (int k = 0; k < CC_SWEEP_STEPS; k++) {
            double err = NAN;
            if (got >= 0 && (got & need) &&
                cc_fd_estimate(t, x, frozen ? x : NULL, &cases[c].r, q, scheme, s->h[k] * ell, &d) == 0)
                err = quantity_error(t, q, x, &e, &d);
            if (isnan(err) || isnan(s->err[k])) s->err[k] = NAN;
            else s->err[k] = fmax(s->err[k], err);
        }
    }
    cc_sweep_analyse(s);
}

/* least-squares slope of log10 err against log10 h over the points flagged in use */
static double fit_slope(const cc_sweep *s, const int *use)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int m = 0;
    for (int k = 0; k < CC_SWEEP_STEPS; k++) {
        if (!use[k]) continue;
        double lx = log10(s->h[k]), ly = log10(s->err[k]);
        sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly, m++;
    }
    if (m < 2) return NAN;
    return (m * sxy - sx * sy) / (m * sxx - sx * sx);
}

/* the level (geometric mean) of the lowest flat stretch of FLAT_POINTS steps above the floor
 * where round-off is still small, or 0 if there is none */
static double find_plateau(const cc_sweep *s, int d)
{
    double level = 0;
    for (int k0 = 0; k0 + FLAT_POINTS <= CC_SWEEP_STEPS; k0++) {
        double lo = INFINITY, hi = 0;
        int ok = 1;
        for (int k = k0; k < k0 + FLAT_POINTS && ok; k++) {
            double e = s->err[k];
            ok = isfinite(e) && e > 0 && DBL_EPSILON / pow(s->h[k], d) <= ROUNDOFF_LIMIT;
            lo = fmin(lo, e), hi = fmax(hi, e);
        }
        if (ok && hi <= FLAT_RATIO * lo && lo > s->floor) {
            double g = sqrt(lo * hi);
            if (level == 0 || g < level) level = g;
        }
    }
    return level;
}

/* best = argmin err, slope on the truncation side, verdict from floor and plateau */
void cc_sweep_analyse(cc_sweep *s)
{
    int p = s->scheme == CC_FD_RIDDERS ? 4 : cc_scheme_order(s->scheme), d = diff_order(s->q);
    s->floor = 1000 * pow(DBL_EPSILON, (double)p / (p + d));
    s->best = -1;   /* among steps where round-off cannot saturate the error (then any) */
    for (int pass = 0; pass < 2 && s->best < 0; pass++)
        for (int k = 0; k < CC_SWEEP_STEPS; k++)
            if (isfinite(s->err[k]) && (pass || DBL_EPSILON / pow(s->h[k], d) <= ROUNDOFF_LIMIT) &&
                (s->best < 0 || s->err[k] < s->err[s->best]))
                s->best = k;
    s->slope = NAN;
    s->plateau = 0;
    if (s->best < 0) {
        s->verdict = CC_VERDICT_UNDEFINED;
        return;
    }
    double eb = s->err[s->best];
    int use[CC_SWEEP_STEPS] = {0};
    /* truncation side: larger steps whose error is clearly above the best and not saturated */
    for (int k = 0; k < s->best; k++)
        use[k] = isfinite(s->err[k]) && s->err[k] >= 10 * eb && s->err[k] <= 0.1;
    s->slope = fit_slope(s, use);
    s->plateau = find_plateau(s, d);
    if (eb <= s->floor) s->verdict = CC_VERDICT_AGREES;
    else if (s->plateau > 0) s->verdict = CC_VERDICT_WRONG;
    else s->verdict = CC_VERDICT_NOISY;
}
