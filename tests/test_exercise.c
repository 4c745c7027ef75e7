#define _DEFAULT_SOURCE
/* Suite: exercises (clothcheck lesson N --exercise / --solution / --check / --hint).
 *
 * For every lesson that has an exercise: the untouched exercise fails its check (exit 1, with
 * feedback naming the TODO), its last hint is not the code of the answer, the worked solution
 * passes (exit 0), a copy is never overwritten,
 * and each typical wrong answer in tests/exercises/NNN_*.lua gets the diagnosis its second
 * line names ("-- Expected diagnosis: KIND") and, where its third line names one ("-- Expected
 * step: NAME"), the derivation step the stepper finds it departs at; one part fails, or as many
 * as a line "-- Expected failing parts: N" says the mistake is made in (the parts that call a
 * wrong one are graded with its worked answer).
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
    /* a hint beyond the count is refused, saying how many there are */
    CU_ASSERT_EQUAL(cli("lesson %s --check %s --hint 99 --cpu-limit 0", num, "ex"), 2);
    int nhints = 0;
    const char *said = strstr(err, "--hint 99: part (1) has ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(said);
    CU_ASSERT_EQUAL(sscanf(said, "--hint 99: part (1) has %d hints", &nhints), 1);
    CU_ASSERT(nhints >= 2);
    /* the last hint says what to check; it does not print the code of the answer */
    char last_hint[16];
    snprintf(last_hint, sizeof last_hint, "%d", nhints);
    char fmt[64];
    snprintf(fmt, sizeof fmt, "lesson %%s --check %%s --hint %s --cpu-limit 0", last_hint);
    CU_ASSERT_EQUAL(cli(fmt, num, "ex"), 1);
    const char *last = strstr(out, "\nHint ");
    CU_ASSERT_PTR_NOT_NULL(last);
    if (last) {
        char hint[1024];
        snprintf(hint, sizeof hint, "%.*s", (int)strcspn(last + 1, "\n"), last + 1);
        static const char *const code[] = {"return ", " * ", "] = ", "= {"};
        for (size_t i = 0; i < sizeof code / sizeof code[0]; i++) {
            if (strstr(hint, code[i])) fprintf(stderr, "lesson %s: the last hint reads like code ('%s'): %s\n", num, code[i], hint);
            CU_ASSERT_PTR_NULL(strstr(hint, code[i]));
        }
    }
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
        char more[256] = "", step[128] = "";
        int failing = 1;
        CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof line, f));
        CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof line, f));
        while (fgets(more, sizeof more, f) && !strncmp(more, "-- Expected ", 12)) {
            sscanf(more, "-- Expected step: %127[^\n]", step);
            sscanf(more, "-- Expected failing parts: %d", &failing);
        }
        fclose(f);
        CU_ASSERT_EQUAL_FATAL(sscanf(line, "-- Expected diagnosis: %63s", kind), 1);
        snprintf(cmd, sizeof cmd, "rm -rf w && mkdir w && cp '%s' w/exercise.lua", src);
        CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
        CU_ASSERT_EQUAL(check(num, "w"), 1);
        strcat(kind, ": ");
        if (!strstr(out, kind)) fprintf(stderr, "%s: expected '%s' in\n%s\n", e->d_name, kind, out);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, kind));
        /* one mistake fails one part (or the parts the file says it is made in): the parts
         * calling it are graded with its worked answer */
        int n_failed = 0;
        for (const char *p = out; (p = strstr(p, "FAILED")); p++) n_failed++;
        if (n_failed != failing) fprintf(stderr, "%s: %d parts FAILED, expected %d\n%s\n", e->d_name, n_failed, failing, out);
        CU_ASSERT_EQUAL(n_failed, failing);
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

/* grade typical wrong answer tests/exercises/FILE of lesson `num` in a fresh folder */
static int check_wrong(const char *num, const char *file)
{
    char cmd[1400];
    scratch();
    snprintf(cmd, sizeof cmd, "mkdir w && cp '%s/tests/exercises/%s' w/exercise.lua", CC_SOURCE_DIR, file);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    return check(num, "w");
}

/* each line of `want` appears in the grader's output */
static void expect_lines(const char *const *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!strstr(out, want[i])) fprintf(stderr, "expected \"%s\" in\n%s\n", want[i], out);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, want[i]));
    }
}

/* A wrong part (1) fails (1) alone: (2) and (3) call it and are graded with its worked answer
 * (passed), then with the student's own parts, which fail because of (1) -- through a function
 * (502's force Jacobian) and through a metatable the exercise builds on (403's hyper-duals). */
static void test_worked_parts(void)
{
    CU_ASSERT_EQUAL(check_wrong("502", "502_no_c_term.lua"), 1);
    static const char *const l502[] = {
        "(2) the system A, b              passed (graded with the worked (1))",
        "with your own (1) it fails, because of (1): A: off the right values",
        "(3) the step x1, v1              passed (graded with the worked (2))",
        "with your own (1), (2) it fails, because of (1)",
        "1 of 3 parts to do.",
        "The whole chain, with your own parts: (2) fails with your (1); (3) fails with your (1)."};
    expect_lines(l502, sizeof l502 / sizeof l502[0]);
    CU_ASSERT_EQUAL(check_wrong("403", "403_no_cross_terms.lua"), 1);
    static const char *const l403[] = {
        "(2) hyper-dual sqrt              passed\n",
        "(3) exact Hessian                passed (graded with the worked (1), (2))",
        "with your own (1), (2) it fails, because of (1): the Hessian of C_u: off",
        "1 of 3 parts to do."};
    expect_lines(l403, sizeof l403 / sizeof l403[0]);
    /* a wrong (2) with a right (1): (3) fails with the student's (2) only */
    CU_ASSERT_EQUAL(check_wrong("403", "403_sqrt_first_order.lua"), 1);
    static const char *const l403b[] = {"(1) hyper-dual product           passed",
                                        "with your own (1), (2) it fails, because of (2):"};
    expect_lines(l403b, sizeof l403b / sizeof l403b[0]);
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
        {"a wrong early part: later parts graded with its worked answer", test_worked_parts},
        {"bad input", test_bad_input},
        {"grading in the sandbox", test_check_sandboxed},
        {NULL, NULL}};
    return cc_test_main("exercise", tests);
}
