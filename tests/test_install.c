/* Suite: the installed library, as another program uses it (docs/api.md).
 *
 * Installs the build into a fresh prefix (cmake --install), checks the files, then builds the
 * examples of docs/examples/ out of tree against that prefix only: the C ones and the C++ one,
 * each through pkg-config (their Makefiles) and through find_package (their CMakeLists.txt),
 * and runs every build: the right force exits 0 and holds its claim; each planted mistake
 * exits 1, and the claim's rows name the kind of mistake the engine diagnoses for it:
 *   sign          gradient and Hessian: "sign"
 *   forgot-k      "scale", 0.4 times (k = 2.5 left out)
 *   missing-term  gradient: "localized" on vertices 1, 2 and "direction" along n^B
 *   relabelled    gradient and Hessian: "relabelled", with the vertex map
 *   nan-flat      Hessian: "non-finite", NaN on the flat hinge e0
 * docs/api.md's complete example is compiled from the page and must print what the page shows,
 * and so must the Bridson example for each output the page quotes. Both libraries export the
 * header's functions and nothing else (nm), and the version is one: the header's, the
 * library's, `clothcheck --version` and the Lua module's.
 * Not in the sanitizer and fuzzing builds (CMakeLists.txt): their library needs their runtime.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "api/clothcheck.h"
#include "cc_test.h"

#define OUTCAP 65536

static char work[512];     /* the test's directory: prefix/, the builds, their outputs */
static char out[OUTCAP];   /* what the last command printed, stdout and stderr */

/* run the shell command cmd (printf-style) in work; its exit status, its output in out */
static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char cmd[2048], line[512];
    va_list ap;
    va_start(ap, fmt);
    int at = snprintf(cmd, sizeof cmd, "cd '%s' && { ", work);
    at += vsnprintf(cmd + at, sizeof cmd - (size_t)at, fmt, ap);
    va_end(ap);
    snprintf(cmd + at, sizeof cmd - (size_t)at, "; } 2>&1");
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    size_t n = 0;
    out[0] = '\0';
    while (fgets(line, sizeof line, p))
        if (n + strlen(line) < OUTCAP) strcpy(out + n, line), n += strlen(line);
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* 1 if path (relative to work) is a file */
static int exists(const char *path)
{
    char full[1024];
    struct stat st;
    snprintf(full, sizeof full, "%s/%s", work, path);
    return stat(full, &st) == 0 && S_ISREG(st.st_mode);
}

/* block = the table line of row (ref, q) in out and the finding lines under it ("" if none) */
static void row_block(const char *ref, const char *q, char *block, size_t cap)
{
    char head[64];
    snprintf(head, sizeof head, "\n  %-12s %-19s", ref, q);
    const char *s = strstr(out, head), *e;
    block[0] = '\0';
    if (!s) return;
    for (e = strchr(s + 1, '\n'); e && !strncmp(e + 1, "      ", 6); e = strchr(e + 1, '\n')) {}
    size_t n = e ? (size_t)(e - s) : strlen(s);
    snprintf(block, cap, "%.*s", (int)(n < cap ? n : cap - 1), s);
}

/* the installed files, from cmake --install into work/prefix */
static void test_install_files(void)
{
    CU_ASSERT_EQUAL_FATAL(sh("'%s' --install '%s' --prefix prefix", CC_CMAKE_COMMAND, CC_BINARY_DIR), 0);
    CU_ASSERT(exists("prefix/" CC_INSTALL_LIBDIR "/libclothcheck.a"));
    CU_ASSERT(exists("prefix/" CC_INSTALL_LIBDIR "/libclothcheck.so." CLOTHCHECK_VERSION));
    CU_ASSERT(exists("prefix/include/clothcheck/clothcheck.h"));
    CU_ASSERT(exists("prefix/" CC_INSTALL_LIBDIR "/pkgconfig/clothcheck.pc"));
    CU_ASSERT(exists("prefix/" CC_INSTALL_LIBDIR "/cmake/clothcheck/clothcheckConfig.cmake"));
    CU_ASSERT(exists("prefix/" CC_INSTALL_LIBDIR "/cmake/clothcheck/clothcheckTargets.cmake"));
    CU_ASSERT(!exists("prefix/include/clothcheck/audit.h"));   /* the engine's headers stay private */
    CU_ASSERT_EQUAL(sh("PKG_CONFIG_PATH=prefix/" CC_INSTALL_LIBDIR "/pkgconfig pkg-config --libs --static clothcheck"), 0);
    CU_ASSERT(strstr(out, "-lclothcheck") && strstr(out, "-lm"));
}

/* the names `nm` lists, one a line, sorted, into names; 0 or -1 */
static int symbols(const char *nm_args, char *names, size_t cap)
{
    if (sh("nm %s | awk 'NF == 3 { print $3 }' | sort -u", nm_args) != 0) return -1;
    snprintf(names, cap, "%s", out);
    return 0;
}

