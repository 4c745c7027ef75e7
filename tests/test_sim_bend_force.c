/* Suite: Bridson's bending force as the simulator's bend model (bend_condition =
 * "bridson-force", src/sim/assembly/bend_force.c).
 *
 * The assembled force is compared with cc_bridson_force summed per hinge, and its damping
 * part with -kd w (dtheta/dt) dtheta/dx built from central differences of an independent
 * atan2 angle; the assembled df/dx with the symmetric part of central differences of the
 * assembled force (the differences themselves are visibly not symmetric), df/dv with
 * differences in v, and the product df/dx dx with the matrix. Then: damping does negative
 * power, the reported energy is the work potential for rigid-wing bending and is not one
 * around a loop that stretches a wing, a hanging cloth comes to rest, and a degenerate
 * hinge stops the step naming it; the bench command selects the model by --bend.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cc_test.h"
#include "conditions/bridson_force.h"
#include "mesh/mesh.h"
#include "sim/sim.h"
#include "sim/assembly/sim_internal.h"

static unsigned long long rng = 0x9E3779B97F4A7C15ULL;
/* uniform in [-1, 1) from this suite's generator state */
static double rnd(void) { return cc_test_rnd(&rng); }

#define SIZE 0.3   /* grid side, m */

/* only the bend force, k_bend = k, d_bend = kd; no stretch, shear, gravity or drag */
static void bend_only(cc_sim_params *p, double k, double kd)
{
    char err[CC_ERRLEN];
    CU_ASSERT_EQUAL_FATAL(cc_sim_preset("pritchard-table1", p, err), 0);
    CU_ASSERT_EQUAL_FATAL(cc_sim_param_set(p, "bend_condition", CC_SIM_BEND_FORCE, err), 0);
    p->k_stretch = p->k_shear = p->d_stretch = p->d_shear = 0;
    p->k_bend = k;
    p->d_bend = kd;
    p->gravity[2] = 0;
    p->air_drag = 0;
}

/* an n x n grid of side SIZE, positions perturbed by crumple, and its simulation with p;
 * random velocities of size vel; *m keeps the mesh (hinges) */
