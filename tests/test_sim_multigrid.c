/* sim/multigrid with rotations in the coarse space (mg_modes.c): the prolongator reproduces
 * the rigid motions exactly, on every level and through the constraint filter; the cycle stays
 * symmetric positive definite; the coarse space is chosen by the matrix (bend_compare's strip:
 * rotations, the hanging cloth: translations); on a bending-dominated strip MPCG needs a
 * few iterations a step where translations alone need many; and where stiff bending makes
 * MPCG's single-precision product too coarse, it is dropped for the double one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cc_test.h"
#include "mesh/mesh.h"
#include "sim/algebra/mg_internal.h"
#include "sim/algebra/mpcg.h"
#include "sim/assembly/sim_internal.h"
#include "sim/sim.h"

static unsigned long long rng = 0x2545F4914F6CDD1DULL;
/* uniform in [-1, 1) from this suite's generator state */
static double rnd(void) { return cc_test_rnd(&rng); }

/* bend_compare's cantilever (lua/scenarios/scene.lua, scene.strip): nx x ny patches of a
 * 0.5 x 0.1 m strip of Table 1 cloth with this k_bend and d_bend, h 0.01, the first two
 * columns pinned, bend/pritchard or the variant bend; modes: the multigrid's coarse space (0:
 * chosen, 3, 6, 12) */
