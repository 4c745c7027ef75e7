/* Rest data of elements: 001 (1), (6)-(8), (10)-(12) for triangles. */
#include <math.h>
#include <stdio.h>
#include "conditions/condition.h"

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
    r->bu = bu;
    r->bv = bv;
    return 0;
}

/* r = hinge rest data with rest angle theta0 */
int cc_rest_hinge(cc_rest *r, double rest_angle, char *err)
{
    *r = (cc_rest){0};
    r->nv = 4;
    if (!isfinite(rest_angle)) {
        snprintf(err, CC_ERRLEN, "rest angle is not a finite number");
        return -1;
    }
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
