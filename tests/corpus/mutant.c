/* A program behind the element protocol (docs/your-code.md) that computes one of clothcheck's
 * own condition variants, or Bridson's force, with one planted mistake or in one of the forms
 * right programs take: the generator of the mutation corpus (tests/test_corpus.c).
 *
 *   mutant --serve COND/VARIANT | bridson-force [--mutation M] [--format F]
 *
 * It answers in the contract each request names (condition: value, gradient, Hessian of the
 * variant's own eval; force: E = k/2 C.C, F = -k dC^T C, J = -k (dC dC^T + C d2C), or Bridson's
 * force and Jacobian, no energy).
 *
 * Mutations, each one mistake as a student makes it (the rest are right):
 *   sign            condition: C, its gradient and Hessian negated (theta measured the other
 *                   way); force: F and J negated, E kept
 *   sign-hessian    the Hessian (Jacobian) negated alone
 *   factor          everything twice what it is (k counted twice)
 *   hessian-factor  the Hessian (Jacobian) twice what it is
 *   gauss-newton    force: J = -k dC dC^T, the C d2C term dropped
 *   swap            the two components of C exchanged (stretch)
 *   relabel         the vertices read in another order: the program's x_m is the request's
 *                   x_pi(m), pi = (1 2 0) for a triangle (its (u, v) as given), (2 0 1 3) for
 *                   a hinge (the shared edge x0-x1, as some papers label it; its rest hinge
 *                   likewise)
 *   axis-major      gradient and Hessian laid out axis-major (all x, then all y, then all z)
 *   transpose       the Jacobian transposed (Bridson's force, whose Jacobian is not symmetric)
 *   asym            the Hessian's block (0, 1) stored transposed
 *   nan-edge        NaN in the Hessian (Jacobian) at an edge case: a nearly flat hinge, a
 *                   nearly degenerate triangle, a very short spring
 *   theta0-ignored  the rest angle taken as 0
 *   theta0-sign     the rest angle with the wrong sign
 *   area-power      the area weight a^p of another p (1 for 0.75, 0.75 otherwise)
 *   frozen          a bend served by bend/pritchard's frozen-magnitude derivatives (claimed as
 *                   another variant: the derivative of the magnitudes dropped)
 *   no-projector    the derivative of a unit vector without its projector: d n^ = dn / |n| where
 *                   (I - n^ n^T) dn / |n| belongs (stretch's w^_u, w^_v; a spring's d^)
 *   hessian-alpha   the Hessian (Jacobian) of a triangle divided by its area weight alpha
 *   psd             force: the Jacobian projected onto the positive semi-definite matrices (its
 *                   energy Hessian's negative eigenvalues clamped to 0)
 *   energy-offset   right: E + k (an energy is defined up to a constant)
 *   ulps            right: every entry off by a few units in the last place (another order
 *                   of summation)
 *   float32         right, in single precision: the positions rounded to floats, every
 *                   result rounded to a float
 *   float32-derivative-sign  float32 with the gradient and Hessian (force and Jacobian)
 *                   negated and the value (energy) right
 *   folded-skip     a hinge's gradient and Hessian (force and Jacobian) zero where it is folded
 *                   flat onto itself (cos theta < -0.9999, |theta| > pi - 0.0141), as a guard
 *                   that skips such hinges would leave them
 *   angle-range     a bend's theta and theta0 taken in [0, 2 pi) (atan2's angle plus 2 pi where
 *                   it is negative): theta - theta0 a whole turn off where one of them is
 *                   negative and the other not
 * Formats: 17g (default; %.17g), 9g (%.9g), repr (the shortest decimal that reads back as the
 * same double, as Python's repr), repr32 (the shortest that reads back as the same float, as
 * numpy's float32 repr; with float32).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "conditions/bridson_force.h"
#include "conditions/condition.h"
#include "io/jsonr.h"
#include "math/cc_vec.h"

enum { M_NONE, M_SIGN, M_SIGN_HESS, M_FACTOR, M_HESS_FACTOR, M_GAUSS_NEWTON, M_SWAP, M_RELABEL, M_AXIS_MAJOR,
       M_TRANSPOSE, M_ASYM, M_NAN_EDGE, M_THETA0_IGNORED, M_THETA0_SIGN, M_AREA_POWER, M_ENERGY_OFFSET, M_ULPS,
       M_FLOAT32, M_FROZEN, M_NO_PROJECTOR, M_HESSIAN_ALPHA, M_PSD, M_F32_DSIGN, M_FOLDED_SKIP, M_ANGLE_RANGE,
       M_COUNT };

static const char *const mutation_names[M_COUNT] = {
    "none", "sign", "sign-hessian", "factor", "hessian-factor", "gauss-newton", "swap", "relabel", "axis-major",
    "transpose", "asym", "nan-edge", "theta0-ignored", "theta0-sign", "area-power", "energy-offset", "ulps", "float32",
    "frozen", "no-projector", "hessian-alpha", "psd", "float32-derivative-sign", "folded-skip",
    "angle-range"};

enum { F_17G, F_9G, F_REPR, F_REPR32 };

typedef struct served {
    const cc_condition *cond;   /* the variant, or NULL for Bridson's force */
    int mutation, format;
    int nv, ncomp;
} served;

