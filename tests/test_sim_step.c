/* sim: integrators, constraints, obstacles, faults, adaptive steps, strain limiting,
 * presets, user conditions and the bench command. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cc_test.h"
#include "mesh/mesh.h"
#include "sim/sim.h"

static unsigned long long rng = 0x2545F4914F6CDD1DULL;
/* uniform in [-1, 1) from this suite's generator state */
static double rnd(void) { return cc_test_rnd(&rng); }

/* Table 1 parameters with `edit` applied, on an n x n grid of the given size; crumple > 0
 * perturbs the positions randomly by that much */
static cc_sim *make(int n, double size, double crumple, void (*edit)(cc_sim_params *))
{
    char err[CC_ERRLEN];
    cc_sim_params p;
    cc_mesh *m = cc_mesh_grid(n, n, size, size, 1, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(cc_sim_preset("pritchard-table1", &p, err), 0);
    if (edit) edit(&p);
    for (int i = 0; i < 3 * m->nv; i++) m->x[i] += crumple * rnd();
    cc_sim *s = cc_sim_new(m, &p, err);
    if (!s) fprintf(stderr, "%s\n", err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    cc_mesh_free(m);
    return s;
}

/* one step that must succeed; the simulator's message is shown if it does not */
static void step_ok(cc_sim *s)
{
    int rc = cc_sim_step(s);
    if (rc != 0) printf("\n    unexpected: %s ", cc_sim_error(s));
    CU_ASSERT_EQUAL_FATAL(rc, 0);
}

static void no_forces(cc_sim_params *p)
{
    p->k_stretch = p->k_shear = p->k_bend = 0;
    p->d_stretch = p->d_shear = p->d_bend = 0;
}

static int integrator_sel;
static void no_forces_integrator(cc_sim_params *p)
{
    no_forces(p);
    p->integrator = integrator_sel;
}

/* free fall: x_n = x0 + n h v0 + h^2 g c_n, v_n = v0 + n h g, with c_n = n(n-1)/2 for
 * explicit Euler and n(n+1)/2 for symplectic and backward Euler */
static void test_free_fall(void)
{
    for (integrator_sel = CC_BACKWARD_EULER; integrator_sel <= CC_SYMPLECTIC_EULER; integrator_sel++) {
        cc_sim *s = make(4, 1.0, 0.0, no_forces_integrator);
        int nv = cc_sim_vertex_count(s), steps = 50;
        double *x0 = malloc(3 * (size_t)nv * sizeof *x0), v0[3] = {0.3, -0.2, 1.5}, h = cc_sim_get_params(s)->h;
        const double *g = cc_sim_get_params(s)->gravity;
        double *v = malloc(3 * (size_t)nv * sizeof *v);
        for (int i = 0; i < nv; i++) memcpy(v + 3 * i, v0, sizeof v0);
        cc_sim_set_state(s, NULL, v);
        memcpy(x0, cc_sim_positions(s), 3 * (size_t)nv * sizeof *x0);
        for (int n = 0; n < steps; n++) step_ok(s);
        double c = integrator_sel == CC_EXPLICIT_EULER ? steps * (steps - 1) / 2.0 : steps * (steps + 1) / 2.0;
        double worst = 0;
        for (int i = 0; i < nv; i++)
            for (int k = 0; k < 3; k++) {
                double xe = x0[3 * i + k] + steps * h * v0[k] + h * h * g[k] * c;
                double ve = v0[k] + steps * h * g[k];
                worst = fmax(worst, fabs(cc_sim_positions(s)[3 * i + k] - xe) / (1 + fabs(xe)));
                worst = fmax(worst, fabs(cc_sim_velocities(s)[3 * i + k] - ve) / (1 + fabs(ve)));
            }
        CU_ASSERT(worst < 1e-13);
        free(x0);
        free(v);
        cc_sim_free(s);
    }
}

static void no_gravity_symplectic(cc_sim_params *p)
{
    p->gravity[2] = 0;
    p->integrator = CC_SYMPLECTIC_EULER;
    p->h = 1e-4;
    p->k_bend = 1e-3;
    p->d_stretch = p->d_shear = p->d_bend = 0;   /* Table 1 damping needs h < 4e-5 explicitly */
}
static void no_gravity_explicit(cc_sim_params *p)
{
    no_gravity_symplectic(p);
    p->integrator = CC_EXPLICIT_EULER;
}
static void no_gravity_backward(cc_sim_params *p)
{
    p->gravity[2] = 0;
    p->cg_tol = 1e-13;
    p->cg_max_iter = 20000;
    p->k_bend = 1e-3;
}

/* P = sum m v, L = sum m x cross v */
static void momenta(const cc_sim *s, double *P, double *L, double *scale)
{
    const double *x = cc_sim_positions(s), *v = cc_sim_velocities(s), *m = cc_sim_masses(s);
    memset(P, 0, 3 * sizeof *P);
    memset(L, 0, 3 * sizeof *L);
    *scale = 0;
    for (int i = 0; i < cc_sim_vertex_count(s); i++) {
        const double *xi = x + 3 * i, *vi = v + 3 * i;
        for (int k = 0; k < 3; k++) P[k] += m[i] * vi[k];
        L[0] += m[i] * (xi[1] * vi[2] - xi[2] * vi[1]);
        L[1] += m[i] * (xi[2] * vi[0] - xi[0] * vi[2]);
        L[2] += m[i] * (xi[0] * vi[1] - xi[1] * vi[0]);
        *scale += m[i] * sqrt(vi[0] * vi[0] + vi[1] * vi[1] + vi[2] * vi[2]) *
                  (1 + sqrt(xi[0] * xi[0] + xi[1] * xi[1] + xi[2] * xi[2]));
    }
}

/* largest change of P (and of L when check_l) over `steps` steps, relative to scale */
static void momentum_drift(void (*edit)(cc_sim_params *), int steps, double *dp, double *dl)
{
    cc_sim *s = make(5, 0.3, 0.01, edit);
    int nv = cc_sim_vertex_count(s);
    double *v = malloc(3 * (size_t)nv * sizeof *v), P0[3], L0[3], P[3], L[3], scale;
    for (int i = 0; i < 3 * nv; i++) v[i] = 0.3 * rnd();
    cc_sim_set_state(s, NULL, v);
    momenta(s, P0, L0, &scale);
    *dp = *dl = 0;
    for (int n = 0; n < steps; n++) {
        step_ok(s);
        momenta(s, P, L, &(double){0});
        for (int k = 0; k < 3; k++) {
            *dp = fmax(*dp, fabs(P[k] - P0[k]) / scale);
            *dl = fmax(*dl, fabs(L[k] - L0[k]) / scale);
        }
    }
    free(v);
    cc_sim_free(s);
}

/* no gravity, no pins: symplectic Euler keeps P and L to round-off, explicit Euler keeps P
 * (its L changes by h^2 sum v x f: not conserved), backward Euler keeps P up to the MPCG
 * residual (here 1e-13 relative) */
static void test_momentum(void)
{
    double dp, dl;
    momentum_drift(no_gravity_symplectic, 200, &dp, &dl);
    printf("\n    symplectic: dP %.1e dL %.1e", dp, dl);
    CU_ASSERT(dp < 1e-14);
    CU_ASSERT(dl < 1e-14);
    momentum_drift(no_gravity_explicit, 200, &dp, &dl);
    printf(", explicit: dP %.1e", dp);
    CU_ASSERT(dp < 1e-13);   /* 200 steps of round-off in h sum f = 0 */
    momentum_drift(no_gravity_backward, 20, &dp, &dl);
    printf(", backward: dP %.1e ", dp);
    CU_ASSERT(dp < 1e-11);
}

static void hanging(cc_sim_params *p) { p->h = 0.02; }

/* a hanging cloth at rest: the pins' reactions add up to the total weight */
static void test_hanging_reaction(void)
{
    char err[CC_ERRLEN];
    int n = 6;
    cc_sim *s = make(n, 0.5, 0.0, hanging);
    int a = n * (n - 1), b = n * n - 1;
    CU_ASSERT_EQUAL_FATAL(cc_sim_pin(s, a, NULL, err), 0);
    CU_ASSERT_EQUAL_FATAL(cc_sim_pin(s, b, NULL, err), 0);
    double pa[3], pb[3];
    memcpy(pa, cc_sim_positions(s) + 3 * a, sizeof pa);
    memcpy(pb, cc_sim_positions(s) + 3 * b, sizeof pb);
    for (int k = 0; k < 1500; k++) step_ok(s);
    double W = 0, R[3] = {0, 0, 0}, r[3];
    for (int i = 0; i < cc_sim_vertex_count(s); i++) W += cc_sim_masses(s)[i] * 9.81;
    cc_sim_reaction(s, a, r);
    for (int k = 0; k < 3; k++) R[k] += r[k];
    cc_sim_reaction(s, b, r);
    for (int k = 0; k < 3; k++) R[k] += r[k];
    cc_sim_energy e;
    CU_ASSERT_EQUAL(cc_sim_energies(s, &e), 0);
    printf("\n    weight %.6e, reactions (%.2e %.2e %.6e), kinetic %.1e ", W, R[0], R[1], R[2], e.kinetic);
    CU_ASSERT(fabs(R[2] - W) < 1e-6 * W);
    CU_ASSERT(fabs(R[0]) < 1e-6 * W && fabs(R[1]) < 1e-6 * W);
    /* pinned vertices did not move, bit for bit */
    CU_ASSERT(memcmp(pa, cc_sim_positions(s) + 3 * a, sizeof pa) == 0);
    CU_ASSERT(memcmp(pb, cc_sim_positions(s) + 3 * b, sizeof pb) == 0);
    /* a free vertex has no reaction */
    cc_sim_reaction(s, 0, r);
    CU_ASSERT(r[0] == 0 && r[1] == 0 && r[2] == 0);
    cc_sim_free(s);
}

static double damp_sel;
static double stretch_sel;
static void no_external(cc_sim_params *p)
{
    p->gravity[2] = 0;
    p->d_stretch = damp_sel * p->k_stretch;
    p->d_shear = damp_sel * p->k_shear;
    p->d_bend = damp_sel * p->k_bend;
    p->k_bend = 1e-3;
    p->cg_tol = 1e-10;
    p->psd_project = stretch_sel == 0;
    p->bu = p->bv = 1 - stretch_sel;
}

/* largest relative energy gain of one step over 100 backward Euler steps from a random state */
static double energy_gain(double damp, double crumple, double stretch, double *first, double *last)
{
    damp_sel = damp;
    stretch_sel = stretch;
    cc_sim *s = make(6, 0.3, crumple, no_external);
    int nv = cc_sim_vertex_count(s);
    double *v = malloc(3 * (size_t)nv * sizeof *v);
    for (int i = 0; i < 3 * nv; i++) v[i] = 0.1 * rnd();
    cc_sim_set_state(s, NULL, v);
    free(v);
    cc_sim_energy e;
    CU_ASSERT_EQUAL(cc_sim_energies(s, &e), 0);
    double prev = e.total, worst = -INFINITY;
    *first = e.total;
    for (int k = 0; k < 100; k++) {
        step_ok(s);
        CU_ASSERT_EQUAL(cc_sim_energies(s, &e), 0);
        worst = fmax(worst, (e.total - prev) / *first);
        prev = e.total;
    }
    *last = e.total;
    cc_sim_free(s);
    return worst;
}

/* backward Euler with no external force never gains energy, with and without damping:
 * from a crumpled state with element stiffness projected to PSD, and from a state under
 * tension (rest stretch 0.9, so no element is compressed) without projection. (Without
 * projection a crumpled cloth can gain energy in one linearised step: the C d2C terms make
 * A indefinite, see docs/reliability.md.) */
static void test_energy_never_grows(void)
{
    double cases[4][3] = {{0.2, 0.015, 0}, {0.0, 0.015, 0}, {0.2, 0.0, 0.1}, {0.0, 0.0, 0.1}};
    for (int c = 0; c < 4; c++) {
        double first, last, gain = energy_gain(cases[c][0], cases[c][1], cases[c][2], &first, &last);
        printf("\n    damping %.1f, %s: E %.3e -> %.3e, largest relative gain in a step %.1e", cases[c][0],
               cases[c][2] > 0 ? "tension" : "crumpled, PSD", first, last, gain);
        CU_ASSERT(gain <= 0);
        CU_ASSERT(last < first);
    }
}

/* a user condition that turns NaN on the n-th evaluation of element 2 */
typedef struct nan_ctx {
    int calls;     /* evaluations of element 2 so far */
    int nan_at;    /* evaluation that returns NaN */
} nan_ctx;

static int nan_eval(void *ctx, int elem, const double *x, int want, cc_eval *out)
{
    nan_ctx *c = ctx;
    double d[3] = {x[0] - x[3], x[1] - x[4], x[2] - x[5]}, len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    out->C[0] = len - 0.1;
    if (elem == 2 && ++c->calls >= c->nan_at) out->C[0] = NAN;
    for (int k = 0; k < 3; k++) {
        out->dC[0][k] = d[k] / len;
        out->dC[0][3 + k] = -d[k] / len;
    }
    if (want & CC_WANT_HESS)
        for (int a = 0; a < 6; a++)
            for (int b = 0; b < 6; b++) {
                int s = a % 3, t = b % 3, sign = (a < 3) == (b < 3) ? 1 : -1;
                out->d2C[0][a][b] = sign * (((s == t) - d[s] * d[t] / (len * len)) / len);
            }
    return want;
}

/* a NaN stops the run naming the step and the element; the state is that before the step */
static void test_nan_fault(void)
{
    char err[CC_ERRLEN];
    cc_sim *s = make(4, 0.3, 0.0, NULL);
    nan_ctx ctx = {0, 3};
    cc_sim_condition c = {"tether", 2, 1, nan_eval, &ctx};
    int el[8] = {0, 1, 1, 2, 2, 3, 4, 5};
    CU_ASSERT_EQUAL_FATAL(cc_sim_add_condition(s, &c, el, 4, 10.0, 0.0, err), 0);
    CU_ASSERT_EQUAL(cc_sim_step(s), 0);
    CU_ASSERT_EQUAL(cc_sim_step(s), 0);
    int nv = cc_sim_vertex_count(s);
    double *x = malloc(3 * (size_t)nv * sizeof *x);
    memcpy(x, cc_sim_positions(s), 3 * (size_t)nv * sizeof *x);
    CU_ASSERT_EQUAL(cc_sim_step(s), -1);
    const char *msg = cc_sim_error(s);
    printf("\n    %s ", msg);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "step 3"));
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "tether element 2 (vertices 2 3)"));
    CU_ASSERT(memcmp(x, cc_sim_positions(s), 3 * (size_t)nv * sizeof *x) == 0);
    free(x);
    /* bad user conditions are refused */
    int bad[2] = {0, 99};
    CU_ASSERT_EQUAL(cc_sim_add_condition(s, &c, bad, 1, 1.0, 0.0, err), -1);
    cc_sim_condition taken = {"bend", 2, 1, nan_eval, &ctx};
    CU_ASSERT_EQUAL(cc_sim_add_condition(s, &taken, el, 1, 1.0, 0.0, err), -1);
    cc_sim_free(s);
}

