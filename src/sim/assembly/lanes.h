/* Lanes: CC_LANES elements side by side, for the structured assembly kernels (kernel_*.c).
 *
 * A cc_ln holds one double per element of a batch, in a GNU C vector type (gcc and clang), so
 * a kernel written once in scalar-looking arithmetic evaluates CC_LANES elements with each
 * instruction: two per SSE2 instruction on baseline x86-64, four with AVX. Every operation is
 * lane-wise, and nothing is summed across lanes, so each lane's numbers are exactly those of
 * the same code run on one element. A cc_lm is a lane mask (-1 true, 0 false), as comparisons
 * of cc_ln give it.
 */
#ifndef CC_LANES_H
#define CC_LANES_H

#include "sim/assembly/sim_internal.h"   /* CC_LANES */
#include <math.h>
#include <string.h>


typedef double cc_ln __attribute__((vector_size(CC_LANES * sizeof(double))));
typedef long long cc_lm __attribute__((vector_size(CC_LANES * sizeof(long long))));

/* a 3-vector of lanes */
typedef struct cc_lv3 {
    cc_ln x, y, z;
} cc_lv3;

/* every lane = a */
static inline cc_ln cc_ln_set(double a) { return (cc_ln){0} + a; }
/* lane-wise sqrt */
static inline cc_ln cc_ln_sqrt(cc_ln a)
{
    for (int l = 0; l < CC_LANES; l++) a[l] = sqrt(a[l]);
    return a;
}
/* a where m is true, else 0 */
static inline cc_ln cc_ln_and(cc_lm m, cc_ln a) { return (cc_ln)((cc_lm)a & m); }
/* a where m is true, else b */
static inline cc_ln cc_ln_select(cc_lm m, cc_ln a, cc_ln b) { return (cc_ln)(((cc_lm)a & m) | ((cc_lm)b & ~m)); }

/* V[m][l] = vertex m of lane l's element, for CC_LANES elements of nv vertices each at vid
 * (lanes l >= live repeat the last live element) */
static inline void cc_ln_lane_vertices(const int *vid, int nv, int live, cc_lm *V)
{
    for (int m = 0; m < nv; m++)
        for (int l = 0; l < CC_LANES; l++) V[m][l] = vid[nv * (l < live ? l : live - 1) + m];
}

/* lane-wise atan2(y, x) of finite y, x, not both zero, in one vector evaluation instead of
 * CC_LANES libm calls (those were 8 % of the bench's assembly at 66 x 66); within 2 ulp of
 * libm's (16M random angles: 8.5 % differ by 1 ulp, 1e-5 % by 2; test_sim_kernels checks
 * it). num/den in [0, 1] is |y|/|x| or its inverse (swap); about c = tan(k pi/8), k = 0 up to
 * tan(1/4), 1 up to tan(3 pi/16), else 2, r = (num - c den)/(den + c num) has |r| <=
 * tan(1/4), and atan r is its Taylor series to r^25 (truncation < 2e-17 relative); then
 * theta = +-(j pi/8 +- atan r) with an integer j <= 8 from k, the swap and the sign of x.
 * tan(pi/8) and pi/8 are split in two doubles (c_hi + c_lo; j pi/8 exact to 83 bits). The
 * sign of y (zeros included) is the sign of the result, as for atan2. */