static cc_sim *strip_damped(int nx, int ny, double k_bend, double d_bend, int modes, const char *bend, cc_mesh **m)
{
    char err[CC_ERRLEN];
    cc_sim_params p;
    *m = cc_mesh_grid(nx + 1, ny + 1, 0.5, 0.1, 0, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(*m);
    CU_ASSERT_EQUAL_FATAL(cc_sim_preset("pritchard-table1", &p, err), 0);
    CU_ASSERT_EQUAL_FATAL(cc_sim_param_set(&p, "precond", "multigrid", err), 0);
    if (bend) CU_ASSERT_EQUAL_FATAL(cc_sim_param_set(&p, "bend_variant", bend, err), 0);
    p.h = 0.01, p.k_bend = k_bend, p.d_bend = d_bend, p.cg_tol = 1e-2;
    cc_sim *s = cc_sim_new(*m, &p, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    for (int j = 0; j <= ny; j++)
        for (int i = 0; i < 2; i++) CU_ASSERT_EQUAL(cc_sim_pin(s, i + (nx + 1) * j, NULL, err), 0);
    if (modes) {
        s->W->mg = cc_mg_new();
        CU_ASSERT_PTR_NOT_NULL_FATAL(s->W->mg);
        cc_mg_set_modes(s->W->mg, modes);
    }
    return s;
}

/* strip_damped with d_bend 0.2 k_bend, as bend_compare has it */
static cc_sim *strip(int nx, int ny, double k_bend, int modes, const char *bend, cc_mesh **m)
{
    return strip_damped(nx, ny, k_bend, 0.2 * k_bend, modes, bend, m);
}

/* u = t + L b at offset d = p - c: b = w, L b = w x d (m = 6), or b = M row by row, L b = M d
 * (m = 12) */
static void motion(const double *t, const double *b, const double *c, const double *p, double *u, int m)
{
    double d[3] = {p[0] - c[0], p[1] - c[1], p[2] - c[2]};
    if (m == 6) {
        u[0] = t[0] + b[1] * d[2] - b[2] * d[1];
        u[1] = t[1] + b[2] * d[0] - b[0] * d[2];
        u[2] = t[2] + b[0] * d[1] - b[1] * d[0];
    } else {
        for (int a = 0; a < 3; a++) u[a] = t[a] + b[3 * a] * d[0] + b[3 * a + 1] * d[1] + b[3 * a + 2] * d[2];
    }
}

/* y = R_I (t + L b at c_I - c, b): node I's coordinates of the motion (t, b) about c, from
 * the centre and R of node I of level L (mg_modes.c) */
static void node_coords(const mg_level *L, int I, const double *t, const double *b, const double *c, double *y)
{
    int m = L->nm;
    double a[12];
    motion(t, b, c, L->cen + 3 * I, a, m);   /* the motion of the node's centre */
    memcpy(a + 3, b, (size_t)(m - 3) * sizeof *b);
    for (int r = 0; r < m; r++) {
        y[r] = 0;
        for (int k = 0; k < m; k++) y[r] += L->rn[m * m * I + m * r + k] * a[k];
    }
}

/* The prolongator of each level maps the coarse coordinates of a global mode onto the fine
 * ones exactly, for the rigid motions (modes 6) and the affine maps (12): on a strip bent
 * under its weight, with a vertex sliding in a plane and one on a line (their filter inside
 * P), P y = S (t + L b at x - c) on level 0, and level l's P maps level l+1's coordinates of
 * the motion onto level l's; for random t, b, c, to round-off */
static void test_modes_reproduce(void)
{
    for (int m = 6; m <= 12; m += 6) {
        cc_mesh *msh;
        cc_sim *s = strip(30, 6, 0.2, m, NULL, &msh);
        char err[CC_ERRLEN];
        const double nrm[3] = {0.3, 0.1, 1}, dir[3] = {1, 0.2, 0};
        CU_ASSERT_EQUAL(cc_sim_slide_plane(s, 100, nrm, err), 0);
        CU_ASSERT_EQUAL(cc_sim_slide_line(s, 150, dir, err), 0);
        for (int step = 0; step < 20; step++) CU_ASSERT_EQUAL_FATAL(cc_sim_step(s), 0);
        cc_mg *mg = s->W->mg;
        CU_ASSERT_EQUAL_FATAL(cc_mg_modes(mg), m);
        CU_ASSERT_FATAL(mg->nlev >= 3);
        double *x = malloc(3 * (size_t)s->nv * sizeof *x);   /* set up again at the current positions */
        memcpy(x, s->x, 3 * (size_t)s->nv * sizeof *x);
        cc_mg_set_points(mg, x);
        CU_ASSERT_EQUAL_FATAL(cc_mg_setup(mg, s->A, s->F), 0);
        double worst = 0, scale = 0;
        int r = m / 3;
        for (int trial = 0; trial < 4; trial++) {
            double t[3], b[9], c[3];
            for (int a = 0; a < 3; a++) t[a] = rnd(), c[a] = 0.3 * rnd();
            for (int a = 0; a < 9; a++) b[a] = 10 * rnd();
            const mg_level *L = mg->lev, *C = mg->lev + 1;
            for (int i = 0; i < L->n; i++) {   /* level 0: P y against S u */
                int I = L->agg[i];
                if (I < 0) continue;
                double y[12], u[3], S[9], Pu[3];
                node_coords(C, I, t, b, c, y);
                motion(t, b, c, x + 3 * i, u, m);
                cc_filter_get(s->F, i, S);
                for (int a = 0; a < 3; a++) {
                    double su = S[3 * a] * u[0] + S[3 * a + 1] * u[1] + S[3 * a + 2] * u[2];
                    Pu[a] = 0;
                    for (int k = 0; k < m; k++) Pu[a] += L->pv[3 * m * i + m * a + k] * y[k];
                    worst = fmax(worst, fabs(Pu[a] - su)), scale = fmax(scale, fabs(su));
                }
            }
            for (int l = 1; l + 1 < mg->nlev; l++) {   /* level l: P y_(l+1) against y_l */
                const mg_level *F = mg->lev + l, *G = F + 1;
                for (int I = 0; I < F->nn; I++) {
                    int J = F->agg[r * I];
                    if (J < 0) continue;
                    double yf[12], yc[12];
                    node_coords(F, I, t, b, c, yf);
                    node_coords(G, J, t, b, c, yc);
                    for (int q = 0; q < m; q++) {
                        double Py = 0;
                        for (int k = 0; k < m; k++) Py += F->pv[3 * m * (r * I + q / 3) + m * (q % 3) + k] * yc[k];
                        worst = fmax(worst, fabs(Py - yf[q])), scale = fmax(scale, fabs(yf[q]));
                    }
                }
            }
        }
        printf("\n    modes %d, %d levels: reproduced to %.1e of their size", m, mg->nlev, worst / scale);
        CU_ASSERT(worst <= 1e-12 * scale);
        free(x);
        cc_sim_free(s);
        cc_mesh_free(msh);
    }
}

/* the cycle with rotations (or the affine maps) is a symmetric positive definite operator on
 * the free space: u^T B^-1 v = v^T B^-1 u to round-off and u^T B^-1 u > 0 for random filtered
 * u, v, in one part and in two (a 120 x 24 strip: level 0 has 3025 rows, each part more than
 * 256), and its output lies in the free directions. The round-off grows with the conditioning
 * that the rotations let the coarse levels see: 2e-13 of sqrt(u B u v B v) at k_bend 2e-4,
 * 1e-11 to 5e-11 at 0.02 and 0.2 (with translations only, 2e-14 at 0.02), hence the bound
 * 1e-10 */
static void test_modes_symmetric(void)
{
    cc_mesh *m;
    cc_sim *s = strip(120, 24, 0.02, 6, NULL, &m);
    for (int step = 0; step < 5; step++) CU_ASSERT_EQUAL_FATAL(cc_sim_step(s), 0);
    int n3 = 3 * s->nv;
    double *u = malloc((size_t)n3 * sizeof *u), *v = malloc((size_t)n3 * sizeof *v);
    double *Bu = malloc((size_t)n3 * sizeof *Bu), *Bv = malloc((size_t)n3 * sizeof *Bv);
    cc_team *team = cc_team_new(2);
    for (int k = 0; k < 3; k++) {   /* rotations in one part and two, the affine maps in two */
        int np = k == 0 ? 1 : 2, modes = k < 2 ? 6 : 12;
        cc_mg *mg = cc_mg_new();
        cc_mg_set_modes(mg, modes);
        cc_mg_set_parts(mg, np);
        cc_mg_set_team(mg, team);
        cc_mg_set_points(mg, s->x);
        CU_ASSERT_EQUAL_FATAL(cc_mg_setup(mg, s->A, s->F), 0);
        CU_ASSERT_EQUAL(cc_mg_modes(mg), modes);
        CU_ASSERT(cc_mg_levels(mg, 0, NULL) >= 3);
        double worst = 0;
        for (int trial = 0; trial < 5; trial++) {
            for (int a = 0; a < n3; a++) u[a] = rnd(), v[a] = rnd();
            cc_filter_apply(s->F, u);
            cc_filter_apply(s->F, v);
            double uBu = cc_mg_apply(mg, s->F, u, Bu), vBv = cc_mg_apply(mg, s->F, v, Bv), uBv = 0, vBu = 0;
            for (int a = 0; a < n3; a++) uBv += u[a] * Bv[a], vBu += v[a] * Bu[a];
            CU_ASSERT(uBu > 0 && vBv > 0);
            CU_ASSERT(fabs(cc_mg_norm(mg, s->F, u) - uBu) <= 1e-12 * uBu);
            worst = fmax(worst, fabs(uBv - vBu) / sqrt(uBu * vBv));
            for (int i = 0; i < 2 * 25; i++)   /* the clamp: pinned, so zero */
                for (int k = 0; k < 3; k++) CU_ASSERT_EQUAL(Bu[3 * ((i % 2) + 121 * (i / 2)) + k], 0.0);
        }
        printf("\n    modes %d, %d part%s: |u B v - v B u| / sqrt(u B u v B v) = %.1e", modes, np, np > 1 ? "s" : "",
               worst);
        CU_ASSERT(worst <= 1e-10);
        cc_mg_free(mg);
    }
    cc_team_free(team);
    free(u);
    free(v);
    free(Bu);
    free(Bv);
    cc_sim_free(s);
    cc_mesh_free(m);
}

/* A = m I + k sum_c 1_c 1_c^T (x) I on a g x g grid, 1_c the indicator of the 5-point star of
 * each interior vertex c: rank-one elements as a hinge's bending is, so rows far from
 * diagonally dominant (D_i = 5 k against 20 k off the diagonal), positions in *x (3 g^2,
 * malloc'd) */
static cc_bsr *star_grid(int g, double m, double k, double **x)
{
    int n = g * g, ne = (g - 2) * (g - 2), *el = malloc(5 * (size_t)ne * sizeof *el), e = 0;
    *x = malloc(3 * (size_t)n * sizeof **x);
    for (int j = 0; j < g; j++)
        for (int i = 0; i < g; i++) (*x)[3 * (j * g + i)] = i, (*x)[3 * (j * g + i) + 1] = j, (*x)[3 * (j * g + i) + 2] = 0;
    for (int j = 1; j + 1 < g; j++)
        for (int i = 1; i + 1 < g; i++, e++) {
            int c = j * g + i, v[5] = {c, c - 1, c + 1, c - g, c + g};
            memcpy(el + 5 * e, v, sizeof v);
        }
    const int *elems[1] = {el};
    int nel[1] = {ne}, kk[1] = {5};
    cc_bsr *A = cc_bsr_pattern(n, 1, elems, nel, kk);
    for (e = 0; e < ne; e++)
        for (int a = 0; a < 5; a++)
            for (int b = 0; b < 5; b++) {
                double *B = cc_bsr_block(A, cc_bsr_slot(A, el[5 * e + a], el[5 * e + b]));
                for (int d = 0; d < 3; d++) B[4 * d] += k;
            }
    for (int i = 0; i < n; i++)
        for (int d = 0; d < 3; d++) cc_bsr_block(A, A->diag[i])[4 * d] += m;
    free(el);
    return A;
}

/* the smoother across the cut between two parts (mg_values.c, cut_safe): on star_grid (a
 * cut row's cross blocks sum to 7 k against D_i = 5 k) the rows of the cut take the l1 shift,
 * and the cycle with rotations stays symmetric positive definite with the shifts' terms in
 * its residuals: MPCG solves to 1e-8 without meeting r^T B^-1 r < 0 (67 iterations; 71
 * without the shifts), and u^T B^-1 u > 0 for random u */
static void test_cut_safe(void)
{
    int g = 41, n = g * g, n3 = 3 * n;   /* the cut at row 840 = (20, 20): a staircase */
    double *x, *b = malloc((size_t)n3 * sizeof *b), *dv = malloc((size_t)n3 * sizeof *dv), *Bu = malloc((size_t)n3 * sizeof *Bu);
    cc_bsr *A = star_grid(g, 0.1, 1.0, &x);
    cc_filter *F = cc_filter_new(n);
    cc_mpcg_work *w = cc_mpcg_work_new(n);
    cc_team *team = cc_team_new(2);
    w->mg = cc_mg_new();
    cc_mg_set_modes(w->mg, 6);
    cc_mg_set_parts(w->mg, 2);
    cc_mg_set_team(w->mg, team);
    w->x = x;
    for (int a = 0; a < n3; a++) b[a] = rnd();
    cc_mpcg_stats st;
    int rc = cc_mpcg_solve(A, b, F, NULL, 0, CC_PRECOND_MG, 1e-8, 500, w, dv, &st);
    int shifted = 0, neg = 0;
    for (int l = 0; l < cc_mg_levels(w->mg, 0, NULL); l++) shifted += w->mg->lev[l].nsh;
    for (int t = 0; t < 20; t++) {
        for (int a = 0; a < n3; a++) b[a] = rnd();
        neg += !(cc_mg_apply(w->mg, F, b, Bu) > 0);
    }
    printf("\n    star grid 41 x 41 in two parts: %d rows shifted, %d iterations to 1e-8", shifted, st.iterations);
    CU_ASSERT(shifted >= 41 && w->mg->lev[0].np == 2);
    CU_ASSERT(rc == 0 && !st.indefinite);
    CU_ASSERT_EQUAL(neg, 0);
    cc_team_free(team);
    cc_mg_free(w->mg);
    w->mg = NULL;
    cc_mpcg_work_free(w);
    cc_filter_free(F);
    cc_bsr_free(A);
    free(x);
    free(b);
    free(dv);
    free(Bu);
}

/* A coarsest level that is indefinite is refused, not factored into another matrix's factor
 * (mg_values.c, dense_factor): Macri's bend on the strip, 30 x 6, k_bend 0.2 without bending
 * damping, takes translations, whose level 1 with the correction gamma is indefinite at some
 * steps though A (projected to PSD) is not; such a setup is made again without gamma. Over its
 * first 0.3 s every solve converges, and after each step the cycle, wherever it was set up,
 * gives u^T B^-1 u finite and positive for random u (before: a step whose cycle gave NaN). */
static void test_coarsest_indefinite(void)
{
    cc_mesh *m;
    cc_sim *s = strip_damped(30, 6, 0.2, 0, 0, "macri", &m);
    int n3 = 3 * s->nv, unconverged = 0, bad = 0, checked = 0;
    double *u = malloc((size_t)n3 * sizeof *u), *Bu = malloc((size_t)n3 * sizeof *Bu);
    for (int k = 0; k < 30; k++) {
        CU_ASSERT_EQUAL_FATAL(cc_sim_step(s), 0);
        cc_sim_stats st;
        cc_sim_get_stats(s, &st);
        unconverged += !st.last_cg_converged;
        if (!s->W->mg_ok) continue;
        for (int t = 0; t < 5; t++) {
            for (int a = 0; a < n3; a++) u[a] = rnd();
            double q = cc_mg_apply(s->W->mg, s->F, u, Bu);
            bad += !(q > 0 && isfinite(q));
            checked++;
        }
    }
    cc_sim_stats st;
    cc_sim_get_stats(s, &st);
    printf("\n    strip 30 x 6, macri, k_bend 0.2, no bending damping, 30 steps: %.1f MPCG iterations a step, "
           "%ld PSD retries, %d cycles checked", (double)st.cg_iterations / st.steps, st.psd_retries, checked);
    CU_ASSERT_EQUAL(cc_mg_modes(s->W->mg), 3);
    CU_ASSERT(st.psd_retries > 0);
    CU_ASSERT(checked > 0);
    CU_ASSERT_EQUAL(unconverged, 0);
    CU_ASSERT_EQUAL(bad, 0);
    free(u);
    free(Bu);
    cc_sim_free(s);
    cc_mesh_free(m);
}

/* the coarse space follows the matrix: bend_compare's strip at k_bend 0.02 gets rotations, the
 * affine maps with the quadratic model (its bending acts on all three coordinates alike), the
 * same strip at k_bend 2e-4 (mass and stretch make its diagonal) and the hanging cloth of the
 * bench scene (Table 1, 40 x 40) translations only; without positions, translations */
static void test_modes_choice(void)
{
    cc_mesh *m;
    const double kb[3] = {0.02, 0.02, 2e-4};
    const int want[3] = {6, 12, 3};
    for (int k = 0; k < 3; k++) {
        cc_sim *s = strip(30, 6, kb[k], 0, k == 1 ? "quadratic" : NULL, &m);
        CU_ASSERT_EQUAL_FATAL(cc_sim_step(s), 0);
        CU_ASSERT_EQUAL(cc_mg_modes(s->W->mg), want[k]);
        cc_mg_set_points(s->W->mg, NULL);   /* the next setup starts again, without rotations */
        CU_ASSERT_EQUAL_FATAL(cc_mg_setup(s->W->mg, s->A, s->F), 0);
        CU_ASSERT_EQUAL(cc_mg_modes(s->W->mg), 3);
        cc_sim_free(s);
        cc_mesh_free(m);
    }
    char err[CC_ERRLEN];
    cc_sim_params p;
    m = cc_mesh_grid(40, 40, 1.0, 1.0, 0, err);
    CU_ASSERT_EQUAL_FATAL(cc_sim_preset("pritchard-table1", &p, err), 0);
    CU_ASSERT_EQUAL_FATAL(cc_sim_param_set(&p, "precond", "multigrid", err), 0);
    cc_sim *s = cc_sim_new(m, &p, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(cc_sim_pin(s, 40 * 39, NULL, err), 0);
    CU_ASSERT_EQUAL(cc_sim_pin(s, 40 * 40 - 1, NULL, err), 0);
    CU_ASSERT_EQUAL_FATAL(cc_sim_step(s), 0);
    CU_ASSERT_EQUAL(cc_mg_modes(s->W->mg), 3);
    cc_sim_free(s);
    cc_mesh_free(m);
}

/* bend_compare's strip, 30 x 6 patches, k_bend 0.2, 40 steps: with rotations (the chosen
 * coarse space) every step converges, in at most 12 MPCG iterations a step on average (6.6),
 * where translations alone take more than 40 (52.7); no timing */
static void test_modes_iterations(void)
{
    double per_step[2];
    const int modes[2] = {0, 3};
    for (int k = 0; k < 2; k++) {
        cc_mesh *m;
        cc_sim *s = strip(30, 6, 0.2, modes[k], NULL, &m);
        cc_sim_stats st;
        for (int step = 0; step < 40; step++) {
            CU_ASSERT_EQUAL_FATAL(cc_sim_step(s), 0);
            cc_sim_get_stats(s, &st);
            CU_ASSERT(st.last_cg_converged);
        }
        per_step[k] = (double)st.cg_iterations / st.steps;
        CU_ASSERT_EQUAL(cc_mg_modes(s->W->mg), k == 0 ? 6 : 3);
        cc_sim_free(s);
        cc_mesh_free(m);
    }
    printf("\n    strip 30 x 6, k_bend 0.2, 40 steps: %.1f MPCG iterations a step with rotations, %.1f without",
           per_step[0], per_step[1]);
    CU_ASSERT(per_step[0] <= 12);
    CU_ASSERT(per_step[1] > 40);
}

/* MPCG's single-precision product is checked against A in double (mpcg.c): on the strip
 * 160 x 2 with the quadratic model (stiff bending on a light cloth: c^T A c of the first
 * product off by more than CC_MPCG_SINGLE_REL in single precision) the first solve drops it
 * and every step converges, in fewer iterations than with the single product forced; the
 * strip 30 x 6 at k_bend 2e-4 and the bench's cloth keep it */
static void test_product_check(void)
{
    struct { int nx, ny; double kb; const char *bend; int lost; } cases[] = {
        {160, 2, 0.02, "quadratic", 1}, {30, 6, 2e-4, NULL, 0}, {160, 2, 0.02, "quadratic", -1},
    };
    double per_step[3];
    for (int k = 0; k < 3; k++) {
        cc_mesh *m;
        cc_sim *s = strip(cases[k].nx, cases[k].ny, cases[k].kb, 0, cases[k].bend, &m);
        if (cases[k].lost < 0) s->W->product = CC_PRODUCT_SINGLE;
        cc_sim_stats st;
        int conv = 1;
        for (int step = 0; step < 30; step++) {
            CU_ASSERT_EQUAL_FATAL(cc_sim_step(s), 0);
            cc_sim_get_stats(s, &st);
            conv &= st.last_cg_converged;
            if (step == 0 && cases[k].lost >= 0) CU_ASSERT_EQUAL(s->W->single_lost, cases[k].lost);
        }
        per_step[k] = (double)st.cg_iterations / st.steps;
        if (cases[k].lost >= 0) CU_ASSERT(conv && s->W->single_lost == cases[k].lost);
        cc_sim_free(s);
        cc_mesh_free(m);
    }
    printf("\n    strip 160 x 2, quadratic, 30 steps: %.1f MPCG iterations a step, %.1f with the single product forced",
           per_step[0], per_step[2]);
    CU_ASSERT(per_step[0] < per_step[2]);
}

int main(void)
{
    static const cc_test_case tests[] = {
        {"prolongator reproduces the rigid motions and the affine maps on every level", test_modes_reproduce},
        {"cycle with rotations is symmetric positive definite, in one part and two", test_modes_symmetric},
        {"smoother across the cut shifted where rows are not dominant: the cycle stays SPD", test_cut_safe},
        {"coarse space chosen from the matrix: rotations where bending makes the diagonal", test_modes_choice},
        {"an indefinite coarsest level is set up again without gamma, not factored", test_coarsest_indefinite},
        {"bending-dominated strip: few iterations with rotations, many without", test_modes_iterations},
        {"single-precision product dropped where stiff bending makes it too coarse", test_product_check},
        {NULL, NULL},
    };
    return cc_test_main("sim_multigrid", tests);
}
