/* Time steps: backward Euler (Baraff & Witkin 1998 Sections 5 and 6), explicit and
 * symplectic Euler (004), constraints and contacts, faults and adaptive steps (003). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sim/model/model.h"

/* monotonic wall time in seconds */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* a . b in 3D */
static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* S = I - n n^T (keep = 0: n is constrained) or S = n n^T (keep = 1: only n is free), n unit */
static void projector(double S[9], const double *n, int keep)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) S[3 * i + j] = keep ? n[i] * n[j] : (i == j) - n[i] * n[j];
}

#define CC_CONTACT_STAY 1e-4   /* m: an active contact ends when the vertex is further off */

/* the obstacle nearest to x (signed distance minus the contact margin) or -1 without
 * obstacles; from as in cc_obstacle_distance */
static int nearest_obstacle(const cc_sim *s, const double *x, const double *from, double *phi, double *n)
{
    int best = -1;
    for (int o = 0; o < s->nobs; o++) {
        double d, m[3];
        d = cc_obstacle_distance(&s->obs[o], x, from, m) - s->p.contact_margin;
        if (best < 0 || d < *phi) {
            best = o;
            *phi = d;
            memcpy(n, m, sizeof m);
        }
    }
    return best;
}

/* vertex i in contact: S = I - n n^T, z keeps the normal velocity from pointing inwards,
 * y moves the vertex back onto the surface (Baraff & Witkin Section 6) */
static int contact_constraint(cc_sim *s, int i, const double *v, int *added)
{
    double phi = 0, n[3], from[3], *x = s->x + 3 * i;
    for (int k = 0; k < 3; k++) from[k] = x[k] + s->cnormal[3 * i + k];   /* keep the face in contact */
    int o = nearest_obstacle(s, x, s->contact[i] ? from : NULL, &phi, n);
    *added = 0;
    /* a new contact needs penetration; an active one lasts while the vertex stays on the
     * surface (within CC_CONTACT_STAY): a vertex that slid past an edge is released rather
     * than held by a wall through its current position */
    if (o < 0 || !(phi < 0 || (s->contact[i] && phi < CC_CONTACT_STAY))) {
        s->contact[i] = 0;
        return 0;
    }
    double S[9], vn = dot3(v + 3 * i, n), zn = vn < 0 ? -vn : 0.0, yn = phi < 0 ? -phi : 0.0;
    projector(S, n, 0);
    if (cc_filter_set(s->F, i, S) < 0) return -1;
    for (int k = 0; k < 3; k++) {
        s->z[3 * i + k] = zn * n[k];
        s->y[3 * i + k] = yn * n[k];
    }
    memcpy(s->cnormal + 3 * i, n, sizeof n);
    s->contact[i] = o + 1;
    *added = 1;
    return 0;
}

/* filter S, prescribed velocity change z and position correction y of this step */
int cc_sim_setup_constraints(cc_sim *s, const double *v)
{
    size_t n3 = 3 * (size_t)s->nv;
    cc_filter_clear(s->F);
    memset(s->z, 0, n3 * sizeof *s->z);
    memset(s->y, 0, n3 * sizeof *s->y);
    s->ncrow = 0;
    for (int i = 0; i < s->nv; i++) {
        const double *c = s->cvec + 3 * i, *vi = v + 3 * i;
        double S[9], *z = s->z + 3 * i;
        int added = 0;   /* a free vertex is a reaction row only while in contact */
        switch (s->con[i]) {
        case CON_PIN:       /* S = 0, the velocity becomes the pin's */
            memset(S, 0, sizeof S);
            for (int k = 0; k < 3; k++) z[k] = c[k] - vi[k];
            break;
        case CON_PLANE: {   /* S = I - n n^T, no velocity along n */
            double vn = dot3(vi, c);
            projector(S, c, 0);
            for (int k = 0; k < 3; k++) z[k] = -vn * c[k];
            break;
        }
        case CON_LINE: {    /* S = d d^T, no velocity off d */
            double vd = dot3(vi, c);
            projector(S, c, 1);
            for (int k = 0; k < 3; k++) z[k] = vd * c[k] - vi[k];
            break;
        }
        default:
            if (s->nobs && contact_constraint(s, i, v, &added) < 0) goto oom;
            if (added) s->crow[s->ncrow++] = i;
            continue;
        }
        if (cc_filter_set(s->F, i, S) < 0) goto oom;
        s->crow[s->ncrow++] = i;
        s->contact[i] = 0;
    }
    return 0;
oom:
    snprintf(s->err, CC_ERRLEN, "out of memory for constraints");
    return -1;
}

