/* clothcheck lesson: list the numbered lessons, or run one.
 *
 * A lesson is a folder NNN_name (a chapter digit, two more digits, a name) holding
 * lesson.lua, found in $CLOTHCHECK_LESSONS if set, else in CC_SOURCE_DIR/lessons. The
 * listing takes each lesson's title from the first line of lesson.lua ("-- Lesson 101:
 * title") and its difficulty from a "-- Difficulty: N" line in the header. Running a
 * lesson is `clothcheck run --out out/NNN_name DIR/NNN_name/lesson.lua ARGS...`: in the
 * sandbox, writing into out/NNN_name. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

#ifndef CC_SOURCE_DIR
#define CC_SOURCE_DIR "."
#endif

#define CC_LESSON_MAX   200     /* lessons listed, at most */
#define CC_LESSON_NAME  64      /* folder name, bytes with the NUL */
#define CC_LESSON_PATH  1024    /* path of a lesson.lua, bytes with the NUL */

typedef struct cc_lesson {
    char dir[CC_LESSON_NAME];   /* folder name, e.g. "101_per_triangle" */
} cc_lesson;

static void lesson_usage(FILE *f)
{
    fputs("usage: clothcheck lesson [N | NAME] [ARGS...]\n"
          "       clothcheck lesson N --exercise [DIR] | --solution DIR\n"
          "       clothcheck lesson N --check [DIR] [--hint K] [--cpu-limit S]\n"
          "\n"
          "Without N, list the lessons: number, name, difficulty (1-3) and title.\n"
          "With N (\"102\") or the start of a folder or lesson name (\"102_stretch\", \"stretch\"),\n"
          "run that lesson's lesson.lua as `clothcheck run` would, passing ARGS on to it.\n"
          "\n"
          "Exercises (lessons that have one): --exercise copies the exercise, with its blanks\n"
          "marked TODO, into DIR (default exercises/NNN_name); --solution copies the worked\n"
          "answer into DIR as exercise.lua; --check grades DIR/exercise.lua part by part, with\n"
          "the diagnosis of each mistake and a first hint (--hint K: the K-th hint of the first\n"
          "failing part). Nothing is ever overwritten. Lessons and gradings run in the script\n"
          "sandbox (docs/security.md), writing only into out/NNN_name; a grading stops after\n"
          "S seconds of CPU (default 60).\n"
          "\n"
          "Lessons are read from $CLOTHCHECK_LESSONS if it is set, else from\n"
          "  " CC_SOURCE_DIR "/lessons\n"
          "\n"
          "Exit status: 0 the lesson's checks (or every part of the exercise) passed, 1 a part\n"
          "of the exercise failed, 2 an assertion or error in the lesson, bad input or an\n"
          "unknown lesson (one line on stderr).\n", f);
}

/* 1 if name looks like a lesson folder: three digits, '_', at least one more character */
static int lesson_name_ok(const char *name)
{
    for (int i = 0; i < 3; i++)
        if (name[i] < '0' || name[i] > '9') return 0;
    return name[3] == '_' && name[4] != '\0' && strlen(name) < CC_LESSON_NAME;
}

/* path = root/dir/lesson.lua; 0, or -1 if it does not fit */
static int lesson_path(char *path, const char *root, const char *dir)
{
    int n = snprintf(path, CC_LESSON_PATH, "%s/%s/lesson.lua", root, dir);
    return n > 0 && n < CC_LESSON_PATH ? 0 : -1;
}

static int lesson_cmp(const void *a, const void *b)
{
    return strcmp(((const cc_lesson *)a)->dir, ((const cc_lesson *)b)->dir);
}

/* the lessons under root, sorted by folder name; their number, or -1 if root cannot be read */
static int lesson_scan(const char *root, cc_lesson *out, int cap)
{
    DIR *d = opendir(root);
    if (!d) return -1;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL && n < cap) {
        char path[CC_LESSON_PATH];
        if (!lesson_name_ok(de->d_name) || lesson_path(path, root, de->d_name) < 0) continue;
        FILE *f = fopen(path, "r");
        if (!f) continue;
        fclose(f);
        snprintf(out[n++].dir, CC_LESSON_NAME, "%.*s", CC_LESSON_NAME - 1, de->d_name);
    }
    closedir(d);
    qsort(out, (size_t)n, sizeof *out, lesson_cmp);
    return n;
}

/* title (after "-- Lesson NNN:" on the first line) and difficulty ("-- Difficulty: N") of a
 * lesson.lua; "(no title)" and '?' when the header does not have them */
