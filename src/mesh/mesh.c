/* Cloth meshes: allocation, hinges from triangles, grids, triangle rest data. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mesh/mesh.h"

cc_mesh *cc_mesh_new(int nv, int nt)
{
    if (nv < 0 || nt < 0) return NULL;
    cc_mesh *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->nv = nv;
    m->nt = nt;
    m->x = calloc((size_t)nv * 3 + 1, sizeof *m->x);
    m->uv = calloc((size_t)nv * 2 + 1, sizeof *m->uv);
    m->tri = calloc((size_t)nt * 3 + 1, sizeof *m->tri);
    if (!m->x || !m->uv || !m->tri) {
        cc_mesh_free(m);
        return NULL;
    }
    return m;
}

void cc_mesh_free(cc_mesh *m)
{
    if (!m) return;
    free(m->x);
    free(m->uv);
    free(m->tri);
    free(m->hinge);
    free(m->hinge_tri);
    free(m);
}

/* A directed triangle edge a -> b as met in triangle t's counter-clockwise order. */
typedef struct half_edge {
    int lo, hi;   /* the edge's vertices, lo < hi: the sort key */
    int a, b;     /* direction in triangle t */
    int t;        /* triangle */
    int opp;      /* t's vertex off the edge */
} half_edge;

static int half_edge_cmp(const void *p, const void *q)
{
    const half_edge *e = p, *f = q;
    if (e->lo != f->lo) return e->lo < f->lo ? -1 : 1;
    if (e->hi != f->hi) return e->hi < f->hi ? -1 : 1;
    return (e->t > f->t) - (e->t < f->t);
}

/* Hinge of triangles A (with a -> b in its order, off-edge vertex oa) and B (off-edge ob):
 * x0 = oa, x1 = b, x2 = a, x3 = ob, so that e = x1 - x2 runs along A's order and
 * n^A = (x2 - x0) x (x1 - x0) is A's counter-clockwise normal (001 (25)). */
int cc_mesh_build_hinges(cc_mesh *m, char *err)
{
    free(m->hinge);
    free(m->hinge_tri);
    m->hinge = m->hinge_tri = NULL;
    m->nh = 0;
    size_t ne = (size_t)m->nt * 3;
    half_edge *he = malloc((ne + 1) * sizeof *he);
    m->hinge = malloc((ne / 2 + 1) * 4 * sizeof *m->hinge);
    m->hinge_tri = malloc((ne / 2 + 1) * 2 * sizeof *m->hinge_tri);
    if (!he || !m->hinge || !m->hinge_tri) {
        free(he);
        snprintf(err, CC_ERRLEN, "out of memory building hinges");
        return -1;
    }
    for (int t = 0; t < m->nt; t++)
        for (int c = 0; c < 3; c++) {
            half_edge *e = &he[3 * t + c];
            e->a = m->tri[3 * t + c];
            e->b = m->tri[3 * t + (c + 1) % 3];
            e->opp = m->tri[3 * t + (c + 2) % 3];
            e->lo = e->a < e->b ? e->a : e->b;
            e->hi = e->a < e->b ? e->b : e->a;
            e->t = t;
        }
    qsort(he, ne, sizeof *he, half_edge_cmp);
    for (size_t i = 0; i < ne;) {
        size_t j = i + 1;
        while (j < ne && he[j].lo == he[i].lo && he[j].hi == he[i].hi) j++;
        if (j - i > 2) {
            snprintf(err, CC_ERRLEN, "edge %d-%d is shared by %zu triangles (non-manifold)", he[i].lo,
                     he[i].hi, j - i);
            free(he);
            return -1;
        }
        if (j - i == 2) {
            const half_edge *A = &he[i], *B = &he[i + 1];
            if (A->a == B->a) {
                snprintf(err, CC_ERRLEN, "triangles %d and %d disagree on orientation across edge %d-%d",
                         A->t, B->t, A->lo, A->hi);
                free(he);
                return -1;
            }
            int *h = &m->hinge[4 * m->nh];
            h[0] = A->opp, h[1] = A->b, h[2] = A->a, h[3] = B->opp;
            m->hinge_tri[2 * m->nh] = A->t;
            m->hinge_tri[2 * m->nh + 1] = B->t;
            m->nh++;
        }
        i = j;
    }
    free(he);
    return 0;
}

cc_mesh *cc_mesh_grid(int nu, int nv, double width, double height, int alternate, char *err)
{
    if (nu < 2 || nv < 2 || nu > 100000 || nv > 100000 || (double)nu * nv > 5e7) {
        snprintf(err, CC_ERRLEN, "grid needs 2..100000 vertices per side (got %d x %d)", nu, nv);
        return NULL;
    }
    if (!(width > 0 && height > 0 && isfinite(width) && isfinite(height))) {
        snprintf(err, CC_ERRLEN, "grid size must be positive (got %g x %g)", width, height);
        return NULL;
    }
    cc_mesh *m = cc_mesh_new(nu * nv, 2 * (nu - 1) * (nv - 1));
    if (!m) {
        snprintf(err, CC_ERRLEN, "out of memory for a %d x %d grid", nu, nv);
        return NULL;
    }
    for (int j = 0; j < nv; j++)
        for (int i = 0; i < nu; i++) {
            int k = i + nu * j;
            double u = width * i / (nu - 1), v = height * j / (nv - 1);
            m->x[3 * k] = m->uv[2 * k] = u;
            m->x[3 * k + 1] = m->uv[2 * k + 1] = v;
        }
    int t = 0;
    for (int j = 0; j + 1 < nv; j++)
        for (int i = 0; i + 1 < nu; i++) {
            int a = i + nu * j, b = a + 1, c = a + nu, d = c + 1;   /* a b along u, c d above */
            int q[6];
            if (alternate && (i + j) % 2) {   /* diagonal b-c */
                int r[6] = {a, b, c, b, d, c};
                memcpy(q, r, sizeof q);
            } else {                          /* diagonal a-d */
                int r[6] = {a, b, d, a, d, c};
                memcpy(q, r, sizeof q);
            }
            memcpy(&m->tri[3 * t], q, sizeof q);
            t += 2;
        }
    if (cc_mesh_build_hinges(m, err) < 0) {
        cc_mesh_free(m);
        return NULL;
    }
    return m;
}

