#define _DEFAULT_SOURCE
/* Suite: io — atomic output files, CSV, directories, JSON numbers written and read, the two JSON
 * readers alike. */
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cc_test.h"
#include "io/files.h"
#include "io/g17.h"
#include "io/json.h"
#include "io/jread.h"
#include "io/jsonr.h"
#include "jtokens.h"

static char dir[64];

static void fresh_dir(void)
{
    strcpy(dir, "/tmp/cc_io_XXXXXX");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
}

/* number of entries in dir other than . and .. */
static int entries(const char *d)
{
    DIR *p = opendir(d);
    int n = 0;
    for (struct dirent *e; p && (e = readdir(p));) n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (p) closedir(p);
    return n;
}

static void read_all(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
    buf[n] = '\0';
    if (f) fclose(f);
}

/* commit renames into place; abort leaves the old file and no temporary */
static void test_outfile(void)
{
    char path[128], err[256], buf[256];
    fresh_dir();
    snprintf(path, sizeof path, "%s/a.txt", dir);
    cc_outfile o;
    CU_ASSERT_EQUAL_FATAL(cc_outfile_open(&o, path, err), 0);
    fputs("first\n", o.f);
    CU_ASSERT_EQUAL(cc_outfile_commit(&o, err), 0);
    CU_ASSERT_EQUAL_FATAL(cc_outfile_open(&o, path, err), 0);
    fputs("half-writ", o.f);
    cc_outfile_abort(&o);
    read_all(path, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "first\n");
    CU_ASSERT_EQUAL(entries(dir), 1);
    struct stat st;   /* readable by others as any output file, not mkstemp's 0600 */
    mode_t mask = umask(022);
    CU_ASSERT_EQUAL_FATAL(cc_outfile_open(&o, path, err), 0);
    CU_ASSERT_EQUAL(cc_outfile_commit(&o, err), 0);
    umask(mask);
    CU_ASSERT_EQUAL(stat(path, &st), 0);
    CU_ASSERT_EQUAL(st.st_mode & 0777, 0644);
    remove(path);
    rmdir(dir);
}

