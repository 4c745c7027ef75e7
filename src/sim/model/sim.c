/* The simulator: set-up from a mesh, terms, constraints, obstacles and state queries. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/algebra/multigrid.h"
#include "sim/assembly/sim_internal.h"
#include "sim/model/model.h"

/* zeroed array of n elements (one spare, so n = 0 is not NULL) */
static void *alloc0(size_t n, size_t size) { return calloc(n + 1, size); }

/* free the arrays of one term */
static void term_free(cc_term *t)
{
    free(t->elem);
    free(t->rest);
    free(t->slot);
    free(t->kdata);
    free(t->bmax);
    free(t->smin);
    free(t->energy);
    free(t->C);
}

/* free s (NULL is fine) */
void cc_sim_free(cc_sim *s)
{
    if (!s) return;
    for (int i = 0; i < s->nterm; i++) term_free(&s->term[i]);
    free(s->term);
    double *d[] = {s->x, s->v, s->m, s->area, s->uv, s->cvec, s->cnormal, s->f, s->b, s->dv, s->dvp,
                   s->z, s->y, s->jdx, s->react, s->sx, s->sv, s->tmp, s->rest_len};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) free(d[i]);
    free(s->tri);
    free(s->hinge);
    free(s->con);
    free(s->contact);
    free(s->crow);
    free(s->C0);
    free(s->saved_contact);
    free(s->edge);
    free(s->obs);
    cc_bsr_free(s->A);
    cc_filter_free(s->F);
    cc_mpcg_work_free(s->W);
    cc_team_free(s->team);
    free(s);
}

/* a new term slot with nel elements of nv vertices; NULL when out of memory */
static cc_term *term_add(cc_sim *s, const char *name, int kind, int nv, int ncomp, int nel)
{
    if (s->nterm == s->capterm) {
        int cap = s->capterm ? 2 * s->capterm : 4;
        cc_term *t = realloc(s->term, (size_t)cap * sizeof *t);
        if (!t) return NULL;
        s->term = t;
        s->capterm = cap;
    }
    cc_term *t = &s->term[s->nterm];
    memset(t, 0, sizeof *t);
    snprintf(t->name, CC_SIM_NAMELEN, "%s", name);
    t->kind = kind;
    t->nv = nv;
    t->ncomp = ncomp;
    t->nel = nel;
    t->elem = alloc0((size_t)nel * nv, sizeof *t->elem);
    t->energy = alloc0((size_t)nel, sizeof *t->energy);
    t->C = alloc0((size_t)nel * ncomp, sizeof *t->C);
    if (!t->elem || !t->energy || !t->C) {
        term_free(t);
        return NULL;
    }
    s->nterm++;
    cc_bsr_free(s->A);   /* the pattern changes */
    s->A = NULL;
    return t;
}

/* stretch or shear on every triangle with registry variant (cond, variant) */
static int add_triangle_term(cc_sim *s, const cc_mesh *mesh, const char *cond, const char *variant,
                             int kind, double k, double kd, char *err)
{
    if (k == 0 && kd == 0) return 0;
    const cc_condition *c = cc_condition_find(cond, variant);
    if (!c) return snprintf(err, CC_ERRLEN, "condition %s/%s is not in the registry", cond, variant), -1;
    if (c->nv != 3) return snprintf(err, CC_ERRLEN, "%s/%s is not a triangle condition", cond, variant), -1;
    cc_term *t = term_add(s, cond, kind, 3, c->ncomp, s->nt);
    if (!t || !(t->rest = alloc0((size_t)s->nt, sizeof *t->rest)))
        return snprintf(err, CC_ERRLEN, "out of memory for %s elements", cond), -1;
    t->cond = c;
    t->k = k;
    t->kd = kd;
    memcpy(t->elem, s->tri, (size_t)s->nt * 3 * sizeof *t->elem);
    for (int e = 0; e < s->nt; e++)
        if (cc_mesh_triangle_rest(mesh, e, s->p.area_power, s->p.bu, s->p.bv, &t->rest[e], err) < 0) return -1;
    return 0;
}

