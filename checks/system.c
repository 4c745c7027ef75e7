/* Checks of a whole simulator's assembled forces and matrices (see system.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "checks/sample.h"
#include "checks/system.h"

#define TOL_FORCE 1e-6   /* f against central4 differences of E (step 1e-3 of an edge) */
#define TOL_JAC   1e-5   /* df/dx, df/dv against central4 differences of f */
#define TOL_EXACT 1e-9   /* identities that hold in exact arithmetic: symmetry, sums, mass, b */
#define STEP      1e-3   /* difference step, as a share of the mean edge length */

#define TOL_CLAIM 1e-8   /* against the claimed terms: the same formulas summed in another order */

/* A target whose numbers carry fewer digits (precision p above PREC_LIMITED: floats, or a few
 * digits printed) is judged to them: differences of its answers at a step of p^(1/5) of an edge
 * (round-off p/step and truncation step^4 balanced), against 1.7e4 p; its identities and the
 * claim against 170 p (1e-3 and 1e-5 at a float's 2^-24, as the element audit) */
#define PREC_LIMITED 1e-12
#define TOL_LIMITED_FD 1.7e4
#define TOL_LIMITED 170.0

/* Each check: its name, what of the program it needs, and its tolerance. */
static const struct {
    const char *name;
    int needs;
    double tol;
} kinds[CC_SYS_CHECKS] = {
    [CC_SYS_C_FINITE] = {"finite", 0, 0},
    [CC_SYS_C_FORCE] = {"force = -grad E", CC_SYS_ENERGY | CC_SYS_FORCE, TOL_FORCE},
    [CC_SYS_C_DFDX] = {"df/dx", CC_SYS_FORCE | CC_SYS_DFDX, TOL_JAC},
    [CC_SYS_C_DFDX_MOVING] = {"df/dx moving", CC_SYS_FORCE | CC_SYS_DFDX, TOL_JAC},
    [CC_SYS_C_DFDV] = {"df/dv", CC_SYS_FORCE | CC_SYS_DFDV, TOL_JAC},
    [CC_SYS_C_SYM] = {"symmetry", CC_SYS_DFDX, TOL_EXACT},
    [CC_SYS_C_NETF] = {"net force", CC_SYS_FORCE | CC_SYS_EXTERNAL, TOL_EXACT},
    [CC_SYS_C_TORQUE] = {"net torque", CC_SYS_FORCE | CC_SYS_EXTERNAL, TOL_EXACT},
    [CC_SYS_C_TRANS] = {"translation", CC_SYS_DFDX, 1e3 * TOL_EXACT},
    [CC_SYS_C_ROT] = {"rotation", CC_SYS_DFDX | CC_SYS_FORCE | CC_SYS_EXTERNAL, 1e3 * TOL_EXACT},
    [CC_SYS_C_MASS] = {"mass", CC_SYS_SYSTEM | CC_SYS_DFDX | CC_SYS_DFDV, 1e3 * TOL_EXACT},
    [CC_SYS_C_B] = {"b", CC_SYS_SYSTEM | CC_SYS_FORCE | CC_SYS_DFDX, 1e3 * TOL_EXACT},
    [CC_SYS_C_CLAIM_E] = {"claim: energy", CC_SYS_ENERGY, TOL_CLAIM},
    [CC_SYS_C_CLAIM_F] = {"claim: force", CC_SYS_FORCE, TOL_CLAIM},
    [CC_SYS_C_CLAIM_DFDX] = {"claim: df/dx", CC_SYS_DFDX, TOL_JAC},
    [CC_SYS_C_CLAIM_DFDV] = {"claim: df/dv", CC_SYS_DFDV, TOL_JAC},
};

int cc_sys_eval_init(cc_sys_eval *e, int n)
{
    memset(e, 0, sizeof *e);
    e->f = calloc((size_t)n, sizeof *e->f);
    e->ext = calloc((size_t)n, sizeof *e->ext);
    e->b = calloc((size_t)n, sizeof *e->b);
    return e->f && e->ext && e->b ? 0 : -1;
}

void cc_sys_eval_clear(cc_sys_eval *e)
{
    cc_csr_free(&e->dfdx), cc_csr_free(&e->dfdv), cc_csr_free(&e->A);
    e->have = 0;
}

void cc_sys_eval_free(cc_sys_eval *e)
{
    cc_sys_eval_clear(e);
    free(e->f), free(e->ext), free(e->b);
    memset(e, 0, sizeof *e);
}

cc_sys_opts cc_sys_defaults(void) { return (cc_sys_opts){.seed = 1, .h = 0.01, .directions = 3, .localize = 4}; }

/* One run of the checks. */
typedef struct run {
    const cc_sys_target *t;
    const cc_sys_opts *o;
    cc_sys_report *r;
    int nv, n;            /* vertices, 3 nv */
    double L;             /* mean rest edge length */
    double eps;           /* difference step */
    cc_rng g;
    cc_sys_eval e, p;     /* the state's answer, and one for the differences */
    double *w[6];         /* scratch vectors of n */
    double *xs, *vs;      /* a state rounded to floats (claim_state) */
    double *tf[CC_SYS_MAX_TERMS];   /* each claimed term's force (or its differences) at the state */
    const char *state;    /* the state being checked, for findings */
    char *err;
    int failed;           /* the target misbehaved */
    int tainted;          /* the program gave a number that is not finite at this state (or around it) */
    char mass_pending[480];   /* the mass check's finding where df/dv and df/dx could not be told apart */
    double tol[CC_SYS_CHECKS];   /* each check's tolerance at the target's precision */
    double round;         /* the relative rounding of the target's answers, for the floors of differences */
    int single;           /* the target computes in floats: the claim is taken at float positions */
    int have_precision;   /* its precision was asked */
    int bends;            /* -1 not known yet, else 1 if its df/dx couples a hinge's wings (it has bending) */
    int nenergy;          /* states of the energy claim so far */
    double E_prog[8], E_claim[8];   /* their energies, the program's and the claim's */
    const char *E_state[8];
} run;

static void find(const run *R, cc_sys_check *c, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* the first entry of v[0..n) that is not finite, or -1 */
static int first_nonfinite(const double *v, int n)
{
    for (int i = 0; v && i < n; i++)
        if (!isfinite(v[i])) return i;
    return -1;
}

/* "NaN" or "infinite" */
static const char *nonfinite_name(double v) { return isnan(v) ? "NaN" : "infinite"; }

/* a finding if the vector `name` of out is not finite; 1 if so */
static int vector_finite(const run *R, const char *name, const double *v, const char *where)
{
    int i = first_nonfinite(v, R->n);
    if (i < 0) return 0;
    find(R, &R->r->c[CC_SYS_C_FINITE], "%s%s entry %d (vertex %d, axis %c) is %s", where, name, i + R->o->base,
         i / 3 + R->o->base, "xyz"[i % 3], nonfinite_name(v[i]));
    return 1;
}

/* a finding if the matrix `name` is not finite; 1 if so */
static int matrix_finite(const run *R, const char *name, const cc_csr *M, const char *where)
{
    for (int i = 0; i < M->n; i++)
        for (int k = M->rowp[i]; k < M->rowp[i + 1]; k++)
            if (!isfinite(M->val[k])) {
                int j = M->col[k];
                find(R, &R->r->c[CC_SYS_C_FINITE], "%s%s entry (%d, %d) (row vertex %d %c, column vertex %d %c) is %s",
                     where, name, i + R->o->base, j + R->o->base, i / 3 + R->o->base, "xyz"[i % 3], j / 3 + R->o->base,
                     "xyz"[j % 3],
                     nonfinite_name(M->val[k]));
                return 1;
            }
    return 0;
}

/* the program's answer out (the state's own, or one of the differences around it when around):
 * every part it holds finite, else a finding (the first such part) and the state tainted */
static void scan_finite(run *R, const cc_sys_eval *out, int around)
{
    cc_sys_check *c = &R->r->c[CC_SYS_C_FINITE];
    const char *where = around ? "around the state, where the differences go: " : "";
    int bad = 0;
    c->tests++;
    if (R->tainted) return;   /* one finding a state */
    if ((out->have & CC_SYS_ENERGY) && !isfinite(out->E)) {
        find(R, c, "%sthe energy is %s", where, nonfinite_name(out->E));
        bad = 1;
    }
    if (!bad && (out->have & CC_SYS_FORCE)) bad = vector_finite(R, "the force", out->f, where);
    if (!bad && (out->have & CC_SYS_EXTERNAL)) bad = vector_finite(R, "the external force", out->ext, where);
    if (!bad && (out->have & CC_SYS_DFDX)) bad = matrix_finite(R, "df/dx", &out->dfdx, where);
    if (!bad && (out->have & CC_SYS_DFDV)) bad = matrix_finite(R, "df/dv", &out->dfdv, where);
    if (!bad && (out->have & CC_SYS_SYSTEM)) bad = matrix_finite(R, "A", &out->A, where) || vector_finite(R, "b", out->b, where);
    if (bad) R->tainted = 1, c->max_rel = INFINITY;
}

/* fold relative difference rel into check c, unless the state is tainted (the finite check says
 * where); a difference that is not a number counts as the largest */
static void note(const run *R, cc_sys_check *c, double rel)
{
    if (R->tainted) return;
    if (isnan(rel)) c->max_rel = INFINITY;
    else if (rel > c->max_rel) c->max_rel = rel;
}

/* 1 if check c compares with differences of the target's answers */
static int differenced_check(int c)
{
    return c == CC_SYS_C_FORCE || c == CC_SYS_C_DFDX || c == CC_SYS_C_DFDX_MOVING || c == CC_SYS_C_DFDV ||
           c == CC_SYS_C_CLAIM_DFDX || c == CC_SYS_C_CLAIM_DFDV;
}

/* the tolerances, the floors' rounding and the difference step at precision p */
static void set_precision(run *R, double p)
{
    R->r->precision = p;
    R->round = fmax(1e-8, 10 * p);
    R->single = p >= 0x1p-24;
    for (int c = 0; c < CC_SYS_CHECKS; c++)
        R->tol[c] = p > PREC_LIMITED ? fmax(kinds[c].tol, (differenced_check(c) ? TOL_LIMITED_FD : TOL_LIMITED) * p)
                                     : kinds[c].tol;
    R->eps = (p > PREC_LIMITED ? fmax(STEP, pow(p, 0.2)) : STEP) * R->L;
}

/* target t at (x, v) with bits want into out; 0 or -1 (R->failed set). The program's answers
 * are scanned for numbers that are not finite (R->e is the state's own answer); after its first,
 * its precision is asked. */
static int ask_of(run *R, const cc_sys_target *t, const double *x, const double *v, int want, cc_sys_eval *out)
{
    cc_sys_eval_clear(out);
    if (t == R->t) R->r->evaluations++;
    if (t->eval(t->ctx, x, v, R->o->h, want, out, R->err) < 0) return R->failed = 1, -1;
    if (t == R->t) scan_finite(R, out, out != &R->e);
    if (t == R->t && !R->have_precision) {
        R->have_precision = 1;
        set_precision(R, t->precision ? t->precision(t->ctx) : 0);
    }
    return 0;
}

/* the program at (x, v) */
static int ask(run *R, const double *x, const double *v, int want, cc_sys_eval *out)
{
    return ask_of(R, R->t, x, v, want, out);
}

/* ---- directional differences ---- */

/* E along d at x (zero velocity): central4 into out; into floor unless NULL, the scale below
 * which a difference from it means nothing: its rounding (1e-8 of the largest |E| over the step,
 * per step) and ten times its truncation over the tolerance -- the truncation goes as step^4, so
 * central4 with twice the step lies 15 truncations away. Where the force vanishes (at rest,
 * without gravity) f = 0 and the difference is all truncation; 0 or -1 */
static int energy_along(run *R, const double *x, const double *d, double *out, double *floor)
{
    static const double at[6] = {2, 1, -1, -2, 4, -4};
    double *y = R->w[5], *zero = R->w[4], emax = 0, E[6];
    memset(zero, 0, sizeof(double) * (size_t)R->n);
    for (int k = 0; k < (floor ? 6 : 4); k++) {
        for (int i = 0; i < R->n; i++) y[i] = x[i] + at[k] * R->eps * d[i];
        if (ask(R, y, zero, CC_SYS_ENERGY, &R->p) < 0) return -1;
        E[k] = R->p.E;
        emax = fmax(emax, fabs(E[k]));
    }
    *out = (-E[0] + 8 * E[1] - 8 * E[2] + E[3]) / (12 * R->eps);
    if (floor) {
        double twice = (-E[4] + 8 * E[0] - 8 * E[3] + E[5]) / (24 * R->eps);
        *floor = R->round * emax / R->eps + 10 * fabs(twice - *out) / 15 / R->tol[CC_SYS_C_FORCE];
    }
    return 0;
}

/* the step of the differences of f along x (of_v 0) or v (of_v 1): a velocity change of the
 * position step's size */
static double force_step(const run *R, int of_v) { return of_v ? R->eps / R->o->h : R->eps; }

/* sum over k < nk of wt[k] f(t at (x, v) moved by at[k] steps along d) / div into out; 0 or -1 */
static int force_sum(run *R, const cc_sys_target *t, const double *x, const double *v, const double *d, int of_v,
                     const double *at, const double *wt, int nk, double div, double *out)
{
    double *y = R->w[5], *u = R->w[4], step = force_step(R, of_v);
    memset(out, 0, sizeof(double) * (size_t)R->n);
    for (int k = 0; k < nk; k++) {
        for (int i = 0; i < R->n; i++) y[i] = x[i], u[i] = v[i];
        for (int i = 0; i < R->n; i++) (of_v ? u : y)[i] += at[k] * step * d[i];
        if (ask_of(R, t, y, u, CC_SYS_FORCE, &R->p) < 0) return -1;
        for (int i = 0; i < R->n; i++) out[i] += wt[k] * R->p.f[i] / div;
    }
    return 0;
}

/* f of target t along d at (x, v): of x (of_v 0) or of v (of_v 1); central4 into out; 0 or -1 */
static int force_along_of(run *R, const cc_sys_target *t, const double *x, const double *v, const double *d, int of_v,
                          double *out)
{
    static const double at[4] = {2, 1, -1, -2}, wt[4] = {-1, 8, -8, 1};
    return force_sum(R, t, x, v, d, of_v, at, wt, 4, 12 * force_step(R, of_v), out);
}

/* the program's f along d */
static int force_along(run *R, const double *x, const double *v, const double *d, int of_v, double *out)
{
    return force_along_of(R, R->t, x, v, d, of_v, out);
}

/* d = random entries in [-1, 1] on the vertices vs[0..k) (all vertices when vs is NULL), 0
 * elsewhere */
static void direction(run *R, const int *vs, int k, double *d)
{
    memset(d, 0, sizeof(double) * (size_t)R->n);
    for (int m = 0; m < (vs ? k : R->nv); m++) {
        int a = vs ? vs[m] : m;
        for (int s = 0; s < 3; s++) d[3 * a + s] = cc_rng_range(&R->g, -1, 1);
    }
}

static double norm_inf(const double *v, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(v[i]));
    return m;
}