static void explicit_big_step(cc_sim_params *p)
{
    p->integrator = CC_EXPLICIT_EULER;
    p->h = 0.02;
}

/* explicit Euler at h = 0.02 on Table 1 blows up; the run stops cleanly with a message */
static void test_blow_up(void)
{
    char err[CC_ERRLEN];
    cc_sim *s = make(8, 1.0, 0.0, explicit_big_step);
    CU_ASSERT_EQUAL(cc_sim_pin(s, 56, NULL, err), 0);
    CU_ASSERT_EQUAL(cc_sim_pin(s, 63, NULL, err), 0);
    int k, rc = 0;
    for (k = 0; k < 500 && (rc = cc_sim_step(s)) == 0; k++) continue;
    CU_ASSERT_EQUAL(rc, -1);
    printf("\n    %s ", cc_sim_error(s));
    CU_ASSERT_PTR_NOT_NULL(strstr(cc_sim_error(s), "blow-up"));
    char want[32];
    snprintf(want, sizeof want, "step %d:", k + 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(cc_sim_error(s), want));
    CU_ASSERT_PTR_NOT_NULL(strstr(cc_sim_error(s), "element"));
    for (int i = 0; i < 3 * cc_sim_vertex_count(s); i++) CU_ASSERT(isfinite(cc_sim_positions(s)[i]));
    cc_sim_stats st;
    cc_sim_get_stats(s, &st);
    CU_ASSERT_EQUAL(st.steps, k);
    cc_sim_free(s);
}

