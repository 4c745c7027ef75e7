/* Suite: meshes — grids, hinges in Pritchard's labels, OBJ out and in. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cc_test.h"
#include "math/cc_vec.h"
#include "mesh/mesh.h"

/* interior edges of an nu x nv grid: all edges minus the 2(nu-1) + 2(nv-1) on the boundary */
static int expected_hinges(int nu, int nv)
{
    int edges = (nu - 1) * nv + nu * (nv - 1) + (nu - 1) * (nv - 1);
    return edges - 2 * (nu - 1) - 2 * (nv - 1);
}

static cc_v3 vtx(const cc_mesh *m, int i) { return cc_v3_load(m->x + 3 * i); }

/* n^A = (x2 - x0) x (x1 - x0), n^B = (x1 - x3) x (x2 - x3), e = x1 - x2 for hinge h (001 (25)-(27)) */
static void hinge_frame(const cc_mesh *m, int h, cc_v3 *nA, cc_v3 *nB, cc_v3 *e)
{
    const int *q = m->hinge + 4 * h;
    cc_v3 x0 = vtx(m, q[0]), x1 = vtx(m, q[1]), x2 = vtx(m, q[2]), x3 = vtx(m, q[3]);
    *nA = cc_v3_cross(cc_v3_sub(x2, x0), cc_v3_sub(x1, x0));
    *nB = cc_v3_cross(cc_v3_sub(x1, x3), cc_v3_sub(x2, x3));
    *e = cc_v3_sub(x1, x2);
}

/* Counts on grids, both splits: 2(nu-1)(nv-1) triangles, one hinge per interior edge. */
static void test_grid_counts(void)
{
    const int sizes[][2] = {{2, 2}, {3, 2}, {5, 4}, {11, 11}, {66, 66}};
    char err[CC_ERRLEN];
    for (int alt = 0; alt < 2; alt++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            cc_mesh *m = cc_mesh_grid(sizes[i][0], sizes[i][1], 1.0, 2.0, alt, err);
            CU_ASSERT_PTR_NOT_NULL_FATAL(m);
            CU_ASSERT_EQUAL(m->nv, sizes[i][0] * sizes[i][1]);
            CU_ASSERT_EQUAL(m->nt, 2 * (sizes[i][0] - 1) * (sizes[i][1] - 1));
            CU_ASSERT_EQUAL(m->nh, expected_hinges(sizes[i][0], sizes[i][1]));
            cc_mesh_free(m);
        }
}

/* Orientation: on a flat grid every hinge has n^A and n^B along +z (theta = 0), x0 and x3 on
 * opposite sides of the shared edge, x0 in triangle A and x3 in triangle B; triangles are
 * counter-clockwise in (u,v) with positive rest area. */
