/* Diagnosis of failing audit rows (see diagnose.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "checks/audit.h"
#include "checks/diagnose.h"
#include "conditions/hinge.h"
#include "conditions/triangle.h"

#define NMAX (CC_MAX_COMP * CC_MAX_DOF * CC_MAX_DOF)
#define SCAN 48             /* random elements scanned for failing ones, at most */
#define REST_ELEMENTS 4     /* elements of the off-rest family */
#define PARALLEL 1e-6       /* an error vector is along v if its part across v is below this share */
#define RIGID_BROKEN 1e-8   /* an identity of exact arithmetic is broken above this residual */
#define GROWTH_RHO 0.7      /* rank correlation from which an error grows with a feature */
#define CLEAR 10.0          /* an element fails clearly above CLEAR x the row's tolerance; below,
                               the difference may be the reference's own error */


/* every kind's name, rank and summary (kinds.h) */
typedef struct kind_info {
    const char *name;
    int rank;
    const char *summary;
} kind_info;

#define KIND_INFO(id, name, rank, detector, summary) {name, rank, summary},
static const kind_info kinds[CC_FIND_COUNT] = {CC_FINDING_KINDS(KIND_INFO)};
#undef KIND_INFO

const char *cc_finding_name(cc_finding_kind k) { return k >= 0 && k < CC_FIND_COUNT ? kinds[k].name : "?"; }

const char *cc_finding_summary(cc_finding_kind k) { return k >= 0 && k < CC_FIND_COUNT ? kinds[k].summary : "?"; }

/* the order findings are listed in: the kinds that explain the whole error first (kinds.h) */
static int rank(cc_finding_kind k) { return kinds[k].rank; }

/* 1 if a finding of dg already says what the error is (a sign, a factor, a relabelling, ...) */
static int explained(const cc_diagnosis *dg)
{
    for (int i = 0; i < dg->n; i++)
        if (rank(dg->f[i].kind) < 2 || dg->f[i].kind == CC_FIND_OFF_REST) return 1;
    return 0;
}

void cc_vertices_text(unsigned mask, char *buf, int len)
{
    int at = 0;
    buf[0] = '\0';
    for (int m = 0; m < CC_MAX_NV && at < len; m++)
        if (mask & (1u << m)) at += snprintf(buf + at, (size_t)(len - at), at ? ", %d" : "%d", m);
}

/* One element: the analytic and reference arrays, flattened (gradient k*n + i, Hessian
 * (k*n + i)*n + j), and what is needed for the structure checks. */
typedef struct sample {
    double x[CC_MAX_DOF];
    cc_rest r;
    cc_eval e;            /* analytic */
    cc_deriv d;           /* reference */
    double A[NMAX], R[NMAX];
    double noise;         /* differences below this are agreement: tol x the arrays' scale */
    double rel;           /* normwise relative error */
} sample;

/* The row being diagnosed. */
typedef struct job {
    const cc_audit *a;
    const cc_audit_row *w;
    const cc_target *t;
    int hess;             /* 1: Hessian arrays */
    int n;                /* 3 nv */
    int N;                /* entries of the flat arrays */
    unsigned all;         /* mask of every vertex */
} job;

/* out = the gradient (hess 0) or Hessian of g/H, flattened */
static void flatten(const job *j, double g[CC_MAX_COMP][CC_MAX_DOF], double H[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF],
                    double *out)
{
    int n = j->n;
    for (int k = 0; k < j->t->ncomp; k++)
        for (int i = 0; i < n; i++) {
            if (!j->hess) out[k * n + i] = g[k][i];
            else memcpy(out + (k * n + i) * n, H[k][i], sizeof(double) * (size_t)n);
        }
}

/* normwise relative error of two flat arrays and the scale max(|a|, |b|) */
static double rel_error(const double *a, const double *b, int N, double *scale)
{
    double worst = 0, s = 0;
    for (int e = 0; e < N; e++) {
        double d = fabs(a[e] - b[e]);
        if (isnan(d)) return NAN;
        worst = fmax(worst, d), s = fmax(s, fmax(fabs(a[e]), fabs(b[e])));
    }
    if (scale) *scale = s;
    return s > 0 ? worst / s : 0.0;
}

/* s = the analytic derivative and reference `ref` at (x, r); 0, or -1 if undefined */
static int load(const job *j, cc_ref ref, const double *x, const cc_rest *r, sample *s)
{
    const cc_target *t = j->t;
    memcpy(s->x, x, sizeof s->x);
    s->r = *r;
    int got = t->eval(t->ctx, x, r, CC_WANT_ALL, &s->e);
    if (got < 0 || (got & (CC_WANT_GRAD | CC_WANT_HESS)) != (CC_WANT_GRAD | CC_WANT_HESS)) return -1;
    if (cc_audit_reference(t, x, r, ref, j->w->q, &s->e, &s->d) < 0) return -1;
    flatten(j, s->e.dC, s->e.d2C, s->A);
    flatten(j, s->d.g, s->d.H, s->R);
    double scale = 0;
    s->rel = rel_error(s->A, s->R, j->N, &scale);
    s->noise = j->w->tol * scale;
    return isnan(s->rel) ? -1 : 0;
}

/* the failing random elements of the batch (or the row's worst element); their count */
static int gather(const job *j, sample *s)
{
    const cc_audit_opts *o = &j->a->opts;
    int nf = 0;
    double clear = CLEAR * j->w->tol;
    cc_case c;
    for (int id = 0; !o->only_case && id < o->samples && id < SCAN && nf < CC_DIAG_CASES; id++)   /* else: the one case */
        if (cc_case_make(j->t->nv, o->seed, id, &o->sample, &c) == 0 && load(j, j->w->ref, c.x, &c.r, &s[nf]) == 0
            && s[nf].rel > clear)
            nf++;
    if (nf == 0 && cc_case_make(j->t->nv, o->seed, j->w->worst_case, &o->sample, &c) == 0
        && load(j, j->w->ref, c.x, &c.r, &s[0]) == 0 && s[0].rel > clear)
        nf = 1;
    return nf;
}

/* the vertices of flat entry e */
static unsigned entry_vertices(const job *j, int e)
{
    int n = j->n;
    if (!j->hess) return 1u << ((e % n) / 3);
    return (1u << (((e / n) % n) / 3)) | (1u << ((e % n) / 3));
}

/* the vertices where A and R differ */
static unsigned error_vertices(const job *j, const sample *s)
{
    unsigned mask = 0;
    for (int e = 0; e < j->N; e++)
        if (fabs(s->A[e] - s->R[e]) > s->noise) mask |= entry_vertices(j, e);
    return mask;
}

