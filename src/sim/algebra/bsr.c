/* Sparse symmetric 3x3-block matrices (block CSR), pattern from element lists. */
#include <stdlib.h>
#include <string.h>
#include "sim/algebra/bsr.h"

/* free A (NULL is fine) */
void cc_bsr_free(cc_bsr *A)
{
    if (!A) return;
    free(A->rowptr);
    free(A->col);
    free(A->diag);
    free(A->val);
    free(A->tslot);
    free(A->vpos);
    free(A->minor);
    free(A);
}

/* ascending ints, for qsort */
static int int_cmp(const void *p, const void *q)
{
    int a = *(const int *)p, b = *(const int *)q;
    return (a > b) - (a < b);
}

/* cnt[i] += 1 + (number of (element, vertex-pair) incidences of row i); -1 on a bad index */
static int count_rows(int n, int nlists, const int *const *elems, const int *nel, const int *k,
                      int *cnt)
{
    for (int i = 0; i < n; i++) cnt[i] = 1;
    for (int l = 0; l < nlists; l++)
        for (int e = 0; e < nel[l]; e++)
            for (int a = 0; a < k[l]; a++) {
                int i = elems[l][e * k[l] + a];
                if (i < 0 || i >= n) return -1;
                cnt[i] += k[l] - 1;
            }
    return 0;
}

/* A = zero matrix with block (i,j) for i == j or i, j in one element; rows sorted */
cc_bsr *cc_bsr_pattern(int n, int nlists, const int *const *elems, const int *nel, const int *k)
{
    if (n < 0 || nlists < 0) return NULL;
    static unsigned long long last_id;   /* patterns made so far */
    cc_bsr *A = calloc(1, sizeof *A);
    int *cnt = malloc(((size_t)n + 1) * sizeof *cnt), *start = malloc(((size_t)n + 1) * sizeof *start);
    if (!A || !cnt || !start) goto fail;
    A->n = n;
    A->id = ++last_id;
    if (count_rows(n, nlists, elems, nel, k, cnt) < 0) goto fail;
    /* candidate columns per row, duplicates included */
    start[0] = 0;
    for (int i = 0; i < n; i++) start[i + 1] = start[i] + cnt[i];
    int *cand = malloc(((size_t)start[n] + 1) * sizeof *cand);
    if (!cand) goto fail;
    for (int i = 0; i < n; i++) {
        cnt[i] = start[i];
        cand[cnt[i]++] = i;
    }
    for (int l = 0; l < nlists; l++)
        for (int e = 0; e < nel[l]; e++)
            for (int a = 0; a < k[l]; a++)
                for (int b = 0; b < k[l]; b++)
                    if (a != b) {
                        int i = elems[l][e * k[l] + a];
                        cand[cnt[i]++] = elems[l][e * k[l] + b];
                    }
    /* sort and deduplicate each row in place, then compact */
    A->rowptr = malloc(((size_t)n + 1) * sizeof *A->rowptr);
    A->diag = malloc(((size_t)n + 1) * sizeof *A->diag);
    if (!A->rowptr || !A->diag) {
        free(cand);
        goto fail;
    }
    int nnzb = 0;
    for (int i = 0; i < n; i++) {
        int *row = cand + start[i], len = start[i + 1] - start[i];
        qsort(row, (size_t)len, sizeof *row, int_cmp);
        A->rowptr[i] = nnzb;
        int prev = -1;   /* writes never pass the read position: nnzb <= start[i] + p */
        for (int p = 0; p < len; p++) {
            int c = row[p];
            if (c != prev) cand[nnzb++] = c;
            prev = c;
        }
    }
    A->rowptr[n] = nnzb;
    A->nnzb = nnzb;
    A->col = malloc(((size_t)nnzb + 1) * sizeof *A->col);
    A->val = calloc((size_t)nnzb * 9 + 1, sizeof *A->val);
    if (!A->col || !A->val) {
        free(cand);
        goto fail;
    }
    memcpy(A->col, cand, (size_t)nnzb * sizeof *A->col);
    free(cand);
    for (int i = 0; i < n; i++) A->diag[i] = cc_bsr_slot(A, i, i);
    A->tslot = malloc(((size_t)nnzb + 1) * sizeof *A->tslot);
    A->vpos = malloc(((size_t)nnzb + 1) * sizeof *A->vpos);
    if (!A->tslot || !A->vpos) goto fail;
    for (int i = 0; i < n; i++)
        for (int q = A->rowptr[i]; q < A->rowptr[i + 1]; q++) A->tslot[q] = cc_bsr_slot(A, A->col[q], i);
    int v = 0;   /* the lower and diagonal blocks row after row, then the upper ones */
    for (int i = 0; i < n; i++)
        for (int q = A->rowptr[i]; q <= A->diag[i]; q++) A->vpos[q] = v++;
    for (int i = 0; i < n; i++)
        for (int q = A->diag[i] + 1; q < A->rowptr[i + 1]; q++) A->vpos[q] = v++;
    free(cnt);
    free(start);
    return A;
fail:
    free(cnt);
    free(start);
    cc_bsr_free(A);
    return NULL;
}