/* One element's answer in the condition form: C, g = dC, H = d2C (force: E, -F, -J). */
typedef struct answer {
    double C[CC_MAX_COMP];
    double g[CC_MAX_COMP][CC_MAX_DOF];
    double H[CC_MAX_COMP][CC_MAX_DOF][CC_MAX_DOF];
    int has_value;
} answer;

/* ---- printing numbers ---- */

static void put_number(FILE *f, double v, int format)
{
    char buf[40];
    if (isnan(v)) {
        fputs("NaN", f);
        return;
    }
    if (isinf(v)) {
        fputs(v > 0 ? "Infinity" : "-Infinity", f);
        return;
    }
    if (format == F_17G) snprintf(buf, sizeof buf, "%.17g", v);
    else if (format == F_9G) snprintf(buf, sizeof buf, "%.9g", v);
    else
        for (int p = 1; p <= 17; p++) {
            snprintf(buf, sizeof buf, "%.*g", p, v);
            if (format == F_REPR32 ? (float)strtod(buf, NULL) == (float)v : strtod(buf, NULL) == v) break;
        }
    fputs(buf, f);
}

static void put_list(FILE *f, const double *v, int n, int format)
{
    fputc('[', f);
    for (int i = 0; i < n; i++) {
        if (i) fputs(", ", f);
        put_number(f, v[i], format);
    }
    fputc(']', f);
}

/* ---- the rest data of a request ---- */

static int numbers(const cc_jv *v, int n, double *out)
{
    if (!v || v->type != CC_JV_ARRAY || v->n != n) return -1;
    for (int i = 0; i < n; i++) out[i] = cc_jv_number(&v->items[i]);
    return 0;
}

static double member(const cc_jv *o, const char *key, double dflt)
{
    const cc_jv *v = cc_jv_get(o, key);
    return v && cc_jv_is_number(v) ? cc_jv_number(v) : dflt;
}

/* the vertex a relabelled program reads as its vertex m (pi above) */
static int relabelled(const served *s, int m)
{
    static const int tri[3] = {1, 2, 0}, hinge[4] = {2, 0, 1, 3}, spring[2] = {0, 1};
    return (s->nv == 4 ? hinge : s->nv == 3 ? tri : spring)[m];
}

/* v (nv points of dim numbers) as the relabelled program reads it */
static void relabel(const served *s, double *v, int dim)
{
    double w[CC_MAX_DOF];
    for (int m = 0; m < s->nv; m++)
        for (int t = 0; t < dim; t++) w[dim * m + t] = v[dim * relabelled(s, m) + t];
    memcpy(v, w, sizeof(double) * (size_t)(dim * s->nv));
}

