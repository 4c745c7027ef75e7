/* Aggregation multigrid preconditioner for MPCG (CC_PRECOND_MG); method in multigrid.c.
 *
 * The hierarchy (aggregates, coarse patterns, slot maps) depends on the pattern of A only
 * and is built at the first setup with a new pattern; every later setup with the same
 * pattern recomputes the values (smoother blocks, Galerkin coarse operators, the coarsest
 * factor) in the storage it already has.
 */
#ifndef CC_MULTIGRID_H
#define CC_MULTIGRID_H

#include "sim/algebra/bsr.h"
#include "sim/algebra/filter.h"
#include "sim/algebra/team.h"

#define CC_MG_PARTS 2        /* level 0's sweeps and product (and the simulator's assembly) run in this
                                many parts of consecutive rows */
#define CC_MG_PART_ROWS 256  /* ... when each part has at least this many rows (else in one) */

typedef struct cc_mg cc_mg;

/* an empty preconditioner (no hierarchy yet); NULL when out of memory */
cc_mg *cc_mg_new(void);
void cc_mg_free(cc_mg *mg);

/* B = the multigrid cycle (sim/algebra/multigrid.c) for the filtered system S A S + (I - S) of this A and F (builds the
 * hierarchy when the pattern of A is new); 0, or -1 when a smoother block is not SPD,
 * the pattern is not symmetric, or memory runs out (then mg holds no usable B) */
int cc_mg_setup(cc_mg *mg, const cc_bsr *A, const cc_filter *F);

/* s = S B^-1 r (r: 3n with r = S r; s: 3n, distinct from r); returns r . s. Only after a
 * successful cc_mg_setup with the same F. */
double cc_mg_apply(cc_mg *mg, const cc_filter *F, const double *r, double *s);

/* r^T B^-1 r for r = S r (3n): the same number as cc_mg_apply returns, up to round-off,
 * from level 0's forward sweep and the coarse correction only (no backward sweep) */
double cc_mg_norm(cc_mg *mg, const cc_filter *F, const double *r);

/* cc_mg_apply for vectors of 4 doubles per vertex (lanes 0..2, lane 3 zero; 32-byte aligned) */
double cc_mg_apply4(cc_mg *mg, const cc_filter *F, const double *r, double *s);

/* cc_mg_apply4 in two halves, for a caller that may not need s: cc_mg_begin4 returns
 * r^T B^-1 r as cc_mg_norm does (leaving s half done); cc_mg_finish4 with the same r and s
 * completes s = S B^-1 r. Nothing else may use mg in between. */
double cc_mg_begin4(cc_mg *mg, const cc_filter *F, const double *r, double *s);
void cc_mg_finish4(cc_mg *mg, const cc_filter *F, const double *r, double *s);

/* q = S A S c + e for the 4-lane c = S c (q: 4-lane, distinct from c), with the filtered
 * diagonal blocks in double and the filtered off-diagonal blocks rounded to single precision
 * (the smoother's copies): |e| <= 2^-24 |S A S| |c| entrywise, up to the sums' round-off.
 * Returns c . q. Only after a successful cc_mg_setup (of that A and F). */
double cc_mg_product(const cc_mg *mg, const double *c, double *q);

/* on != 0: the smoother uses AVX2 and FMA when the CPU has them (the default); 0: the
 * scalar smoother (same sums, other round-off). Returns 1 if AVX2 is now used. */
int cc_mg_set_simd(cc_mg *mg, int on);

/* Level 0's values for A and F filled ahead of the next cc_mg_setup, as an assembly makes
 * A's rows final (the setup then skips its pass over A). cc_mg_prefill_begin starts it, with
 * the rows from `tail` on kept for a second front: tail = A->n for none, else at least
 * cc_mg_tail_row (the first row from which rows touch the last part's values only).
 * cc_mg_prefill then takes the rows from <= i < to in order from row 0 up to tail, and
 * cc_mg_prefill_tail in order from tail up to A->n; the two may run on two threads side by
 * side. The tail keeps its additions into values that rows below it add into too, and the
 * setup makes them after the head's: the values are those of the setup's own pass over the
 * rows, bit for bit, whatever the order of the calls. 0, or -1 when the hierarchy
 * is not A's or a call is out of order (nothing is kept: the setup makes its full pass).
 * cc_mg_prefill_reset forgets them: whoever changes A's values afterwards must call it. */