/* react_i = (I - S_i) r_i / h for the constrained vertices; contacts whose reaction pulls
 * the vertex into the obstacle are released for the next step */
static void reactions(cc_sim *s, const double *r, double h)
{
    memset(s->react, 0, 3 * (size_t)s->nv * sizeof *s->react);
    for (int c = 0; c < s->ncrow; c++) {
        int i = s->crow[c];
        double S[9], t[3];
        cc_filter_get(s->F, i, S);
        for (int a = 0; a < 3; a++) t[a] = r[3 * i + a] - dot3(S + 3 * a, r + 3 * i);
        for (int a = 0; a < 3; a++) s->react[3 * i + a] = t[a] / h;
        if (s->contact[i] && dot3(t, s->cnormal + 3 * i) <= 0) s->contact[i] = 0;
    }
}

/* after a step: free vertices that ended inside an obstacle go back onto its surface with
 * their inward velocity removed, and are in contact (constrained) from the next step on.
 * Correcting at once, rather than by y in the next step, keeps every accepted state free of
 * penetration, so a rejected adaptive step never carries a correction that halving h cannot
 * shrink. */
static void project_obstacles(cc_sim *s, double *x, double *v)
{
    for (int i = 0; i < s->nv && s->nobs; i++) {
        double phi = 0, n[3];
        int o;
        if (s->con[i] != CON_FREE || (o = nearest_obstacle(s, x + 3 * i, s->sx + 3 * i, &phi, n)) < 0 || !(phi < 0))
            continue;
        double vn = dot3(v + 3 * i, n);
        for (int k = 0; k < 3; k++) {
            x[3 * i + k] -= phi * n[k];
            if (vn < 0) v[3 * i + k] -= vn * n[k];
        }
        s->contact[i] = o + 1;
    }
}

/* MPCG's first guess for the velocity change (cg_warm_start 1 or 2): the last step's,
 * dv_{n-1}, kept in dv; with 2, once four solves of step h are behind it,
 *   (a) dv_{n-1}   or, where it would have been clearly nearer the last step's solution,
 *   (b) dv_{n-2} + (dv_{n-1} - dv_{n-3}) / 2:
 * (b) when |dv_{n-1} - dv_{n-3} - (dv_{n-2} - dv_{n-4}) / 2|^2 < |dv_{n-1} - dv_{n-2}|^2 / 2,
 * dvp keeping dv_{n-2} .. dv_{n-4}.
 * (b) is for a velocity change that alternates from step to step, as on the bench scene
 * (as much at MPCG tolerance 1e-8 as at 1e-2: at step 40 of 66 x 66, |dv_n - dv_{n-1}| =
 * 6.3 against |dv_n - dv_{n-2}| = 1.7): the step of the same parity two back, plus half the
 * other parity's change over two steps for the drift (the whole change overshoots). Where
 * dv varies smoothly (the tablecloth of bend_compare, h = 2.5 ms) (a) is better, and the
 * choice follows whichever is. Iterations a step, bench 66 x 66 / 132 x 132 (the multigrid's
 * level 0 in one part, level 1 its Galerkin operator) / bend_compare's pritchard (Ascher &
 * Boxerman's preconditioner there):
 * always (a) 8.10 / 10.67 / 12.2;
 * always (b) 7.12 / 8.84 / 14.6; (b) when nearer at all 7.09 / 8.03 / 13.2; when nearer by
 * the factor 2 above (the default) 7.15 / 8.17 / 11.6; by 1.25, 7.12 / 8.10 / 13.5 (the
 * last column is one chaotic trajectory each). The guess decides only where MPCG starts;
 * the stopping test is the same. */
