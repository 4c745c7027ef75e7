/* Wavefront OBJ in and out for cloth meshes. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/files.h"
#include "mesh/mesh.h"

int cc_mesh_write_obj(const cc_mesh *m, const char *path, char *err)
{
    cc_outfile o;
    if (cc_outfile_open(&o, path, err) < 0) return -1;
    fprintf(o.f, "# clothcheck mesh: %d vertices, %d triangles\n", m->nv, m->nt);
    for (int i = 0; i < m->nv; i++)
        fprintf(o.f, "v %.17g %.17g %.17g\n", m->x[3 * i], m->x[3 * i + 1], m->x[3 * i + 2]);
    for (int i = 0; i < m->nv; i++) fprintf(o.f, "vt %.17g %.17g\n", m->uv[2 * i], m->uv[2 * i + 1]);
    for (int t = 0; t < m->nt; t++) {
        int a = m->tri[3 * t] + 1, b = m->tri[3 * t + 1] + 1, c = m->tri[3 * t + 2] + 1;
        fprintf(o.f, "f %d/%d %d/%d %d/%d\n", a, a, b, b, c, c);
    }
    return cc_outfile_commit(&o, err);
}

/* A growable array of doubles or ints. */
typedef struct grow {
    void *p;        /* elements */
    size_t n, cap;  /* count and capacity, in elements */
    size_t size;    /* element size in bytes */
} grow;

static int grow_push(grow *g, const void *e)
{
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 256;
        void *p = realloc(g->p, cap * g->size);
        if (!p) return -1;
        g->p = p, g->cap = cap;
    }
    memcpy((char *)g->p + g->n * g->size, e, g->size);
    g->n++;
    return 0;
}

/* OBJ index (1-based, or negative from the end) to 0-based; -1 if out of range */
static long obj_index(long i, size_t count)
{
    if (count > (size_t)LONG_MAX) return -1;
    if (i > 0 && (size_t)i <= count) return i - 1;
    if (i < 0 && i >= -(long)count) return (long)count + i;   /* no -i: i may be LONG_MIN */
    return -1;
}

/* parse "v", "v/vt", "v//vn" or "v/vt/vn"; vt = 0 when absent */
static int parse_corner(const char *tok, long *v, long *vt)
{
    char *end;
    *vt = 0;
    *v = strtol(tok, &end, 10);
    if (end == tok || *v == 0 || (*end && *end != '/')) return -1;
    if (*end == '/') {
        const char *p = end + 1;
        if (*p != '/' && *p) {
            *vt = strtol(p, &end, 10);
            if (end == p || (*end && *end != '/')) return -1;
        }
    }
    return 0;
}

static cc_mesh *obj_fail(FILE *f, grow *gs, int ng, char *err, const char *path, long line, const char *why)
{
    snprintf(err, CC_ERRLEN, "%.80s:%ld: %s", path, line, why);
    if (f) fclose(f);
    for (int i = 0; i < ng; i++) free(gs[i].p);
    return NULL;
}

