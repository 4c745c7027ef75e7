/* Edge cases and case ids (see cases.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "checks/cases.h"
#include "math/cc_vec.h"

/* One hinge edge case: cc_sample_hinge_at_angle arguments. */
typedef struct hinge_edge {
    const char *name;     /* label */
    double theta;         /* signed fold angle */
    double wa, wb;        /* wing widths */
    double sa, sb;        /* wing offsets along the edge */
    double theta0;        /* rest angle, on cc_rest_hinge's canonical rest shape */
} hinge_edge;

static const hinge_edge hinges[] = {
    {"flat", 0.0, 0.8, 0.6, 0.1, -0.2, 0.0},
    {"nearly-flat", 1e-7, 0.8, 0.6, 0.1, -0.2, 0.0},
    {"theta=+pi/4", CC_PI / 4, 0.8, 0.6, 0.1, -0.2, 0.0},
    {"theta=-pi/4", -CC_PI / 4, 0.8, 0.6, 0.1, -0.2, 0.0},
    {"theta=pi/2", CC_PI / 2, 0.8, 0.6, 0.1, -0.2, 0.0},
    {"theta=3pi/4", 3 * CC_PI / 4, 0.8, 0.6, 0.1, -0.2, 0.0},
    {"theta=pi-0.005", CC_PI - 0.005, 0.8, 0.6, 0.1, -0.2, 0.0},
    {"theta=-pi+0.005", -CC_PI + 0.005, 0.8, 0.6, 0.1, -0.2, 0.0},
    {"thin-wing", 1.0, 0.02, 0.6, 0.1, -0.2, 0.0},
    {"long-offset", -2.0, 0.5, 0.7, 2.5, -1.5, 0.0},
    /* folded rests: at its rest (the canonical shape itself, C = 0), off it, and across +-pi */
    {"rest=+2:at-rest", 2.0, 1.0, 1.0, 0.0, 0.0, 2.0},
    {"rest=-2.5", -1.0, 0.8, 0.6, 0.1, -0.2, -2.5},
    {"rest=+3:theta=-3", -3.0, 0.8, 0.6, 0.1, -0.2, 3.0},
};

static const char *const triangles[] = {
    "near-degenerate", "sliver-uv", "stretch-x10", "compress-u", "sheared",
};

static const char *const springs[] = {"short", "long", "zero-rest"};

#define COUNT(a) ((int)(sizeof a / sizeof a[0]))

/* number of edge cases for elements of nv vertices */
int cc_edge_count(int nv)
{
    return nv == 4 ? COUNT(hinges) : nv == 3 ? COUNT(triangles) : nv == 2 ? COUNT(springs) : 0;
}

/* label of edge case j */
const char *cc_edge_name(int nv, int j)
{
    if (j < 0 || j >= cc_edge_count(nv)) return NULL;
    return nv == 4 ? hinges[j].name : nv == 3 ? triangles[j] : springs[j];
}

/* triangle edge case j: (u,v) triangle and world positions x_m = A (u_m, v_m) + z_m */
static int edge_triangle(int j, const cc_sample_opts *o, cc_case *c)
{
    double uv[6] = {0, 0, 1, 0, 0.3, 0.9};
    double a0[3] = {1, 0, 0}, a1[3] = {0, 1, 0};    /* columns of A */
    double lift[3] = {0, 0.05, -0.03};              /* off-plane offsets z_m */
    char err[CC_ERRLEN];
    switch (j) {
    case 0:   /* x2 within 1e-3 of the line x0 x1 */
        a1[0] = 0.5, a1[1] = 1e-3 / 0.9, lift[1] = lift[2] = 0;
        break;
    case 1:   /* (u,v) height 1e-3 */
        uv[4] = 0.5, uv[5] = 1e-3;
        break;
    case 2:
        a0[0] = 10, a1[1] = 10;
        break;
    case 3:
        a0[0] = 0.02;
        break;
    default:
        a1[0] = 0.8, a1[1] = 0.6, a1[2] = 0.4;
        break;
    }
    double p = o && o->area_power > 0 ? o->area_power : 1.0;
    double bu = o && o->bu > 0 ? o->bu : 1.0, bv = o && o->bv > 0 ? o->bv : 1.0;
    if (cc_rest_triangle(&c->r, uv, p, bu, bv, err) < 0) return -1;
    for (int m = 0; m < 3; m++)
        for (int s = 0; s < 3; s++)
            c->x[3 * m + s] = a0[s] * uv[2 * m] + a1[s] * uv[2 * m + 1] + (s == 2 ? lift[m] : 0);
    return 0;
}