/* each library exports exactly the functions the installed header declares */
static void test_exports(void)
{
    char *header = malloc(OUTCAP), *shared = malloc(OUTCAP), *archive = malloc(OUTCAP);
    CU_ASSERT_FATAL(header && shared && archive);
    /* the header's functions: "clothcheck_NAME(" at the start of a declaration's name */
    CU_ASSERT_EQUAL(sh("grep -o '[a-z_ *]clothcheck_[a-z_]*(' prefix/include/clothcheck/clothcheck.h | "
                       "sed 's/^.//; s/($//' | sort -u"), 0);
    snprintf(header, OUTCAP, "%s", out);
    CU_ASSERT(strstr(header, "clothcheck_audit\n") && strstr(header, "clothcheck_version\n") &&
              strstr(header, "clothcheck_kind_name\n") && strstr(header, "clothcheck_audit_exec\n"));
    CU_ASSERT_EQUAL(symbols("-D --defined-only prefix/" CC_INSTALL_LIBDIR "/libclothcheck.so", shared, OUTCAP), 0);
    CU_ASSERT_EQUAL(symbols("-g --defined-only prefix/" CC_INSTALL_LIBDIR "/libclothcheck.a", archive, OUTCAP), 0);
    if (strcmp(shared, header)) fprintf(stderr, "libclothcheck.so exports:\n%s\nthe header declares:\n%s", shared, header);
    if (strcmp(archive, header)) fprintf(stderr, "libclothcheck.a defines:\n%s\nthe header declares:\n%s", archive, header);
    CU_ASSERT_STRING_EQUAL(shared, header);
    CU_ASSERT_STRING_EQUAL(archive, header);
    free(header), free(shared), free(archive);
}

/* one version: the header's macro, the library's clothcheck_version(), the CLI's --version and
 * the Lua module's, linked through pkg-config without --static */
static void test_version(void)
{
    FILE *f;
    char path[1024];
    snprintf(path, sizeof path, "%s/version.c", work);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f = fopen(path, "w"));
    fputs("#include <stdio.h>\n#include <string.h>\n#include <clothcheck/clothcheck.h>\n"
          "int main(void) {\n"
          "    printf(\"%s %s %d\\n\", CLOTHCHECK_VERSION, clothcheck_version(), clothcheck_version_number());\n"
          "    return strcmp(CLOTHCHECK_VERSION, clothcheck_version()) || clothcheck_version_number() != CLOTHCHECK_VERSION_NUMBER;\n"
          "}\n", f);
    fclose(f);
    CU_ASSERT_EQUAL(sh("export PKG_CONFIG_PATH=\"$PWD/prefix/" CC_INSTALL_LIBDIR "/pkgconfig\"; cc -std=c11 -Wall "
                       "$(pkg-config --cflags clothcheck) version.c -o version $(pkg-config --libs clothcheck) "
                       "-Wl,-rpath,\"$(pkg-config --variable=libdir clothcheck)\""), 0);
    CU_ASSERT_EQUAL(sh("./version"), 0);
    char want[64];
    snprintf(want, sizeof want, "%s %s %d\n", CLOTHCHECK_VERSION, CLOTHCHECK_VERSION, CLOTHCHECK_VERSION_NUMBER);
    CU_ASSERT_STRING_EQUAL(out, want);
    CU_ASSERT_EQUAL(sh("ldd ./version | grep libclothcheck.so | grep -v 'not found'"), 0);   /* the shared one */
    /* the static one, named as docs/api.md says: the same numbers, no libclothcheck.so */
    CU_ASSERT_EQUAL(sh("export PKG_CONFIG_PATH=\"$PWD/prefix/" CC_INSTALL_LIBDIR "/pkgconfig\"; cc -std=c11 -Wall "
                       "$(pkg-config --cflags clothcheck) version.c -o version_static "
                       "\"$(pkg-config --variable=libdir clothcheck)/libclothcheck.a\" -lm -pthread && ./version_static"), 0);
    CU_ASSERT_STRING_EQUAL(out, want);
    CU_ASSERT_EQUAL(sh("ldd ./version_static | grep -c libclothcheck"), 1);
    CU_ASSERT_EQUAL(sh("'%s' --version", CC_CLI_PATH), 0);
    CU_ASSERT_STRING_EQUAL(out, "clothcheck " CLOTHCHECK_VERSION "\n");
    CU_ASSERT_EQUAL(sh("printf 'print(require(\"clothcheck\").version)\\n' > version.lua && '%s' run version.lua", CC_CLI_PATH), 0);
    CU_ASSERT_STRING_EQUAL(out, CLOTHCHECK_VERSION "\n");
}

