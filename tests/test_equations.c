/* Suite: docs/equations.md, the equation map, cannot rot.
 *
 * Every row names the function that implements an equation (`file:function`), the
 * `clothcheck derive` step that checks it (condition/variant: step) and the lesson that teaches
 * it; each must exist: the file, the function in it, the variant and its step, the lesson
 * folder. The map must cover every numbered equation of 001, (1)-(58) and (A.1)-(A.13).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cc_test.h"
#include "conditions/derivation.h"

#define MAXCOL 8

/* split a table row "| a | b \| c | d |" into trimmed columns (an escaped \| stays in a column) */
static int columns(char *line, char *col[MAXCOL])
{
    int n = 0;
    char *p = line + 1, *start = p;
    for (; *p && n < MAXCOL; p++) {
        if (*p != '|' || p[-1] == '\\') continue;
        *p = '\0';
        while (*start == ' ') start++;
        for (char *e = p - 1; e >= start && *e == ' '; e--) *e = '\0';
        col[n++] = start;
        start = p + 1;
    }
    return n;
}

/* `path:function`: the file exists and defines or declares function( */
static void check_impl(const char *cell)
{
    char path[512], fn[128], buf[1024];
    const char *a = strchr(cell, '`'), *colon = a ? strchr(a, ':') : NULL, *b = colon ? strchr(colon, '`') : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    snprintf(path, sizeof path, "%.*s", (int)(colon - a - 1), a + 1);
    snprintf(fn, sizeof fn, "%.*s(", (int)(b - colon - 1), colon + 1);
    snprintf(buf, sizeof buf, "%s/%s", CC_SOURCE_DIR, path);
    char *text = cc_test_read_file(buf);
    if (!text) fprintf(stderr, "equations.md names %s, which does not exist\n", path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    if (!strstr(text, fn)) fprintf(stderr, "equations.md: %s has no %s\n", path, fn);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, fn));
    free(text);
}

/* "condition/variant: step": the variant exists and its derivation has that step */
static void check_step(const char *cell)
{
    if (!strcmp(cell, "—")) return;
    char cond[32], var[32];
    const char *slash = strchr(cell, '/'), *colon = strchr(cell, ':');
    CU_ASSERT_PTR_NOT_NULL_FATAL(colon);
    snprintf(cond, sizeof cond, "%.*s", (int)(slash - cell), cell);
    snprintf(var, sizeof var, "%.*s", (int)(colon - slash - 1), slash + 1);
    const cc_condition *c = cc_condition_find(cond, var);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    int found = 0;
    for (int i = 0; i < c->derivation->nsteps; i++) found |= !strcmp(c->derivation->steps[i]->name, colon + 2);
    if (!found) fprintf(stderr, "equations.md: %s/%s has no step '%s'\n", cond, var, colon + 2);
    CU_ASSERT(found);
}

/* "NNN": a lesson folder NNN_name exists */
static void check_lesson(const char *cell)
{
    if (!strcmp(cell, "—")) return;
    char dir[512];
    snprintf(dir, sizeof dir, "%s/lessons", CC_SOURCE_DIR);
    DIR *d = opendir(dir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int found = 0;
    for (struct dirent *e; (e = readdir(d));) found |= strncmp(e->d_name, cell, 3) == 0 && e->d_name[3] == '_';
    closedir(d);
    if (!found) fprintf(stderr, "equations.md names lesson %s, which does not exist\n", cell);
    CU_ASSERT(found);
}

/* mark the numbers of "(a)-(b)" or "(a)" (appendix numbers "(A.a)" into app) */
static void mark(const char *cell, int seen[64], int app[16])
{
    int a, b;
    if (sscanf(cell, "(A.%d)-(A.%d)", &a, &b) == 2 || (sscanf(cell, "(A.%d)", &a) == 1 && (b = a)))
        for (int i = a; i <= b && i < 16; i++) app[i] = 1;
    else if (sscanf(cell, "(%d)-(%d)", &a, &b) == 2 || (sscanf(cell, "(%d)", &a) == 1 && (b = a)))
        for (int i = a; i <= b && i < 64; i++) seen[i] = 1;
}

static void test_map(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/docs/equations.md", CC_SOURCE_DIR);
    char *text = cc_test_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    int rows = 0, seen[64] = {0}, app[16] = {0};
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *col[MAXCOL];
        if (strncmp(line, "| ", 2) || !strncmp(line, "| eq", 4) || !strncmp(line, "|---", 4)) continue;
        CU_ASSERT_EQUAL_FATAL(columns(line, col), 5);
        check_impl(col[2]);
        check_step(col[3]);
        check_lesson(col[4]);
        mark(col[0], seen, app);
        rows++;
    }
    CU_ASSERT(rows >= 50);
    for (int i = 1; i <= 58; i++) {
        if (!seen[i]) fprintf(stderr, "equations.md: no row for 001 (%d)\n", i);
        CU_ASSERT(seen[i]);
    }
    for (int i = 1; i <= 13; i++) CU_ASSERT(app[i]);
    free(text);
}

int main(void)
{
    static const cc_test_case tests[] = {{"docs/equations.md names what exists", test_map}, {NULL, NULL}};
    return cc_test_main("equations", tests);
}
