/* Finite-difference schemes (see fd.h). Finite differences live in checks/ only. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "checks/fd.h"

#define NQ (CC_MAX_COMP * CC_MAX_DOF * CC_MAX_DOF)  /* entries of the largest quantity */
#define RIDDERS_CON 1.4                             /* step reduction per tableau column */
#define RIDDERS_NTAB 10                             /* columns of the tableau */
#define RIDDERS_SAFE 2.0                            /* stop when the error grows by this */

const char *cc_scheme_name(cc_scheme s)
{
    static const char *const names[] = {"forward", "central", "central4", "ridders"};
    return s >= 0 && s < CC_FD_NSCHEMES ? names[s] : "?";
}

/* p in error O(h^p) of scheme s */
int cc_scheme_order(cc_scheme s)
{
    static const int orders[] = {1, 2, 4, 0};
    return s >= 0 && s < CC_FD_NSCHEMES ? orders[s] : 0;
}

/* report name of quantity q */
const char *cc_fdq_name(cc_fdq q)
{
    static const char *const names[] = {"gradient", "hessian", "hessian-vs-gradient"};
    return q >= 0 && q < CC_FDQ_COUNT ? names[q] : "?";
}

/* C at x + hi e_i + hj e_j (j < 0: only the first offset) */
static int value_at(const cc_target *t, const double *x, const double *xf, const cc_rest *r,
                    int i, double hi, int j, double hj, double *C)
{
    double y[CC_MAX_DOF];
    memcpy(y, x, sizeof(double) * 3 * t->nv);
    y[i] += hi;
    if (j >= 0) y[j] += hj;
    return cc_target_value(t, y, xf, r, C);
}

/* g[k][i] = (C(x + h e_i) - C(x)) / h, or the central (C(x + h e_i) - C(x - h e_i)) / 2h */
static int grad_basic(const cc_target *t, const double *x, const double *xf, const cc_rest *r,
                      int central, double h, cc_deriv *d)
{
    double c0[CC_MAX_COMP], cp[CC_MAX_COMP], cm[CC_MAX_COMP];
    if (!central && cc_target_value(t, x, xf, r, c0) < 0) return -1;
    for (int i = 0; i < 3 * t->nv; i++) {
        if (value_at(t, x, xf, r, i, h, -1, 0, cp) < 0) return -1;
        if (central && value_at(t, x, xf, r, i, -h, -1, 0, cm) < 0) return -1;
        for (int k = 0; k < t->ncomp; k++)
            d->g[k][i] = central ? cc_target_diff(t, r, cp[k], cm[k]) / (2 * h)
                                 : cc_target_diff(t, r, cp[k], c0[k]) / h;
    }
    return 0;
}

#define D(a, b) cc_target_diff(t, r, a, b)   /* a - b, wrapped for periodic C */

/* H[k][i][j] = forward (C(++) - C(+0) - C(0+) + C) / h^2 or central
 * (C(++) - C(+-) - C(-+) + C(--)) / 4h^2, diagonal (C(x + h) - 2C + C(x - h)) / h^2 */
static int hess_value_basic(const cc_target *t, const double *x, const double *xf,
                            const cc_rest *r, int central, double h, cc_deriv *d)
{
    int n = 3 * t->nv;
    double c0[CC_MAX_COMP], cp[CC_MAX_DOF][CC_MAX_COMP], cm[CC_MAX_DOF][CC_MAX_COMP];
    double pp[CC_MAX_COMP], pm[CC_MAX_COMP], mp[CC_MAX_COMP], mm[CC_MAX_COMP];
    if (cc_target_value(t, x, xf, r, c0) < 0) return -1;
    for (int i = 0; i < n; i++) {
        if (value_at(t, x, xf, r, i, h, -1, 0, cp[i]) < 0) return -1;
        if (value_at(t, x, xf, r, i, central ? -h : 2 * h, -1, 0, cm[i]) < 0) return -1;
    }
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < t->ncomp; k++)   /* forward: cm holds C(x + 2h e_i) */
            d->H[k][i][i] = central ? (D(cp[i][k], c0[k]) - D(c0[k], cm[i][k])) / (h * h)
                                    : (D(cm[i][k], cp[i][k]) - D(cp[i][k], c0[k])) / (h * h);
        for (int j = i + 1; j < n; j++) {
            if (value_at(t, x, xf, r, i, h, j, h, pp) < 0) return -1;
            if (central) {
                if (value_at(t, x, xf, r, i, h, j, -h, pm) < 0) return -1;
                if (value_at(t, x, xf, r, i, -h, j, h, mp) < 0) return -1;
                if (value_at(t, x, xf, r, i, -h, j, -h, mm) < 0) return -1;
            }
            for (int k = 0; k < t->ncomp; k++)
                d->H[k][i][j] = d->H[k][j][i] = central
                    ? (D(pp[k], pm[k]) - D(mp[k], mm[k])) / (4 * h * h)
                    : (D(pp[k], cp[i][k]) - D(cp[j][k], c0[k])) / (h * h);
        }
    }
    return 0;
}