static void adaptive(cc_sim_params *p)
{
    p->stretch_limit = 2e-5;
    p->h = 0.02;
}
static void adaptive_impossible(cc_sim_params *p)
{
    p->stretch_limit = 1e-14;
    p->h = 0.02;
    p->h_min = 0.004;
}

/* adaptive steps: rejected and halved when the stretch changes too much, the interval is
 * covered exactly; a step that cannot be made small enough stops with a message */
static void test_adaptive(void)
{
    char err[CC_ERRLEN];
    cc_sim *s = make(8, 0.5, 0.0, adaptive);
    CU_ASSERT_EQUAL(cc_sim_pin(s, 56, NULL, err), 0);
    CU_ASSERT_EQUAL(cc_sim_pin(s, 63, NULL, err), 0);
    CU_ASSERT_EQUAL(cc_sim_advance(s, 0.2), 0);
    cc_sim_stats st;
    cc_sim_get_stats(s, &st);
    printf("\n    0.2 s in %ld steps, %ld rejected, h now %.4g", st.steps, st.rejected, st.h);
    CU_ASSERT(st.rejected > 0);
    CU_ASSERT(st.steps > 10);
    CU_ASSERT_DOUBLE_EQUAL(st.time, 0.2, 1e-12);
    cc_sim_free(s);
    s = make(8, 0.5, 0.0, adaptive_impossible);
    CU_ASSERT_EQUAL(cc_sim_pin(s, 56, NULL, err), 0);
    CU_ASSERT_EQUAL(cc_sim_advance(s, 0.1), -1);
    printf("\n    %s ", cc_sim_error(s));
    CU_ASSERT_PTR_NOT_NULL(strstr(cc_sim_error(s), "cannot be made small enough"));
    cc_sim_get_stats(s, &st);
    CU_ASSERT_EQUAL(st.steps, 0);
    CU_ASSERT_EQUAL(st.time, 0.0);
    for (int i = 0; i < 3 * cc_sim_vertex_count(s); i++) CU_ASSERT(isfinite(cc_sim_positions(s)[i]));
    CU_ASSERT_EQUAL(cc_sim_advance(s, -1), -1);
    cc_sim_free(s);
}