#ifdef __GNUC__
static cc_finding *add(cc_diagnosis *dg, cc_finding_kind k, int share, int of, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
#endif

/* add a finding of kind k holding on share of of elements, its text by printf */
static cc_finding *add(cc_diagnosis *dg, cc_finding_kind k, int share, int of, const char *fmt, ...)
{
    if (dg->n >= CC_DIAG_MAX) return NULL;
    cc_finding *f = &dg->f[dg->n++];
    memset(f, 0, sizeof *f);
    f->kind = k;
    f->share = share;
    f->of = of;
    va_list ap;
    va_start(ap, fmt);
    int at = vsnprintf(f->text, sizeof f->text, fmt, ap);
    va_end(ap);
    if (share < of && at > 0 && at < (int)sizeof f->text)
        snprintf(f->text + at, sizeof f->text - (size_t)at, " (on %d of %d failing elements)", share, of);
    return f;
}

/* 1 if a kind that holds on `share` of `of` elements is worth reporting */
static int reported(int share, int of) { return share == of || (share >= 2 && 4 * share >= of); }

/* A = c R on the entries that differ (at least two); c and their vertices; 1 if it fits */
static int fit_scale(const job *j, const sample *s, double *c, unsigned *mask)
{
    double num = 0, den = 0;
    int cnt = 0;
    *mask = 0;
    for (int e = 0; e < j->N; e++)
        if (fabs(s->A[e] - s->R[e]) > s->noise) num += s->A[e] * s->R[e], den += s->R[e] * s->R[e], cnt++;
    if (cnt < 2 || !(den > 0)) return 0;
    *c = num / den;
    for (int e = 0; e < j->N; e++) {
        if (!(fabs(s->A[e] - s->R[e]) > s->noise)) continue;
        if (fabs(s->A[e] - *c * s->R[e]) > s->noise + PARALLEL * fabs(s->A[e])) return 0;
        *mask |= entry_vertices(j, e);
    }
    return 1;
}

static void find_scale(const job *j, const sample *s, int nf, cc_diagnosis *dg)
{
    double c[CC_DIAG_CASES];
    unsigned mask[CC_DIAG_CASES];
    int fits[CC_DIAG_CASES], best = -1, bestn = 0;
    double agree = fmax(1e-6, 100 * j->w->tol);
    for (int i = 0; i < nf; i++) fits[i] = fit_scale(j, &s[i], &c[i], &mask[i]);
    for (int i = 0; i < nf; i++) {
        if (!fits[i]) continue;
        int cnt = 0;
        for (int k = 0; k < nf; k++) cnt += fits[k] && fabs(c[k] - c[i]) <= agree * fmax(1.0, fabs(c[i]));
        if (cnt > bestn) bestn = cnt, best = i;
    }
    /* c within ten tolerances of 1: no factor (the differences' own error could make one) */
    if (best < 0 || !reported(bestn, nf) || fabs(c[best] - 1.0) <= fmax(10 * j->w->tol, 1e-6)) return;
    unsigned where = 0;
    for (int k = 0; k < nf; k++)
        if (fits[k] && fabs(c[k] - c[best]) <= agree * fmax(1.0, fabs(c[best]))) where |= mask[k];
    char v[32], on[48] = "";
    cc_vertices_text(where, v, sizeof v);
    if (where != j->all) snprintf(on, sizeof on, " on %s %s", strchr(v, ',') ? "vertices" : "vertex", v);
    int sign = fabs(c[best] + 1.0) <= agree;
    cc_finding *f = sign ? add(dg, CC_FIND_SIGN, bestn, nf,
                               "The analytic derivative is the negative of the reference%s: a sign error "
                               "(a term subtracted instead of added, or an angle measured the other way).", on)
                         : add(dg, CC_FIND_SCALE, bestn, nf,
                               "The analytic derivative is %.6g times the reference%s: a constant factor is "
                               "missing or extra (a 2 from a square, the area weight, a length).", c[best], on);
    if (f) f->factor = sign ? -1.0 : c[best], f->vertices = where != j->all ? where : 0;
}

/* the asymmetric vertex pairs of M (a Hessian, flat: A or R of s) */
static unsigned asym_of(const job *j, const sample *s, const double *M)
{
    unsigned mask = 0;
    int n = j->n;
    for (int k = 0; k < j->t->ncomp; k++)
        for (int i = 0; i < n; i++)
            for (int q = i + 1; q < n; q++)
                if (fabs(M[(k * n + i) * n + q] - M[(k * n + q) * n + i]) > s->noise)
                    mask |= (1u << (i / 3)) | (1u << (q / 3));
    return mask;
}

/* the asymmetric vertex pairs of A, where the reference is symmetric (a force's Jacobian,
 * Bridson's, need not be); 0 otherwise */
static unsigned asym_vertices(const job *j, const sample *s) { return asym_of(j, s, s->R) ? 0 : asym_of(j, s, s->A); }

/* 1 if the version of A (0 lower mirrored, 1 upper mirrored, 2 (A + A^T)/2) matches R */
static int half_matches(const job *j, const sample *s, int which)
{
    double B[NMAX];
    int n = j->n;
    for (int k = 0; k < j->t->ncomp; k++)
        for (int i = 0; i < n; i++)
            for (int q = 0; q < n; q++) {
                double lo = s->A[(k * n + (i > q ? i : q)) * n + (i > q ? q : i)];
                double up = s->A[(k * n + (i < q ? i : q)) * n + (i < q ? q : i)];
                double sym = 0.5 * (s->A[(k * n + i) * n + q] + s->A[(k * n + q) * n + i]);
                B[(k * n + i) * n + q] = which == 0 ? lo : which == 1 ? up : sym;
            }
    return rel_error(B, s->R, j->N, NULL) <= j->w->tol;
}

static void find_asymmetric(const job *j, const sample *s, int nf, cc_diagnosis *dg)
{
    if (!j->hess) return;
    unsigned where = 0;
    int cnt = 0, match[3] = {0, 0, 0};
    for (int i = 0; i < nf; i++) {
        unsigned m = asym_vertices(j, &s[i]);
        if (!m) continue;
        where |= m, cnt++;
        for (int h = 0; h < 3; h++) match[h] += half_matches(j, &s[i], h);
    }
    if (!cnt || !reported(cnt, nf)) return;
    static const char *const halves[3] = {
        "its lower triangle, mirrored, matches the reference: the upper one is wrong",
        "its upper triangle, mirrored, matches the reference: the lower one is wrong",
        "its symmetric part (H + H^T)/2 matches the reference"};
    const char *which = "neither triangle nor its symmetric part matches the reference";
    for (int h = 0; h < 3; h++)
        if (match[h] == cnt) {
            which = halves[h];
            break;
        }
    char v[32];
    cc_vertices_text(where, v, sizeof v);
    cc_finding *f = add(dg, CC_FIND_ASYMMETRIC, cnt, nf,
                        "The Hessian is not symmetric (blocks among vertices %s), but a second derivative "
                        "always is; %s.", v, which);
    if (f) f->vertices = where;
}

/* how many samples are the claim's derivatives with frozen magnitudes (cc_claim_eval_frozen) */
static int claim_frozen_count(const job *j, const sample *s, int nf)
{
    int cnt = 0;
    for (int i = 0; i < nf; i++) {
        double C[CC_MAX_COMP], R[NMAX];
        cc_deriv d;
        if (cc_claim_eval_frozen(&j->t->claims, s[i].x, &s[i].r, C, &d) < 0) continue;
        flatten(j, d.g, d.H, R);
        cnt += rel_error(s[i].A, R, j->N, NULL) <= fmax(1e-6, 100 * j->w->tol);
    }
    return cnt;
}

static const char *const frozen_text =
    "It agrees with the derivative taken with the magnitudes of normalised vectors held constant (001 Section 4), "
    "not with the true one: the change of a length was left out%s (see clothcheck derive for the step where that "
    "happens).";

static void find_frozen(const job *j, const sample *s, int nf, cc_diagnosis *dg)
{
    const cc_target *t = j->t;
    cc_ref r = j->w->ref;
    if ((r == CC_REF_CLAIM || r == CC_REF_CLAIM_EXACT) && t->claims.cond && j->w->q != CC_Q_HESS_GRADIENT) {
        if (t->claims.cond->claim != CC_CLAIM_EXACT && r == CC_REF_CLAIM) return;   /* its own formulas are the claim */
        /* the claimed variant's own frozen-magnitude derivatives: Pritchard's (54) where the exact
         * ones are claimed */
        int cnt = claim_frozen_count(j, s, nf);
        if (cnt && reported(cnt, nf)) add(dg, CC_FIND_FROZEN, cnt, nf, frozen_text, "");
        return;
    }
    if (!t->frozen || j->w->q == CC_Q_HESS_GRADIENT || (r != CC_REF_EXACT && r != CC_REF_FD_TRUE)) return;
    cc_ref fr = t->value_hd ? CC_REF_EXACT_FROZEN : CC_REF_FD_FROZEN;
    double tol = fr == CC_REF_EXACT_FROZEN ? CC_AUDIT_TOL_EXACT : j->hess ? CC_AUDIT_TOL_FD_HESS : CC_AUDIT_TOL_FD_GRAD;
    sample f;
    int cnt = 0, neg = 0;
    for (int i = 0; i < nf; i++) {
        if (load(j, fr, s[i].x, &s[i].r, &f) < 0) continue;
        if (f.rel <= tol) {
            cnt++;
            continue;
        }
        for (int e = 0; e < j->N; e++) f.R[e] = -f.R[e];
        neg += rel_error(f.A, f.R, j->N, NULL) <= tol;
    }
    char flip[96] = "";
    if (neg) snprintf(flip, sizeof flip, "; on %d of them with the opposite sign", neg);
    if (cnt + neg && reported(cnt + neg, nf)) add(dg, CC_FIND_FROZEN, cnt + neg, nf, frozen_text, flip);
}

/* a random rotation applied to the nv points of x */
static void rotate(cc_rng *g, double *x, int nv)
{
    double q[4], l = 0;
    for (int i = 0; i < 4; i++) q[i] = cc_rng_range(g, -1, 1), l += q[i] * q[i];
    l = sqrt(l);
    double w = q[0] / l, a = q[1] / l, b = q[2] / l, c = q[3] / l;
    double R[3][3] = {{1 - 2 * (b * b + c * c), 2 * (a * b - c * w), 2 * (a * c + b * w)},
                      {2 * (a * b + c * w), 1 - 2 * (a * a + c * c), 2 * (b * c - a * w)},
                      {2 * (a * c - b * w), 2 * (b * c + a * w), 1 - 2 * (a * a + b * b)}};
    for (int m = 0; m < nv; m++) {
        double p[3] = {x[3 * m], x[3 * m + 1], x[3 * m + 2]};
        for (int s = 0; s < 3; s++) x[3 * m + s] = R[s][0] * p[0] + R[s][1] * p[1] + R[s][2] * p[2];
    }
}

/* an element at rest (C = 0) and its rest data: element k of the off-rest family; 0 or -1 */
static int rest_element(const job *j, int k, double *x, cc_rest *r)
{
    const cc_audit_opts *o = &j->a->opts;
    cc_rng g = cc_rng_make(o->seed ^ 0x5eedu, (uint64_t)k);
    char err[CC_ERRLEN];
    int nv = j->t->nv;
    memset(x, 0, sizeof(double) * CC_MAX_DOF);
    if (nv == 3) {   /* a random (u,v) triangle laid flat with stretch b_u, b_v: |w_u| = b_u, w_u.w_v = 0 */
        cc_case c;
        if (cc_case_make(3, o->seed, k, &o->sample, &c) < 0) return -1;
        *r = c.r;
        x[3] = r->bu * r->du1, x[4] = r->bv * r->dv1, x[6] = r->bu * r->du2, x[7] = r->bv * r->dv2;
    } else if (nv == 4) {   /* a flat hinge, rest angle 0 */
        cc_sample_hinge_at_angle(0.0, cc_rng_range(&g, 0.5, 1.2), cc_rng_range(&g, 0.5, 1.2),
                                 cc_rng_range(&g, -0.3, 0.3), cc_rng_range(&g, -0.3, 0.3), x);
        if (cc_rest_hinge(r, 0.0, err) < 0) return -1;
    } else {   /* a spring at its rest length */
        double L = cc_rng_range(&g, 0.5, 1.5);
        x[3] = L;
        if (cc_rest_spring(r, L, err) < 0) return -1;
    }
    rotate(&g, x, nv);
    return 0;
}

/* x = random element k of the batch moved onto C = 0 by Newton steps along the reference's
 * gradient (the least-norm step x -= J^T (J J^T)^-1 C); 0, or -1 if it does not get there */
static int projected_rest(const job *j, int k, double *x, cc_rest *r)
{
    const cc_target *t = j->t;
    const cc_audit_opts *o = &j->a->opts;
    int n = j->n, nc = t->ncomp;
    cc_case c;
    if (cc_case_make(t->nv, o->seed, k, &o->sample, &c) < 0) return -1;
    memcpy(x, c.x, sizeof(double) * (size_t)n);
    *r = c.r;
    for (int it = 0; it < 30; it++) {
        double C[CC_MAX_COMP], M[CC_MAX_COMP][CC_MAX_COMP + 1], size = 0;
        cc_deriv d;
        if (cc_target_value(t, x, NULL, r, C) < 0) return -1;
        for (int i = 0; i < n; i++) size = fmax(size, fabs(x[i]));
        double worst = 0;
        for (int a = 0; a < nc; a++) worst = fmax(worst, fabs(C[a]));
        if (worst <= fmax(1e-13, 10 * o->precision) * fmax(1.0, size)) return 0;   /* zero to the target's digits */
        if (cc_audit_reference(t, x, r, j->w->ref, CC_Q_GRADIENT, NULL, &d) < 0) return -1;
        for (int a = 0; a < nc; a++) {   /* (J J^T | C), solved by elimination */
            for (int b = 0; b < nc; b++) {
                M[a][b] = 0;
                for (int i = 0; i < n; i++) M[a][b] += d.g[a][i] * d.g[b][i];
            }
            M[a][nc] = C[a];
        }
        for (int p = 0; p < nc; p++) {
            if (!(fabs(M[p][p]) > 1e-300)) return -1;
            for (int a = p + 1; a < nc; a++) {
                double f = M[a][p] / M[p][p];
                for (int b = p; b <= nc; b++) M[a][b] -= f * M[p][b];
            }
        }
        double lam[CC_MAX_COMP];
        for (int a = nc - 1; a >= 0; a--) {
            lam[a] = M[a][nc];
            for (int b = a + 1; b < nc; b++) lam[a] -= M[a][b] * lam[b];
            lam[a] /= M[a][a];
        }
        for (int i = 0; i < n; i++)
            for (int a = 0; a < nc; a++) x[i] -= d.g[a][i] * lam[a];
    }
    return -1;
}

/* 1 if the condition is not zero at x (its rest shape is not the one the audit knows) */
static int away_from_zero(const job *j, const double *x, const cc_rest *r)
{
    double C[CC_MAX_COMP];
    if (cc_target_value(j->t, x, NULL, r, C) < 0) return 0;
    for (int a = 0; a < j->t->ncomp; a++)
        if (fabs(C[a]) > fmax(1e-9, 100 * j->a->opts.precision)) return 1;
    return 0;
}

/* the errors of the row at 0, 3, 10, 30 % away from x0 along a random direction (element k) into
 * err; 0, or -1 if undefined there */
static int rest_errors(const job *j, int k, const double *x0, const cc_rest *r, double err[4])
{
    static const double taus[4] = {0.0, 0.03, 0.1, 0.3};
    double x[CC_MAX_DOF], delta[CC_MAX_DOF];
    sample s;
    cc_rng g = cc_rng_make(j->a->opts.seed ^ 0xde17au, (uint64_t)k);
    for (int i = 0; i < j->n; i++) delta[i] = cc_rng_range(&g, -1, 1);
    for (int q = 0; q < 4; q++) {
        for (int i = 0; i < j->n; i++) x[i] = x0[i] + taus[q] * delta[i];
        if (load(j, j->w->ref, x, r, &s) < 0) return -1;
        err[q] = s.rel;
    }
    return 0;
}

/* 1 if errors err[0..4) say: right at rest, wrong away from it, growing */
static int grows_off_rest(const job *j, const double err[4])
{
    double tol = j->w->tol, far = fmax(err[2], err[3]);
    return err[0] <= tol && far > 10 * tol && err[1] < 0.5 * far;
}

static void find_off_rest(const job *j, const sample *s, int nf, cc_diagnosis *dg)
{
    (void)s, (void)nf;
    double err[REST_ELEMENTS][4], x0[CC_MAX_DOF];
    cc_rest r;
    int projected = 0;
    for (int k = 0; k < REST_ELEMENTS; k++) {
        /* the element's rest shape as the audit knows it, or, where the condition is not zero
         * there, a random element moved onto C = 0 */
        if (rest_element(j, k, x0, &r) < 0 || rest_errors(j, k, x0, &r, err[k]) < 0) return;
        if (err[k][0] > j->w->tol) {
            if (!away_from_zero(j, x0, &r)) return;   /* wrong at its rest: not this kind */
            if (projected_rest(j, k, x0, &r) < 0 || rest_errors(j, k, x0, &r, err[k]) < 0) return;
            projected++;
        }
        if (!grows_off_rest(j, err[k])) return;
    }
    add(dg, CC_FIND_OFF_REST, REST_ELEMENTS, REST_ELEMENTS,
        "It is right at the rest state (C = 0%s) and wrong away from it, the error growing with the "
        "deformation (%.1e, %.1e, %.1e at 3, 10, 30 %% of the element's size): a term that vanishes "
        "at rest was dropped or approximated.", projected ? ", found by moving elements onto it" : "", err[0][1],
        err[0][2], err[0][3]);
}

/* translation and rotation residuals of the analytic derivative (an) and of the reference (base) */
static void rigid_residuals(const job *j, sample *s, double an[2], double base[2])
{
    const cc_target *t = j->t;
    if (!j->hess) {
        an[0] = cc_structure(CC_CHECK_TRANSLATION, s->x, t->nv, t->ncomp, s->e.dC, s->e.d2C).rel;
        an[1] = cc_structure(CC_CHECK_ROTATION, s->x, t->nv, t->ncomp, s->e.dC, s->e.d2C).rel;
        base[0] = cc_structure(CC_CHECK_TRANSLATION, s->x, t->nv, t->ncomp, s->d.g, s->d.H).rel;
        base[1] = cc_structure(CC_CHECK_ROTATION, s->x, t->nv, t->ncomp, s->d.g, s->d.H).rel;
        return;
    }
    cc_diff tr, ro;
    cc_structure_rigid_parts(s->x, t->nv, t->ncomp, s->e.dC, s->e.d2C, &tr, &ro);
    an[0] = tr.rel, an[1] = ro.rel;
    cc_structure_rigid_parts(s->x, t->nv, t->ncomp, s->e.dC, s->d.H, &tr, &ro);
    base[0] = tr.rel, base[1] = ro.rel;
}

static void find_rigid(const job *j, const sample *s, int nf, cc_diagnosis *dg)
{
    int cnt[2] = {0, 0};
    double base_tol = j->w->ref == CC_REF_EXACT || j->w->ref == CC_REF_EXACT_FROZEN ? 100 * CC_AUDIT_TOL_STRUCTURE
                                                                                     : CC_AUDIT_TOL_FD_HESS;
    for (int i = 0; i < nf; i++) {
        double an[2], base[2];
        sample c = s[i];   /* the structure checks take the arrays unqualified */
        rigid_residuals(j, &c, an, base);
        for (int q = 0; q < 2; q++) cnt[q] += an[q] > RIGID_BROKEN && base[q] <= base_tol;
    }
    if (cnt[0] && reported(cnt[0], nf))
        add(dg, CC_FIND_TRANSLATION, cnt[0], nf,
            "Its vertex blocks do not sum to zero: moving the whole element, which cannot change C, "
            "would change it. A term added at one vertex lacks its opposite at another.");
    if (cnt[1] && reported(cnt[1], nf))
        add(dg, CC_FIND_ROTATION, cnt[1], nf,
            "It changes under a rigid rotation of the element, which cannot change C: a direction or "
            "a cross-product term is wrong.");
}

static void find_localized(const job *j, const sample *s, int nf, cc_diagnosis *dg)
{
    unsigned where = 0;
    for (int i = 0; i < nf; i++) where |= error_vertices(j, &s[i]);
    if (!where || where == j->all) return;
    char v[32];
    cc_vertices_text(where, v, sizeof v);
    cc_finding *f = add(dg, CC_FIND_LOCALIZED, nf, nf,
                        "The error lives on %s %s only; the other vertices are right.",
                        strchr(v, ',') ? "vertices" : "vertex", v);
    if (f) f->vertices = where;
}

/* 1 if the Hessian error of s is c g g^T in every component (g its analytic gradient, c its
 * own per component) on the entries that differ */
static int rank_one_gradient(const job *j, const sample *s)
{
    int n = j->n, differs = 0;
    for (int k = 0; k < j->t->ncomp; k++) {
        const double *g = s->e.dC[k], *A = s->A + k * n * n, *R = s->R + k * n * n;
        double gEg = 0, gg = 0;
        for (int a = 0; a < n; a++) {
            gg += g[a] * g[a];
            for (int b = 0; b < n; b++) gEg += g[a] * (A[a * n + b] - R[a * n + b]) * g[b];
        }
        if (!(gg > 0)) continue;
        double c = gEg / (gg * gg);
        for (int e = 0; e < n * n; e++) {
            double err = A[e] - R[e];
            differs += fabs(err) > s->noise;
            if (fabs(err - c * g[e / n] * g[e % n]) > s->noise + PARALLEL * fabs(err)) return 0;
        }
    }
    return differs >= 2;
}

/* 1 if s's error, in the force form of a claimed condition, is sum_k c_k dC_k dC_k^T over the
 * condition's components (dC_k the claim's): each component's Hessian off by a multiple of its
 * own g g^T */
static int rank_one_components(const job *j, const sample *s)
{
    cc_claim_spec c = j->t->claims;
    double C[CC_MAX_COMP], E[NMAX], B[CC_MAX_COMP][NMAX], M[CC_MAX_COMP][CC_MAX_COMP + 1] = {{0}};
    cc_deriv d;
    c.as_energy = 0;
    if (!c.cond || cc_claim_eval(&c, s->x, &s->r, C, &d) < 0) return 0;
    int n = j->n, nc = c.cond->ncomp, differs = 0;
    for (int e = 0; e < n * n; e++) E[e] = s->A[e] - s->R[e], differs += fabs(E[e]) > s->noise;
    for (int k = 0; k < nc; k++)
        for (int e = 0; e < n * n; e++) B[k][e] = d.g[k][e / n] * d.g[k][e % n];
    for (int a = 0; a < nc; a++) {   /* the normal equations of E = sum_k c_k B_k */
        for (int b = 0; b < nc; b++)
            for (int e = 0; e < n * n; e++) M[a][b] += B[a][e] * B[b][e];
        for (int e = 0; e < n * n; e++) M[a][nc] += B[a][e] * E[e];
    }
    for (int p = 0; p < nc; p++) {
        if (!(fabs(M[p][p]) > 1e-300)) return 0;
        for (int a = p + 1; a < nc; a++) {
            double f = M[a][p] / M[p][p];
            for (int b = p; b <= nc; b++) M[a][b] -= f * M[p][b];
        }
    }
    double cf[CC_MAX_COMP];
    for (int a = nc - 1; a >= 0; a--) {
        cf[a] = M[a][nc];
        for (int b = a + 1; b < nc; b++) cf[a] -= M[a][b] * cf[b];
        cf[a] /= M[a][a];
    }
    for (int e = 0; e < n * n; e++) {
        double fit = 0;
        for (int k = 0; k < nc; k++) fit += cf[k] * B[k][e];
        if (fabs(E[e] - fit) > s->noise + PARALLEL * fabs(E[e])) return 0;
    }
    return differs >= 2;
}

/* Hessian rows: the error is a multiple of g g^T -- the part of a unit vector's derivative
 * along itself, which the projector (I - n^ n^T) of d n^ = (I - n^ n^T) dn/|n| removes (in the
 * force form of a claimed condition, component by component) */
static void find_projector(const job *j, const sample *s, int nf, cc_diagnosis *dg)
{
    if (!j->hess) return;
    int share = 0, force = j->t->claims.as_energy && j->t->claims.cond &&
                           (j->w->ref == CC_REF_CLAIM || j->w->ref == CC_REF_CLAIM_EXACT);
    for (int i = 0; i < nf; i++) share += force ? rank_one_components(j, &s[i]) : rank_one_gradient(j, &s[i]);
    if (!reported(share, nf)) return;
    add(dg, CC_FIND_PROJECTOR, share, nf,
        "The error is a multiple of g g^T, g the gradient: the derivative of a unit vector keeps its part along "
        "itself. Usually the projector of d n^ = (I - n^ n^T) dn / |n| is left out (001 (15)).");
}

/* The named vectors of an element. */
typedef struct named {
    int count;
    const char *name[6];
    cc_v3 v[6];
} named;

static void named_vectors(const job *j, const sample *s, named *nv)
{
    const double *x = s->x;
    cc_v3 p[4];
    for (int m = 0; m < j->t->nv; m++) p[m] = cc_v3_load(x + 3 * m);
    nv->count = 0;
#define NAME(str, vec) (nv->name[nv->count] = (str), nv->v[nv->count++] = (vec))
    if (j->t->nv == 2) NAME("d = x0 - x1", cc_v3_sub(p[0], p[1]));
    if (j->t->nv == 3) {
        NAME("the edge x1 - x0", cc_v3_sub(p[1], p[0]));
        NAME("the edge x2 - x0", cc_v3_sub(p[2], p[0]));
        NAME("the edge x2 - x1", cc_v3_sub(p[2], p[1]));
        NAME("the normal n", cc_v3_cross(cc_v3_sub(p[1], p[0]), cc_v3_sub(p[2], p[0])));
        NAME("w_u", cc_tri_w(x, s->r.dwu));
        NAME("w_v", cc_tri_w(x, s->r.dwv));
    }
    if (j->t->nv == 4) {
        cc_hinge h;
        (void)cc_hinge_make(x, &h);
        NAME("the shared edge e", h.e);
        NAME("the normal n^A", h.nA);
        NAME("the normal n^B", h.nB);
    }
#undef NAME
}

/* 1 if vector u (3 entries with stride `stride` from p) lies along unit vh, or is noise */
static int along(const double *p, int stride, cc_v3 vh, double noise, int *checked)
{
    cc_v3 u = cc_v3_make(p[0], p[stride], p[2 * stride]);
    double len = cc_v3_norm(u);
    if (!(len > noise)) return 1;
    (*checked)++;
    return cc_v3_norm(cc_v3_axpy(u, -cc_v3_dot(u, vh), vh)) <= PARALLEL * len + noise;
}

/* 1 if every error vector of s lies along vh (for a Hessian: each block's columns, or rows) */
static int all_along(const job *j, const sample *s, cc_v3 vh)
{
    double E[NMAX];
    int n = j->n, checked = 0;
    for (int e = 0; e < j->N; e++) E[e] = s->A[e] - s->R[e];
    for (int k = 0; k < j->t->ncomp; k++)
        for (int m = 0; m < j->t->nv; m++) {
            if (!j->hess) {
                if (!along(E + k * n + 3 * m, 1, vh, s->noise, &checked)) return 0;
                continue;
            }
            for (int q = 0; q < j->t->nv; q++) {
                const double *blk = E + (k * n + 3 * m) * n + 3 * q;
                int cols = 1, rows = 1;
                for (int c = 0; c < 3; c++) {
                    cols &= along(blk + c, n, vh, s->noise, &checked);
                    rows &= along(blk + c * n, 1, vh, s->noise, &checked);
                }
                if (!cols && !rows) return 0;
            }
        }
    return checked > 0;
}

static void find_direction(const job *j, const sample *s, int nf, cc_diagnosis *dg)
{
    named nv;
    int cnt[6] = {0}, best = -1;
    const char *name[6] = {0};
    for (int i = 0; i < nf; i++) {
        named_vectors(j, &s[i], &nv);
        for (int v = 0; v < nv.count; v++) {
            double l = cc_v3_norm(nv.v[v]);
            name[v] = nv.name[v];
            if (l > 0) cnt[v] += all_along(j, &s[i], cc_v3_scale(nv.v[v], 1.0 / l));
        }
    }
    for (int v = 0; v < 6; v++)
        if (name[v] && cnt[v] && (best < 0 || cnt[v] > cnt[best])) best = v;
    if (best < 0 || !reported(cnt[best], nf)) return;
    unsigned where = 0;
    for (int i = 0; i < nf; i++) where |= error_vertices(j, &s[i]);
    char v[32];
    cc_vertices_text(where, v, sizeof v);
    cc_finding *f = add(dg, CC_FIND_DIRECTION, cnt[best], nf,
                        "The error at %s %s points along %s: look at the terms of the formula "
                        "in that direction.", strchr(v, ',') ? "vertices" : "vertex", v, name[best]);
    if (f) f->along = name[best], f->vertices = where;
}

/* c = (A.R)/(R.R) on s; 1 if A = c R holds entry by entry there */
static int fit_factor(const job *j, const sample *s, double *c)
{
    double num = 0, den = 0;
    for (int e = 0; e < j->N; e++) num += s->A[e] * s->R[e], den += s->R[e] * s->R[e];
    if (!(den > 0)) return 0;
    *c = num / den;
    for (int e = 0; e < j->N; e++)
        if (fabs(s->A[e] - *c * s->R[e]) > s->noise + PARALLEL * fabs(s->A[e])) return 0;
    return 1;
}

/* The named quantities of an element a factor may follow. */
typedef struct features {
    int count;
    const char *name[12];
    double v[12];
    double area_power;    /* a triangle's: the p of alpha = a^p its rest data carries (0 otherwise) */
} features;

static void element_features(const job *j, const double *x, const cc_rest *r, features *f)
{
    f->count = 0;
    f->area_power = j->t->nv == 3 ? r->area_power : 0;
#define FEAT(str, val) (f->name[f->count] = (str), f->v[f->count++] = (val))
    if (j->t->nv == 3) {
        cc_v3 p0 = cc_v3_load(x), p1 = cc_v3_load(x + 3), p2 = cc_v3_load(x + 6);
        FEAT("the area weight alpha", r->alpha);
        FEAT("the rest area a", r->area);
        FEAT("the world area", 0.5 * cc_v3_norm(cc_v3_cross(cc_v3_sub(p1, p0), cc_v3_sub(p2, p0))));
        FEAT("|w_u|", cc_v3_norm(cc_tri_w(x, r->dwu)));
        FEAT("|w_v|", cc_v3_norm(cc_tri_w(x, r->dwv)));
    } else if (j->t->nv == 4) {
        cc_hinge h;
        if (cc_hinge_make(x, &h) < 0) return;
        FEAT("|e|", h.le);
        FEAT("|nA|", h.lA);
        FEAT("|nB|", h.lB);
        FEAT("|nA|/|nB|", h.lA / h.lB);
        FEAT("|nA| + |nB|", h.lA + h.lB);
        FEAT("(|nA| + |nB|)/|nA|", (h.lA + h.lB) / h.lA);
        FEAT("(|nA| + |nB|)/|nB|", (h.lA + h.lB) / h.lB);
        FEAT("cos(theta/2)", cos(0.5 * h.theta));
        FEAT("the rest weight |e_rest| sqrt(3/A_rest)", r->rest_weight);
    } else {
        FEAT("|x0 - x1|", cc_v3_norm(cc_v3_sub(cc_v3_load(x), cc_v3_load(x + 3))));
        FEAT("the rest length L", r->rest_length);
    }
#undef FEAT
}

/* the name and power of the feature that c[i] = lambda feature^power follows on every sample;
 * 0 if none */
static int factor_follows(const features *f, const double *c, int nf, const char **name, double *power, double *lambda)
{
    static const double powers[10] = {1, -1, 2, -2, 0.5, -0.5, 0.25, -0.25, 0.75, -0.75};
    const features f0 = f[0];
    for (int q = 0; q < f0.count; q++)
        for (int pi = 0; pi < 10; pi++) {
            double p = powers[pi];
            if (!(f0.v[q] > 0)) continue;
            double lam = c[0] / pow(f0.v[q], p);
            int ok = 1;
            for (int i = 1; i < nf && ok; i++) ok = f[i].v[q] > 0 && fabs(c[i] - lam * pow(f[i].v[q], p)) <= 1e-6 * fabs(c[i]);
            if (ok) return *name = f0.name[q], *power = p, *lambda = lam, 1;
        }
    return 0;
}

static void add_proportional(const features *f, const double *c, int nf, double lo, double hi, const char *what,
                             cc_diagnosis *dg);

static void find_proportional(const job *j, const sample *s, int nf, cc_diagnosis *dg)
{
    double c[CC_DIAG_CASES], lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < nf; i++) {
        if (!fit_factor(j, &s[i], &c[i])) return;
        lo = fmin(lo, c[i]), hi = fmax(hi, c[i]);
    }
    if (nf < 2 || hi - lo <= 1e-6 * fmax(fabs(lo), fabs(hi))) return;   /* one factor: scale */
    features f[CC_DIAG_CASES];
    for (int i = 0; i < nf; i++) element_features(j, s[i].x, &s[i].r, &f[i]);
    add_proportional(f, c, nf, lo, hi, "analytic derivative", dg);
}

