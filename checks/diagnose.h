/* Diagnosis of a failing audit row: what kind of mistake the analytic derivative makes.
 *
 * The row's analytic derivative A and its reference R are compared again on the failing
 * random elements of the batch (up to CC_DIAG_CASES; the row's worst element if no random one
 * fails), and each kind below is tested; a finding is reported when its kind holds on every
 * failing element, or on a part of them (then `share` of `of` says on how many).
 *
 *   sign              A = -R (on the entries that differ)
 *   scale             A = c R with one c over the elements (field factor)
 *   asymmetric        A is a Hessian and not symmetric (field vertices: the blocks' vertices);
 *                     the text says whether its lower or upper triangle, mirrored, or its
 *                     symmetric part (A + A^T)/2 matches R
 *   frozen-magnitude  A matches the derivative of C with the magnitudes of normalised vectors
 *                     frozen (001 Section 4), not R
 *   off-rest          A = R at the rest state (C = 0: the (u,v) triangle laid flat, a flat
 *                     hinge with rest angle 0, a spring at its rest length) and the error grows
 *                     away from it: a dropped term that vanishes at rest
 *   translation       A's vertex blocks do not sum to zero (a rigid translation would change C)
 *   rotation          A is not invariant under rigid rotations
 *   localized         the error lives on some vertices only (field vertices)
 *   direction         every vertex's error vector (for a Hessian: every error block's columns
 *                     or rows) lies along one named vector of the element (field along):
 *                     triangle edges, n, w_u, w_v; hinge e, n^A, n^B; spring d
 *   proportional      A = c R with c changing from element to element (a factor that depends
 *                     on the element); the text names the quantity c follows, if one of the
 *                     element's named quantities does (alpha, areas, |e|, |nA|/|nB|, ...)
 *   relabelled        A is R with the vertices in another order (field text names the map:
 *                     "your x0..x3 are our x2, x0, x1, x3"), or laid out axis-major, or a
 *                     Jacobian transposed; tested against references that are computed, not
 *                     differenced (claim, exact)
 *   component-swap    one component's numbers are another's (C_u's gradient for C_v's)
 *   non-finite        A is NaN or infinite at the worst element (named by its case)
 *   grows-with        the error grows with a feature of the element (fold angle, area ratio of
 *                     the two triangles, aspect ratio, stretch, edge length), or as it shrinks:
 *                     rank correlation at least 0.7 in magnitude over the edge cases and the
 *                     first random elements (48 in all); the report's plots put the error
 *                     against that feature (cc_diagnose_growth)
 *   unknown           none of these fits
 */
#ifndef CC_DIAGNOSE_H
#define CC_DIAGNOSE_H

#include "checks/finding.h"
#include "checks/target.h"



const char *cc_finding_name(cc_finding_kind k);

/* "1, 2" of the vertices in mask into buf */
void cc_vertices_text(unsigned mask, char *buf, int len);

struct cc_audit;
struct cc_audit_row;

/* out = the diagnosis of row w of audit a (a gradient, hessian or hessian-vs-gradient row) */
void cc_diagnose_row(const struct cc_audit *a, const struct cc_audit_row *w, cc_diagnosis *out);

/* the errors of row w on the edge cases and first random elements (48 in all) and the feature of
 * the element they grow with (its name in *name), into error and feature; their count, or 0 if
 * the error grows with none */
int cc_diagnose_growth(const struct cc_audit *a, const struct cc_audit_row *w, double *feature, double *error,
                       const char **name);

/* 1 if the audit diagnoses row w: a failing gradient/Hessian row against an exact-function
 * reference, or against a frozen one when the target does not claim exactness */
int cc_diagnose_wanted(const struct cc_audit *a, const struct cc_audit_row *w);

#endif
