#define _DEFAULT_SOURCE
/* Suite: `clothcheck run` — scripts, arguments, errors with file:line, the sandbox. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "api/clothcheck.h"
#include "cc_test.h"

static char out[1 << 14], err[1 << 12];

/* write text to a fresh temporary .lua file; path receives its name */
static void script(char *path, const char *text)
{
    strcpy(path, "/tmp/cc_run_XXXXXX.lua");
    int fd = mkstemps(path, 4);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
}

static int run(const char *path, const char *extra)
{
    char args[512];
    snprintf(args, sizeof args, "run %s %s", path, extra);
    return cc_test_run_cli(args, out, sizeof out, err, sizeof err);
}

static void test_runs_with_arguments(void)
{
    char p[64];
    script(p, "local cc = require 'clothcheck'\nprint(arg[1], arg[2], cc.version)\n");
    CU_ASSERT_EQUAL(run(p, "alpha 42"), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "alpha\t42\t" CLOTHCHECK_VERSION "\n"));
    remove(p);
}

/* A runtime error: exit 2, one line on stderr naming file:line. */
static void test_error_has_file_line(void)
{
    char p[64], want[96];
    script(p, "local x = 1\nlocal y = x + nil\n");
    CU_ASSERT_EQUAL(run(p, ""), 2);
    snprintf(want, sizeof want, "%s:2:", p);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
    CU_ASSERT_EQUAL(cc_test_count_lines(err), 1);
    remove(p);
    script(p, "local cc = require 'clothcheck'\n\ncc.grid(1, 1)\n");
    CU_ASSERT_EQUAL(run(p, ""), 2);
    snprintf(want, sizeof want, "%s:3: bad argument #1 to 'grid'", p);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
    remove(p);
    script(p, "this is not lua\n");
    CU_ASSERT_EQUAL(run(p, ""), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, ":1:"));
    remove(p);
}

static void test_missing_script(void)
{
    CU_ASSERT_EQUAL(cc_test_run_cli("run /nonexistent/x.lua", out, sizeof out, err, sizeof err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot open"));
    CU_ASSERT_EQUAL(cc_test_run_cli("run", out, sizeof out, err, sizeof err), 2);
    CU_ASSERT_EQUAL(cc_test_run_cli("run --frob x.lua", out, sizeof out, err, sizeof err), 2);
}

/* Without --unsafe a script cannot start programs; with it, it can. */
static void test_sandbox(void)
{
    char p[64];
    script(p, "os.execute('true')\n");
    CU_ASSERT_EQUAL(run(p, ""), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "execute"));
    remove(p);
    script(p, "io.popen('true')\n");
    CU_ASSERT_EQUAL(run(p, ""), 2);
    remove(p);
    script(p, "assert(os.execute('true'))\n");
    char args[128];
    snprintf(args, sizeof args, "run --unsafe %s", p);
    CU_ASSERT_EQUAL(cc_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
    remove(p);
}

/* os.exit from a script sets the exit status. */
static void test_exit_status(void)
{
    char p[64];
    script(p, "os.exit(3)\n");
    CU_ASSERT_EQUAL(run(p, ""), 3);
    remove(p);
}

/* count the lines of file path, and whether it ends in a newline; -1 if it cannot be read */
static int file_lines(const char *path, int *ends_in_newline)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    int n = 0, c, last = 0;
    while ((c = fgetc(f)) != EOF) n += (last = c) == '\n';
    fclose(f);
    *ends_in_newline = last == '\n';
    return n;
}

/* SIGINT inside one long C call: sim:step(n) and sim:advance(T) stop between steps and the
 * script ends with status 130 (without the check the call would run its hundred million steps
 * first; the shell kills it after 60 s and the status is then 137) */
static void test_sigint_in_step(void)
{
    char p[64], args[512];
    script(p, "local cc = require 'clothcheck'\nlocal s = cc.sim(cc.grid(4, 40, 0.3, 0.3), {h = 0.01})\n"
              "s:pin(13)\nio.write('started\\n') io.flush()\nprint(s:step(100000000))\n");
    char p2[64];
    script(p2, "local cc = require 'clothcheck'\nlocal s = cc.sim(cc.grid(4, 40, 0.3, 0.3), {h = 0.01})\n"
               "s:pin(13)\nio.write('started\\n') io.flush()\nprint(s:advance(1000000))\n");
    snprintf(args, sizeof args,
             "run --out /tmp/cc_run_step_out %s >/tmp/cc_run_step.out 2>/dev/null & pid=$!; n=0; "
             "until grep -q started /tmp/cc_run_step.out || [ $n -gt 300 ]; do sleep 0.1; n=$((n+1)); done; "
             "sleep 0.3; kill -INT $pid; (sleep 60; kill -KILL $pid) >/dev/null 2>&1 & w=$!; wait $pid; rc=$?; "
             "kill $w 2>/dev/null; exit $rc", p);
    CU_ASSERT_EQUAL(cc_test_run_cli(args, out, sizeof out, err, sizeof err), 130);
    remove("/tmp/cc_run_step.out");
    char *sp = strstr(args, p);   /* the same with sim:advance(T) */
    CU_ASSERT_PTR_NOT_NULL_FATAL(sp);
    memcpy(sp, p2, strlen(p2));
    CU_ASSERT_EQUAL(cc_test_run_cli(args, out, sizeof out, err, sizeof err), 130);
    remove("/tmp/cc_run_step.out");
}

/* SIGINT in the middle of a script that keeps rewriting a CSV: it ends at its next
 * instruction with one line and status 130, and the CSV is whole (header + 20000 rows) with no
 * temporary file beside it */
static void test_sigint(void)
{
    char p[64], dir[] = "/tmp/cc_run_intXXXXXX", args[512];
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    script(p, "local cc = require 'clothcheck'\nlocal rows = {}\nfor i = 1, 20000 do rows[i] = {i, i * i} end\n"
              "io.write('started\\n') io.flush()\n"
              "while true do assert(cc.write_csv(cc.outdir() .. '/t.csv', {'i', 'sq'}, rows))\n"
              "  pcall(function() for k = 1, 1e5 do end end) end\n");
    char errfile[64] = "/tmp/cc_run_interrXXXXXX";   /* room for the ".out" appended below */
    int fd = mkstemp(errfile);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    /* the script runs in the background (its own stderr to errfile); the shell waits for it */
    snprintf(args, sizeof args,
             "run --out %s %s >%s.out 2>%s & pid=$!; n=0; until grep -q started %s.out || [ $n -gt 300 ]; do "
             "sleep 0.1; n=$((n+1)); done; sleep 0.5; kill -INT $pid; wait $pid",
             dir, p, errfile, errfile, errfile);
    int rc = cc_test_run_cli(args, out, sizeof out, err, sizeof err);
    CU_ASSERT_EQUAL(rc, 130);
    char *msg = cc_test_read_file(errfile);
    CU_ASSERT_PTR_NOT_NULL_FATAL(msg);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "interrupted (SIGINT)"));
    CU_ASSERT_EQUAL(cc_test_count_lines(msg), 1);
    free(msg);
    remove(errfile);
    strcat(errfile, ".out");
    remove(errfile);
    char csv[128], cmd[160];
    int nl = 0;
    snprintf(csv, sizeof csv, "%s/t.csv", dir);
    CU_ASSERT_EQUAL(file_lines(csv, &nl), 20001);
    CU_ASSERT(nl);
    snprintf(cmd, sizeof cmd, "test $(ls -A %s | wc -l) -eq 1", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
    remove(csv);
    rmdir(dir);
    remove(p);
}

