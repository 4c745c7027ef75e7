/* clothcheck bench --audit: the full audit matrix, timed.
 *
 * One run is exactly what `clothcheck audit --plots DIR` does with its defaults: every
 * registered variant against every reference (1000 random elements each plus the edge
 * cases, step sweeps, Taylor tests), the table (written to /dev/null here) and the plots
 * (into a temporary directory, removed afterwards). The audit engine's goal is a run in
 * under 5 s on the project machine; this reports the median, fastest and slowest of R runs. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "checks/audit.h"
#include "checks/report.h"
#include "checks/target.h"
#include "cli/cli.h"
#include "io/json.h"


/* unlink every file in dir, then dir itself (the plot directory is flat) */
static void remove_flat_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char path[4096];
        while ((e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(dir);
}

/* one run of the full matrix: audits, table to sink, plots into dir (NULL: none);
 * returns its wall time in seconds, and *plots = 1 if PNGs were made */
static double one_run(cc_audit *au, int n, FILE *sink, const char *dir, int *plots)
{
    char err[CC_ERRLEN];
    double t0 = cc_cli_wall();
    cc_audit_opts o = cc_audit_defaults();
    for (int i = 0; i < n; i++) {
        cc_target t = cc_target_from_condition(cc_condition_at(i));
        (void)cc_audit_run(&t, &o, &au[i]);
    }
    cc_report_table(sink, au, n);
    fflush(sink);
    *plots = dir && cc_report_plots(dir, au, n, err) >= 0;
    return cc_cli_wall() - t0;
}

/* clothcheck bench --audit: R timed runs of the audit matrix */
int cc_bench_audit(int repeat, int json)
{
    int n = cc_condition_count();
    cc_audit *au = calloc((size_t)n, sizeof *au);
    double *t = malloc((size_t)repeat * sizeof *t);
    FILE *sink = fopen("/dev/null", "w");
    char dir[] = "/tmp/clothcheck-bench-XXXXXX";
    int have_dir = mkdtemp(dir) != NULL, plots = 0;
    if (!au || !t || !sink) {
        free(au);
        free(t);
        if (sink) fclose(sink);
        if (have_dir) rmdir(dir);
        return cc_cli_error("bench", "out of memory");
    }
    for (int r = 0; r < repeat; r++) {
        t[r] = one_run(au, n, sink, have_dir ? dir : NULL, &plots);
        if (!json) fprintf(stderr, "clothcheck bench: audit run %d of %d: %.2f s\n", r + 1, repeat, t[r]);
    }
    if (have_dir) remove_flat_dir(dir);
    fclose(sink);
    double med = cc_cli_median(t, repeat);   /* sorts t: t[0] fastest, t[repeat - 1] slowest */
    cc_audit_opts o = cc_audit_defaults();
    if (json) {
        printf("{\"audit_runs\": %d, \"variants\": %d, \"samples\": %d, \"plots\": %s, \"audit_s_median\": ", repeat, n,
               o.samples, plots ? "true" : "false");
        cc_json_number(stdout, med);
        printf(", \"audit_s_min\": ");
        cc_json_number(stdout, t[0]);
        printf(", \"audit_s_max\": ");
        cc_json_number(stdout, t[repeat - 1]);
        printf("}\n");
    } else {
        printf("audit matrix: %d variants x every reference, %d samples each, table%s\n", n, o.samples,
               plots ? " and plots" : " (no plots: gnuplot with a png terminal not found)");
        printf("runs             %d\n", repeat);
        printf("seconds per run  %.3f (median), %.3f fastest, %.3f slowest\n", med, t[0], t[repeat - 1]);
        printf("goal             under 5 s: %s\n", med < 5.0 ? "met" : "not met");
    }
    free(au);
    free(t);
    return CC_EXIT_OK;
}
