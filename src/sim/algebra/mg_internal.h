/* Internals of the aggregation multigrid (sim/algebra/multigrid.h), shared by its three files:
 *   multigrid.c   the method (banner), the hierarchy's storage and the aggregation, built
 *                 once per pattern of A
 *   mg_values.c   the values: smoother blocks, Galerkin coarse operators, the coarsest
 *                 factor, recomputed at every setup
 *   mg_cycle.c    the smoother, the cycle and the single-precision product, per solve
 * Nothing outside these files includes this header.
 */
#ifndef CC_MG_INTERNAL_H
#define CC_MG_INTERNAL_H

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim/algebra/avx2.h"
#include "sim/algebra/multigrid.h"
#include "sim/algebra/team.h"

#define CC_MG_MAXLEV 12      /* levels at most */
#define CC_MG_DENSE 40       /* the coarsest level is factored densely from this many block rows down */
#define CC_MG_THETA 0.08     /* strength threshold on level 0, halved on each coarser level */
#define CC_MG_NULLFIX 1e-8   /* relative weight of the constrained directions on level 1 */
#define CC_MG_ALPHA 1.7      /* over-correction: the coarse correction is scaled by this */
#define CC_MG_WEAK 1e-2      /* level 0's smoother drops L_ik when ||L_ik||_F < this sqrt(||A_ii||_F ||A_kk||_F) */
#define CC_MG_GAMMA 0.25     /* level 1 weighs a dropped block across aggregates by 1 + this, minus its lumps */
#define CC_MG_MINOR 10.0     /* and a minor block (cc_bsr.minor) when it is below this many times that */
#define CC_MG_BENDING 0.03   /* rotations in the coarse space when half the minor blocks are this strong (cc_mgi_choose_modes) */
#define CC_MG_ISOTROPIC 0.6  /* the affine maps when half of those have (tr B)^2 >= this 3 ||B||_F^2 (B = c I: 1; rank 1: 1/3) */
#define CC_MG_FAR_ROWS 8192  /* a level this large outgrows the near caches: its passes prefetch (cc_mg_set_far) */
#define CC_MG_AHEAD 32       /* ... the data of the row this many rows ahead */

typedef float cc_mgf;        /* precision of the smoother's off-diagonal blocks */