static void test_hinge_orientation(void)
{
    char err[CC_ERRLEN];
    for (int alt = 0; alt < 2; alt++) {
        cc_mesh *m = cc_mesh_grid(7, 5, 1.0, 1.0, alt, err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        for (int h = 0; h < m->nh; h++) {
            cc_v3 nA, nB, e;
            hinge_frame(m, h, &nA, &nB, &e);
            CU_ASSERT(nA.z > 0 && nB.z > 0);
            CU_ASSERT_DOUBLE_EQUAL(cc_v3_norm(cc_v3_cross(nA, nB)), 0, 1e-15);
            const int *q = m->hinge + 4 * h, *t = m->hinge_tri + 2 * h;
            int inA = 0, inB = 0;
            for (int c = 0; c < 3; c++) {
                inA += m->tri[3 * t[0] + c] == q[0] || m->tri[3 * t[0] + c] == q[1] || m->tri[3 * t[0] + c] == q[2];
                inB += m->tri[3 * t[1] + c] == q[3] || m->tri[3 * t[1] + c] == q[1] || m->tri[3 * t[1] + c] == q[2];
            }
            CU_ASSERT_EQUAL(inA, 3);
            CU_ASSERT_EQUAL(inB, 3);
        }
        for (int t = 0; t < m->nt; t++) {
            const int *q = m->tri + 3 * t;
            double du1 = m->uv[2 * q[1]] - m->uv[2 * q[0]], dv1 = m->uv[2 * q[1] + 1] - m->uv[2 * q[0] + 1];
            double du2 = m->uv[2 * q[2]] - m->uv[2 * q[0]], dv2 = m->uv[2 * q[2] + 1] - m->uv[2 * q[0] + 1];
            CU_ASSERT(du1 * dv2 - du2 * dv1 > 0);
        }
        cc_mesh_free(m);
    }
}

/* Folding the grid along the line x = 0.5 (rotating the half x > 0.5 about it) folds exactly
 * the hinges on that line: their n^A, n^B now differ, all others stay parallel. */
static void test_fold_detected(void)
{
    char err[CC_ERRLEN];
    cc_mesh *m = cc_mesh_grid(3, 3, 1.0, 1.0, 0, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    for (int i = 0; i < m->nv; i++)
        if (m->x[3 * i] > 0.75) m->x[3 * i] = 0.5, m->x[3 * i + 2] = 0.5;   /* fold up 90 degrees */
    int folded = 0;
    for (int h = 0; h < m->nh; h++) {
        cc_v3 nA, nB, e;
        hinge_frame(m, h, &nA, &nB, &e);
        if (cc_v3_norm(cc_v3_cross(nA, nB)) > 1e-12) {
            folded++;
            CU_ASSERT_DOUBLE_EQUAL(m->x[3 * m->hinge[4 * h + 1]], 0.5, 1e-15);
            CU_ASSERT_DOUBLE_EQUAL(m->x[3 * m->hinge[4 * h + 2]], 0.5, 1e-15);
        }
    }
    CU_ASSERT_EQUAL(folded, 2);   /* the two edges of the fold line x = 0.5 */
    cc_mesh_free(m);
}

/* a flat grid's (u,v) are its lengths; a vertex lifted out of the plane stretches its edges in
 * space by sqrt(1 + (dz/l)^2), which (u,v) no longer have */
static void test_uv_mismatch(void)
{
    char err[CC_ERRLEN];
    cc_mesh *m = cc_mesh_grid(3, 3, 1.0, 1.0, 0, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    int t;
    CU_ASSERT_DOUBLE_EQUAL(cc_mesh_uv_mismatch(m, &t), 0, 1e-15);
    m->x[3 * 4 + 2] = 0.5;   /* the middle vertex, 0.5 above its neighbours at 0.5 */
    double want = 1 - 1 / sqrt(2.0);   /* |u| / |x| - 1 along an axis edge: 0.5 / (0.5 sqrt 2) */
    CU_ASSERT_DOUBLE_EQUAL(cc_mesh_uv_mismatch(m, &t), want, 1e-12);
    CU_ASSERT(t >= 0 && t < m->nt);
    cc_mesh_free(m);
}

static void test_grid_rejects_bad_sizes(void)
{
    char err[CC_ERRLEN];
    CU_ASSERT_PTR_NULL(cc_mesh_grid(1, 5, 1, 1, 0, err));
    CU_ASSERT_PTR_NULL(cc_mesh_grid(5, 5, 0, 1, 0, err));
    CU_ASSERT_PTR_NULL(cc_mesh_grid(5, 5, 1, NAN, 0, err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "positive"));
}

/* Write then read back: same positions, (u,v), triangles and hinges. */
static void test_obj_round_trip(void)
{
    char err[CC_ERRLEN], path[] = "/tmp/cc_mesh_XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    cc_mesh *m = cc_mesh_grid(6, 4, 2.0, 1.0, 1, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    for (int i = 0; i < m->nv; i++) m->x[3 * i + 2] = sin(m->x[3 * i]);   /* world != rest */
    CU_ASSERT_EQUAL_FATAL(cc_mesh_write_obj(m, path, err), 0);
    cc_mesh *r = cc_mesh_read_obj(path, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(r->nv, m->nv);
    CU_ASSERT_EQUAL(r->nt, m->nt);
    CU_ASSERT_EQUAL(r->nh, m->nh);
    CU_ASSERT_EQUAL(memcmp(r->x, m->x, sizeof(double) * 3 * m->nv), 0);
    CU_ASSERT_EQUAL(memcmp(r->uv, m->uv, sizeof(double) * 2 * m->nv), 0);
    CU_ASSERT_EQUAL(memcmp(r->tri, m->tri, sizeof(int) * 3 * m->nt), 0);
    CU_ASSERT_EQUAL(memcmp(r->hinge, m->hinge, sizeof(int) * 4 * m->nh), 0);
    cc_mesh_free(m);
    cc_mesh_free(r);
    remove(path);
}

/* write an OBJ text to a temporary file; returns its path in p */
static void write_text(char *p, const char *text)
{
    strcpy(p, "/tmp/cc_objtxt_XXXXXX");
    int fd = mkstemp(p);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
}

/* A quad face is fanned into two triangles; vt gives (u,v); without vt, (u,v) = (x,y). */
static void test_obj_quads_and_uv(void)
{
    char p[64], err[CC_ERRLEN];
    write_text(p, "# quad\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\nvt 0 0\nvt 2 0\nvt 2 2\nvt 0 2\nf 1/1 2/2 3/3 4/4\n");
    cc_mesh *m = cc_mesh_read_obj(p, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(m->nt, 2);
    CU_ASSERT_EQUAL(m->nh, 1);
    CU_ASSERT_DOUBLE_EQUAL(m->uv[2 * 2], 2.0, 0);
    cc_mesh_free(m);
    remove(p);
    write_text(p, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    m = cc_mesh_read_obj(p, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_DOUBLE_EQUAL(m->uv[2 * 1], 1.0, 0);
    cc_mesh_free(m);
    remove(p);
}

/* Bad files give NULL and a message naming the file and line. */
static void test_obj_errors(void)
{
    char p[64], err[CC_ERRLEN];
    CU_ASSERT_PTR_NULL(cc_mesh_read_obj("/nonexistent/x.obj", err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot open"));
    write_text(p, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n");
    CU_ASSERT_PTR_NULL(cc_mesh_read_obj(p, err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, ":4:"));
    remove(p);
    write_text(p, "v 0 0 zero\n");
    CU_ASSERT_PTR_NULL(cc_mesh_read_obj(p, err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, ":1:"));
    remove(p);
    /* a coordinate not finite, an index not an integer, a face repeating a vertex: each named */
    static const char *const bad[][2] = {
        {"v 0 0 nan\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", ":1: a vertex coordinate that is not finite"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1.5 2 3\n", ":4: bad face corner"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/1x 2/1 3/1\n", ":5: bad face corner"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nf 1/1 1/1 2/2\n", ":6: a face that repeats a vertex"}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        write_text(p, bad[k][0]);
        CU_ASSERT_PTR_NULL(cc_mesh_read_obj(p, err));
        if (!strstr(err, bad[k][1])) fprintf(stderr, "expected '%s' in '%s'\n", bad[k][1], err);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[k][1]));
        remove(p);
    }
    /* three triangles on one edge */
    write_text(p, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 -1 0\nv 0 0 1\nf 1 2 3\nf 2 1 4\nf 1 2 5\n");
    CU_ASSERT_PTR_NULL(cc_mesh_read_obj(p, err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "non-manifold"));
    remove(p);
    /* indices at the ends of long, relative and absolute (LONG_MIN once overflowed its
     * negation: tests/fuzz/regress/obj/negative_index_overflow.obj); a relative index counts
     * from the end */
    write_text(p, "v 0 0 0\nf -99999999999999999999999999 1 -1\n");
    CU_ASSERT_PTR_NULL(cc_mesh_read_obj(p, err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, ":2:"));
    remove(p);
    write_text(p, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 99999999999999999999999999\n");
    CU_ASSERT_PTR_NULL(cc_mesh_read_obj(p, err));
    remove(p);
    write_text(p, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\n");
    cc_mesh *m = cc_mesh_read_obj(p, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT(m->tri[0] == 0 && m->tri[1] == 1 && m->tri[2] == 2);
    cc_mesh_free(m);
    remove(p);
}

/* A write into a missing directory fails cleanly and leaves no file behind. */
static void test_obj_write_failure(void)
{
    char err[CC_ERRLEN];
    cc_mesh *m = cc_mesh_grid(2, 2, 1, 1, 0, err);
    CU_ASSERT_EQUAL(cc_mesh_write_obj(m, "/nonexistent/dir/out.obj", err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot write"));
    cc_mesh_free(m);
}

/* Triangle rest data from a mesh names the triangle when its (u,v) is degenerate. */
static void test_triangle_rest_names_element(void)
{
    char err[CC_ERRLEN];
    cc_rest r;
    cc_mesh *m = cc_mesh_grid(3, 3, 1, 1, 0, err);
    CU_ASSERT_EQUAL(cc_mesh_triangle_rest(m, 3, 0.75, 1, 1, &r, err), 0);
    CU_ASSERT_DOUBLE_EQUAL(r.area, 0.125, 1e-15);
    m->uv[2 * m->tri[3 * 3 + 1]] = m->uv[2 * m->tri[3 * 3]];
    m->uv[2 * m->tri[3 * 3 + 1] + 1] = m->uv[2 * m->tri[3 * 3] + 1];
    CU_ASSERT_EQUAL(cc_mesh_triangle_rest(m, 3, 0.75, 1, 1, &r, err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "triangle 3"));
    cc_mesh_free(m);
}

/* A rest mesh the conditions are not defined at is named: a vertical cloth without vt (its (u,v)
 * the rest (x, y) collapse), coincident vertices, collinear ones; with vt it is fine. */
static void test_check_rest(void)
{
    char p[64], err[CC_ERRLEN];
    write_text(p, "v 0 0 0\nv 1 0 0\nv 0 0 1\nv 1 0 1\nf 1 2 3\nf 2 4 3\n");
    cc_mesh *m = cc_mesh_read_obj(p, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(m->uv_from_xy, 4);
    CU_ASSERT_EQUAL(cc_mesh_check_rest(m, err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "triangle 0 (0 1 2): its (u, v) triangle has zero area (the mesh has no vt"));
    CU_ASSERT_PTR_NULL(strchr(err, '\n'));
    cc_mesh_free(m);
    remove(p);
    write_text(p, "v 0 0 0\nv 1 0 0\nv 0 0 1\nv 1 0 1\nvt 0 0\nvt 1 0\nvt 0 1\nvt 1 1\nf 1/1 2/2 3/3\nf 2/2 4/4 3/3\n");
    m = cc_mesh_read_obj(p, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(m->uv_from_xy, 0);
    CU_ASSERT_EQUAL(cc_mesh_check_rest(m, err), 0);
    m->x[3 * 3] = m->x[3 * 1], m->x[3 * 3 + 1] = m->x[3 * 1 + 1], m->x[3 * 3 + 2] = m->x[3 * 1 + 2];
    CU_ASSERT_EQUAL(cc_mesh_check_rest(m, err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "triangle 1 (1 3 2): its vertices 1 and 3 coincide at rest"));
    m->x[3 * 3] = 2, m->x[3 * 3 + 1] = 0, m->x[3 * 3 + 2] = -1;   /* x3 on the line x1 x2 */
    CU_ASSERT_EQUAL(cc_mesh_check_rest(m, err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "triangle 1 (1 3 2): its rest triangle has zero area"));
    cc_mesh_free(m);
    remove(p);
    m = cc_mesh_grid(4, 4, 1, 1, 1, err);
    CU_ASSERT_EQUAL(cc_mesh_check_rest(m, err), 0);
    cc_mesh_free(m);
}

int main(void)
{
    static const cc_test_case tests[] = {
        {"a rest mesh the conditions are not defined at is refused, named", test_check_rest},
        {"grid counts (both splits)", test_grid_counts},
        {"hinge orientation in Pritchard's labels", test_hinge_orientation},
        {"a fold is seen on exactly its hinges", test_fold_detected},
        {"grid rejects bad sizes", test_grid_rejects_bad_sizes},
        {"(u,v) lengths against the rest lengths", test_uv_mismatch},
        {"OBJ round trip", test_obj_round_trip},
        {"OBJ quads and (u,v)", test_obj_quads_and_uv},
        {"OBJ errors name file and line", test_obj_errors},
        {"OBJ write failure leaves nothing", test_obj_write_failure},
        {"triangle rest data names the element", test_triangle_rest_names_element},
        {NULL, NULL}};
    return cc_test_main("mesh", tests);
}
