/* Sparse matrices in compressed rows (see csr.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "checks/csr.h"

/* The triplets' order by (row, column) into `order`, in O(nnz + n): a stable counting sort by
 * column, then one by row. NULL when out of memory. */
static int *sorted_order(int n, int nnz, const int *i, const int *j)
{
    int *count = calloc((size_t)n + 1, sizeof *count);
    int *by_col = malloc(sizeof *by_col * (size_t)(nnz > 0 ? nnz : 1));
    int *order = malloc(sizeof *order * (size_t)(nnz > 0 ? nnz : 1));
    if (!count || !by_col || !order) {
        free(count), free(by_col), free(order);
        return NULL;
    }
    for (int k = 0; k < nnz; k++) count[j[k] + 1]++;
    for (int c = 0; c < n; c++) count[c + 1] += count[c];
    for (int k = 0; k < nnz; k++) by_col[count[j[k]]++] = k;
    memset(count, 0, sizeof *count * ((size_t)n + 1));
    for (int k = 0; k < nnz; k++) count[i[k] + 1]++;
    for (int r = 0; r < n; r++) count[r + 1] += count[r];
    for (int t = 0; t < nnz; t++) order[count[i[by_col[t]]]++] = by_col[t];
    free(count), free(by_col);
    return order;
}

int cc_csr_from_triplets(cc_csr *A, int n, int nnz, const int *i, const int *j, const double *v, int *bad)
{
    memset(A, 0, sizeof *A);
    A->n = n;
    for (int k = 0; k < nnz; k++)
        if (i[k] < 0 || i[k] >= n || j[k] < 0 || j[k] >= n) return *bad = k, -1;
    int *order = sorted_order(n, nnz, i, j);
    A->rowp = calloc((size_t)n + 1, sizeof *A->rowp);
    A->col = malloc(sizeof *A->col * (size_t)(nnz > 0 ? nnz : 1));
    A->val = malloc(sizeof *A->val * (size_t)(nnz > 0 ? nnz : 1));
    if (!order || !A->rowp || !A->col || !A->val) {
        free(order), cc_csr_free(A);
        return *bad = -1, -1;
    }
    int m = 0, last_i = -1, last_j = -1;
    for (int t = 0; t < nnz; t++) {
        int k = order[t];
        if (m > 0 && i[k] == last_i && j[k] == last_j) {   /* duplicates summed */
            A->val[m - 1] += v[k];
            continue;
        }
        A->col[m] = j[k], A->val[m] = v[k], m++;
        A->rowp[i[k] + 1]++;
        last_i = i[k], last_j = j[k];
    }
    for (int r = 0; r < n; r++) A->rowp[r + 1] += A->rowp[r];
    free(order);
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
