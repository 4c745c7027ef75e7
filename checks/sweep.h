/* Step sweeps: the analytic derivative against a finite-difference estimate at steps
 * 1e-1, 10^-1.5, ..., 1e-12 (relative to each element's step
 * scale, cc_target_step_scale), over a few elements.
 *
 * A correct derivative draws a "V": truncation error falling with slope p (the scheme's
 * order) as the step shrinks, then round-off rising as eps/h^d (d = 1 for first, 2 for second
 * differences of values). A wrong derivative draws a plateau: the error stops falling at the
 * size of the mistake, far above round-off. The verdict tells them apart:
 *
 *   agrees  the best error reaches the scheme's floor 1000 eps^(p/(p+d))
 *   wrong   the error is flat (within a factor 3) over two decades of steps, above the floor,
 *           where round-off is still small (eps/h^d <= 1e-4): the analytic value is off
 *   noisy   neither: no convergence but no plateau (a kink, a branch cut, ill conditioning)
 */
#ifndef CC_SWEEP_H
#define CC_SWEEP_H

#include "checks/fd.h"

#define CC_SWEEP_STEPS 23   /* 10^(-k/2), k = 2..24 */

typedef enum cc_verdict {
    CC_VERDICT_AGREES,
    CC_VERDICT_WRONG,
    CC_VERDICT_NOISY,
    CC_VERDICT_UNDEFINED    /* no finite error at any step */
} cc_verdict;

/* One element of a batch: positions and rest data. */
typedef struct cc_case {
    double x[CC_MAX_DOF];   /* positions, 3*nv */
    cc_rest r;              /* rest data */
    int id;                 /* random case index >= 0, or -(edge case number + 1) */
} cc_case;

typedef struct cc_sweep {
    cc_fdq q;                       /* quantity differenced */
    cc_scheme scheme;               /* difference scheme */
    int frozen;                     /* 1: the frozen-magnitude function (xf = x), 0: C itself */
    double h[CC_SWEEP_STEPS];       /* relative steps, decreasing */
    double err[CC_SWEEP_STEPS];     /* max over elements of the normwise relative error (NaN: undefined) */
    int best;                       /* index of the smallest finite error where eps/h^d <= 1e-4
                                       (round-off cannot saturate it), -1 if none */
    double slope;                   /* fitted log-log slope on the truncation side (NaN: too few points) */
    double floor;                   /* the scheme's round-off floor, 1000 eps^(p/(p+d)) */
    double plateau;                 /* level of the widest flat stretch above the floor (0: none) */
    cc_verdict verdict;             /* agrees, wrong or noisy */
} cc_sweep;

const char *cc_verdict_name(cc_verdict v);

/* s = sweep of quantity q by scheme over the n elements in cases (frozen: xf = x) */
void cc_sweep_run(const cc_target *t, const cc_case *cases, int n, cc_fdq q, cc_scheme scheme,
                  int frozen, cc_sweep *s);

/* best, slope, floor, plateau and verdict of s from s->h and s->err */
void cc_sweep_analyse(cc_sweep *s);

#endif