int cc_mesh_triangle_rest(const cc_mesh *m, int t, double area_power, double bu, double bv,
                          cc_rest *r, char *err)
{
    double uv[6];
    char why[CC_ERRLEN];
    for (int c = 0; c < 3; c++) {
        uv[2 * c] = m->uv[2 * m->tri[3 * t + c]];
        uv[2 * c + 1] = m->uv[2 * m->tri[3 * t + c] + 1];
    }
    if (cc_rest_triangle(r, uv, area_power, bu, bv, why) < 0) {
        snprintf(err, CC_ERRLEN, "triangle %d (vertices %d %d %d): %.100s", t, m->tri[3 * t],
                 m->tri[3 * t + 1], m->tri[3 * t + 2], why);
        return -1;
    }
    return 0;
}

void cc_mesh_gather(const cc_mesh *m, const int *idx, int k, double *out)
{
    for (int i = 0; i < k; i++)
        for (int s = 0; s < 3; s++) out[3 * i + s] = m->x[3 * idx[i] + s];
}

/* twice the area of the triangle of 2-D points p, q, r */
static double area2_uv(const double *p, const double *q, const double *r)
{
    return fabs((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));
}

/* twice the area of the triangle of 3-D points p, q, r */
static double area2_xyz(const double *p, const double *q, const double *r)
{
    double a[3], b[3], c[3];
    for (int s = 0; s < 3; s++) a[s] = q[s] - p[s], b[s] = r[s] - p[s];
    c[0] = a[1] * b[2] - a[2] * b[1], c[1] = a[2] * b[0] - a[0] * b[2], c[2] = a[0] * b[1] - a[1] * b[0];
    return sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
}

/* the largest extent of the n points of dim coordinates in v */
static double extent(const double *v, int n, int dim)
{
    double e = 0;
    for (int s = 0; s < dim; s++) {
        double lo = INFINITY, hi = -INFINITY;
        for (int i = 0; i < n; i++) lo = fmin(lo, v[dim * i + s]), hi = fmax(hi, v[dim * i + s]);
        if (n) e = fmax(e, hi - lo);
    }
    return e;
}

double cc_mesh_uv_mismatch(const cc_mesh *m, int *edge_tri)
{
    double worst = 0;
    *edge_tri = -1;
    for (int t = 0; t < m->nt; t++)
        for (int k = 0; k < 3; k++) {
            int a = m->tri[3 * t + k], b = m->tri[3 * t + (k + 1) % 3];
            double du = m->uv[2 * a] - m->uv[2 * b], dv = m->uv[2 * a + 1] - m->uv[2 * b + 1], dx = 0;
            for (int s = 0; s < 3; s++) dx += (m->x[3 * a + s] - m->x[3 * b + s]) * (m->x[3 * a + s] - m->x[3 * b + s]);
            double r = dx > 0 ? fabs(sqrt((du * du + dv * dv) / dx) - 1) : 0;
            if (r > worst) worst = r, *edge_tri = t;
        }
    return worst;
}

int cc_mesh_check_rest(const cc_mesh *m, char *err)
{
    double eu = extent(m->uv, m->nv, 2), ex = extent(m->x, m->nv, 3);
    for (int t = 0; t < m->nt; t++) {
        const int *v = m->tri + 3 * t;
        const double *u0 = m->uv + 2 * v[0], *u1 = m->uv + 2 * v[1], *u2 = m->uv + 2 * v[2];
        const double *p0 = m->x + 3 * v[0], *p1 = m->x + 3 * v[1], *p2 = m->x + 3 * v[2];
        for (int k = 0; k < 3; k++) {
            const double *a = m->x + 3 * v[k], *b = m->x + 3 * v[(k + 1) % 3];
            double d = sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
            if (!(d > 1e-12 * ex)) {
                snprintf(err, CC_ERRLEN, "triangle %d (%d %d %d): its vertices %d and %d coincide at rest", t, v[0], v[1],
                         v[2], v[k], v[(k + 1) % 3]);
                return -1;
            }
        }
        if (!(area2_uv(u0, u1, u2) > 1e-12 * eu * eu)) {
            snprintf(err, CC_ERRLEN, "triangle %d (%d %d %d): its (u, v) triangle has zero area%s", t, v[0], v[1], v[2],
                     m->uv_from_xy ? " (the mesh has no vt, so (u, v) are the rest (x, y): give a cloth that is not "
                                     "in the x-y plane vt)" : "");
            return -1;
        }
        if (!(area2_xyz(p0, p1, p2) > 1e-12 * ex * ex)) {
            snprintf(err, CC_ERRLEN, "triangle %d (%d %d %d): its rest triangle has zero area (its vertices on a line)", t,
                     v[0], v[1], v[2]);
            return -1;
        }
    }
    return 0;
}
