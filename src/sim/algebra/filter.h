/* The constraint filter S of MPCG (Baraff & Witkin 5.3) and the vector helpers below both
 * solvers: per vertex a 3x3 projector S_i onto the directions it may move in (I free,
 * I - p p^T sliding in a plane, I - p p^T - q q^T on a line, 0 pinned), stored for the
 * constrained vertices only, and a dot product. mpcg.h and multigrid.h build on this.
 */
#ifndef CC_FILTER_H
#define CC_FILTER_H

/* The constraint filter S, stored for the constrained vertices only. */
typedef struct cc_filter {
    int n;        /* vertices */
    int nc;       /* constrained vertices */
    int cap;      /* capacity of idx and S, in vertices */
    int *idx;     /* nc: the constrained vertices, each once */
    double *S;    /* 9*nc: S_i of idx[c], row-major 3x3 */
    int *pos;     /* n: c with idx[c] = v, or -1 for a free vertex */
} cc_filter;

/* filter for n vertices, all free; NULL when out of memory */
cc_filter *cc_filter_new(int n);
void cc_filter_free(cc_filter *F);
/* all vertices free again */
void cc_filter_clear(cc_filter *F);
/* S_v = S (row-major 3x3, a projector); replaces an earlier S_v; 0 or -1 (bad v, no memory) */
int cc_filter_set(cc_filter *F, int v, const double S[9]);
/* S_v for vertex v into S, or the identity when v is free */
void cc_filter_get(const cc_filter *F, int v, double S[9]);
/* r = S r (3n) */
void cc_filter_apply(const cc_filter *F, double *r);
/* r = S r (4 doubles per vertex, lane 3 untouched) */
void cc_filter_apply4(const cc_filter *F, double *r);

/* a . b over n entries (four interleaved partial sums) */
double cc_dot(const double *a, const double *b, int n);

#endif