/* minor[p] = 1 for the off-diagonal blocks that no element of the lists couples */
int cc_bsr_mark_minor(cc_bsr *A, int nlists, const int *const *elems, const int *nel, const int *k)
{
    if (!A->minor) A->minor = malloc((size_t)A->nnzb + 1);
    if (!A->minor) return -1;
    memset(A->minor, 1, (size_t)A->nnzb);
    for (int i = 0; i < A->n; i++) A->minor[A->diag[i]] = 0;
    for (int l = 0; l < nlists; l++)
        for (int e = 0; e < nel[l]; e++)
            for (int a = 0; a < k[l]; a++)
                for (int b = 0; b < k[l]; b++) {
                    int p = cc_bsr_slot(A, elems[l][e * k[l] + a], elems[l][e * k[l] + b]);
                    if (p < 0) return -1;
                    A->minor[p] = 0;
                }
    return 0;
}

/* slot of block (i,j) by binary search in row i, or -1 */
int cc_bsr_slot(const cc_bsr *A, int i, int j)
{
    if (i < 0 || i >= A->n || j < 0 || j >= A->n) return -1;
    int lo = A->rowptr[i], hi = A->rowptr[i + 1] - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (A->col[mid] == j) return mid;
        if (A->col[mid] < j) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

/* A = 0 */
void cc_bsr_zero(cc_bsr *A)
{
    memset(A->val, 0, (size_t)A->nnzb * 9 * sizeof *A->val);
    A->lower = 0;
}

/* the upper blocks from the lower ones, when they are stale */
void cc_bsr_fill_upper(cc_bsr *A)
{
    if (!A->lower) return;
    for (int i = 0; i < A->n; i++)
        for (int p = A->rowptr[i]; p < A->diag[i]; p++) {
            const double *L = cc_bsr_block(A, p);
            double *U = cc_bsr_block(A, A->tslot[p]);
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) U[3 * b + a] = L[3 * a + b];
        }
    A->lower = 0;
}

/* y_i = sum_j A_ij x_j for one block row */
static inline void row_mul(const cc_bsr *A, int i, const double *restrict x, double *restrict y)
{
    double y0 = 0, y1 = 0, y2 = 0;
    for (int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
        const double *a = cc_bsr_block(A, p), *xj = x + 3 * A->col[p];
        y0 += a[0] * xj[0] + a[1] * xj[1] + a[2] * xj[2];
        y1 += a[3] * xj[0] + a[4] * xj[1] + a[5] * xj[2];
        y2 += a[6] * xj[0] + a[7] * xj[1] + a[8] * xj[2];
    }
    y[3 * i] = y0;
    y[3 * i + 1] = y1;
    y[3 * i + 2] = y2;
}

#include "sim/algebra/avx2.h"

#if CC_AVX2
/* (a0[0..2] summed, a1[0..2] summed, a2[0..2] summed) into y[0..2] */
CC_TARGET_AVX2 static inline void hsum3_store(__m256d a0, __m256d a1, __m256d a2, double *y)
{
    __m256d z = _mm256_setzero_pd();
    a0 = _mm256_blend_pd(a0, z, 8), a1 = _mm256_blend_pd(a1, z, 8), a2 = _mm256_blend_pd(a2, z, 8);
    __m256d h01 = _mm256_hadd_pd(a0, a1), h22 = _mm256_hadd_pd(a2, a2);
    __m256d s = _mm256_add_pd(_mm256_permute2f128_pd(h01, h22, 0x20), _mm256_permute2f128_pd(h01, h22, 0x31));
    _mm_storeu_pd(y, _mm256_castpd256_pd128(s));
    _mm_store_sd(y + 2, _mm256_extractf128_pd(s, 1));
}

/* y = A x with AVX2, rows lo .. hi-1 whose blocks are all in columns < n - 1 (a 4-wide load
 * of x_k reads x_{k+1,0} too, which only meets lane 3 and is dropped) */
CC_TARGET_AVX2 static void mul_rows_avx2(const cc_bsr *A, int lo, int hi, const double *x, double *y)
{
    for (int i = lo; i < hi; i++) {
        __m256d a0 = _mm256_setzero_pd(), a1 = a0, a2 = a0;
        for (int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
            const double *a = cc_bsr_block(A, p);
            __m256d xk = _mm256_loadu_pd(x + 3 * A->col[p]);
            a0 = _mm256_fmadd_pd(_mm256_loadu_pd(a), xk, a0);
            a1 = _mm256_fmadd_pd(_mm256_loadu_pd(a + 3), xk, a1);
            a2 = _mm256_fmadd_pd(_mm256_loadu_pd(a + 6), xk, a2);
        }
        hsum3_store(a0, a1, a2, y + 3 * i);
    }
}
#endif

/* first row with a block in the last column: by the symmetric pattern, the first column of
 * the last row (rows from there on are checked one by one) */
static int last_col_row(const cc_bsr *A)
{
    return A->n > 0 ? A->col[A->rowptr[A->n - 1]] : 0;
}