static void warm_guess(cc_sim *s, double h)
{
    size_t n3 = 3 * (size_t)s->nv;
    double *d1 = s->dv, *d2 = s->dvp, *d3 = s->dvp + n3, *d4 = s->dvp + 2 * n3, ea = 0, eb = 0;
    if (s->hdv != h) s->ndv = 0;
    if (s->p.cg_warm_start == 2 && s->ndv >= 4)
        for (size_t k = 0; k < n3; k++) {   /* how far (a) and (b) were from dv_{n-1} */
            double a = d1[k] - d2[k], b = d1[k] - d3[k] - 0.5 * (d2[k] - d4[k]);
            ea += a * a, eb += b * b;
        }
    int alt = s->p.cg_warm_start == 2 && s->ndv >= 4 && eb < 0.5 * ea;
    for (size_t k = 0; k < n3; k++) {
        double a = d1[k];
        if (alt) d1[k] = d2[k] + 0.5 * (a - d3[k]);
        d4[k] = d3[k], d3[k] = d2[k], d2[k] = a;
    }
}

/* 1 if A is nearly indefinite along the solve's free velocity change u = S dv: u^T A u <
 * p.soft_step u^T M u, i.e. the stiffness takes away more than that share of the inertia
 * along the step. The step is then one Newton step along a direction of almost no curvature
 * and can leap far from the solution (on 003's tablecloth: energy -0.32 J -> 6820 J in one
 * step, A positive definite with lambda_min = 0.106 m_min). u: 3nv scratch. */
static int soft_step(cc_sim *s, double *u)
{
    int n3 = 3 * s->nv;
    memcpy(u, s->dv, (size_t)n3 * sizeof *u);
    cc_filter_apply(s->F, u);
    double umu = 0;
    for (int i = 0; i < s->nv; i++) umu += s->m[i] * dot3(u + 3 * i, u + 3 * i);
    return cc_mpcg_quad(s->A, s->W, u) < s->p.soft_step * umu;
}

/* backward Euler: (M - h df/dv - h^2 df/dx) dv = h (f0 + df/dx (h v0 + y)), (I - S) dv =
 * (I - S) z on the constrained DOFs, x1 = x0 + h (v0 + dv) + y.
 * 001 5.2 notes that the z term of Baraff & Witkin's system must be scaled by h; here z is
 * defined as the prescribed velocity change itself (a pin moving at u: z = u - v0; a sliding
 * or contact direction: minus the velocity along it), i.e. h times a prescribed
 * acceleration, so that factor is inside z and dv = z holds exactly on those DOFs. */