typedef struct mg_level {
    int n;          /* block rows */
    int nlo;        /* strictly lower blocks */
    int *rowptr;    /* n+1: lower blocks of row i are rowptr[i] .. rowptr[i+1]-1 */
    int *col;       /* nlo: their columns, ascending */
    cc_mgf *lf;     /* 9 nlo (+ 4 zero pad): the lower blocks L_ik in single precision, row-major */
    int *srow, *scol;   /* the smoother's lower blocks, as rowptr, col and lf: the same arrays */
    cc_mgf *sf;     /* except on level 0 when it drops weak blocks (cc_mgi_smoother0) */
    int *wrow, *wcol;   /* level 0 when it drops: the dropped (weak) blocks, as srow, scol, sf; */
    cc_mgf *wf;     /* lf is then not kept (sf and wf hold its blocks) */
    int *ord;       /* n: the order the smoother's forward sweep takes the rows in (backward: reversed) */
    int ahead;      /* rows ahead the sweeps and the product prefetch (n >= cc_mg.far), or 0 */
    int np;         /* parts (cc_mgi_parts): part p is the rows pstart[p] .. pstart[p+1]-1, and */
    int *pstart;    /* np+1 */
    int *pord;      /* np+1: ord[pord[p]] .. ord[pord[p+1]-1] are its rows in the sweep order */
    int *sbeg;      /* n: row i's smoother blocks in a sweep start here: srow[i] past its cross */
                    /* blocks (those into an earlier part, the first of the row); = srow in one part */
    int *wbeg;      /* n: the same for the weak blocks (the product), when wrow; = wrow in one part */
    int *xrow;      /* nx: the rows with cross blocks, ascending */
    int *cstart;    /* np+1 (with agg): part p's aggregates are the next level's rows cstart[p] .. cstart[p+1]-1 */
    int nx;
    int nsh;        /* rows whose smoother's D_i is shifted on the cut (mg_values.c, cut_safe): */
    int *shrow;     /* nsh rows, and */
    double *shd;    /* 9 nsh: their shifts Delta_i (row-major, symmetric PSD) */
    int *slot0;     /* nlo (the same): block p of A's lower pattern is sf block v >= 0 or wf block -1 - v */
    double *lump;   /* 9n (the same): D_i with the dropped blocks lumped onto it, row-major */
    double *dinv;   /* 9 n (+ 4 zero pad): D_i^-1 by columns (column-major 3 x 3) */
    double *dsys;   /* 9 n (+ 4, level 0 only): S_i A_ii S_i by columns, as dinv (the product) */
    double *lv;     /* 9 (nlo + n + 1): Galerkin lower blocks, then the diagonal blocks dv, then a
                       scratch block (levels >= 1, and level 0 when it is the coarsest) */
    double *dv;     /* = lv + 9 nlo: Galerkin diagonal blocks */
    int *agg;       /* n: aggregate (block row of the next level) or -1; NULL on the coarsest */
    int *cslot;     /* nlo: 4 t + c, block (i,k) B adds (c & 1) B + (c >> 1) B^T to block t of the
                       next level's lv (a lower block, or nlo + I for the diagonal of I) */
    double *b, *x, *g;   /* 4n: right-hand side, solution, residual / upper sums */
    double *r, *e;  /* 4n: residual and correction of the second coarse cycle (levels >= 1) */
    double *d3;     /* 3n: the dense solve's right-hand side and solution (coarsest level only) */
    double *chol;   /* (3n)^2: dense Cholesky factor, coarsest level only */
    /* with rotations or affine maps (cc_mg.modes 6 or 12, mg_modes.c): a level >= 1 has
     * r = nm / 3 block rows per node (an aggregate of the level above), r I .. r I + r - 1,
     * the node's nm coordinates */
    int nm;         /* levels >= 1 with nodes: coordinates a node (6 or 12); 0 otherwise */
    int pm;         /* levels with pv: the next level's nm */
    double *pv;     /* 3 pm n (levels with agg): row i's block of P, 3 x pm */
                    /* row-major, onto the next level's rows of node agg[i] (level 0: S_i inside) */
    int nn, nnlo;   /* levels >= 1: nodes (n / r) and node pairs (I, K), I > K, coupled */
    int *nrow, *ncol;   /* nn+1, nnlo: the node pairs of node I are nrow[I] .. nrow[I+1]-1, */
                    /* ncol their K, ascending (the pattern cslot codes refer to) */
    double *gn;     /* nm^2 (nnlo + nn + 1): the Galerkin sums as nm x nm node blocks, row-major: */
                    /* the pairs, then the nodes' diagonal blocks (spread over lv, dv) */
    double *cen;    /* 3 nn: each node's centre (the mean of its vertices' or nodes' centres) */
    double *rn;     /* nm^2 nn: R_I, the node's coordinates of the global modes about its centre */
    double *wn;     /* nm^2 nn: W_I, the node's near-null basis made orthonormal (mg_modes.c) */
    unsigned short *drop;   /* nn: bit j set if column j of W_I is zero (a mode the node lacks) */
} mg_level;