/* y = A x */
void cc_bsr_mul(const cc_bsr *A, const double *x, double *y)
{
    if (A->lower) cc_bsr_fill_upper((cc_bsr *)A);   /* the same matrix, all of it stored */
    int i = 0;
#if CC_AVX2
    if (cc_have_avx2()) {
        int r0 = last_col_row(A);
        mul_rows_avx2(A, 0, r0, x, y);
        for (i = r0; i < A->n; i++)
            if (A->col[A->rowptr[i + 1] - 1] == A->n - 1) row_mul(A, i, x, y);
            else mul_rows_avx2(A, i, i + 1, x, y);
        return;
    }
#endif
    for (; i < A->n; i++) row_mul(A, i, x, y);
}

#if CC_AVX2
/* cc_bsr_mul4 with AVX2: a row load of a block reads the next row's first entry too, which
 * meets lane 3 of x_k (zero); the last block's load reads the one spare double after val */
CC_TARGET_AVX2 static void mul4_avx2(const cc_bsr *A, const double *x, double *y)
{
    __m256d z = _mm256_setzero_pd();
    for (int i = 0; i < A->n; i++) {
        __m256d a0 = z, a1 = z, a2 = z;
        for (int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
            const double *a = cc_bsr_block(A, p);
            __m256d xk = _mm256_load_pd(x + 4 * (size_t)A->col[p]);
            a0 = _mm256_fmadd_pd(_mm256_loadu_pd(a), xk, a0);
            a1 = _mm256_fmadd_pd(_mm256_loadu_pd(a + 3), xk, a1);
            a2 = _mm256_fmadd_pd(_mm256_loadu_pd(a + 6), xk, a2);
        }
        __m256d h01 = _mm256_hadd_pd(a0, a1), h22 = _mm256_hadd_pd(a2, a2);
        __m256d s = _mm256_add_pd(_mm256_permute2f128_pd(h01, h22, 0x20), _mm256_permute2f128_pd(h01, h22, 0x31));
        _mm256_store_pd(y + 4 * (size_t)i, _mm256_blend_pd(s, z, 8));
    }
}
#endif

/* y = A x, 4 doubles per vertex */
void cc_bsr_mul4(const cc_bsr *A, const double *x, double *y)
{
    if (A->lower) cc_bsr_fill_upper((cc_bsr *)A);   /* the same matrix, all of it stored */
#if CC_AVX2
    if (cc_have_avx2()) {
        mul4_avx2(A, x, y);
        return;
    }
#endif
    for (int i = 0; i < A->n; i++) {
        double y0 = 0, y1 = 0, y2 = 0;
        for (int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
            const double *a = cc_bsr_block(A, p), *xj = x + 4 * (size_t)A->col[p];
            y0 += a[0] * xj[0] + a[1] * xj[1] + a[2] * xj[2];
            y1 += a[3] * xj[0] + a[4] * xj[1] + a[5] * xj[2];
            y2 += a[6] * xj[0] + a[7] * xj[1] + a[8] * xj[2];
        }
        double *yi = y + 4 * (size_t)i;
        yi[0] = y0, yi[1] = y1, yi[2] = y2, yi[3] = 0;
    }
}

/* x_i . B x_k for a 3x3 block B and vertices of 4 doubles */
static inline double form3(const double *B, const double *xi, const double *xk)
{
    double s = 0;
    for (int a = 0; a < 3; a++) s += xi[a] * (B[3 * a] * xk[0] + B[3 * a + 1] * xk[1] + B[3 * a + 2] * xk[2]);
    return s;
}

double cc_bsr_quad4(const cc_bsr *A, const double *x)
{
    double d = 0, o = 0;   /* the diagonal blocks' part, and once the lower blocks' */
    for (int i = 0; i < A->n; i++) {
        const double *xi = x + 4 * (size_t)i;
        for (int p = A->rowptr[i]; p < A->diag[i]; p++) o += form3(cc_bsr_block(A, p), xi, x + 4 * (size_t)A->col[p]);
        d += form3(cc_bsr_block(A, A->diag[i]), xi, xi);
    }
    return d + 2 * o;
}

/* y_i = (A x)_i for i in rows; with stale upper blocks, block (i, k > i) is read as the
 * transpose of the lower block (k, i) */
void cc_bsr_mul_rows(const cc_bsr *A, const int *rows, int nr, const double *x, double *y)
{
    for (int r = 0; r < nr; r++) {
        int i = rows[r];
        if (!A->lower) {
            row_mul(A, i, x, y);
            continue;
        }
        double s[3] = {0, 0, 0};
        for (int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
            const double *xk = x + 3 * A->col[p];
            if (p <= A->diag[i]) {
                const double *B = cc_bsr_block(A, p);
                for (int a = 0; a < 3; a++) s[a] += B[3 * a] * xk[0] + B[3 * a + 1] * xk[1] + B[3 * a + 2] * xk[2];
            } else {
                const double *B = cc_bsr_block(A, A->tslot[p]);
                for (int a = 0; a < 3; a++) s[a] += B[a] * xk[0] + B[3 + a] * xk[1] + B[6 + a] * xk[2];
            }
        }
        for (int a = 0; a < 3; a++) y[3 * i + a] = s[a];
    }
}