/* the proportional finding: the factors c[0..nf) between lo and hi, of the elements with the
 * features f, and what they follow */
static void add_proportional(const features *f, const double *c, int nf, double lo, double hi, const char *what,
                             cc_diagnosis *dg)
{
    const char *name;
    double p, lam;
    char follows[240];
    int area = 0;
    if (factor_follows(f, c, nf, &name, &p, &lam)) {
        char lead[32] = "", pw[16] = "";
        if (fabs(lam - 1) > 1e-6) snprintf(lead, sizeof lead, "%.6g x ", lam);
        if (p != 1) snprintf(pw, sizeof pw, "^%g", p);
        double ap = f[0].area_power, q = !strcmp(name, "the area weight alpha") ? p * ap : !strcmp(name, "the rest area a") ? p : 0;
        area = q != 0 && fabs(lam - 1) <= 1e-6 && ap + q > 0;
        if (area)   /* alpha = a^P with another P */
            snprintf(follows, sizeof follows, "it is %s%s on every element: the area weight is a^%g where the requests "
                     "carry area_power %g (audit it as it is with --area-power %g)", name, pw, ap + q, ap, ap + q);
        else
            snprintf(follows, sizeof follows, "it is %s%s%s on every element: that quantity is missing or extra, "
                     "or in the wrong place", lead, name, pw);
    }
    else
        snprintf(follows, sizeof follows, "it follows none of the element's named quantities (areas, lengths, "
                 "alpha, |nA|/|nB|)");
    add(dg, CC_FIND_PROPORTIONAL, nf, nf,
        "The %s is the reference times a factor that changes from element to element (%.4g to %.4g): %s.", what, lo,
        hi, follows);
}

