/* Sparse matrices in compressed rows, built from triplets (i, j, v) with duplicates summed:
 * the form a program hands its assembled matrices over in (check-system). */
#ifndef CC_CSR_H
#define CC_CSR_H

typedef struct cc_csr {
    int n;          /* rows and columns */
    int *rowp;      /* n + 1 row starts into col and val */
    int *col;       /* column of each stored entry, ascending within a row */
    double *val;    /* its value */
} cc_csr;

/* A = the n x n matrix of the nnz triplets (duplicates summed); 0, or -1 when an index is out
 * of range (*bad = its triplet) or memory runs out (*bad = -1) */
int cc_csr_from_triplets(cc_csr *A, int n, int nnz, const int *i, const int *j, const double *v, int *bad);
void cc_csr_free(cc_csr *A);

/* y = A x */
void cc_csr_mul(const cc_csr *A, const double *x, double *y);
/* A(i, j), 0 where nothing is stored */
double cc_csr_at(const cc_csr *A, int i, int j);
/* B = the 3x3 block of rows 3a.., columns 3c.. */
void cc_csr_block(const cc_csr *A, int a, int c, double B[3][3]);
/* the largest |A(i, j)| */
double cc_csr_max(const cc_csr *A);

#endif
