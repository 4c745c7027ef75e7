/* stab_probe — the measurements behind docs/performance.md, "Other bend variants in the bench
 * scene": why the backward Euler step blows up, and what the *_hessian modes (sim.h) change.
 *
 * Not part of the build (it reads the simulator's internals through src/sim/sim_internal.h).
 * Build it against a Release build of the library:
 *
 *   make build
 *   gcc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Isrc -I. tools/stab_probe.c build/libclothcheck.a -lm \
 *       -o build/stab_probe
 *
 * Scenes: the bench scene (src/cli/cmd_bench.c: N x N grid of 1 m, 001 Table 1, block IC(0),
 * MPCG tolerance 1e-2, the corners of the edge y = 1 pinned), or with --table the tablecloth
 * of lua/scenarios/bend_compare.lua (N x N vertices, side 1.6 m, 2 cm above a round table of
 * radius 0.5 m, 003 Table 3.1, k_bend 1e-3 unless --param k_bend=...).
 *
 *   stab_probe [--table] [--grid N] [--h H] [--steps S] [--bend V] [--compare V2]
 *              [--param NAME=VALUE]... [--eig FROM] [--lambda FROM]
 *       Runs bend variant V (and V2 beside it, same parameters) step by step and prints per
 *       step: the largest |x_V - x_V2|, the fastest vertex, stretch/shear/bend/kinetic
 *       energies, the worst shear |C|, PSD retries and MPCG iterations. With --eig FROM, before
 *       each step from FROM on: the smallest eigenvalue of A = M - h df/dv - h^2 df/dx on the
 *       free DOFs (as the step assembles it, in units of the smallest vertex mass), also with
 *       the C d2C part of stretch, of shear and of bend left out (gauss-newton) and with
 *       stretch clamp. With --lambda FROM only the first of these (A as each run assembles it)
 *       and, at the end, its smallest value over the steps.
 *   stab_probe [--table] [--grid N] [--h H] --copies C [--jitter E] [--from K] [--steps S]
 *              [--bend V] [--param NAME=VALUE]... [--base-param NAME=VALUE]...
 *       Ensemble: K steps of a base run (with the --base-param list if one is given, else with
 *       --param), then C copies of that state with every z perturbed by up to E (default
 *       1e-6 m; xorshift, fixed seed) continue S steps with --param; prints the step at which
 *       each failing copy blew up and how many did.
 *
 * lambda_min is found by bisection on the banded Cholesky factorisation of the free-DOF
 * matrix P A P + (I - P) (P: the constraint filter of pins and contacts): A - sigma I is
 * positive definite iff the factorisation succeeds, so the result is exact to the bisection
 * tolerance (1e-3 relative; checked against LAPACK dsyev on the 17 x 17 scene, where both
 * agree to that tolerance). Bad arguments: a message and exit status 2.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mesh/mesh.h"
#include "sim/sim_internal.h"

#define MAXP 16

typedef struct opts {
    int table, grid, steps, copies, from, eig, lambda;
    double h, jitter;
    const char *bend, *compare;
    const char *param[MAXP], *base[MAXP];
    int nparam, nbase;
} opts;

static unsigned long long rng = 0x9E3779B97F4A7C15ULL;
/* uniform in [-1, 1) (xorshift) */
static double rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* a message and exit status 2 */
static void die(const char *msg, const char *what)
{
    fprintf(stderr, "stab_probe: %s%s%s\n", msg, what ? ": " : "", what ? what : "");
    exit(2);
}

/* p.NAME = VALUE for "NAME=VALUE" */
static void set_kv(cc_sim_params *p, const char *kv)
{
    char name[64], err[CC_ERRLEN];
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof name) die("--param needs NAME=VALUE", kv);
    memcpy(name, kv, (size_t)(eq - kv));
    name[eq - kv] = '\0';
    if (cc_sim_param_set(p, name, eq + 1, err) < 0) die(err, NULL);
}