/* A Reordering of the entries: the analytic derivative is R with its vertices or axes moved. */
typedef struct reorder {
    int perm[CC_MAX_NV];   /* vertex m of the program is our vertex perm[m] */
    int axis_major;        /* 1: entries laid out x of every vertex, then y, then z */
    int transposed;        /* 1: a Jacobian transposed */
    int x_only;            /* 1: the positions relabelled, the rest data (a triangle's (u, v)) not; for a
                              hinge, its rest shape relabelled but theta0 the request's */
} reorder;

/* flat index of (vertex m, axis s) under o */
static int moved(const job *j, const reorder *o, int m, int s)
{
    return o->axis_major ? s * j->t->nv + m : 3 * o->perm[m] + s;
}

/* the positions and rest data as a program with labels o reads them (cc_case_relabel) */
static int relabel_input(const job *j, const reorder *o, const double *x, const cc_rest *r0, double *y, cc_rest *r)
{
    return cc_case_relabel(j->t->nv, o->perm, o->x_only, x, r0, y, r);
}

/* 1 if s's analytic derivative is its reference reordered by o */
static int reorder_matches(const job *j, const reorder *o, const sample *s)
{
    double E[NMAX], y[CC_MAX_DOF];
    const double *R = s->R;
    sample t;
    int n = j->n, nv = j->t->nv, ident = 1;
    for (int m = 0; m < nv; m++) ident &= o->perm[m] == m;
    if (!ident) {   /* the reference at the relabelled element, its entries put back in our slots */
        cc_rest r;
        if (relabel_input(j, o, s->x, &s->r, y, &r) < 0 || cc_audit_reference(j->t, y, &r, j->w->ref, j->w->q, &s->e, &t.d) < 0)
            return 0;
        flatten(j, t.d.g, t.d.H, t.R);
        R = t.R;
    }
    for (int k = 0; k < j->t->ncomp; k++)
        for (int m = 0; m < nv; m++)
            for (int a = 0; a < 3; a++) {
                int i = moved(j, o, m, a);
                if (!j->hess) {
                    E[k * n + i] = R[k * n + 3 * m + a];
                    continue;
                }
                for (int q = 0; q < nv; q++)
                    for (int b = 0; b < 3; b++) {
                        int jj = moved(j, o, q, b), from = (k * n + 3 * m + a) * n + 3 * q + b;
                        if (o->transposed) E[(k * n + jj) * n + i] = R[from];
                        else E[(k * n + i) * n + jj] = R[from];
                    }
            }
    double tol = fmax(1e-6, 100 * j->w->tol);
    return rel_error(s->A, E, j->N, NULL) <= tol;
}

