/* clothcheck audit COND --exec "CMD": the engine's audit of the program (checks/exec_audit.h),
 * reported as a table or JSON, with the lines the table does not make and the plots. */
#include <stdio.h>
#include <stdlib.h>
#include "checks/report.h"
#include "cli/audit_exec.h"
#include "cli/cli.h"

int cc_audit_write_plots(const char *dir, const cc_audit *a, int n)
{
    char err[CC_ERRLEN];
    int made = cc_report_plots(dir, a, n, err);
    if (made == -2) return cc_cli_error("audit", "%s", err);
    if (made == -1)
        fprintf(stderr, "clothcheck audit: gnuplot with a png terminal not found: wrote the .dat and .gp files to %s, "
                        "no PNGs\n", dir);
    else if (err[0])
        fprintf(stderr, "clothcheck audit: %s\n", err);
    return 0;
}

int cc_audit_exec(const cc_exec_audit *ea, const cc_exec_output *out)
{
    char err[CC_ERRLEN];
    cc_exec_run *r = malloc(sizeof *r);
    if (!r) return cc_cli_error("audit", "out of memory");
    if (cc_exec_audit_run(ea, r, err) < 0) {
        free(r);
        return cc_cli_error("audit", "%s", err);
    }
    if (r->unsettled)
        fprintf(stderr, "clothcheck audit: the diagnosis stopped asking (%d points it asked for last are left out)\n",
                r->unsettled);
    const cc_audit *a = &r->audit;
    if (out->json_stdout) cc_report_json_identified(stdout, a, 1, &r->id, r->k);
    else cc_report_table(stdout, a, 1);
    if (out->json) cc_report_json_identified(out->json, a, 1, &r->id, r->k);
    cc_exec_report_extras(out->json_stdout ? stderr : stdout, ea, r);
    int rc = out->plots ? cc_audit_write_plots(out->plots, a, 1) : 0;   /* while the memo still holds the answers */
    if (!rc) rc = cc_audit_failed(a) ? CC_EXIT_FAIL : CC_EXIT_OK;
    cc_exec_run_free(r);
    free(r);
    return rc;
}