/* the examples built out of tree: pkg-config (Makefiles) and find_package (CMakeLists.txt) */
static void test_build_examples(void)
{
    static const char *const lang[] = {"c", "cpp"};
    for (int i = 0; i < 2; i++) {
        CU_ASSERT_EQUAL(sh("mkdir -p pc-%s && PKG_CONFIG_PATH=\"$PWD/prefix/" CC_INSTALL_LIBDIR "/pkgconfig\" "
                           "make -f '%s/docs/examples/%s/Makefile' OUT=pc-%s",
                           lang[i], CC_SOURCE_DIR, lang[i], lang[i]), 0);
        if (*out && strstr(out, "warning")) fprintf(stderr, "%s", out);
        CU_ASSERT(strstr(out, "warning") == NULL);
        CU_ASSERT_EQUAL(sh("'%s' -S '%s/docs/examples/%s' -B cm-%s -DCMAKE_PREFIX_PATH=\"$PWD/prefix\" && '%s' --build cm-%s",
                           CC_CMAKE_COMMAND, CC_SOURCE_DIR, lang[i], lang[i], CC_CMAKE_COMMAND, lang[i]), 0);
        if (strstr(out, "rror")) fprintf(stderr, "%s", out);
    }
    CU_ASSERT(exists("pc-c/audit_bend") && exists("pc-c/test_bend_force") && exists("pc-cpp/audit_bend_cpp"));
    CU_ASSERT(exists("cm-c/audit_bend") && exists("cm-c/test_bend_force") && exists("cm-cpp/audit_bend_cpp"));
}

/* The audit programs of the four builds. */
static const char *const programs[] = {"pc-c/audit_bend", "pc-cpp/audit_bend_cpp", "cm-c/audit_bend",
                                       "cm-cpp/audit_bend_cpp"};

/* the right force: exit 0, every claim row of a derivative passes */
static void test_right_force(void)
{
    char block[4096];
    for (int p = 0; p < 4; p++) {
        CU_ASSERT_EQUAL(sh("./%s", programs[p]), 0);
        CU_ASSERT(strstr(out, "=> holds its claim") != NULL);
        row_block("claim", "gradient", block, sizeof block);
        CU_ASSERT(strstr(block, "PASS") != NULL);
        row_block("claim", "hessian", block, sizeof block);
        CU_ASSERT(strstr(block, "PASS") != NULL);
    }
}

/* One planted mistake: the row whose block must hold every one of `says` (and FAIL). */
typedef struct planted {
    const char *mistake;
    const char *quantity;    /* the claim row diagnosed ("finite": the target's own row) */
    const char *says[3];     /* what its block must contain, NULL-terminated */
} planted;

static const planted mistakes[] = {
    {"sign", "gradient", {"^ sign", NULL}},
    {"sign", "hessian", {"^ sign", NULL}},
    {"forgot-k", "gradient", {"^ scale", "0.4 times the reference", NULL}},
    {"forgot-k", "hessian", {"^ scale", NULL}},
    {"missing-term", "gradient", {"localized        The error lives on vertices 1, 2 only", "along the normal n^B", NULL}},
    {"relabelled", "gradient", {"^ relabelled", "your x0, x1, x2, x3 are our x2, x0, x1, x3", NULL}},
    {"relabelled", "hessian", {"^ relabelled", NULL}},
    {"nan-flat", "finite", {"^ non-finite", "NaN at edge case e0:flat", NULL}},
};

/* each planted mistake: exit 1, its claim row FAILs with the diagnosis above */
static void test_planted_mistakes(void)
{
    char block[4096];
    for (int p = 0; p < 4; p++)
        for (size_t i = 0; i < sizeof mistakes / sizeof mistakes[0]; i++) {
            const planted *m = &mistakes[i];
            CU_ASSERT_EQUAL(sh("./%s --mistake %s", programs[p], m->mistake), 1);
            CU_ASSERT(strstr(out, "=> FAILS its claim") != NULL);
            row_block(strcmp(m->quantity, "finite") ? "claim" : "target", m->quantity, block, sizeof block);
            int ok = strstr(block, "FAIL") != NULL;
            for (int s = 0; m->says[s]; s++) ok = ok && strstr(block, m->says[s]) != NULL;
            if (!ok) fprintf(stderr, "%s --mistake %s, claim %s:\n%s\n", programs[p], m->mistake, m->quantity, block);
            CU_ASSERT(ok);
        }
}

