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
#define CC_MG_PARTS 2        /* level 0's sweeps and product run in this many parts of consecutive rows */
#define CC_MG_PART_ROWS 256  /* ... when each part has at least this many rows (else in one) */
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
    int pre;        /* level 0's rows filled ahead of the setup (cc_mg_prefill), -1 if none */
    int pre_bad;    /* 1 if one of them had a diagonal block that is not SPD */
    int parts;      /* level 0's parts (cc_mg_set_parts) */
    int far;        /* levels of this many block rows or more prefetch (cc_mg_set_far) */
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

#endif