/* sliding vertices stay on their plane and line; a moving pin moves with its velocity */
static void test_sliding_and_moving_pins(void)
{
    char err[CC_ERRLEN];
    cc_sim *s = make(6, 0.5, 0.0, hanging);
    double nrm[3] = {1, 1, 0}, dir[3] = {0, 1, 1}, vel[3] = {0.1, 0, 0.05};
    CU_ASSERT_EQUAL(cc_sim_slide_plane(s, 30, nrm, err), 0);
    CU_ASSERT_EQUAL(cc_sim_slide_line(s, 35, dir, err), 0);
    CU_ASSERT_EQUAL(cc_sim_pin(s, 33, vel, err), 0);
    double x30[3], x35[3], x33[3];
    memcpy(x30, cc_sim_positions(s) + 90, sizeof x30);
    memcpy(x35, cc_sim_positions(s) + 105, sizeof x35);
    memcpy(x33, cc_sim_positions(s) + 99, sizeof x33);
    int steps = 40;
    for (int k = 0; k < steps; k++) step_ok(s);
    const double *x = cc_sim_positions(s);
    double d30 = (x[90] - x30[0]) + (x[91] - x30[1]);   /* along the normal (1,1,0) */
    CU_ASSERT(fabs(d30) < 1e-12);
    CU_ASSERT(fabs(x[92] - x30[2]) > 1e-3);            /* it did move in the plane */
    double o[3] = {x[105] - x35[0], x[106] - x35[1], x[107] - x35[2]};
    CU_ASSERT(fabs(o[0]) < 1e-12 && fabs(o[1] - o[2]) < 1e-12);   /* on the line (0,1,1) */
    CU_ASSERT(fabs(o[1]) > 1e-3);
    for (int k = 0; k < 3; k++) CU_ASSERT_DOUBLE_EQUAL(x[99 + k], x33[k] + steps * 0.02 * vel[k], 1e-12);
    CU_ASSERT_EQUAL(cc_sim_pin(s, -1, NULL, err), -1);
    CU_ASSERT_EQUAL(cc_sim_slide_plane(s, 0, (double[3]){0, 0, 0}, err), -1);
    CU_ASSERT_EQUAL(cc_sim_release(s, 33, err), 0);
    cc_sim_free(s);
}