static int step_backward(cc_sim *s, double h, cc_mpcg_stats *cg)
{
    int n3 = 3 * s->nv;
    double *x = s->x, *v = s->v, *dx = s->tmp;
    if (cc_sim_setup_constraints(s, v) < 0) return -1;
    for (int k = 0; k < n3; k++) dx[k] = h * v[k] + s->y[k];
    /* a solve that meets negative curvature (c^T A c <= 0: the C d2C terms made A
     * indefinite) is repeated once with every element stiffness projected to PSD */
    int rc = 0;
    for (int attempt = 0; attempt < 2; attempt++) {
        double t0 = now();
        cc_assembly a = {.x = x, .v = v, .mat = 1, .cm = 1.0, .cx = -h * h, .cv = -h, .dx = dx, .f = s->f,
                         .jdx = s->jdx};
        rc = cc_sim_assemble(s, &a);
        if (rc < 0) break;
        for (int k = 0; k < n3; k++) s->b[k] = h * (s->f[k] + s->jdx[k]);
        double t1 = now();
        if (!s->p.cg_warm_start || attempt) memset(s->dv, 0, (size_t)n3 * sizeof *s->dv);
        else warm_guess(s, h);
        s->W->auto_again = attempt;   /* precond auto: a retry's iterations are this step's */
        rc = cc_mpcg_solve(s->A, s->b, s->F, s->z, s->p.cg_warm_start, s->p.precond, s->p.cg_tol,
                           s->p.cg_max_iter, s->W, s->dv, cg);
        int projected = s->p.psd_project || s->psd_retry;
        int soft = rc >= 0 && !cg->indefinite && !projected && s->p.soft_step > 0 && soft_step(s, s->f);
        if (cg->switched && !s->st.multigrid_from) s->st.multigrid_from = s->st.steps + 1;
        s->st.assembly_s += t1 - t0;
        s->st.solve_s += now() - t1;
        if (rc < 0 || !(cg->indefinite || soft) || projected) break;
        s->psd_retry = 1;
        s->st.psd_retries++;
    }
    s->psd_retry = 0;
    s->ndv = rc < 0 ? 0 : s->ndv < 4 ? s->ndv + 1 : 4;   /* one more solve of step h behind dv (a retry included) */
    s->hdv = h;
    if (rc < 0 && !s->fault) {
        snprintf(s->err, CC_ERRLEN, "step %ld: the system matrix has a singular or non-positive diagonal block", s->st.steps + 1);
        s->fault = 1;
    }
    if (rc < 0) return -1;
    /* residual rows of the constrained vertices give their reactions */
    cc_bsr_mul_rows(s->A, s->crow, s->ncrow, s->dv, dx);
    for (int c = 0; c < s->ncrow; c++)
        for (int k = 0; k < 3; k++) dx[3 * s->crow[c] + k] -= s->b[3 * s->crow[c] + k];
    reactions(s, dx, h);
    for (int k = 0; k < n3; k++) v[k] += s->dv[k];
    if (s->p.strain_mode == CC_STRAIN_BRIDSON) cc_strain_velocity(s, x, h, v);
    for (int k = 0; k < n3; k++) x[k] += h * v[k] + s->y[k];
    if (s->p.strain_mode == CC_STRAIN_PROVOT) cc_strain_position(s, h, x, v);
    project_obstacles(s, x, v);
    return 0;
}

/* explicit (symplectic = 0) or symplectic Euler: v1 = v0 + h M^-1 f(x0, v0) with the
 * constrained components prescribed; x1 = x0 + h v0 or x0 + h v1 (004) */
static int step_explicit(cc_sim *s, double h, int symplectic)
{
    int n3 = 3 * s->nv;
    double *x = s->x, *v = s->v, *a = s->tmp;
    if (cc_sim_setup_constraints(s, v) < 0) return -1;
    double t0 = now();
    if (cc_sim_assemble(s, &(cc_assembly){.x = x, .v = v, .f = s->f}) < 0) return -1;
    s->st.assembly_s += now() - t0;
    for (int i = 0; i < s->nv; i++)
        for (int k = 0; k < 3; k++) a[3 * i + k] = h * s->f[3 * i + k] / s->m[i];
    cc_filter_apply(s->F, a);
    for (int k = 0; k < n3; k++) s->dv[k] = a[k] + s->z[k];
    s->ndv = 0;   /* no backward Euler solve behind dv */
    /* reaction = m dv / h - f on the constrained DOFs */
    for (int i = 0; i < s->nv; i++)
        for (int k = 0; k < 3; k++) a[3 * i + k] = s->m[i] * s->dv[3 * i + k] - h * s->f[3 * i + k];
    reactions(s, a, h);
    if (!symplectic)
        for (int k = 0; k < n3; k++) x[k] += h * v[k] + s->y[k];
    for (int k = 0; k < n3; k++) v[k] += s->dv[k];
    if (s->p.strain_mode == CC_STRAIN_BRIDSON && symplectic) cc_strain_velocity(s, x, h, v);
    if (symplectic)
        for (int k = 0; k < n3; k++) x[k] += h * v[k] + s->y[k];
    if (s->p.strain_mode == CC_STRAIN_PROVOT) cc_strain_position(s, h, x, v);
    project_obstacles(s, x, v);
    return 0;
}

