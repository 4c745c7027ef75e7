/* The modified preconditioned conjugate gradient method (Baraff & Witkin 1998, Section 5.3)
 * with Ascher & Boxerman's corrections and preconditioner (003 Section 3.1).
 *
 * Solves A dv = b for the unconstrained degrees of freedom while the constrained ones take
 * the prescribed value z:  S_i dv_i is free, (I - S_i) dv_i = (I - S_i) z_i, where per vertex
 *   S_i = I               free
 *   S_i = I - p p^T       one constrained direction p (slides in a plane)
 *   S_i = I - p p^T - q q^T  two constrained directions (slides on a line)
 *   S_i = 0               pinned
 * It is CG on the reduced system S A S y = S (b - A z), dv = z + y.
 */
#ifndef CC_MPCG_H
#define CC_MPCG_H

#include "sim/algebra/bsr.h"
#include "sim/algebra/filter.h"

/* Preconditioners. */
typedef enum cc_precond {
    CC_PRECOND_JACOBI,  /* P = diag(A), Baraff & Witkin's choice */
    CC_PRECOND_BLOCK,   /* P = the 3x3 diagonal blocks of A (block Jacobi), filtered afterwards */
    CC_PRECOND_AB,      /* Ascher & Boxerman: blocks of the filtered system, S_i A_ii S_i + (I - S_i) */
    CC_PRECOND_IC0,     /* block incomplete LDL^T (no fill) of the whole filtered system
                           S A S + (I - S); falls back to CC_PRECOND_AB on a non-SPD pivot */
    CC_PRECOND_MG,      /* one W-cycle of plain-aggregation multigrid on the filtered system
                           (sim/algebra/multigrid.h); falls back to CC_PRECOND_AB when it cannot be built */
    CC_PRECOND_AUTO     /* CC_PRECOND_AB while its solves take at most CC_MPCG_AUTO_ITER
                           iterations on average (a step's, over all of them, once there are
                           CC_MPCG_AUTO_MIN: w->auto_again) and fewer than CC_MPCG_AUTO_CAP in any one
                           or than what keeps that mean within it (CC_MPCG_AUTO_RESERVE);
                           CC_PRECOND_MG from then on, for every later solve of the same work
                           space (w->auto_mg; mpcg.c) */
} cc_precond;

/* CC_PRECOND_AUTO's budget for the blocks: the iterations a step the scenes are held to, */
#define CC_MPCG_AUTO_ITER 20
/* ... on average over the solves so far, once there are this many, */
#define CC_MPCG_AUTO_MIN 8
/* ... and the most one solve takes with them: the multigrid goes on from there */
#define CC_MPCG_AUTO_CAP (3 * CC_MPCG_AUTO_ITER)
/* ... or, once the mean is taken, where the blocks would leave the multigrid fewer than this
 * many iterations to finish the solve within the mean's goal */
#define CC_MPCG_AUTO_RESERVE 5

struct cc_mg;

/* Where the CG loop's products S A S c come from (multigrid preconditioner only; the other
 * preconditioners always use cc_bsr_mul). */
typedef enum cc_mpcg_product {
    CC_PRODUCT_AUTO,    /* CC_PRODUCT_SINGLE when tol >= CC_MPCG_SINGLE_TOL, else CC_PRODUCT_DOUBLE */
    CC_PRODUCT_DOUBLE,  /* A in double (cc_bsr_mul4) */
    CC_PRODUCT_SINGLE   /* the multigrid's level 0: double diagonal, single-precision
                           off-diagonal blocks (cc_mg_product); mpcg.c argues the error */
} cc_mpcg_product;

/* smallest tolerance for which CC_PRODUCT_AUTO takes the single-precision product */
#define CC_MPCG_SINGLE_TOL 1e-4
/* CC_PRODUCT_AUTO keeps it while its c^T A c is within this of the double one (mpcg.c) */
#define CC_MPCG_SINGLE_REL 0.1
#define CC_MPCG_SINGLE_CHECK 16   /* ... checked at the first solve and every this many after */
#define CC_MPCG_SINGLE_RES_TOL 1e-3   /* from this tol up, also a warm start's initial residual (mpcg.c) */