static inline cc_ln cc_ln_atan2(cc_ln y, cc_ln x)
{
    const cc_lm sign = (cc_lm){0} + (long long)(1ull << 63);
    cc_ln ax = (cc_ln)((cc_lm)x & ~sign), ay = (cc_ln)((cc_lm)y & ~sign), one = cc_ln_set(1.0);
    cc_lm swap = ay > ax, xneg = ((cc_lm)x & sign) != 0;
    cc_ln num = cc_ln_select(swap, ax, ay), den = cc_ln_select(swap, ay, ax);   /* num / den in [0, 1] */
    cc_lm k1 = num > 0.25534192122103627 * den, k2 = num > 0.66817863791929891999 * den;   /* tan(1/4), tan(3 pi/16) */
    cc_lm mid = k1 & ~k2;   /* k = 1: c = tan(pi/8) = c_hi + c_lo */
    cc_ln c = cc_ln_select(k2, one, cc_ln_and(k1, cc_ln_set(0x1.a827999fcef32p-2)));
    cc_ln clo = cc_ln_and(mid, cc_ln_set(0x1.08b2fb1366ea9p-56));
    cc_ln r = (num - c * den - clo * den) / (den + c * num + clo * num), z = r * r;
    cc_ln p = cc_ln_set(1.0 / 25);
    p = p * z - 1.0 / 23, p = p * z + 1.0 / 21;
    p = p * z - 1.0 / 19, p = p * z + 1.0 / 17, p = p * z - 1.0 / 15, p = p * z + 1.0 / 13;
    p = p * z - 1.0 / 11, p = p * z + 1.0 / 9, p = p * z - 1.0 / 7, p = p * z + 1.0 / 5, p = p * z - 1.0 / 3;
    cc_ln at = r + r * z * p;
    cc_ln k = cc_ln_and(k1, one) + cc_ln_and(k2, one);
    cc_lm flip = swap ^ xneg;
    cc_ln j = cc_ln_and(swap, cc_ln_set(4.0)) + cc_ln_and(xneg & ~swap, cc_ln_set(8.0)) + cc_ln_select(flip, -k, k);
    at = cc_ln_select(flip, -at, at);
    cc_ln th = j * 0x1.921fb54p-2 + (j * 0x1.10b4611a62633p-32 + at);
    return (cc_ln)((cc_lm)th | ((cc_lm)y & sign));
}

/* lanes i, j, k, l of the 8 lanes a, b (i < 4: a[i], else b[i - 4]); gcc and clang spell it apart */
#if defined(__clang__)
#define CC_LN_SHUFFLE(a, b, i, j, k, l) __builtin_shufflevector(a, b, i, j, k, l)
#else
#define CC_LN_SHUFFLE(a, b, i, j, k, l) __builtin_shuffle(a, b, (cc_lm){i, j, k, l})
#endif

/* r[l] = (a[l], b[l], c[l], d[l]): the lanes of four cc_ln as rows, a 4 x 4 transpose */
static inline void cc_ln_transpose4(cc_ln a, cc_ln b, cc_ln c, cc_ln d, cc_ln r[4])
{
    _Static_assert(CC_LANES == 4, "cc_ln_transpose4 is written for four lanes");
    cc_ln ab0 = CC_LN_SHUFFLE(a, b, 0, 4, 2, 6), ab1 = CC_LN_SHUFFLE(a, b, 1, 5, 3, 7);
    cc_ln cd0 = CC_LN_SHUFFLE(c, d, 0, 4, 2, 6), cd1 = CC_LN_SHUFFLE(c, d, 1, 5, 3, 7);
    r[0] = CC_LN_SHUFFLE(ab0, cd0, 0, 1, 4, 5);
    r[1] = CC_LN_SHUFFLE(ab1, cd1, 0, 1, 4, 5);
    r[2] = CC_LN_SHUFFLE(ab0, cd0, 2, 3, 6, 7);
    r[3] = CC_LN_SHUFFLE(ab1, cd1, 2, 3, 6, 7);
}
/* a[0..3] += u, a anywhere (no alignment) */
static inline void cc_ln_add_to(double *a, cc_ln u)
{
    cc_ln t;
    memcpy(&t, a, sizeof t);
    t += u;
    memcpy(a, &t, sizeof t);
}