struct cc_mg {
    int nlev;       /* levels, 0 before the first setup */
    int dense;      /* 1 if the coarsest level is factored densely */
    int n, nnzb;    /* the pattern the hierarchy was built for */
    unsigned long long id;   /* its identity (cc_bsr.id) */
    int avx2;       /* 1 if the smoother uses AVX2 and FMA (the CPU has them) */
    int reorder;    /* 1: the sweeps take the rows in cc_mgi_sweep_order's order; 0: in index order */
    double weak;    /* level 0's smoother drops the blocks weaker than this (cc_mgi_smoother0); 0: none */
    double gamma;   /* the correction of level 1 for the dropped blocks (cc_mg_set_gamma); 0: Galerkin */
    int pre;        /* level 0's rows below pre are filled ahead of the setup (cc_mg_prefill), -1 if none */
    int pre_bad;    /* 1 if one of them had a diagonal block that is not SPD */
    int tail_row;   /* the lowest row the tail may start at (cc_mg_tail_row), set when built */
    int tail;       /* the first row of the tail (cc_mg_prefill_tail), -1 before cc_mg_prefill_begin */
    int tail_end;   /* its rows below tail_end are filled, -1 if none */
    int tail_bad;   /* pre_bad of the tail's rows (a field of its own: the two fill side by side) */
    int *amin;      /* n + 1: the lowest row of level 0 in each of level 1's aggregates (or nodes), */
    int later_tail; /* for the tail from this row (-1: not yet, or a new hierarchy); and the row */
    int later_end;  /* from which no tail row adds into what the rows below the tail do */
    struct mg_later *later;   /* the tail's additions deferred until the head is done (mg_values.c) */
    int nlater, caplater;
    double *laterv;           /* their values */
    size_t nlaterv, caplaterv;
    int parts;      /* level 0's parts (cc_mg_set_parts) */
    int far;        /* levels of this many block rows or more prefetch (cc_mg_set_far) */
    int modes_req;  /* the coarse space asked for (cc_mg_set_modes): 0 chosen at build, 3, 6, 12 */
    int modes;      /* the hierarchy's modes per aggregate: 3 translations, 6 with the rotations,
                       12 the affine maps */
    const double *x;   /* 3n: the positions the rotations and affine maps are taken at
                          (cc_mg_set_points; not owned), or NULL */
    cc_team *team;  /* the threads the parts run on (cc_mg_set_team; not owned), or NULL */
    mg_level lev[CC_MG_MAXLEV];
};

/* ---------- 3x3 helpers ---------- */

/* C = A B (row-major 3x3) */
static inline void m3m(const double *A, const double *B, double *C)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}

/* T = Si B Sk, with a NULL filter standing for I */
static inline void filt(const double *B, const double *Si, const double *Sk, double *T)
{
    double U[9];
    memcpy(T, B, 9 * sizeof *T);
    if (Si) m3m(Si, T, U), memcpy(T, U, sizeof U);
    if (Sk) m3m(T, Sk, U), memcpy(T, U, sizeof U);
}

/* Dinv = D^-1 if the symmetric D is SPD (Sylvester's leading minors); else -1 */
static inline int spd_inverse(const double *D, double *Dinv)
{
    double c00 = D[4] * D[8] - D[5] * D[7], c01 = D[5] * D[6] - D[3] * D[8], c02 = D[3] * D[7] - D[4] * D[6];
    double det = D[0] * c00 + D[1] * c01 + D[2] * c02, m2 = D[0] * D[4] - D[1] * D[3];
    if (!(D[0] > 0 && m2 > 0 && det > 0) || !isfinite(det)) return -1;
    double id = 1.0 / det;
    Dinv[0] = c00 * id;
    Dinv[1] = (D[2] * D[7] - D[1] * D[8]) * id;
    Dinv[2] = (D[1] * D[5] - D[2] * D[4]) * id;
    Dinv[3] = c01 * id;
    Dinv[4] = (D[0] * D[8] - D[2] * D[6]) * id;
    Dinv[5] = (D[2] * D[3] - D[0] * D[5]) * id;
    Dinv[6] = c02 * id;
    Dinv[7] = (D[1] * D[6] - D[0] * D[7]) * id;
    Dinv[8] = (D[0] * D[4] - D[1] * D[3]) * id;
    return 0;
}

/* c = the columns of the row-major 3x3 M, one after the other (column-major) */
static inline void set_cols(double *c, const double *M)
{
    for (int j = 0; j < 3; j++)
        for (int a = 0; a < 3; a++) c[3 * j + a] = M[3 * a + j];
}