/* ---- findings ---- */


/* add one finding line to c, naming the state */
static void find(const run *R, cc_sys_check *c, const char *fmt, ...)
{
    if (c->nfind >= CC_SYS_FINDINGS) return;
    char *line = c->find[c->nfind++];
    int at = snprintf(line, sizeof c->find[0], "[%s] ", R->state);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + at, sizeof c->find[0] - (size_t)at, fmt, ap);
    va_end(ap);
}

/* the elements holding vertex a (and c, if c >= 0) into buf: triangles and hinges, numbered
 * from R's base */
static void elements_of(const run *R, int a, int c, char *buf, int len)
{
    const cc_mesh *m = R->t->mesh;
    int o = R->o->base;
    int at = snprintf(buf, (size_t)len, "%s", c >= 0 && c != a ? "elements holding both: " : "elements around it: ");
    int cnt = 0;
    for (int t = 0; t < m->nt && cnt < 6 && at < len; t++) {
        const int *v = m->tri + 3 * t;
        int ha = v[0] == a || v[1] == a || v[2] == a, hc = c < 0 || v[0] == c || v[1] == c || v[2] == c;
        if (ha && hc)
            at += snprintf(buf + at, (size_t)(len - at), "%striangle %d (%d %d %d)", cnt++ ? ", " : "", t + o, v[0] + o,
                           v[1] + o, v[2] + o);
    }
    for (int h = 0; h < m->nh && cnt < 9 && at < len && R->bends != 0; h++) {   /* hinges where it bends */
        const int *v = m->hinge + 4 * h;
        int ha = 0, hc = c < 0;
        for (int q = 0; q < 4; q++) ha |= v[q] == a, hc |= v[q] == c;
        if (ha && hc && (c >= 0 && c != a))
            at += snprintf(buf + at, (size_t)(len - at), "%shinge %d (%d %d %d %d)", cnt++ ? ", " : "", h + o, v[0] + o,
                           v[1] + o, v[2] + o, v[3] + o);
    }
    if (!cnt && at < len) snprintf(buf + at, (size_t)(len - at), "none (no element holds both: a block there couples unrelated vertices)");
}

/* the vertices of rows where |r| > cut, into out (at most cap); their count */
static int vertices_over(const double *r, int nv, double cut, int *out, int cap)
{
    int k = 0;
    for (int a = 0; a < nv && k < cap; a++)
        if (fabs(r[3 * a]) > cut || fabs(r[3 * a + 1]) > cut || fabs(r[3 * a + 2]) > cut) out[k++] = a;
    return k;
}

/* ---- narrowing down: the vertices a difference lives on ---- */

/* the relative difference a check sees along a direction moving the vertices vs[0..k) only;
 * negative when the target failed */
typedef double (*subset_err)(run *R, void *ctx, const int *vs, int k);

/* the vertices among vs[0..k) whose moving alone shows a difference above tol, halving the set
 * (at most cap into found); the number found */
static int bisect(run *R, subset_err fn, void *ctx, const int *vs, int k, double tol, int *found, int nfound, int cap)
{
    if (nfound >= cap || R->failed) return nfound;
    double e = fn(R, ctx, vs, k);
    if (e < 0 || !(e > tol)) return nfound;
    if (k == 1) {
        found[nfound++] = vs[0];
        return nfound;
    }
    nfound = bisect(R, fn, ctx, vs, k / 2, tol, found, nfound, cap);
    return bisect(R, fn, ctx, vs + k / 2, k - k / 2, tol, found, nfound, cap);
}

/* every vertex, 0..nv-1, into a new array */
static int *all_vertices(int nv)
{
    int *v = malloc(sizeof *v * (size_t)nv);
    for (int a = 0; v && a < nv; a++) v[a] = a;
    return v;
}

/* ---- the force against the energy ---- */

typedef struct force_ctx {
    const double *x, *f;
} force_ctx;

/* |dE/dd + f.d| / (|f| |d|) along a direction on vs */
static double force_err(run *R, void *ctx, const int *vs, int k)
{
    force_ctx *c = ctx;
    double *d = R->w[0], g, floor, fd = 0, ff = 0, dd = 0;
    direction(R, vs, k, d);
    if (energy_along(R, c->x, d, &g, NULL) < 0) return -1;
    for (int i = 0; i < R->n; i++) fd += c->f[i] * d[i], ff += c->f[i] * c->f[i], dd += d[i] * d[i];
    double scale = sqrt(ff * dd) + fabs(g);
    if (!(scale > 0) || fabs(g + fd) <= R->tol[CC_SYS_C_FORCE] * scale) return scale > 0 ? fabs(g + fd) / scale : 0.0;
    /* a difference: is it more than the differences can tell? At rest without gravity f = 0 and g
     * is their truncation; the floor keeps that from counting */
    if (energy_along(R, c->x, d, &g, &floor) < 0) return -1;
    scale = sqrt(ff * dd) + fabs(g) + floor;
    return fabs(g + fd) / scale;
}

/* what vertex a's force is, against -grad E there */
static void force_kind(run *R, const force_ctx *c, int a, cc_sys_check *chk)
{
    double g[3], *d = R->w[1], P[3] = {c->f[3 * a], c->f[3 * a + 1], c->f[3 * a + 2]};
    for (int s = 0; s < 3; s++) {
        memset(d, 0, sizeof(double) * (size_t)R->n);
        d[3 * a + s] = 1;
        if (energy_along(R, c->x, d, &g[s], NULL) < 0) return;
        g[s] = -g[s];   /* the force the energy implies */
    }
    double gg = g[0] * g[0] + g[1] * g[1] + g[2] * g[2], pg = P[0] * g[0] + P[1] * g[1] + P[2] * g[2];
    double pp = P[0] * P[0] + P[1] * P[1] + P[2] * P[2], ratio = gg > 0 ? pg / gg : 0, fit = 0;
    for (int s = 0; s < 3; s++) fit = fmax(fit, fabs(P[s] - ratio * g[s]));
    char buf[120];
    snprintf(buf, sizeof buf, "it differs by (%.3g, %.3g, %.3g)", P[0] - g[0], P[1] - g[1], P[2] - g[2]);
    const char *kind = buf;
    if (gg > 0 && fit <= 1e-4 * sqrt(fmax(pp, gg))) {
        if (fabs(ratio + 1) < 1e-3) kind = "the negative of -grad E: a sign";
        else if (fabs(ratio - 2) < 1e-3) kind = "twice -grad E: a term summed twice";
        else if (fabs(ratio) < 1e-3) kind = "zero where -grad E is not: a term missing";
        else if (fabs(ratio - 1) > 1e-3) snprintf(buf, sizeof buf, "%.4g times -grad E", ratio), kind = buf;
    }
    char el[200];
    elements_of(R, a, -1, el, sizeof el);
    find(R, chk, "vertex %d: f = (%.4g, %.4g, %.4g), -grad E = (%.4g, %.4g, %.4g): %s; %s", a + R->o->base, P[0], P[1], P[2], g[0], g[1],
         g[2], kind, el);
}

