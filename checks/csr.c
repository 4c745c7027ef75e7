/* Sparse matrices in compressed rows (see csr.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "checks/csr.h"

/* A triplet, for sorting. */
typedef struct trip {
    int i, j;
    double v;
} trip;

static int by_row_col(const void *a, const void *b)
{
    const trip *p = a, *q = b;
    if (p->i != q->i) return p->i < q->i ? -1 : 1;
    return p->j < q->j ? -1 : p->j > q->j;
}

int cc_csr_from_triplets(cc_csr *A, int n, int nnz, const int *i, const int *j, const double *v, int *bad)
{
    memset(A, 0, sizeof *A);
    A->n = n;
    for (int k = 0; k < nnz; k++)
        if (i[k] < 0 || i[k] >= n || j[k] < 0 || j[k] >= n) return *bad = k, -1;
    trip *t = malloc(sizeof *t * (size_t)(nnz > 0 ? nnz : 1));
    A->rowp = calloc((size_t)n + 1, sizeof *A->rowp);
    A->col = malloc(sizeof *A->col * (size_t)(nnz > 0 ? nnz : 1));
    A->val = malloc(sizeof *A->val * (size_t)(nnz > 0 ? nnz : 1));
    if (!t || !A->rowp || !A->col || !A->val) {
        free(t), cc_csr_free(A);
        return *bad = -1, -1;
    }
    for (int k = 0; k < nnz; k++) t[k] = (trip){i[k], j[k], v[k]};
    qsort(t, (size_t)nnz, sizeof *t, by_row_col);
    int m = 0;
    for (int k = 0; k < nnz; k++) {
        if (m > 0 && t[k].i == t[m - 1].i && t[k].j == t[m - 1].j) {
            A->val[m - 1] += t[k].v;
            continue;
        }
        t[m++] = t[k];
        A->col[m - 1] = t[k].j, A->val[m - 1] = t[k].v;
        A->rowp[t[k].i + 1]++;
    }
    for (int r = 0; r < n; r++) A->rowp[r + 1] += A->rowp[r];
    free(t);
    return 0;
}

void cc_csr_free(cc_csr *A)
{
    free(A->rowp), free(A->col), free(A->val);
    memset(A, 0, sizeof *A);
}

void cc_csr_mul(const cc_csr *A, const double *x, double *y)
{
    for (int r = 0; r < A->n; r++) {
        double s = 0;
        for (int k = A->rowp[r]; k < A->rowp[r + 1]; k++) s += A->val[k] * x[A->col[k]];
        y[r] = s;
    }
}

double cc_csr_at(const cc_csr *A, int i, int j)
{
    int lo = A->rowp[i], hi = A->rowp[i + 1];
    while (lo < hi) {   /* columns ascend within a row */
        int mid = (lo + hi) / 2;
        if (A->col[mid] == j) return A->val[mid];
        if (A->col[mid] < j) lo = mid + 1;
        else hi = mid;
    }
    return 0.0;
}

void cc_csr_block(const cc_csr *A, int a, int c, double B[3][3])
{
    for (int s = 0; s < 3; s++)
        for (int t = 0; t < 3; t++) B[s][t] = cc_csr_at(A, 3 * a + s, 3 * c + t);
}

double cc_csr_max(const cc_csr *A)
{
    double m = 0;
    for (int k = 0; A->rowp && k < A->rowp[A->n]; k++) m = fmax(m, fabs(A->val[k]));
    return m;
}
