/* Reports of audits: a terminal table, JSON rows, and gnuplot figures.
 *
 * JSON is one list of rows, one per (condition, variant, reference, quantity), each with at
 * least the stable keys
 *   {"condition", "variant", "reference", "quantity", "max_rel_error", "pass",
 *    "worst": {"k", "m", "s"[, "n", "t"], "analytic", "reference"}, "samples"}
 * and further "claim", "gates", "scheme", "step", "tol", "case", "case_id", "seed",
 * "undefined", "note", "sweep" {...} and, for taylor rows, "orders".
 */
#ifndef CC_REPORT_H
#define CC_REPORT_H

#include <stdio.h>
#include "checks/audit.h"

/* the table of n audits: one block per target, its rows, its sweeps, its Taylor orders */
void cc_report_table(FILE *f, const cc_audit *a, int n);

/* the JSON list of every row of n audits */
void cc_report_json(FILE *f, const cc_audit *a, int n);

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