/* r = the element's rest data (a relabelled program's hinge read in its labels); 0 or -1 */
static int read_rest(const served *s, const cc_jv *rest, cc_rest *r)
{
    char err[CC_ERRLEN];
    if (s->nv == 3) {
        double uv[6];
        if (numbers(cc_jv_get(rest, "uv"), 6, uv) < 0) return -1;

        double p = member(rest, "area_power", 1.0);
        if (s->mutation == M_AREA_POWER) p = p == 1.0 ? 0.75 : 1.0;
        return cc_rest_triangle(r, uv, p, member(rest, "bu", 1.0), member(rest, "bv", 1.0), err);
    }
    if (s->nv == 4) {
        double xr[12];
        if (numbers(cc_jv_get(rest, "x_rest"), 12, xr) < 0) return -1;
        if (s->mutation == M_RELABEL) relabel(s, xr, 3);
        if (cc_rest_hinge_shape(r, xr, err) < 0) return -1;
        if (s->mutation == M_THETA0_IGNORED) r->rest_angle = 0;
        if (s->mutation == M_THETA0_SIGN) r->rest_angle = -r->rest_angle;
        return 0;
    }
    return cc_rest_spring(r, member(rest, "length", 1.0), err);
}

/* ---- the right numbers ---- */

/* the Hessian of e without the projector of its unit vector: + u u^T (the part along itself) in
 * every block, u = w^_u, w^_v for stretch (scaled alpha dw_m dw_n / |w|) or d^ for a spring
 * (scaled +-1 / |d|) */
static void drop_projector(const served *s, const double *x, const cc_rest *r, cc_eval *e)
{
    if (s->nv == 2) {
        double d[3], l = 0;
        for (int t = 0; t < 3; t++) d[t] = x[t] - x[3 + t], l += d[t] * d[t];
        l = sqrt(l);
        for (int m = 0; m < 2; m++)
            for (int q = 0; q < 2; q++)
                for (int a = 0; a < 3; a++)
                    for (int b = 0; b < 3; b++) e->d2C[0][3 * m + a][3 * q + b] += (m == q ? 1 : -1) * d[a] * d[b] / (l * l * l);
        return;
    }
    if (s->nv != 3 || strcmp(s->cond->condition, "stretch")) return;
    for (int c = 0; c < 2; c++) {
        const double *dw = c == 0 ? r->dwu : r->dwv;
        double w[3] = {0, 0, 0}, l = 0;
        for (int m = 0; m < 3; m++)
            for (int t = 0; t < 3; t++) w[t] += dw[m] * x[3 * m + t];
        for (int t = 0; t < 3; t++) l += w[t] * w[t];
        l = sqrt(l);
        for (int m = 0; m < 3; m++)
            for (int q = 0; q < 3; q++)
                for (int a = 0; a < 3; a++)
                    for (int b = 0; b < 3; b++) e->d2C[c][3 * m + a][3 * q + b] += r->alpha * dw[m] * dw[q] * w[a] * w[b] / (l * l * l);
    }
}

/* A = its projection onto the positive semi-definite matrices (n x n symmetric, by Jacobi
 * rotations: the eigenvalues below 0 set to 0) */
static void project_psd(double A[CC_MAX_DOF][CC_MAX_DOF], int n)
{
    double V[CC_MAX_DOF][CC_MAX_DOF], D[CC_MAX_DOF][CC_MAX_DOF];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) D[i][j] = 0.5 * (A[i][j] + A[j][i]), V[i][j] = i == j;
    for (int sweep = 0; sweep < 50; sweep++) {
        double off = 0;
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++) off += D[p][q] * D[p][q];
        if (off < 1e-30) break;
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++) {
                if (fabs(D[p][q]) < 1e-300) continue;
                double th = 0.5 * (D[q][q] - D[p][p]) / D[p][q];
                double t = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1)), c = 1 / sqrt(t * t + 1), sn = t * c;
                for (int k = 0; k < n; k++) {   /* D = J^T D J, V = V J */
                    double dp = D[k][p], dq = D[k][q];
                    D[k][p] = c * dp - sn * dq, D[k][q] = sn * dp + c * dq;
                }
                for (int k = 0; k < n; k++) {
                    double dp = D[p][k], dq = D[q][k];
                    D[p][k] = c * dp - sn * dq, D[q][k] = sn * dp + c * dq;
                }
                for (int k = 0; k < n; k++) {
                    double vp = V[k][p], vq = V[k][q];
                    V[k][p] = c * vp - sn * vq, V[k][q] = sn * vp + c * vq;
                }
            }
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double v = 0;
            for (int k = 0; k < n; k++) v += V[i][k] * fmax(D[k][k], 0) * V[j][k];
            A[i][j] = v;
        }
}

