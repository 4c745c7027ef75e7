/* Cloth meshes: world positions, (u,v) rest coordinates, triangles and hinges.
 *
 * Triangles are stored counter-clockwise in (u,v), so in rest pose their normals
 * (x1 - x0) x (x2 - x0) agree. A hinge is a pair of triangles sharing an edge, stored in
 * Pritchard's labels (001 (25)-(27)): (x0, x1, x2, x3) with shared edge x1-x2, x0 the
 * vertex of triangle A off the edge and x3 that of triangle B, ordered so that
 * n^A = (x2 - x0) x (x1 - x0) and n^B = (x1 - x3) x (x2 - x3) agree on a flat mesh
 * (theta = 0 there).
 */
#ifndef CC_MESH_H
#define CC_MESH_H

#include "conditions/condition.h"

typedef struct cc_mesh {
    int nv;          /* number of vertices */
    int nt;          /* number of triangles */
    int nh;          /* number of hinges (interior edges) */
    double *x;       /* world positions, nv by 3, row-major */
    double *uv;      /* rest (u,v) coordinates, nv by 2, row-major */
    int *tri;        /* triangles, nt by 3 vertex indices, counter-clockwise in (u,v) */
    int *hinge;      /* hinges, nh by 4 vertex indices (x0, x1, x2, x3) as above */
    int *hinge_tri;  /* nh by 2: triangle A and triangle B of each hinge */
    int uv_from_xy;  /* vertices whose (u,v) are their rest (x,y): an OBJ without vt for them */
} cc_mesh;

/* A mesh with nv vertices and nt triangles, all zero; NULL when out of memory. */
cc_mesh *cc_mesh_new(int nv, int nt);
void cc_mesh_free(cc_mesh *m);

/* Find the hinges from the triangles (replacing any). 0, or -1 with err (CC_ERRLEN bytes)
 * when an edge is shared by more than two triangles or two triangles disagree on orientation. */
int cc_mesh_build_hinges(cc_mesh *m, char *err);

/* A flat nu by nv-vertex grid of physical size width by height in the plane z = 0, with
 * (u,v) = (x,y). Each quad is split along one diagonal; with alternate != 0 the diagonals
 * alternate in a checkerboard. Vertex (i, j), i < nu along x, j < nv along y, is i + nu*j.
 * Hinges are built. NULL with err on bad sizes or out of memory. */
cc_mesh *cc_mesh_grid(int nu, int nv, double width, double height, int alternate, char *err);

/* Write Wavefront OBJ (v, vt from (u,v), f v/vt) to path, atomically (a temporary file is
 * renamed into place, so a failed write leaves no half-written file). 0 or -1 with err. */
int cc_mesh_write_obj(const cc_mesh *m, const char *path, char *err);

/* Read OBJ: v lines as positions, vt as (u,v) (a vertex takes the vt its first face corner
 * names; without vt, (u,v) = (x,y), counted in uv_from_xy: right for a cloth modelled flat in
 * the x-y plane, degenerate for one that is not); polygonal faces are fanned into triangles.
 * Hinges are built. NULL with err naming the file and line of the first problem. */
cc_mesh *cc_mesh_read_obj(const char *path, char *err);

/* 0 if every triangle of m is a rest shape the conditions are defined at: its (u,v) triangle
 * and its rest triangle in space of nonzero area (to 1e-12 of the mesh's extent squared), its
 * vertices apart; -1 with err (CC_ERRLEN) naming the first that is not, and, where its (u,v)
 * are (x,y) for want of vt, saying so */
int cc_mesh_check_rest(const cc_mesh *m, char *err);

/* The largest | |u_i - u_j| / |x_i - x_j| - 1 | over the triangles' edges: how far the (u,v)
 * lengths are from the rest lengths in space (0 for a cloth given flat in the x-y plane, or with
 * vt that lay it out isometrically); *edge_tri the triangle of that edge (-1 if none) */
double cc_mesh_uv_mismatch(const cc_mesh *m, int *edge_tri);

/* Rest data for triangle t (stretch/shear) with area power p, and b_u, b_v; 0 or -1 with err
 * naming the triangle. */
int cc_mesh_triangle_rest(const cc_mesh *m, int t, double area_power, double bu, double bv,
                          cc_rest *r, char *err);

/* Gather the 3*k positions of k vertices idx[0..k) into out. */
void cc_mesh_gather(const cc_mesh *m, const int *idx, int k, double *out);

#endif
