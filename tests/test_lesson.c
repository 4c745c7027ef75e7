#define _DEFAULT_SOURCE
/* Suite: `clothcheck lesson` — listing, running a lesson by number or name, errors. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cc_test.h"

static char out[1 << 15], err[1 << 12];
static char root[64];   /* a temporary lessons folder, made by make_lessons */

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

/* root/<name>/lesson.lua = text */
static void add_lesson(const char *name, const char *text)
{
    char dir[192];
    snprintf(dir, sizeof dir, "%s/%s", root, name);
    CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0700), 0);
    if (text) write_file(dir, "lesson.lua", text);
}

/* a lessons folder with three lessons, a folder without lesson.lua and one with a bad name;
 * CLOTHCHECK_LESSONS points at it */
static void make_lessons(void)
{
    strcpy(root, "/tmp/cc_lessons_XXXXXX");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(root));
    add_lesson("202_second", "-- Lesson 202: the second one\n-- Difficulty: 3 of 3\n"
                             "print('second ran', arg[1])\n");
    add_lesson("101_first", "-- Lesson 101: the first one\n-- Difficulty: 1 of 3\n"
                            "print('first ran')\n");
    add_lesson("203_failing", "-- Lesson 203: a lesson whose check fails\n"
                              "assert(1 + 1 == 3, 'arithmetic is broken')\n");
    add_lesson("204_empty", NULL);
    add_lesson("notes", "print('not a lesson')\n");
    setenv("CLOTHCHECK_LESSONS", root, 1);
}

static void remove_lessons(void)
{
    static const char *const dirs[] = {"202_second", "101_first", "203_failing", "204_empty", "notes", "301_where"};
    char path[256];
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(path, sizeof path, "%s/%s/lesson.lua", root, dirs[i]);
        remove(path);
        snprintf(path, sizeof path, "%s/%s", root, dirs[i]);
        rmdir(path);
    }
    rmdir(root);
    unsetenv("CLOTHCHECK_LESSONS");
}

/* The listing: sorted by number, titles and difficulty from the header, non-lessons skipped. */
static void test_list(void)
{
    make_lessons();
    CU_ASSERT_EQUAL(cc_test_run_cli("lesson", out, sizeof out, err, sizeof err), 0);
    const char *a = strstr(out, "101  first"), *b = strstr(out, "202  second");
    CU_ASSERT_PTR_NOT_NULL(a);
    CU_ASSERT_PTR_NOT_NULL(b);
    CU_ASSERT(a && b && a < b);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "the first one"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "3     the second one"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "?     a lesson whose check fails"));
    CU_ASSERT_PTR_NULL(strstr(out, "empty"));
    CU_ASSERT_PTR_NULL(strstr(out, "notes"));
    CU_ASSERT_EQUAL(err[0], '\0');
    remove_lessons();
}

