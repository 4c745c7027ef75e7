/* Element forces and Jacobians from a condition's C, dC, d2C (see forces.h). */
#include <math.h>
#include <string.h>
#include "sim/forces.h"

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

/* one Jacobi rotation zeroing H[p][q], accumulated into V (columns are eigenvectors) */
static void jacobi_rotate(double H[CC_MAX_DOF][CC_MAX_DOF], double V[CC_MAX_DOF][CC_MAX_DOF], int n,
                          int p, int q)
{
    double theta = (H[q][q] - H[p][p]) / (2 * H[p][q]);
    double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1));
    double c = 1 / sqrt(t * t + 1), s = t * c;
    for (int k = 0; k < n; k++) {   /* H = H G (columns p, q) */
        double hp = H[k][p], hq = H[k][q];
        H[k][p] = c * hp - s * hq;
        H[k][q] = s * hp + c * hq;
    }
    for (int k = 0; k < n; k++) {   /* H = G^T H (rows p, q) */
        double hp = H[p][k], hq = H[q][k];
        H[p][k] = c * hp - s * hq;
        H[q][k] = s * hp + c * hq;
    }
    for (int k = 0; k < n; k++) {
        double vp = V[k][p], vq = V[k][q];
        V[k][p] = c * vp - s * vq;
        V[k][q] = s * vp + c * vq;
    }
}

void cc_psd_project(double H[CC_MAX_DOF][CC_MAX_DOF], int n)
{
    double V[CC_MAX_DOF][CC_MAX_DOF];
    double D[CC_MAX_DOF][CC_MAX_DOF];
    memset(V, 0, sizeof V);
    for (int a = 0; a < n; a++) {
        memcpy(D[a], H[a], (size_t)n * sizeof(double));
        V[a][a] = 1;
    }
    double scale = 0;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) scale = fmax(scale, fabs(D[a][b]));
    if (!(scale > 0)) return;
    for (int sweep = 0; sweep < 50; sweep++) {
        double off = 0;
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++) off = fmax(off, fabs(D[p][q]));
        if (off <= 1e-15 * scale) break;
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++)
                if (D[p][q] != 0.0) jacobi_rotate(D, V, n, p, q);
    }
    int negative = 0;
    for (int a = 0; a < n; a++) negative |= D[a][a] < 0;
    if (!negative) return;
    for (int a = 0; a < n; a++)   /* H = V max(D, 0) V^T */
        for (int b = 0; b < n; b++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                if (D[k][k] > 0) s += V[a][k] * D[k][k] * V[b][k];
            H[a][b] = s;
        }
}
