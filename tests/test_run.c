#define _DEFAULT_SOURCE
/* Suite: `clothcheck run` — scripts, arguments, errors with file:line, the sandbox. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "alpha\t42\t0.1.0"));
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

int main(void)
{
    static const cc_test_case tests[] = {
        {"runs a script with arguments", test_runs_with_arguments},
        {"errors name file:line, exit 2", test_error_has_file_line},
        {"missing script or bad option", test_missing_script},
        {"sandbox unless --unsafe", test_sandbox},
        {"os.exit sets the status", test_exit_status},
        {NULL, NULL}};
    return cc_test_main("run", tests);
}