/* without gnuplot on PATH: the data and the scripts are written, and one line on stderr says
 * how to draw them (once, however many plots) */
static void test_no_gnuplot(void)
{
    char p[64], dir[] = "/tmp/cc_run_gpXXXXXX", args[256];
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    script(p, "local cc = require 'clothcheck'\n"
              "for _, n in ipairs({'one', 'two'}) do\n"
              "  local ok, msg = cc.plot{name = n, series = {{x = {1, 2}, y = {3, 4}}}}\n"
              "  assert(ok == false and msg:find('gnuplot not found'))\nend\n");
    const char *path = getenv("PATH");
    char *keep = path ? strdup(path) : NULL;
    setenv("PATH", "/nonexistent", 1);
    snprintf(args, sizeof args, "run --out %s %s", dir, p);
    int rc = cc_test_run_cli(args, out, sizeof out, err, sizeof err);
    if (keep) setenv("PATH", keep, 1), free(keep);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_EQUAL(cc_test_count_lines(err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "gnuplot not found"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "gnuplot one.gp"));
    const char *files[] = {"one.dat", "one.gp", "two.dat", "two.gp"};
    for (size_t i = 0; i < 4; i++) {
        char f[128];
        snprintf(f, sizeof f, "%s/%s", dir, files[i]);
        CU_ASSERT_EQUAL(access(f, R_OK), 0);
        remove(f);
    }
    rmdir(dir);
    remove(p);
}

int main(void)
{
    static const cc_test_case tests[] = {
        {"runs a script with arguments", test_runs_with_arguments},
        {"errors name file:line, exit 2", test_error_has_file_line},
        {"missing script or bad option", test_missing_script},
        {"sandbox unless --unsafe", test_sandbox},
        {"os.exit sets the status", test_exit_status},
        {"SIGINT ends a script, outputs whole", test_sigint},
        {"SIGINT ends a long sim:step(n) or sim:advance(T) between steps", test_sigint_in_step},
        {"without gnuplot: data, scripts, one line", test_no_gnuplot},
        {NULL, NULL}};
    return cc_test_main("run", tests);
}
