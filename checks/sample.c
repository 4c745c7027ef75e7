#include <math.h>
#include "checks/sample.h"
#include "math/cc_vec.h"

cc_rng cc_rng_make(uint64_t seed, uint64_t index)
{
    cc_rng g = {seed * 0x9E3779B97F4A7C15ull ^ (index + 0x632BE59BD9B4E019ull) * 0xBF58476D1CE4E5B9ull};
    return g;
}

double cc_rng_uniform(cc_rng *g)
{
    uint64_t z = (g->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

double cc_rng_range(cc_rng *g, double lo, double hi) { return lo + (hi - lo) * cc_rng_uniform(g); }

/* a random well-shaped (u,v) triangle */
static void sample_uv(cc_rng *g, double uv[6])
{
    for (;;) {
        for (int i = 0; i < 6; i++) uv[i] = cc_rng_range(g, -1, 1);
        double det = (uv[2] - uv[0]) * (uv[5] - uv[1]) - (uv[4] - uv[0]) * (uv[3] - uv[1]);
        if (fabs(det) > 0.1) return;
    }
}

static int sample_triangle(cc_rng *g, const cc_sample_opts *o, double *x, cc_rest *r)
{
    double uv[6];
    char err[CC_ERRLEN];
    sample_uv(g, uv);
    double p = o && o->area_power > 0 ? o->area_power : 1.0;
    double bu = o && o->bu > 0 ? o->bu : 1.0, bv = o && o->bv > 0 ? o->bv : 1.0;
    if (cc_rest_triangle(r, uv, p, bu, bv, err) < 0) return -1;
    /* x_m = A (u_m, v_m) + noise, A = random 3x2 with columns of length 0.5..1.5 */
    cc_v3 a0 = cc_v3_scale(cc_v3_unit(cc_v3_make(cc_rng_range(g, -1, 1), cc_rng_range(g, -1, 1),
                                                 cc_rng_range(g, -1, 1))), cc_rng_range(g, 0.5, 1.5));
    cc_v3 a1 = cc_v3_scale(cc_v3_unit(cc_v3_make(cc_rng_range(g, -1, 1), cc_rng_range(g, -1, 1),
                                                 cc_rng_range(g, -1, 1))), cc_rng_range(g, 0.5, 1.5));
    for (int m = 0; m < 3; m++) {
        cc_v3 p3 = cc_v3_add(cc_v3_scale(a0, uv[2 * m]), cc_v3_scale(a1, uv[2 * m + 1]));
        for (int s = 0; s < 3; s++) x[3 * m + s] = p3.c[s] + cc_rng_range(g, -0.1, 0.1);
    }
    return 0;
}

void cc_sample_hinge_at_angle(double theta, double wa, double wb, double sa, double sb, double *x)
{
    /* edge x1 = (0.5,0,0), x2 = (-0.5,0,0); x0 in the plane z = 0 at +y.
     * nA = (x2-x0) x (x1-x0) points along -z... we place x3 by rotating the mirror image of a
     * flat wing about the edge so that theta = atan2((nA x nB).e, nA.nB) comes out as given. */
    double x0[3] = {sa, wa, 0};
    double c = cos(theta), s = sin(theta);
    /* flat: x3 = (sb, -wb, 0); rotate about the x axis (the edge direction e = x1 - x2) */
    double x3[3] = {sb, -wb * c, -wb * s};
    double pts[12] = {x0[0], x0[1], x0[2], 0.5, 0, 0, -0.5, 0, 0, x3[0], x3[1], x3[2]};
    for (int i = 0; i < 12; i++) x[i] = pts[i];
}

/* r = the rest hinge o gives, or a random one drawn from its own stream (seed, index): one in
 * four flat (a mesh's rest shape, angle exactly 0), the others folded to a rest angle of either
 * sign up to 3 (near +-pi), so that a bend which ignores theta0, or takes it with the wrong sign,
 * shows */
static int sample_hinge_rest(const cc_sample_opts *o, uint64_t seed, uint64_t index, cc_rest *r)
{
    char err[CC_ERRLEN];
    double xr[12];
    if (o && o->hinge_rest) return cc_rest_hinge_shape(r, o->hinge_rest, err);
    cc_rng g = cc_rng_make(seed ^ 0x4e57u, index);
    double wa = cc_rng_range(&g, 0.3, 1.5), wb = cc_rng_range(&g, 0.3, 1.5);
    double sa = cc_rng_range(&g, -0.7, 0.7), sb = cc_rng_range(&g, -0.7, 0.7);
    int flat = cc_rng_uniform(&g) < 0.25 || (o && o->flat_rest);
    double theta0 = flat ? 0.0 : cc_rng_range(&g, -3.0, 3.0);
    cc_sample_hinge_at_angle(theta0, wa, wb, sa, sb, xr);
    if (!flat) return cc_rest_hinge_shape(r, xr, err);
    double uv[8];   /* the flat hinge lies in z = 0 */
    for (int m = 0; m < 4; m++) uv[2 * m] = xr[3 * m], uv[2 * m + 1] = xr[3 * m + 1];
    return cc_rest_hinge_flat(r, uv, err);
}

static void sample_hinge(cc_rng *g, double *x)
{
    double theta = cc_rng_range(g, -3.0, 3.0);
    cc_sample_hinge_at_angle(theta, cc_rng_range(g, 0.3, 1.5), cc_rng_range(g, 0.3, 1.5),
                             cc_rng_range(g, -0.7, 0.7), cc_rng_range(g, -0.7, 0.7), x);
    /* a random rigid motion and a little noise, so no coordinate is special */
    cc_v3 axis = cc_v3_unit(cc_v3_make(cc_rng_range(g, -1, 1), cc_rng_range(g, -1, 1), cc_rng_range(g, -1, 1)));
    double ang = cc_rng_range(g, -CC_PI, CC_PI), cs = cos(ang), sn = sin(ang);
    cc_v3 shift = cc_v3_make(cc_rng_range(g, -1, 1), cc_rng_range(g, -1, 1), cc_rng_range(g, -1, 1));
    for (int m = 0; m < 4; m++) {
        cc_v3 p = cc_v3_load(x + 3 * m);
        /* Rodrigues rotation */
        cc_v3 q = cc_v3_add(cc_v3_add(cc_v3_scale(p, cs), cc_v3_scale(cc_v3_cross(axis, p), sn)),
                            cc_v3_scale(axis, cc_v3_dot(axis, p) * (1 - cs)));
        q = cc_v3_add(q, shift);
        for (int s = 0; s < 3; s++) x[3 * m + s] = q.c[s] + cc_rng_range(g, -0.05, 0.05);
    }
}

static int sample_spring(cc_rng *g, double *x, cc_rest *r)
{
    char err[CC_ERRLEN];
    cc_v3 d = cc_v3_scale(cc_v3_unit(cc_v3_make(cc_rng_range(g, -1, 1), cc_rng_range(g, -1, 1),
                                                cc_rng_range(g, -1, 1))), cc_rng_range(g, 0.2, 2.0));
    for (int s = 0; s < 3; s++) {
        x[s] = cc_rng_range(g, -1, 1);
        x[3 + s] = x[s] + d.c[s];
    }
    return cc_rest_spring(r, cc_rng_range(g, 0.5, 1.5), err);
}

int cc_sample_element(int nv, uint64_t seed, uint64_t index, const cc_sample_opts *o,
                      double *x, cc_rest *r)
{
    cc_rng g = cc_rng_make(seed, index);
    switch (nv) {
    case 2: return sample_spring(&g, x, r);
    case 3: return sample_triangle(&g, o, x, r);
    case 4: sample_hinge(&g, x); return sample_hinge_rest(o, seed, index, r);
    default: return -1;
    }
}