/* the element with the largest |C| at the current positions, for blow-up messages */
static void worst_element(cc_sim *s, char *buf, size_t cap)
{
    double worst = -1;
    snprintf(buf, cap, "no element");
    for (int t = 0; t < s->nterm; t++) {
        cc_term *tm = &s->term[t];
        for (int e = 0; e < tm->nel; e++) {
            double xe[CC_MAX_DOF];
            cc_eval ev;
            for (int a = 0; a < tm->nv; a++) memcpy(xe + 3 * a, s->x + 3 * tm->elem[e * tm->nv + a], 3 * sizeof(double));
            ev.ncomp = tm->ncomp;
            ev.ndof = 3 * tm->nv;
            int got = tm->cond ? tm->cond->eval(xe, &tm->rest[e], CC_WANT_VALUE, &ev)
                               : tm->user.eval(tm->user.ctx, e, xe, CC_WANT_VALUE, &ev);
            double c = 0;
            for (int k = 0; k < tm->ncomp; k++) c += fabs(ev.C[k]);
            if (got < 0 || !isfinite(c)) c = INFINITY;
            if (c > worst) {
                worst = c;
                snprintf(buf, cap, "%s element %d, |C| = %.3g", tm->name, e, c);
            }
        }
    }
}

/* 0 if every position and velocity is finite and no vertex is faster than max_speed */
static int check_state(cc_sim *s)
{
    double vmax2 = s->p.max_speed * s->p.max_speed;
    for (int i = 0; i < s->nv; i++) {
        const double *x = s->x + 3 * i, *v = s->v + 3 * i;
        double sp = dot3(v, v);
        if (isfinite(x[0] + x[1] + x[2]) && isfinite(sp) && sp <= vmax2) continue;
        char el[96];
        worst_element(s, el, sizeof el);
        snprintf(s->err, CC_ERRLEN, "step %ld: blow-up at vertex %d (speed %.3g m/s, limit %.3g); worst: %.50s",
                 s->st.steps + 1, i, sqrt(sp), s->p.max_speed, el);
        s->fault = 1;
        return -1;
    }
    return 0;
}

/* one step of size h; on failure the state before the step is restored */
static int step_once(cc_sim *s, double h, cc_mpcg_stats *cg)
{
    size_t n3 = 3 * (size_t)s->nv;
    memcpy(s->sx, s->x, n3 * sizeof *s->x);
    memcpy(s->sv, s->v, n3 * sizeof *s->v);
    memset(cg, 0, sizeof *cg);
    cg->converged = 1;
    s->fault = 0;
    s->err[0] = '\0';
    int rc;
    if (s->p.integrator == CC_BACKWARD_EULER) rc = step_backward(s, h, cg);
    else rc = step_explicit(s, h, s->p.integrator == CC_SYMPLECTIC_EULER);
    if (rc == 0) rc = check_state(s);
    if (rc < 0) {
        memcpy(s->x, s->sx, n3 * sizeof *s->x);
        memcpy(s->v, s->sv, n3 * sizeof *s->v);
        memset(s->dv, 0, n3 * sizeof *s->dv);
        s->ndv = 0;
        return -1;
    }
    s->st.steps++;
    s->st.time += h;
    s->st.cg_iterations += cg->iterations;
    s->st.last_cg_iterations = cg->iterations;
    s->st.last_cg_converged = cg->converged;
    return 0;
}

/* one step of p.h */
int cc_sim_step(cc_sim *s)
{
    cc_mpcg_stats cg;
    return step_once(s, s->p.h, &cg);
}