/* next permutation of p[0..n) in lexicographic order; 0 after the last */
static int next_perm(int *p, int n)
{
    int i = n - 2;
    while (i >= 0 && p[i] >= p[i + 1]) i--;
    if (i < 0) return 0;
    int k = n - 1;
    while (p[k] <= p[i]) k--;
    int t = p[i];
    p[i] = p[k], p[k] = t;
    for (int a = i + 1, b = n - 1; a < b; a++, b--) t = p[a], p[a] = p[b], p[b] = t;
    return 1;
}

/* how many of the samples match reordering o */
static int reorder_count(const job *j, const reorder *o, const sample *s, int nf)
{
    int cnt = 0;
    for (int i = 0; i < nf; i++) cnt += reorder_matches(j, o, &s[i]);
    return cnt;
}

static void find_relabelled(const job *j, const sample *s, int nf, cc_diagnosis *dg)
{
    cc_ref r = j->w->ref;
    int exact = r == CC_REF_CLAIM || r == CC_REF_CLAIM_EXACT || r == CC_REF_EXACT || r == CC_REF_EXACT_FROZEN;
    int claimed = j->t->claims.cond || j->t->claims.bridson_force;
    if (!exact && (j->t->value_hd || claimed || (r != CC_REF_FD_TRUE && r != CC_REF_FD_FROZEN)))
        return;   /* differences only where no exact reference says it (a condition written in Lua) */
    for (int i = 0; i < dg->n; i++)   /* a sign, a factor or frozen magnitudes on every element say it already */
        if ((dg->f[i].kind == CC_FIND_SIGN || dg->f[i].kind == CC_FIND_SCALE || dg->f[i].kind == CC_FIND_FROZEN) &&
            !dg->f[i].vertices && dg->f[i].share == dg->f[i].of)
            return;
    if (!exact && nf > 4) nf = 4;   /* a reference differenced anew per element and order: a layout holds on all */
    int nv = j->t->nv;
    for (int x_only = 0; x_only < (nv >= 3 ? 2 : 1); x_only++) {   /* a triangle's positions alone, a hinge's theta0 as given */
        reorder o = {{0, 1, 2, 3}, 0, 0, x_only};
        while (next_perm(o.perm, nv)) {
            int cnt = reorder_count(j, &o, s, nf);
            if (!cnt || !reported(cnt, nf)) continue;
            char map[64] = "", ours[64] = "";
            for (int m = 0, at = 0, bt = 0; m < nv; m++) {
                at += snprintf(map + at, sizeof map - (size_t)at, m ? ", x%d" : "x%d", m);
                bt += snprintf(ours + bt, sizeof ours - (size_t)bt, m ? ", x%d" : "x%d", o.perm[m]);
            }
            add(dg, CC_FIND_RELABELLED, cnt, nf, "The numbers are right for the vertices in another order: your %s are our %s%s.",
                map, ours,
                nv == 4 ? " (papers label hinges differently; here the shared edge is x1-x2, the wings x0 and x3)"
                : x_only ? ", with the (u, v) of each vertex as we give them (the positions read in another order than "
                           "the rest coordinates)" : "");
            if (x_only && nv == 4 && dg->n) {   /* say what was kept */
                cc_finding *f = &dg->f[dg->n - 1];
                size_t at = strlen(f->text);
                snprintf(f->text + at, sizeof f->text - at, " Its theta0 is the request's, not the relabelled rest hinge's.");
            }
            return;
        }
    }
    reorder axis = {{0, 1, 2, 3}, 1, 0, 0}, tr = {{0, 1, 2, 3}, 0, 1, 0};
    int cnt = reorder_count(j, &axis, s, nf);
    if (cnt && reported(cnt, nf))
        add(dg, CC_FIND_RELABELLED, cnt, nf,
            "The numbers are right but laid out axis-major (x of every vertex, then y, then z); clothcheck's "
            "layout is vertex-major: x0.x, x0.y, x0.z, x1.x, ...");
    cnt = j->hess ? reorder_count(j, &tr, s, nf) : 0;
    if (cnt && reported(cnt, nf))
        add(dg, CC_FIND_RELABELLED, cnt, nf,
            "The matrix is the transpose of the reference: entry [i][j] must be the derivative of component i "
            "with respect to coordinate j.");
}

/* ---- the claim under another hypothesis: the rest angle, the Gauss-Newton Jacobian ---- */

/* The hypotheses on the rest angle: theta0 ignored (0), taken with the wrong sign (1), theta
 * measured the other way round against the right theta0 (2: the numbers are the negatives of
 * those with -theta0), or theta - theta0 a whole turn off (3: theta or theta0 in [0, 2 pi), the
 * claim's with theta0 -+ 2 pi, either way, element by element; for a C of theta - theta0 only). */
#define REST_HYPOTHESES 4
#define REST_TURN 3

/* the rest data r with the rest angle hypothesis `which` takes (turn -1 or +1: which way a
 * whole turn goes) */
static cc_rest other_rest_angle(const cc_rest *r, int which, int turn)
{
    cc_rest o = *r;
    o.rest_angle = which == 0 ? 0.0 : which == REST_TURN ? r->rest_angle + turn * 2 * CC_PI : -r->rest_angle;
    return o;
}

/* the factor of hypothesis `which` on the claim's numbers with that rest angle */
static double rest_hypothesis_sign(int which) { return which == 2 ? -1.0 : 1.0; }

/* 1 if the claim reads the rest angle (a bend variant that does, or Bridson's force) */
static int claim_reads_rest_angle(const cc_claim_spec *c)
{
    if (c->bridson_force) return 1;
    return c->cond && c->cond->nv == 4 && strcmp(c->cond->variant, "quadratic");
}

/* how many samples are the reference with the rest angle as hypothesis `which` has it; *told =
 * how many have a rest angle that tells the hypothesis from no mistake or a plain sign
 * (|theta0| > 1e-6) */
static int rest_angle_count(const job *j, const sample *s, int nf, int which, int *told)
{
    int cnt = 0;
    *told = 0;
    for (int i = 0; i < nf; i++) {
        *told += which == REST_TURN || fabs(s[i].r.rest_angle) > 1e-6;
        int hit = 0;
        for (int turn = -1; turn <= (which == REST_TURN ? 1 : -1) && !hit; turn += 2) {
            cc_rest r = other_rest_angle(&s[i].r, which, turn);
            cc_deriv d;
            double R[NMAX];
            cc_eval e = s[i].e;
            if (cc_audit_reference(j->t, s[i].x, &r, j->w->ref, j->w->q, &e, &d) < 0) continue;
            flatten(j, d.g, d.H, R);
            for (int e = 0; e < j->N; e++) R[e] *= rest_hypothesis_sign(which);
            hit = rel_error(s[i].A, R, j->N, NULL) <= fmax(1e-6, 100 * j->w->tol);
        }
        cnt += hit;
    }
    return cnt;
}

static const char *const rest_angle_text[REST_HYPOTHESES] = {
    "The numbers are the claim's with the rest angle taken as 0: theta0 (the request's \"theta0\", the angle of "
    "\"x_rest\") is ignored, where C = theta - theta0 (001 (30); 004's Bridson force with sin(theta0/2)).",
    "The numbers are the claim's with the rest angle's sign flipped: theta + theta0 where theta - theta0 belongs "
    "(measure theta0 as theta is measured, atan2 of the rest hinge in the same labels).",
    "Theta is measured the other way round: the numbers are the negatives of the claim's with theta0's sign "
    "flipped, -theta - theta0 where theta - theta0 belongs (a sign error in theta, or in the normals' order in "
    "its atan2, against the request's theta0).",
    "Theta - theta0 is a whole turn (2 pi) off where theta and theta0 differ in sign: the numbers are the claim's "
    "with theta0 -+ 2 pi there, as theta (and theta0) taken in [0, 2 pi) give them (atan2's angle plus 2 pi where "
    "it is negative); take both in (-pi, pi], as atan2 gives them."};
static const cc_finding_kind rest_angle_kind[REST_HYPOTHESES] = {CC_FIND_REST_ANGLE, CC_FIND_REST_ANGLE, CC_FIND_SIGN,
                                                                 CC_FIND_ANGLE_RANGE};

/* 1 if hypothesis `which` can be asked of claim c: a whole turn only of a C of theta - theta0 (a
 * force of sin(theta/2), as Bridson's, has theta on another footing) */
