/* lambda_min of the backward Euler matrix on the free DOFs (sim/model/probe.h).
 *
 * The free-DOF matrix B = S A S + (I - S) is stored as a band (the grid numbering keeps A's
 * block bandwidth small) and B - sigma I is tested for positive definiteness by a banded
 * Cholesky factorisation: it succeeds iff sigma < lambda_min. Bisection between Gershgorin's
 * lower bound and the smallest diagonal entry finds lambda_min to a relative 1e-3 (tested
 * against a dense Jacobi eigenvalue solve in tests/test_sim_probe.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/model/probe.h"
#include "sim/model/model.h"

typedef struct band {
    int n, b;      /* order, half bandwidth */
    double *a;     /* lower band: a[i (b+1) + (i - j)] = B_ij, j <= i */
    double *l;     /* the Cholesky factor, same layout */
} band;

/* C = X Y (3x3, row-major) */
static void mul3(const double X[9], const double Y[9], double C[9])
{
    for (int a = 0; a < 3; a++)
        for (int d = 0; d < 3; d++) C[3 * a + d] = X[3 * a] * Y[d] + X[3 * a + 1] * Y[3 + d] + X[3 * a + 2] * Y[6 + d];
}

/* B = S A S + (I - S) of the matrix just assembled in s->A, with S the step's constraint
 * filter s->F, as a band; 0 or -1 (memory) */
static int band_build(const cc_sim *s, band *B)
{
    const cc_bsr *A = s->A;
    int md = 0;
    for (int i = 0; i < A->n; i++)
        for (int q = A->rowptr[i]; q < A->rowptr[i + 1]; q++) md = abs(i - A->col[q]) > md ? abs(i - A->col[q]) : md;
    B->n = 3 * s->nv;
    B->b = 3 * md + 2;
    size_t w = (size_t)B->b + 1;
    B->a = calloc((size_t)B->n * w, sizeof *B->a);
    B->l = malloc((size_t)B->n * w * sizeof *B->l);
    if (!B->a || !B->l) return -1;
    for (int i = 0; i < A->n; i++)
        for (int q = A->rowptr[i]; q < A->rowptr[i + 1]; q++) {
            int c = A->col[q];
            if (c > i) continue;
            double Pi[9], Pc[9], T[9], R[9];
            cc_filter_get(s->F, i, Pi);
            cc_filter_get(s->F, c, Pc);
            mul3(Pi, A->val + 9 * (size_t)A->vpos[q], T);   /* lower and diagonal blocks are current */
            mul3(T, Pc, R);
            if (i == c)
                for (int a = 0; a < 9; a++) R[a] += (a % 4 == 0) - Pi[a];
            for (int a = 0; a < 3; a++)
                for (int d = 0; d < 3; d++) {
                    int r = 3 * i + a, cc = 3 * c + d;
                    if (cc <= r) B->a[(size_t)r * w + (size_t)(r - cc)] = R[3 * a + d];
                }
        }
    return 0;
}

/* 1 if B - sigma I is positive definite (banded Cholesky into B->l) */
static int band_pd(band *B, double sigma)
{
    size_t w = (size_t)B->b + 1;
    for (int i = 0; i < B->n; i++) {
        int j0 = i - B->b < 0 ? 0 : i - B->b;
        const double *Li = B->l + (size_t)i * w;
        for (int j = j0; j <= i; j++) {
            double sum = B->a[(size_t)i * w + (size_t)(i - j)] - (i == j ? sigma : 0.0);
            const double *Lj = B->l + (size_t)j * w;
            for (int k = j - B->b > j0 ? j - B->b : j0; k < j; k++) sum -= Li[i - k] * Lj[j - k];
            if (i == j) {
                if (!(sum > 0)) return 0;
                B->l[(size_t)i * w] = sqrt(sum);
            } else {
                B->l[(size_t)i * w + (size_t)(i - j)] = sum / Lj[0];
            }
        }
    }
    return 1;
}