static void check_force(run *R, const double *x, const cc_sys_eval *e)
{
    cc_sys_check *chk = &R->r->c[CC_SYS_C_FORCE];
    force_ctx c = {x, e->f};
    double worst = 0;
    for (int k = 0; k < R->o->directions && !R->failed; k++) {
        double err = force_err(R, &c, NULL, R->nv);
        chk->tests++;
        worst = fmax(worst, err);
    }
    note(R, chk, worst);
    if (!(worst > R->tol[CC_SYS_C_FORCE]) || chk->nfind || R->failed || R->tainted) return;
    int *vs = all_vertices(R->nv), found[16];
    int nf = vs ? bisect(R, force_err, &c, vs, R->nv, R->tol[CC_SYS_C_FORCE], found, 0, R->o->localize) : 0;
    for (int i = 0; i < nf && !R->failed; i++) force_kind(R, &c, found[i], chk);
    free(vs);
}

/* ---- the Jacobians against differences of the force ---- */

typedef struct jac_ctx {
    const double *x, *v;
    const cc_csr *J;
    int of_v;
} jac_ctx;

/* |J d - differences of f along d|_inf / scale along a direction on vs */
static double jac_err(run *R, void *ctx, const int *vs, int k)
{
    jac_ctx *c = ctx;
    static const double at[4] = {1, -1, 2, -2}, wt[4] = {8, -8, -1, 1}, far[2] = {4, -4}, one[2] = {1, -1};
    double *d = R->w[0], *Jd = R->w[1], *fd = R->w[2], *f2 = R->w[3];
    direction(R, vs, k, d);
    cc_csr_mul(c->J, d, Jd);
    /* central4 from f at +-1 and +-2 steps, with f(+2) - f(-2) kept for the truncation below */
    double s = force_step(R, c->of_v);
    if (force_sum(R, R->t, c->x, c->v, d, c->of_v, at, wt, 2, 12 * s, fd) < 0 ||
        force_sum(R, R->t, c->x, c->v, d, c->of_v, at + 2, one, 2, 1, f2) < 0)
        return -1;
    for (int i = 0; i < R->n; i++) fd[i] -= f2[i] / (12 * s);
    /* differences of f carry its rounding, eps |f| / step: a floor under the scale */
    double floor = R->round * norm_inf(R->e.f, R->n) / s;
    double worst = 0, scale = fmax(fmax(norm_inf(Jd, R->n), norm_inf(fd, R->n)), floor);
    for (int i = 0; i < R->n; i++) worst = fmax(worst, fabs(Jd[i] - fd[i]));
    if (!(worst > R->tol[CC_SYS_C_DFDX] * scale) || !(scale > 0)) return scale > 0 ? worst / scale : 0.0;
    /* and their truncation, which goes as step^4: central4 at twice the step (f at +-2 and +-4
     * steps) lies 15 of them away; a difference within ten of it means nothing (a curved mesh at
     * a float's long step) */
    double *f4 = Jd, trunc = 0;   /* (J d is done with) */
    if (force_sum(R, R->t, c->x, c->v, d, c->of_v, far, one, 2, 1, f4) < 0) return -1;
    for (int i = 0; i < R->n; i++) trunc = fmax(trunc, fabs((8 * f2[i] - f4[i]) / (24 * s) - fd[i]) / 15);
    scale = fmax(scale, 10 * trunc / R->tol[CC_SYS_C_DFDX]);
    return worst / scale;
}

/* normwise relative difference of two 3x3 blocks, scaled by s */
static double block_diff(double P[3][3], double Q[3][3], double s)
{
    double m = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) m = fmax(m, fabs(P[i][j] - Q[i][j]));
    return s > 0 ? m / s : m;
}

static double block_max(double P[3][3])
{
    double m = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) m = fmax(m, fabs(P[i][j]));
    return m;
}

/* the row vertex b != a whose block (b, c) differs from the right one by S (a surplus there
 * that is the deficit here, or the other way), or -1 */
static int block_moved(run *R, const double *Fc, const double *Pc, int a, double S[3][3], double sc)
{
    double tol = 1e-4;
    for (int b = 0; b < R->nv; b++) {
        if (b == a) continue;
        double D[3][3];
        for (int s = 0; s < 3; s++)
            for (int t = 0; t < 3; t++) D[s][t] = Fc[(3 * b + s) * 3 + t] - Pc[(3 * b + s) * 3 + t];
        if (block_max(D) > tol * sc && block_diff(S, D, sc) < tol) return b;
    }
    return -1;
}

/* what block (a, c) of the program's J is against the true one F (columns of vertex c held
 * for every row in Fc, n x 3 row-major; the program's in Pc), into what */
static void block_kind(run *R, const double *Fc, const double *Pc, int a, int c, const double *rowsum, char *what,
                       int len)
{
    double P[3][3], F[3][3], FT[3][3], mF[3][3], F2[3][3], S[3][3], mST[3][3];   /* S = P - F */
    for (int s = 0; s < 3; s++)
        for (int t = 0; t < 3; t++) {
            P[s][t] = Pc[(3 * a + s) * 3 + t], F[s][t] = Fc[(3 * a + s) * 3 + t];
            FT[t][s] = F[s][t], mF[s][t] = -F[s][t], F2[s][t] = 2 * F[s][t];
            S[s][t] = P[s][t] - F[s][t], mST[t][s] = -S[s][t];
        }
    double sc = fmax(block_max(P), block_max(F)), tol = 1e-4;
    int b = block_moved(R, Fc, Pc, a, S, sc), o = R->o->base;
    /* a block moved to another row leaves its rows' sum off by it; one moved to another column of
     * the same row leaves that sum zero: where it is, the deficit found in another row is a
     * coincidence (a uniform mesh's equal blocks) */
    double rs = 0;
    for (int s2 = 0; rowsum && s2 < 3; s2++) rs = fmax(rs, fabs(rowsum[3 * a + s2]));
    int same_row = rowsum && rs <= tol * sc;
    if (same_row) b = -1;
    snprintf(what, (size_t)len, "it differs");
    if (block_diff(P, FT, sc) < tol && block_diff(P, F, sc) > tol) snprintf(what, (size_t)len, "it is the transpose of the right block");
    else if (block_diff(P, mF, sc) < tol) snprintf(what, (size_t)len, "it is the negative of the right block: a sign");
    else if (block_diff(P, F2, sc) < tol) snprintf(what, (size_t)len, "it is twice the right block: a term summed twice");
    else if (block_max(P) <= tol * sc && b >= 0)   /* gone to another row: one mistake, named once */
        snprintf(what, (size_t)len, "it is zero where the right block is not, and row vertex %d holds it instead: a term "
                 "added at the wrong vertex (%d where %d belongs)", b + o, b + o, a + o);
    else if (block_max(P) <= tol * sc) snprintf(what, (size_t)len, "it is zero where the right block is not: a term missing");
    else if (block_diff(S, mST, block_max(S)) < 1e-2)   /* S = X^T - X: the part X of an element that shares the block */
        snprintf(what, (size_t)len, "it holds the transpose of the right block's part from an element: it differs from "
                 "the right block by X^T - X (antisymmetric), X that part");
    else if (b >= 0)   /* a surplus here that is the deficit of another row: a block added at the wrong vertex */
        snprintf(what, (size_t)len, "it holds a block that belongs at row vertex %d, whose block (%d, %d) lacks it: a term "
                 "added at the wrong vertex (%d where %d belongs)", b + o, b + o, c + o, a + o, b + o);
    else if (same_row && block_max(S) > tol * sc)
        snprintf(what, (size_t)len, "it differs, and its row's blocks still sum to zero (not a block at the wrong row "
                 "vertex)");
    else if (block_max(F) <= tol * sc) snprintf(what, (size_t)len, "there should be no block there");
}

/* the true columns of vertex c (differences of f) into Fc and the program's into Pc, n x 3 */
static int columns_of(run *R, const jac_ctx *jc, int c, double *Fc, double *Pc)
{
    double *d = R->w[0], *col = R->w[1], *Jd = R->w[2];
    for (int t = 0; t < 3; t++) {
        memset(d, 0, sizeof(double) * (size_t)R->n);
        d[3 * c + t] = 1;
        if (force_along(R, jc->x, jc->v, d, jc->of_v, col) < 0) return -1;
        cc_csr_mul(jc->J, d, Jd);
        for (int i = 0; i < R->n; i++) Fc[i * 3 + t] = col[i], Pc[i * 3 + t] = Jd[i];
    }
    return 0;
}

#define MAX_BLOCKS 32   /* differing blocks examined per check and state */

/* "; the element holding them all: ..." for the vertices of blocks (ra[i], ca[i]) where they are
 * at most four and some triangle or hinge holds them all, into buf ("" otherwise) */
static void elements_holding_all(const run *R, const int *ra, const int *ca, int nb, char *buf, int len)
{
    int vs[4], nvs = 0;
    buf[0] = 0;
    for (int i = 0; i < 2 * nb; i++) {
        int a = i % 2 ? ca[i / 2] : ra[i / 2], seen = 0;
        for (int k = 0; k < nvs; k++) seen |= vs[k] == a;
        if (seen) continue;
        if (nvs == 4) return;
        vs[nvs++] = a;
    }
    const cc_mesh *m = R->t->mesh;
    int o = R->o->base, at = 0, cnt = 0;
    for (int e = 0; e < m->nt + m->nh && at < len; e++) {
        int tri = e < m->nt, k = tri ? 3 : 4;
        const int *v = tri ? m->tri + 3 * e : m->hinge + 4 * (e - m->nt);
        if (!tri && R->bends == 0) break;
        int all = 1;
        for (int q = 0; q < nvs && all; q++) all = v[0] == vs[q] || v[1] == vs[q] || v[2] == vs[q] || (k == 4 && v[3] == vs[q]);
        if (!all) continue;
        at += snprintf(buf + at, (size_t)(len - at), "%s%s %d (%d %d %d", cnt++ ? ", " : "; the elements holding them all: ",
                       tri ? "triangle" : "hinge", (tri ? e : e - m->nt) + o, v[0] + o, v[1] + o, v[2] + o);
        if (at < len) at += snprintf(buf + at, (size_t)(len - at), k == 4 ? " %d)" : ")", k == 4 ? v[3] + o : 0);
    }
}

/* blocks (ra[i], ca[i]) in one row whose differences S[i] = P - F from the right blocks cancel:
 * a part added in the wrong column (a column vertex read wrong); their kinds in what rewritten
 * (lacks[i]: block i is smaller than the right one) */