static void drape(cc_sim_params *p)
{
    p->h = 0.01;
    p->contact_margin = 0.0;
}

/* a cloth dropped on a sphere and on a round table rests on them without sinking in */
static void test_obstacles(void)
{
    char err[CC_ERRLEN];
    for (int which = 0; which < 2; which++) {
        cc_sim *s = make(11, 1.0, 0.0, drape);
        int nv = cc_sim_vertex_count(s);
        double *x = malloc(3 * (size_t)nv * sizeof *x);
        memcpy(x, cc_sim_positions(s), 3 * (size_t)nv * sizeof *x);
        for (int i = 0; i < nv; i++) x[3 * i + 2] = 0.05;
        cc_sim_set_state(s, x, NULL);
        double c[3] = {0.5, 0.5, -0.3};
        int added = which == 0 ? cc_sim_add_sphere(s, c, 0.3, err) : cc_sim_add_table(s, 0.5, 0.5, 0.0, -0.7, 0.3, err);
        CU_ASSERT_EQUAL(added, 0);
        CU_ASSERT_EQUAL(cc_sim_add_sphere(s, c, -1, err), -1);
        CU_ASSERT_EQUAL(cc_sim_add_table(s, 0.5, 0.5, 0.0, 0.1, 0.3, err), -1);
        for (int k = 0; k < 80; k++) step_ok(s);
        const double *y = cc_sim_positions(s);
        double deepest = 0, mid_z = y[3 * 60 + 2], corner_z = y[2];
        for (int i = 0; i < nv; i++) {
            const double *q = y + 3 * i;
            double d;
            if (which == 0) d = sqrt((q[0] - 0.5) * (q[0] - 0.5) + (q[1] - 0.5) * (q[1] - 0.5) + (q[2] + 0.3) * (q[2] + 0.3)) - 0.3;
            else {
                double rho = sqrt((q[0] - 0.5) * (q[0] - 0.5) + (q[1] - 0.5) * (q[1] - 0.5));
                d = (rho < 0.3 && q[2] < 0 && q[2] > -0.7) ? fmax(rho - 0.3, q[2]) : 0;
            }
            deepest = fmin(deepest, d);
        }
        printf("\n    %s: deepest %.2e, centre z %.4f, corner z %.4f", which ? "table" : "sphere", deepest, mid_z, corner_z);
        CU_ASSERT(deepest > -2e-3);              /* within one step of motion of the surface */
        CU_ASSERT(fabs(mid_z) < 2e-3);           /* the centre rests on top */
        CU_ASSERT(corner_z < -0.2);              /* the corners hang down */
        free(x);
        cc_sim_free(s);
    }
}

static int strain_sel;
static void soft(cc_sim_params *p)
{
    p->k_stretch = 20;
    p->k_shear = 2;
    p->d_stretch = 4;
    p->d_shear = 0.4;
    p->strain_mode = strain_sel;
    p->strain_iters = 500;
    p->h = 0.01;
}

/* largest |l/L - 1| over the grid's edges (rest lengths from the 0.5 m grid of 6 x 6) */
static double max_strain(const cc_sim *s, int n, double size)
{
    const double *x = cc_sim_positions(s);
    double L = size / (n - 1), worst = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            int a = i + n * j, nb[2] = {i + 1 < n ? a + 1 : -1, j + 1 < n ? a + n : -1};
            for (int k = 0; k < 2; k++) {
                if (nb[k] < 0) continue;
                const double *p = x + 3 * a, *q = x + 3 * nb[k];
                double l = sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2]));
                worst = fmax(worst, fabs(l / L - 1));
            }
        }
    return worst;
}

/* strain limiting keeps a soft hanging cloth's edges within 10 % (Provot; Bridson & Fedkiw) */
static void test_strain_limiting(void)
{
    char err[CC_ERRLEN];
    double strain[3];
    for (strain_sel = CC_STRAIN_NONE; strain_sel <= CC_STRAIN_BRIDSON; strain_sel++) {
        cc_sim *s = make(6, 0.5, 0.0, soft);
        CU_ASSERT_EQUAL(cc_sim_pin(s, 30, NULL, err), 0);
        CU_ASSERT_EQUAL(cc_sim_pin(s, 35, NULL, err), 0);
        strain[strain_sel] = 0;
        for (int k = 0; k < 100; k++) {
            step_ok(s);
            strain[strain_sel] = fmax(strain[strain_sel], max_strain(s, 6, 0.5));
        }
        cc_sim_free(s);
    }
    printf("\n    largest axis-edge strain: none %.3f, Provot %.3f, Bridson %.3f ", strain[0], strain[1], strain[2]);
    CU_ASSERT(strain[0] > 0.15);
    CU_ASSERT(strain[1] < 0.1 + 1e-6);
    CU_ASSERT(strain[2] < 0.1 + 1e-6);
}