/* lambda_min of B to a relative 1e-3: Gershgorin below, the smallest diagonal above, bisection */
static double band_lambda_min(band *B)
{
    size_t w = (size_t)B->b + 1;
    double lo = INFINITY, hi = INFINITY;
    for (int i = 0; i < B->n; i++) {
        double d = B->a[(size_t)i * w], r = 0;
        for (int j = i - B->b < 0 ? 0 : i - B->b; j < i; j++) r += fabs(B->a[(size_t)i * w + (size_t)(i - j)]);
        for (int j = i + 1; j <= i + B->b && j < B->n; j++) r += fabs(B->a[(size_t)j * w + (size_t)(j - i)]);
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

int cc_sim_lambda_min(cc_sim *s, const char *term, cc_hessian_mode mode, double *lambda, double *mass_min, char *err)
{
    int n3 = 3 * s->nv, *slot = NULL;
    if (term && !strcmp(term, "stretch")) slot = &s->p.stretch_hessian;
    else if (term && !strcmp(term, "shear")) slot = &s->p.shear_hessian;
    else if (term && !strcmp(term, "bend")) slot = &s->p.bend_hessian;
    else if (term) {
        snprintf(err, CC_ERRLEN, "unknown term '%s' (stretch, shear, bend)", term);
        return -1;
    }
    if (slot == &s->p.bend_hessian && !strcmp(s->p.bend_condition, CC_SIM_BEND_FORCE) && mode != CC_HESSIAN_FULL &&
        mode != CC_HESSIAN_PROJECT) {
        snprintf(err, CC_ERRLEN, "Bridson's bending force model takes Hessian modes full or project only");
        return -1;
    }
    double h = s->p.h, *dx = malloc((size_t)n3 * sizeof *dx), *f = malloc((size_t)n3 * sizeof *f);
    double *j = malloc((size_t)n3 * sizeof *j), *cnormal = malloc((size_t)n3 * sizeof *cnormal);
    int *contact = malloc((size_t)s->nv * sizeof *contact);
    band B = {0, 0, NULL, NULL};
    int keep = slot ? *slot : 0, rc = -1;
    if (!dx || !f || !j || !cnormal || !contact) {
        snprintf(err, CC_ERRLEN, "out of memory");
        goto done;
    }
    /* the filter the next step would use; it finds contacts again, so keep the contact state */
    memcpy(contact, s->contact, (size_t)s->nv * sizeof *contact);
    memcpy(cnormal, s->cnormal, (size_t)n3 * sizeof *cnormal);
    int set = cc_sim_setup_constraints(s, s->v);
    memcpy(s->contact, contact, (size_t)s->nv * sizeof *contact);
    memcpy(s->cnormal, cnormal, (size_t)n3 * sizeof *cnormal);
    if (set < 0) {
        snprintf(err, CC_ERRLEN, "%.100s", s->err);
        goto done;
    }
    for (int k = 0; k < n3; k++) dx[k] = h * s->v[k];
    if (slot) *slot = (int)mode;
    cc_assembly a = {.x = s->x, .v = s->v, .mat = 1, .cm = 1.0, .cx = -h * h, .cv = -h, .dx = dx, .f = f, .jdx = j};
    int got = cc_sim_assemble(s, &a);
    if (slot) *slot = keep;
    if (got < 0) {
        snprintf(err, CC_ERRLEN, "assembly failed: %.100s", s->err[0] ? s->err : "an element is degenerate");
        goto done;
    }
    if (band_build(s, &B) < 0) {
        snprintf(err, CC_ERRLEN, "out of memory for the band of %d rows", n3);
        goto done;
    }
    *lambda = band_lambda_min(&B);
    if (mass_min) {
        *mass_min = INFINITY;
        for (int i = 0; i < s->nv; i++) *mass_min = fmin(*mass_min, s->m[i]);
    }
    rc = 0;
done:
    free(dx), free(f), free(j), free(cnormal), free(contact), free(B.a), free(B.l);
    return rc;
}
