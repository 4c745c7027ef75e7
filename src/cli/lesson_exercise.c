/* clothcheck lesson N --exercise [DIR] | --solution DIR | --check [DIR] [--hint K]
 *
 * A lesson with an exercise holds, beside lesson.lua:
 *   exercise.lua   the blanks a student fills in, each marked "-- TODO (k): ..."
 *   solution.lua   the worked answer, the same functions filled in
 *   check.lua      the grader: `clothcheck run check.lua DIR [K]` grades DIR/exercise.lua, prints
 *                  each part as passed or failed with the diagnosis and a hint (the K-th hint
 *                  of the first failing part when K is given), and ends with `return false`
 *                  when a part fails (exit status 1)
 * --exercise copies exercise.lua into DIR (default exercises/NNN_name under the current
 * folder), --solution copies solution.lua into DIR as exercise.lua (so --check grades it);
 * neither ever overwrites a file. --check runs check.lua in the script sandbox, with DIR
 * readable and a CPU limit (--cpu-limit S, default CC_CHECK_CPU_LIMIT: a student's endless
 * loop ends). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli/cli.h"
#include "io/files.h"

#define PATH_CAP 1024
#define CC_CHECK_CPU_LIMIT 60.0   /* seconds of CPU a grading may take */

/* 1 if option names an exercise action */
int cc_lesson_is_exercise_option(const char *opt)
{
    return !strcmp(opt, "--exercise") || !strcmp(opt, "--solution") || !strcmp(opt, "--check");
}

/* copy src to dst with a temporary file renamed into place; never over an existing dst */
static int copy_new(const char *src, const char *dst)
{
    char err[CC_ERRLEN];
    struct stat st;
    if (stat(dst, &st) == 0) return cc_cli_error("lesson", "%s exists; not overwriting it (choose another folder)", dst);
    FILE *in = fopen(src, "rb");
    if (!in) return cc_cli_error("lesson", "cannot read %s (this lesson has no exercise yet?)", src);
    cc_outfile o;
    if (cc_outfile_open(&o, dst, err) < 0) {
        fclose(in);
        return cc_cli_error("lesson", "%s", err);
    }
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, n, o.f);
    fclose(in);
    if (cc_outfile_commit(&o, err) < 0) return cc_cli_error("lesson", "%s", err);
    return CC_EXIT_OK;
}

/* buf = a/b (PATH_CAP bytes); 0, or -1 if it does not fit */
static int join(char *buf, const char *a, const char *b)
{
    int n = snprintf(buf, PATH_CAP, "%s/%s", a, b);
    return n > 0 && n < PATH_CAP ? 0 : -1;
}

int cc_lesson_exercise(const char *root, const char *lesson, int argc, char **argv)
{
    const char *action = argv[0], *dir = NULL, *hint = NULL;
    double cpu = CC_CHECK_CPU_LIMIT;
    char def[PATH_CAP], src[PATH_CAP], dst[PATH_CAP], err[256];
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--hint")) {
            if (i + 1 >= argc || atoi(argv[i + 1]) < 1)
                return cc_cli_error("lesson", "--hint needs a hint number 1, 2, ...");
            hint = argv[++i];
        } else if (!strcmp(argv[i], "--cpu-limit")) {
            char *end = NULL;
            if (i + 1 < argc) cpu = strtod(argv[i + 1], &end);
            if (!end || end == argv[i + 1] || *end || !(cpu >= 0 && cpu < 1e9))
                return cc_cli_error("lesson", "--cpu-limit needs a number of seconds >= 0");
            i++;
        } else if (argv[i][0] == '-') {
            return cc_cli_error("lesson", "unknown option '%s' (see clothcheck lesson --help)", argv[i]);
        } else if (!dir) {
            dir = argv[i];
        } else {
            return cc_cli_error("lesson", "unexpected argument '%s'", argv[i]);
        }
    }
    if ((hint || cpu != CC_CHECK_CPU_LIMIT) && strcmp(action, "--check"))
        return cc_cli_error("lesson", "--hint and --cpu-limit go with --check");
    if (!dir && !strcmp(action, "--solution"))
        return cc_cli_error("lesson", "--solution needs a folder (the worked answer is written there as exercise.lua)");
    snprintf(def, sizeof def, "exercises/%s", lesson);
    if (!dir) dir = def;
    if (strcmp(action, "--check") != 0) {
        const char *file = strcmp(action, "--exercise") ? "solution.lua" : "exercise.lua";
        char folder[PATH_CAP];
        if (join(folder, root, lesson) < 0 || join(src, folder, file) < 0 || join(dst, dir, "exercise.lua") < 0)
            return cc_cli_error("lesson", "the folder name is too long");
        struct stat st;
        if (stat(src, &st) != 0) return cc_cli_error("lesson", "lesson %s has no exercise yet (no %s)", lesson, file);
        if (cc_mkdir_p(dir, err) < 0) return cc_cli_error("lesson", "%s", err);
        int rc = copy_new(src, dst);
        if (rc != CC_EXIT_OK) return rc;
        if (!strcmp(action, "--exercise"))
            printf("your exercise: %s\nFill in its TODOs, then grade it: clothcheck lesson %.3s --check %s\n", dst,
                   lesson, dir);
        else
            printf("the worked solution: %s (clothcheck lesson %.3s --check %s grades it)\n", dst, lesson, dir);
        return rc;
    }
    char folder[PATH_CAP];
    if (join(folder, root, lesson) < 0 || join(src, folder, "check.lua") < 0 || join(dst, dir, "exercise.lua") < 0)
        return cc_cli_error("lesson", "the folder name is too long");
    struct stat st;
    if (stat(src, &st) != 0) return cc_cli_error("lesson", "lesson %s has no exercise yet (no check.lua)", lesson);
    if (stat(dst, &st) != 0)
        return cc_cli_error("lesson", "no %s (get it with: clothcheck lesson %.3s --exercise %s)", dst, lesson, dir);
    /* check.lua DIR [K] in the sandbox, reading DIR, writing out/NNN_name, 60 s of CPU */
    char out[PATH_CAP], *rargv[4] = {src, (char *)dir, (char *)hint, NULL};
    snprintf(out, sizeof out, "out/%s", lesson);
    cc_run_opts o = {.argc = hint ? 3 : 2, .argv = rargv, .out = out, .read_extra = dir,
                     .cpu_limit = cpu, .memory_limit = CC_RUN_MEMORY_LIMIT};
    return cc_run_script(&o);
}
