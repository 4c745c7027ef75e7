/* Element forces and Jacobians from a condition's C, dC, d2C (see forces.h). */
#include <math.h>
#include <string.h>
#include "sim/assembly/forces.h"

/* Cdot_k = sum over all dofs dC_k . v (001 (58)) */
static double cdot_summed(const cc_eval *e, int k, const double *v)
{
    double s = 0;
    for (int a = 0; a < e->ndof; a++) s += e->dC[k][a] * v[a];
    return s;
}

/* Cdot_{k,m} = dC_k/dx_m . v_m, one vertex's share (Pritchard's first implementation) */
static double cdot_vertex(const cc_eval *e, int k, int m, const double *v)
{
    return e->dC[k][3 * m] * v[3 * m] + e->dC[k][3 * m + 1] * v[3 * m + 1] + e->dC[k][3 * m + 2] * v[3 * m + 2];
}

/* f = -k dC^T C - kd dC^T Cdot (summed), Jx = -k (dC^T dC + sum C d2C) - kd sum Cdot d2C */
static void summed(const cc_eval *e, const double *v, double k, double kd, int jac, cc_elem_force *o)
{
    int n = e->ndof;
    double cd[CC_MAX_COMP], w[CC_MAX_COMP];
    for (int c = 0; c < e->ncomp; c++) {
        cd[c] = kd != 0 ? cdot_summed(e, c, v) : 0.0;
        w[c] = -k * e->C[c] - kd * cd[c];
        for (int a = 0; a < n; a++) o->f[a] += w[c] * e->dC[c][a];
    }
    if (!jac) return;
    for (int c = 0; c < e->ncomp; c++) {
        const double *g = e->dC[c];
        for (int a = 0; a < n; a++) {
            double ga = g[a];
            const double *h = e->d2C[c][a];
            for (int b = 0; b < n; b++) {
                o->Jx[a][b] += -k * ga * g[b] + w[c] * h[b];
                o->Jv[a][b] += -kd * ga * g[b];
            }
        }
    }
}

/* the same with each vertex's own Cdot_m (block-diagonal Jv) */
static void per_particle(const cc_eval *e, const double *v, double k, double kd, int jac, cc_elem_force *o)
{
    int n = e->ndof, nv = n / 3;
    for (int c = 0; c < e->ncomp; c++) {
        const double *g = e->dC[c];
        for (int m = 0; m < nv; m++) {
            double cd = cdot_vertex(e, c, m, v), wm = -k * e->C[c] - kd * cd;
            for (int s = 0; s < 3; s++) o->f[3 * m + s] += wm * g[3 * m + s];
            if (!jac) continue;
            for (int s = 0; s < 3; s++) {
                int a = 3 * m + s;
                for (int b = 0; b < n; b++) o->Jx[a][b] += -k * g[a] * g[b] + wm * e->d2C[c][a][b];
                for (int t = 0; t < 3; t++) o->Jv[a][3 * m + t] += -kd * g[a] * g[3 * m + t];
            }
        }
    }
}

/* J = (J + J^T) / 2 */
static void symmetrise(double J[CC_MAX_DOF][CC_MAX_DOF], int n)
{
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) J[a][b] = J[b][a] = 0.5 * (J[a][b] + J[b][a]);
}

/* o = (E, f, df/dx, df/dv) of one element from C, dC, d2C (see forces.h) */
void cc_elem_forces(const cc_eval *e, const double *v, double k, double kd, int damping, int jac,
                    cc_elem_force *o)
{
    int n = e->ndof;
    o->ndof = n;
    o->energy = 0;
    for (int c = 0; c < e->ncomp; c++) o->energy += 0.5 * k * e->C[c] * e->C[c];
    memset(o->f, 0, sizeof o->f);
    if (jac)
        for (int a = 0; a < n; a++) {
            memset(o->Jx[a], 0, (size_t)n * sizeof(double));
            memset(o->Jv[a], 0, (size_t)n * sizeof(double));
        }
    if (damping == 1) per_particle(e, v, k, kd, jac, o);
    else summed(e, v, k, kd, jac, o);
    if (jac) {
        symmetrise(o->Jx, n);
        symmetrise(o->Jv, n);
    }
}

