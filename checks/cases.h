/* The elements of an audit batch: seeded random elements and named edge cases.
 *
 * A case id replays one element: id >= 0 is random element `id` of stream `seed`
 * (cc_sample_element); id < 0 is edge case -id - 1 for the element's vertex count:
 *   hinges     flat, nearly flat, theta = +-pi/4 (Macri's switch), pi/2, 3pi/4,
 *              theta near +-pi (nearly folded), a thin wing, a long offset wing (these at a flat
 *              rest), and at folded rests: at its rest angle +2, off a rest angle -2.5, and at
 *              -3 with the rest at +3 (across +-pi)
 *   triangles  a near-degenerate world triangle, a sliver (u,v) triangle, large stretch,
 *              strong compression along u, a sheared one
 *   springs    very short, very long, zero rest length
 * Reports print ids as "#17" (random) or "e3:theta=+pi/4" (edge), and --case takes either.
 */
#ifndef CC_CASES_H
#define CC_CASES_H

#include <stdint.h>
#include "checks/sample.h"
#include "checks/sweep.h"

/* edge cases available for elements with nv vertices */
int cc_edge_count(int nv);
/* short name of edge case j (e.g. "theta=+pi/4"), or NULL */
const char *cc_edge_name(int nv, int j);

/* c = the element with case id `id` (see above); 0, or -1 if there is no such case */
int cc_case_make(int nv, uint64_t seed, int id, const cc_sample_opts *o, cc_case *c);

/* "#17" or "e3:theta=+pi/4" into buf (size n) */
void cc_case_label(int nv, int id, char *buf, int n);

/* id from a label "17", "#17", "e3" or "e3:..."; 0, or -1 if malformed or unknown */
int cc_case_parse(int nv, const char *s, int *id);

/* the element (x, r0) of nv vertices as a program whose vertex m is our vertex perm[m] reads it:
 * y_m = x_perm[m], and its rest data relabelled likewise -- a hinge's worked out again from its
 * relabelled rest shape (its theta0 the request's when as_given), a triangle's (u, v) (as given:
 * not at all); 0, or -1 where the relabelled rest is degenerate */
int cc_case_relabel(int nv, const int *perm, int as_given, const double *x, const cc_rest *r0, double *y, cc_rest *r);

#endif
