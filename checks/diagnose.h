/* Diagnosis of a failing audit row: what kind of mistake the analytic derivative makes.
 *
 * The row's analytic derivative A and its reference R are compared again on the failing
 * random elements of the batch (up to CC_DIAG_CASES; the row's worst element if no random one
 * fails), and each kind below is tested; a finding is reported when its kind holds on every
 * failing element, or on a part of them (then `share` of `of` says on how many).
 *
 * The kinds, the order they are looked for and listed in, and the function that looks for each
 * are the table of kinds.h: adding a kind is one entry there and its detector in diagnose.c.
 * docs/derive.md says what each means, with an example of each.
 */
#ifndef CC_DIAGNOSE_H
#define CC_DIAGNOSE_H

#include "checks/finding.h"
#include "checks/target.h"

/* the name of kind k ("sign", "frozen-magnitude", ...; "?" outside the table) */
const char *cc_finding_name(cc_finding_kind k);

/* kind k's one-line summary (kinds.h) */
const char *cc_finding_summary(cc_finding_kind k);

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