/* Householder reduction of the symmetric V (n by n) to tridiagonal form: on return d is the
 * diagonal, e the sub-diagonal (e[0] = 0) and V the orthogonal transformation
 * (EISPACK tred2, as in JAMA). */
static void tred2(double V[CC_MAX_DOF][CC_MAX_DOF], int n, double *d, double *e)
{
    for (int j = 0; j < n; j++) d[j] = V[n - 1][j];
    for (int i = n - 1; i > 0; i--) {
        double scale = 0, h = 0;
        for (int k = 0; k < i; k++) scale += fabs(d[k]);
        if (scale == 0) {
            e[i] = d[i - 1];
            for (int j = 0; j < i; j++) {
                d[j] = V[i - 1][j];
                V[i][j] = V[j][i] = 0;
            }
        } else {
            for (int k = 0; k < i; k++) {
                d[k] /= scale;
                h += d[k] * d[k];
            }
            double f = d[i - 1], g = sqrt(h);
            if (f > 0) g = -g;
            e[i] = scale * g;
            h -= f * g;
            d[i - 1] = f - g;
            for (int j = 0; j < i; j++) e[j] = 0;
            for (int j = 0; j < i; j++) {
                f = d[j];
                V[j][i] = f;
                g = e[j] + V[j][j] * f;
                for (int k = j + 1; k <= i - 1; k++) {
                    g += V[k][j] * d[k];
                    e[k] += V[k][j] * f;
                }
                e[j] = g;
            }
            f = 0;
            for (int j = 0; j < i; j++) {
                e[j] /= h;
                f += e[j] * d[j];
            }
            double hh = f / (h + h);
            for (int j = 0; j < i; j++) e[j] -= hh * d[j];
            for (int j = 0; j < i; j++) {
                f = d[j];
                g = e[j];
                for (int k = j; k <= i - 1; k++) V[k][j] -= f * e[k] + g * d[k];
                d[j] = V[i - 1][j];
                V[i][j] = 0;
            }
        }
        d[i] = h;
    }
    for (int i = 0; i < n - 1; i++) {   /* accumulate the transformations */
        V[n - 1][i] = V[i][i];
        V[i][i] = 1;
        double h = d[i + 1];
        if (h != 0) {
            for (int k = 0; k <= i; k++) d[k] = V[k][i + 1] / h;
            for (int j = 0; j <= i; j++) {
                double g = 0;
                for (int k = 0; k <= i; k++) g += V[k][i + 1] * V[k][j];
                for (int k = 0; k <= i; k++) V[k][j] -= g * d[k];
            }
        }
        for (int k = 0; k <= i; k++) V[k][i + 1] = 0;
    }
    for (int j = 0; j < n; j++) {
        d[j] = V[n - 1][j];
        V[n - 1][j] = 0;
    }
    V[n - 1][n - 1] = 1;
    e[0] = 0;
}

/* sqrt(a^2 + b^2): the plain formula where the squares neither overflow nor underflow (the
 * matrices come scaled to entries of at most 1), libm's slower hypot elsewhere */
static inline double norm2(double a, double b)
{
    double q = a * a + b * b;
    return q > 1e-290 && q < 1e290 ? sqrt(q) : hypot(a, b);
}

/* Eigenvalues d and eigenvectors (columns of V) of the tridiagonal (d, e) by the implicit QL
 * method, V holding tred2's transformation on entry (EISPACK tql2, as in JAMA). -1 if an
 * eigenvalue needs more than 60 iterations. */