/* the stretch term, or NULL */
static cc_term *stretch_term(cc_sim *s)
{
    for (int t = 0; t < s->nterm; t++)
        if (s->term[t].kind == TERM_STRETCH) return &s->term[t];
    return NULL;
}

/* largest |C(x) - C0| over the stretch elements, C0 as stored by the last assembly */
static double stretch_change(cc_sim *s, const cc_term *t, const double *C0)
{
    double worst = 0;
    for (int e = 0; e < t->nel; e++) {
        double xe[CC_MAX_DOF];
        cc_eval ev;
        for (int a = 0; a < 3; a++) memcpy(xe + 3 * a, s->x + 3 * t->elem[3 * e + a], 3 * sizeof(double));
        ev.ncomp = t->ncomp;
        ev.ndof = 9;
        if (t->cond->eval(xe, &t->rest[e], CC_WANT_VALUE, &ev) < 0) return INFINITY;
        for (int k = 0; k < t->ncomp; k++) {
            double d = fabs(ev.C[k] - C0[e * t->ncomp + k]);
            if (!(d <= worst)) worst = d;
        }
    }
    return worst;
}

/* cover time T with adaptive steps <= p.h */
void cc_sim_set_stop(cc_sim *s, int (*stop)(void)) { s->stop = stop; }

int cc_sim_advance(cc_sim *s, double T)
{
    if (!(T > 0) || !isfinite(T)) return snprintf(s->err, CC_ERRLEN, "advance needs a time > 0"), -1;
    cc_term *st = stretch_term(s);
    double *C0 = s->C0, t = 0, end = T * (1 - 1e-12);
    int ok_run = 0, rc = 0, *saved_contact = s->saved_contact;
    while (t < end) {
        if (s->stop && s->stop()) return snprintf(s->err, CC_ERRLEN, "stopped at t = %.6g s", s->st.time), -1;
        double h = fmin(s->st.h, T - t);
        char why[CC_ERRLEN] = "";
        cc_mpcg_stats cg;
        memcpy(saved_contact, s->contact, (size_t)s->nv * sizeof *saved_contact);
        int r = step_once(s, h, &cg);
        if (r == 0 && st) memcpy(C0, st->C, (size_t)st->nel * st->ncomp * sizeof *C0);
        double dc = (r == 0 && st) ? stretch_change(s, st, C0) : 0.0;
        if (r < 0) snprintf(why, sizeof why, "%s", s->err);
        else if (!cg.converged) snprintf(why, sizeof why, "MPCG did not converge in %d iterations", cg.iterations);
        else if (dc > s->p.stretch_limit) snprintf(why, sizeof why, "stretch changed by %.3g > %.3g", dc, s->p.stretch_limit);
        if (!why[0]) {
            t += h;
            if (++ok_run >= s->p.grow_after) {
                s->st.h = fmin(2 * s->st.h, s->p.h);
                ok_run = 0;
            }
            continue;
        }
        if (r == 0) {   /* undo an accepted-looking step */
            memcpy(s->x, s->sx, 3 * (size_t)s->nv * sizeof *s->x);
            memcpy(s->v, s->sv, 3 * (size_t)s->nv * sizeof *s->v);
            s->st.steps--;
            s->st.time -= h;
            s->st.cg_iterations -= cg.iterations;
        }
        memcpy(s->contact, saved_contact, (size_t)s->nv * sizeof *saved_contact);
        memset(s->dv, 0, 3 * (size_t)s->nv * sizeof *s->dv);
        s->ndv = 0;
        s->st.rejected++;
        ok_run = 0;
        s->st.h = h / 2;
        if (s->st.h < s->p.h_min) {
            snprintf(s->err, CC_ERRLEN, "t = %.6g s: the step cannot be made small enough (h < %.3g): %.70s",
                     s->st.time, s->p.h_min, why);
            rc = -1;
            break;
        }
    }
    if (rc == 0) s->err[0] = '\0';
    return rc;
}