int cc_mg_tail_row(const cc_mg *mg, const cc_bsr *A);
int cc_mg_prefill_begin(cc_mg *mg, const cc_bsr *A, const cc_filter *F, int tail);
int cc_mg_prefill(cc_mg *mg, const cc_bsr *A, const cc_filter *F, int from, int to);
int cc_mg_prefill_tail(cc_mg *mg, const cc_bsr *A, const cc_filter *F, int from, int to);
void cc_mg_prefill_reset(cc_mg *mg);

/* level 0's smoother leaves out the lower blocks with ||A_ik||_F < theta sqrt(||A_ii||_F ||A_kk||_F),
 * and the minor ones (cc_bsr.minor) below ten times that (judged on the filtered A of the
 * setup that builds the hierarchy), and lumps them onto the diagonal (multigrid.c);
 * theta = 0 keeps them all. Default 1e-2. Clears the hierarchy. */
void cc_mg_set_weak(cc_mg *mg, double theta);

/* level 1 takes each block that level 0's smoother leaves out, between two aggregates, with
 * weight 1 + g and g times its lumps off their diagonal blocks: the operator of
 * A + g (W - lump(W)) instead of A's Galerkin operator (multigrid.c); g = 0: Galerkin.
 * Default 0.25; a setup whose level 1 then has a diagonal block that is not SPD, or whose
 * dense coarsest level is indefinite, is done again with g = 0. Clears the hierarchy. */
void cc_mg_set_gamma(cc_mg *mg, double g);

/* the coarse space of the next hierarchy: 3 translations per aggregate, 6 with the three
 * rotations about its centre, 12 the affine maps (mg_modes.c), or 0 (the default): chosen
 * from the matrix when the hierarchy is built (cc_mgi_choose_modes). 6 and 12 need the
 * positions (cc_mg_set_points); without them, 3. Clears the hierarchy. */
void cc_mg_set_modes(cc_mg *mg, int modes);

/* the current hierarchy's modes per aggregate: 3, 6 or 12; 0 if there is none */
int cc_mg_modes(const cc_mg *mg);

/* the vertex positions (3n; not owned: they must stay valid while mg uses them) the rotations
 * and affine maps are taken at, read at every setup and prefill; NULL (the default):
 * translations only */
void cc_mg_set_points(cc_mg *mg, const double *x);

/* how many lower blocks of level 0 the smoother leaves out (0 if none, or no hierarchy) */
int cc_mg_dropped(const cc_mg *mg);

/* on != 0 (the default): the smoother's sweeps take the rows of each level in an order that
 * solves the same triangular systems as index order, with consecutive rows independent where
 * it can (multigrid.c, cc_mgi_sweep_order); 0: index order. Same B up to round-off. Clears the
 * hierarchy. */
void cc_mg_set_reorder(cc_mg *mg, int on);

/* level 0's sweeps and product run in np parts of consecutive rows when each part has at
 * least 256 rows, else in one (multigrid.c: a part leaves its couplings into earlier parts
 * to before or after the sweep), and level 1 in the parts of level 0's aggregates when each
 * of those has 256 rows too; np = 1: one part, the plain block Gauss-Seidel sweeps.
 * Default 2, at most 8. The cycle depends on np (its iterations change a little); it does
 * not depend on the threads. Clears the hierarchy. */
void cc_mg_set_parts(cc_mg *mg, int np);

/* the levels of at least `rows` block rows (default 8192) ask for each row's data a few rows
 * before their sweeps and the product reach it (mg_cycle.c); same B and products bit for
 * bit. Clears the hierarchy. */
void cc_mg_set_far(cc_mg *mg, int rows);

/* the parts of levels 0 and 1 run on the threads of team t (team.h; not owned, it must outlive mg's
 * use of it), or the caller alone (t = NULL, the default). The results are the same bit for
 * bit on any team. */
void cc_mg_set_team(cc_mg *mg, cc_team *t);

/* fn(arg, i0, i1) for the rows i0 .. i1-1 of each of level 0's parts, side by side on the
 * team (a vector operation on level 0's rows then runs where its part's sweeps run); one
 * call for rows 0 .. n-1 when there is one part or no hierarchy */
void cc_mg_rows(const cc_mg *mg, int n, void (*fn)(void *arg, int i0, int i1), void *arg);

/* the fraction of consecutive rows in level l's sweep order where the later row couples to
 * the earlier one; -1 if there is no level l or its order is not a valid one */
double cc_mg_chained(const cc_mg *mg, int l);

/* levels of the current hierarchy (0 if none) and the block rows of level l in *n */
int cc_mg_levels(const cc_mg *mg, int l, int *n);

#endif