static int rest_hypothesis_applies(const cc_claim_spec *c, int which) { return which != REST_TURN || !c->bridson_force; }

/* 1 if t's elements are hinges */
static int nv_is_hinge(const cc_target *t) { return t->nv == 4; }

static void find_rest_angle(const job *j, const sample *s, int nf, cc_diagnosis *dg)
{
    cc_ref r = j->w->ref;
    if ((r != CC_REF_CLAIM && r != CC_REF_CLAIM_EXACT) || !claim_reads_rest_angle(&j->t->claims)) return;
    for (int which = 0; which < REST_HYPOTHESES; which++) {
        if (!rest_hypothesis_applies(&j->t->claims, which)) continue;
        int told, cnt = rest_angle_count(j, s, nf, which, &told);
        if (told && reported(cnt, nf)) {
            add(dg, rest_angle_kind[which], cnt, nf, "%s", rest_angle_text[which]);
            return;
        }
    }
}

/* lambda with s's analytic Hessian = k (dC dC^T + lambda C d2C) of the claimed condition, the
 * energy's Hessian with its second term scaled (0: the Gauss-Newton Jacobian); 1 if that fits */
static int second_term_factor(const job *j, const sample *s, double *lambda)
{
    cc_claim_spec c = j->t->claims;
    double C[CC_MAX_COMP], G[NMAX], T[NMAX];
    cc_deriv d;
    c.as_energy = 0;
    if (cc_claim_eval(&c, s->x, &s->r, C, &d) < 0) return 0;
    int n = j->n, nc = c.cond->ncomp;
    double k = j->t->claims.k, num = 0, den = 0;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            double gg = 0, ch = 0;
            for (int q = 0; q < nc; q++) gg += d.g[q][a] * d.g[q][b], ch += C[q] * d.H[q][a][b];
            G[a * n + b] = k * gg, T[a * n + b] = k * ch;
            num += (s->A[a * n + b] - G[a * n + b]) * T[a * n + b], den += T[a * n + b] * T[a * n + b];
        }
    if (!(den > 0)) return 0;
    *lambda = num / den;
    if (fabs(*lambda) < 1e-6) *lambda = 0;
    for (int e = 0; e < n * n; e++) G[e] += *lambda * T[e];
    return rel_error(s->A, G, j->N, NULL) <= fmax(1e-6, 100 * j->w->tol);
}

/* the Jacobian of the force form k (dC dC^T + C d2C) with its second term left out (the
 * Gauss-Newton Jacobian) or scaled, by one factor or by one that follows a named quantity */
static void find_gauss_newton(const job *j, const sample *s, int nf, cc_diagnosis *dg)
{
    const cc_claim_spec *c = &j->t->claims;
    if (!j->hess || !c->as_energy || !c->cond || (j->w->ref != CC_REF_CLAIM && j->w->ref != CC_REF_CLAIM_EXACT)) return;
    double lam[CC_DIAG_CASES], lo = INFINITY, hi = -INFINITY;
    int fits = 0, zero = 0;
    for (int i = 0; i < nf; i++)
        if (second_term_factor(j, &s[i], &lam[fits])) {
            zero += lam[fits] == 0;
            lo = fmin(lo, lam[fits]), hi = fmax(hi, lam[fits]);
            fits++;
        }
    if (zero && reported(zero, nf)) {
        add(dg, CC_FIND_GAUSS_NEWTON, zero, nf,
            "The Jacobian is the Gauss-Newton one, -k dC dC^T: the term -k C d2C is left out. It is right at rest "
            "(C = 0) and keeps the matrix definite, but it is not the derivative of the force.");
        return;
    }
    if (fits < nf || nf < 1 || fabs(lo - 1) < 1e-6) return;
    if (hi - lo <= 1e-6 * fmax(fabs(lo), fabs(hi))) {
        add(dg, CC_FIND_SCALE, nf, nf, "Its term -k C d2C is %.6g times the claim's (the term -k dC dC^T is right): a "
            "factor on the condition's Hessian (the energy's second derivative has both).", lo)->factor = lo;
        return;
    }
    features f[CC_DIAG_CASES];
    for (int i = 0; i < nf; i++) element_features(j, s[i].x, &s[i].r, &f[i]);
    const char *name;
    double p, l;
    if (factor_follows(f, lam, nf, &name, &p, &l)) add_proportional(f, lam, nf, lo, hi, "term -k C d2C of the Jacobian", dg);
}

/* the Jacobian projected onto the definite matrices: the energy's Hessian with its negative
 * eigenvalues clamped (a solver's safeguard, not the derivative of the force) */
static void find_projected(const job *j, const sample *s, int nf, cc_diagnosis *dg)
{
    const cc_claim_spec *c = &j->t->claims;
    if (!j->hess || !c->as_energy || !c->cond || (j->w->ref != CC_REF_CLAIM && j->w->ref != CC_REF_CLAIM_EXACT)) return;
    int cnt = 0;
    for (int i = 0; i < nf; i++) {
        double P[NMAX];
        cc_psd_projection(s[i].R, j->n, P);
        cnt += rel_error(s[i].A, P, j->N, NULL) <= fmax(1e-6, 100 * j->w->tol);
    }
    if (cnt && reported(cnt, nf))
        add(dg, CC_FIND_PROJECTED, cnt, nf,
            "The Jacobian is the claim's projected onto the definite matrices: the energy Hessian's negative "
            "eigenvalues set to 0. That keeps a solve stable, but it is not the derivative of the force.");
}

/* 1 if component k of s's analytic derivative is component c of its reference */
static int component_is(const job *j, const sample *s, int k, int c)
{
    int len = j->N / j->t->ncomp;
    return rel_error(s->A + k * len, s->R + c * len, len, NULL) <= fmax(1e-6, 100 * j->w->tol);
}

static void find_swap(const job *j, const sample *s, int nf, cc_diagnosis *dg)
{
    int nc = j->t->ncomp;
    for (int k = 0; k < nc; k++)
        for (int c = 0; c < nc; c++) {
            if (c == k) continue;
            int cnt = 0;
            for (int i = 0; i < nf; i++) cnt += component_is(j, &s[i], k, c) && !component_is(j, &s[i], k, k);
            if (cnt && reported(cnt, nf))
                add(dg, CC_FIND_SWAP, cnt, nf,
                    "Component %d holds component %d's numbers (for stretch: C_u's for C_v's, or the other way): "
                    "check which condition each part computes.", k, c);
        }
}

static const char *nonfinite_advice(const cc_target *t, const cc_case *c, char *buf, size_t len);
static const char *nonfinite_advice_at(const cc_audit *a, int id, char *buf, size_t len);

/* the worst element's analytic derivative is NaN or infinite: say where */
static void find_nonfinite(const job *j, const sample *s, int nf, cc_diagnosis *dg)
{
    const cc_audit *a = j->a;
    const cc_audit_row *w = j->w;
    (void)s, (void)nf;
    if (isfinite(w->worst.analytic)) return;   /* a reference that is not finite is not the target's */
    char label[64], advice[200];
    cc_case_label(a->target.nv, w->worst_case, label, sizeof label);
    add(dg, CC_FIND_NONFINITE, 1, 1,
        "The analytic derivative is %s at %s %s: %s.", isnan(w->worst.analytic) ? "NaN" : "infinite",
        w->worst_case < 0 ? "edge case" : "element", label, nonfinite_advice_at(a, w->worst_case, advice, sizeof advice));
}

/* The features of an element an error may grow with (growth_features). */
static void growth_features(const job *j, const double *x, const cc_rest *r, features *f)
{
    f->count = 0;
#define FEAT(str, val) (f->name[f->count] = (str), f->v[f->count++] = (val))
    if (j->t->nv == 4) {
        cc_hinge h;
        if (cc_hinge_make(x, &h) < 0) return;
        FEAT("the fold angle |theta|", fabs(h.theta));
        FEAT("the area ratio of the two triangles", fmax(h.lA, h.lB) / fmin(h.lA, h.lB));
        FEAT("the shared edge's length |e|", h.le);
        FEAT("the hinge's aspect |e|^2 / (|nA| + |nB|)", h.le * h.le / (h.lA + h.lB));
    } else if (j->t->nv == 3) {
        cc_v3 p0 = cc_v3_load(x), p1 = cc_v3_load(x + 3), p2 = cc_v3_load(x + 6);
        double a = cc_v3_norm(cc_v3_sub(p1, p0)), b = cc_v3_norm(cc_v3_sub(p2, p1)), c = cc_v3_norm(cc_v3_sub(p0, p2));
        double area = 0.5 * cc_v3_norm(cc_v3_cross(cc_v3_sub(p1, p0), cc_v3_sub(p2, p0)));
        FEAT("the aspect ratio (longest edge^2 / area)", fmax(a, fmax(b, c)) * fmax(a, fmax(b, c)) / area);
        FEAT("the stretch |w_u|", cc_v3_norm(cc_tri_w(x, r->dwu)));
        FEAT("the stretch |w_v|", cc_v3_norm(cc_tri_w(x, r->dwv)));
        FEAT("the world area over the rest area", area / r->area);
    } else {
        FEAT("the length over the rest length", cc_v3_norm(cc_v3_sub(cc_v3_load(x), cc_v3_load(x + 3))) / r->rest_length);
    }
#undef FEAT
}

/* rank of each of v[0..n) (ties share their mean rank) into rk */
static void ranks(const double *v, int n, double *rk)
{
    for (int i = 0; i < n; i++) {
        int less = 0, same = 0;
        for (int k = 0; k < n; k++) less += v[k] < v[i], same += v[k] == v[i];
        rk[i] = less + 0.5 * (same - 1);
    }
}

/* Spearman's rank correlation of a and b (n values) */
static double rank_correlation(const double *a, const double *b, int n)
{
    double ra[CC_DIAG_GROWTH], rb[CC_DIAG_GROWTH], ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;
    ranks(a, n, ra), ranks(b, n, rb);
    for (int i = 0; i < n; i++) ma += ra[i] / n, mb += rb[i] / n;
    for (int i = 0; i < n; i++)
        sab += (ra[i] - ma) * (rb[i] - mb), saa += (ra[i] - ma) * (ra[i] - ma), sbb += (rb[i] - mb) * (rb[i] - mb);
    return saa > 0 && sbb > 0 ? sab / sqrt(saa * sbb) : 0;
}

