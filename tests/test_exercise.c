#define _DEFAULT_SOURCE
/* Suite: exercises (clothcheck lesson N --exercise / --solution / --check / --hint).
 *
 * For every lesson that has an exercise: the untouched exercise fails its check (exit 1, with
 * feedback naming the TODO), the worked solution passes (exit 0), a copy is never overwritten,
 * and each typical wrong answer in tests/exercises/NNN_*.lua gets the diagnosis its second
 * line names ("-- Expected diagnosis: KIND") and, where its third line names one ("-- Expected
 * step: NAME"), the derivation step the stepper finds it departs at.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cc_test.h"

static char out[1 << 16], err[1 << 14];

/* a fresh scratch folder, made the working directory */
static void scratch(void)
{
    char dir[] = "/tmp/cc_exerciseXXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    CU_ASSERT_EQUAL_FATAL(chdir(dir), 0);
}

/* 1 if lesson folder `name` has an exercise */
static int has_exercise(const char *name)
{
    char path[1024];
    struct stat st;
    snprintf(path, sizeof path, "%s/lessons/%s/exercise.lua", CC_SOURCE_DIR, name);
    return stat(path, &st) == 0;
}

static int cli(const char *fmt, const char *a, const char *b)
{
    char args[512];
    snprintf(args, sizeof args, fmt, a, b);
    return cc_test_run_cli(args, out, sizeof out, err, sizeof err);
}

/* grade exercise folder `dir` of lesson `num` with no CPU limit: the grading gets the time it
 * needs on any machine (test_check_sandboxed tests the limit with endless work) */
static int check(const char *num, const char *dir)
{
    return cli("lesson %s --check %s --cpu-limit 0", num, dir);
}

static void one_lesson(const char *name)
{
    char num[4];
    snprintf(num, sizeof num, "%.3s", name);
    CU_ASSERT_EQUAL(cli("lesson %s --exercise %s", num, "ex"), 0);
    CU_ASSERT_EQUAL(cli("lesson %s --exercise %s", num, "ex"), 2);     /* never overwritten */
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "ex/exercise.lua exists"));
    CU_ASSERT_EQUAL(check(num, "ex"), 1);                              /* the blanks fail */
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "FAILED"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "fill in TODO (1)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "hint: "));
    CU_ASSERT_EQUAL(cli("lesson %s --check %s --hint 2 --cpu-limit 0", num, "ex"), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "Hint 2 of"));
    CU_ASSERT_EQUAL(cli("lesson %s --solution %s", num, "sol"), 0);
    CU_ASSERT_EQUAL(check(num, "sol"), 0);                             /* the solution passes */
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "Every part passes"));
    CU_ASSERT_PTR_NULL(strstr(out, "FAILED"));

    /* typical wrong answers */
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tests/exercises", CC_SOURCE_DIR);
    DIR *d = opendir(dir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int wrong = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (strncmp(e->d_name, num, 3) || !strstr(e->d_name, ".lua")) continue;
        char src[1300], line[256] = "", kind[64] = "", cmd[2800];
        snprintf(src, sizeof src, "%s/%s", dir, e->d_name);
        FILE *f = fopen(src, "r");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        char third[256] = "", step[128] = "";
        CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof line, f));
        CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof line, f));
        if (fgets(third, sizeof third, f)) sscanf(third, "-- Expected step: %127[^\n]", step);
        fclose(f);
        CU_ASSERT_EQUAL_FATAL(sscanf(line, "-- Expected diagnosis: %63s", kind), 1);
        snprintf(cmd, sizeof cmd, "rm -rf w && mkdir w && cp '%s' w/exercise.lua", src);
        CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
        CU_ASSERT_EQUAL(check(num, "w"), 1);
        strcat(kind, ": ");
        if (!strstr(out, kind)) fprintf(stderr, "%s: expected '%s' in\n%s\n", e->d_name, kind, out);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, kind));
        if (step[0]) {   /* the derivation stepper names the first step that departs */
            char want[200];
            snprintf(want, sizeof want, "departs at step '%s'", step);
            if (!strstr(out, want)) fprintf(stderr, "%s: expected \"%s\" in\n%s\n", e->d_name, want, out);
            CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
        }
        wrong++;
    }
    closedir(d);
    CU_ASSERT(wrong >= 1);
}

static void test_every_exercise(void)
{
    char root[1024];
    snprintf(root, sizeof root, "%s/lessons", CC_SOURCE_DIR);
    DIR *d = opendir(root);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!has_exercise(e->d_name)) continue;
        scratch();
        one_lesson(e->d_name);
        n++;
    }
    closedir(d);
    CU_ASSERT(n >= 1);
}

static void test_bad_input(void)
{
    scratch();
    const char *bad[] = {"lesson 102 --check nowhere", "lesson 102 --solution", "lesson 102 --exercise a b",
                         "lesson 102 --exercise x --hint 1", "lesson 102 --check x --hint", "lesson 102 --check --frob"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = cc_test_run_cli(bad[i], out, sizeof out, err, sizeof err);
        if (rc != 2) fprintf(stderr, "'%s' exited %d\n", bad[i], rc);
        CU_ASSERT_EQUAL(rc, 2);
        CU_ASSERT_EQUAL(cc_test_count_lines(err), 1);
    }
    /* a lesson without an exercise */
    CU_ASSERT_EQUAL_FATAL(system("mkdir -p lessons/901_plain && echo 'print(1)' > lessons/901_plain/lesson.lua"), 0);
    setenv("CLOTHCHECK_LESSONS", "lessons", 1);
    CU_ASSERT_EQUAL(cc_test_run_cli("lesson 901 --exercise x", out, sizeof out, err, sizeof err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "has no exercise yet"));
    unsetenv("CLOTHCHECK_LESSONS");
}

/* the grading runs in the sandbox under a CPU limit: an exercise that reads outside, writes
 * outside or never ends is stopped with one line naming what it did */
static void test_check_sandboxed(void)
{
    scratch();
    static const char *const cases[][2] = {
        {"io.open('/etc/passwd')\nreturn {}", "sandbox: cannot read '/etc/passwd'"},
        {"io.open('../planted', 'w')\nreturn {}", "sandbox: cannot write '../planted'"},
        {"while true do end", "CPU limit of 1 s reached"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        FILE *f = fopen("exercise.lua", "w");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        fputs(cases[i][0], f);
        fclose(f);
        CU_ASSERT_EQUAL(cli("lesson %s --check . --cpu-limit %s", "102", "1"), 2);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, cases[i][1]));
        CU_ASSERT_EQUAL(cc_test_count_lines(err), 1);
        remove("exercise.lua");
    }
    CU_ASSERT_EQUAL(access("../planted", F_OK), -1);
    CU_ASSERT_EQUAL(cli("lesson %s --exercise x --cpu-limit %s", "102", "1"), 2);
}

int main(void)
{
    static const cc_test_case tests[] = {
        {"every exercise: blanks fail, solution passes, wrong answers diagnosed", test_every_exercise},
        {"bad input", test_bad_input},
        {"grading in the sandbox", test_check_sandboxed},
        {NULL, NULL}};
    return cc_test_main("exercise", tests);
}