/* the bend term on every hinge, its rest hinge the four vertices at (u, v, 0) (flat: rest angle
 * 0; discrete-shells and quadratic take their weights from it): a registry
 * condition, or Bridson's force model when bend_condition is CC_SIM_BEND_FORCE (bend_force.c;
 * its variant reads "bridson", and bend/bridson gives its C = theta - theta0 for messages) */
static int add_hinge_term(cc_sim *s, double k, double kd, char *err)
{
    cc_sim_params *p = &s->p;
    int force = !strcmp(p->bend_condition, CC_SIM_BEND_FORCE);
    if (force) snprintf(p->bend_variant, CC_SIM_NAMELEN, "bridson");
    if (force && (p->bend_hessian == CC_HESSIAN_CLAMP || p->bend_hessian == CC_HESSIAN_GAUSS_NEWTON))
        return snprintf(err, CC_ERRLEN, "bend_hessian clamp and gauss-newton act on a condition's C d2C; the %s model "
                        "takes full or project", CC_SIM_BEND_FORCE), -1;
    if ((k == 0 && kd == 0) || s->nh == 0) return 0;
    const cc_condition *c = cc_condition_find(force ? "bend" : p->bend_condition, p->bend_variant);
    if (!c)
        return snprintf(err, CC_ERRLEN, "condition %s/%s is not in the registry (bend_condition may also be %s)",
                        p->bend_condition, p->bend_variant, CC_SIM_BEND_FORCE), -1;
    if (c->nv != 4) return snprintf(err, CC_ERRLEN, "%s/%s is not a hinge condition", p->bend_condition, p->bend_variant), -1;
    cc_term *t = term_add(s, "bend", force ? TERM_BEND_FORCE : TERM_BEND, 4, c->ncomp, s->nh);
    if (!t || !(t->rest = alloc0((size_t)s->nh, sizeof *t->rest)))
        return snprintf(err, CC_ERRLEN, "out of memory for bend elements"), -1;
    t->cond = c;
    t->k = k;
    t->kd = kd;
    memcpy(t->elem, s->hinge, (size_t)s->nh * 4 * sizeof *t->elem);
    for (int e = 0; e < s->nh; e++) {
        char why[CC_ERRLEN];
        double uv[8];
        for (int m = 0; m < 4; m++) uv[2 * m] = s->uv[2 * t->elem[4 * e + m]], uv[2 * m + 1] = s->uv[2 * t->elem[4 * e + m] + 1];
        if (cc_rest_hinge_flat(&t->rest[e], uv, why) < 0)
            return snprintf(err, CC_ERRLEN, "hinge %d: rest (u,v): %.100s", e, why), -1;
    }
    return 0;
}

/* lumped masses and areas: a third of each triangle's rest area to each of its vertices */
static int lump_masses(cc_sim *s, char *err)
{
    for (int t = 0; t < s->nt; t++) {
        const int *v = s->tri + 3 * t;
        const double *a = s->uv + 2 * v[0], *b = s->uv + 2 * v[1], *c = s->uv + 2 * v[2];
        double area = 0.5 * fabs((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]));
        for (int k = 0; k < 3; k++) s->area[v[k]] += area / 3;
    }
    for (int i = 0; i < s->nv; i++) {
        s->m[i] = s->p.density * s->area[i];
        if (!(s->m[i] > 0))
            return snprintf(err, CC_ERRLEN, "vertex %d has no mass (it is in no triangle of positive area)", i), -1;
    }
    return 0;
}

/* ascending 64-bit keys, for qsort */
static int key_cmp(const void *p, const void *q)
{
    long long a = *(const long long *)p, b = *(const long long *)q;
    return (a > b) - (a < b);
}

