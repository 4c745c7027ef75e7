#define _DEFAULT_SOURCE
/* Suite: docs/lua.md's examples run as written, and it documents every Lua function.
 *
 * Every ```lua block of docs/lua.md is written to a file of its own in a scratch folder and
 * run with `clothcheck run --out DIR FILE`; each must exit 0 (its asserts pass). Every name the
 * Lua layer registers in a luaL_Reg table of a src/lua source (metamethods aside) must appear in
 * the document as clothcheck.NAME, :NAME( or .NAME.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cc_test.h"

static char out[1 << 16], err[1 << 14];

static char *read_doc(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/docs/lua.md", CC_SOURCE_DIR);
    return cc_test_read_file(path);
}

/* s with every run of spaces, tabs and new lines made one space, into out (cap bytes) */
static void squeeze(const char *s, char *out, size_t cap)
{
    size_t k = 0;
    for (; *s && k + 1 < cap; s++) {
        int space = *s == ' ' || *s == '\t' || *s == '\n';
        if (space && (k == 0 || out[k - 1] == ' ')) continue;
        out[k++] = space ? ' ' : *s;
    }
    while (k > 0 && out[k - 1] == ' ') k--;
    out[k] = '\0';
}

static void test_examples(void)
{
    char *text = read_doc();
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    char dir[] = "/tmp/cc_lua_docsXXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    CU_ASSERT_EQUAL_FATAL(chdir(dir), 0);
    int n = 0;
    for (char *p = strstr(text, "```lua\n"); p; p = strstr(p, "```lua\n")) {
        p += 7;
        char *end = strstr(p, "```");
        CU_ASSERT_PTR_NOT_NULL_FATAL(end);
        char file[64], args[160];
        snprintf(file, sizeof file, "example%02d.lua", ++n);
        FILE *f = fopen(file, "w");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        fwrite(p, 1, (size_t)(end - p), f);
        fclose(f);
        snprintf(args, sizeof args, "run --out out%02d %s", n, file);
        int rc = cc_test_run_cli(args, out, sizeof out, err, sizeof err);
        if (rc != 0) fprintf(stderr, "docs/lua.md example %d exited %d: %s\n", n, rc, err);
        CU_ASSERT_EQUAL(rc, 0);
        /* every example prints what it shows, and prints what its "--> " comments say */
        if (!out[0]) fprintf(stderr, "docs/lua.md example %d prints nothing\n", n);
        CU_ASSERT(out[0] != '\0');
        char said[sizeof out];
        squeeze(out, said, sizeof said);
        for (char *q = p; (q = strstr(q, "--> ")) != NULL && q < end; q++) {
            char want[256], line[256];
            size_t len = strcspn(q + 4, "\n");
            snprintf(line, sizeof line, "%.*s", (int)len, q + 4);
            squeeze(line, want, sizeof want);
            if (!strstr(said, want)) fprintf(stderr, "docs/lua.md example %d: '%s' not in its output: %s\n", n, want, said);
            CU_ASSERT_PTR_NOT_NULL(strstr(said, want));
        }
        p = end + 3;
    }
    CU_ASSERT(n >= 15);
    free(text);
}

/* 1 if doc mentions function name as clothcheck.NAME, :NAME( or .NAME */
static int documented(const char *doc, const char *name)
{
    const char *forms[] = {"clothcheck.%s", ":%s(", ".%s"};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        char word[96];
        snprintf(word, sizeof word, forms[i], name);
        if (strstr(doc, word)) return 1;
    }
    return 0;
}

static void test_every_function(void)
{
    char *doc = read_doc();
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    char dirpath[512];
    snprintf(dirpath, sizeof dirpath, "%s/src/lua", CC_SOURCE_DIR);
    DIR *d = opendir(dirpath);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int names = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 3 || strcmp(e->d_name + len - 2, ".c")) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dirpath, e->d_name);
        char *src = cc_test_read_file(path);
        CU_ASSERT_PTR_NOT_NULL_FATAL(src);
        /* entries {"name", function} of luaL_Reg tables */
        for (char *p = strstr(src, "{\""); p; p = strstr(p + 2, "{\"")) {
            char name[64], fn[64];
            if (sscanf(p, "{\"%63[a-z_0-9]\", %63[a-zA-Z_0-9]}", name, fn) != 2) continue;
            if (!strncmp(name, "__", 2) || (strncmp(fn, "l_", 2) && strncmp(fn, "cc_lua_", 7))) continue;
            names++;
            if (!documented(doc, name)) fprintf(stderr, "docs/lua.md does not document %s (%s)\n", name, e->d_name);
            CU_ASSERT(documented(doc, name));
        }
        free(src);
    }
    closedir(d);
    CU_ASSERT(names >= 50);
    free(doc);
}

int main(void)
{
    static const cc_test_case tests[] = {
        {"docs/lua.md's examples", test_examples}, {"every Lua function documented", test_every_function}, {NULL, NULL}};
    return cc_test_main("lua_docs", tests);
}