/* Running by number, by name prefix, with arguments; a failing lesson exits 2. */
static void test_run(void)
{
    make_lessons();
    CU_ASSERT_EQUAL(cc_test_run_cli("lesson 101", out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "first ran"));
    CU_ASSERT_EQUAL(cc_test_run_cli("lesson second hello", out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "second ran\thello"));
    CU_ASSERT_EQUAL(cc_test_run_cli("lesson 202_sec", out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(cc_test_run_cli("lesson 203", out, sizeof out, err, sizeof err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "203_failing/lesson.lua:2: arithmetic is broken"));
    remove_lessons();
}

/* Unknown, ambiguous, options, a missing folder: one line on stderr, exit 2. */
static void test_errors(void)
{
    make_lessons();
    CU_ASSERT_EQUAL(cc_test_run_cli("lesson 999", out, sizeof out, err, sizeof err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "no lesson '999'"));
    CU_ASSERT_EQUAL(cc_test_run_cli("lesson 2", out, sizeof out, err, sizeof err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "names 2 lessons"));
    CU_ASSERT_EQUAL(cc_test_count_lines(err), 1);
    CU_ASSERT_EQUAL(cc_test_run_cli("lesson empty", out, sizeof out, err, sizeof err), 2);
    CU_ASSERT_EQUAL(cc_test_run_cli("lesson --frob", out, sizeof out, err, sizeof err), 2);
    CU_ASSERT_EQUAL(cc_test_count_lines(err), 1);
    CU_ASSERT_EQUAL(cc_test_run_cli("lesson --help", out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "usage: clothcheck lesson"));
    remove_lessons();
    setenv("CLOTHCHECK_LESSONS", "/nonexistent/lessons", 1);
    CU_ASSERT_EQUAL(cc_test_run_cli("lesson", out, sizeof out, err, sizeof err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot read the lessons folder"));
    CU_ASSERT_EQUAL(cc_test_count_lines(err), 1);
    unsetenv("CLOTHCHECK_LESSONS");
}

/* A lesson run by file, clothcheck run DIR/NNN_name/lesson.lua, writes into out/NNN_name as
 * clothcheck lesson NNN does, not into a folder out/lesson that every lesson would share; a
 * script of another name keeps out/<script name>. */
static void test_run_by_file_out(void)
{
    make_lessons();
    add_lesson("301_where", "print('outdir=' .. require('clothcheck').outdir())\n");
    char cmd[256];
    snprintf(cmd, sizeof cmd, "run %s/301_where/lesson.lua", root);
    CU_ASSERT_EQUAL(cc_test_run_cli(cmd, out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "outdir=out/301_where\n"));
    CU_ASSERT_EQUAL(cc_test_run_cli("lesson 301", out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "outdir=out/301_where\n"));
    rmdir("out/301_where");
    remove_lessons();
}

/* The options of --check given without it are refused, not passed to the lesson as arguments. */
static void test_check_options_alone(void)
{
    CU_ASSERT_EQUAL(cc_test_run_cli("lesson 101 --hint 2", out, sizeof out, err, sizeof err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "--hint goes with --check (clothcheck lesson 101 --check --hint ...)"));
    CU_ASSERT_EQUAL(cc_test_count_lines(err), 1);
    CU_ASSERT_EQUAL(out[0], '\0');
    CU_ASSERT_EQUAL(cc_test_run_cli("lesson 101 --cpu-limit 5", out, sizeof out, err, sizeof err), 2);
    CU_ASSERT_EQUAL(cc_test_count_lines(err), 1);
}

/* The project's own lessons: listed from the source tree, and lesson 101 passes. */
static void test_project_lessons(void)
{
    unsetenv("CLOTHCHECK_LESSONS");
    CU_ASSERT_EQUAL(cc_test_run_cli("lesson", out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, CC_SOURCE_DIR "/lessons"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "101  per_triangle"));
    CU_ASSERT_EQUAL(cc_test_run_cli("lesson 101", out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "All checks passed."));
}

/* Every lesson's script keeps to lessons/README.md's rule: under 200 lines, a header first. */
static void test_project_lesson_size(void)
{
    char root[1024];
    snprintf(root, sizeof root, "%s/lessons", CC_SOURCE_DIR);
    DIR *d = opendir(root);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        char path[1400], line[512];
        snprintf(path, sizeof path, "%s/%s/lesson.lua", root, e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        int lines = 0, c, header = fgets(line, sizeof line, f) && !strncmp(line, "-- Lesson ", 10);
        rewind(f);
        while ((c = fgetc(f)) != EOF) lines += c == '\n';
        fclose(f);
        if (lines >= 200 || !header) fprintf(stderr, "%s: %d lines, header %s\n", path, lines, header ? "yes" : "no");
        CU_ASSERT(lines < 200);
        CU_ASSERT(header);
        n++;
    }
    closedir(d);
    CU_ASSERT(n >= 19);
}

static const cc_test_case tests[] = {
    {"list", test_list},
    {"run", test_run},
    {"run by file: out/NNN_name", test_run_by_file_out},
    {"--hint without --check", test_check_options_alone},
    {"errors", test_errors},
    {"project lessons", test_project_lessons},
    {"project lessons under 200 lines, with a header", test_project_lesson_size},
    {NULL, NULL},
};

int main(void) { return cc_test_main("lesson", tests); }