/* a in the condition form at x; 0, or -1 where the formula is undefined */
static int right(const served *s, int force, double k, const double *x, const cc_rest *r, answer *a)
{
    int n = 3 * s->nv;
    memset(a, 0, sizeof *a);
    if (!s->cond) {   /* Bridson's force: -F, -dF/dx */
        double F[12], J[12][12];
        if (cc_bridson_force(x, r, k, F, J) < 0) return -1;
        for (int i = 0; i < n; i++) {
            a->g[0][i] = -F[i];
            for (int j = 0; j < n; j++) a->H[0][i][j] = -J[i][j];
        }
        return 0;
    }
    cc_eval e;
    if (s->cond->eval(x, r, CC_WANT_ALL, &e) != CC_WANT_ALL) return -1;
    if (s->mutation == M_NO_PROJECTOR) drop_projector(s, x, r, &e);
    if (s->mutation == M_HESSIAN_ALPHA && s->nv == 3)
        for (int c = 0; c < e.ncomp; c++)
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) e.d2C[c][i][j] /= r->alpha;
    a->has_value = 1;
    if (!force) {
        memcpy(a->C, e.C, sizeof a->C);
        memcpy(a->g, e.dC, sizeof a->g);
        memcpy(a->H, e.d2C, sizeof a->H);
        return 0;
    }
    for (int c = 0; c < e.ncomp; c++) {   /* E = k/2 C.C, dE = k C dC, d2E = k (dC dC^T + C d2C) */
        a->C[0] += 0.5 * k * e.C[c] * e.C[c];
        for (int i = 0; i < n; i++) {
            a->g[0][i] += k * e.C[c] * e.dC[c][i];
            for (int j = 0; j < n; j++)
                a->H[0][i][j] += k * (e.dC[c][i] * e.dC[c][j] + (s->mutation == M_GAUSS_NEWTON ? 0 : e.C[c] * e.d2C[c][i][j]));
        }
    }
    if (s->mutation == M_PSD) project_psd(a->H[0], n);
    return 0;
}

/* ---- the mistakes ---- */

/* 1 where the nan-edge mutation plants its NaN: at a nearly flat hinge, a nearly degenerate
 * world triangle, a very short spring */
static int at_edge(const served *s, const double *x)
{
    double d[3][3];
    for (int m = 1; m < s->nv; m++)
        for (int t = 0; t < 3; t++) d[m - 1][t] = x[3 * m + t] - x[t];
    if (s->nv == 2) return sqrt(d[0][0] * d[0][0] + d[0][1] * d[0][1] + d[0][2] * d[0][2]) < 1e-2;
    if (s->nv == 3) {   /* twice the area over the longest edge squared */
        double c[3] = {d[0][1] * d[1][2] - d[0][2] * d[1][1], d[0][2] * d[1][0] - d[0][0] * d[1][2],
                       d[0][0] * d[1][1] - d[0][1] * d[1][0]};
        double l = 0;
        for (int m = 0; m < 3; m++) {
            const double *p = x + 3 * m, *q = x + 3 * ((m + 1) % 3);
            l = fmax(l, (p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2]));
        }
        return sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]) < 5e-3 * l;
    }
    /* hinge: the wings' normals nA = (x2 - x0) x (x1 - x0), nB = (x1 - x3) x (x2 - x3) */
    double a1[3], a2[3], b1[3], b2[3], nA[3], nB[3];
    for (int t = 0; t < 3; t++)
        a1[t] = x[6 + t] - x[t], a2[t] = x[3 + t] - x[t], b1[t] = x[3 + t] - x[9 + t], b2[t] = x[6 + t] - x[9 + t];
    for (int t = 0; t < 3; t++) {
        int u = (t + 1) % 3, v = (t + 2) % 3;
        nA[t] = a1[u] * a2[v] - a1[v] * a2[u], nB[t] = b1[u] * b2[v] - b1[v] * b2[u];
    }
    double dot = 0, la = 0, lb = 0;
    for (int t = 0; t < 3; t++) dot += nA[t] * nB[t], la += nA[t] * nA[t], lb += nB[t] * nB[t];
    return dot > 0 && 1 - dot / sqrt(la * lb) < 1e-8;
}

