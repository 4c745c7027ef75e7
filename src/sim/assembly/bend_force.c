/* Bridson et al.'s bending force as a simulator term: bend_condition = "bridson-force"
 * (002 "Alternative Bend Forces": "Force Directions", "Force Magnitude"; 004 "Bridson
 * Bending Model"; the force and its Jacobian are src/conditions/bridson_force.h).
 *
 * A force model, not a condition: no C makes it k/2 C^2's gradient, so forces.c does not
 * apply and each hinge's force, Jacobians and reported energy are set here. Per hinge, in
 * Pritchard's labels (x0..x3, shared edge x1-x2), theta of 001 (30), theta0 its rest angle
 * (0 in the simulator), u_i Bridson's directions with u_i = -dtheta/dx_i in our sign, u the
 * 12-vector (u_0..u_3) and w = |e|^2 / (|nA| + |nB|):
 *
 *   elastic  F_i = k w (sin(theta/2) - sin(theta0/2)) u_i            002 "Force Magnitude", 004
 *            dF/dx: cc_bridson_force's exact Jacobian (not symmetric)
 *   damping  D_i = -kd w (dtheta/dt) dtheta/dx_i = -kd w (u.v) u_i,   dtheta/dt = -u.v
 *            dD/dv = -kd w u u^T (symmetric, negative semi-definite); dD/dx is neglected,
 *            as Baraff & Witkin neglect the position derivative of damping forces
 *   energy   Phi = k w [2 cos(theta0/2) - 2 cos(theta/2) - sin(theta0/2) (theta - theta0)]
 *
 * Damping, sources and sign. 002 gives no bending damping. 004 gives only dtheta/dt =
 * u_1.v_1 + ... + u_4.v_4 in its own sign, where dtheta/dx_i = +u_i; 004's Bridson damping
 * D_i = -kd (dtheta/dt) u_i is dissipative in that sign only. In ours dtheta/dx_i = -u_i,
 * and "-kd w (dtheta/dt) times the gradient of theta" is again -kd w (u.v) u_i, with power
 * D.v = -kd w (u.v)^2 <= 0. Taking 004's D_i = -kd (dtheta/dt) u_i literally with our
 * dtheta/dt = -u.v would flip the sign and pump energy in (the test suite checks the power).
 * The magnitude w is the elastic one, so kd/k is a time as for the conditions; the seeds
 * give no other. Summed over the four vertices as 004 writes it: the per-particle option
 * (cc_sim_params.damping = 1) does not apply to this term.
 *
 * Matrix. dF/dx is not symmetric (F is not a gradient) and MPCG needs a symmetric A, so the
 * term uses J_s = (dF/dx + dF/dx^T)/2 both in A = M - h dD/dv - h^2 J_s and in the product
 * df/dx (h v0 + y) of the right-hand side: the step is the backward Euler linearisation of
 * one consistent stiffness, as forces.h does for a condition whose Hessian is not symmetric.
 * The force itself is always the exact F + D. With psd_project or bend_hessian = project, -J_s
 * is projected onto the PSD cone (cc_psd_project) and the projected J_s is used in both places
 * (clamp and gauss-newton need a condition's C d2C and are refused for this model, sim.c).
 *
 * Energy. Phi is F's work potential for bending: with w held fixed, -dPhi/dx = F exactly
 * (dPhi/dtheta = k w (sin(theta/2) - sin(theta0/2)) and dtheta/dx = -u), and rotating either
 * wing about the shared edge keeps |e|, |nA|, |nB| and hence w fixed, so along any motion
 * of rigid triangles the work F does is exactly -(change of Phi) (tested). When triangles
 * stretch, w changes and F does work that Phi does not count: the force has no energy, and
 * the reported "bend" energy is the bending part only. Phi >= 0, zero at theta0; for small
 * angles Phi ~ k w cos(theta0/2) (theta - theta0)^2 / 4. On a square grid w = 1/2 on axis
 * edges and 1 on diagonals, so with the same k this model is 2 to 4 times softer than the
 * bend conditions' k/2 (theta - theta0)^2.
 */
#include <math.h>
#include <string.h>
#include "conditions/bridson_force.h"
#include "math/cc_vec.h"
#include "sim/assembly/sim_internal.h"

#define NDOF 12   /* 4 vertices x 3 */

/* w = |e|^2 / (|nA| + |nB|), nA = (x2 - x0) x (x1 - x0), nB = (x1 - x3) x (x2 - x3), e = x1 - x2 */
static double hinge_weight(const double *x)
{
    cc_v3 p0 = cc_v3_load(x), p1 = cc_v3_load(x + 3), p2 = cc_v3_load(x + 6), p3 = cc_v3_load(x + 9);
    cc_v3 nA = cc_v3_cross(cc_v3_sub(p2, p0), cc_v3_sub(p1, p0));
    cc_v3 nB = cc_v3_cross(cc_v3_sub(p1, p3), cc_v3_sub(p2, p3));
    double le = cc_v3_norm(cc_v3_sub(p1, p2));
    return le * le / (cc_v3_norm(nA) + cc_v3_norm(nB));
}