static int edge_spring(int j, cc_case *c)
{
    static const double len[] = {1e-3, 100.0, 0.7}, rest[] = {1.0, 1.0, 0.0};
    char err[CC_ERRLEN];
    double dir[3] = {0.48, -0.6, 0.64};   /* unit */
    for (int s = 0; s < 3; s++) c->x[s] = 0.3 - 0.2 * s, c->x[3 + s] = c->x[s] + len[j] * dir[s];
    return cc_rest_spring(&c->r, rest[j], err);
}

/* c = element id: random (id >= 0) or edge case -id - 1 */
int cc_case_make(int nv, uint64_t seed, int id, const cc_sample_opts *o, cc_case *c)
{
    char err[CC_ERRLEN];
    c->id = id;
    if (id >= 0) return cc_sample_element(nv, seed, (uint64_t)id, o, c->x, &c->r);
    int j = -id - 1;
    if (j >= cc_edge_count(nv)) return -1;
    if (nv == 4) {
        const hinge_edge *h = &hinges[j];
        cc_sample_hinge_at_angle(h->theta, h->wa, h->wb, h->sa, h->sb, c->x);
        return o && o->hinge_rest ? cc_rest_hinge_shape(&c->r, o->hinge_rest, err)
                                  : cc_rest_hinge(&c->r, o && o->flat_rest ? 0.0 : h->theta0, err);
    }
    return nv == 3 ? edge_triangle(j, o, c) : edge_spring(j, c);
}

/* "#id" or "eJ:name" */
void cc_case_label(int nv, int id, char *buf, int n)
{
    if (id >= 0) snprintf(buf, (size_t)n, "#%d", id);
    else snprintf(buf, (size_t)n, "e%d:%s", -id - 1, cc_edge_name(nv, -id - 1) ? cc_edge_name(nv, -id - 1) : "?");
}

/* id from "17", "#17", "e3" or "e3:name" */
int cc_case_parse(int nv, const char *s, int *id)
{
    char *end;
    int edge = s[0] == 'e';
    const char *digits = s + (edge || s[0] == '#');
    if (*digits < '0' || *digits > '9') return -1;
    long v = strtol(digits, &end, 10);
    if (v > 1000000000L || (*end != '\0' && !(edge && *end == ':'))) return -1;
    if (edge && v >= cc_edge_count(nv)) return -1;
    *id = edge ? -(int)v - 1 : (int)v;
    return 0;
}

int cc_case_relabel(int nv, const int *perm, int as_given, const double *x, const cc_rest *r0, double *y, cc_rest *r)
{
    char err[CC_ERRLEN];
    *r = *r0;
    for (int m = 0; m < nv; m++) memcpy(y + 3 * m, x + 3 * perm[m], 3 * sizeof(double));
    if (nv == 4) {   /* the rest hinge relabelled, and what the variants read of it worked out again */
        double xr[12];
        for (int m = 0; m < 4; m++) memcpy(xr + 3 * m, r0->rest_x + 3 * perm[m], 3 * sizeof(double));
        if (cc_rest_hinge_shape(r, xr, err) < 0) return -1;
        if (as_given) r->rest_angle = r0->rest_angle;   /* the request's "theta0", read as given */
        return 0;
    }
    if (nv == 3 && !as_given) {
        double uv[6] = {0, 0, r0->du1, r0->dv1, r0->du2, r0->dv2}, up[6];
        for (int m = 0; m < 3; m++) up[2 * m] = uv[2 * perm[m]], up[2 * m + 1] = uv[2 * perm[m] + 1];
        if (cc_rest_triangle(r, up, r0->area_power, r0->bu, r0->bv, err) < 0) return -1;
    }
    return 0;
}
