/* A student's Bridson bending force and its Jacobian (see bend_force.h), with the mistakes
 * one makes writing it planted on request.
 *
 *   F_i = k A sigma u_i,  A = |e|^2 / (|nA| + |nB|),  sigma = sin(theta/2) - sin(theta0/2)
 *   u0 = |e| a,  u3 = |e| b,  a = nA/|nA|^2,  b = nB/|nB|^2                      (004)
 *   u1 = -((x0 - x2).e^) a - ((x3 - x2).e^) b,  u2 = ((x0 - x1).e^) a + ((x3 - x1).e^) b
 *
 * The Jacobian by the product rule, one column (vertex m moving along axis s) at a time:
 *
 *   dF_i = k (dA sigma u_i + A dsigma u_i + A sigma du_i)
 *   dA = (2 |e| d|e| - A (d|nA| + d|nB|)) / (|nA| + |nB|),  d|n| = n^ . dn
 *   da = (dnA - 2 (nA^ . dnA) nA^) / |nA|^2  (b likewise),  de^ = (de - (e^ . de) e^) / |e|
 *   dsigma = cos(theta/2)/2 dtheta,  dtheta/dx_{m,s} = -(u_m)_s
 *
 * 004 writes dtheta/dx_i = +u_i; in these labels theta = atan2((nA^ x nB^).e^, nA^.nB^) turns
 * the other way, and the minus sign is what makes the force restoring.
 */
#include <math.h>
#include <string.h>
#include "bend_force.h"

typedef struct vec3 {
    double x, y, z;
} vec3;

