/* Structure checks (see structure.h). */
#include <math.h>
#include "checks/reference.h"
#include "checks/structure.h"
#include "math/cc_vec.h"

const char *cc_structure_name(cc_structure_check c)
{
    static const char *const names[] = {"symmetry", "translation", "rotation", "rigid-modes"};
    return c >= 0 && c < CC_CHECK_COUNT ? names[c] : "?";
}

/* fold residual v at (k, i, j) into d if it is the largest so far */
static void fold(cc_diff *d, double v, int k, int i, int j)
{
    if (d->k < 0 || fabs(v) > fabs(d->analytic) || (isnan(v) && !isnan(d->analytic)))
        d->k = k, d->i = i, d->j = j, d->analytic = v;
}

static cc_diff finish(cc_diff d, double scale)
{
    d.reference = 0;
    d.rel = isnan(d.analytic) ? NAN : scale > 0 ? fabs(d.analytic) / scale : 0.0;
    return d;
}

/* max |H_k - H_k^T| over max(max |H|, hfloor): hfloor the curvature the gradient sets, so the
 * rounding of a Hessian that vanishes (C linear in x) is not measured against itself */
static cc_diff symmetry(int n, int ncomp, double H[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF], double hfloor)
{
    cc_diff d = {0, -1, -1, -1, 0, 0};
    double scale = hfloor;
    for (int k = 0; k < ncomp; k++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                scale = fmax(scale, fabs(H[k][i][j]));
                if (j > i) fold(&d, H[k][i][j] - H[k][j][i], k, i, j);
            }
    return finish(d, scale);
}

/* |sum_m g_{k,m}| over nv max_m (|g_{k,m}|, gfloor): gfloor the gradient's natural size, so the
 * rounding of a gradient that vanishes is not measured against itself */
static cc_diff translation(int nv, int ncomp, double g[CC_MAX_COMP][CC_MAX_DOF], double gfloor)
{
    cc_diff d = {0, -1, -1, -1, 0, 0};
    double scale = nv * gfloor;
    for (int k = 0; k < ncomp; k++) {
        cc_v3 sum = cc_v3_zero();
        for (int m = 0; m < nv; m++) {
            sum = cc_v3_add(sum, cc_v3_load(g[k] + 3 * m));
            scale = fmax(scale, nv * cc_v3_norm(cc_v3_load(g[k] + 3 * m)));
        }
        for (int s = 0; s < 3; s++) fold(&d, sum.c[s], k, s, -1);
    }
    return finish(d, scale);
}

static cc_v3 centroid(const double *x, int nv)
{
    cc_v3 c = cc_v3_zero();
    for (int m = 0; m < nv; m++) c = cc_v3_add(c, cc_v3_load(x + 3 * m));
    return cc_v3_scale(c, 1.0 / nv);
}

/* |sum_m (x_m - c) x g_m| over sum_m |x_m - c| max(|g_m|, gfloor) */
static cc_diff rotation(const double *x, int nv, int ncomp, double g[CC_MAX_COMP][CC_MAX_DOF], double gfloor)
{
    cc_diff d = {0, -1, -1, -1, 0, 0};
    double scale = 0;
    cc_v3 c = centroid(x, nv);
    for (int k = 0; k < ncomp; k++) {
        cc_v3 tau = cc_v3_zero();
        double sk = 0;
        for (int m = 0; m < nv; m++) {
            cc_v3 arm = cc_v3_sub(cc_v3_load(x + 3 * m), c), gm = cc_v3_load(g[k] + 3 * m);
            tau = cc_v3_add(tau, cc_v3_cross(arm, gm));
            sk += cc_v3_norm(arm) * fmax(cc_v3_norm(gm), gfloor);
        }
        scale = fmax(scale, sk);
        for (int s = 0; s < 3; s++) fold(&d, tau.c[s], k, s, -1);
    }
    return finish(d, scale);
}

/* H T_a and H R_a + g x e_a, a = 0..2, against max|H| |mode| n + max|g| */
/* the rigid-mode residuals, translations (modes 0-2) and rotations (3-5) apart */
void cc_structure_rigid_parts(const double *x, int nv, int ncomp, double g[CC_MAX_COMP][CC_MAX_DOF],
                              double H[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF], cc_diff *trans, cc_diff *rot)
{
    cc_diff d[2] = {{0, -1, -1, -1, 0, 0}, {0, -1, -1, -1, 0, 0}};
    int n = 3 * nv;
    double hmax = 0, gmax = 0, armmax = 0;
    cc_v3 c = centroid(x, nv);
    double mode[6][CC_MAX_DOF];
    for (int a = 0; a < 3; a++)
        for (int m = 0; m < nv; m++) {
            cc_v3 arm = cc_v3_sub(cc_v3_load(x + 3 * m), c);
            cc_v3 rot = cc_v3_cross(cc_v3_axis(a), arm);
            armmax = fmax(armmax, cc_v3_norm(arm));
            for (int s = 0; s < 3; s++) mode[a][3 * m + s] = s == a, mode[3 + a][3 * m + s] = rot.c[s];
        }
    for (int k = 0; k < ncomp; k++)
        for (int i = 0; i < n; i++) {
            gmax = fmax(gmax, fabs(g[k][i]));
            for (int j = 0; j < n; j++) hmax = fmax(hmax, fabs(H[k][i][j]));
        }
    for (int k = 0; k < ncomp; k++)
        for (int a = 0; a < 6; a++)
            for (int i = 0; i < n; i++) {
                double v = 0;
                for (int j = 0; j < n; j++) v += H[k][i][j] * mode[a][j];
                if (a >= 3) {   /* + (g_m x e_a)_s for i = 3m+s */
                    cc_v3 gx = cc_v3_cross(cc_v3_load(g[k] + 3 * (i / 3)), cc_v3_axis(a - 3));
                    v += gx.c[i % 3];
                }
                fold(&d[a >= 3], v, k, i, a);
            }
    double scale = hmax * n * fmax(1.0, armmax) + gmax;
    *trans = finish(d[0], scale);
    *rot = finish(d[1], scale);
}

/* the worse of the two rigid-mode residuals */
static cc_diff rigid(const double *x, int nv, int ncomp, double g[CC_MAX_COMP][CC_MAX_DOF],
                     double H[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF])
{
    cc_diff t, r;
    cc_structure_rigid_parts(x, nv, ncomp, g, H, &t, &r);
    return isnan(r.rel) || r.rel > t.rel ? r : t;
}

/* residual of identity c at (x, g, H) */
cc_diff cc_structure(cc_structure_check c, const double *x, int nv, int ncomp,
                     double g[CC_MAX_COMP][CC_MAX_DOF],
                     double H[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF])
{
    switch (c) {
    case CC_CHECK_SYMMETRY: {
        cc_eval e;   /* the gradient in the form cc_hessian_floor reads */
        e.ncomp = ncomp;
        for (int k = 0; k < ncomp; k++)
            for (int i = 0; i < 3 * nv; i++) e.dC[k][i] = g[k][i];
        return symmetry(3 * nv, ncomp, H, cc_hessian_floor(&e, x, nv));
    }
    case CC_CHECK_TRANSLATION: return translation(nv, ncomp, g, cc_gradient_floor(H, ncomp, x, nv));
    case CC_CHECK_ROTATION: return rotation(x, nv, ncomp, g, cc_gradient_floor(H, ncomp, x, nv));
    default: return rigid(x, nv, ncomp, g, H);
    }
}