static void moved_columns(const run *R, const int *ra, const int *ca, double S[][3][3], const int *lacks,
                          char what[][200], int nb)
{
    int o = R->o->base;
    for (int i = 0; i < nb; i++)
        for (int k = 0; k < nb; k++) {
            if (k == i || ra[k] != ra[i] || ca[k] == ca[i]) continue;
            double sc = fmax(block_max(S[i]), block_max(S[k])), sum[3][3], zero[3][3] = {{0}};
            for (int s = 0; s < 3; s++)
                for (int t = 0; t < 3; t++) sum[s][t] = S[i][s][t] + S[k][s][t];
            if (!(sc > 0) || block_diff(sum, zero, sc) > 1e-4 || lacks[i] == lacks[k]) continue;
            int wrong = lacks[i] ? ca[k] : ca[i], right = lacks[i] ? ca[i] : ca[k];
            if (lacks[i])
                snprintf(what[i], 200, "it lacks a part that column vertex %d holds instead: a term added at the wrong "
                         "column vertex (%d where %d belongs)", ca[k] + o, wrong + o, right + o);
            else
                snprintf(what[i], 200, "it holds a part that belongs in column vertex %d: a term added at the wrong "
                         "column vertex (%d where %d belongs)", ca[k] + o, wrong + o, right + o);
        }
}

/* 1 if kind text w names a kind ("it differs" names none) */
static int named_kind(const char *w) { return strncmp(w, "it differs", 10) != 0; }

/* the findings of blocks (ra[i], ca[i]) of kinds what[i]: each on its line, those that name a kind
 * first, or, where every one is of the same kind, one line that says so with how many and where */
static void report_blocks(run *R, cc_sys_check *chk, const char *name, const int *ra, const int *ca, char what[][200],
                          int nb)
{
    int same = nb > 2, o = R->o->base;
    for (int i = 1; i < nb && same; i++) same = !strcmp(what[i], what[0]);
    if (same && named_kind(what[0])) {
        char at[160] = "";
        for (int i = 0, len = 0; i < nb && i < 6 && len < (int)sizeof at; i++)
            len += snprintf(at + len, sizeof at - (size_t)len, "%s(%d, %d)", i ? ", " : "", ra[i] + o, ca[i] + o);
        char el[200] = "";
        elements_holding_all(R, ra, ca, nb, el, sizeof el);
        find(R, chk, "%s: every block it differs in is of one kind, %d blocks (rows, columns) %s%s: %s%s", name, nb, at,
             nb > 6 ? ", ..." : "", what[0], el);
        return;
    }
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < nb; i++) {
            if (named_kind(what[i]) != !pass) continue;
            char el[200];
            elements_of(R, ra[i], ca[i], el, sizeof el);
            find(R, chk, "%s block (row vertex %d, column vertex %d): %s; %s", name, ra[i] + o, ca[i] + o, what[i], el);
        }
}

static void check_jacobian(run *R, const double *x, const double *v, const cc_csr *J, int of_v, int which)
{
    cc_sys_check *chk = &R->r->c[which];
    jac_ctx c = {x, v, J, of_v};
    double worst = 0;
    for (int k = 0; k < R->o->directions && !R->failed; k++) {
        double err = jac_err(R, &c, NULL, R->nv);
        chk->tests++;
        worst = fmax(worst, err);
    }
    note(R, chk, worst);
    double tol = R->tol[which];
    if (!(worst > tol) || chk->nfind || R->failed || R->tainted) return;
    int *vs = all_vertices(R->nv), cols[16], ra[MAX_BLOCKS], ca[MAX_BLOCKS], nb = 0;
    char kinds_of[MAX_BLOCKS][200];
    double S[MAX_BLOCKS][3][3];
    int lacks[MAX_BLOCKS];
    int nc = vs ? bisect(R, jac_err, &c, vs, R->nv, tol, cols, 0, R->o->localize) : 0;
    double *Fc = malloc(sizeof(double) * (size_t)R->n * 3), *Pc = malloc(sizeof(double) * (size_t)R->n * 3);
    double *rowsum = malloc(sizeof(double) * (size_t)R->n);   /* J's rows summed over the columns, per axis */
    if (rowsum) {
        double *ones = R->w[4], *tmp = R->w[5];
        memset(rowsum, 0, sizeof(double) * (size_t)R->n);
        for (int t = 0; t < 3; t++) {   /* rowsum[3a+s] = max over t of |(J T_t)_{3a+s}| */
            for (int i = 0; i < R->n; i++) ones[i] = i % 3 == t;
            cc_csr_mul(J, ones, tmp);
            for (int i = 0; i < R->n; i++) rowsum[i] = fmax(rowsum[i], fabs(tmp[i]));
        }
    }
    for (int i = 0; i < nc && Fc && Pc && !R->failed; i++) {
        if (columns_of(R, &c, cols[i], Fc, Pc) < 0) break;
        double step = of_v ? R->eps / R->o->h : R->eps, scale = R->round * norm_inf(R->e.f, R->n) / step, *r = R->w[3];
        for (int e = 0; e < R->n * 3; e++) scale = fmax(scale, fmax(fabs(Fc[e]), fabs(Pc[e])));
        for (int row = 0; row < R->n; row++) {
            r[row] = 0;
            for (int t = 0; t < 3; t++) r[row] = fmax(r[row], fabs(Fc[row * 3 + t] - Pc[row * 3 + t]));
        }
        int rows[8], nr = vertices_over(r, R->nv, 10 * tol * scale, rows, 8);
        for (int q = 0; q < nr && nb < MAX_BLOCKS; q++, nb++) {
            int a = rows[q];
            block_kind(R, Fc, Pc, a, cols[i], of_v ? NULL : rowsum, kinds_of[nb], sizeof kinds_of[nb]);
            ra[nb] = a, ca[nb] = cols[i];
            double pm = 0, fm = 0;
            for (int s = 0; s < 3; s++)
                for (int t = 0; t < 3; t++) {
                    S[nb][s][t] = Pc[(3 * a + s) * 3 + t] - Fc[(3 * a + s) * 3 + t];
                    pm = fmax(pm, fabs(Pc[(3 * a + s) * 3 + t])), fm = fmax(fm, fabs(Fc[(3 * a + s) * 3 + t]));
                }
            lacks[nb] = pm < fm;
        }
    }
    moved_columns(R, ra, ca, S, lacks, kinds_of, nb);
    report_blocks(R, chk, of_v ? "df/dv" : "df/dx", ra, ca, kinds_of, nb);
    free(Fc), free(Pc), free(vs), free(rowsum);
}

/* ---- the damping's part of df/dx at a moving state ---- */

/* Damping d = -kd dC/dx Cdot (Baraff & Witkin (11)) has dd/dx = A + B, A = -kd dC/dx (dCdot/dx)^T
 * and B = -kd Cdot d2C/dx2 ((12)); Section 5.2 leaves A out. Its part G of df/dx is df/dx(x, v) -
 * df/dx(x, 0). Three forms are right: G = A + B (exact), G = B (Baraff & Witkin's: since
 * dCdot/dx = d2C/dx2 v, A^T v = B v, so w . (G v) = (v . (A + B) w) / 2 for every w), G = 0 (the
 * derivative left out). The program's G is compared with each along random directions w, and
 * with multiples of the first two: a multiple other than 1 is a mistake (a sign, a factor). */
typedef struct damp_fit {
    double exact, bw, zero;    /* worst relative difference from each form */
    double c_exact, c_bw[2];   /* G as a multiple of the exact form (least squares); of Baraff & Witkin's (range) */
    double off_exact;          /* how far G is from c_exact times the exact form */
    double ge_max, floor;      /* the largest exact G w, and the differences' rounding */
} damp_fit;

/* the fit of G = J(x, v) - J0 (J0 the program's df/dx at (x, 0), zero the velocity 0) over
 * R->o->directions; 0 or -1 */
static int damping_fit(run *R, const double *x, const double *v, const double *zero, const cc_csr *J, const cc_csr *J0,
                       damp_fit *f)
{
    int n = R->n;
    double *w = R->w[0], *gp = R->w[1], *ge = R->w[2], *tmp = R->w[3], *Gv = malloc(sizeof(double) * (size_t)n);
    if (!Gv) return 0;
    cc_csr_mul(J, v, Gv), cc_csr_mul(J0, v, tmp);
    for (int i = 0; i < n; i++) Gv[i] -= tmp[i];
    *f = (damp_fit){.c_bw = {INFINITY, -INFINITY}};
    f->floor = 20 * R->round * norm_inf(R->e.f, n) / R->eps;   /* two differences of f, each with its rounding */
    double gg = 0, pg = 0, pp = 0;
    for (int k = 0; k < R->o->directions; k++) {
        direction(R, NULL, R->nv, w);
        if (force_along(R, x, zero, w, 0, tmp) < 0 || force_along(R, x, v, w, 0, ge) < 0) return free(Gv), -1;
        for (int i = 0; i < n; i++) ge[i] -= tmp[i];
        cc_csr_mul(J, w, gp), cc_csr_mul(J0, w, tmp);
        double de = 0, dz = 0, big = f->floor, vge = 0, wGv = 0, sv = 0, sw = 0;
        for (int i = 0; i < n; i++) {
            gp[i] -= tmp[i];
            de = fmax(de, fabs(gp[i] - ge[i])), dz = fmax(dz, fabs(gp[i])), big = fmax(big, fmax(fabs(gp[i]), fabs(ge[i])));
            vge += v[i] * ge[i], wGv += w[i] * Gv[i], sv += fabs(v[i] * ge[i]) + f->floor * fabs(v[i]), sw += fabs(w[i] * Gv[i]);
            gg += ge[i] * ge[i], pg += gp[i] * ge[i], pp += gp[i] * gp[i];
        }
        f->ge_max = fmax(f->ge_max, norm_inf(ge, n));
        f->exact = fmax(f->exact, de / big), f->zero = fmax(f->zero, dz / big);
        double sb = fmax(2 * sw, sv);
        f->bw = fmax(f->bw, sb > 0 ? fabs(2 * wGv - vge) / sb : 0);
        double q = fabs(vge) > 1e-3 * sv ? 2 * wGv / vge : NAN;   /* this direction's multiple of B&W's form */
        if (isnan(q) || isnan(f->c_bw[0])) f->c_bw[0] = f->c_bw[1] = NAN;   /* no multiple once one direction has none */
        else f->c_bw[0] = fmin(f->c_bw[0], q), f->c_bw[1] = fmax(f->c_bw[1], q);
    }
    f->c_exact = gg > 0 ? pg / gg : 0;
    f->off_exact = pp > 0 ? sqrt(fmax(0, pp - 2 * f->c_exact * pg + f->c_exact * f->c_exact * gg) / pp) : 0;
    free(Gv);
    return 0;
}

/* the largest over R->o->directions of |(J + Jm - 2 J0) w| less its rounding (ten roundings of the
 * largest product), over |(J - J0) w|: how far the damping's part of df/dx J is from odd in v (J0
 * at v = 0, Jm at -v) */