/* the unique triangle edges and their rest lengths (b_u, b_v scale u and v) */
static int build_edges(cc_sim *s)
{
    int cap = 3 * s->nt, ne = 0;
    s->edge = alloc0((size_t)cap * 2, sizeof *s->edge);
    s->rest_len = alloc0((size_t)cap, sizeof *s->rest_len);
    if (!s->edge || !s->rest_len) return -1;
    for (int t = 0; t < s->nt; t++)
        for (int c = 0; c < 3; c++) {
            int a = s->tri[3 * t + c], b = s->tri[3 * t + (c + 1) % 3];
            int lo = a < b ? a : b, hi = a < b ? b : a;
            s->edge[2 * ne] = lo;
            s->edge[2 * ne + 1] = hi;
            ne++;
        }
    /* dedupe through a sort of (lo, hi) pairs packed as 64-bit keys */
    long long *key = malloc(((size_t)ne + 1) * sizeof *key);
    if (!key) return -1;
    for (int e = 0; e < ne; e++) key[e] = (long long)s->edge[2 * e] * s->nv + s->edge[2 * e + 1];
    qsort(key, (size_t)ne, sizeof *key, key_cmp);
    int u = 0;
    for (int e = 0; e < ne; e++) {
        if (e && key[e] == key[e - 1]) continue;
        int a = (int)(key[e] / s->nv), b = (int)(key[e] % s->nv);
        s->edge[2 * u] = a;
        s->edge[2 * u + 1] = b;
        double du = s->p.bu * (s->uv[2 * a] - s->uv[2 * b]), dv = s->p.bv * (s->uv[2 * a + 1] - s->uv[2 * b + 1]);
        s->rest_len[u] = sqrt(du * du + dv * dv);
        u++;
    }
    s->ne = u;
    free(key);
    return 0;
}

/* copy what the simulation needs from the mesh */
static int copy_mesh(cc_sim *s, const cc_mesh *mesh)
{
    size_t n = (size_t)s->nv;
    s->x = alloc0(3 * n, sizeof(double));
    s->v = alloc0(3 * n, sizeof(double));
    s->m = alloc0(n, sizeof(double));
    s->area = alloc0(n, sizeof(double));
    s->uv = alloc0(2 * n, sizeof(double));
    s->tri = alloc0(3 * (size_t)s->nt, sizeof(int));
    s->hinge = alloc0(4 * (size_t)s->nh, sizeof(int));
    if (!s->x || !s->v || !s->m || !s->area || !s->uv || !s->tri || !s->hinge) return -1;
    memcpy(s->x, mesh->x, 3 * n * sizeof(double));
    memcpy(s->uv, mesh->uv, 2 * n * sizeof(double));
    memcpy(s->tri, mesh->tri, 3 * (size_t)s->nt * sizeof(int));
    if (s->nh) memcpy(s->hinge, mesh->hinge, 4 * (size_t)s->nh * sizeof(int));
    return 0;
}

/* work arrays of 3nv doubles and per-vertex constraint state */
static int alloc_work(cc_sim *s)
{
    size_t n3 = 3 * (size_t)s->nv;
    double **d[] = {&s->cvec, &s->cnormal, &s->f, &s->b, &s->dv, &s->z, &s->y, &s->jdx, &s->react,
                    &s->sx, &s->sv, &s->tmp};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        if (!(*d[i] = alloc0(n3, sizeof(double)))) return -1;
    if (!(s->dvp = alloc0(3 * n3, sizeof(double)))) return -1;
    s->con = alloc0((size_t)s->nv, sizeof(int));
    s->contact = alloc0((size_t)s->nv, sizeof(int));
    s->crow = alloc0((size_t)s->nv, sizeof(int));
    s->C0 = alloc0((size_t)s->nt * CC_MAX_COMP, sizeof(double));
    s->saved_contact = alloc0((size_t)s->nv, sizeof(int));
    s->F = cc_filter_new(s->nv);
    s->W = cc_mpcg_work_new(s->nv);
    int nt = s->p.threads ? s->p.threads : cc_team_cpus();
    if (nt > CC_MG_PARTS) nt = CC_MG_PARTS;   /* more threads than parts would only wait */
    s->team = nt > 1 ? cc_team_new(nt) : NULL;   /* NULL also when it cannot start: the caller alone */
    if (s->W) s->W->team = s->team, s->W->x = s->x;   /* s->x is never reallocated */
    return (s->con && s->contact && s->crow && s->C0 && s->saved_contact && s->F && s->W) ? 0 : -1;
}

