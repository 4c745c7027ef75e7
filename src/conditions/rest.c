/* Rest data of elements: 001 (1), (6)-(8), (10)-(12) for triangles; the rest hinge for bend. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "conditions/condition.h"
#include "conditions/hinge.h"

/* r = triangle rest data from (u,v) = (u0 v0 u1 v1 u2 v2); -1 if the (u,v) triangle is degenerate */
int cc_rest_triangle(cc_rest *r, const double *uv, double area_power, double bu, double bv,
                     char *err)
{
    *r = (cc_rest){0};
    r->nv = 3;
    for (int i = 0; i < 6; i++) {
        if (!isfinite(uv[i])) {
            snprintf(err, CC_ERRLEN, "(u,v) coordinate %d is not a finite number", i);
            return -1;
        }
    }
    if (!(area_power > 0) || !isfinite(area_power)) {
        snprintf(err, CC_ERRLEN, "area power must be a positive number (got %g)", area_power);
        return -1;
    }
    r->du1 = uv[2] - uv[0];
    r->dv1 = uv[3] - uv[1];
    r->du2 = uv[4] - uv[0];
    r->dv2 = uv[5] - uv[1];
    r->det = r->du1 * r->dv2 - r->du2 * r->dv1;
    double scale = fmax(fmax(fabs(r->du1), fabs(r->dv1)), fmax(fabs(r->du2), fabs(r->dv2)));
    if (!(fabs(r->det) > 1e-12 * scale * scale)) {
        snprintf(err, CC_ERRLEN, "degenerate (u,v) triangle: area %.3g", 0.5 * fabs(r->det));
        return -1;
    }
    r->area = 0.5 * fabs(r->det);            /* (1) */
    r->area_power = area_power;
    r->alpha = pow(r->area, area_power);
    r->dwu[0] = (r->dv1 - r->dv2) / r->det;  /* (6) */
    r->dwu[1] = r->dv2 / r->det;             /* (7) */
    r->dwu[2] = -r->dv1 / r->det;            /* (8) */
    r->dwv[0] = (r->du2 - r->du1) / r->det;  /* (10) */
    r->dwv[1] = -r->du2 / r->det;            /* (11) */
    r->dwv[2] = r->du1 / r->det;             /* (12) */
    if (!(bu > 0 && bv > 0 && isfinite(bu) && isfinite(bv))) {   /* |w_u| = b_u at rest: a length ratio */
        snprintf(err, CC_ERRLEN, "rest stretch b_u, b_v must be positive numbers (got %g, %g)", bu, bv);
        return -1;
    }
    r->bu = bu;
    r->bv = bv;
    return 0;
}

/* cot of the angle at vertex p of the triangle (p, q, w): (q - p).(w - p) / |(q - p) x (w - p)| */
static double cot_at(cc_v3 p, cc_v3 q, cc_v3 w)
{
    cc_v3 a = cc_v3_sub(q, p), b = cc_v3_sub(w, p);
    return cc_v3_dot(a, b) / cc_v3_norm(cc_v3_cross(a, b));
}

/* r = hinge rest data at rest positions x_rest: theta0 (001 (30)), the Discrete Shells weight
 * |e| sqrt(3/A) and Bergou et al.'s cotangent weights (bend_quadratic.c has the label map):
 *   K_0 = -cot A@x1 - cot A@x2,  K_1 = cot A@x2 + cot B@x2,
 *   K_2 = cot A@x1 + cot B@x1,   K_3 = -cot B@x1 - cot B@x2,
 * with "A@x1" the angle at x1 of triangle A = (x0, x1, x2), B = (x3, x1, x2) */
int cc_rest_hinge_shape(cc_rest *r, const double *x_rest, char *err)
{
    cc_hinge h;
    *r = (cc_rest){0};
    r->nv = 4;
    for (int i = 0; i < 12; i++) {
        if (!isfinite(x_rest[i])) {
            snprintf(err, CC_ERRLEN, "rest coordinate %d is not a finite number", i);
            return -1;
        }
    }
    if (cc_hinge_make(x_rest, &h) < 0) {
        snprintf(err, CC_ERRLEN, "degenerate rest hinge: an edge or a triangle of the rest positions has zero size");
        return -1;
    }
    const cc_v3 *p = h.x;
    double area = 0.5 * (h.lA + h.lB), w = sqrt(3.0 / area);
    double cA1 = cot_at(p[1], p[0], p[2]), cA2 = cot_at(p[2], p[0], p[1]);
    double cB1 = cot_at(p[1], p[3], p[2]), cB2 = cot_at(p[2], p[3], p[1]);
    memcpy(r->rest_x, x_rest, sizeof r->rest_x);
    r->rest_angle = h.theta;
    r->rest_weight = h.le * w;
    r->rest_K[0] = -w * (cA1 + cA2);
    r->rest_K[1] = w * (cA2 + cB2);
    r->rest_K[2] = w * (cA1 + cB1);
    r->rest_K[3] = -w * (cB1 + cB2);
    return 0;
}

/* r = the flat rest hinge at (u_m, v_m, 0); atan2 of a flat hinge may give -0 */
int cc_rest_hinge_flat(cc_rest *r, const double *uv, char *err)
{
    double x[12] = {0};
    for (int m = 0; m < 4; m++) x[3 * m] = uv[2 * m], x[3 * m + 1] = uv[2 * m + 1];
    if (cc_rest_hinge_shape(r, x, err) < 0) return -1;
    r->rest_angle = 0.0;
    return 0;
}

/* r = hinge rest data with rest angle theta0 on the canonical rest shape (condition.h) */
int cc_rest_hinge(cc_rest *r, double rest_angle, char *err)
{
    if (!isfinite(rest_angle)) {
        *r = (cc_rest){0};
        r->nv = 4;
        snprintf(err, CC_ERRLEN, "rest angle is not a finite number");
        return -1;
    }
    if (fabs(rest_angle) > CC_PI) {   /* theta = atan2(...) lies in [-pi, pi]: C = theta - theta0 could not be 0 */
        *r = (cc_rest){0};
        r->nv = 4;
        snprintf(err, CC_ERRLEN, "rest angle %g is outside [-pi, pi] (radians: the angle between the triangles' normals)",
                 rest_angle);
        return -1;
    }
    /* x3 = (0, -1, 0) rotated about the edge direction e = x1 - x2 = +x by -theta0 */
    double c = cos(rest_angle), s = sin(rest_angle);
    double x[12] = {0, 1, 0, 0.5, 0, 0, -0.5, 0, 0, 0, -c, -s};
    if (cc_rest_hinge_shape(r, x, err) < 0) return -1;
    r->rest_angle = rest_angle;
    return 0;
}

/* r = spring rest data with rest length L >= 0 */
int cc_rest_spring(cc_rest *r, double rest_length, char *err)
{
    *r = (cc_rest){0};
    r->nv = 2;
    if (!(rest_length >= 0) || !isfinite(rest_length)) {
        snprintf(err, CC_ERRLEN, "rest length must be a finite number >= 0 (got %g)", rest_length);
        return -1;
    }
    r->rest_length = rest_length;
    return 0;
}
