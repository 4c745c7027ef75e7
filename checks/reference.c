/* References of registered variants and the comparison of arrays (see reference.h).
 * Finite differences live in checks/ only, never in production code. */
#include <math.h>
#include <string.h>
#include "checks/fd.h"
#include "checks/reference.h"

/* The references of a registered variant, through the audit engine's schemes (fd.c) on the
 * variant's own value code, so there is one implementation of each. Where the target is
 * undefined at a point a stencil needs, the reference is NaN. */

/* dst = the gradient part of d (ncomp x ndof), or NaN when rc < 0 */
static void copy_gradient(const cc_condition *c, int rc, const cc_deriv *d,
                          double grad[CC_MAX_COMP][CC_MAX_DOF])
{
    for (int k = 0; k < c->ncomp; k++)
        for (int i = 0; i < 3 * c->nv; i++) grad[k][i] = rc < 0 ? NAN : d->g[k][i];
}

static void copy_hessian(const cc_condition *c, int rc, const cc_deriv *d,
                         double hess[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF])
{
    for (int k = 0; k < c->ncomp; k++)
        for (int i = 0; i < 3 * c->nv; i++)
            for (int j = 0; j < 3 * c->nv; j++) hess[k][i][j] = rc < 0 ? NAN : d->H[k][i][j];
}

void cc_ref_fd_gradient(const cc_condition *c, const double *x, const double *xf,
                        const cc_rest *r, double h, double grad[CC_MAX_COMP][CC_MAX_DOF])
{
    cc_target t = cc_target_from_condition(c);
    cc_deriv d;
    copy_gradient(c, cc_fd_estimate(&t, x, xf, r, CC_FDQ_GRADIENT, CC_FD_CENTRAL, h, &d), &d, grad);
}

void cc_ref_fd_hessian(const cc_condition *c, const double *x, const double *xf,
                       const cc_rest *r, double h,
                       double hess[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF])
{
    cc_target t = cc_target_from_condition(c);
    cc_deriv d;
    copy_hessian(c, cc_fd_estimate(&t, x, xf, r, CC_FDQ_HESS_VALUE, CC_FD_CENTRAL, h, &d), &d, hess);
}

void cc_ref_exact_gradient(const cc_condition *c, const double *x, const double *xf,
                           const cc_rest *r, double grad[CC_MAX_COMP][CC_MAX_DOF])
{
    cc_target t = cc_target_from_condition(c);
    cc_deriv d;
    copy_gradient(c, cc_exact_derivs(&t, x, xf, r, 0, &d), &d, grad);
}

void cc_ref_exact_hessian(const cc_condition *c, const double *x, const double *xf,
                          const cc_rest *r, double hess[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF])
{
    cc_target t = cc_target_from_condition(c);
    cc_deriv d;
    copy_hessian(c, cc_exact_derivs(&t, x, xf, r, 1, &d), &d, hess);
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
    return cc_compare_gradient_floor(a, r, ncomp, ndof, 0.0);
}

cc_diff cc_compare_gradient_floor(double a[CC_MAX_COMP][CC_MAX_DOF], double r[CC_MAX_COMP][CC_MAX_DOF], int ncomp,
                                  int ndof, double floor)
{
    cc_diff d = {0, -1, -1, -1, 0, 0};
    double scale = floor, worst = 0;
    for (int k = 0; k < ncomp; k++)
        for (int i = 0; i < ndof; i++) compare_entry(&d, &scale, &worst, a[k][i], r[k][i], k, i, -1);
    compare_finish(&d, scale, worst);
    return d;
}

cc_diff cc_compare_hessian(double a[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF],
                           double r[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF], int ncomp, int ndof)
{
    return cc_compare_hessian_floor(a, r, ncomp, ndof, 0.0);
}

/* the largest distance between two of the nv vertices of x */
static double span(const double *x, int nv)
{
    double big = 0;
    for (int m = 0; m < nv; m++)
        for (int n = m + 1; n < nv; n++) {
            double d2 = 0;
            for (int s = 0; s < 3; s++) d2 += (x[3 * m + s] - x[3 * n + s]) * (x[3 * m + s] - x[3 * n + s]);
            big = fmax(big, sqrt(d2));
        }
    return big;
}