static double damping_parity(run *R, const cc_csr *J, const cc_csr *J0, const cc_csr *Jm)
{
    double *w = R->w[0], *a = R->w[1], *b = R->w[2], *c = R->w[3], odd = 0;
    for (int k = 0; k < R->o->directions; k++) {
        direction(R, NULL, R->nv, w);
        cc_csr_mul(J, w, a), cc_csr_mul(J0, w, b), cc_csr_mul(Jm, w, c);
        double s = 0, g = 0, big = 0;
        for (int i = 0; i < R->n; i++)
            s = fmax(s, fabs(a[i] + c[i] - 2 * b[i])), g = fmax(g, fabs(a[i] - b[i])), big = fmax(big, fmax(fabs(a[i]), fabs(b[i])));
        double over = fmax(0, s - 10 * R->round * big);
        odd = fmax(odd, over > 0 ? (g > 0 ? over / g : INFINITY) : 0);
    }
    return odd;
}

/* 1 if the force's damping part f(x, v) - f(x, 0) is odd in v: f(x, v) + f(x, -v) = 2 f(x, 0)
 * (linear damping, and drag as (v . n) |v . n| too) */
static int damping_force_odd(const run *R, const double *f, const double *f0, const double *fm, double tol)
{
    double s = 0, d = 0, big = 0;
    for (int i = 0; i < R->n; i++)
        s = fmax(s, fabs(f[i] + fm[i] - 2 * f0[i])), d = fmax(d, fabs(f[i] - f0[i])), big = fmax(big, fabs(f[i]));
    return s <= tol * fmax(d, 10 * R->round * big);
}

/* at a moving state where df/dx J differs from the differences of f: which of the right forms
 * its damping part takes, or the multiple of one it is, or, where the damping force is odd in v
 * and df/dx's part is not, a df/dx taken at another state (mistakes: the check then gates) */
static void check_damping_form(run *R, const double *x, const double *v, const cc_csr *J)
{
    cc_sys_check *chk = &R->r->c[CC_SYS_C_DFDX_MOVING];
    double *zero = calloc((size_t)R->n, sizeof(double)), *mv = malloc(sizeof(double) * (size_t)R->n);
    double tol = R->tol[CC_SYS_C_DFDX_MOVING], odd = 0;
    cc_sys_eval at0, atm;
    damp_fit f = {0};
    int ok0 = cc_sys_eval_init(&at0, R->n) == 0, okm = cc_sys_eval_init(&atm, R->n) == 0;
    if (!zero || !mv || !ok0 || !okm) goto done;
    for (int i = 0; i < R->n; i++) mv[i] = -v[i];
    if (ask(R, x, zero, CC_SYS_FORCE | CC_SYS_DFDX, &at0) < 0 || R->tainted || damping_fit(R, x, v, zero, J, &at0.dfdx, &f) < 0)
        goto done;
    if (f.exact <= tol) goto done;   /* the difference was along the first directions only: left to the check */
    int blocks = chk->nfind;
    chk->nfind = 0;   /* a form named, or a multiple of one, says more than blocks that differ */
    if (f.bw <= tol && f.ge_max > f.floor) {
        chk->note = "Baraff & Witkin's form (5.2): the damping's dC/dx dCdot/dx^T left out; not gated";
        find(R, chk, "df/dx's damping part is Baraff & Witkin's (5.2): -kd Cdot d2C/dx2 without -kd dC/dx dCdot/dx^T "
             "(to %.1e)", f.bw);
    } else if (f.zero <= tol) {
        chk->note = "the damping's x-derivative left out (df/dx as at v = 0); not gated";
        find(R, chk, "df/dx does not change with the velocity: the damping force's x-derivative is left out (the exact "
             "one is %.3g at most along the directions)", f.ge_max);
    } else if (!(f.ge_max > f.floor)) {
        chk->gates = 1, chk->note = "";
        find(R, chk, "the force's differences do not change with the velocity, and df/dx does: it holds a term in v "
             "that the force has not");
    } else if (f.off_exact <= 10 * tol && fabs(f.c_exact - 1) > 100 * tol) {   /* (the differences' truncation) */
        chk->gates = 1, chk->note = "";
        find(R, chk, "df/dx's damping part (df/dx at v less df/dx at v = 0) is %.4g times the exact one: %s", f.c_exact,
             fabs(f.c_exact + 1) < 100 * tol ? "its sign" : "a factor in it");
    } else if (R->o->directions >= 2 && isfinite(f.c_bw[0]) && f.c_bw[1] - f.c_bw[0] <= 10 * tol * fabs(f.c_bw[1]) &&
               fabs(f.c_bw[0] - 1) > 100 * tol) {
        double c = 0.5 * (f.c_bw[0] + f.c_bw[1]);
        chk->gates = 1, chk->note = "";
        find(R, chk, "df/dx's damping part is %.4g times Baraff & Witkin's form (5.2: -kd Cdot d2C/dx2): %s", c,
             fabs(c + 1) < 100 * tol ? "its sign" : "a factor in it");
    } else if (ask(R, x, mv, CC_SYS_FORCE | CC_SYS_DFDX, &atm) == 0 && !R->tainted &&
               damping_force_odd(R, R->e.f, at0.f, atm.f, tol) &&
               (odd = damping_parity(R, J, &at0.dfdx, &atm.dfdx)) > tol) {
        chk->gates = 1, chk->note = "";
        find(R, chk, "df/dx(x, v) + df/dx(x, -v) - 2 df/dx(x, 0) is %.2g of df/dx's damping part, where the force's "
             "damping part is odd in v: df/dx changes with v other than through the damping (taken at another state, "
             "the predicted position x + h v, say)", odd);
    } else {
        chk->nfind = blocks;
        chk->note = "reported, not gated: neither exact, nor Baraff & Witkin's form (5.2), nor left out; a mix by term is not told apart";
    }
done:
    if (ok0) cc_sys_eval_free(&at0);
    if (okm) cc_sys_eval_free(&atm);
    free(zero), free(mv);
}

/* ---- identities of the program's own numbers ---- */

static void check_symmetry(run *R, const cc_csr *J)
{
    cc_sys_check *chk = &R->r->c[CC_SYS_C_SYM];
    double top = cc_csr_max(J), worst = 0;
    int wa = -1, wc = -1;
    for (int i = 0; i < J->n; i++)
        for (int k = J->rowp[i]; k < J->rowp[i + 1]; k++) {
            double d = fabs(J->val[k] - cc_csr_at(J, J->col[k], i));
            if (d > worst) worst = d, wa = i / 3, wc = J->col[k] / 3;
        }
    double rel = top > 0 ? worst / top : 0;
    chk->tests++;
    note(R, chk, rel);
    if (!(rel > R->tol[CC_SYS_C_SYM]) || chk->nfind) return;
    double P[3][3], Q[3][3], QT[3][3];
    cc_csr_block(J, wa, wc, P), cc_csr_block(J, wc, wa, Q);
    for (int s = 0; s < 3; s++)
        for (int t = 0; t < 3; t++) QT[s][t] = Q[t][s];
    double sc = fmax(block_max(P), block_max(Q));
    char el[200];
    elements_of(R, wa, wc, el, sizeof el);
    find(R, chk, "df/dx blocks (%d, %d) and (%d, %d) are not transposes of each other%s; %s", wa + R->o->base, wc + R->o->base,
         wc + R->o->base, wa + R->o->base,
         block_diff(P, Q, sc) < 1e-6 && block_diff(P, QT, sc) > 1e-6 ? ": they are equal (an off-diagonal block copied "
                                                                          "without its transpose)" : "", el);
}

/* x - the centroid of x */
static void centred(run *R, const double *x, double *out)
{
    double c[3] = {0, 0, 0};
    for (int a = 0; a < R->nv; a++)
        for (int s = 0; s < 3; s++) c[s] += x[3 * a + s] / R->nv;
    for (int a = 0; a < R->nv; a++)
        for (int s = 0; s < 3; s++) out[3 * a + s] = x[3 * a + s] - c[s];
}

static void check_net(run *R, const double *x, const cc_sys_eval *e)
{
    cc_sys_check *cf = &R->r->c[CC_SYS_C_NETF], *ct = &R->r->c[CC_SYS_C_TORQUE];
    double F[3] = {0, 0, 0}, T[3] = {0, 0, 0}, sf = 0, st = 0, *p = R->w[3];
    centred(R, x, p);
    for (int a = 0; a < R->nv; a++) {
        double q[3];
        for (int s = 0; s < 3; s++) q[s] = e->f[3 * a + s] - e->ext[3 * a + s];
        const double *r = p + 3 * a;
        double tq[3] = {r[1] * q[2] - r[2] * q[1], r[2] * q[0] - r[0] * q[2], r[0] * q[1] - r[1] * q[0]};
        const double *fa = e->f + 3 * a, *ea = e->ext + 3 * a;   /* their size: f and the external force's */
        double tf[3] = {r[1] * fa[2] - r[2] * fa[1], r[2] * fa[0] - r[0] * fa[2], r[0] * fa[1] - r[1] * fa[0]};
        double te[3] = {r[1] * ea[2] - r[2] * ea[1], r[2] * ea[0] - r[0] * ea[2], r[0] * ea[1] - r[1] * ea[0]};
        for (int s = 0; s < 3; s++) {
            F[s] += q[s], T[s] += tq[s];
            sf += fabs(q[s]) + fabs(fa[s]) + fabs(ea[s]), st += fabs(tq[s]) + fabs(tf[s]) + fabs(te[s]);
        }
    }
    double rf = sf > 0 ? norm_inf(F, 3) / sf : 0, rt = st > 0 ? norm_inf(T, 3) / st : 0;
    cf->tests++, ct->tests++;
    note(R, cf, rf), note(R, ct, rt);
    if (rf > R->tol[CC_SYS_C_NETF] && !cf->nfind && !R->tainted)
        find(R, cf, "the internal forces (force minus external) sum to (%.4g, %.4g, %.4g): a force added at one vertex "
                 "without its opposite at another", F[0], F[1], F[2]);
    if (rt > R->tol[CC_SYS_C_TORQUE] && !ct->nfind && !R->tainted)
        find(R, ct, "the internal forces have a net torque (%.4g, %.4g, %.4g) about the centroid: a force not along "
                 "the line between the vertices it acts on", T[0], T[1], T[2]);
}

/* rows of J u against expected (NULL: zero); check `which` */
static void rows_against(run *R, const cc_csr *J, const double *u, const double *expected, int which, const char *what)
{
    cc_sys_check *chk = &R->r->c[which];
    double *Ju = R->w[1], *r = R->w[2], top = cc_csr_max(J), scale = 0;
    cc_csr_mul(J, u, Ju);
    scale = top * norm_inf(u, R->n);
    for (int i = 0; i < R->n; i++) r[i] = Ju[i] - (expected ? expected[i] : 0);
    double rel = scale > 0 ? norm_inf(r, R->n) / scale : 0;
    chk->tests++;
    note(R, chk, rel);
    if (!(rel > R->tol[which]) || chk->nfind || R->tainted) return;
    int rows[8], nr = vertices_over(r, R->nv, R->tol[which] * scale, rows, 8);
    for (int q = 0; q < nr && q < 3; q++) {
        char el[200];
        elements_of(R, rows[q], -1, el, sizeof el);
        find(R, chk, "rows of vertex %d: %s; %s", rows[q] + R->o->base, what, el);
    }
}

