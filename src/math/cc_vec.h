/* Small vec3 / mat3 helpers (static inline), double precision.
 *
 * A cc_v3 is read as v.x, v.y, v.z or by axis as v.c[s], s = 0, 1, 2.
 * A cc_m3 is row-major: m.a[row][col].
 * S(v) is Pritchard's skew matrix (001 Section 2): S(v) w = v x w.
 */
#ifndef CC_VEC_H
#define CC_VEC_H

#include <math.h>

#define CC_PI 3.14159265358979323846

typedef union cc_v3 {
    struct { double x, y, z; };
    double c[3];
} cc_v3;

typedef struct cc_m3 {
    double a[3][3];   /* row-major */
} cc_m3;

static inline cc_v3 cc_v3_make(double x, double y, double z) { cc_v3 r = {{x, y, z}}; return r; }
/* v = p[0..2] */
static inline cc_v3 cc_v3_load(const double *p) { return cc_v3_make(p[0], p[1], p[2]); }
/* p[0..2] = v */
static inline void cc_v3_store(double *p, cc_v3 v) { p[0] = v.x; p[1] = v.y; p[2] = v.z; }
static inline cc_v3 cc_v3_zero(void) { return cc_v3_make(0, 0, 0); }
/* e_s, the s-th column of I (Pritchard's I_s) */
static inline cc_v3 cc_v3_axis(int s) { cc_v3 r = cc_v3_zero(); r.c[s] = 1.0; return r; }
static inline cc_v3 cc_v3_add(cc_v3 a, cc_v3 b) { return cc_v3_make(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline cc_v3 cc_v3_sub(cc_v3 a, cc_v3 b) { return cc_v3_make(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline cc_v3 cc_v3_scale(cc_v3 a, double s) { return cc_v3_make(s * a.x, s * a.y, s * a.z); }
/* a + s b */
static inline cc_v3 cc_v3_axpy(cc_v3 a, double s, cc_v3 b) { return cc_v3_make(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z); }
static inline double cc_v3_dot(cc_v3 a, cc_v3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline cc_v3 cc_v3_cross(cc_v3 a, cc_v3 b)
{
    return cc_v3_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double cc_v3_norm(cc_v3 a) { return sqrt(cc_v3_dot(a, a)); }
/* a / |a|; a zero vector stays zero */
static inline cc_v3 cc_v3_unit(cc_v3 a)
{
    double n = cc_v3_norm(a);
    return n > 0 ? cc_v3_scale(a, 1.0 / n) : a;
}
/* S_s(v): the s-th row of S(v) as a column, so S_s(v) . w = (v x w)_s (001 Section 2) */
static inline cc_v3 cc_v3_skew_row(cc_v3 v, int s)
{
    switch (s) {
    case 0: return cc_v3_make(0, -v.z, v.y);
    case 1: return cc_v3_make(v.z, 0, -v.x);
    default: return cc_v3_make(-v.y, v.x, 0);
    }
}

static inline cc_m3 cc_m3_zero(void) { cc_m3 m = {{{0}}}; return m; }
static inline cc_m3 cc_m3_identity(void)
{
    cc_m3 m = cc_m3_zero();
    m.a[0][0] = m.a[1][1] = m.a[2][2] = 1.0;
    return m;
}
/* a b^T */
static inline cc_m3 cc_m3_outer(cc_v3 a, cc_v3 b)
{
    cc_m3 m;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) m.a[i][j] = a.c[i] * b.c[j];
    return m;
}
static inline cc_m3 cc_m3_add(cc_m3 p, cc_m3 q)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) p.a[i][j] += q.a[i][j];
    return p;
}
static inline cc_m3 cc_m3_scale(cc_m3 p, double s)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) p.a[i][j] *= s;
    return p;
}
static inline cc_m3 cc_m3_transpose(cc_m3 p)
{
    cc_m3 m;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) m.a[i][j] = p.a[j][i];
    return m;
}
/* P = I - u u^T, the projector off a unit vector u */
static inline cc_m3 cc_m3_perp(cc_v3 u) { return cc_m3_add(cc_m3_identity(), cc_m3_scale(cc_m3_outer(u, u), -1.0)); }
/* M v */
static inline cc_v3 cc_m3_mul_v3(cc_m3 m, cc_v3 v)
{
    return cc_v3_make(m.a[0][0] * v.x + m.a[0][1] * v.y + m.a[0][2] * v.z,
                      m.a[1][0] * v.x + m.a[1][1] * v.y + m.a[1][2] * v.z,
                      m.a[2][0] * v.x + m.a[2][1] * v.y + m.a[2][2] * v.z);
}
/* P Q */
static inline cc_m3 cc_m3_mul(cc_m3 p, cc_m3 q)
{
    cc_m3 m = cc_m3_zero();
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            for (int j = 0; j < 3; j++) m.a[i][j] += p.a[i][k] * q.a[k][j];
    return m;
}
/* column s of M */
static inline cc_v3 cc_m3_col(cc_m3 m, int s) { return cc_v3_make(m.a[0][s], m.a[1][s], m.a[2][s]); }

#endif