static int tql2(double V[CC_MAX_DOF][CC_MAX_DOF], int n, double *d, double *e)
{
    for (int i = 1; i < n; i++) e[i - 1] = e[i];
    e[n - 1] = 0;
    double f = 0, tst1 = 0, eps = 2.220446049250313e-16;
    for (int l = 0; l < n; l++) {
        tst1 = fmax(tst1, fabs(d[l]) + fabs(e[l]));
        int m = l;
        while (m < n - 1 && fabs(e[m]) > eps * tst1) m++;
        if (m > l) {
            int iter = 0;
            do {
                if (++iter > 60) return -1;
                double g = d[l], p = (d[l + 1] - g) / (2 * e[l]), r = norm2(p, 1.0);
                if (p < 0) r = -r;
                d[l] = e[l] / (p + r);
                d[l + 1] = e[l] * (p + r);
                double dl1 = d[l + 1], h = g - d[l];
                for (int i = l + 2; i < n; i++) d[i] -= h;
                f += h;
                p = d[m];
                double c = 1, c2 = 1, c3 = 1, el1 = e[l + 1], s = 0, s2 = 0;
                for (int i = m - 1; i >= l; i--) {
                    c3 = c2;
                    c2 = c;
                    s2 = s;
                    g = c * e[i];
                    h = c * p;
                    r = norm2(p, e[i]);
                    e[i + 1] = s * r;
                    s = e[i] / r;
                    c = p / r;
                    p = c * d[i] - s * g;
                    d[i + 1] = h + s * (c * g + s * d[i]);
                    for (int k = 0; k < n; k++) {
                        h = V[k][i + 1];
                        V[k][i + 1] = s * V[k][i] + c * h;
                        V[k][i] = c * V[k][i] - s * h;
                    }
                }
                p = -s * s2 * c3 * el1 * e[l] / dl1;
                e[l] = s * p;
                d[l] = c * p;
            } while (fabs(e[l]) > eps * tst1);
        }
        d[l] += f;
        e[l] = 0;
    }
    return 0;
}

#define CC_PSD_SHIFT 1e-12   /* relative shift of the quick test: eigenvalues above -shift max|H_aa| pass */

/* 1 if H + shift max|H_aa| I has a Cholesky factorisation, i.e. every eigenvalue of H
 * exceeds -shift max|H_aa| (H is PSD up to round-off); about n^3/6 flops */
static int psd_quick(const double H[CC_MAX_DOF][CC_MAX_DOF], int n)
{
    double L[CC_MAX_DOF][CC_MAX_DOF], big = 0;
    for (int a = 0; a < n; a++) big = fmax(big, fabs(H[a][a]));
    if (!(big > 0) || !isfinite(big)) return 0;
    double shift = CC_PSD_SHIFT * big;
    for (int j = 0; j < n; j++) {   /* by columns: L L^T = H + shift I */
        double dj = H[j][j] + shift;
        for (int k = 0; k < j; k++) dj -= L[j][k] * L[j][k];
        if (!(dj > 0)) return 0;
        L[j][j] = sqrt(dj);
        for (int i = j + 1; i < n; i++) {
            double v = H[i][j];
            for (int k = 0; k < j; k++) v -= L[i][k] * L[j][k];
            L[i][j] = v / L[j][j];
        }
    }
    return 1;
}

/* H = V max(D, 0) V^T where H = V D V^T, taken as H - sum over the negative eigenvalues of
 * d_k v_k v_k^T (the same matrix, for O(n^2) work per negative eigenvalue instead of O(n^3));
 * the decomposition is of H / max|H_ab|. H is kept as it is when psd_quick passes (its
 * negative eigenvalues, if any, are round-off: above -1e-12 max|H_aa|) */
void cc_psd_project(double H[CC_MAX_DOF][CC_MAX_DOF], int n)
{
    if (psd_quick((const double (*)[CC_MAX_DOF])H, n)) return;
    double V[CC_MAX_DOF][CC_MAX_DOF], d[CC_MAX_DOF], e[CC_MAX_DOF], big = 0;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) big = fmax(big, fabs(H[a][b]));
    if (!(big > 0) || !isfinite(big)) return;   /* zero, or not finite: the caller's checks see it */
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) V[a][b] = H[a][b] / big;
    tred2(V, n, d, e);
    if (tql2(V, n, d, e) < 0) {   /* no convergence: keep only the diagonal's positive part */
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++) H[a][b] = a == b ? fmax(H[a][a], 0.0) : 0.0;
        return;
    }
    for (int k = 0; k < n; k++) {
        if (!(d[k] < 0)) continue;
        double w = d[k] * big;
        for (int a = 0; a < n; a++)
            for (int b = a; b < n; b++) {
                double t = H[a][b] - w * V[a][k] * V[b][k];
                H[a][b] = t;
                H[b][a] = t;
            }
    }
}