static cc_sim *make(int n, const cc_sim_params *p, double crumple, double vel, cc_mesh **m)
{
    char err[CC_ERRLEN];
    *m = cc_mesh_grid(n, n, SIZE, SIZE, 1, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(*m);
    for (int i = 0; i < 3 * (*m)->nv; i++) (*m)->x[i] += crumple * rnd();
    cc_sim *s = cc_sim_new(*m, p, err);
    if (!s) printf("\n    %s ", err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    double *v = malloc(3 * (size_t)(*m)->nv * sizeof *v);
    for (int i = 0; i < 3 * (*m)->nv; i++) v[i] = vel * rnd();
    cc_sim_set_state(s, NULL, v);
    free(v);
    return s;
}

/* the 12 positions of hinge h of mesh m from x (3nv) */
static void gather(const cc_mesh *m, int h, const double *x, double *xe)
{
    for (int a = 0; a < 12; a++) xe[a] = x[3 * m->hinge[4 * h + a / 3] + a % 3];
}

/* c = a x b */
static void cross(const double *a, const double *b, double *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* theta = atan2((nA^ x nB^).e^, nA^.nB^) and w = |e|^2 / (|nA| + |nB|), written out again
 * here (001 (30); nA = (x2 - x0) x (x1 - x0), nB = (x1 - x3) x (x2 - x3), e = x1 - x2) */
static double angle(const double *x, double *w)
{
    double a[3], b[3], c[3], d[3], nA[3], nB[3], e[3], t[3];
    for (int k = 0; k < 3; k++) {
        a[k] = x[6 + k] - x[k];
        b[k] = x[3 + k] - x[k];
        c[k] = x[3 + k] - x[9 + k];
        d[k] = x[6 + k] - x[9 + k];
        e[k] = x[3 + k] - x[6 + k];
    }
    cross(a, b, nA);
    cross(c, d, nB);
    double lA = sqrt(dot(nA, nA)), lB = sqrt(dot(nB, nB)), le = sqrt(dot(e, e));
    cross(nA, nB, t);
    if (w) *w = le * le / (lA + lB);
    return atan2(dot(t, e) / (lA * lB * le), dot(nA, nB) / (lA * lB));
}

/* g = dtheta/dx by central differences (step eps) */
static void angle_gradient(const double *x, double eps, double *g)
{
    double xp[12];
    memcpy(xp, x, sizeof xp);
    for (int a = 0; a < 12; a++) {
        xp[a] = x[a] + eps;
        double tp = angle(xp, NULL);
        xp[a] = x[a] - eps;
        double tm = angle(xp, NULL);
        xp[a] = x[a];
        g[a] = (tp - tm) / (2 * eps);
    }
}

/* max |a - b| / max |b| over n entries */
static double rel(const double *a, const double *b, int n)
{
    double d = 0, s = 0;
    for (int i = 0; i < n; i++) {
        d = fmax(d, fabs(a[i] - b[i]));
        s = fmax(s, fabs(b[i]));
    }
    return d / s;
}

/* (a) the assembled force is cc_bridson_force summed per hinge; with damping, plus
 * -kd w (dtheta/dt) dtheta/dx from differences of the angle */
static void test_force_matches_per_hinge(void)
{
    char err[CC_ERRLEN];
    const double k = 0.7, kd = 0.05;
    for (int damped = 0; damped < 2; damped++)
        for (int trial = 0; trial < 3; trial++) {
            cc_sim_params p;
            cc_mesh *m;
            bend_only(&p, k, damped ? kd : 0.0);
            cc_sim *s = make(4, &p, 0.03, 0.5, &m);
            int n3 = 3 * m->nv;
            const double *x = cc_sim_positions(s), *v = cc_sim_velocities(s);
            double *f = malloc(n3 * sizeof *f), *ref = calloc(n3, sizeof *ref);
            CU_ASSERT_EQUAL_FATAL(cc_sim_force(s, f), 0);
            cc_rest r;
            CU_ASSERT_EQUAL_FATAL(cc_rest_hinge(&r, 0.0, err), 0);
            for (int h = 0; h < m->nh; h++) {
                double xe[12], ve[12], F[12], g[12], w, td = 0;
                gather(m, h, x, xe);
                gather(m, h, v, ve);
                CU_ASSERT_EQUAL_FATAL(cc_bridson_force(xe, &r, k, F, NULL), 0);
                if (damped) {
                    angle(xe, &w);
                    angle_gradient(xe, 1e-6, g);
                    for (int a = 0; a < 12; a++) td += g[a] * ve[a];
                    for (int a = 0; a < 12; a++) F[a] -= kd * w * td * g[a];
                }
                for (int a = 0; a < 12; a++) ref[3 * m->hinge[4 * h + a / 3] + a % 3] += F[a];
            }
            double e = rel(f, ref, n3);
            if (trial == 0) printf("\n    %s: assembled vs per hinge %.1e", damped ? "damped" : "elastic", e);
            CU_ASSERT(e < (damped ? 1e-7 : 1e-13));
            free(f);
            free(ref);
            cc_sim_free(s);
            cc_mesh_free(m);
        }
}

/* largest |M - M^T| and |M| entries of an n by n matrix */
static void asymmetry(const double *M, int n, double *asym, double *big)
{
    *asym = *big = 0;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            *asym = fmax(*asym, fabs(M[(size_t)a * n + b] - M[(size_t)b * n + a]));
            *big = fmax(*big, fabs(M[(size_t)a * n + b]));
        }
}

/* (b) df/dx assembled = sym(central differences of the assembled force), while the
 * differences themselves are not symmetric; df/dv against differences in v */
static void test_jacobian_vs_fd(void)
{
    cc_sim_params p;
    cc_mesh *m;
    bend_only(&p, 0.7, 0.0);
    cc_sim *s = make(4, &p, 0.03, 0.5, &m);
    int n3 = 3 * m->nv;
    double *J = malloc((size_t)n3 * n3 * sizeof *J), *D = malloc((size_t)n3 * n3 * sizeof *D);
    cc_test_sim_jacobians(s, 0, 1e-6 * SIZE / 3, J, D);
    double asym_j, asym_d, big, worst = 0;
    asymmetry(J, n3, &asym_j, &big);
    asymmetry(D, n3, &asym_d, &big);
    for (int a = 0; a < n3; a++)
        for (int b = 0; b < n3; b++)
            worst = fmax(worst, fabs(J[(size_t)a * n3 + b] - 0.5 * (D[(size_t)a * n3 + b] + D[(size_t)b * n3 + a])));
    printf("\n    df/dx vs sym(FD) %.1e, FD asymmetry %.1e, assembled asymmetry %.1e (relative)", worst / big,
           asym_d / big, asym_j / big);
    CU_ASSERT(worst < 1e-6 * big);
    CU_ASSERT(asym_d > 1e-3 * big);   /* the force is not a gradient: symmetrising changes J */
    CU_ASSERT(asym_j <= 1e-15 * big);
    cc_sim_free(s);
    cc_mesh_free(m);
    bend_only(&p, 0.7, 0.05);
    s = make(4, &p, 0.03, 0.5, &m);
    cc_test_sim_jacobians(s, 1, 1e-3, J, D);
    double ev = rel(J, D, n3 * n3);
    asymmetry(J, n3, &asym_j, &big);
    printf(", df/dv vs FD %.1e ", ev);
    CU_ASSERT(ev < 1e-9);   /* the damping force is linear in v */
    CU_ASSERT(asym_j <= 1e-15 * big);
    free(J);
    free(D);
    cc_sim_free(s);
    cc_mesh_free(m);
}

/* the product df/dx dx that backward Euler's right-hand side uses is the matrix's (the
 * same symmetric part), with and without PSD projection; projected, -df/dx is PSD */
static void test_product_uses_matrix(void)
{
    for (int psd = 0; psd < 2; psd++) {
        cc_sim_params p;
        cc_mesh *m;
        bend_only(&p, 0.7, 0.05);
        p.psd_project = psd;
        cc_sim *s = make(4, &p, 0.05, 0.5, &m);
        int n3 = 3 * m->nv;
        double *J = malloc((size_t)n3 * n3 * sizeof *J), *dx = malloc(n3 * sizeof *dx);
        double *f = malloc(n3 * sizeof *f), *jdx = malloc(n3 * sizeof *jdx), *ref = calloc(n3, sizeof *ref);
        CU_ASSERT_EQUAL_FATAL(cc_sim_jacobian_dense(s, 0, J), 0);
        for (int a = 0; a < n3; a++) dx[a] = rnd();
        cc_assembly req = {.x = cc_sim_positions(s), .v = cc_sim_velocities(s), .mat = 1, .cx = 1, .dx = dx,
                           .f = f, .jdx = jdx};
        CU_ASSERT_EQUAL_FATAL(cc_sim_assemble(s, &req), 0);
        for (int a = 0; a < n3; a++)
            for (int b = 0; b < n3; b++) ref[a] += J[(size_t)a * n3 + b] * dx[b];
        CU_ASSERT(rel(jdx, ref, n3) < 1e-13);
        double maxq = -INFINITY;
        for (int t = 0; t < 50; t++) {   /* u^T (df/dx) u / u^T u */
            double q = 0, uu = 0;
            for (int a = 0; a < n3; a++) dx[a] = rnd(), uu += dx[a] * dx[a];
            for (int a = 0; a < n3; a++)
                for (int b = 0; b < n3; b++) q += dx[a] * J[(size_t)a * n3 + b] * dx[b];
            maxq = fmax(maxq, q / uu);
        }
        printf("\n    psd_project %d: largest Rayleigh quotient of df/dx %.2e", psd, maxq);
        if (psd) CU_ASSERT(maxq <= 1e-12);
        free(J);
        free(dx);
        free(f);
        free(jdx);
        free(ref);
        cc_sim_free(s);
        cc_mesh_free(m);
    }
    printf(" ");
}

/* (c) damping opposes dtheta/dt: negative power for random velocities, and on one hinge
 * moved along its bending mode the force pushes against the bending */
static void test_damping_power(void)
{
    cc_sim_params p;
    cc_mesh *m;
    bend_only(&p, 0.0, 0.05);
    cc_sim *s = make(4, &p, 0.03, 0.0, &m);
    int n3 = 3 * m->nv;
    double *v = malloc(n3 * sizeof *v), *f = malloc(n3 * sizeof *f), worst = -INFINITY;
    for (int t = 0; t < 20; t++) {
        double vv = 0, fv = 0;
        for (int a = 0; a < n3; a++) v[a] = rnd(), vv += v[a] * v[a];
        cc_sim_set_state(s, NULL, v);
        CU_ASSERT_EQUAL_FATAL(cc_sim_force(s, f), 0);
        for (int a = 0; a < n3; a++) fv += f[a] * v[a];
        worst = fmax(worst, fv / vv);
    }
    printf("\n    largest damping power / |v|^2: %.2e", worst);
    CU_ASSERT(worst < 0);
    cc_sim_free(s);
    cc_mesh_free(m);
    free(v);
    free(f);
    /* one hinge, v = dtheta/dx: theta grows, and the force has a negative dtheta/dx part */
    s = make(2, &p, 0.03, 0.0, &m);
    double x[12], g[12], vh[12], fh[12], along = 0, td = 0;
    gather(m, 0, cc_sim_positions(s), x);
    angle_gradient(x, 1e-7, g);
    for (int i = 0; i < 4; i++) memcpy(vh + 3 * m->hinge[i], g + 3 * i, 3 * sizeof(double));
    cc_sim_set_state(s, NULL, vh);
    CU_ASSERT_EQUAL_FATAL(cc_sim_force(s, fh), 0);
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 3; k++) {
            along += fh[3 * m->hinge[i] + k] * g[3 * i + k];
            td += g[3 * i + k] * g[3 * i + k];
        }
    printf(", one hinge: dtheta/dt %.3g, force along dtheta/dx %.3g ", td, along);
    CU_ASSERT(td > 0 && along < 0);
    cc_sim_free(s);
    cc_mesh_free(m);
}

/* x0 (3) rotated by phi about the line through a with unit direction d (Rodrigues) */
static void rotate(const double *x0, const double *a, const double *d, double phi, double *out)
{
    double r[3], dxr[3], c = cos(phi), sn = sin(phi);
    for (int k = 0; k < 3; k++) r[k] = x0[k] - a[k];
    cross(d, r, dxr);
    double dr = dot(d, r);
    for (int k = 0; k < 3; k++) out[k] = a[k] + c * r[k] + sn * dxr[k] + (1 - c) * dr * d[k];
}

/* work of the force on vertex i while it turns from angle 0 to phi about (a, d), Simpson's
 * rule over N intervals; the other vertices stay put */
static double rotation_work(cc_sim *s, int i, const double *start, const double *a, const double *d, double phi)
{
    enum { N = 200 };
    int n3 = 3 * cc_sim_vertex_count(s);
    double *x = malloc(n3 * sizeof *x), *f = malloc(n3 * sizeof *f), work = 0;
    memcpy(x, cc_sim_positions(s), n3 * sizeof *x);
    for (int q = 0; q <= N; q++) {
        double t = phi * q / N, r[3], vel[3];
        rotate(start, a, d, t, x + 3 * i);
        for (int k = 0; k < 3; k++) r[k] = x[3 * i + k] - a[k];
        cross(d, r, vel);   /* dx_i/dphi */
        cc_sim_set_state(s, x, NULL);
        CU_ASSERT_EQUAL(cc_sim_force(s, f), 0);
        double wq = (q == 0 || q == N) ? 1 : (q % 2 ? 4 : 2);
        work += wq * dot(f + 3 * i, vel);
    }
    free(x);
    free(f);
    return work * phi / (3.0 * N);
}

/* the reported bend energy at positions x */
static double bend_energy(cc_sim *s, const double *x)
{
    cc_sim_energy e;
    cc_sim_set_state(s, x, NULL);
    CU_ASSERT_EQUAL(cc_sim_energies(s, &e), 0);
    return e.bend;
}

/* the energy: turning one wing about the shared edge (w fixed), the force's work is minus
 * the change of the reported energy; around a loop that also stretches that wing (turn,
 * stretch in its plane, turn back, unstretch) the work is not zero: there is no energy */
static void test_energy_is_bending_work(void)
{
    cc_sim_params p;
    cc_mesh *m;
    bend_only(&p, 0.7, 0.0);
    cc_sim *s = make(2, &p, 0.0, 0.0, &m);
    int n3 = 3 * m->nv, i0 = m->hinge[0], i1 = m->hinge[1], i2 = m->hinge[2];
    double *x = malloc(n3 * sizeof *x), a[3], d[3], foot[3], start[3], turned[3], far[3];
    memcpy(x, cc_sim_positions(s), n3 * sizeof *x);
    double dd = 0, phi = 1.1;
    for (int k = 0; k < 3; k++) a[k] = x[3 * i1 + k], d[k] = x[3 * i2 + k] - a[k], dd += d[k] * d[k];
    for (int k = 0; k < 3; k++) d[k] /= sqrt(dd);
    memcpy(start, x + 3 * i0, sizeof start);
    double along = (start[0] - a[0]) * d[0] + (start[1] - a[1]) * d[1] + (start[2] - a[2]) * d[2];
    for (int k = 0; k < 3; k++) foot[k] = a[k] + along * d[k];
    double E0 = bend_energy(s, x);
    memcpy(x + 3 * i0, start, sizeof start);
    cc_sim_set_state(s, x, NULL);
    double W1 = rotation_work(s, i0, start, a, d, phi);
    rotate(start, a, d, phi, turned);
    memcpy(x + 3 * i0, turned, sizeof turned);
    double E1 = bend_energy(s, x);
    printf("\n    turn %.2f rad: work %.10e, -dE %.10e", phi, W1, -(E1 - E0));
    CU_ASSERT(fabs(E0) < 1e-20 && E1 > 0);
    CU_ASSERT(fabs(W1 + (E1 - E0)) < 1e-9 * (E1 - E0));
    /* stretch the turned wing in its own plane (no work: the force on x0 is along nA),
     * turn back, unstretch (no work) */
    for (int k = 0; k < 3; k++) far[k] = foot[k] + 2.0 * (turned[k] - foot[k]);
    memcpy(x + 3 * i0, far, sizeof far);
    double E2 = bend_energy(s, x);
    double W3 = rotation_work(s, i0, far, a, d, -phi);
    double loop = W1 + W3;
    printf(", loop work %.4e (energy of the stretched wing %.4e) ", loop, E2);
    CU_ASSERT(fabs(loop - (E2 - E1)) < 1e-9 * E1);   /* W3 = E2 - 0 */
    CU_ASSERT(fabs(loop) > 0.1 * E1);
    free(x);
    cc_sim_free(s);
    cc_mesh_free(m);
}

/* (d) a cloth hanging from two corners with the force model swings and comes to rest */
static void test_hanging_comes_to_rest(void)
{
    char err[CC_ERRLEN];
    cc_sim_params p;
    CU_ASSERT_EQUAL_FATAL(cc_sim_preset("pritchard-table1", &p, err), 0);
    CU_ASSERT_EQUAL_FATAL(cc_sim_param_set(&p, "bend_condition", CC_SIM_BEND_FORCE, err), 0);
    p.k_bend = 1e-3;
    p.d_bend = 0.2 * p.k_bend;
    int n = 8;
    cc_mesh *m = cc_mesh_grid(n, n, 0.5, 0.5, 1, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    cc_sim *s = cc_sim_new(m, &p, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_STRING_EQUAL(cc_sim_get_params(s)->bend_variant, "bridson");
    CU_ASSERT_EQUAL_FATAL(cc_sim_pin(s, n * (n - 1), NULL, err), 0);
    CU_ASSERT_EQUAL_FATAL(cc_sim_pin(s, n * n - 1, NULL, err), 0);
    cc_sim_energy e;
    double peak = 0, late = 0, first_total;
    CU_ASSERT_EQUAL(cc_sim_energies(s, &e), 0);
    first_total = e.total;
    int steps = 500;
    for (int k = 0; k < steps; k++) {
        int rc = cc_sim_step(s);
        if (rc) printf("\n    %s ", cc_sim_error(s));
        CU_ASSERT_EQUAL_FATAL(rc, 0);
        CU_ASSERT_EQUAL_FATAL(cc_sim_energies(s, &e), 0);
        peak = fmax(peak, e.kinetic);
        if (k >= steps - 50) late = fmax(late, e.kinetic);
    }
    const double *x = cc_sim_positions(s);
    double lowest = 0;
    for (int i = 0; i < 3 * m->nv; i++) CU_ASSERT_FATAL(isfinite(x[i]));
    for (int i = 0; i < m->nv; i++) lowest = fmin(lowest, x[3 * i + 2]);
    cc_sim_stats st;
    cc_sim_get_stats(s, &st);
    printf("\n    %d steps: kinetic peak %.3e, last 50 steps at most %.3e; bend %.3e; lowest z %.3f; "
           "%.1f CG it/step ", steps, peak, late, e.bend, lowest, (double)st.cg_iterations / st.steps);
    CU_ASSERT(peak > 0 && late < 1e-3 * peak);
    CU_ASSERT(e.total < first_total);
    CU_ASSERT(e.bend > 0);
    CU_ASSERT(lowest < -0.4);   /* it hangs */
    cc_sim_free(s);
    cc_mesh_free(m);
}

/* a degenerate hinge stops the step naming the step and the hinge */
static void test_degenerate_hinge_fault(void)
{
    cc_sim_params p;
    cc_mesh *m;
    bend_only(&p, 0.7, 0.05);
    cc_sim *s = make(3, &p, 0.0, 0.0, &m);
    int n3 = 3 * m->nv, h = 2;
    double *x = malloc(n3 * sizeof *x);
    memcpy(x, cc_sim_positions(s), n3 * sizeof *x);
    int i0 = m->hinge[4 * h], i1 = m->hinge[4 * h + 1];
    memcpy(x + 3 * i0, x + 3 * i1, 3 * sizeof *x);   /* triangle A has no area */
    cc_sim_set_state(s, x, NULL);
    CU_ASSERT_EQUAL(cc_sim_step(s), -1);
    const char *msg = cc_sim_error(s);
    printf("\n    %s ", msg);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "step 1: bend element"));
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "degenerate hinge"));
    free(x);
    cc_sim_free(s);
    cc_mesh_free(m);
}

/* clothcheck bench --bend bridson-force runs the force model */
static void test_bench_cli(void)
{
    char out[4096], err[4096];
    int rc = cc_test_run_cli("bench --grid 8 --steps 5 --bend bridson-force --json", out, sizeof out, err, sizeof err);
    if (rc) printf("\n    %s ", err);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"finite\": true"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"bend\": \"bridson-force\""));
}

int main(void)
{
    static const cc_test_case tests[] = {
        {"assembled force is cc_bridson_force per hinge, damping -kd w thetadot dtheta/dx", test_force_matches_per_hinge},
        {"df/dx is the symmetric part of FD of the force, df/dv matches FD", test_jacobian_vs_fd},
        {"df/dx dx uses the matrix's stiffness, PSD projection", test_product_uses_matrix},
        {"damping does negative power and opposes dtheta/dt", test_damping_power},
        {"bend energy is the work potential of rigid-wing bending, not an energy", test_energy_is_bending_work},
        {"a hanging cloth with the force model comes to rest", test_hanging_comes_to_rest},
        {"a degenerate hinge stops the step, named", test_degenerate_hinge_fault},
        {"bench --bend bridson-force", test_bench_cli},
        {NULL, NULL},
    };
    return cc_test_main("sim_bend_force", tests);
}
