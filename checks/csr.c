/* Sparse matrices in compressed rows (see csr.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "checks/csr.h"

/* The triplets' order by row into a new array, stable (a counting sort, O(nnz + n)); row r's
 * from start[r] to start[r + 1]. NULL when out of memory. */
static int *row_order(int n, int nnz, const int *i, int *start)
{
    int *order = malloc(sizeof *order * (size_t)(nnz > 0 ? nnz : 1));
    if (!order) return NULL;
    memset(start, 0, sizeof *start * ((size_t)n + 1));
    for (int k = 0; k < nnz; k++) start[i[k] + 1]++;
    for (int r = 0; r < n; r++) start[r + 1] += start[r];
    for (int k = 0; k < nnz; k++) order[start[i[k]]++] = k;
    for (int r = n; r > 0; r--) start[r] = start[r - 1];
    start[0] = 0;
    return order;
}

typedef struct entry { int col; double val; } entry;
static int by_col(const void *a, const void *b)
{
    int p = ((const entry *)a)->col, q = ((const entry *)b)->col;
    return (p > q) - (p < q);
}

/* the k entries at col, val sorted by column (insertion for short rows), tmp room for k */
static void sort_row(int *col, double *val, int k, entry *tmp)
{
    if (k <= 32) {
        for (int a = 1; a < k; a++) {
            int c = col[a], b = a;
            double v = val[a];
            for (; b > 0 && col[b - 1] > c; b--) col[b] = col[b - 1], val[b] = val[b - 1];
            col[b] = c, val[b] = v;
        }
        return;
    }
    for (int a = 0; a < k; a++) tmp[a].col = col[a], tmp[a].val = val[a];
    qsort(tmp, (size_t)k, sizeof *tmp, by_col);
    for (int a = 0; a < k; a++) col[a] = tmp[a].col, val[a] = tmp[a].val;
}

/* Two passes over the triplets in row order: the first counts each row's distinct columns (slot[c]
 * marks the row that last saw column c), the second puts each into its place (slot[c] = where
 * column c went in this row) and adds the duplicates to it in the triplets' order; then each row
 * is sorted by column. Besides A, n + 1 and nnz ints and one row's entries. */
int cc_csr_from_triplets(cc_csr *A, int n, int nnz, const int *i, const int *j, const double *v, int *bad)
{
    memset(A, 0, sizeof *A);
    A->n = n;
    for (int k = 0; k < nnz; k++)
        if (i[k] < 0 || i[k] >= n || j[k] < 0 || j[k] >= n) return *bad = k, -1;
    int *start = malloc(sizeof *start * ((size_t)n + 1)), *slot = malloc(sizeof *slot * ((size_t)n + 1));
    int *order = start ? row_order(n, nnz, i, start) : NULL;
    A->rowp = calloc((size_t)n + 1, sizeof *A->rowp);
    if (!order || !slot || !A->rowp) goto oom;
    for (int c = 0; c < n; c++) slot[c] = -1;
    for (int r = 0; r < n; r++) {
        A->rowp[r + 1] = A->rowp[r];
        for (int t = start[r]; t < start[r + 1]; t++)
            if (slot[j[order[t]]] != r) slot[j[order[t]]] = r, A->rowp[r + 1]++;
    }
    int m = A->rowp[n], widest = 0;
    A->col = malloc(sizeof *A->col * (size_t)(m > 0 ? m : 1));
    A->val = malloc(sizeof *A->val * (size_t)(m > 0 ? m : 1));
    if (!A->col || !A->val) goto oom;
    for (int c = 0; c < n; c++) slot[c] = -1;
    for (int r = 0; r < n; r++) {
        int q = A->rowp[r];
        for (int t = start[r]; t < start[r + 1]; t++) {
            int k = order[t], c = j[k];
            if (slot[c] >= A->rowp[r]) {   /* a duplicate: summed */
                A->val[slot[c]] += v[k];
                continue;
            }
            slot[c] = q, A->col[q] = c, A->val[q++] = v[k];
        }
        if (q - A->rowp[r] > widest) widest = q - A->rowp[r];
    }
    free(order), free(start), free(slot);
    entry *tmp = widest > 32 ? malloc(sizeof *tmp * (size_t)widest) : NULL;
    if (widest > 32 && !tmp) return cc_csr_free(A), *bad = -1, -1;
    for (int r = 0; r < n; r++) sort_row(A->col + A->rowp[r], A->val + A->rowp[r], A->rowp[r + 1] - A->rowp[r], tmp);
    free(tmp);
    return 0;
oom:
    free(order), free(start), free(slot), cc_csr_free(A);
    return *bad = -1, -1;
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