/* level L's D_i^-1 (by columns) from the symmetric block D; -1 if D is not SPD */
static inline int set_dinv(mg_level *L, int i, const double *D)
{
    double Dinv[9];
    if (spd_inverse(D, Dinv) < 0) return -1;
    set_cols(L->dinv + 9 * (size_t)i, Dinv);
    return 0;
}

/* ||B||_F^2 */
static inline double fro2(const double *B)
{
    double s = 0;
    for (int q = 0; q < 9; q++) s += B[q] * B[q];
    return s;
}

/* ---------- across the files ---------- */

/* multigrid.c: storage and the once-per-pattern structure */
double *cc_mgi_vec4_alloc(size_t n);
double *cc_mgi_blocks_alloc(size_t n);
int cc_mgi_level_alloc(mg_level *L, int coarse);
void cc_mgi_level_free(mg_level *L);
int cc_mgi_smoother0(mg_level *L, const double *nlo2, const double *nd, const unsigned char *minor, double weak);
int cc_mgi_sweep_order(mg_level *L, int reorder);
int cc_mgi_cut(mg_level *L, int np);
int cc_mgi_cut_as(mg_level *C, const mg_level *F);
int cc_mgi_parts(mg_level *L);
int cc_mgi_level0_pattern(mg_level *L, const cc_bsr *A);
int cc_mgi_aggregate(mg_level *L, const double *nlo2, const double *nd, double theta, int *agg);
int cc_mgi_coarse_pattern(mg_level *F, mg_level *C, int na);
void cc_mgi_clear(cc_mg *mg);

/* mg_modes.c: the coarse space with rotations or affine maps (cc_mg.modes 6 or 12) */
#define CC_MG_MAXM 12        /* coordinates a node at most */
int cc_mgi_coarse_pattern_nodes(mg_level *F, mg_level *C, int na, int nm);
int cc_mgi_alloc_nodes(mg_level *F, mg_level *C);
int cc_mgi_aggregate_nodes(mg_level *L, double theta);
void cc_mgi_modes0(cc_mg *mg, const cc_filter *F);
void cc_mgi_modes(cc_mg *mg, int l);
void cc_mgi_expand_nodes(mg_level *L);
int cc_mgi_choose_modes(const cc_mg *mg, const cc_bsr *A, const cc_filter *F, const double *nlo2, const double *nd);

/* G = P_i^T B P_k for row blocks P_i, P_k of P (3 x m row-major) and a 3x3 block B */
static inline __attribute__((always_inline)) void galerkin_m(const double *restrict Pi, const double *restrict B,
                                                             const double *restrict Pk, double *restrict G, int m)
{
    double T[3 * CC_MG_MAXM];
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < m; c++) T[m * a + c] = B[3 * a] * Pk[c] + B[3 * a + 1] * Pk[m + c] + B[3 * a + 2] * Pk[2 * m + c];
    for (int r = 0; r < m; r++)
        for (int c = 0; c < m; c++) G[m * r + c] = Pi[r] * T[c] + Pi[m + r] * T[m + c] + Pi[2 * m + r] * T[2 * m + c];
}

/* galerkin_m for m = 6 or 12 (each with its constant m) */
static inline void galerkin_node(const double *Pi, const double *B, const double *Pk, double *G, int m)
{
    if (m == 6) galerkin_m(Pi, B, Pk, G, 6);
    else galerkin_m(Pi, B, Pk, G, 12);
}

/* m x m block code >> 2 of gn += G for code & 3 = 1, G^T for 2, G + G^T for 3 (cslot's codes
 * at node level) */
static inline void add_coarse_node(double *restrict gn, int code, const double *restrict G, int m)
{
    double *t = gn + (size_t)m * m * (size_t)(code >> 2);
    if (code & 1)
        for (int k = 0; k < m * m; k++) t[k] += G[k];
    if (code & 2)
        for (int a = 0; a < m; a++)
            for (int b = 0; b < m; b++) t[m * a + b] += G[m * b + a];
}

#endif