/* presets hold the published tables; parameters are set by name; bad ones are refused */
static void test_presets_and_params(void)
{
    char err[CC_ERRLEN];
    cc_sim_params p;
    CU_ASSERT_EQUAL(cc_sim_preset("pritchard-table1", &p, err), 0);
    CU_ASSERT(p.k_stretch == 5000 && p.k_shear == 500 && p.k_bend == 1e-5 && p.density == 0.1);
    CU_ASSERT(p.d_stretch == 1000 && p.d_shear == 100 && p.d_bend == 0.2 * 1e-5 && p.h == 0.02);
    CU_ASSERT(p.gravity[2] == -9.81 && p.area_power == 0.75 && p.bu == 1 && p.bv == 1);
    CU_ASSERT_EQUAL(cc_sim_preset("thesis-table3.1", &p, err), 0);
    CU_ASSERT(p.k_stretch == 100 && p.k_shear == 10 && p.k_bend == 1e-5 && p.d_stretch == 20 && p.d_shear == 2);
    CU_ASSERT(p.d_bend == 2e-6 && p.air_drag == 0.1 && p.cg_tol == 0.01 && p.stretch_limit == 5e-5 && p.area_power == 0.5);
    CU_ASSERT_EQUAL(cc_sim_preset("nope", &p, err), -1);
    CU_ASSERT_EQUAL(cc_sim_param_set(&p, "k_bend", "3e-4", err), 0);
    CU_ASSERT_EQUAL(p.k_bend, 3e-4);
    CU_ASSERT_EQUAL(cc_sim_param_set(&p, "integrator", "symplectic-euler", err), 0);
    CU_ASSERT_EQUAL(p.integrator, CC_SYMPLECTIC_EULER);
    CU_ASSERT_STRING_EQUAL(cc_sim_param_word(&p, "integrator"), "symplectic-euler");
    CU_ASSERT_STRING_EQUAL(cc_sim_param_word(&p, "precond"), "ascher-boxerman");   /* the presets' (003's) */
    CU_ASSERT_EQUAL(cc_sim_param_set(&p, "precond", "multigrid", err), 0);
    CU_ASSERT_STRING_EQUAL(cc_sim_param_word(&p, "precond"), "multigrid");
    CU_ASSERT_PTR_NULL(cc_sim_param_word(&p, "k_bend"));   /* not a word */
    CU_ASSERT_PTR_NULL(cc_sim_param_word(&p, "warp"));
    int nenum = 0;
    while (cc_sim_param_enum_name(nenum)) CU_ASSERT_PTR_NOT_NULL(cc_sim_param_word(&p, cc_sim_param_enum_name(nenum++)));
    CU_ASSERT_EQUAL(nenum, 7);   /* integrator, damping, precond, strain_mode and the three *_hessian modes */
    p.precond = 99;
    CU_ASSERT_PTR_NULL(cc_sim_param_word(&p, "precond"));
    CU_ASSERT_EQUAL(cc_sim_param_set(&p, "gravity", "0 -1 0", err), 0);
    CU_ASSERT(p.gravity[0] == 0 && p.gravity[1] == -1 && p.gravity[2] == 0);
    CU_ASSERT_EQUAL(cc_sim_param_set(&p, "bend_variant", "bridson", err), 0);
    CU_ASSERT_STRING_EQUAL(p.bend_variant, "bridson");
    CU_ASSERT_EQUAL(cc_sim_param_set(&p, "k_bend", "x", err), -1);
    CU_ASSERT_EQUAL(cc_sim_param_set(&p, "gravity", "1 2", err), -1);
    CU_ASSERT_EQUAL(cc_sim_param_set(&p, "integrator", "rk4", err), -1);
    CU_ASSERT_EQUAL(cc_sim_param_set(&p, "warp", "9", err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown parameter"));
    CU_ASSERT_PTR_NULL(strstr(err, "did you mean"));
    CU_ASSERT_EQUAL(cc_sim_param_set(&p, "k_strech", "9", err), -1);   /* a letter left out */
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "did you mean 'k_stretch'?"));
    CU_ASSERT_EQUAL(cc_sim_param_set(&p, "dneisty", "9", err), -1);    /* two letters swapped twice */
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "did you mean 'density'?"));
    cc_mesh *m = cc_mesh_grid(3, 3, 1, 1, 0, err);
    cc_sim_preset("pritchard-table1", &p, err);
    p.density = 0;
    CU_ASSERT_PTR_NULL(cc_sim_new(m, &p, err));
    cc_sim_preset("pritchard-table1", &p, err);
    snprintf(p.bend_variant, CC_SIM_NAMELEN, "no-such-variant");
    CU_ASSERT_PTR_NULL(cc_sim_new(m, &p, err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "bend/no-such-variant"));
    cc_mesh_free(m);
}

/* a user-defined condition runs in the simulator: energies as k/2 C^2 of its own C */
static void test_user_condition_energy(void)
{
    char err[CC_ERRLEN];
    cc_sim *s = make(4, 0.3, 0.0, NULL);
    nan_ctx ctx = {0, 1 << 30};
    cc_sim_condition c = {"tether", 2, 1, nan_eval, &ctx};
    int el[4] = {0, 5, 3, 12};
    CU_ASSERT_EQUAL_FATAL(cc_sim_add_condition(s, &c, el, 2, 7.0, 0.0, err), 0);
    double e[2];
    CU_ASSERT_EQUAL(cc_sim_element_energies(s, "tether", e, 2), 2);
    const double *x = cc_sim_positions(s);
    for (int k = 0; k < 2; k++) {
        const double *p = x + 3 * el[2 * k], *q = x + 3 * el[2 * k + 1];
        double l = sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2]));
        CU_ASSERT_DOUBLE_EQUAL(e[k], 3.5 * (l - 0.1) * (l - 0.1), 1e-15);
    }
    cc_sim_energy tot;
    CU_ASSERT_EQUAL(cc_sim_energies(s, &tot), 0);
    CU_ASSERT_DOUBLE_EQUAL(tot.user, e[0] + e[1], 1e-15);
    CU_ASSERT_EQUAL(cc_sim_element_energies(s, "stretch", NULL, 0), 18);
    CU_ASSERT_EQUAL(cc_sim_element_energies(s, "nothing", NULL, 0), -1);
    for (int k = 0; k < 5; k++) CU_ASSERT_EQUAL(cc_sim_step(s), 0);
    cc_sim_free(s);
}

