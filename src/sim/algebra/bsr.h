/* Sparse symmetric matrices of 3x3 blocks in block compressed rows (BSR).
 *
 * Both triangles of the symmetric matrix are stored (block (i,j) and block (j,i) = its
 * transpose), so a product is a plain row sweep. The pattern is built once from the
 * elements (every pair of vertices that share an element couples); assembly then adds
 * element blocks at precomputed places and never reallocates.
 *
 * Blocks are numbered by slot, row by row in ascending columns (rowptr, col, diag, tslot),
 * but their values lie lower triangle first: the lower and diagonal blocks of all rows, row
 * after row, then the upper blocks of all rows (vpos maps a slot to its place in val). The
 * assembly zeroes and adds into the lower triangle only, which is then one contiguous run of
 * memory (rows from..to: val[9 vpos[rowptr[from]] .. 9 (vpos[diag[to-1]] + 1))) instead of
 * rows interleaved with the upper blocks it does not touch: zeroing a 66 x 66 cloth's lower
 * triangle took 0.23 ms row by row between the upper blocks and 0.07 ms in one run, from
 * cache-cold memory (docs/performance.md).
 *
 * The upper triangle may be left stale (lower = 1: the structured assembly writes the lower
 * and diagonal blocks only, and the multigrid path reads nothing else). The products below
 * mirror it first when they need it (cc_bsr_fill_upper: A is the same matrix either way, so
 * they take it as const); cc_bsr_mul_rows reads the transposed lower blocks instead; code
 * that reads val directly calls cc_bsr_fill_upper itself.
 */
#ifndef CC_BSR_H
#define CC_BSR_H

typedef struct cc_bsr {
    int n;          /* block rows = block columns (vertices) */
    int nnzb;       /* stored blocks */
    int *rowptr;    /* n+1: blocks of row i are rowptr[i] .. rowptr[i+1]-1 */
    int *col;       /* nnzb: block column of each stored block, ascending within a row */
    int *diag;      /* n: slot of the diagonal block of row i */
    double *val;    /* 9*nnzb: the block of slot p is val[9 vpos[p] .. 9 vpos[p] + 8], row-major 3x3 */
    int *vpos;      /* nnzb: where each slot's values lie (lower and diagonal blocks first, see above) */
    int *tslot;     /* nnzb: slot of the transposed position (j,i) of slot (i,j) */
    unsigned long long id;   /* the pattern's identity: a number no other cc_bsr_pattern call returns */
    int lower;      /* 1: only the lower and diagonal blocks are current (see above) */
    unsigned char *minor;   /* nnzb or NULL: 1 for a block no element of the primary lists
                               couples (cc_bsr_mark_minor) */
} cc_bsr;

/* Pattern from nel elements of k vertices each (elem: nel by k vertex indices): block (i,j)
 * is stored iff i == j or i and j share an element. Values are zero. NULL when out of
 * memory or an index is out of range. Several element lists can be merged: pass them as
 * `nlists` arrays (elems[l], nel[l], k[l]). */
cc_bsr *cc_bsr_pattern(int n, int nlists, const int *const *elems, const int *nel, const int *k);
void cc_bsr_free(cc_bsr *A);

/* minor[p] = 1 for every off-diagonal block that no element of these (primary) lists
 * couples, 0 for the others (on cloth: the primary lists are the triangles and springs, so
 * the minor blocks are the couplings of a hinge's two wing vertices, which only bending
 * makes); 0, or -1 if no memory or an element is not in the pattern */
int cc_bsr_mark_minor(cc_bsr *A, int nlists, const int *const *elems, const int *nel, const int *k);

/* slot of block (i,j), or -1 if it is not stored */
int cc_bsr_slot(const cc_bsr *A, int i, int j);

/* the values of the block of slot p */
static inline double *cc_bsr_block(const cc_bsr *A, int p)
{
    return A->val + 9 * (size_t)A->vpos[p];
}

/* A = 0 (values only) */
void cc_bsr_zero(cc_bsr *A);

/* the upper blocks (j, i) = the transposes of the lower blocks (i, j), if A->lower; then
 * A->lower = 0 */
void cc_bsr_fill_upper(cc_bsr *A);

/* y = A x (x, y: 3n, distinct) */
void cc_bsr_mul(const cc_bsr *A, const double *x, double *y);

/* y = A x for vectors of 4 doubles per vertex (x_i in lanes 0..2 of entry i, lane 3 zero;
 * 32-byte aligned, distinct); y's lane 3 is set to zero */
void cc_bsr_mul4(const cc_bsr *A, const double *x, double *y);

/* x^T A x for a vector of 4 doubles per vertex (as cc_bsr_mul4), from the lower and diagonal
 * blocks only: the upper ones may be stale (A->lower) and stay so */
double cc_bsr_quad4(const cc_bsr *A, const double *x);

/* y_i = (A x)_i for the block rows rows[0..nr) only (x, y: 3n) */
void cc_bsr_mul_rows(const cc_bsr *A, const int *rows, int nr, const double *x, double *y);

#endif
