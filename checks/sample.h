/* Seeded random elements for checks and tests: any case replays from (seed, index).
 *
 * Random triangles: a random (u,v) triangle (well shaped, area >= 0.05 of its bounding
 * scale squared) mapped into 3-D by a random linear map with stretch 0.5..1.5, plus noise.
 * Random hinges: a shared edge x1-x2 and wings x0, x3 at random fold angles in (-3, 3), each
 * with a rest hinge of its own: flat for one in four, else folded to a random rest angle in
 * (-3, 3).
 * Random springs: two points at distance 0.2..2 with rest length 0.5..1.5.
 */
#ifndef CC_SAMPLE_H
#define CC_SAMPLE_H

#include <stdint.h>
#include "conditions/condition.h"

typedef struct cc_rng {
    uint64_t s;   /* splitmix64 state */
} cc_rng;

/* a generator for case `index` of stream `seed` */
cc_rng cc_rng_make(uint64_t seed, uint64_t index);
/* uniform in [0, 1) */
double cc_rng_uniform(cc_rng *g);
/* uniform in [lo, hi) */
double cc_rng_range(cc_rng *g, double lo, double hi);

/* Options for cc_sample_element; zero-initialised means defaults. */
typedef struct cc_sample_opts {
    double area_power;   /* p for triangle conditions (0: 1.0) */
    double bu, bv;       /* rest stretch (0: 1.0) */
    const double *hinge_rest;   /* 12 rest positions of every hinge, or NULL: a random rest
                                   hinge per element (flat or folded, sample_hinge_rest) */
    int flat_rest;              /* 1: every random rest hinge flat (rest angle 0), and the edge
                                   cases too: for a program without a rest angle */
} cc_sample_opts;

/* x (3*nv) and rest data for case (seed, index) of an element with nv vertices; 0 or -1 */
int cc_sample_element(int nv, uint64_t seed, uint64_t index, const cc_sample_opts *o,
                      double *x, cc_rest *r);

/* A hinge in Pritchard's labelling with signed fold angle theta (flat: 0), edge length
 * |x1 - x2| = 1 along the x axis, wing widths wa, wb and offsets along the edge sa, sb. */
void cc_sample_hinge_at_angle(double theta, double wa, double wb, double sa, double sb,
                              double *x);

#endif