/* max |g| over ncomp x n entries, and max |H| */
static double max_grad(double g[CC_MAX_COMP][CC_MAX_DOF], int ncomp, int n)
{
    double m = 0;
    for (int k = 0; k < ncomp; k++)
        for (int i = 0; i < n; i++) m = fmax(m, fabs(g[k][i]));
    return m;
}

static double max_hess(double H[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF], int ncomp, int n)
{
    double m = 0;
    for (int k = 0; k < ncomp; k++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) m = fmax(m, fabs(H[k][i][j]));
    return m;
}

/* v if it is a finite number, else 0 */
static double finite_or_zero(double v) { return isfinite(v) ? v : 0.0; }

double cc_hessian_floor(const cc_eval *e, const double *x, int nv)
{
    double big = span(x, nv);
    return big > 0 ? finite_or_zero(max_grad((double (*)[CC_MAX_DOF])e->dC, e->ncomp, 3 * nv) / big) : 0.0;
}

double cc_gradient_floor(double H[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF], int ncomp, const double *x, int nv)
{
    return finite_or_zero(max_hess(H, ncomp, 3 * nv) * span(x, nv));
}

double cc_value_floor(double g[CC_MAX_COMP][CC_MAX_DOF], double H[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF], int ncomp,
                      const double *x, int nv)
{
    double L = span(x, nv);
    return finite_or_zero(fmax(max_grad(g, ncomp, 3 * nv) * L, max_hess(H, ncomp, 3 * nv) * L * L));
}

cc_diff cc_compare_hessian_floor(double a[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF],
                                 double r[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF], int ncomp, int ndof,
                                 double floor)
{
    cc_diff d = {0, -1, -1, -1, 0, 0};
    double scale = floor, worst = 0;
    for (int k = 0; k < ncomp; k++)
        for (int i = 0; i < ndof; i++)
            for (int j = 0; j < ndof; j++)
                compare_entry(&d, &scale, &worst, a[k][i][j], r[k][i][j], k, i, j);
    compare_finish(&d, scale, worst);
    return d;
}

cc_diff cc_compare_flat(const double *a, const double *r, int n) { return cc_compare_flat_floor(a, r, n, 0.0); }

cc_diff cc_compare_flat_floor(const double *a, const double *r, int n, double floor)
{
    cc_diff d = {0, -1, -1, -1, 0, 0};
    double scale = floor, worst = 0;
    for (int i = 0; i < n; i++) compare_entry(&d, &scale, &worst, a[i], r[i], 0, i, -1);
    compare_finish(&d, scale, worst);
    d.k = -1;
    return d;
}

/* P = the projection of the symmetric n x n matrix H (row-major) onto the positive semi-definite
 * matrices: its eigenvalues below 0 set to 0 (Jacobi rotations) */
void cc_psd_projection(const double *H, int n, double *P)
{
    double D[CC_MAX_DOF][CC_MAX_DOF], V[CC_MAX_DOF][CC_MAX_DOF];
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) D[i][k] = 0.5 * (H[i * n + k] + H[k * n + i]), V[i][k] = i == k;
    for (int sweep = 0; sweep < 50; sweep++) {
        double off = 0, size = 0;
        for (int p = 0; p < n; p++)
            for (int q = 0; q < n; q++) {
                if (p == q) size += D[p][q] * D[p][q];
                else off += D[p][q] * D[p][q];
            }
        if (!(off > 1e-30 * size)) break;
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++) {
                if (!(fabs(D[p][q]) > 1e-300)) continue;
                double th = 0.5 * (D[q][q] - D[p][p]) / D[p][q];
                double t = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1)), c = 1 / sqrt(t * t + 1), sn = t * c;
                for (int k = 0; k < n; k++) {
                    double dp = D[k][p], dq = D[k][q];
                    D[k][p] = c * dp - sn * dq, D[k][q] = sn * dp + c * dq;
                }
                for (int k = 0; k < n; k++) {
                    double dp = D[p][k], dq = D[q][k];
                    D[p][k] = c * dp - sn * dq, D[q][k] = sn * dp + c * dq;
                }
                for (int k = 0; k < n; k++) {
                    double vp = V[k][p], vq = V[k][q];
                    V[k][p] = c * vp - sn * vq, V[k][q] = sn * vp + c * vq;
                }
            }
    }
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            double v = 0;
            for (int m = 0; m < n; m++) v += V[i][m] * fmax(D[m][m], 0) * V[k][m];
            P[i * n + k] = v;
        }
}