int cc_diagnose_growth(const cc_audit *a, const cc_audit_row *w, double *feature, double *error, const char **name)
{
    job j = {a, w, &a->target, w->q != CC_Q_GRADIENT, 3 * a->target.nv, 0, (1u << a->target.nv) - 1};
    j.N = a->target.ncomp * j.n * (j.hess ? j.n : 1);
    const cc_audit_opts *o = &a->opts;
    sample *s = malloc(sizeof *s);
    features f[CC_DIAG_GROWTH];
    double err[CC_DIAG_GROWTH];
    int n = 0;
    int ne = o->edges ? cc_edge_count(j.t->nv) : 0;
    for (int id = -ne; s && id < o->samples && n < CC_DIAG_GROWTH; id++) {   /* the edge cases, then random ones */
        cc_case c;
        if (cc_case_make(j.t->nv, o->seed, id, &o->sample, &c) < 0 || load(&j, w->ref, c.x, &c.r, s) < 0) continue;
        growth_features(&j, c.x, &c.r, &f[n]);
        err[n++] = fmax(s->rel, w->tol);   /* agreement ranks as a tie, not as round-off's noise */
    }
    free(s);
    if (n < 8 || f[0].count == 0) return 0;
    double lo = INFINITY, hi = 0, best = 0;
    for (int i = 0; i < n; i++) lo = fmin(lo, err[i]), hi = fmax(hi, err[i]);
    if (!(hi > 3 * fmax(lo, w->tol))) return 0;   /* about the same everywhere: grows with nothing */
    int q = -1;
    for (int k = 0; k < f[0].count; k++) {
        double v[CC_DIAG_GROWTH];
        for (int i = 0; i < n; i++) v[i] = f[i].v[k];
        double rho = rank_correlation(v, err, n);
        if (fabs(rho) > fabs(best)) best = rho, q = k;
    }
    if (q < 0 || fabs(best) < GROWTH_RHO) return 0;
    for (int i = 0; i < n; i++) feature[i] = f[i].v[q], error[i] = err[i];
    *name = f[0].name[q];
    return n;
}

/* the error grows with a feature of the element */
static void find_growth(const job *j, const sample *s, int nf, cc_diagnosis *dg)
{
    const cc_audit *a = j->a;
    const cc_audit_row *w = j->w;
    (void)s, (void)nf;
    if (explained(dg)) return;   /* looked for only where no kind says what the error is */
    double feat[CC_DIAG_GROWTH], err[CC_DIAG_GROWTH];
    const char *name;
    int n = cc_diagnose_growth(a, w, feat, err, &name);
    if (!n) return;
    int lo = 0, hi = 0;
    for (int i = 1; i < n; i++) lo = feat[i] < feat[lo] ? i : lo, hi = feat[i] > feat[hi] ? i : hi;
    double rho = rank_correlation(feat, err, n);
    add(dg, CC_FIND_GROWS, n, n,
        "The error grows as %s %s (rank correlation %.2f over %d elements: %.1e where it is smallest, %.1e "
        "where it is largest): look at the terms that change with it.", name, rho > 0 ? "grows" : "shrinks", rho, n,
        err[lo], err[hi]);
}

/* 1 if finding g only restates that something differs: a factor that follows no named quantity,
 * a growth, nothing known */
static int weak(const cc_finding *g)
{
    return g->kind == CC_FIND_UNKNOWN || g->kind == CC_FIND_GROWS ||
           (g->kind == CC_FIND_PROPORTIONAL && strstr(g->text, "follows none") != NULL);
}

/* 1 if finding g is a rigid motion's identity broken (translation, rotation) */
static int rigid(const cc_finding *g) { return g->kind == CC_FIND_TRANSLATION || g->kind == CC_FIND_ROTATION; }

/* dg's findings ordered by rank, keeping the order within a rank; where the first explains the
 * whole error on every failing element (a rank-0 kind: a sign, a factor, frozen magnitudes, the
 * rest angle, a Gauss-Newton Jacobian), the weak ones after it go: they would point elsewhere,
 * and so do translation and rotation, being what such an error breaks (a Hessian 1.0001 times
 * the right one breaks H R + g x e = 0); where it is a layout (the right numbers in other slots:
 * relabelled, swapped), every structural one goes, being what a layout breaks (translation,
 * rotation, symmetry, a direction) */
static void order_findings(cc_diagnosis *dg)
{
    cc_finding f[CC_DIAG_MAX];
    int n = 0;
    for (int r = 0; r < 3; r++)
        for (int i = 0; i < dg->n; i++)
            if (rank(dg->f[i].kind) == r) f[n++] = dg->f[i];
    int k = 0, whole = n && rank(f[0].kind) == 0 && f[0].share == f[0].of;
    int layout = n && (f[0].kind == CC_FIND_RELABELLED || f[0].kind == CC_FIND_SWAP) && f[0].share == f[0].of;
    for (int i = 0; i < n; i++)
        if (!((whole || layout) && i > 0 && (weak(&f[i]) || (layout && rank(f[i].kind) == 2) || rigid(&f[i]))))
            dg->f[k++] = f[i];
    dg->n = k;
}

/* ---- the value against the claim's ---- */

/* One element's value, the target's (its energy less the row's offset) and the claim's, with
 * the claim's natural size. */
typedef struct value_sample {
    double x[CC_MAX_DOF];
    cc_rest r;
    double A[CC_MAX_COMP], R[CC_MAX_COMP], floor, rel;
} value_sample;

/* v = the values at element (x, r); 0, or -1 where either is undefined */
static int value_load(const cc_audit *a, const cc_audit_row *w, const double *x, const cc_rest *r, value_sample *v)
{
    const cc_target *t = &a->target;
    cc_eval e;
    cc_deriv d;
    int nc = t->ncomp;
    memcpy(v->x, x, sizeof v->x);
    v->r = *r;
    if (t->eval(t->ctx, x, r, CC_WANT_VALUE, &e) < 0) return -1;
    int got = cc_claim_eval(&t->claims, x, r, v->R, &d);
    if (got < 0 || !(got & CC_CLAIM_HAS_VALUE)) return -1;
    for (int k = 0; k < nc; k++) v->A[k] = e.C[k] - w->offset;
    v->floor = got & CC_CLAIM_HAS_DERIV ? cc_value_floor(d.g, d.H, nc, x, t->nv) : 0;
    v->rel = cc_compare_flat_floor(v->A, v->R, nc, v->floor).rel;
    return 0;
}

/* 1 if v's value is c times the claim's, component by component */
static int value_is(const value_sample *v, int nc, double c, double tol)
{
    for (int k = 0; k < nc; k++)
        if (!(fabs(v->A[k] - c * v->R[k]) <= tol * fmax(fmax(fabs(v->A[k]), fabs(v->R[k])), v->floor))) return 0;
    return 1;
}

/* 1 if v's value is the claim's with the rest angle as hypothesis `which` has it */
static int value_rest_angle(const cc_audit *a, const value_sample *v, int which, double tol)
{
    for (int turn = -1; turn <= (which == REST_TURN ? 1 : -1); turn += 2) {
        cc_rest r = other_rest_angle(&v->r, which, turn);
        double R[CC_MAX_COMP];
        cc_deriv d;
        int got = cc_claim_eval(&a->target.claims, v->x, &r, R, &d);
        double want = rest_hypothesis_sign(which) * R[0];
        if (got >= 0 && (got & CC_CLAIM_HAS_VALUE) &&
            fabs(v->A[0] - want) <= tol * fmax(fmax(fabs(v->A[0]), fabs(R[0])), v->floor))
            return 1;
    }
    return 0;
}

/* the value row's diagnosis: a value that is not finite, the rest angle, a sign, a factor, a
 * component swapped */