/* 0 if every triangle and hinge index is a vertex of the mesh */
static int check_mesh(const cc_mesh *m, char *err)
{
    if (!m || m->nv < 3 || m->nt < 1 || !m->x || !m->uv || !m->tri || (m->nh > 0 && !m->hinge))
        return snprintf(err, CC_ERRLEN, "the mesh needs at least 3 vertices and 1 triangle"), -1;
    for (int i = 0; i < 3 * m->nt; i++)
        if (m->tri[i] < 0 || m->tri[i] >= m->nv) return snprintf(err, CC_ERRLEN, "triangle %d names a vertex out of range", i / 3), -1;
    for (int i = 0; i < 4 * m->nh; i++)
        if (m->hinge[i] < 0 || m->hinge[i] >= m->nv) return snprintf(err, CC_ERRLEN, "hinge %d names a vertex out of range", i / 4), -1;
    for (int i = 0; i < 3 * m->nv; i++)
        if (!isfinite(m->x[i])) return snprintf(err, CC_ERRLEN, "vertex %d has a non-finite position", i / 3), -1;
    return 0;
}

/* a simulation of mesh with stretch and shear on triangles, bend on hinges */
cc_sim *cc_sim_new(const cc_mesh *mesh, const cc_sim_params *p, char *err)
{
    if (!p) return snprintf(err, CC_ERRLEN, "no parameters"), NULL;
    if (check_mesh(mesh, err) < 0 || cc_sim_params_check(p, err) < 0) return NULL;
    cc_sim *s = calloc(1, sizeof *s);
    if (!s) return snprintf(err, CC_ERRLEN, "out of memory"), NULL;
    s->p = *p;
    s->nv = mesh->nv;
    s->nt = mesh->nt;
    s->nh = mesh->nh;
    s->st.h = p->h;
    if (copy_mesh(s, mesh) < 0 || alloc_work(s) < 0 || build_edges(s) < 0) {
        snprintf(err, CC_ERRLEN, "out of memory for a mesh of %d vertices", s->nv);
        cc_sim_free(s);
        return NULL;
    }
    if (lump_masses(s, err) < 0 ||
        add_triangle_term(s, mesh, "stretch", p->stretch_variant, TERM_STRETCH, p->k_stretch, p->d_stretch, err) < 0 ||
        add_triangle_term(s, mesh, "shear", p->shear_variant, TERM_SHEAR, p->k_shear, p->d_shear, err) < 0 ||
        add_hinge_term(s, p->k_bend, p->d_bend, err) < 0) {
        cc_sim_free(s);
        return NULL;
    }
    return s;
}

/* the parameters in use */
const cc_sim_params *cc_sim_get_params(const cc_sim *s) { return &s->p; }
/* the last error message */
const char *cc_sim_error(const cc_sim *s) { return s->err; }

/* add E = k/2 C.C of a user condition over elems, damped with kd */
int cc_sim_add_condition(cc_sim *s, const cc_sim_condition *c, const int *elems, int nelem,
                         double k, double kd, char *err)
{
    if (!s || !c || !c->eval || !c->name || !elems || nelem < 1)
        return snprintf(err, CC_ERRLEN, "a user condition needs a name, an eval function and elements"), -1;
    if (c->nv < 2 || c->nv > CC_MAX_NV || c->ncomp < 1 || c->ncomp > CC_MAX_COMP)
        return snprintf(err, CC_ERRLEN, "condition %s: %d vertices and %d components are not supported", c->name, c->nv, c->ncomp), -1;
    if (!(k >= 0) || !(kd >= 0) || !isfinite(k) || !isfinite(kd))
        return snprintf(err, CC_ERRLEN, "condition %s: k and kd must be finite and >= 0", c->name), -1;
    if (!strcmp(c->name, "stretch") || !strcmp(c->name, "shear") || !strcmp(c->name, "bend"))
        return snprintf(err, CC_ERRLEN, "condition name '%s' is taken by a built-in term", c->name), -1;
    for (int i = 0; i < nelem * c->nv; i++)
        if (elems[i] < 0 || elems[i] >= s->nv)
            return snprintf(err, CC_ERRLEN, "condition %s: element %d names vertex %d, out of range", c->name, i / c->nv, elems[i]), -1;
    cc_term *t = term_add(s, c->name, TERM_USER, c->nv, c->ncomp, nelem);
    if (!t) return snprintf(err, CC_ERRLEN, "out of memory for condition %s", c->name), -1;
    memcpy(t->elem, elems, (size_t)nelem * c->nv * sizeof *elems);
    t->user = *c;
    t->user.name = t->name;
    t->k = k;
    t->kd = kd;
    return 0;
}