static void check_rigid(run *R, const double *x, const cc_sys_eval *e)
{
    double *u = R->w[0], *p = R->w[3], *wf = R->w[4];
    for (int s = 0; s < 3; s++) {   /* translations */
        memset(u, 0, sizeof(double) * (size_t)R->n);
        for (int a = 0; a < R->nv; a++) u[3 * a + s] = 1;
        rows_against(R, &e->dfdx, u, NULL, CC_SYS_C_TRANS,
                     "df/dx times a rigid translation is not zero there: the blocks of a term do not sum to zero "
                     "(a block at the wrong vertex, or missing its opposite)");
    }
    if (!(e->have & CC_SYS_EXTERNAL)) return;
    centred(R, x, p);
    for (int s = 0; s < 3; s++) {   /* rotations about the axes */
        double w[3] = {s == 0, s == 1, s == 2};
        for (int a = 0; a < R->nv; a++) {
            const double *r = p + 3 * a;
            double q[3];
            for (int t = 0; t < 3; t++) q[t] = e->f[3 * a + t] - e->ext[3 * a + t];
            u[3 * a] = w[1] * r[2] - w[2] * r[1], u[3 * a + 1] = w[2] * r[0] - w[0] * r[2], u[3 * a + 2] = w[0] * r[1] - w[1] * r[0];
            wf[3 * a] = w[1] * q[2] - w[2] * q[1], wf[3 * a + 1] = w[2] * q[0] - w[0] * q[2], wf[3 * a + 2] = w[0] * q[1] - w[1] * q[0];
        }
        rows_against(R, &e->dfdx, u, wf, CC_SYS_C_ROT,
                     "df/dx (w x x) is not w x f_internal there: the Jacobian does not turn with the element (a "
                     "transposed or misplaced block)");
    }
}

/* what a coefficient c of a term t h^k says, in words into buf: "" where it is right (c = 1) */
static void coefficient_words(double c, double h, const char *term, const char *power, char *buf, int len)
{
    double tol = 1e-6;
    if (fabs(c - 1) <= tol) buf[0] = 0;
    else if (fabs(c) <= tol) snprintf(buf, (size_t)len, "%s is missing", term);
    else if (fabs(c + 1) <= tol) snprintf(buf, (size_t)len, "%s has the wrong sign", term);
    else if (fabs(c * h - 1) <= tol) snprintf(buf, (size_t)len, "%s has one h too few (%s where h%s belongs)", term,
                                             !strcmp(power, "^2") ? "h" : "no h", power);
    else if (fabs(c - h) <= tol * h) snprintf(buf, (size_t)len, "%s has one h too many", term);
    else if (fabs(c - 2) <= tol) snprintf(buf, (size_t)len, "%s is counted twice", term);
    else snprintf(buf, (size_t)len, "%s is %.4g times what it should be", term, c);
}

/* "a U + b W" into buf, the coefficients 1 and -1 left out and a negative b as a minus */
static void combination(double a, const char *U, double b, const char *W, char *buf, int len)
{
    char ca[32] = "", cb[32] = "";
    if (fabs(a - 1) > 1e-9) snprintf(ca, sizeof ca, fabs(a + 1) <= 1e-9 ? "-" : "%.4g ", a);
    if (fabs(fabs(b) - 1) > 1e-9) snprintf(cb, sizeof cb, "%.4g ", fabs(b));
    snprintf(buf, (size_t)len, "%s%s %s %s%s", ca, U, b < 0 ? "-" : "+", cb, W);
}

/* the least-squares a, b with r = a u + b w; 1 if they fit r to 1e-9 of its size */
static int fit_two(const double *r, const double *u, const double *w, int n, double *a, double *b)
{
    double uu = 0, uw = 0, ww = 0, ru = 0, rw = 0;
    for (int i = 0; i < n; i++) uu += u[i] * u[i], uw += u[i] * w[i], ww += w[i] * w[i], ru += r[i] * u[i], rw += r[i] * w[i];
    double det = uu * ww - uw * uw;
    if (!(fabs(det) > 1e-12 * uu * ww)) return 0;
    *a = (ru * ww - rw * uw) / det, *b = (rw * uu - ru * uw) / det;
    double fit = 0, size = norm_inf(r, n);
    for (int i = 0; i < n; i++) fit = fmax(fit, fabs(r[i] - *a * u[i] - *b * w[i]));
    return fit <= 1e-9 * fmax(size, 1e-300);
}

/* where A = M - a h df/dv - b h^2 df/dx off the diagonal blocks (where M is zero) with a, b other
 * than 1: which term is off and how, into buf ("" if A is no such combination) */
static void system_matrix_kind(run *R, const cc_sys_eval *e, char *buf, int len)
{
    const cc_csr *parts[3] = {&e->A, &e->dfdv, &e->dfdx};
    int nnz = 0;
    double h = R->o->h;
    buf[0] = 0;
    for (int p = 0; p < 3; p++) nnz += parts[p]->rowp[parts[p]->n];
    double *r = malloc(sizeof *r * (size_t)(nnz + 1)), *u = malloc(sizeof *u * (size_t)(nnz + 1)),
           *w = malloc(sizeof *w * (size_t)(nnz + 1)), a, b;
    int k = 0;
    for (int p = 0; r && u && w && p < 3; p++)   /* every off-diagonal-block entry any of the three has */
        for (int i = 0; i < parts[p]->n; i++)
            for (int q = parts[p]->rowp[i]; q < parts[p]->rowp[i + 1]; q++) {
                int j = parts[p]->col[q];
                if (i / 3 == j / 3) continue;
                r[k] = cc_csr_at(&e->A, i, j), u[k] = -h * cc_csr_at(&e->dfdv, i, j), w[k++] = -h * h * cc_csr_at(&e->dfdx, i, j);
            }
    if (k && norm_inf(u, k) > 0 && norm_inf(w, k) > 0 && fit_two(r, u, w, k, &a, &b)) {
        char wv[96], wx[120];
        coefficient_words(a, h, "the term -h df/dv", "", wv, sizeof wv);
        coefficient_words(b, h, "the term -h^2 df/dx", "^2", wx, sizeof wx);
        char combo[96];
        combination(-a, "h df/dv", -b, "h^2 df/dx", combo, sizeof combo);
        if (wv[0] || wx[0])
            snprintf(buf, (size_t)len, ": off its diagonal A is M %c %s: %s%s%s (Baraff & Witkin (15))",
                     combo[0] == '-' ? '-' : '+', combo + (combo[0] == '-'), wv, wv[0] && wx[0] ? "; " : "", wx);
    }
    free(r), free(u), free(w);
}

/* the largest |M(i, j) - want| over row i of M = A + h df/dv + h^2 df/dx, want = m on the diagonal
 * and 0 off it, the three rows merged by column (each is ascending); *stored = whether any of the
 * three stores M(i, i) */
static double mass_row_misfit(const cc_csr *const parts[3], const double wts[3], int i, double m, int *stored)
{
    int q[3], end[3];
    double worst = 0;
    *stored = 0;
    for (int p = 0; p < 3; p++) q[p] = parts[p]->rowp[i], end[p] = parts[p]->rowp[i + 1];
    for (;;) {
        int col = -1;
        for (int p = 0; p < 3; p++)
            if (q[p] < end[p] && (col < 0 || parts[p]->col[q[p]] < col)) col = parts[p]->col[q[p]];
        if (col < 0) return worst;
        double v = 0;
        for (int p = 0; p < 3; p++)
            if (q[p] < end[p] && parts[p]->col[q[p]] == col) v += wts[p] * parts[p]->val[q[p]++];
        if (col == i) *stored = 1;
        worst = fmax(worst, fabs(v - (col == i ? m : 0)));
    }
}

static void check_mass(run *R, const cc_sys_eval *e)
{
    cc_sys_check *chk = &R->r->c[CC_SYS_C_MASS];
    const cc_csr *const parts[3] = {&e->A, &e->dfdv, &e->dfdx};
    double h = R->o->h, wts[3] = {1, h, h * h};
    double top = cc_csr_max(&e->A), worst = 0, total = 0;
    int wa = -1;
    for (int a = 0; a < R->nv; a++) {
        double m = 0, d = 0;
        for (int p = 0; p < 3; p++) m += wts[p] * cc_csr_at(parts[p], 3 * a, 3 * a);
        total += m;
        for (int s = 0; s < 3; s++) {
            int stored;
            d = fmax(d, mass_row_misfit(parts, wts, 3 * a + s, m, &stored));
            if (stored && !(m > 0)) d = fmax(d, top);   /* a mass that is not positive fails whatever its size */
        }
        if (d > worst) worst = d, wa = a;
    }
    R->r->total_mass = total;
    double rel = top > 0 ? worst / top : 0;
    chk->tests++;
    note(R, chk, rel);
    if (rel > R->tol[CC_SYS_C_MASS] && !chk->nfind && !R->tainted) {
        char el[200], kind[400] = "";
        elements_of(R, wa, -1, el, sizeof el);
        system_matrix_kind(R, e, kind, sizeof kind);
        if (kind[0])
            find(R, chk, "rows of vertex %d: A + h df/dv + h^2 df/dx is not a positive lumped mass m I there%s; %s",
                 wa + R->o->base, kind, el);
        else if (!R->mass_pending[0])   /* said at the end, if no later state tells the terms apart */
            snprintf(R->mass_pending, sizeof R->mass_pending, "[%s] rows of vertex %d: A + h df/dv + h^2 df/dx is not a "
                     "positive lumped mass m I there (the h or h^2, a sign, or the mass); %s", R->state, wa + R->o->base, el);
    }
}

/* b against h f + h^2 df/dx v ((16)); where it is another combination of the two, which term is
 * off and how (a power of h, a sign, missing) */
static void check_b(run *R, const double *v, const cc_sys_eval *e)
{
    cc_sys_check *chk = &R->r->c[CC_SYS_C_B];
    double h = R->o->h, *Jv = R->w[0], *want = R->w[1], *r = R->w[2], *hf = R->w[3], *hhJv = R->w[4];
    cc_csr_mul(&e->dfdx, v, Jv);
    for (int i = 0; i < R->n; i++)
        hf[i] = h * e->f[i], hhJv[i] = h * h * Jv[i], want[i] = hf[i] + hhJv[i], r[i] = e->b[i] - want[i];
    double scale = norm_inf(want, R->n), rel = scale > 0 ? norm_inf(r, R->n) / scale : 0;
    chk->tests++;
    note(R, chk, rel);
    if (!(rel > R->tol[CC_SYS_C_B]) || chk->nfind || R->tainted) return;
    double a, b;
    char wf[96] = "", wj[120] = "", kind[400] = "";
    if (norm_inf(hhJv, R->n) > 0 && fit_two(e->b, hf, hhJv, R->n, &a, &b)) {
        char combo[96];
        coefficient_words(a, h, "the term h f", "", wf, sizeof wf);
        coefficient_words(b, h, "the term h^2 df/dx v", "^2", wj, sizeof wj);
        combination(a, "h f", b, "h^2 df/dx v", combo, sizeof combo);
        snprintf(kind, sizeof kind, ": it is %s: %s%s%s", combo, wf, wf[0] && wj[0] ? "; " : "", wj);
    } else if (norm_inf(hhJv, R->n) == 0 && fit_two(e->b, hf, e->f, R->n, &a, &b)) {
        snprintf(kind, sizeof kind, ": it is %.4g times h f (v = 0 here)", a + b / h);
    }
    int rows[4], nr = vertices_over(r, R->nv, R->tol[CC_SYS_C_B] * scale, rows, 4);
    find(R, chk, "b is not h (f + h df/dx v) (Baraff & Witkin (16))%s (first at vertex %d)", kind,
         nr ? rows[0] + R->o->base : -1);
}