/* the scene with bend variant `bend` and the --param list, or the --base-param list when
 * base is set and one was given */
static cc_sim *scene(const opts *o, const char *bend, int base)
{
    char err[CC_ERRLEN];
    cc_sim_params p;
    int n = o->grid;
    cc_mesh *m = o->table ? cc_mesh_grid(n, n, 1.6, 1.6, 0, err) : cc_mesh_grid(n, n, 1.0, 1.0, 0, err);
    if (!m) die(err, NULL);
    if (o->table) {
        for (int i = 0; i < m->nv; i++) m->x[3 * i] -= 0.8, m->x[3 * i + 1] -= 0.8, m->x[3 * i + 2] = 0.02;
        cc_sim_preset("thesis-table3.1", &p, err);
        p.k_bend = 1e-3;
    } else {
        cc_sim_preset("pritchard-table1", &p, err);
        cc_sim_param_set(&p, "precond", "block-ic0", err);
        p.cg_tol = 1e-2;
    }
    p.h = o->h;
    if (cc_sim_param_set(&p, strcmp(bend, CC_SIM_BEND_FORCE) ? "bend_variant" : "bend_condition", bend, err) < 0)
        die(err, NULL);
    int use_base = base && o->nbase > 0, np = use_base ? o->nbase : o->nparam;
    for (int k = 0; k < np; k++) set_kv(&p, use_base ? o->base[k] : o->param[k]);
    cc_sim *s = cc_sim_new(m, &p, err);
    if (!s) die(err, NULL);
    if (o->table) {
        if (cc_sim_add_table(s, 0, 0, 0, -1, 0.5, err) < 0) die(err, NULL);
    } else if (cc_sim_pin(s, n * (n - 1), NULL, err) < 0 || cc_sim_pin(s, n * n - 1, NULL, err) < 0) {
        die(err, NULL);
    }
    cc_mesh_free(m);
    return s;
}

/* ---- lambda_min of the free-DOF A by bisection on a banded Cholesky ---- */

typedef struct band {
    int n, b;      /* order, half bandwidth */
    double *a;     /* lower band: a[i (b+1) + (i - j)] = A_ij, j <= i */
    double *l;     /* the factor, same layout */
} band;

/* B = P A P + (I - P) of the matrix the step assembles at the current state, banded */
static void band_build(cc_sim *s, band *B)
{
    int n3 = 3 * s->nv, md = 0;
    double h = s->p.h, *dx = malloc((size_t)n3 * sizeof *dx), *f = malloc((size_t)n3 * sizeof *f);
    double *j = malloc((size_t)n3 * sizeof *j), *P = malloc((size_t)9 * s->nv * sizeof *P);
    for (int k = 0; k < n3; k++) dx[k] = h * s->v[k];
    if (cc_sim_assemble(s, s->x, s->v, 1, 1.0, -h * h, -h, dx, f, j) < 0) die("assembly failed", s->err);
    const cc_bsr *A = s->A;
    for (int i = 0; i < A->n; i++)
        for (int q = A->rowptr[i]; q < A->rowptr[i + 1]; q++) md = abs(i - A->col[q]) > md ? abs(i - A->col[q]) : md;
    B->n = n3;
    B->b = 3 * md + 2;
    free(B->a);
    free(B->l);
    B->a = calloc((size_t)n3 * (B->b + 1), sizeof *B->a);
    B->l = malloc((size_t)n3 * (B->b + 1) * sizeof *B->l);
    if (!B->a || !B->l || !P) die("out of memory", NULL);
    for (int i = 0; i < s->nv; i++) {   /* P_i: 0 pinned, I - n n^T in contact, else I */
        double *p = P + 9 * i;
        for (int a = 0; a < 9; a++) p[a] = a % 4 == 0;
        if (s->con[i] == CON_PIN) memset(p, 0, 9 * sizeof *p);
        else if (s->con[i] == CON_FREE && s->nobs && s->contact[i])
            for (int a = 0; a < 3; a++)
                for (int c = 0; c < 3; c++) p[3 * a + c] -= s->cnormal[3 * i + a] * s->cnormal[3 * i + c];
    }
    for (int i = 0; i < A->n; i++)
        for (int q = A->rowptr[i]; q < A->rowptr[i + 1]; q++) {
            int c = A->col[q];
            if (c > i) continue;
            const double *blk = A->val + 9 * q, *Pi = P + 9 * i, *Pc = P + 9 * c;
            double T[9], R[9];
            for (int a = 0; a < 3; a++)
                for (int d = 0; d < 3; d++) {
                    T[3 * a + d] = 0;
                    for (int e = 0; e < 3; e++) T[3 * a + d] += Pi[3 * a + e] * blk[3 * e + d];
                }
            for (int a = 0; a < 3; a++)
                for (int d = 0; d < 3; d++) {
                    R[3 * a + d] = 0;
                    for (int e = 0; e < 3; e++) R[3 * a + d] += T[3 * a + e] * Pc[3 * e + d];
                    if (i == c) R[3 * a + d] += (a == d) - Pi[3 * a + d];
                }
            for (int a = 0; a < 3; a++)
                for (int d = 0; d < 3; d++) {
                    int r = 3 * i + a, cc = 3 * c + d;
                    if (cc <= r) B->a[(size_t)r * (B->b + 1) + (r - cc)] = R[3 * a + d];
                }
        }
    free(dx);
    free(f);
    free(j);
    free(P);
}