/* 1 if the hinge x is folded flat onto itself: the cosine of its fold angle below -0.9999 */
static int folded(const double *x)
{
    double a1[3], a2[3], b1[3], b2[3], nA[3], nB[3], dot = 0, la = 0, lb = 0;
    for (int t = 0; t < 3; t++)
        a1[t] = x[6 + t] - x[t], a2[t] = x[3 + t] - x[t], b1[t] = x[3 + t] - x[9 + t], b2[t] = x[6 + t] - x[9 + t];
    for (int t = 0; t < 3; t++) {
        int u = (t + 1) % 3, v = (t + 2) % 3;
        nA[t] = a1[u] * a2[v] - a1[v] * a2[u], nB[t] = b1[u] * b2[v] - b1[v] * b2[u];
    }
    for (int t = 0; t < 3; t++) dot += nA[t] * nB[t], la += nA[t] * nA[t], lb += nB[t] * nB[t];
    return dot < -0.9999 * sqrt(la * lb);
}

static int axis_major(const served *s, int i) { return (i % 3) * s->nv + i / 3; }

/* a tiny deterministic wobble: v off by up to 4 units in the last place */
static double wobble(double v, uint64_t *state)
{
    *state = *state * 6364136223846793005u + 1442695040888963407u;
    int ulps = (int)(*state >> 61) - 3;   /* -3..4 */
    for (; ulps > 0; ulps--) v = nextafter(v, INFINITY);
    for (; ulps < 0; ulps++) v = nextafter(v, -INFINITY);
    return v;
}

static double as_float(double v) { return (double)(float)v; }

static void mutate(const served *s, int force, double k, const double *x, answer *a)
{
    int n = 3 * s->nv, nc = force ? 1 : s->ncomp;
    answer b = *a;
    switch (s->mutation) {
    case M_SIGN:
        for (int c = 0; c < nc; c++) {
            if (!force) a->C[c] = -a->C[c];
            for (int i = 0; i < n; i++) {
                a->g[c][i] = -a->g[c][i];
                for (int j = 0; j < n; j++) a->H[c][i][j] = -a->H[c][i][j];
            }
        }
        break;
    case M_SIGN_HESS:
    case M_HESS_FACTOR:
        for (int c = 0; c < nc; c++)
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) a->H[c][i][j] *= s->mutation == M_SIGN_HESS ? -1 : 2;
        break;
    case M_FACTOR:
        for (int c = 0; c < nc; c++) {
            a->C[c] *= 2;
            for (int i = 0; i < n; i++) {
                a->g[c][i] *= 2;
                for (int j = 0; j < n; j++) a->H[c][i][j] *= 2;
            }
        }
        break;
    case M_SWAP:
        if (nc < 2) break;
        a->C[0] = b.C[1], a->C[1] = b.C[0];
        memcpy(a->g[0], b.g[1], sizeof a->g[0]), memcpy(a->g[1], b.g[0], sizeof a->g[0]);
        memcpy(a->H[0], b.H[1], sizeof a->H[0]), memcpy(a->H[1], b.H[0], sizeof a->H[0]);
        break;
    case M_RELABEL:   /* the derivative of what it computes, f(x_pi(0), ...): block m lands at slot pi(m) */
        for (int c = 0; c < nc; c++)
            for (int i = 0; i < n; i++) {
                int p = 3 * relabelled(s, i / 3) + i % 3;
                a->g[c][p] = b.g[c][i];
                for (int j = 0; j < n; j++) a->H[c][p][3 * relabelled(s, j / 3) + j % 3] = b.H[c][i][j];
            }
        break;
    case M_AXIS_MAJOR:
        for (int c = 0; c < nc; c++)
            for (int i = 0; i < n; i++) {
                a->g[c][axis_major(s, i)] = b.g[c][i];
                for (int j = 0; j < n; j++) a->H[c][axis_major(s, i)][axis_major(s, j)] = b.H[c][i][j];
            }
        break;
    case M_TRANSPOSE:
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) a->H[0][i][j] = b.H[0][j][i];
        break;
    case M_ASYM:
        for (int c = 0; c < nc; c++)
            for (int s1 = 0; s1 < 3; s1++)
                for (int t = 0; t < 3; t++) a->H[c][s1][3 + t] = b.H[c][t][3 + s1];
        break;
    case M_FOLDED_SKIP:
        if (s->nv == 4 && folded(x))
            for (int c = 0; c < nc; c++) {
                memset(a->g[c], 0, sizeof a->g[c]);
                memset(a->H[c], 0, sizeof a->H[c]);
            }
        break;
    case M_NAN_EDGE:
        if (at_edge(s, x)) a->H[0][0][0] = NAN;
        break;
    case M_ENERGY_OFFSET:
        if (force) a->C[0] += k;
        break;
    case M_ULPS: {
        uint64_t st = 0x9e3779b97f4a7c15u ^ (uint64_t)(x[0] * 1e9);
        for (int c = 0; c < nc; c++) {
            a->C[c] = wobble(a->C[c], &st);
            for (int i = 0; i < n; i++) {
                a->g[c][i] = wobble(a->g[c][i], &st);
                for (int j = 0; j < n; j++) a->H[c][i][j] = wobble(a->H[c][i][j], &st);
            }
        }
        break;
    }
    case M_FLOAT32:
    case M_F32_DSIGN: {
        double sign = s->mutation == M_F32_DSIGN ? -1 : 1;
        for (int c = 0; c < nc; c++) {
            a->C[c] = as_float(a->C[c]);
            for (int i = 0; i < n; i++) {
                a->g[c][i] = sign * as_float(a->g[c][i]);
                for (int j = 0; j < n; j++) a->H[c][i][j] = sign * as_float(a->H[c][i][j]);
            }
        }
        break;
    }
    default: break;
    }
}