/* ---- against what the program claims, term by term ---- */

/* the kind of a difference that is c times a claimed quantity, or NULL */
static const char *multiple_kind(double c)
{
    return fabs(c - 1) < 1e-3 ? "summed twice" : fabs(c + 1) < 1e-3 ? "missing" : fabs(c + 2) < 1e-3 ? "with the wrong sign" : NULL;
}

/* c with r = c u entry by entry (to 1e-3 of |r|), or NAN */
static double multiple_of(const double *r, const double *u, int n)
{
    double ru = 0, uu = 0, fit = 0, rr = norm_inf(r, n);
    for (int i = 0; i < n; i++) ru += r[i] * u[i], uu += u[i] * u[i];
    if (!(uu > 0)) return NAN;
    double c = ru / uu;
    for (int i = 0; i < n; i++) fit = fmax(fit, fabs(r[i] - c * u[i]));
    return fit <= 1e-3 * rr ? c : NAN;
}

/* put the difference r down to one claimed term (r = c f_term), or to all of them (r = c total);
 * a finding either way */
static void attribute(run *R, cc_sys_check *chk, const double *r, const double *total, const char *what)
{
    for (int k = 0; k < R->o->nterms; k++) {
        double c = multiple_of(r, R->tf[k], R->n);
        if (isnan(c)) continue;
        const char *kind = multiple_kind(c);
        if (kind) find(R, chk, "%s: the %s term is %s (the difference is %.4g times that term alone)", what,
                       R->o->term_names[k], kind, c);
        else find(R, chk, "%s: the %s term is %.4g times what the claim gives", what, R->o->term_names[k], 1 + c);
        return;
    }
    double c = multiple_of(r, total, R->n);
    if (!isnan(c)) {
        const char *kind = multiple_kind(c);
        if (kind) find(R, chk, "%s: all of it is %s (the difference is %.4g times the claimed terms together)", what, kind, c);
        else find(R, chk, "%s is %.4g times what the claim gives, in every term", what, 1 + c);
        return;
    }
    double rr = norm_inf(r, R->n);
    int rows[4], nr = vertices_over(r, R->nv, 1e-3 * rr, rows, 4);
    for (int q = 0; q < nr && q < 2; q++) {
        char el[200];
        elements_of(R, rows[q], -1, el, sizeof el);
        find(R, chk, "%s differs from the claim at vertex %d, no single term explains it; %s", what, rows[q] + R->o->base, el);
    }
}

/* the claimed terms' forces at (x, v) into R->tf, their sum into F, their energies' sum into E */
/* the state (x, v) at which the claimed terms are taken: as it is, or rounded to floats for a
 * target that computes in floats (it rounds the positions it reads) */
static void claim_state(run *R, const double **x, const double **v)
{
    if (!R->single) return;
    for (int i = 0; i < R->n; i++) R->xs[i] = (double)(float)(*x)[i], R->vs[i] = (double)(float)(*v)[i];
    *x = R->xs, *v = R->vs;
}

static int terms_at(run *R, const double *x, const double *v, double *F, double *E)
{
    claim_state(R, &x, &v);
    memset(F, 0, sizeof(double) * (size_t)R->n);
    *E = 0;
    for (int k = 0; k < R->o->nterms; k++) {
        if (ask_of(R, &R->o->terms[k], x, v, CC_SYS_FORCE | CC_SYS_ENERGY, &R->p) < 0) return -1;
        memcpy(R->tf[k], R->p.f, sizeof(double) * (size_t)R->n);
        for (int i = 0; i < R->n; i++) F[i] += R->p.f[i];
        *E += R->p.E;
    }
    return 0;
}

static void check_claim_values(run *R, const double *x, const double *v, const cc_sys_eval *e, int moving)
{
    double *F = R->w[3], E, *r = R->w[2];
    if (terms_at(R, x, v, F, &E) < 0) return;
    cc_sys_check *cf = &R->r->c[CC_SYS_C_CLAIM_F], *ce = &R->r->c[CC_SYS_C_CLAIM_E];
    if (e->have & CC_SYS_FORCE) {
        double scale = norm_inf(F, R->n);
        for (int k = 0; k < R->o->nterms; k++) scale = fmax(scale, norm_inf(R->tf[k], R->n));
        for (int i = 0; i < R->n; i++) r[i] = e->f[i] - F[i];
        double rel = scale > 0 ? norm_inf(r, R->n) / scale : 0;
        cf->tests++;
        note(R, cf, rel);
        if (rel > R->tol[CC_SYS_C_CLAIM_F] && !cf->nfind) attribute(R, cf, r, F, "the force");
    }
    if ((e->have & CC_SYS_ENERGY) && !moving && !R->tainted && R->nenergy < 8) {   /* compared at the end (check_energies) */
        R->E_prog[R->nenergy] = e->E, R->E_claim[R->nenergy] = E, R->E_state[R->nenergy] = R->state;
        R->nenergy++;
        ce->tests++;
    }
}

/* the energies of the states against the claim's, up to the constant by which they differ at the
 * first state; the scale is the claimed energy's change from state to state (and, where it does
 * not change, its size) */
static void check_energies(run *R)
{
    cc_sys_check *ce = &R->r->c[CC_SYS_C_CLAIM_E];
    if (!R->nenergy) return;
    double c = R->E_prog[0] - R->E_claim[0], spread = 0, size = 0;
    for (int k = 0; k < R->nenergy; k++) {
        spread = fmax(spread, fabs(R->E_claim[k] - R->E_claim[0]));
        size = fmax(size, fmax(fabs(R->E_claim[k]), fabs(R->E_prog[k] - c)));
    }
    double scale = fmax(spread > 0 ? spread : size, 1e3 * R->r->precision * size);   /* and the program's rounding */
    for (int k = 0; k < R->nenergy; k++) {
        double d = R->E_prog[k] - c - R->E_claim[k], rel = scale > 0 ? fabs(d) / scale : fabs(d) > 0;
        if (isnan(rel)) rel = INFINITY;
        if (rel > ce->max_rel) ce->max_rel = rel;
        if (rel > R->tol[CC_SYS_C_CLAIM_E] && !ce->nfind) {
            R->state = R->E_state[k];
            find(R, ce, "the energy is %.9g where the claimed terms give %.9g%s (the claimed energy changes by %.3g "
                 "from state to state)", R->E_prog[k] - c, R->E_claim[k], c != 0 ? ", its constant taken off" : "", spread);
        }
    }
    if (fabs(c) > R->tol[CC_SYS_C_CLAIM_E] * scale && !ce->nfind) {   /* more than the rounding of the energies */
        R->state = R->E_state[0];
        find(R, ce, "the energies agree with the claim's up to a constant: the program's are %.6g higher at every "
             "state (an energy is defined up to one)", c);
    }
}

/* J d against differences of the claimed terms' forces along d, in random directions */
static void check_claim_jacobian(run *R, const double *x, const double *v, const cc_csr *J, int of_v, int which)
{
    claim_state(R, &x, &v);
    cc_sys_check *chk = &R->r->c[which];
    double *d = R->w[0], *Jd = R->w[1], *r = R->w[2], *sum = R->w[3];
    for (int q = 0; q < R->o->directions && !R->failed; q++) {
        direction(R, NULL, R->nv, d);
        cc_csr_mul(J, d, Jd);
        memset(sum, 0, sizeof(double) * (size_t)R->n);
        double scale = 0;
        for (int k = 0; k < R->o->nterms; k++) {
            if (force_along_of(R, &R->o->terms[k], x, v, d, of_v, R->tf[k]) < 0) return;
            for (int i = 0; i < R->n; i++) sum[i] += R->tf[k][i];
            scale = fmax(scale, norm_inf(R->tf[k], R->n));
        }
        double step = of_v ? R->eps / R->o->h : R->eps;   /* the rounding of differences of f, as in jac_err */
        scale = fmax(fmax(scale, norm_inf(Jd, R->n)), R->round * norm_inf(R->e.f, R->n) / step);
        for (int i = 0; i < R->n; i++) r[i] = Jd[i] - sum[i];
        double rel = scale > 0 ? norm_inf(r, R->n) / scale : 0;
        chk->tests++;
        note(R, chk, rel);
        if (rel > R->tol[which] && !chk->nfind) attribute(R, chk, r, sum, of_v ? "df/dv" : "df/dx");
    }
}

/* ---- states ---- */

/* the mean rest edge length of m */
static double mean_edge(const cc_mesh *m)
{
    double s = 0;
    for (int t = 0; t < m->nt; t++)
        for (int k = 0; k < 3; k++) {
            const double *p = m->x + 3 * m->tri[3 * t + k], *q = m->x + 3 * m->tri[3 * t + (k + 1) % 3];
            s += sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2]));
        }
    return m->nt ? s / (3 * m->nt) : 1.0;
}

/* state k: its name, x and v; 0, or -1 past the last */
static int make_state(run *R, int k, double *x, double *v, const char **name)
{
    const cc_mesh *m = R->t->mesh;
    cc_rng g = cc_rng_make(R->o->seed ^ 0x5157u, (uint64_t)k);
    memcpy(x, m->x, sizeof(double) * (size_t)R->n);
    memset(v, 0, sizeof(double) * (size_t)R->n);
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int a = 0; a < R->nv; a++)
        for (int s = 0; s < 3; s++) lo[s] = fmin(lo[s], x[3 * a + s]), hi[s] = fmax(hi[s], x[3 * a + s]);
    int ax = 0;   /* the longest extent */
    for (int s = 1; s < 3; s++)
        if (hi[s] - lo[s] > hi[ax] - lo[ax]) ax = s;
    int up = (ax + 2) % 3, side = (ax + 1) % 3;   /* fold about the axis `side` */
    switch (k) {
    case 0: *name = "rest"; return 0;
    case 1:
    case 2:
        *name = k == 1 ? "perturbed" : "perturbed (seed 2)";
        for (int i = 0; i < R->n; i++) x[i] += 0.1 * R->L * cc_rng_range(&g, -1, 1);
        return 0;
    case 3: {
        *name = "folded";
        double mid = 0.5 * (lo[ax] + hi[ax]), c = cos(1.2), s = sin(1.2);
        for (int a = 0; a < R->nv; a++) {
            double *p = x + 3 * a, du = p[ax] - mid;
            if (du > 0) p[ax] = mid + c * du, p[up] += s * du;
            p[side] += 0.02 * R->L * cc_rng_range(&g, -1, 1);
        }
        return 0;
    }
    case 4:
        *name = "compressed";
        for (int a = 0; a < R->nv; a++) {
            x[3 * a + ax] = lo[ax] + 0.8 * (x[3 * a + ax] - lo[ax]);
            for (int s = 0; s < 3; s++) x[3 * a + s] += 0.05 * R->L * cc_rng_range(&g, -1, 1);
        }
        return 0;
    case 5:
        *name = "moving";
        for (int i = 0; i < R->n; i++) x[i] += 0.1 * R->L * cc_rng_range(&g, -1, 1), v[i] = cc_rng_range(&g, -1, 1);
        return 0;
    default: return -1;
    }
}