static void lesson_header(const char *path, char *title, size_t cap, char *difficulty)
{
    char line[256];
    snprintf(title, cap, "(no title)");
    *difficulty = '?';
    FILE *f = fopen(path, "r");
    if (!f) return;
    for (int lineno = 0; lineno < 40 && fgets(line, sizeof line, f); lineno++) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strncmp(line, "--", 2) != 0) break;
        const char *s = line + 2;
        while (*s == ' ' || *s == '-') s++;
        if (lineno == 0) {
            const char *colon = strchr(s, ':');
            if (!strncmp(s, "Lesson ", 7) && colon) s = colon + 1;
            while (*s == ' ') s++;
            if (*s) snprintf(title, cap, "%.*s", (int)cap - 1, s);   /* long titles are cut */
        } else if (!strncmp(s, "Difficulty:", 11)) {
            s += 11;
            while (*s == ' ') s++;
            if (*s >= '1' && *s <= '3') *difficulty = *s;
        }
    }
    fclose(f);
}

static int lesson_list(const char *root, const cc_lesson *ls, int n)
{
    printf("Lessons in %s (run one with: clothcheck lesson N)\n\n", root);
    printf("  %-3s  %-26s  %-4s  %s\n", "N", "name", "diff", "title");
    for (int i = 0; i < n; i++) {
        char path[CC_LESSON_PATH], title[200], diff;
        if (lesson_path(path, root, ls[i].dir) < 0) continue;
        lesson_header(path, title, sizeof title, &diff);
        printf("  %.3s  %-26s  %c     %s\n", ls[i].dir, ls[i].dir + 4, diff, title);
    }
    if (n == 0) printf("  (none)\n");
    return CC_EXIT_OK;
}

/* 1 if key names lesson dir: its number, or a prefix of the folder or of the name after "NNN_" */
static int lesson_matches(const char *dir, const char *key)
{
    size_t k = strlen(key);
    if (k == 0) return 0;
    return !strncmp(dir, key, k) || !strncmp(dir + 4, key, k);
}

int cc_cmd_lesson(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
        return lesson_usage(stdout), CC_EXIT_OK;
    if (argc >= 2 && argv[1][0] == '-')
        return cc_cli_error("lesson", "unknown option '%s' (see clothcheck lesson --help)", argv[1]);
    const char *root = cc_lessons_root();
    static cc_lesson ls[CC_LESSON_MAX];
    int n = lesson_scan(root, ls, CC_LESSON_MAX);
    if (n < 0) return cc_cli_error("lesson", "cannot read the lessons folder '%s' (set CLOTHCHECK_LESSONS)", root);
    if (argc < 2) return lesson_list(root, ls, n);

    const char *key = argv[1];
    int found = -1, count = 0;
    for (int i = 0; i < n; i++)
        if (lesson_matches(ls[i].dir, key)) found = i, count++;
    if (count == 0)
        return cc_cli_error("lesson", "no lesson '%s' in %s (clothcheck lesson lists them)", key, root);
    if (count > 1)
        return cc_cli_error("lesson", "'%s' names %d lessons; give the number (clothcheck lesson lists them)",
                            key, count);

    if (argc >= 3 && cc_lesson_is_exercise_option(argv[2]))
        return cc_lesson_exercise(root, ls[found].dir, argc - 2, argv + 2);
    for (int i = 2; i < argc; i++)   /* options of --check, which would reach the lesson as its arguments */
        if (!strncmp(argv[i], "--hint", 6) || !strncmp(argv[i], "--cpu-limit", 11))
            return cc_cli_error("lesson", "%s goes with --check (clothcheck lesson %.3s --check %s ...)", argv[i],
                                ls[found].dir, argv[i]);
    char path[CC_LESSON_PATH], out[CC_LESSON_PATH];
    if (lesson_path(path, root, ls[found].dir) < 0)
        return cc_cli_error("lesson", "path of lesson '%s' is too long", ls[found].dir);
    snprintf(out, sizeof out, "out/%s", ls[found].dir);
    /* run lesson.lua with arg = {[0] = path, ARGS...} */
    argv[1] = path;
    cc_run_opts o = {.argc = argc - 1, .argv = argv + 1, .out = out, .cpu_limit = CC_RUN_CPU_LIMIT,
                     .memory_limit = CC_RUN_MEMORY_LIMIT};
    return cc_run_script(&o);
}