/* unit vector of d into u; -1 if d is zero or not finite */
static int unit3(const double *d, double *u)
{
    if (!d) return -1;
    double n = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(n > 0) || !isfinite(n)) return -1;
    for (int k = 0; k < 3; k++) u[k] = d[k] / n;
    return 0;
}

/* 0 if v is a vertex of s */
static int check_vertex(const cc_sim *s, int v, char *err)
{
    if (v < 0 || v >= s->nv) return snprintf(err, CC_ERRLEN, "vertex %d is out of range (0..%d)", v, s->nv - 1), -1;
    return 0;
}

/* S_v = 0, velocity of v = vel (or 0) */
int cc_sim_pin(cc_sim *s, int v, const double *vel, char *err)
{
    if (check_vertex(s, v, err) < 0) return -1;
    double u[3] = {0, 0, 0};
    if (vel)
        for (int k = 0; k < 3; k++) {
            if (!isfinite(vel[k])) return snprintf(err, CC_ERRLEN, "pin velocity of vertex %d is not finite", v), -1;
            u[k] = vel[k];
        }
    s->con[v] = CON_PIN;
    memcpy(s->cvec + 3 * v, u, sizeof u);
    memcpy(s->v + 3 * v, u, sizeof u);
    return 0;
}

/* S_v = I - n n^T */
int cc_sim_slide_plane(cc_sim *s, int v, const double *normal, char *err)
{
    if (check_vertex(s, v, err) < 0) return -1;
    if (unit3(normal, s->cvec + 3 * v) < 0) return snprintf(err, CC_ERRLEN, "plane normal of vertex %d must be non-zero and finite", v), -1;
    s->con[v] = CON_PLANE;
    return 0;
}

/* S_v = d d^T */
int cc_sim_slide_line(cc_sim *s, int v, const double *dir, char *err)
{
    if (check_vertex(s, v, err) < 0) return -1;
    if (unit3(dir, s->cvec + 3 * v) < 0) return snprintf(err, CC_ERRLEN, "line direction of vertex %d must be non-zero and finite", v), -1;
    s->con[v] = CON_LINE;
    return 0;
}

/* S_v = I */
int cc_sim_release(cc_sim *s, int v, char *err)
{
    if (check_vertex(s, v, err) < 0) return -1;
    s->con[v] = CON_FREE;
    return 0;
}

/* room for one more obstacle; NULL when out of memory */
static cc_obstacle *obstacle_add(cc_sim *s, int kind, char *err)
{
    if (s->nobs == s->capobs) {
        int cap = s->capobs ? 2 * s->capobs : 4;
        cc_obstacle *o = realloc(s->obs, (size_t)cap * sizeof *o);
        if (!o) return snprintf(err, CC_ERRLEN, "out of memory for obstacles"), NULL;
        s->obs = o;
        s->capobs = cap;
    }
    cc_obstacle *o = &s->obs[s->nobs++];
    memset(o, 0, sizeof *o);
    o->kind = kind;
    return o;
}

/* 1 if p[0..2] are finite */
static int finite3(const double *p) { return p && isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]); }

/* obstacle {q : (q - point) . n <= 0} */
int cc_sim_add_plane(cc_sim *s, const double *point, const double *normal, char *err)
{
    double n[3];
    if (!finite3(point) || unit3(normal, n) < 0)
        return snprintf(err, CC_ERRLEN, "a plane needs a finite point and a non-zero normal"), -1;
    cc_obstacle *o = obstacle_add(s, OBS_PLANE, err);
    if (!o) return -1;
    memcpy(o->p, point, sizeof o->p);
    memcpy(o->n, n, sizeof n);
    return 0;
}