/* Work space for n vertices, allocated once and reused by every solve. */
typedef struct cc_mpcg_work {
    int n;        /* vertices */
    double *r;    /* 3n: filtered residual */
    double *c;    /* 3n: search direction */
    double *q;    /* 3n: A c */
    double *s;    /* 3n: preconditioned residual */
    double *P;    /* 9n: inverse preconditioner blocks P_i^-1, row-major */
    double *LW;   /* IC(0) factor, 27*(cap/2) doubles: L_ik (k < i) by rows, then L_ik^T by rows
                     of the upper pattern, then L_ik D_k; each part (nnzb - n)/2 blocks */
    int *cidx;    /* cap: index of a slot within its (lower or upper) part of LW */
    int cap;      /* blocks LW and cidx have room for (grown at the first solve of a pattern only) */
    int ic_ok;    /* 1 if the last IC(0) factorisation succeeded */
    struct cc_mg *mg;   /* multigrid hierarchy (CC_PRECOND_MG), created at its first use */
    int mg_ok;    /* 1 if the last multigrid setup succeeded */
    struct cc_team *team;   /* threads for the multigrid's parts (cc_mg_set_team; not owned;
                               NULL after cc_mpcg_work_new: the caller alone) */
    cc_mpcg_product product;   /* the products of the multigrid CG loop (CC_PRODUCT_AUTO after
                                  cc_mpcg_work_new) */
    int auto_mg;  /* CC_PRECOND_AUTO: 0 the blocks (after cc_mpcg_work_new), 2 the multigrid
                     from the next solve on, 1 the multigrid */
    long auto_solves, auto_its;   /* CC_PRECOND_AUTO's solves with the blocks, and their iterations */
    int auto_again;   /* set by the caller: 1 if the next solve is of the same step as the last
                         (a retry), so that CC_PRECOND_AUTO's mean is per step (0 after
                         cc_mpcg_work_new) */
    int single_lost;   /* 1 once CC_PRODUCT_AUTO found the single-precision product too coarse
                          for the matrices solved (mpcg.c): double from then on */
    long single_solves;   /* solves that took the single-precision product (the checks' clock) */
    double *r4, *c4, *q4, *s4; /* 4(n+1) each, 32-byte aligned: r, c, q, s of the multigrid
                                  loop, 4 doubles per vertex (lane 3 zero) */
    const double *x;   /* 3n: the vertex positions of A, for the multigrid's rotations and
                          affine maps (cc_mg_set_points; not owned), or NULL (after
                          cc_mpcg_work_new): translations only */
} cc_mpcg_work;

/* What one solve did. */
typedef struct cc_mpcg_stats {
    int iterations;      /* products with A inside the loop */
    int converged;       /* 1 if delta <= tol^2 delta0 */
    int indefinite;      /* 1 if c^T A c <= 0 was met (A not positive definite on the free space),
                            or r^T P^-1 r < 0 (a preconditioner that lost definiteness with A) */
    int ic_fallback;     /* 1 if IC(0) or multigrid could not be built and block Jacobi (Ascher &
                            Boxerman) was used instead */
    double rel_residual; /* sqrt(delta / delta0), the preconditioned relative residual */
    int single_product;  /* 1 if the loop's products were the single-precision ones (to the
                            end of the solve or until a check found them too coarse) */
    int switched;        /* 1 if this is CC_PRECOND_AUTO's first solve with the multigrid */
} cc_mpcg_stats;

cc_mpcg_work *cc_mpcg_work_new(int n);
void cc_mpcg_work_free(cc_mpcg_work *w);

/* dv = the solution of A dv = b on the free DOFs with (I - S) dv = (I - S) z, to relative
 * preconditioned residual tol (||r||_P^-1 <= tol ||S(b - A z)||_P^-1) within maxit
 * iterations. z may be NULL (all zero). With warm != 0 the free part of dv on entry is the
 * initial guess; otherwise the guess is z. Returns 0 when converged, 1 when not (dv is the
 * last iterate, finite), -1 on bad arguments. */
int cc_mpcg_solve(const cc_bsr *A, const double *b, const cc_filter *F, const double *z, int warm,
                  cc_precond pc, double tol, int maxit, cc_mpcg_work *w, double *dv,
                  cc_mpcg_stats *st);

/* u^T A u for u = S u (3n) with the products of the last solve (the multigrid's single-precision
 * blocks when it was set up for this A); NAN on bad arguments */
double cc_mpcg_quad(const cc_bsr *A, cc_mpcg_work *w, const double *u);

#endif