/* analytic gradient at x + hj e_j */
static int grad_at(const cc_target *t, const double *x, const cc_rest *r, int j, double hj,
                   cc_eval *e)
{
    double y[CC_MAX_DOF];
    memcpy(y, x, sizeof(double) * 3 * t->nv);
    if (j >= 0) y[j] += hj;
    int got = t->eval(t->ctx, y, r, CC_WANT_GRAD, e);
    return got < 0 || !(got & CC_WANT_GRAD) ? -1 : 0;
}

/* H[k][i][j] = (g_{k,i}(x + h e_j) - g_{k,i}(x)) / h or the central difference over 2h */
static int hess_grad_basic(const cc_target *t, const double *x, const cc_rest *r, int central,
                           double h, cc_deriv *d)
{
    cc_eval e0, ep, em;
    if (!central && grad_at(t, x, r, -1, 0, &e0) < 0) return -1;
    for (int j = 0; j < 3 * t->nv; j++) {
        if (grad_at(t, x, r, j, h, &ep) < 0) return -1;
        if (central && grad_at(t, x, r, j, -h, &em) < 0) return -1;
        for (int k = 0; k < t->ncomp; k++)
            for (int i = 0; i < 3 * t->nv; i++)
                d->H[k][i][j] = central ? (ep.dC[k][i] - em.dC[k][i]) / (2 * h)
                                        : (ep.dC[k][i] - e0.dC[k][i]) / h;
    }
    return 0;
}

/* d = forward or central estimate of quantity q at step h */
static int basic(const cc_target *t, const double *x, const double *xf, const cc_rest *r,
                 cc_fdq q, int central, double h, cc_deriv *d)
{
    switch (q) {
    case CC_FDQ_GRADIENT: return grad_basic(t, x, xf, r, central, h, d);
    case CC_FDQ_HESS_VALUE: return hess_value_basic(t, x, xf, r, central, h, d);
    default: return hess_grad_basic(t, x, r, central, h, d);
    }
}

/* the entries of quantity q inside d, as one flat array of NQ or fewer doubles */
static double *flat(cc_deriv *d, cc_fdq q) { return q == CC_FDQ_GRADIENT ? &d->g[0][0] : &d->H[0][0][0]; }
static int flat_count(cc_fdq q)
{
    return q == CC_FDQ_GRADIENT ? CC_MAX_COMP * CC_MAX_DOF : NQ;
}

/* d = (4 D(h) - D(2h)) / 3 over the central estimate D */
static int central4(const cc_target *t, const double *x, const double *xf, const cc_rest *r,
                    cc_fdq q, double h, cc_deriv *d)
{
    cc_deriv wide;
    memset(&wide, 0, sizeof wide);   /* the entries of components past ncomp stay 0 */
    if (basic(t, x, xf, r, q, 1, h, d) < 0 || basic(t, x, xf, r, q, 1, 2 * h, &wide) < 0) return -1;
    double *a = flat(d, q), *b = flat(&wide, q);
    for (int e = 0; e < flat_count(q); e++) a[e] = (4 * a[e] - b[e]) / 3;
    return 0;
}

/* the Ridders tableau: two columns of estimates, per-entry error and stop flags */
typedef struct tableau {
    double prev[RIDDERS_NTAB][NQ], cur[RIDDERS_NTAB][NQ], err[NQ];
    unsigned char done[NQ];
} tableau;

/* Ridders: Neville tableau over central estimates at h, h/1.4, ...; per entry the estimate
 * with the smallest error estimate, stopping an entry when higher orders get worse (w: the
 * tableau, the caller's) */