/* obstacle {q : |q - center| <= radius} */
int cc_sim_add_sphere(cc_sim *s, const double *center, double radius, char *err)
{
    if (!finite3(center) || !(radius > 0) || !isfinite(radius))
        return snprintf(err, CC_ERRLEN, "a sphere needs a finite centre and a radius > 0"), -1;
    cc_obstacle *o = obstacle_add(s, OBS_SPHERE, err);
    if (!o) return -1;
    memcpy(o->p, center, sizeof o->p);
    o->r = radius;
    return 0;
}

/* obstacle {q : |q_xy - c| <= radius, floor_z <= q_z <= top_z} */
int cc_sim_add_table(cc_sim *s, double cx, double cy, double top_z, double floor_z, double radius,
                     char *err)
{
    double c[3] = {cx, cy, top_z};
    if (!finite3(c) || !isfinite(floor_z) || !(floor_z < top_z) || !(radius > 0) || !isfinite(radius))
        return snprintf(err, CC_ERRLEN, "a table needs a finite centre, floor below top and a radius > 0"), -1;
    cc_obstacle *o = obstacle_add(s, OBS_TABLE, err);
    if (!o) return -1;
    memcpy(o->p, c, sizeof c);
    o->r = radius;
    o->floor_z = floor_z;
    return 0;
}

/* signed distance from q to the obstacle's surface (negative inside), n = outward normal;
 * inside, through the face crossed coming from `from` when given */
double cc_obstacle_distance(const cc_obstacle *o, const double *q, const double *from, double *n)
{
    double d[3] = {q[0] - o->p[0], q[1] - o->p[1], q[2] - o->p[2]};
    if (o->kind == OBS_PLANE) {
        memcpy(n, o->n, 3 * sizeof *n);
        return d[0] * n[0] + d[1] * n[1] + d[2] * n[2];
    }
    if (o->kind == OBS_SPHERE) {
        double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (len > 0)
            for (int k = 0; k < 3; k++) n[k] = d[k] / len;
        else
            n[0] = n[1] = 0, n[2] = 1;
        return len - o->r;
    }
    /* table: solid cylinder of radius r, z in [floor_z, top_z] (p[2] = top_z) */
    double rho = sqrt(d[0] * d[0] + d[1] * d[1]);
    double er[2] = {rho > 0 ? d[0] / rho : 1.0, rho > 0 ? d[1] / rho : 0.0};
    double dr = rho - o->r;
    double dtop = q[2] - o->p[2], dbot = o->floor_z - q[2];
    double dz = dtop > dbot ? dtop : dbot, sz = dtop > dbot ? 1.0 : -1.0;
    if (dr > 0 && dz > 0) {   /* outside, nearest the rim */
        double len = sqrt(dr * dr + dz * dz);
        n[0] = er[0] * dr / len;
        n[1] = er[1] * dr / len;
        n[2] = sz * dz / len;
        return len;
    }
    if (from && dr <= 0 && dz <= 0) {   /* inside: leave through the face q came in by */
        double fr = sqrt((from[0] - o->p[0]) * (from[0] - o->p[0]) + (from[1] - o->p[1]) * (from[1] - o->p[1]));
        if (from[2] > o->p[2] || from[2] < o->floor_z) {
            dz = from[2] > o->p[2] ? dtop : dbot;
            sz = from[2] > o->p[2] ? 1.0 : -1.0;
            dr = -INFINITY;
        } else if (fr > o->r) {
            dz = -INFINITY;
        }
    }
    if (dr > dz) {            /* nearest the side */
        n[0] = er[0];
        n[1] = er[1];
        n[2] = 0;
        return dr;
    }
    n[0] = n[1] = 0;          /* nearest the top or the bottom */
    n[2] = sz;
    return dz;
}

/* 1 / m_i, 0 when pinned */
double cc_sim_inv_mass(const cc_sim *s, int i) { return s->con[i] == CON_PIN ? 0.0 : 1.0 / s->m[i]; }

/* st = the counters */
void cc_sim_get_stats(const cc_sim *s, cc_sim_stats *st) { *st = s->st; }
/* nv */
int cc_sim_vertex_count(const cc_sim *s) { return s->nv; }
/* x, 3nv */
const double *cc_sim_positions(const cc_sim *s) { return s->x; }
/* v, 3nv */
const double *cc_sim_velocities(const cc_sim *s) { return s->v; }
/* m, nv */
const double *cc_sim_masses(const cc_sim *s) { return s->m; }