static void drag_only(cc_sim_params *p)
{
    p->k_stretch = p->k_shear = p->k_bend = 0;
    p->d_stretch = p->d_shear = p->d_bend = 0;
    p->air_drag = 0.5;
    p->integrator = integrator_sel;
    p->h = 0.01;
}

/* air drag f = -k_a A v on a force-free cloth: backward Euler's v_{n+1} = (v_n + h g) /
 * (1 + h k_a / rho) exactly, tending to the terminal velocity rho g / k_a */
static void test_air_drag(void)
{
    integrator_sel = CC_BACKWARD_EULER;
    cc_sim *s = make(4, 1.0, 0.0, drag_only);
    double rho = 0.1, ka = 0.5, h = 0.01, g = -9.81, v = 0;
    for (int n = 0; n < 300; n++) {
        step_ok(s);
        v = (v + h * g) / (1 + h * ka / rho);
    }
    for (int i = 0; i < cc_sim_vertex_count(s); i++)
        CU_ASSERT_DOUBLE_EQUAL(cc_sim_velocities(s)[3 * i + 2], v, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(v, rho * g / ka, 1e-3);
    cc_sim_free(s);
}

static void per_particle(cc_sim_params *p)
{
    p->damping = 1;
    p->psd_project = 1;
}

/* Pritchard's per-particle Cdot (001 5.2) is selectable: it runs, and it differs from (58) */
static void test_per_particle_damping(void)
{
    char err[CC_ERRLEN];
    cc_sim *a = make(6, 0.5, 0.0, NULL), *b = make(6, 0.5, 0.0, per_particle);
    cc_sim_pin(a, 30, NULL, err);
    cc_sim_pin(a, 35, NULL, err);
    cc_sim_pin(b, 30, NULL, err);
    cc_sim_pin(b, 35, NULL, err);
    for (int k = 0; k < 10; k++) {
        step_ok(a);
        step_ok(b);
    }
    double diff = 0;
    for (int i = 0; i < 3 * cc_sim_vertex_count(a); i++)
        diff = fmax(diff, fabs(cc_sim_positions(a)[i] - cc_sim_positions(b)[i]));
    CU_ASSERT(diff > 1e-6);
    /* per-particle df/dv couples no two vertices: block diagonal */
    int n3 = 3 * cc_sim_vertex_count(b);
    double *J = malloc((size_t)n3 * n3 * sizeof *J);
    CU_ASSERT_EQUAL(cc_sim_jacobian_dense(b, 1, J), 0);
    double off = 0, on = 0;
    for (int r = 0; r < n3; r++)
        for (int c = 0; c < n3; c++) {
            if (r / 3 == c / 3) on = fmax(on, fabs(J[r * n3 + c]));
            else off = fmax(off, fabs(J[r * n3 + c]));
        }
    CU_ASSERT(on > 0);
    CU_ASSERT_EQUAL(off, 0.0);
    free(J);
    cc_sim_free(a);
    cc_sim_free(b);
}

/* clothcheck bench: JSON keys on a small grid; bad input is one line and exit 2 */
static void test_bench_cli(void)
{
    static char out[8192], errb[8192];
    CU_ASSERT_EQUAL(cc_test_run_cli("bench --grid 6 --steps 3 --json", out, sizeof out, errb, sizeof errb), 0);
    const char *keys[] = {"\"grid\": 6", "\"vertices\": 36", "\"steps\": 3", "\"ms_per_step\"", "\"cg_iterations_per_step\"",
                          "\"assembly_ms\"", "\"solve_ms\"", "\"finite\": true"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) CU_ASSERT_PTR_NOT_NULL(strstr(out, keys[k]));
    CU_ASSERT_EQUAL(cc_test_run_cli("bench --grid 6 --steps 2", out, sizeof out, errb, sizeof errb), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "ms per step"));
    CU_ASSERT_EQUAL(cc_test_run_cli("bench --help", out, sizeof out, errb, sizeof errb), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "usage: clothcheck bench"));
    const char *bad[] = {"bench --grid 1", "bench --steps x", "bench --h -1", "bench --bogus", "bench extra",
                         "bench --bend nope", "bench --precond magic", "bench --grid"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        CU_ASSERT_EQUAL(cc_test_run_cli(bad[k], out, sizeof out, errb, sizeof errb), 2);
        CU_ASSERT_EQUAL(cc_test_count_lines(errb), 1);
        CU_ASSERT_EQUAL(out[0], '\0');
    }
    /* an unknown variant or word is answered with the ones it could be */
    CU_ASSERT_EQUAL(cc_test_run_cli("bench --bend nope", out, sizeof out, errb, sizeof errb), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(errb, "--bend: unknown variant 'nope' (pritchard, pritchard-exact, macri, bridson, "));
    CU_ASSERT_PTR_NOT_NULL(strstr(errb, "quadratic, bridson-force)"));
    CU_ASSERT_EQUAL(cc_test_run_cli("bench --precond magic", out, sizeof out, errb, sizeof errb), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(errb, "(jacobi, block-jacobi, ascher-boxerman, block-ic0, multigrid, auto)"));
}