/* 1 if df/dx J has a nonzero block between the wings x0, x3 of some hinge (vertices no triangle
 * shares: only a bending term couples them) */
static int couples_wings(const run *R, const cc_csr *J)
{
    const cc_mesh *m = R->t->mesh;
    for (int h = 0; h < m->nh; h++) {
        double B[3][3];
        cc_csr_block(J, m->hinge[4 * h], m->hinge[4 * h + 3], B);
        if (block_max(B) > 0) return 1;
    }
    return 0;
}

/* 1 if moving the first wing of the mesh's first hinge changes the force on its other wing (by
 * more than the differences' rounding): the program's forces bend, whatever its df/dx says */
static int force_couples_wings(run *R, const double *x, const double *v)
{
    const cc_mesh *m = R->t->mesh;
    if (!m->nh || !(R->t->provides & CC_SYS_FORCE)) return 0;
    double *d = R->w[0], *fd = R->w[1];
    int a = m->hinge[0], b = m->hinge[3];
    direction(R, &a, 1, d);
    if (force_along(R, x, v, d, 0, fd) < 0) return 0;
    double floor = 10 * R->round * norm_inf(R->e.f, R->n) / R->eps + 1e-300, big = 0;
    for (int s = 0; s < 3; s++) big = fmax(big, fabs(fd[3 * b + s]));
    return big > floor;
}

/* the checks at one state */
static void check_state(run *R, const double *x, const double *v)
{
    const cc_sys_target *t = R->t;
    int moving = norm_inf(v, R->n) > 0, has = t->provides;
    if (ask(R, x, v, has, &R->e) < 0 || R->tainted) return;   /* not finite: the finite check says where */
    cc_sys_eval *e = &R->e;
    if (R->bends < 0) R->bends = ((has & CC_SYS_DFDX) && couples_wings(R, &e->dfdx)) || force_couples_wings(R, x, v);
    /* keep this state's answer: the differences reuse R->p */
    if ((has & (CC_SYS_ENERGY | CC_SYS_FORCE)) == (CC_SYS_ENERGY | CC_SYS_FORCE) && !moving) check_force(R, x, e);
    if ((has & (CC_SYS_FORCE | CC_SYS_DFDX)) == (CC_SYS_FORCE | CC_SYS_DFDX) && !R->failed)
        check_jacobian(R, x, v, &e->dfdx, 0, moving ? CC_SYS_C_DFDX_MOVING : CC_SYS_C_DFDX);
    if (moving && (has & (CC_SYS_FORCE | CC_SYS_DFDX)) == (CC_SYS_FORCE | CC_SYS_DFDX) && !R->failed &&
        R->r->c[CC_SYS_C_DFDX_MOVING].max_rel > R->tol[CC_SYS_C_DFDX_MOVING] &&
        !(R->r->c[CC_SYS_C_DFDX].max_rel > R->tol[CC_SYS_C_DFDX]))   /* a df/dx wrong at v = 0 says why */
        check_damping_form(R, x, v, &e->dfdx);
    if ((has & (CC_SYS_FORCE | CC_SYS_DFDV)) == (CC_SYS_FORCE | CC_SYS_DFDV) && !R->failed)
        check_jacobian(R, x, v, &e->dfdv, 1, CC_SYS_C_DFDV);
    if ((has & CC_SYS_DFDX) && !moving) check_symmetry(R, &e->dfdx);
    if ((has & (CC_SYS_FORCE | CC_SYS_EXTERNAL)) == (CC_SYS_FORCE | CC_SYS_EXTERNAL) && !moving) check_net(R, x, e);
    if ((has & CC_SYS_DFDX) && !moving) check_rigid(R, x, e);
    if ((has & (CC_SYS_SYSTEM | CC_SYS_DFDX | CC_SYS_DFDV)) == (CC_SYS_SYSTEM | CC_SYS_DFDX | CC_SYS_DFDV)) check_mass(R, e);
    if ((has & (CC_SYS_SYSTEM | CC_SYS_FORCE | CC_SYS_DFDX)) == (CC_SYS_SYSTEM | CC_SYS_FORCE | CC_SYS_DFDX)) check_b(R, v, e);
    if (!R->o->nterms || R->failed) return;
    check_claim_values(R, x, v, e, moving);
    if ((has & CC_SYS_DFDX) && !moving && !R->failed) check_claim_jacobian(R, x, v, &e->dfdx, 0, CC_SYS_C_CLAIM_DFDX);
    if ((has & CC_SYS_DFDV) && !R->failed) check_claim_jacobian(R, x, v, &e->dfdv, 1, CC_SYS_C_CLAIM_DFDV);
}

/* which checks apply to what t provides, and which gate */
static void plan(run *R)
{
    for (int c = 0; c < CC_SYS_CHECKS; c++) {
        cc_sys_check *k = &R->r->c[c];
        k->name = kinds[c].name;
        k->applies = (R->t->provides & kinds[c].needs) == kinds[c].needs;
        k->gates = k->applies;
        k->max_rel = 0;
        k->note = k->applies ? "" : "not applicable: the program does not give what it needs";
        if (c >= CC_SYS_C_CLAIM_E && c <= CC_SYS_C_CLAIM_DFDV && !R->o->nterms)
            k->applies = 0, k->gates = 0, k->note = "not applicable: no --claims";
    }
    if (R->r->c[CC_SYS_C_DFDX_MOVING].applies)
        R->r->c[CC_SYS_C_DFDX_MOVING].gates = 0,
        R->r->c[CC_SYS_C_DFDX_MOVING].note = "reported, not gated: the exact damping derivative, Baraff & Witkin's "
                                             "form (5.2) and leaving it out are right; a multiple of one fails";
    if (R->r->c[CC_SYS_C_SYM].applies && !(R->t->provides & CC_SYS_ENERGY))
        R->r->c[CC_SYS_C_SYM].gates = 0, R->r->c[CC_SYS_C_SYM].note = "reported, not gated: forces with no energy need not have a symmetric Jacobian";
}

/* pass or fail of each check after the states */
static void verdicts(run *R)
{
    for (int c = 0; c < CC_SYS_CHECKS; c++) {
        cc_sys_check *k = &R->r->c[c];
        k->pass = k->applies && k->tests > 0 && k->max_rel <= R->tol[c];
        if (k->applies && !k->tests) k->gates = 0, k->note = "not run: no state it applies to";
    }
    /* the force against the energy fails while df/dx agrees with the force: what the two say together */
    cc_sys_check *fc = &R->r->c[CC_SYS_C_FORCE], *jc = &R->r->c[CC_SYS_C_DFDX];
    if (fc->applies && fc->tests && !fc->pass && jc->applies && jc->tests && jc->pass && fc->nfind < CC_SYS_FINDINGS) {
        memmove(fc->find[1], fc->find[0], sizeof fc->find[0] * (size_t)fc->nfind);
        fc->nfind++;
        snprintf(fc->find[0], sizeof fc->find[0], "the force and df/dx agree with each other (df/dx passes) but not with "
                 "the energy: a term counted twice in the force and its Jacobian and once in the energy, or a force "
                 "whose energy is left out");
    }
    /* symmetry gates only where the forces have an energy they agree with */
    if (R->r->c[CC_SYS_C_SYM].applies && R->r->c[CC_SYS_C_FORCE].applies && R->r->c[CC_SYS_C_FORCE].tests &&
        !R->r->c[CC_SYS_C_FORCE].pass)
        R->r->c[CC_SYS_C_SYM].gates = 0, R->r->c[CC_SYS_C_SYM].note = "reported, not gated: the force does not agree with the energy";
}

int cc_sys_run(const cc_sys_target *t, const cc_sys_opts *o, cc_sys_report *r, char *err)
{
    run R = {.t = t, .o = o, .r = r, .nv = t->mesh->nv, .n = 3 * t->mesh->nv, .L = mean_edge(t->mesh), .bends = -1,
             .g = cc_rng_make(o->seed, 0x5157), .state = "", .err = err};
    memset(r, 0, sizeof *r);
    set_precision(&R, 0);   /* until the target's first answer says otherwise */
    int ok = cc_sys_eval_init(&R.e, R.n) == 0 && cc_sys_eval_init(&R.p, R.n) == 0 && o->nterms <= CC_SYS_MAX_TERMS;
    for (int i = 0; i < 6; i++) ok = ok && (R.w[i] = malloc(sizeof(double) * (size_t)R.n)) != NULL;
    ok = ok && (R.xs = malloc(sizeof(double) * (size_t)R.n)) != NULL && (R.vs = malloc(sizeof(double) * (size_t)R.n)) != NULL;
    for (int i = 0; i < o->nterms; i++) ok = ok && (R.tf[i] = malloc(sizeof(double) * (size_t)R.n)) != NULL;
    double *x = malloc(sizeof(double) * (size_t)R.n), *v = malloc(sizeof(double) * (size_t)R.n);
    if (!ok || !x || !v) snprintf(err, CC_ERRLEN, "out of memory"), R.failed = 1;
    if (!R.failed) plan(&R);
    const char *name;
    for (int k = 0; !R.failed && make_state(&R, k, x, v, &name) == 0; k++) {
        r->state_name[r->nstates++] = name;
        R.state = name;
        R.tainted = 0;
        check_state(&R, x, v);
    }
    if (!R.failed && R.mass_pending[0] && !r->c[CC_SYS_C_MASS].nfind) {
        cc_sys_check *m = &r->c[CC_SYS_C_MASS];
        snprintf(m->find[m->nfind++], sizeof m->find[0], "%s", R.mass_pending);
    }
    if (!R.failed) check_energies(&R), verdicts(&R);
    cc_sys_eval_free(&R.e), cc_sys_eval_free(&R.p);
    for (int i = 0; i < 6; i++) free(R.w[i]);
    free(R.xs), free(R.vs);
    for (int i = 0; i < o->nterms; i++) free(R.tf[i]);
    free(x), free(v);
    return R.failed ? -1 : 0;
}

int cc_sys_failed(const cc_sys_report *r)
{
    for (int c = 0; c < CC_SYS_CHECKS; c++)
        if (r->c[c].gates && !r->c[c].pass) return 1;
    return 0;
}
