/* The constraint filter S and the vector helpers below both solvers (sim/algebra/filter.h). */
#include <stdlib.h>
#include <string.h>
#include "sim/algebra/filter.h"

/* S = I for n vertices */
cc_filter *cc_filter_new(int n)
{
    if (n < 0) return NULL;
    cc_filter *F = calloc(1, sizeof *F);
    if (!F) return NULL;
    F->n = n;
    F->pos = malloc(((size_t)n + 1) * sizeof *F->pos);
    if (!F->pos) {
        free(F);
        return NULL;
    }
    for (int v = 0; v < n; v++) F->pos[v] = -1;
    return F;
}

/* free F (NULL is fine) */
void cc_filter_free(cc_filter *F)
{
    if (!F) return;
    free(F->idx);
    free(F->S);
    free(F->pos);
    free(F);
}

/* S = I */
void cc_filter_clear(cc_filter *F)
{
    for (int c = 0; c < F->nc; c++) F->pos[F->idx[c]] = -1;
    F->nc = 0;
}

/* S_v = S */
int cc_filter_set(cc_filter *F, int v, const double S[9])
{
    if (!F || v < 0 || v >= F->n) return -1;
    if (F->pos[v] >= 0) {
        memcpy(F->S + 9 * F->pos[v], S, 9 * sizeof *S);
        return 0;
    }
    if (F->nc == F->cap) {
        int cap = F->cap ? 2 * F->cap : 16;
        int *idx = realloc(F->idx, (size_t)cap * sizeof *idx);
        if (!idx) return -1;
        F->idx = idx;
        double *s = realloc(F->S, (size_t)cap * 9 * sizeof *s);
        if (!s) return -1;
        F->S = s;
        F->cap = cap;
    }
    F->idx[F->nc] = v;
    F->pos[v] = F->nc;
    memcpy(F->S + 9 * F->nc, S, 9 * sizeof *S);
    F->nc++;
    return 0;
}

/* S = S_v */
void cc_filter_get(const cc_filter *F, int v, double S[9])
{
    static const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    if (v >= 0 && v < F->n && F->pos[v] >= 0) memcpy(S, F->S + 9 * F->pos[v], 9 * sizeof *S);
    else memcpy(S, I, sizeof I);
}

/* y = M x for a row-major 3x3 M (y may alias x) */
static inline void m3v(const double *M, double *x)
{
    double a = x[0], b = x[1], c = x[2];
    x[0] = M[0] * a + M[1] * b + M[2] * c;
    x[1] = M[3] * a + M[4] * b + M[5] * c;
    x[2] = M[6] * a + M[7] * b + M[8] * c;
}

/* r_i = S_i r_i for the constrained vertices */
void cc_filter_apply(const cc_filter *F, double *r)
{
    for (int c = 0; c < F->nc; c++) m3v(F->S + 9 * c, r + 3 * F->idx[c]);
}

/* r_i = S_i r_i, 4 doubles per vertex */
void cc_filter_apply4(const cc_filter *F, double *r)
{
    for (int c = 0; c < F->nc; c++) m3v(F->S + 9 * c, r + 4 * (size_t)F->idx[c]);
}

/* a . b over n entries, summed in four interleaved partial sums (independent chains) */
double cc_dot(const double *a, const double *b, int n)
{
    double d4[4] = {0, 0, 0, 0};
    int i = 0;
    for (; i + 4 <= n; i += 4)
        for (int k = 0; k < 4; k++) d4[k] += a[i + k] * b[i + k];
    for (; i < n; i++) d4[0] += a[i] * b[i];
    return (d4[0] + d4[1]) + (d4[2] + d4[3]);
}