static inline cc_lv3 cc_lv3_add(cc_lv3 a, cc_lv3 b) { return (cc_lv3){a.x + b.x, a.y + b.y, a.z + b.z}; }
static inline cc_lv3 cc_lv3_sub(cc_lv3 a, cc_lv3 b) { return (cc_lv3){a.x - b.x, a.y - b.y, a.z - b.z}; }
/* s a */
static inline cc_lv3 cc_lv3_scale(cc_lv3 a, cc_ln s) { return (cc_lv3){s * a.x, s * a.y, s * a.z}; }
/* a + s b */
static inline cc_lv3 cc_lv3_axpy(cc_lv3 a, cc_ln s, cc_lv3 b) { return (cc_lv3){a.x + s * b.x, a.y + s * b.y, a.z + s * b.z}; }
static inline cc_ln cc_lv3_dot(cc_lv3 a, cc_lv3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline cc_lv3 cc_lv3_cross(cc_lv3 a, cc_lv3 b)
{
    return (cc_lv3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
static inline cc_lv3 cc_lv3_zero(void) { return (cc_lv3){{0}, {0}, {0}}; }

/* M += u v^T, M a row-major 3x3 of lanes */
static inline void cc_lm3_outer(cc_ln M[9], cc_lv3 u, cc_lv3 v)
{
    M[0] += u.x * v.x, M[1] += u.x * v.y, M[2] += u.x * v.z;
    M[3] += u.y * v.x, M[4] += u.y * v.y, M[5] += u.y * v.z;
    M[6] += u.z * v.x, M[7] += u.z * v.y, M[8] += u.z * v.z;
}

/* y += M x (transposed = 0) or M^T x (transposed = 1) */
static inline cc_lv3 cc_lm3_mul_add(cc_lv3 y, const cc_ln M[9], cc_lv3 x, int transposed)
{
    if (transposed)
        return (cc_lv3){y.x + M[0] * x.x + M[3] * x.y + M[6] * x.z, y.y + M[1] * x.x + M[4] * x.y + M[7] * x.z,
                        y.z + M[2] * x.x + M[5] * x.y + M[8] * x.z};
    return (cc_lv3){y.x + M[0] * x.x + M[1] * x.y + M[2] * x.z, y.y + M[3] * x.x + M[4] * x.y + M[5] * x.z,
                    y.z + M[6] * x.x + M[7] * x.y + M[8] * x.z};
}

/* a_{vid_m} += v[m] of lane l for the live lanes l (one element a lane, elem: nv vertices an
 * element, from the batch's first) and its vertices m < nv (a: 3 doubles a vertex) */
static inline void cc_lv3_add_lanes(double *a, const int *elem, int nv, const cc_lv3 *v, int live)
{
    for (int l = 0; l < live; l++)
        for (int m = 0; m < nv; m++) {
            double *p = a + 3 * elem[nv * l + m];
            p[0] += v[m].x[l], p[1] += v[m].y[l], p[2] += v[m].z[l];
        }
}

/* block (m, n) of the live lanes of E (one element a lane, nv vertices each) into the lower
 * triangle of A, lane-major: two 4 x 4 lane transposes give each lane's entries 0-3 and 4-7
 * as vectors (E^T where the lane's vertex order asks for it: E to slot (m, n) of the element
 * when vid[m] > vid[n] or m == n, else E^T to slot (n, m)), then two
 * 4-double additions and one scalar a lane. V[m][l] = vertex m of lane l's element; slot:
 * the batch's slots, nv * nv an element. With m, n, nv and live constants (always inlined)
 * the selects and the lane loop resolve at compile time. */
static inline __attribute__((always_inline)) void cc_ln_scatter_block(double *A, const int *slot, int nv,
                                                                      const cc_ln E[9], const cc_lm V[], int m,
                                                                      int n, int live)
{
    _Static_assert(CC_LANES == 4, "cc_ln_scatter_block is written for four lanes");
    cc_lm idx = (cc_lm){0, 1, 2, 3} * (long long)(nv * nv) + (nv * m + n);
    cc_ln R[CC_LANES], S[CC_LANES], F1 = E[1], F2 = E[2], F3 = E[3], F5 = E[5], F6 = E[6], F7 = E[7];
    if (m != n) {
        cc_lm up = ~(V[m] > V[n]);   /* lanes that add E^T to slot (n, m) */
        idx += up & ((nv - 1) * (n - m));
        F1 = cc_ln_select(up, E[3], E[1]), F3 = cc_ln_select(up, E[1], E[3]);
        F2 = cc_ln_select(up, E[6], E[2]), F6 = cc_ln_select(up, E[2], E[6]);
        F5 = cc_ln_select(up, E[7], E[5]), F7 = cc_ln_select(up, E[5], E[7]);
    }
    cc_ln_transpose4(E[0], F1, F2, F3, R);
    cc_ln_transpose4(E[4], F5, F6, F7, S);
    for (int l = 0; l < live; l++) {
        double *b = A + 9 * slot[idx[l]];
        cc_ln_add_to(b, R[l]);
        cc_ln_add_to(b + 4, S[l]);
        b[8] += E[8][l];
    }
}

#endif
