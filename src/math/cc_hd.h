/* Hyper-dual numbers (Fike & Alonso): a + b e1 + c e2 + d e1 e2, with e1^2 = e2^2 = 0.
 *
 * Evaluating f at x + e1 p + e2 q gives, with no step and no truncation error,
 *   a = f(x),  b = grad f . p,  c = grad f . q,  d = p^T (hess f) q.
 * The exact references of checks/ use this on each condition's own value code.
 * cc_hv3 is a 3-vector of hyper-duals with the same operations as cc_v3.
 */
#ifndef CC_HD_H
#define CC_HD_H

#include <math.h>

typedef struct cc_hd {
    double a;   /* real part */
    double b;   /* e1 part: first derivative along the first seed */
    double c;   /* e2 part: first derivative along the second seed */
    double d;   /* e1 e2 part: second derivative, first seed by second seed */
} cc_hd;

typedef struct cc_hv3 {
    cc_hd x, y, z;
} cc_hv3;

static inline cc_hd cc_hd_const(double a) { cc_hd r = {a, 0, 0, 0}; return r; }
static inline cc_hd cc_hd_add(cc_hd p, cc_hd q) { cc_hd r = {p.a + q.a, p.b + q.b, p.c + q.c, p.d + q.d}; return r; }
static inline cc_hd cc_hd_sub(cc_hd p, cc_hd q) { cc_hd r = {p.a - q.a, p.b - q.b, p.c - q.c, p.d - q.d}; return r; }
static inline cc_hd cc_hd_neg(cc_hd p) { cc_hd r = {-p.a, -p.b, -p.c, -p.d}; return r; }
static inline cc_hd cc_hd_scale(cc_hd p, double s) { cc_hd r = {s * p.a, s * p.b, s * p.c, s * p.d}; return r; }
static inline cc_hd cc_hd_mul(cc_hd p, cc_hd q)
{
    cc_hd r = {p.a * q.a, p.a * q.b + p.b * q.a, p.a * q.c + p.c * q.a,
               p.a * q.d + p.b * q.c + p.c * q.b + p.d * q.a};
    return r;
}
/* f(p) for a scalar function with value f0, first derivative f1, second f2 at p.a */
static inline cc_hd cc_hd_chain(cc_hd p, double f0, double f1, double f2)
{
    cc_hd r = {f0, f1 * p.b, f1 * p.c, f1 * p.d + f2 * p.b * p.c};
    return r;
}
static inline cc_hd cc_hd_inv(cc_hd p)
{
    double i = 1.0 / p.a;
    return cc_hd_chain(p, i, -i * i, 2.0 * i * i * i);
}
static inline cc_hd cc_hd_div(cc_hd p, cc_hd q) { return cc_hd_mul(p, cc_hd_inv(q)); }
static inline cc_hd cc_hd_sqrt(cc_hd p)
{
    double s = sqrt(p.a);
    return cc_hd_chain(p, s, 0.5 / s, -0.25 / (s * p.a));
}
static inline cc_hd cc_hd_pow(cc_hd p, double e)
{
    return cc_hd_chain(p, pow(p.a, e), e * pow(p.a, e - 1), e * (e - 1) * pow(p.a, e - 2));
}
static inline cc_hd cc_hd_sin(cc_hd p) { return cc_hd_chain(p, sin(p.a), cos(p.a), -sin(p.a)); }
static inline cc_hd cc_hd_cos(cc_hd p) { return cc_hd_chain(p, cos(p.a), -sin(p.a), -cos(p.a)); }
static inline cc_hd cc_hd_acos(cc_hd p)
{
    double q = 1.0 - p.a * p.a;
    return cc_hd_chain(p, acos(p.a), -1.0 / sqrt(q), -p.a / (q * sqrt(q)));
}
static inline cc_hd cc_hd_fabs(cc_hd p) { return p.a < 0 ? cc_hd_neg(p) : p; }
/* atan2(y, x) through the bivariate chain rule:
 * th_y = x/r2, th_x = -y/r2, th_yy = -2xy/r4, th_xx = 2xy/r4, th_xy = (y^2 - x^2)/r4 */
static inline cc_hd cc_hd_atan2(cc_hd y, cc_hd x)
{
    double r2 = x.a * x.a + y.a * y.a, r4 = r2 * r2;
    double fy = x.a / r2, fx = -y.a / r2;
    double fyy = -2 * x.a * y.a / r4, fxx = -fyy, fxy = (y.a * y.a - x.a * x.a) / r4;
    cc_hd r;
    r.a = atan2(y.a, x.a);
    r.b = fx * x.b + fy * y.b;
    r.c = fx * x.c + fy * y.c;
    r.d = fx * x.d + fy * y.d + fxx * x.b * x.c + fxy * (x.b * y.c + y.b * x.c) + fyy * y.b * y.c;
    return r;
}

static inline cc_hv3 cc_hv3_make(cc_hd x, cc_hd y, cc_hd z) { cc_hv3 r = {x, y, z}; return r; }
static inline cc_hv3 cc_hv3_const(double x, double y, double z) { return cc_hv3_make(cc_hd_const(x), cc_hd_const(y), cc_hd_const(z)); }
static inline cc_hv3 cc_hv3_load(const cc_hd *p) { return cc_hv3_make(p[0], p[1], p[2]); }
static inline cc_hv3 cc_hv3_add(cc_hv3 p, cc_hv3 q) { return cc_hv3_make(cc_hd_add(p.x, q.x), cc_hd_add(p.y, q.y), cc_hd_add(p.z, q.z)); }
static inline cc_hv3 cc_hv3_sub(cc_hv3 p, cc_hv3 q) { return cc_hv3_make(cc_hd_sub(p.x, q.x), cc_hd_sub(p.y, q.y), cc_hd_sub(p.z, q.z)); }
/* s p, s a plain number */
static inline cc_hv3 cc_hv3_scale(cc_hv3 p, double s) { return cc_hv3_make(cc_hd_scale(p.x, s), cc_hd_scale(p.y, s), cc_hd_scale(p.z, s)); }
/* s p, s a hyper-dual */
static inline cc_hv3 cc_hv3_mul(cc_hv3 p, cc_hd s) { return cc_hv3_make(cc_hd_mul(p.x, s), cc_hd_mul(p.y, s), cc_hd_mul(p.z, s)); }
static inline cc_hd cc_hv3_dot(cc_hv3 p, cc_hv3 q)
{
    return cc_hd_add(cc_hd_add(cc_hd_mul(p.x, q.x), cc_hd_mul(p.y, q.y)), cc_hd_mul(p.z, q.z));
}
static inline cc_hv3 cc_hv3_cross(cc_hv3 p, cc_hv3 q)
{
    return cc_hv3_make(cc_hd_sub(cc_hd_mul(p.y, q.z), cc_hd_mul(p.z, q.y)),
                       cc_hd_sub(cc_hd_mul(p.z, q.x), cc_hd_mul(p.x, q.z)),
                       cc_hd_sub(cc_hd_mul(p.x, q.y), cc_hd_mul(p.y, q.x)));
}
static inline cc_hd cc_hv3_norm(cc_hv3 p) { return cc_hd_sqrt(cc_hv3_dot(p, p)); }
/* p / m, m a hyper-dual magnitude */
static inline cc_hv3 cc_hv3_div(cc_hv3 p, cc_hd m) { return cc_hv3_mul(p, cc_hd_inv(m)); }
/* real parts */
static inline double cc_hv3_real_norm(cc_hv3 p) { return sqrt(p.x.a * p.x.a + p.y.a * p.y.a + p.z.a * p.z.a); }

#endif