cc_mesh *cc_mesh_read_obj(const char *path, char *err)
{
    FILE *f = fopen(path, "r");
    grow g[4] = {{NULL, 0, 0, sizeof(double)}, {NULL, 0, 0, sizeof(double)},
                 {NULL, 0, 0, sizeof(int)}, {NULL, 0, 0, sizeof(long)}};
    grow *gv = &g[0], *gt = &g[1], *gf = &g[2], *gfvt = &g[3];  /* v xyz, vt uv, face corners, their vt */
    if (!f) {
        snprintf(err, CC_ERRLEN, "cannot open %.100s: %s", path, strerror(errno));
        return NULL;
    }
    char buf[4096];
    long line = 0;
    while (fgets(buf, sizeof buf, f)) {
        line++;
        if (!strchr(buf, '\n') && !feof(f)) return obj_fail(f, g, 4, err, path, line, "line too long");
        char *save = NULL, *kw = strtok_r(buf, " \t\r\n", &save);
        if (!kw || kw[0] == '#') continue;
        if (!strcmp(kw, "v") || !strcmp(kw, "vt")) {
            int want = kw[1] ? 2 : 3;
            for (int i = 0; i < want; i++) {
                char *tok = strtok_r(NULL, " \t\r\n", &save), *end;
                double d = tok ? strtod(tok, &end) : 0;
                if (!tok || *end || end == tok) return obj_fail(f, g, 4, err, path, line, "bad vertex coordinates");
                if (!isfinite(d)) return obj_fail(f, g, 4, err, path, line, "a vertex coordinate that is not finite");
                if (grow_push(want == 3 ? gv : gt, &d) < 0) return obj_fail(f, g, 4, err, path, line, "out of memory");
            }
        } else if (!strcmp(kw, "f")) {
            long cv[64], cvt[64];
            int nc = 0;
            for (char *tok; (tok = strtok_r(NULL, " \t\r\n", &save));) {
                if (nc == 64) return obj_fail(f, g, 4, err, path, line, "face with more than 64 corners");
                long v, vt;
                if (parse_corner(tok, &v, &vt) < 0) return obj_fail(f, g, 4, err, path, line, "bad face corner");
                cv[nc] = obj_index(v, gv->n / 3);
                cvt[nc] = vt ? obj_index(vt, gt->n / 2) : -2;
                if (cv[nc] < 0 || cvt[nc] == -1) return obj_fail(f, g, 4, err, path, line, "face index out of range");
                for (int i = 0; i < nc; i++)
                    if (cv[i] == cv[nc]) return obj_fail(f, g, 4, err, path, line, "a face that repeats a vertex");
                nc++;
            }
            if (nc < 3) return obj_fail(f, g, 4, err, path, line, "face with fewer than 3 corners");
            for (int i = 1; i + 1 < nc; i++) {   /* fan */
                int idx[3] = {0, i, i + 1};
                for (int c = 0; c < 3; c++) {
                    int vi = (int)cv[idx[c]];
                    if (grow_push(gf, &vi) < 0 || grow_push(gfvt, &cvt[idx[c]]) < 0)
                        return obj_fail(f, g, 4, err, path, line, "out of memory");
                }
            }
        }
    }
    fclose(f);
    int nv = (int)(gv->n / 3), nt = (int)(gf->n / 3);
    if (nv == 0 || nt == 0) return obj_fail(NULL, g, 4, err, path, line, "no vertices or no faces");
    cc_mesh *m = cc_mesh_new(nv, nt);
    if (!m) return obj_fail(NULL, g, 4, err, path, line, "out of memory");
    const double *xv = gv->p, *tv = gt->p;
    const int *fi = gf->p;
    const long *fvt = gfvt->p;
    memcpy(m->x, xv, sizeof(double) * 3 * nv);
    char *has_uv = calloc((size_t)nv, 1);
    if (!has_uv) {
        cc_mesh_free(m);
        return obj_fail(NULL, g, 4, err, path, line, "out of memory");
    }
    for (int i = 0; i < nv; i++) m->uv[2 * i] = xv[3 * i], m->uv[2 * i + 1] = xv[3 * i + 1];
    for (size_t c = 0; c < gf->n; c++) {
        m->tri[c] = fi[c];
        if (fvt[c] >= 0 && !has_uv[fi[c]]) {
            m->uv[2 * fi[c]] = tv[2 * fvt[c]];
            m->uv[2 * fi[c] + 1] = tv[2 * fvt[c] + 1];
            has_uv[fi[c]] = 1;
        }
    }
    for (int i = 0; i < nv; i++) m->uv_from_xy += !has_uv[i];
    free(has_uv);
    for (int i = 0; i < 4; i++) free(g[i].p);
    char why[CC_ERRLEN];
    if (cc_mesh_build_hinges(m, why) < 0) {
        snprintf(err, CC_ERRLEN, "%.80s: %.70s", path, why);
        cc_mesh_free(m);
        return NULL;
    }
    return m;
}