/* the unit test in the style of GradientChecker: passes as written, fails with its log */
static void test_unit_test(void)
{
    static const char *const builds[] = {"pc-c", "cm-c"};
    for (int b = 0; b < 2; b++) {
        CU_ASSERT_EQUAL(sh("./%s/test_bend_force", builds[b]), 0);
        CU_ASSERT(strstr(out, "test_bend_force: passed") != NULL);
        CU_ASSERT_EQUAL(sh("./%s/test_bend_force --mistake forgot-k", builds[b]), 1);
        CU_ASSERT(strstr(out, "expected clothcheck_verdict(r) == 0") && strstr(out, "scale: The analytic derivative is 0.4"));
    }
    CU_ASSERT_EQUAL(sh("cd cm-c && ctest --output-on-failure"), 0);
}

/* buf = the body of the first code block fenced "```lang" after marker in doc; 0 or -1 */
static int block_after(const char *doc, const char *marker, const char *lang, char *buf, size_t cap)
{
    char fence[32];
    snprintf(fence, sizeof fence, "```%s\n", lang);
    const char *m = strstr(doc, marker), *b = m ? strstr(m, fence) : NULL, *e;
    if (!b) return -1;
    b += strlen(fence);
    e = strstr(b, "```");
    if (!e || (size_t)(e - b) >= cap) return -1;
    snprintf(buf, cap, "%.*s", (int)(e - b), b);
    return 0;
}

/* 1 if every line of block (but "  ...") is a line of out; prints the first that is not */
static int lines_in_out(const char *block, const char *what)
{
    char line[1024];
    for (const char *p = block; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        snprintf(line, sizeof line, "%.*s", (int)n, p);
        p += n + (nl != NULL);
        if (!*line || !strcmp(line, "  ...")) continue;
        if (!strstr(out, line)) return fprintf(stderr, "docs/api.md, %s: not printed: %s\n", what, line), 0;
    }
    return 1;
}

/* docs/api.md's complete example compiles against the prefix and prints what the page shows;
 * the Bridson example's outputs on the page are what the programs print */
static void test_doc(void)
{
    char path[1024], *code = malloc(OUTCAP), *block = malloc(OUTCAP), marker[64];
    snprintf(path, sizeof path, "%s/docs/api.md", CC_SOURCE_DIR);
    char *doc = cc_test_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT_EQUAL_FATAL(block_after(doc, "## A complete example", "c", code, OUTCAP), 0);
    snprintf(path, sizeof path, "%s/spring.c", work);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(code, f);
    fclose(f);
    CU_ASSERT_EQUAL(sh("export PKG_CONFIG_PATH=\"$PWD/prefix/" CC_INSTALL_LIBDIR "/pkgconfig\"; cc -std=c11 -Wall -Wextra "
                       "-Wpedantic $(pkg-config --cflags clothcheck) spring.c -o spring $(pkg-config --libs clothcheck) -lm -Wl,-rpath,\"$(pkg-config --variable=libdir clothcheck)\""), 0);
    CU_ASSERT(!strstr(out, "warning"));
    CU_ASSERT_EQUAL(sh("./spring"), 1);
    CU_ASSERT(block_after(doc, "## A complete example", "text", block, OUTCAP) == 0 && lines_in_out(block, "spring.c"));
    CU_ASSERT_EQUAL(sh("./pc-c/audit_bend"), 0);
    CU_ASSERT(block_after(doc, "The right force:", "text", block, OUTCAP) == 0 && lines_in_out(block, "the right force"));
    for (size_t i = 0; i < sizeof mistakes / sizeof mistakes[0]; i++) {
        snprintf(marker, sizeof marker, "**`--mistake %s`**", mistakes[i].mistake);
        CU_ASSERT_EQUAL(sh("./pc-c/audit_bend --mistake %s", mistakes[i].mistake), 1);
        CU_ASSERT(block_after(doc, marker, "text", block, OUTCAP) == 0 && lines_in_out(block, marker));
    }
    free(doc);
    free(code);
    free(block);
}

/* a fresh work directory in the build tree; 0 or -1 */
static int make_work(void)
{
    snprintf(work, sizeof work, "%s/test_install.XXXXXX", CC_BINARY_DIR);
    return mkdtemp(work) ? 0 : -1;
}

int main(void)
{
    static const cc_test_case tests[] = {
        {"cmake --install: library, header, pkg-config file, CMake package", test_install_files},
        {"the libraries export the header's functions only", test_exports},
        {"one version: header, library, CLI, Lua", test_version},
        {"examples built out of tree: pkg-config and find_package, C and C++", test_build_examples},
        {"the right force holds its claim", test_right_force},
        {"each planted mistake fails, diagnosed", test_planted_mistakes},
        {"the GradientChecker-style unit test", test_unit_test},
        {"docs/api.md: its example and outputs as printed", test_doc},
        {NULL, NULL}};
    if (make_work() < 0) return perror("test_install: mkdtemp"), 1;
    int rc = cc_test_main("install", tests);
    if (rc == 0) sh("cd .. && rm -rf '%s'", work);   /* kept when a test failed, to look at */
    return rc;
}