/* ---- one request ---- */

static int has(const cc_jv *want, const char *name)
{
    for (int i = 0; want && want->type == CC_JV_ARRAY && i < want->n; i++)
        if (want->items[i].type == CC_JV_STRING && !strcmp(want->items[i].str, name)) return 1;
    return 0;
}

/* the answer to one element, written to f; 0 or -1 */
static int element(FILE *f, const served *s, int force, double k, const cc_jv *want, const cc_jv *el)
{
    int n = 3 * s->nv;
    double x[CC_MAX_DOF];
    cc_rest r;
    answer a;
    if (numbers(cc_jv_get(el, "x"), n, x) < 0 || read_rest(s, cc_jv_get(el, "rest"), &r) < 0) return -1;
    if (s->mutation == M_FLOAT32 || s->mutation == M_F32_DSIGN)
        for (int i = 0; i < n; i++) x[i] = as_float(x[i]);
    if (s->mutation == M_RELABEL) relabel(s, x, 3);
    if (s->mutation == M_ANGLE_RANGE && s->cond && s->nv == 4) {   /* theta's sign: C with theta0 = 0 */
        cc_rest r0 = r;
        cc_eval e0;
        r0.rest_angle = 0;
        if (s->cond->eval(x, &r0, CC_WANT_VALUE, &e0) >= 0)
            r.rest_angle += (r.rest_angle < 0 ? 2 * CC_PI : 0) - (e0.C[0] < 0 ? 2 * CC_PI : 0);
    }
    if (right(s, force, k, x, &r, &a) < 0) {   /* undefined here: NaN, as a program's sqrt would give */
        for (int c = 0; c < CC_MAX_COMP; c++) a.C[c] = NAN;
        for (int i = 0; i < n; i++) a.g[0][i] = NAN;
    }
    mutate(s, force, k, x, &a);
    int nc = force ? 1 : s->ncomp;
    const char *vn = force ? "energy" : "value", *gn = force ? "force" : "gradient", *hn = force ? "jacobian" : "hessian";
    double sg = force ? -1 : 1;   /* force and Jacobian are the negatives of the condition form */
    int first = 1;
    fputc('{', f);
    if (has(want, vn) && (!force || a.has_value)) {
        fprintf(f, "\"%s\": ", vn);
        if (force) put_number(f, a.C[0], s->format);
        else put_list(f, a.C, nc, s->format);
        first = 0;
    }
    if (has(want, gn)) {
        fprintf(f, "%s\"%s\": ", first ? "" : ", ", gn);
        if (!force) fputc('[', f);
        for (int c = 0; c < nc; c++) {
            double v[CC_MAX_DOF];
            for (int i = 0; i < n; i++) v[i] = sg * a.g[c][i];
            if (c) fputs(", ", f);
            put_list(f, v, n, s->format);
        }
        if (!force) fputc(']', f);
        first = 0;
    }
    if (has(want, hn)) {
        fprintf(f, "%s\"%s\": ", first ? "" : ", ", hn);
        if (!force) fputc('[', f);
        for (int c = 0; c < nc; c++) {
            if (c) fputs(", ", f);
            fputc('[', f);
            for (int i = 0; i < n; i++) {
                double v[CC_MAX_DOF];
                for (int j = 0; j < n; j++) v[j] = sg * a.H[c][i][j];
                if (i) fputs(", ", f);
                put_list(f, v, n, s->format);
            }
            fputc(']', f);
        }
        if (!force) fputc(']', f);
    }
    fputc('}', f);
    return 0;
}

