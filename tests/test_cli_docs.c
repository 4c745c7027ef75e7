/* Suite: docs/cli.md's examples run as written.
 *
 * Every line of a ```sh block in docs/cli.md that starts with "clothcheck " is run with the
 * built binary, in a scratch folder holding links to the source tree's docs/, lessons/, lua/
 * and tests/, and must exit with 0 or with the status written after "# exit". Every command of
 * `clothcheck --help` must have an example, and every option its `--help` lists an example
 * of that command using it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cc_test.h"

/* a scratch folder with links to docs/, lessons/, lua/ and tests/, made the working directory */
static void scratch(void)
{
    char dir[] = "/tmp/cc_cli_docsXXXXXX", cmd[1024];
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "ln -s '%s/docs' '%s/lessons' '%s/lua' '%s/tests' '%s'", CC_SOURCE_DIR, CC_SOURCE_DIR,
             CC_SOURCE_DIR, CC_SOURCE_DIR, dir);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    CU_ASSERT_EQUAL_FATAL(chdir(dir), 0);
}

static char examples[1 << 16];   /* the example lines, one per line */

/* every option of `clothcheck cmd --help` is used by an example of cmd; the number of options */
static int check_options(const char *cmd)
{
    static char out[1 << 14], err[1 << 12];
    char args[64];
    snprintf(args, sizeof args, "%s --help", cmd);
    CU_ASSERT_EQUAL(cc_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
    int options = 0;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
        char opt[48];
        if (sscanf(line, " %47[-a-z]", opt) != 1 || strncmp(opt, "--", 2) || line[0] != ' ') continue;
        options++;
        int used = 0;
        char prefix[64];
        snprintf(prefix, sizeof prefix, "clothcheck %s ", cmd);
        for (const char *ex = examples; *ex && !used;) {
            const char *nl = strchr(ex, '\n');
            size_t n = nl ? (size_t)(nl - ex) : strlen(ex);
            char l[512];
            snprintf(l, sizeof l, "%.*s ", (int)(n < 510 ? n : 510), ex);
            char word[52];
            snprintf(word, sizeof word, "%s ", opt);
            used = !strncmp(l, prefix, strlen(prefix)) && strstr(l, word);
            ex += n + (nl ? 1 : 0);
        }
        if (!used) fprintf(stderr, "docs/cli.md has no example of %s %s\n", cmd, opt);
        CU_ASSERT(used);
    }
    return options;
}

static void test_examples(void)
{
    static char out[1 << 16], err[1 << 14];
    char path[512], seen[512] = " ";
    snprintf(path, sizeof path, "%s/docs/cli.md", CC_SOURCE_DIR);
    char *text = cc_test_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    scratch();
    int in_sh = 0, run = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (!strncmp(line, "```", 3)) {
            in_sh = !in_sh && !strncmp(line, "```sh", 5);
            continue;
        }
        if (!in_sh || strncmp(line, "clothcheck ", 11)) continue;
        if (strlen(examples) + strlen(line) + 2 < sizeof examples) strcat(strcat(examples, line), "\n");
        int want = 0;
        char *hash = strstr(line, "# exit ");
        if (hash) want = atoi(hash + 7), *hash = '\0';
        char cmd[32];
        if (sscanf(line + 11, "%31s", cmd) == 1 && strlen(seen) + strlen(cmd) + 2 < sizeof seen)
            strcat(strcat(seen, cmd), " ");
        int rc = cc_test_run_cli(line + 11, out, sizeof out, err, sizeof err);
        if (rc != want) fprintf(stderr, "docs/cli.md: '%s' exited %d, expected %d: %s\n", line, rc, want, err);
        CU_ASSERT_EQUAL(rc, want);
        run++;
    }
    CU_ASSERT(run >= 30);
    const char *commands[] = {"eval", "derive", "demo", "run", "force", "lesson", "bench", "audit", "probe"};
    int options = 0;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        char word[40];
        snprintf(word, sizeof word, " %s ", commands[i]);
        if (!strstr(seen, word)) fprintf(stderr, "docs/cli.md has no example of %s\n", commands[i]);
        CU_ASSERT_PTR_NOT_NULL(strstr(seen, word));
        options += check_options(commands[i]);
    }
    if (options < 30) fprintf(stderr, "only %d options found in the commands' --help\n", options);
    CU_ASSERT(options >= 30);
    free(text);
}

/* 1 if p, inside s, starts a source code: "00N" not inside a longer number ("2003") */
static int is_code(const char *s, const char *p)
{
    return p[2] >= '0' && p[2] <= '9' && (p == s || p[-1] == ' ' || p[-1] == '(' || p[-1] == ';') &&
           !(p[3] >= '0' && p[3] <= '9');
}

/* 1 if docs/sources.md (text) gives source code "00N" at the start of s its row */
static int code_explained(const char *text, const char *s)
{
    char row[16];
    snprintf(row, sizeof row, "| **%.3s** |", s);
    return strstr(text, row) != NULL;
}

/* Every source code that the commands' help texts and the variants' sources cite ("001 (57)",
 * "002 slides", ...) has its reference in docs/sources.md; README links the page and
 * clothcheck --help says where the codes are explained (and mentions --version). */
static void test_source_codes(void)
{
    static char out[1 << 16], err[1 << 14];
    char path[512];
    snprintf(path, sizeof path, "%s/docs/sources.md", CC_SOURCE_DIR);
    char *text = cc_test_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    snprintf(path, sizeof path, "%s/README.md", CC_SOURCE_DIR);
    char *readme = cc_test_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(readme);
    CU_ASSERT_PTR_NOT_NULL(strstr(readme, "(docs/sources.md)"));
    free(readme);
    CU_ASSERT_EQUAL(cc_test_run_cli("--help", out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "docs/sources.md"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "clothcheck --version"));
    static const char *const helps[] = {"--help", "eval --help", "derive --help", "audit --help", "force --help",
                                        "bench --help", "probe --help", "run --help", "lesson --help"};
    int codes = 0;
    for (size_t h = 0; h < sizeof helps / sizeof helps[0]; h++) {
        CU_ASSERT_EQUAL(cc_test_run_cli(helps[h], out, sizeof out, err, sizeof err), 0);
        for (const char *p = out; (p = strstr(p, "00")) != NULL; p++)
            if (is_code(out, p)) {
                codes++;
                if (!code_explained(text, p)) fprintf(stderr, "%s cites %.3s: not in docs/sources.md\n", helps[h], p);
                CU_ASSERT(code_explained(text, p));
            }
    }
    for (int i = 0; i < cc_condition_count(); i++)
        for (const char *src = cc_condition_at(i)->source, *p = src; (p = strstr(p, "00")) != NULL; p++)
            if (is_code(src, p)) {
                codes++;
                CU_ASSERT(code_explained(text, p));
            }
    CU_ASSERT(codes >= 10);
    free(text);
}

int main(void)
{
    static const cc_test_case tests[] = {{"docs/cli.md's examples", test_examples},
                                         {"every source code has its reference", test_source_codes}, {NULL, NULL}};
    return cc_test_main("cli_docs", tests);
}