static void diagnose_value(const cc_audit *a, const cc_audit_row *w, cc_diagnosis *dg)
{
    const cc_target *t = &a->target;
    const cc_audit_opts *o = &a->opts;
    value_sample *v = malloc(sizeof *v * CC_DIAG_CASES);
    int nf = 0, nc = t->ncomp;
    double tol = fmax(1e-6, 100 * w->tol);
    cc_case c;
    if (!v) return;
    for (int id = 0; !o->only_case && id < o->samples && id < SCAN && nf < CC_DIAG_CASES; id++)
        if (cc_case_make(t->nv, o->seed, id, &o->sample, &c) == 0 && value_load(a, w, c.x, &c.r, &v[nf]) == 0 &&
            !(v[nf].rel <= CLEAR * w->tol))
            nf++;
    if (nf == 0 && cc_case_make(t->nv, o->seed, w->worst_case, &o->sample, &c) == 0 &&
        value_load(a, w, c.x, &c.r, &v[0]) == 0 && !(v[0].rel <= w->tol))
        nf = 1;
    int cnt = 0, told = 0;
    for (int i = 0; i < nf; i++) cnt += !isfinite(v[i].A[0]) || (nc > 1 && !isfinite(v[i].A[nc - 1]));
    if (cnt) {
        add(dg, CC_FIND_NONFINITE, cnt, nf, "The value is not finite (see the row 'finite').");
        free(v);
        return;
    }
    if (nv_is_hinge(t) && claim_reads_rest_angle(&t->claims))
        for (int which = 0; which < REST_HYPOTHESES && !dg->n; which++) {
            if (!rest_hypothesis_applies(&t->claims, which)) continue;
            cnt = told = 0;
            for (int i = 0; i < nf; i++)
                told += which == REST_TURN || fabs(v[i].r.rest_angle) > 1e-6, cnt += value_rest_angle(a, &v[i], which, tol);
            if (told && reported(cnt, nf)) add(dg, rest_angle_kind[which], cnt, nf, "%s", rest_angle_text[which]);
        }
    if (!dg->n && nf > 0) {   /* one factor over the elements: c = A.R / R.R of the first */
        double num = 0, den = 0;
        for (int k = 0; k < nc; k++) num += v[0].A[k] * v[0].R[k], den += v[0].R[k] * v[0].R[k];
        double f = den > 0 ? num / den : 0;
        cnt = 0;
        for (int i = 0; i < nf && f != 0 && fabs(f - 1) > 1e-3; i++) cnt += value_is(&v[i], nc, f, tol);
        if (cnt && reported(cnt, nf)) {
            if (fabs(f + 1) <= 1e-6) add(dg, CC_FIND_SIGN, cnt, nf, "The value is the negative of the claim's: C measured "
                                         "the other way (an angle, a difference taken in the other order).")->factor = -1;
            else add(dg, CC_FIND_SCALE, cnt, nf, "The value is %.6g times the claim's: a constant factor is missing or "
                     "extra (k, a 1/2, the area weight).", f)->factor = f;
        }
    }
    job j = {a, w, t, 0, 3 * t->nv, nc, (1u << t->nv) - 1};
    for (int x_only = 0; !dg->n && x_only < (t->nv >= 3 ? 2 : 1); x_only++) {   /* the vertices in another order */
        reorder o = {{0, 1, 2, 3}, 0, 0, x_only};
        while (!dg->n && next_perm(o.perm, t->nv)) {
            cnt = 0;
            for (int i = 0; i < nf; i++) {
                double y[CC_MAX_DOF], R[CC_MAX_COMP];
                cc_rest r;
                cc_deriv d;
                int got = relabel_input(&j, &o, v[i].x, &v[i].r, y, &r) < 0 ? -1 : cc_claim_eval(&t->claims, y, &r, R, &d);
                if (got < 0 || !(got & CC_CLAIM_HAS_VALUE)) continue;
                int same = 1;
                for (int k = 0; k < nc; k++) same &= fabs(v[i].A[k] - R[k]) <= tol * fmax(fmax(fabs(R[k]), fabs(v[i].A[k])), v[i].floor);
                cnt += same;
            }
            if (!cnt || !reported(cnt, nf)) continue;
            char map[64] = "", ours[64] = "";
            for (int m = 0, at = 0, bt = 0; m < t->nv; m++) {
                at += snprintf(map + at, sizeof map - (size_t)at, m ? ", x%d" : "x%d", m);
                bt += snprintf(ours + bt, sizeof ours - (size_t)bt, m ? ", x%d" : "x%d", o.perm[m]);
            }
            add(dg, CC_FIND_RELABELLED, cnt, nf, "The value is right for the vertices in another order: your %s are our "
                "%s%s.", map, ours, !x_only ? "" : t->nv == 4 ? ", with the request's theta0" : ", with the (u, v) of each "
                "vertex as we give them");
        }
    }
    if (!dg->n && nf >= 2) {   /* a factor that changes from element to element */
        double c[CC_DIAG_CASES], lo = INFINITY, hi = -INFINITY;
        int ok = 1;
        for (int i = 0; i < nf && ok; i++) {
            double num = 0, den = 0;
            for (int k = 0; k < nc; k++) num += v[i].A[k] * v[i].R[k], den += v[i].R[k] * v[i].R[k];
            c[i] = den > 0 ? num / den : 0;
            ok = c[i] != 0 && value_is(&v[i], nc, c[i], tol);
            lo = fmin(lo, c[i]), hi = fmax(hi, c[i]);
        }
        if (ok && hi - lo > 1e-6 * fmax(fabs(lo), fabs(hi))) {   /* one number an element: only a named factor says it */
            features f[CC_DIAG_CASES];
            const char *name;
            double p, lam;
            for (int i = 0; i < nf; i++) element_features(&j, v[i].x, &v[i].r, &f[i]);
            if (nc > 1 || factor_follows(f, c, nf, &name, &p, &lam)) add_proportional(f, c, nf, lo, hi, "value", dg);
        }
    }
    for (int k = 0; k < nc && !dg->n && nc > 1; k++)
        for (int q = 0; q < nc && !dg->n; q++) {
            if (q == k) continue;
            cnt = 0;
            for (int i = 0; i < nf; i++)
                cnt += fabs(v[i].A[k] - v[i].R[q]) <= tol * fmax(fabs(v[i].R[q]), v[i].floor) &&
                       !(fabs(v[i].A[k] - v[i].R[k]) <= tol * fmax(fabs(v[i].R[k]), v[i].floor));
            if (cnt && reported(cnt, nf))
                add(dg, CC_FIND_SWAP, cnt, nf, "Component %d holds component %d's value (for stretch: C_u for C_v, or the "
                    "other way): check which condition each part computes.", k, q);
        }
    if (!dg->n)
        add(dg, CC_FIND_UNKNOWN, nf, nf, "The value differs from the claim's by none of the known kinds (a sign, a factor, "
            "the rest angle, a component): compare it with the claimed formula (clothcheck eval prints it).");
    free(v);
}

/* ---- numbers that are not finite ---- */

/* where a NaN or infinity of this kind of element usually comes from, and what to do, into buf:
 * the degenerate element's division where element c is degenerate (coincident vertices, a
 * triangle of no area), the formula's own where it is not */
static const char *nonfinite_advice(const cc_target *t, const cc_case *c, char *buf, size_t len)
{
    if (t->nv == 4)
        return "a square root, division or acos meeting 0 or a rounded +-1 (004's sqrt((1 - cos theta)/2) at a flat "
               "hinge, acos of a dot product rounded past 1); take the angle with atan2 (001 (30))";
    cc_v3 x0 = cc_v3_load(c->x), e1 = cc_v3_sub(cc_v3_load(c->x + 3), x0);
    double size = cc_v3_norm(e1), area = 0;
    if (t->nv == 3) {
        cc_v3 e2 = cc_v3_sub(cc_v3_load(c->x + 6), x0);
        size = fmax(size, fmax(cc_v3_norm(e2), cc_v3_norm(cc_v3_sub(e2, e1))));
        area = 0.5 * cc_v3_norm(cc_v3_cross(e1, e2));
    }
    int degenerate = t->nv == 3 ? !(area > 1e-6 * size * size) : !(size > 1e-9 * fmax(1.0, fabs(c->x[0])));
    if (degenerate)
        return t->nv == 3 ? "a division by |w_u|, |w_v| or the world area, zero or nearly so at a degenerate "
                            "triangle; guard it, or leave such triangles out of the mesh"
                          : "a division by the length |x0 - x1|, zero at coincident vertices";
    if (t->nv == 3)
        snprintf(buf, len, "the triangle is not degenerate there (area %.3g, longest edge %.3g): the formula's own "
                           "0/0, root of a negative number or entry left unset", area, size);
    else
        snprintf(buf, len, "the vertices do not coincide there (|x0 - x1| = %.3g, rest length %.3g): the formula's "
                           "own 0/0, root of a negative number or entry left unset", size, c->r.rest_length);
    return buf;
}

/* nonfinite_advice at a's element of case id */
static const char *nonfinite_advice_at(const cc_audit *a, int id, char *buf, size_t len)
{
    cc_case c;
    if (cc_case_make(a->target.nv, a->opts.seed, id, &a->opts.sample, &c) < 0)
        return "a division by zero, a root of a negative number or an entry left unset";
    return nonfinite_advice(&a->target, &c, buf, len);
}

/* the finite row's finding: the first element, part and entry that is not finite, and how many */
static void diagnose_finite(const cc_audit *a, const cc_audit_row *w, cc_diagnosis *dg)
{
    const cc_target *t = &a->target;
    const cc_diff *d = &w->worst;
    int force = t->claims.as_energy || t->claims.bridson_force;
    const char *part = d->j >= 0 ? (force ? "jacobian" : "hessian") : d->i >= 0 ? (force ? "force" : "gradient")
                                                                                  : (force ? "energy" : "value");
    char label[64], entry[96] = "";
    cc_case_label(t->nv, w->worst_case, label, sizeof label);
    if (d->j >= 0)
        snprintf(entry, sizeof entry, ", entry [%d][%d] (vertex %d %c, vertex %d %c)", force ? d->i : d->k,
                 force ? d->j : d->i, d->i / 3, "xyz"[d->i % 3], d->j / 3, "xyz"[d->j % 3]);
    else if (d->i >= 0) snprintf(entry, sizeof entry, ", entry %d (vertex %d %c)", d->i, d->i / 3, "xyz"[d->i % 3]);
    char advice[200];
    const char *why = nonfinite_advice_at(a, w->worst_case, advice, sizeof advice);
    add(dg, CC_FIND_NONFINITE, 1, 1, "The %s is %s at %s %s%s; not finite at %d of the %d elements: %s.", part,
        isnan(d->analytic) ? "NaN" : "infinite", w->worst_case < 0 ? "edge case" : "element", label, entry,
        w->undefined, w->samples, why);
}

int cc_diagnose_wanted(const cc_audit *a, const cc_audit_row *w)
{
    if (w->q == CC_Q_FINITE) return !w->pass;
    if (!w->available || w->pass || w->samples == 0) return 0;
    if (w->q == CC_Q_VALUE) return w->ref == CC_REF_CLAIM;
    if (w->q > CC_Q_HESS_GRADIENT) return 0;
    int frozen_ref = w->ref == CC_REF_FD_FROZEN || w->ref == CC_REF_EXACT_FROZEN;
    return !frozen_ref || a->target.claim != CC_CLAIM_EXACT;
}

/* a detector: looks for its kinds on the nf failing elements s of job j, adds to dg */
typedef void detector(const job *j, const sample *s, int nf, cc_diagnosis *dg);

#define NONE NULL
#define KIND_DETECTOR(id, name, rank, find, summary) find,
static detector *const detectors[CC_FIND_COUNT] = {CC_FINDING_KINDS(KIND_DETECTOR)};
#undef KIND_DETECTOR
#undef NONE

void cc_diagnose_row(const cc_audit *a, const cc_audit_row *w, cc_diagnosis *dg)
{
    if (w->q == CC_Q_FINITE) {
        memset(dg, 0, sizeof *dg);
        diagnose_finite(a, w, dg);
        return;
    }
    if (w->q == CC_Q_VALUE) {
        memset(dg, 0, sizeof *dg);
        diagnose_value(a, w, dg);
        return;
    }
    job j = {a, w, &a->target, w->q != CC_Q_GRADIENT, 3 * a->target.nv, 0, (1u << a->target.nv) - 1};
    j.N = a->target.ncomp * j.n * (j.hess ? j.n : 1);
    memset(dg, 0, sizeof *dg);
    sample *s = malloc(sizeof *s * CC_DIAG_CASES);   /* per call: audits may run side by side */
    int nf = s ? gather(&j, s) : 0;
    /* with no failing element gathered, only the non-finite detector (which reads the row's
     * worst entry) has anything to look at */
    for (int k = 0; k < CC_FIND_COUNT; k++)
        if (detectors[k] && (nf > 0 || k == CC_FIND_NONFINITE)) detectors[k](&j, s, nf, dg);
    if (nf > 0) order_findings(dg);
    if (nf == 0 && dg->n)
        ;   /* the non-finite finding says it */
    else if (nf == 0)
        add(dg, CC_FIND_UNKNOWN, 0, 0,
            "The difference stays within %g times the reference's tolerance (%.1e, largest %.2e): it may be "
            "the reference's own error rather than a mistake; check at another step (clothcheck audit's "
            "step sweeps) before changing the formula.", CLEAR, w->tol, w->max_rel);
    else if (dg->n == 0)
        add(dg, CC_FIND_UNKNOWN, nf, nf,
            "None of the known kinds fits (sign, scale, symmetry, frozen magnitudes, rest state, "
            "rigid motions, vertices, directions, projector): compare the formula with its derivation term by "
            "term (clothcheck derive).");
    free(s);
}
