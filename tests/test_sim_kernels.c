/* sim/assembly/kernel_triangle.c and sim/assembly/kernel_bend.c: the structured assembly kernels give the same
 * force, system matrix, df/dx dx, energies and C as the condition-contract path of
 * assemble.c (kernels = 0), for every Hessian mode they take, on crumpled moving cloth; and
 * they stop at an element that holds a degenerate or non-finite vertex. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cc_test.h"
#include "mesh/mesh.h"
#include "sim/sim.h"
#include "sim/assembly/sim_internal.h"
#include "sim/assembly/lanes.h"

static unsigned long long rng = 0x2545F4914F6CDD1DULL;
/* uniform in [-1, 1) from this suite's generator state */
static double rnd(void) { return cc_test_rnd(&rng); }

static int N = 7;   /* vertices per side (test_parts: more) */

/* one assembly's outputs */
typedef struct result {
    double *f, *jdx, *A, *energy[3], *C[3];
    int nnz, n3, nel[3], ncomp[3], nterm;
} result;

/* a crumpled N x N cloth (positions moved by up to 0.3 of an edge, random velocities) with p */
static cc_sim *make(cc_sim_params *p, cc_mesh **mesh)
{
    char err[CC_ERRLEN];
    cc_mesh *m = cc_mesh_grid(N, N, 1, 1, 1, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    for (int i = 0; i < 3 * m->nv; i++) m->x[i] += 0.3 / (N - 1) * rnd();
    cc_sim *s = cc_sim_new(m, p, err);
    if (!s) printf("\n    %s ", err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    double *v = malloc(3 * (size_t)m->nv * sizeof *v);
    for (int i = 0; i < 3 * m->nv; i++) v[i] = 0.5 * rnd();
    cc_sim_set_state(s, NULL, v);
    free(v);
    *mesh = m;
    return s;
}

/* assemble s with kernels on or off (cx = -h^2, cv = -h for h = 0.02, as step.c does) into r */
static int run(cc_sim *s, int kernels, const double *dx, result *r)
{
    s->p.kernels = kernels;
    r->n3 = 3 * s->nv;
    r->f = malloc((size_t)r->n3 * sizeof *r->f);
    r->jdx = malloc((size_t)r->n3 * sizeof *r->jdx);
    double h = 0.02;
    cc_assembly a = {.x = s->x, .v = s->v, .mat = 1, .cm = 1.0, .cx = -h * h, .cv = -h, .dx = dx, .f = r->f,
                     .jdx = r->jdx};
    int rc = cc_sim_assemble(s, &a);
    r->nnz = 9 * s->A->nnzb;
    CU_ASSERT(kernels || !s->A->lower);   /* the kernels' sweep leaves the upper triangle to cc_bsr_fill_upper */
    cc_bsr_fill_upper(s->A);
    r->A = malloc((size_t)r->nnz * sizeof *r->A);
    memcpy(r->A, s->A->val, (size_t)r->nnz * sizeof *r->A);
    r->nterm = s->nterm;
    for (int t = 0; t < s->nterm; t++) {
        cc_term *tm = &s->term[t];
        r->nel[t] = tm->nel;
        r->ncomp[t] = tm->ncomp;
        r->energy[t] = malloc((size_t)tm->nel * sizeof(double));
        r->C[t] = malloc((size_t)tm->nel * tm->ncomp * sizeof(double));
        memcpy(r->energy[t], tm->energy, (size_t)tm->nel * sizeof(double));
        memcpy(r->C[t], tm->C, (size_t)tm->nel * tm->ncomp * sizeof(double));
    }
    return rc;
}

static void result_free(result *r)
{
    free(r->f);
    free(r->jdx);
    free(r->A);
    for (int t = 0; t < r->nterm; t++) free(r->energy[t]), free(r->C[t]);
}

/* max |a - b| / max |b| over n numbers */
static double rel_diff(const double *a, const double *b, int n)
{
    double d = 0, scale = 0;
    for (int i = 0; i < n; i++) {
        d = fmax(d, fabs(a[i] - b[i]));
        scale = fmax(scale, fabs(b[i]));
    }
    return scale > 0 ? d / scale : d;
}

/* the worst relative difference of every output between the kernels and the reference path */
static double compare(cc_sim_params *p)
{
    cc_mesh *m;
    cc_sim *s = make(p, &m);
    double *dx = malloc(3 * (size_t)m->nv * sizeof *dx);
    for (int i = 0; i < 3 * m->nv; i++) dx[i] = 0.01 * rnd();
    result ref, ker;
    CU_ASSERT_EQUAL(run(s, 0, dx, &ref), 0);
    CU_ASSERT_EQUAL(run(s, 1, dx, &ker), 0);
    double worst = fmax(rel_diff(ker.f, ref.f, ref.n3), rel_diff(ker.jdx, ref.jdx, ref.n3));
    worst = fmax(worst, rel_diff(ker.A, ref.A, ref.nnz));
    for (int t = 0; t < ref.nterm; t++) {
        worst = fmax(worst, rel_diff(ker.energy[t], ref.energy[t], ref.nel[t]));
        worst = fmax(worst, rel_diff(ker.C[t], ref.C[t], ref.nel[t] * ref.ncomp[t]));
    }
    result_free(&ref);
    result_free(&ker);
    free(dx);
    cc_sim_free(s);
    cc_mesh_free(m);
    return worst;
}

/* Table 1 with k_bend raised so that bend is not lost in the stretch blocks of A */
static cc_sim_params table1(void)
{
    cc_sim_params p;
    char err[CC_ERRLEN];
    CU_ASSERT_EQUAL_FATAL(cc_sim_preset("pritchard-table1", &p, err), 0);
    p.k_bend = 1e2;
    p.d_bend = 20;
    return p;
}

/* |a - b| in units in the last place of b */
static double ulps(double a, double b)
{
    double u = nextafter(fabs(b), INFINITY) - fabs(b);
    return fabs(a - b) / u;
}

/* the kernels' lane-wise atan2 against libm's: within 2 ulp on random angles of every
 * octant and on random (y, x) pairs over twelve decades, and exact on the axes, zeros
 * included (+-0, +-pi/2, +-pi with the sign of y) */
static void test_atan2(void)
{
    static const double axes[][2] = {{0.0, 1.0}, {-0.0, 1.0}, {0.0, -1.0}, {-0.0, -1.0}, {1.0, 0.0}, {1.0, -0.0},
                                     {-1.0, 0.0}, {-1.0, -0.0}, {1.0, 1.0}, {-1.0, -1.0}, {1e-300, 1.0}, {1.0, 1e-300}};
    double worst = 0;
    long over1 = 0, n = 0;
    for (int t = 0; t < 200000; t++) {
        cc_ln y, x;
        for (int l = 0; l < CC_LANES; l++) {
            if (t % 2) {   /* a unit vector at a random angle, as the kernel's (s, c) */
                double th = 3.141592653589793 * rnd();
                y[l] = sin(th), x[l] = cos(th);
            } else {
                y[l] = rnd() * pow(10.0, 6 * rnd()), x[l] = rnd() * pow(10.0, 6 * rnd());
            }
        }
        cc_ln th = cc_ln_atan2(y, x);
        for (int l = 0; l < CC_LANES; l++, n++) {
            double u = ulps(th[l], atan2(y[l], x[l]));
            worst = fmax(worst, u);
            over1 += u > 1;
        }
    }
    printf("\n    %ld pairs: worst %.0f ulp from libm's atan2, %ld over 1 ulp", n, worst, over1);
    CU_ASSERT(worst <= 2);
    for (size_t a = 0; a < sizeof axes / sizeof axes[0]; a++) {
        cc_ln y, x;   /* lane by lane: cc_ln_set(-0.0) would be +0 (0 + -0) */
        for (int l = 0; l < CC_LANES; l++) y[l] = axes[a][0], x[l] = axes[a][1];
        cc_ln th = cc_ln_atan2(y, x);
        double ref = atan2(axes[a][0], axes[a][1]);
        CU_ASSERT(th[0] == ref && signbit(th[0]) == signbit(ref));
    }
}

/* every term with the full Hessian, and each term alone */
static void test_full(void)
{
    cc_sim_params p = table1();
    double d = compare(&p);
    printf("\n    all terms: %.2e ", d);
    CU_ASSERT(d < 1e-12);
    const char *only[3] = {"stretch", "shear", "bend"};
    for (int t = 0; t < 3; t++) {
        cc_sim_params q = table1();
        if (t != 0) q.k_stretch = q.d_stretch = 0;
        if (t != 1) q.k_shear = q.d_shear = 0;
        if (t != 2) q.k_bend = q.d_bend = 0;
        d = compare(&q);
        printf("%s alone: %.2e ", only[t], d);
        CU_ASSERT(d < 1e-12);
    }
}

/* the closed-form modes: clamp and Gauss-Newton on each term */
static void test_modes(void)
{
    int modes[2] = {CC_HESSIAN_CLAMP, CC_HESSIAN_GAUSS_NEWTON};
    for (int k = 0; k < 2; k++) {
        cc_sim_params p = table1();
        p.stretch_hessian = p.shear_hessian = p.bend_hessian = modes[k];
        double d = compare(&p);
        printf("\n    mode %d: %.2e ", modes[k], d);
        CU_ASSERT(d < 1e-12);
    }
}

/* a bend term assembled element by element (bend_hessian project: no kernel takes it) next to
 * the triangle kernel: the element-by-element path writes both triangles of A, the kernel the
 * lower one, and the mirror must leave the same matrix */
static void test_mixed(void)
{
    cc_sim_params p = table1();
    p.bend_hessian = CC_HESSIAN_PROJECT;
    double d = compare(&p);
    printf("\n    bend projected, element by element: %.2e ", d);
    CU_ASSERT(d < 1e-12);
}

/* the hinge kernels (kernel_hinge.c): pritchard-exact, bridson, discrete-shells and Bridson's
 * force model through Tamstorf & Grinspun's closed form, macri through its quotients of the
 * cos/sin derivatives, quadratic through its constant weights, each against its own formulas on the element-by-element path (for the force
 * model, bend_force.c with Bridson's du), every term on, in the full, clamp and Gauss-Newton
 * modes (the force model: full only) */
static void test_hinge_kernels(void)
{
    const char *v[6] = {"pritchard-exact", "bridson", "discrete-shells", "quadratic", "macri", "bridson-force"};
    int modes[3] = {CC_HESSIAN_FULL, CC_HESSIAN_CLAMP, CC_HESSIAN_GAUSS_NEWTON};
    for (int k = 0; k < 6; k++) {
        printf("\n    %-16s", v[k]);
        for (int j = 0; j < (k == 5 ? 1 : 3); j++) {   /* the force model takes full or project only */
            cc_sim_params p = table1();
            char err[CC_ERRLEN];
            CU_ASSERT_EQUAL_FATAL(cc_sim_param_set(&p, k == 5 ? "bend_condition" : "bend_variant", v[k], err), 0);
            p.bend_hessian = modes[j];
            double d = compare(&p);
            printf(" mode %d: %.2e", modes[j], d);
            CU_ASSERT(d < 1e-12);
            p.k_stretch = p.d_stretch = p.k_shear = p.d_shear = 0;   /* and the bend term alone */
            d = compare(&p);
            printf(" (alone %.2e)", d);
            CU_ASSERT(d < 1e-12);
        }
    }
}

/* a curved rest state (b_u, b_v != 1) and a rest angle: the reference's C and theta0 */
static void test_rest(void)
{
    cc_sim_params p = table1();
    p.bu = 0.9;
    p.bv = 1.1;
    double d = compare(&p);
    printf("\n    b_u 0.9, b_v 1.1: %.2e ", d);
    CU_ASSERT(d < 1e-12);
}

/* the fault message of one assembly with the kernels on or off */
static void fault_of(cc_sim *s, int kernels, char *msg)
{
    double *f = malloc(3 * (size_t)s->nv * sizeof *f), *jdx = malloc(3 * (size_t)s->nv * sizeof *jdx);
    double *dx = calloc(3 * (size_t)s->nv, sizeof *dx);
    s->p.kernels = kernels;
    cc_assembly a = {.x = s->x, .v = s->v, .mat = 1, .cm = 1.0, .cx = -4e-4, .cv = -0.02, .dx = dx, .f = f, .jdx = jdx};
    CU_ASSERT_EQUAL(cc_sim_assemble(s, &a), -1);
    snprintf(msg, CC_ERRLEN, "%s", s->err);
    free(f);
    free(jdx);
    free(dx);
}

/* 1 if the "(vertices i j k)" of a fault message name vertex a or b */
static int names_vertex(const char *msg, int a, int b)
{
    const char *p = strstr(msg, "(vertices ");
    if (!p) return 0;
    p += strlen("(vertices ");
    for (;;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p) return 0;
        if (v == a || v == b) return 1;
        p = end;
    }
}

/* a vertex moved onto its neighbour (zero-length edge) and a NaN position: with bend alone
 * (pritchard's lane kernel, and discrete-shells' hinge kernel) both paths stop with the same message (the hinges in the same order); with every term the
 * sweep takes triangles and hinges interleaved, so it may meet another of the degenerate
 * elements first, and the check is that it names one that holds the bad vertex */
static void test_faults(void)
{
    for (int only_bend = 0; only_bend < 3; only_bend++)
        for (int nan = 0; nan < 2; nan++) {
            cc_sim_params p = table1();
            char e[CC_ERRLEN];
            if (only_bend) p.k_stretch = p.d_stretch = p.k_shear = p.d_shear = 0;
            if (only_bend == 2) CU_ASSERT_EQUAL_FATAL(cc_sim_param_set(&p, "bend_variant", "discrete-shells", e), 0);
            cc_mesh *m;
            cc_sim *s = make(&p, &m);
            int a = N + 1, b = N + 2;   /* two neighbours inside the grid */
            if (nan) s->x[3 * a + 2] = NAN;
            else memcpy(s->x + 3 * b, s->x + 3 * a, 3 * sizeof(double));
            char ref[CC_ERRLEN], ker[CC_ERRLEN];
            fault_of(s, 0, ref);
            fault_of(s, 1, ker);
            printf("\n    %s ", ker);
            if (only_bend) CU_ASSERT_STRING_EQUAL(ker, ref);
            CU_ASSERT(names_vertex(ker, a, nan ? a : b));
            CU_ASSERT(strstr(ker, "degenerate element") || strstr(ker, "non-finite"));
            cc_sim_free(s);
            cc_mesh_free(m);
        }
}

/* A cloth of 24 x 24 vertices: the kernels' sweep in two parts (rows below and from vertex
 * 288, side by side, then the batches across the cut) against the reference path, and a bad
 * vertex in each part and on the cut named in the fault message */
static void test_parts(void)
{
    N = 24;
    cc_sim_params p = table1();
    double d = compare(&p);
    printf("\n    24 x 24, two parts: %.2e", d);
    CU_ASSERT(d < 1e-12);
    int bad[3] = {24 * 4 + 5, 24 * 20 + 7, 24 * 12 + 3};   /* in part 0, in part 1, on the cut (vertex 291) */
    for (int k = 0; k < 3; k++)
        for (int nan = 0; nan < 2; nan++) {
            cc_mesh *m;
            cc_sim *s = make(&p, &m);
            int a = bad[k], b = a + 1;
            if (nan) s->x[3 * a + 2] = NAN;
            else memcpy(s->x + 3 * b, s->x + 3 * a, 3 * sizeof(double));
            char ker[CC_ERRLEN];
            fault_of(s, 1, ker);
            printf("\n    %s ", ker);
            CU_ASSERT(names_vertex(ker, a, nan ? a : b));
            cc_sim_free(s);
            cc_mesh_free(m);
        }
    N = 7;
}

/* a whole run: 20 backward Euler steps with and without the kernels stay within round-off */
static void test_steps(void)
{
    cc_sim_params p;
    char err[CC_ERRLEN];
    CU_ASSERT_EQUAL_FATAL(cc_sim_preset("pritchard-table1", &p, err), 0);
    cc_mesh *m = cc_mesh_grid(N, N, 1, 1, 1, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    double *x[2];
    for (int k = 0; k < 2; k++) {
        p.kernels = k;
        cc_sim *s = cc_sim_new(m, &p, err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(s);
        CU_ASSERT_EQUAL(cc_sim_pin(s, N * N - 1, NULL, err), 0);
        CU_ASSERT_EQUAL(cc_sim_pin(s, N * N - N, NULL, err), 0);
        for (int i = 0; i < 20; i++) CU_ASSERT_EQUAL(cc_sim_step(s), 0);
        x[k] = malloc(3 * (size_t)m->nv * sizeof(double));
        memcpy(x[k], cc_sim_positions(s), 3 * (size_t)m->nv * sizeof(double));
        cc_sim_free(s);
    }
    double d = 0;
    for (int i = 0; i < 3 * m->nv; i++) d = fmax(d, fabs(x[0][i] - x[1][i]));
    printf("\n    max |x_kernels - x_reference| after 20 steps: %.2e m ", d);
    CU_ASSERT(d < 1e-9);
    free(x[0]);
    free(x[1]);
    cc_mesh_free(m);
}

/* clothcheck bench runs with the kernels by default and without them on --no-kernels, and
 * says which in its JSON */
static void test_bench_cli(void)
{
    char out[2048], err[512];
    const char *args[2] = {"bench --grid 8 --steps 5 --json", "bench --grid 8 --steps 5 --no-kernels --json"};
    const char *want[2] = {"\"kernels\": true", "\"kernels\": false"};
    for (int k = 0; k < 2; k++) {
        CU_ASSERT_EQUAL(cc_test_run_cli(args[k], out, sizeof out, err, sizeof err), 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, want[k]));
        CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"finite\": true"));
    }
    CU_ASSERT_EQUAL(cc_test_run_cli("bench --no-kernels=1", out, sizeof out, err, sizeof err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "--no-kernels"));
}

static const cc_test_case tests[] = {
    {"lane-wise atan2 within 2 ulp of libm's, exact on the axes", test_atan2},
    {"kernels equal the reference path, full Hessian", test_full},
    {"kernels equal the reference path, clamp and gauss-newton", test_modes},
    {"kernels equal the reference path, rest stretch", test_rest},
    {"hinge kernels equal each variant's own formulas", test_hinge_kernels},
    {"triangle kernel next to a bend term assembled element by element", test_mixed},
    {"kernels stop at a faulty element and name it", test_faults},
    {"kernels in two parts: the same sums, faults named in each part", test_parts},
    {"a run with kernels follows the reference run", test_steps},
    {"bench --no-kernels", test_bench_cli},
    {NULL, NULL},
};

int main(void) { return cc_test_main("sim kernels", tests); }