/* x, v = the given arrays; the warm start is dropped */
void cc_sim_set_state(cc_sim *s, const double *x, const double *v)
{
    if (x) memcpy(s->x, x, 3 * (size_t)s->nv * sizeof *x);
    if (v) memcpy(s->v, v, 3 * (size_t)s->nv * sizeof *v);
    memset(s->dv, 0, 3 * (size_t)s->nv * sizeof *s->dv);
    s->ndv = 0;
}

/* e = energies at the current state */
int cc_sim_energies(cc_sim *s, cc_sim_energy *e)
{
    memset(e, 0, sizeof *e);
    if (cc_sim_assemble(s, &(cc_assembly){.x = s->x, .v = s->v, .f = s->tmp}) < 0) return -1;
    for (int t = 0; t < s->nterm; t++) {
        const cc_term *tm = &s->term[t];
        double sum = 0;
        for (int k = 0; k < tm->nel; k++) sum += tm->energy[k];
        double *dst = tm->kind == TERM_STRETCH ? &e->stretch : tm->kind == TERM_SHEAR ? &e->shear
                    : (tm->kind == TERM_BEND || tm->kind == TERM_BEND_FORCE) ? &e->bend : &e->user;
        *dst += sum;
    }
    for (int i = 0; i < s->nv; i++) {
        const double *v = s->v + 3 * i, *x = s->x + 3 * i, *g = s->p.gravity;
        e->kinetic += 0.5 * s->m[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        e->gravity -= s->m[i] * (g[0] * x[0] + g[1] * x[1] + g[2] * x[2]);
    }
    e->total = e->stretch + e->shear + e->bend + e->user + e->kinetic + e->gravity;
    return 0;
}

/* out[e] = k/2 C_e.C_e for the named term */
int cc_sim_element_energies(cc_sim *s, const char *term, double *out, int cap)
{
    if (!term) return -1;
    for (int t = 0; t < s->nterm; t++) {
        const cc_term *tm = &s->term[t];
        if (strcmp(tm->name, term)) continue;
        if (cc_sim_assemble(s, &(cc_assembly){.x = s->x, .v = s->v, .f = s->tmp}) < 0) return -1;
        for (int k = 0; k < tm->nel && k < cap; k++) out[k] = tm->energy[k];
        return tm->nel;
    }
    snprintf(s->err, CC_ERRLEN, "no term named '%s'", term);
    return -1;
}

/* out = reaction of vertex v in the last step */
void cc_sim_reaction(const cc_sim *s, int v, double *out)
{
    for (int k = 0; k < 3; k++) out[k] = (v >= 0 && v < s->nv) ? s->react[3 * v + k] : 0.0;
}

/* f = f(x, v) */
int cc_sim_force(cc_sim *s, double *f) { return cc_sim_assemble(s, &(cc_assembly){.x = s->x, .v = s->v, .f = f}); }

/* J = df/dx (which = 0) or df/dv (which = 1), dense */
int cc_sim_jacobian_dense(cc_sim *s, int which, double *J)
{
    if (which != 0 && which != 1) return -1;
    cc_assembly a = {.x = s->x, .v = s->v, .mat = 1, .cx = which == 0 ? 1.0 : 0.0, .cv = which == 1 ? 1.0 : 0.0,
                     .f = s->tmp};
    if (cc_sim_assemble(s, &a) < 0)
        return -1;
    int n3 = 3 * s->nv;
    memset(J, 0, (size_t)n3 * n3 * sizeof *J);
    cc_bsr_fill_upper(s->A);   /* val is read directly */
    const cc_bsr *A = s->A;
    for (int i = 0; i < A->n; i++)
        for (int q = A->rowptr[i]; q < A->rowptr[i + 1]; q++)
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) J[(size_t)(3 * i + a) * n3 + 3 * A->col[q] + b] = cc_bsr_block(A, q)[3 * a + b];
    return 0;
}