/* 1 if B - sigma I is positive definite (banded Cholesky) */
static int band_pd(band *B, double sigma)
{
    int w = B->b + 1;
    for (int i = 0; i < B->n; i++) {
        int j0 = i - B->b < 0 ? 0 : i - B->b;
        for (int j = j0; j <= i; j++) {
            double sum = B->a[(size_t)i * w + (i - j)] - (i == j ? sigma : 0.0);
            int k0 = j - B->b > j0 ? j - B->b : j0;
            const double *Li = B->l + (size_t)i * w, *Lj = B->l + (size_t)j * w;
            for (int k = k0; k < j; k++) sum -= Li[i - k] * Lj[j - k];
            if (i == j) {
                if (!(sum > 0)) return 0;
                B->l[(size_t)i * w] = sqrt(sum);
            } else {
                B->l[(size_t)i * w + (i - j)] = sum / Lj[0];
            }
        }
    }
    return 1;
}

/* smallest eigenvalue of the free-DOF A at the current state, relative tolerance 1e-3 */
static double lambda_min(cc_sim *s, band *B)
{
    band_build(s, B);
    int w = B->b + 1;
    double lo = INFINITY, hi = INFINITY;
    for (int i = 0; i < B->n; i++) {   /* Gershgorin below, the smallest diagonal above */
        double d = B->a[(size_t)i * w], r = 0;
        for (int j = i - B->b < 0 ? 0 : i - B->b; j < i; j++) r += fabs(B->a[(size_t)i * w + (i - j)]);
        for (int j = i + 1; j <= i + B->b && j < B->n; j++) r += fabs(B->a[(size_t)j * w + (j - i)]);
        lo = fmin(lo, d - r);
        hi = fmin(hi, d);
    }
    if (band_pd(B, hi)) return hi;
    for (int it = 0; it < 200 && hi - lo > 1e-3 * fmax(fabs(lo), fabs(hi)) + 1e-300; it++) {
        double mid = 0.5 * (lo + hi);
        if (band_pd(B, mid)) lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* lambda_min / m_min as the sim stands, and with one term's hessian mode changed */
static void eig_line(cc_sim *s, const char *label, band *B)
{
    double mmin = INFINITY;
    for (int i = 0; i < s->nv; i++) mmin = fmin(mmin, s->m[i]);
    cc_sim_params keep = s->p;
    double full = lambda_min(s, B) / mmin;
    s->p.stretch_hessian = CC_HESSIAN_GAUSS_NEWTON;
    double nst = lambda_min(s, B) / mmin;
    s->p = keep;
    s->p.shear_hessian = CC_HESSIAN_GAUSS_NEWTON;
    double nsh = lambda_min(s, B) / mmin;
    s->p = keep;
    s->p.bend_hessian = CC_HESSIAN_GAUSS_NEWTON;
    double nbe = s->term[s->nterm - 1].kind == TERM_BEND_FORCE ? NAN : lambda_min(s, B) / mmin;
    s->p = keep;
    s->p.stretch_hessian = CC_HESSIAN_CLAMP;
    double cl = lambda_min(s, B) / mmin;
    s->p = keep;
    printf("   %-16s lambda_min(A)/m_min %9.3g | no stretch C d2C %9.3g | no shear C d2C %9.3g | no bend C d2C %9.3g | "
           "stretch clamp %9.3g\n", label, full, nst, nsh, nbe, cl);
}

/* fastest vertex speed */
static double vmax(const cc_sim *s)
{
    double w = 0;
    for (int i = 0; i < s->nv; i++) {
        const double *v = s->v + 3 * i;
        w = fmax(w, sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
    }
    return w;
}

/* largest |C| over the shear elements at the last evaluation */
static double worst_shear(const cc_sim *s)
{
    double w = 0;
    for (int t = 0; t < s->nterm; t++)
        if (s->term[t].kind == TERM_SHEAR)
            for (int e = 0; e < s->term[t].nel; e++) w = fmax(w, fabs(s->term[t].C[e]));
    return w;
}

/* one line of state for sim s */
static void state_cols(cc_sim *s)
{
    cc_sim_energy e;
    cc_sim_energies(s, &e);
    printf(" | %8.3g %9.3g %9.3g %9.3g %9.3g %9.3g %3ld %3d", vmax(s), e.stretch, e.shear, e.bend, e.kinetic, worst_shear(s),
           s->st.psd_retries, s->st.last_cg_iterations);
}

/* the side-by-side trace */
static void trace(const opts *o)
{
    cc_sim *a = scene(o, o->bend, 1), *b = o->compare ? scene(o, o->compare, 1) : NULL;
    band B = {0, 0, NULL, NULL};
    double low[2] = {INFINITY, INFINITY};
    printf("step  max|dx| | per run: vmax (m/s), E_stretch, E_shear, E_bend, E_kinetic (J), worst shear |C|, PSD retries, "
           "MPCG it\n");
    for (int k = 1; k <= o->steps; k++) {
        if (o->eig && k >= o->eig) {
            printf("before step %d:\n", k);
            eig_line(a, o->bend, &B);
            if (b) eig_line(b, o->compare, &B);
        }
        if (o->lambda && k >= o->lambda) {
            cc_sim *r[2] = {a, b};
            printf("before step %d: lambda_min(A)/m_min", k);
            for (int q = 0; q < 2 && r[q]; q++) {
                double mmin = INFINITY;
                for (int i = 0; i < r[q]->nv; i++) mmin = fmin(mmin, r[q]->m[i]);
                double l = lambda_min(r[q], &B) / mmin;
                low[q] = fmin(low[q], l);
                printf("  %s %.3g", q ? o->compare : o->bend, l);
            }
            printf("\n");
        }
        int ra = cc_sim_step(a), rb = b ? cc_sim_step(b) : 0;
        double dx = 0;
        for (int i = 0; b && i < 3 * a->nv; i++) dx = fmax(dx, fabs(a->x[i] - b->x[i]));
        printf("%4d %9.3e", k, dx);
        state_cols(a);
        if (b) state_cols(b);
        printf("\n");
        if (ra < 0) printf("%s: %s\n", o->bend, cc_sim_error(a));
        if (rb < 0) printf("%s: %s\n", o->compare, cc_sim_error(b));
        if (ra < 0 || rb < 0) break;
    }
    if (o->lambda) {
        printf("smallest lambda_min(A)/m_min over the steps: %s %.3g", o->bend, low[0]);
        if (b) printf(", %s %.3g", o->compare, low[1]);
        printf("\n");
    }
    cc_sim_free(a);
    if (b) cc_sim_free(b);
    free(B.a);
    free(B.l);
}

/* the ensemble of perturbed copies */
static void ensemble(const opts *o)
{
    cc_sim *base = scene(o, o->bend, 1);
    for (int k = 0; k < o->from; k++)
        if (cc_sim_step(base) < 0) die("the base run failed", cc_sim_error(base));
    int n3 = 3 * base->nv, failed = 0;
    long retries = 0;
    double *x = malloc((size_t)n3 * sizeof *x);
    printf("blew up at step:");
    for (int c = 0; c < o->copies; c++) {
        cc_sim *s = scene(o, o->bend, 0);
        memcpy(x, base->x, (size_t)n3 * sizeof *x);
        for (int i = 2; i < n3; i += 3) x[i] += o->jitter * rnd();
        cc_sim_set_state(s, x, base->v);
        memcpy(s->contact, base->contact, (size_t)s->nv * sizeof *s->contact);
        memcpy(s->cnormal, base->cnormal, (size_t)n3 * sizeof *s->cnormal);
        int k = 0;
        while (k < o->steps && cc_sim_step(s) == 0) k++;
        if (k < o->steps) printf(" %d", o->from + k + 1), failed++;
        retries += s->st.psd_retries;
        cc_sim_free(s);
    }
    printf("\n%d of %d copies blew up in steps %d..%d (%ld PSD retries in all)\n", failed, o->copies, o->from + 1,
           o->from + o->steps, retries);
    free(x);
    cc_sim_free(base);
}

/* a number option or exit 2 */
static double num(const char *name, const char *v, double lo, double hi)
{
    char *end;
    double d = v ? strtod(v, &end) : NAN;
    if (!v || *end || !(d >= lo && d <= hi)) die("bad or missing value for", name);
    return d;
}

int main(int argc, char **argv)
{
    opts o = {0, 33, 100, 0, 0, 0, 0, 0.02, 1e-6, "pritchard", NULL, {NULL}, {NULL}, 0, 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--table")) {
            o.table = 1;
            continue;
        }
        if (!v) die("missing value for", a);
        i++;
        if (!strcmp(a, "--grid")) o.grid = (int)num(a, v, 3, 500);
        else if (!strcmp(a, "--h")) o.h = num(a, v, 1e-9, 1);
        else if (!strcmp(a, "--steps")) o.steps = (int)num(a, v, 1, 1e6);
        else if (!strcmp(a, "--eig")) o.eig = (int)num(a, v, 1, 1e6);
        else if (!strcmp(a, "--lambda")) o.lambda = (int)num(a, v, 1, 1e6);
        else if (!strcmp(a, "--copies")) o.copies = (int)num(a, v, 1, 1e6);
        else if (!strcmp(a, "--from")) o.from = (int)num(a, v, 0, 1e6);
        else if (!strcmp(a, "--jitter")) o.jitter = num(a, v, 0, 1);
        else if (!strcmp(a, "--bend")) o.bend = v;
        else if (!strcmp(a, "--compare")) o.compare = v;
        else if (!strcmp(a, "--param") && o.nparam < MAXP) o.param[o.nparam++] = v;
        else if (!strcmp(a, "--base-param") && o.nbase < MAXP) o.base[o.nbase++] = v;
        else die("unknown option (see the comment at the top of tools/stab_probe.c)", a);
    }
    if (o.copies) ensemble(&o);
    else trace(&o);
    return 0;
}
