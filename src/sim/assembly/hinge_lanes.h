/* What the two lane kernels over hinges share (kernel_bend.c for bend/pritchard,
 * kernel_hinge.c for the closed-form theta Hessian): gathering a batch's vertices, the four
 * blocks with vertex 2 from the other six, and the scatter of the ten blocks into the lower
 * triangle of A.
 *
 * E[q] of a batch is the block of the vertex pair q = (m, n), m <= n, in the order (0, 0),
 * (0, 1), (0, 2), (0, 3), (1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (3, 3): the contribution to
 * A's block (row vertex m, column vertex n). */
#ifndef CC_HINGE_LANES_H
#define CC_HINGE_LANES_H

#include "sim/assembly/lanes.h"

/* the 3-vectors in a (3 doubles a vertex) of vertex m of the four lanes' hinges vid[l], as
 * whole lane vectors (not lane by lane through memory: store-forwarding stalls) */
static inline cc_lv3 cc_hinge_lane_vertex(const double *a, const int *const vid[4], int m)
{
    const double *p0 = a + 3 * vid[0][m], *p1 = a + 3 * vid[1][m], *p2 = a + 3 * vid[2][m], *p3 = a + 3 * vid[3][m];
    return (cc_lv3){{p0[0], p1[0], p2[0], p3[0]}, {p0[1], p1[1], p2[1], p3[1]}, {p0[2], p1[2], p2[2], p3[2]}};
}

/* The batch of hinges e0 .. e0 + live - 1 (elem: 4 vertices a hinge; lanes past live repeat
 * the last live hinge): positions p, velocities V and dx D of its vertices as lane vectors,
 * and the stride numbers packed per hinge in kdata (kernel rest data) into k[0 .. stride-1] */
static inline void cc_hinge_gather(const int *elem, const double *kdata, int stride, int e0, int live,
                                   const double *x, const double *v, const double *dx, cc_lv3 p[4],
                                   cc_lv3 V[4], cc_lv3 D[4], cc_ln *k)
{
    const int *vid[CC_LANES];
    for (int l = 0; l < CC_LANES; l++) {
        int e = e0 + (l < live ? l : live - 1);
        vid[l] = elem + 4 * e;
        for (int q = 0; q < stride; q++) k[q][l] = kdata[stride * e + q];
    }
    for (int m = 0; m < 4; m++) {
        p[m] = cc_hinge_lane_vertex(x, vid, m);
        V[m] = cc_hinge_lane_vertex(v, vid, m);
        D[m] = cc_hinge_lane_vertex(dx, vid, m);
    }
}

/* T = M^T */
static inline void cc_hinge_lane_transpose(const cc_ln M[9], cc_ln T[9])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) T[3 * j + i] = M[3 * i + j];
}

/* The blocks with vertex 2 from the others. theta (frozen magnitudes too) is invariant under
 * translations, so sum_n H_mn = 0 and sum_m g_m = 0 for every m; hence sum_n E_mn = 0, and
 *   E_02 = -(E_00 + E_01 + E_03),   E_12 = -(E_01^T + E_11 + E_13),
 *   E_23 = -(E_03 + E_13 + E_33)  (row 3, transposed; E_33 is symmetric),
 *   E_22 = -(E_02^T + E_12^T + E_23),
 *   (H D)_m = sum_{n != 2} H_mn (D_n - D_2) (m != 2),   (H D)_2 = -((H D)_0 + (H D)_1 + (H D)_3),
 * which saves four of the ten blocks. Vertex 2 rather than 3: the blocks among 0, 1, 3 are the
 * cheapest six to form in both kernels (most terms of H_00, H_33, H_03, H_13 vanish, and
 * H_03 = 0 for the exact angle). */
static inline void cc_hinge_derive_vertex2(cc_ln E[10][9], cc_lv3 y[4])
{
    cc_ln T0[9], T1[9];
    cc_hinge_lane_transpose(E[1], T0);   /* E_10 */
    for (int r = 0; r < 9; r++) {
        E[2][r] = -(E[0][r] + E[1][r] + E[3][r]);
        E[5][r] = -(T0[r] + E[4][r] + E[6][r]);
        E[8][r] = -(E[3][r] + E[6][r] + E[9][r]);
    }
    cc_hinge_lane_transpose(E[2], T0);
    cc_hinge_lane_transpose(E[5], T1);
    for (int r = 0; r < 9; r++) E[7][r] = -(T0[r] + T1[r] + E[8][r]);
    y[2] = cc_lv3_scale(cc_lv3_add(cc_lv3_add(y[0], y[1]), y[3]), cc_ln_set(-1.0));
}

/* the blocks E of the live lanes of the hinges vid (4 vertices each) into A (E indexed by
 * pair, as above) */
static inline __attribute__((always_inline)) void cc_hinge_scatter_blocks(double *A, const int *slot, const int *vid,
                                                                          int live, const cc_ln E[10][9])
{
    cc_lm V[4];   /* V[m][l] = vertex m of lane l */
    cc_ln_lane_vertices(vid, 4, live, V);
    cc_ln_scatter_block(A, slot, 4, E[0], V, 0, 0, live);
    cc_ln_scatter_block(A, slot, 4, E[1], V, 0, 1, live);
    cc_ln_scatter_block(A, slot, 4, E[2], V, 0, 2, live);
    cc_ln_scatter_block(A, slot, 4, E[3], V, 0, 3, live);
    cc_ln_scatter_block(A, slot, 4, E[4], V, 1, 1, live);
    cc_ln_scatter_block(A, slot, 4, E[5], V, 1, 2, live);
    cc_ln_scatter_block(A, slot, 4, E[6], V, 1, 3, live);
    cc_ln_scatter_block(A, slot, 4, E[7], V, 2, 2, live);
    cc_ln_scatter_block(A, slot, 4, E[8], V, 2, 3, live);
    cc_ln_scatter_block(A, slot, 4, E[9], V, 3, 3, live);
}

/* the scatter of a full batch (live constant: the lane loops unrolled) */
static inline void cc_hinge_scatter_full(double *A, const int *slot, const int *vid,
                                         const cc_ln E[10][9])
{
    cc_hinge_scatter_blocks(A, slot, vid, CC_LANES, E);
}

/* the scatter of the last, partial batch */
static inline void cc_hinge_scatter_part(double *A, const int *slot, const int *vid, int live,
                                         const cc_ln E[10][9])
{
    cc_hinge_scatter_blocks(A, slot, vid, live, E);
}

#endif