/* the rows of a bench --csv file after its header: their count, the sums of the step and
 * cg_iterations columns, and the rows whose ms is less than their assembly_ms + solve_ms
 * (a step's wall time holds both); -1 if the header is not the documented one */
static int csv_rows(const char *path, double *step_sum, double *it_sum, int *short_rows)
{
    char *text = cc_test_read_file(path);
    if (!text) return -1;
    const char *header = "step,ms,assembly_ms,solve_ms,cg_iterations,psd_retries\n";
    int rows = strncmp(text, header, strlen(header)) ? -1 : 0;
    *step_sum = *it_sum = 0;
    *short_rows = 0;
    for (char *line = text + strlen(header); rows >= 0 && *line; rows++) {
        double v[6];
        if (sscanf(line, "%lf,%lf,%lf,%lf,%lf,%lf", v, v + 1, v + 2, v + 3, v + 4, v + 5) != 6) rows = -2;
        *step_sum += v[0];
        *it_sum += v[4];
        *short_rows += v[1] < v[2] + v[3] - 1e-6;
        char *nl = strchr(line, '\n');
        line = nl ? nl + 1 : line + strlen(line);
    }
    free(text);
    return rows;
}

/* clothcheck bench --csv: one row per step whose iterations add up to the report's mean; the
 * steps done when the run blows up; a path that cannot be written is refused before the run */
static void test_bench_csv(void)
{
    static char out[8192], errb[8192], args[512], path[300];
    char dir[] = "/tmp/cc_bench_csv_XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/steps.csv", dir);
    snprintf(args, sizeof args, "bench --grid 6 --steps 3 --json --csv %s", path);
    CU_ASSERT_EQUAL(cc_test_run_cli(args, out, sizeof out, errb, sizeof errb), 0);
    const char *key = strstr(out, "\"cg_iterations_per_step\": ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(key);
    double mean = atof(key + strlen("\"cg_iterations_per_step\": ")), steps, its;
    int short_rows;
    CU_ASSERT_EQUAL(csv_rows(path, &steps, &its, &short_rows), 3);
    CU_ASSERT_EQUAL(steps, 6.0);   /* 1 + 2 + 3 */
    CU_ASSERT(its > 0 && fabs(its - 3 * mean) < 1e-9);
    remove(path);
    /* the rows are the steps as they came: each column sorted on its own for the medians
     * would pair one step's wall time with other steps' assembly and solve times */
    snprintf(args, sizeof args, "bench --grid 24 --steps 40 --csv %s", path);
    CU_ASSERT_EQUAL(cc_test_run_cli(args, out, sizeof out, errb, sizeof errb), 0);
    CU_ASSERT_EQUAL(csv_rows(path, &steps, &its, &short_rows), 40);
    CU_ASSERT_EQUAL(short_rows, 0);
    remove(path);
    snprintf(args, sizeof args, "bench --grid 6 --h 5 --steps 50 --csv %s", path);
    CU_ASSERT_EQUAL(cc_test_run_cli(args, out, sizeof out, errb, sizeof errb), 1);
    int rows = csv_rows(path, &steps, &its, &short_rows);
    CU_ASSERT(rows >= 1 && rows < 50);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "steps            "));
    char want[64];
    snprintf(want, sizeof want, "steps            %d of 50", rows);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
    remove(path);
    snprintf(args, sizeof args, "bench --grid 6 --steps 2 --csv %s/no/such/dir/steps.csv", dir);
    CU_ASSERT_EQUAL(cc_test_run_cli(args, out, sizeof out, errb, sizeof errb), 2);
    CU_ASSERT_EQUAL(cc_test_count_lines(errb), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(errb, "--csv"));
    CU_ASSERT_EQUAL(out[0], '\0');
    CU_ASSERT_EQUAL(rmdir(dir), 0);   /* nothing left behind: no CSV, no temporary */
}

int main(void)
{
    static const cc_test_case tests[] = {
        {"free fall matches each integrator's closed form", test_free_fall},
        {"momentum without gravity or pins", test_momentum},
        {"hanging cloth at rest: pin reactions equal the weight", test_hanging_reaction},
        {"backward Euler without external force never gains energy", test_energy_never_grows},
        {"a NaN stops the run naming the step and the element", test_nan_fault},
        {"explicit Euler blow-up stops cleanly", test_blow_up},
        {"adaptive steps: rejection, halving, giving up", test_adaptive},
        {"sliding vertices and moving pins", test_sliding_and_moving_pins},
        {"obstacles: sphere and round table", test_obstacles},
        {"strain limiting: Provot and Bridson & Fedkiw", test_strain_limiting},
        {"presets and parameters by name", test_presets_and_params},
        {"user-defined condition energies", test_user_condition_energy},
        {"air drag: closed form and terminal velocity", test_air_drag},
        {"per-particle damping is selectable and block diagonal", test_per_particle_damping},
        {"bench command", test_bench_cli},
        {"bench --csv: a row per step", test_bench_csv},
        {NULL, NULL},
    };
    return cc_test_main("sim_step", tests);
}