static vec3 load(const double *p) { return (vec3){p[0], p[1], p[2]}; }
static vec3 add(vec3 a, vec3 b) { return (vec3){a.x + b.x, a.y + b.y, a.z + b.z}; }
static vec3 sub(vec3 a, vec3 b) { return (vec3){a.x - b.x, a.y - b.y, a.z - b.z}; }
static vec3 scale(vec3 a, double s) { return (vec3){a.x * s, a.y * s, a.z * s}; }
static double dot(vec3 a, vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static vec3 cross(vec3 a, vec3 b) { return (vec3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
static double norm(vec3 a) { return sqrt(dot(a, a)); }
static double comp(vec3 a, int s) { return s == 0 ? a.x : s == 1 ? a.y : a.z; }
static vec3 axis(int s) { return (vec3){s == 0, s == 1, s == 2}; }

static const char *const names[BEND_MISTAKES] = {"none", "sign", "missing-term", "relabelled", "forgot-k", "nan-flat"};

int bend_mistake_parse(const char *s)
{
    for (int i = 0; i < BEND_MISTAKES; i++)
        if (!strcmp(s, names[i])) return i;
    return -1;
}

/* One hinge and the pieces of its force. */
typedef struct hinge {
    vec3 x[4];             /* x0..x3 */
    vec3 nA, nB, e;        /* the two normals and the shared edge */
    double lA, lB, le;     /* their lengths */
    vec3 nAh, nBh, eh;     /* and directions */
    vec3 a, b;             /* nA/|nA|^2, nB/|nB|^2 */
    double cA[4], cB[4];   /* u_i = cA[i] a + cB[i] b */
    vec3 u[4];             /* Bridson's directions, as the force uses them */
    vec3 dtheta[4];        /* dtheta/dx_m = -u_m, all terms kept */
    double A;              /* |e|^2 / (|nA| + |nB|) */
    double c;              /* cos theta */
    double sin_half, cos_half;   /* sin(theta/2), cos(theta/2) */
} hinge;

/* p = (x_i - x_j) . e^ */
static double proj(const hinge *h, int i, int j) { return dot(sub(h->x[i], h->x[j]), h->eh); }

/* its change when the vertices move by d[0..3] and e^ by deh */
static double dproj(const hinge *h, const vec3 *d, vec3 deh, int i, int j)
{
    return dot(sub(d[i], d[j]), h->eh) + dot(sub(h->x[i], h->x[j]), deh);
}

/* h at positions x; 0, or -1 if a triangle or the edge has zero size */
static int hinge_make(hinge *h, const double x[12], const bend_params *p)
{
    for (int m = 0; m < 4; m++) h->x[m] = load(x + 3 * m);
    h->nA = cross(sub(h->x[2], h->x[0]), sub(h->x[1], h->x[0]));
    h->nB = cross(sub(h->x[1], h->x[3]), sub(h->x[2], h->x[3]));
    h->e = sub(h->x[1], h->x[2]);
    h->lA = norm(h->nA), h->lB = norm(h->nB), h->le = norm(h->e);
    if (!(h->lA > 0 && h->lB > 0 && h->le > 0)) return -1;
    h->nAh = scale(h->nA, 1 / h->lA), h->nBh = scale(h->nB, 1 / h->lB), h->eh = scale(h->e, 1 / h->le);
    h->a = scale(h->nA, 1 / (h->lA * h->lA)), h->b = scale(h->nB, 1 / (h->lB * h->lB));
    h->cA[0] = h->le, h->cB[0] = 0;
    h->cA[1] = -proj(h, 0, 2), h->cB[1] = -proj(h, 3, 2);
    h->cA[2] = proj(h, 0, 1), h->cB[2] = proj(h, 3, 1);
    h->cA[3] = 0, h->cB[3] = h->le;
    for (int i = 0; i < 4; i++) h->dtheta[i] = scale(add(scale(h->a, h->cA[i]), scale(h->b, h->cB[i])), -1);
    if (p->mistake == BEND_MISSING_TERM) h->cB[1] = h->cB[2] = 0;
    for (int i = 0; i < 4; i++) h->u[i] = add(scale(h->a, h->cA[i]), scale(h->b, h->cB[i]));
    h->A = h->le * h->le / (h->lA + h->lB);
    h->c = dot(h->nAh, h->nBh);
    double s = dot(cross(h->nAh, h->nBh), h->eh), theta = atan2(s, h->c);
    h->sin_half = sin(theta / 2), h->cos_half = cos(theta / 2);
    if (p->mistake == BEND_NAN_FLAT) h->sin_half = copysign(sqrt((1 - h->c) / 2), s);
    return 0;
}

/* dsigma when vertex m moves along axis s, as the derivative of sin(theta/2) */
static double dsigma(const hinge *h, const bend_params *p, int m, int s, vec3 dnA, vec3 dnB)
{
    if (p->mistake != BEND_NAN_FLAT) return h->cos_half / 2 * comp(h->dtheta[m], s);
    /* d sqrt((1 - c)/2) = -dc / (4 sqrt((1 - c)/2)): 0/0 at the flat hinge */
    vec3 dnAh = scale(sub(dnA, scale(h->nAh, dot(h->nAh, dnA))), 1 / h->lA);
    vec3 dnBh = scale(sub(dnB, scale(h->nBh, dot(h->nBh, dnB))), 1 / h->lB);
    double dc = dot(dnAh, h->nBh) + dot(h->nAh, dnBh);
    return -copysign(1.0, h->sin_half) * dc / (4 * sqrt((1 - h->c) / 2));
}

/* column j = 3m + s of the Jacobian, with kk the stiffness the force uses */
static void jacobian_column(const hinge *h, const bend_params *p, double kk, double sigma, int m, int s, double J[144])
{
    vec3 d[4] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    d[m] = axis(s);
    vec3 dnA = add(cross(sub(d[2], d[0]), sub(h->x[1], h->x[0])), cross(sub(h->x[2], h->x[0]), sub(d[1], d[0])));
    vec3 dnB = add(cross(sub(d[1], d[3]), sub(h->x[2], h->x[3])), cross(sub(h->x[1], h->x[3]), sub(d[2], d[3])));
    vec3 de = sub(d[1], d[2]);
    double dle = dot(h->eh, de), dlA = dot(h->nAh, dnA), dlB = dot(h->nBh, dnB);
    vec3 deh = scale(sub(de, scale(h->eh, dle)), 1 / h->le);
    vec3 da = scale(sub(dnA, scale(h->nAh, 2 * dlA)), 1 / (h->lA * h->lA));
    vec3 db = scale(sub(dnB, scale(h->nBh, 2 * dlB)), 1 / (h->lB * h->lB));
    double dA = (2 * h->le * dle - h->A * (dlA + dlB)) / (h->lA + h->lB);
    double dsig = dsigma(h, p, m, s, dnA, dnB);
    double dcA[4] = {dle, -dproj(h, d, deh, 0, 2), dproj(h, d, deh, 0, 1), 0};
    double dcB[4] = {0, -dproj(h, d, deh, 3, 2), dproj(h, d, deh, 3, 1), dle};
    if (p->mistake == BEND_MISSING_TERM) dcB[1] = dcB[2] = 0;
    for (int i = 0; i < 4; i++) {
        vec3 du = add(add(scale(h->a, dcA[i]), scale(da, h->cA[i])), add(scale(h->b, dcB[i]), scale(db, h->cB[i])));
        vec3 dF = add(scale(h->u[i], dA * sigma + h->A * dsig), scale(du, h->A * sigma));
        for (int r = 0; r < 3; r++) J[(3 * i + r) * 12 + 3 * m + s] = kk * comp(dF, r);
    }
}

/* F and J in the hinge's own labels (relabelling is done by the caller) */
static int force_in_labels(const bend_params *p, const double x[12], double F[12], double J[144])
{
    hinge h;
    if (hinge_make(&h, x, p) < 0) return -1;
    double kk = p->mistake == BEND_FORGOT_K ? 1.0 : p->k;
    if (p->mistake == BEND_SIGN) kk = -kk;   /* as if sigma were sin(theta0/2) - sin(theta/2) */
    double sigma = h.sin_half - sin(p->theta0 / 2);
    for (int i = 0; i < 4; i++)
        for (int r = 0; r < 3; r++) F[3 * i + r] = kk * h.A * sigma * comp(h.u[i], r);
    if (J)
        for (int j = 0; j < 12; j++) jacobian_column(&h, p, kk, sigma, j / 3, j % 3, J);
    return 0;
}

int bend_force(const bend_params *p, const double x[12], double F[12], double J[144])
{
    if (p->mistake != BEND_RELABELLED) return force_in_labels(p, x, F, J);
    /* the hinge read as shared edge x0-x1: its vertices 0..3 are our x2, x0, x1, x3 */
    static const int our[4] = {2, 0, 1, 3};
    double y[12], G[12], K[144];
    for (int q = 0; q < 4; q++) memcpy(y + 3 * q, x + 3 * our[q], sizeof(double) * 3);
    if (force_in_labels(p, y, G, J ? K : NULL) < 0) return -1;
    for (int i = 0; i < 12; i++) {
        F[3 * our[i / 3] + i % 3] = G[i];
        for (int j = 0; J && j < 12; j++) J[(3 * our[i / 3] + i % 3) * 12 + 3 * our[j / 3] + j % 3] = K[i * 12 + j];
    }
    return 0;
}
