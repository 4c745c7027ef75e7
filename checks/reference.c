/* Finite-difference and hyper-dual references (see reference.h). Finite differences live
 * here, in checks/, and nowhere in production code. */
#include <math.h>
#include <string.h>
#include "checks/reference.h"

/* C at x + sum of the given offsets: x[i] += hi, x[j] += hj (j < 0: none) */
static void value_at(const cc_condition *c, const double *x, const double *xf, const cc_rest *r,
                     int i, double hi, int j, double hj, double *C)
{
    double y[CC_MAX_DOF];
    memcpy(y, x, sizeof(double) * 3 * c->nv);
    y[i] += hi;
    if (j >= 0) y[j] += hj;
    cc_condition_value(c, y, xf, r, C);
}

/* grad[k][i] = (C_k(x + h e_i) - C_k(x - h e_i)) / 2h */
void cc_ref_fd_gradient(const cc_condition *c, const double *x, const double *xf,
                        const cc_rest *r, double h, double grad[CC_MAX_COMP][CC_MAX_DOF])
{
    double cp[CC_MAX_COMP], cm[CC_MAX_COMP];
    for (int i = 0; i < 3 * c->nv; i++) {
        value_at(c, x, xf, r, i, h, -1, 0, cp);
        value_at(c, x, xf, r, i, -h, -1, 0, cm);
        for (int k = 0; k < c->ncomp; k++) grad[k][i] = (cp[k] - cm[k]) / (2 * h);
    }
}

/* hess[k][i][j] = (C(++) - C(+-) - C(-+) + C(--)) / 4h^2, the diagonal from C(x +- 2h e_i) */
void cc_ref_fd_hessian(const cc_condition *c, const double *x, const double *xf,
                       const cc_rest *r, double h,
                       double hess[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF])
{
    int n = 3 * c->nv;
    double pp[CC_MAX_COMP], pm[CC_MAX_COMP], mp[CC_MAX_COMP], mm[CC_MAX_COMP];
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++) {
            value_at(c, x, xf, r, i, h, j, h, pp);
            value_at(c, x, xf, r, i, h, j, -h, pm);
            value_at(c, x, xf, r, i, -h, j, h, mp);
            value_at(c, x, xf, r, i, -h, j, -h, mm);
            for (int k = 0; k < c->ncomp; k++)
                hess[k][i][j] = hess[k][j][i] = (pp[k] - pm[k] - mp[k] + mm[k]) / (4 * h * h);
        }
}

/* value_hd at x with seeds e1 on coordinate i and e2 on coordinate j (j < 0: none) */
static void value_hd_seeded(const cc_condition *c, const double *x, const double *xf,
                            const cc_rest *r, int i, int j, cc_hd *C)
{
    cc_hd hx[CC_MAX_DOF];
    for (int q = 0; q < 3 * c->nv; q++) hx[q] = cc_hd_const(x[q]);
    hx[i].b = 1.0;
    if (j >= 0) hx[j].c = 1.0;
    c->value_hd(hx, xf, r, C);
}

/* grad[k][i] = e1 part of C(x + e1 e_i) */
void cc_ref_exact_gradient(const cc_condition *c, const double *x, const double *xf,
                           const cc_rest *r, double grad[CC_MAX_COMP][CC_MAX_DOF])
{
    cc_hd C[CC_MAX_COMP];
    for (int i = 0; i < 3 * c->nv; i++) {
        value_hd_seeded(c, x, xf, r, i, -1, C);
        for (int k = 0; k < c->ncomp; k++) grad[k][i] = C[k].b;
    }
}

/* hess[k][i][j] = e1 e2 part of C(x + e1 e_i + e2 e_j) */
void cc_ref_exact_hessian(const cc_condition *c, const double *x, const double *xf,
                          const cc_rest *r, double hess[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF])
{
    cc_hd C[CC_MAX_COMP];
    int n = 3 * c->nv;
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++) {
            value_hd_seeded(c, x, xf, r, i, j, C);
            for (int k = 0; k < c->ncomp; k++) hess[k][i][j] = hess[k][j][i] = C[k].d;
        }
}

/* fold one entry into d (a NaN difference is the worst of all); scale tracks max |a|, |r| */
static void compare_entry(cc_diff *d, double *scale, double *worst, double a, double r,
                          int k, int i, int j)
{
    double e = fabs(a - r);
    *scale = fmax(*scale, fmax(fabs(a), fabs(r)));
    if (d->k < 0 || e > *worst || (isnan(e) && !isnan(*worst))) {
        *worst = e;
        d->k = k, d->i = i, d->j = j, d->analytic = a, d->reference = r;
    }
}

static void compare_finish(cc_diff *d, double scale, double worst)
{
    d->rel = isnan(worst) ? NAN : scale > 0 ? worst / scale : 0.0;
}

cc_diff cc_compare_gradient(double a[CC_MAX_COMP][CC_MAX_DOF],
                            double r[CC_MAX_COMP][CC_MAX_DOF], int ncomp, int ndof)
{
    cc_diff d = {0, -1, -1, -1, 0, 0};
    double scale = 0, worst = 0;
    for (int k = 0; k < ncomp; k++)
        for (int i = 0; i < ndof; i++) compare_entry(&d, &scale, &worst, a[k][i], r[k][i], k, i, -1);
    compare_finish(&d, scale, worst);
    return d;
}

cc_diff cc_compare_hessian(double a[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF],
                           double r[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF], int ncomp, int ndof)
{
    cc_diff d = {0, -1, -1, -1, 0, 0};
    double scale = 0, worst = 0;
    for (int k = 0; k < ncomp; k++)
        for (int i = 0; i < ndof; i++)
            for (int j = 0; j < ndof; j++)
                compare_entry(&d, &scale, &worst, a[k][i][j], r[k][i][j], k, i, j);
    compare_finish(&d, scale, worst);
    return d;
}