static int ridders_in(const cc_target *t, const double *x, const double *xf, const cc_rest *r,
                      cc_fdq q, double h, cc_deriv *d, tableau *w)
{
    cc_deriv step;
    memset(&step, 0, sizeof step);   /* the entries of components past ncomp stay 0 */
    int nq = flat_count(q);
    double *ans = flat(d, q), con2 = RIDDERS_CON * RIDDERS_CON, hh = h;
    if (basic(t, x, xf, r, q, 1, hh, &step) < 0) return -1;
    memcpy(w->prev[0], flat(&step, q), sizeof(double) * nq);
    memcpy(ans, w->prev[0], sizeof(double) * nq);
    for (int e = 0; e < nq; e++) w->err[e] = INFINITY, w->done[e] = 0;
    for (int i = 1; i < RIDDERS_NTAB; i++) {
        hh /= RIDDERS_CON;
        if (basic(t, x, xf, r, q, 1, hh, &step) < 0) return -1;
        memcpy(w->cur[0], flat(&step, q), sizeof(double) * nq);
        int active = 0;
        for (int e = 0; e < nq; e++) {
            double fac = con2;
            for (int j = 1; j <= i; j++) {
                w->cur[j][e] = (w->cur[j - 1][e] * fac - w->prev[j - 1][e]) / (fac - 1);
                fac *= con2;
                double errt = fmax(fabs(w->cur[j][e] - w->cur[j - 1][e]), fabs(w->cur[j][e] - w->prev[j - 1][e]));
                if (!w->done[e] && errt <= w->err[e]) w->err[e] = errt, ans[e] = w->cur[j][e];
            }
            if (fabs(w->cur[i][e] - w->prev[i - 1][e]) >= RIDDERS_SAFE * w->err[e]) w->done[e] = 1;
            active += !w->done[e];
        }
        memcpy(w->prev, w->cur, sizeof w->prev);
        if (!active) break;
    }
    return 0;
}

/* ridders_in with a tableau of its own (70 kB on the heap: audits may run side by side) */
static int ridders(const cc_target *t, const double *x, const double *xf, const cc_rest *r,
                   cc_fdq q, double h, cc_deriv *d)
{
    tableau *w = malloc(sizeof *w);
    if (!w) return -1;
    int rc = ridders_in(t, x, xf, r, q, h, d, w);
    free(w);
    return rc;
}

/* d = estimate of quantity q by scheme s at step h; 0 or -1 */
int cc_fd_estimate(const cc_target *t, const double *x, const double *xf, const cc_rest *r,
                   cc_fdq q, cc_scheme s, double h, cc_deriv *d)
{
    if (!(h > 0) || (q == CC_FDQ_HESS_GRADIENT && !t->eval)) return -1;
    memset(d, 0, sizeof *d);
    switch (s) {
    case CC_FD_FORWARD: return basic(t, x, xf, r, q, 0, h, d);
    case CC_FD_CENTRAL: return basic(t, x, xf, r, q, 1, h, d);
    case CC_FD_CENTRAL4: return central4(t, x, xf, r, q, h, d);
    case CC_FD_RIDDERS: return ridders(t, x, xf, r, q, h, d);
    default: return -1;
    }
}

/* value_hd at x with seed e1 on coordinate i and e2 on coordinate j */
static void value_hd_seeded(const cc_target *t, const double *x, const double *xf,
                            const cc_rest *r, int i, int j, cc_hd *C)
{
    cc_hd hx[CC_MAX_DOF];
    for (int q = 0; q < 3 * t->nv; q++) hx[q] = cc_hd_const(x[q]);
    hx[i].b = 1.0;
    if (j >= 0) hx[j].c = 1.0;
    t->value_hd(t->ctx, hx, xf, r, C);
}

/* d.g[k][i] = e1 part of C(x + e1 e_i); d.H[k][i][j] = e1e2 part of C(x + e1 e_i + e2 e_j) */
int cc_exact_derivs(const cc_target *t, const double *x, const double *xf, const cc_rest *r,
                    int want_hess, cc_deriv *d)
{
    if (!t->value_hd || (xf && !t->frozen)) return -1;
    memset(d, 0, sizeof *d);
    cc_hd C[CC_MAX_COMP];
    int n = 3 * t->nv;
    for (int i = 0; i < n; i++)
        for (int j = i; j < (want_hess ? n : i + 1); j++) {
            value_hd_seeded(t, x, xf, r, i, want_hess ? j : -1, C);
            for (int k = 0; k < t->ncomp; k++) {
                if (j == i) d->g[k][i] = C[k].b;           /* e1 part: dC/dx_i */
                if (want_hess) d->H[k][i][j] = d->H[k][j][i] = C[k].d;  /* e1 e2 part */
            }
        }
    return 0;
}
