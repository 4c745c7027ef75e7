/* Taylor remainder test: along random unit directions p and steps eps,
 *
 *   r0(eps) = |C(x + eps p) - C(x)|                                   O(eps)
 *   r1(eps) = |C(x + eps p) - C(x) - eps g.p|                         O(eps^2)
 *   r2(eps) = |C(x + eps p) - C(x) - eps g.p - eps^2/2 p^T H p|       O(eps^3)
 *
 * with g, H the target's analytic derivatives. The observed order of rj is the log-log
 * slope of rj against eps; a wrong gradient drops r1 to order 1, a wrong Hessian r2 to
 * order 2 (unless its error is skew: p^T E p = 0 for every p, which only the entrywise
 * comparisons see). Each remainder is split into its odd and even parts in eps (from +-eps),
 * each with a single leading power, and its order is the lower of theirs; per element the
 * best of 3 directions counts, per batch the worst element. Steps are eps = ell 2^-(4+j),
 * j < CC_TAYLOR_STEPS, ell the element's step scale (cc_target_step_scale); an order is
 * fitted over the four smallest steps whose remainder is 1000 times above its round-off,
 * 64 eps (|C| + sum_i |g_i x_i| + the terms subtracted); a remainder never that far above
 * round-off (r2 of a quadratic C) is reported as round-off, its order moot.
 */
#ifndef CC_TAYLOR_H
#define CC_TAYLOR_H

#include <stdint.h>
#include "checks/sweep.h"

#define CC_TAYLOR_STEPS 10

typedef struct cc_taylor {
    double order[3];    /* lowest observed order of r0, r1, r2 over the elements (NaN: none fitted) */
    int roundoff[3];    /* 1 where rj stayed at round-off for every element (its order is moot) */
    int worst[3];       /* case id of the element with the lowest order (0 if none) */
    int defined;        /* 0 if the target was undefined at every element */
} cc_taylor;

/* t = Taylor test of the target over n cases, directions seeded by (seed, case id);
 * frozen: the frozen-magnitude function C(y; xf = x) instead of C */
void cc_taylor_run(const cc_target *t, const cc_case *cases, int n, uint64_t seed, int frozen,
                   cc_taylor *out);

/* 1 if every fitted order reaches its expectation (1, 2, 3) within 0.3 */
int cc_taylor_pass(const cc_taylor *t);

#endif