/* Phi = k w [2 cos(theta0/2) - 2 cos(theta/2) - sin(theta0/2) (theta - theta0)] */
static double work_potential(double k, double w, double theta, double theta0)
{
    return k * w * (2.0 * cos(0.5 * theta0) - 2.0 * cos(0.5 * theta) - sin(0.5 * theta0) * (theta - theta0));
}

/* o = F + D of hinge e at (xe, ve), Phi, and with jac Jx = J_s (PSD-projected if psd),
 * Jv = -kd w g g^T with g = dtheta/dx = -u; *C = theta - theta0. 0, or -1 if undefined */
static int hinge_force(const cc_term *t, int e, const double *xe, const double *ve, int jac, int psd,
                       cc_elem_force *o, double *C)
{
    const cc_rest *r = &t->rest[e];
    double dFdx[NDOF][NDOF];
    cc_eval ev;
    ev.ncomp = 1;
    ev.ndof = NDOF;
    if (t->cond->eval(xe, r, CC_WANT_VALUE | CC_WANT_GRAD, &ev) < 0) return -1;
    if (cc_bridson_force(xe, r, t->k, o->f, jac ? dFdx : NULL) < 0) return -1;
    const double *g = ev.dC[0];
    double w = hinge_weight(xe), thdot = 0;
    for (int a = 0; a < NDOF; a++) thdot += g[a] * ve[a];
    for (int a = 0; a < NDOF; a++) o->f[a] -= t->kd * w * thdot * g[a];
    o->ndof = NDOF;
    o->energy = work_potential(t->k, w, ev.C[0] + r->rest_angle, r->rest_angle);
    *C = ev.C[0];
    if (!jac) return 0;
    for (int a = 0; a < NDOF; a++)
        for (int b = 0; b < NDOF; b++) {
            o->Jx[a][b] = 0.5 * (dFdx[a][b] + dFdx[b][a]);
            o->Jv[a][b] = -t->kd * w * g[a] * g[b];
        }
    if (psd) {
        double H[CC_MAX_DOF][CC_MAX_DOF];
        for (int a = 0; a < NDOF; a++)
            for (int b = 0; b < NDOF; b++) H[a][b] = -o->Jx[a][b];
        cc_psd_project(H, NDOF);
        for (int a = 0; a < NDOF; a++)
            for (int b = 0; b < NDOF; b++) o->Jx[a][b] = -H[a][b];
    }
    return 0;
}

/* sum of |f| and, with jac, of |Jx| and |Jv|: one number to test for NaN/inf */
static double hinge_norm(const cc_elem_force *o, int jac)
{
    double s = 0;
    for (int a = 0; a < NDOF; a++) {
        s += fabs(o->f[a]);
        for (int b = 0; b < NDOF && jac; b++) s += fabs(o->Jx[a][b]) + fabs(o->Jv[a][b]);
    }
    return s;
}

/* f += o.f; jdx += Jx dx (if jdx); A blocks += cx Jx + cv Jv (if A) */
static void scatter(const int *vid, const int *slot, const cc_elem_force *o, cc_bsr *A, double cx,
                    double cv, const double *dx, double *f, double *jdx)
{
    for (int a = 0; a < NDOF; a++) {
        f[3 * vid[a / 3] + a % 3] += o->f[a];
        if (!jdx) continue;
        double sum = 0;
        for (int b = 0; b < NDOF; b++) sum += o->Jx[a][b] * dx[3 * vid[b / 3] + b % 3];
        jdx[3 * vid[a / 3] + a % 3] += sum;
    }
    for (int m = 0; m < 4 && A; m++)
        for (int n = 0; n < 4; n++) {
            double *blk = A->val + 9 * slot[4 * m + n];
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    blk[3 * i + j] += cx * o->Jx[3 * m + i][3 * n + j] + cv * o->Jv[3 * m + i][3 * n + j];
        }
}

/* f += F + D over the hinges of t; A += cx J_s + cv dD/dv if mat; jdx += J_s dx if jdx */
int cc_bend_force_term(cc_sim *s, cc_term *t, const cc_assembly *a, int *bad, const char **why)
{
    const double *x = a->x, *v = a->v, *dx = a->dx;
    double cx = a->cx, cv = a->cv, *f = a->f, *jdx = a->jdx;
    int mat = a->mat;
    int jac = mat || jdx;
    cc_elem_force o;
    double xe[NDOF], ve[NDOF];
    for (int e = 0; e < t->nel; e++) {
        const int *vid = t->elem + 4 * e;
        for (int a = 0; a < NDOF; a++) {
            xe[a] = x[3 * vid[a / 3] + a % 3];
            ve[a] = v[3 * vid[a / 3] + a % 3];
        }
        *bad = e;
        if (hinge_force(t, e, xe, ve, jac, cc_term_hessian(s, t) == CC_HESSIAN_PROJECT, &o, &t->C[e]) < 0)
            return *why = "the bending force is undefined here (degenerate hinge)", -1;
        if (!isfinite(hinge_norm(&o, jac))) return *why = "non-finite force or Jacobian", -1;
        t->energy[e] = o.energy;
        scatter(vid, mat ? t->slot + 16 * e : NULL, &o, mat ? s->A : NULL, cx, cv, dx, f, jdx);
    }
    return 0;
}
