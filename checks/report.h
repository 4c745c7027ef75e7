/* Reports of audits: a terminal table, JSON, and gnuplot figures.
 *
 * JSON is one object: {"verdict": "pass" | "fail" | "no claim", "options": {"samples", "seed",
 * "edges", "area_power", "precision"}, "identified": {...} (when an identification was made),
 * "rows": [...]}, the rows one per (condition, variant, reference, quantity), each with at
 * least the stable keys
 *   {"condition", "variant", "reference", "quantity", "max_rel_error", "pass",
 *    "worst": {"k", "m", "s"[, "n", "t"], "analytic", "reference"}, "samples"}
 * and further "claim", "gates", "scheme", "step", "tol", "case", "case_id", "seed",
 * "undefined", "note", "sweep" {...}, "diagnosis" [...] and, for taylor rows, "orders".
 * "identified": {"claims": "bend/pritchard", "hessian": "exact" | "frozen-magnitude" |
 * "gauss-newton" | "projected" | "as published", "max_rel_error", "matches": true | false,
 * "elements"} with "area_power", "k" and "vertex_map" where they differ from the request, and
 * "same_as" where another variant gives the same numbers.
 */
#ifndef CC_REPORT_H
#define CC_REPORT_H

#include <stdio.h>
#include "checks/audit.h"

/* the table of n audits: one block per target, its rows, its sweeps, its Taylor orders */
void cc_report_table(FILE *f, const cc_audit *a, int n);

/* the JSON object of n audits: their verdict, options and every row */
void cc_report_json(FILE *f, const cc_audit *a, int n);

struct cc_identity;
/* the same with an audit's identification (NULL: none); k_request the stiffness asked for */
void cc_report_json_identified(FILE *f, const cc_audit *a, int n, const struct cc_identity *id, double k_request);

/* "k0 x1.z" style location of a row's worst entry into buf (size len) */
void cc_report_where(const cc_audit_row *w, char *buf, int len);

/* Plots into dir (which must exist): vcurve_<condition>_<variant>.{dat,gp,png} per audit
 * with sweeps, growth_<condition>_<variant>_<reference>_<quantity>.{dat,gp,png} per row
 * diagnosed grows-with (its error on each element against that feature), and
 * bend_angle.{dat,gp,png} over every 4-vertex target with a hyper-dual value. Returns the number of
 * PNGs made (with a message in err, CC_ERRLEN bytes, if gnuplot drew fewer than asked), -1 if
 * gnuplot is unavailable (data and scripts are written all the same), or -2 if a file could
 * not be written (message in err). */
int cc_report_plots(const char *dir, const cc_audit *a, int n, char *err);

#endif