static void test_csv(void)
{
    char path[128], err[256], buf[512];
    fresh_dir();
    snprintf(path, sizeof path, "%s/s.csv", dir);
    const char *names[] = {"t", "energy"};
    double v[] = {0, 1.5, 0.02, NAN};
    CU_ASSERT_EQUAL_FATAL(cc_write_csv(path, names, 2, v, 2, err), 0);
    read_all(path, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "t,energy\n0,1.5\n0.02,nan\n");
    remove(path);
    CU_ASSERT_EQUAL(cc_write_csv("/nonexistent/dir/s.csv", names, 2, v, 2, err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot write /nonexistent/dir/s.csv"));
    CU_ASSERT_EQUAL(entries(dir), 0);
    rmdir(dir);
}

static void test_mkdir_p(void)
{
    char path[160], err[256];
    fresh_dir();
    snprintf(path, sizeof path, "%s/out/bend_compare/frames", dir);
    CU_ASSERT_EQUAL(cc_mkdir_p(path, err), 0);
    CU_ASSERT_EQUAL(cc_mkdir_p(path, err), 0);   /* again: fine */
    CU_ASSERT_EQUAL(access(path, W_OK), 0);
    char file[200];
    snprintf(file, sizeof file, "%s/out/plain", dir);
    FILE *f = fopen(file, "w");
    fclose(f);
    snprintf(path, sizeof path, "%s/out/plain/sub", dir);
    CU_ASSERT_EQUAL(cc_mkdir_p(path, err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "not a directory"));
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

static void test_json_numbers(void)
{
    char buf[256] = {0};
    FILE *f = fmemopen(buf, sizeof buf, "w");
    double v[] = {0.1, -2, INFINITY, NAN};
    cc_json_array(f, v, 4);
    fputc(' ', f);
    cc_json_string(f, "a\"b\\c\n");
    fclose(f);
    CU_ASSERT_STRING_EQUAL(buf, "[0.10000000000000001, -2, null, null] \"a\\\"b\\\\c\\n\"");
}

/* cc_g17(v) is snprintf's "%.17g" of v, byte for byte (and its length), for v given as bits */
static int g17_differs(uint64_t bits)
{
    double v;
    memcpy(&v, &bits, sizeof v);
    char a[CC_G17_LEN], b[64];
    int na = cc_g17(a, v), nb = snprintf(b, sizeof b, "%.17g", v);
    if (na == nb && !strcmp(a, b)) return 0;
    fprintf(stderr, "cc_g17 printed %s where %%.17g prints %s\n", a, b);
    return 1;
}

static uint64_t bits_of(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

/* Printed as printf prints "%.17g": the edges of the exact path (1e-11, 4e15, 2^53, the powers of
 * ten and their neighbours), zeros, subnormals, infinities, NaN; doubles of random bits; random
 * values of every decade the path covers; and the ties, m 2^-(s+1) with m odd, whose 18th digit
 * is an exact 5 (rounded to even). */
static void test_g17(void)
{
    static const double fixed[] = {0.0, -0.0, 1.0, -1.0, 0.1, 1e-11, 9.9999999999999994e-12, 1e-5, 1e-4, 0.001,
                                   4e15, 4.5e15, 9007199254740992.0, 9007199254740993.0, 1e16, 1e17, 1e22,
                                   4.9406564584124654e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
                                   INFINITY, -INFINITY, NAN, 1.00000762939453125, 123456.78901234567};
    int differ = 0;
    for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; k++) differ += g17_differs(bits_of(fixed[k]));
    for (int p = -330; p <= 310; p++) {
        double t = pow(10, p);
        differ += g17_differs(bits_of(t)) + g17_differs(bits_of(nextafter(t, 0))) + g17_differs(bits_of(nextafter(t, INFINITY)));
    }
    uint64_t u = 88172645463325252ull;
    for (int k = 0; k < 600000 && differ < 5; k++) {
        u ^= u << 13, u ^= u >> 7, u ^= u << 17;   /* xorshift64 */
        double v;
        switch (k % 3) {
        case 0: differ += g17_differs(u); break;
        case 1:
            v = ldexp((double)(u >> 11), -53) * pow(10, (int)(u % 31) - 13);
            differ += g17_differs(bits_of(u >> 63 ? -v : v));
            break;
        default: {
            int x = (int)(u % 27) - 11, s = 16 - x;   /* 10^x <= v < 10^(x+1): 17 digits at 10^-s */
            v = ldexp((double)((u >> 12) | 1), -s - 1);
            while (v >= pow(10, x + 1)) v /= 2;
            while (v < pow(10, x)) v *= 2;
            differ += g17_differs(bits_of(v));
        }
        }
    }
    CU_ASSERT_EQUAL(differ, 0);
}

/* the number JSON text `t` reads as (t must parse), or NaN with *ok = 0 when it does not */
static double read_number(const char *t, int *ok)
{
    char err[CC_ERRLEN];
    cc_jdoc *d = cc_jdoc_parse(t, strlen(t), err);
    *ok = d != NULL;
    double v = d ? cc_jv_number(cc_jdoc_root(d)) : NAN;
    cc_jdoc_free(d);
    return v;
}

/* Numbers are read as strtod reads them, bit for bit: short ones by the exact path (at most 15
 * digits, exponent within +-22), those of up to 19 digits in extended precision, the rest by
 * strtod; malformed ones are refused. */
static void test_json_read_numbers(void)
{
    static const char *const fixed[] = {"0", "-0", "-0.0e5", "1.", "0.001", "123456789012345", "1234567890123456",
                                        "0.1", "1e22", "1e23", "1e-22", "1e-23", "9007199254740993",
                                        "4.9406564584124654e-324", "1.7976931348623157e308", "2.5E+3", "-7e-0",
                                        "0.000000000000000000000000123", "100000000000000000000000"};
    int ok;
    for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; k++) {
        double v = read_number(fixed[k], &ok), w = strtod(fixed[k], NULL);
        CU_ASSERT(ok);
        if (memcmp(&v, &w, sizeof v)) fprintf(stderr, "%s read as %.17g, strtod %.17g\n", fixed[k], v, w);
        CU_ASSERT_EQUAL(memcmp(&v, &w, sizeof v), 0);
    }
    srand(7);
    char t[64];
    int differ = 0;
    for (int k = 0; k < 200000; k++) {
        double x = ((double)rand() / RAND_MAX - 0.5) * pow(10, rand() % 40 - 20);
        switch (k % 4) {
        case 0: snprintf(t, sizeof t, "%.*g", 1 + k % 17, x); break;
        case 1: snprintf(t, sizeof t, "%.*e", k % 17, x); break;
        case 2: snprintf(t, sizeof t, "%.*f", k % 12, x); break;
        default: snprintf(t, sizeof t, "%d", rand() - RAND_MAX / 2); break;
        }
        double v = read_number(t, &ok), w = strtod(t, NULL);
        differ += !ok || memcmp(&v, &w, sizeof v) != 0;
    }
    CU_ASSERT_EQUAL(differ, 0);
    /* 16 to 19 digits (the extended path): random ones, and integers on, next to and a digit's
     * rounding away from the midpoints between doubles of 2^53..2^63, where a double rounding
     * would go wrong */
    for (int k = 0; k < 200000; k++) {
        char d[24];
        int nd = 16 + k % 4;
        for (int i = 0; i < nd; i++) d[i] = (char)('0' + (i ? rand() % 10 : 1 + rand() % 9));
        d[nd] = 0;
        if (k % 3 == 0) {   /* a midpoint: 2^p + (2j + 1) 2^(p-53), then 1 off it, or 10 times it */
            int p = 53 + rand() % 11;
            uint64_t j = ((uint64_t)rand() << 31 ^ (uint64_t)rand()) & ((1ull << 52) - 1);
            uint64_t mid = (1ull << p) + (2 * j + 1) * (1ull << (p - 53));
            snprintf(d, sizeof d, "%llu", (unsigned long long)(mid + (uint64_t)(k % 2 ? 0 : rand() % 3) - 1));
            nd = (int)strlen(d);
        }
        int dot = rand() % (nd + 1);
        switch (k % 5) {
        case 0: snprintf(t, sizeof t, "%s", d); break;
        case 1: snprintf(t, sizeof t, "%.*s.%se%d", dot ? dot : 1, d, d + (dot ? dot : 1), rand() % 61 - 30); break;
        case 2: snprintf(t, sizeof t, "-0.%s", d); break;
        case 3: snprintf(t, sizeof t, "%s0000e-%d", d, rand() % 30); break;
        default: snprintf(t, sizeof t, "%.*s.%s", dot ? dot : 1, d, d + (dot ? dot : 1)); break;
        }
        double v = read_number(t, &ok), w = strtod(t, NULL);
        if (ok && memcmp(&v, &w, sizeof v) && differ < 5) fprintf(stderr, "%s read as %.17g, strtod %.17g\n", t, v, w);
        differ += !ok || memcmp(&v, &w, sizeof v) != 0;
    }
    CU_ASSERT_EQUAL(differ, 0);
    /* a refusal is one line whatever bytes it quotes (fuzz_json: a key holding a newline) */
    static const char *const quoted[] = {"{\"a\nb\" 1}", "[\x01]", "\"\\\n\"", "{\"k\x7f\" 2}"};
    for (size_t k = 0; k < sizeof quoted / sizeof quoted[0]; k++) {
        char err[CC_ERRLEN] = "";
        cc_jdoc *d = cc_jdoc_parse(quoted[k], strlen(quoted[k]), err);
        CU_ASSERT_PTR_NULL(d);
        CU_ASSERT(err[0] != '\0');
        for (const char *c = err; *c; c++) CU_ASSERT((unsigned char)*c >= 0x20 && *c != 0x7f);
        cc_jdoc_free(d);
    }
    /* the non-finite numbers as C's printf (-nan), Go (+Inf), Fortran, Java and Python print them */
    static const char *const nans[] = {"nan", "-nan", "NaN", "+nan", "NAN", "-NaN"};
    for (size_t k = 0; k < sizeof nans / sizeof nans[0]; k++) CU_ASSERT(isnan(read_number(nans[k], &ok)) && ok);
    static const char *const infs[] = {"inf", "+inf", "Inf", "+Inf", "INF", "Infinity", "+Infinity", "INFINITY"};
    for (size_t k = 0; k < sizeof infs / sizeof infs[0]; k++) {
        CU_ASSERT(read_number(infs[k], &ok) == INFINITY && ok);
        char neg[16];
        snprintf(neg, sizeof neg, "-%s", infs[k] + (infs[k][0] == '+'));
        CU_ASSERT(read_number(neg, &ok) == -INFINITY && ok);
    }
    static const char *const bad[] = {"1.2.3", "1e", "1e+", "1+2", "--1", "1e5e5", "0x10", "+1", "-na", "in", "+-inf"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        read_number(bad[k], &ok);
        if (ok) fprintf(stderr, "'%s' was read\n", bad[k]);
        CU_ASSERT(!ok);
    }
}

/* the decimals of the document text[0..n), n bytes exactly (the text not terminated) */
static cc_jdecimals decimals_of(const char *text)
{
    size_t n = strlen(text);
    char *copy = malloc(n ? n : 1), err[160];   /* no NUL after it: a reader that reads past it is caught */
    memcpy(copy, text, n);
    cc_jdoc *d = cc_jdoc_parse(copy, n, err);
    cc_jdecimals dec = d ? cc_jdoc_decimals(d) : (cc_jdecimals){-1, -1, -1};
    cc_jdoc_free(d);
    free(copy);
    return dec;
}

/* every number's significant digits and whether a float rounds to it: %.17g of a double is not a
 * float's, %.9g and the shortest repr of a float are, whatever their digits; zeros do not count;
 * an exponent at the very end of the text is read within it (tests/fuzz/regress/json) */
static void test_json_decimals(void)
{
    cc_jdecimals d = decimals_of("[0.10000000000000001, 0.2, 0, -0.0, 3]");
    CU_ASSERT_EQUAL(d.count, 3);
    CU_ASSERT_EQUAL(d.max_digits, 17);
    CU_ASSERT_EQUAL(d.nonfloat, 1);   /* 0.1 as a double; 0.2 and 3 are near floats to their digits */
    d = decimals_of("[0.100000001, -0.946289062, 1.17549435e-38, 3.40282347e+38]");   /* floats, %.9g */
    CU_ASSERT(d.count == 4 && d.max_digits == 9 && d.nonfloat == 0);
    d = decimals_of("[0.1, 0.3333333, 1e-05]");   /* numpy's float32 reprs */
    CU_ASSERT(d.count == 3 && d.max_digits == 7 && d.nonfloat == 0);
    d = decimals_of("[0.333333333333, 1.0000001234]");   /* doubles that no float rounds to */
    CU_ASSERT_EQUAL(d.nonfloat, 2);
    d = decimals_of("8e0");
    CU_ASSERT(d.count == 1 && d.max_digits == 1 && d.nonfloat == 0);
    d = decimals_of("[1.5e-3, 2.50E+2]");
    CU_ASSERT(d.count == 2 && d.max_digits == 3);
    int floats;
    cc_jdecimals f = {30, 0, 9}, g = {30, 0, 6}, h = {30, 1, 17};
    CU_ASSERT_DOUBLE_EQUAL(cc_jdecimals_precision(&f, 0, 0, &floats), 0x1p-24, 1e-20);
    CU_ASSERT_EQUAL(floats, 1);
    CU_ASSERT_DOUBLE_EQUAL(cc_jdecimals_precision(&g, 0, 0, &floats), 5e-6, 1e-18);   /* %g: its digits */
    CU_ASSERT_EQUAL(floats, 0);
    CU_ASSERT_DOUBLE_EQUAL(cc_jdecimals_precision(&h, 0, 0, &floats), 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(cc_jdecimals_precision(&h, 1, 0, &floats), 0x1p-24, 1e-20);   /* declared */
}

/* The streaming reader reads what the document reader reads, refuses what it refuses with the
 * same reason at the same byte, and counts the same decimals, however the text is cut. */
static void test_json_stream(void)
{
    char deep[3][200];
    for (int k = 0; k < 3; k++) {   /* 64 arrays in arrays with a number inside (refused), 64 empty, 65 */
        int d = 64 + (k == 2);
        memset(deep[k], '[', (size_t)d);
        snprintf(deep[k] + d, 200 - (size_t)d, "%s", k == 0 ? "1" : "");
        size_t at = strlen(deep[k]);
        memset(deep[k] + at, ']', (size_t)d), deep[k][at + (size_t)d] = '\0';
    }
    const char *docs[] = {
        "{\"energy\": 1.5, \"force\": [0.1, -2e-3, NaN, Infinity, -Infinity, nan, inf, -inf, null], \"ok\": true}",
        " [ ] ", "{}", "{ \"a\" : { \"b\" : [ [ ], { } ] } }\n", "\"\\u00e9\\ud83d\\ude00\\n\\t\\\"\\/\"", "0", "-0.0e5",
        "[0.100000001, -0.946289062, 1.17549435e-38, 0.10000000000000001]", "[1, 2, 3", "[1,]", "[1 2]",
        "{\"a\" 1}", "{1: 2}", "{\"a\": }", "\"unclosed", "\"ab\\", "\"a\x01b\"", "\"\\u12\"", "\"\\ud800\\u0041\"",
        "\"\\q\"", "", "   ", "nul", "tru", "-Inf", "1e", "1.2.3", "[1] 2", "{\"a\": 1}}", "[\"a\nb\"]",
        "12345678901234567890123456789012345678901234567890123456789012345",
        "[123456789012345678901234567890123456789012345678901234567890123]", "{\"k\": 1, \"k\": 2}",
        "[true, false, null, \"\", {\"\": []}]", deep[0], deep[1], deep[2]};
    int differ = 0;
    for (size_t k = 0; k < sizeof docs / sizeof docs[0]; k++) {
        size_t n = strlen(docs[k]);
        char *want = cc_jtokens_dom(docs[k], n);
        CU_ASSERT_PTR_NOT_NULL_FATAL(want);
        for (size_t piece = 1; piece <= n + 1; piece++) {
            char *got = cc_jtokens_stream(docs[k], n, piece);
            if (!got || strcmp(got, want)) {
                if (!differ++) fprintf(stderr, "doc %zu in pieces of %zu:\n%s-- against --\n%s", k, piece, got, want);
            }
            free(got);
        }
        free(want);
    }
    CU_ASSERT_EQUAL(differ, 0);
}

static int whole(void *ctx, size_t done, const char **s, size_t *n, char *err)
{
    const char **text = ctx;
    (void)err;
    *text += done;
    *s = *text, *n = strlen(*text);
    return 0;
}

/* skipping a value skips all of it, nested values included, and nothing after it */
static void test_json_skip(void)
{
    const char *text = "{\"a\": [1, {\"b\": [2, 3]}, [[]]], \"c\": 4, \"d\": \"x\"}", *at = text;
    cc_jread r;
    cc_jread_init(&r, whole, &at);
    CU_ASSERT_EQUAL(cc_jread_next(&r), CC_JT_OBJECT);
    int t = cc_jread_next(&r);
    CU_ASSERT(t == CC_JT_ARRAY && !strcmp(r.key, "a"));
    CU_ASSERT_EQUAL(cc_jread_skip(&r, t), 0);
    CU_ASSERT(cc_jread_next(&r) == CC_JT_NUMBER && !strcmp(r.key, "c") && r.num == 4);
    CU_ASSERT_EQUAL(cc_jread_skip(&r, CC_JT_NUMBER), 0);
    CU_ASSERT(cc_jread_next(&r) == CC_JT_STRING && !strcmp(r.str, "x"));
    CU_ASSERT_EQUAL(cc_jread_next(&r), CC_JT_CLOSE);
    CU_ASSERT_EQUAL(cc_jread_end(&r), 0);
    CU_ASSERT_EQUAL(r.depth, 0);
    cc_jread_free(&r);
}

int main(void)
{
    static const cc_test_case tests[] = {
        {"output files are atomic", test_outfile},
        {"CSV", test_csv},
        {"mkdir -p", test_mkdir_p},
        {"JSON numbers and strings", test_json_numbers},
        {"doubles printed as %.17g prints them", test_g17},
        {"JSON numbers read as strtod reads them", test_json_read_numbers},
        {"the decimals of JSON numbers: digits and floats", test_json_decimals},
        {"the streaming JSON reader reads as the document reader, in any pieces", test_json_stream},
        {"the streaming JSON reader skips a whole value", test_json_skip},
        {NULL, NULL}};
    return cc_test_main("io", tests);
}