static void reply(const served *s, const char *line)
{
    char err[CC_ERRLEN];
    cc_jdoc *doc = cc_jdoc_parse(line, strlen(line), err);
    const cc_jv *root = doc ? cc_jdoc_root(doc) : NULL, *els = root ? cc_jv_get(root, "elements") : NULL;
    const cc_jv *contract = root ? cc_jv_get(root, "contract") : NULL;
    if (!els || els->type != CC_JV_ARRAY) {
        printf("{\"error\": \"mutant: a request without elements\"}\n");
        cc_jdoc_free(doc);
        return;
    }
    int force = contract && contract->type == CC_JV_STRING && !strcmp(contract->str, "force");
    double k = member(root, "k", 1.0);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    int bad = -1;
    fputs("{\"elements\": [", f);
    for (int i = 0; i < els->n && bad < 0; i++) {
        if (i) fputs(", ", f);
        if (element(f, s, force, k, cc_jv_get(root, "want"), &els->items[i]) < 0) bad = i;
    }
    fputs("]}\n", f);
    fclose(f);
    if (bad >= 0) printf("{\"error\": \"mutant: element %d has no x or rest data it can read\"}\n", bad);
    else fputs(out, stdout);
    fflush(stdout);
    free(out);
    cc_jdoc_free(doc);
}

static int usage(void)
{
    fputs("usage: mutant --serve COND/VARIANT|bridson-force [--mutation M] [--format 17g|9g|repr|repr32]\n", stderr);
    return 2;
}

int main(int argc, char **argv)
{
    served s = {0};
    const char *serve = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--serve")) serve = argv[i + 1];
        else if (!strcmp(argv[i], "--mutation")) {
            s.mutation = -1;
            for (int m = 0; m < M_COUNT; m++)
                if (!strcmp(argv[i + 1], mutation_names[m])) s.mutation = m;
            if (s.mutation < 0) return usage();
        } else if (!strcmp(argv[i], "--format")) {
            const char *f = argv[i + 1];
            s.format = !strcmp(f, "17g") ? F_17G : !strcmp(f, "9g") ? F_9G : !strcmp(f, "repr") ? F_REPR
                     : !strcmp(f, "repr32") ? F_REPR32 : -1;
            if (s.format < 0) return usage();
        } else return usage();
    }
    if (!serve) return usage();
    if (!strcmp(serve, "bridson-force")) s.nv = 4, s.ncomp = 1;
    else {
        char cond[32];
        const char *slash = strchr(serve, '/');
        if (!slash || slash - serve >= (int)sizeof cond) return usage();
        memcpy(cond, serve, (size_t)(slash - serve));
        cond[slash - serve] = 0;
        s.cond = cc_condition_find(cond, slash + 1);
        if (!s.cond) return usage();
        if (s.mutation == M_FROZEN && !strcmp(cond, "bend")) s.cond = cc_condition_find("bend", "pritchard");
        s.nv = s.cond->nv, s.ncomp = s.cond->ncomp;
    }
    size_t cap = 1 << 20, len = 0;
    char *line = malloc(cap);
    int ch;
    while (line && (ch = getchar()) != EOF) {
        if (ch != '\n') {
            if (len + 1 >= cap) {
                char *more = realloc(line, cap *= 2);
                if (!more) break;
                line = more;
            }
            line[len++] = (char)ch;
            continue;
        }
        line[len] = 0;
        reply(&s, line);
        len = 0;
    }
    free(line);
    return 0;
}
